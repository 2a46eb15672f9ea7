"""The replay viewer in a real browser: a recorded game of each variant stepped through to the end and back
(the scores shown are `rummy replay`'s), the arrow keys, a link to a move, the seat toggle (no other hand
in the page nor in the JSON it was sent), an illegal action in an uploaded record, a malformed file, a live
table's replay refused, and a phone."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import new_page, start_bot_table
from tests.server.conftest import LiveServer, ServerProcess, run, seated_table, start_game
from tests.variants import BUILT_IN

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: bots that answer at once, and the per-address limits (replays among
    them) raised, since every test here asks from the same address."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    with ServerProcess(tmp_path_factory.mktemp("replay-server") / "rummy.db") as live:
        yield live.base_url

VARIANTS = list(BUILT_IN)
STATE = "window.rummy.replay()"


def rummy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummy", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One game of each variant, as `rummy sim --records` saves them."""
    folder = tmp_path_factory.mktemp("records")
    found = {}
    for variant in VARIANTS:
        done = rummy("sim", "--variant", variant, "--players", "heuristic,greedy,heuristic", "--games", "1",
                     "--seed", "5", "--workers", "1", "--records", str(folder / variant), "--json")
        assert done.returncode == 0, done.stderr
        found[variant] = folder / variant / "game-00001.json"
    return found


def replay_json(path: Path) -> dict[str, Any]:
    done = rummy("replay", str(path), "--json")
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def upload(page: Any, server: str, path: Path, hash_part: str = "") -> None:
    page.goto(f"{server}/replay{hash_part}")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#step-label strong")


