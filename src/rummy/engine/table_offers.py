"""What a table offers a hand: lay-offs, wild swaps, run splits and spare-card rearrangements, worked out
once per table and read against the hand at every decision.

Melds are immutable and the table changes by a meld or two between decisions, so the work is split by what
it depends on:

* per meld (:mod:`rummy.engine.meld_offers`, memoised on the meld object or its shape): the cards and ends it
  takes on a lay-off, the naturals that would take or move its wilds, the places a run can be split, the cards
  it can spare;
* per table (memoised on the identity of its melds, :func:`table_offers`): those lists in table order, and
  the rearrangements that pull spare table cards into a new meld, keyed by what they need of the hand (a set
  by its rank and the copies held, a run by its suit, lowest value and which of its values the hand holds;
  found by :class:`rummy.engine.deadlock.SpareBuilds`, which :func:`~rummy.engine.deadlock.is_deadlocked`
  reads too);
* per hand: one pass over those lists.

Every memo entry keeps the objects whose ids make its key alive, so ids cannot be reused while it stands.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import rummy.engine.backends as backends
from rummy.engine.actions import ACTION_FIELDS, Action, Verb, new_action
from rummy.engine.cards import Card
from rummy.engine.deadlock import Spare, SpareBuilds, meld_spares
from rummy.engine.meld_offers import (
    _PER_MELD,
    per_meld,
    split_halves,
    split_points,
    swap_options,
    valid_meld,
)
from rummy.engine.meld_offers import accepted_layoffs as accepted_layoffs  # re-exported: bots read it here
from rummy.engine.meld_rules import compiled_meld_rules
from rummy.engine.melds import MeldSpec, TableMeld, wild_policy_allows
from rummy.engine.memo import memo_table, per_object, put
from rummy.engine.modes import JokerSwap, WildRelocationScope
from rummy.engine.variants import Variant

_MeldOffers = tuple[tuple[tuple[Card, int, str | None], ...], tuple[tuple[Verb, Card, int, str | None], ...],
                    tuple[tuple[Card, TableMeld, int], ...]]


# id of a meld -> (the meld, the variant, what it adds to its table's lists under that variant).
_MELD_OFFERS: dict[int, tuple[TableMeld, Variant, _MeldOffers]] = memo_table("offers of a meld", 100_000)


def _meld_offers(meld: TableMeld, variant: Variant) -> _MeldOffers:
    """What ``meld`` adds to its table's lists: its lay-offs, wild swaps and split points (memoised per meld)."""
    hit = _MELD_OFFERS.get(id(meld))
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    return put(_MELD_OFFERS, id(meld), (meld, variant, _work_out_meld_offers(meld, variant)))[2]


def _work_out_meld_offers(meld: TableMeld, variant: Variant) -> _MeldOffers:
    """What ``meld`` adds to its table's lists (see :func:`_meld_offers`).  The reference of the compiled work-out
    (``meld_offers.c``, which :meth:`TableOffers.__init__`'s compiled pass runs for a meld not seen before, from
    :func:`_offers_kit`); this function answers the melds it does not read."""
    meld_id = meld.id
    layoffs = tuple((card, meld_id, end) for card, end in accepted_layoffs(meld, variant))
    swaps: tuple[tuple[Verb, Card, int, str | None], ...] = ()
    if variant.joker_swap is not JokerSwap.NONE and meld.wilds:
        swaps = tuple((verb, card, meld_id, end) for verb, card, end in swap_options(meld, variant))
    splits = tuple((card, meld, index) for card, index in split_points(meld, variant))
    return layoffs, swaps, splits


@per_object("compiled meld-offer rules of a variant")
def _offers_kit(variant: Variant) -> tuple[bytes, int, bool, bool, int, Verb, Verb]:
    """What ``meld_offers.c`` reads of ``variant``: its :func:`~rummy.engine.meld_rules.compiled_meld_rules`, its
    ``joker_swap`` (0 none, 1 to the hand, 2 relocated in the run), ``joker_swap_in_groups``, whether
    ``wild_relocation_scope`` is the hand, ``run_min``, and the verbs of a swap and a relocation."""
    swap = {JokerSwap.NONE: 0, JokerSwap.TO_HAND: 1, JokerSwap.RELOCATE_IN_RUN: 2}[variant.joker_swap]
    return (compiled_meld_rules(variant), swap, variant.joker_swap_in_groups,
            variant.wild_relocation_scope is WildRelocationScope.HAND, variant.run_min, Verb.SWAP, Verb.MOVE)


