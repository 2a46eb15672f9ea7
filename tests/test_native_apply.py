"""The compiled apply of the simple actions (``simple_apply``, ``_native_src/simple_steps.c``) against the Python
``rules.apply``: at every decision of random games of every variant and of random house-rule mixes, the same action
applied to two copies of the game, one on each backend, leaves every field of the state the same and returns the
same ``Applied`` record; an illegal action is refused alike, with the same rule, and changes nothing (docs/engine.md,
"Backends")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import DealError, IllegalActionError, VariantError, new_game
from rummy.engine.action_space import ActionSpace
from rummy.engine.actions import Action, Verb
from rummy.engine.applied import Applied
from rummy.engine.game import Game, Phase
from rummy.engine.house_rules import get_variant
from rummy.engine.rules import APPLY_KIT
from rummy.engine.state import GameState
from rummy.engine.variants import Variant
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_check_apply import random_actions
from tests.test_native import running
from tests.variants import BUILT_IN

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built")


def full_state(game: GameState) -> dict[str, Any]:
    """Every field of the state, comparable with ``==`` (the RNG by its internal state, the claim window by its
    fields); the lists are the state's own (a copy that is not used again)."""
    state = {name: getattr(game, name) for name in GameState.__dataclass_fields__ if name != "rng_shared"}
    state["rng_source"] = game.rng.getstate()
    window = game.window
    if window is not None:
        state["window"] = (window.card, window.eligible, window.after_decline, window.answered, window.claimants)
    return state


def outcome(game: Game, action: Action, name: str) -> tuple[Any, dict[str, Any]]:
    """What applying ``action`` to a copy of ``game`` on backend ``name`` returns (the ``Applied`` record, or the
    refusal's rule) and the copy's state after it."""
    trial = game.copy()
    with running(name):
        try:
            result: Any = trial.apply(action)
        except IllegalActionError as error:
            result = ("refused", error.rule)
    return result, full_state(trial)


def assert_same_apply(game: Game, action: Action, where: str) -> None:
    python, python_state = outcome(game, action, "python")
    native, native_state = outcome(game, action, "native")
    differing = sorted(name for name in python_state if python_state[name] != native_state[name])
    assert python == native and not differing, (
        f"{where}, {action}: python {python}, native {native}; fields that differ: {differing} "
        f"{[(python_state[name], native_state[name]) for name in differing[:3]]}")


def assert_same_games(variant: Any, seed: int, policy: str, decisions: int, illegal: int = 2) -> None:
    """Every decision of a seeded random game: the chosen action, and ``illegal`` random ones, alike on both
    backends."""
    game = new_game(variant, 4, seed=seed)
    rng = random.Random(seed)
    space = ActionSpace(game.variant, game.n)
    for number, turn in enumerate(random_play(game, random.Random(seed), policy=policy, decisions=decisions)):
        where = f"decision {number} of seed {seed} ({policy}, {game.variant.id})"
        for action in [rng.choice(turn.moves), *random_actions(game, space, rng, illegal)]:
            assert_same_apply(game, action, where)


@pytest.mark.parametrize("variant", BUILT_IN)
@pytest.mark.parametrize("policy", ["uniform", "steered"])
def test_simple_actions_apply_alike_in_random_games(variant: str, policy: str) -> None:
    for seed in range(count(3)):
        assert_same_games(variant, seed, policy, 150)


#: The house rules the compiled apply reads, and values to mix.
APPLY_OPTIONS: dict[str, list[Any]] = {
    "claim_mode": ["pre_draw", "active_first_then_others", "after_decline", "none"],
    "claim_priority": ["first_call", "rotation"],
    "active_first_refusal": [True, False],
    "claim_penalty_cards": [0, 1, 2],
    "claim_cost": [0, 3],
    "blind_card_cost": [0, 2],
    "claim_limit": [None, 0, 1, 2],
    "claim_limit_scope": ["player", "table"],
    "claims_per_window": ["1", "cascade"],
    "after_claim_active_draw": ["stock_only", "stock_or_new_top"],
    "claim_allowed_when_down": [True, False],
    "discarder_may_claim": [True, False],
    "may_discard_card_taken_from_discard": [True, False],
    "stock_refill": ["keep_top", "whole_pile_once", "none"],
    "depletion_check": ["turn_start", "on_last_card_drawn"],
    "refill_keeps_top_discard": [True, False],
    "stalemate_detection": [True, False],
    "max_turns": [None, 30],
    "washout_laps": [None, 1, 3],
    # the purchase variant's purchase, trade and exchange (purchase_steps.c)
    "pc_discard_position": ["in_place", "top"],
    "trade_requires_value_rule": [True, False],
    "ace_purchasable_by": [["A", "2"], ["K"], ["2", "3", "Q"]],
}


