"""The five variants as data, and every house-rule key of ``rules.md`` §8.

A :class:`Variant` is a frozen record: identity, pack, rounds with their contracts, its scoring (a
rule of :mod:`rummy.engine.scoring`), family facts, and one attribute per house-rule key (``players.min`` is
``players_min``); every mode is an enum of :mod:`rummy.engine.modes`.  A house-rule key is declared once, here:
its field's :func:`~rummy.engine.option_values.option` gives the default and the parser (type and range), and
:data:`rummy.engine.house_rules.OPTION_PARSERS` is read from the fields.  :func:`builtin_variant` looks a variant up;
:func:`rummy.engine.house_rules.get_variant` also applies house-rule options (and reads house variants from
TOML or JSON files); a bad key or value raises :class:`VariantError` naming it.

>>> v = builtin_variant("may-i")
>>> v.claim_limit, v.decks_for(5)
(3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, get_type_hints

import rummy.engine.modes as modes
import rummy.engine.option_values as values
from rummy.engine.errors import VariantError
from rummy.engine.option_values import option

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
    must_discard_to_go_out: bool
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
    scoring: modes.Scoring  # round scores, the game's end and the ranking (rummy.engine.scoring.scoring_rule)
    card_points: tuple[int, ...]  # index = rank (0 = joker, 1 = ace … 13 = king)
    # Family facts, fixed by the built-in variant (not house-rule keys):
    uses_purchase_cards: bool = False  # rules.md §7: a purchase card each; the discard is bought, never taken
    round8_mode_applies: bool = False  # round8_mode reads the last round's "no discard at the end" (000)
    claim_call: modes.ClaimCall = modes.ClaimCall.BUY  # what players call out to claim the discard
    players_min: int = option(3, values.int_between(2, 8), key="players.min")
    players_max: int = option(8, values.int_between(2, 8), key="players.max")
    decks: int | None = option(1, values.optional_int(1))
    jokers_per_deck: int = option(0, values.int_between(0, 4))
    decks_for_5: int = option(3, values.int_between(1, 4))
    first_dealer: modes.FirstDealer = option(modes.FirstDealer.RANDOM, values.choice(modes.FirstDealer))
    deal_size: int | None = option(None, values.deal_size)
    deal_size_by_players: tuple[tuple[int, int], ...] = ()
    upcard: bool = option(True, values.yes_no)
    wild_ranks: frozenset[int] = option(frozenset(), values.wild_ranks)
    twos_natural_in_place: bool = option(False, values.yes_no)
    ace_mode: modes.AceMode = option(modes.AceMode.LOW_OR_HIGH, values.choice(modes.AceMode))
    run_min: int = option(4, values.int_between(2, 13))
    group_min: int = option(3, values.int_between(2, 8))
    wild_policy: modes.WildPolicy = option(modes.WildPolicy.NONE, values.choice(modes.WildPolicy))
    all_wild_melds: bool = option(False, values.yes_no)
    wild_group_min: int | None = option(None, values.optional_int(2))
    wild_group_counts_as_set: bool = option(False, values.yes_no)
    pair_wilds: bool = option(True, values.yes_no)
    pair_extendable: bool = option(True, values.yes_no)
    contract_oversize_melds: bool = option(True, values.yes_no)
    contract_exact_sizes: bool = option(False, values.yes_no)
    contract_extra_melds: bool = option(False, values.yes_no)
    new_melds_after_laydown: bool = option(False, values.yes_no)
    max_new_melds_per_turn: int | None = option(None, values.optional_int(1))
    layoff_requires_down: bool = option(True, values.yes_no)
    layoff_timing: modes.LayoffTiming = option(modes.LayoffTiming.SAME_TURN, values.choice(modes.LayoffTiming))
    rearrange_mode: modes.RearrangeMode = option(modes.RearrangeMode.NONE, values.choice(modes.RearrangeMode))
    rearrange_requires_table_card: bool = option(True, values.yes_no)
    joker_swap: modes.JokerSwap = option(modes.JokerSwap.NONE, values.choice(modes.JokerSwap))
    joker_swap_in_groups: bool = option(False, values.yes_no)
    joker_swap_timing: modes.JokerSwapTiming = option(
        modes.JokerSwapTiming.NEXT_TURN, values.choice(modes.JokerSwapTiming)
    )
    stolen_joker_must_be_played: bool = option(False, values.yes_no)
    wild_relocation_scope: modes.WildRelocationScope = option(
        modes.WildRelocationScope.SAME_RUN, values.choice(modes.WildRelocationScope)
    )
    claim_mode: modes.ClaimMode = option(modes.ClaimMode.NONE, values.choice(modes.ClaimMode))
    claim_priority: modes.ClaimPriority = option(
        modes.ClaimPriority.ROTATION, values.choice(modes.ClaimPriority), claims=True
    )
    active_first_refusal: bool = option(True, values.yes_no, claims=True)
    claim_penalty_cards: int = option(1, values.int_between(0, 5), claims=True)
    claim_cost: int = option(0, values.int_between(0), claims=True)
    blind_card_cost: int = option(0, values.int_between(0))
    claim_limit: int | None = option(None, values.optional_int(0), aliases=("may_i_limit",), claims=True)
    claim_limit_scope: modes.ClaimLimitScope = option(
        modes.ClaimLimitScope.PLAYER, values.choice(modes.ClaimLimitScope), claims=True
    )
    claims_per_window: modes.ClaimsPerWindow = option(modes.ClaimsPerWindow.ONE, values.one_or_cascade, claims=True)
    after_claim_active_draw: modes.AfterClaimActiveDraw = option(
        modes.AfterClaimActiveDraw.STOCK_ONLY, values.choice(modes.AfterClaimActiveDraw), claims=True
    )
    claim_allowed_when_down: bool = option(True, values.yes_no, claims=True)
    discarder_may_claim: bool = option(True, values.yes_no, claims=True)
    may_discard_card_taken_from_discard: bool = option(True, values.yes_no)
    going_out_mode: modes.GoingOutMode = option(modes.GoingOutMode.DISCARD_OR_MELD, values.choice(modes.GoingOutMode))
    buy_schedule: tuple[tuple[int, int], ...] | None = option(None, values.buy_schedule)
    settlement_unit: int | None = option(None, values.int_between(0))
    settlement_table: tuple[tuple[int, tuple[int, ...]], ...] = option((), values.payments)
    kitty_split: modes.KittySplit = option(modes.KittySplit.WINNER_ALL, values.choice(modes.KittySplit))
    allow_same_rank_groups: bool = option(True, values.yes_no)
    allow_adjacent_runs: bool = option(True, values.yes_no)
    final_discard_allowed: bool | None = option(None, values.yes_no)
    round8_mode: modes.Round8Mode = option(modes.Round8Mode.NO_FINAL_DISCARD, values.choice(modes.Round8Mode))
    stock_refill: modes.StockRefill = option(modes.StockRefill.KEEP_TOP, values.choice(modes.StockRefill))
    depletion_check: modes.DepletionCheck = option(modes.DepletionCheck.TURN_START, values.choice(modes.DepletionCheck))
    refill_keeps_top_discard: bool = option(False, values.yes_no)
    exhaustion_scoring: modes.ExhaustionScoring = option(
        modes.ExhaustionScoring.PENALTY, values.choice(modes.ExhaustionScoring)
    )
    stalemate_detection: bool = option(False, values.yes_no)
    two_points: int = option(5, values.int_between(0, 100))
    rummy_multiplier: int = option(1, values.int_between(1, 10))
    target_by_players: tuple[tuple[int, int], ...] = option((), values.per_players)
    tie_break: modes.TieBreak = option(modes.TieBreak.SHARED, values.choice(modes.TieBreak))
    show_discard_history: bool = option(False, values.yes_no)
    trade_requires_value_rule: bool = option(True, values.yes_no)
    ace_purchasable_by: frozenset[int] = option(frozenset({1, 2}), values.rank_set)
    pc_discard_position: modes.PcDiscardPosition = option(
        modes.PcDiscardPosition.IN_PLACE, values.choice(modes.PcDiscardPosition)
    )
    book_ace_mode: modes.BookAceMode = option(modes.BookAceMode.HIGH_ONLY, values.choice(modes.BookAceMode))
    match_target: int = option(1, values.int_between(1, 100))
    max_turns: int | None = option(None, values.optional_int(1))
    washout_laps: int | None = option(30, values.optional_int(1))
    options: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    # -- derived facts (those read on every decision are worked out once, on first read) ---------------

    def __post_init__(self) -> None:
        # A mode given as its string (a Variant built by hand) becomes its enum member, so that the
        # engine's ``is`` comparisons hold; a value outside the mode raises VariantError.
        for name, mode in _MODE_FIELDS.items():
            value = getattr(self, name)
            if type(value) is not mode:
                object.__setattr__(self, name, modes.parse_mode(mode, name, value))

    @cached_property
    def has_contracts(self) -> bool:
        """Whether each round has a contract to lay down first (the progressive variants list their rounds)."""
        return bool(self.rounds)

    @cached_property
    def uses_books(self) -> bool:
        """Whether a hand goes out only by tabling a four-card book (``purchase``): no melds, no lay-offs."""
        return self.going_out_mode is modes.GoingOutMode.BOOK

    @cached_property
    def free_melding(self) -> bool:
        """Whether melds are laid and added to freely, with no contract (``basic``)."""
        return not self.has_contracts and not self.uses_books

    @property
    def contract_sizes_exact(self) -> bool:
        """Whether each contract meld must have exactly its slot's size (no oversize melds)."""
        return self.contract_exact_sizes or not self.contract_oversize_melds

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

    def deal_problem(self, players: int) -> str | None:
        """Why a game for ``players`` seats cannot be dealt or played out (a sentence), or None when it
        can: every round needs a deal size, each hand, the purchase cards and the upcard must come out of
        the pack with a card to spare for the stock, and a game played to a target needs one."""
        if self.scoring is modes.Scoring.WINNER_COLLECTS and self.target(players) is None:
            counts = ", ".join(str(n) for n, _ in self.target_by_players)
            return f"no target score is set for {players} players (target_by_players gives {counts})"
        size = self.pack_size(players)
        for number in range(1, (self.round_count or 1) + 1):
            deal = self.round_rules(number, players).deal_size
            if deal < 1:
                counts = ", ".join(str(n) for n, _ in self.deal_size_by_players)
                return (f"no deal size is set for {players} players (deal_size_by_players gives {counts}): "
                        "set deal_size")
            needed = players * deal + (players if self.uses_purchase_cards else 0) + (1 if self.upcard else 0)
            if needed >= size:
                where = f"round {number} deals" if self.round_count else "a deal takes"
                extras = [name for name, used in (("a purchase card each", self.uses_purchase_cards),
                                                  ("the upcard", self.upcard)) if used]
                return (f"{where} {needed} cards to {players} players ({deal} each"
                        f"{''.join(', ' + extra for extra in extras)}), leaving no stock from a pack of {size}")
        return None

    def is_wild(self, card: int) -> bool:
        """True when ``card`` (an int of :mod:`rummy.engine.cards`) is a wild card here."""
        if card == 52:
            return JOKER_RANK in self.wild_ranks
        return 2 in self.wild_ranks and card % 13 == 1

    def meld_size(self, slot: Slot) -> int:
        """The fewest cards that fill ``slot``: a run slot is raised to ``run_min``, which every run on
        the table must meet; a group slot keeps its size (one below ``group_min`` is a pair-like slot)."""
        return max(slot.min_size, self.run_min) if slot.kind == RUN else slot.min_size

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
        last_round = self.round_count == number and self.round8_mode_applies
        must_go_out = False
        must_discard = self.going_out_mode is modes.GoingOutMode.MUST_DISCARD
        if last_round and not spec.final_discard_allowed and self.final_discard_allowed is None:
            if self.round8_mode is modes.Round8Mode.KEEP_ONE_FOR_DISCARD:
                final_discard = must_discard = True
            elif self.round8_mode is modes.Round8Mode.MUST_GO_OUT_ON_LAYDOWN:
                must_go_out = True
        if self.going_out_mode is modes.GoingOutMode.MELD_ONLY:
            final_discard = False
        limit = self.claim_limit
        penalty = self.claim_penalty_cards
        if self.buy_schedule is not None:
            buys, blind = self.buy_schedule[number - 1] if number <= len(self.buy_schedule) else (0, 0)
            limit, penalty = buys, blind
        claims_open = self.claim_mode is not modes.ClaimMode.NONE and (limit is None or limit > 0)
        return RoundRules(
            number=number,
            deal_size=deal,
            contract=spec.contract,
            final_discard_allowed=final_discard,
            must_go_out_on_laydown=must_go_out,
            must_discard_to_go_out=must_discard,
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


#: The mode fields of :class:`Variant` and the enum of each, read from the annotations.
_MODE_FIELDS: dict[str, type[StrEnum]] = {
    name: hint for name, hint in get_type_hints(Variant).items() if isinstance(hint, type) and issubclass(hint, StrEnum)
}


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
    scoring=modes.Scoring.PENALTY,
    card_points=_points(joker=25, ace=15, low=5, ten=10, face=10, two=5),
    round8_mode_applies=True,
    claim_call=modes.ClaimCall.ILL_BUY_IT,
    players_min=3,
    players_max=8,
    decks=3,
    jokers_per_deck=2,
    wild_ranks=frozenset({JOKER_RANK}),
    run_min=4,
    group_min=3,
    wild_policy=modes.WildPolicy.NONE,
    all_wild_melds=True,
    layoff_timing=modes.LayoffTiming.NEXT_TURN,
    rearrange_mode=modes.RearrangeMode.SEED000,
    joker_swap=modes.JokerSwap.TO_HAND,
    joker_swap_in_groups=True,
    joker_swap_timing=modes.JokerSwapTiming.NEXT_TURN,
    claim_mode=modes.ClaimMode.PRE_DRAW,
    claim_priority=modes.ClaimPriority.FIRST_CALL,
    active_first_refusal=False,
    claim_penalty_cards=1,
    claims_per_window=modes.ClaimsPerWindow.ONE,
    after_claim_active_draw=modes.AfterClaimActiveDraw.STOCK_ONLY,
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
    scoring=modes.Scoring.PENALTY,
    card_points=_points(joker=20, ace=15, low=5, ten=5, face=10, two=20),
    players_min=3,
    players_max=6,
    decks=2,
    jokers_per_deck=2,
    wild_ranks=frozenset({JOKER_RANK, 2}),
    run_min=3,
    group_min=3,
    wild_policy=modes.WildPolicy.NONE,
    all_wild_melds=True,
    pair_wilds=True,
    pair_extendable=True,
    layoff_timing=modes.LayoffTiming.SAME_TURN,
    claim_mode=modes.ClaimMode.ACTIVE_FIRST_THEN_OTHERS,
    claim_priority=modes.ClaimPriority.ROTATION,
    claim_cost=1,
    claims_per_window=modes.ClaimsPerWindow.CASCADE,
    after_claim_active_draw=modes.AfterClaimActiveDraw.STOCK_OR_NEW_TOP,
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
    scoring=modes.Scoring.PENALTY,
    card_points=(10, 15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10),  # 2–7: 5, 8–K: 10, A: 15
    players_min=3,
    players_max=8,
    decks=None,
    jokers_per_deck=2,
    decks_for_5=3,
    first_dealer=modes.FirstDealer.HIGH_CARD_DRAW,
    wild_ranks=frozenset({JOKER_RANK, 2}),
    run_min=4,
    group_min=3,
    wild_policy=modes.WildPolicy.NOT_OUTNUMBER,
    all_wild_melds=False,
    wild_group_min=3,
    wild_group_counts_as_set=True,
    layoff_timing=modes.LayoffTiming.SAME_TURN,
    joker_swap=modes.JokerSwap.RELOCATE_IN_RUN,
    joker_swap_timing=modes.JokerSwapTiming.SAME_TURN,
    claim_mode=modes.ClaimMode.AFTER_DECLINE,
    claim_priority=modes.ClaimPriority.ROTATION,
    claim_penalty_cards=1,
    claim_limit=3,
    claims_per_window=modes.ClaimsPerWindow.ONE,
    after_claim_active_draw=modes.AfterClaimActiveDraw.STOCK_ONLY,
    two_points=10,
    claim_call=modes.ClaimCall.MAY_I,
)

