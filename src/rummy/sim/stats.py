"""The figures of a simulation: Wilson score intervals and the per-player aggregate of the games
(the counting conventions are in :mod:`rummy.sim`)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rummy.sim.run import GameSummary, SimConfig

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / trials`` (rounded to 4 places)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


@dataclass
class PlayerStats:
    name: str
    kind: str
    wins: int = 0
    shared_wins: int = 0
    buys: int = 0
    rounds_out: int = 0
    points: int = 0
    scores: list[int] = field(default_factory=list)
    counters: dict[str, int] | None = None  # summed over its games, for bots that keep counters (``llm``)


@dataclass
class SimResults:
    """The aggregate of a simulation; :meth:`to_json` is ``rummy sim --json``."""

    config: SimConfig
    players: list[PlayerStats]
    rounds: int = 0
    shared: int = 0  # games won by more than one player
    unwon: int = 0  # games with no winner
    decisions: int = 0
    # round number -> (points per player, games that reached that round)
    by_round: dict[int, tuple[list[int], int]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.config.games

    def to_json(self) -> dict[str, Any]:
        games, rounds = self.games, self.rounds
        data: dict[str, Any] = {
            "games": games,
            "variant": self.config.variant.id,
            "seed": self.config.seed,
            "duplicate": self.config.duplicate,
        }
        if self.config.duplicate:
            data["deals"] = games // self.config.n
        options = {k: v for k, v in self.config.variant.options if not k.startswith("__")}
        if options:
            data["options"] = options
        data.update({"rounds": rounds, "shared_wins": self.shared, "no_winner": self.unwon})
        data["players"] = [
            {
                "name": p.name,
                "seat_kind": p.kind,
                "wins": p.wins,
                "win_share": round(p.wins / games, 4),
                "ci95": list(wilson_interval(p.wins, games)),
                "mean_score": round(sum(p.scores) / games, 3),
                "mean_points_per_round": round(p.points / rounds, 3) if rounds else 0.0,
                "buys": p.buys,
                "rounds_out": p.rounds_out,
                **({"counters": dict(p.counters)} if p.counters is not None else {}),
            }
            for p in self.players
        ]
        return data


def aggregate(config: SimConfig, summaries: Iterable[GameSummary]) -> SimResults:
    """Fold per-game summaries (in any order; the sums are exact) into per-player figures."""
    stats = [PlayerStats(name, kind) for name, kind in zip(config.names, config.kinds, strict=True)]
    results = SimResults(config, stats)
    players = results.players
    for summary in sorted(summaries, key=lambda s: s.index):
        seating = summary.seating
        for seat, player in enumerate(seating):
            players[player].scores.append(summary.scores[seat])
            players[player].buys += summary.buys[seat]
            counted = summary.counters[seat] if summary.counters else None
            if counted is not None:
                total = players[player].counters or {}
                players[player].counters = {key: total.get(key, 0) + value for key, value in counted.items()}
        for seat in summary.winners:
            players[seating[seat]].wins += 1
            if len(summary.winners) > 1:
                players[seating[seat]].shared_wins += 1
        results.shared += len(summary.winners) > 1
        results.unwon += not summary.winners
        results.decisions += summary.decisions
        for number, went_out, scores in summary.rounds:
            results.rounds += 1
            if went_out is not None:
                players[seating[went_out]].rounds_out += 1
            points, count = results.by_round.get(number, ([0] * config.n, 0))
            for seat, score in enumerate(scores):
                players[seating[seat]].points += score
                points[seating[seat]] += score
            results.by_round[number] = (points, count + 1)
    return results
