"""Candidate moves: the honest, documented list that bots, the table and the action space start from.

Simple choices (draw, take, claims, discards, lay-offs, swaps, relocations, purchases) are listed
exhaustively: every legal one, and only legal ones.  Moves with a huge choice space are listed as the
solver finds them: the best lay-down of the contract, single new melds of naturals (``basic`` and melding
after the contract), a few useful rearrangements, and a batch that goes out when the last cards need to be
played together.  Every listed action is legal; a legal composite move need not be listed
(:meth:`rummy.engine.game.Game.check` judges any action).

Some moves are listed without that judgement, being legal by construction, and some rule facts are worked out
a second, faster way; each such shortcut names its reference (the function deciding the rule, and the
rules.md section), and with ``RUMMY_CHECK_SHORTCUTS=1`` the listing runs the references beside them
(:mod:`rummy.engine.shortcut_checks`; the table is in docs/engine.md, "Shortcuts and their references").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, compress
from types import ModuleType

import rummy.engine.backends as backends
import rummy.engine.shortcut_checks as _checks
from rummy.engine.actions import ACTION_FIELDS, Action, Verb, new_action
from rummy.engine.candidates import CandidateMoves, Deferred
from rummy.engine.cards import CARD_COUNT, Card, make_card, rank_of
from rummy.engine.errors import IllegalActionError, MeldError
from rummy.engine.lay_down import best_lay_down, can_lay_down_now, deferrable, slot_counts
from rummy.engine.meld_offers import accepted_cards, accepted_layoffs, may_fit, split_halves, valid_meld
from rummy.engine.meld_rules import compiled_meld_rules, wild_cards
from rummy.engine.melds import MeldSpec, check_book, lay_off, swap_wild
from rummy.engine.memo import memo_table, per_object, put
from rummy.engine.modes import AceMode, BookAceMode, JokerSwap, JokerSwapTiming, LayoffTiming, RearrangeMode
from rummy.engine.rules import APPLY_KIT
from rummy.engine.rules.draw import DRAW_VERBS, draw_error
from rummy.engine.rules.purchase import purchase_allowed
from rummy.engine.rules.table import check_table_play, layoffs_wait
from rummy.engine.solver.native import covers, exists_spec
from rummy.engine.state import GameState, Phase
from rummy.engine.table_offers import SpareBuild, TableOffers, table_offers
from rummy.engine.variants import RoundRules, Slot, Variant

# Members read on every listing, bound once: in Python 3.11 reading a member off its Enum class goes through
# ``EnumType.__getattr__`` and costs several times a module global.
_CLAIM, _DRAW = Phase.CLAIM, Phase.DRAW
_TURN_PHASES = frozenset((Phase.DRAW, Phase.PLAY))
_NO_SWAP, _SWAP_TO_HAND, _RELOCATE = JokerSwap.NONE, JokerSwap.TO_HAND, JokerSwap.RELOCATE_IN_RUN
_NO_REARRANGING = RearrangeMode.NONE
_NEXT_TURN, _SWAP_NEXT_TURN = LayoffTiming.NEXT_TURN, JokerSwapTiming.NEXT_TURN
_LAYOFF, _SWAP, _REARRANGE, _DOWN = Verb.LAYOFF, Verb.SWAP, Verb.REARRANGE, Verb.DOWN


def seats_to_act(game: GameState) -> list[int]:
    """The seats the engine is waiting for."""
    if game.phase is _CLAIM and game.window is not None:
        return game.window.waiting()
    if game.phase in _TURN_PHASES:
        return [game.active]
    return []


def next_seat_to_act(game: GameState) -> int | None:
    """The waiting seat to ask first (None when the engine waits for nobody): in a claim window the first of its
    eligible seats yet to answer, which come in priority order, nearest to the active player's left first (the
    tie-break for simultaneous calls, rules.md §2.8); else the active player."""
    window = game.window
    if game.phase is _CLAIM and window is not None:
        answered = window.answered
        for seat in window.eligible:
            if seat not in answered:
                return seat
        return None
    return game.active if game.phase in _TURN_PHASES else None


def legal_actions(game: GameState, seat: int | None = None) -> CandidateMoves:
    """The candidate moves of ``seat`` (default: every seat to act); see the module docstring."""
    phase = game.phase
    if phase is _CLAIM:
        window = game.window
        assert window is not None
        if seat is not None:
            if seat in window.eligible and seat not in window.answered:
                answers = _CLAIM_ANSWERS.get(seat)
                if answers is None:
                    fresh: list[Action | Deferred] = [*_claim_answers(seat)]
                    answers = put(_CLAIM_ANSWERS, seat, fresh)
                return CandidateMoves(answers, deferred=0)  # shared: a list without deferred entries is never changed
            return CandidateMoves([], deferred=0)
        return CandidateMoves([action for s in window.waiting() for action in _claim_answers(s)], deferred=0)
    if phase not in _TURN_PHASES or (seat is not None and seat != game.active):
        return CandidateMoves([], deferred=0)
    if phase is _DRAW:
        return CandidateMoves(_draw_actions(game), deferred=0)
    moves, deferred = _play_actions(game)
    listing = CandidateMoves(moves, deferred=deferred)
    if _checks.CHECK_SHORTCUTS:
        _checks.check_listing(game, listing)
    return listing


def _play_actions(game: GameState) -> tuple[list[Action | Deferred], int]:
    """The candidate moves of the active player in the play phase, and how many of them are deferred:
    discards, new melds, then table plays (lay-offs, rearrangements, joker swaps) and going out.  Compiled for the
    variants without books (``play_actions.c``, which calls back the steps below that judge in full; None for a state
    it does not read, and this code, the reference, answers)."""
    native = backends.NATIVE
    if native is not None and not game.variant.uses_books:
        listed: tuple[list[Action | Deferred], int] | None = native.play_actions(game, _play_facts(game), _PLAY_KIT)
        if listed is not None:
            return listed
    seat = game.active
    # The card kinds held, ascending: worked out once here for the Python backend, whose every step reads them; the
    # compiled core's steps do not, and where one leaves the answer to Python, that step works them out itself.
    held = _held_kinds(game) if native is None else None
    moves: list[Action | Deferred] = _discards(game, held)
    variant = game.variant
    if variant.uses_books:
        _purchase_actions(game, _held_kinds(game, held), moves)
        return moves, 0
    deferred = _list_new_melds(game, held, moves)
    # The timing rules of rules.table._check_timing (rules.md §3.8, §5.8), tested once for every lay-off listed.
    may_layoff = not variant.layoff_requires_down or game.down[seat]
    swaps = game.down[seat] and variant.joker_swap is not _NO_SWAP
    if not game.table or not (may_layoff or swaps):
        return moves, deferred
    offers = table_offers(game.table, variant)
    next_turn_wait = variant.layoff_timing is _NEXT_TURN and game.down_turn[seat] >= game.own_turns[seat]
    if may_layoff and not next_turn_wait:
        deferred += _list_layoffs_and_rearrangements(game, offers, held, moves)
    if swaps:
        _list_swaps(game, offers, moves)
    if game.sizes[seat] <= 5 and may_layoff:
        _list_going_out(game, held, moves)
    return moves, deferred


def _held_kinds(game: GameState, held: list[Card] | None = None) -> list[Card]:
    """The card kinds the active player holds, ascending: ``held`` when the listing worked them out already."""
    return list(compress(range(CARD_COUNT), game.hands[game.active])) if held is None else held


def _list_new_melds(game: GameState, held: list[Card] | None, moves: list[Action | Deferred]) -> int:
    """Add the lay-down of the contract (or a deferred one) or the single new melds the player may make to
    ``moves``; return how many were deferred."""
    variant = game.variant
    down = game.down[game.active]
    if variant.has_contracts and not down:
        lay_down = _lay_down(game)  # (judged already when it is not deferred)
        if lay_down is not None:
            moves.append(lay_down)
        return 1 if isinstance(lay_down, Deferred) else 0
    if not variant.has_contracts or variant.new_melds_after_laydown:
        _list_single_melds(game, held, moves)
    return 0


def _list_single_melds(game: GameState, held: list[Card] | None, moves: list[Action | Deferred]) -> None:
    """Add the legal single new melds of naturals (free melding, or melding after the contract) to ``moves``."""
    native = backends.NATIVE
    specs = None if native is None else _native_single_melds(native, game)
    _list_judged_melds(game, _single_melds(game, _held_kinds(game, held)) if specs is None else specs, moves)


def _list_judged_melds(game: GameState, specs: Iterable[MeldSpec], moves: list[Action | Deferred]) -> None:
    """Add the new meld of each of ``specs`` (melds the hand holds) the active player may lay now to ``moves``.

    Legal by construction where melding is free (no contract), the turn's meld limit is not reached and no wild is
    owed: a valid meld (:func:`~rummy.engine.meld_offers.valid_meld`) that leaves two cards or more (reference:
    :func:`rummy.engine.rules.table.step_meld` and ``check_completable``, rules.md §2.4, §6.5, §2.10: the cards are
    held, one meld breaks no rule on melds laid together, and a hand of two keeps a discard); any other is judged in
    full."""
    seat = game.active
    variant = game.variant
    limit = variant.max_new_melds_per_turn
    free = not variant.has_contracts and not game.stolen_pending and (limit is None or game.melds_this_turn < limit)
    keeps = game.sizes[seat] - 2
    for spec in specs:
        action = new_action(seat, Verb.MELD, melds=(spec,))
        if (free and len(spec.cards) <= keeps and valid_meld(spec, variant)) or _applies(game, action):
            moves.append(action)


def _list_going_out(game: GameState, held: list[Card] | None, moves: list[Action | Deferred]) -> None:
    """Add the batch of lay-offs that plays every card left to ``moves``, when there is one and it is legal."""
    going_out = _going_out_batch(game, _held_kinds(game, held))
    if going_out is not None and _applies(game, going_out):
        moves.append(going_out)


def _list_layoffs_and_rearrangements(game: GameState, offers: TableOffers, held: list[Card] | None,
                                     moves: list[Action | Deferred]) -> int:
    """Add the legal lay-offs and, where the variant allows them, the rearrangements of the table to
    ``moves`` (the timing is already tested); return how many were deferred."""
    seat = game.active
    hand = game.hands[seat]
    if game.sizes[seat] > 2 and not game.stolen_pending:
        # Legal by construction (reference: rules.table.step_layoff and check_completable, rules.md §2.6,
        # §2.10): the offers are what lay_off takes, the timing is tested above, and a hand of 2+ left
        # always keeps a discard.
        _held_layoffs(moves, hand, seat, offers.layoffs)
    else:
        layoffs: list[Action] = []
        _held_layoffs(layoffs, hand, seat, offers.layoffs)
        wild_takers = _wild_takers(game)
        moves.extend(action for action in layoffs if _layoff_keeps_turn_completable(game, action, wild_takers)
                     or _applies(game, action))
    if game.variant.rearrange_mode is _NO_REARRANGING:
        return 0
    native = backends.NATIVE
    if native is not None:
        listed = _native_rearrangements(native, game, offers, moves)
        if listed is not None:
            return listed
    rearrangements = list(_rearrangements(game, offers, _held_kinds(game, held)))
    moves.extend(rearrangements)
    return sum(1 for move in rearrangements if type(move) is Deferred)


def _list_swaps(game: GameState, offers: TableOffers, moves: list[Action | Deferred]) -> None:
    """Add the legal joker swaps to ``moves`` (to hand: legal at a glance when the wild can be played back
    this turn; relocations in a run: when the player keeps a discard and owes no wild)."""
    seat = game.active
    hand = game.hands[seat]
    variant = game.variant
    owes = game.stolen_pending and variant.stolen_joker_must_be_played  # else owing changes nothing
    swap_now = not (variant.joker_swap_timing is _SWAP_NEXT_TURN and game.down_turn[seat] >= game.own_turns[seat])
    if variant.joker_swap is _RELOCATE and swap_now and game.sizes[seat] >= 3 and not game.stolen_pending:
        # Legal by construction (reference: rules.table.step_move and check_completable, rules.md §3.8, §2.10): every
        # offer is a relocation relocate_wild takes (swap_options), the player is down and may move a wild now, a
        # hand of two cards or more keeps a discard, and a relocation takes no wild from the table to play back.
        _held_swaps(moves, hand, seat, offers.swaps)
        return
    quick = variant.joker_swap is _SWAP_TO_HAND and not owes and game.sizes[seat] >= 3 and swap_now
    if quick and not variant.stolen_joker_must_be_played:
        # Every offer is a swap to hand (swap_options) whose wild need not be played back: legal at a glance, as
        # below (_wild_can_be_played_back answers True).
        _held_swaps(moves, hand, seat, offers.swaps)
        return
    for verb, card, meld_id, end in offers.swaps:
        if hand[card]:
            action = simple_action(seat, verb, card, meld_id, end)
            if (quick and verb is _SWAP and _wild_can_be_played_back(game, meld_id, card)) or _applies(
                    game, action):
                moves.append(action)


def _held_layoffs(out: list[Action | Deferred] | list[Action], hand: list[int], seat: int,
                  offers: list[tuple[Card, int, str | None]]) -> None:
    """Append to ``out`` the lay-off of each of the table's ``offers`` (card, meld id, end) whose card the hand
    holds, in order.  Compiled (``table_plays.c``; the Python pass answers where the core does not: a malformed hand
    or offer)."""
    native = backends.NATIVE
    if native is not None and native.held_actions(out, hand, seat, offers, _LAYOFF, _SIMPLE, simple_action):
        return
    out.extend(simple_action(seat, _LAYOFF, card, meld_id, end) for card, meld_id, end in offers if hand[card])


def _held_swaps(out: list[Action | Deferred], hand: list[int], seat: int,
                offers: list[tuple[Verb, Card, int, str | None]]) -> None:
    """Append to ``out`` the wild swap of each of the table's ``offers`` (verb, card, meld id, end) whose card the
    hand holds, in order.  Compiled as :func:`_held_layoffs` is."""
    native = backends.NATIVE
    if native is not None and native.held_actions(out, hand, seat, offers, None, _SIMPLE, simple_action):
        return
    out.extend(simple_action(seat, verb, card, meld_id, end) for verb, card, meld_id, end in offers if hand[card])


# Actions are immutable, so the simple ones are made once and shared: (seat, verb, card, meld, end) -> action.
_SIMPLE: dict[tuple[int, Verb, Card | None, int | None, str | None], Action] = memo_table("simple actions", 200_000)


def simple_action(seat: int, verb: Verb, card: Card | None = None, meld: int | None = None,
                  end: str | None = None) -> Action:
    """``Action(seat, verb, card=card, meld=meld, end=end)``, shared with every earlier call that asked for it."""
    key = (seat, verb, card, meld, end)
    action = _SIMPLE.get(key)
    if action is None:
        action = put(_SIMPLE, key, new_action(seat, verb, card, meld, end))
    return action


# seat -> its answers to a claim window (the entries of every such list of candidate moves).
_CLAIM_ANSWERS: dict[int, list[Action | Deferred]] = memo_table("claim answers of a seat", 64)


def _claim_answers(seat: int) -> tuple[Action, Action]:
    """``seat``'s answers to a claim window: buy, pass."""
    return simple_action(seat, Verb.BUY), simple_action(seat, Verb.PASS)


