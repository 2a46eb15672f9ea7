"""The chat messages of one decision: a system message with the variant's rules, a user message with the
observation, the instruction for the phase, the numbered legal moves and the answer format; and the
follow-up message that tells the model why an answer was refused.

>>> from rummy.engine import new_game
>>> game = new_game("basic", ["Ann", "Bob"], seed=1)
>>> messages = prompt_messages(game.view(game.active))
>>> [m["role"] for m in messages]
['system', 'user']
>>> print(messages[1]["content"].split("Legal moves:")[1].splitlines()[1])
1. p1 draw
"""

from __future__ import annotations

import json
from typing import Any, cast

from rummy.engine import Action, PlayerView, RummyError, UsageError, Verb, arrange_json
from rummy.llm.instructions import phase_instructions
from rummy.llm.observation import observation_json, observation_text
from rummy.text.how_to_play import how_to_play

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}
OBSERVATION_FORMATS = ("text", "json")

NOTATION = (
    "Cards are written rank then suit: ranks A 2 3 4 5 6 7 8 9 T J Q K, suits C D H S (7H is the seven of "
    "hearts, TS the ten of spades), JK a joker. Seats are p0, p1, ...; table melds are numbered."
)


def rules_summary(view: PlayerView) -> str:
    """The variant's rules, with its house rules, in the words of ``rummy rules`` (:mod:`rummy.text.how_to_play`)."""
    if view.rules is None:
        raise UsageError("a view without its rules cannot be described to a model")
    sections = how_to_play(view.rules, len(view.players))
    return "\n\n".join(f"## {section['title']}\n" + "\n".join(section["lines"]) for section in sections)


def system_message(view: PlayerView) -> str:
    """The system message: who the model is, the rules of the table, the notation and the answer format."""
    return (
        f"You are a player in a game of {view.variant} rummy. Play to win.\n\n"
        f"# Rules of this table\n{rules_summary(view)}\n\n# Notation\n{NOTATION}\n\n"
        "# How to answer\nEach turn you are shown the game from your seat and a numbered list of legal moves. "
        "Answer with exactly one line: a move as it is written in the list, or its number. "
        "In a claim window you may answer BUY or PASS. Write nothing else."
    )


def answer_format(view: PlayerView) -> str:
    """The last line of the user message: what an answer looks like for this decision."""
    verbs = {action.verb for action in view.legal_actions}
    if verbs and verbs <= {Verb.BUY, Verb.PASS}:
        return "Answer with one word: BUY or PASS."
    example = str(view.legal_actions[-1]) if view.legal_actions else f"p{view.seat} draw"
    return f"Answer with one line: the move as written above (for example `{example}`) or its number."


def numbered_moves(view: PlayerView) -> str:
    """The legal moves, numbered from 1, in the record's action syntax; under a move that lays wilds in melds,
    an indented line says where each stands (``   wilds: run:3D-2H-5D-JK: 2H as 4D, JK as 6D``), as the engine
    arranges it."""
    lines = []
    for number, action in enumerate(view.legal_actions, 1):
        lines.append(f"{number}. {action}")
        places = wild_places(action, view)
        if places:
            lines.append(f"   wilds: {places}")
    return "\n".join(lines)


def wild_places(action: Action, view: PlayerView) -> str:
    """Where each wild of ``action``'s new melds stands, as the engine arranges them ("" when none is wild):
    ``JK as 6D`` in a run, ``JK as any A`` in a group."""
    parts: list[str] = []
    if view.rules is None:  # a view without its rules cannot arrange melds
        return ""
    for spec in action.melds:
        try:
            arranged = arrange_json(str(spec), view.rules)
        except (RummyError, ValueError):  # not a meld on its own (cannot happen for a legal move); say nothing
            continue
        cards, stands, wild = (cast(list[Any], arranged[key]) for key in ("cards", "as", "wild"))
        places = [f"{card} as {_stands_for(str(stand))}"
                  for card, stand, is_wild in zip(cards, stands, wild, strict=True) if is_wild]
        if places:
            parts.append(f"{arranged['spec']}: " + ", ".join(places))
    return "; ".join(parts)


def _stands_for(name: str) -> str:
    return f"any {name[:-1]}" if name.endswith("*") else name


def user_message(view: PlayerView, observation: str = "text") -> str:
    """The user message: the observation (text or JSON), the instruction, the moves, the answer format."""
    if observation == "json":
        seen = json.dumps(observation_json(view), separators=(",", ":"))
    elif observation == "text":
        seen = observation_text(view)
    else:
        raise UsageError(f"observation must be one of {', '.join(OBSERVATION_FORMATS)}, not {observation!r}")
    return (
        f"{seen}\n\n{phase_instructions(view)}\n\nLegal moves:\n{numbered_moves(view)}\n\n{answer_format(view)}"
    )


def prompt_messages(view: PlayerView, observation: str = "text") -> list[Message]:
    """The messages of a decision's first request."""
    return [
        {"role": "system", "content": system_message(view)},
        {"role": "user", "content": user_message(view, observation)},
    ]


def refusal_message(reason: str, view: PlayerView) -> Message:
    """The follow-up after a refused answer: why, and the answer format again."""
    return {"role": "user", "content": f"Your answer was refused: {reason}. {answer_format(view)}"}
