"""Checking a round's shuffle: its ``x-shuffle`` entry in a record, and the verdict on it.

A round's entry (docs/game-record.md §3, docs/fair-shuffle.md) holds the ``commitment`` published
before play and, once the round is over, the ``seed`` and ``salt`` revealed.  :func:`check_round`
gives the verdict ``rummy replay`` prints:

* ``verified``: the commitment is the SHA-256 of the revealed seed and salt, and the engine's deal from
  that seed (same dealer, same pack) is exactly the deal of the record;
* ``unverifiable``: no commitment, or a commitment whose seed and salt are not revealed (yet);
* ``mismatched``: anything else (a wrong hash, another deal, a badly spelled entry).

>>> from rummy.engine import Game
>>> from rummy.engine import get_variant
>>> secret = ShuffleSecret("12" * 16, "34" * 16)
>>> before = Game(get_variant("basic"), 2)
>>> played = before.copy()
>>> played.deal(dealer=0, shuffle=secret)
>>> entry = claim_data(secret, revealed=True)
>>> check_round(before, played, read_claim(entry), 1)["status"]
'verified'
>>> entry["salt"] = "56" * 16
>>> check_round(before, played, read_claim(entry), 1)["reason"]
'the commitment is not the SHA-256 of the revealed seed and salt'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummy.engine import DealError, Game, ShuffleFormatError, ShuffleSecret, card_names, check_digest, check_secret

#: The round key of a record that carries the shuffle (an ``x-`` key: readers that predate it skip it).
ROUND_KEY = "x-shuffle"
CLAIM_KEYS = ("commitment", "seed", "salt")


@dataclass(frozen=True)
class ShuffleClaim:
    """A round's ``x-shuffle`` entry as read: the commitment, the reveal if any, or what is wrong."""

    commitment: str | None
    secret: ShuffleSecret | None = None
    problem: str | None = None


def read_claim(value: Any) -> ShuffleClaim:
    """The claim of an ``x-shuffle`` value; a badly spelled one comes back with its ``problem``."""
    if not isinstance(value, dict):
        return ShuffleClaim(None, problem="x-shuffle must be an object")
    unknown = sorted(key for key in value if key not in CLAIM_KEYS)
    if unknown:
        return ShuffleClaim(None, problem=f"unknown key {unknown[0]!r} in x-shuffle")
    try:
        commitment = check_digest(value.get("commitment"))
        if "seed" not in value and "salt" not in value:
            return ShuffleClaim(commitment)
        if "seed" not in value or "salt" not in value:
            raise ShuffleFormatError("a reveal needs both the seed and the salt")
        secret = ShuffleSecret(check_secret(value["seed"], "seed"), check_secret(value["salt"], "salt"))
    except ShuffleFormatError as error:
        return ShuffleClaim(None, problem=str(error))
    return ShuffleClaim(commitment, secret)


def claim_data(secret: ShuffleSecret, *, revealed: bool) -> dict[str, str]:
    """The ``x-shuffle`` entry of a round dealt from ``secret``: the commitment, plus seed and salt
    once ``revealed`` (the round is over)."""
    data = {"commitment": secret.commitment}
    if revealed:
        data["seed"], data["salt"] = secret.seed, secret.salt
    return data


def deal_json(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal of :attr:`Game.deals` in record spelling, the whole stock from the top down."""
    upcard, pcs = deal["upcard"], deal["purchase_cards"]
    return {
        "dealer": deal["dealer"],
        "hands": [card_names(sorted(hand)) for hand in deal["hands"]],
        "upcard": card_names([upcard])[0] if upcard is not None else None,
        "purchase_cards": card_names(pcs) if pcs is not None else None,
        "stock": card_names(deal["stock"]),
    }


def differences(expected: dict[str, Any], played: dict[str, Any]) -> list[str]:
    """Which parts of two :func:`deal_json` deals differ, in words (empty: the same deal)."""
    found = []
    for seat, (want, got) in enumerate(zip(expected["hands"], played["hands"], strict=True)):
        if want != got:
            found.append(f"the hand of seat {seat}")
    for key, words in (("upcard", "the upcard"), ("purchase_cards", "the purchase cards"),
                       ("stock", "the stock")):
        if expected[key] != played[key]:
            found.append(words)
    return found


def check_round(before: Game, played: Game, claim: ShuffleClaim | None, number: int) -> dict[str, Any]:
    """The verdict on round ``number``: ``played`` has just dealt it, ``before`` is the game just
    before that deal (it is not changed)."""
    verdict: dict[str, Any] = {"round": number}
    if claim is None:
        return {**verdict, "status": "unverifiable", "reason": "the round has no commitment"}
    if claim.problem is not None:
        return {**verdict, "status": "mismatched", "reason": claim.problem}
    verdict["commitment"] = claim.commitment
    if claim.secret is None:
        return {**verdict, "status": "unverifiable", "reason": "the seed and salt are not revealed"}
    verdict["seed"], verdict["salt"] = claim.secret.seed, claim.secret.salt
    if claim.secret.commitment != claim.commitment:
        return {**verdict, "status": "mismatched",
                "reason": "the commitment is not the SHA-256 of the revealed seed and salt"}
    probe = before.copy()
    try:
        probe.deal(dealer=played.dealer, shuffle=claim.secret)
    except DealError as error:
        return {**verdict, "status": "mismatched", "reason": f"the seed cannot be dealt: {error}"}
    wrong = differences(deal_json(probe.deals[-1]), deal_json(played.deals[-1]))
    if wrong:
        return {**verdict, "status": "mismatched",
                "reason": "the deal from the seed differs from the deal played: " + ", ".join(wrong)}
    return {**verdict, "status": "verified"}
