"""Meld validation: groups (sets, pairs), runs and books, and what each wild stands for.

Validation is a pure function of the cards, the declaration and the variant.  A valid meld
becomes a :class:`TableMeld` (immutable; table operations build new ones).

>>> from rummy.engine.house_rules import get_variant
>>> from rummy.engine.cards import parse_card
>>> v = get_variant("progressive-buy-it")
>>> m = table_meld(MeldSpec("run", tuple(map(parse_card, ["3D", "JK", "5D", "6D"]))), v, 1, 0)
>>> m.stands_for(v)
['3D', '4D', '5D', '6D']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import rummy.engine.backends as backends
from rummy.engine.cards import JOKER, Card, card_name, make_card, rank_name, rank_of, suit_of
from rummy.engine.errors import MeldError
from rummy.engine.memo import memo_table, put
from rummy.engine.modes import BookAceMode, WildPolicy, WildRelocationScope
from rummy.engine.variants import Variant

GROUP_KINDS = ("set", "pair")


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """A meld as written in an action: ``KIND:CARD-CARD-...[=DECL]``.

    ``declared`` is a rank (1…13) for a set or pair, the lowest card for a run, or None.
    """

    kind: str
    cards: tuple[Card, ...]
    declared: int | None = None

    def __str__(self) -> str:
        text = f"{self.kind}:" + "-".join(card_name(c) for c in self.cards)
        if self.declared is not None:
            text += "=" + (card_name(self.declared) if self.kind == "run" else rank_name(self.declared))
        return text


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table.

    ``cards`` run low to high for a run.  ``rank`` is the rank of a group (0 for a wild trio),
    ``suit``/``low`` the suit and lowest value (1…14) of a run.
    """

    id: int
    kind: str
    owner: int
    cards: tuple[Card, ...]
    rank: int = 0
    suit: int = -1
    low: int = 0
    wilds: int = 0

    @property
    def is_run(self) -> bool:
        return self.kind == "run"

    @property
    def high(self) -> int:
        """Highest value of a run."""
        return self.low + len(self.cards) - 1

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds

    def position_card(self, index: int) -> Card:
        """The card that position ``index`` of a run stands for."""
        value = self.low + index
        return make_card(1 if value == 14 else value, self.suit)

    def stands_for(self, variant: Variant) -> list[str] | None:
        """The record's ``as`` list; None for a trio of wilds."""
        if self.is_run:
            return [card_name(self.position_card(i)) for i in range(len(self.cards))]
        if self.kind == "book":
            return [card_name(c) for c in self.cards]
        if self.rank == 0:
            return None
        wild_name = rank_name(self.rank) + "*"
        return [
            card_name(c) if _natural_here(c, variant, self.rank, -1) else wild_name for c in self.cards
        ]


#: The slots of :class:`TableMeld`'s fields: melds are made through :func:`~rummy.engine.backends.frozen_record`
#: (the frozen dataclass's ``__init__`` costs about three times as much).
_TABLE_MELD_FIELDS = backends.record_slots(TableMeld)


def _value_candidates(card: Card, index: int, bounds: tuple[int, int]) -> set[int]:
    rank = rank_of(card)
    values = (1, 14) if rank == 1 else (rank,)
    low, high = bounds
    return {v - index for v in values if low <= v <= high}


def _natural_here(card: Card, variant: Variant, stands_for_rank: int, stands_for_suit: int) -> bool:
    """Whether ``card`` counts as a natural where it stands for that rank (and suit, for runs)."""
    if not variant.is_wild(card):
        return True
    return (
        variant.twos_natural_in_place
        and card != JOKER
        and rank_of(card) == 2 == stands_for_rank
        and (stands_for_suit < 0 or suit_of(card) == stands_for_suit)
    )


def wild_policy_allows(variant: Variant, wilds: int, naturals: int) -> bool:
    """Whether a meld of ``wilds`` wild cards and ``naturals`` natural cards keeps the variant's wild policy
    (wilds may not outnumber naturals, or at most one wild; compiled as ``core.h``'s ``policy_allows``)."""
    policy = variant.wild_policy
    return not ((policy is WildPolicy.NOT_OUTNUMBER and wilds > naturals)
                or (policy is WildPolicy.AT_MOST_ONE and wilds > 1))


