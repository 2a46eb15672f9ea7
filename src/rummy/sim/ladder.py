"""The shipped ladder results: the pairwise comparisons of the first leaderboard (docs/eval.md), which
``rummy eval`` adds to its own when it fits the ratings, so that the ladder's ratings stay where the
leaderboard put them and an agent's rating rests on all of its games (``--no-reference``: this run only).

Each row counts, in one variant, the comparisons of ``first`` (the agent) with ``second`` (the opponent):
games in which ``first`` finished ahead of a seat of ``second`` (wins), behind (losses) or level (ties).
"""

from __future__ import annotations

from typing import Any

#: How the reference was made (printed under the ratings).
REFERENCE_NOTE = "none yet"
#: ``{variant, first, second, wins, losses, ties}`` rows (the ``comparisons`` of ``rummy eval --json``).
REFERENCE_COMPARISONS: tuple[dict[str, Any], ...] = ()
