"""The compiled core (``rummy.engine._native``) answers exactly as the Python engine does (docs/engine.md,
"Backends").

* Its queries, "can this hand lay the contract down?" and "what is its best lay-down?" (the same melds, cards
  and order), against the Python search on random hands, contracts and house-rule mixes (hypothesis), dense
  hands, the hands of random games, and the recorded real hands of ``tests/solver_real_hands.json.gz``.
* The spare-card rearrangements on offer (``SpareBuilds.each``, compiled in ``spare_builds.c``): the same builds,
  in the same order, on the tables and hands of random games under house-rule mixes (hypothesis).
* Random games of every built-in variant (and of house-rule mixes) played once per backend from the same
  seed: the legal list (entries and order) must be the same at every decision.
* The dispatch: which option mixes go to the Python search, explicitly; the ``RUMMY_ENGINE`` switch.

Skipped, with the reason, where the compiled core is not built.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch  # the switch, whose NATIVE the tests set
from rummy.engine import DealError, Phase, VariantError, backend, can_lay_down, clear_memos, moves, new_game
from rummy.engine.action_space import ActionSpace
from rummy.engine.actions import Action, Verb
from rummy.engine.candidates import Deferred
from rummy.engine.cards import JOKER, make_card, parse_card, to_counts
from rummy.engine.deadlock import SpareBuilds
from rummy.engine.game import Game
from rummy.engine.house_rules import apply_options, get_variant
from rummy.engine.moves import _KIT, _native_rearrangements, _rearrangements
from rummy.engine.rules import APPLY_KIT, SIMPLE_KIT
from rummy.engine.rules.draw import DRAW_VERBS
from rummy.engine.solver import PlannedMeld, find_lay_down
from rummy.engine.solver.native import best_lay_down, covers, lay_down_exists
from rummy.engine.state import _FIELD_KINDS, _FIELDS, GameState
from rummy.engine.table_offers import table_offers
from rummy.engine.variants import GROUP, RUN, Slot, Variant
from rummy.search.determinize import redact
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_check_apply import random_actions
from tests.variants import BUILT_IN, CONTRACT_VARIANTS

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built "
                                "(no C compiler at install time); the Python backend runs alone")

REAL_HANDS = Path(__file__).with_name("solver_real_hands.json.gz")

# House rules that reach the contract solver, and the values tried.
SOLVER_OPTIONS: dict[str, list[Any]] = {
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "run_min": [3, 4, 5],
    "group_min": [2, 3, 4],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "all_wild_melds": [True, False],
    "wild_group_min": [None, 3],
    "wild_group_counts_as_set": [True, False],
    "pair_wilds": [True, False],
    "allow_same_rank_groups": [True, False],
    "allow_adjacent_runs": [True, False],
    "contract_exact_sizes": [False, False, True],
    "twos_natural_in_place": [False, False, True],  # (not compiled)
}


@contextmanager
def running(name: str) -> Iterator[None]:
    """The engine on backend ``name`` ("python" or "native") inside the block."""
    before = switch.NATIVE
    switch.NATIVE = switch.select(name)
    try:
        yield
    finally:
        switch.NATIVE = before


def both_answers(hand: list[int], contract: tuple[Slot, ...], variant: Variant, final_discard_allowed: bool,
                 must_use_all: bool) -> tuple[bool, bool]:
    """``can_lay_down`` on each backend: (python, native)."""
    kw = {"final_discard_allowed": final_discard_allowed, "must_use_all": must_use_all}
    with running("python"):
        python = can_lay_down(hand, contract, variant, **kw)
    with running("native"):
        native = can_lay_down(hand, contract, variant, **kw)
    return python, native


def both_best(hand: list[int], contract: tuple[Slot, ...], variant: Variant, final_discard_allowed: bool = True,
              must_use_all: bool = False) -> tuple[list[str] | None, list[str] | None]:
    """``find_lay_down`` on each backend, its melds as notation: (python, native)."""
    kw = {"final_discard_allowed": final_discard_allowed, "must_use_all": must_use_all}
    answers: list[list[str] | None] = []
    for name in ("python", "native"):
        with running(name):
            found = find_lay_down(hand, contract, variant, **kw)
        answers.append(None if found is None else [str(meld) for meld in found])
    return answers[0], answers[1]


def compiled_best(hand: list[int], contract: tuple[Slot, ...], variant: Variant, final_discard_allowed: bool = True,
                  must_use_all: bool = False) -> bool:
    """Whether the compiled core answers ``find_lay_down`` for this hand under these flags."""
    with running("native"):
        return best_lay_down(hand, contract, variant, final_discard_allowed, must_use_all) is not None


@st.composite
def house_rules(draw: st.DrawFn) -> Variant:
    base = draw(st.sampled_from(CONTRACT_VARIANTS))
    keys = draw(st.lists(st.sampled_from(sorted(SOLVER_OPTIONS)), max_size=6, unique=True))
    options = {key: draw(st.sampled_from(SOLVER_OPTIONS[key])) for key in keys}
    try:
        return get_variant(base, options)
    except VariantError:
        assume(False)
        raise


@st.composite
def hands(draw: st.DrawFn, max_cards: int = 16) -> list[int]:
    """A hand from a small universe (two or three suits, a window of ranks, wilds), so melds are likely."""
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 13))
    ranks = [(low + k - 1) % 13 + 1 for k in range(draw(st.integers(2, 7)))]
    universe = [make_card(r, s) for r in ranks for s in suits] + [JOKER, make_card(2, suits[0])]
    cards = draw(st.lists(st.sampled_from(universe), min_size=2, max_size=max_cards))
    hand = to_counts(cards)
    for card in range(53):
        hand[card] = min(hand[card], 6 if card == JOKER else 3)
    return hand


contracts = st.lists(st.tuples(st.sampled_from([GROUP, RUN]), st.integers(2, 5)), min_size=1, max_size=3).map(
    lambda slots: tuple(Slot(kind, size) for kind, size in slots))


@settings(max_examples=examples(1500), suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), hands(), contracts, st.booleans(), st.booleans())
def test_same_answer_on_random_hands(variant: Variant, hand: list[int], contract: tuple[Slot, ...],
                                     final_discard_allowed: bool, must_use_all: bool) -> None:
    python, native = both_answers(hand, contract, variant, final_discard_allowed, must_use_all)
    assert python == native, (variant.options, contract, hand, final_discard_allowed, must_use_all)


runs_only = st.tuples(st.integers(2, 5), st.integers(2, 5)).map(lambda shape: (Slot(RUN, shape[1]),) * shape[0])


@settings(max_examples=examples(1500), suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), hands(max_cards=24), runs_only)
def test_same_answer_on_contracts_of_runs_only(variant: Variant, hand: list[int], contract: tuple[Slot, ...]) -> None:
    """Two to five runs of one size and nothing else: the compiled search remembers the suits it has exhausted
    (lay_down.c, fill_runs_from), never puts a wild where it holds the natural where any mix of wilds makes a run,
    and gives a run longer than its slot naturals at both ends (fill_longer_run)."""
    python, native = both_answers(hand, contract, variant, True, False)
    assert python == native, (variant.options, contract, hand)


@settings(max_examples=examples(600), suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), hands(), contracts, st.booleans(), st.booleans())
def test_same_best_lay_down_on_random_hands(variant: Variant, hand: list[int], contract: tuple[Slot, ...],
                                            final_discard_allowed: bool, must_use_all: bool) -> None:
    """The best lay-down (melds, their cards and order), under each pair of flags."""
    python, native = both_best(hand, contract, variant, final_discard_allowed, must_use_all)
    assert python == native, (variant.options, contract, hand, final_discard_allowed, must_use_all)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), st.data())
def test_same_best_lay_down_without_a_final_discard(variant: Variant, data: st.DataObject) -> None:
    """Hands holding a lay-down of one of the variant's own contracts and one to three cards more, so the best
    lay-down often leaves exactly one card: with no final discard the second pass (``contract._solve_not_one``:
    the search refusing one card left, then the pairs left out) decides; and with every card to be used."""
    contract = variant.round_rules(data.draw(st.sampled_from(range(1, len(variant.rounds) + 1))), 4).contract
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    deck = [card for card in range(53) for _ in range(2)]
    with running("native"):  # (only to make the hand)
        found = find_lay_down(to_counts(rng.sample(deck, rng.randint(14, 34))), contract, variant)
    assume(found is not None)
    assert found is not None
    hand = to_counts([card for meld in found for card in meld.cards] + rng.sample(deck, rng.randint(1, 3)))
    hand = [min(held, 2) for held in hand]
    for final_discard_allowed, must_use_all in ((False, False), (True, True)):
        python, native = both_best(hand, contract, variant, final_discard_allowed, must_use_all)
        assert python == native, (variant.options, contract, hand, final_discard_allowed, must_use_all)


@settings(max_examples=examples(600), suppress_health_check=[HealthCheck.filter_too_much])
@given(house_rules(), st.data())
def test_same_answer_on_the_variants_own_contracts(variant: Variant, data: st.DataObject) -> None:
    """Dense hands of 10 to 30 cards against the contracts of the variant's own rounds."""
    numbers = range(1, len(variant.rounds) + 1)
    contract = variant.round_rules(data.draw(st.sampled_from(numbers)), 4).contract
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    deck = [card for card in range(53) for _ in range(2)]
    hand = to_counts(rng.sample(deck, rng.randint(10, 30)))
    python, native = both_answers(hand, contract, variant, True, False)
    assert python == native, (variant.options, contract, hand)
    if python and data.draw(st.booleans()):  # (the best lay-down on half of the hands that have one)
        best_python, best_native = both_best(hand, contract, variant)
        assert best_python == best_native, (variant.options, contract, hand)


