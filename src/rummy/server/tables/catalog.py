"""What a table can be: the variants with their house rules in words (``GET /api/variants``), how to
play them (``GET /api/tables/{id}/help``), and the checked configuration of a new table (``POST /api/tables``).

>>> config = TableConfig.from_request({"variant": "may-i", "seats": 4, "bots": {"3": "easy"}})
>>> config.seats, config.bots, config.claim_seconds
(4, {3: 'easy'}, 5.0)
>>> TableConfig.from_request({"variant": "may-i", "seats": 9})
Traceback (most recent call last):
...
rummy.server.tables.catalog.RequestError: bad-seats: may-i is for 3–8 players, not 9
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rummy.bots import LEVELS
from rummy.engine import OPTION_PARSERS, VARIANTS, Variant, VariantError, apply_options, get_variant
from rummy.text.house_rule_docs import GROUPS, RULE_DOCS, choice_words, value_words, variant_value
from rummy.text.how_to_play import blurb, glossary, how_to_play

REQUEST_KEYS = {"variant", "seats", "options", "bots", "turn_seconds", "claim_seconds", "bot_takeover",
                "round_pause"}
# Levels (easy …), the bot names behind them (random …) and ``learned`` (its shipped policy); bots that need
# options of their own (a model, a policy file) are for the simulator, not for a table.
BOT_LEVELS = tuple(LEVELS) + tuple(dict.fromkeys(LEVELS.values())) + ("learned",)
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
        if (problem := rules.deal_problem(seats)) is not None:
            raise RequestError("bad-option", f"with these house rules {problem}")
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


def option_entry(variant: Variant, key: str) -> dict[str, Any]:
    """One house rule of ``variant`` for the create-table panel: its words, default and control."""
    doc = RULE_DOCS[key]
    control = dict(OPTION_PARSERS[key][1].control)
    default = variant_value(variant, key)
    entry: dict[str, Any] = {"key": key, "group": doc.group, "label": doc.label, "description": doc.description,
                             "default": default, "default_words": value_words(key, default), **control}
    if "choices" in control:
        entry["choices"] = choice_words(key)
    if control.get("nullable"):
        entry["null_words"] = doc.null
    if doc.unit:
        entry["unit"] = doc.unit
    return entry


def _settable(variant: Variant, key: str) -> bool:
    """A house rule a table of ``variant`` may set and that means something there (the seat count is
    chosen on its own, so ``players.min`` / ``players.max`` are not listed)."""
    if key.startswith("players.") or key == "may_i_limit" or not RULE_DOCS[key].applies(variant):
        return False
    try:
        apply_options(variant, {key: variant_value(variant, key)})
    except VariantError:
        return False  # a key this variant refuses (claim keys without claims …)
    return True


def rules_help(variant: Variant, players: int | None = None) -> dict[str, Any]:
    """How to play ``variant`` (with its house rules) in words: the help panel and the table's tooltips."""
    return {"variant": variant.id, "name": variant.name, "sections": how_to_play(variant, players),
            "glossary": glossary(variant)}


@cache
def variant_catalog() -> list[dict[str, Any]]:
    """``GET /api/variants``: every built-in variant, how to play it, and the house rules a table may set."""
    catalog = []
    for variant in VARIANTS.values():
        catalog.append({
            "id": variant.id, "name": variant.name,
            "players": [variant.players_min, variant.players_max],
            "rounds": variant.round_count,
            "blurb": blurb(variant),
            "help": rules_help(variant),
            "groups": [{"id": group, "title": title} for group, title in GROUPS.items()],
            "options": [option_entry(variant, key) for key in RULE_DOCS if _settable(variant, key)],
        })
    return catalog
