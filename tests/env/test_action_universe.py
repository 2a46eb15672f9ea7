"""Action space v2: one universe of ids for every variant, house rule and table of two to eight, ids a table
cannot use never legal, and composite slots described by the observation's ``candidates`` block."""

from __future__ import annotations

import hashlib
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rummy.bots.learned import FEATURES, LearnedBot, PolicyFile, save_policy  # noqa: E402
from rummy.engine import (  # noqa: E402
    ACTION_SPACE_SIZE,
    CARD_COUNT,
    COMPOSITE_SLOTS,
    COMPOSITE_VERBS,
    MAX_PLAYERS,
    Action,
    ActionSpace,
    ActionSpaceError,
    Phase,
    Verb,
    get_variant,
    new_game,
    player_view,
)
from rummy.engine.action_space import FAMILIES  # noqa: E402
from rummy.env import aec_env, gym_env  # noqa: E402
from rummy.features import CANDIDATE_FIELDS, CANDIDATE_SIZE, CandidateEncoder  # noqa: E402
from tests.random_games import random_play  # noqa: E402

VARIANTS = ("basic", "may-i", "purchase", "progressive-15", "progressive-buy-it")
HOUSE = {"basic": {"ace_mode": "low_or_high", "max_new_melds_per_turn": 1},
         "may-i": {"joker_swap": "none", "may_i_limit": 5},
         "purchase": {"first_dealer": "first_seat"},
         "progressive-15": {"ace_mode": "high_only", "claim_priority": "rotation"},
         "progressive-buy-it": {"joker_swap": "relocate_in_run", "wild_relocation_scope": "hand"}}
FIELD = {name: i for i, name in enumerate(CANDIDATE_FIELDS)}
CARDS = len(CANDIDATE_FIELDS)


def test_the_universe_is_contiguous_and_fixed() -> None:
    assert FAMILIES[0].start == 0 and ACTION_SPACE_SIZE == FAMILIES[-1].stop == 22402
    assert all(a.stop == b.start for a, b in zip(FAMILIES, FAMILIES[1:], strict=False))
    assert [f.start for f in FAMILIES[:6]] == [0, 1, 2, 3, 4, 57]  # ids 0-56 as in version 1, then the slots
    assert FAMILIES[5].shape == (COMPOSITE_SLOTS,)


def widest_table(variant: str) -> dict[str, Any]:
    """House rules seating two to eight players (basic needs a deal size and a target for five and more:
    its own deal sizes and targets stop at four, rules.md §6.2)."""
    table: dict[str, Any] = {"players.min": 2, "players.max": 8}
    if variant == "basic":
        table |= {"deal_size": 5, "target_by_players": {str(n): 200 for n in range(2, 9)}}
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_table_has_the_same_action_space(variant: str) -> None:
    # Default and house rules, two and eight players (the house rules players.min/max widen the range).
    sizes = set()
    for options in ({}, HOUSE[variant]):
        for players in (2, MAX_PLAYERS):
            table = {**options, **widest_table(variant)}
            env = aec_env(variant, players, table, seed=1)
            sizes.add(env.action_space("player_0").n)
            assert env.observation_space("player_0")["action_mask"].shape == (ACTION_SPACE_SIZE,)
            assert env.space.complete
    single = gym_env(variant, ["random"] * 2, seed=1)
    sizes.add(single.action_space.n)
    assert sizes == {ACTION_SPACE_SIZE}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, MAX_PLAYERS])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_checkers_pass_at_two_and_eight_players(variant: str, players: int) -> None:
    table = widest_table(variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(variant, players, table, seed=1), num_cycles=100)
        seed_test(lambda: aec_env(variant, players, table, seed=1), num_cycles=50)
        check_env(gym_env(variant, ["random"] * (players - 1), table, seed=1), skip_render_check=True)


def test_a_table_with_more_melds_than_slots_still_plays() -> None:
    # Six decks in basic could make 104 melds of three: moves onto melds past the 72nd have no id.
    env = aec_env("basic", 2, {"decks": 6}, seed=2)
    assert not env.space.complete and env.action_space("player_0").n == ACTION_SPACE_SIZE
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in env.agent_iter(max_iter=300):
        observation, _, terminated, truncated, _ = env.last()
        legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
        env.step(None if terminated or truncated else int(rng.choice(legal)))


