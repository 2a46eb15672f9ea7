"""The environment's observation and mask on both backends: the compiled encoder (``observation.c``, through
``Encoder.encode_game``) writes the same bytes as the Python encoder, and the mask made in one pass
(``ActionSpace.numbered``, compiled in ``mask_ids.c``) is the one made move by move through ``id_of`` and the one
``ActionSpace.mask`` makes, at every decision of random games of every variant (default and house rules, fewest and
most seats); the candidate rows are those of the version before them (a per-card loop, kept here as the reference);
both numberings refuse a move they cannot number with the same error; the history the compiled core brings up to
date (``history.c``) is the Python one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import rummy.engine.action_space as action_space  # noqa: E402
import rummy.engine.backends as switch  # noqa: E402  # the switch, whose NATIVE the tests set
from rummy.engine import (  # noqa: E402
    CARD_COUNT,
    COMPOSITE_SLOTS,
    COMPOSITE_VERBS,
    Action,
    ActionSpaceError,
    CandidateMoves,
    Verb,
    legal_actions,
)
from rummy.engine.melds import MeldSpec  # noqa: E402
from rummy.env import aec_env  # noqa: E402
from rummy.features import CANDIDATE_SIZE, CandidateEncoder, Encoder, History  # noqa: E402
from tests.variants import BUILT_IN, seat_counts  # noqa: E402

HOUSE: dict[str, dict[str, Any]] = {
    "progressive-buy-it": {"joker_swap": "none", "layoff_timing": "always"},
    "progressive-15": {"ace_mode": "high_only", "claim_priority": "rotation"},
    "may-i": {"wild_policy": "none", "upcard": False},
    "basic": {"ace_mode": "low_or_high", "max_new_melds_per_turn": 1},
    "purchase": {"first_dealer": "first_seat"},
}
TABLES = [(variant, players, {}) for variant in BUILT_IN for players in seat_counts(variant, most=6)[::2]]
TABLES += [(variant, seat_counts(variant)[1], HOUSE.get(variant, {})) for variant in BUILT_IN]

needs_native = pytest.mark.skipif(switch.BUILT is None, reason="the compiled core is not built")


def reference_row(encoder: CandidateEncoder, action: Action, table: Mapping[int, Sequence[int]]) -> tuple[list[float],
                                                                                                          int]:
    """The candidate row as the encoder wrote it before its rows were compiled (CandidateEncoder._describe then)."""
    steps = action.steps if action.verb is Verb.BATCH else (action,)
    played = [0] * CARD_COUNT
    made = groups = back = 0
    extended: set[int] = set()
    for step in steps:
        verb = step.verb
        if verb in (Verb.LAYOFF, Verb.SWAP, Verb.MOVE):
            if step.meld is not None:
                extended.add(step.meld)
            if verb is not Verb.MOVE and step.card is not None:
                played[step.card] += 1
            back += verb is Verb.SWAP or (verb is Verb.MOVE and encoder.move_to_hand)
            continue
        laid = [0] * CARD_COUNT
        for meld in step.melds:
            made += 1
            groups += meld.kind in ("set", "pair", "book")
            for card in meld.cards:
                laid[card] += 1
        if verb is Verb.REARRANGE:
            extended.update(step.sources)
            for source in step.sources:
                for card in table.get(source, ()):
                    laid[card] -= 1
        for card, count in enumerate(laid):
            if count > 0:
                played[card] += count
    row = [0.0] * CANDIDATE_SIZE
    count = wilds = 0
    points = 0.0
    for card, n in enumerate(played):
        if n:
            row[15 + card] = n
            count += n
            wilds += n if encoder.wild[card] else 0
            points += encoder.points[card] * n
    row[0] = 1.0
    row[{Verb.DOWN: 1, Verb.MELD: 2, Verb.REARRANGE: 3, Verb.BATCH: 4, Verb.BOOK: 5}[action.verb]] = 1.0
    row[6:13] = (count, wilds, points, made, groups, made - groups, len(extended))
    return row, back - count


def mask_by_id_of(env: Any, seat: int) -> bytes:
    """The mask as the environment made it before ActionSpace.numbered: every move listed, each through id_of."""
    mask = bytearray(env.space.size)
    composites = 0
    if seat in env.game.to_act:
        for move in legal_actions(env.game, seat):
            if move.verb in COMPOSITE_VERBS:
                if composites < COMPOSITE_SLOTS:
                    mask[57 + composites] = 1
                composites += 1
            else:
                mask[env.space.id_of(env.game, move)] = 1
    return bytes(mask)


@pytest.mark.parametrize(("variant", "players", "options"), TABLES,
                         ids=[f"{v}-{p}-{'house' if o else 'default'}" for v, p, o in TABLES])
def test_both_encoders_and_every_mask_agree(variant: str, players: int, options: dict[str, Any],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    env = aec_env(variant, players, options, seed=players)
    env.reset(seed=players)
    python = Encoder(env.rules, players)
    rng = np.random.default_rng(players)
    rows = composites = 0
    for step in range(700):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        game, seat = env.game, env.game.next_to_act()
        mask = observation["action_mask"].tobytes()
        assert mask == mask_by_id_of(env, seat)
        assert mask == bytes(env.space.mask(game, seat))
        candidates = env._composites
        fresh = legal_actions(game, seat)
        assert env.space.numbered(game, fresh) == env.space._numbered(game, fresh)
        for other in (seat, (seat + 1 + step) % players):
            given = candidates if other == seat else []
            compiled = env.encoder.encode_game(game, other, given)  # the default backend
            if switch.BUILT is not None:  # the compiled encoder itself answers (no fallback to Python)
                written = env.encoder._encode_native(switch.BUILT.observation, game, other, given)
                assert written is not None and written.tobytes() == compiled.tobytes()
            with monkeypatch.context() as patch:
                patch.setattr(switch, "NATIVE", None)
                reference = python.encode_game(game, other, given)
            assert compiled.tobytes() == reference.tobytes(), (variant, step, other)
        table = {meld.id: meld.cards for meld in game.table}
        for action in candidates:
            row, change = reference_row(python._candidate_rows, action, table)
            known, known_change = python._candidate_rows._known(action, table)
            assert known.tobytes() == np.array(row, dtype=np.float32).tobytes() and known_change == change
            rows += 1
        composites += bool(candidates)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert rows or variant == "purchase"  # books are seldom made by random play
    assert composites or variant == "purchase"


@needs_native
def test_malformed_arguments_leave_it_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    env = aec_env("may-i", 4, seed=3)
    env.reset(seed=3)
    for _ in range(60):
        observation, _, _, _, _ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    encoder = env.encoder
    write = switch.BUILT.observation  # type: ignore[union-attr]
    out = np.empty(encoder.size, dtype=np.float32)
    record = encoder._record
    good = (out, encoder._inverse, encoder._layout, env.game.hands[0], env.game.discard, False, env.game.table, None,
            (0, 1, 7, 2, 0, 6, 10, 1, 0, 0), (env.game.sizes, env.game.down, env.game.claims_used, env.game.totals, 0,
                                              [0], env.game.played_to_table, None), 0, record.counts, record.ring, [],
            encoder._kit, 5)
    assert write(*good) is True
    for index, bad in [(0, np.empty(3, dtype=np.float32)), (0, np.empty(encoder.size)), (2, encoder._layout[:-1]),
                       (3, [0] * 52), (4, [99]), (6, [object()]), (8, (9, 1, 7, 2, 0, 6, 10, 1, 0, 0)),
                       (10, 4), (13, [Action(0, Verb.DRAW)])]:
        arguments = list(good)
        arguments[index] = bad
        assert write(*arguments) is None, index
    # the encoder answers in Python when the core refuses: the same bytes
    seat = env.game.next_to_act()
    expected = encoder.encode_game(env.game, seat, env._composites)
    monkeypatch.setattr(switch.BUILT, "observation", lambda *arguments: None)
    assert encoder.encode_game(env.game, seat, env._composites).tobytes() == expected.tobytes()


def numbering(space: Any, game: Any, moves: CandidateMoves) -> Any:
    """What ActionSpace.numbered answers, or the error it raises (type and message)."""
    try:
        return space.numbered(game, moves)
    except ActionSpaceError as error:
        return type(error), str(error)


@pytest.mark.parametrize("variant", ["basic", "may-i", "purchase"])
def test_both_numberings_agree_past_the_meld_slots_and_on_moves_they_refuse(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = aec_env(variant, 2 if variant == "basic" else 4, seed=2)
    env.reset(seed=2)
    # two meld slots, so that random play puts melds past the last one (as six decks in basic would past 72)
    monkeypatch.setattr(action_space, "MELD_SLOTS", 2)
    env.space._kit = (*env.space._kit[:7], 2, *env.space._kit[8:])
    env.space.complete = False
    rng = np.random.default_rng(2)
    unslotted = 0
    for _ in range(300):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        game, seat = env.game, env.game.next_to_act()
        compiled = numbering(env.space, game, legal_actions(game, seat))
        with monkeypatch.context() as patch:
            patch.setattr(switch, "NATIVE", None)
            assert numbering(env.space, game, legal_actions(game, seat)) == compiled
        unslotted += compiled[2]
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert unslotted or variant != "may-i"  # (random play in basic and purchase seldom lays off onto a third meld)
    game, seat = env.game, env.game.next_to_act()
    meld = game.table[0].id if game.table else 1
    refused = [Action(seat, Verb.DISCARD), Action(seat, Verb.LAYOFF, meld=999, card=3, end="low"),
               Action(seat, Verb.LAYOFF, meld=meld, end="low"), Action(seat, Verb.TRADE, target=seat, new_pc=4),
               Action(seat, Verb.PURCHASE, card=3), Action(seat, Verb.EXCHANGE),
               Action(seat, Verb.SWAP, meld=meld, card=52), Action(seat, Verb.MOVE, meld=meld, card=52, end="high")]
    for action in refused:
        listing = CandidateMoves([Action(seat, Verb.DOWN, melds=(MeldSpec("set", (0, 13, 26)),)), action])
        compiled = numbering(env.space, game, listing)
        with monkeypatch.context() as patch:
            patch.setattr(switch, "NATIVE", None)
            assert numbering(env.space, game, listing) == compiled, action


@needs_native
@pytest.mark.parametrize("variant", BUILT_IN)
def test_both_histories_agree(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = aec_env(variant, 4 if variant != "basic" else 3, seed=7)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    compiled, python = History(env.players, 0.25), History(env.players, 0.25)
    from rummy.features.history import _VERBS
    for step in range(600):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        game = env.game
        compiled.update(game)
        with monkeypatch.context() as patch:
            patch.setattr(switch, "NATIVE", None)
            python.update(game)
        assert compiled.counts.tobytes() == python.counts.tobytes() and compiled.ring.tobytes() == python.ring.tobytes()
        if step % 50 == 0:  # the compiled core itself answers the whole round (no fallback to Python)
            fresh = History(env.players, 0.25)
            start = game.round_starts[-1] if game.round_starts else 0
            assert switch.BUILT.history_add(fresh.counts, fresh.ring, env.players, 0.25,  # type: ignore[union-attr]
                                            game.log, start, len(game.log), game.pickups, _VERBS) is True
            assert fresh.counts.tobytes() == python.counts.tobytes() and fresh.ring.tobytes() == python.ring.tobytes()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_a_history_the_core_refuses_partway_is_read_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    env = aec_env("may-i", 4, seed=5)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(80):
        observation, _, _, _, _ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    with monkeypatch.context() as patch:
        patch.setattr(switch, "NATIVE", None)
        python = History(4, 0.25)
        python.update(env.game)

    def refuse(counts: Any, ring: Any, *arguments: Any) -> None:  # writes some numbers, then refuses
        counts[0, 0, 0] = ring[0, 0] = 9.0

    compiled = History(4, 0.25)
    monkeypatch.setattr(switch, "NATIVE", SimpleNamespace(history_add=refuse))
    compiled.update(env.game)
    assert compiled.counts.tobytes() == python.counts.tobytes() and compiled.ring.tobytes() == python.ring.tobytes()
