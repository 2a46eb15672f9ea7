"""A linear softmax policy learned with ``examples/train_policy_gradient.py``, playing as the bot ``learned``.

The policy scores each legal move by ``weights · features(observation, move)`` and plays the best one
(or samples from the softmax while training).  Features are few and hand-built (:data:`FEATURES`): the
move's family (draw, take, buy, pass, discard, lay off, swap, move, purchase-card moves, the solver's
lay-down, another composite move), the family crossed with whether the seat is down and its hand size,
and for the card a move gives up or picks up its points, whether it is wild and how well it fits the
hand (copies of its rank, same-suit neighbours).  Everything comes from the seat's own observation vector
(:class:`rummy.features.Encoder`) and the move itself, so the bot sees only its view.

A move is described the same way whether it comes from an action id of the environment
(:func:`choice_of_id`, used in training) or from a :class:`~rummy.engine.actions.Action` of the view
(:func:`choices_of_view`, used in play): its family, its card, and for composite moves their rank among
the view's composite candidates (the order that numbers the environment's composite slots).

Needs numpy (the ``rl`` extra).  The policy file is a ``.npz`` holding the variant id, the player count,
the feature version and the weights; a file for another table or feature version is refused.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rummy.engine import (
    CARD_COUNT,
    COMPOSITE_VERBS,
    DEFAULT_COMPOSITE_SLOTS,
    Action,
    ActionSpace,
    BotError,
    PlayerView,
    Variant,
    Verb,
)
from rummy.features import PHASES, SEAT_FIELDS, Encoder, Scales, observation_layout

#: Changes whenever :func:`features` could mean something else for the same weights.
FEATURE_VERSION = 1

FAMILIES = ("draw", "take", "buy", "pass", "discard", "layoff", "swap", "move", "purchase", "lay_down",
            "composite")
_FAMILY_OF_VERB = {Verb.DRAW: "draw", Verb.TAKE: "take", Verb.BUY: "buy", Verb.PASS: "pass",
                   Verb.DISCARD: "discard", Verb.LAYOFF: "layoff", Verb.SWAP: "swap", Verb.MOVE: "move",
                   Verb.PURCHASE: "purchase", Verb.TRADE: "purchase", Verb.EXCHANGE: "purchase"}
#: Card features, for the card a discard gives up and the card a take or buy picks up.
CARD_FEATURES = ("points", "wild", "same_rank", "suit_neighbours_1", "suit_neighbours_2")
FEATURES = (tuple(f"family:{f}" for f in FAMILIES)
            + tuple(f"family:{f}*down" for f in FAMILIES)
            + tuple(f"family:{f}*hand_size" for f in FAMILIES)
            + tuple(f"discard:{c}" for c in CARD_FEATURES)
            + tuple(f"take:{c}" for c in CARD_FEATURES)
            + tuple(f"buy:{c}" for c in CARD_FEATURES)
            + ("layoff:wild", "layoff:points"))
_FAMILY_INDEX = {name: i for i, name in enumerate(FAMILIES)}
_FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}
FeatureMatrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal move as the features see it: its family, its card (if any) and a composite move's rank."""

    family: str
    card: int | None = None
    rank: int | None = None


def choice_of_action(action: Action, composite_rank: int | None) -> Choice:
    if action.verb in COMPOSITE_VERBS:
        return Choice("lay_down" if composite_rank == 0 else "composite", rank=composite_rank)
    card = action.card if action.verb in (Verb.DISCARD, Verb.LAYOFF, Verb.SWAP, Verb.MOVE, Verb.PURCHASE) else None
    return Choice(_FAMILY_OF_VERB[action.verb], card)


def choices_of_view(view: PlayerView, composite_slots: int) -> tuple[list[Action], list[Choice]]:
    """The view's legal moves that the environment numbers (composite moves beyond ``composite_slots`` are
    left out, as the environment's mask leaves them out), each with its :class:`Choice`."""
    actions: list[Action] = []
    choices: list[Choice] = []
    composites = 0
    for action in view.legal_actions:
        rank = None
        if action.verb in COMPOSITE_VERBS:
            if composites >= composite_slots:
                continue
            rank = composites
            composites += 1
        actions.append(action)
        choices.append(choice_of_action(action, rank))
    return actions, choices


