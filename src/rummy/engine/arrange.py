"""The engine's order for cards a player picks: a meld being composed, or several lay-offs on one meld.

A front end lets a player pick cards in any order; record notation wants a run low to high with each wild in
the place it stands for, and lay-offs one at a time, each fitting the meld as the one before left it.  These
functions put the cards in that order by the variant's rules (where an ace may stand, which cards are wild,
where a two is natural), so no front end repeats those rules.

>>> from rummy.engine.house_rules import get_variant
>>> from rummy.engine.cards import parse_card
>>> v = get_variant("progressive-15")
>>> str(arrange_meld("run", [parse_card(c) for c in ("KH", "JK", "AH")], v))
'run:JK-KH-AH'
>>> str(arrange_meld("run", [parse_card(c) for c in ("5D", "JK", "3D")], v))
'run:3D-JK-5D'
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.engine.actions import parse_meld
from rummy.engine.cards import JOKER, Card, card_name, make_card, parse_card, rank_of, suit_of
from rummy.engine.errors import MeldError
from rummy.engine.melds import (
    MeldSpec,
    TableMeld,
    lay_off,
    layoff_ends,
    meld_facts,
    meld_view_json,
    table_meld,
)
from rummy.engine.variants import Variant

#: The most cards one request may arrange (a meld or a batch of lay-offs): every deck's run fits.
MAX_CARDS = 30


def arrange_meld(kind: str, cards: Sequence[Card], variant: Variant, declared: int | None = None) -> MeldSpec:
    """``cards`` as a valid meld of ``kind`` in record order; raises :class:`MeldError` (the engine's reason)
    when they make none.

    A run goes low to high, each wild in the place it stands for; spare wilds go above the naturals where
    the run can grow there, and an ace stands low or high as the variant allows.  A group lists its naturals
    first.  ``declared`` is what an all-wild meld stands for (a rank, or a run's lowest card).
    """
    if not cards:
        raise MeldError("meld-too-small", f"a {kind} needs cards")
    if len(cards) > MAX_CARDS:
        raise MeldError("meld-too-small", f"{len(cards)} cards are more than any {kind} holds")
    if kind == "run":
        return _arrange_run(tuple(cards), variant, declared)
    if kind == "book":
        spec = MeldSpec(kind, tuple(cards), declared)
    else:
        # Naturals, then wild twos (natural in a set of twos where the house rule says so), then jokers.
        ordered = sorted(cards, key=lambda c: (variant.is_wild(c), c == JOKER, c))
        spec = MeldSpec(kind, tuple(ordered), declared)
    meld_facts(spec, variant)
    return spec


def _arrange_run(cards: tuple[Card, ...], variant: Variant, declared: int | None) -> MeldSpec:
    naturals = [c for c in cards if not variant.is_wild(c)]
    twos_in_place = variant.twos_natural_in_place
    if not naturals and twos_in_place:
        naturals = [c for c in cards if c != JOKER and rank_of(c) == 2][:1]  # one two fixes the run's place
    if not naturals or len({suit_of(c) for c in naturals}) > 1:
        return _checked(MeldSpec("run", cards, declared), variant)  # the engine says why (or accepts it)
    suit = suit_of(naturals[0])
    size = len(cards)
    low_bound, high_bound = variant.ace_mode.run_bounds
    best: tuple[tuple[int, int], MeldSpec] | None = None
    first_error: MeldError | None = None
    for low in range(low_bound, high_bound - size + 2):
        if low == 1 and low + size - 1 == 14:
            continue  # a run never turns the corner
        order = _place(cards, naturals, variant, suit, low)
        if order is None:
            continue
        spec = MeldSpec("run", order, declared)
        try:
            meld = table_meld(spec, variant, 0, 0)
        except MeldError as error:
            first_error = first_error or error
            continue
        wild = meld_view_json(meld, variant)["wild"]
        assert isinstance(wild, list)
        below = wild.index(False) if False in wild else size  # wilds under the lowest natural
        score = (below, low)
        if best is None or score < best[0]:
            best = (score, spec)
    if best is not None:
        return best[1]
    if first_error is not None:
        raise first_error
    ordered = sorted(naturals, key=rank_of) + [c for c in cards if c not in naturals]
    return _checked(MeldSpec("run", tuple(_restore(ordered, cards)), declared), variant)


def _place(cards: tuple[Card, ...], naturals: list[Card], variant: Variant, suit: int,
           low: int) -> tuple[Card, ...] | None:
    """The run of ``cards`` starting at value ``low``: each natural in its place, a wild two of the suit in
    its own place where the house rule makes it natural there, the other wilds in the gaps; None when a
    natural has no place."""
    size = len(cards)
    slots: list[Card | None] = [None] * size
    rest = list(cards)
    for card in naturals:
        index = _index_of(card, low, size)
        if index is None or slots[index] is not None:
            return None
        slots[index] = card
        rest.remove(card)
    if variant.twos_natural_in_place:
        index = _index_of(make_card(2, suit), low, size)
        two = make_card(2, suit)
        if index is not None and slots[index] is None and two in rest:
            slots[index] = two
            rest.remove(two)
    rest.sort(key=lambda c: (c == JOKER, c))
    for i in range(size):
        if slots[i] is None:
            slots[i] = rest.pop(0)
    return tuple(c for c in slots if c is not None)


def _index_of(card: Card, low: int, size: int) -> int | None:
    """Where natural ``card`` stands in a run from ``low`` of ``size`` cards (an ace as 1 or 14)."""
    rank = rank_of(card)
    for value in ((1, 14) if rank == 1 else (rank,)):
        if low <= value < low + size:
            return value - low
    return None


def _restore(ordered: list[Card], cards: tuple[Card, ...]) -> list[Card]:
    """``ordered`` with every card of ``cards`` in it once (naturals sorted, the rest after)."""
    rest = list(cards)
    out = []
    for card in ordered:
        if card in rest:
            rest.remove(card)
            out.append(card)
    return out + rest


def _checked(spec: MeldSpec, variant: Variant) -> MeldSpec:
    meld_facts(spec, variant)
    return spec


def order_layoffs(meld: TableMeld, cards: Sequence[Card], variant: Variant) -> list[tuple[Card, str | None]]:
    """An order in which ``cards`` can all be laid off on ``meld``, each with the run end it goes to where
    it fits both (None where it goes to one place only); raises :class:`MeldError` when no order fits.

    Naturals come before wilds, and a wild goes to the high end of a run before the low one.  Whether the
    player may lay off now (contract down, turn) is the legal actions' question, not this one's.

    >>> from rummy.engine.house_rules import get_variant
    >>> from rummy.engine.cards import parse_card
    >>> v = get_variant("progressive-15")
    >>> run = table_meld(MeldSpec("run", tuple(parse_card(c) for c in ("5H", "6H", "7H"))), v, 1, 0)
    >>> [(card_name(c), end) for c, end in order_layoffs(run, [parse_card(c) for c in ("3H", "8H", "4H")], v)]
    [('4H', None), ('3H', None), ('8H', None)]
    """
    if len(cards) > MAX_CARDS:
        raise MeldError("layoff-does-not-fit", f"{len(cards)} cards are more than any meld takes")
    start = tuple(sorted(cards, key=lambda c: (variant.is_wild(c), c)))
    failed: set[tuple[tuple[Card, ...], int, tuple[Card, ...]]] = set()

    def search(current: TableMeld, remaining: tuple[Card, ...]) -> list[tuple[Card, str | None]] | None:
        if not remaining:
            return []
        key = (current.cards, current.low, remaining)
        if key in failed:
            return None
        tried: set[Card] = set()
        for i, card in enumerate(remaining):
            if card in tried:
                continue
            tried.add(card)
            ends = layoff_ends(current, card, variant)
            if ends == ("low", "high"):
                ends = ("high", "low")
            for end in ends:
                try:
                    grown = lay_off(current, card, end, variant)
                except MeldError:
                    continue
                tail = search(grown, remaining[:i] + remaining[i + 1:])
                if tail is not None:
                    return [(card, end if _both_ends(current, card, variant) else None), *tail]
        failed.add(key)
        return None

    order = search(meld, start)
    if order is None:
        names = " ".join(card_name(c) for c in cards)
        raise MeldError("layoff-does-not-fit", f"{names} cannot all be laid off on meld {meld.id}")
    return order


def _both_ends(meld: TableMeld, card: Card, variant: Variant) -> bool:
    """Whether ``card`` fits both ends of run ``meld`` (then a lay-off must name its end)."""
    if not meld.is_run:
        return False
    fits = 0
    for end in ("low", "high"):
        try:
            lay_off(meld, card, end, variant)
        except MeldError:
            continue
        fits += 1
    return fits == 2


def arranged_json(spec: MeldSpec, variant: Variant) -> dict[str, object]:
    """What a front end draws of an arranged meld: its notation, cards, what each stands for and which are
    wild (the table's ``meld_view_json`` without an id or owner)."""
    data = meld_view_json(table_meld(spec, variant, 0, 0), variant)
    del data["id"], data["owner"]
    return {"spec": str(spec), **data}


def arrange_json(text: str, variant: Variant) -> dict[str, object]:
    """The meld written ``text`` (record notation, its cards in any order: ``run:5D-JK-3D``) arranged by
    :func:`arrange_meld`, as :func:`arranged_json`; raises :class:`MeldError`, or ``RecordSyntaxError`` for
    text that does not parse.

    >>> from rummy.engine.house_rules import get_variant
    >>> arranged = arrange_json("run:5D-2D-3D", get_variant("progressive-15"))
    >>> arranged["spec"], arranged["as"], arranged["wild"]
    ('run:3D-2D-5D', ['3D', '4D', '5D'], [False, True, False])
    """
    spec = parse_meld(text)
    return arranged_json(arrange_meld(spec.kind, spec.cards, variant, spec.declared), variant)


def layoff_bodies(meld: TableMeld, cards: Sequence[str], variant: Variant) -> list[str]:
    """The lay-offs of the cards named ``cards`` on ``meld`` in an order that fits (:func:`order_layoffs`), as
    action bodies without the seat (``layoff 3 4H``, ``layoff 3 JK high``), to be sent as one batch."""
    order = order_layoffs(meld, [parse_card(name) for name in cards], variant)
    return [f"layoff {meld.id} {card_name(card)}" + (f" {end}" if end else "") for card, end in order]
