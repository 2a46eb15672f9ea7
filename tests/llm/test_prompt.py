"""The prompt: the rules of the variant, the observation in text or JSON, the phase's instruction in the
variant's words, the numbered moves and the answer format."""

from __future__ import annotations

import json

import pytest

from rummy.bots import decide, make_bot
from rummy.engine.game import Game, new_game
from rummy.engine.view import PlayerView
from rummy.llm.observation import observation_json
from rummy.llm.prompt import prompt_messages, refusal_message


def first_view(variant: str, phase: str, *, seat_is_active: bool) -> tuple[Game, PlayerView]:
    """The first decision of ``phase`` in a heuristic game of ``variant``, by the active seat or another."""
    game = new_game(variant, ["Ann", "Bob", "Cid"], seed=1)
    bot = make_bot("heuristic")
    while True:
        seat = game.next_to_act()
        if game.phase.value == phase and (seat == game.active) == seat_is_active:
            return game, game.view(seat)
        game.apply(decide(game, seat, bot))


@pytest.mark.parametrize("variant, words", [
    ("may-i", ["May I take the", "1 penalty card", "May-I's left this round", 'call "May I?"']),
    ("progressive-buy-it", ["Buy the", "penalty card", "no limit on them", "I'll Buy It!"]),
])
def test_a_claim_window_names_the_card_the_cost_and_the_claims_left(variant: str, words: list[str]) -> None:
    game, view = first_view(variant, "claim", seat_is_active=False)
    system, user = (m["content"] for m in prompt_messages(view))
    assert "# Rules of this table" in system and "Card points:" in system
    card = f"The {user.split('The ', 1)[1].split(' ', 1)[0]} is offered"
    assert card == f"The {observation_json(view)['claim_card']} is offered"
    for word in words:
        assert word in user
    seat = view.seat
    assert user.endswith(f"Legal moves:\n1. p{seat} buy\n2. p{seat} pass\n\nAnswer with one word: BUY or PASS.")


def test_the_play_lists_every_legal_move_numbered_in_record_syntax() -> None:
    game, view = first_view("may-i", "play", seat_is_active=True)
    user = prompt_messages(view)[1]["content"]
    assert "discard CARD: discard a card, which ends your turn" in user
    for number, action in enumerate(view.legal_actions, 1):
        assert f"\n{number}. {action}\n" in user + "\n"
    assert f"Your hand ({len(view.hand)} cards):" in user


def test_the_json_observation() -> None:
    game, view = first_view("basic", "draw", seat_is_active=True)
    user = prompt_messages(view, "json")[1]["content"]
    seen = json.loads(user.split("\n\n", 1)[0])
    assert seen["hand"] == view.to_json()["hand"] and seen["seat"] == view.seat
    assert "legal_actions" not in seen and "revealed_hands" not in seen
    assert "It is your turn: draw the top card of the stock (draw); or take the top discard" in user


def test_the_refusal_repeats_the_answer_format() -> None:
    game, view = first_view("basic", "draw", seat_is_active=True)
    message = refusal_message("'hm' is neither a listed move", view)
    assert message == {"role": "user", "content": "Your answer was refused: 'hm' is neither a listed move. "
                       f"Answer with one line: the move as written above (for example `{view.legal_actions[-1]}`) "
                       "or its number."}


def test_the_seat_names_sent_are_plain_names() -> None:
    from rummy.engine import new_game
    from rummy.llm.observation import seat_name

    spec = "llm:model=m:base_url=http://10.1.2.3:8000/v1:log=/var/tmp/seat.jsonl"
    assert seat_name(spec) == "llm" and seat_name(spec + "#2") == "llm#2"
    assert seat_name("Ann") == "Ann" and seat_name("heuristic#3") == "heuristic#3"
    game = new_game("basic", [spec, "ismcts:simulations=50"], seed=2)
    view = game.view(game.active)
    for observation in ("text", "json"):
        user = prompt_messages(view, observation)[1]["content"]
        assert "10.1.2.3" not in user and "seat.jsonl" not in user and "simulations" not in user
    assert "p0 llm" in prompt_messages(view)[1]["content"]


def test_each_listed_lay_down_says_where_its_wilds_stand() -> None:
    from rummy.engine import get_variant, new_game, parse_action
    from rummy.llm.prompt import numbered_moves, wild_places

    game, view = first_view("may-i", "play", seat_is_active=True)
    move = parse_action(f"p{view.seat} down run:3D-2H-5D-JK set:TC-TD-TH", 4)
    assert wild_places(move, view) == "run:3D-2H-5D-JK: 2H as 4D, JK as 6D"
    group = parse_action(f"p{view.seat} down set:AH-AS-JK-JK", 4)
    assert wild_places(group, view) == "set:AH-AS-JK-JK: JK as any A, JK as any A"
    assert wild_places(parse_action(f"p{view.seat} down set:TC-TD-TH", 4), view) == ""
    assert get_variant("may-i") is not None
    # in the prompt, the line under each such move; moves without wilds have none
    for seed in range(60):
        game = new_game("may-i", 4, seed=seed)
        for seat in range(4):
            view = game.view(seat)
            listed = numbered_moves(view).splitlines()
            for number, action in enumerate(view.legal_actions, 1):
                at = listed.index(f"{number}. {action}")
                places = wild_places(action, view)
                follows = listed[at + 1] if at + 1 < len(listed) else ""
                assert follows == (f"   wilds: {places}" if places else follows) and (
                    places or not follows.startswith("   wilds:"))
