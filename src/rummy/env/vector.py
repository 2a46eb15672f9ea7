"""Vectorised stepping: ``N`` single-seat tables (:class:`~rummy.env.single.SingleSeatEnv`) behind Gymnasium's vector
API, one call stepping all of them, with batched numpy observations, rewards and masks.

>>> import numpy as np
>>> from rummy.env import vector_env
>>> envs = vector_env(3, "basic", opponents=["random"], seed=5)
>>> observations, infos = envs.reset(seed=5)
>>> observations["observation"].shape[0], observations["action_mask"].shape[0], envs.action_masks().shape[0]
(3, 3, 3)
>>> actions = np.array([np.flatnonzero(row)[0] for row in envs.action_masks()])
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.dtype
((3,), dtype('bool'))

The tables step one after another in this process (the engine's compiled core, where built, does each
table's work); what the batching saves is the per-table glue of a generic wrapper.  The results are those
of Gymnasium's own ``SyncVectorEnv`` over the same tables, for each autoreset mode (tested):

* ``seed`` at ``reset`` is ``None``, an integer ``s`` (table ``i`` gets ``s + i``) or one seed per table;
  ``options={"reset_mask": mask}`` resets only the tables ``mask`` selects (the way to reset with the
  ``"disabled"`` autoreset mode).  Other reset options (``variant``, ``rules``, ``opponents``) go to every
  table, and may not change the spaces (the batched spaces are fixed at construction: make a new vector
  environment for another table size); such a reset raises :class:`~rummy.engine.UsageError` and changes
  nothing.
* Autoreset ``"next_step"`` (default): the step after a table's game ended resets it (its action is ignored,
  its reward is 0); ``"same_step"``: the table is reset in the step that ended its game, and the last
  observation and info of that game ride in ``infos["final_obs"]`` and ``infos["final_info"]``;
  ``"disabled"``: stepping a finished table raises.
* :meth:`action_masks` is every table's :meth:`~rummy.env.single.SingleSeatEnv.action_masks`, one row per
  table (booleans, ``(num_envs, action size)``); the row of a table whose next step is its reset allows
  every id (any action is ignored then), so that a masked sampler always has a choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from rummy.engine import UsageError
from rummy.env.single import SingleSeatEnv

BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
AUTORESET_MODES = {mode.value.lower().replace("step", "_step"): mode for mode in AutoresetMode}


class SingleSeatVectorEnv(VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` single-seat tables of one kind stepped together (see the module docstring)."""

    def __init__(self, num_envs: int, variant: str = "may-i",
                 opponents: Sequence[str] = ("heuristic", "heuristic", "heuristic"),
                 options: Mapping[str, Any] | None = None, *, seed: int | None = None,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, **settings: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise UsageError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.envs = [SingleSeatEnv(variant, opponents, options, seed=None if seed is None else seed + index,
                                   **settings) for index in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.render_mode = first.render_mode
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        space = first.observation_space
        assert isinstance(space, spaces.Dict), space  # {"observation": Box, "action_mask": Box}
        shapes = {key: part.shape for key, part in space.items()}
        self._observation_size = int(np.prod(shapes["observation"] or ()))
        self._action_size = int(np.prod(shapes["action_mask"] or ()))
        self._observations = np.zeros((num_envs, self._observation_size), dtype=np.float32)
        self._masks = np.zeros((num_envs, self._action_size), dtype=np.int8)
        self._done = np.zeros(num_envs, dtype=np.bool_)

    # -- the vector API -------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed if isinstance(seed, int) else None)
        seeds = self._seeds(seed)
        options = dict(options or {})
        reset_mask = self._reset_mask(options.pop("reset_mask", None))
        if options:
            self._check_table_options(options)
        infos: dict[str, Any] = {}
        self._new_batch(every_row=bool(reset_mask.all()))
        for index, (env, table_seed) in enumerate(zip(self.envs, seeds, strict=True)):
            if reset_mask[index]:
                observation, info = env.reset(seed=table_seed, options=options or None)
                self._keep(index, observation)
                infos = self._add_info(infos, info, index)
        self._done[reset_mask] = False
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[dict[str, Any], np.ndarray[Any, np.dtype[np.float64]], BoolArray,
                                          BoolArray, dict[str, Any]]:
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,):
            raise UsageError(f"step takes one action per table, an array of shape ({self.num_envs},), "
                             f"not {ids.shape}")
        mode = self.autoreset_mode
        if mode is AutoresetMode.DISABLED and self._done.any():
            raise UsageError(f"table {int(np.flatnonzero(self._done)[0])} has finished its game: reset it first "
                             "(reset(options={'reset_mask': mask}) with autoreset_mode 'disabled')")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        tables_infos: list[tuple[dict[str, Any], bool]] = []
        self._new_batch(every_row=True)
        for index, env in enumerate(self.envs):
            if self._done[index]:  # (autoreset next_step)
                observation, info = env.reset()
            else:
                observation, reward, terminated, truncated, info = env.step(int(ids[index]))
                rewards[index], terminations[index], truncations[index] = reward, terminated, truncated
                if mode is AutoresetMode.SAME_STEP and (terminated or truncated):
                    infos = self._add_info(infos, {"final_obs": observation, "final_info": info}, index)
                    observation, info = env.reset()
            self._keep(index, observation)
            tables_infos.append((info, info.get("action_mask") is observation["action_mask"]))
        batch = self._batch()
        if all(same for _, same in tables_infos):  # every info's mask is its observation's: batched once
            for index, (info, _) in enumerate(tables_infos):
                if len(info) > 1:
                    infos = self._add_info(infos, {k: v for k, v in info.items() if k != "action_mask"}, index)
            infos["action_mask"], infos["_action_mask"] = batch["action_mask"], np.ones(self.num_envs, np.bool_)
        else:
            for index, (info, _) in enumerate(tables_infos):
                infos = self._add_info(infos, info, index)
        finished = terminations | truncations
        self._done = np.zeros_like(finished) if mode is AutoresetMode.SAME_STEP else finished
        return batch, rewards, terminations, truncations, infos

    def action_masks(self) -> BoolArray:
        """Each table's action mask now, one row per table, as booleans (a new array, from the last batch of
        observations returned); the row of a table whose next step resets it allows every id."""
        masks = self._masks.view(np.bool_).copy()
        masks[self._done] = True
        return masks

    def render(self) -> tuple[Any, ...] | None:
        """Every table's :meth:`~rummy.env.single.SingleSeatEnv.render`."""
        return tuple(env.render() for env in self.envs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Each table's attribute ``name``, called with the arguments when it is a method (as ``SyncVectorEnv``)."""
        results = []
        for env in self.envs:
            attribute = getattr(env, name)
            results.append(attribute(*args, **kwargs) if callable(attribute) else attribute)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Each table's attribute ``name``."""
        return tuple(getattr(env, name) for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    # -- internals -------------------------------------------------------------------------------

    def _keep(self, index: int, observation: Mapping[str, Any]) -> None:
        self._observations[index] = observation["observation"]
        self._masks[index] = observation["action_mask"]

    def _new_batch(self, every_row: bool) -> None:
        """New arrays for the batch about to be returned (never the arrays returned before): empty when every
        table's row is written, else the last batch's rows to be overwritten in part."""
        if every_row:
            self._observations, self._masks = np.empty_like(self._observations), np.empty_like(self._masks)
        else:
            self._observations, self._masks = self._observations.copy(), self._masks.copy()

    def _batch(self) -> dict[str, Any]:
        return {"observation": self._observations, "action_mask": self._masks}

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int) and not isinstance(seed, bool):
            return [seed + index for index in range(self.num_envs)]
        if isinstance(seed, str) or not isinstance(seed, Sequence) or len(seed) != self.num_envs:
            raise UsageError(f"seed must be None, an integer or one seed per table ({self.num_envs}), not {seed!r}")
        return list(seed)

    def _reset_mask(self, mask: Any) -> BoolArray:
        if mask is None:
            return np.ones(self.num_envs, dtype=np.bool_)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise UsageError(f"options['reset_mask'] must be a boolean numpy array of shape ({self.num_envs},)")
        if not mask.any():
            raise UsageError("options['reset_mask'] selects no table")
        return mask

    def _check_table_options(self, options: dict[str, Any]) -> None:
        """Refuse, before any table changes, reset options that would change the spaces (tried on a spare table)."""
        first = self.envs[0]
        probe = SingleSeatEnv(first.aec.variant_name, first.opponent_names, first.aec.options, seat=first.seat)
        probe._reconfigure(options)  # raises on an unknown key or value
        if (probe.observation_space != self.single_observation_space
                or probe.action_space != self.single_action_space):
            raise UsageError("these reset options change the observation or action space, which a vector "
                             "environment fixes at construction: make a new vector environment for that table")


def _autoreset_mode(mode: str | AutoresetMode) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    for name, value in AUTORESET_MODES.items():
        if mode in (name, value.value):
            return value
    raise UsageError(f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)}, not {mode!r}")
