"""Results worked out from an event log equal those recomputed from the game's record (property test over
random games of every variant), a game still being played gives none, and a table's games keep their
numbers."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine.actions import Action
from rummy.engine.game import Game
from rummy.engine.house_rules import get_variant
from rummy.record import dumps, record_of
from rummy.search.playout import random_choice, random_game
from rummy.server.events.fair_deal import deal_round
from rummy.server.events.game_results import finished_games
from rummy.server.events.log import rebuild
from tests.profiles import examples
from tests.random_games import Turn, play
from tests.server.test_history import expected_from_record
from tests.server.test_history_migration import event_log

SEATS = {"basic": (2, 4), "purchase": (2, 5), "may-i": (3, 5), "progressive-buy-it": (3, 5), "progressive-15": (3, 4)}


def as_expected(result: Any) -> dict[str, Any]:
    return {"variant": result.variant, "rounds": result.rounds,
            "seats": [{"seat": s.seat, "name": s.name, "score": s.score, "won": s.won, "rounds_out": s.rounds_out,
                       "buys": s.buys} for s in result.seats],
            "winners": [s.name for s in result.seats if s.won]}


@settings(max_examples=examples(12))
@given(variant=st.sampled_from(sorted(SEATS)), data=st.data(), seed=st.integers(0, 10_000))
def test_results_from_the_log_equal_the_records(variant: str, data: st.DataObject, seed: int) -> None:
    low, high = SEATS[variant]
    game = random_game(variant, data.draw(st.integers(low, high), label="seats"), seed=seed)
    results = list(finished_games(get_variant(variant), event_log(game)))
    assert len(results) == 1 and results[0].game == 1
    assert results[0].end_seq == len(event_log(game))  # the game's last action ended it
    assert as_expected(results[0]) == expected_from_record(dumps(record_of(game)))


def test_a_game_in_play_gives_nothing_and_games_keep_their_numbers() -> None:
    first, second = random_game("basic", 2, seed=1), random_game("basic", 2, seed=2)
    log_one = event_log(first)
    unfinished = log_one[:-1]
    assert list(finished_games(get_variant("basic"), unfinished)) == []
    log_two = [(kind, payload) for _, kind, payload in event_log(second)]
    log_two[0] = ("start", {**log_two[0][1], "game": 2})
    table = log_one + [(len(log_one) + i + 1, kind, payload) for i, (kind, payload) in enumerate(log_two)]
    results = list(finished_games(get_variant("basic"), table))
    assert [r.game for r in results] == [1, 2]
    assert as_expected(results[1]) == expected_from_record(dumps(record_of(second)))
    in_play = table[:-1]  # the second game not over yet: only the first counts
    assert [r.game for r in finished_games(get_variant("basic"), in_play)] == [1]


def fairly_dealt_game(variant: str, players: int, seed: int) -> tuple[Game, list[tuple[int, str, dict[str, Any]]], int]:
    """A random game dealt as the server deals (each round from a fresh secret, ``shuffle`` events logged),
    its event log, and how many times its stock was refilled from the discards."""
    rng = random.Random(seed)
    game = Game(get_variant(variant), players, seed=seed)
    dealer = game.choose_first_dealer()
    events: list[tuple[str, dict[str, Any]]] = [("start", {"game": 1, "seed": seed, "players": game.players})]
    events += deal_round(game, dealer=dealer)
    refills = 0  # over the rounds: each round counts its own (GameState.refills)

    def choose(turn: Turn) -> Action:
        action = random_choice(turn.moves, rng)
        events.append(("action", {"action": str(action), "by": "player"}))
        return action

    def deal(game: Game) -> None:
        nonlocal refills
        refills += game.refills
        events.extend(deal_round(game))

    play(game, rng, policy=choose, deal=deal)
    refills += game.refills
    return game, [(seq, kind, payload) for seq, (kind, payload) in enumerate(events, start=1)], refills


def test_a_log_of_secret_deals_replays_through_its_reshuffles() -> None:
    """Each round's stock is reshuffled from that round's secret seed: the log's ``shuffle`` events must be
    used, or the stock comes out in another order after a refill and later moves no longer fit."""
    game, events, refills = fairly_dealt_game("basic", 4, seed=5)
    assert refills > 0, "pick a seed whose game refills its stock"
    results = list(finished_games(get_variant("basic"), events))
    assert [as_expected(r) for r in results] == [expected_from_record(dumps(record_of(game)))]
    rebuilt = rebuild(get_variant("basic"), events).game
    assert rebuilt is not None and rebuilt.log == game.log and rebuilt.totals == game.totals