def _check_wild_policy(variant: Variant, wilds: int, naturals: int, what: object) -> None:
    """Raise when ``what`` (a meld or its name, formatted only into the error) holds too many wilds."""
    if wild_policy_allows(variant, wilds, naturals):
        return
    if variant.wild_policy is WildPolicy.NOT_OUTNUMBER:
        raise MeldError(
            "wilds-outnumber-naturals",
            f"{what} would hold {wilds} wild cards and only {naturals} natural cards",
        )
    raise MeldError("too-many-wilds", f"{what} would hold {wilds} wild cards; at most one allowed")


def check_group(spec: MeldSpec, variant: Variant, min_size: int) -> tuple[int, int]:
    """Validate a set or pair; return ``(rank, wilds)`` (rank 0 for a wild trio)."""
    cards = spec.cards
    natural_ranks = {rank_of(c) for c in cards if not variant.is_wild(c)}
    if len(natural_ranks) > 1:
        names = "-".join(card_name(c) for c in cards)
        raise MeldError("set-mixed-ranks", f"{names} mixes ranks")
    if natural_ranks:
        rank = natural_ranks.pop()
        if spec.declared is not None and spec.declared != rank:
            raise MeldError(
                "declaration-contradicts",
                f"{spec} is declared {rank_name(spec.declared)} but holds {rank_name(rank)}s",
            )
    elif variant.twos_natural_in_place and spec.declared in (None, 2) and any(
        c != JOKER and rank_of(c) == 2 for c in cards
    ):
        rank = 2
    elif variant.all_wild_melds:
        if spec.declared is None:
            raise MeldError("declaration-required", f"{spec} has only wild cards: declare its rank")
        rank = spec.declared
    elif variant.wild_group_min is not None and spec.kind == "set":
        if spec.declared is not None:
            raise MeldError("declaration-contradicts", f"{spec}: a trio of wilds has no rank")
        if len(cards) < variant.wild_group_min:
            raise MeldError(
                "meld-too-small", f"{spec}: a trio of wilds needs {variant.wild_group_min} cards"
            )
        return 0, len(cards)
    else:
        raise MeldError("all-wild-meld", f"{spec} has no natural card")
    if len(cards) < min_size:
        raise MeldError("meld-too-small", f"{spec} has {len(cards)} cards; at least {min_size} needed")
    wilds = sum(1 for c in cards if not _natural_here(c, variant, rank, -1))
    if spec.kind == "pair" and wilds and not variant.pair_wilds:
        raise MeldError("pair-wilds", f"{spec}: a pair may not hold wild cards")
    _check_wild_policy(variant, wilds, len(cards) - wilds, spec)
    return rank, wilds


def check_run(spec: MeldSpec, variant: Variant, min_size: int) -> tuple[int, int, int]:
    """Validate a run; return ``(suit, low, wilds)``."""
    cards = spec.cards
    naturals = [(i, c) for i, c in enumerate(cards) if not variant.is_wild(c)]
    if not naturals and variant.twos_natural_in_place:
        naturals = [(i, c) for i, c in enumerate(cards) if c != JOKER and rank_of(c) == 2]
    if naturals:
        suit, low = _run_placed_by_naturals(spec, variant, naturals)
    else:
        suit, low = _run_placed_by_declaration(spec, variant)
    if len(cards) < min_size:
        raise MeldError("meld-too-small", f"{spec} has {len(cards)} cards; at least {min_size} needed")
    wilds = 0
    for index, card in enumerate(cards):
        value = low + index
        if not _natural_here(card, variant, 1 if value == 14 else value, suit):
            wilds += 1
    _check_wild_policy(variant, wilds, len(cards) - wilds, spec)
    return suit, low, wilds


