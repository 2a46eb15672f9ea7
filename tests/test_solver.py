"""Tests of the contract solver against a slow brute-force reference and an independent meld checker."""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine import solver
from rummy.engine.cards import JOKER, make_card, parse_card, to_counts
from rummy.engine.house_rules import apply_options, get_variant
from rummy.engine.melds import check_group, check_run, table_meld
from rummy.engine.solver import PlannedMeld, best_melds_from, can_lay_down, find_lay_down, first_lay_down
from rummy.engine.variants import GROUP, RUN, Slot, Variant
from tests.profiles import count, examples
from tests.variants import CONTRACT_VARIANTS

BOUNDS = {"low_or_high": (1, 14), "low_only": (1, 13), "high_only": (2, 14)}


def hand_of(text: str) -> list[int]:
    return to_counts(parse_card(t) for t in text.split())


def names(plan: Sequence[PlannedMeld] | None) -> list[str] | None:
    return None if plan is None else [str(m) for m in plan]


# -- independent rules, written from rules.md §2.3-§2.5 -------------------------------------------


def exact_sizes(v: Variant) -> bool:
    return v.contract_exact_sizes or not v.contract_oversize_melds


def policy_ok(v: Variant, wilds: int, naturals: int) -> bool:
    if v.wild_policy == "not_outnumber":
        return wilds <= naturals
    if v.wild_policy == "at_most_one":
        return wilds <= 1
    return True


def values_of(card: int, lo: int, hi: int) -> list[int]:
    rank = card % 13 + 1
    return [x for x in ((1, 14) if rank == 1 else (rank,)) if lo <= x <= hi]