def test_same_answer_on_real_hands() -> None:
    """Every recorded real hand (tests/solver_real_hands.json.gz) under each pair of flags."""
    with gzip.open(REAL_HANDS, "rt", encoding="utf-8") as file:
        cases: list[dict[str, Any]] = json.load(file)
    variants: dict[str, Variant] = {}
    compiled = compiled_bests = 0
    for case in cases[::count(1)]:
        key = json.dumps([case["variant"], case["options"]], sort_keys=True)
        variant = variants.setdefault(key, get_variant(case["variant"], case["options"]))
        contract = tuple(Slot(kind, size) for kind, size in case["contract"])
        hand = to_counts(parse_card(t) for t in case["hand"].split())
        for final_discard_allowed, must_use_all, want in case["answers"]:
            python, native = both_answers(hand, contract, variant, final_discard_allowed, must_use_all)
            assert python == native == (want is not None), (key, case["contract"], case["hand"])
            compiled += covers(variant, final_discard_allowed, must_use_all)
            if compiled_best(hand, contract, variant, final_discard_allowed, must_use_all):
                with running("native"):  # (the recorded answer is the Python search's: tests/test_solver.py)
                    found = find_lay_down(hand, contract, variant, final_discard_allowed=final_discard_allowed,
                                          must_use_all=must_use_all)
                assert want == (None if found is None else [str(meld) for meld in found]), (key, case["hand"])
                compiled_bests += 1
    assert compiled > 1000
    assert compiled_bests > 1500


