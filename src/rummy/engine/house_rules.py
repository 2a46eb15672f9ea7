"""House rules: every key of ``rules.md`` §8, validated, and house variants from TOML or JSON files.

The keys, their defaults and their parsers are declared on :class:`~rummy.engine.variants.Variant`'s fields;
:data:`OPTION_PARSERS` reads them from there.

>>> apply_options(get_variant("basic"), {"max_new_melds_per_turn": 1}).max_new_melds_per_turn
1
>>> apply_options(get_variant("basic"), {"colour": "red"})
Traceback (most recent call last):
...
rummy.engine.errors.VariantError: unknown option 'colour' for variant 'basic'
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import rummy.engine.option_values as values
from rummy.engine.errors import VariantError
from rummy.engine.modes import (
    ClaimMode,
    GoingOutMode,
    JokerSwap,
    RearrangeMode,
    Scoring,
)
from rummy.engine.option_values import Option, Parser
from rummy.engine.variants import GROUP, JOKER_RANK, RUN, RoundSpec, Slot, Variant, builtin_variant


def _declared_options() -> dict[str, tuple[str, Option]]:
    """Every house-rule key, read from the :class:`Variant` fields declared with
    :func:`~rummy.engine.option_values.option`: key (and alias) -> (attribute, declaration), in field order."""
    table: dict[str, tuple[str, Option]] = {}
    for declared in dataclasses.fields(Variant):
        spec = declared.metadata.get("option")
        if isinstance(spec, Option):
            for key in (spec.key or declared.name, *spec.aliases):
                table[key] = (declared.name, spec)
    return table


_DECLARED = _declared_options()
#: key -> (Variant attribute, parser); each key is declared once, beside its field in rummy.engine.variants.
OPTION_PARSERS: dict[str, tuple[str, Parser]] = {key: (attribute, spec.parse)
                                                 for key, (attribute, spec) in _DECLARED.items()}
#: The claim rules (declared with ``claims=True``): setting one where nobody may claim a discard is refused.
_CLAIM_KEYS = frozenset(key for key, (_, spec) in _DECLARED.items() if spec.claims)


def get_variant(variant_id: str, options: Mapping[str, Any] | None = None) -> Variant:
    """The built-in (or registered) variant ``variant_id`` with the house rules ``options`` applied.

    >>> get_variant("may-i", {"may_i_limit": 5}).claim_limit
    5
    """
    variant = builtin_variant(variant_id)
    return apply_options(variant, options) if options else variant


def option_keys() -> list[str]:
    """Every house-rule key a record or variant file may set."""
    return sorted(OPTION_PARSERS)


def apply_options(base: Variant, options: Mapping[str, Any]) -> Variant:
    """``base`` with ``options`` applied and validated; a bad key or value raises VariantError."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key not in OPTION_PARSERS:
            raise VariantError(f"unknown option {key!r} for variant {base.id!r}")
        attribute, parse = OPTION_PARSERS[key]
        changes[attribute] = parse(key, value)
    if not changes:
        return base
    merged = dict(base.options)
    merged.setdefault("__base__", base.id_base)
    merged.update(options)
    variant = dataclasses.replace(base, options=tuple(merged.items()), **changes)
    _check_combinations(variant, set(options))
    return variant


def _check_combinations(v: Variant, given: set[str]) -> None:
    """Raise :class:`VariantError` when the options ``given`` make a variant whose rules contradict each
    other (checked in this order: players and wild swaps, claims, books, contracts and the pack)."""
    _check_players_and_swaps(v)
    _check_claims(v, given)
    _check_books(v)
    _check_contracts_and_pack(v, given)


def _bad(v: Variant, message: str) -> VariantError:
    return VariantError(f"variant {v.id!r}: {message}")


def _check_players_and_swaps(v: Variant) -> None:
    if v.players_min > v.players_max:
        raise _bad(v, f"players.min ({v.players_min}) exceeds players.max ({v.players_max})")
    if v.joker_swap is JokerSwap.TO_HAND and JOKER_RANK not in v.wild_ranks and 2 not in v.wild_ranks:
        raise _bad(v, "joker_swap = to_hand needs wild cards (wild_ranks)")
    if v.joker_swap is JokerSwap.RELOCATE_IN_RUN and not v.wild_ranks:
        raise _bad(v, "joker_swap = relocate_in_run needs wild cards (wild_ranks)")


def _check_claims(v: Variant, given: set[str]) -> None:
    if v.claim_mode is ClaimMode.NONE and given & _CLAIM_KEYS:
        keys = ", ".join(sorted(given & _CLAIM_KEYS))
        raise _bad(v, f"{keys} set, but this variant has no claims (claim_mode = none)")
    # pre_draw with first refusal is fine: the window opens after the active player declines.
    if v.claim_mode in (ClaimMode.AFTER_DECLINE, ClaimMode.ACTIVE_FIRST_THEN_OTHERS) and not v.active_first_refusal:
        raise _bad(v, f"active_first_refusal = false contradicts claim_mode = {v.claim_mode}")


