"""Reading a model's answer as an action of its seat, and judging it.

Accepted shapes (case does not matter; code fences, backticks, quotes, bullets and an ``Answer:`` label are
ignored; suit symbols ♣♦♥♠ read as C D H S):

* a move's number in the list: ``3``, ``#3``, ``3.``, ``move 3``, ``option 3``;
* in a claim window, ``BUY`` or ``PASS``, or the variant's call (``May I``, ``I'll buy it``);
* a move in record syntax, with or without its seat: ``p1 discard 7H``, ``discard 7h``; inside prose the
  last line holding a move counts, and within a line the first move, with words after it ignored.

An answer that reads as an action but is not legal now raises :class:`IllegalAnswer`; one that does not read
as an action raises :class:`UnparsableAnswer`.  A listed move is legal; a composite play (lay-down, new melds,
rearrangement, batch) that is not listed is judged by the engine on the seat's redacted copy of the game
(:func:`rummy.search.determinize.redact`: its own hand and the public table, nothing hidden).

>>> from rummy.engine import new_game
>>> game = new_game("basic", ["Ann", "Bob"], seed=1)
>>> view = game.view(game.active)
>>> str(read_answer("```\\n2\\n```", view)), str(read_answer("I will draw.", view))
('p1 take', 'p1 draw')
>>> read_answer("p1 discard 7H", view)
Traceback (most recent call last):
...
rummy.llm.parser.IllegalAnswer: p1 discard 7H is not a legal move now
"""

from __future__ import annotations

import re

from rummy.engine import (
    PLAY_STEP_VERBS,
    Action,
    IllegalActionError,
    PlayerView,
    RecordSyntaxError,
    UsageError,
    Verb,
    claim_words,
    parse_action,
    rules,
)


class AnswerRefused(Exception):
    """A model's answer that gives no legal action; ``kind`` is ``unparsable`` or ``illegal``."""

    kind = "refused"


class UnparsableAnswer(AnswerRefused):
    kind = "unparsable"


class IllegalAnswer(AnswerRefused):
    kind = "illegal"


_SUITS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"})
_NUMBER = re.compile(r"^(?:(?:move|option|number|no\.?)\s*)?#?\s*(\d+)\s*[.):]?$", re.IGNORECASE)
_LABEL = re.compile(r"^(?:final\s+)?(?:answer|move|action|choice)\s*[:=-]\s*", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•>]+|\d+[.)])\s+")
_VERBS = "|".join(verb.value for verb in Verb if verb is not Verb.BATCH)
_MOVE_START = re.compile(rf"(?:\bp\d+\s+)?\b(?:{_VERBS})\b", re.IGNORECASE)
_WRAPPING = " \t`'\"*_“”‘’"


def _clean_lines(text: str) -> list[str]:
    """The answer's lines without fences, labels, bullets, wrapping quotes or emphasis."""
    lines = []
    for raw in text.translate(_SUITS).splitlines():
        line = raw.strip()
        if line.startswith("```"):
            continue
        line = _LABEL.sub("", line.strip(_WRAPPING)).strip(_WRAPPING)
        if line:
            lines.append(line)
    return lines


def _claim_word(text: str, view: PlayerView) -> Verb | None:
    """BUY or PASS from a bare word or the variant's call (``May I?``)."""
    word = re.sub(r"[^a-z ]", "", text.lower().replace("-", " ")).strip()
    word = " ".join(word.split())
    if word == "pass":
        return Verb.PASS
    calls = {"buy"}
    if view.rules is not None:
        words = claim_words(view.rules)
        calls |= {re.sub(r"[^a-z ]", "", w.lower().replace("-", " ")).strip() for w in (words.name, words.call)}
    return Verb.BUY if word in calls else None


def _move_in_line(line: str, view: PlayerView) -> Action | None:
    """The first move written in ``line`` (trailing words dropped until the rest parses), if any."""
    players = len(view.players)
    for match in _MOVE_START.finditer(line):
        tokens = line[match.start():].split()
        for end in range(len(tokens), 0, -1):
            text = " ".join(tokens[:end]).rstrip(".,;!")
            if not re.match(r"^p\d+\s", text, re.IGNORECASE):
                text = f"p{view.seat} {text}"
            try:
                return parse_action(text, players)
            except RecordSyntaxError:
                continue
    return None


def parse_answer(text: str, view: PlayerView) -> Action:
    """The action ``text`` names (not yet judged), or :class:`UnparsableAnswer` / :class:`IllegalAnswer`
    (a move number out of range)."""
    if view.seat is None:
        raise UsageError("a spectator has no moves")
    lines = _clean_lines(text)
    if not lines:
        raise UnparsableAnswer("the answer is empty")
    whole = " ".join(lines)
    number = _NUMBER.match(whole)
    if number:
        index = int(number.group(1))
        if not 1 <= index <= len(view.legal_actions):
            raise IllegalAnswer(f"there is no move {index}: the moves are numbered 1 to {len(view.legal_actions)}")
        return view.legal_actions[index - 1]
    verb = _claim_word(whole, view)
    if verb is not None:
        return Action(view.seat, verb)
    for line in reversed(lines):
        action = _move_in_line(line, view)
        if action is not None:
            return action
    shown = whole if len(whole) <= 80 else whole[:77] + "..."
    raise UnparsableAnswer(f"{shown!r} is neither a listed move, nor a move number, nor BUY or PASS")


def judge(action: Action, view: PlayerView) -> Action:
    """``action`` if it is legal for the seat now, else :class:`IllegalAnswer` saying why."""
    listed = {str(candidate): candidate for candidate in view.legal_actions}
    if str(action) in listed:
        return listed[str(action)]
    if action.seat != view.seat:
        raise IllegalAnswer(f"{action} is not yours to play: you are p{view.seat}")
    composite = action.verb is Verb.BATCH or action.verb in PLAY_STEP_VERBS
    if composite and view.public_game is not None:
        try:
            rules.check(view.public_game, action)
        except IllegalActionError as error:
            raise IllegalAnswer(f"{action} is not legal: {error}") from None
        return action
    raise IllegalAnswer(f"{action} is not a legal move now")


def read_answer(text: str, view: PlayerView) -> Action:
    """:func:`parse_answer` then :func:`judge`: the legal action ``text`` names."""
    return judge(parse_answer(text, view), view)
