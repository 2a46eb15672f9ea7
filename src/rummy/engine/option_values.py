"""How a house-rule value is read: one :class:`Parser` per kind of value (a yes/no, a number in a range, one
of a mode's values, a set of ranks, a table per player count …), carrying what a form control for it needs.

Each house-rule key names its parser once, beside its :class:`~rummy.engine.variants.Variant` field
(:func:`rummy.engine.variants.option`); :data:`rummy.engine.house_rules.OPTION_PARSERS` is read from there.

>>> int_between(2, 13)("run_min", 5), optional_int(0)("claim_limit", "unlimited")
(5, None)
>>> int_between(2, 13).control
{'type': 'int', 'min': 2, 'max': 13}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rummy.engine.cards import JOKER, rank_of
from rummy.engine.errors import VariantError
from rummy.engine.modes import ClaimsPerWindow, Mode, parse_mode

T = TypeVar("T")


@dataclass(frozen=True)
class Parser:
    """A house-rule value parser, with what a form control for the value needs: ``control["type"]``
    (``bool``, ``int``, ``choice``, ``set``, ``per_players``, ``payments``, ``schedule``) and its
    ``choices``, ``min``, ``max`` or ``nullable`` (read by the server's variant catalogue)."""

    parse: Callable[[str, Any], Any]
    control: Mapping[str, Any]

    def __call__(self, key: str, value: Any) -> Any:
        return self.parse(key, value)


def control(kind: str, **spec: Any) -> Callable[[Callable[[str, Any], Any]], Parser]:
    """Decorator: a parser function with its control kind and details."""
    def wrap(parse: Callable[[str, Any], Any]) -> Parser:
        return Parser(parse, {"type": kind, **spec})

    return wrap


@control("bool")
def yes_no(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("yes", "no"):
        return bool(value == "yes")
    raise VariantError(f"option {key!r} must be true or false, not {value!r}")


def int_between(low: int, high: int | None = None) -> Parser:
    def parse(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise VariantError(f"option {key!r} must be an integer, not {value!r}")
        if value < low or (high is not None and value > high):
            bounds = f"{low}…{high}" if high is not None else f"at least {low}"
            raise VariantError(f"option {key!r} must be {bounds}, not {value}")
        return value

    return Parser(parse, {"type": "int", "min": low, **({"max": high} if high is not None else {})})


def optional_int(low: int) -> Parser:
    inner = int_between(low)

    def parse(key: str, value: Any) -> int | None:
        if value is None or value in ("unlimited", "none"):
            return None
        number: int = inner(key, value)
        return number

    return Parser(parse, {**inner.control, "nullable": True})


def choice(mode: type[Mode]) -> Parser:
    """A parser taking one of ``mode``'s values (rummy.engine.modes) and returning the member."""

    def parse(key: str, value: Any) -> Mode:
        return parse_mode(mode, key, value)

    return Parser(parse, {"type": "choice", "choices": [member.value for member in mode]})


@control("set", choices=["JOKER", "2"])
def wild_ranks(key: str, value: Any) -> frozenset[int]:
    if value is None or value == "none":
        return frozenset()
    if not isinstance(value, list):
        raise VariantError(f"option {key!r} must be a list such as [\"JOKER\", \"2\"], not {value!r}")
    ranks: set[int] = set()
    for item in value:
        if item in ("JOKER", "JK", "joker"):
            ranks.add(rank_of(JOKER))
        elif item in ("2", 2):
            ranks.add(2)
        else:
            raise VariantError(f"option {key!r}: only \"JOKER\" and \"2\" can be wild, not {item!r}")
    return frozenset(ranks)


@control("set", choices=list("A23456789TJQK"))
def rank_set(key: str, value: Any) -> frozenset[int]:
    names = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
             "T": 10, "J": 11, "Q": 12, "K": 13}
    items = value.replace(" ", "").split(",") if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        raise VariantError(f"option {key!r} must be a list of ranks such as [\"2\", \"A\"], not {value!r}")
    ranks = set()
    for item in items:
        if str(item) not in names:
            raise VariantError(f"option {key!r}: {item!r} is not a rank")
        ranks.add(names[str(item)])
    return frozenset(ranks)


@control("choice", choices=[1, "cascade"])
def one_or_cascade(key: str, value: Any) -> ClaimsPerWindow:
    if value in (1, ClaimsPerWindow.ONE):  # rules.md writes the number 1
        return ClaimsPerWindow.ONE
    if value == ClaimsPerWindow.CASCADE:
        return ClaimsPerWindow.CASCADE
    raise VariantError(f"option {key!r} must be 1 or \"{ClaimsPerWindow.CASCADE}\", not {value!r}")


@control("per_players", min=1)
def per_players(key: str, value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, dict):
        raise VariantError(f"option {key!r} must map player counts to numbers, not {value!r}")
    table = []
    for players, number in value.items():
        try:
            count = int(players)
        except ValueError:
            raise VariantError(f"option {key!r}: {players!r} is not a player count") from None
        table.append((count, int_between(1)(key, number)))
    return tuple(sorted(table))


@control("int", min=1, max=60, nullable=True)
def deal_size(key: str, value: Any) -> int | None:
    if value is None:
        return None
    size: int = int_between(1, 60)(key, value)
    return size


@control("schedule", min=0)
def buy_schedule(key: str, value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise VariantError(f"option {key!r} must be a list of [buys, blind] pairs, one per hand")
    schedule = []
    for entry in value:
        if isinstance(entry, dict):
            entry = [entry.get("buys", 0), entry.get("blind", 0)]
        if not isinstance(entry, list) or len(entry) != 2:
            raise VariantError(f"option {key!r}: {entry!r} is not a [buys, blind] pair")
        schedule.append((int_between(0)(key, entry[0]), int_between(0)(key, entry[1])))
    return tuple(schedule)


@control("payments")
def payments(key: str, value: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if isinstance(value, list):
        value = {str(len(value)): value}
    if not isinstance(value, dict):
        raise VariantError(f"option {key!r} must map player counts to payment lists")
    table = []
    for players, payments in value.items():
        try:
            count = int(players)
        except ValueError:
            raise VariantError(f"option {key!r}: {players!r} is not a player count") from None
        if not isinstance(payments, list) or len(payments) != count:
            raise VariantError(f"option {key!r}: {count} players need {count} payments")
        if any(isinstance(p, bool) or not isinstance(p, int) for p in payments):
            raise VariantError(f"option {key!r}: payments must be integers")
        table.append((count, tuple(payments)))
    return tuple(table)


@dataclass(frozen=True)
class Option:
    """A :class:`~rummy.engine.variants.Variant` field's house-rule key: its parser and its spellings (the
    field's name unless ``key`` says otherwise, then any ``aliases``)."""

    parse: Parser
    key: str | None = None
    aliases: tuple[str, ...] = ()
    #: A claim rule: setting it where nobody may claim a discard (``claim_mode = none``) is refused.
    claims: bool = False


def option(default: T, parse: Parser, *, key: str | None = None, aliases: tuple[str, ...] = (),
           claims: bool = False) -> T:
    """A :class:`~rummy.engine.variants.Variant` field that is a house-rule key: its default and its parser,
    declared together (``run_min: int = option(4, int_between(2, 13))``)."""
    declared: T = field(default=default, metadata={"option": Option(parse, key, aliases, claims)})
    return declared