def shown_totals(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#sheet tfoot td").all_inner_texts()]


def shown_rounds(page: Any) -> list[list[int]]:
    rows = page.locator("#sheet tbody tr").all()
    return [[int(cell) for cell in row.locator("th, td").all_inner_texts()] for row in rows
            if row.locator("td.muted").count() == 0]


KEYDOWNS = """([key, count]) => { for (let i = 0; i < count; i++) document.activeElement.dispatchEvent(
  new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true})); }"""


def press(page: Any, key: str, count: int) -> None:
    """``key`` pressed ``count`` times: the viewer draws every step in turn. All presses but the last are keydown
    events sent from inside the page in one go (one call to the browser instead of one per step: a whole game
    is close to a thousand); the last is the keyboard's."""
    if count > 1:
        page.evaluate(KEYDOWNS, [key, count - 1])
    if count > 0:
        page.keyboard.press(key)


def at(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(STATE)
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_whole_game_forward_and_back(server: str, browser: Any, records: dict[str, Path], screenshots: Path,
                                       variant: str) -> None:
    page, problems = new_page(browser)
    expected = replay_json(records[variant])
    record = json.loads(records[variant].read_text())
    upload(page, server, records[variant])
    steps = at(page)["steps"]
    assert steps == sum(len(rnd["actions"]) + 1 for rnd in record["rounds"])
    assert at(page)["step"]["id"] == "r1.a0" and shown_rounds(page) == []
    round_ends, index = {}, -1
    for number, rnd in enumerate(record["rounds"]):
        index += len(rnd["actions"]) + 1
        round_ends[index] = number + 1
    page.focus("#step-forward")
    index = 0
    while index < steps - 1:  # forward, one move at a time: each round's deal by the button, its moves by the key
        end = min(e for e in round_ends if e > index)
        page.click("#step-forward")
        index += 1
        press(page, "ArrowRight", end - index)
        index = end
        finished = expected["results"]["rounds"][: round_ends[index]]
        assert at(page)["index"] == index
        assert shown_rounds(page) == [[r["round"], *r["scores"]] for r in finished]
    assert at(page)["index"] == steps - 1
    assert page.locator("#step-forward").is_disabled()
    assert shown_totals(page) == expected["results"]["totals"] == at(page)["results"]["totals"]
    assert at(page)["frame"]["hands"] == expected["state"]["hands"]
    if expected["results"]["game_over"]:
        assert "Game over" in page.inner_text("#log")
    page.screenshot(path=str(screenshots / f"replay-end-{variant}.png"), full_page=True)
    # back: move by move through the last round (its scores leave the sheet), then a round at a time
    ends = sorted(round_ends)
    previous_end = ends[-2] if len(ends) > 1 else 0
    page.focus("#step-back")
    press(page, "ArrowLeft", steps - 1 - previous_end)
    assert at(page)["index"] == previous_end
    assert len(shown_rounds(page)) == round_ends.get(previous_end, 0)
    starts = [0] + [end + 1 for end in ends[:-2]]
    for start in reversed(starts if previous_end else []):
        page.keyboard.press("PageUp")
        assert at(page)["index"] == start
    assert at(page)["index"] == 0 and shown_rounds(page) == []
    assert page.evaluate("location.hash") == "#r1.a0"
    assert problems == []


def test_keys_and_a_link_to_a_move(server: str, browser: Any, records: dict[str, Path]) -> None:
    page, problems = new_page(browser)
    upload(page, server, records["may-i"], "#r3.a17")
    assert at(page)["step"]["id"] == "r3.a17"
    assert page.locator('#log li[aria-current="step"]').get_attribute("data-step") == "r3.a17"
    page.keyboard.press("ArrowRight")
    assert at(page)["step"]["id"] == "r3.a18" and page.evaluate("location.hash") == "#r3.a18"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert at(page)["step"]["id"] == "r3.a16"
    page.keyboard.press("PageDown")
    assert at(page)["step"]["id"] == "r4.a0"
    page.keyboard.press("PageUp")
    assert at(page)["step"]["id"] == "r3.a0"
    page.keyboard.press("End")
    assert at(page)["index"] == at(page)["steps"] - 1
    page.keyboard.press("Home")
    assert at(page)["index"] == 0
    page.evaluate("location.hash = '#r2.a5'")  # a link followed inside the page
    page.wait_for_function("() => window.rummy.replay().step.id === 'r2.a5'")
    page.click('#log li[data-step="r2.a3"] a')
    page.wait_for_function("() => window.rummy.replay().step.id === 'r2.a3'")
    unnamed = page.evaluate("""() => [...document.querySelectorAll('button, select, input, a')]
        .filter((n) => !(n.getAttribute('aria-label') || n.textContent.trim() || n.labels?.length))
        .map((n) => n.outerHTML.slice(0, 80))""")
    assert unnamed == []
    assert problems == []


def cards_in_page(page: Any) -> Counter[str]:
    return Counter(page.eval_on_selector_all("#play-area [data-card]", "nodes => nodes.map((n) => n.dataset.card)"))


def public_cards(frame: dict[str, Any]) -> Counter[str]:
    """What every seat sees in a full frame: melds, the visible discard pile, purchase cards."""
    seen: Counter[str] = Counter(frame["discard"])
    for meld in frame["table"]:
        seen.update(meld["cards"])
    seen.update(frame["purchase_cards"] or [])
    return seen


def check_seat_view(page: Any, seat: int) -> None:
    """Mid-round, the page shows seat's hand and no other; the JSON sent for the seat holds no other hand."""
    full = at(page)["frame"]
    assert full["phase"] in ("claim", "draw", "play") and "hands" in full
    sent: list[dict[str, Any]] = []

    def keep(route: Any) -> None:  # what the server sends for the seat, as the page receives it
        answer = route.fetch()
        sent.append(answer.json())
        route.fulfill(response=answer)

    page.route(f"**/*replay*seat={seat}", keep)
    page.select_option("#replay-seat", str(seat))
    page.wait_for_function(f"() => window.rummy.replay().seat === {seat}")
    page.unroute(f"**/*replay*seat={seat}", keep)
    assert len(sent) == 1 and sent[0]["seat"] == seat
    page.wait_for_timeout(100)
    assert at(page)["frame"].get("hands") is None
    assert page.locator(".replay-hand").count() == 1
    assert page.locator(".replay-hand").get_attribute("data-seat") == str(seat)
    shown = cards_in_page(page)
    assert not shown - Counter(full["hands"][seat]) - public_cards(full), "a card of another hand is shown"
    whole: dict[str, Any] = {}
    for delta in sent[-1]["frames"]:
        whole = {**whole, **delta}
        assert "hands" not in whole
        if whole["phase"] not in ("round_over", "game_over"):
            assert whole["revealed_hands"] is None
    page.select_option("#replay-seat", "all")
    page.wait_for_function("() => window.rummy.replay().seat === null")
    assert page.locator(".replay-hand").count() == len(full["hands"])


def test_seat_toggle_on_an_uploaded_unfinished_record(server: str, browser: Any, records: dict[str, Path],
                                                       tmp_path: Path) -> None:
    record = json.loads(records["progressive-buy-it"].read_text())
    record["rounds"] = record["rounds"][:2]
    record["rounds"][1]["actions"] = record["rounds"][1]["actions"][:25]  # the game stops in round 2
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(record))
    page, problems = new_page(browser)
    upload(page, server, path, "#r2.a20")
    check_seat_view(page, 1)
    assert problems == []


async def finished_table(base_url: str) -> tuple[str, str]:
    """A basic game played to its end by two random players (about seven rounds: two random hands score about
    ten points a round), and a step in the middle of its longest round."""
    server = LiveServer(base_url, Path("unused"))
    table_id, players = await seated_table(server, ["Ann", "Bob"], variant="basic", seats=2, claim_seconds=0,
                                           options={"target_by_players": {"2": 60}})
    await start_game(players[0])
    rng = random.Random(8)
    await asyncio.gather(*(p.play(random.Random(rng.random()), timeout=300) for p in players))
    answer = await players[0].http("GET", f"/api/tables/{table_id}/record")
    for player in players:
        await player.close()
    rounds = [len(rnd["actions"]) for rnd in answer.json()["rounds"]]
    longest = max(range(len(rounds)), key=rounds.__getitem__)
    return table_id, f"r{longest + 1}.a{rounds[longest] // 2}"


def test_a_finished_table_replay_with_a_link_and_the_seat_toggle(server: str, browser: Any, screenshots: Path,
                                                                  tmp_path: Path) -> None:
    with ThreadPoolExecutor(1) as pool:  # the scripted players' event loop, beside Playwright's
        table_id, step = pool.submit(lambda: run(finished_table(server))).result(timeout=600)
    page, problems = new_page(browser)
    page.goto(f"{server}/replay/{table_id}#{step}")
    page.wait_for_selector("#step-label strong")
    assert at(page)["step"]["id"] == step
    check_seat_view(page, 0)
    page.screenshot(path=str(screenshots / "replay-table-desktop.png"), full_page=True)
    with page.expect_download() as download:
        page.click("#record-link")
    saved = tmp_path / "table.json"
    download.value.save_as(saved)
    page.keyboard.press("End")
    assert shown_totals(page) == replay_json(saved)["results"]["totals"]
    assert problems == []


def test_an_illegal_action_stops_the_viewer_with_the_engines_message(server: str, browser: Any,
                                                                     records: dict[str, Path], tmp_path: Path) -> None:
    record = json.loads(records["may-i"].read_text())
    record["rounds"] = record["rounds"][:1]
    record["rounds"][0]["actions"] = [*record["rounds"][0]["actions"][:30], "p1 down set:7H-7S-7D", "p0 draw"]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(record))
    expected = replay_json(path)
    assert expected["ok"] is False
    page, problems = new_page(browser)
    upload(page, server, path)
    assert page.locator("#replay-stopped").is_visible()
    assert page.inner_text("#stopped-message") == expected["error"]["message"]
    page.click("#go-to-stop")
    assert at(page)["step"]["id"] == "r1.a30" and at(page)["index"] == at(page)["steps"] - 1
    page.keyboard.press("ArrowRight")
    assert at(page)["step"]["id"] == "r1.a30"
    assert "here" in (page.get_attribute("#replay-stopped", "class") or "")
    assert problems == []


