"""The end of a round: its scores by the variant's scoring rule (:func:`rummy.engine.scoring.scoring_rule`), the
totals, and whether the game is over (rules.md §2.11, §6, §7)."""

from __future__ import annotations

from rummy.engine.modes import RoundEnd
from rummy.engine.scoring import RoundEnding, RoundResult, scoring_rule
from rummy.engine.state import GameState, Phase


def end_round(state: GameState, end: RoundEnd, went_out: int | None) -> None:
    """Score the round that just ended and move to ``ROUND_OVER`` or ``GAME_OVER``."""
    state.window = None
    rule = scoring_rule(state.variant)
    ending = RoundEnding(end, went_out, state.hands, went_rummy=not state.played_before_turn)
    score = rule.score_round(ending)
    if score.round_winner is not None:
        state.match_wins[score.round_winner] += 1
    for seat in range(state.n):
        state.totals[seat] += score.scores[seat]
    state.results.append(RoundResult(state.round_number, went_out, score.scores, end, tuple(state.claims_used)))
    state.phase = Phase.GAME_OVER if rule.game_over(state, end) else Phase.ROUND_OVER