def test_a_reset_to_another_table_keeps_the_action_space() -> None:
    env = gym_env("basic", ["random"], seed=1)
    before = env.action_space
    env.reset(seed=2, options={"variant": "may-i", "opponents": ["random"] * 7, "rules": {"joker_swap": "none"}})
    assert env.action_space == before and env.aec.players == 8


def _check_ids(space: ActionSpace, game: Any, seat: int) -> None:
    """Every legal id lies in a family the table uses, names a seat it has and a meld on its table."""
    for action_id in space.legal_ids(game, seat):
        family = space.family_of(action_id)
        assert family.verb in space.used
        action = space.action_of(game, seat, action_id)
        assert space.id_of(game, action) == action_id
        if action.verb is Verb.TRADE:
            assert action.target is not None and action.target != seat


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shortcut_for_simple_moves_and_discards_names_what_the_general_path_does(variant: str) -> None:
    game = new_game(variant, 3, seed=5)
    space = ActionSpace(game.variant, 3)
    general = ActionSpace(game.variant, 3)
    general._fixed = ()  # every id the general way
    for action_id in range(len(space._fixed)):
        for seat in range(3):
            try:
                expected: Action | str = general.action_of(game, seat, action_id)
            except ActionSpaceError as error:
                expected = str(error)
            try:
                got: Action | str = space.action_of(game, seat, action_id)
            except ActionSpaceError as error:
                got = str(error)
            assert got == expected, (variant, action_id, seat)


@pytest.mark.parametrize("variant", VARIANTS)
def test_ids_a_table_cannot_use_are_never_legal(variant: str) -> None:
    rules = get_variant(variant, {})
    game = new_game(variant, 3, seed=4)
    space = ActionSpace(rules, 3)
    unused = [family for family in FAMILIES if family.verb not in space.used]
    for family in unused:
        with pytest.raises(ActionSpaceError):
            space.action_of(game, game.active, family.start)
    for turn in random_play(game, random.Random(4), policy="steered", decisions=150):
        _check_ids(space, turn.game, turn.seat)
    if rules.uses_purchase_cards:  # trades with a seat a table of three lacks
        trade = next(f for f in FAMILIES if f.verb == Verb.TRADE)
        with pytest.raises(ActionSpaceError):
            space.action_of(game, 0, trade.start + 2 * CARD_COUNT)


def _played(before: list[int], after: list[int]) -> list[int]:
    return [b - a for b, a in zip(before, after, strict=True)]


def _check_rows(game: Any, seat: int, encoder: CandidateEncoder, composites: list[Action]) -> int:
    """Each candidate's row against the game after the move: the cards that left the hand, the cards left,
    the melds made.  The number of rows checked."""
    table = {meld.id: meld.cards for meld in game.table}
    for action in composites:
        row = encoder.row(action, table, game.sizes[seat])
        after = game.copy()
        after.apply(action)
        cards = row[CARDS:].tolist()
        assert row[FIELD["filled"]] == 1 and row[FIELD["cards_played"]] == sum(cards)
        assert row[FIELD[action.verb.value]] == 1 and row[1:6].sum() == 1
        assert row[FIELD["goes_out"]] == (row[FIELD["cards_left"]] == 0)
        if after.phase is not Phase.PLAY:  # the round or the game ended: the hands are scored, not played
            continue
        assert row[FIELD["cards_left"]] == sum(after.hands[seat]), action
        points = sum(encoder.points[card] * n for card, n in enumerate(cards))
        assert row[FIELD["points_shed"]] == pytest.approx(points)
        assert row[FIELD["wilds_played"]] == sum(n for card, n in enumerate(cards) if encoder.wild[card])
        assert row[FIELD["melds_made"]] == row[FIELD["groups_made"]] + row[FIELD["runs_made"]]
        if not any(step.verb in (Verb.SWAP, Verb.MOVE) for step in (*action.steps, action)):
            assert cards == _played(game.hands[seat], after.hands[seat]), action
        if action.verb in (Verb.DOWN, Verb.MELD, Verb.BOOK):
            assert row[FIELD["melds_made"]] == len(after.table) - len(game.table) == len(action.melds)
            assert row[FIELD["melds_extended"]] == 0
    return len(composites)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_candidate_row_says_what_the_move_does(variant: str) -> None:
    rows, target = 0, 20 if variant == "purchase" else 150  # random play seldom makes a book
    verbs: set[Verb] = set()
    for seed in range(40):  # whole games of steered random play, until enough rows are checked
        game = new_game(variant, 4 if variant != "basic" else 2, seed=seed)
        encoder = CandidateEncoder(game.variant)
        for turn in random_play(game, random.Random(seed), policy="steered"):
            composites = [a for a in turn.moves if a.verb in COMPOSITE_VERBS][:COMPOSITE_SLOTS]
            if composites:
                rows += _check_rows(turn.game, turn.seat, encoder, composites)
                verbs |= {a.verb for a in composites}
        if rows >= target:
            break
    assert rows >= target
    assert verbs & {Verb.DOWN, Verb.BOOK, Verb.MELD}