@pytest.mark.parametrize("variant", CONTRACT_VARIANTS)
def test_same_answer_on_the_hands_of_random_games(variant: str) -> None:
    """Every hand of a player not yet down, at every decision of random games (uniform: hands grow large)."""
    asked = 0
    for seed in range(count(4)):
        game = new_game(variant, 4, seed=seed)
        policy = "uniform" if seed % 2 else "steered"
        for _turn in random_play(game, random.Random(seed), policy=policy, decisions=400):
            for seat in range(game.n):
                if game.down[seat]:
                    continue
                hand = list(game.hands[seat])
                python, native = both_answers(hand, game.rules.contract, game.variant, True, False)
                assert python == native, (variant, seed, game.rules.contract, hand)
                if python and asked % 3 == 0:  # (the best lay-down, on a third of the hands that have one)
                    best_python, best_native = both_best(hand, game.rules.contract, game.variant)
                    assert best_python == best_native, (variant, seed, game.rules.contract, hand)
                asked += 1
    assert asked > count(4) * 100


# Games whose lay-downs forbid a final discard or must use every card: progressive-buy-it's last round as dealt
# (steered play reaches it), and as "must go out on laying down", and every round without a final discard.
NO_FINAL_DISCARD_GAMES = [
    ("progressive-buy-it", {}, "steered", None),
    ("progressive-buy-it", {"round8_mode": "must_go_out_on_laydown"}, "steered", None),
    ("progressive-buy-it", {"final_discard_allowed": False}, "uniform", 600),
    ("may-i", {"going_out_mode": "meld_only"}, "uniform", 600),
]


@pytest.mark.parametrize(("variant", "options", "policy", "decisions"), NO_FINAL_DISCARD_GAMES)
def test_same_best_lay_down_in_games_without_a_final_discard(variant: str, options: dict[str, Any], policy: str,
                                                             decisions: int | None) -> None:
    """The best lay-down under the round's own flags, on the hand of every player not yet down at every decision
    of a round that allows no final discard or must use every card."""
    rules = get_variant(variant, options)
    asked = 0
    for seed in range(count(2)):
        game = new_game(rules, 4, seed=seed)
        for _turn in random_play(game, random.Random(seed), policy=policy, decisions=decisions):
            now = game.rules
            if now.final_discard_allowed and not now.must_go_out_on_laydown:
                continue
            for seat in range(game.n):
                if not game.down[seat]:
                    hand = list(game.hands[seat])
                    python, native = both_best(hand, now.contract, rules, now.final_discard_allowed,
                                               now.must_go_out_on_laydown)
                    assert python == native, (variant, options, seed, now.contract, hand)
                    asked += 1
    assert asked > count(2) * 200


def test_uncovered_mixes_go_to_python() -> None:
    """The dispatch: the compiled core answers the covered mixes, and None sends the others to Python."""
    may_i = get_variant("may-i")
    contract = may_i.round_rules(1, 4).contract
    hand = to_counts(parse_card(t) for t in "9C 9D 9S 5H 5S JK 2C KD".split())
    with running("native"):
        assert lay_down_exists(hand, contract, may_i, True, False) is True
        assert lay_down_exists(hand, contract, may_i, False, False) is None
        assert lay_down_exists(hand, contract, may_i, True, True) is None
        assert lay_down_exists(hand, contract, apply_options(may_i, {"twos_natural_in_place": True}), True,
                               False) is None
        assert lay_down_exists(hand[:52], contract, may_i, True, False) is None  # malformed: Python raises
        assert lay_down_exists([-1] + hand[1:], contract, may_i, True, False) is None
    with running("python"):
        assert lay_down_exists(hand, contract, may_i, True, False) is None


def test_uncovered_best_lay_downs_go_to_python() -> None:
    """The dispatch of the best lay-down: the compiled core answers under every pair of flags (a final discard
    allowed or not, every card to be used or not), except under ``twos_natural_in_place``, exact contract sizes,
    and where the Python search fills the groups by its explicit search (``ContractPlan.label_ok``); None sends
    those to Python, which answers."""
    buy_it = get_variant("progressive-buy-it")
    contract = buy_it.round_rules(1, 4).contract  # two sets of three
    hand = to_counts(parse_card(t) for t in "9C 9D 9S 5H 5S JK 2C KD".split())
    nothing = to_counts(parse_card(t) for t in "9C 4D 7S 5H QS 3C 2C KD".split())

    def compiled(hand: list[int], contract: tuple[Slot, ...], variant: Variant, final_discard_allowed: bool = True,
                 must_use_all: bool = False) -> tuple[tuple[PlannedMeld, ...] | None] | None:
        with running("native"):
            return best_lay_down(hand, contract, variant, final_discard_allowed, must_use_all)

    answer = compiled(hand, contract, buy_it)
    assert answer is not None and [str(meld) for meld in answer[0] or ()] == ["set:9C-9D-9S", "set:5H-5S-JK"]
    assert compiled(nothing, contract, buy_it) == (None,)
    for flags in ({"final_discard_allowed": False}, {"must_use_all": True}, {"final_discard_allowed": False,
                                                                            "must_use_all": True}):
        answer = compiled(hand, contract, buy_it, **flags)
        with running("python"):
            found = find_lay_down(hand, contract, buy_it, **flags)
        assert answer is not None and answer[0] == found, flags
    for options in ({"twos_natural_in_place": True}, {"contract_exact_sizes": True}):
        assert compiled(hand, contract, apply_options(buy_it, options)) is None, options
        assert compiled(hand, contract, apply_options(buy_it, options), final_discard_allowed=False) is None, options
        assert compiled(hand, contract, apply_options(buy_it, options), must_use_all=True) is None, options
    for options in ({"wild_policy": "not_outnumber"}, {"wild_policy": "at_most_one"}, {"all_wild_melds": False}):
        assert compiled(hand, contract, apply_options(buy_it, options)) is not None, options
    may_i = get_variant("may-i")
    assert compiled(hand, may_i.round_rules(1, 4).contract, may_i) is not None
    pairs = (Slot(GROUP, 2), Slot(GROUP, 3))  # a pair slot refusing wilds, beside a set: the explicit group search
    assert compiled(hand, pairs, apply_options(may_i, {"pair_wilds": False})) is None
    assert compiled(hand, pairs, apply_options(buy_it, {"pair_wilds": False})) is not None
    runs = (Slot(RUN, 4), Slot(RUN, 4))  # runs only, from 26 cards: two runs of 13 (clubs, diamonds A-K)
    answer = compiled([1 if card < 26 else 0 for card in range(53)], runs, buy_it)
    assert answer is not None and [len(meld.cards) for meld in answer[0] or ()] == [13, 13]
    assert compiled(hand[:52], contract, buy_it) is None  # malformed: Python raises
    with running("python"):
        assert best_lay_down(hand, contract, buy_it, True, False) is None


