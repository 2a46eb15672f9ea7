"""Provably fair deals at a table: every round is dealt from a fresh secret (:mod:`rummy.engine.fair_shuffle`),
whose commitment every client sees from the deal on and whose seed and salt it sees once the round is
over (docs/fair-shuffle.md).

The secret is written to the event log (a ``shuffle`` event just before the round's ``deal``), so a
restarted server keeps both the commitment and the secret; no client is ever sent that event.  Seats
and spectators read the commitments in the table summary (``shuffles``) and a round's check at
``GET /api/tables/{id}/shuffles/{round}``, worked out here by the engine; the page
``/table/{id}/verify/{round}`` shows it.

>>> from rummy.engine import Game
>>> from rummy.engine import get_variant
>>> game = Game(get_variant("basic"), 2)
>>> kinds = [kind for kind, _ in deal_round(game, dealer=0)]
>>> kinds, list(table_shuffles(game)[0])
(['shuffle', 'deal'], ['round', 'commitment', 'revealed'])
>>> round_check(game, 1)["status"]
'pending'
"""

from __future__ import annotations

from typing import Any

from rummy.engine import Game, ShuffleSecret, new_shuffle
from rummy.server.events.log import deal_payload
from rummy.shuffle_check import check_round, deal_json, read_claim

Event = tuple[str, dict[str, Any]]


def deal_round(game: Game, *, dealer: int | None = None) -> list[Event]:
    """Deal ``game``'s next round from a fresh secret; the events to log, the secret first."""
    secret = new_shuffle()
    game.deal(dealer=dealer, shuffle=secret)
    return [("shuffle", shuffle_payload(game.round_number, secret)), ("deal", deal_payload(game))]


def shuffle_payload(round_number: int, secret: ShuffleSecret) -> dict[str, Any]:
    """The ``shuffle`` event: the round, its commitment and its secret (never sent to a client)."""
    return {"round": round_number, "commitment": secret.commitment, "seed": secret.seed, "salt": secret.salt}


def secret_of(payload: dict[str, Any]) -> ShuffleSecret:
    """The secret of a ``shuffle`` event."""
    return ShuffleSecret(payload["seed"], payload["salt"])


def _rounds(game: Game) -> list[tuple[int, ShuffleSecret, bool]]:
    """(round number, secret, revealed) of each round of ``game`` dealt from a secret."""
    return [(game.start_round + index, deal["shuffle"], index < len(game.results))
            for index, deal in enumerate(game.deals) if deal.get("shuffle") is not None]


def table_shuffles(game: Game | None) -> list[dict[str, Any]]:
    """The ``shuffles`` of the table summary: per round its commitment, and the seed and salt once the
    round is over."""
    if game is None:
        return []
    rows = []
    for number, secret, revealed in _rounds(game):
        row: dict[str, Any] = {"round": number, "commitment": secret.commitment, "revealed": revealed}
        if revealed:
            row["seed"], row["salt"] = secret.seed, secret.salt
        rows.append(row)
    return rows


def round_check(game: Game, number: int) -> dict[str, Any]:
    """The server's check of round ``number``: ``pending`` (with the commitment only) while the round
    is played; afterwards the reveal, the committed text, the deal and the engine's verdict."""
    found = next(((s, r) for n, s, r in _rounds(game) if n == number), None)
    if found is None:
        return {"round": number, "status": "unverifiable", "reason": "this round was not dealt from a commitment"}
    secret, revealed = found
    if not revealed:
        return {"round": number, "status": "pending", "commitment": secret.commitment,
                "reason": "the seed and salt are revealed when the round is over"}
    index = number - game.start_round
    before = Game(game.variant, game.players, seed=game.seed, start_round=number)
    played = before.copy()
    deal = game.deals[index]
    played.deal(dealer=deal["dealer"], hands=deal["hands"], upcard=deal["upcard"], stock=deal["stock"],
                purchase_cards=deal["purchase_cards"])
    claim = read_claim({"commitment": secret.commitment, "seed": secret.seed, "salt": secret.salt})
    verdict = check_round(before, played, claim, number)
    return {**verdict, "message": secret.message, "deal": deal_json(deal)}
