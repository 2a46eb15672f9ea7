"""Positions from which nobody can ever go out.

* ``basic`` (rules.md §6.9): :func:`is_stalemate`, the seed's stalemate check.
* Contract variants: when every player is down and no new meld may be started, the cards off the
  table may be unable ever to reach it.  The rules then have no way to end the round (the stock is
  refilled for ever), so the engine ends it by exhaustion (§2.9 scoring) when :func:`is_deadlocked`
  proves the position dead.  The check is conservative: it never ends a round that could still be
  won by lay-offs, swaps, relocations or the rearrangements of §3.8.
* A player who is not down counts as "down" for that check once they can never lay down: their hand
  can no longer reach the contract's card count, because only claims grow a hand and their claim
  allowance is spent or the round has no claims (progressive-15 hands 12–13 need two buys; house rules
  may raise run_min past what a hand can hold): the largest hand they can still hold (:func:`_largest_hand`)
  is smaller than the fewest cards a lay-down takes.
  When no one is down and everyone is locked out, nobody can ever go out and the round is exhausted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, Generic, TypeVar

import rummy.engine.backends as backends
from rummy.engine.cards import CARD_COUNT, JOKER, Card, make_card, rank_of
from rummy.engine.errors import MeldError
from rummy.engine.meld_offers import accepted_cards
from rummy.engine.meld_rules import compiled_meld_rules, wild_flags
from rummy.engine.melds import TableMeld, swap_wild
from rummy.engine.memo import memo_table, memoised, put
from rummy.engine.modes import ClaimLimitScope, JokerSwap, RearrangeMode, WildPolicy
from rummy.engine.state import GameState
from rummy.engine.variants import RoundRules, Variant


def off_table_pool(game: GameState) -> list[int]:
    """Counts of the cards not on the table (hands, stock, discard pile, purchase cards)."""
    pool = list(game.pack)
    for meld in game.table:
        for card in meld.cards:
            pool[card] -= 1
    return pool


def _any_layoff(game: GameState, pool: list[int]) -> bool:
    """Whether some card of ``pool`` can be laid off on some meld of the table (at some end)."""
    variant = game.variant
    for meld in game.table:
        for card in accepted_cards(meld, variant):
            if pool[card]:
                return True
    return False


def _pool_has_run(pool: list[int], suit: int, run_min: int, ace_high: bool, must_hold: int = 0) -> bool:
    held = {must_hold, 14} if must_hold == 1 else {must_hold}
    streak = 0
    for value in range(1, 15 if ace_high else 14):
        card = make_card(1 if value == 14 else value, suit)
        streak = streak + 1 if pool[card] > 0 or value in held else 0
        if streak >= run_min and (not must_hold or any(value - run_min < h <= value for h in held)):
            return True
    return False


def is_stalemate(game: GameState) -> bool:
    """rules.md §6.9: no lay-off and no new meld can ever come from the cards off the table."""
    variant = game.variant
    native = backends.NATIVE
    if native is not None:  # the first two tests compiled (basic_melds.c)
        unmeldable = native.unmeldable_pool(game.pack, game.table, variant.group_min, variant.run_min,
                                            variant.ace_mode.ace_high)
        if unmeldable is not None:
            return unmeldable is not False and not _any_layoff(game, unmeldable)
    pool = off_table_pool(game)
    # The three tests in order of cost (a new meld's are cheap and settle most positions; the lay-offs try each
    # card held against each meld).
    by_rank = [0] * 14
    for card in range(52):
        by_rank[rank_of(card)] += pool[card]
    if max(by_rank) >= variant.group_min:
        return False
    ace_high = variant.ace_mode.ace_high
    if any(_pool_has_run(pool, suit, variant.run_min, ace_high) for suit in range(4)):
        return False
    return not _any_layoff(game, pool)


def spare_cards(meld: TableMeld, variant: Variant, *, wilds: bool = False) -> Iterator[tuple[Card, tuple[Card, ...]]]:
    """Cards that can leave ``meld`` with the rest still valid: (card, rest of the meld).

    Natural cards only, unless ``wilds``.  A run gives up an end card, a set any card.
    """
    if meld.is_run:
        if len(meld.cards) > variant.run_min:
            for index in (0, len(meld.cards) - 1):
                card = meld.cards[index]
                if wilds or not variant.is_wild(card):
                    yield card, (meld.cards[1:] if index == 0 else meld.cards[:-1])
    elif meld.rank and len(meld.cards) > variant.group_min:
        seen = set()
        for index, card in enumerate(meld.cards):
            wild = variant.is_wild(card)
            if card in seen or (wild and not wilds) or (not wild and meld.naturals == 1):
                continue
            seen.add(card)
            rest = meld.cards[:index] + meld.cards[index + 1:]
            if variant.wild_policy is WildPolicy.NOT_OUTNUMBER and not wild and meld.wilds > meld.naturals - 1:
                continue
            yield card, rest


Spare = tuple[TableMeld, Card, tuple[Card, ...]]
#: A table's spares: all (table order), the wild ones, by card, and the naturals by rank.
TableSpares = tuple[list[Spare], list[Spare], dict[Card, list[Spare]], dict[int, list[Spare]]]

# (id of a meld, id of its variant) -> (the meld, the variant, the meld's spare cards with wilds); melds are
# immutable, and the entry keeps the meld alive, so its id cannot be reused while the entry stands.
_SPARES: dict[tuple[int, int], tuple[TableMeld, Variant, tuple[Spare, ...]]] = memo_table("spares of a meld", 100_000)


def meld_spares(meld: TableMeld, variant: Variant) -> tuple[Spare, ...]:
    """The spares of ``meld`` (with wilds), made once per meld object: every table holding it shares them."""
    key = (id(meld), id(variant))
    hit = _SPARES.get(key)
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    spares = tuple((meld, card, rest) for card, rest in spare_cards(meld, variant, wilds=True))
    return put(_SPARES, key, (meld, variant, spares))[2]


# (ids of the table's melds, id of the variant) -> (the melds, the variant, the table's spares by kind).
_TABLE_SPARES: dict[tuple[tuple[int, ...], int], tuple[tuple[TableMeld, ...], Variant, TableSpares]] = memo_table(
    "spares of a table", 4096)


def table_spares(table: list[TableMeld], variant: Variant) -> TableSpares:
    """Every spare of ``table`` (table order), the wild ones, and the spares by card and (naturals) by rank.

    Memoised on the identity of the melds: the entry keeps them alive, so their ids cannot be reused.
    """
    key = (tuple(map(id, table)), id(variant))
    hit = _TABLE_SPARES.get(key)
    if hit is not None and hit[1] is variant:
        return hit[2]
    wild = wild_flags(variant)
    spares = [spare for m in table for spare in meld_spares(m, variant)]
    wild_spares = [s for s in spares if wild[s[1]]]
    by_card: dict[Card, list[Spare]] = {}
    by_rank: dict[int, list[Spare]] = {}
    for spare in spares:
        by_card.setdefault(spare[1], []).append(spare)
        if not wild[spare[1]]:
            by_rank.setdefault(rank_of(spare[1]), []).append(spare)
    return put(_TABLE_SPARES, key, (tuple(table), variant, (spares, wild_spares, by_card, by_rank)))[2]


_Build = TypeVar("_Build")
#: What a spare build is made into: ``make(spares used, kind, cards of the new meld, cards from the hand, how
#: many of its cards are wild where they stand)``.
MakeBuild = Callable[[list[Spare], str, tuple[Card, ...], int, int], _Build]


class SpareBuilds(Generic[_Build]):
    """The new melds a hand can make of its naturals (at least one) and spare table cards (at least one, each
    from a different meld), for one table under one variant: the rearrangement that lets a hand play cards no
    lay-off can place (rules.md §3.8).

    This is the one definition of those rearrangements: the listing
    (:meth:`rummy.engine.table_offers.TableOffers.spare_builds`, whose ``make`` also judges whether every meld
    after the build is valid) and :func:`is_deadlocked` (which only asks whether one exists, valid or not: it
    must never end a round that could go on) both read it.  A build is offered when the cards add up and the wild
    policy ``not_outnumber`` does not refuse the new meld on counts; any other validity question is ``make``'s.
    What a build needs of the hand keys its memo: a set by its rank and the hand's naturals of that rank, a run by
    its suit, lowest value and which of its values the hand holds.

    On the native backend the compiled core (``spare_builds.c``) finds the builds, the same ones in the same order
    (:meth:`_native_each`); this Python search is the reference and answers where the core does not (docs/engine.md,
    "Backends").
    """

    __slots__ = ("_table", "_variant", "_make", "_wild", "_spares_found", "_sets", "_set_builds", "_runs", "_cover",
                 "_packed")

    def __init__(self, table: Sequence[TableMeld], variant: Variant, make: MakeBuild[_Build]) -> None:
        self._table = table
        self._variant = variant
        self._make = make
        self._wild = wild_flags(variant)
        self._spares_found: TableSpares | None = None
        self._sets: dict[tuple[int, int], list[Spare] | None] = {}
        self._set_builds: dict[tuple[int, tuple[Card, ...]], _Build | None] = {}
        self._runs: dict[tuple[int, int, int], _Build | None] = {}
        self._cover: dict[int, int] = {}
        self._packed: bytes | None = None

    @property
    def _spares(self) -> TableSpares:
        """The table's spare cards (:func:`table_spares`), worked out when first needed."""
        if self._spares_found is None:
            self._spares_found = table_spares(list(self._table), self._variant)
        return self._spares_found

    def each(self, hand: Sequence[int], held: Sequence[Card]) -> Iterator[_Build]:
        """Every build for ``hand`` (counts; its card kinds, ascending, are ``held``): the sets by rank, then the
        runs by suit and lowest value."""
        if not self._spares[0]:
            return
        native = backends.NATIVE
        if native is not None:
            compiled = self._native_each(native, hand, held)
            if compiled is not None:
                yield from compiled
                return
        variant = self._variant
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

    def _native_each(self, native: ModuleType, hand: Sequence[int], held: Sequence[Card]) -> list[_Build] | None:
        """:meth:`each`'s builds found by the compiled core (``spare_builds.c``), made and memoised as :meth:`each`
        does; None when the core does not answer (a hand or ``held`` not a list or tuple of small counts and card
        kinds, a run or group minimum below 1 or above 1,000): the Python search answers then."""
        if self._packed is None:  # each spare: its card and the number of its meld (two bytes)
            melds: dict[int, int] = {}
            self._packed = bytes([byte for meld, card, _ in self._spares[0]
                                  for number in (melds.setdefault(meld.id, len(melds)),)
                                  for byte in (card, number & 255, number >> 8)])
        variant = self._variant
        found = native.spare_builds(hand, held, self._packed, compiled_meld_rules(variant), variant.run_min,
                                    variant.group_min)
        if found is None:
            return None
        spares = self._spares[0]
        builds: list[_Build] = []
        for key, used, kind, cards, from_hand, wild_count in found:
            memo: dict[Any, _Build | None] = self._set_builds if kind == "set" else self._runs
            build = memo.get(key)
            if build is None:
                build = memo[key] = self._make([spares[index] for index in used], kind, cards, from_hand, wild_count)
            builds.append(build)
        return builds

    def _set_build(self, rank: int, own: tuple[Card, ...]) -> _Build | None:
        """The set of ``rank`` made of the hand's naturals ``own`` and spare table cards, or None."""
        variant = self._variant
        wild = self._wild
        used = self._set_spares(rank, min(len(own), variant.group_min))
        if used is None:
            return None
        wild_count = sum(1 for u in used if wild[u[1]])
        if variant.wild_policy is WildPolicy.NOT_OUTNUMBER and wild_count > len(own) + len(used) - wild_count:
            return None
        cards = own + tuple(u[1] for u in used)
        if variant.twos_natural_in_place and rank == 2:  # a wild two is a natural two here
            wild_count = sum(1 for u in used if wild[u[1]] and u[1] % 13 != 1)
        return self._make(used, "set", cards, len(own), wild_count)

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
        group_min = self._variant.group_min
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

    def _run_build(self, suit: int, low: int, window: int) -> _Build | None:
        """The run of ``suit`` from value ``low`` whose values in bit set ``window`` come from the hand and the
        others from spare table cards (each from a different meld), or None."""
        variant = self._variant
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
        if not used or (variant.wild_policy is WildPolicy.NOT_OUTNUMBER and wild_count > len(cards) - wild_count):
            return None
        if variant.twos_natural_in_place and low <= 2 < low + len(cards) and wild[cards[2 - low]]:
            two = cards[2 - low]
            if two != JOKER and two % 13 == 1 and two // 13 == suit:  # a wild two of the suit in its place
                wild_count -= 1
        return self._make(used, "run", tuple(cards), window.bit_count(), wild_count)