# House rules that reach the spare-card rearrangements (deadlock.SpareBuilds), and the values tried.
BUILD_OPTIONS: dict[str, list[Any]] = {
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "run_min": [3, 4, 5],
    "group_min": [2, 3, 4],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "twos_natural_in_place": [False, True],
}


def _builds(table: list[Any], variant: Variant, hand: list[int], name: str) -> list[tuple[Any, ...]]:
    """The spare-card rearrangements on offer to ``hand`` on backend ``name``, as (sources, cards from the hand,
    valid, melds), asked twice of one table (the second answer from its memo)."""
    with running(name):
        builds = SpareBuilds(table, variant, lambda *made: made)  # (make: what it is given)
        held = [card for card in range(53) if hand[card]]
        first = [(tuple(spare[0].id for spare in used), *rest) for used, *rest in builds.each(hand, held)]
        assert [(tuple(spare[0].id for spare in used), *rest) for used, *rest in builds.each(hand, held)] == first
        offered = table_offers(table, variant)  # (the listing's: each judged valid)
        judged = [(build.sources, build.from_hand, build.valid, build.melds())
                  for build in offered.spare_builds(hand, held)]
        return [*first, *judged]


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(sorted(BUILD_OPTIONS)), max_size=4, unique=True), st.data())
def test_same_spare_builds_in_random_games(keys: list[str], data: st.DataObject) -> None:
    """The compiled spare-card rearrangements (``spare_builds.c``) against ``SpareBuilds.each``'s Python search:
    the same builds in the same order, with the same cards, for every hand at every decision of a short uniform
    game of ``progressive-buy-it`` under a random house-rule mix (hands grow large: many builds)."""
    options = {key: data.draw(st.sampled_from(BUILD_OPTIONS[key])) for key in keys}
    try:
        variant = get_variant("progressive-buy-it", options)
    except VariantError:
        assume(False)
        raise
    seed = data.draw(st.integers(0, 10**6))
    game = new_game(variant, 4, seed=seed)
    for _turn in random_play(game, random.Random(seed), policy="uniform", decisions=150):
        table = list(game.table)
        for seat in range(game.n):
            hand = list(game.hands[seat])
            assert _builds(table, variant, hand, "python") == _builds(table, variant, hand, "native"), (
                options, seed, [str(meld) for meld in table], hand)


def test_uncovered_spare_builds_go_to_python() -> None:
    """The dispatch of the spare-card rearrangements: the compiled core answers a well-formed question, and None
    (malformed arguments, a minimum out of range) sends it to the Python search, which answers."""
    native = switch.BUILT
    assert native is not None
    hand = [1] * 52 + [0]
    held = list(range(52))
    spares = bytes([0, 0, 0, 1, 1, 0])  # the ace and two of clubs, each spare from its own meld
    rules = bytes([0] * 52 + [1] + [1, 14, 0, 0, 0, 0])  # the joker wild (meld_rules.compiled_meld_rules)
    assert isinstance(native.spare_builds(hand, held, spares, rules, 3, 3), list)
    for malformed in ((hand[:52], held), ([300] + hand[1:], held), (hand, [53]), (hand, iter(held))):
        assert native.spare_builds(*malformed, spares, rules, 3, 3) is None
    assert native.spare_builds(hand, held, spares, rules, 0, 3) is None
    assert native.spare_builds(hand, held, spares, rules, 3, 1001) is None
    assert native.spare_builds(hand, held, spares[:4], rules, 3, 3) is None
    assert native.spare_builds(hand, held, spares, rules[:-1], 3, 3) is None
    assert native.spare_builds(hand, held, spares, rules[:-6] + bytes([0, 14, 0, 0, 0, 0]), 3, 3) is None  # no value 0
    assert native.spare_builds(hand, held, spares, rules[:-6] + bytes([1, 14, 3, 0, 0, 0]), 3, 3) is None  # policy 3
    game = new_game("progressive-buy-it", 4, seed=3)
    for _turn in random_play(game, random.Random(3), policy="uniform", decisions=400):
        if len(game.table) > 2:
            break
    table, variant, hand = list(game.table), game.variant, list(game.hands[0])
    held = [card for card in range(53) if hand[card]]

    def listed(name: str, held: Iterable[int]) -> list[tuple[Any, ...]]:
        with running(name):
            return list(SpareBuilds(table, variant, lambda *made: made).each(hand, held))  # type: ignore[arg-type]

    want = listed("python", held)
    assert want, "a table with spare-card builds"
    assert listed("native", iter(held)) == want  # held not a list or tuple: the Python search answers
    assert listed("native", held) == want