def _run_placed_by_naturals(spec: MeldSpec, variant: Variant, naturals: list[tuple[int, Card]]) -> tuple[int, int]:
    """(suit, lowest value) of a run with natural cards: one suit, the lowest start that puts every natural
    at its place within the ace's bounds, and a declaration, if any, that agrees."""
    cards = spec.cards
    bounds = variant.ace_mode.run_bounds
    suits = {suit_of(c) for _, c in naturals}
    if len(suits) > 1:
        raise MeldError("run-mixed-suits", f"{spec} mixes suits")
    suit = suits.pop()
    candidates: set[int] | None = None
    for index, card in naturals:
        values = _value_candidates(card, index, bounds)
        candidates = values if candidates is None else candidates & values
    valid = sorted(
        v0 for v0 in candidates or ()
        if v0 >= bounds[0] and v0 + len(cards) - 1 <= bounds[1]
        and not (v0 == 1 and v0 + len(cards) - 1 == 14)
    )
    if not valid:
        raise MeldError("run-not-consecutive", f"{spec} is not a run of consecutive cards")
    low = valid[0]
    if spec.declared is not None:
        declared_low = rank_of(spec.declared)
        if suit_of(spec.declared) != suit or declared_low not in (low, 14 if low == 14 else low):
            raise MeldError(
                "declaration-contradicts",
                f"{spec} is declared to start at {card_name(spec.declared)}",
            )
    return suit, low


def _run_placed_by_declaration(spec: MeldSpec, variant: Variant) -> tuple[int, int]:
    """(suit, lowest value) of a run of wild cards only: its declared lowest card, where the variant allows
    such runs."""
    bounds = variant.ace_mode.run_bounds
    if not variant.all_wild_melds:
        raise MeldError("all-wild-meld", f"{spec} has no natural card")
    if spec.declared is None:
        raise MeldError("declaration-required", f"{spec} has only wild cards: declare its lowest card")
    if spec.declared == JOKER:
        raise MeldError("declaration-required", f"{spec} declares a joker: declare the natural card it starts at")
    suit, low = suit_of(spec.declared), rank_of(spec.declared)
    if low < bounds[0]:
        low = 14 if low == 1 else low
    if low + len(spec.cards) - 1 > bounds[1] or (low == 1 and low + len(spec.cards) - 1 == 14):
        raise MeldError("run-out-of-bounds", f"{spec} runs past the ace")
    return suit, low


def check_book(spec: MeldSpec, variant: Variant) -> None:
    """Validate a ``purchase`` book: four naturals of one rank or a four-card suit sequence."""
    cards = spec.cards
    if len(cards) != 4:
        raise MeldError("book-size", f"{spec}: a book has exactly four cards")
    if len({rank_of(c) for c in cards}) == 1:
        return
    if len({suit_of(c) for c in cards}) != 1:
        raise MeldError("book-invalid", f"{spec} is neither four of a rank nor a suit sequence")
    ranks = sorted(rank_of(c) for c in cards)
    high_values = sorted(14 if r == 1 else r for r in ranks)
    options = [high_values]
    if variant.book_ace_mode is BookAceMode.LOW_OR_HIGH:
        options.append(ranks)
    for values in options:
        if all(values[i + 1] == values[i] + 1 for i in range(3)):
            return
    raise MeldError("book-invalid", f"{spec} is neither four of a rank nor a suit sequence")


def table_meld(spec: MeldSpec, variant: Variant, meld_id: int, owner: int,
               min_size: int | None = None) -> TableMeld:
    """Validate ``spec`` and build the table meld; raises :class:`MeldError`.

    What a valid spec stands for is worked out once (:func:`meld_facts`); only the id and owner are new.
    """
    rank, suit, low, wilds = meld_facts(spec, variant, min_size)
    return backends.frozen_record(TableMeld, _TABLE_MELD_FIELDS, meld_id, spec.kind, owner, spec.cards, rank, suit, low,
                                  wilds)


#: The facts of a valid meld: its rank (groups), suit and lowest value (runs) and wild count.
MeldFacts = tuple[int, int, int, int]

# (meld spec, id of its variant, the least size it was checked against) -> (the variant, the spec's facts).
# A spec is immutable and its validity a pure function of it, the variant and the size; only valid specs are
# kept (an invalid one is judged again, so it raises its error afresh).
_FACTS: dict[tuple[MeldSpec, int, int], tuple[Variant, MeldFacts]] = memo_table("facts of a meld spec", 100_000)


