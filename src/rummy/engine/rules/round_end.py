"""The end of a round: its scores, the totals, and whether the game is over (rules.md §2.11, §6, §7)."""

from __future__ import annotations

from rummy.engine.state import GameState, Phase, RoundEnd
from rummy.scoring import RoundResult


def hand_points(state: GameState, seat: int) -> int:
    """Value of the cards in ``seat``'s hand."""
    points = state.variant.points
    return sum(points(card) * count for card, count in enumerate(state.hands[seat]) if count)


def end_round(state: GameState, end: RoundEnd, went_out: int | None) -> None:
    """Score the round that just ended and move to ``ROUND_OVER`` or ``GAME_OVER``."""
    variant = state.variant
    n = state.n
    state.window = None
    scores = [0] * n
    if variant.scoring == "penalty":
        if end is RoundEnd.OUT or (end is RoundEnd.EXHAUSTED and variant.exhaustion_scoring == "penalty"):
            for seat in range(n):
                if seat != went_out:
                    scores[seat] = hand_points(state, seat)
    elif variant.scoring == "winner_collects" and end is RoundEnd.OUT and went_out is not None:
        collected = sum(hand_points(state, s) for s in range(n) if s != went_out)
        if not state.played_before_turn:
            collected *= variant.rummy_multiplier
        scores[went_out] = collected
    elif variant.scoring == "book" and end is RoundEnd.BOOK and went_out is not None:
        state.match_wins[went_out] += 1
    for seat in range(n):
        state.totals[seat] += scores[seat]
    state.results.append(RoundResult(state.round_number, went_out, tuple(scores), end.value,
                                     tuple(state.claims_used)))
    state.phase = Phase.GAME_OVER if _game_finished(state, end) else Phase.ROUND_OVER


def _game_finished(state: GameState, end: RoundEnd) -> bool:
    variant = state.variant
    if variant.scoring == "penalty":
        return state.round_number == variant.round_count
    if variant.scoring == "winner_collects":
        target = variant.target(state.n)
        return target is not None and max(state.totals) >= target
    if variant.max_turns is not None and state.turns_played >= variant.max_turns and end is RoundEnd.STALEMATE:
        return True
    return max(state.match_wins) >= variant.match_target
