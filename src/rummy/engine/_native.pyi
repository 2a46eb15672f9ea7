# The compiled core (src/rummy/engine/_native_src/*.c); see rummy.engine.backends.
from collections.abc import Sequence
from typing import Literal

def lay_down_exists(hand: Sequence[int], spec: bytes) -> bool | None: ...
def best_lay_down(hand: Sequence[int], spec: bytes, extra: bytes
                  ) -> tuple[tuple[str, tuple[int, ...], int | None], ...] | Literal[False] | None: ...
