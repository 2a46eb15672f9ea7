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
  may raise run_min past what a hand can hold).  :func:`locked_out` decides it.
  When no one is down and everyone is locked out, nobody can ever go out and the round is exhausted.
"""

from __future__ import annotations

from collections.abc import Iterator

from rummy.engine.cards import JOKER, Card, make_card, rank_of
from rummy.engine.errors import MeldError
from rummy.engine.melds import TableMeld, lay_off, layoff_ends, swap_wild
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
    held = [card for card in range(len(pool)) if pool[card] > 0]
    for meld in game.table:
        for card in held:
            if not layoff_ends(meld, card, game.variant):
                continue  # lay_off would refuse it at every end
            try:
                lay_off(meld, card, None, game.variant)
                return True
            except MeldError as error:
                if error.rule == "layoff-end-required":
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
    pool = off_table_pool(game)
    if _any_layoff(game, pool):
        return False
    by_rank = [0] * 14
    for card in range(52):
        by_rank[rank_of(card)] += pool[card]
    if max(by_rank) >= variant.group_min:
        return False
    ace_high = variant.ace_mode.ace_high
    return not any(_pool_has_run(pool, suit, variant.run_min, ace_high) for suit in range(4))


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
_SPARES: dict[tuple[int, int], tuple[TableMeld, Variant, tuple[Spare, ...]]] = {}
# id of a variant -> (the variant, whether each card is wild there).
_WILD: dict[int, tuple[Variant, tuple[bool, ...]]] = {}


def _spares_of(meld: TableMeld, variant: Variant) -> tuple[Spare, ...]:
    """The spares of ``meld`` (with wilds), made once per meld object: every table holding it shares them."""
    key = (id(meld), id(variant))
    hit = _SPARES.get(key)
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    spares = tuple((meld, card, rest) for card, rest in spare_cards(meld, variant, wilds=True))
    if len(_SPARES) > 100_000:
        _SPARES.clear()
    _SPARES[key] = (meld, variant, spares)
    return spares


def wild_cards(variant: Variant) -> tuple[Card, ...]:
    """The wild card kinds of ``variant``, ascending (memoised per variant)."""
    hit = _WILD_CARDS.get(id(variant))
    if hit is None or hit[0] is not variant:
        if len(_WILD_CARDS) > 256:
            _WILD_CARDS.clear()
        flags = wild_flags(variant)
        hit = _WILD_CARDS[id(variant)] = (variant, tuple(card for card in range(JOKER + 1) if flags[card]))
    return hit[1]


# id of a variant -> (the variant, its wild card kinds).
_WILD_CARDS: dict[int, tuple[Variant, tuple[Card, ...]]] = {}


def wild_flags(variant: Variant) -> tuple[bool, ...]:
    """Whether each card (by index, the joker last) is wild under ``variant`` (memoised per variant)."""
    hit = _WILD.get(id(variant))
    if hit is None or hit[0] is not variant:
        if len(_WILD) > 256:
            _WILD.clear()
        hit = _WILD[id(variant)] = (variant, tuple(variant.is_wild(card) for card in range(JOKER + 1)))
    return hit[1]


# (ids of the table's melds, id of the variant) -> (the melds, the variant, the table's spares by kind).
_TABLE_SPARES: dict[tuple[tuple[int, ...], int], tuple[tuple[TableMeld, ...], Variant, TableSpares]] = {}


def table_spares(table: list[TableMeld], variant: Variant) -> TableSpares:
    """Every spare of ``table`` (table order), the wild ones, and the spares by card and (naturals) by rank.

    Memoised on the identity of the melds: the entry keeps them alive, so their ids cannot be reused.
    """
    key = (tuple(map(id, table)), id(variant))
    hit = _TABLE_SPARES.get(key)
    if hit is not None and hit[1] is variant:
        return hit[2]
    wild = wild_flags(variant)
    spares = [spare for m in table for spare in _spares_of(m, variant)]
    wild_spares = [s for s in spares if wild[s[1]]]
    by_card: dict[Card, list[Spare]] = {}
    by_rank: dict[int, list[Spare]] = {}
    for spare in spares:
        by_card.setdefault(spare[1], []).append(spare)
        if not wild[spare[1]]:
            by_rank.setdefault(rank_of(spare[1]), []).append(spare)
    if len(_TABLE_SPARES) > 4096:
        _TABLE_SPARES.clear()
    found = (spares, wild_spares, by_card, by_rank)
    _TABLE_SPARES[key] = (tuple(table), variant, found)
    return found


def _free(spares: list[Spare], used: list[Spare]) -> Spare | None:
    """The first of ``spares`` from a meld no spare in ``used`` comes from."""
    for spare in spares:
        meld_id = spare[0].id
        if all(meld_id != u[0].id for u in used):
            return spare
    return None


def spare_builds(
    table: list[TableMeld], variant: Variant, supply: list[int]
) -> Iterator[tuple[list[Spare], tuple[Card, ...], str]]:
    """New melds made of ``supply`` cards (at least one) and spare table cards (at least one).

    Yields ``(spares used, cards of the new meld, kind)``; each spare comes from a different meld.
    This is the rearrangement that lets a hand play cards no lay-off can place.
    """
    spares, wild_spares, by_card, by_rank = table_spares(table, variant)
    if not spares:
        return
    wild = wild_flags(variant)
    group_min = variant.group_min
    not_outnumber = variant.wild_policy is WildPolicy.NOT_OUTNUMBER
    own_by_rank: dict[int, list[Card]] = {}
    for card in range(52):  # by rank, then suit: the order the cards of a set are listed in
        count = supply[_BY_RANK_ORDER[card]]
        if count and not wild[_BY_RANK_ORDER[card]]:
            own_by_rank.setdefault(rank_of(_BY_RANK_ORDER[card]), []).extend([_BY_RANK_ORDER[card]] * count)
    for rank, own in own_by_rank.items():
        used: list[Spare] = []
        for spare in by_rank.get(rank, []) + wild_spares:
            if len(own) + len(used) >= group_min and used:
                break
            if all(spare[0].id != u[0].id for u in used):
                used.append(spare)
        if not used or len(own) + len(used) < group_min:
            continue
        wild_count = sum(1 for u in used if wild[u[1]])
        if not_outnumber and wild_count > len(own) + len(used) - wild_count:
            continue
        yield used, tuple(own) + tuple(u[1] for u in used), "set"
    low_bound, high_bound = variant.ace_mode.run_bounds
    run_min = variant.run_min
    any_wild_spare = bool(wild_spares)
    for suit in range(4):
        row = _ROWS[suit]
        # A window of run_min values is tried when it holds a natural of the hand and every value is held
        # (naturally), a spare of that card, or could take a wild spare.
        own_here = [supply[card] > 0 and not wild[card] for card in row]
        if not any(own_here):
            continue
        coverable = [any_wild_spare or own_here[v] or row[v] in by_card for v in range(15)]
        for low in range(low_bound, high_bound - run_min + 2):
            window = range(low, low + run_min)
            if not (True in own_here[low:low + run_min] and False not in coverable[low:low + run_min]):
                continue
            cards: list[Card] = []
            used = []
            for value in window:
                card = row[value]
                if own_here[value]:
                    cards.append(card)
                    continue
                pick = _free(by_card.get(card, []), used)
                if pick is None:
                    pick = _free(wild_spares, used)
                if pick is None:
                    break
                used.append(pick)
                cards.append(pick[1])
            else:
                wild_count = sum(1 for c in cards if wild[c])
                if used and not (not_outnumber and wild_count > len(cards) - wild_count):
                    yield used, tuple(cards), "run"


# Cards by rank, then suit; and per suit the card at each run value 0…14 (value 14 is the ace again).
_BY_RANK_ORDER = tuple(make_card(rank, suit) for rank in range(1, 14) for suit in range(4))
_ROWS = tuple(tuple(make_card(1 if value == 14 else max(value, 1), suit) for value in range(15)) for suit in range(4))


def locked_out(game: GameState, seat: int) -> bool:
    """Whether ``seat``, not down, can never hold enough cards to lay down the round's contract.

    A hand grows only by claims (the draw is matched by the discard), so its largest possible size
    in a play phase is its size now, plus one draw, plus every claim it may still make with its cards.
    """
    rules = game.rules
    if not rules.claims_open:
        claims_left = 0
    elif rules.claim_limit is None:
        return False
    elif game.variant.claim_limit_scope is _TABLE_SCOPE:
        claims_left = max(0, rules.claim_limit - sum(game.claims_used))
    else:
        claims_left = max(0, rules.claim_limit - game.claims_used[seat])
    largest = game.sizes[seat] + 1 + claims_left * (1 + rules.penalty_cards)
    return largest < _contract_cards(game.variant, rules)


_TABLE_SCOPE = ClaimLimitScope.TABLE  # read on every discard: a module global is cheaper than the Enum member
# id of a round's rules -> (the rules, the fewest cards its contract takes under the variant).
_CONTRACT_CARDS: dict[int, tuple[RoundRules, int]] = {}


def _contract_cards(variant: Variant, rules: RoundRules) -> int:
    """The fewest cards a lay-down of the round's contract takes (memoised on the rules, which belong to one
    variant; the entry keeps them alive)."""
    hit = _CONTRACT_CARDS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_CONTRACT_CARDS) > 1024:
            _CONTRACT_CARDS.clear()
        hit = _CONTRACT_CARDS[id(rules)] = (rules, sum(variant.meld_size(slot) for slot in rules.contract))
    return hit[1]


def is_deadlocked(game: GameState) -> bool:
    """Whether no card off the table can ever be played (see the module docstring)."""
    variant = game.variant
    for seat, down in enumerate(game.down):
        if not down and not locked_out(game, seat):
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
    return next(spare_builds(game.table, variant, pool), None) is None