def meld_facts(spec: MeldSpec, variant: Variant, min_size: int | None = None) -> MeldFacts:
    """Validate ``spec`` (``min_size`` defaults to the variant's for its kind) and return its facts as
    ``(rank, suit, low, wilds)``; raises :class:`MeldError`.  Memoised for valid specs."""
    kind = spec.kind
    if min_size is None:
        min_size = variant.run_min if kind == "run" else variant.group_min if kind == "set" else 2
    key = (spec, id(variant), min_size)
    hit = _FACTS.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    return put(_FACTS, key, (variant, _work_out_meld_facts(spec, variant, min_size)))[1]


def _work_out_meld_facts(spec: MeldSpec, variant: Variant, min_size: int) -> MeldFacts:
    if spec.kind == "run":
        suit, low, wilds = check_run(spec, variant, min_size)
        return 0, suit, low, wilds
    if spec.kind in GROUP_KINDS:
        rank, wilds = check_group(spec, variant, min_size)
        return rank, -1, 0, wilds
    if spec.kind == "book":
        check_book(spec, variant)
        return 0, -1, 0, 0
    raise MeldError("meld-kind", f"{spec}: unknown meld kind {spec.kind!r}")


def separate_melds_error(melds: Sequence[TableMeld], variant: Variant) -> tuple[str, str] | None:
    """(rule, reason) when ``melds``, laid down together, break the variant's rules on sets of one rank
    and runs of one suit that touch; None when they keep them."""
    if not variant.allow_same_rank_groups:
        ranks = [m.rank for m in melds if not m.is_run and m.rank]
        if len(ranks) != len(set(ranks)):
            return "same-rank-groups", "two sets of the same rank are not allowed"
    if not variant.allow_adjacent_runs:
        runs = [m for m in melds if m.is_run]
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if a.suit == b.suit and a.low <= b.high + 1 and b.low <= a.high + 1:
                    return "adjacent-runs", "two runs of one suit may not touch"
    return None


def layoff_ends(meld: TableMeld, card: Card, variant: Variant) -> tuple[str | None, ...]:
    """The ends worth trying when laying ``card`` off on ``meld``: none when it cannot fit (a natural of
    another suit or rank, or a book), both ends of a run for a wild or an ace, else ``None``.

    A quick filter before :func:`lay_off`, which decides.
    """
    if meld.kind == "book":
        return ()
    wild = variant.is_wild(card)
    if meld.is_run:
        if not wild and suit_of(card) != meld.suit:
            return ()
        return ("low", "high") if wild or rank_of(card) == 1 else (None,)
    if not wild and rank_of(card) != meld.rank:
        return ()
    return (None,)


def lay_off(meld: TableMeld, card: Card, end: str | None, variant: Variant) -> TableMeld:
    """The meld with ``card`` added; ``end`` is ``low``/``high`` for runs. Raises MeldError."""
    wild = variant.is_wild(card)
    if meld.kind == "book":
        raise MeldError("layoff-not-allowed", "nothing can be laid off on a book")
    if not meld.is_run:
        return _lay_off_on_group(meld, card, end, variant, wild)
    return _lay_off_on_run(meld, card, end, variant, wild)


def _lay_off_on_group(meld: TableMeld, card: Card, end: str | None, variant: Variant, wild: bool) -> TableMeld:
    """:func:`lay_off` on a set or pair: a natural of its rank or a wild card, within the wild policy."""
    if end is not None:
        raise MeldError("layoff-end", f"{end!r} only applies to runs; meld {meld.id} is a group")
    if meld.kind == "pair" and not variant.pair_extendable:
        raise MeldError("pair-not-extendable", f"nothing may be laid off on the pair {meld.id}")
    if meld.rank == 0:
        if not wild:
            raise MeldError("layoff-does-not-fit", f"only wild cards may join the trio of wilds {meld.id}")
        return _changed(meld, meld.cards + (card,), meld.low, meld.wilds + 1)
    natural = _natural_here(card, variant, meld.rank, -1)
    if natural and rank_of(card) != meld.rank:
        raise MeldError(
            "layoff-does-not-fit", f"{card_name(card)} does not fit meld {meld.id} ({rank_name(meld.rank)}s)"
        )
    wilds = meld.wilds + (0 if natural else 1)
    if variant.wild_policy is not WildPolicy.NONE:  # (spares formatting the meld's name on every lay-off)
        _check_wild_policy(variant, wilds, len(meld.cards) + 1 - wilds, f"meld {meld.id}")
    return _changed(meld, meld.cards + (card,), meld.low, wilds)


