"""What one meld offers, whatever the rest of the table: the cards and ends it takes on a lay-off, the naturals
that would take or move its wilds, the places a run can be split, and whether a meld spec is valid on its own.

Melds are immutable, so each answer is worked out once: per meld object (:func:`per_meld`), or, where it
depends on nothing but the meld's kind, rank, suit, lowest value, length and wild count, per shape
(:func:`per_shape`), shared by every meld of that shape.  :mod:`rummy.engine.table_offers` gathers these per
table.  Every memo entry keeps the objects whose ids make its key alive, so ids cannot be reused while it
stands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar, cast

import rummy.engine.backends as backends
from rummy.engine.actions import Verb
from rummy.engine.cards import JOKER, Card, make_card
from rummy.engine.errors import MeldError
from rummy.engine.meld_rules import compiled_meld_rules, wild_cards
from rummy.engine.melds import (
    MeldSpec,
    TableMeld,
    lay_off,
    layoff_ends,
    run_ends_open,
    table_meld,
    wild_positions,
)
from rummy.engine.memo import memo_table, put
from rummy.engine.modes import JokerSwap, WildRelocationScope
from rummy.engine.variants import Variant

_T = TypeVar("_T")
# (what, id of a meld, id of its variant) -> (the meld, the variant, what was worked out for that meld).
_PER_MELD: dict[tuple[str, int, int], tuple[TableMeld, Variant, object]] = memo_table("per meld", 200_000)


def per_meld(what: str, meld: TableMeld, variant: Variant, work_out: Callable[[TableMeld, Variant], _T]) -> _T:
    """``work_out(meld, variant)``, memoised on the meld's identity (melds are immutable)."""
    key = (what, id(meld), id(variant))
    hit = _PER_MELD.get(key)
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return cast(_T, hit[2])
    return cast(_T, put(_PER_MELD, key, (meld, variant, work_out(meld, variant)))[2])


# (what, kind, rank, suit, lowest value, length, wild count of a meld, id of the variant) -> (the variant, what
# was worked out for every meld of that shape).
_PER_SHAPE: dict[tuple[str, str, int, int, int, int, int, int], tuple[Variant, object]] = memo_table(
    "per shape", 100_000)


def per_shape(what: str, meld: TableMeld, variant: Variant, work_out: Callable[[TableMeld, Variant], _T]) -> _T:
    """``work_out(meld, variant)``, memoised on the meld's shape: its kind, rank, suit, lowest value, length and
    wild count.  Only for answers that depend on nothing else (not on which cards the meld holds)."""
    key = (what, meld.kind, meld.rank, meld.suit, meld.low, len(meld.cards), meld.wilds, id(variant))
    hit = _PER_SHAPE.get(key)
    if hit is not None and hit[0] is variant:
        return cast(_T, hit[1])
    return cast(_T, put(_PER_SHAPE, key, (variant, work_out(meld, variant)))[1])


def accepted_layoffs(meld: TableMeld, variant: Variant) -> tuple[tuple[Card, str | None], ...]:
    """Every (card kind, end) that can be laid off on ``meld`` under ``variant``, cards ascending, each with the
    ends :func:`~rummy.engine.melds.layoff_ends` names (None where the card fits one end of a run only).

    Memoised per shape (:func:`per_shape`): whether :func:`~rummy.engine.melds.lay_off` takes a card depends on the
    meld's kind, rank, suit, lowest value, length and wild count only.  A shortcut; reference: ``lay_off`` tried
    with every card (:func:`rummy.engine.shortcut_checks.every_layoff`, rules.md §2.6)."""
    return per_shape("layoffs", meld, variant, _try_layoffs)


def accepted_cards(meld: TableMeld, variant: Variant) -> frozenset[Card]:
    """The card kinds of :func:`accepted_layoffs` (memoised per shape): a card missing here fits no end of
    ``meld`` (:func:`~rummy.engine.melds.lay_off` refuses it with every end)."""
    return per_shape("accepted cards", meld, variant, _accepted_cards)


