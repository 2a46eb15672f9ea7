"""Issue #27, second pass: the smaller things a new family tripped over on a desktop (1366×768) and a
touch phone (390×844).

Each test pins one item: the first click on Create table after typing the seat count, the turn line's
words on a touch screen, the "Your tables" entries, the note that the computer played for someone who
was away, the six-name score sheet on a phone, the lobby's "How to play" button and the replay's move
list naming the card a player let go.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import new_page, press, start_bot_table

pytestmark = [pytest.mark.e2e]

LAPTOP = {"width": 1366, "height": 768}


def enter_lobby(page: Any, server: str, name: str = "Ann", *, touch: bool = False) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#name-form, #create-form")
    if page.locator("#name-form").count():
        page.fill("#name", name)
        press(page, "#name-form button[type=submit]", touch=touch)
    page.wait_for_selector("#create-form")


def test_the_first_click_on_create_table_after_typing_the_seat_count_creates_it(server: str, browser: Any) -> None:
    page, problems = new_page(browser, LAPTOP)
    enter_lobby(page, server)
    page.select_option("#variant", "progressive-buy-it")  # 3 to 8 seats
    page.click("#seats")
    page.keyboard.press("Control+A")
    page.keyboard.type("6")  # the field keeps focus: leaving it is the click below
    page.click("#create-table")
    page.wait_for_url("**/table/**", timeout=5_000)
    page.wait_for_selector("#start-button")
    assert len(page.evaluate("window.rummy.state().table.seats")) == 6
    assert not problems, problems


#: The turn line of a player who is down, in their play phase (``turnHelp`` of play.js, read in the page).
DOWN_TURN_LINE = """async () => {
  const { turnHelp } = await import("/static/play.js");
  const view = { seat: 0, active: 0, phase: "play", down: [true, false], contract: ["3s", "1r"], discard: [],
                 facts: { scoring: "penalty" } };
  return turnHelp(view, new Set(["layoff", "discard"]), () => "Ann");
}"""


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_the_turn_line_says_tap_on_a_touch_screen_and_drag_with_a_mouse(server: str, browser: Any, touch: bool) -> None:
    page, problems = new_page(browser, touch=touch)
    enter_lobby(page, server, touch=touch)
    line = page.evaluate(DOWN_TURN_LINE)
    if touch:
        assert "tap a card, then the meld" in line and "drag" not in line, line
    else:
        assert "drag a card onto it" in line, line
    assert not problems, problems


def test_the_buy_window_tells_a_player_who_is_down_what_the_buy_costs(server: str, browser: Any) -> None:
    """The claim window's terms show the server's claim_when_down words (tests/test_claim_when_down.py pins
    them) in place of the bare penalty-card line; a player not yet down sees the usual terms."""
    page, problems = new_page(browser)
    enter_lobby(page, server)
    words = "You are down: the card and a penalty card go into your hand, and you can only lay them off."
    terms = page.evaluate("""async (words) => {
      const { claimTerms } = await import("/static/board.js");
      const facts = { claim_words: { name: "May I", plural: "May-I's" }, claim_limit: 3, claims_left: [2],
                      claim_cost: { penalty_cards: 1, penalty_word: "penalty card", pennies: 0 } };
      const view = { seat: 0, facts };
      return [claimTerms({ ...view, facts: { ...facts, claim_when_down: words } }), claimTerms(view)];
    }""", words)
    assert terms[0] == words + " 2 of 3 May-I's left this hand.", terms
    assert terms[1] == "You also take a penalty card from the stock. 2 of 3 May-I's left this hand.", terms
    assert not problems, problems


SIX_NAMES = ["Grandma Jo", "Margaret (bot)", "Christopher", "Ann", "Barbara (bot)", "Bartholomew"]


def test_a_phone_score_sheet_shows_six_whole_names(server: str, browser: Any) -> None:
    """The score sheet of a six-seat table, drawn at a phone's width with the page's own style: every
    name is there whole (wrapped if it must), none cut with an ellipsis, and the sheet needs no sideways
    scrolling."""
    page, problems = new_page(browser, touch=True)
    enter_lobby(page, server, touch=True)
    heads = page.evaluate("""async (names) => {
      const { renderScoreSheet } = await import("/static/scores.js");
      const box = document.createElement("div");
      box.id = "sheet";
      box.style.width = "358px";
      document.body.append(box);
      const seats = names.map((name, seat) => ({ seat, name, kind: name.endsWith("(bot)") ? "bot" : "human" }));
      const table = { seats, score_sheet: [{ round: 1, scores: [0, 45, 120, 5, 230, 15], went_out: 0 }] };
      const view = { seat: 0, players: names, totals: [0, 45, 120, 5, 230, 15], facts: {} };
      renderScoreSheet(box, table, view);
      const cells = [...box.querySelectorAll("thead th")].slice(1).map((th) => ({
        text: th.textContent, clipped: th.scrollWidth > th.clientWidth }));
      return { cells, scrolls: box.scrollWidth > box.clientWidth };
    }""", SIX_NAMES)
    assert [cell["text"] for cell in heads["cells"]] == [name.removesuffix(" (bot)") for name in SIX_NAMES]
    assert not [cell for cell in heads["cells"] if cell["clipped"]], heads
    assert not heads["scrolls"], "the score sheet scrolls sideways on a phone"
    assert not problems, problems


ONE_LINE = """sel => {
  const node = document.querySelector(sel), range = document.createRange();
  range.selectNodeContents(node);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize("touch", [False, True], ids=["laptop", "phone"])
def test_the_lobbys_how_to_play_button_stays_on_one_line(server: str, browser: Any, touch: bool) -> None:
    page, problems = new_page(browser, None if touch else LAPTOP, touch=touch)
    enter_lobby(page, server, touch=touch)
    for variant in [o for o in page.eval_on_selector_all("#variant option", "os => os.map(o => o.value)")]:
        page.select_option("#variant", variant)
        assert page.evaluate(ONE_LINE, "#lobby-help") == 1, f"'How to play' wraps beside the {variant} blurb"
    assert not problems, problems


NOTICE = "While you were away the computer played for you: 12 turns, in rounds 2–5."


def test_a_player_who_comes_back_sees_what_the_computer_played_for_them(server: str, browser: Any) -> None:
    """The server's ``notice`` (tests/server/test_table_second_pass.py pins when it is sent) is shown to the
    person: here the first state of the table page's socket is given one on its way to the page."""
    page, problems = new_page(browser)

    def add_notice(route: Any) -> None:
        upstream = route.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state" and data.get("history"):
                data["notice"] = NOTICE
            route.send(json.dumps(data))

        upstream.on_message(to_page)
        route.on_message(upstream.send)

    page.route_web_socket("**/ws/tables/**", add_notice)
    enter_lobby(page, server)
    page.click("#create-table")
    page.wait_for_url("**/table/**", wait_until="commit")
    page.wait_for_function("text => document.querySelector('#toast.show')?.textContent === text", arg=NOTICE)
    assert not problems, problems


def test_your_tables_entries_say_who_plays_when_and_whose_turn(server: str, browser: Any) -> None:
    page, problems = new_page(browser, LAPTOP)
    start_bot_table(page, server, "may-i", name="Ann", seats=3)
    seats = page.evaluate("window.rummy.state().table.seats.map(s => s.name)")
    page.goto(server + "/")
    entry = page.locator("#my-tables li").first
    entry.wait_for()
    text = entry.inner_text()
    assert f"with {seats[1]}, {seats[2]}" in text, text
    assert "ago" in text or "just now" in text, text
    assert "turn" in text or "between rounds" in text, text
    assert "seat 1" not in text
    assert not problems, problems
