"""The output of a simulation: the table for people, CSV and JSON files, the matplotlib plot and the
progress bar."""

from __future__ import annotations

import csv
import importlib
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, TypeVar

from rummy.engine import Variant, scoring_rule
from rummy.sim.args import SimError
from rummy.sim.run import GameFailed, GamePool
from rummy.sim.stats import SimResults


def _score_meaning(variant: Variant) -> str:
    return scoring_rule(variant).score_meaning


def table_text(results: SimResults) -> str:
    """The results as a table for people."""
    data = results.to_json()
    games = data["games"]
    header = ["player", "wins", "win share", "95% CI", "mean score", "points/round", "buys", "rounds out"]
    rows = [header]
    for p in data["players"]:
        low, high = p["ci95"]
        rows.append([
            p["name"], str(p["wins"]), f"{100 * p['win_share']:.1f}%", f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{p['mean_score']:.1f}", f"{p['mean_points_per_round']:.2f}", str(p["buys"]), str(p["rounds_out"]),
        ])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
    n = results.config.n
    seats = f"{games // n} deals × {n} seat rotations" if results.config.duplicate else "seats rotate"
    title = f"{data['variant']}: {games} games, {n} players ({seats}), {data['rounds']} rounds"
    notes = [f"Score: {_score_meaning(results.config.variant)}; co-winners each count a win."]
    if results.shared:
        notes.append(f"{results.shared} game(s) had co-winners.")
    if results.unwon:
        notes.append(f"{results.unwon} game(s) ended without a winner.")
    return "\n".join([title, "", *lines, "", " ".join(notes), *counter_lines(results)])


def counter_lines(results: SimResults) -> list[str]:
    """The counters of the players whose bots keep some (the ``llm`` bot's requests, retries, fallbacks and
    tokens), a line each; none when no player has any."""
    lines = []
    for player in results.players:
        c = player.counters
        if c is None:
            continue
        tokens = c.get("prompt_tokens", 0) + c.get("completion_tokens", 0)
        lines.append(
            f"  {player.name}: {c.get('decisions', 0)} decisions, {c.get('requests', 0)} requests,"
            f" {c.get('retries', 0)} retries, {c.get('errors', 0)} errors, {c.get('illegal', 0)} illegal,"
            f" {c.get('unparsable', 0)} unparsable, {c.get('fallbacks', 0)} fallbacks, {tokens} tokens"
            f" ({c.get('prompt_tokens', 0)} prompt + {c.get('completion_tokens', 0)} completion)"
        )
    return ["", "Counters:", *lines] if lines else []


CSV_FIELDS = ["name", "seat_kind", "games", "wins", "win_share", "ci95_low", "ci95_high", "mean_score",
              "mean_points_per_round", "buys", "rounds_out"]


def csv_text(results: SimResults) -> str:
    data = results.to_json()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for p in data["players"]:
        writer.writerow([p["name"], p["seat_kind"], data["games"], p["wins"], p["win_share"], p["ci95"][0],
                         p["ci95"][1], p["mean_score"], p["mean_points_per_round"], p["buys"], p["rounds_out"]])
    return out.getvalue()


def save_results(results: SimResults, path: str | Path) -> None:
    """``FILE.json`` (the ``--json`` object) or ``FILE.csv`` (one row per player)."""
    path = Path(path)
    suffix = path.suffix.lower()
    text = csv_text(results) if suffix == ".csv" else json.dumps(results.to_json(), indent=2) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise SimError(f"cannot write {str(path)!r}: {error.strerror}") from None


def load_matplotlib() -> Any:
    """The ``matplotlib.figure`` module, or a :class:`SimError` saying how to install it."""
    try:
        return importlib.import_module("matplotlib.figure")
    except ImportError:
        raise SimError("--plot needs matplotlib: pip install 'rummy[sim]' (or pip install matplotlib)") from None


def plot_results(results: SimResults, path: str | Path) -> None:
    """Score distributions and mean points by round number, one colour per player."""
    figure_module = load_matplotlib()
    figure = figure_module.Figure(figsize=(12, 4.8), layout="constrained")
    left, right = figure.subplots(1, 2)
    data = results.to_json()
    players = results.players
    every = [score for p in players for score in p.scores]
    low, high = min(every), max(every)
    bins = max(1, min(40, high - low + 1))
    for p in players:
        left.hist(p.scores, bins=bins, range=(low - 0.5, high + 0.5), histtype="step", linewidth=1.5, label=p.name)
    left.set_title("Final score")
    left.set_xlabel(_score_meaning(results.config.variant))
    left.set_ylabel("games")
    left.legend()
    numbers = sorted(results.by_round)
    for index, (p, row) in enumerate(zip(players, data["players"], strict=True)):
        means = [results.by_round[k][0][index] / results.by_round[k][1] for k in numbers]
        right.plot(numbers, means, marker="o", label=f"{p.name} (all rounds {row['mean_points_per_round']:.2f})")
    right.set_title("Mean points per round")
    right.set_xlabel("round")
    right.set_ylabel("points")
    right.legend()
    figure.suptitle(f"{data['variant']}: {data['games']} games")
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise SimError(f"cannot save the plot to {str(path)!r}: {error}") from None


T = TypeVar("T")


class Stopped(Exception):
    """Games ended early (a game failed, or Ctrl+C): the message is printed; ``code`` is the exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class ProgressBar:
    """A carriage-return progress bar on ``stream``."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.started
        filled = self.width * done // self.total
        eta = f", {elapsed / done * (self.total - done):.0f} s left" if 0 < done < self.total else ""
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} games, {elapsed:.1f} s{eta}   ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def play_shown(command: str, total: int, show: bool | None, pool: GamePool,
               play: Callable[[ProgressBar | None], T]) -> T:
    """``play(bar)``, with a bar of ``total`` games on standard error when ``show`` (None: on a terminal);
    the bar and ``pool`` are closed however it ends.  A game that fails or Ctrl+C ends ``rummy command``:
    its message on standard error, then :class:`Stopped` with exit code 1 or 130."""
    bar = ProgressBar(total, sys.stderr) if (sys.stderr.isatty() if show is None else show) else None
    try:
        return play(bar)
    except GameFailed as error:
        message, code = f"rummy {command}: {error}", 1
    except KeyboardInterrupt:
        message, code = f"rummy {command}: interrupted", 130
    finally:
        pool.close()
        if bar:
            bar.close()
    print(message, file=sys.stderr)
    raise Stopped(code)
