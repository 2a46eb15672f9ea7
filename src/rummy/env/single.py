"""A Gymnasium environment for one learning seat against the project's bots.

The learner sits at ``seat`` (default 0); the other seats are bots (``opponents``, one name per seat,
e.g. ``["heuristic", "greedy", "random"]``) that answer from their own views only.  ``step`` applies the
learner's action, then lets the bots play until the learner must decide again (claim windows included)
or the game ends (a game the bots finish before the learner's first decision is replaced by the next one
at ``reset``).  Observations, the action mask and rewards are those of :class:`RummyAECEnv`; the mask
also rides in ``info["action_mask"]`` for libraries that read it there.

An id the mask refuses changes nothing: with ``illegal_action="penalize"`` (default, so that unmasked
samplers and Gymnasium's checker can step) the step returns the same observation, a reward of
``-illegal_penalty`` and ``info["illegal"]`` with the engine's reason; with ``"raise"`` it raises the
engine's error.  ``illegal_actions`` counts them.

:meth:`SingleSeatEnv.action_masks` gives the mask as booleans, the protocol of sb3-contrib's ``MaskablePPO``
(no ``ActionMasker`` wrapper needed).  ``reset(options=...)`` may change the table: ``"variant"``,
``"rules"`` (house rules), ``"opponents"`` (bot names, one per other seat) and ``"players"`` (which must
agree with the opponents); the spaces are then made again (see :meth:`RummyAECEnv.reset`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from rummy.bots import Bot, RandomBot, decide, make_bot
from rummy.engine import ACTION_SPACE_VERSION, Action, RummyError, UsageError, legal_actions
from rummy.env.aec import IGNORED_RESET_OPTIONS, RESET_OPTIONS, RummyAECEnv
from rummy.features import OBSERVATION_VERSION
from rummy.search.playout import random_choice


class SingleSeatEnv(gymnasium.Env[dict[str, Any], int]):
    """One learning seat against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "action_space_version": ACTION_SPACE_VERSION,
                "observation_version": OBSERVATION_VERSION}
    #: The version of the action numbering (also in ``metadata``); ids mean the same at every table of a version.
    action_space_version = ACTION_SPACE_VERSION
    #: The version of the observation's layout and scaling (also in ``metadata``).
    observation_version = OBSERVATION_VERSION

    def __init__(self, variant: str = "may-i", opponents: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
                 options: Mapping[str, Any] | None = None, *, seat: int = 0, seed: int | None = None,
                 reward: str = "score", max_cycles: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "penalize", illegal_penalty: float = 1.0) -> None:
        if illegal_action not in ("penalize", "raise"):
            raise UsageError(f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}")
        players = len(opponents) + 1
        if not 0 <= seat < players:
            raise UsageError(f"seat must be 0…{players - 1}, not {seat}")
        self.aec = RummyAECEnv(variant, players, options, seed=seed, reward=reward, max_cycles=max_cycles,
                               render_mode=None)
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.opponent_names = list(opponents)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.illegal_actions = 0
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bot_seed = 0 if seed is None else seed
        self.bots: dict[int, Bot] = {}
        self._make_bots()

    def _make_bots(self) -> None:
        others = [s for s in range(self.aec.players) if s != self.seat]
        self.bots = {other: make_bot(name, seed=self._bot_seed * 100 + other)
                     for other, name in zip(others, self.opponent_names, strict=True)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            self._reconfigure(options)
        if seed is not None or options:
            self._bot_seed = self._bot_seed if seed is None else seed
            self._make_bots()
        self.aec.reset(seed=seed)
        reward = self._bots_play()
        while self._done():  # the bots finished the game before the learner's first decision: deal again
            self.aec.reset()
            reward = self._bots_play()
        observation = self.aec.observe(self.agent)
        return observation, self._info(observation, reward)

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done():
            raise UsageError("the game is over: call reset()")
        if self.aec.agent_selection != self.agent:
            raise UsageError(f"{self.agent} is not to act")
        try:
            self.aec.step(int(action))
        except RummyError as error:
            if self.illegal_action == "raise":
                raise
            self.illegal_actions += 1
            observation = self.aec.observe(self.agent)
            info = self._info(observation, 0.0)
            info["illegal"] = str(error)
            return observation, -self.illegal_penalty, False, False, info
        reward = self.aec.rewards.get(self.agent, 0.0) + self._bots_play()
        observation = self.aec.observe(self.agent)
        info = self._info(observation, reward)
        return observation, float(reward), self.aec.terminations[self.agent], self.aec.truncations[self.agent], info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's action mask now, as booleans (sb3-contrib's ``MaskablePPO`` calls this; a new array)."""
        return self.aec._mask_of(self.agent).view(np.bool_)  # (observe's mask, without copying its vector)

    def _reconfigure(self, options: dict[str, Any]) -> None:
        """Apply ``reset``'s ``options`` (see the module docstring); nothing changes when one is refused."""
        unknown = sorted(set(options) - {*RESET_OPTIONS, *IGNORED_RESET_OPTIONS, "opponents"})
        if unknown:
            raise UsageError(f"unknown reset option {', '.join(map(repr, unknown))} "
                             f"(known: {', '.join((*RESET_OPTIONS, 'opponents'))})")
        opponents = options.get("opponents", self.opponent_names)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise UsageError(f"reset option 'opponents' must be a list of bot names, not {opponents!r}")
        opponents = list(opponents)
        players = options.get("players", len(opponents) + 1)
        if players != len(opponents) + 1:
            raise UsageError(f"reset option 'players' is {players!r} but there are {len(opponents)} opponents: "
                             "give 'opponents', one bot per other seat")
        if not 0 <= self.seat < players:
            raise UsageError(f"seat {self.seat} is not at a table of {players} players")
        for name in opponents:
            make_bot(name, seed=0)  # raises on an unknown bot before anything changes
        table = {key: options[key] for key in RESET_OPTIONS if key in options}
        table["players"] = players
        self.aec._reconfigure(table)
        self.agent = self.aec.possible_agents[self.seat]
        self.opponent_names = opponents
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def render(self) -> str | None:
        from rummy.env.aec import render_text

        text = render_text(self.aec.game, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _done(self) -> bool:
        return self.aec.terminations[self.agent] or self.aec.truncations[self.agent]

    def _bots_play(self) -> float:
        """Let the bots act until the learner is to act or the game is done; the learner's reward meanwhile."""
        reward = 0.0
        while not self._done() and self.aec.agent_selection != self.agent:
            agent = self.aec.agent_selection
            self.aec.play(self._bot_move(self.aec.seat_of(agent)))
            reward += self.aec.rewards.get(self.agent, 0.0)
        return reward

    def _bot_move(self, seat: int) -> Action:
        """The move of the bot at ``seat``: :func:`~rummy.bots.decide`, except for the random bot, whose choice reads
        only the legal moves: it picks from the listing itself, the same move its ``choose`` picks from the view
        (the same list, the same draws of its generator), without building the view, whose tuple of moves works out
        every deferred lay-down and rearrangement (``random_choice`` works out only the one it picks)."""
        bot = self.bots[seat]
        game = self.aec.game
        if type(bot) is RandomBot:
            return random_choice(legal_actions(game, seat), bot.rng)
        return decide(game, seat, bot)

    def _info(self, observation: dict[str, Any], reward: float) -> dict[str, Any]:
        del reward
        mask: np.ndarray[Any, Any] = observation["action_mask"]
        return {"action_mask": mask}
