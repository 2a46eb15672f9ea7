"""The compiled new melds of free melding (``basic_melds.c``) answer exactly as the Python engine does.

* ``single_melds`` against ``moves._single_melds``: the same sets and runs, in the same order, on random hands
  (several decks, wild cards, dense in one rank or suit) under random house rules (hypothesis).
* ``unmeldable_pool`` through ``deadlock.is_stalemate``: the same answer on both backends at every decision of random
  ``basic`` games under house-rule mixes, on the position as it stands and with most of the cards off the table
  taken out of the pack (so that the lay-off test and stalemates are reached).
* Random ``basic`` games under house-rule mixes played on both backends in lockstep: the same legal list at every
  decision.
* The dispatch: None for a malformed argument or a minimum out of range (the Python code answers then).

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import DealError, Phase, VariantError, new_game
from rummy.engine.cards import CARD_COUNT
from rummy.engine.deadlock import is_stalemate
from rummy.engine.house_rules import get_variant
from rummy.engine.meld_rules import compiled_meld_rules
from rummy.engine.moves import _MELD_KIT, _native_single_melds, _single_melds
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_native import assert_same_games, running

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")

# House rules that reach the new melds of free melding and the stalemate check, and the values tried.
MELD_OPTIONS: dict[str, list[Any]] = {
    "ace_mode": ["low_only", "high_only", "low_or_high"],
    "run_min": [2, 3, 4, 5],
    "group_min": [2, 3, 4],
    "decks": [1, 2],
    "wild_ranks": [["2"], ["JOKER"], ["JOKER", "2"]],
    "jokers_per_deck": [0, 2],
    "deal_size": [7, 10, 13],
}


def _variant(base: str, options: dict[str, Any]) -> Any:
    try:
        return get_variant(base, options)
    except VariantError:
        assume(False)
        raise


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(["basic", "may-i", "progressive-buy-it"]),
       st.lists(st.sampled_from(sorted(MELD_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_single_melds_on_random_hands(base: str, keys: list[str], data: st.DataObject) -> None:
    """Random hands of up to 16 cards (up to three of a kind, dense in one rank or suit now and then)."""
    variant = _variant(base, {key: data.draw(st.sampled_from(MELD_OPTIONS[key])) for key in keys})
    try:
        game = new_game(variant, 2, seed=data.draw(st.integers(0, 1000)))
    except DealError:
        assume(False)
        raise
    dense = data.draw(st.sampled_from([None, "suit", "rank"]))
    pool = list(range(53))
    if dense == "suit":
        suit = data.draw(st.integers(0, 3))
        pool = [suit * 13 + rank for rank in range(13)] + [52, 1, 14]
    elif dense == "rank":
        rank = data.draw(st.integers(0, 12))
        pool = [suit * 13 + rank for suit in range(4)] + [52, (rank + 1) % 13]
    hand = [0] * 53
    for card in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=16)):
        hand[card] = min(3, hand[card] + 1)
    game.hands[game.active] = hand
    held = [card for card in range(53) if hand[card]]
    native = _native_single_melds(switch.BUILT, game)
    assert native is not None
    assert [str(meld) for meld in native] == [str(meld) for meld in _single_melds(game, held)]
    assert native == list(_single_melds(game, held))


def _same_stalemate(game: Any) -> None:
    with running("python"):
        python = is_stalemate(game)
    with running("native"):
        native = is_stalemate(game)
    assert python == native, (game.pack, [str(meld) for meld in game.table])


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.sampled_from(sorted(MELD_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_stalemates_in_random_games(keys: list[str], data: st.DataObject) -> None:
    variant = _variant("basic", {key: data.draw(st.sampled_from(MELD_OPTIONS[key])) for key in keys})
    players = data.draw(st.integers(2, 4))
    seed = data.draw(st.integers(0, 10**6))
    try:
        game = new_game(variant, players, seed=seed)
    except DealError:
        assume(False)
        raise
    rng = random.Random(seed)
    policy = data.draw(st.sampled_from(["uniform", "steered"]))
    for _turn in random_play(game, random.Random(seed), policy=policy, decisions=120):
        if game.phase is not Phase.PLAY:
            continue
        _same_stalemate(game)
        on_table = [0] * 53
        for meld in game.table:
            for card in meld.cards:
                on_table[card] += 1
        thinned = game.copy()  # most cards off the table leave the pack
        keep = rng.random()
        thinned.pack = [count if rng.random() < keep else on_table[card] for card, count in enumerate(game.pack)]
        _same_stalemate(thinned)


@pytest.mark.parametrize("options", [{}, {"ace_mode": "low_or_high", "decks": 2, "run_min": 4},
                                     {"wild_ranks": ["JOKER", "2"], "jokers_per_deck": 2, "group_min": 2},
                                     {"ace_mode": "high_only", "deal_size": 13}])
def test_basic_games_list_the_same_moves(options: dict[str, Any]) -> None:
    for seed in range(count(6)):
        assert_same_games(get_variant("basic", options), 4 if "deal_size" not in options else 2, seed,
                          "uniform" if seed % 2 else "steered", 300)


def test_uncovered_basic_melds_go_to_python() -> None:
    """The dispatch: None for a malformed hand or pack, wild flags or table, or a minimum out of range (the Python
    code answers then); a wrong call is a TypeError."""
    native = switch.BUILT
    assert native is not None
    variant = get_variant("basic")
    hand = [1] * 13 + [0] * 40
    rules = compiled_meld_rules(variant)
    assert native.single_melds(hand, rules, 3, 3, _MELD_KIT) is not None

    def run_bounds(low: int, high: int) -> bytes:  # the rules with these run bounds (after the 53 wild flags)
        return rules[:CARD_COUNT] + bytes([low, high]) + rules[CARD_COUNT + 2:]

    assert native.single_melds(hand, run_bounds(2, 14), 3, 3, _MELD_KIT) is not None  # the ace high only
    for malformed in ((hand[:52], rules, 3, 3), (hand, rules[:-1], 3, 3), (hand, rules, 0, 3), (hand, rules, 3, 1001),
                      (hand, run_bounds(0, 13), 3, 3), (hand, run_bounds(3, 13), 3, 3), (hand, run_bounds(1, 15), 3, 3),
                      (hand, rules, 2**70, 3), ([256] + hand[1:], rules, 3, 3)):
        assert native.single_melds(*malformed, _MELD_KIT) is None, malformed[2:]
    game = new_game(variant, 2, seed=1)
    pack = list(game.pack)
    assert native.unmeldable_pool(pack, [], 3, 3, False) is False
    assert native.unmeldable_pool([0] * 53, [], 3, 3, False) == [0] * 53

    class Meld:
        def __init__(self, cards: Any) -> None:
            self.cards = cards

    assert native.unmeldable_pool(pack, [Meld((0, 1, 2))], 3, 3, False) is False
    for table, minimum in (([], 0), ([], 1001), ([Meld([0, 1, 2])], 3), ([Meld((53,))], 3), ([Meld((0, 0))], 3)):
        assert native.unmeldable_pool(pack, table, minimum, 3, False) is None, (minimum, table and table[0].cards)
    assert native.unmeldable_pool(pack[:52], [], 3, 3, False) is None
    assert native.unmeldable_pool(pack, (), 3, 3, False) is None
    with pytest.raises(TypeError):
        native.single_melds(hand, rules, 3, 3, _MELD_KIT[:2])
    with pytest.raises(AttributeError):
        native.unmeldable_pool(pack, [object()], 3, 3, False)