# House rules that reach the listing of rearrangements (moves._rearrangements) beside BUILD_OPTIONS, and the values
# tried: who may rearrange (not yet down: every row judged in full), owing a stolen wild (the takers), the timings.
REARRANGE_OPTIONS: dict[str, list[Any]] = {
    **BUILD_OPTIONS,
    "layoff_requires_down": [True, False],
    "stolen_joker_must_be_played": [True, False],
    "layoff_timing": ["same_turn", "next_turn"],
    "joker_swap_timing": ["same_turn", "next_turn"],
}


def _rearrangement_rows(game: Any, name: str) -> tuple[list[tuple[bool, str]], int | None]:
    """The rearrangements the listing offers the active player on backend ``name``, each as (deferred, notation),
    and the count of deferred ones the native listing returns (None from the Python listing)."""
    offers = table_offers(list(game.table), game.variant)
    seat = game.active
    with running(name):
        native = switch.NATIVE
        if native is None:
            held = [card for card in range(53) if game.hands[seat][card]]
            rows = list(_rearrangements(game, offers, held))
            deferred = None
        else:
            rows = []
            deferred = _native_rearrangements(native, game, offers, rows)
            assert deferred is not None
        notation = [(type(row) is Deferred, str(row.work_out() if isinstance(row, Deferred) else row)) for row in rows]
        return notation, deferred


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(sorted(REARRANGE_OPTIONS)), max_size=5, unique=True), st.data())
def test_same_rearrangements_in_random_games(keys: list[str], data: st.DataObject) -> None:
    """The compiled listing of rearrangements (``rearrangements.c``) against ``moves._rearrangements``: the same rows
    (run splits and spare-card builds, deferred or judged in full), in the same order, for the active player at
    every play decision of a short random game of ``progressive-buy-it`` or ``may-i`` under a random house-rule
    mix (rearranging), whoever may play to the table."""
    base = data.draw(st.sampled_from(["progressive-buy-it", "may-i"]))
    options = {key: data.draw(st.sampled_from(REARRANGE_OPTIONS[key])) for key in keys}
    options["rearrange_mode"] = data.draw(st.sampled_from(["seed000", "unrestricted"]))
    try:
        variant = get_variant(base, options)
    except VariantError:
        assume(False)
        raise
    seed = data.draw(st.integers(0, 10**6))
    game = new_game(variant, 4, seed=seed)
    policy = data.draw(st.sampled_from(["uniform", "steered"]))
    for _turn in random_play(game, random.Random(seed), policy=policy, decisions=400):
        if game.phase is not Phase.PLAY or not game.table:
            continue
        python, _ = _rearrangement_rows(game, "python")
        native, deferred = _rearrangement_rows(game, "native")
        assert python == native, (options, seed, [str(meld) for meld in game.table], list(game.hands[game.active]))
        assert deferred == sum(1 for is_deferred, _ in native if is_deferred)


def test_uncovered_rearrangements_go_to_python() -> None:
    """The dispatch of the compiled listing of rearrangements: None, the moves untouched, for a malformed table or a
    minimum out of range (the Python listing answers then); a wrong call is a TypeError."""
    native = switch.BUILT
    assert native is not None
    game = new_game(get_variant("progressive-buy-it"), 4, seed=3)
    for _turn in random_play(game, random.Random(3), policy="uniform", decisions=2000):
        if game.phase is Phase.PLAY and game.down[game.active] and len(game.table) > 3:
            break
    seat, hand = game.active, list(game.hands[game.active])
    offers = table_offers(list(game.table), game.variant)
    rules, run_min, group_min, parts = offers.native_rearrangements()

    def listed(table: tuple[Any, ...], hand: Any = hand, takers: Any = None) -> tuple[int | None, list[Any]]:
        moves: list[Any] = ["kept"]
        return native.rearrangements(moves, hand, seat, sum(hand), True, takers, game, table, offers, _KIT), moves

    assert listed((rules, run_min, group_min, parts))[0] is not None
    for malformed in ((rules[:-1], run_min, group_min, parts),
                      (rules, 0, group_min, parts), (rules, run_min, 1001, parts),
                      (rules, run_min, group_min, [*parts, (b"\x00", ())]),
                      (rules, run_min, group_min, [*parts, (b"\x35\x01", ())]),
                      (rules, run_min, group_min, [*parts, (b"", ((53, 1, None),))]),
                      (rules, run_min, group_min, tuple(parts))):
        assert listed(malformed) == (None, ["kept"])
    table = (rules, run_min, group_min, parts)
    assert listed(table, hand=hand[:52]) == (None, ["kept"])
    assert listed(table, takers=(len(parts),)) == (None, ["kept"])
    assert listed(table, takers=[0]) == (None, ["kept"])
    with pytest.raises(TypeError):
        native.rearrangements([], hand, seat, 9, True, None, game, table[:3], offers, _KIT)


