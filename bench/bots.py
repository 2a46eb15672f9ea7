"""Bot benchmark: a strength ladder per variant, and heuristic decision speed.

Run: ``python bench/bots.py [--games N] [--ismcts-games M] [--ismcts-option KEY=VALUE ...]
[--speed-games K] [--jobs J] [--variants V ...]``.

For every variant at a 4-player table it plays N whole games of each pairing "one stronger bot
against three weaker ones" — greedy vs three random, heuristic vs three greedy, and (when
``make_bot("ismcts")`` imports) ismcts vs three heuristic over M games — with the stronger bot's
seat rotating from game to game (game ``g`` uses seat ``g mod 4`` and deal seed ``seed + g``).
A search bot thinks for up to a second per decision, so its pairing defaults to a couple of games
(``--ismcts-games``; ``--ismcts-option simulations=8`` passes options to ``make_bot``).
It prints the stronger bot's win share (co-winners share a win: 1/k each), its 95% Wilson
confidence interval, whether the share is significantly above the 1/4 of an equal bot, and the
stronger bot's mean milliseconds per decision (decisions with more than one legal action).
Then it prints whole games per second (and the mean decision time) at heuristic-only tables, with the
standard deviation of one seat's score in one round there ("round sd", the scale of
``rummy.bots.rewards.ROUND_SCORE_SPREAD``).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from rummy.bots import decide, make_bot
from rummy.engine import Action, Game, Phase, new_game
from rummy.search.playout import drive
from rummy.sim import wilson_interval as wilson

TABLES = [
    ("progressive-buy-it", 4),
    ("progressive-15", 4),
    ("may-i", 4),
    ("basic", 4),
    ("purchase", 4),
]
PAIRINGS = [("greedy", "random"), ("heuristic", "greedy")]


Job = tuple[str, int, str, str, int, int, dict[str, object]]


def one_game(job: Job) -> tuple[float, float, int]:
    """The strong bot's share of the win in game ``number`` of a pairing, its thinking seconds, and
    its decisions with more than one legal action."""
    variant, players, strong, weak, number, seed, options = job
    seat = number % players
    bots = [
        make_bot(strong, seed=seed + 1000 * number + s, **options) if s == seat
        else make_bot(weak, seed=seed + 1000 * number + s)
        for s in range(players)
    ]
    thinking = 0.0
    decisions = 0

    def choose(game: Game, actor: int) -> Action:
        nonlocal thinking, decisions
        if actor != seat:
            return decide(game, actor, bots[actor])
        tick = time.perf_counter()
        action = decide(game, actor, bots[actor])
        if len(game.legal_actions(actor)) > 1:
            thinking += time.perf_counter() - tick
            decisions += 1
        return action

    game = new_game(variant, players, seed=seed + number)
    drive(game, choose)
    winners = game.winners()
    return (1.0 / len(winners) if seat in winners else 0.0), thinking, decisions


def ladder(variant: str, players: int, strong: str, weak: str, games: int, seed: int,
           pool: ProcessPoolExecutor | None, options: dict[str, object] | None = None
           ) -> tuple[float, float, float, float, float]:
    """(share, low, high, seconds, strong bot's ms per real decision) against ``players - 1`` ``weak``."""
    jobs: list[Job] = [(variant, players, strong, weak, number, seed, options or {}) for number in range(games)]
    started = time.perf_counter()
    outcomes = list(pool.map(one_game, jobs)) if pool is not None else [one_game(job) for job in jobs]
    elapsed = time.perf_counter() - started
    won = sum(share for share, _, _ in outcomes)
    thinking = sum(seconds for _, seconds, _ in outcomes)
    decisions = sum(count for _, _, count in outcomes)
    low, high = wilson(won, games)
    return won / games, low, high, elapsed, 1000 * thinking / max(1, decisions)


def speed(variant: str, players: int, games: int, seed: int) -> tuple[float, float, int, float]:
    """Heuristic-only tables: (games per second, mean ms per decision, decisions, and the standard
    deviation of one seat's score in one round — ``rummy.bots.rewards.ROUND_SCORE_SPREAD``)."""
    decisions = 0
    thinking = 0.0
    round_scores: list[int] = []
    started = time.perf_counter()
    for number in range(games):
        bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
        game = new_game(variant, players, seed=seed + number)
        while not game.game_over:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            view = game.view(seat)
            tick = time.perf_counter()
            action = bots[seat].choose(view)
            thinking += time.perf_counter() - tick
            game.apply(action)
            decisions += 1
        round_scores.extend(score for result in game.results for score in result.scores)
    elapsed = time.perf_counter() - started
    spread = statistics.pstdev(round_scores) if round_scores else 0.0
    return games / elapsed, 1000 * thinking / max(1, decisions), decisions, spread


def parse_options(pairs: Sequence[str]) -> dict[str, object]:
    """``KEY=VALUE`` pairs; values that read as numbers become numbers."""
    options: dict[str, object] = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        value: object = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        options[key] = value
    return options


def ismcts_available(options: dict[str, object]) -> bool:
    """Whether the ``ismcts`` bot can be made (its module may not exist yet)."""
    try:
        make_bot("ismcts", seed=0, **options)
    except Exception:  # noqa: BLE001 - any import or construction failure means "not available"
        return False
    return True


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pairing and variant (default 40)")
    parser.add_argument("--ismcts-games", type=int, default=2,
                        help="games of ismcts vs three heuristic per variant (slow: ~1 s per decision)")
    parser.add_argument("--ismcts-option", action="append", default=[], metavar="KEY=VALUE",
                        help="option for make_bot('ismcts'), e.g. simulations=8 (repeatable)")
    parser.add_argument("--speed-games", type=int, default=5, help="heuristic-only games per variant for speed")
    parser.add_argument("--seed", type=int, default=20_000, help="first deal seed")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="worker processes for the ladder games (default: the CPUs, at most 4)")
    parser.add_argument("--variants", nargs="*", default=[v for v, _ in TABLES], help="variants to run")
    args = parser.parse_args(argv)

    pairings: list[tuple[str, str, int, dict[str, object]]] = [
        (strong, weak, args.games, {}) for strong, weak in PAIRINGS if args.games > 0
    ]
    ismcts_options = parse_options(args.ismcts_option)
    if args.ismcts_games > 0 and ismcts_available(ismcts_options):
        pairings.append(("ismcts", "heuristic", args.ismcts_games, ismcts_options))
    else:
        print("(ismcts vs three heuristic skipped: make_bot('ismcts') is not available or --ismcts-games 0)")
    tables = [(v, n) for v, n in TABLES if v in args.variants]
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        print("Strength ladder: one bot against three, seats rotated, win share with 95% Wilson CI "
              "(an equal bot wins 25%)")
        print(f"{'variant':<20} {'pairing':<26} {'games':>5} {'share':>6} {'95% CI':>15} {'> 25%?':>7} {'sec':>6}"
              f" {'ms/dec':>7}")
        for variant, players in tables:
            for strong, weak, games, options in pairings:
                share, low, high, seconds, ms = ladder(variant, players, strong, weak, games, args.seed, pool, options)
                verdict = "yes" if low > 1 / players else "no"
                label = f"{strong} vs 3 {weak}"
                print(f"{variant:<20} {label:<26} {games:>5} {share:>6.1%} {f'{low:.1%}–{high:.1%}':>15} "
                      f"{verdict:>7} {seconds:>6.1f} {ms:>7.1f}", flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    if args.speed_games <= 0:
        return
    print()
    print(f"Heuristic-only tables, {args.speed_games} games per variant, one core")
    print(f"{'variant':<20} {'players':>7} {'games/s':>8} {'decisions':>9} {'ms/decision':>12} {'round sd':>9}")
    for variant, players in tables:
        rate, ms, decisions, spread = speed(variant, players, args.speed_games, args.seed)
        print(f"{variant:<20} {players:>7} {rate:>8.2f} {decisions:>9} {ms:>12.2f} {spread:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