BASIC = Variant(
    id="basic",
    name="Basic Rummy",
    seed="003",
    rounds=(),
    scoring=modes.Scoring.WINNER_COLLECTS,
    card_points=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
    players_min=2,
    players_max=4,
    decks=1,
    jokers_per_deck=0,
    deal_size_by_players=((2, 10), (3, 7), (4, 7)),
    ace_mode=modes.AceMode.LOW_ONLY,
    run_min=3,
    group_min=3,
    layoff_requires_down=False,
    layoff_timing=modes.LayoffTiming.ALWAYS,
    new_melds_after_laydown=True,
    may_discard_card_taken_from_discard=False,
    stock_refill=modes.StockRefill.WHOLE_PILE_ONCE,
    exhaustion_scoring=modes.ExhaustionScoring.VOID,
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
    scoring=modes.Scoring.BOOK,
    card_points=(0,) * 14,
    uses_purchase_cards=True,
    players_min=2,
    players_max=6,
    decks=1,
    jokers_per_deck=0,
    deal_size=5,
    ace_mode=modes.AceMode.HIGH_ONLY,
    going_out_mode=modes.GoingOutMode.BOOK,
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

def builtin_variant(variant_id: str) -> Variant:
    """The built-in (or registered) variant ``variant_id`` or one of its aliases, without house rules
    (:func:`rummy.engine.house_rules.get_variant` applies them)."""
    key = ALIASES.get(variant_id, variant_id)
    if key not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"unknown variant {variant_id!r} (known: {known})")
    return VARIANTS[key]


def register_variant(variant: Variant) -> None:
    """Make ``variant`` known to :func:`rummy.engine.house_rules.get_variant` by its id."""
    VARIANTS[variant.id] = variant
