"""``rummy eval``: a fixed, seeded evaluation suite — an agent against the ladder in every variant, in
duplicate format, with paired intervals and an Elo-style rating (docs/eval.md).

A *match* is one agent against one opponent in one variant: the agent holds one seat, the opponent's bot
every other seat, and each of ``deals`` deals is played once per seat rotation, so the agent plays every
seat of every deal.  The games are ``rummy sim --duplicate`` games (:class:`rummy.sim.SimConfig`): deal
``d``'s shuffle seed derives from the seed and ``d`` only, so every match of a variant plays the same deals.
An agent is not played against its own spec.  An ``ismcts`` player given no budget plays at its default
number of simulations *without* the wall-clock ceiling of its default budget, so the results depend on the
seed only.

Per match, from each deal's mean over its rotations (so the intervals are paired by deal; Student's t with
``deals − 1`` degrees of freedom):

* **score diff**: the agent's final score minus the mean of its opponents', signed so that positive is
  better for the agent (points collected in ``basic``, penalty points in the contract variants with the
  sign turned, books in ``purchase``);
* **win rate**: the agent's share of first places (co-winners share a win: ``1/k`` each), against a chance
  rate of ``1/players`` (when every deal gave the same rate, as 0 % against a much stronger opponent, the
  t interval is empty and the Wilson interval of the games is given instead);
* **ahead**: its comparisons with each opponent seat (1 ahead, ½ level, 0 behind), the data of the rating
  (:mod:`rummy.sim.rating`).

>>> t_quantile(4), t_quantile(1000) < 1.97
(2.7764, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummy.bots.ismcts import default_simulations
from rummy.engine import Variant, scoring_rule
from rummy.sim.args import SimError, check_bots, parse_players
from rummy.sim.ladder import REFERENCE_COMPARISONS, REFERENCE_NOTE
from rummy.sim.rating import Comparison, Rating, fit_ratings
from rummy.sim.run import GamePool, GameSummary, LocalPool, SimConfig, play_games
from rummy.sim.stats import wilson_interval

#: The ladder, weakest first: the opponents of every agent unless ``--opponents`` says otherwise.
LADDER = ("random", "greedy", "heuristic", "ismcts")
#: Players at each table unless ``--players`` says otherwise (every shipped variant seats four).
DEFAULT_PLAYERS = 4
#: The version of the JSON form (docs/eval.md); a change of its meaning gets a new number.
SCHEMA = "rummy-eval/1"
#: The anchor of the ratings (rated 0) when it took part.
ANCHOR = "random"

_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604,
         2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
         2.0518, 2.0484, 2.0452, 2.0423)


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (a table to 30, then a series)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    return round(z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df), 4)


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95 % t interval (None from a single value)."""
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, None
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (count - 1))
    half = t_quantile(count - 1) * spread / math.sqrt(count)
    return mean, (mean - half, mean + half)


@dataclass(frozen=True)
class EvalConfig:
    """What ``rummy eval`` plays: every agent against every opponent in every variant."""

    agents: tuple[str, ...]
    opponents: tuple[str, ...] = LADDER
    variants: tuple[Variant, ...] = ()
    deals: int = 20
    seed: int = 0
    players: int = DEFAULT_PLAYERS
    reference: bool = True  # fit the ratings with the shipped ladder comparisons too (rummy.sim.ladder)


@dataclass(frozen=True)
class Match:
    """One agent against one opponent in one variant: ``sim`` plays the agent as player 0."""

    agent: str
    opponent: str
    sim: SimConfig

    @property
    def variant(self) -> Variant:
        return self.sim.variant


def seat_specs(agent: str, opponent: str, players: int) -> str:
    """The ``--players`` text of a match's table: the agent, then the opponent in every other seat."""
    return ",".join([agent] + [opponent] * (players - 1))


