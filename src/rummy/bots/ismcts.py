"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

:class:`IsmctsBot` plans from ``view.public_game``, the redacted copy of the game that the driver
passes to a bot with ``needs_public_game = True``; it never sees the real game.  One iteration:

1. **Determinize**: deal the cards the seat cannot see at random (:func:`rummy.determinize.determinize`),
   giving a complete game consistent with everything the seat has seen.
2. **Select**: from the root, among the actions legal *in this determinization* for the seat to act,
   pick by UCB1 with availability counts (an edge's exploration term uses how often it was available,
   not its parent's visits).  Actions are keyed by their record text (``str(action)``), so ``p1 draw``
   is one edge whatever card the stock hides.  Every seat's decisions are in the tree, each chosen for
   the reward of the seat that makes it.
3. **Expand** one untried action, then **roll out** with the rollout policy to the end of the current
   round (rounds are independent apart from the totals), or for at most ``max_rollout`` decisions, after
   which the state is scored as if the round had stopped there (by hand points).  Rollout bots are made
   afresh for every iteration and see the determinized game through :func:`rummy.bots.decide`, so no
   memory of one guess leaks into another.
4. **Back up** a reward in [0, 1] for every seat (see :func:`round_rewards`).

The bot plays the most visited root action.  With a bot rollout policy, that bot is also asked once for
its own move on the real view (the *advice*): the advice is expanded first at the root and gets a head
start of ``prior × iterations`` in the vote, so a search too small to tell the moves apart plays the
rollout bot's move rather than noise, and overrules it only when the simulations clearly disagree.  A
decision with a single legal action is answered at once; claim windows and draws are searched as usual.

>>> from rummy.bots import make_bot, play_game
>>> bots = [make_bot("ismcts", seed=1, simulations=4, rollout="random"), make_bot("random", seed=2)]
>>> play_game("purchase", bots, seed=3).game_over
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rummy.actions import Action
from rummy.cards import rank_of, suit_of
from rummy.determinize import determinize
from rummy.errors import RummyError
from rummy.game import Game, Phase
from rummy.playout import random_choice
from rummy.variants import Variant
from rummy.view import PlayerView

if TYPE_CHECKING:
    from rummy.bots import Bot

#: The default budget, when neither ``simulations`` nor ``time_ms`` is given: iterations per decision by
#: variant family (``Variant.id_base``), measured with ``python bench/ismcts.py speed`` so that every
#: variant answers within one second per decision on a 2-core machine with heuristic rollouts.
DEFAULT_SIMULATIONS: dict[str, int] = {
    "progressive-buy-it": 24,
    "progressive-15": 32,
    "may-i": 40,
    "basic": 28,
    "purchase": 8,
}
#: Iterations for a variant family not in :data:`DEFAULT_SIMULATIONS`.
DEFAULT_SIMULATIONS_OTHER = 24
#: A wall-clock ceiling of the default budget only, a safety net on a loaded machine or a slow position:
#: it stops the search early (the answer then depends on timing).  An explicit budget has no ceiling.
DEFAULT_CEILING_MS = 800.0
#: Rollout decisions after which the state is scored by hand points.
DEFAULT_MAX_ROLLOUT = 60
#: UCB1 exploration constant (rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: Head start of the rollout policy's own choice in the final vote, as a share of the iterations.
DEFAULT_PRIOR = 0.25
#: Rollout policies in order of preference: a missing bot module falls back to the next one.
ROLLOUT_FALLBACK = ("heuristic", "greedy", "random")

Policy = Callable[[Game, int], Action]


class Node:
    """A tree node: statistics of the edge that leads here, and the children by action text."""

    __slots__ = ("seat", "visits", "reward", "available", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat whose action leads to this node (-1 at the root)
        self.visits = 0
        self.reward = 0.0  # summed reward of ``seat``
        self.available = 0
        self.children: dict[str, Node] = {}

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


def default_simulations(variant: Variant) -> int:
    """Iterations per decision of the default budget in ``variant`` (house variants: their base game).

    >>> from rummy.variants import get_variant
    >>> default_simulations(get_variant("may-i", {"may_i_limit": 5})) == DEFAULT_SIMULATIONS["may-i"]
    True
    """
    return DEFAULT_SIMULATIONS.get(variant.id_base, DEFAULT_SIMULATIONS_OTHER)


def _book_progress(game: Game, seat: int) -> int:
    """Most cards of ``seat``'s hand toward one book (4 of a rank, or 4 in a row of a suit, ace high)."""
    hand = game.hands[seat]
    by_rank = [0] * 14
    held = [[False] * 15 for _ in range(4)]
    for card, count in enumerate(hand[:52]):
        if count:
            rank = rank_of(card)
            by_rank[rank] += count
            held[suit_of(card)][14 if rank == 1 else rank] = True
    best = max(by_rank)
    for suit in range(4):
        for low in range(2, 12):
            best = max(best, sum(held[suit][low: low + 4]))
    return best


def round_rewards(game: Game, results_before: int) -> list[float]:
    """Every seat's reward in [0, 1] for the round just played (or stopped early, by hand points).

    * penalty variants (``progressive-buy-it``, ``progressive-15``, ``may-i``): the seat's round score
      against the others', ``0.5 + (mean of the others' scores − own score) / (2 × highest score)``;
      going out while the others hold many points approaches 1.  A round stopped early is scored as if
      every seat were charged its hand points.
    * ``basic`` (winner collects): ``0.5 + (own points collected − mean collected by the others) / (2 × s)``
      with ``s`` half the target (100 if none), clipped; a stalemate gives everyone 0.5.  A round stopped
      early compares hand points like the penalty variants, at half the weight.
    * ``purchase``: 1 for the seat that tables a book, 0 for the others; no winner gives everyone
      ``1/n``, a round stopped early ``1/n`` adjusted by 0.1 per card of book progress above the average.
    """
    n = game.n
    scoring = game.variant.scoring
    finished = len(game.results) > results_before
    result = game.results[-1] if finished else None
    if scoring == "book":
        if result is not None and result.went_out is not None:
            return [1.0 if seat == result.went_out else 0.0 for seat in range(n)]
        if result is not None:
            return [1.0 / n] * n
        progress = [_book_progress(game, seat) for seat in range(n)]
        mean = sum(progress) / n
        return [min(1.0, max(0.0, 1.0 / n + 0.1 * (p - mean))) for p in progress]
    if scoring == "winner_collects":
        if result is not None:
            target = game.variant.target(n)
            scale = target / 2 if target else 100.0
            gains = result.scores
            return [
                min(1.0, max(0.0, 0.5 + (gains[s] - (sum(gains) - gains[s]) / (n - 1)) / (2 * scale)))
                for s in range(n)
            ]
        return _relative([game.hand_points(s) for s in range(n)], weight=0.5)
    scores = list(result.scores) if result is not None else [game.hand_points(s) for s in range(n)]
    return _relative(scores, weight=1.0)


def _relative(scores: list[int], *, weight: float) -> list[float]:
    """Lower is better: ``0.5 + weight × (mean of the others − own) / (2 × max)``."""
    n = len(scores)
    top = max(max(scores), 1)
    total = sum(scores)
    return [0.5 + weight * ((total - own) / (n - 1) - own) / (2 * top) for own in scores]


def _bot_policy(bot: Bot) -> Policy:
    from rummy.bots import decide

    def policy(game: Game, seat: int) -> Action:
        return decide(game, seat, bot)

    return policy


class IsmctsBot:
    """Single-observer ISMCTS; see the module docstring.

    ``simulations`` (iterations) or ``time_ms`` (wall clock) bound the search (both: whichever ends
    first); with neither, the default is :func:`default_simulations` iterations with a
    :data:`DEFAULT_CEILING_MS` safety ceiling.  With a simulation budget only, the bot is deterministic
    for its seed.  ``rollout`` names the rollout policy: ``heuristic`` (falls back to ``greedy``, then
    ``random``, when those modules are missing), ``greedy`` or ``random``.

    Options: ``max_rollout`` (decisions before a rollout is cut and scored by hand points),
    ``exploration`` (UCB1 constant), ``prior`` (the rollout bot's own choice on the real view is
    expanded first at the root and gets ``prior × iterations`` extra votes, so a search with too few
    iterations to tell the actions apart keeps the rollout bot's move; 0 turns this off; no effect
    with random rollouts).
    """

    name = "ismcts"
    needs_public_game = True

    def __init__(
        self,
        seed: int = 0,
        *,
        simulations: int | None = None,
        time_ms: float | None = None,
        rollout: str = "heuristic",
        max_rollout: int = DEFAULT_MAX_ROLLOUT,
        exploration: float = DEFAULT_EXPLORATION,
        prior: float = DEFAULT_PRIOR,
        **options: object,
    ) -> None:
        if options:
            raise TypeError(f"unknown ismcts option(s): {', '.join(sorted(options))}")
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        if time_ms is not None and time_ms <= 0:
            raise ValueError("time_ms must be positive")
        #: True when the bot plays at the default budget (:data:`DEFAULT_SIMULATIONS` with a ceiling).
        self.default_budget = simulations is None and time_ms is None
        self.ceiling_ms = DEFAULT_CEILING_MS if self.default_budget else None
        self.simulations = simulations
        self.time_ms = time_ms
        self.max_rollout = max_rollout
        self.exploration = exploration
        self.prior = prior
        self.seed = seed
        self.rng = random.Random(seed)
        self.rollout = self._resolve_rollout(rollout)
        self._advisor: Bot | None = None  # the rollout bot that sees this seat's real views (the prior)
        self._bot_seeds = random.Random(seed * 7919 + 1)
        #: Figures of the last search: iterations, ms, root visits by action text, the advice, and
        #: whether the clock (``time_ms`` or the default ceiling) rather than the iteration count ended it.
        self.last_search: dict[str, object] = {}
        #: Actions the engine refused inside a determinization (the iteration is scored where it stopped).
        self.engine_errors = 0

    @staticmethod
    def _resolve_rollout(rollout: str) -> str:
        if rollout == "ismcts":
            raise ValueError("ismcts cannot be its own rollout policy")
        if rollout not in ROLLOUT_FALLBACK:
            raise ValueError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUT_FALLBACK)})")
        import importlib

        for name in ROLLOUT_FALLBACK[ROLLOUT_FALLBACK.index(rollout):]:
            if name == "random":
                return name
            try:
                importlib.import_module(f"rummy.bots.{name}")
            except ImportError:
                continue
            return name
        return "random"  # pragma: no cover

    def _policy(self, n: int) -> Policy:
        """The rollout policy for one iteration: fresh bots, so no memory leaks between determinizations."""
        if self.rollout == "random":
            rng = self.rng

            def policy(game: Game, seat: int) -> Action:
                return random_choice(game.legal_actions(seat), rng)

            return policy
        from rummy.bots import make_bot

        policies = [_bot_policy(make_bot(self.rollout, seed=self._bot_seeds.randrange(2**31))) for _ in range(n)]
        return lambda game, seat: policies[seat](game, seat)

    def _advice(self, view: PlayerView) -> str | None:
        """The rollout bot's own choice on the real view (its memory sees only real views), or None."""
        if self.rollout == "random" or self.prior <= 0:
            return None
        if self._advisor is None:
            from rummy.bots import make_bot

            self._advisor = make_bot(self.rollout, seed=self.seed)
        return str(self._advisor.choose(view))

    # -- search ---------------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            self.last_search = {"iterations": 0, "ms": 0.0, "visits": {}, "advice": None, "stopped_by_clock": False}
            return legal[0]
        public = view.public_game
        seat = view.seat
        if public is None or seat is None:
            raise ValueError("ismcts needs view.public_game (the driver passes it when needs_public_game is set)")
        by_text = {str(action): action for action in legal}
        started = time.perf_counter()
        limit_ms = self.time_ms if self.time_ms is not None else self.ceiling_ms
        deadline = None if limit_ms is None else started + limit_ms / 1000.0
        simulations = self.simulations
        if self.default_budget:
            simulations = default_simulations(public.variant)
        advice = self._advice(view)
        root = Node(-1)
        iterations = 0
        slowest = 0.0
        clocked = False
        while True:
            begun = time.perf_counter()
            self._iterate(root, public, seat, by_text, self._policy(public.n), advice)
            iterations += 1
            if simulations is not None and iterations >= simulations:
                break
            if deadline is not None:
                now = time.perf_counter()
                slowest = max(slowest, now - begun)
                if now + slowest >= deadline:  # stop if another iteration as slow as the slowest would overrun
                    clocked = True
                    break
        bonus = self.prior * iterations

        def vote(text: str) -> tuple[float, float]:
            child = root.children[text]
            return child.visits + (bonus if text == advice else 0.0), child.reward / child.visits

        if not root.children:  # every iteration failed before expanding (see engine_errors)
            return by_text.get(advice or "", legal[0])
        best = max(root.children, key=vote)
        self.last_search = {
            "iterations": iterations,
            "ms": (time.perf_counter() - started) * 1000.0,
            "visits": {text: node.visits for text, node in root.children.items()},
            "advice": advice,
            "stopped_by_clock": clocked,
        }
        return by_text[best]

    def _iterate(
        self, root: Node, public: Game, seat: int, root_actions: dict[str, Action], policy: Policy, advice: str | None
    ) -> None:
        game = determinize(public, seat, self.rng)
        results_before = len(game.results)
        path = [root]
        node = root
        depth = 0
        try:
            # Selection and expansion: stop at the end of the round or at a newly expanded node.
            while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
                actor = game.next_to_act()
                if depth == 0:
                    texts = [str(a) for a in game.legal_actions(actor)]
                    options = {t: root_actions[t] for t in texts if t in root_actions}
                    if not options:  # the determinization disagrees with the view; trust the view
                        options = dict(root_actions)
                else:
                    options = {str(a): a for a in game.legal_actions(actor)}
                untried = [text for text in options if text not in node.children]
                for text in options:
                    child = node.children.get(text)
                    if child is not None:
                        child.available += 1
                if untried:
                    if depth == 0 and advice in untried:
                        text = advice
                    else:
                        text = untried[self.rng.randrange(len(untried))]
                    child = Node(actor)
                    child.available = 1
                    node.children[text] = child
                    game.apply(options[text])
                    path.append(child)
                    break
                text = max(options, key=lambda t: node.children[t].ucb(self.exploration))
                node = node.children[text]
                game.apply(options[text])
                path.append(node)
                depth += 1
            # Rollout to the end of the round, or until the cap.
            steps = 0
            while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) and steps < self.max_rollout:
                actor = game.next_to_act()
                forced = game.legal_actions(actor) if game.phase is Phase.DRAW else []
                game.apply(forced[0] if len(forced) == 1 else policy(game, actor))
                steps += 1
        except RummyError:
            # The engine refused an action inside a determinization: score the state reached.
            self.engine_errors += 1
        rewards = round_rewards(game, results_before)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]