def playable(variant_id: str, options: dict[str, Any], seed: int) -> Variant:
    """The variant ``variant_id`` under ``options``, once a 4-seat game of it deals from ``seed``; a mix that makes no
    playable game is assumed away (hypothesis draws another)."""
    try:
        variant = get_variant(variant_id, options)
        new_game(variant, 4, seed=seed)
    except (VariantError, DealError):
        assume(False)
        raise
    return variant


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BUILT_IN), st.lists(st.sampled_from(sorted(APPLY_OPTIONS)), max_size=5, unique=True),
       st.sampled_from(["uniform", "steered"]), st.integers(0, 10**6), st.data())
def test_simple_actions_apply_alike_under_house_rules(variant_id: str, keys: list[str], policy: str, seed: int,
                                                      data: st.DataObject) -> None:
    options = {key: data.draw(st.sampled_from(APPLY_OPTIONS[key])) for key in keys}
    assert_same_games(playable(variant_id, options, seed), seed, policy, 120, illegal=1)


@pytest.mark.parametrize("options", [{}, {"pc_discard_position": "top"}, {"trade_requires_value_rule": False},
                                     {"ace_purchasable_by": ["K"]}], ids=["seed", "on-top", "free-trades", "aces-by-K"])
def test_purchases_trades_and_exchanges_apply_alike(options: dict[str, Any]) -> None:
    """The purchase variant's own steps (rules.md §7.4), each decision's and random illegal ones, under the house rules
    they read; uniform play purchases, trades or exchanges in about half its play phases."""
    for seed in range(count(2)):
        assert_same_games(get_variant("purchase", options), seed, "uniform", 200, illegal=3)


def test_each_refused_purchase_step_is_refused_alike() -> None:
    """Each rule of a purchase, trade or exchange (rules.md §7.4, rules/purchase.py's check_purchase_step) refuses alike
    on both backends, with the same rule, and the legal steps apply alike; a second step in the turn is refused."""
    game = new_game("purchase", 4, seed=0)  # seat 0 plays first; its purchase card, TH, may buy 3H (seat 3), not JD (1)
    game.apply(Action(game.active, Verb.DRAW))
    seat, pcs = game.active, game.purchase_cards
    assert game.phase is Phase.PLAY and pcs is not None and seat == 0
    pc = pcs[seat]
    held = next(card for card in range(52) if game.hands[seat][card] and card != pc)
    missing = next(card for card in range(52) if not game.hands[seat][card] and card not in pcs)
    top = game.discard[-1]
    other, dearer = 3, 1  # seats whose purchase card seat 0's may buy, and may not
    cases = {  # each action and the rule it breaks (None: legal)
        Action(seat, Verb.TRADE, target=dearer, new_pc=held): "purchase-value",
        Action(seat, Verb.EXCHANGE, new_pc=pc): "exchange-same-card",
        Action(seat, Verb.EXCHANGE, new_pc=missing): "card-not-in-hand",
        Action(seat, Verb.EXCHANGE, new_pc=held): None,
        Action(seat, Verb.TRADE, target=seat, new_pc=held): "trade-self",
        Action(seat, Verb.TRADE, new_pc=held): "trade-self",  # no target: the seat itself
        Action(seat, Verb.TRADE, target=other, new_pc=pcs[other]): None,  # the card traded for may be the new one
        Action(seat, Verb.PURCHASE, card=missing, new_pc=held): "not-in-discard",
        Action(seat, Verb.PURCHASE, card=top, new_pc=top): None,
        Action(seat, Verb.PURCHASE, card=top, new_pc=missing): "card-not-in-hand",
    }
    outcomes = set()
    for action, rule in cases.items():
        assert_same_apply(game, action, "a crafted purchase step")
        try:
            game.copy().check(action)
            outcomes.add("legal" if rule is None else "accepted although breaking " + rule)
        except IllegalActionError as error:
            outcomes.add("legal refused" if rule is None else "refused" if error.rule == rule else error.rule)
    assert outcomes == {"legal", "refused"}, outcomes
    game.apply(Action(seat, Verb.EXCHANGE, new_pc=held))
    assert_same_apply(game, Action(seat, Verb.EXCHANGE, new_pc=pc), "a second step in the turn")  # one-action-per-turn