def test_uncovered_held_actions_go_to_python() -> None:
    """The dispatch of the compiled pass over a table's lay-off and swap offers (``table_plays.c``): the simple
    actions of the offers whose card the hand holds, in order, from the memo; None, ``out`` untouched, for a
    malformed hand or offer (the Python pass answers then)."""
    native = switch.BUILT
    assert native is not None
    hand = [0] * 53
    hand[5] = hand[52] = 1
    layoffs = [(5, 1, None), (6, 1, "low"), (52, 2, "high"), (52, 1, "low")]
    out: list[Any] = []
    assert native.held_actions(out, hand, 2, layoffs, Verb.LAYOFF, moves._SIMPLE, moves.simple_action) is True
    assert [str(action) for action in out] == ["p2 layoff 1 6C", "p2 layoff 2 JK high", "p2 layoff 1 JK low"]
    assert out[0] is moves.simple_action(2, Verb.LAYOFF, 5, 1, None)  # (the memo's)
    swaps = [(Verb.SWAP, 52, 3, None), (Verb.MOVE, 5, 3, "low")]
    out = []
    assert native.held_actions(out, hand, 1, swaps, None, moves._SIMPLE, moves.simple_action) is True
    assert out == [moves.simple_action(1, Verb.SWAP, 52, 3, None), moves.simple_action(1, Verb.MOVE, 5, 3, "low")]
    for bad_hand, offers, verb in ((hand[:52], layoffs, Verb.LAYOFF), (hand, [(53, 1, None)], Verb.LAYOFF),
                                   (hand, [(5, 1)], Verb.LAYOFF), (hand, swaps, Verb.LAYOFF),
                                   (hand, layoffs, None), (hand, tuple(layoffs), Verb.LAYOFF)):
        out = ["kept"]
        assert native.held_actions(out, bad_hand, 0, offers, verb, moves._SIMPLE, moves.simple_action) is None
        assert out == ["kept"]


def _legal_lists(variant: str | Variant, players: int, seed: int, policy: str, decisions: int,
                 name: str) -> Iterator[tuple[str, ...]]:
    """The legal list (as notation) at each decision of a seeded random game on backend ``name``."""
    with running(name):
        clear_memos()
        game = new_game(variant, players, seed=seed)
        for turn in random_play(game, random.Random(seed), policy=policy, decisions=decisions):
            yield tuple(str(action) for action in turn.moves)


def assert_same_games(variant: str | Variant, players: int, seed: int, policy: str, decisions: int) -> None:
    """The game played on both backends from one seed has the same legal list at every decision (so the same
    choices, the same game); a divergence names the decision and the difference."""
    python = list(_legal_lists(variant, players, seed, policy, decisions, "python"))
    native = list(_legal_lists(variant, players, seed, policy, decisions, "native"))
    for number, (want, got) in enumerate(zip(python, native, strict=False)):
        assert want == got, (f"decision {number} of seed {seed} ({policy}): python lists "
                             f"{sorted(set(want) - set(got))} the native backend does not, native "
                             f"{sorted(set(got) - set(want))}")
    assert len(python) == len(native)


@pytest.mark.parametrize("variant", BUILT_IN)
@pytest.mark.parametrize("policy", ["uniform", "steered"])
def test_games_list_the_same_moves(variant: str, policy: str) -> None:
    for seed in range(count(10)):
        assert_same_games(variant, 4, seed, policy, 300)


GAME_MIXES = [
    ("may-i", {"wild_policy": "none", "all_wild_melds": True}),
    ("may-i", {"allow_adjacent_runs": False, "pair_wilds": False}),
    ("progressive-buy-it", {"wild_policy": "at_most_one", "allow_same_rank_groups": False}),
    ("progressive-15", {"wild_policy": "not_outnumber", "ace_mode": "low_only"}),
    ("progressive-15", {"twos_natural_in_place": True}),  # (the Python side of the dispatch)
    ("progressive-buy-it", {"contract_exact_sizes": True}),
    ("may-i", {"rearrange_mode": "seed000"}),  # spare-card rearrangements under not_outnumber, wild twos
    ("progressive-15", {"rearrange_mode": "unrestricted", "twos_natural_in_place": True, "ace_mode": "high_only"}),
    # rearranging before going down (every row judged in full), owing a stolen wild (the takers)
    ("progressive-buy-it", {"layoff_requires_down": False, "stolen_joker_must_be_played": True}),
    # owing a stolen wild with swaps on the lay-down turn (a swap only where the wild can be played back that turn)
    ("progressive-buy-it", {"stolen_joker_must_be_played": True, "joker_swap_timing": "same_turn"}),
    ("progressive-buy-it", {"final_discard_allowed": False}),  # every lay-down by the "no final discard" passes
]


@pytest.mark.parametrize(("variant", "options"), GAME_MIXES)
def test_house_rule_games_list_the_same_moves(variant: str, options: dict[str, Any]) -> None:
    for seed in range(count(6)):
        assert_same_games(get_variant(variant, options), 4, seed, "uniform" if seed % 2 else "steered", 300)


@pytest.mark.slow
@pytest.mark.parametrize("variant", BUILT_IN)
def test_many_games_list_the_same_moves(variant: str) -> None:
    for seed in range(100, 100 + count(100)):
        assert_same_games(variant, 4, seed, "uniform" if seed % 2 else "steered", 800)


def assert_same_copy(state: GameState) -> None:
    """The compiled copy of ``state``'s fields (``state_copy.c``) is the Python one (``GameState._copy_fields``):
    every field equal, shared with ``state`` or a new list alike, and the lists of count vectors copied alike."""
    assert switch.BUILT is not None
    native, python = switch.BUILT.copy_fields(state, _FIELDS, _FIELD_KINDS), state._copy_fields()
    assert type(native) is type(python) is type(state)
    for name in GameState.__dataclass_fields__:
        mine, theirs, original = getattr(native, name), getattr(python, name), getattr(state, name)
        assert mine == theirs and (mine is original) == (theirs is original), name
        if isinstance(original, list):
            assert [item is old for item, old in zip(mine, original, strict=True)] == [
                item is old for item, old in zip(theirs, original, strict=True)], name


