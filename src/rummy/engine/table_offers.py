"""What a table offers a hand: lay-offs, wild swaps, run splits and spare-card rearrangements, worked out
once per table and read against the hand at every decision.

Melds are immutable and the table changes by a meld or two between decisions, so the work is split by what
it depends on:

* per meld (:mod:`rummy.engine.meld_offers`, memoised on the meld object or its shape): the cards and ends it
  takes on a lay-off, the naturals that would take or move its wilds, the places a run can be split, the cards
  it can spare;
* per table (memoised on the identity of its melds, :func:`table_offers`): those lists in table order, and
  the rearrangements that pull spare table cards into a new meld, keyed by what they need of the hand (a set
  by its rank and the copies held, a run by its suit, lowest value and which of its values the hand holds);
* per hand: one pass over those lists.

Every memo entry keeps the objects whose ids make its key alive, so ids cannot be reused while it stands.
"""

from __future__ import annotations

from collections.abc import Iterator

from rummy.engine.actions import Verb
from rummy.engine.cards import JOKER, Card
from rummy.engine.deadlock import Spare, TableSpares, table_spares, wild_flags
from rummy.engine.meld_offers import accepted_layoffs as accepted_layoffs  # re-exported: bots read it here
from rummy.engine.meld_offers import split_points, swap_options, valid_meld
from rummy.engine.melds import MeldSpec, TableMeld
from rummy.engine.modes import JokerSwap, WildPolicy
from rummy.engine.variants import Variant

# Read for every spare-card meld: module globals, cheaper than Enum members (slow class lookup in Python 3.11).
_NOT_OUTNUMBER, _AT_MOST_ONE = WildPolicy.NOT_OUTNUMBER, WildPolicy.AT_MOST_ONE

_MeldOffers = tuple[tuple[tuple[Card, int, str | None], ...], tuple[tuple[Verb, Card, int, str | None], ...],
                    tuple[tuple[Card, TableMeld, int], ...]]


# id of a meld -> (the meld, the variant, what it adds to its table's lists under that variant).
_MELD_OFFERS: dict[int, tuple[TableMeld, Variant, _MeldOffers]] = {}


def _meld_offers(meld: TableMeld, variant: Variant) -> _MeldOffers:
    """What ``meld`` adds to its table's lists: its lay-offs, wild swaps and split points (memoised per meld)."""
    hit = _MELD_OFFERS.get(id(meld))
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    offers = _work_out_meld_offers(meld, variant)
    if len(_MELD_OFFERS) > 100_000:
        _MELD_OFFERS.clear()
    _MELD_OFFERS[id(meld)] = (meld, variant, offers)
    return offers


