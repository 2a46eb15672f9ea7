"""The example records replay cleanly, and every round's scores match an independent count."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummy.cli import main
from rummy.engine.cards import card_names
from rummy.engine.game import Game, Phase
from rummy.record import load, prepare
from tests.variants import BUILT_IN

EXAMPLES = sorted(Path(__file__).parent.parent.joinpath("examples").glob("*.json"))

# Card values straight from rules.md (§3.11, §4.11, §5.11, §6.8), by rank letter.
VALUES = {
    "progressive-buy-it": {"JK": 25, "A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, **dict.fromkeys("23456789", 5)},
    "progressive-15": {"JK": 20, "2": 20, "A": 15, "K": 10, "Q": 10, "J": 10, **dict.fromkeys("3456789T", 5)},
    "may-i": {"JK": 10, "2": 10, "A": 15, **dict.fromkeys("34567", 5), **dict.fromkeys("89TJQK", 10)},
    "basic": {"A": 1, **{str(v): v for v in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10},
}


def hand_value(variant: str, cards: list[str]) -> int:
    table = VALUES[variant]
    return sum(table["JK"] if card == "JK" else table[card[0]] for card in cards)


def expected_scores(game: Game) -> list[int]:
    variant = game.variant.id
    result = game.results[-1]
    hands = [card_names(game.hand(seat)) for seat in range(game.n)]
    if variant == "purchase" or result.end == "stalemate":
        return [0] * game.n
    if variant == "basic":
        scores = [0] * game.n
        if result.went_out is not None:
            scores[result.went_out] = sum(hand_value(variant, h) for s, h in enumerate(hands) if s != result.went_out)
        return scores
    return [0 if seat == result.went_out else hand_value(variant, hands[seat]) for seat in range(game.n)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_with_hand_counted_scores(path: Path) -> None:
    record = load(path)
    game, actions = prepare(record)
    for rnd, parsed in zip(record.rounds, actions, strict=True):
        game.deal(dealer=rnd.dealer, hands=rnd.hands, upcard=rnd.upcard, stock=rnd.stock,
                  purchase_cards=rnd.purchase_cards)
        for action in parsed:
            game.apply(action)
        assert game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
        scores = list(game.results[-1].scores)
        if game.variant.id == "basic" and scores != expected_scores(game):
            # going rummy doubles the collected points
            assert [s // game.variant.rummy_multiplier for s in scores] == expected_scores(game)
        else:
            assert scores == expected_scores(game)
    assert game.game_over
    assert main(["replay", str(path), "--json"]) == 0


def test_every_variant_has_an_example() -> None:
    assert {p.stem for p in EXAMPLES} == set(BUILT_IN)