@pytest.mark.parametrize("variant", BUILT_IN)
def test_copies_are_the_same(variant: str) -> None:
    """At every decision of random games, and on a copy redacted for the seat to act (the fields only such a copy
    holds)."""
    for seed in range(count(3)):
        game = new_game(variant, 4, seed=seed)
        for number, turn in enumerate(random_play(game, random.Random(seed), decisions=150)):
            assert_same_copy(game)
            if number % 25 == 0:
                assert_same_copy(redact(game, turn.seat))
        with running("native"):
            assert game.copy().rng.getstate() == game.rng.getstate()


def test_uncovered_copies_go_to_python() -> None:
    """``copy_fields`` answers None, and the Python copy runs, for arguments it does not fit."""
    assert switch.BUILT is not None
    game = new_game("basic", 2, seed=1)
    copy_fields = switch.BUILT.copy_fields
    assert copy_fields(game, _FIELDS[:-1], _FIELD_KINDS) is None  # kinds of another length
    assert copy_fields(game, _FIELDS, _FIELD_KINDS[:-1] + b"\x03") is None  # an unknown kind
    assert copy_fields(game, (*_FIELDS[:-1], "rng"), _FIELD_KINDS) is None  # not a slot
    assert copy_fields(object(), _FIELDS, _FIELD_KINDS) is None  # a slot of another type

    class Annotated(Game):  # a subclass with a __dict__, which the compiled copy would not read
        pass

    assert copy_fields(Annotated(game.variant, 2, seed=1), _FIELDS, _FIELD_KINDS) is None


# House rules that reach the compiled judgement of the simple actions (simple_check.c), and the values tried.
JUDGE_OPTIONS: dict[str, list[Any]] = {
    "claim_mode": ["pre_draw", "active_first_then_others", "after_decline", "none"],
    "after_claim_active_draw": ["stock_only", "stock_or_new_top"],
    "stock_refill": ["keep_top", "whole_pile_once", "none"],
    "may_discard_card_taken_from_discard": [True, False],
    "stolen_joker_must_be_played": [True, False],
    "final_discard_allowed": [True, False],
    "active_first_refusal": [True, False],
    "claim_limit": [None, 0, 1],
    "claim_limit_scope": ["table", "player"],
    "claim_penalty_cards": [0, 1, 2],
}


def assert_same_judgement(game: Game, actions: Iterable[Action]) -> None:
    """``simple_check`` (``simple_check.c``), where it answers, accepts exactly the actions the Python judgement
    accepts; in the draw phase ``draw_actions`` (``simple_steps.c``) lists the draw, take and own buy the Python
    judgement allows, in its order."""
    assert switch.BUILT is not None
    if game.phase is Phase.DRAW:
        own = tuple(Action(game.active, verb) for verb in DRAW_VERBS)
        with running("python"):
            allowed = [action for action in own if game.is_legal(action)]
        assert switch.BUILT.draw_actions(game, own, APPLY_KIT) == allowed, (game.seed, len(game.log))
    for action in actions:
        verdict = switch.BUILT.simple_check(game, action, SIMPLE_KIT)
        if verdict is not None:
            with running("python"):
                assert verdict == game.is_legal(action), (str(action), game.phase, game.active)


def _judged_actions(game: Game, space: ActionSpace, rng: random.Random) -> list[Action]:
    """The listed moves of every seat (a sample of a long list), random ids and random simple actions."""
    listed = [action for seat in range(game.n) for action in game.legal_actions(seat)]
    simple = [Action(rng.randrange(-1, game.n + 1), rng.choice(list(Verb)), card=rng.randrange(-1, 54))
              for _ in range(6)]
    return [*rng.sample(listed, min(12, len(listed))), *random_actions(game, space, rng, 4), *simple]


@pytest.mark.parametrize("variant", BUILT_IN)
@pytest.mark.parametrize("policy", ["uniform", "steered"])
def test_same_judgement_of_simple_actions_in_random_games(variant: str, policy: str) -> None:
    for seed in range(count(3)):
        game = new_game(variant, 4, seed=seed)
        rng, space = random.Random(seed), ActionSpace(game.variant, game.n)
        for _turn in random_play(game, random.Random(seed), policy=policy, decisions=200):
            assert_same_judgement(game, _judged_actions(game, space, rng))


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(BUILT_IN), st.lists(st.sampled_from(sorted(JUDGE_OPTIONS)), max_size=4, unique=True),
       st.data())
def test_same_judgement_of_simple_actions_under_house_rules(variant_id: str, keys: list[str],
                                                             data: st.DataObject) -> None:
    options = {key: data.draw(st.sampled_from(JUDGE_OPTIONS[key])) for key in keys}
    try:
        variant = get_variant(variant_id, options)
        game = new_game(variant, 4, seed=data.draw(st.integers(0, 10**6)))
    except (VariantError, DealError):
        assume(False)
        raise
    rng, space = random.Random(game.seed), ActionSpace(variant, game.n)
    for _turn in random_play(game, random.Random(game.seed), policy=data.draw(st.sampled_from(["uniform", "steered"])),
                             decisions=120):
        assert_same_judgement(game, _judged_actions(game, space, rng))