def _lay_off_on_run(meld: TableMeld, card: Card, end: str | None, variant: Variant, wild: bool) -> TableMeld:
    """:func:`lay_off` on a run: at the open end the card continues (the one named, when it fits both),
    within the wild policy."""
    low_ok, high_ok = run_ends_open(meld, variant)
    if wild:
        fits_low, fits_high = low_ok, high_ok
    else:
        fits_low = low_ok and suit_of(card) == meld.suit and _value_matches(card, meld.low - 1)
        fits_high = high_ok and suit_of(card) == meld.suit and _value_matches(card, meld.high + 1)
        if not fits_low and not fits_high:
            raise MeldError("layoff-does-not-fit", f"{card_name(card)} does not fit an end of run {meld.id}")
    if end is None:
        if fits_low and fits_high:
            raise MeldError("layoff-end-required",
                            f"{card_name(card)} fits both ends of run {meld.id}: say low or high")
        end = "low" if fits_low else "high"
    if end == "low" and not fits_low or end == "high" and not fits_high:
        raise MeldError("layoff-does-not-fit", f"{card_name(card)} does not fit the {end} end of run {meld.id}")
    value = meld.low - 1 if end == "low" else meld.high + 1
    natural = _natural_here(card, variant, _rank_at(value), meld.suit)
    wilds = meld.wilds + (0 if natural else 1)
    if variant.wild_policy is not WildPolicy.NONE:
        _check_wild_policy(variant, wilds, len(meld.cards) + 1 - wilds, f"run {meld.id}")
    if end == "low":
        return _changed(meld, (card,) + meld.cards, meld.low - 1, wilds)
    return _changed(meld, meld.cards + (card,), meld.low, wilds)


def _changed(meld: TableMeld, cards: tuple[Card, ...], low: int, wilds: int) -> TableMeld:
    """``meld`` with new cards, lowest value and wild count (``dataclasses.replace``, without its overhead)."""
    return backends.frozen_record(TableMeld, _TABLE_MELD_FIELDS, meld.id, meld.kind, meld.owner, cards, meld.rank,
                                  meld.suit, low, wilds)


def _rank_at(value: int) -> int:
    return 1 if value == 14 else value


def _value_matches(card: Card, value: int) -> bool:
    rank = rank_of(card)
    return rank == value or (rank == 1 and value == 14)


def run_ends_open(meld: TableMeld, variant: Variant) -> tuple[bool, bool]:
    """Whether run ``meld`` can grow at its low end, and at its high end, within the variant's run bounds (an ace
    cannot be both the low and the high end)."""
    low_bound, high_bound = variant.ace_mode.run_bounds
    low_ok = meld.low - 1 >= low_bound and not (meld.low - 1 == 1 and meld.high == 14)
    high_ok = meld.high + 1 <= high_bound and not (meld.high + 1 == 14 and meld.low == 1)
    return low_ok, high_ok


def wild_positions(meld: TableMeld, variant: Variant) -> list[int]:
    """Indexes of the wild cards of ``meld``."""
    if meld.is_run:
        return [
            i for i, c in enumerate(meld.cards)
            if not _natural_here(c, variant, _rank_at(meld.low + i), meld.suit)
        ]
    return [i for i, c in enumerate(meld.cards) if not _natural_here(c, variant, meld.rank, -1)]


