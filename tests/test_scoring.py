"""The scoring rules (rummy.engine.scoring): round scores, the game's end, ranking, winners and settlement."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from rummy.bots import make_bot, play_game
from rummy.engine import Phase, new_game
from rummy.engine.cards import parse_card, to_counts
from rummy.engine.house_rules import get_variant
from rummy.engine.modes import RoundEnd, Scoring
from rummy.engine.scoring import (
    Board,
    BookScoring,
    PenaltyScoring,
    RoundEnding,
    RoundResult,
    WinnerCollectsScoring,
    scoring_rule,
)
from rummy.engine.variants import VARIANTS


def hand(text: str) -> list[int]:
    return to_counts(parse_card(name) for name in text.split())


# progressive-buy-it: joker 25, ace 15, 3–9 5, ten and faces 10, 2 5.
HANDS = [hand(""), hand("JK AS"), hand("3C KD"), hand("2H")]  # 0, 40, 15, 5 points


def test_each_scoring_mode_has_its_rule() -> None:
    expected = {Scoring.PENALTY: PenaltyScoring, Scoring.WINNER_COLLECTS: WinnerCollectsScoring,
                Scoring.BOOK: BookScoring}
    for mode in Scoring:
        variant = dataclasses.replace(get_variant("basic"), scoring=mode)
        rule = scoring_rule(variant)
        assert type(rule) is expected[mode] and rule.scoring is mode and rule.variant is variant
    assert {type(scoring_rule(v)) for v in VARIANTS.values()} == set(expected.values())


@pytest.mark.parametrize("end,went_out,exhaustion,scores", [
    (RoundEnd.OUT, 0, "penalty", (0, 40, 15, 5)),
    (RoundEnd.EXHAUSTED, None, "penalty", (0, 40, 15, 5)),
    (RoundEnd.EXHAUSTED, None, "void", (0, 0, 0, 0)),
    (RoundEnd.STALEMATE, None, "penalty", (0, 0, 0, 0)),
])
def test_penalty_charges_the_hands_left(end: RoundEnd, went_out: int | None, exhaustion: str,
                                        scores: tuple[int, ...]) -> None:
    rule = scoring_rule(get_variant("progressive-buy-it", {"exhaustion_scoring": exhaustion}))
    score = rule.score_round(RoundEnding(end, went_out, HANDS))
    assert score.scores == scores and score.round_winner is None


def test_winner_collects_the_other_hands_doubled_for_rummy() -> None:
    rule = scoring_rule(get_variant("basic"))  # ace 1, 3 → 3, king 10, 2 → 2; rummy_multiplier 2
    hands = [hand("AS 3C"), hand(""), hand("KD 2H")]
    assert rule.score_round(RoundEnding(RoundEnd.OUT, 1, hands)).scores == (0, 16, 0)
    assert rule.score_round(RoundEnding(RoundEnd.OUT, 1, hands, went_rummy=True)).scores == (0, 32, 0)
    assert rule.score_round(RoundEnding(RoundEnd.STALEMATE, None, hands)).scores == (0, 0, 0)


def test_a_book_wins_the_round_and_scores_no_points() -> None:
    rule = scoring_rule(get_variant("purchase"))
    won = rule.score_round(RoundEnding(RoundEnd.BOOK, 2, HANDS))
    assert won.scores == (0, 0, 0, 0) and won.round_winner == 2
    assert rule.score_round(RoundEnding(RoundEnd.EXHAUSTED, None, HANDS)).round_winner is None


def test_when_the_game_is_over() -> None:
    buy_it = scoring_rule(get_variant("progressive-buy-it"))
    assert not buy_it.game_finished(Board((0, 0, 0), round_number=7), RoundEnd.OUT)
    assert buy_it.game_finished(Board((0, 0, 0), round_number=8), RoundEnd.EXHAUSTED)
    basic = scoring_rule(get_variant("basic"))  # target 150 for 3 players, 100 for 2
    assert not basic.game_finished(Board((149, 0, 0)), RoundEnd.OUT)
    assert basic.game_finished(Board((0, 150, 0)), RoundEnd.OUT)
    assert basic.game_finished(Board((100, 0)), RoundEnd.OUT)
    purchase = scoring_rule(get_variant("purchase", {"match_target": 2, "max_turns": 30}))
    assert not purchase.game_finished(Board((0, 0), match_wins=(1, 0)), RoundEnd.BOOK)
    assert purchase.game_finished(Board((0, 0), match_wins=(1, 2)), RoundEnd.BOOK)
    assert not purchase.game_over(Board((0, 0), match_wins=(0, 0), turns_played=29), RoundEnd.STALEMATE)
    assert purchase.game_over(Board((0, 0), match_wins=(0, 0), turns_played=30), RoundEnd.STALEMATE)
    capped_basic = scoring_rule(get_variant("basic", {"max_turns": 30}))  # the cap ends every variant's game
    assert capped_basic.game_over(Board((10, 0), turns_played=30), RoundEnd.STALEMATE)
    assert not capped_basic.game_over(Board((10, 0), turns_played=29), RoundEnd.STALEMATE)


def rounds(*scores: tuple[int, ...]) -> tuple[RoundResult, ...]:
    return tuple(RoundResult(number, None, s, RoundEnd.OUT) for number, s in enumerate(scores, start=1))


def test_ranking_winners_and_positions_follow_the_rule() -> None:
    penalty = scoring_rule(get_variant("may-i"))
    board = Board((30, 10, 30, 10), results=rounds((20, 0, 0, 10), (10, 10, 30, 0)))
    assert penalty.ranking(board) == [1, 3, 0, 2]
    assert penalty.positions(board) == [3, 1, 3, 1] and penalty.winners(board) == [1, 3]
    last_round = scoring_rule(get_variant("may-i", {"tie_break": "last_round"}))
    assert last_round.ranking(board) == [3, 1, 0, 2]  # seat 3 scored 0 in the last round, seat 1 10
    assert last_round.positions(board) == [3, 2, 4, 1] and last_round.winners(board) == [3]
    collects = scoring_rule(get_variant("basic"))
    assert collects.ranking(Board((40, 160, 160))) == [1, 2, 0]
    assert collects.winners(Board((40, 160, 160))) == [1, 2]


def test_books_rank_by_rounds_won_and_no_book_means_no_winner() -> None:
    books = scoring_rule(get_variant("purchase"))
    board = Board((0, 0, 0), match_wins=(0, 2, 1))
    assert books.game_scores(board) == (0, 2, 1)
    assert books.ranking(board) == [1, 2, 0] and books.winners(board) == [1]
    assert books.ranking(Board((0, 0, 0), match_wins=(0, 0, 0))) == [0, 1, 2]
    assert books.winners(Board((0, 0, 0), match_wins=(0, 0, 0))) == []


def test_settlement_pays_by_position_and_splits_the_kitty() -> None:
    rule = scoring_rule(get_variant("progressive-15", {"kitty_split": "two_thirds_one_third"}))
    rows = rule.settle(Board((10, 40, 90)), kitty=9, paid=[3, 3, 3])  # unit 2: +6, −2, −4
    assert [(r.position, r.payment, r.kitty, r.net) for r in rows] == [
        ("1", Fraction(6), Fraction(6), Fraction(9)), ("2", Fraction(-2), Fraction(3), Fraction(-2)),
        ("3", Fraction(-4), Fraction(0), Fraction(-7))]
    assert scoring_rule(get_variant("may-i")).settle(Board((0, 0, 0)), kitty=0, paid=[0, 0, 0]) == []


def test_a_book_settlement_pays_by_rounds_won() -> None:
    rule = scoring_rule(get_variant("purchase", {"settlement_unit": 1}))
    rows = rule.settle(Board((0, 0, 0), match_wins=(0, 0, 1)), kitty=0, paid=[0, 0, 0])
    assert [(r.seat, r.position, r.net) for r in rows] == [
        (0, "2", Fraction(-3, 2)), (1, "2", Fraction(-3, 2)), (2, "1", Fraction(3))]


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_played_game_scores_and_ends_through_its_rule(variant_id: str) -> None:
    game = play_game(variant_id, [make_bot("greedy", seed=seat) for seat in range(3)], seed=5)
    rule = scoring_rule(game.variant)
    assert game.game_over and all(type(result.end) is RoundEnd for result in game.results)
    assert game.totals == [sum(result.scores[seat] for result in game.results) for seat in range(3)]
    assert sum(game.match_wins) == sum(1 for result in game.results if result.end is RoundEnd.BOOK)
    assert game.winners() == rule.winners(game) and game.ranking() == rule.ranking(game)


@pytest.mark.parametrize("variant", ["basic", "may-i", "progressive-buy-it", "progressive-15", "purchase"])
def test_the_turn_cap_ends_every_variant_s_game_as_a_draw(variant: str) -> None:
    """``max_turns`` (rules.md §7.7, house rule "endless games") ends the game as a draw in every variant: the round
    that reaches the cap ends in a stalemate, the game is over and nobody wins.  (In ``basic`` the rounds dealt
    after the cap ended at once, for ever: the game never ended.)"""
    game = new_game(variant, 4, seed=1, options={"max_turns": 30})
    rng = random.Random(1)
    while not game.game_over:
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        game.apply(rng.choice(game.legal_actions(game.next_to_act())))
        assert game.turns_played <= 30
    assert game.turns_played == 30 and game.results[-1].end is RoundEnd.STALEMATE
    assert game.winners() == []
