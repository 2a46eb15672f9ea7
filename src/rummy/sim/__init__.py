"""``rummy sim``: play many bot-vs-bot games and tabulate how each player did.

Game ``g`` (counted from 0) seats the ``--players`` list rotated by ``g``: seat ``s`` holds player
``(s + g) % n``.  Every game's shuffle seed is derived from ``--seed`` and the game index only (and
each bot's seed from ``--seed``, the game index and the player), so the results are the same for any
number of worker processes.  With ``--duplicate`` each deal (one seed) is played once per seat
rotation: ``--games`` then counts deals, and ``n × deals`` games are played.

Counting conventions:

* a win is a first place; co-winners (equal totals) **each count a full win**, so the wins of all
  players add up to at least the number of games (more when wins were shared; fewer only when a
  game ends with no winner, such as a ``purchase`` game stopped by ``max_turns``).  The 95% interval
  is the Wilson score interval of the win share ``wins / games``;
* a player's score is its final total (penalty points in the contract variants — lower is better,
  points collected in ``basic``); in ``purchase``, which has no points, it is the number of books won;
* points per round pool every round of every game: the sum of the player's round scores divided by
  the number of rounds played (always 0 in ``purchase``);
* buys are successful claims of a discard out of turn, own-turn buys included (penalty cards are
  part of a claim, not counted apart); rounds out are the rounds the player ended by going out (or
  by tabling the book in ``purchase``).

>>> wilson_interval(41, 100)
(0.3187, 0.508)
>>> parse_players("heuristic,random,heuristic:rummy=off")
(['heuristic', 'random', 'heuristic:rummy=off'], ['heuristic', 'random', 'heuristic'], [{}, {}, {'rummy': 'off'}])
"""

from __future__ import annotations

from rummy.sim.args import (
    SimError,
    check_bots,
    parse_bot_options,
    parse_options,
    parse_players,
    split_outside_json,
)
from rummy.sim.cli import add_parser, build_config, cmd_sim
from rummy.sim.pools import open_pool
from rummy.sim.report import (
    CSV_FIELDS,
    ProgressBar,
    csv_text,
    load_matplotlib,
    plot_results,
    save_results,
    table_text,
)
from rummy.sim.run import (
    MAX_DECISIONS,
    GameFailed,
    GamePool,
    GameSummary,
    LocalPool,
    SimConfig,
    default_workers,
    derive_seed,
    play_chunk,
    play_games,
    play_one,
    record_path,
)
from rummy.sim.stats import Z95, PlayerStats, SimResults, aggregate, wilson_interval

__all__ = [
    "CSV_FIELDS",
    "MAX_DECISIONS",
    "Z95",
    "GameFailed",
    "GamePool",
    "GameSummary",
    "LocalPool",
    "PlayerStats",
    "ProgressBar",
    "SimConfig",
    "SimError",
    "SimResults",
    "add_parser",
    "aggregate",
    "build_config",
    "check_bots",
    "cmd_sim",
    "csv_text",
    "default_workers",
    "derive_seed",
    "load_matplotlib",
    "open_pool",
    "parse_bot_options",
    "parse_options",
    "parse_players",
    "play_chunk",
    "play_games",
    "play_one",
    "plot_results",
    "record_path",
    "save_results",
    "split_outside_json",
    "table_text",
    "wilson_interval",
]