def choice_of_id(space: ActionSpace, action_id: int) -> Choice:
    """The :class:`Choice` an id of ``space`` names (worked out from the numbering alone: no game needed)."""
    family = next(f for f in space.families if f.start <= action_id < f.stop)
    offset = action_id - family.start
    if family.verb == "composite":
        return Choice("lay_down" if offset == 0 else "composite", rank=offset)
    assert isinstance(family.verb, Verb)
    name = _FAMILY_OF_VERB[family.verb]
    if family.verb is Verb.DISCARD:
        return Choice(name, offset)
    if family.verb is Verb.PURCHASE:
        return Choice(name, offset // CARD_COUNT)
    if family.verb in (Verb.LAYOFF, Verb.SWAP, Verb.MOVE):
        ends = family.shape[2] if len(family.shape) == 3 else 1
        return Choice(name, (offset // ends) % CARD_COUNT)
    return Choice(name)


class FeatureMaker:
    """Turns an observation vector and the legal :class:`Choice` list into one feature row per choice."""

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        blocks = {block.name: block for block in observation_layout(players)}
        self.hand = blocks["hand"].start
        self.discard_top = blocks["discard_top"].start
        self.claim_card = blocks["claim_card"].start
        self.claim_phase = blocks["phase"].start + PHASES.index("claim")
        seats = blocks["seats"].start
        self.own_hand_size = seats + SEAT_FIELDS.index("hand_size")
        self.own_down = seats + SEAT_FIELDS.index("down")
        # the observation is scaled (version 2); the features read the raw counts, rounded back
        scales = Scales.of(variant, players)
        self.copies = float(scales.copies)
        self.pack = float(scales.pack)
        self.points = np.array([variant.points(c) for c in range(CARD_COUNT)], dtype=np.float64) / 50.0
        self.wild = np.array([variant.is_wild(c) for c in range(CARD_COUNT)], dtype=np.float64)

    def __call__(self, observation: npt.NDArray[np.float32], choices: Sequence[Choice]) -> FeatureMatrix:
        rows = np.zeros((len(choices), len(FEATURES)))
        hand = np.rint(observation[self.hand:self.hand + CARD_COUNT].astype(np.float64) * self.copies)
        down = float(observation[self.own_down])
        hand_size = float(np.rint(float(observation[self.own_hand_size]) * self.pack)) / 10.0
        offered = self._offered(observation)
        families = len(FAMILIES)
        for row, choice in zip(rows, choices, strict=True):
            family = _FAMILY_INDEX[choice.family]
            row[family] = 1.0
            row[families + family] = down
            row[2 * families + family] = hand_size
            if choice.family == "discard" and choice.card is not None:
                self._card_features(row, "discard", choice.card, hand, own=True)
            elif choice.family in ("take", "buy") and offered is not None:
                self._card_features(row, choice.family, offered, hand, own=False)
            elif choice.family == "layoff" and choice.card is not None:
                row[_FEATURE_INDEX["layoff:wild"]] = self.wild[choice.card]
                row[_FEATURE_INDEX["layoff:points"]] = self.points[choice.card]
        return rows

    def _offered(self, observation: npt.NDArray[np.float32]) -> int | None:
        """The card a take or buy would pick up: the claim window's card, else the top of the discard pile."""
        start = self.claim_card if observation[self.claim_phase] else self.discard_top
        hits = np.flatnonzero(observation[start:start + CARD_COUNT])
        return int(hits[0]) if hits.size else None

    def _card_features(self, row: FeatureMatrix, prefix: str, card: int, hand: FeatureMatrix, *, own: bool) -> None:
        start = _FEATURE_INDEX[f"{prefix}:points"]
        row[start] = self.points[card]
        row[start + 1] = self.wild[card]
        if card >= 52:
            return
        suit, rank = divmod(card, 13)
        same_rank = sum(hand[s * 13 + rank] for s in range(4)) - (1.0 if own else 0.0)
        near = [hand[suit * 13 + r] for r in (rank - 1, rank + 1) if 0 <= r < 13]
        far = [hand[suit * 13 + r] for r in (rank - 2, rank + 2) if 0 <= r < 13]
        row[start + 2] = same_rank / 2.0
        row[start + 3] = sum(near) / 2.0
        row[start + 4] = sum(far) / 2.0


def softmax(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    shifted = np.exp(scores - scores.max())
    probabilities: npt.NDArray[np.float64] = shifted / shifted.sum()
    return probabilities


# -- the policy file -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyFile:
    """What a policy file holds."""

    variant: str
    players: int
    weights: npt.NDArray[np.float64]
    feature_version: int = FEATURE_VERSION


def save_policy(path: str | Path, policy: PolicyFile) -> None:
    with open(path, "wb") as out:
        np.savez(out, variant=np.array(policy.variant), players=np.array(policy.players),
                 feature_version=np.array(policy.feature_version), weights=policy.weights.astype(np.float64))


def load_policy(path: str | Path) -> PolicyFile:
    """The policy in ``path``; a :class:`BotError` naming the file when it is missing, not a policy file,
    or made for other features."""
    try:
        with np.load(path, allow_pickle=False) as data:
            weights = np.asarray(data["weights"], dtype=np.float64)
            policy = PolicyFile(str(data["variant"]), int(data["players"]), weights, int(data["feature_version"]))
    except FileNotFoundError:
        raise BotError(f"learned: no policy file {str(path)!r}") from None
    except IsADirectoryError:
        raise BotError(f"learned: {str(path)!r} is a directory, not a policy file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise BotError(f"learned: {str(path)!r} is not a policy file (an .npz with variant, players, "
                       "feature_version and weights)") from None
    if policy.feature_version != FEATURE_VERSION:
        raise BotError(f"learned: {str(path)!r} has feature version {policy.feature_version}, "
                       f"this bot reads version {FEATURE_VERSION}")
    if policy.weights.shape != (len(FEATURES),) or not np.all(np.isfinite(policy.weights)):
        raise BotError(f"learned: {str(path)!r} holds {policy.weights.shape} weights, not {len(FEATURES)} finite ones")
    return policy


class LearnedBot:
    """Plays the greedy choice of a policy trained by ``examples/train_policy_gradient.py``."""

    name = "learned"
    needs_public_game = False

    def __init__(self, seed: int = 0, *, path: str = "") -> None:
        del seed  # the greedy choice is deterministic
        if not path:
            raise BotError("learned: give the policy file, e.g. learned:path=policy.npz")
        self.policy = load_policy(path)
        self.path = path
        self._tables: dict[tuple[str, int], tuple[Encoder, FeatureMaker]] = {}

    def choose(self, view: PlayerView) -> Action:
        if view.rules is None or view.seat is None:
            raise BotError("learned: the view has no rules or no seat")
        players = len(view.players)
        if view.rules.id != self.policy.variant or players != self.policy.players:
            raise BotError(f"learned: {self.path!r} is a policy for {self.policy.variant} with "
                           f"{self.policy.players} players, not {view.rules.id} with {players}")
        encoder, maker = self._table(view.rules, players)
        actions, choices = choices_of_view(view, DEFAULT_COMPOSITE_SLOTS)
        if not actions:
            raise BotError("learned: no legal move to choose from")
        scores = maker(encoder.encode(view), choices) @ self.policy.weights
        return actions[int(np.argmax(scores))]

    def _table(self, rules: Variant, players: int) -> tuple[Encoder, FeatureMaker]:
        key = (rules.id, players)
        if key not in self._tables:
            self._tables[key] = (Encoder(rules, players), FeatureMaker(rules, players))
        return self._tables[key]