def _check_books(v: Variant) -> None:
    if v.rearrange_mode is not RearrangeMode.NONE and not v.has_contracts:
        raise _bad(v, "rearrange_mode needs a contract variant")
    if v.uses_books != (v.scoring is Scoring.BOOK):
        raise _bad(v, f"going_out_mode = {GoingOutMode.BOOK} belongs to book scoring (purchase), and only it")
    if v.uses_books and v.wild_ranks:
        raise _bad(v, "purchase has no wild cards")


def _check_contracts_and_pack(v: Variant, given: set[str]) -> None:
    # Jokers wild but none in the pack (jokers_per_deck = 0) is legal: no jokers are dealt.
    if v.has_contracts and v.contract_exact_sizes and "contract_oversize_melds" in given and (
        v.contract_oversize_melds
    ):
        raise _bad(v, "contract_exact_sizes and contract_oversize_melds contradict each other")
    if v.scoring is Scoring.WINNER_COLLECTS and not v.target_by_players:
        raise _bad(v, "basic needs target_by_players")
    if v.jokers_per_deck and JOKER_RANK not in v.wild_ranks:
        raise _bad(v, "jokers in the pack (jokers_per_deck) must be wild (wild_ranks), or set jokers_per_deck = 0")
    for number, spec in enumerate(v.rounds if v.contract_sizes_exact else (), start=1):
        for slot in spec.contract:
            if v.meld_size(slot) > slot.min_size:  # no meld may be that short: no hand could lay down
                raise _bad(v, f"round {number}'s contract needs a {slot.kind} of exactly {slot.min_size}, "
                              f"shorter than the shortest run allowed (run_min {v.run_min})")


def _parse_contract(text: Any) -> tuple[Slot, ...]:
    if not isinstance(text, list):
        raise VariantError(f"a contract must be a list of [kind, size] pairs, not {text!r}")
    slots = []
    for item in text:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or item[0] not in (GROUP, "set", RUN, "pair")
            or isinstance(item[1], bool)
            or not isinstance(item[1], int)
            or not 2 <= item[1] <= 13
        ):
            raise VariantError(f"bad contract slot {item!r}: use [\"set\", 3] or [\"run\", 4]")
        kind = RUN if item[0] == RUN else GROUP
        slots.append(Slot(kind, item[1]))
    return tuple(slots)


def variant_from_data(data: Mapping[str, Any]) -> Variant:
    """A house variant from a mapping: ``id``, ``base``, optional ``name``, ``options``, ``rounds``.

    >>> v = variant_from_data({"id": "family", "base": "may-i", "options": {"may_i_limit": 5}})
    >>> v.id, v.claim_limit
    ('family', 5)
    """
    unknown = set(data) - {"id", "base", "name", "options", "rounds"}
    if unknown:
        raise VariantError(f"unknown key(s) in variant file: {', '.join(sorted(unknown))}")
    if "base" not in data or "id" not in data:
        raise VariantError("a variant file needs 'id' and 'base'")
    variant_id = data["id"]
    if not isinstance(variant_id, str) or not variant_id:
        raise VariantError("variant 'id' must be a non-empty string")
    base = builtin_variant(str(data["base"]))
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise VariantError("variant 'options' must be a table of house-rule keys")
    variant = dataclasses.replace(
        base,
        id=variant_id,
        name=str(data.get("name", f"{base.name} (house rules)")),
        options=(("__base__", base.id_base),),
    )
    if "rounds" in data:
        rounds_data = data["rounds"]
        if not base.has_contracts:
            raise VariantError("only contract variants have 'rounds'")
        if not isinstance(rounds_data, list) or not rounds_data:
            raise VariantError("'rounds' must be a non-empty list")
        rounds = []
        for index, entry in enumerate(rounds_data, start=1):
            if not isinstance(entry, Mapping) or "contract" not in entry:
                raise VariantError(f"round {index} needs a 'contract'")
            extra = set(entry) - {"contract", "deal", "final_discard_allowed", "buys", "blind"}
            if extra:
                raise VariantError(f"round {index}: unknown key(s) {', '.join(sorted(extra))}")
            contract = _parse_contract(entry["contract"])
            deal = entry.get("deal", base.rounds[0].deal_size if base.rounds else None)
            rounds.append(
                RoundSpec(
                    contract,
                    deal_size=values.deal_size("deal", deal),
                    final_discard_allowed=values.yes_no("final_discard_allowed",
                                                         entry.get("final_discard_allowed", True)),
                )
            )
        variant = dataclasses.replace(variant, rounds=tuple(rounds))
        if variant.buy_schedule is not None:
            count = values.int_between(0)
            schedule = [(count("buys", e.get("buys", 0)), count("blind", e.get("blind", 0))) for e in rounds_data]
            variant = dataclasses.replace(variant, buy_schedule=tuple(schedule))
    variant = apply_options(variant, options)
    return variant


def load_variant_file(path: str | Path) -> Variant:
    """Read a house variant from a ``.toml`` or ``.json`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise VariantError(f"cannot read variant file {str(path)!r}: {error.strerror}") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        raise VariantError(f"variant file {path.name!r} does not parse: {error}") from None
    if not isinstance(data, dict):
        raise VariantError(f"variant file {path.name!r} must hold a table")
    return variant_from_data(data)


