"""The compiled contract planner (``planner.c``) answers exactly as the Python planner does.

* ``planner_search`` and ``planner_outs`` against ``ContractPlanner._python_search`` and ``_outs_and_leaves``: the
  same lowest deficit, wilds and leaves (cards used and outs, in order), with no ceiling and with each small one, on
  the hands of every seat at the decisions of random games of every contract variant under random house-rule mixes
  (hypothesis), for the round's contract as dealt and a card longer (``extra_card``).
* The dispatch: None for a malformed argument or a shape the compiled search does not cover (the Python search
  answers then), a ValueError for leaves that are not the compiled search's.

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.bots.planning import ContractPlanner, _outs_and_leaves
from rummy.engine import CARD_COUNT, DealError, Phase, new_game
from rummy.engine.house_rules import get_variant
from tests.profiles import examples
from tests.random_games import random_play
from tests.test_native_basic import _variant
from tests.variants import CONTRACT_VARIANTS

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")


@pytest.fixture(autouse=True)
def _compiled_core() -> Iterator[None]:
    """The compiled core answers the planner's queries in these tests, whatever ``RUMMY_ENGINE`` says (they compare
    it with the Python search, which they call themselves)."""
    before = switch.NATIVE
    switch.NATIVE = switch.BUILT
    yield
    switch.NATIVE = before

# House rules that reach the planner (its partial melds, caps and wild cards), and the values tried.
PLANNER_OPTIONS: dict[str, list[Any]] = {
    "ace_mode": ["low_only", "high_only", "low_or_high"],
    "run_min": [3, 4, 5],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "all_wild_melds": [False, True],
    "wild_group_min": [2, 3, 4],
    "wild_group_counts_as_set": [False, True],
    "decks": [1, 2, 3],
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "group_min": [2, 3, 4],
}


def assert_same_plans(planner: ContractPlanner, counts: list[int]) -> None:
    """The compiled search's answers on ``counts`` are the Python search's, for every shape the planner asks."""
    shapes = planner.extra_shapes if planner.extra_card else [planner.shape]
    for shape in shapes:
        for ceiling in (None, 0, 1, 2, 3):
            native = planner._native_search(list(counts), shape, ceiling)
            assert native is not None, (counts, ceiling)
            lowest, leaves, wilds = planner._python_search(list(counts), shape, ceiling, None)
            assert (native[0], native[2], bool(native[1])) == (lowest, wilds, bool(leaves)), (counts, ceiling)
            deficit = max(0, lowest)
            expected = _outs_and_leaves(leaves, deficit, wilds, planner.melds.caps)
            found = native[1].outs(native[1].packed, shape.count, deficit, wilds, planner.native_rules)
            assert found == expected, (counts, ceiling)


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted(CONTRACT_VARIANTS)),
       st.lists(st.sampled_from(sorted(PLANNER_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_plans_on_the_hands_of_random_games(base: str, keys: list[str], data: st.DataObject) -> None:
    variant = _variant(base, {key: data.draw(st.sampled_from(PLANNER_OPTIONS[key])) for key in keys})
    players = data.draw(st.integers(2, 4))
    seed = data.draw(st.integers(0, 10**6))
    try:
        game = new_game(variant, players, seed=seed)
    except DealError:  # a deal the house rules leave too small a pack for
        assume(False)
        raise
    rng = random.Random(seed)
    planners: dict[tuple[int, bool], ContractPlanner] = {}
    checked = 0
    for step, _ in enumerate(random_play(game, rng, policy=data.draw(st.sampled_from(["uniform", "steered"])))):
        if step % 3 or game.phase is Phase.ROUND_OVER or game.phase is Phase.GAME_OVER:
            continue
        contract = game.rules.contract
        for extra in (False, True):
            planner = planners.get((game.round_number, extra))
            if planner is None:
                planner = planners[game.round_number, extra] = ContractPlanner(variant, contract, extra_card=extra)
            seat = rng.randrange(game.n)
            assert_same_plans(planner, list(game.hands[seat]))
        checked += 1
        if checked >= 30:
            break


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(sorted(CONTRACT_VARIANTS)), st.integers(1, 8), st.integers(0, 10**6),
       st.sampled_from(["rank", "suit", None]), st.integers(8, 20))
def test_same_plans_on_dense_random_hands(base: str, round_number: int, seed: int, dense: str | None,
                                          size: int) -> None:
    """Hands of several decks and wilds, dense in one rank or one suit (many group and run candidates)."""
    variant = get_variant(base, {"decks": 3})
    rules = variant.round_rules(1 + (round_number - 1) % len(variant.rounds), 4)
    rng = random.Random(seed)
    pool = [card for card in range(53) for _ in range(3)]
    if dense == "rank":
        rank = rng.randrange(13)
        pool += [suit * 13 + rank for suit in range(4)] * 3
    elif dense == "suit":
        suit = rng.randrange(4)
        pool += [suit * 13 + rank for rank in range(13)] * 3
    counts = [0] * 53
    for card in rng.sample(pool, size):
        counts[card] += 1
    for extra in (False, True):
        assert_same_plans(ContractPlanner(variant, rules.contract, extra_card=extra), counts)


def test_no_contract_and_the_dispatch_of_malformed_arguments() -> None:
    search, outs = switch.BUILT.planner_search, switch.BUILT.planner_outs  # type: ignore[union-attr]
    variant = get_variant("may-i")
    planner = ContractPlanner(variant, variant.round_rules(1, 4).contract)
    empty = ContractPlanner(variant, ())
    hand = [1] * 52 + [0]
    assert_same_plans(empty, hand)
    assert_same_plans(planner, hand)
    shape, rules = planner.shape.native, planner.native_rules
    assert shape is not None
    for arguments in [
        ([1] * 52, shape, rules, None),                  # not 53 counts
        ([1] * 52 + [-1], shape, rules, None),           # a negative count
        ([1] * 52 + [32], shape, rules, None),           # more copies than it covers
        ("hand", shape, rules, None),                   # not a list or tuple
        (hand, shape[:-1], rules, None),                 # a cut shape
        (hand, b"\x11" + shape[1:], rules, None),        # more than 16 slots
        (hand, shape[:3] + b"\x0f" + shape[4:], rules, None),  # a slot of 15 cards
        (hand, shape[:3] + b"\x00" + shape[4:], rules, None),  # a slot of none
        (hand, shape, rules[:-1], None),                 # cut rules
        (hand, shape, rules[:CARD_COUNT] + b"\x03" + rules[CARD_COUNT + 1:], None),  # a lowest run value of 3
        (hand, shape, rules[:CARD_COUNT + 2] + b"\x03" + rules[CARD_COUNT + 3:], None),  # an unknown wild policy
        (hand, shape, rules + b"\x00", None),             # rules too long
        (hand, shape, rules, "1"),                       # a ceiling that is not an int
        (hand, shape, rules, 10**30),                    # a ceiling out of range
        (hand, "shape", rules, None),
    ]:
        assert search(*arguments) is None, arguments
    with pytest.raises(TypeError):
        search(hand, shape, rules)
    lowest, packed, wilds = search(hand, shape, rules, None)
    count = planner.shape.count
    with pytest.raises(ValueError):
        outs(packed[:-1], count, 1, wilds, rules)
    with pytest.raises(ValueError):
        outs(b"\xff" * len(packed), count, 1, wilds, rules)
    with pytest.raises(TypeError):
        outs(packed, 17, 1, wilds, rules)
    with pytest.raises(TypeError):
        outs(packed, count, 1, wilds, b"")
    assert outs(b"", count, 1, wilds, rules) == (frozenset(), ())
