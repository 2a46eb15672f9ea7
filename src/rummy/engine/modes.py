"""Every mode of a :class:`~rummy.engine.variants.Variant`: the allowed values of each, defined here once.

A mode is a :class:`~enum.StrEnum`, so a member *is* its string: records, variant files, JSON and the
front end keep reading and writing the values of ``rules.md`` §8 unchanged, while the engine compares
members (``variant.ace_mode is AceMode.HIGH_ONLY``) and :mod:`rummy.engine.house_rules` takes each option's
choices from its enum.  Members are listed in the order the option tables of ``rules.md`` give them.

>>> AceMode("high_only") is AceMode.HIGH_ONLY, AceMode.HIGH_ONLY == "high_only"
(True, True)
>>> AceMode.LOW_ONLY.run_bounds
(1, 13)
>>> [str(mode) for mode in ClaimsPerWindow]
['1', 'cascade']
"""

from __future__ import annotations

from contextlib import suppress
from enum import StrEnum
from typing import TypeVar

from rummy.engine.errors import VariantError

Mode = TypeVar("Mode", bound=StrEnum)


def parse_mode(mode: type[Mode], key: str, value: object) -> Mode:
    """The member of ``mode`` spelled ``value``; anything else raises VariantError listing the allowed values.

    >>> parse_mode(TieBreak, "tie_break", "last_round") is TieBreak.LAST_ROUND
    True
    >>> parse_mode(TieBreak, "tie_break", "coin")
    Traceback (most recent call last):
    ...
    rummy.engine.errors.VariantError: option 'tie_break' must be one of 'shared', 'last_round', not 'coin'
    """
    if isinstance(value, str):
        with suppress(ValueError):
            return mode(value)
    listed = ", ".join(repr(member.value) for member in mode)
    raise VariantError(f"option {key!r} must be one of {listed}, not {value!r}")


class Scoring(StrEnum):
    """How rounds are scored and the game is won (rules.md §2.10); chooses a :mod:`rummy.engine.scoring` rule."""

    PENALTY = "penalty"  # cards left in hand count against; lowest total after the last round wins
    WINNER_COLLECTS = "winner_collects"  # who goes out collects the others' hands; first to the target wins
    BOOK = "book"  # the first seat to table a four-card book wins the round (a match win)


class FirstDealer(StrEnum):
    """``first_dealer``: how the first dealer is chosen."""

    RANDOM = "random"
    HIGH_CARD_DRAW = "high_card_draw"
    FIRST_SEAT = "first_seat"


class AceMode(StrEnum):
    """``ace_mode``: where an ace may stand in a run."""

    LOW_OR_HIGH = "low_or_high"
    LOW_ONLY = "low_only"
    HIGH_ONLY = "high_only"

    @property
    def ace_high(self) -> bool:
        """Whether an ace may follow the king (run value 14)."""
        return _RUN_BOUNDS[self][1] == 14

    @property
    def run_bounds(self) -> tuple[int, int]:
        """The lowest and highest run value allowed: 1 is the ace below the 2, 14 the ace above the king."""
        return _RUN_BOUNDS[self]


# The run bounds of each ace mode, looked up (reading members off AceMode, an Enum class, is slow in Python 3.11).
_RUN_BOUNDS = {AceMode.LOW_OR_HIGH: (1, 14), AceMode.LOW_ONLY: (1, 13), AceMode.HIGH_ONLY: (2, 14)}


class WildPolicy(StrEnum):
    """``wild_policy``: how many wild cards a meld may hold."""

    NONE = "none"  # no limit beyond the variant's other rules
    NOT_OUTNUMBER = "not_outnumber"  # never more wild than natural cards
    AT_MOST_ONE = "at_most_one"


#: Each wild policy's code where the engine packs rules into numbers: the solver's tables and the compiled core's
#: rules (``core.h``'s ``POLICY_NONE``, ``POLICY_RATIO``, ``POLICY_ONE``).
POLICY_CODES = {WildPolicy.NONE: 0, WildPolicy.NOT_OUTNUMBER: 1, WildPolicy.AT_MOST_ONE: 2}


class LayoffTiming(StrEnum):
    """``layoff_timing``: whether a seat may lay off (meld, rearrange) in the turn it laid down its contract."""

    NEXT_TURN = "next_turn"  # only from its next turn on
    SAME_TURN = "same_turn"
    ALWAYS = "always"  # free melding (basic): no lay-down comes first


class RearrangeMode(StrEnum):
    """``rearrange_mode``: whether table melds may be taken apart and rebuilt."""

    SEED000 = "seed000"  # as the 000 seed allows (rules.md §3.8)
    UNRESTRICTED = "unrestricted"
    NONE = "none"


