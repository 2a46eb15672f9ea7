"""Elo-style ratings of ``rummy eval``: a Bradley–Terry model fitted to pairwise outcomes (standard library only).

Each game contributes one comparison per pair of seats held by different players: 1 when the first
finished ahead of the second, 0 when behind, ½ when level.  The model says player ``i`` finishes ahead of
player ``j`` with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))`` (so 200 points apart is a 76 %
expectation, as in Elo).  The ratings maximise the likelihood of every comparison, with one player (the
anchor, ``random`` in the ladder) held at 0, and **one virtual drawn comparison** added to every pair of
players that met, which keeps a rating finite when one side won every comparison (a small sample against
``random``) and pulls it toward the field a little.  Players not linked to the anchor by comparisons get no
rating.

The comparisons of one deal are not independent (a lucky deal is lucky against every seat), so the 95 %
intervals come from the cluster-robust ("sandwich") covariance with the deal as the cluster:
``V = I⁻¹ (G/(G−1) Σ_deals s sᵀ) I⁻¹`` where ``I`` is the observed information, ``s`` a deal's score
vector and ``G`` the number of deals.  With few deals these intervals are rough (they assume many).

>>> outcomes = [Comparison("a", "random", 0.75, 40, 0), Comparison("b", "random", 0.5, 40, 1)]
>>> fit = fit_ratings(outcomes, anchor="random")
>>> fit["random"].rating, round(fit["b"].rating, 1), fit["a"].rating > 150
(0.0, 0.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

#: Elo points per unit of the logistic scale (400 / ln 10): ratings 400 apart give odds of 10 to 1.
ELO = 400 / math.log(10)
Z95 = 1.959963984540054
#: Virtual drawn comparisons added to every pair of players that met (see the module's docstring).
VIRTUAL_DRAWS = 1.0


@dataclass(frozen=True)
class Comparison:
    """``count`` comparisons of ``first`` with ``second`` in which ``first`` scored ``score`` on average
    (1 ahead, ½ level, 0 behind), all from one cluster (a deal; ``None``: each comparison independent)."""

    first: str
    second: str
    score: float
    count: int
    cluster: Hashable | None = None


@dataclass(frozen=True)
class Rating:
    """A fitted rating in Elo points, its 95 % interval and the real comparisons it rests on."""

    rating: float
    low: float
    high: float
    comparisons: int


def fit_ratings(comparisons: Iterable[Comparison], anchor: str, iterations: int = 100) -> dict[str, Rating]:
    """The Bradley–Terry ratings of every player linked to ``anchor`` (which gets 0).

    >>> fit_ratings([Comparison("x", "y", 1.0, 3)], anchor="y")["x"].rating > 0
    True
    """
    comparisons = [c for c in comparisons if c.count > 0 and c.first != c.second]
    linked = _linked(comparisons, anchor)
    comparisons = [c for c in comparisons if c.first in linked]
    played: dict[str, int] = {}
    for c in comparisons:
        played[c.first] = played.get(c.first, 0) + c.count
        played[c.second] = played.get(c.second, 0) + c.count
    if not comparisons:
        return {anchor: Rating(0.0, 0.0, 0.0, 0)} if anchor in linked else {}
    free = sorted(linked - {anchor})
    index = {name: i for i, name in enumerate(free)}
    # Pair totals: (i, j) with i < j by name -> [score of i, count], virtual draws included.
    pairs: dict[tuple[str, str], list[float]] = {}
    for c in comparisons:
        key, score = ((c.first, c.second), c.score) if c.first < c.second else ((c.second, c.first), 1 - c.score)
        total = pairs.setdefault(key, [VIRTUAL_DRAWS / 2, VIRTUAL_DRAWS])
        total[0] += score * c.count
        total[1] += c.count
    theta = dict.fromkeys(linked, 0.0)
    for _ in range(iterations):
        gradient, information = _gradient_and_information(pairs, theta, index)
        step = _solve(information, gradient)
        for name, i in index.items():
            theta[name] += max(-5.0, min(5.0, step[i]))
        if max((abs(x) for x in step), default=0.0) < 1e-10:
            break
    _, information = _gradient_and_information(pairs, theta, index)
    covariance = _sandwich(comparisons, theta, index, information)
    ratings = {anchor: Rating(0.0, 0.0, 0.0, played.get(anchor, 0))}
    for name, i in index.items():
        half = Z95 * math.sqrt(max(0.0, covariance[i][i])) * ELO
        value = theta[name] * ELO
        ratings[name] = Rating(value, value - half, value + half, played.get(name, 0))
    return ratings


def expected_score(difference: float) -> float:
    """The expected comparison score of a player rated ``difference`` Elo points above the other.

    >>> round(expected_score(200), 3)
    0.76
    """
    return 1 / (1 + 10 ** (-difference / 400))


def _linked(comparisons: Sequence[Comparison], anchor: str) -> set[str]:
    neighbours: dict[str, set[str]] = {}
    for c in comparisons:
        neighbours.setdefault(c.first, set()).add(c.second)
        neighbours.setdefault(c.second, set()).add(c.first)
    if anchor not in neighbours:
        return set()
    seen, todo = {anchor}, [anchor]
    while todo:
        for other in neighbours[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _gradient_and_information(
    pairs: dict[tuple[str, str], list[float]], theta: dict[str, float], index: dict[str, int]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and observed information over the free players."""
    size = len(index)
    gradient = [0.0] * size
    information = [[0.0] * size for _ in range(size)]
    for (a, b), (score, count) in pairs.items():
        p = _logistic(theta[a] - theta[b])
        residual = score - count * p
        weight = count * p * (1 - p)
        i, j = index.get(a), index.get(b)
        if i is not None:
            gradient[i] += residual
            information[i][i] += weight
        if j is not None:
            gradient[j] -= residual
            information[j][j] += weight
        if i is not None and j is not None:
            information[i][j] -= weight
            information[j][i] -= weight
    return gradient, information


