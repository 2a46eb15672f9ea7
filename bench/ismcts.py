"""ISMCTS benchmark: milliseconds per decision at a budget, and win share against the heuristic bot.

Run: ``python bench/ismcts.py speed [--decisions N]`` prints the mean and maximum milliseconds of an
``ismcts`` decision (decisions with one legal action excluded) in each variant, ismcts in one seat of
four heuristic players; ``python bench/ismcts.py strength --variant may-i --games N --jobs 2`` plays
whole 4-player games of ismcts against three ``heuristic`` bots (``--opponent`` to change), rotating
the ismcts seat, and prints its win share (co-winners share a win) with a 95% confidence interval.
With ``--log FILE`` every finished game is appended to FILE, and a later run of the same
configuration counts the logged games and plays only the seeds not yet there, so a long ladder can
be built up over several runs (``--minutes`` stops submitting games after that long).  ``--paired``
also plays every game's deal with the opponent bot in the ismcts seat and prints the game-by-game
difference of the two shares, a far less noisy measure of the search's gain than the share alone.
Budget options (``--simulations``, ``--time-ms``, ``--max-rollout``, ``--rollout``, and any other as
``--option NAME=VALUE``) are passed to the bot; without them it plays at its default budget.
``--clairvoyant`` gives the search an upper bound instead of a real seat: it plans on the real hands
(only the stock is reshuffled for every iteration), so its gain over the heuristic shows how much of
the heuristic's play any search at this budget could improve with perfect guesses of the hidden cards;
its games are logged apart and never count toward the ladder.
``python bench/ismcts.py ladder --log FILE [--paired]`` plays nothing new: per variant it sums up the
logged games of the default budget (``simulations`` = the variant's default; other options as given),
the ismcts rung of the strength ladder.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, replace
from typing import Any

from rummy.bots import Bot, bot_view, decide, make_bot
from rummy.bots.ismcts import IsmctsBot, SearchSettings, default_simulations
from rummy.engine import Action, Game, Phase, get_variant, new_game
from rummy.search.playout import drive
from rummy.sim import wilson_interval

VARIANTS = ["progressive-buy-it", "progressive-15", "may-i", "basic", "purchase"]


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """The ismcts budget and option arguments (read back by :func:`bot_options`)."""
    parser.add_argument("--simulations", type=int)
    parser.add_argument("--time-ms", type=float)
    parser.add_argument("--max-rollout", type=int)
    parser.add_argument("--rollout")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="any other ismcts option, the value in JSON (e.g. --option widening=0.5)")


def bot_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if args.simulations is not None:
        options["simulations"] = args.simulations
    if args.time_ms is not None:
        options["time_ms"] = args.time_ms
    if args.max_rollout is not None:
        options["max_rollout"] = args.max_rollout
    if args.rollout is not None:
        options["rollout"] = args.rollout
    for setting in args.option:
        key, equals, value = setting.partition("=")
        try:
            options[key.replace("-", "_")] = json.loads(value) if equals else None
        except json.JSONDecodeError:
            equals = ""
        if not equals:
            raise SystemExit(f"--option wants NAME=VALUE with a JSON value, not {setting!r}")
    try:
        make_bot("ismcts", **options)  # also checks the values' types
    except (TypeError, ValueError) as error:
        raise SystemExit(f"bad ismcts options: {error}") from None
    return options


def speed(variant: str, decisions: int, options: dict[str, Any], opponent: str, seed: int = 1) -> list[float]:
    """Milliseconds of the first ``decisions`` real ismcts decisions (more than one legal action)."""
    times: list[float] = []
    game_seed = seed
    while len(times) < decisions:
        game = new_game(variant, 4, seed=game_seed)
        bots = [make_bot("ismcts", seed=game_seed, **options)] + [
            make_bot(opponent, seed=game_seed * 10 + s) for s in range(1, 4)
        ]
        while not game.game_over and len(times) < decisions:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            view = bot_view(game, seat, bots[seat])
            started = time.perf_counter()
            action = bots[seat].choose(view)
            elapsed = (time.perf_counter() - started) * 1000.0
            if seat == 0 and len(view.legal_actions) > 1:
                times.append(elapsed)
            game.apply(action)
        game_seed += 1000
    return times


class ClairvoyantIsmcts(IsmctsBot):
    """The search with perfect guesses: given the real game as its view's ``public_game``, every
    iteration keeps the real hands and reshuffles only the stock (a bound for benchmarks, never a player)."""

    def _deal(self, public: Game, seat: int, settings: SearchSettings) -> Game:
        world = public.clone()
        self.rng.shuffle(world.stock)
        return world


def searcher(seed: int, options: dict[str, Any], clairvoyant: bool) -> Bot:
    """An ismcts bot with ``options``, clairvoyant or not (ask it with :func:`ask`)."""
    return ClairvoyantIsmcts(seed=seed, **options) if clairvoyant else make_bot("ismcts", seed=seed, **options)


def ask(bot: Bot, game: Game, seat: int) -> Action:
    """``bot``'s choice for ``seat``: from the seat's view, or a clairvoyant bot from the real game."""
    if isinstance(bot, ClairvoyantIsmcts):
        return bot.choose(replace(game.view(seat), public_game=game.clone()))
    return decide(game, seat, bot)


def one_game(job: tuple[str, int, dict[str, Any] | None, str, bool]) -> tuple[int, float, int, float]:
    """(seed, the share of the win of the seat ``seed mod 4``, ismcts decisions, seconds) of one 4-player
    game: ismcts (with ``options``; clairvoyant if the last item says so) in that seat against three
    ``opponent`` bots, or with ``options`` None an ``opponent`` bot there too (the same deal and
    opponents: the paired baseline)."""
    variant, seed, options, opponent, clairvoyant = job
    ismcts_seat = seed % 4
    bots: list[Bot] = [make_bot(opponent, seed=seed * 10 + seat) for seat in range(4)]
    if options is not None:
        bots[ismcts_seat] = searcher(seed, options, clairvoyant)
    game = new_game(variant, 4, seed=seed)
    started = time.perf_counter()
    decisions = 0

    def choose(g: Game, seat: int) -> Action:
        nonlocal decisions
        decisions += seat == ismcts_seat
        return ask(bots[seat], g, seat)

    drive(game, choose)
    winners = game.winners()
    share = 1.0 / len(winners) if ismcts_seat in winners else 0.0
    return seed, share, decisions, time.perf_counter() - started


#: Settings added after games were logged, with the value those games played with: an entry without
#: the setting matches a configuration that has this value.
SETTINGS_BEFORE_LOGGED: dict[str, Any] = {"reward": "round", "confidence_by_verb": {}, "declined_weight": 0.0,
                                          "exclude_missed_plays": False}
#: Per variant, the revision of the bot's play that its settings do not show (the rollout bot's
#: candidates, say), raised with every such change; games logged without one are revision 1.
#: purchase 2 was an experiment, not kept: the heuristic named purchasing and not purchasing as each
#: other's alternative (532 games at 36 iterations: +0.6 points over the heuristic in the same seat,
#: 95% CI −1.6 … +2.7).  The next change of that kind in purchase is revision 3.
REVISIONS: dict[str, int] = {}


def read_log(path: str, config: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games of ``config`` (variant, ismcts options, opponent) in the log at ``path``, by seed."""
    games: dict[int, dict[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as log:
            for line in log:
                entry = json.loads(line)
                if entry.get("settings"):
                    entry["settings"] = {**SETTINGS_BEFORE_LOGGED, **entry["settings"]}
                entry.setdefault("revision", 1)
                entry.setdefault("clairvoyant", False)
                if all(entry.get(key) == value for key, value in config.items()):
                    games[entry["seed"]] = entry
    except FileNotFoundError:
        pass
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["speed", "strength", "ladder"])
    parser.add_argument("--variant", action="append",
                        help="variant(s) (default: all for speed and ladder, may-i for strength)")
    parser.add_argument("--decisions", type=int, default=40, help="speed: ismcts decisions per variant")
    parser.add_argument("--games", type=int, default=20, help="strength: games")
    parser.add_argument("--minutes", type=float, default=None, help="strength: stop submitting games after this")
    parser.add_argument("--jobs", type=int, default=2, help="strength: parallel processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="heuristic")
    add_option_arguments(parser)
    parser.add_argument("--paired", action="store_true", help="strength: also play every game's deal with the "
                        "opponent bot in the ismcts seat and print the game-by-game difference")
    parser.add_argument("--clairvoyant", action="store_true", help="strength: the search sees the real hands "
                        "(an upper bound for benchmarks; logged apart from the ladder)")
    parser.add_argument("--log", help="strength: a JSON-lines file; finished games are appended, and the games of "
                        "the same configuration already there are counted and not replayed (runs add up)")
    args = parser.parse_args()
    options = bot_options(args)
    print(f"ismcts options: {options or 'default budget'}; opponents: {args.opponent}"
          f"{'; clairvoyant (the search sees the real hands: an upper bound)' if args.clairvoyant else ''}", flush=True)
    if args.mode == "speed":
        print(f"{'variant':<20} {'decisions':>9} {'mean ms':>8} {'median':>8} {'p95':>8} {'max ms':>8}", flush=True)
        for variant in args.variant or VARIANTS:
            times = sorted(speed(variant, args.decisions, options, args.opponent, args.seed))
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{variant:<20} {len(times):>9} {statistics.mean(times):>8.1f} {statistics.median(times):>8.1f}"
                  f" {p95:>8.1f} {max(times):>8.1f}", flush=True)
        return
    if args.mode == "ladder":
        if not args.log:
            raise SystemExit("ladder sums up a log: give --log FILE")
        for variant in args.variant or VARIANTS:
            defaults = {"simulations": default_simulations(get_variant(variant)), **options}
            print_rung(variant, read_log(args.log, log_config(variant, defaults, args.opponent, False)),
                       defaults, args.opponent, args.jobs if args.paired else 0)
        return
    variant = (args.variant or ["may-i"])[0]
    deadline = None if args.minutes is None else time.perf_counter() + args.minutes * 60.0
    config = log_config(variant, options, args.opponent, args.clairvoyant)
    logged = read_log(args.log, config) if args.log else {}
    if logged:
        print(f"{len(logged)} games of this configuration already in {args.log}", flush=True)
    games = dict(logged)  # every game of the configuration, logged or played now, by seed
    seeds = [args.seed + number for number in range(args.games) if args.seed + number not in logged]
    jobs = [(variant, seed, options, args.opponent, args.clairvoyant) for seed in seeds]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        pending = {pool.submit(one_game, job) for job in jobs[: args.jobs]}
        submitted = len(pending)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for done in finished:
                seed, share, count, elapsed = done.result()
                entry = {**config, "seed": seed, "share": share, "decisions": count, "seconds": elapsed}
                games[seed] = entry
                print(f"game seed {seed}: ismcts share {share:.2f} ({count} decisions, {elapsed:.0f} s)", flush=True)
                if args.log:
                    with open(args.log, "a", encoding="utf-8") as log:
                        log.write(json.dumps(entry) + "\n")
                if submitted < len(jobs) and (deadline is None or time.perf_counter() < deadline):
                    pending.add(pool.submit(one_game, jobs[submitted]))
                    submitted += 1
    print_rung(variant, games, options, args.opponent, args.jobs if args.paired else 0)


def log_config(variant: str, options: dict[str, Any], opponent: str, clairvoyant: bool) -> dict[str, Any]:
    """What a logged game must match to count for ``options`` in ``variant``: the log keys games by the
    bot's effective settings, so games of an older default never mix in (nor clairvoyant ones)."""
    settings = asdict(IsmctsBot(**options).settings(get_variant(variant)))
    return {"variant": variant, "revision": REVISIONS.get(variant, 1), "options": options, "settings": settings,
            "opponent": opponent, "clairvoyant": clairvoyant}


def print_rung(variant: str, games: dict[int, dict[str, Any]], options: dict[str, Any], opponent: str,
               paired_jobs: int) -> None:
    """One variant's games of ``options`` (log entries by seed): the win share with its interval, and the
    cost of a game; with ``paired_jobs`` the paired difference too (the opponent's games are replayed)."""
    n = len(games)
    if not n:
        print(f"{variant}: no games of {options}", flush=True)
        return
    mean = statistics.fmean(entry["share"] for entry in games.values())
    low, high = wilson_interval(mean * n, n)
    seconds = sum(entry["seconds"] for entry in games.values())
    decisions = sum(entry["decisions"] for entry in games.values())
    verdict = "significantly above" if low > 0.25 else "not significantly above"
    print(f"{variant} {options}: ismcts win share {mean:.3f} over {n} games (95% Wilson CI {low:.3f} … "
          f"{high:.3f}), {verdict} 0.250; {seconds / n:.1f} s per game, "
          f"{seconds / max(decisions, 1) * 1000:.0f} ms per ismcts-seat decision", flush=True)
    if paired_jobs:
        print_paired(variant, {seed: entry["share"] for seed, entry in games.items()}, opponent, paired_jobs)


def print_paired(variant: str, shares: dict[int, float], opponent: str, jobs: int) -> None:
    """ismcts's share against the ``opponent`` bot's in the same seat on the same deals (same opponents).

    The difference of the two shares, game by game, has far less variance than either share: deals
    that favour the seat favour both.  Prints its mean with a 95% normal interval.
    """
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        baseline = {seed: share for seed, share, _, _ in
                    pool.map(one_game, [(variant, seed, None, opponent, False) for seed in shares], chunksize=16)}
    differences = [shares[seed] - baseline[seed] for seed in shares]
    n = len(differences)
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(n) if n > 1 else math.inf
    differing = sum(1 for d in differences if d)
    print(f"paired: ismcts {statistics.fmean(shares.values()):.3f} against {opponent} "
          f"{statistics.fmean(baseline.values()):.3f} in the same seat on the same {n} deals; difference "
          f"{mean:+.3f} (95% CI {mean - half:+.3f} … {mean + half:+.3f}), outcomes differ in {differing} games")


if __name__ == "__main__":
    main()