class JokerSwap(StrEnum):
    """``joker_swap``: what a natural card may do to the wild card that stands for it on the table."""

    TO_HAND = "to_hand"  # replace it and take the wild into the hand
    NONE = "none"
    RELOCATE_IN_RUN = "relocate_in_run"  # replace it and move the wild (to a run end, or the hand)


class JokerSwapTiming(StrEnum):
    """``joker_swap_timing``: whether a seat may swap a wild card in the turn it laid down its contract."""

    NEXT_TURN = "next_turn"  # only from its next turn on
    SAME_TURN = "same_turn"


class WildRelocationScope(StrEnum):
    """``wild_relocation_scope``: where a wild card relocated from a run goes."""

    SAME_RUN = "same_run"
    HAND = "hand"


class ClaimMode(StrEnum):
    """``claim_mode``: when seats may claim (buy, call May I for) the top discard out of turn."""

    PRE_DRAW = "pre_draw"
    ACTIVE_FIRST_THEN_OTHERS = "active_first_then_others"
    AFTER_DECLINE = "after_decline"
    NONE = "none"


class ClaimPriority(StrEnum):
    """``claim_priority``: which of several claimants gets the card."""

    FIRST_CALL = "first_call"
    ROTATION = "rotation"


class ClaimLimitScope(StrEnum):
    """``claim_limit_scope``: whether ``claim_limit`` counts each player's claims or the table's."""

    PLAYER = "player"
    TABLE = "table"


class ClaimsPerWindow(StrEnum):
    """``claims_per_window``: how many claims one offered card allows (written ``1`` or ``"cascade"``)."""

    ONE = "1"  # one claim, then the pile is dead for the turn
    CASCADE = "cascade"


class AfterClaimActiveDraw(StrEnum):
    """``after_claim_active_draw``: what the active player may draw after another seat's claim."""

    STOCK_ONLY = "stock_only"
    STOCK_OR_NEW_TOP = "stock_or_new_top"


class GoingOutMode(StrEnum):
    """``going_out_mode``: how a hand may be emptied."""

    DISCARD_OR_MELD = "discard_or_meld"
    MELD_ONLY = "meld_only"
    MUST_DISCARD = "must_discard"
    BOOK = "book"  # by tabling a four-card book (book scoring only)


class KittySplit(StrEnum):
    """``kitty_split``: how the kitty of a money settlement is shared."""

    WINNER_ALL = "winner_all"
    TWO_THIRDS_ONE_THIRD = "two_thirds_one_third"


class Round8Mode(StrEnum):
    """``round8_mode``: the meaning of "no discard at the end" in the 000 seed's last round."""

    NO_FINAL_DISCARD = "no_final_discard"
    MUST_GO_OUT_ON_LAYDOWN = "must_go_out_on_laydown"
    KEEP_ONE_FOR_DISCARD = "keep_one_for_discard"


class StockRefill(StrEnum):
    """``stock_refill``: what happens when the stock runs out."""

    KEEP_TOP = "keep_top"  # the discards under the top card are shuffled into a new stock
    WHOLE_PILE_ONCE = "whole_pile_once"  # the 003 depletion: the whole pile once, then a stalemate
    NONE = "none"


class DepletionCheck(StrEnum):
    """``depletion_check``: when the 003 depletion (``whole_pile_once``) is noticed."""

    TURN_START = "turn_start"
    ON_LAST_CARD_DRAWN = "on_last_card_drawn"


class ExhaustionScoring(StrEnum):
    """``exhaustion_scoring``: how a round that ends because nobody can draw is scored."""

    PENALTY = "penalty"  # every seat is charged its hand
    VOID = "void"  # nobody scores


class TieBreak(StrEnum):
    """``tie_break``: how equal final totals are ordered."""

    SHARED = "shared"
    LAST_ROUND = "last_round"  # the better score in the latest round that differs


class PcDiscardPosition(StrEnum):
    """``pc_discard_position``: where the old purchase card goes in the discard pile after a purchase."""

    IN_PLACE = "in_place"
    TOP = "top"


class BookAceMode(StrEnum):
    """``book_ace_mode``: where an ace may stand in a four-card sequence book."""

    HIGH_ONLY = "high_only"
    LOW_OR_HIGH = "low_or_high"


class ClaimCall(StrEnum):
    """What the players call out to claim the discard (the words the table and the move log use)."""

    BUY = "buy"  # "Buy it"
    ILL_BUY_IT = "ill_buy_it"  # "I'll Buy It!" (000)
    MAY_I = "may_i"  # "May I?" (002)


class RoundEnd(StrEnum):
    """How a round ended (``RoundResult.end``, written in records)."""

    OUT = "out"  # a seat emptied its hand
    EXHAUSTED = "exhausted"  # nobody can draw, or no card off the table can ever be played
    STALEMATE = "stalemate"  # the 003 stalemate, or the turn cap (``max_turns``)
    BOOK = "book"  # a seat tabled a book
