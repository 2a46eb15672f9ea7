"""Engine benchmark: decisions per second in random legal play, the cost of ``check``, ``action_mask`` and
``copy``, the solver on hands that can lay down, and heuristic bot games.

Run: ``python bench/engine.py [--decisions N] [--games N] [--heuristic-games N] [--clock wall|cpu]
[--backend python|native|both]``.
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
* ``check``, ``action_mask`` and ``copy`` are timed on the states the uniform player passes through: ``check``
  on one legal and one random illegal action per state.
* The solver is timed on the lay-downs it finds in those games (hands that can lay down, from real play).
* A peer in the same process, where installed (``pip install open_spiel``; not a dependency of the project):
  OpenSpiel's ``gin_rummy`` (C++, reached through ``pyspiel``), two players in uniform random play, a decision
  being one ``legal_actions()`` and one ``apply_action()``, and a stock draw's chance node applied on the clock
  (the deal's are not, as our deals are not; listing a chance node's outcomes is left out): the peer the issue of
  the compiled core (#29) compares with.
* ``--backend`` (docs/engine.md, "Backends"): the engine's Python code alone, or with its compiled core
  (default: the backend that runs, ``RUMMY_ENGINE``); ``both`` measures the two in one run, game by game in
  turn (each game from empty memo tables, so neither backend profits from the other's), and times the compiled
  query itself, ``can_lay_down``, on the hands of players not yet down in uniform play of the contract variants.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import rummy.engine.backends as backends
from rummy.bots import decide, make_bot
from rummy.bots.planning import forget_plans
from rummy.engine import (
    Action,
    ActionSpace,
    Game,
    Phase,
    Slot,
    Variant,
    backend,
    can_lay_down,
    clear_memos,
    new_game,
)
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


@contextmanager
def running(name: str) -> Iterator[None]:
    """The engine on backend ``name`` ("python" or "native") inside the block."""
    before = backends.NATIVE
    backends.NATIVE = backends.select(name)
    try:
        yield
    finally:
        backends.NATIVE = before


def play(variant: str, players: int, policy: Policy, *, games: int, cap: int,
         probe: Callable[[Game, int], None] | None = None, first: int = 0) -> tuple[int, float, int]:
    """(decisions, seconds, largest hand) over ``games`` games (seeds from ``first``), each cut at ``cap``
    decisions."""
    decisions, elapsed, largest = 0, 0.0, 0
    for number in range(first, first + games):
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


def query_costs(variant: str, players: int, decisions: int
                ) -> tuple[list[float], list[float], list[float], list[float]]:
    """µs of ``check``, ``action_mask`` and ``copy`` per call, and of each successful solver lay-down, in uniform
    play."""
    checks: list[float] = []
    masks: list[float] = []
    copies: list[float] = []
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
        started = clock_ns()
        game.copy()
        copies.append((clock_ns() - started) / 1000)
        if game.phase is Phase.PLAY and game.variant.has_contracts and not game.down[seat]:
            rules = game.rules
            started = clock_ns()
            found = find_lay_down(game.hands[seat], rules.contract, game.variant,
                                  final_discard_allowed=rules.final_discard_allowed,
                                  must_use_all=rules.must_go_out_on_laydown)
            if found:
                solves.append((clock_ns() - started) / 1000)

    play(variant, players, POLICIES["uniform"], games=3, cap=decisions, probe=probe)
    return checks, masks, copies, solves


def play_backends(variant: str, players: int, policy: Policy, *, games: int, cap: int, names: list[str]
                  ) -> dict[str, tuple[int, float, int]]:
    """:func:`play` on each backend of ``names``; with two, game by game in turn, each from empty memo tables."""
    totals = {name: (0, 0.0, 0) for name in names}
    if len(names) == 1:
        with running(names[0]):
            return {names[0]: play(variant, players, policy, games=games, cap=cap)}
    for number in range(games):
        for name in names:
            with running(name):
                clear_memos()
                count, seconds, largest = play(variant, players, policy, games=1, cap=cap, first=number)
            done = totals[name]
            totals[name] = (done[0] + count, done[1] + seconds, max(done[2], largest))
    return totals


def lay_down_queries(decisions: int) -> None:
    """µs per ``can_lay_down`` call on each backend, on the hands of players not yet down in uniform play of each
    contract variant (the same hands, interleaved call by call)."""
    print("\nThe compiled query, can_lay_down, on the hands of players not yet down in uniform play")
    print(f"{'variant':<20} {'hands':>6} {'python µs':>10} {'native µs':>10} {'speed-up':>9}")
    for variant, players in TABLES:
        cases: list[tuple[list[int], tuple[Slot, ...], Variant]] = []

        def probe(game: Game, seat: int, cases: list[tuple[list[int], tuple[Slot, ...], Variant]] = cases) -> None:
            if game.phase is Phase.PLAY and game.variant.has_contracts and not game.down[seat]:
                cases.append((list(game.hands[seat]), game.rules.contract, game.variant))

        play(variant, players, POLICIES["uniform"], games=2, cap=decisions, probe=probe)
        if not cases:
            continue
        times: dict[str, list[float]] = {"python": [], "native": []}
        for hand, contract, variant_rules in cases:
            for name in times:
                with running(name):
                    started = clock_ns()
                    can_lay_down(hand, contract, variant_rules)
                    times[name].append((clock_ns() - started) / 1000)
        python, native = statistics.mean(times["python"]), statistics.mean(times["native"])
        print(f"{variant:<20} {len(cases):>6} {python:>10.1f} {native:>10.1f} {python / native:>8.1f}×")


def heuristic_games(variant: str, players: int, games: int) -> float:
    """Whole games of four heuristic bots per second, from cold: the engine's memo tables and the bots' shared
    planners are emptied first (else a backend measured after another would replay the hands it analysed)."""
    clear_memos()
    forget_plans()
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


def openspiel_gin(games: int) -> float | None:
    """Decisions per second of uniform random play of OpenSpiel's ``gin_rummy``, or None when it is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # an optional peer, not a dependency
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    decisions, elapsed = 0, 0.0
    for _ in range(games):
        state = game.new_initial_state()
        dealt = False
        while not state.is_terminal():
            if state.is_chance_node():  # a card dealt, or drawn from the stock: the draw is part of a decision
                outcome = rng.choice(state.chance_outcomes())[0]
                started = clock()
                state.apply_action(outcome)
                if dealt:
                    elapsed += clock() - started
                continue
            dealt = True
            started = clock()
            state.apply_action(rng.choice(state.legal_actions()))
            elapsed += clock() - started
            decisions += 1
    return decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=3000, help="decisions per uniform game (its cap)")
    parser.add_argument("--games", type=int, default=4, help="games per variant and player")
    parser.add_argument("--heuristic-games", type=int, default=10, help="heuristic games (progressive-buy-it)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="what to time with (default wall)")
    parser.add_argument("--variants", nargs="*", default=[v for v, _ in TABLES], help="variants of the play table")
    parser.add_argument("--backend", choices=("python", "native", "both"), default=backend(),
                        help="the engine's backend (default: the one that runs, RUMMY_ENGINE); both: the two in turn")
    args = parser.parse_args()
    names = ["python", "native"] if args.backend == "both" else [args.backend]
    global clock, clock_ns
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    clock_ns = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns
    print(f"Clock: {args.clock}; backend: {args.backend}")
    print(f"Random legal play, {args.games} games per variant, one core (uniform games cut at {args.decisions})")
    print(f"{'variant':<20} {'player':<8} {'backend':<7} {'decisions':>10} {'seconds':>8} {'decisions/s':>12} "
          f"{'largest hand':>13}")
    uniform_rates: dict[tuple[str, str], float] = {}
    for variant, players in TABLES:
        if variant not in args.variants:
            continue
        for player, policy in POLICIES.items():
            cap = args.decisions if player == "uniform" else 10**9
            rows = play_backends(variant, players, policy, games=args.games, cap=cap, names=names)
            for name, (count, seconds, largest) in rows.items():
                print(f"{variant:<20} {player:<8} {name:<7} {count:>10} {seconds:>8.2f} {count / seconds:>12,.0f} "
                      f"{largest:>13}")
                if player == "uniform":
                    uniform_rates[variant, name] = count / seconds
    peer = openspiel_gin(games=20 * args.games)
    if peer is None:
        print("\nOpenSpiel's gin_rummy, for comparison: not installed (pip install open_spiel)")
    else:
        print(f"\nOpenSpiel's gin_rummy (C++), 2 players, uniform random play, in this process: "
              f"{peer:,.0f} decisions/s")
        for (variant, name), rate in uniform_rates.items():
            print(f"  {variant:<20} uniform, {name:<7} ÷ OpenSpiel gin: {rate / peer:.2f}")
    for name in names:
        with running(name):
            print(f"\nQueries on the states of uniform play (progressive-buy-it, 4 players), backend {name}")
            checks, masks, copies, solves = query_costs("progressive-buy-it", 4, min(args.decisions, 1500))
            print(f"  check           {percentiles(checks)}")
            print(f"  action_mask     {percentiles(masks)}")
            print(f"  copy            {percentiles(copies)}")
            print(f"  solver found    {percentiles(solves)}")
    if backends.BUILT is not None:
        lay_down_queries(min(args.decisions, 1500))
    for name in names:
        with running(name):
            rate = heuristic_games("progressive-buy-it", 4, args.heuristic_games)
            print(f"\nHeuristic bots, progressive-buy-it 4 players, backend {name}: {rate:.2f} games/s on one core")


if __name__ == "__main__":
    main()
