"""Two people in two browsers and a computer player play progressive-buy-it through the web front end.

Ann (desktop, 1280×800) creates the table and shares the invite link; Bob (phone, 390×844) joins with
it; an easy bot fills the third seat.  Both play adaptively from what their page shows (the legal
actions of their view): they buy with the "I'll Buy It!" button, draw, lay down the contract through
the meld builder, lay off (Ann by dragging a card onto a meld, Bob by tapping the card then the
meld), discard (drag onto the pile, or select + Discard), and read the score sheet when the round
ends.  Rounds are played until every one of those was done at least once (rarely more than one).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LONG_CLAIM_SECONDS, page_errors

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
FEATURES = ("draw", "buy", "down", "layoff", "discard", "score_sheet")
MAX_BUYS_PER_ROUND = 2
TIME_LIMIT = 420  # seconds for the whole game part


# A server whose computer player answers at once: the two people's pages wait on its moves, not a clock.
SERVER_PACE = {"bot_delay": 0}


@dataclass
class Player:
    name: str
    page: Any
    drag: bool  # lay off / discard by dragging (else tap-select then tap the target)
    shots: Path
    buys: Counter[int] = field(default_factory=Counter)  # per round
    ready_rounds: set[int] = field(default_factory=set)
    shot: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def state(self) -> dict[str, Any] | None:
        state: dict[str, Any] | None = self.page.evaluate("() => window.rummy ? window.rummy.state() : null")
        return state

    def wait_for_change(self, seq: int, timeout: float = 8.0) -> bool:
        """Wait until a newer state than ``seq`` arrived."""
        return self.wait_until("s => window.rummy.state().seq > s", seq, timeout)

    def wait_until(self, predicate: str, arg: Any, timeout: float = 8.0) -> bool:
        """Wait until ``predicate(arg)`` (JavaScript, run in the page) holds; False on time-out."""
        try:
            self.page.wait_for_function(predicate, arg=arg, timeout=timeout * 1000)
            return True
        except Exception:  # noqa: BLE001 - a refused action leaves the state as it was
            return False

    def check(self, ok: bool, message: str) -> None:
        """Fail with a screenshot and what the page said (its last toast) when ``ok`` is false."""
        if ok:
            return
        self.page.screenshot(path=str(self.shots / f"failure-{self.name.lower()}.png"), full_page=True)
        toast = self.page.locator("#toast").inner_text()
        pytest.fail(f"{self.name}: {message} (page says: {toast!r})")

    def screenshot_once(self, name: str) -> None:
        if name not in self.shot:
            self.shot.add(name)
            self.page.screenshot(path=str(self.shots / name), animations="disabled")

    def try_click(self, selector: str, timeout: float = 1.0) -> bool:
        """Click if the element is there and clickable soon (a claim window may close meanwhile: one already
        gone is not waited for)."""
        if not self.page.locator(selector).is_visible():
            return False
        try:
            self.page.click(selector, timeout=timeout * 1000)
            return True
        except Exception:  # noqa: BLE001 - gone: the window closed or someone else was faster
            return False

    def hand_card(self, card: str) -> Any:
        return self.page.locator(f'#hand .card[data-card="{card}"]:not(.staged):not(.selected)').first

    def drag_to(self, source: Any, target: Any) -> None:
        """Press on ``source``, move in steps (pointer events), release over ``target``."""
        source.scroll_into_view_if_needed()
        target.scroll_into_view_if_needed()
        start, end = source.bounding_box(), target.bounding_box()
        assert start and end
        mouse = self.page.mouse
        mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 3)
        mouse.down()
        mouse.move(start["x"] + start["width"] / 2 + 15, start["y"] - 10, steps=4)
        mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
        mouse.up()


def legal_bodies(view: dict[str, Any]) -> list[str]:
    return [action.split(" ", 1)[1] for action in view["legal_actions"]]


def open_page(browser: Any, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.js_errors = page_errors(page)  # type: ignore[attr-defined]
    return page


def pick_name(page: Any, name: str) -> None:
    page.wait_for_selector("#name-form")
    page.fill("#name", name)
    page.click("#name-form button[type=submit]")


def test_two_people_and_a_bot_play_progressive_buy_it(server: str, browser: Any, screenshots: Path) -> None:
    ann_page = open_page(browser, DESKTOP)
    bob_page = open_page(browser, PHONE)

    # -- Ann: lobby, create a table with one open seat and one easy computer player ------------
    ann_page.goto(server + "/")
    pick_name(ann_page, "Ann")
    ann_page.wait_for_selector("#create-form")
    assert ann_page.locator("#variant option").count() == 5
    ann_page.select_option("#variant", "progressive-buy-it")
    ann_page.fill("#seats", "3")
    ann_page.dispatch_event("#seats", "change")
    ann_page.select_option("select[name=seat-1]", "")
    ann_page.select_option("select[name=seat-2]", "easy")
    ann_page.select_option("#claim-seconds", LONG_CLAIM_SECONDS)  # a window closes once all have answered
    ann_page.click(".house-rules summary")
    assert ann_page.locator(".house-rules .option").count() > 10  # the variant's house-rule switches
    ann_page.click(".house-rules summary")
    ann_page.screenshot(path=str(screenshots / "lobby-desktop.png"))
    ann_page.click("#create-table")
    ann_page.wait_for_selector("#invite-link")
    invite = ann_page.input_value("#invite-link")
    assert invite.startswith(server + "/table/")
    assert ann_page.is_disabled("#start-button")  # seat 2 still waits for Bob

    # -- Bob: opens the invite link on his phone, picks a name and takes the open seat ---------
    bob_page.goto(invite)
    pick_name(bob_page, "Bob")
    bob_page.wait_for_selector(".waiting-seats li:has-text('Bob')")
    bob_page.screenshot(path=str(screenshots / "waiting-phone.png"), full_page=True)
    ann_page.wait_for_selector(".waiting-seats li:has-text('Bob')")
    assert bob_page.locator("#start-button").count() == 0  # only the host starts

    ann_page.wait_for_selector("#start-button:not([disabled])")
    ann_page.click("#start-button")
    for page in (ann_page, bob_page):
        page.wait_for_selector("#hand .card")
        page.wait_for_selector("#contract:has-text('a set of 3')")

    ann = Player("Ann", ann_page, drag=True, shots=screenshots)
    bob = Player("Bob", bob_page, drag=False, shots=screenshots)
    done: Counter[str] = Counter()
    table_shots = False
    deadline = time.monotonic() + TIME_LIMIT
    while time.monotonic() < deadline:
        acted = False
        for player in (ann, bob):
            acted |= step(player, done)
        if not table_shots and done["down"] and done["layoff"]:
            table_shots = take_table_screenshots(ann, bob, screenshots)
        if all(done[f] for f in FEATURES):
            break
        if not acted:
            time.sleep(0.05)
    missing = [f for f in FEATURES if not done[f]]
    assert not missing, f"not exercised in time: {missing} (done: {dict(done)})"
    if not table_shots:
        take_table_screenshots(ann, bob, screenshots, force=True)

    # -- the move log, the score sheet and the record download --------------------------------
    assert ann_page.locator("#log li").count() > 5
    assert ann_page.locator("#sheet tbody tr").count() >= 1
    assert ann_page.locator("#sheet tbody td").first.inner_text().strip() != ""
    assert ann_page.locator("#record-link").is_hidden()  # no record of a live game
    href = ann_page.get_attribute("#record-link", "href")
    record = ann_page.request.get(server + href)
    assert record.status == 409 and record.json()["error"]["code"] == "game-in-progress"
    assert not ann_page.js_errors and not bob_page.js_errors, (ann_page.js_errors, bob_page.js_errors)


def step(player: Player, done: Counter[str]) -> bool:
    """Do one thing the player can do now through the page; False when there is nothing to do."""
    state = player.state()
    if not state or not state.get("view"):
        return False
    view, seat, seq = state["view"], state["seat"], state["seq"]
    legal = legal_bodies(view)
    page = player.page
    phase = view["phase"]

    if phase in ("round_over", "game_over"):
        sheet = state["table"].get("score_sheet") or []
        if sheet and page.locator(".round-summary").count():
            page.wait_for_selector(".round-summary .summary tbody tr")
            player.screenshot_once("round-summary-desktop.png" if player.drag else "round-summary-phone.png")
            rows = page.locator("#sheet tbody tr").count()
            assert rows == len(sheet)
            done["score_sheet"] += 1
        if phase == "round_over" and view["round"] not in player.ready_rounds:
            button = page.locator("#ready-button")
            if button.count() and button.is_enabled():
                button.click()
                player.ready_rounds.add(view["round"])
                return True
        return False

    if phase == "claim" and "buy" in legal and view["claim_from"] == seat:  # one's own discard: let it go
        if player.try_click("#pass-button"):
            player.wait_for_change(seq)
        return True

    if phase == "claim" and "buy" in legal:
        label = page.locator("#claim #buy-button")
        if label.count():
            assert label.inner_text() == "I'll Buy It!"
            player.screenshot_once("buy-desktop.png" if player.drag else "buy-phone.png")
        if player.buys[view["round"]] < MAX_BUYS_PER_ROUND:
            used = view["claims_used"][seat]
            bought = ("([seat, used]) => { const v = window.rummy.state().view;"
                      " return v.claims_used[seat] > used || v.phase !== 'claim'; }")
            if player.try_click("#buy-button") and player.wait_until(bought, [seat, used]):
                after = player.state()
                if after and after["view"]["claims_used"][seat] > used:
                    player.buys[view["round"]] += 1
                    done["buy"] += 1
        elif player.try_click("#pass-button"):
            player.wait_for_change(seq)
        return True

    if view["active"] != seat or phase not in ("draw", "play"):
        return False

    if phase == "draw":
        if "draw" in legal:
            page.click("#stock" if done["draw"] % 2 == 0 else "#draw-button")
            drawn = "seat => { const v = window.rummy.state().view; return v.phase !== 'draw' || v.active !== seat; }"
            player.check(player.wait_until(drawn, seat), "draw not accepted")
            done["draw"] += 1
        elif "take" in legal:
            page.click("#take-button")
            player.wait_for_change(seq)
        return True

    downs = [b for b in legal if b.startswith("down ")]
    if downs:
        lay_down(player, downs[0], seat)
        done["down"] += 1
        return True
    layoffs = [b for b in legal if b.startswith("layoff ") and ";" not in b and len(b.split()) == 3]
    if layoffs:
        _, meld, card = layoffs[0].split()
        before = view["table"]
        size = next(len(m["cards"]) for m in before if m["id"] == int(meld))
        target = page.locator(f'.meld[data-meld="{meld}"]')
        if player.drag:
            player.drag_to(player.hand_card(card), target)
        else:
            player.hand_card(card).click()
            target.click()
        grown = ("([id, size]) => (window.rummy.state().view.table.find(m => m.id === id)"
                 "?.cards.length ?? 0) > size")
        # a card that could also swap for a joker asks which play is meant
        player.wait_until(f"a => ({grown})(a) || !!document.querySelector('.dialog .choice')", [int(meld), size])
        if page.locator(".dialog .choice").count():
            page.locator(".dialog .choice", has_text="Lay off").first.click()
        player.check(player.wait_until(grown, [int(meld), size]), f"lay-off {card} on meld {meld} not accepted")
        done["layoff"] += 1
        return True
    discards = [b.split()[1] for b in legal if b.startswith("discard ")]
    if discards:
        card = choose_discard(view["hand"], discards)
        if player.drag and done["discard"] % 2 == 0:
            player.drag_to(player.hand_card(card), page.locator("#discard > .card").first)  # the top card: the
            # pile's box also holds the earlier discards, clipped, and its middle can fall outside what shows
        else:
            player.hand_card(card).click()
            page.wait_for_selector("#discard-button:has-text('Discard')")
            page.click("#discard-button")
        gone = ("([seat, size]) => { const v = window.rummy.state().view;"
                " return v.hand.length < size || v.active !== seat || v.phase !== 'play'; }")
        player.check(player.wait_until(gone, [seat, len(view["hand"])]), f"discard {card} not accepted")
        done["discard"] += 1
        return True
    return False


def lay_down(player: Player, body: str, seat: int) -> None:
    """Build the lay-down in the meld builder: select each meld's cards, add it as a set or run, lay down."""
    page = player.page
    page.wait_for_selector("#builder:not([hidden])")
    for spec in body.split()[1:]:
        kind, cards = spec.split(":", 1)
        for card in cards.split("=")[0].split("-"):
            player.hand_card(card).click()
        page.click(f"#builder-{kind}")
    page.wait_for_selector("#builder-submit:not([disabled])")
    player.screenshot_once("meld-builder-desktop.png" if player.drag else "meld-builder-phone.png")
    page.click("#builder-submit")
    is_down = "seat => window.rummy.state().view.down[seat]"
    if not player.wait_until(is_down, seat) and page.locator("#builder .error").count():
        # the builder's arrangement was refused (the message is shown): take the hint instead
        page.click("#hint-button")
        page.click("#builder-submit")
    player.check(player.wait_until(is_down, seat), f"could not lay down {body}")
    page.wait_for_selector(".meld-group h3:has-text('Your melds')")


def choose_discard(hand: list[str], legal: list[str]) -> str:
    """A card whose rank is alone in the hand (keeps pairs for sets), never a joker when avoidable."""
    ranks = Counter(card[:-1] for card in hand if card != "JK")
    lonely = [c for c in legal if c != "JK" and ranks[c[:-1]] == 1]
    others = [c for c in legal if c != "JK"]
    return (lonely or others or legal)[0]


def take_table_screenshots(ann: Player, bob: Player, screenshots: Path, force: bool = False) -> bool:
    """The table at desktop size (Ann) and phone size (Bob), while a round is being played."""
    state = ann.state()
    if not force and (not state or state["view"]["phase"] not in ("draw", "play", "claim")):
        return False
    ann.page.screenshot(path=str(screenshots / "table-desktop.png"))
    bob.page.screenshot(path=str(screenshots / "table-phone.png"))
    bob.page.screenshot(path=str(screenshots / "table-phone-full.png"), full_page=True)
    return True
