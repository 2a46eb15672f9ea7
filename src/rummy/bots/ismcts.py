"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

:class:`IsmctsBot` plans from ``view.public_game``, the redacted copy of the game that the driver
passes to a bot with ``needs_public_game = True``; it never sees the real game.

**Root candidates.**  The rollout bot (``heuristic`` by default) is asked, on the seat's real view, for
its choice and its closest alternatives (``HeuristicBot.candidates``: ranked discards; buy or pass and
take or draw when the card would help; otherwise its choice alone).  A decision with one candidate is
answered at once, so the search spends its budget where the heuristic is unsure.  With random
rollouts every legal action is a candidate.

**Batches.**  The search runs in batches; a batch is one iteration per root candidate on the *same*
determinization with the *same* rollout bots (common random numbers), so two candidates' rewards
differ by the action and not by the guessed cards.  One iteration:

1. **Determinize**: deal the cards the seat cannot see (:func:`rummy.search.determinize.determinize`), giving
   a complete game consistent with everything the seat has seen, including the whole discard pile and
   the cards each opponent was seen to take from it.  An opponent model (``kept_draws``) deals each
   opponent extra cards per turn it has had and gives back the least useful, since a player keeps what
   helps it (a uniform deal underrates how far on the others are).  With ``exclude_missed_plays`` a
   hand with which its holder would have laid down or gone out on its last turn is dealt again.
