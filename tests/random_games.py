"""Seeded random games for the tests: the one loop that deals each round, asks who acts and plays.

>>> import random
>>> from rummy.engine.game import new_game
>>> game = new_game("may-i", 4, seed=1)
>>> sum(1 for _ in random_play(game, random.Random(1))), game.game_over
(1964, True)

A test reads the state (and the legal list, ``turn.moves``) at each decision; the game moves on when
the loop asks for the next one.  ``policy`` picks the action: ``"uniform"`` (any legal action alike:
hands grow large, tables fill), ``"steered"`` (:func:`rummy.search.playout.random_choice`: lays down
when it can, buys now and then, prefers playing to the table) or any ``Turn -> Action`` (a bot).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummy.engine.actions import Action
from rummy.engine.game import Game, Phase
from rummy.search.playout import random_choice


@dataclass
class Turn:
    """One decision of a random game: the game as it stands, and the seat to act."""

    game: Game
    seat: int
    _moves: Sequence[Action] | None = field(default=None, repr=False)

    @property
    def moves(self) -> Sequence[Action]:
        """The seat's legal actions (listed once, on first use)."""
        if self._moves is None:
            self._moves = self.game.legal_actions(self.seat)
        return self._moves


Policy = str | Callable[[Turn], Action]


def random_play(game: Game, rng: random.Random, *, policy: Policy = "uniform", decisions: int | None = None,
                rounds: int | None = None, deal: Callable[[Game], Any] = Game.deal,
                **steering: float) -> Iterator[Turn]:
    """Each decision of ``game`` to its end, or the first ``decisions``, or until ``rounds`` rounds are
    over, dealing rounds with ``deal``; ``steering`` goes to :func:`~rummy.search.playout.random_choice`
    (``buy_chance``, ``play_chance``)."""
    choose = _policy(policy, rng, steering)
    made = 0
    while not game.game_over and (decisions is None or made < decisions):
        if game.phase is Phase.ROUND_OVER:
            if rounds is not None and len(game.results) >= rounds:
                return
            deal(game)
            continue
        turn = Turn(game, game.next_to_act())
        yield turn
        game.apply(choose(turn))
        made += 1


def play(game: Game, rng: random.Random, **options: Any) -> int:
    """Play ``game`` as :func:`random_play` does, reading nothing; the number of decisions made."""
    return sum(1 for _ in random_play(game, rng, **options))


def _policy(policy: Policy, rng: random.Random, steering: dict[str, float]) -> Callable[[Turn], Action]:
    if policy == "uniform":
        return lambda turn: rng.choice(turn.moves)
    if policy == "steered":
        return lambda turn: random_choice(turn.moves, rng, **steering)
    if callable(policy):
        return policy
    raise ValueError(f"unknown policy {policy!r}")
