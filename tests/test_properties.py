"""Property tests: random legal play of whole games never breaks the engine's invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.actions import Action, Verb
from rummy.cards import CARD_COUNT, JOKER, to_counts
from rummy.errors import IllegalActionError
from rummy.game import Game, Phase, new_game
from rummy.playout import random_choice
from rummy.record import dumps, loads, record_of, replay, results_json, state_json

TABLES = [
    ("progressive-buy-it", 3), ("progressive-buy-it", 4), ("progressive-buy-it", 8),
    ("progressive-15", 3), ("progressive-15", 4), ("progressive-15", 6),
    ("may-i", 3), ("may-i", 5), ("may-i", 8),
    ("basic", 2), ("basic", 3), ("basic", 4),
    ("purchase", 2), ("purchase", 4), ("purchase", 6),
]


def check_invariants(game: Game) -> None:
    held = [0] * CARD_COUNT
    for seat in range(game.n):
        assert game.sizes[seat] == sum(game.hands[seat]), "hand size out of step"
        assert min(game.hands[seat]) >= 0
        for card, count in enumerate(game.hands[seat]):
            held[card] += count
    others = to_counts(list(game.stock) + list(game.discard) + [c for m in game.table for c in m.cards]
                       + list(game.purchase_cards or []))
    total = [held[c] + others[c] for c in range(CARD_COUNT)]
    assert total == game.pack, "cards not conserved"
    assert len(game.discard) == len(game.discarders)


def random_action(game: Game, rng: random.Random) -> Action:
    """A probably-illegal action: random seat, verb and card."""
    seat = rng.randrange(game.n)
    verb = rng.choice([Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS, Verb.DISCARD, Verb.LAYOFF, Verb.SWAP])
    card = rng.choice([JOKER, rng.randrange(52)])
    return Action(seat, verb, card=card, meld=rng.randrange(1, 6))


def play_checked(variant: str, players: int, seed: int, *, probe_every: int = 7) -> Game:
    rng = random.Random(seed)
    game = new_game(variant, players, seed=seed)
    decisions = 0
    while not game.game_over:
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        check_invariants(game)
        seat = game.next_to_act()
        actions = game.legal_actions(seat)
        assert actions, f"no legal action for p{seat} in {game.phase}"
        if decisions % probe_every == 0:
            # every enumerated action applies (on a copy)
            for action in rng.sample(actions, min(4, len(actions))):
                copy = game.clone()
                copy.apply(action)
                check_invariants(copy)
            # a rejected action leaves no trace
            before = (state_json(game), results_json(game), len(game.log))
            bad = random_action(game, rng)
            try:
                game.clone().apply(bad)
            except IllegalActionError:
                try:
                    game.apply(bad)
                except IllegalActionError:
                    pass
                assert (state_json(game), results_json(game), len(game.log)) == before
        game.apply(random_choice(actions, rng))
        decisions += 1
        assert decisions < 100_000, "game does not end"
    return game


@pytest.mark.parametrize("variant,players", TABLES)
def test_random_games_keep_invariants_and_replay(variant: str, players: int) -> None:
    for seed in range(2):
        game = play_checked(variant, players, seed)
        assert game.game_over
        record = loads(dumps(record_of(game)))
        result = replay(record)
        assert result.exit_code == 0, result.error
        assert result.game is not None
        assert state_json(result.game) == state_json(game)
        assert results_json(result.game) == results_json(game)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), table=st.sampled_from(TABLES))
def test_property_random_games(seed: int, table: tuple[str, int]) -> None:
    variant, players = table
    game = play_checked(variant, players, seed, probe_every=11)
    assert dumps(loads(dumps(record_of(game)))) == dumps(record_of(game))
