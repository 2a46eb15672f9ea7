"""How much the property tests try: the Hypothesis profile and the size of the seeded random-game loops.

* ``ci`` (the default): what the README's test command and CI run, every test at its full count.
* ``dev``: a tenth of the examples and games, for a quick run while working
  (``HYPOTHESIS_PROFILE=dev python3 -m pytest``); it checks the same things, on fewer inputs.

A test names its full count once, ``@settings(max_examples=examples(400))`` or
``range(count(400))``; the profile scales it.  The profiles themselves are registered in
``tests/conftest.py``.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
SCALES = {"ci": 1.0, "dev": 0.1}
if PROFILE not in SCALES:
    raise RuntimeError(f"HYPOTHESIS_PROFILE must be one of {sorted(SCALES)}, not {PROFILE!r}")


def count(full: int) -> int:
    """``full`` under the ``ci`` profile, a tenth of it (at least 1) under ``dev``."""
    return max(1, round(full * SCALES[PROFILE]))


examples = count  # the Hypothesis spelling: @settings(max_examples=examples(400))
