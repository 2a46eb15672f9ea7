"""The llm bot against the fake endpoint: answers read, refusals retried with the reason, request failures
retried, the fallback move, the counters, the JSONL log, and clear errors on a bad setup."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rummy.bots import make_bot
from rummy.bots.heuristic import HeuristicBot
from rummy.cli import main
from rummy.engine.actions import Verb
from rummy.engine.errors import BotError
from rummy.engine.game import Game, new_game
from rummy.engine.view import PlayerView
from rummy.llm.bot import LlmBot
from rummy.search.determinize import search_view
from tests.llm.conftest import COMPLETION_TOKENS, PROMPT_TOKENS

if TYPE_CHECKING:
    from conftest import FakeEndpoint


def llm(endpoint: FakeEndpoint, **options: Any) -> LlmBot:
    bot = make_bot("llm", seed=1, model="fake", base_url=endpoint.url, **options)
    assert isinstance(bot, LlmBot)
    return bot


def draw_game() -> Game:
    return new_game("may-i", ["Ann", "Bob", "Cid"], seed=1)


def claim_view() -> PlayerView:
    game = draw_game()
    game.apply_text(f"p{game.active} draw")
    assert game.phase.value == "claim"
    return search_view(game, game.to_act[0])


def play_view() -> PlayerView:
    game = draw_game()
    game.apply_text(f"p{game.active} draw")
    while game.phase.value == "claim":
        game.apply_text(f"p{game.to_act[0]} pass")
    assert game.phase.value == "play"
    return search_view(game, game.active)


def counts(bot: LlmBot) -> dict[str, int]:
    """The bot's nonzero counters but the tokens (checked on their own)."""
    return {key: value for key, value in bot.counters.to_json().items()
            if value and not key.endswith("_tokens")}


def test_a_listed_move_is_played_at_once(endpoint: FakeEndpoint) -> None:
    view = search_view(draw_game(), draw_game().active)
    bot = llm(endpoint)
    assert bot.choose(view) in view.legal_actions
    assert counts(bot) == {"decisions": 1, "requests": 1, "answers": 1, "parsed": 1, "legal": 1}
    assert (bot.counters.prompt_tokens, bot.counters.completion_tokens) == (PROMPT_TOKENS, COMPLETION_TOKENS)
    assert endpoint.requests[0]["model"] == "fake"
    assert endpoint.requests[0]["temperature"] == 0.0


@pytest.mark.parametrize("kind", ["number", "bare", "word"])
def test_every_answer_shape_is_read(endpoint: FakeEndpoint, kind: str) -> None:
    endpoint.script = [kind]
    view = claim_view() if kind == "word" else play_view()
    bot = llm(endpoint)
    assert bot.choose(view) in view.legal_actions
    assert counts(bot)["legal"] == 1 and bot.counters.retries == 0


def test_refused_answers_are_retried_with_the_reason(endpoint: FakeEndpoint) -> None:
    endpoint.script = ["garbage", "illegal", "line"]
    view = play_view()
    bot = llm(endpoint)
    assert bot.choose(view) in view.legal_actions
    assert counts(bot) == {"decisions": 1, "requests": 3, "answers": 3, "parsed": 2, "legal": 1, "illegal": 1,
                           "unparsable": 1, "retries": 2}
    second, third = endpoint.requests[1]["messages"], endpoint.requests[2]["messages"]
    assert [m["role"] for m in third] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert second[2]["content"] == "I would rather not say."
    assert second[3]["content"].startswith("Your answer was refused: 'I would rather not say.' is neither")
    assert third[4]["content"] == "layoff 99 AS"
    assert "Your answer was refused: p" in third[5]["content"] and "layoff 99 AS is not legal" in third[5]["content"]


def test_a_number_past_the_list_is_illegal(endpoint: FakeEndpoint) -> None:
    endpoint.script = ["range"]
    bot = llm(endpoint)
    bot.choose(play_view())
    assert bot.counters.illegal == 1 and bot.counters.parsed == 1 and bot.counters.retries == 1
    assert "there is no move" in endpoint.requests[1]["messages"][3]["content"]


