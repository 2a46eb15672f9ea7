"""Random legal play of whole games: the floor for bots, the driver of property tests and benchmarks.

The policy is uniform over the legal actions with three nudges that keep games finite: it lays
down (or tables a book) whenever it can, it answers claim windows with ``buy`` only with
probability ``buy_chance``, and it prefers plays onto the table over discarding with probability
``play_chance``.

>>> game = random_game("progressive-buy-it", 4, seed=3)
>>> game.game_over, len(game.results)
(True, 8)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rummy.engine import Action, CandidateMoves, Game, Phase, Verb, new_game

TABLE_VERBS = frozenset({Verb.MELD, Verb.LAYOFF, Verb.SWAP, Verb.MOVE, Verb.REARRANGE, Verb.BATCH})
# Read on every decision: module globals, cheaper than Enum members (their class lookup is slow in Python 3.11).
_GOING_DOWN = frozenset({Verb.DOWN, Verb.BOOK})
_PASS, _BUY = Verb.PASS, Verb.BUY


def random_choice(actions: Sequence[Action], rng: random.Random, *, buy_chance: float = 0.1,
                  play_chance: float = 0.7) -> Action:
    """Pick one of ``actions`` (all legal, for one seat) by the random policy.

    It reads the verbs first and works out only the entry it picks (a
    :class:`~rummy.engine.candidates.CandidateMoves` defers its costly entries until read).
    """
    verbs = actions.verbs() if isinstance(actions, CandidateMoves) else [action.verb for action in actions]
    for index, verb in enumerate(verbs):
        if verb in _GOING_DOWN:
            return actions[index]
    if _PASS in verbs:
        verb = _BUY if _BUY in verbs and rng.random() < buy_chance else _PASS
        return actions[verbs.index(verb)]
    plays = [index for index, verb in enumerate(verbs) if verb in TABLE_VERBS]
    if plays and rng.random() < play_chance:
        return actions[rng.choice(plays)]
    return rng.choice(actions)


class PlayoutLimit(RuntimeError):
    """A playout ran past its action cap (the policy, not the rules, failed to finish)."""


def drive(game: Game, choose: Callable[[Game, int], Action], *, max_actions: int = 200_000) -> int:
    """Play ``game`` to its end, dealing new rounds and asking ``choose(game, seat)`` for every decision.

    Returns the number of decisions; raises :class:`PlayoutLimit` past ``max_actions``.
    """
    decisions = 0
    while not game.game_over:
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        seat = game.next_to_act()
        game.apply(choose(game, seat))
        decisions += 1
        if decisions >= max_actions:
            raise PlayoutLimit(f"no end after {decisions} decisions")
    return decisions


def play_out(game: Game, rng: random.Random, *, max_actions: int = 200_000) -> int:
    """Play ``game`` to its end with the random policy; return the number of decisions made."""
    return drive(game, lambda g, seat: random_choice(g.legal_actions(seat), rng), max_actions=max_actions)


def random_game(variant: str, players: int, *, seed: int = 0) -> Game:
    """A whole game of ``variant`` played out by the random policy."""
    game = new_game(variant, players, seed=seed)
    play_out(game, random.Random(seed))
    return game
