"""Actions and their record notation (``p2 layoff 3 8H``), with a parser and a printer.

>>> a = parse_action("p2 layoff 3 10h ; layoff 5 QS", players=4)
>>> str(a)
'p2 layoff 3 TH ; layoff 5 QS'
>>> a.steps[1].card == parse_card("QS")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

import rummy.engine.backends as backends
from rummy.engine.cards import Card, card_name, parse_card, parse_rank
from rummy.engine.errors import RecordSyntaxError
from rummy.engine.melds import MeldSpec


class Verb(StrEnum):
    DRAW = "draw"
    TAKE = "take"
    BUY = "buy"
    PASS = "pass"
    DOWN = "down"
    MELD = "meld"
    LAYOFF = "layoff"
    SWAP = "swap"
    MOVE = "move"
    REARRANGE = "rearrange"
    DISCARD = "discard"
    PURCHASE = "purchase"
    TRADE = "trade"
    EXCHANGE = "exchange"
    BOOK = "book"
    BATCH = "batch"  # several play steps judged together, written joined by " ; "


PLAY_STEP_VERBS = frozenset(
    {Verb.DOWN, Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.MOVE, Verb.REARRANGE}
)
ENDS = ("low", "high")


@dataclass(frozen=True, slots=True)
class Action:
    """One action by ``seat``.  Only the fields of its verb are set."""

    seat: int
    verb: Verb
    card: Card | None = None
    meld: int | None = None
    end: str | None = None
    melds: tuple[MeldSpec, ...] = ()
    sources: tuple[int, ...] = ()
    target: int | None = None
    new_pc: Card | None = None
    steps: tuple[Action, ...] = ()

    def __str__(self) -> str:
        return f"p{self.seat} {self.body()}"

    def body(self) -> str:
        """The action without its seat prefix."""
        if self.verb is Verb.BATCH:
            return " ; ".join(step.body() if isinstance(step, Action) else repr(step) for step in self.steps)
        parts: list[str] = [self.verb.value]
        if self.verb in (Verb.DOWN, Verb.MELD, Verb.BOOK):
            parts += [str(m) for m in self.melds]
        elif self.verb in (Verb.LAYOFF, Verb.SWAP, Verb.MOVE):
            parts += [str(self.meld), card_name(self.card if self.card is not None else 0)]
            if self.end:
                parts.append(str(self.end))
        elif self.verb is Verb.REARRANGE:
            parts += [",".join(str(s) for s in self.sources), "=>"] + [str(m) for m in self.melds]
        elif self.verb is Verb.DISCARD:
            parts.append(card_name(self.card if self.card is not None else 0))
        elif self.verb is Verb.PURCHASE:
            parts += [card_name(self.card or 0), card_name(self.new_pc or 0)]
        elif self.verb is Verb.TRADE:
            parts += [f"p{self.target}", card_name(self.new_pc or 0)]
        elif self.verb is Verb.EXCHANGE:
            parts.append(card_name(self.new_pc or 0))
        return " ".join(parts)


#: The slots of :class:`Action`'s fields, for :func:`~rummy.engine.backends.frozen_record`.
ACTION_FIELDS = backends.record_slots(Action)


def new_action(seat: int, verb: Verb, card: Card | None = None, meld: int | None = None, end: str | None = None,
               melds: tuple[MeldSpec, ...] = (), sources: tuple[int, ...] = (), target: int | None = None,
               new_pc: Card | None = None) -> Action:
    """``Action(seat, verb, ...)`` with the same arguments, made by :func:`~rummy.engine.backends.frozen_record`: the
    engine makes one for every candidate it works out, and the dataclass's ``__init__``, one ``object.__setattr__``
    for each of ten fields, costs several times what setting the slots directly does."""
    return backends.frozen_record(Action, ACTION_FIELDS, seat, verb, card, meld, end, melds, sources, target, new_pc,
                                  ())


_MELD_RE = re.compile(r"^(set|run|pair|book):([^=]+?)(?:=(.+))?$", re.IGNORECASE)
_SEAT_RE = re.compile(r"^p(\d+)$", re.IGNORECASE)


def parse_meld(text: str) -> MeldSpec:
    """Parse ``KIND:CARD-CARD-...[=DECL]``.

    >>> str(parse_meld("run:JK-2c-2D-JK=5h"))
    'run:JK-2C-2D-JK=5H'
    """
    match = _MELD_RE.match(text)
    if not match:
        raise RecordSyntaxError(f"bad meld {text!r}: expected KIND:CARD-CARD-... with KIND set, run, pair or book")
    kind = match.group(1).lower()
    cards = tuple(parse_card(token) for token in match.group(2).split("-"))
    declared = None
    if match.group(3) is not None:
        declared = parse_card(match.group(3)) if kind == "run" else parse_rank(match.group(3))
    return MeldSpec(kind, cards, declared)


def _seat(token: str, players: int) -> int:
    match = _SEAT_RE.match(token)
    if not match:
        raise RecordSyntaxError(f"bad seat {token!r}: expected p0, p1, …")
    seat = int(match.group(1))
    if seat >= players:
        raise RecordSyntaxError(f"seat {token} out of range: {players} players")
    return seat


def _int_token(token: str, what: str) -> int:
    if not token.isdigit():
        raise RecordSyntaxError(f"bad {what} {token!r}: expected a number")
    return int(token)


def _parse_step(seat: int, tokens: list[str], players: int) -> Action:
    if not tokens:
        raise RecordSyntaxError("missing verb")
    word, args = tokens[0].lower(), tokens[1:]
    try:
        verb = Verb(word)
    except ValueError:
        raise RecordSyntaxError(f"unknown verb {tokens[0]!r}") from None

    def need(count: int | tuple[int, int]) -> None:
        low, high = (count, count) if isinstance(count, int) else count
        if not low <= len(args) <= high:
            raise RecordSyntaxError(f"{word}: wrong number of arguments ({len(args)})")

    if verb in (Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS):
        need(0)
        return Action(seat, verb)
    if verb in (Verb.DOWN, Verb.MELD):
        need((1, 20))
        return Action(seat, verb, melds=tuple(parse_meld(a) for a in args))
    if verb is Verb.BOOK:
        need(1)
        return Action(seat, verb, melds=(parse_meld(args[0]),))
    if verb in (Verb.LAYOFF, Verb.SWAP, Verb.MOVE):
        need((2, 3))
        end = args[2].lower() if len(args) == 3 else None
        if end is not None and end not in ENDS:
            raise RecordSyntaxError(f"{word}: bad end {args[2]!r}: expected low or high")
        return Action(seat, verb, meld=_int_token(args[0], "meld number"), card=parse_card(args[1]), end=end)
    if verb is Verb.REARRANGE:
        if "=>" not in args:
            raise RecordSyntaxError("rearrange: expected 'M,M,... => MELD MELD ...'")
        arrow = args.index("=>")
        source_text = "".join(args[:arrow])
        if not source_text or not args[arrow + 1:]:
            raise RecordSyntaxError("rearrange: expected 'M,M,... => MELD MELD ...'")
        sources = tuple(_int_token(t, "meld number") for t in source_text.split(","))
        return Action(seat, verb, sources=sources, melds=tuple(parse_meld(a) for a in args[arrow + 1:]))
    if verb is Verb.DISCARD:
        need(1)
        return Action(seat, verb, card=parse_card(args[0]))
    if verb is Verb.PURCHASE:
        need(2)
        return Action(seat, verb, card=parse_card(args[0]), new_pc=parse_card(args[1]))
    if verb is Verb.TRADE:
        need(2)
        return Action(seat, verb, target=_seat(args[0], players), new_pc=parse_card(args[1]))
    if verb is Verb.EXCHANGE:
        need(1)
        return Action(seat, verb, new_pc=parse_card(args[0]))
    raise RecordSyntaxError(f"unknown verb {tokens[0]!r}")


def parse_action(text: str, players: int) -> Action:
    """Parse one record action line; raises :class:`RecordSyntaxError`."""
    if not isinstance(text, str):
        raise RecordSyntaxError(f"an action must be a string, not {text!r}")
    line = text.split("#", 1)[0].strip()
    parts = [part.split() for part in line.split(";")]
    if not parts[0]:
        raise RecordSyntaxError(f"empty action {text!r}")
    seat = _seat(parts[0][0], players)
    steps = [_parse_step(seat, parts[0][1:], players)]
    for part in parts[1:]:
        if part and _SEAT_RE.match(part[0]):
            if _seat(part[0], players) != seat:
                raise RecordSyntaxError(f"{text!r}: a batch belongs to one seat")
            part = part[1:]
        steps.append(_parse_step(seat, part, players))
    if len(steps) == 1:
        return steps[0]
    return Action(seat, Verb.BATCH, steps=tuple(steps))