def _draw_actions(game: GameState) -> list[Action | Deferred]:
    """The active player's legal draw, take and own buy, in that order (:func:`~rummy.engine.rules.draw.draw_error`
    verb by verb: the reference, rules.md §2.6–2.9).  Compiled (``simple_steps.c``'s ``draw_actions``; None for a
    state it does not read, and Python answers)."""
    seat = game.active
    actions = _DRAW_ACTIONS.get(seat)
    if actions is None:
        actions = put(_DRAW_ACTIONS, seat, tuple(simple_action(seat, verb) for verb in DRAW_VERBS))
    native = backends.NATIVE
    listed: list[Action | Deferred] | None = None if native is None else native.draw_actions(game, actions, APPLY_KIT)
    if listed is not None:
        return listed
    return [action for action in actions if draw_error(game, action.verb) is None]


# seat -> its draw, take and own buy (shared with simple_action).
_DRAW_ACTIONS: dict[int, tuple[Action, ...]] = memo_table("draw actions of a seat", 64)


def _discards(game: GameState, held: list[Card] | None = None) -> list[Action | Deferred]:
    """Every legal discard: each card held (:func:`~rummy.engine.rules.discard.discard_error` card by card,
    worked out once for the hand: the reference, rules.md §2.10)."""
    seat = game.active
    variant = game.variant
    if (game.sizes[seat] == 1 and not game.rules.final_discard_allowed) or (
            game.stolen_pending and variant.stolen_joker_must_be_played):
        return []
    taken = game.taken_card
    if taken is not None and (variant.may_discard_card_taken_from_discard or game.hands[seat][taken] != 1):
        taken = None
    actions = _seat_discards(seat)
    native = backends.NATIVE  # compiled (play_listing.c); None for a malformed hand, and Python answers
    listed: list[Action | Deferred] | None = None if native is None else native.discards(
        game.hands[seat], actions, -1 if taken is None else taken)
    if listed is not None:
        return listed
    return [actions[card] for card in _held_kinds(game, held) if card != taken]


