"""The candidate list's deferred entries: the lazily listed lay-down is exactly the eager one."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from rummy.engine.actions import Action, Verb
from rummy.engine.candidates import CandidateMoves, Deferred
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.solver import find_lay_down
from tests.random_games import random_play
from tests.variants import CONTRACT_VARIANTS


def eager_lay_down(game: Game, seat: int) -> Action | None:
    """The lay-down the list held before it was deferred: the solver's best under the round's rules, if legal."""
    rules = game.rules
    melds = find_lay_down(game.hands[seat], rules.contract, game.variant,
                          final_discard_allowed=rules.final_discard_allowed,
                          must_use_all=rules.must_go_out_on_laydown)
    if melds is None:
        return None
    action = Action(seat, Verb.DOWN, melds=melds)
    return action if game.is_legal(action) else None


@pytest.mark.parametrize("variant", CONTRACT_VARIANTS)
def test_the_listed_lay_down_is_the_best_legal_one(variant: str) -> None:
    checked = 0
    for seed in range(2):
        game = new_game(variant, 4, seed=seed)
        for turn in random_play(game, random.Random(seed), decisions=600):  # uniform play: hands grow large
            if game.phase is Phase.PLAY and not game.down[turn.seat]:
                listed = [a for a in turn.moves if a.verb is Verb.DOWN]
                expected = eager_lay_down(game, turn.seat)
                assert listed == ([] if expected is None else [expected])
                checked += expected is not None
    assert checked > 0


def test_a_deferred_entry_is_worked_out_once_and_only_when_read() -> None:
    made: list[int] = []

    def make() -> Action:
        made.append(1)
        return Action(0, Verb.TAKE)

    moves = CandidateMoves([Action(0, Verb.DRAW), Deferred(Verb.TAKE, make)])
    assert len(moves) == 2 and moves.verbs() == [Verb.DRAW, Verb.TAKE] and made == []
    assert moves[0] == Action(0, Verb.DRAW) and made == []
    assert moves[-1] == Action(0, Verb.TAKE) and list(moves) == [Action(0, Verb.DRAW), Action(0, Verb.TAKE)]
    assert made == [1]
    assert moves[0:2] == list(moves) and Action(0, Verb.TAKE) in moves
    with pytest.raises(IndexError):
        moves[2]


def test_a_lay_down_read_after_the_game_moved_on_is_the_one_listed() -> None:
    rng = random.Random(5)
    game = new_game("progressive-buy-it", 4, seed=5)
    while True:  # uniform play until a not-down player's lay-down is listed deferred
        seat = game.next_to_act()
        moves = game.legal_actions(seat)
        verbs = moves.verbs()
        if Verb.DOWN in verbs and isinstance(moves._items[verbs.index(Verb.DOWN)], Deferred):
            expected = eager_lay_down(game, seat)
            game.apply(moves[verbs.index(Verb.DISCARD)])  # the game moves on before the entry is read
            assert expected is not None and moves[verbs.index(Verb.DOWN)] == expected
            return
        game.apply(rng.choice(moves))
        if game.phase is Phase.ROUND_OVER:
            game.deal()


def test_doctests_collected_before_the_tests_leave_one_copy_of_the_module() -> None:
    """Collecting a module's doctests before anything imported the package keeps one copy of the module
    (conftest.py), so the test above, collected afterwards, meets the engine's own ``Deferred``."""
    root = Path(__file__).parent.parent
    this = Path(__file__).relative_to(root)
    result = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider",
                             "src/rummy/engine/candidates.py", str(this),
                             f"--deselect={this}::test_doctests_collected_before_the_tests_leave_one_copy_of_the_module"],
                            cwd=root, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