def _accepted_cards(meld: TableMeld, variant: Variant) -> frozenset[Card]:
    return frozenset(card for card, _ in accepted_layoffs(meld, variant))


def _try_layoffs(meld: TableMeld, variant: Variant) -> tuple[tuple[Card, str | None], ...]:
    """Every (card kind, end) :func:`~rummy.engine.melds.lay_off` accepts on ``meld``, found by trying the
    cards :func:`layoff_candidates` names.  Compiled (``play_listing.c``'s ``layoffs``, from the meld's shape); the
    Python search answers where the core does not (a meld kind it does not know, a malformed shape)."""
    native = backends.NATIVE
    if native is not None:
        kind = _KIND_CODES.get(meld.kind)
        if kind is not None:
            found: tuple[tuple[Card, str | None], ...] | None = native.layoffs(
                kind, meld.rank, meld.suit, meld.low, len(meld.cards), meld.wilds, compiled_meld_rules(variant))
            if found is not None:
                return found
    return tuple(layoffs_among(layoff_candidates(meld, variant), meld, variant))


#: The meld kinds ``play_listing.c``'s ``layoffs`` reads, by code.
_KIND_CODES = {"run": 0, "set": 1, "pair": 2, "book": 3}


def layoffs_among(cards: Iterable[Card], meld: TableMeld, variant: Variant) -> list[tuple[Card, str | None]]:
    """The (card kind, end) pairs of ``cards`` that :func:`~rummy.engine.melds.lay_off` accepts on ``meld``,
    trying each at every end :func:`~rummy.engine.melds.layoff_ends` names, in card order."""
    accepted = []
    for card in cards:
        for end in layoff_ends(meld, card, variant):
            try:
                lay_off(meld, card, end, variant)
            except MeldError:
                continue
            accepted.append((card, end))
    return accepted


def layoff_candidates(meld: TableMeld, variant: Variant) -> list[Card]:
    """The card kinds that could fit ``meld`` at all, ascending: every wild, and the naturals
    :func:`~rummy.engine.melds.lay_off` can accept (the next value at each end of a run, in its suit; the rank of a
    group).  Any other card is refused by ``lay_off``, so only these need trying."""
    cards = set(wild_cards(variant))
    if meld.is_run:
        for value in (meld.low - 1, meld.high + 1):
            if 1 <= value <= 14:
                cards.add(make_card(1 if value == 14 else value, meld.suit))
    elif meld.kind != "book" and meld.rank:
        cards.update(make_card(meld.rank, suit) for suit in range(4))
    return sorted(cards)


def may_fit(meld: TableMeld, card: Card, end: str | None, wild: bool) -> bool:
    """A quick test before :func:`~rummy.engine.melds.lay_off` with an explicit ``end``: False when the card cannot
    fit there (a natural of another suit, value or rank, or a book), True when lay_off must decide."""
    if wild:
        return meld.kind != "book"
    if meld.is_run:
        if card // 13 != meld.suit:
            return False
        rank = card % 13 + 1
        value = meld.low - 1 if end == "low" else meld.high + 1
        return rank == value or (rank == 1 and value == 14)
    return meld.kind != "book" and card != JOKER and card % 13 + 1 == meld.rank


def swap_options(meld: TableMeld, variant: Variant) -> tuple[tuple[Verb, Card, str | None], ...]:
    """Every (verb, natural card, end) that could take or move a wild of ``meld``, whatever the hand: a relocation
    (``joker_swap = relocate_in_run``) only to an end the run can grow at (:func:`~rummy.engine.melds.run_ends_open`),
    so that :func:`~rummy.engine.melds.relocate_wild` takes every one."""
    return per_meld("swaps", meld, variant, _swap_options)


