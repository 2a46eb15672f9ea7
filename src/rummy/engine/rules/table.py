"""Table plays: lay down, meld, lay off, swap, relocate, rearrange (rules.md §2.7, §3.8, §4–6).

A play is judged on a :class:`TurnScratch`, a copy of the few fields a table play may change; the state
itself is untouched until :func:`commit`.  So :func:`check_table_play` is pure, and applying a play is
checking it and committing the scratch, never doing and undoing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import rummy.engine.backends as backends
from rummy.engine.actions import PLAY_STEP_VERBS, Action, Verb
from rummy.engine.cards import CARD_COUNT, Card, card_name
from rummy.engine.errors import IllegalActionError, MeldError
from rummy.engine.meld_rules import compiled_meld_rules
from rummy.engine.melds import (
    MeldSpec,
    TableMeld,
    lay_off,
    relocate_wild,
    separate_melds_error,
    swap_wild,
    table_meld,
)
from rummy.engine.memo import per_object
from rummy.engine.modes import JokerSwap, LayoffTiming, RearrangeMode
from rummy.engine.state import GameState
from rummy.engine.variants import GROUP, RUN, Variant

_BATCH, _REARRANGE = Verb.BATCH, Verb.REARRANGE  # bound once: an Enum member read off its class is slow in Python 3.11


@dataclass(slots=True)
class TurnScratch:
    """What a table play may change, for the active seat."""

    hand: list[int]
    size: int
    table: list[TableMeld]
    next_meld_id: int
    down: bool
    down_turn: int
    melds_this_turn: int
    stolen_pending: int
    played: bool

    def copy(self) -> TurnScratch:
        return dataclasses.replace(self, hand=list(self.hand), table=list(self.table))


def scratch_of(state: GameState) -> TurnScratch:
    seat = state.active
    return TurnScratch(list(state.hands[seat]), state.sizes[seat], list(state.table), state.next_meld_id,
                       state.down[seat], state.down_turn[seat], state.melds_this_turn, state.stolen_pending,
                       state.played_to_table[seat])


def commit(state: GameState, scratch: TurnScratch) -> None:
    seat = state.active
    state.hands[seat] = scratch.hand
    state.sizes[seat] = scratch.size
    state.table = scratch.table
    state.next_meld_id = scratch.next_meld_id
    state.down[seat] = scratch.down
    state.down_turn[seat] = scratch.down_turn
    state.melds_this_turn = scratch.melds_this_turn
    state.stolen_pending = scratch.stolen_pending
    state.played_to_table[seat] = scratch.played


def _illegal(rule: str, action: Action, reason: str) -> IllegalActionError:
    return IllegalActionError(rule, action, reason)


def check_table_play(state: GameState, action: Action) -> TurnScratch:
    """The table after ``action`` (a table step or a batch of them, judged as a whole); raises
    :class:`IllegalActionError` and changes nothing when it is illegal."""
    native = backends.NATIVE
    if native is not None and action.verb is _REARRANGE:
        # A rearrangement the compiled judgement accepts (rearranged.c, after scratch_of and step_rearrange; a
        # refusal is judged below, which says why).
        judged: TurnScratch | None = native.rearranged(state, action, _rearrangement_rules(state.variant),
                                                       _REARRANGE_KIT)
        if judged is not None:
            check_completable(state, judged, action)
            return judged
    steps = action.steps if action.verb is _BATCH else (action,)
    scratch = scratch_of(state)
    for step in steps:
        if step.verb not in PLAY_STEP_VERBS:
            raise _illegal("batch-step", action, f"{step.verb.value} cannot be part of a batch")
        STEPS[step.verb](state, scratch, step, action)
    check_completable(state, scratch, action)
    return scratch


def check_completable(state: GameState, scratch: TurnScratch, action: Action) -> None:
    """rules.md §2.10: after a play the hand is empty or the turn can still end legally."""
    if scratch.size == 0:
        if state.rules.must_discard_to_go_out:
            raise _illegal("must-discard-to-go-out", action, "a hand may only be emptied by a discard")
        return
    if scratch.stolen_pending and state.variant.stolen_joker_must_be_played:
        # §3.8 #15: the taken wild must leave the hand before the turn ends; the play stands only if the
        # wild can still be laid off this turn (the lay-off timing allowing it) and the turn then ends as
        # below, or the lay-off goes out where going out by a play is allowed (docs/options.md).
        scratch = _with_stolen_wilds_laid_off(state, scratch, action)
        if scratch.size == 0:
            if state.rules.must_discard_to_go_out:
                raise _illegal("stolen-joker-must-be-played", action,
                               "playing the wild taken from the table would empty the hand, and a hand may only "
                               "be emptied by a discard")
            return
    if scratch.size >= 2:
        return  # of two cards or more one is always discardable (only a lone card taken this turn is not)
    if not any(discardable(state, scratch.hand, scratch.size, card) for card in range(CARD_COUNT)
               if scratch.hand[card]):
        if scratch.size == 1 and not state.rules.final_discard_allowed:
            reason = f"it would leave one card and round {state.round_number} has no final discard"
        else:
            reason = f"it would leave only {card_name(state.taken_card or 0)}, taken from the discard pile this turn"
        raise _illegal("turn-not-completable", action, reason)


def _with_stolen_wilds_laid_off(state: GameState, scratch: TurnScratch, action: Action) -> TurnScratch:
    """A scratch in which each wild still owed to the table was laid off on the first meld that takes it; raises
    when a lay-off is not allowed this turn (:func:`layoffs_wait`) or no meld takes the wild."""
    variant = state.variant
    if layoffs_wait(state, scratch.down, scratch.down_turn):
        raise _illegal("stolen-joker-must-be-played", action,
                       "the wild taken from the table could not be played again this turn: "
                       f"p{state.active} may not lay off before the turn after laying down")
    trial = scratch.copy()
    wilds = [card for card in range(CARD_COUNT) if trial.hand[card] and variant.is_wild(card)]
    while trial.stolen_pending:
        placed = False
        for card in wilds:
            if not trial.hand[card]:
                continue
            for index, meld in enumerate(trial.table):
                for end in (("low", "high") if meld.is_run else (None,)):
                    try:
                        trial.table[index] = lay_off(meld, card, end, variant)
                    except MeldError:
                        continue
                    trial.hand[card] -= 1
                    trial.size -= 1
                    trial.stolen_pending -= 1
                    placed = True
                    break
                if placed:
                    break
            if placed:
                break
        if not placed:
            raise _illegal("stolen-joker-must-be-played", action,
                           "the wild taken from the table could not be played again this turn")
    return trial


def layoffs_wait(state: GameState, down: bool, down_turn: int) -> bool:
    """Whether the active player, down (or not) since own turn ``down_turn``, may not lay off this turn: the
    timing :func:`step_layoff` checks (rules.md §3.8)."""
    variant = state.variant
    if variant.layoff_requires_down and not down:
        return True
    return variant.layoff_timing == "next_turn" and down and down_turn >= state.own_turns[state.active]


def discardable(state: GameState, hand: Sequence[int], size: int, card: Card) -> bool:
    """Whether the active player, holding ``hand`` (``size`` cards, ``card`` among them), may discard ``card``."""
    if size == 1 and not state.rules.final_discard_allowed:
        return False
    return not (card == state.taken_card and not state.variant.may_discard_card_taken_from_discard
                and hand[card] == 1)


def _take_cards(state: GameState, scratch: TurnScratch, cards: Sequence[Card], action: Action) -> None:
    hand = scratch.hand
    needed: dict[Card, int] = {}
    for card in cards:
        needed[card] = needed.get(card, 0) + 1
    for card in sorted(needed):
        count = needed[card]
        if count > hand[card]:
            raise _illegal("card-not-in-hand", action,
                           f"p{state.active} holds {hand[card]} × {card_name(card)}, {count} needed")
    for card, count in needed.items():
        hand[card] -= count
    scratch.size -= len(cards)


def _take_card(state: GameState, scratch: TurnScratch, card: Card, action: Action) -> None:
    """:func:`_take_cards` of one card (a lay-off, swap or relocation)."""
    if not scratch.hand[card]:
        raise _illegal("card-not-in-hand", action, f"p{state.active} holds 0 × {card_name(card)}, 1 needed")
    scratch.hand[card] -= 1
    scratch.size -= 1


def _build(state: GameState, scratch: TurnScratch, spec: MeldSpec, action: Action, owner: int | None = None
           ) -> TableMeld:
    """The new meld of ``spec`` with the next meld id, owned by ``owner`` (default: the active player)."""
    try:
        meld = table_meld(spec, state.variant, scratch.next_meld_id, state.active if owner is None else owner, None)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    scratch.next_meld_id += 1
    return meld


def _find_meld(scratch: TurnScratch, number: int | None, action: Action) -> int:
    for index, meld in enumerate(scratch.table):
        if meld.id == number:
            return index
    raise _illegal("no-such-meld", action, f"there is no meld {number} on the table")


def _check_timing(state: GameState, scratch: TurnScratch, action: Action, timing: str, what: str, *,
                  requires_down: bool = True) -> None:
    seat = state.active
    if requires_down and not scratch.down:
        raise _illegal(f"{what}-before-down", action, f"p{seat} has not laid down the contract")
    if timing == "next_turn" and scratch.down and scratch.down_turn >= state.own_turns[seat]:
        raise _illegal(f"{what}-before-next-turn", action, f"p{seat} laid down this turn")


def contract_error(state: GameState, melds: Sequence[TableMeld]) -> str | None:
    """Why ``melds`` do not fill the round's contract, or None."""
    variant = state.variant
    contract = state.rules.contract
    exact = variant.contract_sizes_exact
    for kind in (GROUP, RUN):
        mins = sorted((s.min_size for s in contract if s.kind == kind), reverse=True)
        sizes = sorted((len(m.cards) for m in melds if (m.kind == "run") == (kind == RUN)), reverse=True)
        noun = "run" if kind == RUN else "set"
        if len(sizes) < len(mins):
            return f"the contract needs {len(mins)} {noun}(s), {len(sizes)} given"
        if len(sizes) > len(mins) and not variant.contract_extra_melds:
            return f"the contract has {len(mins)} {noun}(s); extra melds are not allowed"
        if exact:
            remaining = list(sizes)
            for need in mins:
                if need not in remaining:
                    return f"the contract needs a {noun} of exactly {need}"
                remaining.remove(need)
        elif any(size < need for size, need in zip(sizes, mins, strict=False)):
            return f"the melds do not fill the contract ({', '.join(map(str, contract))})"
    return None