@memoised(maxsize=100_000)
def _run_windows(held_values: int, exact: int, wild_melds: int, run_min: int, low_bound: int,
                 high_bound: int) -> tuple[tuple[int, int], ...]:
    """Each (lowest value, values held as bits from it) of the windows of ``run_min`` run values of a suit that
    could become a new run: the hand holds some of their values (bits 1…14 of ``held_values``) but not all, and
    each value it lacks takes a spare of its card (bits of ``exact``) or else a wild spare, each from its own
    meld (``wild_melds`` melds spare a wild).  Memoised."""
    full = (1 << run_min) - 1
    windows = []
    for low in range(low_bound, high_bound - run_min + 2):
        window = (held_values >> low) & full
        if window and window != full and (full & ~window & ~(exact >> low)).bit_count() <= wild_melds:
            windows.append((low, window))
    return tuple(windows)


def _free(spares: list[Spare], used: list[Spare]) -> Spare | None:
    """The first of ``spares`` from a meld no spare in ``used`` comes from."""
    if not used:
        return spares[0] if spares else None
    taken = {u[0].id for u in used}
    for spare in spares:
        if spare[0].id not in taken:
            return spare
    return None


def _exists(used: list[Spare], kind: str, cards: tuple[Card, ...], from_hand: int, wild_count: int) -> bool:
    """What :func:`is_deadlocked` makes of a spare build: only that there is one."""
    return True