def _seat_discards(seat: int) -> tuple[Action, ...]:
    """The discard of each card kind by ``seat``, in card order (made once)."""
    actions = _DISCARDS.get(seat)
    if actions is None:
        actions = put(_DISCARDS, seat, tuple(simple_action(seat, Verb.DISCARD, card) for card in range(CARD_COUNT)))
    return actions


# seat -> its discard of each card kind (shared with simple_action).
_DISCARDS: dict[int, tuple[Action, ...]] = memo_table("discards of a seat", 64)


def _applies(game: GameState, action: Action) -> bool:
    """Whether the table play ``action`` is legal (judged on a scratch copy of the hand and table by
    :func:`rummy.engine.rules.table.check_table_play`)."""
    if action.verb is _LAYOFF and game.sizes[game.active] > 2 and not game.stolen_pending:
        return True  # legal by construction, as in _play_actions (reference: rules.table.check_table_play)
    try:
        check_table_play(game, action)
    except IllegalActionError:
        return False
    return True


def _wild_takers(game: GameState) -> set[int] | None:
    """For an active player who owes one wild to the table and holds four cards or more: the ids of the melds
    that take a wild the hand holds (:func:`~rummy.engine.table_offers.accepted_layoffs`); else None."""
    if game.stolen_pending != 1 or game.sizes[game.active] < 4 or not game.variant.stolen_joker_must_be_played:
        return None
    hand = game.hands[game.active]
    variant = game.variant
    return {meld.id for meld in game.table
            if any(hand[card] and variant.is_wild(card) for card, _ in accepted_layoffs(meld, variant))}


