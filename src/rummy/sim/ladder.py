"""The shipped ladder results: the pairwise comparisons of the first leaderboard (docs/eval.md), which
``rummy eval`` adds to its own when it fits the ratings, so that the ladder's ratings stay where the
leaderboard put them and an agent's rating rests on all of its games (``--no-reference``: this run only).

Each row counts, in one variant, the comparisons of ``first`` (the agent) with ``second`` (the opponent):
games in which ``first`` finished ahead of a seat of ``second`` (wins), behind (losses) or level (ties).
"""

from __future__ import annotations

from typing import Any

#: How the reference was made (printed under the ratings).
REFERENCE_NOTE = "the first leaderboard, 4 players, seed 0, docs/eval.md"
#: ``{variant, first, second, wins, losses, ties}`` rows (the ``comparisons`` of ``rummy eval --json``):
#: ``rummy eval random,greedy,heuristic --opponents random,greedy,heuristic --deals 20 --no-reference --json``
#: then ``rummy eval ismcts --opponents heuristic --variants basic,purchase --deals 16 --no-reference --json``.
REFERENCE_COMPARISONS: tuple[dict[str, Any], ...] = (
    {"variant": "progressive-buy-it", "first": "random", "second": "greedy", "wins": 6, "losses": 234, "ties": 0},
    {"variant": "progressive-buy-it", "first": "random", "second": "heuristic", "wins": 0, "losses": 240, "ties": 0},
    {"variant": "progressive-buy-it", "first": "greedy", "second": "random", "wins": 226, "losses": 13, "ties": 1},
    {"variant": "progressive-buy-it", "first": "greedy", "second": "heuristic", "wins": 35, "losses": 204, "ties": 1},
    {"variant": "progressive-buy-it", "first": "heuristic", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "progressive-buy-it", "first": "heuristic", "second": "greedy", "wins": 220, "losses": 20, "ties": 0},
    {"variant": "progressive-15", "first": "random", "second": "greedy", "wins": 2, "losses": 238, "ties": 0},
    {"variant": "progressive-15", "first": "random", "second": "heuristic", "wins": 1, "losses": 239, "ties": 0},
    {"variant": "progressive-15", "first": "greedy", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "progressive-15", "first": "greedy", "second": "heuristic", "wins": 46, "losses": 192, "ties": 2},
    {"variant": "progressive-15", "first": "heuristic", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "progressive-15", "first": "heuristic", "second": "greedy", "wins": 216, "losses": 23, "ties": 1},
    {"variant": "may-i", "first": "random", "second": "greedy", "wins": 10, "losses": 229, "ties": 1},
    {"variant": "may-i", "first": "random", "second": "heuristic", "wins": 5, "losses": 234, "ties": 1},
    {"variant": "may-i", "first": "greedy", "second": "random", "wins": 237, "losses": 3, "ties": 0},
    {"variant": "may-i", "first": "greedy", "second": "heuristic", "wins": 56, "losses": 184, "ties": 0},
    {"variant": "may-i", "first": "heuristic", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "may-i", "first": "heuristic", "second": "greedy", "wins": 182, "losses": 57, "ties": 1},
    {"variant": "basic", "first": "random", "second": "greedy", "wins": 5, "losses": 208, "ties": 27},
    {"variant": "basic", "first": "random", "second": "heuristic", "wins": 4, "losses": 92, "ties": 144},
    {"variant": "basic", "first": "greedy", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "basic", "first": "greedy", "second": "heuristic", "wins": 54, "losses": 96, "ties": 90},
    {"variant": "basic", "first": "heuristic", "second": "random", "wins": 240, "losses": 0, "ties": 0},
    {"variant": "basic", "first": "heuristic", "second": "greedy", "wins": 162, "losses": 71, "ties": 7},
    {"variant": "purchase", "first": "random", "second": "greedy", "wins": 6, "losses": 78, "ties": 156},
    {"variant": "purchase", "first": "random", "second": "heuristic", "wins": 9, "losses": 77, "ties": 154},
    {"variant": "purchase", "first": "greedy", "second": "random", "wins": 210, "losses": 10, "ties": 20},
    {"variant": "purchase", "first": "greedy", "second": "heuristic", "wins": 15, "losses": 75, "ties": 150},
    {"variant": "purchase", "first": "heuristic", "second": "random", "wins": 210, "losses": 10, "ties": 20},
    {"variant": "purchase", "first": "heuristic", "second": "greedy", "wins": 126, "losses": 38, "ties": 76},
    {"variant": "basic", "first": "ismcts", "second": "heuristic", "wins": 54, "losses": 51, "ties": 87},
    {"variant": "purchase", "first": "ismcts", "second": "heuristic", "wins": 48, "losses": 48, "ties": 96},
)
