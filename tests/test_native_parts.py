"""The compiled parts of a table's melds in the listing of rearrangements (``meld_parts.c``) are the Python reference's,
``table_offers._rearrangement_part``: the same spare bytes, the same split tuples, equal ``MeldSpec`` halves, in the
same order.

* Random games of every variant under random house-rule mixes (hypothesis): every new meld on the table, at every
  decision, through ``rearrangement_part`` and through the table's ``rearrangement_parts`` (memo and dispatch).
* Random melds, valid or not (odd wilds, twos, jokers, mixed ranks and suits), under random house rules.
* The dispatch: None for a meld or rules the C does not read, and the Python reference answers then.

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import VARIANTS, DealError, Variant, VariantError, new_game
from rummy.engine.cards import JOKER
from rummy.engine.house_rules import get_variant
from rummy.engine.melds import TableMeld
from rummy.engine.memo import memo_table
from rummy.engine.table_offers import _PART, _part_rules, _rearrangement_part, _rearrangement_part_of
from tests.profiles import examples
from tests.random_games import random_play

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")

# House rules that reach a meld's spares, its rest and its split halves, and the values tried.
PART_OPTIONS: dict[str, list[Any]] = {
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"], []],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "run_min": [2, 3, 4, 5],
    "group_min": [2, 3, 4],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "twos_natural_in_place": [False, True],
    "all_wild_melds": [False, True],
    "wild_group_min": [None, 2, 3, 4],
    "pair_wilds": [True, False],
    "pair_extendable": [True, False],
    "joker_swap": ["none", "to_hand", "relocate_in_run"],
    "rearrange_mode": ["none", "unrestricted"],
    "new_melds_after_laydown": [True, False],
}

#: A memo table for rearrangement_parts (memo.put stores in registered tables only).
_MEMO: dict[Any, Any] = memo_table("compiled parts under test", 10_000)


def _variant(base: str, keys: list[str], data: st.DataObject) -> Variant:
    try:
        return get_variant(base, {key: data.draw(st.sampled_from(PART_OPTIONS[key])) for key in keys})
    except VariantError:
        assume(False)
        raise


def assert_same_parts(table: tuple[TableMeld, ...], variant: Variant, seen: dict[int, TableMeld]) -> int:
    """Every meld of ``table`` not in ``seen`` (ids; kept alive there) compiled against the reference; how many."""
    native = switch.BUILT
    assert native is not None
    rules = _part_rules(variant)
    new = [meld for meld in table if id(meld) not in seen]
    for meld in new:
        seen[id(meld)] = meld
        assert native.rearrangement_part(meld, rules) == _rearrangement_part(meld, variant), (meld, variant)
    if new:
        _MEMO.clear()
        parts = native.rearrangement_parts(table, variant, rules, _MEMO, _PART, _rearrangement_part_of)
        assert parts == [_rearrangement_part(meld, variant) for meld in table]
        assert len(_MEMO) == len(set(map(id, table)))  # each part stored, by memo.put
    return len(new)


@settings(max_examples=examples(100), deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.lists(st.sampled_from(sorted(PART_OPTIONS)), max_size=6, unique=True),
       st.data())
def test_same_parts_in_random_games(base: str, keys: list[str], data: st.DataObject) -> None:
    variant = _variant(base, keys, data)
    try:
        game = new_game(variant, data.draw(st.sampled_from([2, 4])), seed=data.draw(st.integers(0, 10**6)))
    except DealError:
        assume(False)
        raise
    seen: dict[int, TableMeld] = {}
    policy = data.draw(st.sampled_from(["uniform", "steered"]))
    for _turn in random_play(game, random.Random(game.seed), policy=policy, decisions=600):
        assert_same_parts(tuple(game.table), variant, seen)


def _random_meld(rng: random.Random) -> TableMeld:
    """A meld of any kind and shape, valid or not: mostly the cards its shape asks for, with wild-prone twos, jokers
    and any card mixed in."""
    kind = rng.choice(["run", "run", "set", "pair", "book"])
    odd = [JOKER, 1, 14, 27, 40, rng.randrange(JOKER + 1)]
    if kind == "run":
        suit, low = rng.randrange(4), rng.randint(1, 14)
        length = rng.randint(1, 15 - low)
        cards = tuple(rng.choice([suit * 13 + (low + i - 1) % 13] * 3 + odd) for i in range(length))
        return TableMeld(7, kind, 0, cards, 0, suit, low, rng.randint(0, length))
    rank = rng.choice([0, rng.randint(1, 13)])
    length = rng.randint(1, 9)
    cards = tuple(rng.choice([max(0, rank - 1) + 13 * rng.randrange(4)] * 4 + odd) for _ in range(length))
    return TableMeld(7, kind, 0, cards, rank, -1, 0, rng.randint(0, length))


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.lists(st.sampled_from(sorted(PART_OPTIONS)), max_size=7, unique=True),
       st.data(), st.integers(0, 10**6))
def test_same_parts_of_random_melds(base: str, keys: list[str], data: st.DataObject, seed: int) -> None:
    variant = _variant(base, keys, data)
    rules = _part_rules(variant)
    rng = random.Random(seed)
    assert switch.BUILT is not None
    for _ in range(40):
        meld = _random_meld(rng)
        assert switch.BUILT.rearrangement_part(meld, rules) == _rearrangement_part(meld, variant), (meld, variant)


def test_what_the_core_does_not_read_goes_to_python() -> None:
    native = switch.BUILT
    assert native is not None
    variant = get_variant("progressive-buy-it")
    rules = _part_rules(variant)
    run = TableMeld(3, "run", 0, (2, 3, 4, 5, 6, 7, 8, 9), 0, 0, 3, 0)
    assert native.rearrangement_part(run, rules) == _rearrangement_part(run, variant)
    assert native.rearrangement_part(run, rules)[1]  # it splits
    unread = [
        TableMeld(3, "triple", 0, (2, 15, 28), 3, -1, 0, 0),  # a kind it does not know
        TableMeld(3, "run", 0, [2, 3, 4, 5], 0, 0, 3, 0),  # cards not a tuple
        TableMeld(3, "run", 0, (), 0, 0, 3, 0),  # no cards
        TableMeld(3, "set", 0, (2, 15, 53), 3, -1, 0, 0),  # not a card
        TableMeld(3, "run", 0, (11, 12, 0, 1), 0, 0, 12, 0),  # a run past the ace
        TableMeld(3, "set", 0, (2, 15, 28), 14, -1, 0, 0),  # no such rank
        TableMeld(3, "set", 0, (2, 15, 28), 3, -1, 0, 4),  # more wilds than cards
        object(),
    ]
    for meld in unread:
        assert native.rearrangement_part(meld, rules) is None
    assert native.rearrangement_parts((unread[0], run), variant, rules, _MEMO, _PART, _rearrangement_part_of) == [
        _rearrangement_part(unread[0], variant), _rearrangement_part(run, variant)]
    for bad in (rules[:-1], (rules[0][:-1], *rules[1:]), (rules[0], 0, *rules[2:]), (*rules[:3], -1, *rules[4:]),
                (rules[0], "4", *rules[2:])):
        assert native.rearrangement_part(run, bad) is None
        assert native.rearrangement_parts((run,), variant, bad, _MEMO, _PART, _rearrangement_part_of) is None
    assert native.rearrangement_parts([run], variant, rules, _MEMO, _PART, _rearrangement_part_of) is None
    with pytest.raises(TypeError):
        native.rearrangement_part(run)
