"""Round scores, final ranking and the ``progressive-15`` penny settlement.

>>> from rummy.variants import get_variant
>>> rows = settle(get_variant("progressive-15"), [40, 10, 10, 90], kitty=6, paid=[2, 1, 3, 0])
>>> [(r.seat, r.position, str(r.payment), str(r.kitty), str(r.net)) for r in rows]
[(0, '3', '-4', '0', '-6'), (1, '1', '5', '3', '7'), (2, '1', '5', '3', '5'), (3, '4', '-6', '0', '-6')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rummy.variants import Variant


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round ended and what each seat was credited."""

    round: int
    went_out: int | None
    scores: tuple[int, ...]
    end: str  # "out", "exhausted", "stalemate" or "book"
    claims: tuple[int, ...] = ()  # successful claims (buys, May-I's) of each seat in the round


@dataclass(frozen=True, slots=True)
class Settlement:
    """One seat's money at the end of a ``progressive-15`` game (exact fractions)."""

    seat: int
    position: str
    payment: Fraction
    kitty: Fraction
    net: Fraction


def higher_is_better(variant: Variant) -> bool:
    """True where the biggest total wins (``basic``, match wins in ``purchase``)."""
    return variant.scoring != "penalty"


def ranking(variant: Variant, totals: Sequence[int], rounds: Sequence[RoundResult]) -> list[int]:
    """Seats from best to worst; equal totals keep seat order (or the ``tie_break`` rule)."""
    sign = -1 if higher_is_better(variant) else 1

    def key(seat: int) -> tuple[int, ...]:
        primary = sign * totals[seat]
        if variant.tie_break == "last_round":
            history = tuple(sign * r.scores[seat] for r in reversed(rounds))
            return (primary, *history, seat)
        return (primary, seat)

    return sorted(range(len(totals)), key=key)


def positions(variant: Variant, totals: Sequence[int], rounds: Sequence[RoundResult]) -> list[int]:
    """Competition rank (1, 2, 2, 4) of every seat."""
    order = ranking(variant, totals, rounds)
    sign = -1 if higher_is_better(variant) else 1

    def key(seat: int) -> tuple[int, ...]:
        if variant.tie_break == "last_round":
            return (sign * totals[seat], *(sign * r.scores[seat] for r in reversed(rounds)))
        return (sign * totals[seat],)

    result = [0] * len(totals)
    for index, seat in enumerate(order):
        if index and key(order[index - 1]) == key(seat):
            result[seat] = result[order[index - 1]]
        else:
            result[seat] = index + 1
    return result


def winners(variant: Variant, totals: Sequence[int], rounds: Sequence[RoundResult]) -> list[int]:
    """Every seat in first position (co-winners share)."""
    place = positions(variant, totals, rounds)
    return [seat for seat in range(len(totals)) if place[seat] == 1]


def settle(
    variant: Variant,
    totals: Sequence[int],
    *,
    kitty: int,
    paid: Sequence[int],
    rounds: Sequence[RoundResult] = (),
) -> list[Settlement]:
    """Position payments and kitty shares, averaged over tied positions (rules.md §4.12)."""
    n = len(totals)
    payments = variant.settlement_payments(n)
    if payments is None:
        return []
    shares = [Fraction(0)] * n
    if variant.kitty_split == "two_thirds_one_third" and n >= 2:
        shares[0] = Fraction(2 * kitty, 3)
        shares[1] = Fraction(kitty, 3)
    else:
        shares[0] = Fraction(kitty)
    place = positions(variant, totals, rounds)
    rows = []
    for seat in range(n):
        first = place[seat]
        tied = sum(1 for p in place if p == first)
        span = range(first - 1, first - 1 + tied)
        payment = Fraction(sum(payments[i] for i in span), tied)
        share = sum((shares[i] for i in span), Fraction(0)) / tied
        rows.append(Settlement(seat, str(first), payment, share, payment + share - paid[seat]))
    return rows
