"""Engine benchmark: decisions per second in random legal play, and contract-solver latency.

Run: ``python bench/engine.py [--games N] [--solver-hands N]``.  A decision is one call of
``legal_actions`` for the seat to act followed by ``apply`` of the chosen action.  Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rummy.game import Phase, new_game
from rummy.search.playout import random_choice

TABLES = [
    ("progressive-buy-it", 4),
    ("progressive-15", 4),
    ("may-i", 4),
    ("basic", 4),
    ("purchase", 4),
]


def decisions_per_second(variant: str, players: int, games: int, seed: int = 1) -> tuple[float, int, float]:
    """Random legal play of ``games`` whole games: (decisions/s, decisions, seconds)."""
    decisions = 0
    elapsed = 0.0
    for number in range(games):
        rng = random.Random(seed + number)
        game = new_game(variant, players, seed=seed + number)
        started = time.perf_counter()
        while not game.game_over:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            game.apply(random_choice(game.legal_actions(seat), rng))
            decisions += 1
        elapsed += time.perf_counter() - started
    return decisions / elapsed, decisions, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games per variant")
    parser.add_argument("--solver-hands", type=int, default=3000, help="random hands per solver family")
    args = parser.parse_args()
    print(f"Random legal play, {args.games} games per variant, one core")
    print(f"{'variant':<20} {'players':>7} {'decisions':>10} {'seconds':>8} {'decisions/s':>12}")
    for variant, players in TABLES:
        rate, count, seconds = decisions_per_second(variant, players, args.games)
        print(f"{variant:<20} {players:>7} {count:>10} {seconds:>8.2f} {rate:>12,.0f}")
    sys.path.insert(0, str(Path(__file__).parent))
    import solver as solver_bench  # bench/solver.py

    print()
    solver_bench.main([f"--hands={args.solver_hands}"])


if __name__ == "__main__":
    main()