@pytest.mark.slow
@pytest.mark.parametrize("variant", BUILT_IN)
def test_simple_actions_apply_alike_in_many_games(variant: str) -> None:
    for seed in range(100, 100 + count(20)):
        assert_same_games(variant, seed, "uniform" if seed % 2 else "steered", 600, illegal=1)


def test_what_it_does_not_cover_goes_to_python_unchanged() -> None:
    """``simple_apply`` answers None, and changes nothing, for what the Python rules apply or refuse."""
    assert switch.BUILT is not None
    simple_apply = switch.BUILT.simple_apply
    game = new_game("progressive-buy-it", 4, seed=42)
    assert game.phase is Phase.CLAIM
    window = game.window
    assert window is not None
    before = full_state(game.copy())
    for action in (Action(game.active, Verb.DRAW),  # the active player closing the window
                   Action(game.active, Verb.PASS),  # the active player may not answer
                   Action(9, Verb.PASS), Action(-1, Verb.PASS)):  # seats the table lacks
        assert simple_apply(game, action, APPLY_KIT) is None
    assert simple_apply(game, Action(window.eligible[0], Verb.PASS), APPLY_KIT[:-1]) is None  # another kit
    assert full_state(game) == before
    answer = Action(window.eligible[0], Verb.PASS)
    assert simple_apply(game.copy(), answer, APPLY_KIT) is True  # and what it covers, it applies
    game.apply(Action(game.active, Verb.DRAW))
    seat = game.active
    before = full_state(game.copy())
    for action in (Action(seat, Verb.DISCARD, card=53), Action(seat, Verb.DRAW),  # not a card; already drew
                   Action(seat, Verb.LAYOFF, card=0, meld=1)):  # a table play
        assert simple_apply(game, action, APPLY_KIT) is None
    assert full_state(game) == before
    game.hands[seat][0] += 1  # a discard without a card is of card 0 (rules.discard reads it so), on both backends
    game.sizes[seat] += 1
    assert_same_apply(game, Action(seat, Verb.DISCARD), "a discard without a card")


def test_game_apply_leaves_what_it_does_not_cover_to_python_unchanged() -> None:
    """``game_apply`` (``Game.apply`` compiled) answers None, with nothing changed (the ``received`` journal too), where
    ``simple_apply`` does not answer or the game's claim counts are not a list; what it covers it records as
    ``Game.apply``'s Python path does."""
    assert switch.BUILT is not None
    game_apply = switch.BUILT.game_apply
    game = new_game("progressive-buy-it", 4, seed=42)
    fields = (APPLY_KIT, Applied, switch.record_slots(Applied))
    window = game.window
    assert game.phase is Phase.CLAIM and window is not None
    game.received = [(0, 5)]
    before = full_state(game.copy())
    for action in (Action(game.active, Verb.DRAW), Action(9, Verb.PASS), Action(game.active, Verb.PASS)):
        assert game_apply(game, action, *fields) is None
    answer = Action(window.eligible[0], Verb.PASS)
    game.claims_used = tuple(game.claims_used)  # type: ignore[assignment]  # not a list
    assert game_apply(game, answer, *fields) is None
    game.claims_used = list(game.claims_used)
    assert full_state(game) == before
    compiled, python = game.copy(), game.copy()
    switch.NATIVE = None
    try:
        expected = python.apply(answer)
    finally:
        switch.NATIVE = switch.BUILT
    assert game_apply(compiled, answer, *fields) == expected
    assert full_state(compiled) == full_state(python)