def swap_wild(meld: TableMeld, card: Card, variant: Variant, *, in_groups: bool) -> tuple[TableMeld, Card]:
    """Play natural ``card`` in place of the wild of ``meld`` it represents; return the new meld and the wild."""
    name = card_name(card)
    if variant.is_wild(card):
        raise MeldError("swap-needs-natural", f"{name} is a wild card, not the natural it stands for")
    for index in wild_positions(meld, variant):
        if meld.is_run:
            if meld.position_card(index) != card:
                continue
        else:
            if not in_groups:
                raise MeldError("swap-in-group", f"wild cards in sets cannot be taken (meld {meld.id})")
            if meld.rank != rank_of(card):
                continue
        wild = meld.cards[index]
        cards = list(meld.cards)
        cards[index] = card
        return _changed(meld, tuple(cards), meld.low, meld.wilds - 1), wild
    raise MeldError("swap-no-such-wild", f"no wild card in meld {meld.id} stands for {name}")


def relocate_wild(meld: TableMeld, card: Card, end: str | None, variant: Variant) -> tuple[TableMeld, Card | None]:
    """``may-i``: play ``card`` in place of the wild of run ``meld`` it stands for.

    The wild moves to the ``end`` of the same run (``wild_relocation_scope = same_run``) or to the
    player's hand (``hand``; then it is returned).
    """
    if not meld.is_run:
        raise MeldError("relocate-in-set", f"wild cards can be moved only in runs; meld {meld.id} is a set")
    swapped, wild = swap_wild(meld, card, variant, in_groups=False)
    if variant.wild_relocation_scope is WildRelocationScope.HAND:
        return swapped, wild
    if end is None:
        raise MeldError("relocate-end-required", "say which end of the run the wild moves to: low or high")
    low_ok, high_ok = run_ends_open(swapped, variant)
    if end == "low" and not low_ok or end == "high" and not high_ok:
        raise MeldError("relocate-end-closed", f"run {meld.id} cannot grow at its {end} end")
    if end == "low":
        moved = _changed(swapped, (wild,) + swapped.cards, swapped.low - 1, swapped.wilds + 1)
    else:
        moved = _changed(swapped, swapped.cards + (wild,), swapped.low, swapped.wilds + 1)
    return moved, None


def meld_json(meld: TableMeld, variant: Variant) -> dict[str, object]:
    """The record's JSON object of a table meld (STATE ``table`` entries)."""
    return {"id": meld.id, "kind": meld.kind, "owner": meld.owner, "cards": [card_name(c) for c in meld.cards],
            "as": meld.stands_for(variant)}


def meld_view_json(meld: TableMeld, variant: Variant) -> dict[str, object]:
    """A table meld as a seat's view shows it: the record's object (:func:`meld_json`) and ``wild``, for each
    card whether it plays as a wild there (a two in its own place is natural where the house rule says so;
    a book holds none).  Records keep :func:`meld_json`; only the view carries ``wild``.

    >>> from rummy.engine.house_rules import apply_options, get_variant
    >>> from rummy.engine.cards import parse_card
    >>> v = apply_options(get_variant("progressive-15"), {"twos_natural_in_place": True})
    >>> m = table_meld(MeldSpec("run", tuple(map(parse_card, ["2H", "3H", "2S"]))), v, 1, 0)
    >>> meld_view_json(m, v)["as"], meld_view_json(m, v)["wild"]
    (['2H', '3H', '4H'], [False, False, True])
    """
    wild = set() if meld.kind == "book" else set(wild_positions(meld, variant))
    return {**meld_json(meld, variant), "wild": [i in wild for i in range(len(meld.cards))]}


def meld_summary(meld: TableMeld) -> str:
    """Short human description: ``run 3D-6D`` or ``set of 7s``."""
    if meld.is_run:
        return f"run {card_name(meld.position_card(0))}-{card_name(meld.position_card(len(meld.cards) - 1))}"
    if meld.rank == 0:
        return "trio of wilds"
    return f"{meld.kind} of {rank_name(meld.rank)}s"


def cards_of(melds: Sequence[TableMeld]) -> list[Card]:
    """All cards of ``melds``."""
    return [c for m in melds for c in m.cards]