def run_placements(cards: Sequence[int], v: Variant) -> list[tuple[int, int]]:
    """Every (suit, low value) that makes ``cards`` (in some order) a run, sizes aside."""
    lo, hi = BOUNDS[v.ace_mode]
    nats = [c for c in cards if not v.is_wild(c)]
    size = len(cards)
    if size > 13 or not policy_ok(v, size - len(nats), len(nats)):
        return []
    windows = [a for a in range(lo, hi - size + 2) if not (a == 1 and a + size - 1 == 14)]
    if not nats:
        if not v.all_wild_melds:
            return []
        return [(s, a) for s in range(4) for a in windows]
    suits = {c // 13 for c in nats}
    if len(suits) != 1 or len(set(nats)) != len(nats):
        return []
    suit = suits.pop()
    return [
        (suit, a) for a in windows
        if all(any(a <= x <= a + size - 1 for x in values_of(c, lo, hi)) for c in nats)
    ]


def group_forms(cards: Sequence[int], v: Variant) -> list[str | int]:
    """A rank, "declared" (all wilds with a declaration) or "trio" (may-i wild trio)."""
    nats = [c for c in cards if not v.is_wild(c)]
    wilds = len(cards) - len(nats)
    if nats:
        ranks = {c % 13 + 1 for c in nats}
        return [ranks.pop()] if len(ranks) == 1 and policy_ok(v, wilds, len(nats)) else []
    if v.all_wild_melds:
        return ["declared"] if policy_ok(v, wilds, 0) else []
    if v.wild_group_min is not None and v.wild_group_counts_as_set and wilds >= v.wild_group_min:
        return ["trio"]
    return []


def fits_slot(cards: Sequence[int], slot: Slot, v: Variant) -> bool:
    size = len(cards)
    if slot.kind == RUN:
        need = max(slot.min_size, v.run_min)
        if exact_sizes(v):
            return size == slot.min_size >= v.run_min
        return size >= need
    return size == slot.min_size if exact_sizes(v) else size >= slot.min_size


def reference(hand: Sequence[int], contract: Sequence[Slot], v: Variant, final_discard_allowed: bool = True,
              must_use_all: bool = False) -> tuple[int, int] | None:
    """Best (points, cards) left over any valid lay-down, by enumerating every partition."""
    cards = [c for c in range(53) for _ in range(hand[c])]
    kinds = sorted(set(cards))
    counts = Counter(cards)
    subsets: list[tuple[int, ...]] = []
    for pick in itertools.product(*(range(counts[c] + 1) for c in kinds)):
        sub = tuple(c for c, k in zip(kinds, pick, strict=True) for _ in range(k))
        if sub:
            subsets.append(sub)
    options: list[list[tuple[tuple[int, ...], object]]] = []
    for slot in contract:
        slot_options: list[tuple[tuple[int, ...], object]] = []
        for sub in subsets:
            if not fits_slot(sub, slot, v):
                continue
            if slot.kind == RUN:
                places = run_placements(sub, v)
                if places:
                    slot_options.append((sub, places))
            else:
                is_pair = slot.min_size < v.group_min
                nwild = sum(1 for c in sub if v.is_wild(c))
                if is_pair and nwild and not v.pair_wilds:
                    continue
                forms = [f for f in group_forms(sub, v) if not (is_pair and f == "trio")]
                if forms:
                    slot_options.append((sub, forms[0]))
        options.append(slot_options)
    best: tuple[int, int] | None = None

    def runs_compatible(runs: list[tuple[int, int, int]]) -> bool:
        for (s1, a1, b1), (s2, a2, b2) in itertools.combinations(runs, 2):
            if s1 == s2 and a1 <= b2 + 1 and a2 <= b1 + 1:
                return False
        return True

    def rec(i: int, left: Counter[int], ranks: list[int], runs: list[list[tuple[int, int, int]]]) -> None:
        nonlocal best
        if i == len(contract):
            if not v.allow_adjacent_runs and not any(
                runs_compatible(list(choice)) for choice in itertools.product(*runs)
            ):
                return
            rest = sum(left.values())
            if must_use_all and rest:
                return
            if not final_discard_allowed and rest == 1:
                return
            key = (sum(v.points(c) * k for c, k in left.items()), rest)
            if best is None or key < best:
                best = key
            return
        for sub, info in options[i]:
            need = Counter(sub)
            if any(left[c] < k for c, k in need.items()):
                continue
            if contract[i].kind == GROUP and isinstance(info, int):
                if not v.allow_same_rank_groups and info in ranks:
                    continue
                rec(i + 1, left - need, [*ranks, info], runs)
            elif contract[i].kind == RUN:
                assert isinstance(info, list)
                places = [(s, a, a + len(sub) - 1) for s, a in info]
                rec(i + 1, left - need, ranks, [*runs, places])
            else:
                rec(i + 1, left - need, ranks, runs)

    rec(0, Counter(cards), [], [])
    return best


def check_plan(plan: Sequence[PlannedMeld], hand: Sequence[int], contract: Sequence[Slot], v: Variant,
               final_discard_allowed: bool = True, must_use_all: bool = False) -> tuple[int, int]:
    """Assert that ``plan`` is a valid lay-down of ``contract``; return (points, cards) left."""
    lo, hi = BOUNDS[v.ace_mode]
    assert len(plan) == len(contract)
    used = Counter(c for m in plan for c in m.cards)
    for card, k in used.items():
        assert hand[card] >= k, f"{card} used {k} times"
    group_ranks: list[int] = []
    runs: list[tuple[int, int, int]] = []
    for meld, slot in zip(plan, contract, strict=True):
        cards = meld.cards
        assert fits_slot(cards, slot, v), (meld, slot)
        nats = [(i, c) for i, c in enumerate(cards) if not v.is_wild(c)]
        wilds = len(cards) - len(nats)
        if slot.kind == RUN:
            assert meld.kind == "run"
            if nats:
                assert meld.declared is None
                suits = {c // 13 for _, c in nats}
                assert len(suits) == 1
                suit = suits.pop()
                starts = None
                for i, c in nats:
                    here = {x - i for x in values_of(c, lo, hi)}
                    starts = here if starts is None else starts & here
                size = len(cards)
                valid = [x for x in starts or () if lo <= x and x + size - 1 <= hi and not (x == 1 and x + size == 15)]
                assert len(valid) == 1, meld
                low = valid[0]
                assert policy_ok(v, wilds, len(nats))
            else:
                assert v.all_wild_melds and v.wild_policy == "none"
                assert meld.declared is not None
                suit = meld.declared // 13
                low = meld.declared % 13 + 1
                if low < lo:
                    low = 14
            high = low + len(cards) - 1
            assert lo <= low and high <= hi and not (low == 1 and high == 14), meld
            runs.append((suit, low, high))
        else:
            is_pair = slot.min_size < v.group_min
            assert meld.kind == ("pair" if is_pair else "set"), meld
            assert [c for c in cards if not v.is_wild(c)] == sorted(c for c in cards if not v.is_wild(c))
            assert all(not v.is_wild(c) for c in cards[: len(nats)]), "naturals first"
            if is_pair and wilds:
                assert v.pair_wilds
            if nats:
                assert meld.declared is None
                ranks = {c % 13 + 1 for _, c in nats}
                assert len(ranks) == 1
                group_ranks.append(ranks.pop())
                assert policy_ok(v, wilds, len(nats))
            elif meld.declared is None:
                assert not is_pair and not v.all_wild_melds
                assert v.wild_group_counts_as_set and v.wild_group_min and wilds >= v.wild_group_min
            else:
                assert v.all_wild_melds and v.wild_policy == "none"
                assert 1 <= meld.declared <= 13
                group_ranks.append(meld.declared)
    if not v.allow_same_rank_groups:
        assert len(group_ranks) == len(set(group_ranks))
    if not v.allow_adjacent_runs:
        for (s1, a1, b1), (s2, a2, b2) in itertools.combinations(runs, 2):
            assert not (s1 == s2 and a1 <= b2 + 1 and a2 <= b1 + 1)
    left = Counter({c: hand[c] for c in range(53) if hand[c]}) - used
    rest = sum(left.values())
    if must_use_all:
        assert rest == 0
    if not final_discard_allowed:
        assert rest != 1
    return sum(v.points(c) * k for c, k in left.items()), rest


def compare(hand: Sequence[int], contract: Sequence[Slot], v: Variant, **kw: bool) -> None:
    expected = reference(hand, contract, v, **kw)
    plan = find_lay_down(hand, contract, v, **kw)
    assert can_lay_down(hand, contract, v, **kw) == (expected is not None)
    if expected is None:
        assert plan is None, names(plan)
        return
    assert plan is not None, f"missed a lay-down leaving {expected}"
    assert check_plan(plan, hand, contract, v, **kw) == expected, names(plan)


# -- randomised comparison with the reference -------------------------------------------------------

VARIANTS = {
    "buy-it": get_variant("progressive-buy-it"),
    "buy-it-run3": get_variant("progressive-buy-it", {"run_min": 3}),
    "p15": get_variant("progressive-15"),
    "may-i": get_variant("may-i"),
    "may-i-run3-cheap2": get_variant("may-i", {"run_min": 3, "two_points": 5}),
    "p15-exact": get_variant("progressive-15", {"contract_exact_sizes": True}),
    "p15-no-oversize": get_variant("progressive-15", {"contract_oversize_melds": False}),
    "p15-one-wild": get_variant("progressive-15", {"wild_policy": "at_most_one"}),
    "p15-no-pair-wilds": get_variant("progressive-15", {"pair_wilds": False}),
    "p15-distinct": get_variant(
        "progressive-15", {"allow_same_rank_groups": False, "allow_adjacent_runs": False}
    ),
    "p15-no-all-wild": get_variant("progressive-15", {"all_wild_melds": False}),
    "p15-low-only": get_variant("progressive-15", {"ace_mode": "low_only"}),
    "p15-high-only": get_variant("progressive-15", {"ace_mode": "high_only", "two_points": 3}),
    "may-i-ratio-pairs": get_variant(
        "may-i", {"run_min": 3, "pair_wilds": False, "allow_adjacent_runs": False}
    ),
}


@st.composite
def scenarios(draw: st.DrawFn, max_cards: int = 8) -> tuple[str, list[int], tuple[Slot, ...], bool, bool]:
    name = draw(st.sampled_from(sorted(VARIANTS)))
    # A small universe makes melds likely: two or three suits, a window of ranks, plus wilds.
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 13))
    ranks = [(low + k - 1) % 13 + 1 for k in range(draw(st.integers(2, 6)))]
    universe = [make_card(r, s) for r in ranks for s in suits] + [JOKER, make_card(2, suits[0])]
    size = draw(st.integers(2, max_cards))
    cards = draw(st.lists(st.sampled_from(universe), min_size=size, max_size=size))
    hand = to_counts(cards)
    for card in range(53):  # at most three copies of a card, six jokers
        hand[card] = min(hand[card], 6 if card == JOKER else 3)
    slots = draw(st.lists(
        st.tuples(st.sampled_from([GROUP, RUN]), st.integers(2, 4)), min_size=1, max_size=3
    ))
    contract = tuple(Slot(kind, size) for kind, size in slots)
    return name, hand, contract, draw(st.booleans()), draw(st.booleans())


