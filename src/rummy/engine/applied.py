"""The frozen record :meth:`rummy.engine.game.Game.apply` returns: what one action did."""

from __future__ import annotations

from dataclasses import dataclass

from rummy.engine.actions import Action
from rummy.engine.cards import Card
from rummy.engine.scoring import RoundResult
from rummy.engine.state import Phase


@dataclass(frozen=True, slots=True)
class Applied:
    """One applied action and its consequences.

    ``received`` lists the cards that entered a hand from the stock or the discard pile, in order (a draw,
    a take, a claimed card and its penalty cards, the active player's card after a declined discard);
    ``claimed_by`` is the seat that won a claim window closed by this action; ``round_result`` is set when
    the action ended the round.
    """

    action: Action
    phase_before: Phase
    phase: Phase
    received: tuple[tuple[int, Card], ...]
    claimed_by: int | None
    round_result: RoundResult | None

    @property
    def round_ended(self) -> bool:
        return self.round_result is not None

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER
