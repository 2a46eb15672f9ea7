"""A phone-first table (issue #27): a whole round played by tapping on a 390×844 touch phone, and by
clicking on a 1366×768 laptop, against computer players.

At every step the page is measured by bounding boxes: no prompt (the buy / May-I window, a hint, an error)
overlaps the seat strip, the contract or the hand; the page never scrolls; while the lay-down builder is
open the discard pile, the table melds and the Lay down button are in the viewport; a player's own
discard is never offered with the claim button; a hint goes once its turn is over. Screenshots of the
table, the buy prompt, the builder and the round end are saved at both sizes (artifacts/screenshots).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import MY_TURN, new_page, page_errors, start_bot_table

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


# A server whose computer players answer at once: the page waits on their moves, not a clock.
SERVER_PACE = {"bot_delay": 0}


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
MAX_BUYS = 2  # per round: enough to see buying, few enough that the round ends
MAX_ROUNDS = 3  # rounds played until a claim window and a message were measured

# Everything the checks measure, in one look (CSS pixels, the viewport's coordinates), once the page has drawn a
# frame of the state it shows (size observers run before a frame: the layout is then the one a player sees).
LOOK = """async () => {
  await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
  const box = (sel) => {
    const node = document.querySelector(sel);
    if (!node) return null;
    const r = node.getBoundingClientRect();
    return r.width && r.height ? {x: r.left, y: r.top, w: r.width, h: r.height} : null;
  };
  // how much of an element shows: its box cut by every scrolling or clipping ancestor and by the viewport
  const shown = (sel) => {
    const node = document.querySelector(sel);
    if (!node) return null;
    const r = node.getBoundingClientRect();
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let p = node.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflow === 'visible') continue;
      const c = p.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right),
        Math.min(bottom, c.bottom)];
    }
    [left, top, right, bottom] = [Math.max(left, 0), Math.max(top, 0), Math.min(right, innerWidth),
      Math.min(bottom, innerHeight)];
    const area = Math.max(0, right - left) * Math.max(0, bottom - top);
    return area / (r.width * r.height);
  };
  return {
    prompts: {claim: box('#claim:not([hidden])'), toast: box('#toast.show')},
    kept: {seats: box('#seats'), contract: box('#contract'), hand: box('#hand')},
    discard: box('#discard'), board: box('.board-center'), melds: box('#melds'), meld: box('#melds .meld'),
    discardShown: shown('#discard > .card'), meldShown: shown('#melds .meld'),
    builder: box('#builder:not([hidden])'), builderBar: box('#builder .builder-head'), submit: box('#builder-submit'),
    scrollY: window.scrollY, width: innerWidth, height: innerHeight,
  };
}"""

# A full hand, a meld on the table and a message in the dock, put on the page as it stands (and taken off again).
SQUEEZE = """() => {
  const hand = document.querySelector('#hand'), card = hand.querySelector('.card');
  const copy = () => Object.assign(card.cloneNode(true), {className: card.className});
  while (hand.querySelectorAll('.card').length < 16) {
    const extra = copy();
    extra.dataset.squeeze = '';
    hand.append(extra);
  }
  if (!document.querySelector('#melds .meld')) {
    const cards = Object.assign(document.createElement('div'), {className: 'meld-cards'});
    cards.append(copy(), copy(), copy());
    const meld = Object.assign(document.createElement('div'), {className: 'meld'});
    meld.append(cards);
    const group = Object.assign(document.createElement('div'), {className: 'meld-group'});
    group.dataset.squeeze = '';
    group.append(Object.assign(document.createElement('div'), {className: 'meld-row'}));
    group.firstChild.append(meld);
    document.querySelector('#melds').append(group);
  }
  const box = document.getElementById('toast');
  box.style.transition = 'none'; // at its full height at once
  box.textContent = 'Hint: discard the 9♦: it is the card least likely to help you, and no table move came first.';
  box.className = 'toast show hint';
}"""
UNSQUEEZE = """() => {
  for (const extra of document.querySelectorAll('[data-squeeze]')) extra.remove();
  const box = document.getElementById('toast');
  box.className = 'toast';
  box.style.transition = '';
}"""

# Something for Ann to do: the round is over, a claim window waits for her, or it is her turn.
SOMETHING_TO_DO = """() => {
  const s = window.rummy.state(), v = s.view;
  if (!v) return false;
  if (['round_over', 'game_over'].includes(v.phase)) return true;
  if (v.phase === 'claim') return !!document.querySelector('#claim:not([hidden]) #pass-button');
  return v.active === s.seat && ['draw', 'play'].includes(v.phase) && v.legal_actions.length > 0;
}"""
CHANGED = "s => window.rummy.state().seq > s"
# Every card movement the page starts, with its length (the Web Animations calls, counted before any script).
COUNT_FLIGHTS = """window.__flights = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__flights.push(typeof options === 'number' ? options : options?.duration);
  return animate.call(this, frames, options);
};"""
# The claim window now: is it for Ann's own discard, which buttons it shows (null: no window for her).
OFFER = """() => {
  const s = window.rummy.state(), v = s.view;
  if (v.phase !== 'claim' || !document.querySelector('#claim:not([hidden]) #pass-button')) return null;
  const back = document.querySelector('#claim #take-back-button');
  return {own: v.claim_from === s.seat, buy: !!document.querySelector('#claim #buy-button'),
          takeBack: back ? back.className : null};
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def in_view(box: dict[str, float] | None, look: dict[str, Any], whole: bool = True) -> bool:
    """``box`` lies in the viewport (whole, or at least 30 px of its height, or all of a lower box)."""
    if not box:
        return False
    top, bottom = max(box["y"], 0), min(box["y"] + box["h"], look["height"])
    if whole:
        return bool(box["y"] >= -1 and box["y"] + box["h"] <= look["height"] + 1)
    return bool(bottom - top >= min(30, box["h"] - 1))


class Round:
    """Ann's side of a round at a table of computer players, played through the page."""

    def __init__(self, page: Any, touch: bool, shots: Path, prefix: str) -> None:
        self.page, self.touch, self.shots, self.prefix = page, touch, shots, prefix
        self.done: Counter[str] = Counter()
        self.taken: set[str] = set()
        self.hinted = False
        self.buys = 0  # this round

    # -- looking ---------------------------------------------------------------------------------

    def look(self, where: str) -> dict[str, Any]:
        """Measure the page and check what must hold at every moment."""
        look: dict[str, Any] = self.page.evaluate(LOOK)
        assert look["scrollY"] == 0, f"{where}: the page scrolled by {look['scrollY']} px"
        for name, prompt in look["prompts"].items():
            if not prompt:
                continue
            self.done[f"{name} seen"] += 1
            for part, kept in look["kept"].items():
                if kept:
                    assert overlap(prompt, kept) == 0, f"{where}: the {name} covers the {part} ({prompt} / {kept})"
            if look["builderBar"]:
                assert overlap(prompt, look["builderBar"]) == 0, f"{where}: the {name} covers the builder bar"
        for part, kept in look["kept"].items():
            assert kept is None or in_view(kept, look, whole=part != "hand"), f"{where}: the {part} is out of view"
        return look

    def look_at_builder(self, where: str) -> None:
        look = self.look(where)
        assert look["builder"], f"{where}: no builder"
        assert in_view(look["discard"], look), f"{where}: the discard pile is out of view ({look['discard']})"
        assert in_view(look["melds"], look, whole=False), f"{where}: the table melds are out of view ({look['melds']})"
        assert look["discardShown"] >= 0.9, f"{where}: the discard pile's top card is hidden ({look['discardShown']})"
        if look["meld"]:
            assert in_view(look["meld"], look), f"{where}: the first table meld is out of view ({look['meld']})"
            assert look["meldShown"] >= 0.9, (f"{where}: the first table meld is hidden ({look['meldShown']}; "
                                              f"board {look['board']}, meld {look['meld']})")
        assert in_view(look["submit"], look), f"{where}: the Lay down button is out of view ({look['submit']})"

    def look_at_a_squeezed_builder(self) -> None:
        """The builder's checks with the most a phone must hold at once: three rows of cards in the hand (copies
        of its first card) and a two-line message in the dock; the page is then put back as it was."""
        self.page.evaluate(SQUEEZE)
        try:
            self.look_at_builder("the builder with a full hand and a message")
        finally:
            self.page.evaluate(UNSQUEEZE)
        self.done["squeezed"] += 1

    def shot(self, name: str) -> None:
        if name not in self.taken:
            self.taken.add(name)
            self.page.screenshot(path=str(self.shots / f"{self.prefix}-{name}.png"), animations="disabled")

    # -- acting ----------------------------------------------------------------------------------

    def press(self, selector: str, timeout: float = 15_000) -> None:
        if self.touch:
            self.page.tap(selector, timeout=timeout)
        else:
            self.page.click(selector, timeout=timeout)

    def state(self) -> dict[str, Any]:
        result: dict[str, Any] = self.page.evaluate("window.rummy.state()")
        return result

    def pick(self, card: str) -> None:
        """Select one more hand card (a tap: the browser's click follows and selects it)."""
        count = self.page.locator("#hand .card.selected").count()
        self.press(f'#hand .card[data-card="{card}"]:not(.staged):not(.selected)')
        self.page.wait_for_function("n => document.querySelectorAll('#hand .card.selected').length > n", arg=count)

    def play(self) -> None:
        """Play until the round is over."""
        page = self.page
        while True:
            page.wait_for_function(SOMETHING_TO_DO, timeout=90_000)
            current = self.state()
            view, seat, seq = current["view"], current["seat"], current["seq"]
            if view["phase"] in ("round_over", "game_over"):
                return
            legal = [a.split(" ", 1)[1] for a in view["legal_actions"]]
            if view["phase"] == "claim":
                self.answer_claim(view, seat, seq)
            elif view["phase"] == "draw":
                self.draw(view, legal, seq)
            else:
                self.turn(view, legal, seat, seq)

    def answer_claim(self, view: dict[str, Any], seat: int, seq: int) -> None:
        self.look("claim window")
        # the state and the page are drawn together: one look at both
        offer = self.page.evaluate(OFFER)
        if offer is None:
            return  # the window closed meanwhile
        if offer["own"]:  # her own discard: offered quietly, never with the claim button
            assert not offer["buy"], "her own discard is offered with the claim button"
            assert offer["takeBack"] is not None, offer
            assert "primary" not in offer["takeBack"] and "buy" not in offer["takeBack"], offer
            self.done["own discard"] += 1
            target = "#pass-button"
        else:
            self.shot("buy")
            card = view["claim_card"]
            wanted = card == "JK" or any(c[:-1] == card[:-1] for c in view["hand"] if c != "JK")
            target = "#buy-button" if wanted and self.buys < MAX_BUYS else "#pass-button"
            self.done["buy" if target == "#buy-button" else "pass"] += 1
            self.buys += target == "#buy-button"
        try:
            self.press(f"#claim {target}", timeout=3000)
        except Exception:  # noqa: BLE001 - the window closed under the finger (another player was faster)
            return
        self.page.wait_for_function(CHANGED, arg=seq)

    def draw(self, view: dict[str, Any], legal: list[str], seq: int) -> None:
        self.look("draw")
        self.shot("table")
        if self.touch and not self.done["scores"]:  # the scores and moves open over the table, and close
            self.done["scores"] += 1
            self.press("#side-button")
            self.page.wait_for_selector("#sheet", state="visible")
            assert self.page.get_attribute("#side-button", "aria-expanded") == "true"
            self.shot("scores")
            self.press("#side-button")
            self.page.wait_for_selector("#sheet", state="hidden")
        if "draw" not in legal:  # nothing to draw (a buy of the upcard, say): wait for the table
            self.page.wait_for_function(CHANGED, arg=seq)
            return
        self.press("#stock")
        self.page.wait_for_function(CHANGED, arg=seq)
        self.done["draw"] += 1

    def turn(self, view: dict[str, Any], legal: list[str], seat: int, seq: int) -> None:
        page = self.page
        if page.locator("#builder:not([hidden])").count():  # open while the contract is not down
            self.look_at_builder("a turn with the builder open")
            self.shot("builder-open")
            if self.touch and not self.done["squeezed"]:
                self.look_at_a_squeezed_builder()
        downs = [b for b in legal if b.startswith("down ")]
        if downs:
            self.lay_down(downs[0], seat)
            return
        layoffs = [b for b in legal if b.startswith("layoff ") and ";" not in b and len(b.split()) == 3]
        if layoffs:
            _, meld, card = layoffs[0].split()
            self.pick(card)
            self.press(f'.meld[data-meld="{meld}"]')
            page.wait_for_function("s => window.rummy.state().seq > s || !!document.querySelector('.dialog .choice')",
                                   arg=seq)
            if page.locator(".dialog .choice").count():  # the card could also swap for a joker: lay it off
                self.press(".dialog .choice >> text=Lay off")
            page.wait_for_function(CHANGED, arg=seq)
            self.look("after a lay-off")
            self.done["layoff"] += 1
            return
        if not self.hinted:  # one hint a round: it shows in the dock and goes with the turn
            page.wait_for_function("s => window.rummy.state().seq > s || !!document.querySelector('#hint-button')",
                                   arg=seq)
            if self.state()["seq"] != seq:
                return  # the table moved on (another player's claim): look again
            self.hinted = True
            self.press("#hint-button")
            page.wait_for_function("""() => { const t = document.querySelector('#toast.show');
              return t && t.textContent.startsWith('Hint: ') && !t.getAnimations().length; }""")
            self.look("a hint")
            self.shot("hint")
            colours = page.eval_on_selector("#hint-button", """n => { const s = getComputedStyle(n);
              return [s.color, s.backgroundColor, s.opacity]; }""")
            assert float(colours[2]) == 1.0 and colours[1] in ("rgba(0, 0, 0, 0)", "rgba(255, 255, 255, 0.14)"), (
                f"the Hint button after use: {colours}")
            self.done["hint"] += 1
        discards = [b.split()[1] for b in legal if b.startswith("discard ")]
        if discards:
            ranks = Counter(c[:-1] for c in view["hand"] if c != "JK")
            lonely = [c for c in discards if c != "JK" and ranks[c[:-1]] == 1]
            card = (lonely or [c for c in discards if c != "JK"] or discards)[0]
            self.pick(card)
            self.press("#discard-button")
            page.wait_for_function(CHANGED, arg=seq)
            # the hint was for that turn: it goes (fades) with it
            page.wait_for_function("() => !document.querySelector('#toast.hint.show')")
            self.done["discard"] += 1

    def lay_down(self, body: str, seat: int) -> None:
        page = self.page
        page.wait_for_selector("#builder:not([hidden])")
        self.look_at_builder("the builder opens")
        for spec in body.split()[1:]:
            kind, cards = spec.split(":", 1)
            for card in cards.split("=")[0].split("-"):
                self.pick(card)
            self.press(f"#builder-{kind}")
            # the builder asks the server to arrange the picked cards: it stages the meld (the selection
            # clears) or shows the server's refusal; either way the answer is on the page
            page.wait_for_function("""() => !document.querySelector('#hand .card.selected')
                                        || !!document.querySelector('#builder .error')""", timeout=60_000)
            refusal = page.locator("#builder .error")
            assert not refusal.count(), f"the builder refused {spec} of the legal {body!r}: {refusal.inner_text()}"
        page.wait_for_selector("#builder-submit:not([disabled])")
        self.look_at_builder("the builder is filled")
        self.shot("builder")
        self.press("#builder-submit")
        down = "s => window.rummy.state().view.down[s] || !!document.querySelector('#builder .error')"
        page.wait_for_function(down, arg=seat)
        if page.locator("#builder .error").count():  # the arrangement was refused: the hint stages one
            self.press("#hint-button")
            self.press("#builder-submit")
        page.wait_for_function("s => window.rummy.state().view.down[s]", arg=seat)
        self.look("after the lay-down")
        self.done["down"] += 1


def play_a_round(browser: Any, server: str, screenshots: Path, variant: str, *, touch: bool) -> Counter[str]:
    size = "phone" if touch else "desktop"
    page, problems = new_page(browser, PHONE if touch else LAPTOP, touch=touch)
    page.add_init_script(COUNT_FLIGHTS)
    start_bot_table(page, server, variant, touch=touch, seats=3, long_claims=True)
    ann = Round(page, touch, screenshots, f"{size}-{variant}")
    for round_no in range(1, MAX_ROUNDS + 1):
        ann.hinted, ann.buys = False, 0
        try:
            ann.play()
        except Exception:
            page.screenshot(path=str(screenshots / f"failure-{size}-{variant}.png"))
            print("state:", {k: v for k, v in ann.state()["view"].items() if k not in ("legal_actions", "facts")})
            print("moves:", ann.state()["log"][-12:])
            raise
        assert ann.state()["view"]["phase"] == "round_over"
        page.wait_for_selector(".round-summary")
        ann.shot("round-end")
        if ann.done["claim seen"] and ann.done["toast seen"] or round_no == MAX_ROUNDS:
            break
        # a round too short to see a claim window: the next one
        ann.press("#ready-button")
        page.wait_for_function("r => window.rummy.state().view.round > r", arg=round_no, timeout=30_000)
    flights = page.evaluate("window.__flights")
    assert flights and all(150 <= ms <= 250 for ms in flights), f"card movements: {flights[:20]}"
    ann.done["flights"] = len(flights)
    assert not problems, problems
    page.context.close()
    return ann.done


@pytest.mark.parametrize("variant", ["may-i", "progressive-buy-it"])
def test_a_round_on_a_phone_by_tapping(server: str, browser: Any, screenshots: Path, variant: str) -> None:
    done = play_a_round(browser, server, screenshots, variant, touch=True)
    assert done["draw"] and done["discard"] and done["hint"], dict(done)
    assert done["claim seen"] and done["toast seen"], dict(done)  # the prompts were measured
    assert done["squeezed"], dict(done)
    print(f"{variant}: {dict(done)}")


def test_a_round_on_a_laptop(server: str, browser: Any, screenshots: Path) -> None:
    done = play_a_round(browser, server, screenshots, "progressive-buy-it", touch=False)
    assert done["draw"] and done["discard"] and done["hint"], dict(done)


def test_no_card_moves_under_reduced_motion(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems = page_errors(page)
    page.add_init_script(COUNT_FLIGHTS)
    start_bot_table(page, server, "basic", touch=True, seats=2)
    page.wait_for_function(MY_TURN, arg="draw")
    page.tap("#stock")
    page.wait_for_function(MY_TURN, arg="play")
    seq = page.evaluate("window.rummy.state().seq")
    card = page.locator("#hand .card").first.get_attribute("data-card")
    page.tap(f'#hand .card[data-card="{card}"]')
    page.wait_for_selector("#hand .card.selected")
    page.tap("#discard-button")
    page.wait_for_function(CHANGED, arg=seq)
    page.wait_for_function(MY_TURN, arg="draw")  # the computer player's draw and discard came too
    assert page.evaluate("window.__flights") == [], "cards moved under prefers-reduced-motion"
    assert not problems, problems
    context.close()
