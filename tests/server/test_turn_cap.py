"""A game the next deal ends (``max_turns`` reached just as a round ended: the next turn's start ends the game as a
draw, docs/options.md): the table is finished at that deal, not left "playing" with nobody to act, and the table's
results count the game, ended by that deal."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from rummy.engine import Phase, get_variant
from rummy.engine.game import Game
from rummy.search.playout import random_choice
from rummy.server.events.fair_deal import deal_round
from rummy.server.events.game_results import finished_games
from rummy.server.limits import UnattendedGames
from rummy.server.settings import ServerSettings
from rummy.server.storage.commit import Commit
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.seats import SeatState
from rummy.server.tables.table import Table

PLAYERS = ["Ann", "Bob"]


def first_round(game: Game, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Play ``game``'s round to its end with random moves; the action events."""
    events: list[tuple[str, dict[str, Any]]] = []
    while game.phase is not Phase.ROUND_OVER:
        action = random_choice(game.legal_actions(game.next_to_act()), rng)
        game.apply(action)
        events.append(("action", {"action": str(action), "by": "player"}))
    return events


def capped_after_first_round(seed: int) -> Game:
    """A ``basic`` game whose turn cap is the turns its first round took, at that round's end."""
    game = Game(get_variant("basic"), PLAYERS, seed=seed)
    game.deal(dealer=1)
    first_round(game, random.Random(seed))
    capped = Game(get_variant("basic", {"max_turns": game.turns_played}), PLAYERS, seed=seed)
    capped.deal(dealer=1)
    for action in game.log:
        capped.apply(action)
    assert capped.phase is Phase.ROUND_OVER
    return capped


class Log:
    """A database that keeps what it is given."""

    def __init__(self) -> None:
        self.commits: list[Commit] = []

    async def commit(self, unit: Commit) -> None:
        self.commits.append(unit)


def test_the_deal_that_ends_the_game_finishes_the_table() -> None:
    async def scenario() -> tuple[Game, Table, Log]:
        game = capped_after_first_round(seed=0)
        db = Log()
        config = TableConfig.from_request({"variant": "basic", "seats": 2,
                                           "options": {"max_turns": game.variant.max_turns}})
        table = Table("capped", config, "p1", [SeatState(0, "human", "Ann", "p1"), SeatState(1, "human", "Bob", "p2")],
                      db=db, bots=BotRunner(processes=0), settings=ServerSettings(),  # type: ignore[arg-type]
                      unattended=UnattendedGames(10, 10))
        table.start()
        table.status = "playing"
        table._begin(game, 1)
        await table._deal_next_round()  # what the seats' "ready" or the pause between rounds sets off
        await table.stop()
        return game, table, db

    game, table, db = asyncio.run(scenario())
    assert game.game_over and game.results[-1].end.value == "stalemate"
    assert table.status == "finished"
    assert [commit.status for commit in db.commits] == ["finished"]


def test_the_results_count_a_game_its_last_deal_ended() -> None:
    seed = 3
    game = Game(get_variant("basic"), PLAYERS, seed=seed)
    events: list[tuple[str, dict[str, Any]]] = [("start", {"game": 1, "seed": seed, "players": PLAYERS})]
    events += deal_round(game, dealer=1)  # each round from a fresh secret, as the server deals
    events += first_round(game, random.Random(seed))
    turns = game.turns_played
    events += deal_round(game)  # the second round, dealt where no cap stops it
    log = [(number, kind, payload) for number, (kind, payload) in enumerate(events, start=1)]
    assert list(finished_games(get_variant("basic"), log)) == []  # uncapped: still in play
    results = list(finished_games(get_variant("basic", {"max_turns": turns}), log))
    assert [(result.game, result.end_seq) for result in results] == [(1, len(log))]  # ended by the last event, the deal
