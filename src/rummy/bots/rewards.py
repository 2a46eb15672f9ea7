"""Rewards that a search backs up at the end of a rollout: per seat, a number in [0, 1], higher better.

:func:`round_rewards` judges the round just played (or stopped early) on its own: the round's score
against the others'.  :func:`game_rewards` judges it by what the game is won on: once the game is
over, 1 for the winner (shared) and 0 for everyone else; before that, each seat's chance of winning
estimated from the totals and the rounds still to play, so that the same 30 points matter more late
in a close game than early in an open one, and a loss is a loss however small.

>>> from rummy.engine import new_game
>>> game = new_game("may-i", 4, seed=1)
>>> rewards = game_rewards(game, len(game.results))
>>> round(sum(rewards), 9), all(0.0 <= r <= 1.0 for r in rewards)
(1.0, True)
"""

from __future__ import annotations

import math

from rummy.engine import Game, Scoring, rank_of, suit_of

__all__ = ["game_rewards", "round_rewards"]

#: Standard deviation of one seat's score in one round, by penalty variant family, at tables of four
#: ``heuristic`` bots (40 games each; ``python bench/bots.py`` prints it as "round sd"): the scale of
#: what the rounds still to play can change.
ROUND_SCORE_SPREAD: dict[str, float] = {"progressive-buy-it": 40.0, "progressive-15": 49.0, "may-i": 42.0}
#: The spread for other penalty variant families.
ROUND_SCORE_SPREAD_OTHER = 45.0
#: ``basic``: the totals' scale of the estimate, in multiples of the target.  A round's winner collects
#: about the target on average (median 240 points at 4 heuristic players, target 200), so the next
#: round's winner usually ends the game whatever the totals; a lead helps only a little.
WINNER_COLLECTS_SCALE = 3.0
#: Two seats' totals differing by ``d`` with ``k`` rounds to play: the leader wins with probability
#: about Φ(d / (σ√(2k))), which the logistic function matches with a scale of σ√(2k) / 1.7 ≈ 0.83 σ√k.
LOGISTIC_FACTOR = 0.83


def _book_progress(game: Game, seat: int) -> int:
    """Most cards of ``seat``'s hand toward one book (4 of a rank, or 4 in a row of a suit, ace high)."""
    hand = game.hands[seat]
    by_rank = [0] * 14
    held = [[False] * 15 for _ in range(4)]
    for card, count in enumerate(hand[:52]):
        if count:
            rank = rank_of(card)
            by_rank[rank] += count
            held[suit_of(card)][14 if rank == 1 else rank] = True
    best = max(by_rank)
    for suit in range(4):
        for low in range(2, 12):
            best = max(best, sum(held[suit][low: low + 4]))
    return best


def round_rewards(game: Game, results_before: int) -> list[float]:
    """Every seat's reward in [0, 1] for the round just played (or stopped early, by hand points).

    * penalty variants (``progressive-buy-it``, ``progressive-15``, ``may-i``): the seat's round score
      against the others', ``0.5 + (mean of the others' scores − own score) / (2 × highest score)``;
      going out while the others hold many points approaches 1.  A round stopped early is scored as if
      every seat were charged its hand points.
    * ``basic`` (winner collects): ``0.5 + (own points collected − mean collected by the others) / (2 × s)``
      with ``s`` half the target (100 if none), clipped; a stalemate gives everyone 0.5.  A round stopped
      early compares hand points like the penalty variants, at half the weight.
    * ``purchase``: 1 for the seat that tables a book, 0 for the others; no winner gives everyone
      ``1/n``, a round stopped early ``1/n`` adjusted by 0.1 per card of book progress above the average.
    """
    n = game.n
    scoring = game.variant.scoring
    finished = len(game.results) > results_before
    result = game.results[-1] if finished else None
    if scoring is Scoring.BOOK:
        if result is not None and result.went_out is not None:
            return [1.0 if seat == result.went_out else 0.0 for seat in range(n)]
        if result is not None:
            return [1.0 / n] * n
        progress = [_book_progress(game, seat) for seat in range(n)]
        mean = sum(progress) / n
        return [min(1.0, max(0.0, 1.0 / n + 0.1 * (p - mean))) for p in progress]
    if scoring is Scoring.WINNER_COLLECTS:
        if result is not None:
            target = game.variant.target(n)
            scale = target / 2 if target else 100.0
            gains = result.scores
            return [
                min(1.0, max(0.0, 0.5 + (gains[s] - (sum(gains) - gains[s]) / (n - 1)) / (2 * scale)))
                for s in range(n)
            ]
        return _relative([game.hand_points(s) for s in range(n)], weight=0.5)
    scores = list(result.scores) if result is not None else [game.hand_points(s) for s in range(n)]
    return _relative(scores, weight=1.0)


def _relative(scores: list[int], *, weight: float) -> list[float]:
    """Lower is better: ``0.5 + weight × (mean of the others − own) / (2 × max)``."""
    n = len(scores)
    top = max(max(scores), 1)
    total = sum(scores)
    return [0.5 + weight * ((total - own) / (n - 1) - own) / (2 * top) for own in scores]


def game_rewards(game: Game, results_before: int) -> list[float]:
    """Every seat's estimated chance of winning the game after the round just played (or stopped early).

    * the game is over: ``1 / winners`` for each winner, 0 for the others;
    * ``purchase`` (book scoring): as :func:`round_rewards` (the book ends the round that decides);
    * otherwise a softmax of the totals: penalty variants charge a round stopped early its hand points
      and weigh the totals by ``exp(−total / τ)``, with ``τ`` = 0.83 × the round-score spread ×
      √(rounds still to play), so the estimate sharpens to the winner as the last round ends;
      ``basic`` weighs them by ``exp(total / (3 × target))``.

    The rewards sum to 1.
    """
    n = game.n
    variant = game.variant
    if game.game_over:
        winners = game.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]
    if variant.scoring is Scoring.BOOK:
        return round_rewards(game, results_before)
    finished = len(game.results) > results_before
    if variant.scoring is Scoring.WINNER_COLLECTS:
        scale = WINNER_COLLECTS_SCALE * (variant.target(n) or 200)
        merit = [float(total) for total in game.totals]
    else:
        projected = list(game.totals) if finished else [game.totals[s] + game.hand_points(s) for s in range(n)]
        rounds_left = len(variant.rounds) - len(game.results) - (0.0 if finished else 0.5)
        spread = ROUND_SCORE_SPREAD.get(variant.id_base, ROUND_SCORE_SPREAD_OTHER)
        scale = LOGISTIC_FACTOR * spread * math.sqrt(max(rounds_left, 0.25))
        merit = [-float(total) for total in projected]
    best = max(merit)
    weights = [math.exp((value - best) / scale) for value in merit]
    total = sum(weights)
    return [weight / total for weight in weights]
