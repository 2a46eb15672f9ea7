"""The browser draws the melds the engine arranged, wilds as the engine marks them (issue #28): a two in its
own place under ``twos_natural_in_place`` is drawn natural, not as a wild; an ace stands high or low where
the engine put it.  The page asks ``/api/tables/{id}/arrange`` as its meld builder does and draws the answer
with the table's own ``meldElement``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import MY_TURN, new_page, start_bot_table

pytestmark = [pytest.mark.e2e]

DRAW = """async ([tableId, picked]) => {
  const { meldElement } = await import("/static/melds.js");
  const out = [];
  for (const meld of picked) {
    const response = await fetch(`/api/tables/${tableId}/arrange?meld=${encodeURIComponent(meld)}`);
    const arranged = await response.json();
    const node = meldElement({ id: out.length + 1, owner: 0, ...arranged });
    document.body.append(node);
    out.push([...node.querySelectorAll(".card")].map((card) =>
      [card.dataset.card, card.classList.contains("wild-as"), card.querySelector(".as")?.textContent ?? null]));
  }
  return out;
}"""


def test_twos_in_place_are_drawn_natural_and_aces_where_the_engine_puts_them(server: str, browser: Any) -> None:
    page, problems = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#name-form, #create-form")
    if page.locator("#name-form").count():
        page.fill("#name", "Ann")
        page.click("#name-form button[type=submit]")
    page.wait_for_selector("#create-form")
    table_id = page.evaluate("""async () => {
      const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ variant: "progressive-15", seats: 3, options: { twos_natural_in_place: true } }) });
      return (await response.json()).table_id;
    }""")
    drawn = page.evaluate(DRAW, [table_id, ["run:4H-2H-3H", "run:4H-2S-3H", "run:AH-KH-QH", "set:2C-2D-2H"]])
    assert drawn[0] == [["2H", False, None], ["3H", False, None], ["4H", False, None]]  # the two is natural here
    assert drawn[1] == [["3H", False, None], ["4H", False, None], ["2S", True, "=5♥"]]  # a two of another suit is wild
    assert drawn[2] == [["QH", False, None], ["KH", False, None], ["AH", False, None]]  # the ace above the king
    assert [wild for _, wild, _ in drawn[3]] == [False, False, False]  # a set of twos: all natural
    assert problems == []


def test_the_builder_sends_the_engines_order(server: str, browser: Any) -> None:
    """Cards picked out of order: the builder shows the engine's reason for cards that make no meld, and
    stages (then lays) a meld in the engine's order."""
    page, problems = new_page(browser)
    start_bot_table(page, server, "basic", seats=2)
    refused = laid = False
    for _ in range(15):
        page.wait_for_function(MY_TURN, arg="draw", timeout=30_000)
        page.click("#draw-button")
        page.wait_for_function(MY_TURN, arg="play")
        view = page.evaluate("window.rummy.state().view")
        if not refused:  # two cards are never a run here (runs of three): the engine says why
            cards = page.locator("#hand .card")
            cards.nth(0).click()
            cards.nth(1).click()
            page.click("#builder-run")
            page.wait_for_selector("#builder .error")
            assert page.locator("#builder .error").inner_text().strip()
            page.locator("#hand .card.selected").first.click()
            page.locator("#hand .card.selected").first.click()
            refused = True
        melds = [a.split(" ", 2)[2] for a in view["legal_actions"] if a.split(" ")[1] == "meld"]
        one = next((m for m in melds if len(m.split()) == 1), None)
        if one is not None:
            kind, names = one.split(":")
            for card in reversed(names.split("-")):  # picked high to low: the engine puts them in order
                page.locator(f'#hand .card[data-card="{card}"]:not(.staged):not(.selected)').first.click()
            page.click(f"#builder-{kind}")
            staged = page.locator("#builder .spec").first.get_attribute("title")
            if kind == "run":
                assert staged == one
            else:
                assert sorted(staged.split(":")[1].split("-")) == sorted(names.split("-"))
            page.click("#builder-submit")
            page.wait_for_function("n => window.rummy.state().view.table.length > n", arg=len(view["table"]))
            laid = True
            break
        page.locator("#hand .card").first.click()
        page.click("#discard-button")
    assert refused
    if not laid:
        pytest.skip("no meld came to the hand in 15 turns (the refusal was checked)")
    assert problems == []
