"""The play phase: lay down, meld, lay off, swap, relocate, rearrange, discard, purchase, book.

Every function validates before it changes anything; table steps (and batches of them) run on
the live state behind a cheap undo record and are rolled back when a step or the
turn-completability invariant (rules.md §2.10) fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummy.actions import PLAY_STEP_VERBS, Action, Verb
from rummy.cards import CARD_COUNT, Card, card_name, rank_of, to_counts
from rummy.deadlock import is_deadlocked, is_stalemate
from rummy.errors import IllegalActionError, MeldError
from rummy.melds import (
    MeldSpec,
    TableMeld,
    lay_off,
    relocate_wild,
    separate_melds_error,
    swap_wild,
    table_meld,
)
from rummy.variants import GROUP, RUN, Variant

if TYPE_CHECKING:
    from rummy.game import Game


def _illegal(rule: str, action: Action, reason: str) -> IllegalActionError:
    return IllegalActionError(rule, str(action), reason)


def play(game: Game, action: Action) -> None:
    """Apply a play-phase ``action`` of the active player."""
    verb = action.verb
    if verb is Verb.DISCARD:
        discard(game, action)
    elif verb in (Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE):
        purchase_step(game, action)
    elif verb is Verb.BOOK:
        book(game, action)
    elif verb in PLAY_STEP_VERBS or verb is Verb.BATCH:
        table_play(game, action)
    else:
        raise _illegal("wrong-phase", action, f"{verb.value} is not a play")


# -- table plays ----------------------------------------------------------------------------


@dataclass(slots=True)
class TurnUndo:
    """What table steps may change, saved so a rejected step or batch can be rolled back."""

    hand: list[int]
    size: int
    table: list[TableMeld]
    next_meld_id: int
    down: bool
    down_turn: int
    melds_this_turn: int
    stolen_pending: int
    played_to_table: bool


def _save(game: Game) -> TurnUndo:
    seat = game.active
    return TurnUndo(list(game.hands[seat]), game.sizes[seat], list(game.table), game.next_meld_id,
                    game.down[seat], game.down_turn[seat], game.melds_this_turn, game.stolen_pending,
                    game.played_to_table[seat])


def _restore(game: Game, saved: TurnUndo) -> None:
    seat = game.active
    game.hands[seat] = saved.hand
    game.sizes[seat] = saved.size
    game.table = saved.table
    game.next_meld_id = saved.next_meld_id
    game.down[seat] = saved.down
    game.down_turn[seat] = saved.down_turn
    game.melds_this_turn = saved.melds_this_turn
    game.stolen_pending = saved.stolen_pending
    game.played_to_table[seat] = saved.played_to_table


def table_play(game: Game, action: Action) -> None:
    """A table step or a batch of them, judged as a whole."""
    steps = action.steps if action.verb is Verb.BATCH else (action,)
    saved = _save(game)
    try:
        for step in steps:
            if step.verb not in PLAY_STEP_VERBS:
                raise _illegal("batch-step", action, f"{step.verb.value} cannot be part of a batch")
            STEPS[step.verb](game, step, action)
        check_completable(game, action)
    except IllegalActionError:
        _restore(game, saved)
        raise
    if game.sizes[game.active] == 0:
        game._end_round("out", game.active)


def check_completable(game: Game, action: Action) -> None:
    """rules.md §2.10: after a play the hand is empty or holds a card that may be discarded."""
    seat = game.active
    size = game.sizes[seat]
    if size == 0:
        if game.rules.must_discard_to_go_out:
            raise _illegal("must-discard-to-go-out", action, "a hand may only be emptied by a discard")
        return
    if game.stolen_pending and game.variant.stolen_joker_must_be_played:
        raise _illegal("stolen-joker-must-be-played", action, "a taken joker must be played in the same action")
    if not any(discardable(game, card) for card in range(CARD_COUNT) if game.hands[seat][card]):
        if size == 1 and not game.rules.final_discard_allowed:
            reason = f"it would leave one card and round {game.round_number} has no final discard"
        else:
            reason = f"it would leave only {card_name(game.taken_card or 0)}, taken from the discard pile this turn"
        raise _illegal("turn-not-completable", action, reason)


def discardable(game: Game, card: Card) -> bool:
    """Whether the active player may discard ``card`` (held) now."""
    seat = game.active
    if game.sizes[seat] == 1 and not game.rules.final_discard_allowed:
        return False
    return not (
        card == game.taken_card
        and not game.variant.may_discard_card_taken_from_discard
        and game.hands[seat][card] == 1
    )


def _take_cards(game: Game, cards: Sequence[Card], action: Action) -> None:
    hand = game.hands[game.active]
    needed = to_counts(cards)
    for card, count in enumerate(needed):
        if count > hand[card]:
            raise _illegal(
                "card-not-in-hand", action,
                f"p{game.active} holds {hand[card]} × {card_name(card)}, {count} needed",
            )
    for card, count in enumerate(needed):
        if count:
            hand[card] -= count
    game.sizes[game.active] -= len(cards)


def _build(game: Game, spec: MeldSpec, action: Action, min_size: int | None = None) -> TableMeld:
    try:
        meld = table_meld(spec, game.variant, game.next_meld_id, game.active, min_size)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    game.next_meld_id += 1
    return meld


def _find_meld(game: Game, number: int | None, action: Action) -> int:
    for index, meld in enumerate(game.table):
        if meld.id == number:
            return index
    raise _illegal("no-such-meld", action, f"there is no meld {number} on the table")


def _check_timing(game: Game, action: Action, timing: str, what: str, *, requires_down: bool = True) -> None:
    seat = game.active
    if requires_down and not game.down[seat]:
        raise _illegal(f"{what}-before-down", action, f"p{seat} has not laid down the contract")
    if timing == "next_turn" and game.down[seat] and game.down_turn[seat] >= game.own_turns[seat]:
        raise _illegal(
            f"{what}-before-next-turn", action,
            f"p{seat} laid down this turn [round {game.round_number}]",
        )


def _contract_error(game: Game, melds: Sequence[TableMeld]) -> str | None:
    variant = game.variant
    contract = game.rules.contract
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


def _check_separate_melds(game: Game, melds: Sequence[TableMeld], action: Action) -> None:
    error = separate_melds_error(melds, game.variant)
    if error is not None:
        rule, reason = error
        raise _illegal(rule, action, reason)


def _new_melds(game: Game, specs: Sequence[MeldSpec], action: Action, *, contract: bool) -> list[TableMeld]:
    has_pair_slot = any(s.kind == GROUP and s.min_size < game.variant.group_min for s in game.rules.contract)
    melds = []
    for spec in specs:
        if spec.kind == "book":
            raise _illegal("meld-kind", action, "books belong to the purchase variant")
        if spec.kind == "pair" and not (contract and has_pair_slot):
            raise _illegal("meld-kind", action, "a pair is only a meld where the contract has a pair")
        meld = _build(game, spec, action)
        if meld.rank == 0 and not meld.is_run and contract and not game.variant.wild_group_counts_as_set:
            raise _illegal("wild-trio-not-a-set", action, "a trio of wilds does not fill a set of the contract")
        melds.append(meld)
    _take_cards(game, [c for spec in specs for c in spec.cards], action)
    _check_separate_melds(game, melds, action)
    return melds


def step_down(game: Game, step: Action, action: Action) -> None:
    seat = game.active
    if not game.variant.has_contracts:
        raise _illegal("no-contract", action, f"{game.variant.id} has no contract: use meld")
    if game.down[seat]:
        raise _illegal("already-down", action, f"p{seat} has already laid down this round")
    melds = _new_melds(game, step.melds, action, contract=True)
    error = _contract_error(game, melds)
    if error:
        raise _illegal("contract-not-met", action, error)
    if game.rules.must_go_out_on_laydown and game.sizes[seat]:
        raise _illegal("must-lay-down-everything", action, "in this round the lay-down must use every card")
    game.table.extend(melds)
    game.down[seat] = True
    game.down_turn[seat] = game.own_turns[seat]
    game.played_to_table[seat] = True


def step_meld(game: Game, step: Action, action: Action) -> None:
    variant = game.variant
    seat = game.active
    if variant.has_contracts:
        if not variant.new_melds_after_laydown:
            raise _illegal("no-new-melds", action, "new melds can only be laid as the contract (down)")
        _check_timing(game, action, variant.layoff_timing, "meld")
    limit = variant.max_new_melds_per_turn
    if limit is not None and game.melds_this_turn + len(step.melds) > limit:
        raise _illegal("meld-limit", action, f"at most {limit} new meld(s) per turn")
    melds = _new_melds(game, step.melds, action, contract=False)
    game.table.extend(melds)
    game.melds_this_turn += len(melds)
    game.played_to_table[seat] = True


def step_layoff(game: Game, step: Action, action: Action) -> None:
    variant = game.variant
    _check_timing(game, action, variant.layoff_timing, "layoff", requires_down=variant.layoff_requires_down)
    index = _find_meld(game, step.meld, action)
    card = step.card if step.card is not None else 0
    try:
        meld = lay_off(game.table[index], card, step.end, variant)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    _take_cards(game, [card], action)
    game.table[index] = meld
    game.played_to_table[game.active] = True
    if variant.is_wild(card) and game.stolen_pending:
        game.stolen_pending -= 1


def step_swap(game: Game, step: Action, action: Action) -> None:
    variant = game.variant
    if variant.joker_swap != "to_hand":
        raise _illegal("no-joker-swap", action, f"wild cards on the table cannot be taken in {variant.id}")
    _check_timing(game, action, variant.joker_swap_timing, "swap")
    index = _find_meld(game, step.meld, action)
    card = step.card if step.card is not None else 0
    try:
        meld, wild = swap_wild(game.table[index], card, variant, in_groups=variant.joker_swap_in_groups)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    _take_cards(game, [card], action)
    game.table[index] = meld
    game.hands[game.active][wild] += 1
    game.sizes[game.active] += 1
    game.stolen_pending += 1
    game.played_to_table[game.active] = True


def step_move(game: Game, step: Action, action: Action) -> None:
    variant = game.variant
    if variant.joker_swap != "relocate_in_run":
        raise _illegal("no-wild-relocation", action, f"wild cards on the table cannot be moved in {variant.id}")
    _check_timing(game, action, variant.joker_swap_timing, "move")
    index = _find_meld(game, step.meld, action)
    card = step.card if step.card is not None else 0
    try:
        meld, to_hand = relocate_wild(game.table[index], card, step.end, variant)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    _take_cards(game, [card], action)
    game.table[index] = meld
    if to_hand is not None:
        game.hands[game.active][to_hand] += 1
        game.sizes[game.active] += 1
    game.played_to_table[game.active] = True


def step_rearrange(game: Game, step: Action, action: Action) -> None:
    variant = game.variant
    if variant.rearrange_mode == "none":
        raise _illegal("no-rearrange", action, f"melds cannot be rearranged in {variant.id}")
    _check_timing(game, action, variant.layoff_timing, "rearrange")
    if len(set(step.sources)) != len(step.sources):
        raise _illegal("rearrange-sources", action, "a meld is named twice")
    indexes = [_find_meld(game, number, action) for number in step.sources]
    sources = [game.table[i] for i in indexes]
    source_counts = to_counts([c for m in sources for c in m.cards])
    result_counts = to_counts([c for spec in step.melds for c in spec.cards])
    from_hand: list[Card] = []
    for card in range(CARD_COUNT):
        extra = result_counts[card] - source_counts[card]
        if extra < 0:
            raise _illegal(
                "rearrange-card-lost", action,
                f"{card_name(card)} would leave the table: every table card must stay in the new melds",
            )
        from_hand.extend([card] * extra)
    if variant.rearrange_mode == "seed000" and not from_hand:
        raise _illegal("rearrange-needs-hand-card", action, "a rearrangement must play at least one card from the hand")
    for spec in step.melds:
        if spec.kind not in ("set", "run"):
            raise _illegal("meld-kind", action, f"{spec} is not a set or run")
    new = [_build(game, spec, action) for spec in step.melds]
    if variant.rearrange_requires_table_card and not _each_keeps_table_card(new, source_counts):
        raise _illegal("rearrange-new-meld", action, "every new meld must contain a card that was on the table")
    _take_cards(game, from_hand, action)
    owners: dict[Card, int] = {}
    for meld in sources:
        for card in meld.cards:
            owners.setdefault(card, meld.owner)
    new = [
        TableMeld(m.id, m.kind, next((owners[c] for c in m.cards if c in owners), game.active),
                  m.cards, m.rank, m.suit, m.low, m.wilds)
        for m in new
    ]
    game.table = [m for i, m in enumerate(game.table) if i not in indexes] + new
    game.played_to_table[game.active] = True


def _each_keeps_table_card(melds: Sequence[TableMeld], source_counts: Sequence[int]) -> bool:
    """Whether every meld can be given a distinct table card (bipartite matching)."""
    slots = [card for card, count in enumerate(source_counts) for _ in range(count)]
    match: dict[int, int] = {}

    def assign(meld_index: int, seen: set[int]) -> bool:
        for slot, card in enumerate(slots):
            if card in melds[meld_index].cards and slot not in seen:
                seen.add(slot)
                if slot not in match or assign(match[slot], seen):
                    match[slot] = meld_index
                    return True
        return False

    return all(assign(i, set()) for i in range(len(melds)))


STEPS = {
    Verb.DOWN: step_down,
    Verb.MELD: step_meld,
    Verb.LAYOFF: step_layoff,
    Verb.SWAP: step_swap,
    Verb.MOVE: step_move,
    Verb.REARRANGE: step_rearrange,
}

# -- discard ---------------------------------------------------------------------------------


def discard_error(game: Game, card: Card) -> tuple[str, str] | None:
    """Why the active player may not discard ``card`` now (rule, reason), or None."""
    seat = game.active
    if not game.hands[seat][card]:
        return "card-not-in-hand", f"p{seat} does not hold {card_name(card)}"
    if game.sizes[seat] == 1 and not game.rules.final_discard_allowed:
        return "no-final-discard", f"round {game.round_number} has no final discard: go out by playing"
    if not discardable(game, card):
        return "discard-taken-card", f"{card_name(card)} was taken from the discard pile this turn"
    if game.stolen_pending and game.variant.stolen_joker_must_be_played:
        return "stolen-joker-must-be-played", "the taken joker must be played this turn"
    return None


def discard(game: Game, action: Action) -> None:
    seat = game.active
    card = action.card if action.card is not None else 0
    error = discard_error(game, card)
    if error is not None:
        raise _illegal(error[0], action, error[1])
    hand = game.hands[seat]
    hand[card] -= 1
    game.sizes[seat] -= 1
    game.discard.append(card)
    game.discarders.append(seat)
    game.dead = False
    if game.sizes[seat] == 0:
        game._end_round("out", seat)
        return
    if game.variant.stalemate_detection and is_stalemate(game):
        game._end_round("stalemate", None)
        return
    if game.variant.has_contracts and is_deadlocked(game):
        game._end_round("exhausted", None)
        return
    game._start_turn((seat + 1) % game.n)


# -- purchase --------------------------------------------------------------------------------


def purchase_allowed(variant: Variant, pc: Card, target: Card) -> bool:
    """rules.md §7.4: may purchase card ``pc`` buy ``target``?"""
    pc_rank, target_rank = rank_of(pc), rank_of(target)
    if target_rank == 1:
        return pc_rank in variant.ace_purchasable_by
    pc_value = 14 if pc_rank == 1 else pc_rank
    return target_rank <= pc_value


def purchase_step(game: Game, action: Action) -> None:
    variant = game.variant
    seat = game.active
    if variant.scoring != "book" or game.purchase_cards is None:
        raise _illegal("verb-not-in-variant", action, f"{action.verb.value} belongs to the purchase variant")
    if game.purchase_done:
        raise _illegal("one-action-per-turn", action, "only one purchase, trade or exchange per turn")
    hand = game.hands[seat]
    old_pc = game.purchase_cards[seat]
    new_pc = action.new_pc if action.new_pc is not None else 0
    if action.verb is Verb.PURCHASE:
        card = action.card if action.card is not None else 0
        if card not in game.discard:
            raise _illegal("not-in-discard", action, f"{card_name(card)} is not in the discard pile")
        if not purchase_allowed(variant, old_pc, card):
            raise _illegal("purchase-value", action, f"{card_name(old_pc)} cannot purchase {card_name(card)}")
        if not (hand[new_pc] or new_pc == card):
            raise _illegal("card-not-in-hand", action, f"{card_name(new_pc)} is not in p{seat}'s hand")
        index = len(game.discard) - 1 - game.discard[::-1].index(card)
        if variant.pc_discard_position == "in_place":
            game.discard[index] = old_pc
            game.discarders[index] = seat
        else:
            del game.discard[index]
            del game.discarders[index]
            game.discard.append(old_pc)
            game.discarders.append(seat)
        hand[card] += 1
    elif action.verb is Verb.TRADE:
        target = action.target if action.target is not None else seat
        if target == seat:
            raise _illegal("trade-self", action, "trade with another player")
        their_pc = game.purchase_cards[target]
        if variant.trade_requires_value_rule and not purchase_allowed(variant, old_pc, their_pc):
            raise _illegal("purchase-value", action, f"{card_name(old_pc)} cannot purchase {card_name(their_pc)}")
        if not (hand[new_pc] or new_pc == their_pc):
            raise _illegal("card-not-in-hand", action, f"{card_name(new_pc)} is not in p{seat}'s hand")
        game.purchase_cards[target] = old_pc
        hand[their_pc] += 1
    else:
        if new_pc == old_pc:
            raise _illegal("exchange-same-card", action, "the new purchase card must be a different card")
        if not hand[new_pc]:
            raise _illegal("card-not-in-hand", action, f"{card_name(new_pc)} is not in p{seat}'s hand")
        hand[old_pc] += 1
    hand[new_pc] -= 1
    game.purchase_cards[seat] = new_pc
    game.purchase_done = True


def book(game: Game, action: Action) -> None:
    if game.variant.scoring != "book":
        raise _illegal("verb-not-in-variant", action, "books belong to the purchase variant")
    spec = action.melds[0]
    seat = game.active
    try:
        meld = table_meld(MeldSpec("book", spec.cards), game.variant, game.next_meld_id, seat)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    _take_cards(game, spec.cards, action)
    game.next_meld_id += 1
    game.table.append(meld)
    rest = [card for card in range(CARD_COUNT) for _ in range(game.hands[seat][card])]
    game.hands[seat] = [0] * CARD_COUNT
    game.sizes[seat] = 0
    game.discard.extend(rest)
    game.discarders.extend([seat] * len(rest))
    game._end_round("book", seat)

