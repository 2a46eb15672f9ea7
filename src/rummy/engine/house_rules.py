"""House rules: every key of ``rules.md`` §8, validated, and house variants from TOML or JSON files.


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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummy.engine.errors import VariantError
from rummy.engine.modes import (
    AceMode,
    AfterClaimActiveDraw,
    BookAceMode,
    ClaimLimitScope,
    ClaimMode,
    ClaimPriority,
    ClaimsPerWindow,
    DepletionCheck,
    ExhaustionScoring,
    FirstDealer,
    GoingOutMode,
    JokerSwap,
    JokerSwapTiming,
    KittySplit,
    LayoffTiming,
    Mode,
    PcDiscardPosition,
    RearrangeMode,
    Round8Mode,
    Scoring,
    StockRefill,
    TieBreak,
    WildPolicy,
    WildRelocationScope,
    parse_mode,
)
from rummy.engine.variants import GROUP, JOKER_RANK, RUN, RoundSpec, Slot, Variant, builtin_variant


@dataclass(frozen=True)
class Parser:
    """A house-rule value parser, with what a form control for the value needs: ``control["type"]``
    (``bool``, ``int``, ``choice``, ``set``, ``per_players``, ``payments``, ``schedule``) and its
    ``choices``, ``min``, ``max`` or ``nullable`` (read by the server's variant catalogue)."""

    parse: Callable[[str, Any], Any]
    control: Mapping[str, Any]

    def __call__(self, key: str, value: Any) -> Any:
        return self.parse(key, value)


def _control(kind: str, **spec: Any) -> Callable[[Callable[[str, Any], Any]], Parser]:
    """Decorator: a parser function with its control kind and details."""
    def wrap(parse: Callable[[str, Any], Any]) -> Parser:
        return Parser(parse, {"type": kind, **spec})

    return wrap


@_control("bool")
def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("yes", "no"):
        return bool(value == "yes")
    raise VariantError(f"option {key!r} must be true or false, not {value!r}")


def _int(low: int, high: int | None = None) -> Parser:
    def parse(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise VariantError(f"option {key!r} must be an integer, not {value!r}")
        if value < low or (high is not None and value > high):
            bounds = f"{low}…{high}" if high is not None else f"at least {low}"
            raise VariantError(f"option {key!r} must be {bounds}, not {value}")
        return value

    return Parser(parse, {"type": "int", "min": low, **({"max": high} if high is not None else {})})


def _optional_int(low: int) -> Parser:
    inner = _int(low)

    def parse(key: str, value: Any) -> int | None:
        if value is None or value in ("unlimited", "none"):
            return None
        number: int = inner(key, value)
        return number

    return Parser(parse, {**inner.control, "nullable": True})


def _choice(mode: type[Mode]) -> Parser:
    """A parser taking one of ``mode``'s values (rummy.engine.modes) and returning the member."""

    def parse(key: str, value: Any) -> Mode:
        return parse_mode(mode, key, value)

    return Parser(parse, {"type": "choice", "choices": [member.value for member in mode]})


@_control("set", choices=["JOKER", "2"])
def _wild_ranks(key: str, value: Any) -> frozenset[int]:
    if value is None or value == "none":
        return frozenset()
    if not isinstance(value, list):
        raise VariantError(f"option {key!r} must be a list such as [\"JOKER\", \"2\"], not {value!r}")
    ranks: set[int] = set()
    for item in value:
        if item in ("JOKER", "JK", "joker"):
            ranks.add(JOKER_RANK)
        elif item in ("2", 2):
            ranks.add(2)
        else:
            raise VariantError(f"option {key!r}: only \"JOKER\" and \"2\" can be wild, not {item!r}")
    return frozenset(ranks)


@_control("set", choices=list("A23456789TJQK"))
def _rank_set(key: str, value: Any) -> frozenset[int]:
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


@_control("choice", choices=[1, "cascade"])
def _claims_per_window(key: str, value: Any) -> ClaimsPerWindow:
    if value in (1, ClaimsPerWindow.ONE):  # rules.md writes the number 1
        return ClaimsPerWindow.ONE
    if value == ClaimsPerWindow.CASCADE:
        return ClaimsPerWindow.CASCADE
    raise VariantError(f"option {key!r} must be 1 or \"{ClaimsPerWindow.CASCADE}\", not {value!r}")


@_control("per_players", min=1)
def _players_table(key: str, value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, dict):
        raise VariantError(f"option {key!r} must map player counts to numbers, not {value!r}")
    table = []
    for players, number in value.items():
        try:
            count = int(players)
        except ValueError:
            raise VariantError(f"option {key!r}: {players!r} is not a player count") from None
        table.append((count, _int(1)(key, number)))
    return tuple(sorted(table))


@_control("int", min=1, max=60, nullable=True)
def _deal_size(key: str, value: Any) -> int | None:
    if value is None:
        return None
    size: int = _int(1, 60)(key, value)
    return size


@_control("schedule", min=0)
def _buy_schedule(key: str, value: Any) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise VariantError(f"option {key!r} must be a list of [buys, blind] pairs, one per hand")
    schedule = []
    for entry in value:
        if isinstance(entry, dict):
            entry = [entry.get("buys", 0), entry.get("blind", 0)]
        if not isinstance(entry, list) or len(entry) != 2:
            raise VariantError(f"option {key!r}: {entry!r} is not a [buys, blind] pair")
        schedule.append((_int(0)(key, entry[0]), _int(0)(key, entry[1])))
    return tuple(schedule)


@_control("payments")
def _settlement_table(key: str, value: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
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


OPTION_PARSERS: dict[str, tuple[str, Parser]] = {
    "players.min": ("players_min", _int(2, 8)),
    "players.max": ("players_max", _int(2, 8)),
    "decks": ("decks", _optional_int(1)),
    "jokers_per_deck": ("jokers_per_deck", _int(0, 4)),
    "decks_for_5": ("decks_for_5", _int(1, 4)),
    "first_dealer": ("first_dealer", _choice(FirstDealer)),
    "deal_size": ("deal_size", _deal_size),
    "upcard": ("upcard", _bool),
    "wild_ranks": ("wild_ranks", _wild_ranks),
    "twos_natural_in_place": ("twos_natural_in_place", _bool),
    "ace_mode": ("ace_mode", _choice(AceMode)),
    "run_min": ("run_min", _int(2, 13)),
    "group_min": ("group_min", _int(2, 8)),
    "wild_policy": ("wild_policy", _choice(WildPolicy)),
    "all_wild_melds": ("all_wild_melds", _bool),
    "wild_group_min": ("wild_group_min", _optional_int(2)),
    "wild_group_counts_as_set": ("wild_group_counts_as_set", _bool),
    "pair_wilds": ("pair_wilds", _bool),
    "pair_extendable": ("pair_extendable", _bool),
    "contract_oversize_melds": ("contract_oversize_melds", _bool),
    "contract_exact_sizes": ("contract_exact_sizes", _bool),
    "contract_extra_melds": ("contract_extra_melds", _bool),
    "new_melds_after_laydown": ("new_melds_after_laydown", _bool),
    "max_new_melds_per_turn": ("max_new_melds_per_turn", _optional_int(1)),
    "layoff_requires_down": ("layoff_requires_down", _bool),
    "layoff_timing": ("layoff_timing", _choice(LayoffTiming)),
    "rearrange_mode": ("rearrange_mode", _choice(RearrangeMode)),
    "rearrange_requires_table_card": ("rearrange_requires_table_card", _bool),
    "joker_swap": ("joker_swap", _choice(JokerSwap)),
    "joker_swap_in_groups": ("joker_swap_in_groups", _bool),
    "joker_swap_timing": ("joker_swap_timing", _choice(JokerSwapTiming)),
    "stolen_joker_must_be_played": ("stolen_joker_must_be_played", _bool),
    "wild_relocation_scope": ("wild_relocation_scope", _choice(WildRelocationScope)),
    "claim_mode": ("claim_mode", _choice(ClaimMode)),
    "claim_priority": ("claim_priority", _choice(ClaimPriority)),
    "active_first_refusal": ("active_first_refusal", _bool),
    "claim_penalty_cards": ("claim_penalty_cards", _int(0, 5)),
    "claim_cost": ("claim_cost", _int(0)),
    "blind_card_cost": ("blind_card_cost", _int(0)),
    "claim_limit": ("claim_limit", _optional_int(0)),
    "may_i_limit": ("claim_limit", _optional_int(0)),
    "claim_limit_scope": ("claim_limit_scope", _choice(ClaimLimitScope)),
    "claims_per_window": ("claims_per_window", _claims_per_window),
    "after_claim_active_draw": ("after_claim_active_draw", _choice(AfterClaimActiveDraw)),
    "claim_allowed_when_down": ("claim_allowed_when_down", _bool),
    "discarder_may_claim": ("discarder_may_claim", _bool),
    "may_discard_card_taken_from_discard": ("may_discard_card_taken_from_discard", _bool),
    "going_out_mode": ("going_out_mode", _choice(GoingOutMode)),
    "buy_schedule": ("buy_schedule", _buy_schedule),
    "settlement_unit": ("settlement_unit", _int(0)),
    "settlement_table": ("settlement_table", _settlement_table),
    "kitty_split": ("kitty_split", _choice(KittySplit)),
    "allow_same_rank_groups": ("allow_same_rank_groups", _bool),
    "allow_adjacent_runs": ("allow_adjacent_runs", _bool),
    "final_discard_allowed": ("final_discard_allowed", _bool),
    "round8_mode": ("round8_mode", _choice(Round8Mode)),
    "stock_refill": ("stock_refill", _choice(StockRefill)),
    "depletion_check": ("depletion_check", _choice(DepletionCheck)),
    "refill_keeps_top_discard": ("refill_keeps_top_discard", _bool),
    "exhaustion_scoring": ("exhaustion_scoring", _choice(ExhaustionScoring)),
    "stalemate_detection": ("stalemate_detection", _bool),
    "two_points": ("two_points", _int(0, 100)),
    "rummy_multiplier": ("rummy_multiplier", _int(1, 10)),
    "target_by_players": ("target_by_players", _players_table),
    "tie_break": ("tie_break", _choice(TieBreak)),
    "show_discard_history": ("show_discard_history", _bool),
    "trade_requires_value_rule": ("trade_requires_value_rule", _bool),
    "ace_purchasable_by": ("ace_purchasable_by", _rank_set),
    "pc_discard_position": ("pc_discard_position", _choice(PcDiscardPosition)),
    "book_ace_mode": ("book_ace_mode", _choice(BookAceMode)),
    "match_target": ("match_target", _int(1, 100)),
    "max_turns": ("max_turns", _optional_int(1)),
    "washout_laps": ("washout_laps", _optional_int(1)),
}

# Keys that only make sense for some variants (others accept them but they change nothing).
_CLAIM_KEYS = {
    "claim_priority", "active_first_refusal", "claim_penalty_cards", "claim_cost",
    "claim_limit", "may_i_limit", "claim_limit_scope", "claims_per_window",
    "after_claim_active_draw", "claim_allowed_when_down", "discarder_may_claim",
}


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
    def bad(message: str) -> VariantError:
        return VariantError(f"variant {v.id!r}: {message}")

    if v.players_min > v.players_max:
        raise bad(f"players.min ({v.players_min}) exceeds players.max ({v.players_max})")
    if v.joker_swap is JokerSwap.TO_HAND and JOKER_RANK not in v.wild_ranks and 2 not in v.wild_ranks:
        raise bad("joker_swap = to_hand needs wild cards (wild_ranks)")
    if v.joker_swap is JokerSwap.RELOCATE_IN_RUN and not v.wild_ranks:
        raise bad("joker_swap = relocate_in_run needs wild cards (wild_ranks)")
    if v.claim_mode is ClaimMode.NONE and given & _CLAIM_KEYS:
        keys = ", ".join(sorted(given & _CLAIM_KEYS))
        raise bad(f"{keys} set, but this variant has no claims (claim_mode = none)")
    if v.claim_mode is ClaimMode.PRE_DRAW and "active_first_refusal" in given and v.active_first_refusal:
        pass  # pre_draw with first refusal: the window opens after the active player declines
    if v.claim_mode in (ClaimMode.AFTER_DECLINE, ClaimMode.ACTIVE_FIRST_THEN_OTHERS) and not v.active_first_refusal:
        raise bad(f"active_first_refusal = false contradicts claim_mode = {v.claim_mode}")
    if v.rearrange_mode is not RearrangeMode.NONE and not v.has_contracts:
        raise bad("rearrange_mode needs a contract variant")
    if v.uses_books != (v.scoring is Scoring.BOOK):
        raise bad(f"going_out_mode = {GoingOutMode.BOOK} belongs to book scoring (purchase), and only it")
    if v.uses_books and v.wild_ranks:
        raise bad("purchase has no wild cards")
    if v.decks is not None and v.jokers_per_deck == 0 and JOKER_RANK in v.wild_ranks:
        pass  # jokers wild but none in the pack: legal, just no jokers dealt
    if v.has_contracts and v.contract_exact_sizes and "contract_oversize_melds" in given and (
        v.contract_oversize_melds
    ):
        raise bad("contract_exact_sizes and contract_oversize_melds contradict each other")
    if v.scoring is Scoring.WINNER_COLLECTS and not v.target_by_players:
        raise bad("basic needs target_by_players")
    if v.jokers_per_deck and JOKER_RANK not in v.wild_ranks:
        raise bad("jokers in the pack (jokers_per_deck) must be wild (wild_ranks), or set jokers_per_deck = 0")
    for number, spec in enumerate(v.rounds if v.contract_sizes_exact else (), start=1):
        for slot in spec.contract:
            if v.meld_size(slot) > slot.min_size:  # no meld may be that short: no hand could lay down
                raise bad(f"round {number}'s contract needs a {slot.kind} of exactly {slot.min_size}, shorter "
                          f"than the shortest run allowed (run_min {v.run_min})")


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
                    deal_size=_deal_size("deal", deal),
                    final_discard_allowed=_bool("final_discard_allowed", entry.get("final_discard_allowed", True)),
                )
            )
        variant = dataclasses.replace(variant, rounds=tuple(rounds))
        if variant.buy_schedule is not None:
            schedule = [(_int(0)("buys", e.get("buys", 0)), _int(0)("blind", e.get("blind", 0))) for e in rounds_data]
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


