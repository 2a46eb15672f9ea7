"""Whole games with an llm seat: every variant through ``rummy sim``, and a game in which each prompt is
checked to come from the seat's own view."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rummy.bots import bot_view, make_bot
from rummy.cli import main
from rummy.engine.actions import Action
from rummy.engine.game import Game, new_game
from rummy.llm.bot import LlmBot
from rummy.llm.prompt import prompt_messages
from rummy.search.playout import drive
from tests.variants import BUILT_IN

if TYPE_CHECKING:
    from conftest import FakeEndpoint


@pytest.mark.parametrize("variant", BUILT_IN)
def test_a_whole_game_of_each_variant_with_an_llm_seat(endpoint: FakeEndpoint, tmp_path: Path, variant: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # mixed answer shapes and failures; the game must still finish
    endpoint.script = ["garbage", "number", "500", "bare", "illegal", "word", "malformed"] * 3
    log = tmp_path / "llm.jsonl"
    players = f"llm:model=fake:base_url={endpoint.url}:log={log}:retries=1,heuristic,heuristic"
    assert main(["sim", "--variant", variant, "--players", players, "--games", "1", "--workers", "1",
                 "--seed", "3", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert len(results["players"]) == 3
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    answered = [line for line in lines if line["event"] == "answer"]
    assert len(answered) == len(endpoint.requests) > 10
    assert {line["outcome"] for line in answered} >= {"legal", "unparsable", "illegal", "error"}
    assert all(line["variant"] == variant for line in lines)


def test_prompts_hold_only_what_the_seat_may_see(endpoint: FakeEndpoint) -> None:
    game = new_game("may-i", ["Ann", "Bob", "Cid", "Dee"], seed=11)
    llm = make_bot("llm", model="fake", base_url=endpoint.url)
    assert isinstance(llm, LlmBot)
    bots = [llm, make_bot("heuristic"), make_bot("heuristic", seed=2), make_bot("heuristic", seed=3)]
    checked = 0

    def decide(g: Game, seat: int) -> Action:
        nonlocal checked
        if seat != 0:
            return bots[seat].choose(bot_view(game, seat, bots[seat]))
        shown = bot_view(game, 0, llm)
        asked = len(endpoint.requests)
        action = llm.choose(shown)
        if len(endpoint.requests) > asked:
            sent = endpoint.requests[asked]["messages"]
            # the prompt is the one rendered from the seat's plain view, without the search copy …
            assert sent == prompt_messages(dataclasses.replace(shown, public_game=None))
            assert sent == prompt_messages(game.view(0))
            # … and that view holds the seat's own hand and no other (hands show only at a round's end)
            assert list(shown.hand) == game.hand(0) and shown.revealed_hands is None
            checked += 1
        return action

    drive(game, decide)
    assert game.game_over and checked > 50
    assert llm.counters.legal == checked and llm.counters.fallbacks == 0
    c = llm.counters
    assert c.decisions == c.forced + c.legal + c.fallbacks and c.requests == c.answers + c.errors


def test_sim_prints_the_llm_seats_counters_and_sends_plain_names(endpoint: FakeEndpoint, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tests.llm.conftest import COMPLETION_TOKENS, PROMPT_TOKENS

    endpoint.script = ["garbage", "number", "500", "number"]
    log = tmp_path / "llm.jsonl"
    players = f"llm:model=fake:base_url={endpoint.url}:log={log}:retries=1,heuristic,heuristic"
    arguments = ["sim", "--variant", "basic", "--players", players, "--games", "1", "--workers", "1", "--seed", "4"]
    assert main(arguments) == 0
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if line.startswith(f"  {players.split(',')[0]}:"))
    requests = len(endpoint.requests)
    answered = requests - 1  # one scripted HTTP 500
    assert f" {requests} requests," in line and " 1 errors," in line and " 1 unparsable," in line
    assert f"{(PROMPT_TOKENS + COMPLETION_TOKENS) * answered} tokens" in line and " 0 fallbacks," in line
    retries = int(line.split(" retries,")[0].rsplit(" ", 1)[1])
    assert retries == 2  # after the garbage and after the error
    # the model is told the seat's bot name, never its endpoint or its log
    for body in endpoint.requests:
        sent = json.dumps(body["messages"])
        assert endpoint.url not in sent and str(log) not in sent and "base_url" not in sent
    assert "(llm)" in endpoint.requests[0]["messages"][1]["content"]
    endpoint.requests.clear()
    endpoint.script = ["garbage", "number", "500", "number"]
    assert main([*arguments, "--json"]) == 0
    counters = json.loads(capsys.readouterr().out)["players"][0]["counters"]
    assert counters["requests"] == len(endpoint.requests) and counters["retries"] == 2
    assert counters["prompt_tokens"] == PROMPT_TOKENS * (len(endpoint.requests) - 1)