def _layoff_keeps_turn_completable(game: GameState, action: Action, wild_takers: set[int] | None) -> bool:
    """Whether the lay-off ``action`` (listed from the table's offers, so a legal step) is certainly legal for a
    player who owes a wild to the table (False means "judge it in full").

    With one wild owed and four cards or more, a wild laid off settles the debt and leaves two cards or more;
    a natural laid off leaves the debt, and the play stands when the owed wild can then be laid off (as
    :func:`rummy.engine.rules.table.check_completable` tries): certainly so when a meld other than the one
    played on takes a wild the hand holds, since the others are unchanged, and two cards are left after it.

    Reference: :func:`rummy.engine.rules.table.check_completable` (rules.md §2.10, §3.12 #15).
    """
    if not game.variant.stolen_joker_must_be_played:
        return game.sizes[game.active] > 2
    if wild_takers is None:
        return False
    card = action.card
    assert card is not None
    if game.variant.is_wild(card):
        return True
    return len(wild_takers) > 1 or (len(wild_takers) == 1 and action.meld not in wild_takers)


def _lay_down(game: GameState) -> Action | Deferred | None:
    """The best lay-down of the active player: deferred until read when it is certainly legal, else the
    action when it is legal (judged now), else None.

    Two shortcuts: whether the hand can lay down at all is answered cheaply (:func:`~rummy.engine.lay_down.
    can_lay_down_now`; reference: :func:`rummy.engine.solver.first_lay_down`, rules.md §2.5), and a deferred
    lay-down is not judged (:func:`~rummy.engine.lay_down.deferrable`; reference:
    :func:`rummy.engine.rules.table.step_down` and ``check_completable``, rules.md §2.5, §2.10)."""
    seat = game.active
    rules = game.rules
    variant = game.variant
    hand = tuple(game.hands[seat])
    able = can_lay_down_now(variant, rules.contract, hand, seat)
    if _checks.CHECK_SHORTCUTS:
        _checks.check_lay_down_answer(game, able)
    if not able:
        return None  # the most lenient rules refuse it, so the round's own do too
    if deferrable(game):
        return Deferred(_DOWN, _best_lay_down_action, (seat, variant, rules.contract, hand))
    melds = best_lay_down(variant, rules.contract, hand, final_discard_allowed=rules.final_discard_allowed,
                          must_use_all=rules.must_go_out_on_laydown)
    if melds is None:
        return None
    action = new_action(seat, _DOWN, melds=melds)
    return action if _applies(game, action) else None


