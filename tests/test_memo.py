"""The engine's memo tables: each bounded, all dropped by clear_memos, and a game plays the same without them."""

from __future__ import annotations

import random

from rummy.engine import Game, Phase, clear_memos, new_game
from rummy.engine.memo import memo_table, memoised, per_object, put, sizes


def test_a_full_table_is_emptied_before_it_grows_past_its_bound() -> None:
    table: dict[int, int] = memo_table("test squares", maxsize=3)
    for number in range(10):
        assert put(table, number, number * number) == number * number
        assert len(table) <= 3
    assert table.get(9) == 81


def test_per_object_is_keyed_on_identity_and_keeps_the_object() -> None:
    calls: list[tuple[int, ...]] = []

    @per_object("test lengths")
    def length(cards: tuple[int, ...]) -> int:
        calls.append(cards)
        return len(cards)

    first, equal = (1, 2, 3), tuple([1, 2, 3])
    assert length(first) == length(first) == 3
    assert length(equal) == 3  # an equal object that is not the same one is worked out again
    assert calls == [first, equal]


def test_clear_memos_empties_every_table() -> None:
    @memoised(maxsize=8)
    def double(number: int) -> int:
        return 2 * number

    double(4)
    _play(new_game("may-i", 4, seed=1), random.Random(1), 300)
    assert sum(sizes().values()) > 0 and double.cache_info().currsize == 1  # type: ignore[attr-defined]
    clear_memos()
    assert sum(sizes().values()) == 0 and double.cache_info().currsize == 0  # type: ignore[attr-defined]


def test_a_game_plays_the_same_with_memos_dropped_at_every_move() -> None:
    kept = _play(new_game("progressive-buy-it", 4, seed=7), random.Random(7), 400)
    dropped = _play(new_game("progressive-buy-it", 4, seed=7), random.Random(7), 400, drop=True)
    assert kept == dropped


def _play(game: Game, rng: random.Random, decisions: int, *, drop: bool = False) -> list[str]:
    played = []
    for _ in range(decisions):
        if game.game_over:
            break
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        if drop:
            clear_memos()
        actions = game.legal_actions(game.next_to_act())
        action = rng.choice(actions)
        game.apply(action)
        played.append(str(action))
    return played
