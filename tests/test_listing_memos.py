"""The listing's memos and packed shortcuts give what the full work gives: lay-offs shared by melds of one
shape (also after a meld changes), the count bound against a direct count, and lay-down witnesses packed into
ints against the solver."""

from __future__ import annotations

import random

import pytest

from rummy.engine.cards import CARD_COUNT, JOKER, parse_card
from rummy.engine.contract_bound import short_of_wilds
from rummy.engine.game import new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.lay_down import can_lay_down_now
from rummy.engine.meld_offers import accepted_cards, accepted_layoffs, split_points
from rummy.engine.melds import MeldSpec, TableMeld, lay_off, table_meld
from rummy.engine.solver import first_lay_down
from rummy.engine.variants import RUN, Slot, Variant
from tests.test_table_offers import every_layoff
from tests.variants import CONTRACT_VARIANTS

VARIANTS = [(variant, {}) for variant in CONTRACT_VARIANTS] + [("may-i", {"twos_natural_in_place": True})]


def every_split_point(meld: TableMeld, variant: Variant) -> list[tuple[int, int]]:
    if not meld.is_run:
        return []
    indexes = range(variant.run_min - 1, len(meld.cards) - variant.run_min + 1)
    return [(meld.position_card(i), i) for i in indexes if not variant.is_wild(meld.position_card(i))]


def meld(text: str, variant: Variant, meld_id: int) -> TableMeld:
    kind, cards = text.split(":")
    return table_meld(MeldSpec(kind, tuple(parse_card(c) for c in cards.split("-"))), variant, meld_id, 0)


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_melds_of_one_shape_share_lay_offs_and_split_points_also_after_they_grow(variant: str,
                                                                                 options: dict[str, object]) -> None:
    rules = get_variant(variant, options)
    shapes = [("run:3H-4H-JK-6H-7H", "run:3H-JK-5H-6H-7H"), ("set:7C-7D-JK", "set:7S-JK-7H"),
              ("run:TS-JS-QS-KS-AS", "run:TS-JS-QS-KS-JK"), ("set:9C-9D-9H", "set:9S-9H-9D")]
    for first, second in shapes:
        melds = [meld(first, rules, 1), meld(second, rules, 2)]
        for _ in range(4):
            for m in melds:
                assert list(accepted_layoffs(m, rules)) == every_layoff(m, rules)
                assert accepted_cards(m, rules) == {card for card, _ in every_layoff(m, rules)}
                assert list(split_points(m, rules)) == every_split_point(m, rules)
            # grow each meld by its first natural lay-off, the same card for both when they share a shape
            grown = []
            for m in melds:
                naturals = [(card, end) for card, end in accepted_layoffs(m, rules) if not rules.is_wild(card)]
                grown.append(lay_off(m, *naturals[0], rules) if naturals else m)
            melds = grown


def direct_short_of_wilds(variant: Variant, contract: tuple[Slot, ...], hand: list[int]) -> bool:
    """The count bound of :mod:`rummy.engine.contract_bound`, counted directly: every bound of every slot
    kind, the smallest ones summed."""
    wild = [variant.is_wild(card) for card in range(CARD_COUNT)]
    if hand[JOKER] and not wild[JOKER]:
        return False
    budget = sum(hand[card] for card in range(CARD_COUNT) if wild[card])
    groups = [variant.meld_size(slot) for slot in contract if slot.kind != RUN]
    runs = [variant.meld_size(slot) for slot in contract if slot.kind == RUN]
    if groups:
        size, slots = min(groups), len(groups)
        counts = [sum(hand[suit * 13 + rank] for suit in range(4) if not wild[suit * 13 + rank]) for rank in range(13)]
        bounds = sorted(max(0, level * size - held) - max(0, (level - 1) * size - held)
                        for held in counts for level in range(1, slots + 1))
        budget -= sum(bounds[:slots])
        if budget < 0:
            return True
    if runs:
        size, slots = min(runs), len(runs)
        low_bound, high_bound = variant.ace_mode.run_bounds
        bounds = [size] * slots  # runs of wilds only
        for suit in range(4):
            row = [suit * 13 + (0 if value == 14 else value - 1) for value in range(15)]  # the card of each value
            for level in range(1, slots + 1):
                for low in range(low_bound, high_bound - size + 2):
                    held = sum(hand[row[v]] >= level and not wild[row[v]] for v in range(low, low + size))
                    bounds.append(size - held)
        return sum(sorted(bounds)[:slots]) > budget
    return False


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_the_count_bound_matches_a_direct_count(variant: str, options: dict[str, object]) -> None:
    rules = get_variant(variant, options)
    rng = random.Random(11)
    pack = [card for card, count in enumerate(new_game(variant, 4).pack) for _ in range(count)]
    refuted = 0
    for _ in range(1500):
        contract = rules.round_rules(rng.randint(1, len(rules.rounds)), 4).contract
        hand = [0] * CARD_COUNT
        for card in rng.sample(pack, rng.randint(3, 45)):
            hand[card] += 1
        expected = direct_short_of_wilds(rules, contract, hand)
        assert short_of_wilds(rules, contract, hand) == expected, (hand, contract)
        refuted += expected
    assert refuted > 100


@pytest.mark.parametrize(("variant", "options"), VARIANTS[:3])
def test_whether_a_hand_can_lay_down_agrees_with_the_solver_along_changing_hands(variant: str,
                                                                                  options: dict[str, object]) -> None:
    """Hands that change a card at a time (as in play) reuse witnesses and refutations; each answer is the
    solver's."""
    rules = get_variant(variant, options)
    rng = random.Random(5)
    pack = [card for card, count in enumerate(new_game(variant, 4).pack) for _ in range(count)]
    able = 0
    for _ in range(12):
        contract = rules.round_rules(rng.randint(1, len(rules.rounds)), 4).contract
        cards = rng.sample(pack, 24)
        hand = [0] * CARD_COUNT
        for card in cards[:12]:
            hand[card] += 1
        for step in range(12, 24):
            hand[cards[step]] += 1
            if step % 3 == 0:  # now and then a card leaves
                held = [card for card in range(CARD_COUNT) if hand[card]]
                hand[rng.choice(held)] -= 1
            expected = first_lay_down(hand, contract, rules) is not None
            assert can_lay_down_now(rules, contract, hand, 0) == expected, (hand, contract)
            able += expected
    assert able > 10