def _best_lay_down_action(seat: int, variant: Variant, contract: tuple[Slot, ...], hand: tuple[int, ...]) -> Action:
    """The deferred lay-down's action: the best lay-down of ``contract`` from ``hand``, which can lay it down (a final
    discard allowed, nothing required to be used: deferrable lay-downs are legal whichever melds they lay)."""
    melds = best_lay_down(variant, contract, hand, final_discard_allowed=True, must_use_all=False)
    assert melds is not None, "a hand that can lay the contract down has a best lay-down"
    return new_action(seat, _DOWN, melds=melds)


def _single_melds(game: GameState, held: list[Card]) -> Iterator[MeldSpec]:
    """Every set and run (of naturals) the hand can form on its own."""
    variant = game.variant
    hand = game.hands[game.active]
    naturals = [c for c in held if not variant.is_wild(c)]
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(rank_of(card), []).extend([card] * hand[card])
    for cards in by_rank.values():
        for size in range(variant.group_min, len(cards) + 1):
            for combo in sorted(set(combinations(cards, size))):
                yield MeldSpec("set", combo)
    low_bound = 2 if variant.ace_mode is AceMode.HIGH_ONLY else 1
    high_bound = 13 if variant.ace_mode is AceMode.LOW_ONLY else 14
    for suit in range(4):
        present = [v for v in range(low_bound, high_bound + 1) if hand[make_card(1 if v == 14 else v, suit)]]
        values = set(present)
        for start in present:
            end = start
            while end + 1 in values and not (start == 1 and end + 1 == 14):
                end += 1
                if end - start + 1 >= variant.run_min:
                    yield MeldSpec("run", tuple(make_card(1 if v == 14 else v, suit) for v in range(start, end + 1)))


def _native_single_melds(native: ModuleType, game: GameState) -> list[MeldSpec] | None:
    """:func:`_single_melds` by the compiled core (``basic_melds.c``): the same melds in the same order; None when the
    core does not answer (a run or group minimum below 1 or above 1,000), and the Python generator answers then."""
    variant = game.variant
    melds: list[MeldSpec] | None = native.single_melds(game.hands[game.active], compiled_meld_rules(variant),
                                                       variant.group_min, variant.run_min, _MELD_KIT)
    return melds


#: What the compiled single melds are made with (``basic_melds.c``): the meld's class and its kinds.
_MELD_KIT = (MeldSpec, "set", "run")


