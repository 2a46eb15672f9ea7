"""Contract-solver latency on random hands.

Run: ``python bench/solver.py [--hands N] [--seed S] [--all] [--clock wall|cpu]``.  For each hand family
prints the median, 99th percentile and maximum latency of one ``find_lay_down`` call (µs, one core, pure
Python) and the share of hands that can lay the contract down.  Targets: median < 100 µs, p99 < 2 ms on
the three main families.  ``--all`` adds further families for information.  ``--clock cpu`` times with
the process's CPU clock (comparable between runs on a shared machine; the wall clock is not).  Prints
figures; asserts nothing.  (The solver on hands from real games that can lay down: ``bench/engine.py``.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from rummy.engine import CARD_COUNT, get_variant, pack
from rummy.engine.solver import find_lay_down


@dataclass(frozen=True)
class Family:
    label: str
    variant: str
    round: int
    cards: int
    main: bool = True


FAMILIES = [
    Family("progressive-buy-it round 8, 14 cards", "progressive-buy-it", 8, 14),
    Family("progressive-15 hand 12 (5 runs of 3), 12 cards", "progressive-15", 12, 12),
    Family("progressive-15 hand 12 (5 runs of 3), 16 cards", "progressive-15", 12, 16),
    Family("progressive-15 hand 13 (5 sets of 3), 12 cards", "progressive-15", 13, 12),
    Family("progressive-15 hand 13 (5 sets of 3), 16 cards", "progressive-15", 13, 16),
    Family("progressive-buy-it round 5, 11 cards", "progressive-buy-it", 5, 11, False),
    Family("progressive-buy-it round 7, 13 cards", "progressive-buy-it", 7, 13, False),
    Family("progressive-15 hand 14 (set 5, run 5, pair), 12 cards", "progressive-15", 14, 12, False),
    Family("progressive-15 hand 9 (4 sets of 3), 12 cards", "progressive-15", 9, 12, False),
    Family("may-i hand 5 (2 sets, 1 run), 12 cards, 4 players", "may-i", 5, 12, False),
    Family("may-i hand 7 (3 runs of 4), 12 cards, 4 players", "may-i", 7, 12, False),
]


clock_ns = time.perf_counter_ns  # or time.process_time_ns (--clock cpu)


def measure(family: Family, hands: int, seed: int) -> tuple[float, float, float, float]:
    """(median µs, p99 µs, max µs, share that can lay down) over ``hands`` random hands."""
    variant = get_variant(family.variant)
    rules = variant.round_rules(family.round, 4)
    counts = pack(variant.decks_for(4), variant.jokers_per_deck)
    deck = [card for card in range(CARD_COUNT) for _ in range(counts[card])]
    rng = random.Random(seed)
    times: list[float] = []
    found = 0
    for _ in range(hands):
        hand = [0] * CARD_COUNT
        for card in rng.sample(deck, family.cards):
            hand[card] += 1
        started = clock_ns()
        plan = find_lay_down(
            hand, rules.contract, variant,
            final_discard_allowed=rules.final_discard_allowed,
            must_use_all=rules.must_go_out_on_laydown,
        )
        times.append((clock_ns() - started) / 1000)
        found += plan is not None
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return statistics.median(times), p99, times[-1], found / hands


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000, help="random hands per family")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--all", action="store_true", help="also the informative families")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="what to time with (default wall)")
    args = parser.parse_args(argv)
    global clock_ns
    clock_ns = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns
    print(f"Contract solver, find_lay_down, {args.hands} random hands per family (seed {args.seed}), one core, "
          f"{args.clock} clock")
    print(f"{'family':<56} {'median µs':>10} {'p99 µs':>9} {'max µs':>9} {'can lay down':>13}")
    for family in FAMILIES:
        if not family.main and not args.all:
            continue
        median, p99, worst, share = measure(family, args.hands, args.seed)
        print(f"{family.label:<56} {median:>10.1f} {p99:>9.1f} {worst:>9.1f} {share:>12.2%}")


if __name__ == "__main__":
    main()