class SpareBuild:
    """A rearrangement pulling spare table cards into a new meld.

    Whether it is valid is judged from counts when it is found; its melds are written out when first asked for
    (most listings only count it).
    """

    __slots__ = ("sources", "from_hand", "valid", "_used", "_kind", "_cards", "_variant", "_melds")

    def __init__(self, used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int, new_valid: bool,
                 variant: Variant) -> None:
        #: The ids of the melds the spare cards come from, one card each.
        self.sources = tuple([spare[0].id for spare in used])
        #: How many cards of the new meld come from the hand.
        self.from_hand = from_hand
        #: Whether every meld after it is valid: each source without its spare card, and the new meld (judged
        #: from counts, a shortcut; reference: :func:`rummy.engine.melds.table_meld`, rules.md §2.4, §3.8).
        self.valid = new_valid
        if new_valid:
            for spare in used:
                if not _rest(spare, variant)[1]:
                    self.valid = False
                    break
        self._used = used
        self._kind = kind
        self._cards = cards
        self._variant = variant
        self._melds: tuple[MeldSpec, ...] | None = None

    def melds(self) -> tuple[MeldSpec, ...]:
        """The melds after it: each source without its spare card, then the new meld."""
        if self._melds is None:
            self._melds = (*(_rest(spare, self._variant)[0] for spare in self._used), MeldSpec(self._kind, self._cards))
        return self._melds


