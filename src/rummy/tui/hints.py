"""Hints: what to play now, in words, and the move to put in the entry line.

The move comes from a bot where the game is at hand (a local game asks the heuristic bot, from the
seat's own view only); at a server table, where only the view's legal moves are known, it is the
first lay-down, book or lay-off among them, as the browser's hint button does.

>>> hint(["draw", "take"], None)
Hint(words='Draw from the stock, or take the top discard.', move='draw')
>>> hint(["down set:7H-7S-JK run:3D-4D-5D-6D", "discard 9C"], None).words
'You can lay down 7♥ 7♠ joker + 3♦ 4♦ 5♦ 6♦ — press Enter to play it.'
>>> hint(["discard 9C", "discard 7H"], None).words
'No lay-down or lay-off yet: discard a card you do not need.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rummy.server.events.describe import cards_in_words, move_in_words, sentence_case

TABLE_VERBS = ("down", "meld", "book", "layoff", "swap", "move", "rearrange", "purchase", "trade", "exchange")


__all__ = ["Hint", "cards_in_words", "hint", "move_in_words"]


class Hint(NamedTuple):
    words: str
    move: str | None  # the move to put in the entry line (without the seat prefix)


def hint(legal: Sequence[str], suggested: str | None) -> Hint:
    """A hint from the seat's legal moves, led by a bot's ``suggested`` move when there is one."""
    if suggested is not None:
        return Hint(sentence_case(move_in_words(suggested)) + " — press Enter to play it.", suggested)
    if "draw" in legal:
        others = ", or take the top discard" if "take" in legal else ""
        return Hint(f"Draw from the stock{others}.", "draw")
    for verbs, sentence in ((("down", "meld", "book"), "You can {}"), (("layoff", "swap", "move"), "You can {}")):
        move = next((m for m in legal if m.split(" ", 1)[0] in verbs and ";" not in m), None)
        if move is not None:
            words = move_in_words(move)
            if move.startswith("down "):
                words = "lay down " + " + ".join(cards_in_words(m) for m in move.split()[1:])
            return Hint(sentence.format(words) + " — press Enter to play it.", move)
    if any(m.startswith("discard ") for m in legal):
        return Hint("No lay-down or lay-off yet: discard a card you do not need.", "discard ")
    if "pass" in legal:
        return Hint("Claim the card, or let it go.", None)
    return Hint("Nothing to do now: wait for the others.", None)
