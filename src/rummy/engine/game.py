"""The game façade: a :class:`Game` is the state (:class:`~rummy.engine.state.GameState`) with the public
methods on top: deal, check, apply, legal actions, views, copies.

:meth:`Game.check` judges an action and raises :class:`IllegalActionError` without changing anything;
:meth:`Game.apply` checks the same way, then applies the action, appends it to :attr:`Game.log` and returns
an :class:`~rummy.engine.applied.Applied` record.  :meth:`Game.legal_actions` lists the candidate moves
(:mod:`rummy.engine.moves`); :meth:`Game.view` gives one seat's view.  No engine module imports this one.

>>> game = new_game("basic", ["Ann", "Bob"], seed=1)
>>> game.phase, game.to_act == [game.active]
(<Phase.DRAW: 'draw'>, True)
>>> game.is_legal(parse_action(f"p{game.active} discard 2C", 2))
False
>>> applied = game.apply_text(f"p{game.active} draw")
>>> game.phase, applied.received[0][0] == game.active
(<Phase.PLAY: 'play'>, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import rummy.engine.backends as backends
import rummy.engine.rules as rules
from rummy.engine.actions import Action, parse_action
from rummy.engine.applied import Applied
from rummy.engine.candidates import CandidateMoves
from rummy.engine.cards import Card, from_counts, pack
from rummy.engine.errors import DealError, IllegalActionError, UsageError
from rummy.engine.fair_shuffle import ShuffleSecret
from rummy.engine.house_rules import get_variant
from rummy.engine.modes import FirstDealer
from rummy.engine.moves import legal_actions, next_seat_to_act, seats_to_act
from rummy.engine.rules.deal import deal
from rummy.engine.rules.turns import washout_reached
from rummy.engine.scoring import hand_points, scoring_rule
from rummy.engine.state import ClaimWindow, GameState, Phase, round_state_fields
from rummy.engine.variants import Variant
from rummy.engine.view import PlayerView, player_view

__all__ = ["ClaimWindow", "Game", "Phase", "new_game"]


_GAME_OVER = Phase.GAME_OVER  # read on every decision: a module global is cheaper than the Enum member
#: The slots of :class:`Applied`'s fields, for :func:`~rummy.engine.backends.frozen_record`.
_APPLIED_FIELDS = backends.record_slots(Applied)


class Game(GameState):
    """One game of any variant; see the module docstring."""

    __slots__ = ()

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str] | int,
        *,
        seed: int = 0,
        start_round: int = 1,
        totals: Sequence[int] | None = None,
        kitty: int = 0,
    ) -> None:
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        n = len(names)
        if not variant.players_min <= n <= variant.players_max:
            raise DealError(f"{variant.id} is for {variant.players_min}–{variant.players_max} players, not {n}")
        problem = variant.deal_problem(n)
        if problem is not None:
            raise DealError(f"{variant.id}: {problem}")
        if variant.round_count is not None and not 1 <= start_round <= variant.round_count:
            raise DealError(f"{variant.id} has rounds 1–{variant.round_count}, not {start_round}")
        if totals is not None and len(totals) != n:
            raise DealError(f"start totals need {n} entries, not {len(totals)}")
        start_totals = list(totals) if totals is not None else [0] * n
        super().__init__(
            variant=variant, players=names, seed=seed, rng_source=random.Random(seed),
            pack=pack(variant.decks_for(n), variant.jokers_per_deck), start_round=start_round,
            start_totals=start_totals, start_kitty=kitty, round_number=start_round - 1, totals=list(start_totals),
            kitty=kitty, pennies_paid=[0] * n, match_wins=[0] * n, results=[], log=[], deals=[], round_starts=[],
            phase=Phase.ROUND_OVER, dealer=-1, active=-1, turns_played=0,
            **round_state_fields(variant, n, start_round - 1),
        )

    # -- dealing --------------------------------------------------------------------------

    def deal(
        self,
        *,
        dealer: int | None = None,
        hands: Sequence[Sequence[Card]] | None = None,
        upcard: Card | None = None,
        stock: Sequence[Card] | None = None,
        purchase_cards: Sequence[Card] | None = None,
        shuffle: ShuffleSecret | None = None,
    ) -> None:
        """Deal the next round: shuffled with the game's RNG, or from ``shuffle``'s seed (a provably fair
        deal, docs/fair-shuffle.md), or the cards the caller supplies.

        ``stock`` runs from the top down and may list only its top part; the rest of the pack
        follows in canonical order.
        """
        deal(self, dealer=dealer, hands=hands, upcard=upcard, stock=stock, purchase_cards=purchase_cards,
             shuffle=shuffle)

    def choose_first_dealer(self) -> int:
        """The first dealer by the variant's rule (random, high-card draw or seat 0)."""
        if self.variant.first_dealer is FirstDealer.FIRST_SEAT:
            return 0
        return self.rng.randrange(self.n)

    # -- public queries -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        """Seats the engine is waiting for."""
        return seats_to_act(self)

    def next_to_act(self) -> int:
        """The waiting seat to ask first: in a claim window the nearest to the active player's left
        (the tie-break for simultaneous calls, rules.md §2.8)."""
        seat = next_seat_to_act(self)
        if seat is None:
            raise UsageError(f"nobody is to act in phase {self.phase.value}")
        return seat

    @property
    def game_over(self) -> bool:
        return self.phase is _GAME_OVER

    @property
    def washed_out(self) -> bool:
        """Whether the round ended, or is ending, by the washout (rules.md §2.9)."""
        return washout_reached(self)

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand in canonical order."""
        return from_counts(self.hands[seat])

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def hand_points(self, seat: int) -> int:
        """Value of the cards in ``seat``'s hand."""
        return hand_points(self.variant, self.hands[seat])

    def winners(self) -> list[int]:
        """Winning seats once the game is over (co-winners share); empty before."""
        if not self.game_over:
            return []
        return scoring_rule(self.variant).winners(self)

    def ranking(self) -> list[int]:
        """Seats from best to worst by the variant's scoring rule."""
        return scoring_rule(self.variant).ranking(self)

    def settlement(self) -> list[Any]:
        if not self.game_over:
            return []
        return scoring_rule(self.variant).settle(self, kitty=self.kitty, paid=self.pennies_paid)

    # -- checking and applying actions ----------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is illegal now, exactly as :meth:`apply` would;
        the game is never changed."""
        rules.check(self, action)

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        return rules.is_legal(self, action)

    def apply(self, action: Action) -> Applied:
        """Check and apply ``action``; on an :class:`IllegalActionError` nothing changed."""
        native = backends.NATIVE
        if native is not None:  # a simple action or purchase step applied and recorded as below (game_apply.c)
            applied: Applied | None = native.game_apply(self, action, rules.APPLY_KIT, Applied, _APPLIED_FIELDS)
            if applied is not None:
                return applied
        phase_before, claims_before, results = self.phase, list(self.claims_used), len(self.results)
        journal, self.received = self.received, []
        try:
            rules.apply(self, action)
        except IllegalActionError:
            self.received = journal
            raise
        claimed_by = None
        used = self.claims_used
        if used != claims_before:  # the first seat whose count grew (a loop: cheaper than a generator's next)
            claimed_by = 0
            while used[claimed_by] == claims_before[claimed_by]:
                claimed_by += 1
        result = self.results[-1] if len(self.results) > results else None
        return backends.frozen_record(Applied, _APPLIED_FIELDS, action, phase_before, self.phase,
                                      tuple(self.received), claimed_by, result)

    def apply_text(self, text: str) -> Applied:
        """Parse and apply one action in record notation."""
        return self.apply(parse_action(text, self.n))

    # -- copies ---------------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of this game (cheap: lists of counts and immutable melds)."""
        other = super().copy()
        assert isinstance(other, Game)
        return other

    clone = copy

    def snapshot(self) -> GameState:
        """The state now, for :meth:`restore` (the one undo mechanism: a copy of the state)."""
        return GameState.copy(self)

    def restore(self, snapshot: GameState) -> None:
        """Return to ``snapshot`` (it stays usable: restoring twice is fine)."""
        source = snapshot.copy()
        for name in GameState.__dataclass_fields__:
            setattr(self, name, getattr(source, name))

    # -- enumeration and views --------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> CandidateMoves:
        """The candidate moves of ``seat`` (default: every seat in :attr:`to_act`).

        Every listed action is legal, and every legal draw, take, claim answer, discard, lay-off, swap,
        relocation, purchase, trade and exchange is listed.  Composite moves (lay-downs, new melds,
        rearrangements, going out in one batch) are listed as the solver finds them rather than every
        variation; :meth:`check` judges any other.  The result is a read-only sequence
        (:class:`~rummy.engine.candidates.CandidateMoves`) whose costly entries are worked out when read.
        """
        return legal_actions(self, seat)

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator's public view)."""
        return player_view(self, seat)


def new_game(
    variant: str | Variant,
    players: Sequence[str] | int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """A game with its first round dealt from a shuffle seeded by ``seed``."""
    rules_ = get_variant(variant, options) if isinstance(variant, str) else variant
    game = Game(rules_, players, seed=seed)
    game.deal(dealer=game.choose_first_dealer() if dealer is None else dealer)
    return game
