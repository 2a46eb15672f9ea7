"""The record :meth:`Game.apply` returns (:class:`~rummy.engine.applied.Applied`), made by the compiled core's
``new_record`` (``_native_src/records.c``) on the native backend and by the dataclass on the Python one: the same
record, field for field, at every decision of random games (and ``claimed_by`` names the seat whose claim count
grew); ``new_record`` declines, and the dataclass makes the record, for arguments it does not fit (docs/engine.md,
"Backends").  The same for the views (:class:`~rummy.engine.view.PlayerView`)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import rummy.engine.backends as switch
from rummy.engine import new_game
from rummy.engine.actions import PLAY_STEP_VERBS, Action, Verb
from rummy.engine.applied import Applied
from rummy.engine.game import _APPLIED_FIELDS
from rummy.engine.melds import TableMeld
from rummy.engine.state import Phase
from rummy.engine.view import PlayerView, player_view
from tests.profiles import count
from tests.random_games import random_play
from tests.test_native import running
from tests.variants import BUILT_IN

#: The actions that make table melds: the table plays and the books.
TABLE_VERBS = PLAY_STEP_VERBS | {Verb.BATCH, Verb.BOOK}

pytestmark = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core rummy.engine._native is not built")


def fields_of(record: Applied) -> tuple[Any, ...]:
    return tuple(getattr(record, field.name) for field in dataclasses.fields(Applied))


@pytest.mark.parametrize("variant", BUILT_IN)
def test_the_same_record_on_both_backends(variant: str) -> None:
    """Each decision's action applied to a copy on each backend: equal records of the type ``Applied``, frozen;
    ``claimed_by`` is the first seat whose claim count grew, or None."""
    claims = 0
    for seed in range(count(6)):
        game = new_game(variant, 4, seed=seed)
        policy = "steered" if seed % 2 else "uniform"
        for number, turn in enumerate(random_play(game, random.Random(seed), policy=policy, decisions=200)):
            action = random.Random(number).choice(turn.moves)
            records = {}
            for name in ("python", "native"):
                trial = game.copy()
                before = list(trial.claims_used)
                with running(name):
                    records[name] = trial.apply(action)
                grew = [seat for seat in range(trial.n) if trial.claims_used[seat] != before[seat]]
                assert records[name].claimed_by == (grew[0] if grew else None), (seed, number, str(action))
            python, native = records["python"], records["native"]
            assert type(native) is Applied and native == python and hash(native) == hash(python), (seed, number)
            assert fields_of(native) == fields_of(python)
            with pytest.raises(dataclasses.FrozenInstanceError):
                native.phase = Phase.PLAY  # type: ignore[misc]
            claims += native.claimed_by is not None
    if variant in ("progressive-buy-it", "may-i"):
        assert claims  # (the claim windows were reached)


def test_what_new_record_does_not_fit_goes_to_the_dataclass() -> None:
    """None for arguments that do not fit; a record equal to the dataclass's for those that do."""
    assert switch.BUILT is not None
    new_record = switch.BUILT.new_record
    values = (Action(0, Verb.DRAW), Phase.DRAW, Phase.PLAY, ((0, 5),), None, None)
    assert new_record(Applied, _APPLIED_FIELDS, *values) == Applied(*values)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Other:
        a: int
        b: int

    class Loose:  # a __dict__, which a record made by slots would leave empty
        pass

    other_fields = (Other.__dict__["a"], Other.__dict__["b"])
    assert new_record(Other, other_fields, 1, 2) == Other(1, 2)
    for type_, fields, given in (
            (Applied, _APPLIED_FIELDS, values[:-1]),  # a value short
            (Applied, _APPLIED_FIELDS[:-1], values[:-1]),  # a field short (a slot left unset)
            (Applied, (*_APPLIED_FIELDS[:-1], _APPLIED_FIELDS[0]), values),  # a slot twice
            (Applied, (*_APPLIED_FIELDS[:-2], *other_fields), values),  # another type's slots
            (Applied, list(_APPLIED_FIELDS), values),  # not a tuple
            (Applied, (*_APPLIED_FIELDS[:-1], "round_result"), values),  # not a descriptor
            (Loose, (), ()), (object, (), ()),  # a __dict__; not a dataclass of its own slots
            (42, _APPLIED_FIELDS, values)):  # not a type
        assert new_record(type_, fields, *given) is None, (type_, fields)
    with pytest.raises(TypeError):
        new_record(Applied)


@pytest.mark.parametrize("variant", BUILT_IN)
def test_the_same_views_on_both_backends(variant: str) -> None:
    """``player_view`` makes its record with ``new_record`` too: every seat's view and the spectator's, at every
    decision of random games, equal on both backends (every field, the legal actions included) and a frozen
    ``PlayerView``."""
    game = new_game(variant, 4, seed=7)
    for _turn in random_play(game, random.Random(7), policy="steered", decisions=count(150)):
        for seat in (None, *range(game.n)):
            with running("python"):
                expected = player_view(game, seat)
            with running("native"):
                view = player_view(game, seat)
            assert type(view) is PlayerView and view == expected, (seat, game.log[-1:])
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.round = 2  # type: ignore[misc]


@pytest.mark.parametrize("variant", BUILT_IN)
def test_the_same_table_melds_on_both_backends(variant: str) -> None:
    """A table play's melds (``melds.table_meld`` and a lay-off's or swap's changed meld, made with ``new_record``
    on the native backend): at every decision of random games the table after each table play, applied to a copy
    on each backend, is the same, meld for meld and field for field, each a frozen ``TableMeld``."""
    played = 0
    for seed in range(count(4)):
        game = new_game(variant, 4, seed=seed)
        for turn in random_play(game, random.Random(seed), policy="steered", decisions=300):
            plays = [action for action in turn.moves if action.verb in TABLE_VERBS]
            for action in plays[:3]:
                tables = {}
                for name in ("python", "native"):
                    trial = game.copy()
                    with running(name):
                        trial.apply(action)
                    tables[name] = trial.table
                python, native = tables["python"], tables["native"]
                assert native == python, (seed, str(action))
                for meld, expected in zip(native, python, strict=True):
                    assert type(meld) is TableMeld and hash(meld) == hash(expected)
                    assert dataclasses.astuple(meld) == dataclasses.astuple(expected)
                played += 1
    assert played
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.wilds = 3  # type: ignore[misc]
