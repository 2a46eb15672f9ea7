"""Typed moves and their completion (:mod:`rummy.tui.entry`), and hints in words (:mod:`rummy.tui.hints`):
completion only ever extends what was typed, offers only cards the hand holds beyond those already
written, and every hinted move the local table suggests is legal."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.engine.cards import card_name
from rummy.tui.entry import complete, full_action
from rummy.tui.hints import hint, move_in_words
from rummy.tui.local import LocalTable
from tests.profiles import examples

CARD_NAMES = [card_name(c) for c in range(53)]
hands = st.lists(st.sampled_from(CARD_NAMES), min_size=1, max_size=14)
typed = st.text(alphabet="0123456789tjqkaTJQKACDHSs :-dnowrui;", max_size=24)


@given(hands, typed)
@settings(max_examples=examples(300))
def test_completion_extends_what_was_typed_with_cards_of_the_hand(hand: list[str], value: str) -> None:
    legal = ["draw", "discard " + hand[0]]
    completed = complete(value, hand, legal)
    if completed is None:
        return
    assert completed.startswith(value) and len(completed) > len(value)


@given(hands)
@settings(max_examples=examples(200))
def test_a_completed_card_is_one_the_hand_still_holds(hand: list[str]) -> None:
    """Write a meld card by card, each time typing a rank and taking the completion: the line never holds
    a card more often than the hand does, and every card of the hand gets written."""
    line = "down set:"
    for _ in range(len(hand) + 1):
        completions = (complete(line + rank, hand, []) for rank in dict.fromkeys(name[0] for name in hand))
        completed = next((c for c in completions if c is not None), None)
        if completed is None:
            break
        line = completed + "-"
    written = line.removeprefix("down set:").rstrip("-").split("-")
    assert sorted(written) == sorted(hand)


def test_the_seat_prefix_is_optional_and_kept_when_given() -> None:
    assert full_action("  layoff 3 8h ", 1) == "p1 layoff 3 8h"
    assert full_action("P1 draw", 1) == "P1 draw"


def test_hints_name_the_move_in_words() -> None:
    assert move_in_words("layoff 3 8H") == "lay off the 8♥ on meld 3"
    assert move_in_words("discard JK") == "discard the joker"
    assert hint(["discard AC"], "discard AC").words == "Discard the A♣ — press Enter to play it."  # not "a♣"
    assert hint(["layoff 2 7S", "discard 9C"], None).move == "layoff 2 7S"
    assert hint(["buy", "pass"], "buy").words.startswith("Claim the card")


def test_every_suggested_move_is_legal_for_the_person() -> None:
    table = LocalTable.start("progressive-buy-it", ["heuristic", "me", "greedy", "random"], seed=4)
    suggestions = 0
    while not table.game.results and suggestions < 400:
        if table.bot_to_act() is not None:
            table.step_bot()
            continue
        move = table.suggest(table.person)
        assert move is not None
        table.play(table.person, move)  # raises if the engine refuses it
        suggestions += 1
    assert table.game.results, "the round did not end"


def test_the_header_names_whose_discard_is_offered() -> None:
    """The claim window offers the discarder's card: the header names the discarder, not the player in turn."""
    from rummy.tui.render import offered_text
    from rummy.tui.snapshot import Snapshot

    table = {"seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}, {"seat": 2, "name": "Cid"}]}
    view = {"phase": "claim", "active": 2, "claim_from": 1}
    assert offered_text(Snapshot(seat=0, view=view, table=table)) == "Bob's discard is offered"
    assert offered_text(Snapshot(seat=1, view=view, table=table)) == "your own discard is offered"
    assert offered_text(Snapshot(seat=0, view={**view, "claim_from": None}, table=table)) == "the upcard is offered"