def _largest_hand(game: GameState, seat: int) -> float:
    """The most cards ``seat``'s hand can ever hold in a play phase this round (infinite without a claim limit).

    A hand grows only by claims (the draw is matched by the discard), so its largest possible size in a play phase
    is its size now, plus one draw, plus every claim it may still make with its cards.
    """
    rules = game.rules
    if not rules.claims_open:
        claims_left = 0
    elif rules.claim_limit is None:
        return _UNLIMITED
    elif game.variant.claim_limit_scope is _TABLE_SCOPE:
        claims_left = max(0, rules.claim_limit - sum(game.claims_used))
    else:
        claims_left = max(0, rules.claim_limit - game.claims_used[seat])
    return game.sizes[seat] + 1 + claims_left * (1 + rules.penalty_cards)


_UNLIMITED = float("inf")
_TABLE_SCOPE = ClaimLimitScope.TABLE  # (a module global: reading a member off its Enum class is slow in 3.11)


# id of a round's rules -> (the rules, the fewest cards its contract takes under the variant).
_CONTRACT_CARDS: dict[int, tuple[RoundRules, int]] = memo_table("contract cards of a round", 1024)


def _contract_cards(variant: Variant, rules: RoundRules) -> int:
    """The fewest cards a lay-down of the round's contract takes (memoised on the rules, which belong to one
    variant; the entry keeps them alive)."""
    hit = _CONTRACT_CARDS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = put(_CONTRACT_CARDS, id(rules), (rules, sum(variant.meld_size(slot) for slot in rules.contract)))
    return hit[1]