2. **Select**: play the batch's root candidate; below the root, among the actions legal *in this
   determinization*, pick by UCB1 with availability counts (an edge's exploration term uses how often
   it was available, not its parent's visits).  Actions are keyed by their record text
   (``str(action)``), so ``p1 draw`` is one edge whatever card the stock hides.  Every seat's decisions
   are in the tree, each chosen for the reward of the seat that makes it.
3. **Expand** one action: the rollout policy's own move first, further moves (at random) only as the
   node's visits grow (progressive widening: at most ``1 + widening × √visits`` children), so a small
   budget is not spent on random moves right after the root.  Then **roll out** with the rollout policy
   to the end of the current round (rounds are independent apart from the totals), or for at most
   ``max_rollout`` decisions, after which the state is scored as if the round had stopped there (by
   hand points).  Rollout bots are made afresh for every iteration and see the determinized game
   through :func:`rummy.bots.decide`, so no memory of one guess leaks into another.
4. **Back up** a reward in [0, 1] for every seat: ``reward="round"`` judges the round on its own
   (:func:`rummy.bots.rewards.round_rewards`), ``reward="game"`` by the seat's estimated chance of
   winning the game (:func:`rummy.bots.rewards.game_rewards`).

**Vote.**  The rollout bot's choice stands unless an alternative beats it on the batch-by-batch
reward differences by ``confidence`` standard errors; with random rollouts the best mean wins.  A
search too small to tell the moves apart therefore plays the heuristic's move rather than noise.
Where the search is measurably right or wrong about one kind of move, ``confidence_by_verb`` sets the
standard errors for alternatives of that verb (``inf``: they are not searched at all).

>>> from rummy.bots import make_bot, play_game
>>> bots = [make_bot("ismcts", seed=1, simulations=4, rollout="random", max_rollout=20), make_bot("random", seed=2)]
>>> play_game("purchase", bots, seed=3).game_over
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rummy.bots.inference import missed_play_check
from rummy.bots.rewards import game_rewards, round_rewards
from rummy.engine import Action, BotError, Game, Phase, PlayerView, RummyError, UsageError, Variant, Verb
from rummy.search.determinize import determinize
from rummy.search.playout import random_choice

if TYPE_CHECKING:
    from rummy.bots import Bot

#: The default budget, when neither ``simulations`` nor ``time_ms`` is given: iterations per decision by
#: variant family (``Variant.id_base``), measured with ``python bench/ismcts.py speed`` so that every
#: variant answers within one second per decision on a 2-core machine with heuristic rollouts.
#: A larger budget buys little where the search barely improves on the heuristic: in progressive-15 at
#: 256 iterations (8×, over a second a decision) its overrides of the heuristic gained +0.0047 round
#: reward each (se 0.0033; 243 of 2,624 decisions, ``python bench/overrides.py --variant progressive-15
#: --games 12 --option confidence=1 --option simulations=256``), against −0.0025 (se 0.0028) at 32.
DEFAULT_SIMULATIONS: dict[str, int] = {
    "progressive-buy-it": 24,
    "progressive-15": 32,
    "may-i": 40,
    "basic": 28,
    "purchase": 12,
}
#: Iterations for a variant family not in :data:`DEFAULT_SIMULATIONS`.
DEFAULT_SIMULATIONS_OTHER = 24
#: A wall-clock ceiling of the default budget only, a safety net on a loaded machine or a slow position:
#: it stops the search early (the answer then depends on timing).  An explicit budget has no ceiling.
DEFAULT_CEILING_MS = 800.0
#: Rollout decisions after which the state is scored by hand points, by variant family.  A rollout
#: to the round's end judges a progressive-buy-it round better than hand points at a cut (a round of
#: heuristic players takes ~160 decisions; cut at 60 the search lost to the heuristic), while in may-i
#: the cut at 60 measured best (python bench/ismcts.py strength, against three heuristic bots: 39.7%
#: win share over 112 games, against 26.8% over 56 with rollouts to the round's end).  In
#: progressive-15 the cut at 60 (with confidence 1.0) measured no gain: 28.6% over 70 games, the
#: heuristic in the same seats 29.3% (paired −0.7 points, 95% CI −12.4 … +11.0).
DEFAULT_MAX_ROLLOUT: dict[str, int] = {"may-i": 60}
#: The cap for the other variant families: a safety net, rounds end well before it.
DEFAULT_MAX_ROLLOUT_OTHER = 400
#: UCB1 exploration constant (rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: Root candidates asked of the rollout bot (its choice and its closest alternatives).
DEFAULT_WIDTH = 3
#: Progressive widening below the root: a node visited ``v`` times holds at most ``1 + widening × √v``
#: children, the rollout policy's move first.
DEFAULT_WIDENING = 0.25
#: The opponent model of the determinizations (:func:`rummy.search.determinize.determinize`'s ``kept_draws``):
#: extra cards per turn an opponent is dealt before giving back the least useful, by variant family.
#: Calibrated with ``python bench/determinize.py``: the guessed hands of heuristic opponents then hold
#: about as many cards in complete melds as their real hands (a uniform deal: a fifth to a half as many).
#: In ``basic`` 1.5 with :data:`DEFAULT_EXCLUDE_MISSED_PLAYS`: see there.
DEFAULT_KEPT_DRAWS: dict[str, float] = {
    "progressive-buy-it": 1.0,
    "progressive-15": 1.0,
    "may-i": 1.0,
    "basic": 1.5,
    "purchase": 2.0,
}
#: How strongly the opponent model keeps out of a guessed hand the cards its holder's discards would
#: have suited (``discard_weight``).  With ``python bench/determinize.py`` in basic, a guessed hand
#: shares 1.73 cards with the real one when dealt uniformly, 1.89 with ``kept_draws`` 1 alone, and
#: 2.02 / 2.00 with a discard weight of 0.5 / 1.0 as well.
DEFAULT_DISCARD_WEIGHT = 1.0
#: How strongly it keeps out the cards that the discards its holder left for the stock would have suited
#: (``declined_weight``).  Off by default: in basic (``python bench/determinize.py --games 60``, 486 hands)
#: a weight of 1 lifts the cards a guess shares with the real hand from 2.11 to 2.21 (2.22 with
#: ``kept_draws`` 1.5), yet the search's overrides are no better for it (``python bench/overrides.py
#: --games 60 --until game --option confidence=1``, judged on the real cards by the game's end: all
#: overrides −0.030 (se 0.011) over 242 without it, −0.019 (se 0.009) over 222 with it and ``kept_draws``
#: 1.5; melding where the heuristic holds back loses either way, −0.082 and −0.061).
DEFAULT_DECLINED_WEIGHT = 0.0
#: Whether the opponent model deals again a guessed hand with which its holder would have laid down its
#: contract or gone out on its last turn (``exclude_missed_plays``, :mod:`rummy.bots.inference`; not in
#: ``purchase``), by variant family.  In ``basic`` what the search lacks is who is about to go out: a
#: search that sees the real hands (``python bench/ismcts.py strength --clairvoyant``) wins 29.7% against
#: the heuristic's 22.7% in the same seat (300 deals, paired +7.0 points, 95% CI +3.1 … +10.9), its
#: overrides mostly melding where the heuristic holds back for rummy.  Real opponents are one card from
#: going out 16% of the time, guesses with ``kept_draws`` 1 only 10% (2.4% could even have gone out
#: already); with the check and ``kept_draws`` 1.5 about 15%.  Against three heuristic bots, paired with
#: the heuristic in the same seat: the check alone +0.0 points (300 deals), with ``kept_draws`` 1.5 +1.8
#: (600 deals, 95% CI +0.0 … +3.6), where the old default measured −0.7 (−1.6 … +0.2) over 2,000.
#: In the contract variants the check rules out many guesses (may-i: 17.8% of not-down opponents' guessed
#: hands held their contract with their last discard; progressive-15 7%) but changed nothing measurable
#: (progressive-15, ``python bench/overrides.py --games 12 --option confidence=1``: overrides −0.0025
#: round reward, se 0.0028; clairvoyant +0.0042, se 0.0029), so it stays off there.
DEFAULT_EXCLUDE_MISSED_PLAYS: dict[str, bool] = {"basic": True}
#: Standard errors by which an alternative must beat the rollout bot's choice (paired by batch), by
#: variant family.  In ``basic`` the search's overrides lost to the heuristic at 1.0 (python
#: bench/ismcts.py strength: 20.6% win share over 296 games against three heuristic bots), so there it
#: overrules the heuristic only when it is very sure; in ``progressive-15`` 2.0 (25.9% over 83 games,
#: 21.7% over 23 at 1.0: neither shows the search ahead there, so it overrules only on firmer evidence).
DEFAULT_CONFIDENCE: dict[str, float] = {"basic": 3.0, "progressive-15": 2.0}
#: Where the kind of an alternative (its verb) calls for another ``confidence`` than the variant's, by
#: variant family (``confidence_by_verb``; ``inf``: never overrule for that kind).  None by default:
#: in ``basic``, ``python bench/overrides.py`` (each override of the heuristic judged by playouts of the
#: round on the real cards) found that at confidence 1.0 melding where the heuristic held back for rummy
#: gained +0.057 round reward (se 0.016) and taking the discard where it drew lost 0.038 (se 0.015),
#: yet ``{"meld": 1.0, "take": inf}`` lost games (python bench/ismcts.py strength, the same 198 deals:
#: 16.7% against 24.7%): a round won early is worth less than one won with rummy's double points, which
#: a round reward does not see once the win alone clears the target.  Judged by the game's end
#: instead (``--until game``, 30 games, 112 overrides at confidence 1.0) no kind gains: all −0.011
#: win share (se 0.011), melding instead of holding back +0.010 (se 0.025), taking instead of drawing
#: −0.024 (se 0.023), so basic keeps its high ``confidence`` and no per-verb exception.
DEFAULT_CONFIDENCE_BY_VERB: dict[str, dict[str, float]] = {}
#: Batches below which the rollout bot's choice stands whatever the rewards (the standard error of
#: two or three paired differences is itself a guess).
MIN_BATCHES_TO_OVERRULE = 4
#: The confidence for the other variant families.
DEFAULT_CONFIDENCE_OTHER = 1.0
#: What a rollout's end is judged by, by variant family (``reward``): ``round`` (the round's score
#: against the others') or ``game`` (the estimated chance of winning the game).  ``game`` measured no
#: better (python bench/ismcts.py strength, against three heuristic bots, the same deals): may-i 40.6%
#: against 39.7% over 112 games, basic 15.5% against 21.1% over 71, so ``round`` stays the default.
DEFAULT_REWARD: dict[str, str] = {}
#: The reward for the other variant families.
DEFAULT_REWARD_OTHER = "round"
#: The reward judges, by name.
REWARDS = {"round": round_rewards, "game": game_rewards}
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

    def widest(self) -> int:
        """The most children of any node in the subtree rooted here."""
        return max([len(self.children)] + [child.widest() for child in self.children.values()])

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


@dataclass(frozen=True)
class SearchSettings:
    """The effective settings of an :class:`IsmctsBot` in one variant (see its options)."""

    simulations: int | None
    time_ms: float | None
    rollout: str
    max_rollout: int
    exploration: float
    width: int
    widening: float
    confidence: float
    confidence_by_verb: dict[str, float] = field(hash=False)
    kept_draws: float
    discard_weight: float
    declined_weight: float
    exclude_missed_plays: bool
    reward: str


def default_simulations(variant: Variant) -> int:
    """Iterations per decision of the default budget in ``variant`` (house variants: their base game).

    >>> from rummy.engine import get_variant
    >>> default_simulations(get_variant("may-i", {"may_i_limit": 5})) == DEFAULT_SIMULATIONS["may-i"]
    True
    """
    return DEFAULT_SIMULATIONS.get(variant.id_base, DEFAULT_SIMULATIONS_OTHER)


def _check_confidence_by_verb(confidence_by_verb: Mapping[str, float]) -> None:
    if not isinstance(confidence_by_verb, Mapping):
        raise BotError(f"confidence_by_verb must map verbs to confidences, not {confidence_by_verb!r}")
    verbs = {verb.value for verb in Verb}
    for verb, confidence in confidence_by_verb.items():
        if verb not in verbs:
            raise BotError(f"confidence_by_verb: unknown verb {verb!r} (known: {', '.join(sorted(verbs))})")
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not confidence >= 0:
            raise BotError(f"confidence_by_verb: the confidence for {verb!r} must be a number ≥ 0, "
                             f"not {confidence!r}")


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

    Options: ``max_rollout`` (decisions before a rollout is cut and scored by hand points; default
    :data:`DEFAULT_MAX_ROLLOUT` by variant),
    ``exploration`` (UCB1 constant below the root), ``width`` (root candidates asked of the rollout
    bot; 0: every legal action), ``confidence`` (standard errors by which an alternative must beat the
    rollout bot's choice; default :data:`DEFAULT_CONFIDENCE` by variant), ``confidence_by_verb`` (the
    confidence for alternatives of the verbs it names, ``{"meld": 1.0}``; default
    :data:`DEFAULT_CONFIDENCE_BY_VERB` by variant, ``{}`` for none), ``widening`` (children
    below the root, see the module docstring; default :data:`DEFAULT_WIDENING`), ``kept_draws``,
    ``discard_weight``, ``declined_weight`` and ``exclude_missed_plays`` (the opponent model; defaults
    :data:`DEFAULT_KEPT_DRAWS` by variant, :data:`DEFAULT_DISCARD_WEIGHT`, :data:`DEFAULT_DECLINED_WEIGHT`
    and :data:`DEFAULT_EXCLUDE_MISSED_PLAYS` by variant), ``reward`` (``round``
    or ``game``, see the module docstring; default :data:`DEFAULT_REWARD` by variant).  A budget of
    ``simulations`` iterations is spent in whole batches.
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
        max_rollout: int | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        width: int = DEFAULT_WIDTH,
        confidence: float | None = None,
        confidence_by_verb: Mapping[str, float] | None = None,
        widening: float = DEFAULT_WIDENING,
        kept_draws: float | None = None,
        discard_weight: float = DEFAULT_DISCARD_WEIGHT,
        declined_weight: float = DEFAULT_DECLINED_WEIGHT,
        exclude_missed_plays: bool | None = None,
        reward: str | None = None,
        **options: object,
    ) -> None:
        if options:
            raise TypeError(f"unknown ismcts option(s): {', '.join(sorted(options))}")
        if simulations is not None and simulations < 1:
            raise BotError("simulations must be at least 1")
        if time_ms is not None and time_ms <= 0:
            raise BotError("time_ms must be positive")
        if width < 0:
            raise BotError("width must be 0 (every legal action) or more")
        if confidence is not None and confidence < 0:
            raise BotError("confidence must not be negative")
        if confidence_by_verb is not None:
            _check_confidence_by_verb(confidence_by_verb)
        if max_rollout is not None and max_rollout < 0:
            raise BotError("max_rollout must not be negative")
        if widening < 0:
            raise BotError("widening must not be negative")
        if kept_draws is not None and kept_draws < 0:
            raise BotError("kept_draws must not be negative")
        if discard_weight < 0 or declined_weight < 0:
            raise BotError("discard_weight and declined_weight must not be negative")
        if reward is not None and reward not in REWARDS:
            raise BotError(f"unknown reward {reward!r} (known: {', '.join(REWARDS)})")
        #: True when the bot plays at the default budget (:data:`DEFAULT_SIMULATIONS` with a ceiling).
        self.default_budget = simulations is None and time_ms is None
        self.ceiling_ms = DEFAULT_CEILING_MS if self.default_budget else None
        self.simulations = simulations
        self.time_ms = time_ms
        self.max_rollout = max_rollout
        self.exploration = exploration
        self.width = width
        self.confidence = confidence
        self.confidence_by_verb = dict(confidence_by_verb) if confidence_by_verb is not None else None
        self.widening = widening
        self.kept_draws = kept_draws
        self.discard_weight = discard_weight
        self.declined_weight = declined_weight
        self.exclude_missed_plays = exclude_missed_plays
        self.reward = reward
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

    def settings(self, variant: Variant) -> SearchSettings:
        """The settings this bot searches ``variant`` with, defaults resolved (for logs and reports).

        >>> from rummy.engine import get_variant
        >>> IsmctsBot(simulations=10).settings(get_variant("basic")).confidence
        3.0
        """
        family = variant.id_base
        confidence = self.confidence
        if confidence is None:
            confidence = DEFAULT_CONFIDENCE.get(family, DEFAULT_CONFIDENCE_OTHER)
        return SearchSettings(
            simulations=default_simulations(variant) if self.default_budget else self.simulations,
            time_ms=self.time_ms if self.time_ms is not None else self.ceiling_ms,
            rollout=self.rollout,
            max_rollout=self.max_rollout if self.max_rollout is not None
            else DEFAULT_MAX_ROLLOUT.get(family, DEFAULT_MAX_ROLLOUT_OTHER),
            exploration=self.exploration,
            width=self.width,
            widening=self.widening,
            confidence=confidence,
            confidence_by_verb=dict(self.confidence_by_verb if self.confidence_by_verb is not None
                                    else DEFAULT_CONFIDENCE_BY_VERB.get(family, {})),
            kept_draws=self.kept_draws if self.kept_draws is not None else DEFAULT_KEPT_DRAWS.get(family, 0.0),
            discard_weight=self.discard_weight,
            declined_weight=self.declined_weight,
            exclude_missed_plays=self.exclude_missed_plays if self.exclude_missed_plays is not None
            else DEFAULT_EXCLUDE_MISSED_PLAYS.get(family, False),
            reward=self.reward if self.reward is not None else DEFAULT_REWARD.get(family, DEFAULT_REWARD_OTHER),
        )

    @staticmethod
    def _resolve_rollout(rollout: str) -> str:
        if rollout == "ismcts":
            raise BotError("ismcts cannot be its own rollout policy")
        if rollout not in ROLLOUT_FALLBACK:
            raise BotError(f"unknown rollout policy {rollout!r} (known: {', '.join(ROLLOUT_FALLBACK)})")
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

    def _policy(self, seeds: list[int]) -> Policy:
        """The rollout policy for one iteration: fresh bots with the given seeds, so no memory leaks
        between determinizations and every candidate of a batch meets the same opponents."""
        if self.rollout == "random":
            rng = random.Random(seeds[0])

            def policy(game: Game, seat: int) -> Action:
                return random_choice(game.legal_actions(seat), rng)

            return policy
        from rummy.bots import make_bot

        policies = [_bot_policy(make_bot(self.rollout, seed=seed)) for seed in seeds]
        return lambda game, seat: policies[seat](game, seat)

    # -- search ---------------------------------------------------------------------------------

    def _root_candidates(self, view: PlayerView) -> list[Action]:
        """The root actions to search: the rollout bot's choice and close alternatives, or all."""
        advisor = self._get_advisor()
        if advisor is None:
            return list(view.legal_actions)
        candidates = getattr(advisor, "candidates", None)
        if candidates is None or self.width <= 0:
            return [advisor.choose(view)] + [a for a in view.legal_actions]
        return list(candidates(view, self.width))

    def _get_advisor(self) -> Bot | None:
        """The rollout bot that sees this seat's real views (None with random rollouts)."""
        if self.rollout == "random":
            return None
        if self._advisor is None:
            from rummy.bots import make_bot

            self._advisor = make_bot(self.rollout, seed=self.seed)
        return self._advisor

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise UsageError("no legal action to choose from")
        if len(legal) == 1:
            self.last_search = {"iterations": 0, "ms": 0.0, "visits": {}, "advice": None, "stopped_by_clock": False}
            return legal[0]
        public = view.public_game
        seat = view.seat
        if not isinstance(public, Game) or seat is None:
            raise UsageError("ismcts needs view.public_game (the driver passes it when needs_public_game is set)")
        started = time.perf_counter()
        candidates = self._root_candidates(view)
        advice = str(candidates[0]) if self._advisor is not None else None
        settings = self.settings(public.variant)
        by_text: dict[str, Action] = {}
        confidence: dict[str, float] = {}
        for action in candidates:
            text = str(action)
            required = settings.confidence_by_verb.get(action.verb.value, settings.confidence)
            if text not in by_text and (text == advice or advice is None or not math.isinf(required)):
                by_text[text] = action  # an alternative that may never overrule is not searched
                confidence[text] = required
        if len(by_text) == 1:
            self.last_search = {"iterations": 0, "ms": 0.0, "visits": {}, "advice": advice, "stopped_by_clock": False}
            return candidates[0]
        simulations = settings.simulations
        deadline = None if settings.time_ms is None else started + settings.time_ms / 1000.0
        root = Node(-1)
        rewards: dict[str, list[float]] = {text: [] for text in by_text}
        iterations = 0
        slowest = 0.0
        clocked = False
        while not clocked and (simulations is None or iterations < simulations):
            # One batch: every root candidate on the same determinization with the same rollout bots,
            # so that their rewards differ by the action rather than by the deal (common random numbers).
            begun = time.perf_counter()
            world = self._deal(public, seat, settings)
            seeds = [self._bot_seeds.randrange(2**31) for _ in range(public.n)]
            for text in by_text:
                rewards[text].append(self._iterate(root, world.clone(), seat, text, by_text, self._policy(seeds),
                                                   settings))
            iterations += len(by_text)
            if deadline is not None:
                now = time.perf_counter()
                slowest = max(slowest, now - begun)
                clocked = now + slowest >= deadline  # stop if another batch as slow as the slowest would overrun
        best = self._vote(rewards, advice, confidence)
        self.last_search = {
            "iterations": iterations,
            "ms": (time.perf_counter() - started) * 1000.0,
            "visits": {text: node.visits for text, node in root.children.items()},
            "mean_reward": {text: sum(r) / len(r) for text, r in rewards.items()},
            "advice": advice,
            "stopped_by_clock": clocked,
            "widest_below_root": max((child.widest() for child in root.children.values()), default=0),
        }
        return by_text[best]

    def _deal(self, public: Game, seat: int, settings: SearchSettings) -> Game:
        """One determinization of ``public`` for ``seat``: the hidden cards dealt by the opponent model."""
        check = missed_play_check(public.variant) if settings.exclude_missed_plays else None
        return determinize(public, seat, self.rng, kept_draws=settings.kept_draws,
                           discard_weight=settings.discard_weight, declined_weight=settings.declined_weight,
                           missed_play=check)

    @staticmethod
    def _vote(rewards: dict[str, list[float]], advice: str | None, confidence: dict[str, float]) -> str:
        """The candidate to play: the advice unless another beats it clearly, batch by batch.

        Without advice (random rollouts), the best mean reward.  With advice, an alternative must beat
        it on the paired differences by its ``confidence`` standard errors (and the best such one wins),
        over at least :data:`MIN_BATCHES_TO_OVERRULE` batches.
        """
        if advice is None:
            return max(rewards, key=lambda text: sum(rewards[text]) / len(rewards[text]))
        base = rewards[advice]
        if len(base) < MIN_BATCHES_TO_OVERRULE:  # too few pairs to estimate their spread
            return advice
        best, best_score = advice, 0.0
        for text, values in rewards.items():
            if text == advice:
                continue
            diffs = [v - b for v, b in zip(values, base, strict=True)]
            count = len(diffs)
            mean = sum(diffs) / count
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1)) if count > 1 else math.inf
            score = mean - confidence[text] * spread / math.sqrt(count)
            if score > best_score:
                best, best_score = text, score
        return best

    def _iterate(self, root: Node, game: Game, seat: int, first: str, root_actions: dict[str, Action],
                 policy: Policy, settings: SearchSettings) -> float:
        """One iteration from ``game`` (a determinization) starting with root action ``first``.

        Below the root the tree policy is UCB1 with availability counts; then a rollout.  Returns
        ``seat``'s reward.
        """
        results_before = len(game.results)
        path = [root]
        node = root
        try:
            child = root.children.get(first)
            for text in root_actions:
                if text in root.children:
                    root.children[text].available += 1
            if child is None:
                child = root.children[first] = Node(seat)
                child.available = 1
            game.apply(root_actions[first])
            path.append(child)
            node = child
            expanded = False
            # Selection and expansion: stop at the end of the round or at a newly expanded node.
            while not expanded and game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
                actor = game.next_to_act()
                options = {str(a): a for a in game.legal_actions(actor)}
                tried = 0
                for text in options:
                    known = node.children.get(text)
                    if known is not None:
                        known.available += 1
                        tried += 1
                if tried < len(options) and tried < 1 + self.widening * math.sqrt(node.visits):
                    # Expand: the rollout policy's own move first, then untried moves at random.
                    text = str(policy(game, actor)) if not tried else ""
                    if text not in options or text in node.children:
                        untried = [t for t in options if t not in node.children]
                        text = untried[self.rng.randrange(len(untried))]
                    fresh = Node(actor)
                    fresh.available = 1
                    node.children[text] = fresh
                    game.apply(options[text])
                    path.append(fresh)
                    expanded = True
                    continue
                text = max((t for t in options if t in node.children),
                           key=lambda t: node.children[t].ucb(self.exploration))
                node = node.children[text]
                game.apply(options[text])
                path.append(node)
            # Rollout to the end of the round, or until the cap.
            steps = 0
            while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) and steps < settings.max_rollout:
                actor = game.next_to_act()
                forced = game.legal_actions(actor) if game.phase is Phase.DRAW else []
                game.apply(forced[0] if len(forced) == 1 else policy(game, actor))
                steps += 1
        except RummyError:
            # The engine refused an action inside a determinization: score the state reached.
            self.engine_errors += 1
        rewards = REWARDS[settings.reward](game, results_before)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]
        return rewards[seat]