@pytest.mark.parametrize("variant", ["may-i", "progressive-buy-it"])
def test_the_observation_describes_the_slots_the_mask_allows(variant: str) -> None:
    env = aec_env(variant, 4, seed=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    block = env.encoder.blocks["candidates"]
    filled_turns = 0
    for agent in env.agent_iter(max_iter=1500):
        observation, _, terminated, truncated, _ = env.last()
        rows = observation["observation"][block.start:block.stop].reshape(COMPOSITE_SLOTS, CANDIDATE_SIZE)
        slots = observation["action_mask"][57:57 + COMPOSITE_SLOTS]
        assert np.array_equal(rows[:, FIELD["filled"]], slots.astype(np.float32))
        for other in env.possible_agents:  # only the agent to act has candidates
            if other != agent:
                assert not env.observe(other)["observation"][block.start:block.stop].any()
        if slots.any():
            filled_turns += 1
            seat = env.seat_of(agent)
            composites = [env.space.action_of(env.game, seat, 57 + k) for k in np.flatnonzero(slots)]
            table = {meld.id: meld.cards for meld in env.game.table}
            expected = [env.encoder._candidate_rows.row(a, table, env.game.sizes[seat]) for a in composites]
            scale = env.encoder.scale[block.start:block.stop].reshape(COMPOSITE_SLOTS, CANDIDATE_SIZE)
            assert np.array_equal(np.rint(rows[:len(expected)] * scale[:len(expected)]), np.array(expected))
        legal = np.flatnonzero(observation["action_mask"])
        composite = legal[(legal >= 57) & (legal < 57 + COMPOSITE_SLOTS)]
        pick = composite[0] if composite.size and rng.random() < 0.5 else rng.choice(legal) if legal.size else None
        env.step(None if terminated or truncated else int(pick))  # type: ignore[arg-type]
    assert filled_turns >= 5


def test_a_learned_policy_chooses_as_it_did_under_version_1(tmp_path: Path) -> None:
    # The learned bot describes moves by family, card and composite rank, never by an id's place, and reads
    # the observation's blocks by name: a fixed policy makes the same 480 choices as under action space
    # version 1 and its observation (the fingerprint was taken with version 1's code).
    chosen = []
    for variant in ("may-i", "basic", "progressive-buy-it", "purchase"):
        path = tmp_path / f"{variant}.npz"
        save_policy(path, PolicyFile(variant, 4, np.random.default_rng(1).normal(size=len(FEATURES))))
        bot = LearnedBot(path=str(path))
        game = new_game(variant, 4, seed=5)
        for turn in random_play(game, random.Random(5), policy="steered", decisions=120):
            chosen.append(str(bot.choose(player_view(turn.game, turn.seat))))
    assert len(chosen) == 480
    assert hashlib.sha256("\n".join(chosen).encode()).hexdigest()[:16] == "8885f19bd5ffda2b"
