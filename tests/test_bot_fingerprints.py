"""Seeded heuristic-bot games pinned by a digest of their records.

A change meant only to make the bots faster must leave every decision as it was: the same seed gives
the same game, move for move.  The digests were taken from the code before such speed work; a change
that alters what the bots decide on purpose updates them (and says so).
"""

from __future__ import annotations

import hashlib

import pytest

from rummy.bots import make_bot, play_game
from rummy.record import dumps, record_of

# (variant, players, seed) -> the first 16 hex digits of the SHA-256 of the game's record.
PINNED = {
    ("progressive-buy-it", 4, 1): "275fb7887fa3e553",
    ("progressive-buy-it", 3, 7): "8d23826d27d80328",
    ("progressive-15", 4, 2): "403f8130765ef8a7",
    ("may-i", 4, 3): "65b646d87b06c0a0",
    ("basic", 2, 4): "cf03348b16e9d3df",
    ("purchase", 4, 5): "eaf78e8dcb9e7d47",
}


@pytest.mark.parametrize(("variant", "players", "seed"), sorted(PINNED))
def test_seeded_heuristic_game_is_unchanged(variant: str, players: int, seed: int) -> None:
    bots = [make_bot("heuristic", seed=seed * 10 + seat) for seat in range(players)]
    game = play_game(variant, bots, seed=seed)
    digest = hashlib.sha256(dumps(record_of(game)).encode()).hexdigest()[:16]
    assert digest == PINNED[variant, players, seed]