def _wild_can_be_played_back(game: GameState, meld_id: int, card: Card) -> bool:
    """Whether swapping ``card`` for a wild of meld ``meld_id`` is certainly legal, for a player who is down,
    may swap now, owes no wild to the table and holds three cards or more: then the swap keeps a discard,
    and the wild it takes, where it must be played again this turn, can be (lay-offs are allowed this turn and
    some wild the hand then holds fits some meld of the table after the swap, as
    :func:`rummy.engine.rules.table.check_completable` tries).  False means "judge it in full".  Reference:
    :func:`rummy.engine.rules.table.step_swap` and ``check_completable`` (rules.md §3.8, §2.10)."""
    variant = game.variant
    if not variant.stolen_joker_must_be_played:
        return True
    seat = game.active
    if layoffs_wait(game, game.down[seat], game.down_turn[seat]):
        return False  # (swapping on the lay-down turn, lay-offs waiting for the next: refused in full)
    meld = next(m for m in game.table if m.id == meld_id)
    try:
        swapped, taken = swap_wild(meld, card, variant, in_groups=variant.joker_swap_in_groups)
    except MeldError:
        return False
    hand = game.hands[game.active]
    wilds = {w for w in wild_cards(variant) if hand[w] - (w == card) + (w == taken) > 0}
    for other in game.table:
        if other is meld:
            for wild in wilds:
                for end in (("low", "high") if swapped.is_run else (None,)):
                    try:
                        lay_off(swapped, wild, end, variant)
                    except MeldError:
                        continue
                    return True
        elif any(accepted in wilds for accepted, _ in accepted_layoffs(other, variant)):
            return True
    return False


def _rearrangements(game: GameState, offers: TableOffers, held: list[Card]) -> Iterator[Action | Deferred]:
    """The legal ones among two useful families: split a run at a card the hand duplicates; pull a spare card
    into a new meld (:class:`~rummy.engine.table_offers.TableOffers`); those legal by construction are
    deferred until read.

    Both are built so that no table card is lost, every new meld keeps a table card and at least one card
    comes from the hand; so for a player who is down, owes no wild to the table and keeps two cards or more,
    a candidate is legal exactly when each of its melds is valid (worked out with the table's offers).  Owing a
    wild matters only where ``stolen_joker_must_be_played``; then a candidate keeping three cards or more is
    legal when, besides, a meld it leaves alone takes a wild the hand holds.  Any other candidate is judged in
    full.  Reference: :func:`rummy.engine.rules.table.step_rearrange` and ``check_completable`` (rules.md §3.8,
    §2.10); a spare-card meld's validity comes from counts (``SpareBuild.valid``; reference:
    :func:`rummy.engine.melds.table_meld`, rules.md §2.4).
    """
    seat = game.active
    hand = game.hands[seat]
    owes = game.stolen_pending and game.variant.stolen_joker_must_be_played
    quick = game.down[seat] and not owes
    # Owing one wild: a candidate that keeps three cards or more is legal when its melds are valid and a meld
    # it leaves alone takes a wild the hand holds (its cards from the hand are naturals: the wilds stay).
    takers = _wild_takers(game) if game.down[seat] and owes else None
    size = game.sizes[seat]
    for target, meld, index in offers.splits:
        if hand[target]:
            halves = split_halves(meld, index, game.variant)
            if halves is None:
                continue
            if (quick and size > 2) or (takers and size > 3 and takers - {meld.id}):
                yield Deferred(_REARRANGE, _split_rearrangement, (seat, meld.id, halves))
            else:
                action = _split_rearrangement(seat, meld.id, halves)
                if _applies(game, action):
                    yield action
    for build in offers.spare_builds(hand, held):
        kept = size - build.from_hand
        if (quick and kept >= 2) or (takers and kept >= 3 and takers.difference(build.sources)):
            if build.valid:
                yield Deferred(_REARRANGE, _spare_rearrangement, (seat, build))
        else:
            action = _spare_rearrangement(seat, build)
            if _applies(game, action):
                yield action


def _native_rearrangements(native: ModuleType, game: GameState, offers: TableOffers,
                           moves: list[Action | Deferred]) -> int | None:
    """:func:`_rearrangements`' rows listed by the compiled core (``rearrangements.c``): the same entries in the same
    order, appended to ``moves``; how many of them are deferred.  None, ``moves`` untouched, when the core does not
    answer (a run or group minimum below 1 or above 1,000, a table of more than 1,024 melds): the Python listing
    answers then (docs/engine.md, "Backends")."""
    seat = game.active
    owes = game.stolen_pending and game.variant.stolen_joker_must_be_played
    takers = None
    if game.down[seat] and owes:
        ids = _wild_takers(game)
        if ids:  # (their places on the table: the core knows the melds by place)
            takers = tuple([index for index, meld in enumerate(game.table) if meld.id in ids])
    listed: int | None = native.rearrangements(moves, game.hands[seat], seat, game.sizes[seat],
                                               game.down[seat] and not owes, takers, game,
                                               offers.native_rearrangements(), offers, _KIT)
    return listed


def _split_rearrangement(seat: int, meld_id: int, halves: tuple[MeldSpec, MeldSpec]) -> Action:
    return new_action(seat, _REARRANGE, melds=halves, sources=(meld_id,))


