"""What an opponent's last turn rules out: tests for the search bots' opponent model.

A player who could lay down its contract, or in ``basic`` go out, does so.  So a guess of an opponent's
hand that, together with the card it discarded at the end of its last turn (the hand it held then),
would have let it lay down (while it is still not down) or go out contradicts what everybody saw, and
:func:`rummy.search.determinize.determinize` deals that hand again (``missed_play``).  Both tests judge by the
table as it is now, which can only have grown since: a guess is ruled out a little more often than the
rules alone would (a card that fits only a meld laid since still counts as playable).

>>> from rummy.engine import parse_card, to_counts
>>> from rummy.engine import new_game
>>> game = new_game("may-i", 4, seed=1)
>>> hand = to_counts(parse_card(c) for c in "7H 7S 7D 9C 9D 9H 4S 5S JC QD KH KS".split())
>>> missed_play_check(game.variant)(game, 1, hand)  # two sets of three: it would have gone down
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rummy.bots.freeplay import unmelded
from rummy.bots.greedy import fits_table
from rummy.engine import Variant, can_lay_down, from_counts

if TYPE_CHECKING:
    from rummy.engine import Game

__all__ = ["could_have_gone_out", "could_have_laid_down", "missed_play_check"]

#: ``missed_play(public, seat, cards)``: would ``seat`` have laid down or gone out holding ``cards``?
MissedPlay = Callable[["Game", int, list[int]], bool]


def could_have_laid_down(public: Game, seat: int, cards: list[int]) -> bool:
    """Contract variants: ``seat`` is not down, yet ``cards`` hold its contract."""
    if public.down[seat]:
        return False
    rules = public.rules
    return can_lay_down(cards, rules.contract, public.variant, final_discard_allowed=rules.final_discard_allowed,
                        must_use_all=rules.must_go_out_on_laydown)


def could_have_gone_out(public: Game, seat: int, cards: list[int]) -> bool:
    """``basic``: every card of ``cards`` but one lies in a meld or fits a table meld."""
    variant = public.variant
    stuck = [card for card in unmelded(from_counts(cards), variant) if not fits_table(card, public.table, variant)]
    return len(stuck) <= 1


def missed_play_check(variant: Variant) -> MissedPlay | None:
    """The test for ``variant`` (None where there is none: ``purchase``)."""
    if variant.has_contracts:
        return could_have_laid_down
    if variant.free_melding:
        return could_have_gone_out
    return None
