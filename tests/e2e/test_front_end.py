"""The front end beyond one round of play: hand keyboard and pointer operation, sorting, preferences,
and every variant's table rendering at phone size — each against the real ``rummy serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import MY_TURN, new_page, start_bot_table
from tests.variants import BUILT_IN

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RANK_ORDER = "A23456789TJQK"
SUIT_ORDER = "CDSH"  # the hand's suit sort alternates colours


def hand_cards(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.dataset.card)")
    return cards


def sort_key_rank(card: str) -> tuple[int, int]:
    return (99, 0) if card == "JK" else (RANK_ORDER.index(card[0]), SUIT_ORDER.index(card[1]))


def sort_key_suit(card: str) -> tuple[int, int]:
    return (99, 0) if card == "JK" else (SUIT_ORDER.index(card[1]), RANK_ORDER.index(card[0]))


def test_hand_sorting_keyboard_drag_and_preferences(server: str, browser: Any) -> None:
    page, errors = new_page(browser)
    start_bot_table(page, server, "basic")
    # Ann deals, so the three bots play first; when her turn comes the Draw / Take row appears above the
    # hand and pushes it down. Wait for that, or the drag below aims at where the cards were.
    page.wait_for_function(MY_TURN, arg="draw")

    page.click("#sort-rank")
    assert hand_cards(page) == sorted(hand_cards(page), key=sort_key_rank)
    page.click("#sort-suit")
    cards = hand_cards(page)
    assert cards == sorted(cards, key=sort_key_suit)

    # keyboard: one tab stop, arrows move the focus, Enter selects, Shift+arrow moves the card
    first = page.locator('#hand .card[tabindex="0"]')
    assert first.count() == 1
    first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == cards[1]
    page.keyboard.press("Enter")
    assert page.locator("#hand .card.selected").count() == 1
    assert page.get_attribute("#hand .card.selected", "aria-selected") == "true"
    page.keyboard.press("Shift+ArrowRight")
    moved = hand_cards(page)
    assert moved[2] == cards[1] and moved[1] == cards[2]
    page.keyboard.press("Space")
    assert page.locator("#hand .card.selected").count() == 0
    assert page.get_attribute("#sort-suit", "aria-pressed") == "false"  # arranged by hand now

    # pointer: drag the first card past the fourth
    before = hand_cards(page)
    source = page.locator("#hand .card").nth(0).bounding_box()
    target = page.locator("#hand .card").nth(3).bounding_box()
    page.mouse.move(source["x"] + 10, source["y"] + 20)
    page.mouse.down()
    page.mouse.move(source["x"] + 30, source["y"] + 25, steps=3)
    page.mouse.move(target["x"] + target["width"] - 5, target["y"] + 20, steps=8)
    page.mouse.up()
    after = hand_cards(page)
    assert after[3] == before[0] and sorted(after) == sorted(before)

    # tap to select, tap again to unselect
    page.locator("#hand .card").nth(0).click()
    assert page.locator("#hand .card.selected").count() == 1
    page.locator("#hand .card").nth(0).click()
    assert page.locator("#hand .card.selected").count() == 0

    # four-colour deck and mute persist across a reload
    page.click("#four-color")
    assert "four-color" in (page.get_attribute("html", "class") or "")
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#hand .card")
    assert "four-color" in (page.get_attribute("html", "class") or "")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    clubs = page.locator("#hand .card.suit-C, #melds .card.suit-C, #discard .card.suit-C").first
    if clubs.count():
        assert clubs.evaluate("n => getComputedStyle(n).color") == "rgb(23, 122, 58)"
    assert not errors, errors


@pytest.mark.parametrize("variant", BUILT_IN)
def test_every_variant_renders_on_a_phone(server: str, browser: Any, screenshots: Path, variant: str) -> None:
    page, errors = new_page(browser, touch=True)
    start_bot_table(page, server, variant, touch=True)
    state = page.evaluate("window.rummy.state()")
    view = state["view"]
    assert page.locator("#hand .card").count() == len(view["hand"])
    assert page.locator("#seats .seat").count() == len(view["players"])
    if view["contract"]:
        assert page.inner_text("#contract") == " + ".join(view["contract"])
    if variant == "purchase":
        assert page.locator("#seats .pc").count() == len(view["players"])
    page.screenshot(path=str(screenshots / f"variant-{variant}-phone.png"), animations="disabled")
    assert not errors, errors