#: What the compiled listing of rearrangements reads (``rearrangements.c``): the deferred entry's class and the slot
#: descriptors of its verb, maker and arguments (which the C sets), the verb, the action of a split and of a
#: spare-card build, and the full judgement.
_KIT = (Deferred, tuple(Deferred.__dict__[name] for name in ("verb", "make", "args")), _REARRANGE,
        _split_rearrangement, TableOffers.spare_rearrangement, _applies)


def _spare_rearrangement(seat: int, build: SpareBuild) -> Action:
    return new_action(seat, _REARRANGE, melds=build.melds(), sources=build.sources)


def _going_out_batch(game: GameState, held: list[Card]) -> Action | None:
    """A batch of lay-offs that plays every card left, when one exists (small hands)."""
    variant = game.variant
    seat = game.active
    cards = [c for c in held for _ in range(game.hands[seat][c])]
    if len(cards) < 2:
        return None
    native = backends.NATIVE
    if native is not None:  # the search compiled (play_listing.c); None for what it does not read
        found: tuple[int, ...] | bool | None = native.going_out(cards, game.table, compiled_meld_rules(variant))
        if found is not None:
            if found is False or found is True:
                return None
            melds = game.table
            return Action(seat, Verb.BATCH, steps=tuple([
                Action(seat, Verb.LAYOFF, meld=melds[found[2 * at]].id, card=card, end=_ENDS[found[2 * at + 1]])
                for at, card in enumerate(cards)]))
    table = {m.id: m for m in game.table}

    def search(remaining: list[Card], steps: list[Action]) -> list[Action] | None:
        if not remaining:
            return steps
        card = remaining[0]
        wild = variant.is_wild(card)
        for meld_id, meld in table.items():
            if card not in accepted_cards(meld, variant):
                continue  # no end takes it
            for end in (("low", "high") if meld.is_run else (None,)):
                if not may_fit(meld, card, end, wild):
                    continue
                try:
                    grown = lay_off(meld, card, end, variant)
                except MeldError:
                    continue
                table[meld_id] = grown
                found = search(remaining[1:], steps + [Action(seat, Verb.LAYOFF, meld=meld_id, card=card, end=end)])
                table[meld_id] = meld
                if found:
                    return found
        return None

    steps = search(cards, [])
    if steps is None:
        return None
    return Action(seat, Verb.BATCH, steps=tuple(steps))


#: The ends of a lay-off as the compiled search numbers them.
_ENDS = (None, "low", "high")


def _purchase_actions(game: GameState, held: list[Card], moves: list[Action | Deferred]) -> None:
    """Add the purchase variant's own moves to ``moves`` (rules.md §7): the books the hand holds, then, unless the
    player has purchased, traded or exchanged this turn, each purchase, trade and exchange.  Compiled
    (``purchase_moves.c``, which asks :func:`_book_actions` for the books of a hand holding one; the Python listing
    answers where the core does not: a malformed argument)."""
    seat = game.active
    pcs = game.purchase_cards
    assert pcs is not None
    native = backends.NATIVE
    if native is not None and native.purchase_moves(moves, game.hands[seat], seat, pcs, game.discard,
                                                    game.purchase_done, _purchase_rules(game.variant),
                                                    _PURCHASE_KIT, game, held):
        return
    moves.extend(_book_actions(game, held))
    if game.purchase_done:
        return
    variant = game.variant
    pc = pcs[seat]
    for card in sorted(set(game.discard)):
        if purchase_allowed(variant, pc, card):
            for new_pc in sorted(set(held) | {card}):
                moves.append(purchase_action(seat, _PURCHASE, card, None, new_pc))
    for other in range(game.n):
        if other != seat and (not variant.trade_requires_value_rule or purchase_allowed(variant, pc, pcs[other])):
            for new_pc in sorted(set(held) | {pcs[other]}):
                moves.append(purchase_action(seat, _TRADE, None, other, new_pc))
    for new_pc in held:
        if new_pc != pc:
            moves.append(purchase_action(seat, _EXCHANGE, None, None, new_pc))


def _book_actions(game: GameState, held: list[Card]) -> list[Action]:
    """The books the active player's hand holds: each four of its cards that make one (:func:`~rummy.engine.melds.
    check_book`), in the order of a set of them."""
    seat = game.active
    books = []
    for size_four in set(combinations([c for c in held for _ in range(game.hands[seat][c])], 4)):
        try:
            check_book(MeldSpec("book", size_four), game.variant)
        except MeldError:
            continue
        books.append(new_action(seat, Verb.BOOK, melds=(MeldSpec("book", size_four),)))
    return books


# Actions are immutable, so the purchases, trades and exchanges are made once and shared: seat -> its actions, each
# at its place (_purchase_place), None until first made.
_PURCHASES: dict[int, list[Action | None]] = memo_table("purchase actions of a seat", 64)
#: The most seats a trade may target (``purchase_moves.c``'s ``MAX_PLAYERS``); the places of a seat's actions.
_TRADE_TARGETS = 64
_PURCHASE_PLACES = CARD_COUNT * (CARD_COUNT + _TRADE_TARGETS + 1)


