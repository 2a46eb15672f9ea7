"""A learned re-ranker over the ``heuristic`` bot's own candidate moves: the policy the ``learned`` bot ships.

At every decision where :meth:`HeuristicBot.candidates <rummy.bots.heuristic.HeuristicBot.candidates>` names
more than one move (its choice first, then the close alternatives it weighed: buy or pass, take or draw,
meld now or hold for rummy, the best discards), each candidate is scored by ``weights · features`` and the
best score is played.  The features (:data:`FEATURES`) describe the candidate (its kind, its place in the
heuristic's list, the card it gives up or picks up) crossed with the position (hand size, whether the seat
is down, how close the opponents are to going out, how far the round has gone), all read from the seat's
view.  The weight of ``rank:first`` (the heuristic's own choice) is a margin: the re-ranker leaves the
heuristic only where the other weights say an alternative is better by more than it, so with every other
weight 0 it plays exactly as ``heuristic``.

The weights are a regression of each alternative's advantage over the heuristic's choice, measured by
playing the rest of the round both ways (``bench/train_expert.py``, docs/learning.md).  A policy file is
an ``.npz`` with ``kind = "reranker"``, the variant id, the feature version, the weights, the candidates
considered (``limit``) and the heuristic's options as JSON.  Numpy only.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummy.bots.greedy import table_takes
from rummy.bots.heuristic import HeuristicBot
from rummy.engine import Action, BotError, Card, PlayerView, Variant, Verb, scoring_rule

#: Changes whenever :func:`candidate_features` could mean something else for the same weights.
FEATURE_VERSION = 1
KIND = "reranker"

KINDS = ("buy", "pass", "take", "draw", "discard", "meld", "other")
_KIND_OF_VERB = {Verb.BUY: "buy", Verb.PASS: "pass", Verb.TAKE: "take", Verb.DRAW: "draw", Verb.DISCARD: "discard",
                 Verb.MELD: "meld"}
#: The position, the same for every candidate of a decision (so it matters only crossed with a kind).
CONTEXT = ("bias", "hand_size", "down", "threat", "opponents_down", "elapsed", "round", "standing")
#: The card a discard gives up, or a take or buy picks up.
CARD = ("points", "wild", "same_rank", "suit_near", "suit_far", "fits_table")
RANKS = ("first", "second", "third")
FEATURES = (tuple(f"{kind}*{context}" for kind in KINDS for context in CONTEXT)
            + tuple(f"discard:{name}" for name in CARD)
            + tuple(f"discard:{name}*threat" for name in CARD)
            + tuple(f"pickup:{name}" for name in CARD)
            + tuple(f"rank:{name}" for name in RANKS))
FIRST = FEATURES.index("rank:first")
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_DISCARD = FEATURES.index("discard:points")
_DISCARD_THREAT = FEATURES.index("discard:points*threat")
_PICKUP = FEATURES.index("pickup:points")
_RANK = FEATURES.index("rank:first")
Matrix = npt.NDArray[np.float64]


def context_of(view: PlayerView, variant: Variant) -> list[float]:
    """The position's :data:`CONTEXT` values, from the seat's view."""
    me = view.seat if view.seat is not None else view.active
    players = len(view.players)
    others = [s for s in range(players) if s != me]
    fewest = min((view.hand_sizes[s] for s in others), default=10)
    pack = variant.pack_size(players)
    rounds = variant.round_count or 1
    totals = view.totals
    sign = 1.0 if scoring_rule(variant).higher_is_better else -1.0
    standing = 0.0
    if others and totals:
        standing = sign * (totals[me] - sum(totals[s] for s in others) / len(others)) / 100.0
    return [
        1.0,
        len(view.hand) / 10.0,
        1.0 if view.down[me] else 0.0,
        1.0 / max(1, fewest),
        sum(1 for s in others if view.down[s]) / max(1, len(others)),
        max(0.0, 1.0 - view.stock_count / max(1, pack)),
        (view.round - 1) / max(1, rounds - 1) if rounds > 1 else 0.0,
        max(-3.0, min(3.0, standing)),
    ]


def _card_values(row: Matrix, start: int, card: Card, view: PlayerView, variant: Variant,
                 takes: frozenset[Card], *, own: bool, scale: float = 1.0) -> None:
    hand = view.hand
    row[start] = scale * min(variant.points(card), 50) / 10.0
    row[start + 1] = scale * (1.0 if variant.is_wild(card) else 0.0)
    if card < 52:
        suit, rank = divmod(card, 13)
        same = sum(1 for c in hand if c < 52 and c % 13 == rank) - (1 if own else 0)
        near = sum(1 for c in hand if c < 52 and c // 13 == suit and abs(c % 13 - rank) == 1)
        far = sum(1 for c in hand if c < 52 and c // 13 == suit and abs(c % 13 - rank) == 2)
        row[start + 2] = scale * same / 2.0
        row[start + 3] = scale * near / 2.0
        row[start + 4] = scale * far / 2.0
    row[start + 5] = scale * (1.0 if card in takes else 0.0)


def candidate_features(view: PlayerView, candidates: Sequence[Action]) -> Matrix:
    """One :data:`FEATURES` row per candidate (the heuristic's order: its choice first)."""
    variant = view.rules
    if variant is None:
        raise BotError("learned: the view has no rules")
    context = context_of(view, variant)
    threat = context[CONTEXT.index("threat")]
    rows = np.zeros((len(candidates), len(FEATURES)))
    takes: frozenset[Card] | None = None
    offered = view.claim_card if view.claim_card is not None else (view.discard[-1] if view.discard else None)
    width = len(CONTEXT)
    for index, (row, action) in enumerate(zip(rows, candidates, strict=True)):
        kind = _KIND_INDEX[_KIND_OF_VERB.get(action.verb, "other")]
        row[kind * width:(kind + 1) * width] = context
        if index < len(RANKS):
            row[_RANK + index] = 1.0
        if action.verb is Verb.DISCARD and action.card is not None:
            if takes is None:
                takes = table_takes(view.table, variant)
            _card_values(row, _DISCARD, action.card, view, variant, takes, own=True)
            _card_values(row, _DISCARD_THREAT, action.card, view, variant, takes, own=True, scale=threat)
        elif action.verb in (Verb.TAKE, Verb.BUY) and offered is not None:
            if takes is None:
                takes = table_takes(view.table, variant)
            _card_values(row, _PICKUP, offered, view, variant, takes, own=False)
    return rows


# -- the policy file -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Reranker:
    """What a re-ranker policy file holds."""

    variant: str
    weights: Matrix
    limit: int = 3
    options: dict[str, Any] = field(default_factory=dict)
    feature_version: int = FEATURE_VERSION

    @classmethod
    def heuristic(cls, variant: str, margin: float = 1.0) -> Reranker:
        """The policy that plays exactly as ``heuristic``: every weight 0 but the margin."""
        weights = np.zeros(len(FEATURES))
        weights[FIRST] = margin
        return cls(variant, weights)


def save_reranker(path: str | Path, policy: Reranker) -> None:
    with open(path, "wb") as out:
        np.savez(out, kind=np.array(KIND), variant=np.array(policy.variant), limit=np.array(policy.limit),
                 feature_version=np.array(policy.feature_version), options=np.array(json.dumps(policy.options)),
                 features=np.array(FEATURES), weights=policy.weights.astype(np.float64))


def is_reranker(path: str | Path) -> bool:
    """Whether ``path`` is a re-ranker policy file (rather than a linear policy of :mod:`rummy.bots.learned`)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return "kind" in data.files and str(data["kind"]) == KIND
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return False


def load_reranker(path: str | Path) -> Reranker:
    """The re-ranker in ``path``; a :class:`BotError` naming the file when it is not one this code reads."""
    try:
        with np.load(path, allow_pickle=False) as data:
            weights = np.asarray(data["weights"], dtype=np.float64)
            options = json.loads(str(data["options"]))
            policy = Reranker(str(data["variant"]), weights, int(data["limit"]), dict(options),
                              int(data["feature_version"]))
    except FileNotFoundError:
        raise BotError(f"learned: no policy file {str(path)!r}") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise BotError(f"learned: {str(path)!r} is not a re-ranker policy file") from None
    if policy.feature_version != FEATURE_VERSION:
        raise BotError(f"learned: {str(path)!r} has re-ranker feature version {policy.feature_version}, "
                       f"this bot reads version {FEATURE_VERSION}")
    if policy.weights.shape != (len(FEATURES),) or not np.all(np.isfinite(policy.weights)):
        raise BotError(f"learned: {str(path)!r} holds {policy.weights.shape} weights, not {len(FEATURES)} finite ones")
    if policy.limit < 1:
        raise BotError(f"learned: {str(path)!r} considers {policy.limit} candidates")
    return policy


class RerankBot:
    """Plays a :class:`Reranker`: the heuristic's candidates, the best by the weights (ties: the heuristic's)."""

    name = "learned"
    needs_public_game = False

    def __init__(self, policy: Reranker, seed: int = 0) -> None:
        self.policy = policy
        try:
            self.heuristic = HeuristicBot(seed, **policy.options)
        except TypeError as error:
            raise BotError(f"learned: bad heuristic options in the policy: {error}") from None
        self.decisions = 0
        self.changed = 0  # decisions where the re-ranker left the heuristic's choice

    def choose(self, view: PlayerView) -> Action:
        candidates = self.heuristic.candidates(view, self.policy.limit)
        if len(candidates) == 1:
            return candidates[0]
        scores = candidate_features(view, candidates) @ self.policy.weights
        best = int(np.argmax(scores))
        self.decisions += 1
        if best:
            self.changed += 1
        return candidates[best]
