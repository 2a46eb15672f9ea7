"""The listing's shortcuts agree with the slow definitions they replace, on states of real games: a table's
offers (lay-offs, spare-card rearrangements) and the refutation of a lay-down without the solver."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rummy.engine import lay_down
from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT, Card, make_card, rank_of
from rummy.engine.contract_bound import short_of_wilds
from rummy.engine.deadlock import Spare, table_spares
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.meld_offers import accepted_layoffs, split_halves, valid_meld
from rummy.engine.meld_rules import wild_flags
from rummy.engine.melds import MeldSpec, TableMeld
from rummy.engine.modes import WildPolicy
from rummy.engine.shortcut_checks import every_layoff
from rummy.engine.solver import first_lay_down
from rummy.engine.table_offers import table_offers
from rummy.engine.variants import Variant
from tests.random_games import random_play

VARIANTS = ["progressive-buy-it", "progressive-15", "may-i", "basic"]


def uniform_states(variant: str, seed: int, decisions: int,
                   options: dict[str, object] | None = None) -> Iterator[tuple[Game, int]]:
    """(game, seat to act) along a uniformly random game (hands grow large, tables fill)."""
    game = new_game(variant, 4, seed=seed, options=options)
    for turn in random_play(game, random.Random(seed), decisions=decisions):
        yield game, turn.seat


def _free(spares: list[Spare], used: list[Spare]) -> Spare | None:
    """The first of ``spares`` from a meld no spare in ``used`` comes from."""
    for spare in spares:
        meld_id = spare[0].id
        if all(meld_id != u[0].id for u in used):
            return spare
    return None


def simple_spare_builds(table: list[TableMeld], variant: Variant,
                        supply: list[int]) -> Iterator[tuple[list[Spare], tuple[Card, ...], str]]:
    """The spare-card rearrangements of :class:`rummy.engine.deadlock.SpareBuilds`, found the plain way (no memo,
    no bit sets): ``(spares used, cards of the new meld, kind)`` in its order."""
    spares, wild_spares, by_card, by_rank = table_spares(table, variant)
    if not spares:
        return
    wild = wild_flags(variant)
    group_min = variant.group_min
    not_outnumber = variant.wild_policy is WildPolicy.NOT_OUTNUMBER
    own_by_rank: dict[int, list[Card]] = {}
    for card in _BY_RANK_ORDER:  # by rank, then suit: the order the cards of a set are listed in
        if supply[card] and not wild[card]:
            own_by_rank.setdefault(rank_of(card), []).extend([card] * supply[card])
    for rank, own in own_by_rank.items():
        used: list[Spare] = []
        for spare in by_rank.get(rank, []) + wild_spares:
            if len(own) + len(used) >= group_min and used:
                break
            if all(spare[0].id != u[0].id for u in used):
                used.append(spare)
        if not used or len(own) + len(used) < group_min:
            continue
        wild_count = sum(1 for u in used if wild[u[1]])
        if not_outnumber and wild_count > len(own) + len(used) - wild_count:
            continue
        yield used, tuple(own) + tuple(u[1] for u in used), "set"
    low_bound, high_bound = variant.ace_mode.run_bounds
    run_min = variant.run_min
    for suit in range(4):
        row = _ROWS[suit]
        own_here = [supply[card] > 0 and not wild[card] for card in row]
        if not any(own_here):
            continue
        for low in range(low_bound, high_bound - run_min + 2):
            if True not in own_here[low:low + run_min]:
                continue
            cards: list[Card] = []
            used = []
            for value in range(low, low + run_min):
                card = row[value]
                if own_here[value]:
                    cards.append(card)
                    continue
                pick = _free(by_card.get(card, []), used) or _free(wild_spares, used)
                if pick is None:
                    break
                used.append(pick)
                cards.append(pick[1])
            else:
                wild_count = sum(1 for c in cards if wild[c])
                if used and not (not_outnumber and wild_count > len(cards) - wild_count):
                    yield used, tuple(cards), "run"


# Cards by rank, then suit; and per suit the card at each run value 1…14 (value 14 is the ace again).
_BY_RANK_ORDER = tuple(make_card(rank, suit) for rank in range(1, 14) for suit in range(4))
_ROWS = tuple(tuple(make_card(1 if value == 14 else max(value, 1), suit) for value in range(15)) for suit in range(4))


# House rules that change which spare-card melds are valid: the wild policy, wild twos natural in place.
WILD_RULE_MIXES = [("progressive-15", {"wild_policy": "not_outnumber", "twos_natural_in_place": True}),
                   ("progressive-buy-it", {"wild_policy": "at_most_one"}),
                   ("may-i", {"twos_natural_in_place": True}), ("may-i", {"wild_policy": "none"})]


@pytest.mark.parametrize(("variant", "options"), [(variant, {}) for variant in VARIANTS] + WILD_RULE_MIXES)
def test_table_offers_agree_with_trying_every_card_and_every_spare_build(variant: str,
                                                                       options: dict[str, object]) -> None:
    tables = 0
    for game, seat in uniform_states(variant, 1, 700, options):
        if game.phase is not Phase.PLAY or not game.table:
            continue
        tables += 1
        for meld in game.table:
            assert list(accepted_layoffs(meld, game.variant)) == every_layoff(meld, game.variant)
        hand = game.hands[seat]
        held = [card for card in range(CARD_COUNT) if hand[card]]
        slow = []
        for used, cards, kind in simple_spare_builds(game.table, game.variant, hand):
            rests = tuple(MeldSpec(m.kind if m.kind != "pair" else "set", rest) for m, _, rest in used)
            slow.append((tuple(m.id for m, _, _ in used), (*rests, MeldSpec(kind, cards)), len(cards) - len(used)))
        builds = list(table_offers(game.table, game.variant).spare_builds(hand, held))
        assert [(build.sources, build.melds(), build.from_hand) for build in builds] == slow
        for build in builds:  # judged from counts: as valid as its melds written out
            assert build.valid == all(valid_meld(meld, game.variant) for meld in build.melds())
    assert tables > 50


@pytest.mark.parametrize("variant", ["progressive-buy-it", "progressive-15", "may-i"])
def test_a_refuted_hand_cannot_lay_down(variant: str) -> None:
    refuted = 0
    rng = random.Random(7)
    for game, seat in uniform_states(variant, 2, 500):
        if game.phase is not Phase.PLAY or game.down[seat]:
            continue
        contract, rules = game.rules.contract, game.variant
        hand = list(game.hands[seat])
        if first_lay_down(hand, contract, rules) is not None:
            continue
        known = (sum(hand), tuple(hand))
        for _ in range(20):  # the hand plus one to three cards of the pack
            grown = list(hand)
            for card in rng.sample(range(CARD_COUNT), rng.randint(1, 3)):
                grown[card] += 1
            if lay_down._refuted_by(rules, contract, grown, sum(grown), known):
                refuted += 1
                assert first_lay_down(grown, contract, rules) is None
            assert lay_down.can_lay_down_now(rules, contract, grown, seat) == (
                first_lay_down(grown, contract, rules) is not None)
    assert refuted > 20


@pytest.mark.parametrize("options", [{}, {"stolen_joker_must_be_played": True}])
def test_the_listed_wild_swaps_are_exactly_the_legal_ones(options: dict[str, object]) -> None:
    swaps = 0
    for seed in range(3):
        game = new_game("progressive-buy-it", 4, seed=seed, options=options)
        for turn in random_play(game, random.Random(seed), decisions=1500):
            seat = turn.seat
            if game.phase is Phase.PLAY:
                listed = {a for a in turn.moves if a.verb is Verb.SWAP}
                legal = {a for meld in game.table for card in range(52) if game.hands[seat][card]
                         for a in [Action(seat, Verb.SWAP, card=card, meld=meld.id)] if game.is_legal(a)}
                assert listed == legal
                swaps += len(listed)
    assert swaps > 20


@pytest.mark.parametrize(("variant", "options"), [("progressive-buy-it", {}), ("progressive-15", {}), ("may-i", {}),
                                                  ("may-i", {"twos_natural_in_place": True})])
def test_a_hand_short_of_wilds_cannot_lay_down(variant: str, options: dict[str, object]) -> None:
    """The count bound never refutes a hand the solver can lay down, on random hands of every size and
    contract (and it does refute most hands that cannot)."""
    rules = get_variant(variant, options)
    rng = random.Random(3)
    pack = [card for card, count in enumerate(new_game(variant, 4).pack) for _ in range(count)]
    refuted = unable = 0
    for _ in range(400):
        contract = rules.round_rules(rng.randint(1, len(rules.rounds)), 4).contract
        hand = [0] * CARD_COUNT
        for card in rng.sample(pack, rng.randint(3, 30)):
            hand[card] += 1
        possible = first_lay_down(hand, contract, rules) is not None
        if short_of_wilds(rules, contract, hand):
            refuted += 1
            assert not possible, (hand, contract)
        unable += not possible
    assert refuted > unable // 2


@pytest.mark.parametrize("options", [{}, {"stolen_joker_must_be_played": True}])
def test_the_listed_layoffs_of_a_player_owing_a_wild_are_exactly_the_legal_ones(options: dict[str, object]) -> None:
    """Steered play swaps wilds off the table and then plays on it: while a wild is owed, the lay-offs and
    rearrangements listed (most without a full judgement) are the offered ones ``is_legal`` accepts."""
    owing = 0
    for seed in range(4):
        game = new_game("progressive-buy-it", 4, seed=seed, options=options)
        for turn in random_play(game, random.Random(seed), policy="steered"):
            seat, moves = turn.seat, turn.moves
            if game.phase is Phase.PLAY and game.stolen_pending and game.down[seat]:
                listed = [a for a in moves if a.verb is Verb.LAYOFF]
                offered = [Action(seat, Verb.LAYOFF, card=card, meld=meld.id, end=end) for meld in game.table
                           for card, end in accepted_layoffs(meld, game.variant) if game.hands[seat][card]]
                assert listed == [a for a in offered if game.is_legal(a)]
                hand = game.hands[seat]
                held = [card for card in range(CARD_COUNT) if hand[card]]
                offers = table_offers(game.table, game.variant)
                candidates = [Action(seat, Verb.REARRANGE, sources=(meld.id,), melds=halves)
                              for target, meld, index in offers.splits
                              if hand[target] and (halves := split_halves(meld, index, game.variant)) is not None]
                candidates += [Action(seat, Verb.REARRANGE, sources=build.sources, melds=build.melds())
                               for build in offers.spare_builds(hand, held)]
                assert [a for a in moves if a.verb is Verb.REARRANGE] == [a for a in candidates if game.is_legal(a)]
                owing += 1
    assert owing > 20


@pytest.mark.parametrize(("variant", "options"), [(variant, {}) for variant in VARIANTS] + WILD_RULE_MIXES)
def test_no_candidate_move_is_listed_twice(variant: str, options: dict[str, object]) -> None:
    """A set holding several wilds offers each natural of its rank once for a swap, not once per wild."""
    for game, seat in uniform_states(variant, 2, 1500, options):
        moves = list(game.legal_actions(seat))
        assert len(set(moves)) == len(moves), [str(a) for a in moves if moves.count(a) > 1]
