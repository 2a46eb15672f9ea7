"""What a person types: record notation (docs/game-record.md §4) for their own seat, with the ``pN``
prefix optional, and the completion offered while they type.

>>> full_action("discard 7h", 2)
'p2 discard 7h'
>>> full_action("p2 draw", 2)
'p2 draw'
>>> complete("dis", ["7H", "9C"], ["discard 7H", "discard 9C", "down set:7H-7S-JK"])
'discard '
>>> complete("down ", ["7H", "7S", "JK"], ["down set:7H-7S-JK"])
'down set:7H-7S-JK'
>>> complete("down run:9", ["7H", "9C", "TC"], [])
'down run:9C'
>>> complete("down run:9C-10", ["7H", "9C", "TC"], [])
'down run:9C-10C'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

SEAT_PREFIX = re.compile(r"^\s*p\d+\b", re.IGNORECASE)
MELD_KINDS = ("set:", "run:", "pair:", "book:")
TOKEN_START = re.compile(r"[\s\-:;=>,]")


def full_action(text: str, seat: int) -> str:
    """``text`` with the seat's ``pN`` prefix added when it has none."""
    stripped = text.strip()
    return stripped if SEAT_PREFIX.match(stripped) else f"p{seat} {stripped}"


def complete(value: str, hand: Sequence[str], legal: Sequence[str]) -> str | None:
    """``value`` completed: a verb of the legal moves, then a whole legal move it begins, else the card
    name (from the hand, not yet used in ``value``) or meld kind being typed; None when nothing fits."""
    if not value.strip():
        return None
    body = SEAT_PREFIX.sub("", value).lstrip()
    prefix = value[: len(value) - len(body)]
    if " " not in body:
        verbs = list(dict.fromkeys(action.split(" ", 1)[0] for action in legal))
        found = next((verb for verb in verbs if verb.startswith(body.lower()) and verb != body.lower()), None)
        if found is None:
            return None
        takes_arguments = any(action.startswith(found + " ") for action in legal)
        return prefix + body + found[len(body):] + (" " if takes_arguments else "")
    lowered = body.lower()
    whole = next((action for action in legal if action.lower().startswith(lowered) and len(action) > len(body)), None)
    if whole is not None:
        return value + whole[len(body):]
    return _complete_token(value, body, hand)


def _complete_token(value: str, body: str, hand: Sequence[str]) -> str | None:
    starts = [match.end() for match in TOKEN_START.finditer(body)]
    start = starts[-1] if starts else 0
    partial = body[start:]
    if not partial:
        return None
    separator = body[start - 1] if start else " "
    if separator == " " and partial.isalpha():
        kind = next((k for k in MELD_KINDS if k.startswith(partial.lower()) and k != partial.lower()), None)
        if kind is not None:
            return value + kind[len(partial):]
    wanted = "T" + partial[2:].upper() if partial.startswith("10") else partial.upper()
    used = Counter(_card_tokens(body[:start]))
    left = Counter(hand) - used
    for card in dict.fromkeys(hand):
        if left[card] > 0 and card.startswith(wanted) and len(card) > len(wanted):
            return value + card[len(wanted):]
    return None


def _card_tokens(text: str) -> list[str]:
    """The card names already written in ``text`` (``10h`` read as ``TH``)."""
    names = []
    for token in TOKEN_START.split(text):
        upper = token.upper()
        upper = "T" + upper[2:] if upper.startswith("10") else upper
        if re.fullmatch(r"[A2-9TJQK][CDHS]|JK", upper):
            names.append(upper)
    return names