def _sandwich(
    comparisons: Sequence[Comparison], theta: dict[str, float], index: dict[str, int], information: list[list[float]]
) -> list[list[float]]:
    """``I⁻¹ B I⁻¹``, ``B`` summing the outer products of each cluster's score vector (comparisons without
    a cluster count as independent: their expected outer product, ``count · p(1 − p)``)."""
    size = len(index)
    middle = [[0.0] * size for _ in range(size)]
    clusters: dict[Hashable, list[float]] = {}
    for c in comparisons:
        p = _logistic(theta[c.first] - theta[c.second])
        i, j = index.get(c.first), index.get(c.second)
        if c.cluster is None:
            weight = c.count * p * (1 - p)
            for x, sx in ((i, 1), (j, -1)):
                for y, sy in ((i, 1), (j, -1)):
                    if x is not None and y is not None:
                        middle[x][y] += sx * sy * weight
            continue
        vector = clusters.setdefault(c.cluster, [0.0] * size)
        residual = c.count * (c.score - p)
        if i is not None:
            vector[i] += residual
        if j is not None:
            vector[j] -= residual
    # with few deals the sum understates the spread: the usual small-sample factor G / (G − 1)
    correction = len(clusters) / (len(clusters) - 1) if len(clusters) > 1 else 1.0
    for vector in clusters.values():
        for x in range(size):
            if vector[x]:
                for y in range(size):
                    middle[x][y] += correction * vector[x] * vector[y]
    inverse = [_solve(information, [1.0 if k == column else 0.0 for k in range(size)]) for column in range(size)]
    # inverse[c] is column c of I⁻¹ (symmetric, so also row c)
    left = [[sum(inverse[x][k] * middle[k][y] for k in range(size)) for y in range(size)] for x in range(size)]
    return [[sum(left[x][k] * inverse[k][y] for k in range(size)) for y in range(size)] for x in range(size)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting (a tiny ridge keeps it regular)."""
    size = len(vector)
    rows = [[*matrix[r], vector[r]] for r in range(size)]
    for r in range(size):
        rows[r][r] += 1e-12
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        for r in range(column + 1, size):
            factor = rows[r][column] / head
            if factor:
                for k in range(column, size + 1):
                    rows[r][k] -= factor * rows[column][k]
    result = [0.0] * size
    for r in reversed(range(size)):
        result[r] = (rows[r][size] - sum(rows[r][k] * result[k] for k in range(r + 1, size))) / rows[r][r]
    return result