def test_a_malformed_file_gets_a_clear_error(server: str, browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "rummy-record/1", "variant": "basic", "players": ["A", "B"], "rounds": [], "hmm": 1}')
    page, problems = new_page(browser)
    page.goto(f"{server}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("() => document.querySelector('#replay-error').textContent.length > 0")
    assert "unknown key 'hmm'" in page.inner_text("#replay-error")
    assert [p for p in problems if "status of 400" not in p] == []  # the browser logs the refused upload


def test_a_live_tables_replay_is_refused(server: str, browser: Any) -> None:
    player, problems = new_page(browser)
    start_bot_table(player, server, "may-i")
    table_id = player.evaluate("location.pathname.split('/').pop()")
    watcher, watcher_problems = new_page(browser)
    watcher.goto(f"{server}/replay/{table_id}")
    watcher.wait_for_selector("#replay-error")
    assert "still being played" in watcher.inner_text("#replay-error")
    assert watcher.locator("[data-card]").count() == 0
    answer = watcher.request.get(f"{server}/api/tables/{table_id}/replay?seat=0")
    assert answer.status == 409 and answer.json()["error"]["code"] == "game-in-progress"
    assert problems == [] and watcher_problems == []


def test_on_a_phone(server: str, browser: Any, records: dict[str, Path], screenshots: Path) -> None:
    page, problems = new_page(browser, touch=True)
    upload(page, server, records["progressive-15"], "#r2.a10")
    for _ in range(3):
        page.tap("#step-forward")
    assert at(page)["step"]["id"] == "r2.a13"
    page.tap("#step-back")
    assert at(page)["step"]["id"] == "r2.a12"
    box = page.locator("#step-forward").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844 and box["height"] >= 44
    page.select_option("#replay-seat", "2")
    page.wait_for_function("() => window.rummy.replay().seat === 2")
    assert page.locator(".replay-hand").count() == 1
    page.screenshot(path=str(screenshots / "replay-phone.png"))
    assert problems == []
