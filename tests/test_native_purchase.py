"""The compiled listing of the purchase variant's moves (``purchase_moves.c``) answers exactly as the Python listing
(``moves._purchase_actions``) does: the same books, purchases, trades and exchanges, in the same order.

* On random hands, discard piles and purchase cards (several decks, jokers, hands holding several books) under
  random purchase rules (hypothesis), the compiled listing against the Python one.
* At every decision of random games of ``purchase`` under random house-rule mixes, both backends in lockstep: the
  whole legal list (entries and order).
* The dispatch: None, the moves untouched, for a malformed argument (the Python listing answers then).

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import DealError, Phase, VariantError, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.moves import _PURCHASE_KIT, _purchase_actions, _purchase_rules
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_native import assert_same_games, running

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")

# House rules of the purchase variant that reach its listing, and the values tried.
PURCHASE_OPTIONS: dict[str, list[Any]] = {
    "trade_requires_value_rule": [True, False],
    "ace_purchasable_by": [["A", "2"], ["A"], ["K", "Q", "2"], ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T",
                                                                "J", "Q", "K"]],
    "book_ace_mode": ["high_only", "low_or_high"],
    "pc_discard_position": ["in_place", "top"],
    "decks": [1, 2],
    "deal_size": [4, 5, 7, 9],
}


def _variant(options: dict[str, Any]) -> Any:
    try:
        return get_variant("purchase", options)
    except VariantError:
        assume(False)
        raise


def _new_game(variant: Any, players: int, seed: int) -> Any:
    try:
        return new_game(variant, players, seed=seed)
    except DealError:  # (too few cards for this many players)
        assume(False)
        raise


def _listing(game: Any, name: str) -> list[str]:
    """The purchase moves of the active player on backend ``name``, as notation."""
    seat = game.active
    held = [card for card in range(53) if game.hands[seat][card]]
    moves: list[Any] = []
    with running(name):
        _purchase_actions(game, held, moves)
    return [str(action) for action in moves]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(sorted(PURCHASE_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_purchase_moves_on_random_hands(keys: list[str], data: st.DataObject) -> None:
    """Random hands (up to 12 cards of up to three decks and jokers, dense in one suit or rank now and then so that
    several books are held), discard piles, purchase cards and seats, under random purchase rules."""
    variant = _variant({key: data.draw(st.sampled_from(PURCHASE_OPTIONS[key])) for key in keys})
    players = data.draw(st.integers(2, 6))
    game = _new_game(variant, players, data.draw(st.integers(0, 1000)))
    while game.phase is not Phase.PLAY:  # (a draw)
        game.apply(game.legal_actions(game.active)[0])
    seat = game.active
    dense = data.draw(st.sampled_from([None, "suit", "rank"]))
    pool = list(range(53))
    if dense == "suit":
        suit = data.draw(st.integers(0, 3))
        pool = [suit * 13 + rank for rank in range(13)] + [52]
    elif dense == "rank":
        rank = data.draw(st.integers(0, 12))
        pool = [suit * 13 + rank for suit in range(4)] + [(rank + 1) % 13]
    hand = [0] * 53
    for card in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12)):
        hand[card] = min(3, hand[card] + 1)
    game.hands[seat] = hand
    game.sizes[seat] = sum(hand)
    game.discard = data.draw(st.lists(st.integers(0, 51), max_size=20))
    game.purchase_cards = data.draw(st.lists(st.integers(0, 52), min_size=players, max_size=players))
    game.purchase_done = data.draw(st.booleans())
    assert _listing(game, "native") == _listing(game, "python")


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(sorted(PURCHASE_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_purchase_moves_in_random_games(keys: list[str], data: st.DataObject) -> None:
    """The purchase listing of both backends at every play decision of a random game under a random house-rule mix,
    and the game's whole legal list at every decision with both backends in lockstep."""
    variant = _variant({key: data.draw(st.sampled_from(PURCHASE_OPTIONS[key])) for key in keys})
    players = data.draw(st.integers(2, 6))
    seed = data.draw(st.integers(0, 10**6))
    policy = data.draw(st.sampled_from(["uniform", "steered"]))
    game = _new_game(variant, players, seed)
    for _turn in random_play(game, random.Random(seed), policy=policy, decisions=150):
        if game.phase is Phase.PLAY:
            assert _listing(game, "native") == _listing(game, "python"), (keys, seed, game.hands[game.active])
    assert_same_games(variant, players, seed, policy, 150)


@pytest.mark.parametrize("options", [{}, {"book_ace_mode": "low_or_high", "decks": 2, "deal_size": 9},
                                     {"trade_requires_value_rule": False, "ace_purchasable_by": ["K"]}])
def test_purchase_games_list_the_same_moves(options: dict[str, Any]) -> None:
    for seed in range(count(6)):
        assert_same_games(get_variant("purchase", options), 4, seed, "uniform" if seed % 2 else "steered", 400)


def test_uncovered_purchase_moves_go_to_python() -> None:
    """The dispatch: the compiled listing answers a well-formed call; None, the moves untouched, for a malformed hand,
    card or seat (the Python listing answers then); a wrong call is a TypeError."""
    native = switch.BUILT
    assert native is not None
    variant = get_variant("purchase")
    game = new_game(variant, 3, seed=1)
    seat = game.active
    hand = list(game.hands[seat])
    held = [card for card in range(53) if hand[card]]
    pcs = list(game.purchase_cards or [])
    rules = _purchase_rules(variant)

    def listed(hand: Any = hand, seat: int = seat, pcs: Any = pcs, discard: Any = (5, 9), rules: int = rules
               ) -> tuple[Any, list[Any]]:
        moves: list[Any] = ["kept"]
        return native.purchase_moves(moves, hand, seat, pcs, list(discard), False, rules, _PURCHASE_KIT, game,
                                     held), moves

    answer, moves = listed()
    assert answer is True and len(moves) > 1
    for malformed in ({"hand": hand[:52]}, {"seat": 3}, {"seat": -1}, {"pcs": [*pcs[:2], 53]}, {"pcs": tuple(pcs)},
                      {"discard": (5, -1)}, {"discard": (5, 2**70)}, {"rules": -1}, {"pcs": [0] * 65}):
        assert listed(**malformed) == (None, ["kept"]), malformed
    with pytest.raises(TypeError):
        native.purchase_moves([], hand, seat, pcs, [], False, rules, _PURCHASE_KIT[:5], game, held)