def _swap_options(meld: TableMeld, variant: Variant) -> tuple[tuple[Verb, Card, str | None], ...]:
    if meld.is_run:
        wanted = [meld.position_card(index) for index in wild_positions(meld, variant)]
    elif variant.joker_swap is JokerSwap.TO_HAND and variant.joker_swap_in_groups and meld.rank:
        # any natural of the rank takes a wild of the set (the first): each one option, however many wilds
        wanted = [make_card(meld.rank, suit) for suit in range(4)] if wild_positions(meld, variant) else []
    else:
        return ()
    options: list[tuple[Verb, Card, str | None]] = []
    ends_open = run_ends_open(meld, variant) if meld.is_run else (False, False)
    for card in wanted:
        if variant.is_wild(card):
            continue
        if variant.joker_swap is JokerSwap.TO_HAND:
            options.append((Verb.SWAP, card, None))
        elif meld.is_run:
            if variant.wild_relocation_scope is WildRelocationScope.HAND:
                options.append((Verb.MOVE, card, None))
            else:
                options.extend((Verb.MOVE, card, end) for end, is_open in zip(("low", "high"), ends_open, strict=True)
                               if is_open)
    return tuple(options)


def split_points(meld: TableMeld, variant: Variant) -> tuple[tuple[Card, int], ...]:
    """Each (natural card, index) at which run ``meld`` could be split into two runs long enough (the hand's copy
    of the card starting the second); whether both are valid is :func:`split_halves`' question.  Memoised per
    shape (:func:`per_shape`): the points depend on the run's suit, lowest value and length only."""
    return per_shape("split points", meld, variant, _split_points)


def _split_points(meld: TableMeld, variant: Variant) -> tuple[tuple[Card, int], ...]:
    if not meld.is_run:
        return ()
    points = []
    for index in range(variant.run_min - 1, len(meld.cards) - variant.run_min + 1):
        target = meld.position_card(index)
        if not variant.is_wild(target):
            points.append((target, index))
    return tuple(points)


# (id of a run, id of its variant, index) -> (the run, the variant, its two halves when both are valid, else None).
_HALVES: dict[tuple[int, int, int], tuple[TableMeld, Variant, tuple[MeldSpec, MeldSpec] | None]] = memo_table(
    "split halves", 100_000)


def split_halves(meld: TableMeld, index: int, variant: Variant) -> tuple[MeldSpec, MeldSpec] | None:
    """The two runs splitting run ``meld`` at ``index`` makes (the hand's copy of the card there starting the
    second), when both are valid (memoised on the run's identity)."""
    key = (id(meld), id(variant), index)
    hit = _HALVES.get(key)
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    cards = meld.cards
    target = meld.position_card(index)
    halves = (_run_spec(cards[: index + 1], meld, 0), _run_spec((target,) + cards[index + 1:], meld, index))
    found = halves if all(valid_meld(spec, variant) for spec in halves) else None
    return put(_HALVES, key, (meld, variant, found))[2]


def _run_spec(cards: tuple[Card, ...], meld: TableMeld, offset: int) -> MeldSpec:
    declared = None
    if all(c == JOKER or c % 13 == 1 for c in cards):
        declared = meld.position_card(offset)
    return MeldSpec("run", cards, declared)


# (meld spec, id of its variant) -> (the variant, whether the spec is a valid set or run on its own).
_VALID: dict[tuple[MeldSpec, int], tuple[Variant, bool]] = memo_table("valid meld specs", 100_000)


def valid_meld(spec: MeldSpec, variant: Variant) -> bool:
    """Whether ``spec`` is a valid set or run under ``variant`` (as a rearrangement builds it)."""
    key = (spec, id(variant))
    hit = _VALID.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    valid = spec.kind in ("set", "run")
    if valid:
        try:
            table_meld(spec, variant, 0, 0)
        except MeldError:
            valid = False
    return put(_VALID, key, (variant, valid))[1]
