"""A harness that lets a language model play a seat: ``rummy sim --players llm:model=NAME:base_url=URL,...``.

* :mod:`rummy.llm.observation` — the seat's view as compact text or JSON (from its view only);
* :mod:`rummy.llm.instructions` — what to do now: the claim window's offer and cost, the draw, the play;
* :mod:`rummy.llm.prompt` — the chat messages: rules summary, observation, numbered legal moves, answer format;
* :mod:`rummy.llm.parser` — the answer read as an action and judged;
* :mod:`rummy.llm.client` — the OpenAI-compatible ``/chat/completions`` client (httpx, the ``llm`` extra);
* :mod:`rummy.llm.bot` — :class:`~rummy.llm.bot.LlmBot`: retries, the fallback move, counters;
* :mod:`rummy.llm.transcript` — the JSONL log of every prompt and answer.

docs/llm.md describes how to run it, the prompt, the counters, the fallback and the log.
"""

from __future__ import annotations

from rummy.llm.observation import observation_json, observation_text
from rummy.llm.parser import AnswerRefused, IllegalAnswer, UnparsableAnswer, judge, parse_answer, read_answer
from rummy.llm.prompt import prompt_messages

__all__ = [
    "AnswerRefused",
    "IllegalAnswer",
    "UnparsableAnswer",
    "judge",
    "observation_json",
    "observation_text",
    "parse_answer",
    "prompt_messages",
    "read_answer",
]