def _work_out_meld_offers(meld: TableMeld, variant: Variant) -> _MeldOffers:
    meld_id = meld.id
    layoffs = tuple((card, meld_id, end) for card, end in accepted_layoffs(meld, variant))
    swaps: tuple[tuple[Verb, Card, int, str | None], ...] = ()
    if variant.joker_swap is not JokerSwap.NONE and meld.wilds:
        swaps = tuple((verb, card, meld_id, end) for verb, card, end in swap_options(meld, variant))
    splits = tuple((card, meld, index) for card, index in split_points(meld, variant))
    return layoffs, swaps, splits


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
        #: Whether every meld after it is valid: each source without its spare card, and the new meld.
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

    __slots__ = ("variant", "layoffs", "swaps", "splits", "_table", "_spares_found", "_sets", "_set_builds", "_runs",
                 "_cover", "_wild")

    def __init__(self, table: tuple[TableMeld, ...], variant: Variant) -> None:
        self.variant = variant
        #: Every (card kind, meld id, end) a lay-off may name, in table order.
        self.layoffs: list[tuple[Card, int, str | None]] = []
        #: Every (verb, natural card, meld id, end) that could take or move a wild, in table order.
        self.swaps: list[tuple[Verb, Card, int, str | None]] = []
        #: Every (card the hand must hold, run, index) that could split a run, in table order.
        self.splits: list[tuple[Card, TableMeld, int]] = []
        for meld in table:
            layoffs, swaps, splits = _meld_offers(meld, variant)
            self.layoffs += layoffs
            self.swaps += swaps
            self.splits += splits
        self._table = table
        self._spares_found: TableSpares | None = None
        self._sets: dict[tuple[int, int], list[Spare] | None] = {}
        self._set_builds: dict[tuple[int, tuple[Card, ...]], SpareBuild | None] = {}
        self._runs: dict[tuple[int, int, int], SpareBuild | None] = {}
        self._cover: dict[int, int] = {}
        self._wild = wild_flags(variant)

    @property
    def _spares(self) -> TableSpares:
        """The table's spare cards (:func:`rummy.engine.deadlock.table_spares`), worked out when first needed."""
        if self._spares_found is None:
            self._spares_found = table_spares(list(self._table), self.variant)
        return self._spares_found

    def spare_builds(self, hand: list[int], held: list[Card]) -> Iterator[SpareBuild]:
        """The rearrangements :func:`rummy.engine.deadlock.spare_builds` finds for ``hand`` (whose card kinds,
        ascending, are ``held``), in its order."""
        if not self._spares[0]:
            return
        variant = self.variant
        wild = self._wild
        low_bound, high_bound = variant.ace_mode.run_bounds
        in_bounds = ((1 << (high_bound + 1)) - 1) & ~((1 << low_bound) - 1)
        by_rank: list[list[Card]] = [[] for _ in range(14)]  # the hand's naturals per rank
        values = [0, 0, 0, 0]  # per suit, the run values (bits 1…14) the hand holds naturally
        for card in held:
            if card != JOKER and not wild[card]:  # a joker that is not wild joins no new meld
                rank = card % 13 + 1
                by_rank[rank].extend([card] * hand[card])
                values[card // 13] |= (1 << 1 | 1 << 14) if rank == 1 else 1 << rank
        _, wild_spares, _, spares_by_rank = self._spares
        set_builds = self._set_builds
        for rank in range(1, 14):
            if not by_rank[rank] or (not wild_spares and rank not in spares_by_rank):
                continue  # no naturals, or no spare card could join them
            own = tuple(by_rank[rank])
            key = (rank, own)
            if key in set_builds:
                found = set_builds[key]
            else:
                found = set_builds[key] = self._set_build(rank, own)
            if found is not None:
                yield found
        run_min = variant.run_min
        wild_melds = min(self._wild_spare_melds(), run_min)  # more than run_min never matters
        runs = self._runs
        for suit in range(4):
            held_values = values[suit] & in_bounds
            if not held_values:
                continue
            for low, window in _run_windows(held_values, self._exact_spares(suit), wild_melds, run_min,
                                            low_bound, high_bound):
                run_key = (suit, low, window)
                if run_key in runs:
                    run = runs[run_key]
                else:
                    run = runs[run_key] = self._run_build(suit, low, window)
                if run is not None:
                    yield run

    def _set_build(self, rank: int, own: tuple[Card, ...]) -> SpareBuild | None:
        """The set of ``rank`` made of the hand's naturals ``own`` and spare table cards, or None."""
        variant = self.variant
        wild = self._wild
        used = self._set_spares(rank, min(len(own), variant.group_min))
        if used is None:
            return None
        wild_count = sum(1 for u in used if wild[u[1]])
        if variant.wild_policy is _NOT_OUTNUMBER and wild_count > len(own) + len(used) - wild_count:
            return None
        cards = own + tuple(u[1] for u in used)
        if variant.twos_natural_in_place and rank == 2:  # a wild two is a natural two here
            wild_count = sum(1 for u in used if wild[u[1]] and u[1] % 13 != 1)
        return self._new_build(used, "set", cards, len(own), wild_count)

    def _exact_spares(self, suit: int) -> int:
        """The values (bits 1…14) of ``suit`` whose card is a spare natural of the table."""
        if suit in self._cover:
            return self._cover[suit]
        bits = [0, 0, 0, 0]
        for card in self._spares[2]:
            if card != JOKER:
                bits[card // 13] |= (1 << 1 | 1 << 14) if card % 13 == 0 else 1 << (card % 13 + 1)
        self._cover.update(enumerate(bits))
        return bits[suit]

    def _wild_spare_melds(self) -> int:
        """How many melds of the table can spare a wild."""
        if -1 not in self._cover:
            self._cover[-1] = len({spare[0].id for spare in self._spares[1]})
        return self._cover[-1]

    def _set_spares(self, rank: int, own: int) -> list[Spare] | None:
        """The spares that complete a set of ``rank`` with ``own`` naturals of the hand (at most group_min
        counted: more need no more spares), or None."""
        key = (rank, own)
        if key in self._sets:
            return self._sets[key]
        _, wild_spares, _, by_rank = self._spares
        group_min = self.variant.group_min
        wanted = max(1, group_min - own)
        if wanted == 1:  # the first spare of the rank, else the first wild one
            first = by_rank.get(rank) or wild_spares
            self._sets[key] = [first[0]] if first else None
            return self._sets[key]
        used: list[Spare] = []
        sources: set[int] = set()
        for spares in (by_rank.get(rank, ()), wild_spares):
            for spare in spares:
                if spare[0].id not in sources:
                    sources.add(spare[0].id)
                    used.append(spare)
                    if len(used) == wanted:
                        break
            if len(used) == wanted:
                break
        found = used if used and own + len(used) >= group_min else None
        self._sets[key] = found
        return found

    def _run_build(self, suit: int, low: int, window: int) -> SpareBuild | None:
        """The run of ``suit`` from value ``low`` whose values in bit set ``window`` come from the hand and the
        others from spare table cards (each from a different meld), or None."""
        variant = self.variant
        wild = self._wild
        _, wild_spares, by_card, _ = self._spares
        cards: list[Card] = []
        used: list[Spare] = []
        wild_count = 0
        for offset in range(variant.run_min):
            value = low + offset
            card = suit * 13 + (0 if value == 14 else value - 1)
            if window >> offset & 1:
                cards.append(card)  # a natural of the hand
                continue
            exact = by_card.get(card)
            pick = None if exact is None else _free(exact, used)
            if pick is None:
                pick = _free(wild_spares, used)
                if pick is None:
                    return None
            used.append(pick)
            cards.append(pick[1])
            wild_count += wild[pick[1]]
        if not used or (variant.wild_policy is _NOT_OUTNUMBER and wild_count > len(cards) - wild_count):
            return None
        if variant.twos_natural_in_place and low <= 2 < low + len(cards) and wild[cards[2 - low]]:
            two = cards[2 - low]
            if two != JOKER and two % 13 == 1 and two // 13 == suit:  # a wild two of the suit in its place
                wild_count -= 1
        return self._new_build(used, "run", tuple(cards), window.bit_count(), wild_count)

    def _new_build(self, used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int,
                   wild_count: int) -> SpareBuild:
        """The rearrangement moving the spares ``used`` into a new meld of ``cards`` (``wild_count`` of them
        wild where they stand).  Built as above, the new meld holds naturals of one rank, or of one suit at
        their own values, and cards enough, so the variant's wild policy alone decides whether it is valid.  (A
        joker that is not wild never gets in: a spare of a rank is never a joker, and wild spares are wild.)"""
        variant = self.variant
        policy = variant.wild_policy
        new_valid = not ((policy is _NOT_OUTNUMBER and wild_count > len(cards) - wild_count)
                         or (policy is _AT_MOST_ONE and wild_count > 1))
        return SpareBuild(used, kind, cards, from_hand, new_valid, variant)


# (arguments of _run_windows) -> its answer.
_RUN_WINDOWS: dict[tuple[int, int, int, int, int, int], tuple[tuple[int, int], ...]] = {}


def _run_windows(held_values: int, exact: int, wild_melds: int, run_min: int, low_bound: int,
                 high_bound: int) -> tuple[tuple[int, int], ...]:
    """Each (lowest value, values held as bits from it) of the windows of ``run_min`` run values of a suit that
    could become a new run: the hand holds some of their values (bits 1…14 of ``held_values``) but not all, and
    each value it lacks takes a spare of its card (bits of ``exact``) or else a wild spare, each from its own
    meld (``wild_melds`` melds spare a wild).  Memoised."""
    key = (held_values, exact, wild_melds, run_min, low_bound, high_bound)
    found = _RUN_WINDOWS.get(key)
    if found is None:
        full = (1 << run_min) - 1
        windows = []
        for low in range(low_bound, high_bound - run_min + 2):
            window = (held_values >> low) & full
            if window and window != full and (full & ~window & ~(exact >> low)).bit_count() <= wild_melds:
                windows.append((low, window))
        found = tuple(windows)
        if len(_RUN_WINDOWS) > 100_000:
            _RUN_WINDOWS.clear()
        _RUN_WINDOWS[key] = found
    return found


# id of a spare -> (the spare, the variant, the meld it leaves behind and whether that is valid).
_RESTS: dict[int, tuple[Spare, Variant, tuple[MeldSpec, bool]]] = {}


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
    rest = (spec, valid)
    if len(_RESTS) > 100_000:
        _RESTS.clear()
    _RESTS[id(spare)] = (spare, variant, rest)
    return rest


def _free(spares: list[Spare], used: list[Spare]) -> Spare | None:
    """The first of ``spares`` from a meld no spare in ``used`` comes from."""
    if not used:
        return spares[0] if spares else None
    taken = {u[0].id for u in used}
    for spare in spares:
        if spare[0].id not in taken:
            return spare
    return None


# (ids of the table's melds, id of the variant) -> (the melds, the offers).
_OFFERS: dict[tuple[tuple[int, ...], int], tuple[tuple[TableMeld, ...], TableOffers]] = {}


def table_offers(table: list[TableMeld], variant: Variant) -> TableOffers:
    """The :class:`TableOffers` of ``table`` under ``variant`` (memoised on the identity of its melds)."""
    key = (tuple(map(id, table)), id(variant))
    hit = _OFFERS.get(key)
    if hit is not None and hit[1].variant is variant:
        return hit[1]
    melds = tuple(table)
    offers = TableOffers(melds, variant)
    if len(_OFFERS) > 4096:
        _OFFERS.clear()
    _OFFERS[key] = (melds, offers)
    return offers