@settings(max_examples=examples(400))
@given(scenarios())
def test_matches_reference(case: tuple[str, list[int], tuple[Slot, ...], bool, bool]) -> None:
    name, hand, contract, final_discard, must_use_all = case
    compare(hand, contract, VARIANTS[name], final_discard_allowed=final_discard, must_use_all=must_use_all)


@pytest.mark.slow
@settings(max_examples=examples(2000))
@given(scenarios(max_cards=9))
def test_matches_reference_many(case: tuple[str, list[int], tuple[Slot, ...], bool, bool]) -> None:
    name, hand, contract, final_discard, must_use_all = case
    compare(hand, contract, VARIANTS[name], final_discard_allowed=final_discard, must_use_all=must_use_all)


def test_matches_reference_on_real_contracts() -> None:
    """Random dense 8-9 card hands against the variants' own small contracts."""
    rng = random.Random(7)
    cases = [
        ("progressive-buy-it", 1), ("progressive-buy-it", 2), ("progressive-15", 1), ("progressive-15", 2),
        ("progressive-15", 4), ("may-i", 1), ("may-i", 2), ("may-i", 3),
    ]
    for variant_id, number in cases:
        v = get_variant(variant_id)
        contract = v.round_rules(number, 4).contract
        for _ in range(25):
            suits = rng.sample(range(4), 2)
            low = rng.randint(1, 10)
            universe = [make_card(r, s) for r in range(low, low + 5) for s in suits] + [JOKER]
            hand = to_counts(rng.choice(universe) for _ in range(rng.randint(6, 9)))
            compare(hand, contract, v, final_discard_allowed=rng.random() < 0.7)


# -- hand-written cases -------------------------------------------------------------------------------

BUY_IT = get_variant("progressive-buy-it")
P15 = get_variant("progressive-15")
MAY_I = get_variant("may-i")


def test_round8_goes_out_with_fourteen_cards() -> None:
    rules = BUY_IT.round_rules(8, 4)
    assert not rules.final_discard_allowed
    hand = hand_of("7C 7D 7H 9S 9S 9H KC KD KH KS 3D 4D 5D 6D")
    plan = find_lay_down(hand, rules.contract, BUY_IT, final_discard_allowed=False)
    assert plan is not None
    assert check_plan(plan, hand, rules.contract, BUY_IT, final_discard_allowed=False) == (0, 0)
    assert sorted(len(m.cards) for m in plan) == [3, 3, 4, 4]


def test_round8_one_card_over_is_rejected() -> None:
    contract = BUY_IT.round_rules(8, 4).contract
    hand = hand_of("7C 7D 7H 9S 9S 9H KC KD KH 3D 4D 5D 6D QS")
    assert find_lay_down(hand, contract, BUY_IT) is not None  # leaving QS is fine with a discard
    assert find_lay_down(hand, contract, BUY_IT, final_discard_allowed=False) is None
    assert not can_lay_down(hand, contract, BUY_IT, final_discard_allowed=False)


