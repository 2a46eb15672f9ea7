"""The engine's exception types: one hierarchy, every class a :class:`RummyError`.

::

    RummyError                 anything the engine refuses; a program catches this at its edge
    ├── RecordError            a malformed game record (exit code 2 of ``rummy replay``)
    │   └── RecordSyntaxError  text in record notation that does not parse
    ├── VariantError           an unknown variant, house-rule key or value
    ├── DealError              a supplied deal or starting position that does not fit the variant
    ├── IllegalActionError     an action that parses but the rules do not allow (exit code 1)
    ├── MeldError              cards that do not form a meld, or do not fit one
    ├── BotError               an unknown bot, bot option, or a bad value for one
    └── UsageError             a call that does not fit the game it asks about

Every class but :class:`IllegalActionError` and :class:`MeldError` is also a :class:`ValueError`
(a bad value was given).  Those two carry a :class:`Rule`, the stable key of the rule broken (listed
with a line on each in docs/errors.md and by ``rummy rules --errors``), and leave the state unchanged.

Why :class:`RecordSyntaxError` is a kind of :class:`RecordError`: the record format
(docs/game-record.md, "Syntax errors and rule errors") makes an action that does not parse a
malformed record, like a bad key or an impossible deal — both end a replay with exit code 2 — so a
handler for malformed records catches both.  The narrower type stays for callers that parse one
line of notation outside a record (an action sent to a table, a card typed at a prompt), where
"malformed record" would be the wrong words.

Command-line programs add their own subclass for bad arguments (``rummy.sim.SimError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class Rule(StrEnum):
    """The stable key of every rule an :class:`IllegalActionError` or a :class:`MeldError` names.

    A StrEnum, so ``error.rule == "wrong-seat"`` and JSON output keep working.  Each key has a
    one-line description (:data:`RULE_DESCRIPTIONS`, :attr:`Rule.description`); ``rummy rules
    --errors`` prints them and docs/errors.md lists them.
    """

    # Turn and phase
    WRONG_SEAT = "wrong-seat"
    ROUND_OVER = "round-over"
    WRONG_PHASE = "wrong-phase"
    NOT_ELIGIBLE = "not-eligible"
    ALREADY_ANSWERED = "already-answered"
    DRAW_FIRST = "draw-first"
    ALREADY_DREW = "already-drew"
    # Drawing and buying
    STOCK_EMPTY = "stock-empty"
    TAKE_NOT_ALLOWED = "take-not-allowed"
    DISCARD_EMPTY = "discard-empty"
    STOCK_ONLY_AFTER_BUY = "stock-only-after-buy"
    NO_OWN_BUY = "no-own-buy"
    NO_BUYING_THIS_ROUND = "no-buying-this-round"
    DISCARD_DEAD = "discard-dead"
    CLAIM_LIMIT = "claim-limit"
    NO_PENALTY_CARD = "no-penalty-card"
    # Laying down and new melds
    NO_CONTRACT = "no-contract"
    ALREADY_DOWN = "already-down"
    CONTRACT_NOT_MET = "contract-not-met"
    MUST_LAY_DOWN_EVERYTHING = "must-lay-down-everything"
    SAME_RANK_GROUPS = "same-rank-groups"
    ADJACENT_RUNS = "adjacent-runs"
    WILD_TRIO_NOT_A_SET = "wild-trio-not-a-set"
    NO_NEW_MELDS = "no-new-melds"
    MELD_LIMIT = "meld-limit"
    MELD_BEFORE_DOWN = "meld-before-down"
    MELD_BEFORE_NEXT_TURN = "meld-before-next-turn"
    # Meld shape
    MELD_KIND = "meld-kind"
    MELD_TOO_SMALL = "meld-too-small"
    SET_MIXED_RANKS = "set-mixed-ranks"
    RUN_MIXED_SUITS = "run-mixed-suits"
    RUN_NOT_CONSECUTIVE = "run-not-consecutive"
    RUN_OUT_OF_BOUNDS = "run-out-of-bounds"
    ALL_WILD_MELD = "all-wild-meld"
    DECLARATION_REQUIRED = "declaration-required"
    DECLARATION_CONTRADICTS = "declaration-contradicts"
    PAIR_WILDS = "pair-wilds"
    WILDS_OUTNUMBER_NATURALS = "wilds-outnumber-naturals"
    TOO_MANY_WILDS = "too-many-wilds"
    BOOK_SIZE = "book-size"
    BOOK_INVALID = "book-invalid"
    # Laying off
    LAYOFF_BEFORE_DOWN = "layoff-before-down"
    LAYOFF_BEFORE_NEXT_TURN = "layoff-before-next-turn"
    NO_SUCH_MELD = "no-such-meld"
    NO_SUCH_CARD = "no-such-card"
    MALFORMED_ACTION = "malformed-action"
    CARD_NOT_IN_HAND = "card-not-in-hand"
    LAYOFF_NOT_ALLOWED = "layoff-not-allowed"
    LAYOFF_END = "layoff-end"
    PAIR_NOT_EXTENDABLE = "pair-not-extendable"
    LAYOFF_DOES_NOT_FIT = "layoff-does-not-fit"
    LAYOFF_END_REQUIRED = "layoff-end-required"
    # Wild cards on the table
    NO_JOKER_SWAP = "no-joker-swap"
    SWAP_BEFORE_DOWN = "swap-before-down"
    SWAP_BEFORE_NEXT_TURN = "swap-before-next-turn"
    SWAP_NEEDS_NATURAL = "swap-needs-natural"
    SWAP_IN_GROUP = "swap-in-group"
    SWAP_NO_SUCH_WILD = "swap-no-such-wild"
    STOLEN_JOKER_MUST_BE_PLAYED = "stolen-joker-must-be-played"
    NO_WILD_RELOCATION = "no-wild-relocation"
    MOVE_BEFORE_DOWN = "move-before-down"
    MOVE_BEFORE_NEXT_TURN = "move-before-next-turn"
    RELOCATE_IN_SET = "relocate-in-set"
    RELOCATE_END_REQUIRED = "relocate-end-required"
    RELOCATE_END_CLOSED = "relocate-end-closed"
    # Rearranging the table
    NO_REARRANGE = "no-rearrange"
    REARRANGE_BEFORE_DOWN = "rearrange-before-down"
    REARRANGE_BEFORE_NEXT_TURN = "rearrange-before-next-turn"
    REARRANGE_SOURCES = "rearrange-sources"
    REARRANGE_CARD_LOST = "rearrange-card-lost"
    REARRANGE_NEEDS_HAND_CARD = "rearrange-needs-hand-card"
    REARRANGE_NEW_MELD = "rearrange-new-meld"
    BATCH_STEP = "batch-step"
    # Discarding and going out
    DISCARD_TAKEN_CARD = "discard-taken-card"
    NO_FINAL_DISCARD = "no-final-discard"
    MUST_DISCARD_TO_GO_OUT = "must-discard-to-go-out"
    TURN_NOT_COMPLETABLE = "turn-not-completable"
    # Purchase
    VERB_NOT_IN_VARIANT = "verb-not-in-variant"
    ONE_ACTION_PER_TURN = "one-action-per-turn"
    NOT_IN_DISCARD = "not-in-discard"
    PURCHASE_VALUE = "purchase-value"
    TRADE_SELF = "trade-self"
    EXCHANGE_SAME_CARD = "exchange-same-card"

    @property
    def description(self) -> str:
        """What the rule forbids, in one line."""
        return RULE_DESCRIPTIONS[self]


RULE_DESCRIPTIONS: Mapping[Rule, str] = MappingProxyType({
    Rule.WRONG_SEAT: "there is no such seat, or it is another seat's turn",
    Rule.ROUND_OVER: "the round or the game is over: nothing is played until the next deal",
    Rule.WRONG_PHASE: "the verb does not fit the phase (while a claim window is open only buy and pass are answers)",
    Rule.NOT_ELIGIBLE: "the seat may not answer a claim now: no window is open, or the card is not offered to it",
    Rule.ALREADY_ANSWERED: "the seat has already bought or passed in this claim window",
    Rule.DRAW_FIRST: "a turn starts with a draw (draw, take, or the active player's own buy)",
    Rule.ALREADY_DREW: "the active player has already drawn this turn",
    Rule.STOCK_EMPTY: "the stock is empty and cannot be refilled: take the discard instead",
    Rule.TAKE_NOT_ALLOWED: "in purchase every turn starts with a stock draw; the discard pile is bought, not taken",
    Rule.DISCARD_EMPTY: "the discard pile is empty",
    Rule.STOCK_ONLY_AFTER_BUY: "after a buy the active player must draw from the stock",
    Rule.NO_OWN_BUY: "the active player cannot buy the discard in this variant",
    Rule.NO_BUYING_THIS_ROUND: "this round allows no buying",
    Rule.DISCARD_DEAD: "the top discard was already bought this turn",
    Rule.CLAIM_LIMIT: "the seat (or the table) has used every buy allowed this round",
    Rule.NO_PENALTY_CARD: "the stock cannot supply the blind card that comes with a buy",
    Rule.NO_CONTRACT: "the variant has no contract: lay melds with meld, not down",
    Rule.ALREADY_DOWN: "the player has already laid down this round",
    Rule.CONTRACT_NOT_MET: "the melds laid down do not fill the round's contract",
    Rule.MUST_LAY_DOWN_EVERYTHING: "in this round the lay-down must use every card in hand",
    Rule.SAME_RANK_GROUPS: "two sets of the same rank may not be laid down together",
    Rule.ADJACENT_RUNS: "two runs of one suit laid down together may not touch",
    Rule.WILD_TRIO_NOT_A_SET: "a trio of wilds does not fill a set of the contract",
    Rule.NO_NEW_MELDS: "new melds can be laid only as the contract (down)",
    Rule.MELD_LIMIT: "more new melds in one turn than the variant allows",
    Rule.MELD_BEFORE_DOWN: "a new meld before the player has laid down the contract",
    Rule.MELD_BEFORE_NEXT_TURN: "a new meld in the turn the player laid down; it waits for the next turn",
    Rule.MELD_KIND: "a meld kind the variant or the play does not take (a book outside purchase, a stray pair)",
    Rule.MELD_TOO_SMALL: "the meld has fewer cards than its kind or contract slot needs",
    Rule.SET_MIXED_RANKS: "the naturals of a set are not all of one rank",
    Rule.RUN_MIXED_SUITS: "the naturals of a run are not all of one suit",
    Rule.RUN_NOT_CONSECUTIVE: "the cards of a run are not consecutive in the order written",
    Rule.RUN_OUT_OF_BOUNDS: "the run runs past the ace",
    Rule.ALL_WILD_MELD: "the meld has no natural card, which the variant does not allow",
    Rule.DECLARATION_REQUIRED: "a meld of wilds only must declare its rank (set) or lowest card (run)",
    Rule.DECLARATION_CONTRADICTS: "the declared rank or lowest card contradicts the naturals",
    Rule.PAIR_WILDS: "a pair may not hold wild cards",
    Rule.WILDS_OUTNUMBER_NATURALS: "the meld would hold more wild cards than natural ones",
    Rule.TOO_MANY_WILDS: "the meld would hold more than one wild card",
    Rule.BOOK_SIZE: "a book has exactly four cards",
    Rule.BOOK_INVALID: "a book is four of a rank or a four-card suit sequence",
    Rule.LAYOFF_BEFORE_DOWN: "a lay-off before the player has laid down the contract",
    Rule.LAYOFF_BEFORE_NEXT_TURN: "a lay-off in the turn the player laid down; it waits for the next turn",
    Rule.NO_SUCH_MELD: "no meld on the table has that number",
    Rule.NO_SUCH_CARD: "a card of the action is none of the 53 card kinds, or a declared rank is not one of the 13",
    Rule.MALFORMED_ACTION: "a field the verb reads is not of its kind (a verb, meld number, end, seat, meld or step)",
    Rule.CARD_NOT_IN_HAND: "the player does not hold the card (or enough copies of it)",
    Rule.LAYOFF_NOT_ALLOWED: "nothing can be laid off on a book",
    Rule.LAYOFF_END: "low or high was named for a set; ends belong to runs",
    Rule.PAIR_NOT_EXTENDABLE: "nothing may be laid off on a pair in this variant",
    Rule.LAYOFF_DOES_NOT_FIT: "the card does not fit the meld, or not at the named end of the run",
    Rule.LAYOFF_END_REQUIRED: "the card fits both ends of the run: say low or high",
    Rule.NO_JOKER_SWAP: "wild cards on the table cannot be taken in this variant",
    Rule.SWAP_BEFORE_DOWN: "a wild taken from the table before the player has laid down the contract",
    Rule.SWAP_BEFORE_NEXT_TURN: "a wild taken from the table in the turn the player laid down",
    Rule.SWAP_NEEDS_NATURAL: "a wild is taken by playing the natural it stands for, not another wild",
    Rule.SWAP_IN_GROUP: "wild cards in sets cannot be taken in this variant",
    Rule.SWAP_NO_SUCH_WILD: "no wild card in the meld stands for that natural",
    Rule.STOLEN_JOKER_MUST_BE_PLAYED: "a wild taken from the table must be played again that turn, not kept in hand",
    Rule.NO_WILD_RELOCATION: "wild cards on the table cannot be moved in this variant",
    Rule.MOVE_BEFORE_DOWN: "a wild moved before the player has laid down the contract",
    Rule.MOVE_BEFORE_NEXT_TURN: "a wild moved in the turn the player laid down",
    Rule.RELOCATE_IN_SET: "wild cards can be moved only in runs",
    Rule.RELOCATE_END_REQUIRED: "say which end of the run the moved wild goes to: low or high",
    Rule.RELOCATE_END_CLOSED: "the run cannot grow at the end the wild is moved to",
    Rule.NO_REARRANGE: "melds on the table cannot be rearranged in this variant",
    Rule.REARRANGE_BEFORE_DOWN: "a rearrangement before the player has laid down the contract",
    Rule.REARRANGE_BEFORE_NEXT_TURN: "a rearrangement in the turn the player laid down",
    Rule.REARRANGE_SOURCES: "a meld is named twice among the melds rearranged",
    Rule.REARRANGE_CARD_LOST: "a card of the rearranged melds would leave the table",
    Rule.REARRANGE_NEEDS_HAND_CARD: "a rearrangement must play at least one card from the hand",
    Rule.REARRANGE_NEW_MELD: "every new meld of a rearrangement must hold a card that was on the table",
    Rule.BATCH_STEP: "a batch holds only table plays (down, meld, layoff, swap, move, rearrange)",
    Rule.DISCARD_TAKEN_CARD: "the card taken from the discard pile this turn may not be discarded in the same turn",
    Rule.NO_FINAL_DISCARD: "this round has no final discard: go out by playing every card",
    Rule.MUST_DISCARD_TO_GO_OUT: "a hand may only be emptied by a discard",
    Rule.TURN_NOT_COMPLETABLE: "the play would leave no card that may be discarded to end the turn",
    Rule.VERB_NOT_IN_VARIANT: "purchase, trade, exchange and books belong to the purchase variant",
    Rule.ONE_ACTION_PER_TURN: "only one purchase, trade or exchange per turn",
    Rule.NOT_IN_DISCARD: "the card to purchase is not in the discard pile",
    Rule.PURCHASE_VALUE: "the purchase card is not worth enough to purchase that card",
    Rule.TRADE_SELF: "a trade is with another player",
    Rule.EXCHANGE_SAME_CARD: "the new purchase card must be a different card",
})


class RummyError(Exception):
    """Base class of every error the engine raises on bad input."""


class RecordError(RummyError, ValueError):
    """A malformed record (exit code 2 of ``rummy replay``): bad JSON, an unknown key, variant or
    option, impossible cards, a deal that does not fit, a round past the last, bad action syntax."""


class RecordSyntaxError(RecordError):
    """Text in record notation that does not parse: a bad card, meld, seat or action."""


class VariantError(RummyError, ValueError):
    """An unknown variant, an unknown house-rule key, or a bad value for one."""


class DealError(RummyError, ValueError):
    """A supplied deal that does not fit the variant (sizes, pack, dealer rotation), or a starting
    round, totals or phase in which nothing can be dealt."""


class BotError(RummyError, ValueError):
    """An unknown bot or level, an option a bot does not take, or a value out of its range."""


class UsageError(RummyError, ValueError):
    """A call that does not fit what it asks about: a seat the game does not have, a hand vector of
    the wrong shape, asking who is to act when nobody is."""


class IllegalActionError(RummyError):
    """An action the rules do not allow in this state.

    ``rule`` is a :class:`Rule` (``Rule.WRONG_SEAT``, ``"layoff-before-next-turn"`` …; a key that is
    not a Rule is a programming error and raises ValueError at once), ``action`` the action in record
    notation and ``reason`` a sentence about the situation.  The rules pass the action itself: its
    notation and the message are written when read (a refusal asked for by ``Game.is_legal`` is never read).
    """

    def __init__(self, rule: Rule | str, action: object, reason: str, *, where: str = "") -> None:
        super().__init__(rule, action, reason)
        self.rule = _rule(rule)
        self._action = action
        self.reason = reason
        self.where = where

    @property
    def action(self) -> str:
        """The action in record notation."""
        return str(self._action)

    def __str__(self) -> str:
        place = f" [{self.where}]" if self.where else ""
        return f"illegal {self.action!r} (rule: {self.rule}): {self.reason}{place}"

    def at(self, where: str) -> IllegalActionError:
        """The same refusal, placed in the game (``"round 2, turn 14"``)."""
        self.where = where
        return self


class MeldError(RummyError):
    """A meld that breaks a rule; ``rule`` is a :class:`Rule` (as for :class:`IllegalActionError`),
    the message a sentence."""

    def __init__(self, rule: Rule | str, message: str) -> None:
        self.rule = _rule(rule)
        super().__init__(message)


_RULES = {rule.value: rule for rule in Rule}


def _rule(key: Rule | str) -> Rule:
    """``Rule(key)`` (a dictionary look-up: the Enum's call costs more than the rest of a refusal)."""
    rule = _RULES.get(key)
    if rule is None:
        raise ValueError(f"{key!r} is not a valid Rule")
    return rule
