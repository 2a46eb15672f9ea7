"""The compiled judgement of a rearrangement (``rearranged``, ``_native_src/rearranged.c``) against the Python
``rules.table.check_table_play`` (``scratch_of`` and ``step_rearrange``, rules.md §3.8): at every decision of random
games of the contract variants under random house-rule mixes, every rearrangement listed, and altered ones (a card
swapped, a meld dropped or widened, a source named twice or missing, a kind changed, a set declared), are judged
alike: where the C answers, the Python judgement accepts the play and leaves the same scratch (hand, size, table, meld
ids and owners); where the Python judgement accepts a listed one, the C answers too.  Each is then applied on both
backends, with the same outcome (the state after it, or the rule that refuses it).  The dispatch: None for what the C
does not read (docs/engine.md, "Backends").
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummy.engine.backends as switch
from rummy.engine import IllegalActionError, new_game
from rummy.engine.actions import Action, Verb
from rummy.engine.game import Game
from rummy.engine.melds import MeldSpec
from rummy.engine.rules.table import _REARRANGE_KIT, TurnScratch, _rearrangement_rules, check_table_play
from rummy.engine.state import GameState
from tests.profiles import count, examples
from tests.random_games import random_play
from tests.test_native import running
from tests.test_native_apply import assert_same_apply, playable

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built")

#: The house rules the judgement of a rearrangement reads, and values to mix.
REARRANGE_OPTIONS: dict[str, list[Any]] = {
    "rearrange_mode": ["unrestricted", "seed000"],
    "rearrange_requires_table_card": [True, False],
    "layoff_timing": ["same_turn", "next_turn"],
    "wild_ranks": [["JOKER"], ["JOKER", "2"], ["2"]],
    "ace_mode": ["low_or_high", "low_only", "high_only"],
    "run_min": [3, 4],
    "group_min": [2, 3, 4],
    "wild_policy": ["none", "not_outnumber", "at_most_one"],
    "twos_natural_in_place": [False, True],
    "all_wild_melds": [False, True],
    "wild_group_min": [None, 3],
    "stolen_joker_must_be_played": [True, False],
}


def python_judgement(game: GameState, action: Action) -> TurnScratch | str:
    """The Python judgement: the scratch after ``action``, or the rule that refuses it."""
    with running("python"):
        try:
            return check_table_play(game, action)
        except IllegalActionError as error:
            return error.rule


def altered(action: Action, game: GameState, rng: random.Random) -> list[Action]:
    """Rearrangements near ``action``, most of them illegal."""
    melds, sources = action.melds, action.sources
    first = melds[0]
    card = rng.randrange(53)
    others = [meld.id for meld in game.table if meld.id not in sources]
    declared = first.cards[0] if first.kind == "run" else 1 + first.cards[0] % 13  # a lowest card, or a rank
    changes: list[Action] = [
        replace(action, melds=melds[:-1]),  # a meld dropped: its table cards would leave the table
        replace(action, melds=(replace(first, cards=(*first.cards[:-1], card)), *melds[1:])),  # a card swapped
        replace(action, melds=(replace(first, cards=(card, *first.cards)), *melds[1:])),  # a card added
        replace(action, melds=(replace(first, cards=(*first.cards, card)), *melds[1:])),
        replace(action, melds=(replace(first, kind="set" if first.kind == "run" else "run"), *melds[1:])),
        replace(action, melds=(replace(first, kind="pair"), *melds[1:])),
        replace(action, melds=(replace(first, declared=declared), *melds[1:])),  # (a set's declaration: Python's)
        replace(action, sources=(*sources, sources[0])),  # a source named twice
        replace(action, sources=(*sources, 999)),  # no such meld
        replace(action, melds=(*melds, MeldSpec("run", (card % 50, card % 50 + 1, card % 50 + 2)))),  # hand cards
        replace(action, melds=tuple(reversed(melds))),  # the same melds, numbered in another order
    ]
    if others:
        changes.append(replace(action, sources=(*sources, rng.choice(others))))  # another meld's cards lost
    if len(melds) > 1:  # a card moved from one meld to another
        second = melds[1]
        changes.append(replace(action, melds=(replace(first, cards=first.cards[1:]),
                                              replace(second, cards=(*second.cards, first.cards[0])), *melds[2:])))
    return changes


def assert_judged_alike(game: Game, action: Action, *, listed: bool, where: str) -> None:
    assert switch.BUILT is not None
    state = game.snapshot()
    python = python_judgement(state, action)
    native = switch.BUILT.rearranged(state, action, _rearrangement_rules(state.variant), _REARRANGE_KIT)
    if native is not None:
        assert python == native, f"{where}, {action}: python {python}, native {native}"
    elif listed:
        assert isinstance(python, str), f"{where}, {action}: a legal rearrangement the C did not judge"
    assert_same_apply(game, action, where)


def assert_rearrangements_alike(variant: Any, seed: int, decisions: int, policy: str = "uniform") -> int:
    """Every decision of a seeded random game: each rearrangement listed, and a few altered ones, judged alike;
    how many were listed."""
    game = new_game(variant, 4, seed=seed)
    rng = random.Random(seed)
    listed = 0
    for number, turn in enumerate(random_play(game, random.Random(seed), policy=policy, decisions=decisions)):
        where = f"decision {number} of seed {seed} ({game.variant.id}, {dict(game.variant.options)})"
        rearrangements = [move for move in turn.moves if move.verb is Verb.REARRANGE]
        listed += len(rearrangements)
        for action in rearrangements:
            assert_judged_alike(game, action, listed=True, where=where)
        for action in rng.sample(rearrangements, min(2, len(rearrangements))):
            for change in altered(action, game, rng):
                assert_judged_alike(game, change, listed=False, where=where)
    return listed


@pytest.mark.parametrize("seed", range(count(3)))
def test_rearrangements_judged_alike_in_random_games(seed: int) -> None:
    assert assert_rearrangements_alike("progressive-buy-it", seed, 300) > 0


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["progressive-buy-it", "progressive-15", "may-i"]),
       st.lists(st.sampled_from(sorted(REARRANGE_OPTIONS)), max_size=5, unique=True),
       st.sampled_from(["uniform", "steered"]), st.integers(0, 10**6), st.data())
def test_rearrangements_judged_alike_under_house_rules(variant_id: str, keys: list[str], policy: str, seed: int,
                                                       data: st.DataObject) -> None:
    options = {key: data.draw(st.sampled_from(REARRANGE_OPTIONS[key])) for key in keys}
    options.setdefault("rearrange_mode", "unrestricted")
    assert_rearrangements_alike(playable(variant_id, options, seed), seed, 200, policy)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 100 + count(10)))
def test_rearrangements_judged_alike_in_many_games(seed: int) -> None:
    assert_rearrangements_alike("progressive-buy-it", seed, 800, "uniform" if seed % 2 else "steered")


def test_what_it_does_not_read_goes_to_python() -> None:
    """``rearranged`` answers None for what it does not read or accept; a missing argument is a TypeError."""
    assert switch.BUILT is not None
    rearranged = switch.BUILT.rearranged
    game = new_game("progressive-buy-it", 4, seed=7)
    for turn in random_play(game, random.Random(7), policy="steered", decisions=3000):
        action = next((move for move in turn.moves if move.verb is Verb.REARRANGE), None)
        if action is not None:
            break
    assert action is not None
    state = game.snapshot()
    rules = _rearrangement_rules(state.variant)
    assert rearranged(state, action, rules, _REARRANGE_KIT) == python_judgement(state, action)
    assert rearranged(state, action, rules, _REARRANGE_KIT[:-1]) is None  # another kit
    assert rearranged(state, action, rules[:-1], _REARRANGE_KIT) is None  # other rules
    assert rearranged(state, action, (b"", *rules[1:]), _REARRANGE_KIT) is None  # not the compiled meld rules
    assert rearranged(object(), action, rules, _REARRANGE_KIT) is None  # not a state
    assert rearranged(state, object(), rules, _REARRANGE_KIT) is None  # not an action
    assert rearranged(state, replace(action, sources=list(action.sources)), rules, _REARRANGE_KIT) is None
    assert rearranged(state, replace(action, sources=("1",)), rules, _REARRANGE_KIT) is None
    assert rearranged(state, replace(action, sources=()), rules, _REARRANGE_KIT) is None
    assert rearranged(state, replace(action, melds=()), rules, _REARRANGE_KIT) is None
    first = action.melds[0]
    for cards in ((*first.cards, 53), (*first.cards, -1), (*first.cards, "4"), list(first.cards)):
        bad = replace(action, melds=(replace(first, cards=cards), *action.melds[1:]))  # type: ignore[arg-type]
        assert rearranged(state, bad, rules, _REARRANGE_KIT) is None
    assert rearranged(state, replace(action, melds=(replace(first, declared=99), *action.melds[1:])), rules,
                      _REARRANGE_KIT) is None
    with pytest.raises(TypeError):
        rearranged(state, action, rules)
