"""The ``llm`` bot: a language model behind any OpenAI-compatible chat endpoint plays a seat.

Each decision sends the seat's prompt (:mod:`rummy.llm.prompt`), reads the answer (:mod:`rummy.llm.parser`)
and plays it when it is legal.  A refused answer (unparsable or illegal) is sent back with the reason, and
a failed request (timeout, HTTP error, malformed reply) is sent again, up to ``retries`` more requests per
decision; after that the bot plays its fallback move (:func:`fallback_action`).  A decision with a single
legal move is played without asking.  :class:`LlmCounters` counts all of it; ``log=PATH`` appends every
prompt/answer pair to a JSONL file (:mod:`rummy.llm.transcript`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from rummy.bots.heuristic import HeuristicBot
from rummy.engine import Action, BotError, PlayerView, Verb
from rummy.llm.client import ChatClient, LlmError, resolve_endpoint
from rummy.llm.parser import IllegalAnswer, UnparsableAnswer, judge, parse_answer
from rummy.llm.prompt import OBSERVATION_FORMATS, Message, prompt_messages, refusal_message
from rummy.llm.transcript import Transcript


@dataclass
class LlmCounters:
    """What happened over the bot's decisions (``LlmBot.counters``)."""

    decisions: int = 0  # decisions asked of the bot
    forced: int = 0  # decisions with one legal move, played without asking
    requests: int = 0  # chat requests sent
    answers: int = 0  # requests that came back with an answer
    parsed: int = 0  # answers read as an action (legal or not)
    legal: int = 0  # answers played
    illegal: int = 0  # answers read as an action that is not legal now
    unparsable: int = 0  # answers that name no action
    errors: int = 0  # requests that failed (timeout, connection, HTTP status, malformed reply)
    retries: int = 0  # requests beyond the first of a decision
    fallbacks: int = 0  # decisions settled by the fallback move
    prompt_tokens: int = 0  # tokens of the requests, as the endpoint reports them (0 where it does not)
    completion_tokens: int = 0  # tokens of the answers, likewise

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def fallback_action(view: PlayerView, backup: HeuristicBot) -> Action:
    """The move played when the model gave no legal answer: PASS in a claim window, DRAW at the start of a
    turn, otherwise the heuristic bot's choice (or, should it fail, the first listed discard, else the first
    listed move)."""
    by_verb = {action.verb: action for action in reversed(view.legal_actions)}
    for verb in (Verb.PASS, Verb.DRAW):
        if verb in by_verb:
            return by_verb[verb]
    try:
        choice = backup.choose(view)
    except Exception:  # the fallback must never stop a game
        choice = None
    if choice is not None and choice in view.legal_actions:
        return choice
    return by_verb.get(Verb.DISCARD, view.legal_actions[0])


class LlmBot:
    """A seat played by a chat model.  Options (``rummy sim --players llm:model=NAME:base_url=URL``):

    * ``model`` — the model name sent to the endpoint (required);
    * ``base_url`` — the API base, such as ``http://127.0.0.1:8000/v1`` (default: ``RUMMY_LLM_BASE_URL``,
      else ``OPENAI_BASE_URL``); the key comes from ``RUMMY_LLM_API_KEY`` or ``OPENAI_API_KEY``;
    * ``retries`` — requests beyond the first per decision (default 2); ``timeout`` — seconds per request
      (default 60); ``temperature`` (default 0); ``max_tokens`` (default: the endpoint's);
    * ``observation`` — ``text`` (default) or ``json``; ``log`` — a JSONL file to append every prompt and
      answer to.
    """

    name = "llm"
    #: The redacted copy lets a lay-down the list does not hold be judged (:func:`rummy.llm.parser.judge`).
    needs_public_game = True

    def __init__(
        self,
        seed: int = 0,
        *,
        model: str = "",
        base_url: str | None = None,
        log: str | None = None,
        retries: int = 2,
        temperature: float = 0.0,
        timeout: float = 60.0,
        max_tokens: int | None = None,
        observation: str = "text",
    ) -> None:
        if not model.strip():
            raise BotError("llm: give the model's name: llm:model=NAME")
        if retries < 0:
            raise BotError(f"llm: retries must be 0 or more, not {retries}")
        if timeout <= 0:
            raise BotError(f"llm: timeout must be more than 0 seconds, not {timeout}")
        if not 0 <= temperature <= 2:
            raise BotError(f"llm: temperature must be between 0 and 2, not {temperature}")
        if max_tokens is not None and max_tokens < 1:
            raise BotError(f"llm: max_tokens must be at least 1, not {max_tokens}")
        if observation not in OBSERVATION_FORMATS:
            raise BotError(f"llm: observation must be one of {', '.join(OBSERVATION_FORMATS)}, not {observation!r}")
        endpoint = resolve_endpoint(base_url)
        self.model = model
        self.retries = retries
        self.observation = observation
        self.counters = LlmCounters()
        self.transcript = Transcript(log, model) if log is not None else None
        self.client = ChatClient(endpoint, model, temperature=temperature, timeout=timeout, max_tokens=max_tokens)
        self.backup = HeuristicBot(seed)

    def choose(self, view: PlayerView) -> Action:
        counters = self.counters
        counters.decisions += 1
        if len(view.legal_actions) == 1:
            counters.forced += 1
            return view.legal_actions[0]
        messages = prompt_messages(view, self.observation)
        for attempt in range(1 + self.retries):
            if attempt:
                counters.retries += 1
            action, answer, reason, outcome = self._ask(messages, view)
            if self.transcript is not None:
                self.transcript.answer(view, attempt, messages, answer, outcome, reason, action)
            if action is not None:
                return action
            if answer is not None:  # refused: tell the model why; after an error, send the same again
                messages = [*messages, {"role": "assistant", "content": answer}, refusal_message(reason, view)]
        counters.fallbacks += 1
        action = fallback_action(view, self.backup)
        if self.transcript is not None:
            self.transcript.fallback(view, action)
        return action

    def _ask(self, messages: list[Message], view: PlayerView) -> tuple[Action | None, str | None, str, str]:
        """One request: (the legal action or None, the answer or None, why it was refused, the outcome)."""
        counters = self.counters
        counters.requests += 1
        client = self.client
        before = client.prompt_tokens, client.completion_tokens
        try:
            answer = client.complete(messages)
        except LlmError as error:
            counters.errors += 1
            return None, None, str(error), "error"
        finally:
            counters.prompt_tokens += client.prompt_tokens - before[0]
            counters.completion_tokens += client.completion_tokens - before[1]
        counters.answers += 1
        try:
            parsed = parse_answer(answer, view)
            counters.parsed += 1
            action = judge(parsed, view)
        except UnparsableAnswer as refusal:
            counters.unparsable += 1
            return None, answer, str(refusal), "unparsable"
        except IllegalAnswer as refusal:
            counters.illegal += 1
            return None, answer, str(refusal), "illegal"
        counters.legal += 1
        return action, answer, "", "legal"

    def close(self) -> None:
        """Close the HTTP connections."""
        self.client.close()