class TableOffers:
    """What one table offers under one variant (see the module docstring); built by :func:`table_offers`."""

    __slots__ = ("variant", "layoffs", "swaps", "splits", "_builds", "_table", "_packed", "_spares")

    def __init__(self, table: tuple[TableMeld, ...], variant: Variant) -> None:
        self.variant = variant
        self._table = table
        self._packed: NativeTable | None = None
        #: Where each spare of :func:`~rummy.engine.deadlock.table_spares`' list stands: (its meld, its index among
        #: the meld's spares), worked out when a rearrangement is first written out.
        self._spares: list[tuple[TableMeld, int]] | None = None
        #: Every (card kind, meld id, end) a lay-off may name, in table order.
        self.layoffs: list[tuple[Card, int, str | None]] = []
        #: Every (verb, natural card, meld id, end) that could take or move a wild, in table order.
        self.swaps: list[tuple[Verb, Card, int, str | None]] = []
        #: Every (card the hand must hold, run, index) that could split a run, in table order.
        self.splits: list[tuple[Card, TableMeld, int]] = []
        native = backends.NATIVE  # the pass over the melds and a new meld's offers compiled (play_listing.c,
        # meld_offers.c); None: a table not a tuple
        gathered = None if native is None else native.gather_offers(table, variant, _MELD_OFFERS, _meld_offers,
                                                                    _offers_kit(variant), put)
        if gathered is not None:
            self.layoffs, self.swaps, self.splits = gathered
        else:
            for meld in table:
                layoffs, swaps, splits = _meld_offers(meld, variant)
                self.layoffs += layoffs
                self.swaps += swaps
                self.splits += splits
        #: The table's spare-card builds, made when first asked (the compiled listing reads the table packed instead).
        self._builds: SpareBuilds[SpareBuild] | None = None

    def spare_builds(self, hand: list[int], held: list[Card]) -> Iterator[SpareBuild]:
        """The rearrangements :class:`rummy.engine.deadlock.SpareBuilds` finds for ``hand`` (whose card kinds,
        ascending, are ``held``), in its order, each judged valid or not (:class:`SpareBuild`)."""
        if self._builds is None:
            self._builds = SpareBuilds(self._table, self.variant, partial(_new_build, self.variant))
        return self._builds.each(hand, held)

    def native_rearrangements(self) -> NativeTable:
        """The table as the compiled listing of its rearrangements reads it (``rearrangements.c``; worked out when
        first asked): the variant's rules, and per meld its :func:`_rearrangement_part`."""
        if self._packed is None:
            variant = self.variant
            native = backends.NATIVE  # the parts compiled (meld_parts.c); None: a table not a tuple, odd rules
            parts: list[RearrangementPart] | None = None if native is None else native.rearrangement_parts(
                self._table, variant, _part_rules(variant), _PER_MELD, _PART, _rearrangement_part_of)
            if parts is None:
                parts = [_rearrangement_part_of(meld, variant) for meld in self._table]
            self._packed = (compiled_meld_rules(variant), variant.run_min, variant.group_min, parts)
        return self._packed

    def spare_rearrangement(self, seat: int, used: tuple[int, ...], kind: str, cards: tuple[Card, ...]) -> Action:
        """The rearrangement by ``seat`` moving the spares ``used`` (indices into :func:`~rummy.engine.deadlock.
        table_spares`' list) into a new meld of ``kind`` and ``cards``: the action the listing makes of a
        :class:`SpareBuild` (each source without its spare card, then the new meld).  Written out by the compiled
        core where it answers (``spare_action.c``), :meth:`_written_out` being the reference."""
        native = backends.NATIVE
        action: Action | None = None if native is None else native.spare_action(self, seat, used, kind, cards,
                                                                                 _SPARE_KIT)
        return self._written_out(seat, used, kind, cards) if action is None else action

    def _written_out(self, seat: int, used: tuple[int, ...], kind: str, cards: tuple[Card, ...]) -> Action:
        """:meth:`spare_rearrangement` in Python."""
        variant = self.variant
        spares = [self._spare(index) for index in used]
        melds = (*(_rest(spare, variant)[0] for spare in spares), MeldSpec(kind, cards))
        return new_action(seat, Verb.REARRANGE, melds=melds, sources=tuple([spare[0].id for spare in spares]))

    def _spare(self, index: int) -> Spare:
        """The spare at ``index`` of :func:`~rummy.engine.deadlock.table_spares`' list (its melds' spares in table
        order), placed through the count of each meld's spares in its :data:`RearrangementPart`: only the melds that
        hold the spares asked for have their spares made (:func:`~rummy.engine.deadlock.meld_spares`)."""
        if self._spares is None:
            self._spares = [(meld, at) for meld, part in zip(self._table, self.native_rearrangements()[3], strict=True)
                            for at in range(len(part[0]) // 2)]
        if not 0 <= index < len(self._spares):
            raise IndexError("no such spare on the table")
        meld, at = self._spares[index]
        return meld_spares(meld, self.variant)[at]


#: What ``spare_action.c`` makes its rearrangement with: the records it makes, their fields' slots, and the verb.
_SPARE_KIT = (Action, ACTION_FIELDS, MeldSpec, backends.record_slots(MeldSpec), Verb.REARRANGE)

#: A meld's part in the compiled listing of rearrangements: its spares (with wilds, :func:`~rummy.engine.deadlock.
#: spare_cards`' order) as two bytes each, the card and whether the meld left behind is valid (:func:`_rest`), and its
#: split points whose halves are valid, as (card the hand must hold, meld id, halves).
RearrangementPart = tuple[bytes, tuple[tuple[Card, int, tuple[MeldSpec, MeldSpec]], ...]]
#: A table as ``rearrangements.c`` reads it: (:func:`~rummy.engine.meld_rules.compiled_meld_rules`, run_min,
#: group_min, a part per meld).
NativeTable = tuple[bytes, int, int, list[RearrangementPart]]


_PART = "rearrangement part"


def _rearrangement_part_of(meld: TableMeld, variant: Variant) -> RearrangementPart:
    """``meld``'s :data:`RearrangementPart`, memoised per meld (:func:`~rummy.engine.meld_offers.per_meld`)."""
    return per_meld(_PART, meld, variant, _rearrangement_part)


def _rearrangement_part(meld: TableMeld, variant: Variant) -> RearrangementPart:
    """``meld``'s :data:`RearrangementPart` (memoised per meld by :func:`~rummy.engine.meld_offers.per_meld`).

    The reference of the compiled parts (``meld_parts.c``, read through :meth:`TableOffers.native_rearrangements`),
    which answer the same for every meld of a run, set, pair or book kind; this function answers the melds they do
    not read."""
    spares = bytes([byte for spare in meld_spares(meld, variant) for byte in (spare[1], _rest(spare, variant)[1])])
    splits = []
    for card, _, index in _meld_offers(meld, variant)[2]:
        halves = split_halves(meld, index, variant)
        if halves is not None:
            splits.append((card, meld.id, halves))
    return spares, tuple(splits)


@per_object("compiled rearrangement-part rules of a variant")
def _part_rules(variant: Variant) -> tuple[bytes, int, int, int | None, type[MeldSpec], object]:
    """What ``meld_parts.c`` reads of ``variant``: its :func:`~rummy.engine.meld_rules.compiled_meld_rules`,
    ``run_min``, ``group_min``, ``wild_group_min``, the :class:`MeldSpec` class it makes split halves of and
    :func:`~rummy.engine.memo.put`, which stores its parts."""
    return compiled_meld_rules(variant), variant.run_min, variant.group_min, variant.wild_group_min, MeldSpec, put


def _new_build(variant: Variant, used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int,
               wild_count: int) -> SpareBuild:
    """The rearrangement moving the spares ``used`` into a new meld of ``cards`` (``wild_count`` of them wild
    where they stand).  Built by :class:`~rummy.engine.deadlock.SpareBuilds`, the new meld holds naturals of one
    rank, or of one suit at their own values, and cards enough, so the variant's wild policy alone decides whether
    it is valid (as :func:`rummy.engine.melds.table_meld` would judge it: ``CHECK_SHORTCUTS`` compares).  (A joker
    that is not wild never gets in: a spare of a rank is never a joker, and wild spares are wild.)"""
    new_valid = wild_policy_allows(variant, wild_count, len(cards) - wild_count)
    return SpareBuild(used, kind, cards, from_hand, new_valid, variant)


# id of a spare -> (the spare, the variant, the meld it leaves behind and whether that is valid).
_RESTS: dict[int, tuple[Spare, Variant, tuple[MeldSpec, bool]]] = memo_table("rest of a spare", 100_000)


def _rest(spare: Spare, variant: Variant) -> tuple[MeldSpec, bool]:
    """The meld ``spare`` leaves behind when it goes, and whether that meld is valid (memoised per spare: a
    spare lives as long as its meld, and every table holding the meld shares it)."""
    hit = _RESTS.get(id(spare))
    if hit is not None and hit[0] is spare and hit[1] is variant:
        return hit[2]
    meld = spare[0]
    spec = MeldSpec(meld.kind if meld.kind != "pair" else "set", spare[2])
    # A set spares a card only while what it leaves has cards enough, a natural and no more wilds than the
    # policy allows (deadlock.spare_cards), so that is valid; unless wild twos count as naturals there.
    valid = (meld.kind == "set" and bool(meld.rank) and not variant.twos_natural_in_place) or valid_meld(spec, variant)
    return put(_RESTS, id(spare), (spare, variant, (spec, valid)))[2]


# (ids of the table's melds, id of the variant) -> (the melds, the offers).  Few are kept: a table changes with every
# play onto it and an old one rarely comes back (a search's root table does, and is worked out again after at most
# this many others), while every table kept is objects the garbage collector walks again and again: keeping 4,096
# cost a uniform decision of progressive-buy-it 2-4 % more instructions than 64, an ismcts decision of may-i 4 %.
_OFFERS: dict[tuple[tuple[int, ...], int], tuple[tuple[TableMeld, ...], TableOffers]] = memo_table(
    "offers of a table", 64)


def table_offers(table: list[TableMeld], variant: Variant) -> TableOffers:
    """The :class:`TableOffers` of ``table`` under ``variant`` (memoised on the identity of its melds)."""
    key = (tuple(map(id, table)), id(variant))
    hit = _OFFERS.get(key)
    if hit is not None and hit[1].variant is variant:
        return hit[1]
    melds = tuple(table)
    return put(_OFFERS, key, (melds, TableOffers(melds, variant)))[1]
