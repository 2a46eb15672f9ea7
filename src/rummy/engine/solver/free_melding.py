"""Free melding (``basic``): :func:`best_melds_from` picks the disjoint melds of naturals that leave the
fewest points in hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from rummy.engine.solver.planned import PlannedMeld
from rummy.engine.solver.tables import INF, check_hand_length, rules_for
from rummy.engine.variants import Variant

__all__ = ["best_melds_from"]


def best_melds_from(hand: Sequence[int], variant: Variant, *, max_melds: int | None = None
                    ) -> tuple[PlannedMeld, ...]:
    """Disjoint valid melds from ``hand`` leaving the fewest points (then cards) in hand.

    For free melding (``basic``): sets of ``group_min`` or more naturals of one rank, runs of
    ``run_min`` or more consecutive naturals of one suit under the variant's ace mode.  Wild cards are
    never melded here (``basic`` has none).  At most ``max_melds`` melds when given.  Exact; meant for
    hands of up to a dozen cards.  Melds are listed in card order of their lowest card.

    >>> from rummy.engine.cards import parse_card, to_counts
    >>> from rummy.engine.house_rules import get_variant
    >>> hand = to_counts(map(parse_card, "AH 2H 3H 4H 7C 7D 7S KS".split()))
    >>> [str(m) for m in best_melds_from(hand, get_variant("basic"))]
    ['set:7C-7D-7S', 'run:AH-2H-3H-4H']
    """
    check_hand_length(hand)
    rules = rules_for(variant)
    points = rules.points
    counts = [hand[c] if not rules.wild[c] else 0 for c in range(52)]
    limit = INF if max_melds is None else max_melds
    memo: dict[tuple[tuple[int, ...], int], tuple[int, int, tuple[tuple[str, tuple[int, ...]], ...]]] = {}

    def runs_with(first: int) -> Iterator[tuple[int, ...]]:
        """Runs of naturals in ``counts`` whose lowest-indexed card is ``first``."""
        s, r = divmod(first, 13)
        row = rules.card_at[s]
        starts = []
        if r + 1 >= rules.lo and r + 1 <= rules.hi:
            starts.append(r + 1)  # the card is the low end
        if r == 0 and rules.hi == 14:
            starts.append(-1)  # an ace ending a run at value 14
        for start in starts:
            if start > 0:
                b = start
                while b + 1 <= rules.hi and b + 2 - start <= 13 and counts[row[b + 1]]:
                    b += 1
                    if b - start + 1 >= rules.run_min:
                        yield tuple(row[v] for v in range(start, b + 1))
            else:
                a = 14
                while a - 1 >= max(rules.lo, 2) and counts[row[a - 1]]:
                    a -= 1
                    if 14 - a + 1 >= rules.run_min:
                        yield tuple(row[v] for v in range(a, 15))

    def solve(left: int) -> tuple[int, int, tuple[tuple[str, tuple[int, ...]], ...]]:
        key = (tuple(counts), left)
        if key in memo:
            return memo[key]
        first = next((c for c in range(52) if counts[c]), -1)
        if first < 0:
            return 0, 0, ()
        counts[first] -= 1
        lp, lc, lm = solve(left)
        best = (lp + points[first], lc + 1, lm)
        counts[first] += 1
        if left > 0:
            options: list[tuple[str, tuple[int, ...]]] = []
            rank = first % 13
            others = [s * 13 + rank for s in range(4) for _ in range(counts[s * 13 + rank])]
            others.remove(first)
            for size in range(rules.group_min - 1, len(others) + 1):
                for combo in sorted(set(combinations(others, size))):
                    options.append(("set", (first, *combo)))
            for run in runs_with(first):
                options.append(("run", run))
            for kind, cards in options:
                for c in cards:
                    counts[c] -= 1
                sp, sc, sm = solve(left - 1)
                for c in cards:
                    counts[c] += 1
                if (sp, sc) < best[:2]:
                    best = (sp, sc, ((kind, cards), *sm))
        memo[key] = best
        return best

    _, _, chosen = solve(limit if limit < 52 else 52)
    return tuple(PlannedMeld(kind, tuple(sorted(cards)) if kind == "set" else cards, None)
                 for kind, cards in chosen)
