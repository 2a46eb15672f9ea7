"""The form of an action: what its verb reads is of the kind the rules take (docs/game-record.md's notation).

The parser and the engine only make well-formed actions; one built by hand may hold anything.  Its fields are
judged here before any rule reads them, so that a card out of range never indexes a hand from its end, an unknown
end is never logged, and a seat of another type never reaches a claim window: :func:`form_error` says what is wrong
(the rule ``no-such-card`` for a card or declared rank out of range, ``wrong-seat`` for a seat, acting or traded
with, that the table lacks, ``malformed-action`` for the rest).
"""

from __future__ import annotations

from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT
from rummy.engine.melds import MeldSpec

# Bound once: an Enum member read off its class is slow in Python 3.11.
_BATCH, _REARRANGE, _TRADE = Verb.BATCH, Verb.REARRANGE, Verb.TRADE
#: The verbs that read an action's card, its meld and end, its new purchase card, its melds.
_CARD_VERBS = frozenset((Verb.DISCARD, Verb.LAYOFF, Verb.SWAP, Verb.MOVE, Verb.PURCHASE))
_MELD_STEP_VERBS = frozenset((Verb.LAYOFF, Verb.SWAP, Verb.MOVE))
_NEW_CARD_VERBS = frozenset((Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE))
_MELDS_VERBS = frozenset((Verb.DOWN, Verb.MELD, Verb.REARRANGE, Verb.BOOK))
_ENDS = (None, "low", "high")
_CARDS, _INT = frozenset(range(CARD_COUNT)), {int}


def form_error(action: Action, seats: int) -> tuple[str, str] | None:
    """(rule, reason) when ``action``'s seat, or something its verb reads, is not of its kind (a seat: below
    ``seats``); None when all of it is."""
    if not _is_seat(action.seat, seats):
        return "wrong-seat", f"there is no seat {action.seat!r}"
    verb = action.verb
    if type(verb) is not Verb:
        return "malformed-action", f"{verb!r} is not a verb"
    if verb in _CARD_VERBS and action.card is not None and not _is_card(action.card):
        return "no-such-card", _no_card(action.card)
    if verb in _NEW_CARD_VERBS and action.new_pc is not None and not _is_card(action.new_pc):
        return "no-such-card", _no_card(action.new_pc)
    if verb in _MELD_STEP_VERBS:
        if action.meld is not None and type(action.meld) is not int:
            return "malformed-action", f"{action.meld!r} is not a meld number"
        if action.end not in _ENDS:
            return "malformed-action", f"{action.end!r} is not an end of a run: low or high"
    elif verb is _TRADE and action.target is not None and not _is_seat(action.target, seats):
        return "wrong-seat", f"there is no seat {action.target!r} to trade with"
    elif verb in _MELDS_VERBS:
        return _melds_error(action)
    elif verb is _BATCH:
        if not isinstance(action.steps, tuple) or not action.steps:
            return "malformed-action", "the steps of a batch are a tuple of at least one action"
        for step in action.steps:
            if not isinstance(step, Action):
                return "malformed-action", f"{step!r} is no action"
            error = form_error(step, seats)
            if error is not None:
                return error
    return None


def _melds_error(action: Action) -> tuple[str, str] | None:
    if not isinstance(action.melds, tuple) or not action.melds or (action.verb is _REARRANGE and not (
            isinstance(action.sources, tuple) and action.sources and {*map(type, action.sources)} <= _INT)):
        return "malformed-action", ("the melds, and the sources of a rearrangement, are tuples of at least one spec, "
                                    "of meld numbers")
    for spec in action.melds:
        if not isinstance(spec, MeldSpec) or type(spec.kind) is not str or not isinstance(spec.cards, tuple):
            return "malformed-action", f"{spec!r} is not a meld (a kind and a tuple of cards)"
        if not ({*map(type, spec.cards)} <= _INT and _CARDS.issuperset(spec.cards)):  # (ints first: 3.0 == 3)
            return "no-such-card", (f"the cards of {spec.kind} {spec.cards!r} are not all card kinds "
                                    f"(0 to {CARD_COUNT - 1})")
        declared, run = spec.declared, spec.kind == "run"
        if declared is not None and not (_is_card(declared) if run else type(declared) is int and 1 <= declared <= 13):
            return "no-such-card", f"{spec.kind} {spec.cards!r} declares {declared!r}, which is no " + (
                "card" if run else "rank")
    return None


def _is_seat(value: object, seats: int) -> bool:
    return type(value) is int and 0 <= value < seats


def _is_card(value: object) -> bool:
    return type(value) is int and 0 <= value < CARD_COUNT


def _no_card(value: object) -> str:
    return f"{value!r} is none of the {CARD_COUNT} card kinds (0 to {CARD_COUNT - 1})"
