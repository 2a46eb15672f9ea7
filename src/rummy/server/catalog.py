"""What a table can be: the variants with their house-rule options (``GET /api/variants``), and the
checked configuration of a new table (``POST /api/tables``).

>>> config = TableConfig.from_request({"variant": "may-i", "seats": 4, "bots": {"3": "easy"}})
>>> config.seats, config.bots, config.claim_seconds
(4, {3: 'easy'}, 5.0)
>>> TableConfig.from_request({"variant": "may-i", "seats": 9})
Traceback (most recent call last):
...
rummy.server.catalog.RequestError: bad-seats: may-i is for 3–8 players, not 9
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rummy.bots import BOTS, LEVELS
from rummy.cards import RANKS
from rummy.errors import VariantError
from rummy.house_rules import OPTION_PARSERS, apply_options
from rummy.variants import VARIANTS, Variant, get_variant

REQUEST_KEYS = {"variant", "seats", "options", "bots", "turn_seconds", "claim_seconds", "bot_takeover",
                "round_pause"}
BOT_LEVELS = tuple(LEVELS) + tuple(BOTS)  # levels (easy …) or bot names (random …)
SEAT_KEY = re.compile(r"[0-9]{1,2}")


class RequestError(ValueError):
    """A bad request body: a stable ``code`` and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _number(body: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RequestError("bad-request", f"{key} must be a number of seconds")
    if not low <= value <= high:
        raise RequestError("bad-request", f"{key} must be between {low:g} and {high:g}, not {value:g}")
    return float(value)


@dataclass(frozen=True)
class TableConfig:
    """A table's settings, fixed at creation."""

    variant: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[int, str] = field(default_factory=dict)
    turn_seconds: float = 0.0
    claim_seconds: float = 5.0
    bot_takeover: bool = True
    round_pause: float | None = None  # None: the server's setting

    def rules(self) -> Variant:
        return get_variant(self.variant, self.options)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "seats": self.seats, "options": self.options,
            "bots": {str(seat): level for seat, level in self.bots.items()},
            "turn_seconds": self.turn_seconds, "claim_seconds": self.claim_seconds,
            "bot_takeover": self.bot_takeover, "round_pause": self.round_pause,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        """Read a stored configuration (trusted: it was checked when the table was made)."""
        return cls(
            variant=data["variant"], seats=int(data["seats"]), options=dict(data.get("options") or {}),
            bots={int(seat): str(level) for seat, level in (data.get("bots") or {}).items()},
            turn_seconds=float(data.get("turn_seconds", 0)), claim_seconds=float(data.get("claim_seconds", 5)),
            bot_takeover=bool(data.get("bot_takeover", True)), round_pause=data.get("round_pause"),
        )

    @classmethod
    def from_request(cls, body: Any) -> TableConfig:
        """Check a ``POST /api/tables`` body; raises :class:`RequestError` naming what is wrong."""
        if not isinstance(body, dict):
            raise RequestError("bad-request", "the body must be a JSON object")
        unknown = sorted(set(body) - REQUEST_KEYS)
        if unknown:
            raise RequestError("bad-request", f"unknown field(s): {', '.join(unknown)}")
        variant_id = body.get("variant")
        if not isinstance(variant_id, str) or variant_id not in VARIANTS:
            raise RequestError("bad-variant", f"unknown variant {variant_id!r} (known: {', '.join(VARIANTS)})")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise RequestError("bad-option", "options must be an object of house-rule keys")
        try:
            rules = get_variant(variant_id, options)
        except VariantError as error:
            raise RequestError("bad-option", str(error)) from None
        seats = body.get("seats", max(rules.players_min, min(4, rules.players_max)))
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise RequestError("bad-seats", "seats must be a whole number")
        if not rules.players_min <= seats <= rules.players_max:
            raise RequestError(
                "bad-seats", f"{variant_id} is for {rules.players_min}–{rules.players_max} players, not {seats}"
            )
        bots_given = body.get("bots") or {}
        if not isinstance(bots_given, dict):
            raise RequestError("bad-bot", "bots must map seat numbers to levels, e.g. {\"2\": \"easy\"}")
        bots: dict[int, str] = {}
        for key, level in bots_given.items():
            # ASCII digits only: str.isdigit() also takes "²" (int() refuses it) and "١" (int() reads 1)
            if not SEAT_KEY.fullmatch(key) or not 1 <= int(key) < seats:
                raise RequestError("bad-bot", f"bot seat {key!r} must be 1–{seats - 1} (the host sits in seat 0)")
            if level not in BOT_LEVELS:
                raise RequestError("bad-bot", f"unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})")
            bots[int(key)] = level
        takeover = body.get("bot_takeover", True)
        if not isinstance(takeover, bool):
            raise RequestError("bad-request", "bot_takeover must be true or false")
        pause = body.get("round_pause")
        return cls(
            variant=variant_id, seats=seats, options=options, bots=dict(sorted(bots.items())),
            turn_seconds=_number(body, "turn_seconds", 0, 0, 3600),
            claim_seconds=_number(body, "claim_seconds", 5, 0, 600),
            bot_takeover=takeover,
            round_pause=None if pause is None else _number(body, "round_pause", 0, 0, 600),
        )


# -- the variant catalogue ------------------------------------------------------------------------


def _closure(function: Any) -> dict[str, Any]:
    """The values a parser closed over (``choices``, ``low``, ``high`` …) — how house_rules builds them."""
    code = getattr(function, "__code__", None)
    cells = getattr(function, "__closure__", None) or ()
    if code is None:
        return {}
    return {name: cell.cell_contents for name, cell in zip(code.co_freevars, cells, strict=False)}


def _option_type(key: str, default: Any) -> dict[str, Any]:
    _, parse = OPTION_PARSERS[key]
    bound = _closure(parse)
    if "inner" in bound:  # an integer or null
        return {"type": "int", "nullable": True, **_bounds(_closure(bound["inner"]))}
    if "choices" in bound:
        return {"type": "choice", "choices": list(bound["choices"])}
    if isinstance(default, bool):
        return {"type": "bool"}
    if "low" in bound:
        return {"type": "int", **_bounds(bound)}
    return {"type": "json"}


def _bounds(bound: dict[str, Any]) -> dict[str, Any]:
    limits = {"min": bound.get("low")}
    if bound.get("high") is not None:
        limits["max"] = bound["high"]
    return {k: v for k, v in limits.items() if v is not None}


def option_value(key: str, value: Any) -> Any:
    """A variant attribute as the JSON value its option key takes."""
    if key == "wild_ranks":
        return ["JOKER" if rank == 0 else "2" for rank in sorted(value)]
    if key == "ace_purchasable_by":
        return [RANKS[rank - 1] for rank in sorted(value)]
    if key in ("target_by_players", "settlement_table"):
        return {str(players): list(v) if isinstance(v, tuple) else v for players, v in value}
    if key == "buy_schedule":
        return None if value is None else [list(pair) for pair in value]
    if key == "claims_per_window":
        return 1 if value == "1" else value
    return value


@cache
def variant_catalog() -> list[dict[str, Any]]:
    """``GET /api/variants``: every built-in variant with the options a table may set."""
    catalog = []
    for variant in VARIANTS.values():
        options = []
        for key, (attribute, _) in sorted(OPTION_PARSERS.items()):
            if key == "may_i_limit":
                continue
            default = option_value(key, getattr(variant, attribute))
            try:
                apply_options(variant, {key: default})
            except VariantError:
                continue  # a key this variant refuses (claim keys without claims …)
            options.append({"key": key, "default": default, **_option_type(key, default)})
        catalog.append({
            "id": variant.id, "name": variant.name,
            "players": [variant.players_min, variant.players_max],
            "rounds": variant.round_count,
            "options": options,
        })
    return catalog
