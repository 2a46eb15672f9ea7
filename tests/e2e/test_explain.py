"""The table explains the game: house rules in words when a table is made, the buy / May-I window says what
it costs and may be declined for a while, the help panel follows the table's house rules, a mistyped
invite says "no such table", and the round-over panel speaks to the reader — at desktop and phone sizes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LONG_CLAIM_SECONDS, new_page, press, wait_for_a_window

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SIZES = [pytest.param(False, id="desktop"), pytest.param(True, id="phone")]
RAW_KEY = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|[{}\[\]]")  # an engine key or JSON in the panel's words


def name_and_lobby(page: Any, server: str, touch: bool, name: str = "Ann") -> None:
    page.goto(server + "/")
    page.wait_for_selector("#name-form")
    page.fill("#name", name)
    press(page, "#name-form button[type=submit]", touch=touch)
    page.wait_for_selector("#create-form")


def open_rules(page: Any, touch: bool, *groups: str) -> None:
    press(page, ".house-rules > summary", touch=touch)
    for group in groups:
        press(page, f'.rule-group[data-group="{group}"] > summary', touch=touch)


@pytest.mark.parametrize("touch", SIZES)
def test_house_rules_are_labelled_controls_in_words(server: str, browser: Any, screenshots: Path, touch: bool) -> None:
    page, problems = new_page(browser, touch=touch)
    name_and_lobby(page, server, touch)
    page.select_option("#variant", "progressive-15")
    open_rules(page, touch, "buying")
    titles = page.eval_on_selector_all(".rule-group > summary", "nodes => nodes.map(n => n.firstChild.textContent)")
    for title in ("Cards and wilds", "Melds", "Buying", "Going out", "Scoring"):
        assert title in titles
    panel = page.locator(".rules-panel")
    assert panel.locator("textarea, input[type=text]").count() == 0  # no JSON boxes
    text = panel.evaluate("n => { const c = n.cloneNode(true); c.querySelectorAll('select').forEach(s => s.remove());"
                          " return c.textContent; }")
    assert not RAW_KEY.findall(text), RAW_KEY.findall(text)[:5]
    choices = " ".join(page.eval_on_selector_all(".rules-panel option", "nodes => nodes.map(n => n.textContent)"))
    assert not RAW_KEY.findall(choices), RAW_KEY.findall(choices)[:5]
    rows = panel.locator(".rule")
    assert rows.count() > 30
    for index in range(rows.count()):
        row = rows.nth(index)
        assert row.locator("label").count() and "Usually:" in (row.text_content() or "")
    kinds = {key: page.locator(f'.rule[data-key="{key}"]') for key in ("claim_cost", "claims_per_window",
                                                                      "claim_allowed_when_down", "wild_ranks")}
    assert kinds["claim_cost"].locator("input[type=number]").count() == 1
    assert kinds["claims_per_window"].locator("select").count() == 1
    assert kinds["claim_allowed_when_down"].locator("input[type=checkbox][role=switch]").count() == 1
    assert kinds["wild_ranks"].locator("input[type=checkbox]").count() == 2
    assert page.locator('.rule[data-key="buy_schedule"] input').count() == 30  # 15 hands × buys, blind cards

    page.fill('.rule[data-key="claim_cost"] input', "2")
    page.locator('.rule[data-key="claim_allowed_when_down"] input').set_checked(False)
    assert page.locator(".rule.changed").count() == 2
    page.locator('.rule[data-key="claim_cost"]').scroll_into_view_if_needed()
    shot = screenshots / f"create-table-{'phone' if touch else 'desktop'}.png"
    page.screenshot(path=str(shot), animations="disabled")
    press(page, "#reset-rules", touch=touch)
    assert page.locator(".rule.changed").count() == 0
    assert page.input_value('.rule[data-key="claim_cost"] input') == "1"
    assert not problems, problems


def create_may_i_table(page: Any, server: str, touch: bool) -> None:
    """A may-i table with two house rules set in the panel (five May-I's, runs of five), two easy bots."""
    name_and_lobby(page, server, touch)
    page.select_option("#variant", "may-i")
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "change")
    for select in page.locator("select.seat-kind").all():
        select.select_option("easy")
    open_rules(page, touch, "buying", "melds")
    page.fill('.rule[data-key="claim_limit"] input', "5")
    page.fill('.rule[data-key="run_min"] input', "5")
    page.select_option("#claim-seconds", LONG_CLAIM_SECONDS)  # the test reads and taps inside a window
    press(page, "#create-table", touch=touch)
    page.wait_for_selector("#start-button:not([disabled])")


