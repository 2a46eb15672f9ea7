"""An action built by hand, whatever its fields hold, is judged: accepted, or refused with a rule and the game
unchanged, on either backend; never another exception (rules/form.py, docs/errors.md).  Random actions with fields
out of range or of the wrong kind at random decisions of every variant (hypothesis), and the faults found so far,
each pinned to its rule."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine import new_game
from rummy.engine.actions import Action, Verb
from rummy.engine.errors import IllegalActionError, RummyError
from rummy.engine.game import Game, Phase
from rummy.engine.melds import MeldSpec
from tests.profiles import examples
from tests.random_games import random_play
from tests.test_native import running
from tests.test_native_apply import full_state
from tests.variants import BUILT_IN

ODD_VALUES: list[Any] = [-1, 0, 1, 2, 52, 53, 99, 10**30, -(10**30), True, None, "3", 3.0]


def odd(rng: random.Random, fitting: Any) -> Any:
    """A value of the right kind and range most of the time, else an odd one."""
    return fitting if rng.random() < 0.6 else rng.choice(ODD_VALUES)


def odd_spec(rng: random.Random) -> MeldSpec:
    cards = tuple(odd(rng, rng.randrange(53)) if rng.random() < 0.95 else [0] for _ in range(rng.randrange(4)))
    return MeldSpec(rng.choice(["run", "set", "pair", "book", "RUN", ""]), cards,
                    rng.choice([None, None, odd(rng, rng.randrange(53))]))


def odd_action(game: Game, rng: random.Random, depth: int = 0) -> Action:
    verb = rng.choice(list(Verb))
    steps = tuple(odd_action(game, rng, 1) for _ in range(rng.randrange(3))) if verb is Verb.BATCH and not depth else ()
    return Action(odd(rng, rng.choice([game.active, rng.randrange(game.n)])), verb,
                  card=odd(rng, rng.randrange(53)), meld=odd(rng, rng.randrange(1, 12)),
                  end=odd(rng, rng.choice([None, "low", "high", "mid"])),
                  melds=tuple(odd_spec(rng) for _ in range(rng.randrange(3))),
                  sources=tuple(odd(rng, rng.randrange(1, 12)) for _ in range(rng.randrange(3))),
                  target=odd(rng, rng.randrange(game.n)), new_pc=odd(rng, rng.randrange(53)), steps=steps)


def assert_judged(game: Game, action: Action) -> None:
    """``check``, ``is_legal`` and ``apply`` of ``action`` (on a copy) agree, refuse with a rule or accept, and a
    refusal leaves the game as it was and can be written out."""
    before = full_state(game.copy())
    try:
        game.check(action)
    except IllegalActionError as error:
        assert str(error) and error.rule
        assert not game.is_legal(action)
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert full_state(game.copy()) == before, f"refused {action!r} changed the game"
        return
    assert game.is_legal(action)
    trial = game.copy()
    trial.apply(action)
    assert trial.log[-1] is action


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(BUILT_IN), st.sampled_from(["python", "native"]), st.integers(0, 10**6))
def test_any_action_is_judged_and_a_refusal_changes_nothing(variant: str, backend: str, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(variant, 4, seed=seed)
    with running(backend):
        for _turn in random_play(game, random.Random(seed), decisions=rng.randrange(1, 120)):
            if game.phase in (Phase.CLAIM, Phase.DRAW, Phase.PLAY) and rng.random() < 0.3:
                for _ in range(4):
                    try:
                        assert_judged(game, odd_action(game, rng))
                    except RummyError as error:  # (a state the harness cannot copy is not one to judge)
                        raise AssertionError(f"{error!r}") from error


@pytest.mark.parametrize("backend", ["python", "native"])
def test_malformed_fields_are_refused_with_their_rule(backend: str) -> None:
    game = new_game("progressive-buy-it", 4, seed=42)
    assert game.phase is Phase.CLAIM and game.window is not None
    eligible = game.window.eligible[0]
    before = full_state(game.copy())
    with running(backend):
        cases: list[tuple[Action, str]] = [
            (Action(3.0, Verb.BUY), "wrong-seat"),  # type: ignore[arg-type]  # a float seat answered a window
            (Action(True, Verb.PASS), "wrong-seat"),  # type: ignore[arg-type]
            (Action(eligible, "pass"), "malformed-action"),  # type: ignore[arg-type]  # a string, not a Verb
        ]
        for action, rule in cases:
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            assert info.value.rule == rule, action
        assert full_state(game.copy()) == before
        game.apply(Action(game.active, Verb.DRAW))
        seat = game.active
        cases = [
            (Action(seat, Verb.LAYOFF, card=0, meld=1, end="mid"), "malformed-action"),  # would be logged as "mid"
            (Action(seat, Verb.LAYOFF, card=0, meld="1"), "malformed-action"),  # type: ignore[arg-type]
            (Action(seat, Verb.MELD), "malformed-action"),  # a meld play without a meld
            (Action(seat, Verb.DOWN, melds=[MeldSpec("set", (0, 13, 26))]), "malformed-action"),  # type: ignore[arg-type]
            (Action(seat, Verb.REARRANGE, melds=(MeldSpec("set", (0, 13, 26)),)), "malformed-action"),  # no source
            (Action(seat, Verb.BATCH), "malformed-action"),  # a batch of nothing
            (Action(seat, Verb.BATCH, steps=("layoff",)), "malformed-action"),  # type: ignore[arg-type]
            (Action(seat, Verb.BOOK), "malformed-action"),
        ]
        before = full_state(game.copy())
        for action, rule in cases:
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            assert info.value.rule == rule, action
            assert str(info.value)
        assert full_state(game.copy()) == before
    purchase = new_game("purchase", 4, seed=3)
    with running(backend):
        for target in (-1, 4, 10**30, "1"):
            with pytest.raises(IllegalActionError) as info:
                purchase.check(Action(purchase.active, Verb.TRADE, target=target, new_pc=0))  # type: ignore[arg-type]
            assert info.value.rule == "wrong-seat", target
