"""The replay viewer's frames, without a server: they follow `rummy replay` step by step, a seat's frames
hold no other hand, and any record, however mangled, is replayed or refused with a sentence (never a
crash)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine.errors import RecordError
from rummy.engine.game import new_game
from rummy.engine.variants import VARIANTS
from rummy.record import dumps, from_data, loads, record_of, replay
from rummy.server.events.replay_frames import ReplayLimits, ReplayRefused, build_replay
from tests.profiles import examples


def played(variant: str, seed: int, actions: int = 400) -> dict[str, Any]:
    """A record of random legal play (it may stop in the middle of a round)."""
    rules = VARIANTS[variant]
    game = new_game(variant, ["Ann", "Bob", "Cid"][: max(rules.players_min, 3)], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.game_over:
            break
        if game.phase.value == "round_over":
            game.deal()
            continue
        game.apply(rng.choice(game.legal_actions()))
    data: dict[str, Any] = json.loads(dumps(record_of(game)))
    return data


def whole(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for delta in frames:
        out.append({**(out[-1] if out else {}), **delta})
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_frames_follow_the_engines_replay(variant: str) -> None:
    data = played(variant, seed=7)
    record = from_data(data)
    expected = replay(record).to_json()
    full = build_replay(record)
    frames = whole(full["frames"])
    assert full["results"] == expected["results"] and full["stopped"] is None
    assert frames[-1]["hands"] == expected["state"]["hands"]
    assert frames[-1]["totals"] == expected["state"]["totals"]
    assert len(frames) == len(full["steps"]) == sum(len(r["actions"]) + 1 for r in data["rounds"])
    assert all(step["events"] for step in full["steps"])  # every step says what it did
    for seat in range(len(data["players"])):
        mine = build_replay(record, seat)
        assert mine["steps"] == full["steps"]
        for frame, every in zip(whole(mine["frames"]), frames, strict=True):
            assert "hands" not in frame and frame["hand"] == every["hands"][seat]
            over = frame["phase"] in ("round_over", "game_over")
            assert (frame["revealed_hands"] is not None) == over


def test_step_ids_number_the_moves_of_each_round() -> None:
    data = played("may-i", seed=2)
    steps = build_replay(from_data(data))["steps"]
    ids = [step["id"] for step in steps]
    expected = [f"r{n + 1}.a{m}" for n, rnd in enumerate(data["rounds"]) for m in range(len(rnd["actions"]) + 1)]
    assert ids == expected


def test_the_limits_refuse_long_records() -> None:
    record = from_data(played("basic", seed=3))
    actions = sum(len(r.actions) for r in record.rounds)
    with pytest.raises(ReplayRefused, match=f"the record has {actions} actions"):
        build_replay(record, limits=ReplayLimits(max_actions=actions - 1))
    build_replay(record, limits=ReplayLimits(max_actions=actions))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["JK", "7H", "TS", "p0 draw", "p1 discard 7H", "set:7H-7S-JK", "x-"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
BASE = played("progressive-buy-it", seed=5, actions=120)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (objects' keys and lists' indexes)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


ALL_PATHS = paths(BASE)[1:]


@settings(max_examples=examples(150))
@given(place=st.sampled_from(ALL_PATHS), value=JSON_VALUES, seat=st.none() | st.integers(0, 3))
def test_a_mangled_record_is_replayed_or_refused_with_a_sentence(place: tuple[Any, ...], value: Any,
                                                                 seat: int | None) -> None:
    data = copy.deepcopy(BASE)
    target = data
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        record = loads(json.dumps(data))
    except RecordError:
        return  # what the server answers 400 bad-record
    try:
        replayed = build_replay(record, seat)
    except ReplayRefused as refusal:
        assert refusal.code in ("bad-record", "bad-seat", "too-large") and refusal.message
        return
    json.dumps(replayed)  # the answer can be sent
    if replayed["stopped"] is not None:
        assert replayed["stopped"]["message"] and replayed["stopped"]["step"] == len(replayed["steps"]) - 1