def start_game(page: Any, touch: bool) -> None:
    press(page, "#start-button", touch=touch)
    page.wait_for_selector("#hand .card")


@pytest.mark.parametrize("touch", SIZES)
def test_help_and_the_may_i_window_follow_the_house_rules(server: str, browser: Any, screenshots: Path,
                                                          touch: bool) -> None:
    size = "phone" if touch else "desktop"
    page, problems = new_page(browser, touch=touch)
    create_may_i_table(page, server, touch)
    # The help first, before the deal: once the game runs, a May-I window may cover the tools on a phone.
    press(page, "#help-button", touch=touch)
    page.wait_for_selector("#help-panel")
    help_text = page.inner_text("#help-panel")
    assert "Each player has 5 May-I's per hand." in help_text
    assert "a run is 5 or more cards in a row of one suit" in help_text
    assert "Buys per hand: 5 (standard: 3)" in help_text and "Shortest run: 5 (standard: 4)" in help_text
    assert "Round 7: 11 cards — a run of 5 + a run of 5 + a run of 5" in help_text  # contract runs raised to 5
    page.wait_for_timeout(600)  # the tap's highlight fades
    page.screenshot(path=str(screenshots / f"help-{size}.png"), animations="disabled")
    press(page, "#help-panel-close", touch=touch)

    start_game(page, touch)
    facts = page.evaluate("window.rummy.state().view.facts")
    assert facts["claim_limit"] == 5 and facts["run_min"] == 5
    assert page.inner_text("#seats .seat[data-seat='1'] .claims") == "5 May-I's left"
    page.screenshot(path=str(screenshots / f"table-house-rules-{size}.png"), animations="disabled")

    wait_for_a_window(page, touch)
    terms = page.inner_text("#claim-terms")
    assert page.inner_text("#claim .claim-question").startswith("May I take the ")
    assert terms == "You also take a penalty card from the stock. 5 of 5 May-I's left this hand."
    assert page.inner_text("#buy-button") == "May I?"
    page.screenshot(path=str(screenshots / f"buy-window-{size}.png"), animations="disabled")
    press(page, "#skip-turn-button", touch=touch)  # pass on May-I's until my turn
    page.wait_for_selector("#claim", state="hidden")
    # The page while Ann passes, read in one go: the table may answer for her and reach her turn soon (then there is
    # nothing left to read, and her turn is checked below).
    passing = page.wait_for_function("""() => { const s = window.rummy.state();
      if (s.view.active === s.seat && ['draw', 'play'].includes(s.view.phase)) return 'her turn';
      if (!document.getElementById('skip-off-button')) return false;
      return {turn: document.getElementById('turn-info').innerText,
              badges: document.querySelector("#seats .seat[data-seat='0'] .badges").innerText}; }""",
                                     timeout=60_000).json_value()
    if passing != "her turn":
        assert "You pass on May-I's until your turn." in passing["turn"]
        assert passing["badges"].count("passing") == 1
    # no blank band above the hand while there is nothing to press: the empty action row takes no room
    band = page.evaluate("""() => { const a = document.getElementById('actions');
      if (a.childElementCount) return null;
      return document.getElementById('hand').getBoundingClientRect().top
        - document.getElementById('turn-info').getBoundingClientRect().bottom; }""")
    assert band is None or band < 30, f"{band} px between the turn line and the hand"
    # the table answers for Ann until her turn: no window is offered to her meanwhile
    page.wait_for_function("() => { const s = window.rummy.state(); return s.view.active === s.seat && "
                           "['draw', 'play'].includes(s.view.phase); }", timeout=60_000)
    page.wait_for_selector("#skip-off-button", state="detached")
    assert not problems, problems


