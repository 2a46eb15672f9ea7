"""The contract planner's shortcuts give the answers of the full work they stand in for.

Each shortcut exists only for speed (bots' decisions must not change): the bounded search behind
``with_card_within``, candidate lists adapted from a hand one card away, ``discard_plans`` working out the
plans each discard keeps in one pass, plans whose outs are worked out when read, and ``table_takes``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.bots.greedy import fits_table, table_takes
from rummy.bots.partial_melds import PartialMelds
from rummy.bots.planning import ContractPlanner, Plan
from rummy.engine.cards import CARD_COUNT, Counts, from_counts, pack, to_counts
from rummy.engine.errors import MeldError
from rummy.engine.game import new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.melds import lay_off, layoff_ends
from tests.profiles import examples
from tests.random_games import random_play
from tests.variants import CONTRACT_VARIANTS

VARIANTS = list(CONTRACT_VARIANTS)


def random_hand(variant_id: str, round_number: int, seed: int, extra: int) -> tuple[ContractPlanner, Counts]:
    """A fresh planner of the round's contract (no final discard: a card beyond it) and a random hand."""
    variant = get_variant(variant_id)
    round_number = 1 + (round_number - 1) % len(variant.rounds)
    rules = variant.round_rules(round_number, 4)
    rng = random.Random(seed)
    cards = from_counts(pack(variant.decks_for(4), variant.jokers_per_deck))
    rng.shuffle(cards)
    size = sum(variant.meld_size(slot) for slot in rules.contract) - 3 + extra
    return ContractPlanner(variant, rules.contract, extra_card=not rules.final_discard_allowed), to_counts(cards[:size])


def fresh(planner: ContractPlanner) -> ContractPlanner:
    return ContractPlanner(planner.variant, planner.slots, extra_card=planner.extra_card)


hands = st.tuples(st.sampled_from(VARIANTS), st.integers(1, 8), st.integers(0, 10**6), st.integers(0, 6))


@settings(max_examples=examples(60))
@given(hand=hands, card=st.integers(0, CARD_COUNT - 1), ceiling=st.integers(0, 3))
def test_with_card_within_says_no_only_when_the_deficit_is_above_the_ceiling(
        hand: tuple[str, int, int, int], card: int, ceiling: int) -> None:
    planner, counts = random_hand(*hand)
    planner.analyze(counts)  # the hand's candidate lists are memoised: the card's are adapted from them
    more = list(counts)
    more[card] += 1
    deficit = fresh(planner).analyze(more).deficit
    assert planner.with_card_within(counts, card, ceiling) or deficit > ceiling
    assert planner.with_card(counts, card) == fresh(planner).analyze(more)


@settings(max_examples=examples(60))
@given(hand=hands, card=st.integers(0, CARD_COUNT - 1))
def test_candidates_adapted_from_a_hand_one_card_away_are_the_fresh_ones(
        hand: tuple[str, int, int, int], card: int) -> None:
    planner, counts = random_hand(*hand)
    variant = planner.variant
    if variant.is_wild(card):
        return
    largest = max(slot.min_size for slot in planner.slots) + 2
    near_melds, new_melds = PartialMelds(variant, largest), PartialMelds(variant, largest)
    more = list(counts)
    more[card] += 1
    for counts_of in (counts, more):
        for wild in planner.wild_cards:
            counts_of[wild] = 0
    packed, near = int.from_bytes(bytes(more), "little"), int.from_bytes(bytes(counts), "little")
    for slot in planner.slots:
        near_melds.for_slot(slot, counts, near)
        assert near_melds.for_slot(slot, more, packed, near) == new_melds.for_slot(slot, more, packed)


@settings(max_examples=examples(60))
@given(hand=hands, taken=st.integers(0, 2**20), size=st.integers(3, 4))
def test_group_candidates_adapted_after_cards_are_taken_are_the_fresh_ones(
        hand: tuple[str, int, int, int], taken: int, size: int) -> None:
    """The groups the search offers once the runs took their cards (several kinds, any ranks): adapted from
    the whole hand's list, they are the list made afresh from the cards left."""
    planner, counts = random_hand(*hand)
    for wild in planner.wild_cards:
        counts[wild] = 0
    left = list(counts)
    held = [card for card in range(CARD_COUNT) if counts[card]]
    for bit, card in enumerate(held[:20]):
        if taken >> bit & 1:
            left[card] -= 1
    whole_packed, left_packed = int.from_bytes(bytes(counts), "little"), int.from_bytes(bytes(left), "little")
    melds, new_melds = PartialMelds(planner.variant, 6), PartialMelds(planner.variant, 6)
    whole = melds.groups(size, whole_packed)
    assert melds.groups_left(size, left_packed, whole, whole_packed) == new_melds.groups(size, left_packed)
    added_back = PartialMelds(planner.variant, 6)  # the other way: cards added to a hand
    assert added_back.groups_left(size, whole_packed, new_melds.groups(size, left_packed), left_packed) == whole


@settings(max_examples=examples(40))
@given(hand=hands)
def test_discard_plans_are_the_plans_without_each_card(hand: tuple[str, int, int, int]) -> None:
    planner, counts = random_hand(*hand)
    held = [card for card in range(CARD_COUNT) if counts[card]]
    plans = planner.discard_plans(counts, held)
    whole = planner.analyze(counts)
    spare = [c for c in held if any(leaf[0].count(c) < counts[c] for leaf in whole.leaves)]
    for card in held:
        if card in spare or not spare or len(whole.leaves) >= 48:
            assert plans[card] == planner.without(counts, card)
        else:  # a card every best plan needs: bounded by a spare one
            assert plans[card] == Plan(whole.deficit + 1, frozenset())


def test_table_takes_the_cards_a_lay_off_accepts() -> None:
    for variant_id in VARIANTS:
        variant = get_variant(variant_id)
        game = new_game(variant, 4, seed=3)
        for _ in random_play(game, random.Random(3), policy="steered"):
            if len(game.table) >= 6:
                break
        table = list(game.table)
        assert table, "the random game put melds on the table"
        takes = table_takes(table, variant)
        for card in range(CARD_COUNT):
            expected = False
            for meld in table:
                for end in layoff_ends(meld, card, variant):
                    try:
                        lay_off(meld, card, end, variant)
                    except MeldError:
                        continue
                    expected = True
            assert (card in takes) == expected == fits_table(card, table, variant)