def test_uncovered_judgements_go_to_python() -> None:
    """``simple_check`` answers None, and the Python judgement runs, for what it does not cover."""
    assert switch.BUILT is not None
    game = new_game("progressive-buy-it", 4, seed=42)
    assert game.phase is Phase.CLAIM
    check = switch.BUILT.simple_check
    assert check(game, Action(game.active, Verb.DISCARD, card=JOKER), SIMPLE_KIT) is None  # closes the window
    assert check(game, Action(game.active, Verb.DRAW), SIMPLE_KIT[:-1]) is None  # a kit of another shape
    game.apply(Action(game.active, Verb.DRAW))  # the window closes, the active player draws
    seat = game.active
    assert check(game, Action(seat, Verb.DISCARD, card=53), SIMPLE_KIT) is None  # not a card
    assert check(game, Action(seat, Verb.LAYOFF, card=0, meld=1), SIMPLE_KIT) is None  # a table play
    assert check(game, Action(seat, Verb.DRAW), SIMPLE_KIT) is False  # already drew
    own = tuple(Action(seat, verb) for verb in DRAW_VERBS)
    assert switch.BUILT.draw_actions(game, own, APPLY_KIT) is None  # not the draw phase
    assert switch.BUILT.draw_actions(game, own[:2], APPLY_KIT) is None  # not the three actions


def test_the_switch() -> None:
    """``RUMMY_ENGINE`` chooses the backend, ``backend()`` says which, an unknown value is an error."""
    assert backend() in ("python", "native")
    with running("python"):
        assert backend() == "python"
    with running("native"):
        assert backend() == "native"

    def run(value: str) -> subprocess.CompletedProcess[str]:
        program = "from rummy.engine import backend; print(backend())"
        environment = {**os.environ, "RUMMY_ENGINE": value}
        return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                              check=False)

    assert run("python").stdout.strip() == "python"
    assert run("native").stdout.strip() == "native"
    assert run("").stdout.strip() == "native"
    wrong = run("fast")
    assert wrong.returncode != 0 and "RUMMY_ENGINE must be 'python' or 'native'" in wrong.stderr


SANITIZED_RUN = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("rummy.engine._native", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["rummy.engine._native"] = module  # the engine imports this build, not the installed one
import pytest
import rummy.engine.backends
assert rummy.engine.backends.BUILT is module
sys.exit(pytest.main(["-n0", "-q", "-p", "no:cacheprovider", *sys.argv[2:],
                      "-k", "not switch and not sanitizer"]))
"""
#: The differential tests of the compiled core: this module's and those of the queries added beside it.
DIFFERENTIAL_TESTS = [Path(__file__), *(Path(__file__).parent / name for name in (
    "test_native_basic.py", "test_native_purchase.py", "test_native_listing.py", "env/test_observation_native.py",
    "test_native_planner.py", "test_native_apply.py", "test_native_parts.py", "test_native_view.py",
    "test_native_records.py"))]


@pytest.mark.slow
def test_under_address_sanitizer(tmp_path: Path) -> None:
    """The differential tests (a short slice: the ``dev`` profile) against the compiled core built with
    AddressSanitizer (gcc ``-fsanitize=address``, libasan preloaded into Python), so a memory error fails loudly."""
    compiler = shutil.which("gcc")
    if compiler is None:
        pytest.skip("no gcc to build the core with AddressSanitizer")
    libasan = subprocess.run([compiler, "-print-file-name=libasan.so"], capture_output=True, text=True,
                             check=True).stdout.strip()
    if not Path(libasan).is_file():
        pytest.skip("gcc has no libasan")
    sources = sorted(str(path) for path in (Path(switch.__file__).with_name("_native_src")).glob("*.c"))
    built = tmp_path / "_native_asan.so"
    subprocess.run([compiler, "-std=c11", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address", "-Wall",
                    "-Wextra", "-Werror", "-fPIC", "-shared", f"-I{sysconfig.get_paths()['include']}", *sources,
                    "-o", str(built)], check=True)
    program = tmp_path / "run.py"
    program.write_text(SANITIZED_RUN, encoding="utf-8")
    environment = {**os.environ, "LD_PRELOAD": libasan, "ASAN_OPTIONS": "detect_leaks=0",
                   "HYPOTHESIS_PROFILE": "dev", "RUMMY_ENGINE": ""}
    result = subprocess.run([sys.executable, str(program), str(built), *map(str, DIFFERENTIAL_TESTS)],
                            capture_output=True, text=True,
                            env=environment, cwd=Path(__file__).parent.parent, check=False)
    assert "AddressSanitizer" not in result.stderr, result.stderr[-4000:]
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]


@pytest.mark.parametrize("pile", [1, 2, 3])
def test_an_own_buy_with_an_empty_stock_is_listed_alike(pile: int) -> None:
    """The own buy's penalty card from an empty stock comes from the pile under its top card, the card bought taken
    first (rules.md §2.8 #3, §2.9): a pile of two cards cannot supply it, one of three can.  ``draw_actions`` lists
    what the Python judgement allows."""
    assert switch.BUILT is not None
    game = new_game("progressive-buy-it", 4, seed=3,
                    options={"claim_mode": "active_first_then_others", "active_first_refusal": True})
    while game.phase is not Phase.DRAW:
        game.apply(game.legal_actions(game.next_to_act())[0])
    game.discard, game.discarders = game.stock[:pile], [game.active] * pile
    game.stock = []
    own = tuple(Action(game.active, verb) for verb in DRAW_VERBS)
    with running("python"):
        allowed = [action for action in own if game.is_legal(action)]
    assert (Action(game.active, Verb.BUY) in allowed) == (pile >= 3)
    assert switch.BUILT.draw_actions(game, own, APPLY_KIT) == allowed
