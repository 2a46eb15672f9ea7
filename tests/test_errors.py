"""The error hierarchy: every error the engine raises on bad input is a RummyError of the fitting kind."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rummy.bots import make_bot
from rummy.cards import parse_card
from rummy.errors import (
    BotError,
    DealError,
    IllegalActionError,
    MeldError,
    RecordError,
    RecordSyntaxError,
    RummyError,
    UsageError,
    VariantError,
)
from rummy.game import Game, Phase, new_game
from rummy.melds import MeldSpec, table_meld
from rummy.record import loads, prepare
from rummy.solver import find_lay_down
from rummy.variants import get_variant
from rummy.view import player_view


def test_every_error_class_is_a_rummy_error() -> None:
    for error in (RecordError, RecordSyntaxError, VariantError, DealError, IllegalActionError, MeldError,
                  BotError, UsageError):
        assert issubclass(error, RummyError)
    # A syntax error is one way a record is malformed (exit code 2 of a replay, like a bad key).
    assert issubclass(RecordSyntaxError, RecordError)


def test_a_bad_meld_raises_a_meld_error_with_its_rule() -> None:
    spec = MeldSpec("set", (parse_card("3H"), parse_card("4H"), parse_card("5H")))
    with pytest.raises(RummyError) as caught:
        table_meld(spec, get_variant("basic"), 1, 0)
    assert isinstance(caught.value, MeldError)
    assert caught.value.rule == "set-mixed-ranks"


def test_a_deal_that_does_not_fit_raises_a_deal_error() -> None:
    with pytest.raises(DealError, match="rounds 1–"):
        Game(get_variant("may-i"), 4, start_round=9)


def test_a_record_with_a_bad_action_is_malformed() -> None:
    record = loads('{"format": "rummy-record/1", "variant": "basic", "players": ["A", "B"], "rounds": '
                   '[{"dealer": 0, "hands": [[], []], "upcard": "2C", "actions": ["p0 fly"]}]}')
    with pytest.raises(RecordError, match="round 1: unknown verb"):
        prepare(record)


@pytest.mark.parametrize("call,fragment", [
    (lambda: player_view(new_game("basic", 2, seed=1), 5), "no seat 5"),
    (lambda: _over_game().next_to_act(), "nobody is to act"),
    (lambda: find_lay_down([0] * 10, get_variant("may-i").round_rules(1, 4).contract, get_variant("may-i")),
     "count vector"),
])
def test_a_call_that_does_not_fit_the_game_raises_a_usage_error(call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment):
        call()


def _over_game() -> Game:
    game = new_game("basic", 2, seed=1)
    game.phase = Phase.GAME_OVER
    return game


@pytest.mark.parametrize("name,options,fragment", [
    ("nobody", {}, "unknown bot"),
    ("greedy", {"colour": "red"}, "unknown greedy option"),
    ("heuristic", {"rummy": "always"}, "off, near or hold"),
    ("ismcts", {"simulations": 0}, "at least 1"),
])
def test_bad_bot_options_raise_a_bot_error(name: str, options: dict[str, object], fragment: str) -> None:
    with pytest.raises(BotError, match=fragment):
        make_bot(name, **options)
