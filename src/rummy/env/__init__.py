"""Environments for learning agents: a PettingZoo AEC environment, a Gymnasium single-seat wrapper and a vector
environment of single-seat tables (Gymnasium's vector API).

Needs the optional extra ``rl`` (``pip install 'rummy[rl]'``: pettingzoo, gymnasium, numpy); the engine
itself has no dependencies.  See ``docs/env.md`` for the observation, the actions and the rewards.

>>> from rummy.env import aec_env
>>> env = aec_env("may-i", players=4, seed=7)
>>> env.reset(seed=7)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape
True
>>> int(env.action_space(env.agent_selection).n) == ACTION_SPACE_SIZE, env.metadata["action_space_version"]
(True, 2)

Every table, whatever its variant, house rules and player count (up to eight), has the same
``Discrete(ACTION_SPACE_SIZE)`` action space, version ``ACTION_SPACE_VERSION``; the observation's
``candidates`` block (fields :data:`CANDIDATE_FIELDS`, then the cards played) describes each composite slot.
The observation (version ``OBSERVATION_VERSION``, in ``metadata["observation_version"]``) is scaled into
``[-1, 1]`` and ends with the round's public history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the installed extras
    raise ImportError(f"rummy.env needs the optional extra 'rl' (pip install 'rummy[rl]'): {missing}") from None

from rummy.engine import ACTION_SPACE_SIZE, ACTION_SPACE_VERSION
from rummy.env.aec import RummyAECEnv
from rummy.env.single import SingleSeatEnv
from rummy.env.vector import SingleSeatVectorEnv
from rummy.features import CANDIDATE_FIELDS, OBSERVATION_VERSION, SEAT_FIELDS, Block, observation_layout

__all__ = ["ACTION_SPACE_SIZE", "ACTION_SPACE_VERSION", "CANDIDATE_FIELDS", "OBSERVATION_VERSION", "SEAT_FIELDS",
           "Block", "RummyAECEnv",
           "SingleSeatEnv", "SingleSeatVectorEnv", "aec_env", "env", "gym_env", "observation_layout", "vector_env"]


def aec_env(variant: str = "may-i", players: int = 4, options: Mapping[str, Any] | None = None, *,
            seed: int | None = None, reward: str = "score", max_cycles: int | None = None,
            render_mode: str | None = None) -> RummyAECEnv:
    """A PettingZoo AEC environment (:class:`RummyAECEnv`) for ``variant`` with house rules ``options``."""
    return RummyAECEnv(variant, players, options, seed=seed, reward=reward, max_cycles=max_cycles,
                       render_mode=render_mode)


env = aec_env  # PettingZoo's conventional name


def gym_env(variant: str = "may-i", opponents: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
            options: Mapping[str, Any] | None = None, **settings: Any) -> SingleSeatEnv:
    """A Gymnasium environment: one learning seat against ``opponents`` (:class:`SingleSeatEnv`)."""
    return SingleSeatEnv(variant, opponents, options, **settings)


def vector_env(num_envs: int, variant: str = "may-i",
               opponents: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
               options: Mapping[str, Any] | None = None, **settings: Any) -> SingleSeatVectorEnv:
    """A Gymnasium vector environment: ``num_envs`` single-seat tables stepped together (:class:`SingleSeatVectorEnv`;
    ``seed`` seeds table ``i`` with ``seed + i``, ``autoreset_mode`` is ``"next_step"``, ``"same_step"`` or
    ``"disabled"``, other settings as :func:`gym_env`)."""
    return SingleSeatVectorEnv(num_envs, variant, opponents, options, **settings)