def test_a_mistyped_invite_says_no_such_table(server: str, browser: Any) -> None:
    page, problems = new_page(browser)
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(server + "/table/doesnotexist")  # a first visit: no name asked for a table that is not there
    page.wait_for_selector("#missing-table")
    assert "No such table" in page.inner_text("#missing-table") and "doesnotexist" in page.inner_text("#missing-table")
    assert page.locator("#name-form").count() == 0
    page.wait_for_timeout(3000)
    assert len(sockets) == 1, sockets  # asked once, never reconnected
    page.click("#back-to-lobby")
    page.wait_for_selector("#name-form")
    page.fill("#name", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#join-form")
    sockets.clear()
    page.fill("#invite", "nosuchcode")  # a mistyped code in the lobby, with a session this time
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#missing-table")
    page.wait_for_timeout(3000)
    assert len(sockets) == 1, sockets
    assert page.locator(".table-page.offline").count() == 0  # never "Reconnecting…"
    delays = page.evaluate("import('/static/api.js')"
                           ".then(m => [0, 1, 2, 3, 4, 5, 9].map(a => m.backoff(a, () => 0.5)))")
    assert delays == [500, 1000, 2000, 4000, 8000, 16000, 30000]  # exponential, capped
    assert not problems, problems


ROUND_OVER = """async ([me, wentOut]) => {
  const { roundSummary } = await import('/static/scores.js');
  const { renderMelds } = await import('/static/melds.js');
  const seats = ['Nora', 'Sam', 'Grace (bot)'].map((name, seat) => ({ seat, name, kind: seat === 2 ? 'bot' : 'human',
    ready: false, connected: true }));
  const table = { seats, score_sheet: [{ round: 1, went_out: wentOut, scores: [0, 35, 60], end: 'out' }] };
  const view = { seat: me, phase: 'round_over', round: 1, players: seats.map((s) => s.name), hand_sizes: [0, 9, 11],
    totals: [0, 35, 60], facts: { card_points: {}, wild_ranks: ['JOKER'] },
    revealed_hands: [[], ['2C', '3D', '4H', '5S', '6C', '7D', '8H', '9S', 'TC'],
      ['JK', 'AC', 'AD', 'KH', 'KS', 'QC', 'QD', 'JH', 'JS', 'TD', '9C']],
    table: [{ id: 1, owner: 2, kind: 'set', cards: ['7C', '7D', '7H'], as: ['7C', '7D', '7H'] }] };
  const box = document.createElement('div');
  box.id = 'probe';
  box.append(roundSummary(table, view, { canReady: true, ready: false, onReady() {}, onClose() {}, recordUrl: '#' }));
  const melds = document.createElement('section');
  melds.className = 'melds';
  renderMelds(melds, view, { facts: view.facts, name: (s) => seats[s].name });
  box.append(melds);
  document.body.append(box);
  return box.innerText;
}"""


@pytest.mark.parametrize("touch", SIZES)
def test_the_round_over_panel_speaks_to_the_reader(server: str, browser: Any, screenshots: Path, touch: bool) -> None:
    page, problems = new_page(browser, touch=touch)
    page.goto(server + "/")
    page.wait_for_selector("#name-form")
    text = page.evaluate(ROUND_OVER, [0, 0])  # Nora reads, Nora went out
    assert "You went out!" in text and "Nora went out" not in text
    assert text.count("Next round") <= 2 and "in a moment" not in text and "Nora is ready" not in text
    assert "Grace (bot) · 1 meld" in text and "GRACE" not in text
    assert page.eval_on_selector("#probe .meld-group h3", "n => getComputedStyle(n).textTransform") == "none"
    for row in page.locator("#probe .mini-hand").all():
        boxes = [card.bounding_box() for card in row.locator(".card").all()]
        for left, right in zip(boxes, boxes[1:], strict=False):
            if abs(left["y"] - right["y"]) < 1:  # neighbours on one line show most of each card
                assert left["x"] + left["width"] - right["x"] <= 0.25 * left["width"], (left, right)
    shot = screenshots / f"round-over-probe-{'phone' if touch else 'desktop'}.png"
    page.screenshot(path=str(shot), animations="disabled")
    page.evaluate("document.getElementById('probe').remove()")
    text = page.evaluate(ROUND_OVER, [1, 0])  # Sam reads: Nora went out, Sam is asked, Nora is not named as waiting
    assert "Nora went out!" in text and "Waiting for" not in text
    assert not problems, problems
