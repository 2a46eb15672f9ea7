"""The five variants as data, and every house-rule key of ``rules.md`` §8.

A :class:`Variant` is a frozen record: identity, pack, rounds with their contracts, and one
attribute per house-rule key (``players.min`` is ``players_min``).  :func:`get_variant` looks a
variant up and applies option overrides; :func:`load_variant_file` reads a house variant from a
TOML or JSON file.  Every key and value is validated; a bad one raises :class:`VariantError`
naming it.

>>> v = get_variant("may-i", {"may_i_limit": 2})
>>> v.claim_limit, v.decks_for(5)
(2, 3)
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy.errors import VariantError

GROUP = "group"
RUN = "run"

# Values a 2 or the joker have as "rank" in point tables: index 0 is the joker.
JOKER_RANK = 0


@dataclass(frozen=True, slots=True)
class Slot:
    """One contract slot: a group or run of at least ``min_size`` cards."""

    kind: str
    min_size: int

    def __str__(self) -> str:
        if self.kind == GROUP and self.min_size == 2:
            return "a pair"
        noun = "set" if self.kind == GROUP else "run"
        return f"a {noun} of {self.min_size}"


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """Data of one round (hand): its contract, and per-round settings that vary."""

    contract: tuple[Slot, ...] = ()
    deal_size: int | None = None
    final_discard_allowed: bool = True
    buys: int | None = None
    blind: int = 0


@dataclass(frozen=True, slots=True)
class RoundRules:
    """Everything that depends on the round number and player count, resolved once per round."""

    number: int
    deal_size: int
    contract: tuple[Slot, ...]
    final_discard_allowed: bool
    must_go_out_on_laydown: bool
    claim_limit: int | None
    penalty_cards: int
    claims_open: bool


@dataclass(frozen=True)
class Variant:
    """A rule set: a built-in variant with its house-rule options applied."""

    id: str
    name: str
    seed: str
    rounds: tuple[RoundSpec, ...]
    scoring: str  # "penalty", "winner_collects" or "book"
    card_points: tuple[int, ...]  # index = rank (0 = joker, 1 = ace … 13 = king)
    players_min: int = 3
    players_max: int = 8
    decks: int | None = 1
    jokers_per_deck: int = 0
    decks_for_5: int = 3
    first_dealer: str = "random"
    deal_size: int | None = None
    deal_size_by_players: tuple[tuple[int, int], ...] = ()
    upcard: bool = True
    wild_ranks: frozenset[int] = frozenset()
    twos_natural_in_place: bool = False
    ace_mode: str = "low_or_high"
    run_min: int = 4
    group_min: int = 3
    wild_policy: str = "none"
    all_wild_melds: bool = False
    wild_group_min: int | None = None
    wild_group_counts_as_set: bool = False
    pair_wilds: bool = True
    pair_extendable: bool = True
    contract_oversize_melds: bool = True
    contract_exact_sizes: bool = False
    contract_extra_melds: bool = False
    new_melds_after_laydown: bool = False
    max_new_melds_per_turn: int | None = None
    layoff_requires_down: bool = True
    layoff_timing: str = "same_turn"
    rearrange_mode: str = "none"
    rearrange_requires_table_card: bool = True
    joker_swap: str = "none"
    joker_swap_in_groups: bool = False
    joker_swap_timing: str = "next_turn"
    stolen_joker_must_be_played: bool = False
    wild_relocation_scope: str = "same_run"
    claim_mode: str = "none"
    claim_priority: str = "rotation"
    active_first_refusal: bool = True
    claim_penalty_cards: int = 1
    claim_cost: int = 0
    blind_card_cost: int = 0
    claim_limit: int | None = None
    claim_limit_scope: str = "player"
    claims_per_window: str = "1"
    after_claim_active_draw: str = "stock_only"
    claim_allowed_when_down: bool = True
    discarder_may_claim: bool = True
    may_discard_card_taken_from_discard: bool = True
    going_out_mode: str = "discard_or_meld"
    buy_schedule: tuple[tuple[int, int], ...] | None = None
    settlement_unit: int | None = None
    settlement_table: tuple[tuple[int, tuple[int, ...]], ...] = ()
    kitty_split: str = "winner_all"
    allow_same_rank_groups: bool = True
    allow_adjacent_runs: bool = True
    final_discard_allowed: bool | None = None
    round8_mode: str = "no_final_discard"
    stock_refill: str = "keep_top"
    depletion_check: str = "turn_start"
    refill_keeps_top_discard: bool = False
    exhaustion_scoring: str = "penalty"
    stalemate_detection: bool = False
    two_points: int = 5
    rummy_multiplier: int = 1
    target_by_players: tuple[tuple[int, int], ...] = ()
    tie_break: str = "shared"
    show_discard_history: bool = False
    trade_requires_value_rule: bool = True
    ace_purchasable_by: frozenset[int] = frozenset({1, 2})
    pc_discard_position: str = "in_place"
    book_ace_mode: str = "high_only"
    match_target: int = 1
    max_turns: int | None = None
    options: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    # -- derived facts -------------------------------------------------------------------

    @property
    def has_contracts(self) -> bool:
        """True for the three contract variants (rounds with lay-down requirements)."""
        return self.scoring == "penalty"

    @property
    def round_count(self) -> int | None:
        """Number of rounds in a game, or None when the game runs to a target."""
        return len(self.rounds) if self.rounds else None

    def decks_for(self, players: int) -> int:
        """Decks in the pack for ``players`` seats (``may-i`` adds decks with players)."""
        if self.decks is not None:
            return self.decks
        if players == 5:
            return self.decks_for_5
        return max(2, (players + 1) // 2)

    def pack_size(self, players: int) -> int:
        """Cards in the pack for ``players`` seats."""
        return self.decks_for(players) * (52 + self.jokers_per_deck)

    def is_wild(self, card: int) -> bool:
        """True when ``card`` (an int of :mod:`rummy.cards`) is a wild card here."""
        if card == 52:
            return JOKER_RANK in self.wild_ranks
        return 2 in self.wild_ranks and card % 13 == 1

    def points(self, card: int) -> int:
        """Penalty (or collected) value of ``card``."""
        if card == 52:
            return self.card_points[JOKER_RANK]
        rank = card % 13 + 1
        if rank == 2:
            return self.two_points
        return self.card_points[rank]

    def round_rules(self, number: int, players: int) -> RoundRules:
        """The resolved rules of round ``number`` (1-based) for ``players`` seats."""
        spec = self.rounds[number - 1] if self.rounds else RoundSpec()
        deal = self.deal_size
        if deal is None:
            deal = spec.deal_size
        if deal is None:
            deal = dict(self.deal_size_by_players).get(players, 0)
        final_discard = spec.final_discard_allowed
        if self.final_discard_allowed is not None:
            final_discard = self.final_discard_allowed
        last_round = self.round_count == number and self.id_base == "progressive-buy-it"
        must_go_out = False
        if last_round and not spec.final_discard_allowed and self.final_discard_allowed is None:
            if self.round8_mode == "keep_one_for_discard":
                final_discard = True
            elif self.round8_mode == "must_go_out_on_laydown":
                must_go_out = True
        if self.going_out_mode == "meld_only":
            final_discard = False
        limit = self.claim_limit
        penalty = self.claim_penalty_cards
        if self.buy_schedule is not None:
            buys, blind = self.buy_schedule[number - 1] if number <= len(self.buy_schedule) else (0, 0)
            limit, penalty = buys, blind
        claims_open = self.claim_mode != "none" and (limit is None or limit > 0)
        return RoundRules(
            number=number,
            deal_size=deal,
            contract=spec.contract,
            final_discard_allowed=final_discard,
            must_go_out_on_laydown=must_go_out,
            claim_limit=limit,
            penalty_cards=penalty,
            claims_open=claims_open,
        )

    @property
    def id_base(self) -> str:
        """The built-in variant this one derives from."""
        base = dict(self.options).get("__base__", self.id)
        return str(base)

    def target(self, players: int) -> int | None:
        """The winning target of ``basic`` for ``players`` seats."""
        return dict(self.target_by_players).get(players)

    def settlement_payments(self, players: int) -> tuple[int, ...] | None:
        """Position payments for ``players`` seats (best first), or None without money."""
        table = dict(self.settlement_table)
        if players in table:
            return table[players]
        if self.settlement_unit is None:
            return None
        unit = self.settlement_unit
        received = unit * players * (players - 1) // 2
        return (received, *(-unit * (k - 1) for k in range(2, players + 1)))


# -- the built-in variants ------------------------------------------------------------------


def _slots(*spec: tuple[str, int]) -> tuple[Slot, ...]:
    return tuple(Slot(kind, size) for kind, size in spec)


def _points(joker: int, ace: int, low: int, ten: int, face: int, two: int = 0) -> tuple[int, ...]:
    # index: 0 joker, 1 ace, 2..9 low cards, 10 ten, 11..13 face cards
    return (joker, ace, two, *([low] * 7), ten, face, face, face)


S3, S4, S5, R3, R4, R5, PAIR = (
    (GROUP, 3), (GROUP, 4), (GROUP, 5), (RUN, 3), (RUN, 4), (RUN, 5), (GROUP, 2),
)

PROGRESSIVE_BUY_IT = Variant(
    id="progressive-buy-it",
    name="Progressive Rummy — I'll Buy It",
    seed="000",
    rounds=tuple(
        RoundSpec(_slots(*contract), deal_size=deal, final_discard_allowed=deal != 13)
        for deal, contract in [
            (6, (S3, S3)),
            (7, (R4, S3)),
            (8, (R4, R4)),
            (9, (S3, S3, S3)),
            (10, (S3, S3, R4)),
            (11, (R4, R4, S3)),
            (12, (R4, R4, R4)),
            (13, (S3, S3, S3, R4)),
        ]
    ),
    scoring="penalty",
    card_points=_points(joker=25, ace=15, low=5, ten=10, face=10, two=5),
    players_min=3,
    players_max=8,
    decks=3,
    jokers_per_deck=2,
    wild_ranks=frozenset({JOKER_RANK}),
    run_min=4,
    group_min=3,
    wild_policy="none",
    all_wild_melds=True,
    layoff_timing="next_turn",
    rearrange_mode="seed000",
    joker_swap="to_hand",
    joker_swap_in_groups=True,
    joker_swap_timing="next_turn",
    claim_mode="pre_draw",
    claim_priority="first_call",
    active_first_refusal=False,
    claim_penalty_cards=1,
    claims_per_window="1",
    after_claim_active_draw="stock_only",
    two_points=5,
    show_discard_history=True,
)

PROGRESSIVE_15 = Variant(
    id="progressive-15",
    name="Progressive Rummy — 15 Contracts (Eveleigh)",
    seed="001",
    rounds=tuple(
        RoundSpec(_slots(*contract), deal_size=11)
        for contract in [
            (S3, S3),
            (S3, R4),
            (S4, S4),
            (R4, R4),
            (S3, S3, R4),
            (S4, R5),
            (S5, S5),
            (R5, R5),
            (S3, S3, S3, S3),
            (R4, R4, R4),
            (S4, S4, S4),
            (R3, R3, R3, R3, R3),
            (S3, S3, S3, S3, S3),
            (S5, R5, PAIR),
            (S3, S3, R5),
        ]
    ),
    scoring="penalty",
    card_points=_points(joker=20, ace=15, low=5, ten=5, face=10, two=20),
    players_min=3,
    players_max=6,
    decks=2,
    jokers_per_deck=2,
    wild_ranks=frozenset({JOKER_RANK, 2}),
    run_min=3,
    group_min=3,
    wild_policy="none",
    all_wild_melds=True,
    pair_wilds=True,
    pair_extendable=True,
    layoff_timing="same_turn",
    claim_mode="active_first_then_others",
    claim_priority="rotation",
    claim_cost=1,
    claims_per_window="cascade",
    after_claim_active_draw="stock_or_new_top",
    buy_schedule=tuple([(0, 0)] * 8 + [(1, 0)] * 3 + [(2, 1)] * 2 + [(1, 0), (0, 0)]),
    settlement_unit=2,
    two_points=20,
)

MAY_I = Variant(
    id="may-i",
    name="May I? (Progression)",
    seed="002",
    rounds=tuple(
        RoundSpec(_slots(*contract), deal_size=11)
        for contract in [
            (S3, S3),
            (S3, R4),
            (R4, R4),
            (S3, S3, S3),
            (S3, S3, R4),
            (R4, R4, S3),
            (R4, R4, R4),
        ]
    ),
    scoring="penalty",
    card_points=(10, 15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10),  # 2–7: 5, 8–K: 10, A: 15
    players_min=3,
    players_max=8,
    decks=None,
    jokers_per_deck=2,
    decks_for_5=3,
    first_dealer="high_card_draw",
    wild_ranks=frozenset({JOKER_RANK, 2}),
    run_min=4,
    group_min=3,
    wild_policy="not_outnumber",
    all_wild_melds=False,
    wild_group_min=3,
    wild_group_counts_as_set=True,
    layoff_timing="same_turn",
    joker_swap="relocate_in_run",
    joker_swap_timing="same_turn",
    claim_mode="after_decline",
    claim_priority="rotation",
    claim_penalty_cards=1,
    claim_limit=3,
    claims_per_window="1",
    after_claim_active_draw="stock_only",
    two_points=10,
)

BASIC = Variant(
    id="basic",
    name="Basic Rummy",
    seed="003",
    rounds=(),
    scoring="winner_collects",
    card_points=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    players_min=2,
    players_max=4,
    decks=1,
    jokers_per_deck=0,
    deal_size_by_players=((2, 10), (3, 7), (4, 7)),
    ace_mode="low_only",
    run_min=3,
    group_min=3,
    layoff_requires_down=False,
    layoff_timing="always",
    new_melds_after_laydown=True,
    may_discard_card_taken_from_discard=False,
    stock_refill="whole_pile_once",
    exhaustion_scoring="void",
    stalemate_detection=True,
    two_points=2,
    rummy_multiplier=2,
    target_by_players=((2, 100), (3, 150), (4, 200)),
)

PURCHASE = Variant(
    id="purchase",
    name="Bookstore (Purchase-Card Rummy)",
    seed="004",
    rounds=(),
    scoring="book",
    card_points=(0,) * 14,
    players_min=2,
    players_max=6,
    decks=1,
    jokers_per_deck=0,
    deal_size=5,
    ace_mode="high_only",
    going_out_mode="book",
    two_points=0,
    show_discard_history=True,
)

VARIANTS: dict[str, Variant] = {
    v.id: v for v in (PROGRESSIVE_BUY_IT, PROGRESSIVE_15, MAY_I, BASIC, PURCHASE)
}
ALIASES = {
    "buy-it": "progressive-buy-it",
    "ill-buy-it": "progressive-buy-it",
    "progressive-15-contracts": "progressive-15",
    "may-i?": "may-i",
    "progression": "may-i",
    "continental": "may-i",
    "basic-rummy": "basic",
    "bookstore": "purchase",
}

# -- options ----------------------------------------------------------------------------------


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("yes", "no"):
        return bool(value == "yes")
    raise VariantError(f"option {key!r} must be true or false, not {value!r}")


def _int(low: int, high: int | None = None) -> Callable[[str, Any], int]:
    def parse(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise VariantError(f"option {key!r} must be an integer, not {value!r}")
        if value < low or (high is not None and value > high):
            bounds = f"{low}…{high}" if high is not None else f"at least {low}"
            raise VariantError(f"option {key!r} must be {bounds}, not {value}")
        return value

    return parse


def _optional_int(low: int) -> Callable[[str, Any], int | None]:
    inner = _int(low)

    def parse(key: str, value: Any) -> int | None:
        if value is None or value in ("unlimited", "none"):
            return None
        return inner(key, value)

    return parse


def _choice(*choices: str) -> Callable[[str, Any], str]:
    def parse(key: str, value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            listed = ", ".join(repr(c) for c in choices)
            raise VariantError(f"option {key!r} must be one of {listed}, not {value!r}")
        return value

    return parse


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


def _claims_per_window(key: str, value: Any) -> str:
    if value in (1, "1"):
        return "1"
    if value == "cascade":
        return "cascade"
    raise VariantError(f"option {key!r} must be 1 or \"cascade\", not {value!r}")


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


def _deal_size(key: str, value: Any) -> int | None:
    if value is None:
        return None
    return _int(1, 60)(key, value)


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


OPTION_PARSERS: dict[str, tuple[str, Callable[[str, Any], Any]]] = {
    "players.min": ("players_min", _int(2, 8)),
    "players.max": ("players_max", _int(2, 8)),
    "decks": ("decks", _optional_int(1)),
    "jokers_per_deck": ("jokers_per_deck", _int(0, 4)),
    "decks_for_5": ("decks_for_5", _int(1, 4)),
    "first_dealer": ("first_dealer", _choice("random", "high_card_draw", "first_seat")),
    "deal_size": ("deal_size", _deal_size),
    "upcard": ("upcard", _bool),
    "wild_ranks": ("wild_ranks", _wild_ranks),
    "twos_natural_in_place": ("twos_natural_in_place", _bool),
    "ace_mode": ("ace_mode", _choice("low_or_high", "low_only", "high_only")),
    "run_min": ("run_min", _int(2, 13)),
    "group_min": ("group_min", _int(2, 8)),
    "wild_policy": ("wild_policy", _choice("none", "not_outnumber", "at_most_one")),
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
    "layoff_timing": ("layoff_timing", _choice("next_turn", "same_turn", "always")),
    "rearrange_mode": ("rearrange_mode", _choice("seed000", "unrestricted", "none")),
    "rearrange_requires_table_card": ("rearrange_requires_table_card", _bool),
    "joker_swap": ("joker_swap", _choice("to_hand", "none", "relocate_in_run")),
    "joker_swap_in_groups": ("joker_swap_in_groups", _bool),
    "joker_swap_timing": ("joker_swap_timing", _choice("next_turn", "same_turn")),
    "stolen_joker_must_be_played": ("stolen_joker_must_be_played", _bool),
    "wild_relocation_scope": ("wild_relocation_scope", _choice("same_run", "hand")),
    "claim_mode": (
        "claim_mode",
        _choice("pre_draw", "active_first_then_others", "after_decline", "none"),
    ),
    "claim_priority": ("claim_priority", _choice("first_call", "rotation")),
    "active_first_refusal": ("active_first_refusal", _bool),
    "claim_penalty_cards": ("claim_penalty_cards", _int(0, 5)),
    "claim_cost": ("claim_cost", _int(0)),
    "blind_card_cost": ("blind_card_cost", _int(0)),
    "claim_limit": ("claim_limit", _optional_int(0)),
    "may_i_limit": ("claim_limit", _optional_int(0)),
    "claim_limit_scope": ("claim_limit_scope", _choice("player", "table")),
    "claims_per_window": ("claims_per_window", _claims_per_window),
    "after_claim_active_draw": ("after_claim_active_draw", _choice("stock_only", "stock_or_new_top")),
    "claim_allowed_when_down": ("claim_allowed_when_down", _bool),
    "discarder_may_claim": ("discarder_may_claim", _bool),
    "may_discard_card_taken_from_discard": ("may_discard_card_taken_from_discard", _bool),
    "going_out_mode": (
        "going_out_mode",
        _choice("discard_or_meld", "meld_only", "must_discard", "book"),
    ),
    "buy_schedule": ("buy_schedule", _buy_schedule),
    "settlement_unit": ("settlement_unit", _int(0)),
    "settlement_table": ("settlement_table", _settlement_table),
    "kitty_split": ("kitty_split", _choice("winner_all", "two_thirds_one_third")),
    "allow_same_rank_groups": ("allow_same_rank_groups", _bool),
    "allow_adjacent_runs": ("allow_adjacent_runs", _bool),
    "final_discard_allowed": ("final_discard_allowed", _bool),
    "round8_mode": (
        "round8_mode",
        _choice("no_final_discard", "must_go_out_on_laydown", "keep_one_for_discard"),
    ),
    "stock_refill": ("stock_refill", _choice("keep_top", "whole_pile_once", "none")),
    "depletion_check": ("depletion_check", _choice("turn_start", "on_last_card_drawn")),
    "refill_keeps_top_discard": ("refill_keeps_top_discard", _bool),
    "exhaustion_scoring": ("exhaustion_scoring", _choice("penalty", "void")),
    "stalemate_detection": ("stalemate_detection", _bool),
    "two_points": ("two_points", _int(0, 100)),
    "rummy_multiplier": ("rummy_multiplier", _int(1, 10)),
    "target_by_players": ("target_by_players", _players_table),
    "tie_break": ("tie_break", _choice("shared", "last_round")),
    "show_discard_history": ("show_discard_history", _bool),
    "trade_requires_value_rule": ("trade_requires_value_rule", _bool),
    "ace_purchasable_by": ("ace_purchasable_by", _rank_set),
    "pc_discard_position": ("pc_discard_position", _choice("in_place", "top")),
    "book_ace_mode": ("book_ace_mode", _choice("high_only", "low_or_high")),
    "match_target": ("match_target", _int(1, 100)),
    "max_turns": ("max_turns", _optional_int(1)),
}

# Keys that only make sense for some variants (others accept them but they change nothing).
_CLAIM_KEYS = {
    "claim_priority", "active_first_refusal", "claim_penalty_cards", "claim_cost",
    "claim_limit", "may_i_limit", "claim_limit_scope", "claims_per_window",
    "after_claim_active_draw", "claim_allowed_when_down", "discarder_may_claim",
}


def option_keys() -> list[str]:
    """Every house-rule key a record or variant file may set."""
    return sorted(OPTION_PARSERS)


def apply_options(base: Variant, options: Mapping[str, Any]) -> Variant:
    """``base`` with ``options`` applied and validated.

    >>> apply_options(VARIANTS["basic"], {"max_new_melds_per_turn": 1}).max_new_melds_per_turn
    1
    >>> apply_options(VARIANTS["basic"], {"colour": "red"})
    Traceback (most recent call last):
    ...
    rummy.errors.VariantError: unknown option 'colour' for variant 'basic'
    """
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
    if v.joker_swap == "to_hand" and JOKER_RANK not in v.wild_ranks and not (
        2 in v.wild_ranks
    ):
        raise bad("joker_swap = to_hand needs wild cards (wild_ranks)")
    if v.joker_swap == "relocate_in_run" and not v.wild_ranks:
        raise bad("joker_swap = relocate_in_run needs wild cards (wild_ranks)")
    if v.claim_mode == "none" and given & _CLAIM_KEYS:
        keys = ", ".join(sorted(given & _CLAIM_KEYS))
        raise bad(f"{keys} set, but this variant has no claims (claim_mode = none)")
    if v.claim_mode == "pre_draw" and "active_first_refusal" in given and v.active_first_refusal:
        pass  # pre_draw with first refusal: the window opens after the active player declines
    if v.claim_mode in ("after_decline", "active_first_then_others") and not v.active_first_refusal:
        raise bad(f"active_first_refusal = false contradicts claim_mode = {v.claim_mode}")
    if v.rearrange_mode != "none" and not v.has_contracts:
        raise bad("rearrange_mode needs a contract variant")
    if v.scoring == "book" and v.wild_ranks:
        raise bad("purchase has no wild cards")
    if v.decks is not None and v.jokers_per_deck == 0 and JOKER_RANK in v.wild_ranks:
        pass  # jokers wild but none in the pack: legal, just no jokers dealt
    if v.has_contracts and v.contract_exact_sizes and "contract_oversize_melds" in given and (
        v.contract_oversize_melds
    ):
        raise bad("contract_exact_sizes and contract_oversize_melds contradict each other")
    if v.scoring == "winner_collects" and not v.target_by_players:
        raise bad("basic needs target_by_players")


def get_variant(variant_id: str, options: Mapping[str, Any] | None = None) -> Variant:
    """The built-in (or registered) variant ``variant_id`` with ``options`` applied."""
    key = ALIASES.get(variant_id, variant_id)
    if key not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"unknown variant {variant_id!r} (known: {known})")
    return apply_options(VARIANTS[key], options or {})


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
    base = get_variant(str(data["base"]))
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


def register_variant(variant: Variant) -> None:
    """Make ``variant`` known to :func:`get_variant` by its id."""
    VARIANTS[variant.id] = variant