def test_failed_requests_are_counted_then_the_fallback_draws(endpoint: FakeEndpoint) -> None:
    endpoint.script = ["500", "malformed", "nochoices"]
    game = draw_game()
    view = search_view(game, game.active)
    bot = llm(endpoint)
    action = bot.choose(view)
    assert action.verb is Verb.DRAW
    assert counts(bot) == {"decisions": 1, "requests": 3, "errors": 3, "retries": 2, "fallbacks": 1}
    # after a failed request the same messages are sent again
    assert endpoint.requests[0]["messages"] == endpoint.requests[2]["messages"]


def test_an_answer_past_the_timeout_is_an_error(endpoint: FakeEndpoint) -> None:
    endpoint.script = ["slow", "line"]
    bot = llm(endpoint, timeout=0.2)
    view = play_view()
    assert bot.choose(view) in view.legal_actions
    assert counts(bot) == {"decisions": 1, "requests": 2, "answers": 1, "parsed": 1, "legal": 1, "errors": 1,
                           "retries": 1}


def test_the_fallback_passes_in_a_claim_window(endpoint: FakeEndpoint) -> None:
    endpoint.default = "garbage"
    bot = llm(endpoint, retries=0)
    assert bot.choose(claim_view()).verb is Verb.PASS
    assert counts(bot) == {"decisions": 1, "requests": 1, "answers": 1, "unparsable": 1, "fallbacks": 1}


def test_the_fallback_plays_the_heuristic_choice(endpoint: FakeEndpoint) -> None:
    endpoint.default = "illegal"
    view = play_view()
    bot = llm(endpoint, retries=1)
    assert bot.choose(view) == HeuristicBot(1).choose(view)
    assert bot.counters.fallbacks == 1 and bot.counters.illegal == 2


def test_the_log_holds_every_prompt_and_answer(endpoint: FakeEndpoint, tmp_path: Path) -> None:
    log = tmp_path / "llm.jsonl"
    endpoint.script = ["garbage", "line", "500", "500"]
    bot = llm(endpoint, log=str(log), retries=1)
    view = play_view()
    bot.choose(view)
    bot.choose(view)
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(line["event"], line.get("outcome"), line.get("attempt")) for line in lines] == [
        ("answer", "unparsable", 0), ("answer", "legal", 1), ("answer", "error", 0), ("answer", "error", 1),
        ("fallback", None, None),
    ]
    assert [line["messages"] for line in lines[:4]] == [request["messages"] for request in endpoint.requests]
    assert lines[1]["answer"] == lines[1]["action"] and lines[1]["action"] in {str(a) for a in view.legal_actions}
    assert lines[2]["answer"] is None and lines[2]["reason"].startswith("HTTP 500")
    assert lines[4]["action"] == str(HeuristicBot(1).choose(view))
    assert {line["seat"] for line in lines} == {view.seat} and lines[0]["model"] == "fake"


def test_missing_endpoint_or_key_is_a_one_line_error(endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BotError, match="no endpoint: give base_url=URL"):
        make_bot("llm", model="fake")
    with pytest.raises(BotError, match="no API key for https://api.example.com/v1"):
        make_bot("llm", model="fake", base_url="https://api.example.com/v1")
    with pytest.raises(BotError, match="give the model's name"):
        make_bot("llm", base_url=endpoint.url)
    monkeypatch.setenv("RUMMY_LLM_BASE_URL", endpoint.url)
    assert isinstance(make_bot("llm", model="fake"), LlmBot)  # the environment gives the URL
    monkeypatch.delenv("RUMMY_LLM_BASE_URL")
    assert main(["sim", "--variant", "may-i", "--players", "llm:model=m,heuristic,heuristic", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no endpoint" in err and "Traceback" not in err


@pytest.mark.parametrize("options, message", [
    ({"retries": -1}, "retries must be 0 or more"),
    ({"timeout": 0}, "timeout must be more than 0"),
    ({"observation": "xml"}, "observation must be one of text, json"),
    ({"retries": "two"}, "llm option 'retries' must be int"),
])
def test_bad_options_are_refused(endpoint: FakeEndpoint, options: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot("llm", model="fake", base_url=endpoint.url, **options)


def test_a_key_from_the_environment_is_sent(endpoint: FakeEndpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_LLM_API_KEY", "sk-test")
    bot = llm(endpoint)
    assert bot.client._client.headers["Authorization"] == "Bearer sk-test"


def test_importing_the_bots_does_not_import_httpx() -> None:
    code = "import sys, rummy.bots, rummy.sim; print('httpx' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
