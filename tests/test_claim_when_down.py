"""A player who is already down is told what a claim costs them (issue #27): the card and its penalty
cards go into a hand that can only lay cards off — the words come with the view's facts, so the browser
and the terminal copy no rule."""

from __future__ import annotations

from typing import Any

import pytest

from rummy.bots import make_bot
from rummy.engine import Game, Phase, new_game


def down_seat_offered_a_claim(variant: str, seed: int, options: dict[str, Any] | None = None) -> tuple[Game, int]:
    """Play ``variant`` with heuristic bots until a claim window waits on a seat that is down."""
    game = new_game(variant, ["Ann", "Bob", "Cid", "Dee"], seed=seed, options=options)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    for _ in range(5000):
        if game.phase is Phase.CLAIM:
            for seat in game.to_act:
                if game.down[seat] and any(a.verb.value == "buy" for a in game.legal_actions(seat)):
                    return game, seat
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            break
        seat = game.to_act[0]
        game.apply(bots[seat].choose(game.view(seat)))
    raise AssertionError("no claim window reached a seat that is down")


def test_a_down_player_offered_a_may_i_is_told_the_cards_can_only_be_laid_off() -> None:
    game, seat = down_seat_offered_a_claim("may-i", 1)
    facts = game.view(seat).to_json()["facts"]
    assert facts["claim_when_down"] == (
        "You are down: the card and a penalty card go into your hand, and you can only lay them off.")
    others = [s for s in range(game.n) if not game.down[s]]
    for other in others:
        assert game.view(other).to_json()["facts"]["claim_when_down"] is None
    assert game.view(None).to_json()["facts"]["claim_when_down"] is None


@pytest.mark.parametrize(("options", "words"), [
    ({"claim_penalty_cards": 0}, "You are down: the card goes into your hand, and you can only lay it off."),
    ({"claim_penalty_cards": 2}, "You are down: the card and 2 penalty cards go into your hand, and you can only "
                                 "lay them off."),
    ({"new_melds_after_laydown": True},
     "You are down: the card and a penalty card go into your hand, and you can lay them off or meld them."),
    ({"claim_allowed_when_down": False}, None),
])
def test_the_words_follow_the_house_rules(options: dict[str, Any], words: str | None) -> None:
    if words is None:  # a down player may not claim: the facts say nothing of a claim's cost to them
        game = new_game("may-i", ["Ann", "Bob", "Cid", "Dee"], seed=1, options=options)
        bots = [make_bot("heuristic", seed=i) for i in range(4)]
        while not (game.phase is Phase.CLAIM and any(game.down)):
            seat = game.to_act[0]
            game.apply(bots[seat].choose(game.view(seat)))
        down = game.down.index(True)
        assert not any(a.verb.value == "buy" for a in game.legal_actions(down))
        assert game.view(down).to_json()["facts"]["claim_when_down"] is None
        return
    game, seat = down_seat_offered_a_claim("may-i", 1, options)
    assert game.view(seat).to_json()["facts"]["claim_when_down"] == words


def test_the_terminal_claim_prompt_shows_the_words() -> None:
    pytest.importorskip("textual")
    from rummy.tui.render import claim_text
    from rummy.tui.snapshot import Snapshot

    game, seat = down_seat_offered_a_claim("may-i", 1)
    table = {"seats": [{"seat": s, "name": name} for s, name in enumerate(game.players)]}
    text = claim_text(Snapshot(seat, game.view(seat).to_json(), table), None)
    words = "You are down: the card and a penalty card go into your hand, and you can only lay them off."
    assert text.endswith("\n" + words)