def test_round8_with_bought_cards_keeps_two() -> None:
    contract = BUY_IT.round_rules(8, 4).contract
    hand = hand_of("7C 7D 7H 9S 9S 9H KC KD KH 3D 4D 5D 6D QS 2C")
    plan = find_lay_down(hand, contract, BUY_IT, final_discard_allowed=False)
    assert plan is not None
    assert check_plan(plan, hand, contract, BUY_IT, final_discard_allowed=False) == (15, 2)


def test_no_final_discard_prefers_leaving_two() -> None:
    # Best is to leave only the 8 (5 points); with no final discard, leave two cards instead.
    v = get_variant("progressive-buy-it")
    contract = (Slot(GROUP, 3), Slot(GROUP, 3))
    hand = hand_of("5C 5D 5H 9C 9D 9H 9S 8C")
    assert check_plan(find_lay_down(hand, contract, v) or (), hand, contract, v) == (5, 1)
    plan = find_lay_down(hand, contract, v, final_discard_allowed=False)
    assert plan is not None
    assert check_plan(plan, hand, contract, v, final_discard_allowed=False) == (10, 2)
    compare(hand, contract, v, final_discard_allowed=False)


def test_may_i_ratio_rule() -> None:
    contract = MAY_I.round_rules(1, 4).contract  # two sets of three
    assert find_lay_down(hand_of("5H JK 2C 9C 9D 9S"), contract, MAY_I) is None
    hand = hand_of("5H 5S JK 2C 9C 9D 9S")
    plan = find_lay_down(hand, contract, MAY_I)
    assert plan is not None and check_plan(plan, hand, contract, MAY_I) == (0, 0)
    assert all(sum(MAY_I.is_wild(c) for c in m.cards) <= len(m.cards) // 2 for m in plan)
    run_contract = (Slot(RUN, 4),)
    assert find_lay_down(hand_of("5H JK 2C 2D"), run_contract, MAY_I) is None  # 3 wilds, 1 natural
    plan = find_lay_down(hand_of("5H JK 2C 8H"), run_contract, MAY_I)  # 2 and 2 is allowed
    assert names(plan) == ["run:5H-2C-JK-8H"]
    for text in ("5H JK 2C 2D", "5H JK 2C 8H", "5H 5S JK 2C 9C 9D 9S", "5H JK 2C 9C 9D 9S"):
        compare(hand_of(text), run_contract, MAY_I)
        compare(hand_of(text), contract, MAY_I)


def test_twos_natural_in_place() -> None:
    variant = apply_options(MAY_I, {"twos_natural_in_place": True})
    run_contract = (Slot(RUN, 4),)
    hand = hand_of("2H 3H JK JK 9C")  # as wilds: three wilds to one natural; 2H in its own place: two and two
    assert find_lay_down(hand, run_contract, MAY_I) is None
    assert not can_lay_down(hand, run_contract, MAY_I)
    plan = find_lay_down(hand, run_contract, variant)
    assert plan is not None and can_lay_down(hand, run_contract, variant)
    (meld,) = plan
    assert sorted(meld.cards) == sorted(parse_card(t) for t in "2H 3H JK JK".split())
    check_run(meld, variant, 4)  # the engine accepts it
    # where the twos are better used as wilds, the first search's lay-down stands
    hand = hand_of("5H 2C JK 8H 2D")
    assert names(find_lay_down(hand, run_contract, variant)) == names(find_lay_down(hand, run_contract, MAY_I))


def test_twos_natural_in_place_mixes_natural_and_wild_twos() -> None:
    variant = apply_options(MAY_I, {"twos_natural_in_place": True})
    contract = (Slot(GROUP, 3), Slot(RUN, 4))
    # the run 2H-3H-JK-JK needs the 2H natural (two and two), the set of nines the 2C wild
    hand = hand_of("2H 3H JK JK 9C 9D 2C KS")
    assert find_lay_down(hand, contract, MAY_I) is None
    plan = find_lay_down(hand, contract, variant)
    assert plan is not None and can_lay_down(hand, contract, variant)
    group, run = plan
    assert sorted(group.cards) == sorted(parse_card(t) for t in "9C 9D 2C".split())
    assert sorted(run.cards) == sorted(parse_card(t) for t in "2H 3H JK JK".split())
    check_group(group, variant, 3)
    check_run(run, variant, 4)
    assert not can_lay_down(hand_of("2H 3H JK JK 9C 9D KS"), contract, variant)


@settings(max_examples=examples(150))
@given(st.lists(st.sampled_from(["2H", "2C", "2D", "3H", "4H", "5H", "JK", "9C", "9D", "9S", "7S", "8S"]),
                min_size=6, max_size=11))
def test_twos_natural_in_place_lay_downs_are_valid(cards: list[str]) -> None:
    variant = apply_options(MAY_I, {"twos_natural_in_place": True})
    hand = hand_of(" ".join(cards))
    for contract in ((Slot(GROUP, 3), Slot(RUN, 4)), (Slot(GROUP, 3), Slot(GROUP, 3)), (Slot(RUN, 4),)):
        plan = find_lay_down(hand, contract, variant)
        assert (plan is not None) == can_lay_down(hand, contract, variant)
        if plan is None:
            continue
        used = Counter(c for meld in plan for c in meld.cards)
        assert all(hand[card] >= count for card, count in used.items())
        for meld, slot in zip(plan, contract, strict=True):
            assert (meld.kind == "run") == (slot.kind == RUN)
            table_meld(meld, variant, 0, 0, min_size=slot.min_size)  # the engine accepts it


def test_may_i_wild_trio_fills_a_set_slot() -> None:
    contract = MAY_I.round_rules(1, 4).contract
    hand = hand_of("JK JK 2C 9C 9D 9S")
    plan = find_lay_down(hand, contract, MAY_I)
    assert plan is not None
    trio = [m for m in plan if not any(not MAY_I.is_wild(c) for c in m.cards)]
    assert len(trio) == 1 and trio[0].kind == "set" and trio[0].declared is None
    assert check_plan(plan, hand, contract, MAY_I) == (0, 0)
    assert find_lay_down(hand_of("JK 2C 9C 9D 9S"), contract, MAY_I) is None


def test_progressive_15_pair_slot_with_wilds() -> None:
    contract = P15.round_rules(14, 4).contract  # set of 5, run of 5, pair
    hand = hand_of("8C 8D 8H 8S 8C 3H 4H 5H 6H 7H KD JK")
    plan = find_lay_down(hand, contract, P15)
    assert plan is not None
    pair = plan[2]
    assert pair.kind == "pair" and pair.cards == (parse_card("KD"), JOKER)
    assert check_plan(plan, hand, contract, P15) == (0, 0)
    no_wilds = get_variant("progressive-15", {"pair_wilds": False})
    assert find_lay_down(hand, contract, no_wilds) is None  # KD needs the joker to make a pair
    hand = hand_of("8C 8D 8H 8S 8C 3H 4H 5H 6H 7H KD KS JK")
    plan = find_lay_down(hand, contract, no_wilds)
    assert plan is not None and plan[2].cards == (parse_card("KD"), parse_card("KS"))
    assert check_plan(plan, hand, contract, no_wilds) == (0, 0)


def test_two_wilds_make_a_pair() -> None:
    contract = P15.round_rules(14, 4).contract
    hand = hand_of("8C 8D 8H 8S 8C 3H 4H 5H 6H 7H JK 2S")
    plan = find_lay_down(hand, contract, P15)
    assert plan is not None and check_plan(plan, hand, contract, P15) == (0, 0)
    pair_only = (Slot(GROUP, 2),)
    plan = find_lay_down(hand_of("JK 2S"), pair_only, P15)
    assert plan is not None and plan[0].kind == "pair" and plan[0].declared is not None
    compare(hand_of("JK 2S 9D"), pair_only, P15)


def test_all_joker_set_is_declared() -> None:
    contract = BUY_IT.round_rules(1, 4).contract  # two sets of three
    hand = hand_of("JK JK JK 7C 7D 7H")
    assert check_plan(find_lay_down(hand, contract, BUY_IT) or (), hand, contract, BUY_IT) == (0, 0)
    distinct = get_variant("progressive-buy-it", {"allow_same_rank_groups": False})
    plan = find_lay_down(hand, contract, distinct)
    assert plan is not None
    jokers = [m for m in plan if m.cards == (JOKER, JOKER, JOKER)]
    assert len(jokers) == 1 and jokers[0].declared is not None and 1 <= jokers[0].declared <= 13
    assert jokers[0].declared != 7
    sevens = [m for m in plan if m is not jokers[0]]
    assert sevens[0].declared is None
    assert check_plan(plan, hand, contract, distinct) == (0, 0)
    compare(hand, contract, distinct)


def test_all_wild_run_is_declared_by_its_lowest_card() -> None:
    contract = (Slot(RUN, 4), Slot(GROUP, 3))
    hand = hand_of("JK JK JK JK QC QD QH")
    assert check_plan(find_lay_down(hand, contract, BUY_IT) or (), hand, contract, BUY_IT) == (0, 0)
    plan = find_lay_down(hand_of("JK JK JK JK"), (Slot(RUN, 4),), BUY_IT)
    assert plan is not None
    run = plan[0]
    assert run.cards == (JOKER,) * 4 and run.declared is not None
    assert run.declared % 13 + 1 <= 11  # a lowest card from which four values fit
    check_plan(plan, hand_of("JK JK JK JK"), (Slot(RUN, 4),), BUY_IT)


def test_ace_high_and_low_runs() -> None:
    run4 = (Slot(RUN, 4),)
    plan = find_lay_down(hand_of("JS QS KS AS"), run4, BUY_IT)
    assert names(plan) == ["run:JS-QS-KS-AS"]
    plan = find_lay_down(hand_of("AS 2S 3S 4S"), run4, BUY_IT)
    assert names(plan) == ["run:AS-2S-3S-4S"]
    assert find_lay_down(hand_of("QS KS AS 2S"), run4, BUY_IT) is None
    assert find_lay_down(hand_of("QS KS JK 2S"), run4, BUY_IT) is None
    low_only = get_variant("progressive-buy-it", {"ace_mode": "low_only"})
    assert find_lay_down(hand_of("JS QS KS AS"), run4, low_only) is None
    high_only = get_variant("progressive-buy-it", {"ace_mode": "high_only"})
    assert find_lay_down(hand_of("AS 2S 3S 4S"), run4, high_only) is None
    assert names(find_lay_down(hand_of("JS QS KS AS"), run4, high_only)) == ["run:JS-QS-KS-AS"]


def test_thirteen_card_run_and_no_both_aces() -> None:
    run = (Slot(RUN, 4),)
    full = hand_of("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    plan = find_lay_down(full, run, BUY_IT)
    assert plan is not None and len(plan[0].cards) == 13
    assert check_plan(plan, full, run, BUY_IT) == (15, 1)


def test_multi_deck_duplicates() -> None:
    contract = BUY_IT.round_rules(3, 4).contract  # two runs of four
    hand = hand_of("5H 6H 7H 8H 5H 6H 7H 8H")
    plan = find_lay_down(hand, contract, BUY_IT)
    assert names(plan) == ["run:5H-6H-7H-8H", "run:5H-6H-7H-8H"]
    contract = BUY_IT.round_rules(1, 4).contract
    hand = hand_of("9C 9C 9C 9D 9D 9D")
    assert check_plan(find_lay_down(hand, contract, BUY_IT) or (), hand, contract, BUY_IT) == (0, 0)
    distinct = get_variant("progressive-buy-it", {"allow_same_rank_groups": False})
    assert find_lay_down(hand, contract, distinct) is None


def test_adjacent_runs_option() -> None:
    contract = BUY_IT.round_rules(3, 4).contract
    hand = hand_of("3H 4H 5H 6H 7H 8H 9H TH")
    assert find_lay_down(hand, contract, BUY_IT) is not None
    apart = get_variant("progressive-buy-it", {"allow_adjacent_runs": False})
    assert find_lay_down(hand, contract, apart) is None


def test_exact_sizes() -> None:
    exact = get_variant("progressive-15", {"contract_exact_sizes": True})
    contract = (Slot(GROUP, 3), Slot(RUN, 4))
    hand = hand_of("9C 9D 9H 9S 3H 4H 5H 6H 7H")
    plan = find_lay_down(hand, contract, exact)
    assert plan is not None and [len(m.cards) for m in plan] == [3, 4]
    assert check_plan(plan, hand, contract, exact) == (10, 2)


def test_wilds_prefer_the_most_valuable() -> None:
    # may-i with 2s worth 5 and exact sizes: the joker (10) is laid down, the 2 stays in hand.
    v = get_variant("may-i", {"two_points": 5, "contract_exact_sizes": True})
    contract = (Slot(GROUP, 3),)
    hand = hand_of("8C 8D JK 2C")
    plan = find_lay_down(hand, contract, v)
    assert plan is not None and names(plan) == ["set:8C-8D-JK"]
    assert check_plan(plan, hand, contract, v) == (5, 1)
    # Oversize allowed: the spare wild extends the run rather than staying in hand.
    plan = find_lay_down(hand_of("3H 4H 5H JK"), (Slot(RUN, 3),), P15)
    assert plan is not None and len(plan[0].cards) == 4


def test_must_use_all() -> None:
    contract = BUY_IT.round_rules(2, 4).contract  # run of four, set of three
    hand = hand_of("3D 4D 5D 6D 8S 8C 8H KS")
    assert find_lay_down(hand, contract, BUY_IT) is not None
    assert find_lay_down(hand, contract, BUY_IT, must_use_all=True) is None
    hand = hand_of("3D 4D 5D 6D 8S 8C 8H 7D")
    plan = find_lay_down(hand, contract, BUY_IT, must_use_all=True)
    assert plan is not None and check_plan(plan, hand, contract, BUY_IT, must_use_all=True) == (0, 0)


def test_too_few_cards_and_empty_hand() -> None:
    contract = P15.round_rules(12, 4).contract
    assert find_lay_down(hand_of("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), contract, P15) is None
    assert find_lay_down([0] * 53, contract, P15) is None


def test_progressive_15_five_runs() -> None:
    contract = P15.round_rules(12, 4).contract
    hand = hand_of("3H 4H 5H 6H 7H 8H 9C TC JC QS KS AS 5D 6D JK QH")
    plan = find_lay_down(hand, contract, P15)
    assert plan is not None
    assert check_plan(plan, hand, contract, P15) == (10, 1)  # QH cannot join anything


# -- the fast canonical search against plain enumeration on the real contracts -------------------


def _plain_enumeration(hand: list[int], contract: tuple[Slot, ...], v: Variant, **kw: bool
                       ) -> tuple[PlannedMeld, ...] | None:
    """The solver with its canonical shortcuts switched off: every run filling, explicit groups."""
    original = solver._Search._prepare

    def prepare(self: solver._Search, nat: list[int]) -> None:
        original(self, nat)
        if self.feasible:
            self.greedy = False

    plan = solver._rules_for(v).plan(contract)
    label_ok = plan.label_ok
    solver._Search._prepare = prepare  # type: ignore[method-assign]
    plan.label_ok = False
    try:
        return find_lay_down(hand, contract, v, **kw)
    finally:
        solver._Search._prepare = original  # type: ignore[method-assign]
        plan.label_ok = label_ok


def _near_lay_down(rng: random.Random, v: Variant, contract: tuple[Slot, ...]) -> list[int]:
    """A hand made of a random lay-down of ``contract`` (some cards wild), plus or minus a few cards."""
    lo, hi = BOUNDS[v.ace_mode]
    wild_cards = [c for c in range(53) if v.is_wild(c)]
    cards: list[int] = []
    for slot in contract:
        size = max(slot.min_size, v.run_min if slot.kind == RUN else 0) + (rng.random() < 0.3)
        wild = wild_cards and rng.random() < 0.2
        if slot.kind == GROUP:
            rank = rng.choice([r for r in range(1, 14) if not v.is_wild(make_card(r, 0))])
            for _ in range(size):
                cards.append(rng.choice(wild_cards) if wild else make_card(rank, rng.randrange(4)))
                wild = wild_cards and rng.random() < 0.2
        else:
            suit, low = rng.randrange(4), rng.randint(lo, hi - size + 1)
            for value in range(low, low + size):
                card = make_card(1 if value == 14 else value, suit)
                cards.append(rng.choice(wild_cards) if wild or v.is_wild(card) else card)
                wild = wild_cards and rng.random() < 0.2
    cards += [rng.randrange(52) for _ in range(rng.randint(0, 3))]
    rng.shuffle(cards)
    del cards[: rng.choice([0, 0, 1, 2])]
    return to_counts(cards)


SELF_CHECK_VARIANTS = [
    *(get_variant(variant) for variant in CONTRACT_VARIANTS),
    get_variant("progressive-15", {"allow_same_rank_groups": False, "allow_adjacent_runs": False}),
    get_variant("may-i", {"two_points": 5}),
]


def _self_check(seed: int, count: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        v = rng.choice(SELF_CHECK_VARIANTS)
        contract = v.round_rules(rng.randint(1, len(v.rounds)), 4).contract
        hand = _near_lay_down(rng, v, contract)
        kw = {"final_discard_allowed": rng.random() < 0.6, "must_use_all": rng.random() < 0.2}
        fast = find_lay_down(hand, contract, v, **kw)
        plain = _plain_enumeration(hand, contract, v, **kw)
        assert (fast is None) == (plain is None), (v.id, contract, hand, kw)
        if fast is not None and plain is not None:
            assert check_plan(fast, hand, contract, v, **kw) == check_plan(plain, hand, contract, v, **kw)


def test_fast_search_matches_plain_enumeration() -> None:
    _self_check(seed=1, count=300)


@pytest.mark.slow
def test_fast_search_matches_plain_enumeration_many() -> None:
    _self_check(seed=2, count=2000)


def test_full_runs_may_hold_a_wild_beside_its_natural() -> None:
    # The run holds 13 cards, so no run end can take the joker; with sevens worth 1 point the best
    # lay-down puts the joker in a seven's place and keeps both sevens (2 points).  A run shortened
    # at an end for the joker keeps a 10-point card instead.
    cheap_sevens = dataclasses.replace(BUY_IT, card_points=(50, *(1 if rank == 7 else 10 for rank in range(1, 14))))
    hand = hand_of("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH JK 7H")
    plan = find_lay_down(hand, (Slot(RUN, 4),), cheap_sevens)
    assert plan is not None
    assert check_plan(plan, hand, (Slot(RUN, 4),), cheap_sevens) == (2, 2)


def _large_hand(rng: random.Random, v: Variant, contract: tuple[Slot, ...]) -> list[int]:
    """A hand well past the contract's size, from few suits with jokers (as hands grow in long rounds)."""
    need = sum(max(slot.min_size, v.run_min if slot.kind == RUN else v.group_min) for slot in contract)
    runs = sum(slot.kind == RUN for slot in contract)
    least = max(need + 4, 13 * runs if rng.random() < 0.5 else 0)  # often enough to fill every run
    size = rng.randint(least, least + 8)
    suits = rng.sample(range(4), rng.randint(1, 3))
    return to_counts([JOKER if rng.random() < 0.1 else rng.choice(suits) * 13 + rng.randrange(13)
                      for _ in range(size)])


def _large_hands_check(seed: int, hands: int, part: int = 0, parts: int = 1) -> None:
    """The fast search (canonical runs, full runs, bounds) against plain enumeration on large hands: the
    ``hands`` hands of ``seed``, of which this call checks every ``parts``-th from ``part``."""
    rng = random.Random(seed)
    contracts = [(Slot(RUN, 4),), (Slot(RUN, 4), Slot(RUN, 4)), (Slot(RUN, 3), Slot(RUN, 5)),
                 *(BUY_IT.round_rules(r, 4).contract for r in (2, 3, 5, 6))]
    cases = []
    for _ in range(hands):
        v = rng.choice([BUY_IT, P15])
        contract = rng.choice(contracts)
        hand = _large_hand(rng, v, contract)
        cases.append((v, contract, hand, {"final_discard_allowed": rng.random() < 0.7,
                                          "must_use_all": rng.random() < 0.1}))
    for v, contract, hand, kw in cases[part::parts]:
        fast = find_lay_down(hand, contract, v, **kw)
        plain = _plain_enumeration(hand, contract, v, **kw)
        assert (fast is None) == (plain is None), (v.id, contract, hand, kw)
        if fast is not None and plain is not None:
            assert check_plan(fast, hand, contract, v, **kw) == check_plan(plain, hand, contract, v, **kw)


def test_fast_search_matches_plain_enumeration_on_large_hands() -> None:
    _large_hands_check(seed=3, hands=count(40))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(8))  # eight parts, so parallel workers share the 400 hands
def test_fast_search_matches_plain_enumeration_on_large_hands_many(part: int) -> None:
    _large_hands_check(seed=4, hands=count(400), part=part, parts=8)


def test_best_melds_from_basic() -> None:
    v = get_variant("basic")
    hand = hand_of("AH 2H 3H 4H 7C 7D 7S KS")
    plan = best_melds_from(hand, v)
    assert sorted(names(plan) or []) == ["run:AH-2H-3H-4H", "set:7C-7D-7S"]
    assert names(best_melds_from(hand, v, max_melds=1)) == ["set:7C-7D-7S"]
    assert best_melds_from(hand_of("QS KS AS 2S"), v) == ()
    high = get_variant("basic", {"ace_mode": "low_or_high"})
    assert names(best_melds_from(hand_of("QS KS AS 2S"), high)) == ["run:QS-KS-AS"]
    # 7H can go to the run or the set, not both: the run 5-6-7-8 and the set of 9s win.
    hand = hand_of("5H 6H 7H 8H 7C 7D 9C 9D 9S")
    assert sorted(names(best_melds_from(hand, v)) or []) == ["run:5H-6H-7H-8H", "set:9C-9D-9S"]


def _basic_reference(hand: list[int], v: Variant, max_melds: int | None) -> tuple[int, int]:
    cards = [c for c in range(52) for _ in range(hand[c])]
    best = (sum(v.points(c) for c in cards), len(cards))
    melds = []
    for size in range(3, len(cards) + 1):
        for combo in set(itertools.combinations(cards, size)):
            if group_forms(combo, v) and size >= v.group_min or (
                size >= v.run_min and run_placements(combo, v)
            ):
                melds.append(Counter(combo))

    def rec(start: int, left: Counter[int], count: int) -> None:
        nonlocal best
        key = (sum(v.points(c) * k for c, k in left.items()), sum(left.values()))
        best = min(best, key)
        if max_melds is not None and count >= max_melds:
            return
        for i in range(start, len(melds)):
            if all(left[c] >= k for c, k in melds[i].items()):
                rec(i, left - melds[i], count + 1)

    rec(0, Counter(cards), 0)
    return best


@pytest.mark.parametrize("ace_mode", ["low_only", "low_or_high", "high_only"])
def test_best_melds_from_matches_reference(ace_mode: str) -> None:
    v = get_variant("basic", {"ace_mode": ace_mode})
    rng = random.Random(3)
    for _ in range(60):
        suits = rng.sample(range(4), 3)
        low = rng.randint(1, 9)
        universe = [make_card((r - 1) % 13 + 1, s) for r in range(low, low + 6) for s in suits]
        hand = to_counts(rng.sample(universe, rng.randint(3, 9)))
        limit = rng.choice([None, 1, 2])
        plan = best_melds_from(hand, v, max_melds=limit)
        used = Counter(c for m in plan for c in m.cards)
        assert all(hand[c] >= k for c, k in used.items())
        for m in plan:
            assert (m.kind == "set" and group_forms(m.cards, v)) or (m.kind == "run" and run_placements(m.cards, v))
        if limit is not None:
            assert len(plan) <= limit
        left = Counter({c: hand[c] for c in range(52) if hand[c]}) - used
        assert (sum(v.points(c) * k for c, k in left.items()), sum(left.values())) == _basic_reference(
            hand, v, limit
        )


# -- real hands: the answers must not change (bots and the engine's candidate list depend on them) ----

REAL_HANDS = Path(__file__).with_name("solver_real_hands.json.gz")  # made by tests/solver_real_hands.py


def _real_hand_cases() -> list[dict[str, Any]]:
    with gzip.open(REAL_HANDS, "rt", encoding="utf-8") as file:
        cases: list[dict[str, Any]] = json.load(file)
    return cases


def _check_real_hands(step: int) -> None:
    """Every ``step``-th recorded hand: the same best lay-down as recorded (tie-break included) under each
    pair of flags, and :func:`can_lay_down` and :func:`first_lay_down` agree with it."""
    variants: dict[str, Variant] = {}
    cases = _real_hand_cases()[::step]
    assert cases
    for case in cases:
        key = json.dumps([case["variant"], case["options"]], sort_keys=True)
        if key not in variants:
            variants[key] = get_variant(case["variant"], case["options"])
        v = variants[key]
        contract = tuple(Slot(kind, size) for kind, size in case["contract"])
        hand = hand_of(case["hand"])
        for final_discard_allowed, must_use_all, want in case["answers"]:
            kw = {"final_discard_allowed": final_discard_allowed, "must_use_all": must_use_all}
            assert names(find_lay_down(hand, contract, v, **kw)) == want, (key, case["contract"], case["hand"], kw)
            assert can_lay_down(hand, contract, v, **kw) == (want is not None)
            first = first_lay_down(hand, contract, v, **kw)
            assert (first is None) == (want is None)
            if first is not None:
                check_plan(first, hand, contract, v, **kw)


def test_real_hands_keep_their_answers() -> None:
    _check_real_hands(step=10)


@pytest.mark.slow
def test_real_hands_keep_their_answers_all() -> None:
    _check_real_hands(step=1)
