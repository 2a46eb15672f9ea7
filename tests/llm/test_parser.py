"""The answer parser: every accepted shape, the refusals, and the judging of moves the list does not hold."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummy.bots import decide, make_bot
from rummy.engine.actions import Action, Verb
from rummy.engine.game import Game, new_game
from rummy.engine.melds import MeldSpec
from rummy.engine.view import PlayerView
from rummy.llm.parser import IllegalAnswer, UnparsableAnswer, parse_answer, read_answer
from rummy.search.determinize import search_view
from rummy.search.playout import drive
from tests.variants import BUILT_IN


def play_view() -> PlayerView:
    """``basic``, seat 1 after drawing: its moves are discards and melds."""
    game = new_game("basic", ["Ann", "Bob"], seed=1)
    game.apply_text(f"p{game.active} draw")
    return search_view(game, game.active)


def claim_view(variant: str = "may-i") -> PlayerView:
    """The first claim window of a game of ``variant`` played by the heuristic bot."""
    game = new_game(variant, ["Ann", "Bob", "Cid"], seed=1)
    bot = make_bot("heuristic")
    while game.phase.value != "claim" or game.active in game.to_act:
        game.apply(decide(game, game.next_to_act(), bot))
    return search_view(game, game.to_act[0])


def discard(view: PlayerView) -> Action:
    return next(a for a in view.legal_actions if a.verb is Verb.DISCARD)


@pytest.mark.parametrize("shape", [
    "{move}", "{body}", "`{move}`", '"{body}"', "```\n{move}\n```", "```text\n{body}.\n```", "Answer: {body}",
    "- {move}", "**{body}**", "I will {body} because it is high.", "Thinking...\nFinal answer: {move}",
    "{upper}",
])
def test_a_move_in_record_syntax(shape: str) -> None:
    view = play_view()
    move = discard(view)
    text = shape.format(move=str(move), body=move.body(), upper=str(move).upper())
    assert read_answer(text, view) == move


def test_suit_symbols_read_as_letters() -> None:
    view = play_view()
    move = discard(view)
    symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    text = move.body()[:-1] + symbol[move.body()[-1]]
    assert read_answer(text, view) == move


@pytest.mark.parametrize("text", ["3", "#3", "3.", "Move 3", "option 3", "```\n3\n```", " 3 "])
def test_a_move_number(text: str) -> None:
    view = play_view()
    assert read_answer(text, view) == view.legal_actions[2]


@pytest.mark.parametrize("text, verb", [
    ("BUY", Verb.BUY), ("pass", Verb.PASS), ("PASS.", Verb.PASS), ("May I?", Verb.BUY), ("may i", Verb.BUY),
    ("**BUY**", Verb.BUY), ("buy", Verb.BUY),
])
def test_claim_words(text: str, verb: Verb) -> None:
    view = claim_view()
    assert read_answer(text, view) == Action(view.seat or 0, verb)


def test_the_buy_it_call_is_a_buy() -> None:
    view = claim_view("progressive-buy-it")
    assert read_answer("I'll Buy It!", view).verb is Verb.BUY


@pytest.mark.parametrize("text", ["", "   ", "```\n```", "no idea", "I pick the best card", "p0 discard"])
def test_unparsable(text: str) -> None:
    with pytest.raises(UnparsableAnswer):
        parse_answer(text, play_view())


@pytest.mark.parametrize("text, reason", [
    ("99", "there is no move 99: the moves are numbered 1 to"),
    ("0", "there is no move 0"),
    ("BUY", "is not a legal move now"),  # no claim window
    ("take", "is not a legal move now"),  # already drawn
])
def test_illegal(text: str, reason: str) -> None:
    with pytest.raises(IllegalAnswer, match=reason):
        read_answer(text, play_view())


def test_another_seats_move_is_illegal() -> None:
    view = play_view()
    other = 1 - (view.seat or 0)
    with pytest.raises(IllegalAnswer, match=f"not yours to play: you are p{view.seat}"):
        read_answer(f"p{other} {discard(view).body()}", view)


def test_a_pass_outside_a_claim_window_is_illegal() -> None:
    with pytest.raises(IllegalAnswer):
        read_answer("PASS", play_view())


def _variations(action: Action) -> list[Action]:
    """Lay-downs close to ``action``: each meld with one card fewer, or a meld left out."""
    found = []
    for index, meld in enumerate(action.melds):
        if len(meld.cards) > 1:
            shorter = MeldSpec(meld.kind, meld.cards[:-1], meld.declared)
            found.append(dataclasses.replace(action, melds=(*action.melds[:index], shorter,
                                                            *action.melds[index + 1:])))
        if len(action.melds) > 1:
            found.append(dataclasses.replace(action, melds=action.melds[:index] + action.melds[index + 1:]))
    return found


@pytest.mark.parametrize("variant", ["may-i", "basic", "progressive-buy-it"])
def test_an_unlisted_lay_down_is_judged_as_the_engine_judges_it(variant: str) -> None:
    """A lay-down the list does not hold is judged on the seat's redacted copy: the verdict is the real game's."""
    game: Game = new_game(variant, 3, seed=4)
    bot = make_bot("heuristic")
    verdicts = []

    def judge_variations(g: Game, seat: int) -> Action:
        view = search_view(g, seat)
        listed = {str(a) for a in view.legal_actions}
        for action in view.legal_actions:
            if action.verb not in (Verb.DOWN, Verb.MELD):
                continue
            for variation in _variations(action):
                if str(variation) in listed:
                    continue
                legal = g.is_legal(variation)
                verdicts.append(legal)
                if legal:
                    assert read_answer(variation.body(), view) == variation
                else:
                    with pytest.raises(IllegalAnswer, match="is not legal: "):
                        read_answer(variation.body(), view)
        return decide(g, seat, bot)

    drive(game, judge_variations)
    # both verdicts came up (in basic every variation of these games' melds is too short to be legal)
    assert set(verdicts) == ({False} if variant == "basic" else {True, False})


TOKENS = ["p0", "p1", "p9", "draw", "take", "buy", "pass", "down", "meld", "layoff", "swap", "move", "rearrange",
          "discard", "purchase", "trade", "exchange", "book", "1", "2", "99", "0", "low", "high", "mid", "=>", "1,2",
          ",", ";", "set:7C-7D-7S", "run:3D-4D-5D-6D", "run:JK-JK-JK=5H", "set:JK-JK-JK=Q", "book:AC-AD-AH-AS",
          "pair:9C-9D", "set:", "run:XX-YY", "7H", "TS", "JK", "ZZ", "10h", "AS", "2C", "#", "`", "May I"]


@pytest.mark.parametrize("variant", BUILT_IN)
def test_any_answer_is_refused_or_legal_in_the_real_game(variant: str) -> None:
    """Random answers made of record tokens: each is refused, or names an action the real game accepts."""
    rng = random.Random(variant)
    game = new_game(variant, 3, seed=2)
    bot = make_bot("heuristic")
    accepted = 0

    def try_answers(g: Game, seat: int) -> Action:
        nonlocal accepted
        view = search_view(g, seat)
        for _ in range(8):
            text = " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 6)))
            try:
                action = read_answer(text, view)
            except (IllegalAnswer, UnparsableAnswer):
                continue
            assert g.is_legal(action), (text, str(action))
            accepted += 1
        return decide(g, seat, bot)

    drive(game, try_answers)
    assert accepted > 0
