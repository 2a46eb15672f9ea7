"""``check`` is ``apply`` without the change, and the action space agrees with both.

Over random games of every variant and random house-rule mixes, played by a uniformly random player:
every candidate passes ``check``; for candidates and for random other actions (random ids of the action
space, random verbs and cards), ``check`` refuses exactly when ``apply`` refuses, with the same rule, and
leaves the whole state identical (stock order, counters, claim window, RNG); ``action_mask`` agrees with
``check`` for every id that names an action.
"""

from __future__ import annotations

import contextlib
import copy
import random
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine.action_space import ActionSpace, ActionSpaceError
from rummy.engine.actions import Action, Verb
from rummy.engine.cards import JOKER
from rummy.engine.errors import IllegalActionError
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.state import GameState
from tests.profiles import examples
from tests.random_games import random_play
from tests.test_properties import TABLES, check_invariants, house_tables


def full_state(game: GameState) -> dict[str, Any]:
    """Every field of the state, comparable with ``==`` (the RNG by its internal state)."""
    state: dict[str, Any] = {}
    for field in fields(GameState):
        if field.name == "rng_shared":
            continue  # whether the RNG is shared with a copy, not part of the position
        value = getattr(game, field.name)
        if field.name == "rng_source":
            value = game.rng.getstate()
        elif field.name == "window" and value is not None:
            value = (value.card, tuple(value.eligible), value.after_decline, sorted(value.answered),
                     sorted(value.claimants))
        elif field.name == "received":
            continue  # the journal of the last apply, not part of the position
        state[field.name] = value
    return copy.deepcopy(state)  # a picture, not the live lists


def verdict(game: Game, action: Action, how: str) -> str | None:
    """The rule ``check`` or ``apply`` (on a copy) refuses ``action`` with, or None when accepted."""
    try:
        game.check(action) if how == "check" else game.copy().apply(action)
    except IllegalActionError as error:
        return str(error.rule)
    return None


def random_actions(game: Game, space: ActionSpace, rng: random.Random, count: int) -> list[Action]:
    """Mostly illegal actions: random ids of the space for random seats, and random verbs and cards."""
    actions = []
    for _ in range(count):
        seat = rng.randrange(game.n)
        with contextlib.suppress(ActionSpaceError):
            actions.append(space.action_of(game, seat, rng.randrange(space.size)))
        verb = rng.choice([Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS, Verb.DISCARD, Verb.LAYOFF, Verb.SWAP,
                           Verb.MOVE, Verb.EXCHANGE])
        actions.append(Action(seat, verb, card=rng.choice([JOKER, rng.randrange(52)]), meld=rng.randrange(1, 9),
                              end=rng.choice([None, "low", "high"]), new_pc=rng.randrange(53)))
    return actions


def probe(game: Game, space: ActionSpace, seat: int, rng: random.Random, *, whole_mask: bool) -> None:
    before = full_state(game)
    candidates = game.legal_actions(seat)
    for action in candidates:
        assert verdict(game, action, "check") is None, f"candidate {action} refused by check"
    for action in rng.sample(candidates, min(3, len(candidates))) + random_actions(game, space, rng, 6):
        assert verdict(game, action, "check") == verdict(game, action, "apply"), f"check and apply disagree on {action}"
    assert full_state(game) == before, "check changed the state"
    mask = space.mask(game, seat)
    ids = range(space.size) if whole_mask else rng.sample(range(space.size), min(400, space.size))
    for action_id in [*ids, *(i for i, legal in enumerate(mask) if legal)]:
        try:
            action = space.action_of(game, seat, action_id)
        except ActionSpaceError:
            assert not mask[action_id], f"id {action_id} is in the mask but names no action"
            continue
        assert bool(mask[action_id]) == game.is_legal(action), f"mask and check disagree on {action_id}: {action}"
        if mask[action_id]:
            assert space.id_of(game, action) == action_id
    assert full_state(game) == before, "the mask changed the state"


def play_probed(game: Game, seed: int, *, decisions: int, probe_every: int, whole_mask_every: int) -> None:
    rng = random.Random(seed)
    space = ActionSpace(game.variant, game.n)
    for number, turn in enumerate(random_play(game, rng, decisions=decisions)):  # a uniformly random player
        check_invariants(game)
        if number % probe_every == 0:
            probe(game, space, turn.seat, rng, whole_mask=number % whole_mask_every == 0)


@pytest.mark.parametrize("variant,players", TABLES[::2])
def test_check_agrees_with_apply_in_uniform_random_play(variant: str, players: int) -> None:
    play_probed(new_game(variant, players, seed=11), 11, decisions=400, probe_every=5, whole_mask_every=100)


@settings(max_examples=examples(20))
@given(table=house_tables(), seed=st.integers(0, 2**31 - 1))
def test_check_agrees_with_apply_under_house_rules(table: tuple[str, dict[str, object], int], seed: int) -> None:
    variant, options, players = table
    play_probed(new_game(variant, players, seed=seed, options=options), seed, decisions=250, probe_every=7,
                whole_mask_every=10_000)


def test_a_refused_action_in_a_claim_window_leaves_the_window_open() -> None:
    """The active player acting in a claim window closes it only if the action is legal (§2.8)."""
    game = new_game("progressive-buy-it", 4, seed=42)
    assert game.phase is Phase.CLAIM
    before = full_state(game)
    bad = Action(game.active, Verb.DISCARD, card=JOKER)
    with pytest.raises(IllegalActionError):
        game.check(bad)
    with pytest.raises(IllegalActionError):
        game.apply(bad)
    assert full_state(game) == before


def test_restore_can_be_used_twice() -> None:
    game = new_game("may-i", 4, seed=5)
    saved = game.snapshot()
    start = full_state(game)
    for _ in range(2):
        game.apply(game.legal_actions(game.next_to_act())[0])
        game.restore(saved)
        assert full_state(game) == start


def test_apply_returns_what_happened() -> None:
    game = new_game("basic", 2, seed=4)
    seat = game.active
    top = game.top_discard
    applied = game.apply(Action(seat, Verb.TAKE))
    assert applied.received == ((seat, top),) and applied.phase is Phase.PLAY and not applied.round_ended
