"""Regenerate the example records: one complete game of every variant, played by the random policy.

Run ``python examples/make_examples.py``.  Of a few seeded games per variant the shortest is kept,
so the records stay readable; ``tests/test_examples.py`` replays them and checks every round's
scores against an independent count.
"""

from __future__ import annotations

from pathlib import Path

from rummy.record import dumps, record_of
from rummy.search.playout import random_game

TABLES = {"progressive-buy-it": 4, "progressive-15": 4, "may-i": 4, "basic": 2, "purchase": 3}


def main() -> None:
    here = Path(__file__).parent
    for variant, players in TABLES.items():
        games = [random_game(variant, players, seed=seed) for seed in range(12)]
        best = min(games, key=lambda g: len(g.log))
        record = record_of(best)
        record.players = ["Ann", "Bob", "Cid", "Dee"][:players]
        (here / f"{variant}.json").write_text(dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"{variant}: seed {best.seed}, {len(best.log)} actions, totals {best.totals}")


if __name__ == "__main__":
    main()
