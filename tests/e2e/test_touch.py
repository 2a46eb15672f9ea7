"""The table on a touch phone (390×844, ``has_touch``, ``is_mobile``): every control tapped, never clicked.

A tap on a hand card selects it (the browser's click follows the pointerup; nothing may move under the
finger in between), the tools, piles, meld builder and round-over panel answer taps, a whole round is
played by tapping only, and every seat of a six-player table is in view.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import MY_TURN, PHONE, new_page, start_bot_table, wait_for_a_window

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


# A server whose computer players answer at once: the page waits on their moves, not a clock.
SERVER_PACE = {"bot_delay": 0}

ROUND_TIME = 300  # seconds for the round played by taps
CHANGED = "s => window.rummy.state().seq > s"
# How long a tap in a claim window may wait for its button: a computer player that buys first closes the window
# under the finger (a tap that did not land is tried again while the window is open).
CLAIM_TAP_MS = 750
MAX_BUYS = 2  # enough to see buying by a tap, few enough that the round ends (a buy adds two cards to the hand)
# The claim window for the player's own discard, in one look (it may close at any moment): which buttons it
# shows and its words, or that the table moved on past state ``s`` without showing it.
OWN_OFFER = """s => { const claim = document.querySelector('#claim:not([hidden])');
  if (claim && claim.querySelector('#take-back-button'))
    return {closed: false, buy: !!claim.querySelector('#buy-button'), text: claim.innerText};
  return window.rummy.state().seq !== s ? {closed: true} : null; }"""
# Something for the player to do (play_one_step acts on it): the round is over, a discard is offered to her,
# or it is her turn.
SOMETHING_TO_DO = """() => { const s = window.rummy.state(), v = s.view;
  return ['round_over', 'game_over'].includes(v.phase)
    || (v.phase === 'claim' && v.legal_actions.some((a) => a.split(' ')[1] === 'buy'))
    || (v.active === s.seat && ['draw', 'play'].includes(v.phase)); }"""


def state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.rummy.state()")
    return result


def wait_until(page: Any, predicate: str, arg: Any, timeout: float = 8.0) -> bool:
    """Wait until ``predicate(arg)`` holds in the page; False on time-out."""
    try:
        page.wait_for_function(predicate, arg=arg, timeout=timeout * 1000)
        return True
    except Exception:  # noqa: BLE001 - a refused action leaves the state as it was
        return False


def bodies(view: dict[str, Any]) -> list[str]:
    return [action.split(" ", 1)[1] for action in view["legal_actions"]]


def tap_card_twice(page: Any, index: int) -> None:
    """Tap a hand card on and off; the hand must not move under the finger, and each tap must count."""
    cards = page.locator("#hand .card")
    before = page.locator("#hand").bounding_box()
    cards.nth(index).tap()
    page.wait_for_timeout(350)  # the browser's click follows the tap
    assert page.locator("#hand .card.selected").count() == 1, f"card {index} is not selected after a tap"
    assert cards.nth(index).get_attribute("aria-selected") == "true"
    assert page.locator("#hand").bounding_box()["y"] == before["y"], "the hand moved under the finger"
    cards.nth(index).tap()
    page.wait_for_timeout(350)
    assert page.locator("#hand .card.selected").count() == 0, f"card {index} is still selected after a second tap"


def test_tapping_the_leftmost_card_selects_it(server: str, browser: Any) -> None:
    page, problems = new_page(browser, touch=True)
    start_bot_table(page, server, "basic", touch=True, seats=2)
    page.wait_for_function(MY_TURN, arg="draw")
    for index in (0, 1):
        tap_card_twice(page, index)
    page.tap("#stock")
    page.wait_for_function(MY_TURN, arg="play")  # the action bar now holds Discard and Hint
    for index in (0, 1, page.locator("#hand .card").count() - 1):
        tap_card_twice(page, index)
    assert not problems, problems


def test_every_control_answers_a_tap(server: str, browser: Any, screenshots: Path) -> None:
    page, problems = new_page(browser, touch=True)
    start_bot_table(page, server, "basic", touch=True, seats=2)
    assert page.inner_text("#target") == "to 100 points"  # basic's target for two players, in the header
    page.tap("#target")
    page.wait_for_selector("#toast.show")
    assert "collects" in page.inner_text("#toast")  # the tooltip's words, shown on a tap

    page.tap("#sort-rank")
    assert page.get_attribute("#sort-rank", "aria-pressed") == "true"
    page.tap("#sort-suit")
    assert page.get_attribute("#sort-suit", "aria-pressed") == "true"
    page.tap("#four-color")
    assert page.get_attribute("#four-color", "aria-pressed") == "true"
    page.tap("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.tap("#help-button")
    page.wait_for_selector("#help-panel")
    assert "the first to 100 points wins" in page.inner_text("#help-panel")
    page.tap("#help-panel-close")
    assert page.locator("#help-panel").count() == 0

    page.wait_for_function(MY_TURN, arg="draw")
    page.tap("#stock")  # draw by tapping the stock
    page.wait_for_function(MY_TURN, arg="play")
    page.locator("#hand .card").nth(0).tap()
    page.wait_for_selector("#hand .card.selected")
    page.tap("#clear-selection")
    assert page.locator("#hand .card.selected").count() == 0
    page.tap("#builder-set")  # nothing selected: the builder says what to do
    page.wait_for_selector("#builder .error")
    page.tap("#hint-button")  # the hint names the move (a discard is the server's answer: wait for it)
    page.wait_for_function("() => document.querySelector('#toast.show')?.textContent.startsWith('Hint: ')")
    if page.locator("#hand .card.selected").count():  # a lay-off's hint selects its card: a tap would add a second
        page.tap("#clear-selection")
    free = page.eval_on_selector_all("#hand .card:not(.staged)", "nodes => nodes.map(n => n.dataset.card)")
    discardable = [b.split()[1] for b in bodies(state(page)["view"]) if b.startswith("discard ")]
    card = next(c for c in free if c in discardable)
    page.locator(f'#hand .card[data-card="{card}"]:not(.staged)').first.tap()
    page.wait_for_selector(f'#hand .card.selected[data-card="{card}"]')  # the click after the tap selected it
    assert page.locator("#hand .card.selected").count() == 1  # the pile discards a card only when one is selected
    page.tap("#discard")  # the selected card onto the discard pile
    page.wait_for_function("() => window.rummy.state().view.phase !== 'play' || window.rummy.state().view.active !== 0")
    assert not problems, problems


def choose_discard(hand: list[str], legal: list[str]) -> str:
    """A card whose rank is alone in the hand (keeps pairs for sets), never a joker when avoidable."""
    ranks = Counter(card[:-1] for card in hand if card != "JK")
    lonely = [c for c in legal if c != "JK" and ranks[c[:-1]] == 1]
    return (lonely or [c for c in legal if c != "JK"] or legal)[0]


def useful(card: str | None, hand: list[str]) -> bool:
    """A card that joins a rank already in the hand (or a joker): worth taking or buying for sets."""
    return card is not None and (card == "JK" or any(c[:-1] == card[:-1] for c in hand))


def play_one_step(page: Any, done: Counter[str]) -> bool:
    """Do one thing by tapping; False when there is nothing to do."""
    current = state(page)
    view, seat = current["view"], current["seat"]
    legal = bodies(view)
    if view["phase"] == "claim" and "buy" in legal and view["claim_from"] == seat:
        # your own discard: offered quietly, never with the big claim button (issue: a one-tap trap)
        offer = page.wait_for_function(OWN_OFFER, arg=current["seq"]).json_value()
        if offer["closed"]:
            return True  # the window closed (its time ran out) before this look: the next one checks
        assert not offer["buy"], "your own discard is offered with the claim button"
        assert "Your own discard" in offer["text"]
        done["own discard"] += 1  # offered quietly: what this step checks
        try:
            page.tap("#pass-button", timeout=CLAIM_TAP_MS)
        except Exception:  # noqa: BLE001 - the window closed meanwhile
            pass
        wait_until(page, CHANGED, current["seq"], 5)  # the pass, or whatever closed the window first
        return True
    if view["phase"] == "claim" and "buy" in legal:
        card = view["claim_card"]
        target = "#buy-button" if useful(card, view["hand"]) and done["buy"] < MAX_BUYS else "#pass-button"
        try:
            page.tap(target, timeout=CLAIM_TAP_MS)
            done["buy" if target == "#buy-button" else "pass"] += 1
        except Exception:  # noqa: BLE001 - the window closed meanwhile
            pass
        wait_until(page, CHANGED, current["seq"], 5)  # the answer, or whatever closed the window first
        return True
    if view["active"] != seat or view["phase"] not in ("draw", "play"):
        return False
    seq = current["seq"]
    changed = CHANGED
    if view["phase"] == "draw":
        top = view["discard"][-1] if view["discard"] else None
        page.tap("#take-button" if "take" in legal and useful(top, view["hand"]) else "#stock")
        page.wait_for_function(changed, arg=seq)
        done["draw"] += 1
        return True
    downs = [b for b in legal if b.startswith("down ")]
    if downs:
        for spec in downs[0].split()[1:]:
            kind, cards = spec.split(":", 1)
            for card in cards.split("=")[0].split("-"):
                page.locator(f'#hand .card[data-card="{card}"]:not(.staged):not(.selected)').first.tap()
            page.tap(f"#builder-{kind}")
        page.tap("#builder-submit")
        if not wait_until(page, "s => window.rummy.state().view.down[s]", seat, 5):
            page.tap("#hint-button")
            page.tap("#builder-submit")
        page.wait_for_function("s => window.rummy.state().view.down[s]", arg=seat)
        meld_card = page.locator("#melds .card").first.bounding_box()
        assert meld_card and meld_card["width"] >= 34, f"table meld cards are {meld_card} wide on a phone"
        done["down"] += 1
        return True
    layoffs = [b for b in legal if b.startswith("layoff ") and ";" not in b and len(b.split()) == 3]
    if layoffs:  # the card, then the meld (she goes out this way: a draw and a discard keep her hand's size)
        _, meld, card = layoffs[0].split()
        page.locator(f'#hand .card[data-card="{card}"]:not(.staged):not(.selected)').first.tap()
        page.wait_for_selector(f'#hand .card.selected[data-card="{card}"]')
        page.tap(f'.meld[data-meld="{meld}"]')
        page.wait_for_function("s => window.rummy.state().seq > s || !!document.querySelector('.dialog .choice')",
                               arg=seq)
        if page.locator(".dialog .choice").count():  # the card could also swap for a joker: lay it off
            page.tap(".dialog .choice >> text=Lay off")
        page.wait_for_function(changed, arg=seq)
        done["layoff"] += 1
        return True
    discards = [b.split()[1] for b in legal if b.startswith("discard ")]
    if discards:
        card = choose_discard(view["hand"], discards)
        page.locator(f'#hand .card[data-card="{card}"]').first.tap()
        page.wait_for_selector("#hand .card.selected")
        page.tap("#discard-button")
        page.wait_for_function(changed, arg=seq)
        done["discard"] += 1
        return True
    return False


def test_a_whole_round_played_by_tapping_only(server: str, browser: Any, screenshots: Path) -> None:
    page, problems = new_page(browser, touch=True)
    start_bot_table(page, server, "progressive-buy-it", touch=True, seats=3, long_claims=True)
    done: Counter[str] = Counter()
    for round_number in (1, 2, 3):  # a player who goes out on her first discard never sees it offered back
        deadline = time.monotonic() + ROUND_TIME
        while time.monotonic() < deadline and state(page)["view"]["phase"] not in ("round_over", "game_over"):
            if not play_one_step(page, done):
                wait_until(page, SOMETHING_TO_DO, None, 2)
        assert state(page)["view"]["phase"] == "round_over", f"the round did not end in time ({dict(done)})"
        page.wait_for_selector(".round-summary")
        if round_number == 1:
            page.screenshot(path=str(screenshots / "round-over-phone.png"), animations="disabled")  # played by taps
        page.tap("#ready-button")
        page.wait_for_function(f"() => window.rummy.state().view.round === {round_number + 1}", timeout=30_000)
        if done["own discard"]:
            break
    assert done["draw"] and done["discard"] and done["own discard"], dict(done)
    assert not problems, problems


def test_six_seats_fit_a_phone(server: str, browser: Any, screenshots: Path) -> None:
    page, problems = new_page(browser, touch=True)
    start_bot_table(page, server, "progressive-buy-it", touch=True, seats=6, long_claims=True)
    # one look at every seat at once (the strip is redrawn as the bots play)
    seats = page.eval_on_selector_all("#seats .seat", """nodes => nodes.map(n => {
      const box = n.getBoundingClientRect(), name = n.querySelector('.seat-name');
      return {left: box.left, right: box.right, clipped: name.scrollWidth > name.clientWidth, name: name.textContent};
    })""")
    assert len(seats) == 6
    for index, seat in enumerate(seats):
        assert seat["left"] >= 0 and seat["right"] <= PHONE["width"], f"seat {index} is cut off: {seat}"
        assert not seat["clipped"] and "…" not in seat["name"], f"seat {index}'s name is clipped: {seat}"
    assert page.eval_on_selector("#seats", "n => n.scrollWidth <= n.clientWidth"), "the seat strip scrolls sideways"
    wait_for_a_window(page, touch=True)
    page.tap("#skip-hand-button")  # no more buy windows this hand: the seats stay in view for the picture
    page.wait_for_selector("#claim", state="hidden")
    page.screenshot(path=str(screenshots / "table-six-seats-phone.png"), animations="disabled")
    assert not problems, problems