def _new_melds(state: GameState, scratch: TurnScratch, specs: Sequence[MeldSpec], action: Action, *,
               contract: bool) -> list[TableMeld]:
    variant = state.variant
    has_pair_slot = any(s.kind == GROUP and s.min_size < variant.group_min for s in state.rules.contract)
    melds = []
    for spec in specs:
        if spec.kind == "book":
            raise _illegal("meld-kind", action, "books belong to the purchase variant")
        if spec.kind == "pair" and not (contract and has_pair_slot):
            raise _illegal("meld-kind", action, "a pair is only a meld where the contract has a pair")
        meld = _build(state, scratch, spec, action)
        if meld.rank == 0 and not meld.is_run and contract and not variant.wild_group_counts_as_set:
            raise _illegal("wild-trio-not-a-set", action, "a trio of wilds does not fill a set of the contract")
        melds.append(meld)
    _take_cards(state, scratch, [c for spec in specs for c in spec.cards], action)
    error = separate_melds_error(melds, variant)
    if error is not None:
        raise _illegal(error[0], action, error[1])
    return melds


def step_down(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    if not state.variant.has_contracts:
        raise _illegal("no-contract", action, f"{state.variant.id} has no contract: use meld")
    if scratch.down:
        raise _illegal("already-down", action, f"p{state.active} has already laid down this round")
    melds = _new_melds(state, scratch, step.melds, action, contract=True)
    error = contract_error(state, melds)
    if error:
        raise _illegal("contract-not-met", action, error)
    if state.rules.must_go_out_on_laydown and scratch.size:
        raise _illegal("must-lay-down-everything", action, "in this round the lay-down must use every card")
    scratch.table.extend(melds)
    scratch.down = True
    scratch.down_turn = state.own_turns[state.active]
    scratch.played = True


def step_meld(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    variant = state.variant
    if variant.has_contracts:
        if not variant.new_melds_after_laydown:
            raise _illegal("no-new-melds", action, "new melds can only be laid as the contract (down)")
        _check_timing(state, scratch, action, variant.layoff_timing, "meld")
    limit = variant.max_new_melds_per_turn
    if limit is not None and scratch.melds_this_turn + len(step.melds) > limit:
        raise _illegal("meld-limit", action, f"at most {limit} new meld(s) per turn")
    melds = _new_melds(state, scratch, step.melds, action, contract=False)
    scratch.table.extend(melds)
    scratch.melds_this_turn += len(melds)
    scratch.played = True


def step_layoff(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    variant = state.variant
    _check_timing(state, scratch, action, variant.layoff_timing, "layoff", requires_down=variant.layoff_requires_down)
    def grow(meld: TableMeld, card: Card) -> tuple[TableMeld, None]:
        return lay_off(meld, card, step.end, variant), None

    card, _ = _play_onto_meld(state, scratch, step, action, grow)
    if scratch.stolen_pending and variant.is_wild(card):
        scratch.stolen_pending -= 1


def step_swap(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    variant = state.variant
    if variant.joker_swap is not JokerSwap.TO_HAND:
        raise _illegal("no-joker-swap", action, f"wild cards on the table cannot be taken in {variant.id}")
    _check_timing(state, scratch, action, variant.joker_swap_timing, "swap")
    _play_onto_meld(state, scratch, step, action,
                    lambda meld, card: swap_wild(meld, card, variant, in_groups=variant.joker_swap_in_groups))
    scratch.stolen_pending += 1


def step_move(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    variant = state.variant
    if variant.joker_swap is not JokerSwap.RELOCATE_IN_RUN:
        raise _illegal("no-wild-relocation", action, f"wild cards on the table cannot be moved in {variant.id}")
    _check_timing(state, scratch, action, variant.joker_swap_timing, "move")
    _play_onto_meld(state, scratch, step, action, lambda meld, card: relocate_wild(meld, card, step.end, variant))


def _play_onto_meld(state: GameState, scratch: TurnScratch, step: Action, action: Action,
                    change: Callable[[TableMeld, Card], tuple[TableMeld, Card | None]]) -> tuple[Card, Card | None]:
    """Play the step's card onto its meld by ``change`` (which returns the new meld and the card, if any, that
    goes to the hand in exchange); returns the card played and that card."""
    index = _find_meld(scratch, step.meld, action)
    card = step.card if step.card is not None else 0
    try:
        meld, to_hand = change(scratch.table[index], card)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    _take_card(state, scratch, card, action)
    scratch.table[index] = meld
    scratch.played = True
    if to_hand is not None:
        scratch.hand[to_hand] += 1
        scratch.size += 1
    return card, to_hand


def step_rearrange(state: GameState, scratch: TurnScratch, step: Action, action: Action) -> None:
    variant = state.variant
    if variant.rearrange_mode is RearrangeMode.NONE:
        raise _illegal("no-rearrange", action, f"melds cannot be rearranged in {variant.id}")
    _check_timing(state, scratch, action, variant.layoff_timing, "rearrange")
    if len(set(step.sources)) != len(step.sources):
        raise _illegal("rearrange-sources", action, "a meld is named twice")
    indexes = [_find_meld(scratch, number, action) for number in step.sources]
    sources = [scratch.table[i] for i in indexes]
    table_cards = sorted(c for m in sources for c in m.cards)
    from_hand = _cards_from_hand(table_cards, [c for spec in step.melds for c in spec.cards], action)
    if variant.rearrange_mode is RearrangeMode.SEED000 and not from_hand:
        raise _illegal("rearrange-needs-hand-card", action, "a rearrangement must play at least one card from the hand")
    for spec in step.melds:
        if spec.kind not in ("set", "run"):
            raise _illegal("meld-kind", action, f"{spec} is not a set or run")
    owners: dict[Card, int] = {}  # each new meld belongs to the owner of its first card that was on the table
    for meld in sources:
        for card in meld.cards:
            owners.setdefault(card, meld.owner)
    new = [_build(state, scratch, spec, action, next((owners[c] for c in spec.cards if c in owners), state.active))
           for spec in step.melds]
    if variant.rearrange_requires_table_card and not _each_keeps_table_card(new, table_cards):
        raise _illegal("rearrange-new-meld", action, "every new meld must contain a card that was on the table")
    _take_cards(state, scratch, from_hand, action)
    scratch.table = [m for i, m in enumerate(scratch.table) if i not in indexes] + new
    scratch.played = True


def _cards_from_hand(table_cards: Sequence[Card], new_cards: Sequence[Card], action: Action) -> list[Card]:
    """The cards (ascending) a rearrangement of ``table_cards`` (ascending) into melds of ``new_cards`` takes from
    the hand; raises when a table card would be left out (naming the lowest)."""
    new = sorted(new_cards)
    from_hand: list[Card] = []
    index, count = 0, len(new)
    for card in table_cards:  # the two ascending lists merged: what ``new`` has beyond the table cards
        while index < count and new[index] < card:
            from_hand.append(new[index])
            index += 1
        if index == count or new[index] != card:
            raise _illegal("rearrange-card-lost", action,
                           f"{card_name(card)} would leave the table: every table card must stay in the new melds")
        index += 1
    from_hand.extend(new[index:])
    return from_hand


def _each_keeps_table_card(melds: Sequence[TableMeld], table_cards: Sequence[Card]) -> bool:
    """Whether every meld can be given a distinct card of ``table_cards`` (bipartite matching)."""
    match: dict[int, int] = {}

    def assign(meld_index: int, seen: set[int]) -> bool:
        for slot, card in enumerate(table_cards):
            if card in melds[meld_index].cards and slot not in seen:
                seen.add(slot)
                if slot not in match or assign(match[slot], seen):
                    match[slot] = meld_index
                    return True
        return False

    return all(assign(i, set()) for i in range(len(melds)))


@per_object("compiled meld rules of a rearrangement")
def _rearrangement_rules(variant: Variant) -> tuple[bytes, int, int, int | None]:
    """What the compiled judgement of a rearrangement reads of ``variant``: its meld rules, as
    :func:`~rummy.engine.meld_rules.compiled_meld_rules` packs them, ``run_min``, ``group_min`` and
    ``wild_group_min``."""
    return compiled_meld_rules(variant), variant.run_min, variant.group_min, variant.wild_group_min


#: What the compiled judgement of a rearrangement makes and compares: the scratch and meld records (as
#: :func:`~rummy.engine.backends.frozen_record` takes them) and the modes it tests.
_REARRANGE_KIT = (TurnScratch, backends.record_slots(TurnScratch), TableMeld, backends.record_slots(TableMeld),
                  RearrangeMode.NONE, RearrangeMode.SEED000, LayoffTiming.NEXT_TURN)

Step = Callable[[GameState, TurnScratch, Action, Action], None]
STEPS: dict[Verb, Step] = {
    Verb.DOWN: step_down,
    Verb.MELD: step_meld,
    Verb.LAYOFF: step_layoff,
    Verb.SWAP: step_swap,
    Verb.MOVE: step_move,
    Verb.REARRANGE: step_rearrange,
}