def purchase_action(seat: int, verb: Verb, card: Card | None, target: int | None, new_pc: Card) -> Action:
    """``Action(seat, verb, card=card, target=target, new_pc=new_pc)``, shared with every earlier call that asked
    for it."""
    actions = _PURCHASES.get(seat)
    if actions is None:
        unmade: list[Action | None] = [None] * _PURCHASE_PLACES
        actions = put(_PURCHASES, seat, unmade)
    place = _purchase_place(card, target, new_pc)
    action = actions[place]
    if action is None:
        action = actions[place] = new_action(seat, verb, card, target=target, new_pc=new_pc)
    return action


def _purchase_place(card: Card | None, target: int | None, new_pc: Card) -> int:
    """Where a seat's purchase of ``card``, trade with seat ``target`` or exchange (neither given) for the new
    purchase card ``new_pc`` is kept in its list of :data:`_PURCHASES`, as ``purchase_moves.c`` reads it: the
    purchases by card, then the trades by seat, then the exchanges, each by ``new_pc``."""
    if card is not None:
        return card * CARD_COUNT + new_pc
    if target is not None:
        return CARD_COUNT * (CARD_COUNT + target) + new_pc
    return CARD_COUNT * (CARD_COUNT + _TRADE_TARGETS) + new_pc


@per_object("purchase rules of a variant")
def _purchase_rules(variant: Variant) -> int:
    """The variant's purchase rules as ``purchase_moves.c`` reads them: bit 0 ``trade_requires_value_rule``, bit 1
    ``book_ace_mode`` low_or_high, bit 8 + r for each rank r of ``ace_purchasable_by``."""
    rules = int(variant.trade_requires_value_rule) | int(variant.book_ace_mode is BookAceMode.LOW_OR_HIGH) << 1
    for rank in variant.ace_purchasable_by:
        rules |= 1 << (8 + rank)
    return rules


_PURCHASE, _TRADE, _EXCHANGE = Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE
#: What the compiled listing reads and calls back (``purchase_moves.c``): the memo of the shared actions (each seat's
#: list) and their maker, the verbs purchase, trade and exchange, the listing of the books, and what the compiled
#: listing makes an action with itself (the class and its field slots, for ``new_record``).
_PURCHASE_KIT = (_PURCHASES, purchase_action, _PURCHASE, _TRADE, _EXCHANGE, _book_actions, Action, ACTION_FIELDS)


#: The play listing's facts of a round (``play_actions.c``) by the id of its rules: (rules, variant, facts).
_PLAY_FACTS: dict[int, tuple[RoundRules, Variant, tuple[int, bytes | None, bytes, int, int, int, int]]] = memo_table(
    "play listing facts of a round", 256)


def _play_facts(game: GameState) -> tuple[int, bytes | None, bytes, int, int, int, int]:
    """What the compiled play listing reads of the variant and the round's rules: the flags its F_ bits name, in
    that order; the contract as the compiled lay-down search reads it (None where that search does not cover it), the
    meld rules, the contract's run and group slots (for ``lay_down.most_cards_laid``), and the smallest group and run
    (for the single new melds)."""
    rules, variant = game.rules, game.variant
    hit = _PLAY_FACTS.get(id(rules))
    if hit is not None and hit[0] is rules and hit[1] is variant:
        return hit[2]
    holds = (variant.has_contracts, variant.new_melds_after_laydown, variant.layoff_requires_down,
             variant.layoff_timing is _NEXT_TURN, variant.joker_swap is not _NO_SWAP,
             variant.joker_swap is _SWAP_TO_HAND, variant.joker_swap_timing is _SWAP_NEXT_TURN,
             variant.stolen_joker_must_be_played, variant.rearrange_mode is not _NO_REARRANGING,
             variant.may_discard_card_taken_from_discard, rules.final_discard_allowed, rules.must_go_out_on_laydown)
    flags = sum(1 << bit for bit, holding in enumerate(holds) if holding)
    spec = exists_spec(variant, rules.contract) if covers(variant, True, False) else None
    facts = (flags, spec, compiled_meld_rules(variant), *slot_counts(rules.contract), variant.group_min,
             variant.run_min)
    return put(_PLAY_FACTS, id(rules), (rules, variant, facts))[2]


#: What the compiled play listing reads and calls back (``play_actions.c``, its K_ items, in order).
_PLAY_KIT = (_DISCARDS, _seat_discards, _LAYOFF, _SIMPLE, simple_action, Deferred,
             tuple(Deferred.__dict__[name] for name in ("verb", "make", "args")), _DOWN, _best_lay_down_action,
             _lay_down, _list_single_melds, table_offers, _list_layoffs_and_rearrangements, _list_swaps,
             _list_going_out, _KIT, _MELD_KIT, _list_judged_melds)