def pinned_options(kind: str, options: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """A player's bot options for ``variant``, an unbudgeted ``ismcts`` given its default simulations
    explicitly (no wall-clock ceiling, so no dependence on the machine's speed)."""
    if kind == "ismcts" and "simulations" not in options and "time_ms" not in options:
        return {**options, "simulations": default_simulations(variant)}
    return options


def plan_matches(config: EvalConfig) -> list[Match]:
    """Every match of ``config``, variant by variant, then agent by agent, then opponent by opponent.

    Raises :class:`SimError` on a bad number, a variant that does not seat ``players`` or an unknown bot.
    """
    if config.deals < 1:
        raise SimError(f"--deals must be at least 1, not {config.deals}")
    if config.players < 2:
        raise SimError(f"--players must be at least 2, not {config.players}")
    if not config.agents:
        raise SimError("give an agent: a bot spec as rummy sim --players takes it (heuristic, ismcts:simulations=64)")
    if not config.opponents:
        raise SimError("--opponents: give at least one bot")
    matches = []
    for variant in config.variants:
        if not variant.players_min <= config.players <= variant.players_max:
            raise SimError(f"{variant.id} is for {variant.players_min}–{variant.players_max} players, "
                           f"not {config.players} (use --players or --variants)")
        for agent in config.agents:
            for opponent in config.opponents:
                if opponent == agent:
                    continue
                names, kinds, options = parse_players(seat_specs(agent, opponent, config.players))
                options = [pinned_options(kind, bot, variant) for kind, bot in zip(kinds, options, strict=True)]
                check_bots(names[:2], kinds[:2], options[:2])
                by_player = tuple(tuple(sorted(bot.items())) for bot in options) if any(options) else ()
                sim = SimConfig(variant, tuple(names), tuple(kinds), config.deals * config.players, config.seed,
                                duplicate=True, bot_options=by_player)
                matches.append(Match(agent, opponent, sim))
    if not matches:
        raise SimError("nothing to play: an agent is not played against itself; give other --opponents")
    return matches


@dataclass
class MatchResult:
    """The figures of one match (:meth:`to_json` is one entry of the JSON form's ``matches``)."""

    match: Match
    score_diff: tuple[float, tuple[float, float] | None]
    win_rate: tuple[float, tuple[float, float] | None]
    ahead: tuple[int, int, int]  # comparisons won, lost, level
    decisions: int
    comparisons: list[Comparison] = field(default_factory=list)  # one per deal, for the ratings

    def to_json(self) -> dict[str, Any]:
        sim = self.match.sim
        wins, losses, ties = self.ahead
        return {
            "variant": sim.variant.id,
            "agent": self.match.agent,
            "opponent": self.match.opponent,
            "players": sim.n,
            "deals": sim.games // sim.n,
            "games": sim.games,
            "score_diff": _figure(self.score_diff, 3),
            "win_rate": {**_figure(self.win_rate, 4, clip=True), "chance": round(1 / sim.n, 4)},
            "ahead": {"wins": wins, "losses": losses, "ties": ties,
                      "score": round((wins + ties / 2) / max(1, wins + losses + ties), 4)},
            "decisions": self.decisions,
        }


def _figure(value: tuple[float, tuple[float, float] | None], places: int, clip: bool = False) -> dict[str, Any]:
    mean, interval = value
    if interval is None:
        return {"mean": round(mean, places), "ci95": None}
    low, high = (max(0.0, interval[0]), min(1.0, interval[1])) if clip else interval
    return {"mean": round(mean, places), "ci95": [round(low, places), round(high, places)]}


def match_result(match: Match, summaries: Sequence[GameSummary]) -> MatchResult:
    """Fold a match's games (the agent is player 0) into its figures, deal by deal."""
    sim = match.sim
    n = sim.n
    sign = 1 if scoring_rule(sim.variant).higher_is_better else -1
    by_deal: dict[int, list[tuple[float, float, list[float]]]] = {}
    decisions = 0
    for summary in summaries:
        decisions += summary.decisions
        seat = summary.seating.index(0)
        others = [other for other in range(n) if other != seat]
        scores = summary.scores
        diff = sign * (scores[seat] - sum(scores[other] for other in others) / len(others))
        won = 1 / len(summary.winners) if seat in summary.winners else 0.0
        ahead = [_comparison(seat, other, scores, summary.winners, sign) for other in others]
        by_deal.setdefault(summary.index // n, []).append((diff, won, ahead))
    diffs, wins, comparisons = [], [], []
    tally = [0, 0, 0]
    for deal, games in sorted(by_deal.items()):
        diffs.append(sum(game[0] for game in games) / len(games))
        wins.append(sum(game[1] for game in games) / len(games))
        outcomes = [outcome for game in games for outcome in game[2]]
        for outcome in outcomes:
            tally[0 if outcome == 1 else 1 if outcome == 0 else 2] += 1
        comparisons.append(Comparison(match.agent, match.opponent, sum(outcomes) / len(outcomes), len(outcomes),
                                      (sim.variant.id, deal)))
    win_rate = mean_interval(wins)
    if win_rate[1] is not None and win_rate[1][0] == win_rate[1][1]:  # every deal alike: t says nothing
        win_rate = (win_rate[0], wilson_interval(win_rate[0] * sim.games, sim.games))
    return MatchResult(match, mean_interval(diffs), win_rate, (tally[0], tally[1], tally[2]), decisions,
                       comparisons)


def _comparison(seat: int, other: int, scores: Sequence[int], winners: Sequence[int], sign: int) -> float:
    """1 when ``seat`` finished ahead of ``other``, 0 behind, ½ level (a shared first place is level)."""
    if (seat in winners) != (other in winners):
        return 1.0 if seat in winners else 0.0
    mine, theirs = sign * scores[seat], sign * scores[other]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


@dataclass
class EvalResults:
    """Every match's figures and the ratings; :meth:`to_json` is ``rummy eval --json``."""

    config: EvalConfig
    matches: list[MatchResult]
    ratings: dict[str, Rating]
    ratings_by_variant: dict[str, dict[str, Rating]]
    anchor: str

    def to_json(self) -> dict[str, Any]:
        config = self.config
        return {
            "schema": SCHEMA,
            "seed": config.seed,
            "deals": config.deals,
            "players": config.players,
            "variants": [variant.id for variant in config.variants],
            "agents": list(config.agents),
            "opponents": list(config.opponents),
            "matches": [result.to_json() for result in self.matches],
            "ratings": {
                "model": "bradley-terry",
                "scale": "elo",
                "anchor": self.anchor,
                "virtual_draws": 1,
                "interval": "95%, cluster-robust by deal",
                "reference": config.reference,
                "overall": _ratings_json(self.ratings),
                "by_variant": {variant: _ratings_json(fit) for variant, fit in self.ratings_by_variant.items()},
            },
            "comparisons": comparisons_json(self.matches),
        }


def _ratings_json(fit: dict[str, Rating]) -> list[dict[str, Any]]:
    return [{"player": name, "rating": round(r.rating, 1), "ci95": [round(r.low, 1), round(r.high, 1)],
             "comparisons": r.comparisons}
            for name, r in sorted(fit.items(), key=lambda item: (-item[1].rating, item[0]))]


def comparisons_json(matches: Sequence[MatchResult]) -> list[dict[str, Any]]:
    """Each match's comparisons as ``{variant, first, second, wins, losses, ties}`` (the form of
    :data:`rummy.sim.ladder.REFERENCE_COMPARISONS`)."""
    return [{"variant": m.match.variant.id, "first": m.match.agent, "second": m.match.opponent,
             "wins": m.ahead[0], "losses": m.ahead[1], "ties": m.ahead[2]} for m in matches]


def reference_comparisons(variant: str | None = None, replayed: Collection[tuple[str, str, str]] = ()
                          ) -> list[Comparison]:
    """The shipped ladder comparisons (:mod:`rummy.sim.ladder`), of one variant or all, each independent,
    without the matches ``replayed`` (``(variant, agent, opponent)``: a run's own games replace them)."""
    found = []
    for row in REFERENCE_COMPARISONS:
        if variant is not None and row["variant"] != variant:
            continue
        if (row["variant"], row["first"], row["second"]) in replayed:
            continue
        count = row["wins"] + row["losses"] + row["ties"]
        score = (row["wins"] + row["ties"] / 2) / count if count else 0.5
        found.append(Comparison(row["first"], row["second"], score, count, None))
    return found


def fit(config: EvalConfig, matches: Sequence[MatchResult]) -> EvalResults:
    """The ratings of ``matches`` (with the shipped ladder comparisons when ``config.reference``, less the
    matches this run played again): one fit per variant, and one over all variants whose ratings are given
    for the players rated in every variant (a player met in some variants only has per-variant ratings)."""
    players = set(config.agents) | set(config.opponents)
    if config.reference:
        players |= {row[key] for row in REFERENCE_COMPARISONS for key in ("first", "second")}
    anchor = ANCHOR if ANCHOR in players else config.opponents[0]
    replayed = {(m.match.variant.id, m.match.agent, m.match.opponent) for m in matches}
    run = [c for m in matches for c in m.comparisons]
    pooled = fit_ratings(run + (reference_comparisons(None, replayed) if config.reference else []), anchor)
    by_variant = {}
    for variant in config.variants:
        own = [c for m in matches if m.match.variant.id == variant.id for c in m.comparisons]
        extra = reference_comparisons(variant.id, replayed) if config.reference else []
        by_variant[variant.id] = fit_ratings(own + extra, anchor)
    # a pooled rating compares like with like only for players rated in every variant of the run
    overall = {name: r for name, r in pooled.items() if all(name in fit for fit in by_variant.values())}
    return EvalResults(config, list(matches), overall, by_variant, anchor)


def run_eval(
    config: EvalConfig,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    pool: GamePool | None = None,
) -> EvalResults:
    """Play every match of ``config`` (``rummy.sim.play_games`` in ``pool``, else in ``workers`` processes that
    every match shares) and fit the ratings."""
    if pool is None:
        with LocalPool(workers) as local:
            return run_eval(config, progress=progress, pool=local)
    matches = plan_matches(config)
    results = []
    done = 0
    for match in matches:
        summaries = play_games(match.sim, progress=_offset(progress, done), pool=pool)
        done += len(summaries)
        results.append(match_result(match, summaries))
    return fit(config, results)


def _offset(progress: Callable[[int], None] | None, start: int) -> Callable[[int], None] | None:
    """``progress`` for a match whose games follow ``start`` earlier ones."""
    if progress is None:
        return None
    report = progress
    return lambda count: report(start + count)


def total_games(config: EvalConfig) -> int:
    """The games :func:`run_eval` plays."""
    return sum(match.sim.games for match in plan_matches(config))


def _signed(value: float, places: int) -> str:
    return f"{value:+.{places}f}"


def table_text(results: EvalResults) -> str:
    """The results for people: a table per agent, then the ratings (overall and per variant)."""
    config = results.config
    lines = [f"rummy eval: {config.players} players a table, {config.deals} deal(s) a match, each played "
             f"{config.players} times with the seats rotated (duplicate); seed {config.seed}", ""]
    header = ["variant", "opponent", "games", "score diff", "95% CI", "win rate", "95% CI", "ahead"]
    for agent in config.agents:
        rows = [header]
        for result in results.matches:
            if result.match.agent != agent:
                continue
            data = result.to_json()
            diff, win = data["score_diff"], data["win_rate"]
            rows.append([
                data["variant"], data["opponent"], str(data["games"]),
                _signed(diff["mean"], 1),
                f"{_signed(diff['ci95'][0], 1)} … {_signed(diff['ci95'][1], 1)}" if diff["ci95"] else "—",
                f"{100 * win['mean']:.1f}%",
                f"{100 * win['ci95'][0]:.1f}–{100 * win['ci95'][1]:.1f}%" if win["ci95"] else "—",
                f"{100 * data['ahead']['score']:.1f}%",
            ])
        lines += [f"Agent {agent}:", *_aligned(rows), ""]
    lines.append(f"Score diff: the agent's score minus its opponents' mean, positive when better for the agent. "
                 f"Win rate: first places (shared ones split), chance {100 / config.players:.1f}%. "
                 f"Ahead: comparisons with each opponent seat won (level ones half).")
    lines += ["", *ratings_lines(results)]
    return "\n".join(lines)


def ratings_lines(results: EvalResults) -> list[str]:
    """The ratings as a table: one row per player, the overall rating then one column per variant."""
    variants = [variant.id for variant in results.config.variants]
    overall = results.ratings
    everybody = set(overall).union(*results.ratings_by_variant.values())
    players = sorted(everybody, key=lambda name: (name not in overall, -overall[name].rating if name in overall
                                                  else 0.0, name))
    rows = [["player", "rating", "95% CI", *variants]]
    for name in players:
        r = overall.get(name)
        cells = [name, f"{r.rating:.0f}", f"{r.low:.0f} … {r.high:.0f}"] if r else [name, "—", "—"]
        for variant in variants:
            own = results.ratings_by_variant[variant].get(name)
            cells.append(f"{own.rating:.0f} ±{(own.high - own.low) / 2:.0f}" if own else "—")
        rows.append(cells)
    source = f"with the shipped ladder results ({REFERENCE_NOTE})" if results.config.reference else \
        "from this run's games only"
    return [f"Ratings (Bradley–Terry on pairwise finishes, Elo scale, {results.anchor} = 0, {source}):",
            *_aligned(rows, left=1)]


def _aligned(rows: Sequence[Sequence[str]], left: int = 2) -> list[str]:
    """``rows`` as lines of columns, the first ``left`` columns flush left, the others flush right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) if i < left else cell.rjust(width)
                      for i, (cell, width) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]
