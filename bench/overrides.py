"""Where the ISMCTS search overrules the heuristic, is it right?  Judged on the real cards.

Run: ``python bench/overrides.py --variant basic --games 40 [--rollouts 40] [--jobs 2] [--option NAME=VALUE]
[--clairvoyant]`` (``--clairvoyant``: the search plans on the real hands, as in ``bench/ismcts.py``).

Four ``heuristic`` bots play whole games; at every decision of seat ``seed mod 4`` with more than one
legal action an ``ismcts`` bot (options as in ``bench/ismcts.py``) is asked too, from the same seat's
view.  When it chooses differently from the heuristic, both actions are judged by ``--rollouts``
playouts from the *real* position (the real hands; the stock reshuffled for every playout, the same
shuffle and opponent seeds for both actions) with heuristic bots: to the end of the round, scored by the
round reward the search itself uses (``rummy.bots.rewards.round_rewards``), or with ``--until game`` to
the end of the game, scored by the seat's share of the win — what the ladder counts, and the judge to
trust where the two differ (in ``basic`` a round won early gained round reward and lost games).  The
game then goes on with the heuristic's action, so every override is judged in a heuristic game.

Prints, per kind of override (the heuristic's verb → the search's verb), how many there were and the
mean gain of the search's action with its standard error.  A kind whose gain is
clearly negative is one where the search is misled (by its guess of the hidden cards, or by noise);
``confidence_by_verb`` (an ismcts option) is how to keep it from overruling there.  This measures
decisions, not games, so it needs far fewer games than ``bench/ismcts.py strength`` to show an effect.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ismcts import add_option_arguments, ask, bot_options, searcher

from rummy.bots import decide, make_bot
from rummy.bots.rewards import round_rewards
from rummy.engine import Action, Game, Phase, new_game

#: Decisions after which a judging playout stops (a round is then scored as it stands, a game as lost).
PLAYOUT_LIMIT = 3000


def playout(game: Game, seat: int, action: Action, seed: int, until: str) -> float:
    """``seat``'s reward after ``action`` and heuristic play on the real hands, the stock reshuffled by
    ``seed``: to the end of the round (``until="round"``: the round reward) or of the game (its share of
    the win)."""
    world = game.clone()
    shuffle = random.Random(seed)
    shuffle.shuffle(world.stock)
    world.seed = shuffle.randrange(2**31)
    world.rng = random.Random(shuffle.randrange(2**31))
    results_before = len(world.results)
    world.apply(action)
    bots = [make_bot("heuristic", seed=seed + other) for other in range(world.n)]
    steps = 0
    while world.phase is not Phase.GAME_OVER and steps < PLAYOUT_LIMIT:
        if world.phase is Phase.ROUND_OVER:
            if until == "round":
                break
            world.deal()
            continue
        actor = world.next_to_act()
        world.apply(decide(world, actor, bots[actor]))
        steps += 1
    if until == "round":
        return round_rewards(world, results_before)[seat]
    winners = world.winners() if world.phase is Phase.GAME_OVER else []
    return 1.0 / len(winners) if seat in winners else 0.0


def judge_game(job: tuple[str, int, dict[str, Any], int, str, bool]) -> tuple[int, list[tuple[str, float]], float]:
    """(decisions looked at, [(override kind, mean gain)], seconds) of one heuristic game."""
    variant, seed, options, rollouts, until, clairvoyant = job
    started = time.perf_counter()
    game = new_game(variant, 4, seed=seed)
    seat = seed % 4
    bots = [make_bot("heuristic", seed=seed * 10 + other) for other in range(4)]
    search = searcher(seed, options, clairvoyant)
    decisions = 0
    overrides: list[tuple[str, float]] = []
    while not game.game_over:
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        actor = game.next_to_act()
        action = decide(game, actor, bots[actor])
        if actor == seat and len(game.legal_actions(seat)) > 1:
            decisions += 1
            choice = ask(search, game, seat)
            if str(choice) != str(action):
                seeds = [seed * 100_003 + 7919 * decisions + r for r in range(rollouts)]
                gains = [playout(game, seat, choice, s, until) - playout(game, seat, action, s, until) for s in seeds]
                overrides.append((f"{action.verb.value} -> {choice.verb.value}", statistics.fmean(gains)))
        game.apply(action)
    return decisions, overrides, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rollouts", type=int, default=40, help="judging playouts per action")
    parser.add_argument("--until", choices=["round", "game"], default="round",
                        help="judge by the round reward, or play on to the game's end and judge by its result")
    parser.add_argument("--clairvoyant", action="store_true",
                        help="the search sees the real hands (bench/ismcts.py's upper bound)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    add_option_arguments(parser)
    args = parser.parse_args()
    options = bot_options(args)
    print(f"{args.variant}: {'clairvoyant ' if args.clairvoyant else ''}ismcts options "
          f"{options or 'default budget'}; {args.rollouts} judging playouts to the end of the {args.until}", flush=True)
    seeds = range(args.seed, args.seed + args.games)
    jobs = [(args.variant, seed, options, args.rollouts, args.until, args.clairvoyant) for seed in seeds]
    by_kind: dict[str, list[float]] = {}
    decisions = 0
    seconds = 0.0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for looked, overrides, elapsed in pool.map(judge_game, jobs):
            decisions += looked
            seconds += elapsed
            for kind, gain in overrides:
                by_kind.setdefault(kind, []).append(gain)
    every = [gain for gains in by_kind.values() for gain in gains]
    print(f"{args.games} games, {decisions} decisions with a choice, {len(every)} overridden "
          f"({seconds:.0f} s on one core)")
    for kind, gains in sorted(by_kind.items()) + [("all", every)]:
        if not gains:
            continue
        error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
        print(f"  {kind:<24} {len(gains):>5} overrides, mean gain {statistics.fmean(gains):+.4f} (se {error:.4f})")


if __name__ == "__main__":
    main()
