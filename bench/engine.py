"""Engine benchmark: decisions per second in random legal play, the cost of ``check`` and ``action_mask``,
the solver on hands that can lay down, and heuristic bot games.

Run: ``python bench/engine.py [--decisions N] [--games N] [--heuristic-games N] [--clock wall|cpu]``.
Prints figures (one core); asserts nothing.  ``--clock cpu`` times with the process's CPU clock instead of
the wall clock: the same work, but on a machine shared with other jobs it leaves out the time the process
waited for a core (the figures are then comparable between runs; wall-clock ones are not).

* A decision is one ``legal_actions`` call for the seat to act and one ``apply`` of the chosen action.
  Two players are measured: **uniform**, ``rng.choice(game.legal_actions(seat))``, a uniformly random
  choice among the candidate moves (what a new user writes first; hands grow large because nobody is
  steered toward going out; the list defers working out its best lay-down until it is read, so this
  player pays for it only when it picks it, see docs/engine.md), and **steered**, the
  project's random bot (:func:`rummy.search.playout.random_choice`: always lays down, buys 10% of the time,
  prefers table plays), which finishes games.  The uniform player is measured over the first
  ``--decisions`` decisions of several games, since its games can run very long.
* ``check`` and ``action_mask`` are timed on the states the uniform player passes through: ``check`` on
  one legal and one random illegal action per state.
* The solver is timed on the lay-downs it finds in those games (hands that can lay down, from real play).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from rummy.bots import decide, make_bot
from rummy.engine import Action, ActionSpace, Game, Phase, new_game
from rummy.engine.solver import find_lay_down
from rummy.search.playout import random_choice

clock = time.perf_counter  # or time.process_time (--clock cpu)
clock_ns = time.perf_counter_ns  # or time.process_time_ns

TABLES = [("progressive-buy-it", 4), ("progressive-15", 4), ("may-i", 4), ("basic", 4), ("purchase", 4)]

Policy = Callable[[list[Action], random.Random], Action]
POLICIES: dict[str, Policy] = {
    "uniform": lambda actions, rng: rng.choice(actions),
    "steered": lambda actions, rng: random_choice(actions, rng),
}


def play(variant: str, players: int, policy: Policy, *, games: int, cap: int,
         probe: Callable[[Game, int], None] | None = None) -> tuple[int, float, int]:
    """(decisions, seconds, largest hand) over ``games`` games, each cut at ``cap`` decisions."""
    decisions, elapsed, largest = 0, 0.0, 0
    for number in range(games):
        rng = random.Random(number)
        game = new_game(variant, players, seed=number)
        made = 0
        while not game.game_over and made < cap:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            if probe is not None:
                probe(game, seat)
            started = clock()
            game.apply(policy(game.legal_actions(seat), rng))
            elapsed += clock() - started
            made += 1
            largest = max(largest, max(game.sizes))
        decisions += made
    return decisions, elapsed, largest


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"median {statistics.median(samples):8.1f} µs   p99 {p99:9.1f} µs   ({len(samples)} samples)"


def query_costs(variant: str, players: int, decisions: int) -> tuple[list[float], list[float], list[float]]:
    """µs of ``check`` and ``action_mask`` per call, and of each successful solver lay-down, in uniform play."""
    checks: list[float] = []
    masks: list[float] = []
    solves: list[float] = []
    space: dict[int, ActionSpace] = {}
    rng = random.Random(99)

    def probe(game: Game, seat: int) -> None:
        actions = game.legal_actions(seat)
        space.setdefault(0, ActionSpace(game.variant, game.n))
        illegal = space[0].action_of(game, seat, 4 + rng.randrange(53))  # a discard, often not held
        for action in (rng.choice(actions), illegal):
            started = clock_ns()
            game.is_legal(action)
            checks.append((clock_ns() - started) / 1000)
        started = clock_ns()
        space[0].mask(game, seat)
        masks.append((clock_ns() - started) / 1000)
        if game.phase is Phase.PLAY and game.variant.has_contracts and not game.down[seat]:
            rules = game.rules
            started = clock_ns()
            found = find_lay_down(game.hands[seat], rules.contract, game.variant,
                                  final_discard_allowed=rules.final_discard_allowed,
                                  must_use_all=rules.must_go_out_on_laydown)
            if found:
                solves.append((clock_ns() - started) / 1000)

    play(variant, players, POLICIES["uniform"], games=3, cap=decisions, probe=probe)
    return checks, masks, solves


def heuristic_games(variant: str, players: int, games: int) -> float:
    """Whole games of four heuristic bots per second."""
    started = clock()
    for number in range(games):
        game = new_game(variant, players, seed=number)
        bots = [make_bot("heuristic", seed=number * 10 + seat) for seat in range(players)]
        while not game.game_over:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            game.apply(decide(game, seat, bots[seat]))
    return games / (clock() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=3000, help="decisions per uniform game (its cap)")
    parser.add_argument("--games", type=int, default=4, help="games per variant and player")
    parser.add_argument("--heuristic-games", type=int, default=10, help="heuristic games (progressive-buy-it)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="what to time with (default wall)")
    parser.add_argument("--variants", nargs="*", default=[v for v, _ in TABLES], help="variants of the play table")
    args = parser.parse_args()
    global clock, clock_ns
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    clock_ns = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns
    print(f"Clock: {args.clock}")
    print(f"Random legal play, {args.games} games per variant, one core (uniform games cut at {args.decisions})")
    print(f"{'variant':<20} {'player':<8} {'decisions':>10} {'seconds':>8} {'decisions/s':>12} {'largest hand':>13}")
    for variant, players in TABLES:
        if variant not in args.variants:
            continue
        for name, policy in POLICIES.items():
            cap = args.decisions if name == "uniform" else 10**9
            count, seconds, largest = play(variant, players, policy, games=args.games, cap=cap)
            print(f"{variant:<20} {name:<8} {count:>10} {seconds:>8.2f} {count / seconds:>12,.0f} {largest:>13}")
    print("\nQueries on the states of uniform play (progressive-buy-it, 4 players)")
    checks, masks, solves = query_costs("progressive-buy-it", 4, min(args.decisions, 1500))
    print(f"  check           {percentiles(checks)}")
    print(f"  action_mask     {percentiles(masks)}")
    print(f"  solver found    {percentiles(solves)}")
    rate = heuristic_games("progressive-buy-it", 4, args.heuristic_games)
    print(f"\nHeuristic bots, progressive-buy-it 4 players: {rate:.2f} games/s on one core")


if __name__ == "__main__":
    main()
