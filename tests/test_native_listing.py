"""The compiled pieces of the play phase's listing (``play_listing.c``) answer exactly as the Python engine does.

* ``layoffs`` against ``meld_offers``' Python search (``layoffs_among`` over ``layoff_candidates``): random meld shapes
  under random house rules (hypothesis), and every meld of the table at every decision of random games.
* ``going_out`` against ``moves._going_out_batch``'s Python search (the same batch of lay-offs, or none) on every hand
  of six cards or fewer at every play decision of random games.
* ``most_cards_laid`` against ``lay_down._most_cards_laid``: random hands (several decks, dense in one rank or
  suit) under random wild flags and contract shapes (hypothesis), and every hand at every decision of random games.
* ``discards`` against ``moves._discards``' Python pass, ``gather_offers`` and ``rearrangement_parts`` against
  ``TableOffers``' Python pass over the melds (the lay-off, swap and split offers, and the packed table of the
  compiled rearrangements), and ``meld_offers`` (a meld's offers worked out in C) against
  ``table_offers._work_out_meld_offers`` on every meld of the table, at every decision of random games of the contract
  variants under random house-rule mixes; there too ``spare_action`` against ``TableOffers._written_out`` on every
  spare of the table (alone, with its neighbour, three at a time).
* ``play_actions`` (the play phase's listing, ``play_actions.c``) against ``moves._play_actions`` on the Python backend
  at every play decision of those games and of ``basic``'s: the same entries in order, each deferred or not alike (the
  deferred ones worked out alike), and the same count of deferred entries.
* Random games under house-rule mixes played on both backends in lockstep: the same legal list at every decision.
* The dispatch: None for a malformed argument (the Python code answers then).

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import DealError, Phase, VariantError, moves, new_game
from rummy.engine.actions import Action, Verb
from rummy.engine.candidates import Deferred
from rummy.engine.cards import CARD_COUNT, JOKER
from rummy.engine.game import Game
from rummy.engine.house_rules import get_variant
from rummy.engine.lay_down import _most_cards_laid, most_cards_laid, slot_counts
from rummy.engine.meld_offers import (
    _KIND_CODES,
    _PER_MELD,
    _try_layoffs,
    layoff_candidates,
    layoffs_among,
)
from rummy.engine.meld_rules import compiled_meld_rules
from rummy.engine.melds import TableMeld
from rummy.engine.memo import put
from rummy.engine.moves import _SIMPLE, _discards, _going_out_batch, simple_action
from rummy.engine.table_offers import (
    _MELD_OFFERS,
    _PART,
    _SPARE_KIT,
    TableOffers,
    _meld_offers,
    _offers_kit,
    _part_rules,
    _rearrangement_part_of,
    _work_out_meld_offers,
)
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_native import assert_same_games, running

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")

CONTRACT_VARIANTS = ["progressive-buy-it", "progressive-15", "may-i"]

# House rules that reach the compiled pieces (wilds, the meld shapes behind a table's offers, swaps, discards), and
# the values tried.
LISTING_OPTIONS: dict[str, list[Any]] = {
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "run_min": [3, 4],
    "group_min": [2, 3, 4],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "joker_swap": ["none", "to_hand", "relocate_in_run"],
    "joker_swap_in_groups": [True, False],
    "rearrange_mode": ["none", "unrestricted"],
    "may_discard_card_taken_from_discard": [True, False],
    "stolen_joker_must_be_played": [True, False],
    "final_discard_allowed": [True, False],
    "new_melds_after_laydown": [True, False],
    "layoff_timing": ["same_turn", "next_turn", "always"],
    "layoff_requires_down": [True, False],
    "twos_natural_in_place": [False, True],
    "pair_extendable": [True, False],
}

# House rules that reach the lay-offs a meld takes, and the values tried.
LAYOFF_OPTIONS: dict[str, list[Any]] = {
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "twos_natural_in_place": [False, True],
    "pair_extendable": [True, False],
}


def _game(variant_id: str, options: dict[str, Any], seed: int) -> Game:
    try:
        return new_game(get_variant(variant_id, options), 4, seed=seed)
    except (VariantError, DealError):
        assume(False)
        raise


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, JOKER), max_size=40), st.lists(st.booleans(), min_size=CARD_COUNT,
                                                               max_size=CARD_COUNT),
       st.integers(0, 4), st.integers(0, 4), st.integers(0, 12))
def test_same_most_cards_laid_on_random_hands(cards: list[int], wild: list[bool], runs: int, groups: int,
                                              dense: int) -> None:
    """Random hands (dense in one rank, a suit or both now and then) under random wild flags and contracts."""
    hand = [0] * CARD_COUNT
    for card in cards:
        hand[card if dense % 3 else (card % 13 if dense % 2 else 13 * (dense % 4) + card % 13)] += 1
    assert switch.BUILT is not None
    expected = _reference_most(hand, tuple(wild), runs, groups)
    rules = bytes(wild) + compiled_meld_rules(get_variant("basic"))[CARD_COUNT:]  # only the wild flags are read
    assert switch.BUILT.most_cards_laid(hand, rules, runs, groups) == expected
    assert switch.BUILT.most_cards_laid(tuple(hand), rules, runs, groups) == expected


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(st.sampled_from(sorted(LAYOFF_OPTIONS)), max_size=4, unique=True), st.data(),
       st.sampled_from(sorted(_KIND_CODES)), st.integers(0, 13), st.integers(0, 3), st.integers(1, 14),
       st.integers(1, 14), st.integers(0, 14))
def test_same_layoffs_on_random_meld_shapes(keys: list[str], data: st.DataObject, kind: str, rank: int, suit: int,
                                            low: int, length: int, wilds: int) -> None:
    """Every (card, end) a meld of a random shape takes, under random house rules."""
    options = {key: data.draw(st.sampled_from(LAYOFF_OPTIONS[key])) for key in keys}
    try:
        variant = get_variant("may-i", options)
    except VariantError:
        assume(False)
        raise
    length = min(length, 15 - low) if kind == "run" else length
    meld = TableMeld(1, kind, 0, (0,) * length, rank if kind != "run" else 0, suit if kind == "run" else -1,
                     low if kind == "run" else 0, min(wilds, length))
    assert switch.BUILT is not None
    compiled = switch.BUILT.layoffs(_KIND_CODES[kind], meld.rank, meld.suit, meld.low, length, meld.wilds,
                                    compiled_meld_rules(variant))
    assert compiled == tuple(layoffs_among(layoff_candidates(meld, variant), meld, variant)), meld
    with running("native"):
        assert _try_layoffs(meld, variant) == compiled


def _reference_most(hand: list[int], wild: tuple[bool, ...], runs: int, groups: int) -> int:
    """``lay_down._most_cards_laid``'s body over explicit wild flags and slot counts (it reads them off a variant
    and contract; the games below compare it as it stands)."""
    wilds = 0
    by_rank = [0] * 14
    kinds = [0, 0, 0, 0]
    for card, held in enumerate(hand):
        if held:
            if wild[card]:
                wilds += held
            else:
                by_rank[card % 13 + 1] += held
                if card < JOKER:
                    kinds[card // 13] += 1
    return wilds + min(13, max(kinds)) * runs + sum(sorted(by_rank, reverse=True)[:groups])


def assert_same_play_listing(game: Game) -> None:
    """``play_actions`` against the Python listing at a play decision (see the module docstring)."""
    native = switch.BUILT
    assert native is not None
    facts = moves._play_facts(game)
    compiled = native.play_actions(game, facts, moves._PLAY_KIT)
    if compiled is None:  # only where a lay-down is asked that the compiled search does not cover (solver/native.py)
        assert facts[1] is None and game.variant.has_contracts and not game.down[game.active]
        return
    with running("python"):
        python = moves._play_actions(game)
    for listing in (compiled, python):
        assert listing[1] == sum(1 for entry in listing[0] if type(entry) is Deferred)
    assert [type(entry) for entry in compiled[0]] == [type(entry) for entry in python[0]]
    assert [_worked_out(entry) for entry in compiled[0]] == [_worked_out(entry) for entry in python[0]]
    assert compiled[1] == python[1]


def _worked_out(entry: Action | Deferred) -> Action:
    return entry.work_out() if isinstance(entry, Deferred) else entry


def assert_same_pieces(game: Game) -> None:
    """At one decision: ``most_cards_laid`` for every hand, and for the play phase the discards and the table's
    offers, each compiled piece against its Python code."""
    native = switch.BUILT
    assert native is not None
    variant, contract = game.variant, game.rules.contract
    for hand in game.hands:
        with running("native"):
            compiled = most_cards_laid(variant, contract, hand)
        assert compiled == _most_cards_laid(variant, contract, hand)
        assert native.most_cards_laid(hand, compiled_meld_rules(variant), *slot_counts(contract)) == compiled
    if game.phase is not Phase.PLAY:
        return
    assert_same_play_listing(game)
    held = list(compress(range(CARD_COUNT), game.hands[game.active]))
    with running("native"):
        compiled_discards = _discards(game)
    with running("python"):
        assert compiled_discards == _discards(game)
    if game.table:
        table = tuple(game.table)
        with running("native"):
            compiled_offers = TableOffers(table, variant)
            compiled_packed = compiled_offers.native_rearrangements()
        with running("python"):
            python_offers = TableOffers(table, variant)
            python_packed = python_offers.native_rearrangements()
        assert compiled_offers.layoffs == python_offers.layoffs
        assert compiled_offers.swaps == python_offers.swaps
        assert compiled_offers.splits == python_offers.splits
        assert compiled_packed == python_packed
        assert_same_spare_actions(compiled_offers, game.active)
    if sum(game.hands[game.active]) <= 6:
        with running("native"):
            compiled_batch = _going_out_batch(game, held)
        with running("python"):
            assert compiled_batch == _going_out_batch(game, held)
    for meld in game.table:
        with running("native"):
            compiled_layoffs = _try_layoffs(meld, variant)
        assert compiled_layoffs == tuple(layoffs_among(layoff_candidates(meld, variant), meld, variant)), meld
        compiled_offers = native.meld_offers(meld, _offers_kit(variant))
        with running("python"):
            assert compiled_offers == _work_out_meld_offers(meld, variant), meld


def assert_same_spare_actions(offers: TableOffers, seat: int) -> None:
    """``spare_action`` (spare_action.c) against ``TableOffers._written_out`` for every spare of the table alone, every
    two neighbours and the first, middle and last together (the new meld's kind and cards are passed through)."""
    native = switch.BUILT
    assert native is not None
    spares = sum(len(spare_bytes) // 2 for spare_bytes, _ in offers.native_rearrangements()[3])
    sets = [(index,) for index in range(spares)] + [(index, index + 1) for index in range(spares - 1)]
    for used in sets + ([(0, spares // 2, spares - 1)] if spares >= 3 else []):
        compiled = native.spare_action(offers, seat, used, "run", (4, 5, 6), _SPARE_KIT)
        assert compiled is not None and compiled == offers._written_out(seat, used, "run", (4, 5, 6)), used
    assert native.spare_action(offers, seat, (spares,), "set", (1, 14, 27), _SPARE_KIT) is None  # no such spare


def assert_same_going_out(game: Game, rng: random.Random) -> bool:
    """The going-out search on a copy of ``game`` whose active player holds two to five cards that fit the table
    (drawn from what its melds take), so that many searches find a batch; whether one did."""
    fitting = sorted({card for meld in game.table for card, _ in _try_layoffs(meld, game.variant)})
    if not fitting:
        return False
    trial = game.copy()
    hand = [0] * CARD_COUNT
    for card in rng.choices(fitting, k=rng.randint(2, 5)):
        hand[card] += 1
    trial.hands[trial.active] = hand
    trial.sizes[trial.active] = sum(hand)
    held = list(compress(range(CARD_COUNT), hand))
    with running("native"):
        compiled = _going_out_batch(trial, held)
    with running("python"):
        assert compiled == _going_out_batch(trial, held), (hand, trial.table)
    return compiled is not None


@pytest.mark.parametrize("variant", CONTRACT_VARIANTS)
def test_same_going_out_on_fitting_hands(variant: str) -> None:
    found = 0
    for seed in range(count(5)):
        game, rng = new_game(variant, 4, seed=seed), random.Random(seed)
        for _turn in random_play(game, random.Random(seed), policy="steered", decisions=300):
            if game.phase is Phase.PLAY and game.table:
                found += assert_same_going_out(game, rng)
    assert found > count(5)


@pytest.mark.parametrize("variant", CONTRACT_VARIANTS)
def test_same_pieces_in_random_games(variant: str) -> None:
    for seed in range(count(3)):
        game = new_game(variant, 4, seed=seed)
        for _turn in random_play(game, random.Random(seed), policy="uniform" if seed % 2 else "steered",
                                 decisions=200):
            assert_same_pieces(game)


@pytest.mark.parametrize("seed", range(3))
def test_same_play_listing_in_basic(seed: int) -> None:
    game = new_game("basic", 2 + seed, seed=seed)
    for _turn in random_play(game, random.Random(seed), policy="uniform" if seed % 2 else "steered", decisions=300):
        if game.phase is Phase.PLAY:
            assert_same_play_listing(game)


def test_play_listing_dispatch() -> None:
    """``play_actions`` answers None, and the Python listing runs, for a state it does not read; a usage error for a
    malformed facts or kit."""
    native = switch.BUILT
    assert native is not None
    game = new_game("progressive-buy-it", 4, seed=5)
    for _turn in random_play(game, random.Random(5), policy="uniform", decisions=400):
        if game.phase is Phase.PLAY and not game.down[game.active] and game.table:
            break
    assert game.phase is Phase.PLAY and not game.down[game.active]
    state, facts = game, moves._play_facts(game)
    assert native.play_actions(state, facts, moves._PLAY_KIT) is not None
    # The lay-down's search not compiled for the contract (a spec of None): not for a player not yet down.
    assert native.play_actions(state, (facts[0], None, *facts[2:]), moves._PLAY_KIT) is None
    hand = state.hands[state.active]
    state.hands[state.active] = hand[:-1]  # not 53 counts
    assert native.play_actions(state, facts, moves._PLAY_KIT) is None
    state.hands[state.active] = [*hand[:-1], 300]  # a count out of range
    assert native.play_actions(state, facts, moves._PLAY_KIT) is None
    state.hands[state.active] = hand
    with pytest.raises(TypeError):
        native.play_actions(state, facts[:-1], moves._PLAY_KIT)
    with pytest.raises(TypeError):
        native.play_actions(state, facts, moves._PLAY_KIT[:-1])


@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(["basic", "may-i", "progressive-buy-it"]),
       st.lists(st.sampled_from(sorted(LISTING_OPTIONS)), max_size=5, unique=True), st.data())
def test_same_meld_offers_under_house_rules(variant_id: str, keys: list[str], data: st.DataObject) -> None:
    """``meld_offers`` (meld_offers.c) against ``_work_out_meld_offers`` on every meld of the table at every decision,
    ``basic`` included (free melding: new melds of every shape)."""
    native = switch.BUILT
    assert native is not None
    options = {key: data.draw(st.sampled_from(LISTING_OPTIONS[key])) for key in keys}
    game = _game(variant_id, options, data.draw(st.integers(0, 10**6)))
    kit = _offers_kit(game.variant)
    for _turn in random_play(game, random.Random(game.seed), policy=data.draw(st.sampled_from(["uniform", "steered"])),
                             decisions=150):
        for meld in game.table:
            compiled = native.meld_offers(meld, kit)
            with running("python"):
                assert compiled == _work_out_meld_offers(meld, game.variant), meld


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(CONTRACT_VARIANTS), st.lists(st.sampled_from(sorted(LISTING_OPTIONS)), max_size=4,
                                                    unique=True), st.data())
def test_same_pieces_under_house_rules(variant_id: str, keys: list[str], data: st.DataObject) -> None:
    options = {key: data.draw(st.sampled_from(LISTING_OPTIONS[key])) for key in keys}
    game = _game(variant_id, options, data.draw(st.integers(0, 10**6)))
    for _turn in random_play(game, random.Random(game.seed), policy=data.draw(st.sampled_from(["uniform", "steered"])),
                             decisions=120):
        assert_same_pieces(game)


LISTING_MIXES = [
    ("progressive-buy-it", {"joker_swap": "to_hand", "joker_swap_in_groups": True, "wild_ranks": ["JOKER", "2"]}),
    ("may-i", {"may_discard_card_taken_from_discard": False, "stolen_joker_must_be_played": True}),
    ("progressive-15", {"rearrange_mode": "unrestricted", "wild_policy": "at_most_one"}),
    ("progressive-buy-it", {"new_melds_after_laydown": True, "layoff_timing": "next_turn"}),
]


@pytest.mark.parametrize(("variant", "options"), LISTING_MIXES)
def test_house_rule_games_list_the_same_moves(variant: str, options: dict[str, Any]) -> None:
    for seed in range(count(4)):
        assert_same_games(get_variant(variant, options), 4, seed, "uniform" if seed % 2 else "steered", 200)


@pytest.mark.parametrize("backend", ["native", "python"])
def test_simple_actions_are_the_dataclass_values(backend: str) -> None:
    """``simple_action`` makes its actions with their slots set directly on the native backend: each equals, field for
    field, the dataclass made the plain way, and is shared with later calls."""
    _SIMPLE.clear()
    for seat, verb, card, meld, end in [(0, Verb.LAYOFF, 3, 7, "low"), (3, Verb.SWAP, 52, 1, None), (1, Verb.DRAW, None,
                                        None, None), (2, Verb.MOVE, 12, 40, "high"), (0, Verb.DISCARD, 0, None, None)]:
        with running(backend):
            made = simple_action(seat, verb, card, meld, end)
        plain = Action(seat, verb, card=card, meld=meld, end=end)
        assert type(made) is Action and made == plain and hash(made) == hash(plain) and str(made) == str(plain)
        assert [getattr(made, name) for name in Action.__dataclass_fields__] == [
            getattr(plain, name) for name in Action.__dataclass_fields__]
        assert simple_action(seat, verb, card, meld, end) is made


def test_malformed_arguments_go_to_python() -> None:
    """Each compiled piece answers None, and its Python code runs, for an argument it does not read."""
    native = switch.BUILT
    assert native is not None
    game = new_game("progressive-buy-it", 4, seed=3)
    variant = game.variant
    rules = compiled_meld_rules(variant)
    runs, groups = slot_counts(game.rules.contract)
    hand = game.hands[0]
    assert native.most_cards_laid(hand, rules, runs, groups) == _most_cards_laid(variant, game.rules.contract, hand)
    assert native.most_cards_laid(hand[:-1], rules, runs, groups) is None  # not 53 counts
    assert native.most_cards_laid([*hand[:-1], 300], rules, runs, groups) is None  # a count out of range
    assert native.most_cards_laid(hand, rules, -1, groups) is None
    assert native.most_cards_laid(hand, rules, "2", groups) is None
    assert native.most_cards_laid(hand, rules[:-1], runs, groups) is None  # not the compiled meld rules
    with pytest.raises(TypeError):
        native.most_cards_laid(hand, rules, runs)
    actions = tuple(range(CARD_COUNT))
    assert native.discards(hand, actions, -1) == list(compress(actions, hand))
    assert native.discards(hand, actions[:-1], -1) is None
    assert native.discards(hand[:-1], actions, -1) is None
    assert native.discards(hand, actions, None) is None
    with pytest.raises(TypeError):
        native.discards(hand, actions)
    table = [object()]
    kit = _offers_kit(variant)
    assert native.gather_offers(table, variant, _MELD_OFFERS, _meld_offers, kit, put) is None  # not a tuple
    assert native.gather_offers((), variant, _MELD_OFFERS, _meld_offers, kit, put) == ([], [], [])
    assert native.gather_offers((1,), variant, _MELD_OFFERS, lambda meld, variant: (1, 2), kit, put) is None
    assert native.gather_offers((1,), variant, _MELD_OFFERS, lambda meld, variant: ((), 2, ()), None, put) is None
    with pytest.raises(ZeroDivisionError):
        native.gather_offers((1,), variant, _MELD_OFFERS, lambda meld, variant: 1 / 0, kit, put)
    with pytest.raises(TypeError):
        native.gather_offers((), variant, [], _meld_offers, kit, put)
    with pytest.raises(TypeError):
        native.gather_offers((), variant, _MELD_OFFERS, _meld_offers)
    run = TableMeld(7, "run", 0, (3, 4, 5, JOKER), suit=0, low=4, wilds=1)
    assert native.meld_offers(run, kit) == _work_out_meld_offers(run, variant)
    assert native.meld_offers(run, kit[:-1]) is None  # a malformed kit
    assert native.meld_offers(run, (kit[0], 3, *kit[2:])) is None  # an unknown swap code
    assert native.meld_offers(object(), kit) is None  # not a meld
    past_the_ace = TableMeld(7, "run", 0, (3, 4, 5, JOKER), suit=0, low=12, wilds=1)
    assert native.meld_offers(past_the_ace, kit) is None
    assert native.meld_offers(TableMeld(7, "trio", 0, (3, 16, 29), rank=4), kit) is None  # an unknown kind
    with pytest.raises(TypeError):
        native.meld_offers(run)
    rules = compiled_meld_rules(variant)
    assert native.layoffs(0, 0, 1, 3, 4, 0, rules) is not None
    assert native.layoffs(4, 0, 1, 3, 4, 0, rules) is None  # an unknown kind
    assert native.layoffs(0, 0, 4, 3, 4, 0, rules) is None  # a run of no suit
    assert native.layoffs(1, 14, -1, 0, 4, 0, rules) is None  # no rank
    assert native.layoffs(0, 0, 1, 3, 0, 0, rules) is None  # no cards
    assert native.layoffs(0, 0, 1, 3, 4, 0, rules[:-1]) is None
    assert native.layoffs(0, 0, 1, "3", 4, 0, rules) is None
    with pytest.raises(TypeError):
        native.layoffs(0, 0, 1, 3, 4, 0)
    assert native.going_out([1, 2], [], rules) is False
    assert native.going_out([1, 53], [], rules) is None  # not a card
    assert native.going_out([1, 2], [object()], rules) is None  # not a meld
    assert native.going_out([1, 2], (), rules) is None  # not a list
    assert native.going_out([1] * 65, [], rules) is None  # too many cards
    assert native.going_out([1, 2], [], rules[:-1]) is None
    with pytest.raises(TypeError):
        native.going_out([1, 2], [])
    part_rules = _part_rules(variant)
    assert native.rearrangement_parts(table, variant, part_rules, _PER_MELD, _PART, _rearrangement_part_of) is None
    assert native.rearrangement_parts((), variant, part_rules[:-1], _PER_MELD, _PART, _rearrangement_part_of) is None
    # a meld the C does not read (here not a meld at all) goes to work_out
    assert native.rearrangement_parts((1, 2), variant, part_rules, _PER_MELD, _PART,
                                      lambda meld, variant: meld * 2) == [2, 4]
    with pytest.raises(ZeroDivisionError):
        native.rearrangement_parts((1,), variant, part_rules, _PER_MELD, _PART, lambda meld, variant: 1 / 0)
    with pytest.raises(TypeError):
        native.rearrangement_parts((), variant, part_rules, [], _PART, _rearrangement_part_of)
    for _turn in random_play(game, random.Random(3), policy="steered", decisions=600):
        parts = TableOffers(tuple(game.table), variant).native_rearrangements()[3]
        if any(spares for spares, _ in parts):
            break
    offers = TableOffers(tuple(game.table), variant)
    assert native.spare_action(offers, 0, (0,), "run", (4, 5, 6), _SPARE_KIT) is None  # its packed table not made yet
    offers.native_rearrangements()
    assert native.spare_action(offers, 0, (0,), "run", (4, 5, 6), _SPARE_KIT) == offers._written_out(
        0, (0,), "run", (4, 5, 6))
    assert native.spare_action(offers, 0, [0], "run", (4, 5, 6), _SPARE_KIT) is None  # not a tuple of indices
    assert native.spare_action(offers, 0, (-1,), "run", (4, 5, 6), _SPARE_KIT) is None
    assert native.spare_action(offers, 0, ("0",), "run", (4, 5, 6), _SPARE_KIT) is None
    assert native.spare_action(offers, 0, (0,), "run", (4, 5, 6), _SPARE_KIT[:-1]) is None
    assert native.spare_action(object(), 0, (0,), "run", (4, 5, 6), _SPARE_KIT) is None  # not offers
    with pytest.raises(TypeError):
        native.spare_action(offers, 0, (0,), "run", (4, 5, 6))
