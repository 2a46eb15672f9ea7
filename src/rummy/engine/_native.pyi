# The compiled core (src/rummy/engine/_native_src/*.c); see rummy.engine.backends.
from collections.abc import Sequence

def lay_down_exists(hand: Sequence[int], spec: bytes) -> bool | None: ...
