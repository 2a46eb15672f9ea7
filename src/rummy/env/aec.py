"""The PettingZoo AEC environment: every seat an agent, every decision a turn, claims included.

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers).  The agent to act is the seat the engine waits
for: the active player in the draw and play phases, and in a claim window each eligible seat in the
variant's priority order (a buy or May-I is a decision of that agent).  Rounds are dealt on their own;
the game ends when the variant's scoring says so, or every agent is truncated after
``max_cycles × players`` actions when ``max_cycles`` is given.

Actions are ids of the engine's action universe (:class:`rummy.engine.action_space.ActionSpace`, version
:data:`ACTION_SPACE_VERSION`: the same :data:`~rummy.engine.ACTION_SPACE_SIZE` ids at every table, ids a table
cannot use always masked); every observation is ``{"observation": vector, "action_mask": mask}`` from the
agent's own view only (the mask is all zero for every agent but the selected one, and the vector's
``candidates`` block describes the composite moves the selected agent's composite slots name).  An id the
mask refuses raises :class:`~rummy.engine.action_space.ActionSpaceError` or
:class:`~rummy.engine.errors.IllegalActionError` and changes nothing.  Rewards (``reward=``): ``"score"``
(default) gives each seat, at every round end, its round score
minus the mean of the others' (negated where fewer points are better, so more is always better);
``"win"`` gives 1 to each winner and -1 to every other seat when the game ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rummy.engine import (
    ACTION_SPACE_VERSION,
    CARD_COUNT,
    Action,
    ActionSpace,
    ActionSpaceError,
    Game,
    Phase,
    PlayerView,
    RoundResult,
    UsageError,
    card_name,
    get_variant,
    legal_actions,
    new_game,
    player_view,
    scoring_rule,
)
from rummy.features import OBSERVATION_VERSION, Encoder, Observation

REWARDS = ("score", "win")
#: The keys ``reset(options=...)`` understands.
RESET_OPTIONS = ("variant", "rules", "players")
#: Keys ``reset`` accepts and ignores: PettingZoo's ``api_test`` resets with ``options={"options": 1}`` to check
#: the signature.
IGNORED_RESET_OPTIONS = ("options",)
RENDER_MODES = ("ansi", "human")


class RummyAECEnv(AECEnv[str, dict[str, Any], int]):
    """One game of ``variant`` for ``players`` agents (see the module docstring)."""

    metadata = {"name": "rummy_v2", "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "action_space_version": ACTION_SPACE_VERSION, "observation_version": OBSERVATION_VERSION}
    #: The version of the action numbering (also in ``metadata``); ids mean the same at every table of a version.
    action_space_version = ACTION_SPACE_VERSION
    #: The version of the observation's layout and scaling (also in ``metadata``).
    observation_version = OBSERVATION_VERSION

    def __init__(self, variant: str = "may-i", players: int = 4, options: Mapping[str, Any] | None = None, *,
                 seed: int | None = None, reward: str = "score", max_cycles: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise UsageError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UsageError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise UsageError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
        self.reward_mode = reward
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self._configure(variant, players, options)
        self._seeds = random.Random(seed)
        self.game: Game = new_game(self.rules, players, seed=self._seeds.getrandbits(63))
        self.actions_taken = 0
        self._forget_decision()

    def _configure(self, variant: str, players: int, options: Mapping[str, Any] | None) -> None:
        """The table: variant, house rules, player count, and the spaces that follow from them."""
        rules = get_variant(variant, dict(options or {}))
        new_game(rules, players, seed=0)  # refuses a player count the variant does not allow
        self.variant_name = variant
        self.rules = rules
        self.players = players
        self.options = dict(options or {})
        self.space = ActionSpace(self.rules, players)
        self.encoder = Encoder(self.rules, players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box = spaces.Box(low=-1.0, high=1.0, shape=(self.encoder.size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": box, "action_mask": mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        self._state_size = players * self.encoder.size + CARD_COUNT
        self.state_space = spaces.Box(low=-1.0, high=1.0, shape=(self._state_size,), dtype=np.float32)
        self._composite_start = next(f.start for f in self.space.families if f.verb == "composite")

    # -- PettingZoo API -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game.  ``seed`` fixes its deal (and seeds the seeds of the games after it).

        ``options`` may change the table for this game and the ones after it: ``"variant"`` (a variant's
        name), ``"rules"`` (its house rules, a mapping; omitted, the variant's defaults when the variant
        changes, else the current ones) and ``"players"``.  The spaces, ``possible_agents`` and
        ``state_space`` are made again for the new table: the action space is the same universe at every
        table, but the observation's size depends on the player count, so ask for them again after such a
        reset.  An unknown key
        raises :class:`~rummy.engine.UsageError`; an unknown variant, rule or value, or a player count the
        variant does not allow, raises the engine's error, and the table is then left as it was."""
        if options:
            self._reconfigure(options)
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = new_game(self.rules, self.players, seed=self._seeds.getrandbits(63))
        self.actions_taken = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._forget_decision()
        self.agent_selection = self._agent_to_act()

    def state(self) -> Observation:
        """The whole game as one fixed-size vector, for centralised critics (``state_space``).

        **It sees everything**, every hand and the stock included, so it is for training only, never an
        agent's input at play.  It is every seat's observation vector in seat order (seat 0 first; each
        holds that seat's own hand, as :meth:`observe` gives it), then the copies of each card kind (53)
        left in the stock, scaled as the hand is (÷ C, :class:`rummy.features.Scales`).  Deterministic: the same
        game gives the same bytes."""
        out = np.empty(self._state_size, dtype=np.float32)
        size = self.encoder.size
        for seat, agent in enumerate(self.possible_agents):
            out[seat * size:(seat + 1) * size] = self._vector(agent)
        stock = out[self.players * size:]
        stock[:] = 0.0
        for card in self.game.stock:
            stock[card] += 1.0
        stock /= self.encoder.scales.copies
        return out

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation now: its encoded view and its action mask (new arrays on every call; the vector
        and the legal ids worked out once per step)."""
        return {"observation": self._vector(agent).copy(), "action_mask": self._mask_of(agent)}

    def _mask_of(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """``agent``'s action mask now (a new array): the selected agent's legal ids, all zero for any other."""
        mask = bytearray(self.space.size)
        if agent == self.agent_selection:
            for action_id in self._selected_ids():
                mask[action_id] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def _vector(self, agent: str) -> Observation:
        """``agent``'s observation vector now (worked out once per step; not a copy): the selected agent's
        describes the composite moves of its mask's slots."""
        vector = self._vectors.get(agent)
        if vector is None:
            candidates: list[Action] = []
            if agent == self.agent_selection:
                self._selected_ids()
                candidates = self._composites
            vector = self._vectors[agent] = self.encoder.encode_game(self.game, self._seat[agent], candidates)
        return vector

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise UsageError(f"{agent} is to act: None is only for an agent that is done")
        self.play(self._action_of(self._seat[agent], int(action)))

    def play(self, move: Action) -> None:
        """Step with an engine action of the agent to act instead of an id (for bots, whose composite moves
        need not be among the numbered slots); raises, changing nothing, when it is illegal now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent] or move.seat != self._seat[agent]:
            raise UsageError(f"{move} is not a move of {agent}, the agent to act")
        applied = self.game.apply(move)  # raises, changing nothing, when the move is illegal now
        self.actions_taken += 1
        self._forget_decision()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if applied.round_result is not None and self.reward_mode == "score":
            self._score_rewards(applied.round_result)
        while self.game.phase is Phase.ROUND_OVER:
            self.game.deal()
        if self.game.game_over:
            if self.reward_mode == "win":
                winners = set(self.game.winners())
                for other, name in enumerate(self.possible_agents):
                    self.rewards[name] = 1.0 if other in winners else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self.actions_taken >= self.max_cycles * self.players:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text: public facts, and the hand of the agent to act only."""
        text = render_text(self.game, self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the engine holds no resources)."""

    # -- for agents that want more than the vector ----------------------------------------------

    def seat_of(self, agent: str) -> int:
        """The seat ``agent`` plays (its index in :attr:`possible_agents`)."""
        return self._seat[agent]

    def view(self, agent: str) -> PlayerView:
        """``agent``'s structured view (its own hand, the public table, its candidate moves)."""
        return self.game.view(self._seat[agent])

    def encode(self, seat: int) -> Observation:
        """``seat``'s observation vector now (a new array)."""
        return self._vector(self.possible_agents[seat]).copy()

    # -- internals -----------------------------------------------------------------------------

    def _reconfigure(self, options: Mapping[str, Any]) -> None:
        """Apply ``reset``'s ``options`` (see :meth:`reset`); nothing changes when one is refused."""
        unknown = sorted(set(options) - {*RESET_OPTIONS, *IGNORED_RESET_OPTIONS})
        if unknown:
            raise UsageError(f"unknown reset option {', '.join(map(repr, unknown))} "
                             f"(known: {', '.join(RESET_OPTIONS)})")
        variant = options.get("variant", self.variant_name)
        if not isinstance(variant, str):
            raise UsageError(f"reset option 'variant' must be a variant's name, not {variant!r}")
        players = options.get("players", self.players)
        if not isinstance(players, int) or isinstance(players, bool):
            raise UsageError(f"reset option 'players' must be an integer, not {players!r}")
        rules = options.get("rules", self.options if variant == self.variant_name else {})
        if not isinstance(rules, Mapping):
            raise UsageError(f"reset option 'rules' must be a mapping of house rules, not {rules!r}")
        self._configure(variant, players, rules)  # raises before changing anything when refused

    def _forget_decision(self) -> None:
        """Drop what was worked out for the state before a move: the vectors, the legal ids and the candidates."""
        self._vectors: dict[str, Observation] = {}
        self._ids: list[int] = []
        self._masked_agent = ""
        self._composites: list[Action] = []

    def _selected_ids(self) -> list[int]:
        """The legal ids of the agent to act (none when the engine waits for nobody, e.g. the game is over), from
        one listing of its candidate moves; the composite ones are kept for :meth:`_action_of`."""
        if self._masked_agent != self.agent_selection:
            seat = self._seat[self.agent_selection]  # (a seat the engine does not wait for has no candidate moves)
            ids, composites, unslotted = self.space.numbered(self.game, legal_actions(self.game, seat))
            if unslotted and self.space.complete:  # only house rules allow more melds than meld slots
                raise ActionSpaceError(f"{unslotted} moves onto melds past the last meld slot")
            self._ids = ids
            self._masked_agent = self.agent_selection
            self._composites = composites
        return self._ids

    def _action_of(self, seat: int, action_id: int) -> Action:
        """The action of ``action_id`` for ``seat``: a composite slot from the listing the mask was made from
        (when the mask was asked for), any other id from the action space."""
        slot = action_id - self._composite_start
        if self._masked_agent == self.possible_agents[seat] and 0 <= slot < len(self._composites):
            return self._composites[slot]
        return self.space.action_of(self.game, seat, action_id)

    def _agent_to_act(self) -> str:
        return self.possible_agents[self.game.next_to_act()]

    def _score_rewards(self, result: RoundResult) -> None:
        sign = 1.0 if scoring_rule(self.rules).higher_is_better else -1.0
        scores = result.scores
        others = self.players - 1
        total = sum(scores)
        for seat, name in enumerate(self.possible_agents):
            mean_others = (total - scores[seat]) / others
            self.rewards[name] = sign * (scores[seat] - mean_others)


def render_text(game: Game, seat: int) -> str:
    """Public facts of ``game`` and ``seat``'s own hand, as lines of text."""
    view = player_view(game, seat, with_actions=False)
    lines = [f"{view.variant} round {view.round}, {view.phase}; p{view.active} active, waiting for "
             + (", ".join(f"p{s}" for s in view.to_act) or "nobody")]
    if view.contract:
        lines.append("contract: " + ", ".join(map(str, view.contract)))
    top = view.discard[-1] if view.discard else None
    lines.append(f"stock {view.stock_count}, discard {view.discard_count}"
                 + (f" (top {card_name(top)})" if top is not None else "")
                 + (f"; offered {card_name(view.claim_card)}" if view.claim_card is not None else ""))
    for other in range(game.n):
        lines.append(f"p{other}: {view.hand_sizes[other]} cards, total {view.totals[other]}"
                     + (", down" if view.down[other] else ""))
    for meld in view.table:
        lines.append(f"  meld {meld.id} (p{meld.owner}): " + " ".join(card_name(c) for c in meld.cards))
    lines.append(f"p{seat}'s hand: " + " ".join(card_name(c) for c in view.hand))
    return "\n".join(lines)
