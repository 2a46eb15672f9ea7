"""Results worked out from an event log equal those recomputed from the game's record (property test over
random games of every variant), a game still being played gives none, and a table's games keep their
numbers."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.house_rules import get_variant
from rummy.record import dumps, record_of
from rummy.search.playout import random_game
from rummy.server.game_results import finished_games
from tests.server.test_history import expected_from_record
from tests.server.test_history_migration import event_log

SEATS = {"basic": (2, 4), "purchase": (2, 5), "may-i": (3, 5), "progressive-buy-it": (3, 5), "progressive-15": (3, 4)}


def as_expected(result: Any) -> dict[str, Any]:
    return {"variant": result.variant, "rounds": result.rounds,
            "seats": [{"seat": s.seat, "name": s.name, "score": s.score, "won": s.won, "rounds_out": s.rounds_out,
                       "buys": s.buys} for s in result.seats],
            "winners": [s.name for s in result.seats if s.won]}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