def is_deadlocked(game: GameState) -> bool:
    """Whether no card off the table can ever be played (see the module docstring)."""
    variant = game.variant
    need = _contract_cards(variant, game.rules)
    for seat, down in enumerate(game.down):
        if not down and _largest_hand(game, seat) >= need:
            return False
    if not any(game.down):
        return True
    if variant.new_melds_after_laydown:
        return False
    pool = off_table_pool(game)
    if pool[JOKER] or any(pool[make_card(2, suit)] for suit in range(4) if 2 in variant.wild_ranks):
        return False
    if _any_layoff(game, pool):
        return False
    if variant.joker_swap is not JokerSwap.NONE:
        for meld in game.table:
            for card in range(52):
                if pool[card] and meld.wilds:
                    try:
                        swap_wild(meld, card, variant, in_groups=variant.joker_swap_in_groups)
                        return False
                    except MeldError:
                        pass
    if variant.rearrange_mode is RearrangeMode.NONE:
        return True
    for meld in game.table:
        if meld.is_run and any(pool[meld.position_card(i)] for i in range(len(meld.cards))):
            return False  # a duplicate could split the run
    held = [card for card in range(CARD_COUNT) if pool[card]]
    return next(SpareBuilds(game.table, variant, _exists).each(pool, held), None) is None
