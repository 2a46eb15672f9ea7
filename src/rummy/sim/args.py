"""``rummy sim``'s text arguments: the ``--players`` list with its bot options, and house rules given as
``--options JSON`` and ``--option key=value``; bad input raises :class:`SimError` (exit code 2)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rummy.bots import BOTS, LEVELS, make_bot
from rummy.engine import RummyError


class SimError(RummyError, ValueError):
    """Bad input to the simulator (exit code 2 of ``rummy sim``)."""


def parse_players(text: str) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """Player names (a repeated player gets ``#2``, ``#3`` …), bot kinds and bot options from ``"a,b,c"``.

    A player is a bot name or level, optionally followed by bot options, each as ``:key=value``
    (``ismcts:simulations=100:confidence=2``); the name is the text as given.
    """
    given = [part.strip() for part in split_outside_json(text)]
    if any(not part for part in given):
        raise SimError(f"--players {text!r}: empty player name (use bot names separated by commas)")
    names: list[str] = []
    kinds: list[str] = []
    options: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for part in given:
        seen[part] = seen.get(part, 0) + 1
        names.append(part if seen[part] == 1 else f"{part}#{seen[part]}")
        kind = split_outside_json(part, ":")[0].strip()
        kinds.append(LEVELS.get(kind, kind))
        options.append(parse_bot_options(part))
    return names, kinds, options


def split_outside_json(text: str, separator: str = ",") -> list[str]:
    """``text`` split at every ``separator`` that is not inside a JSON value's brackets or quotes.

    >>> split_outside_json('ismcts:confidence_by_verb={"meld": 1, "take": 2},heuristic')
    ['ismcts:confidence_by_verb={"meld": 1, "take": 2}', 'heuristic']
    """
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "[{":
            depth += 1
        elif not quoted and char in "]}":
            depth = max(0, depth - 1)
        elif char == separator and depth == 0 and not quoted:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def parse_bot_options(player: str) -> dict[str, Any]:
    """The options of a player written ``bot:key=value:key=value`` (values read as JSON, else as text).

    >>> parse_bot_options("ismcts:simulations=100:rollout=greedy")
    {'simulations': 100, 'rollout': 'greedy'}

    A value may hold colons (a URL): a part that does not begin with ``name=`` continues the value before it.

    >>> parse_bot_options("llm:model=m:base_url=http://127.0.0.1:8000/v1")
    {'model': 'm', 'base_url': 'http://127.0.0.1:8000/v1'}
    """
    pairs: list[str] = []
    for part in split_outside_json(player, ":")[1:]:
        if _OPTION_START.match(part) or not pairs:
            pairs.append(part)
        else:
            pairs[-1] += ":" + part
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not _OPTION_START.match(pair):
            raise SimError(f"--players: {player!r}: write bot options as bot:key=value:key=value")
        options[key.strip()] = _json_or_text(text.strip())
    return options


_OPTION_START = re.compile(r"^\s*[A-Za-z_]\w*\s*=")


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def check_bots(names: Sequence[str], kinds: Sequence[str], options: Sequence[Mapping[str, Any]]) -> None:
    """Fail early, with one line, on an unknown bot, a bad bot option or a bot whose module does not load."""
    for name, kind, bot_options in zip(names, kinds, options, strict=True):
        if kind not in BOTS:
            known = ", ".join(sorted(BOTS) + sorted(LEVELS))
            raise SimError(f"unknown bot {kind!r} (known: {known})")
        try:
            make_bot(kind, seed=0, **bot_options)
        except ImportError as error:
            raise SimError(f"bot {kind!r} is not available: {error}") from None
        except (TypeError, ValueError) as error:
            raise SimError(f"--players: {name}: {error}") from None


def parse_options(options_json: str | None, pairs: Sequence[str]) -> dict[str, Any]:
    """House rules from ``--options JSON`` then ``--option key=value`` (values parse as JSON, else text)."""
    options: dict[str, Any] = {}
    if options_json is not None:
        try:
            loaded = json.loads(options_json)
        except json.JSONDecodeError as error:
            raise SimError(f"--options is not valid JSON: {error}") from None
        if not isinstance(loaded, dict):
            raise SimError("--options must be a JSON object such as '{\"may_i_limit\": 5}'")
        options.update(loaded)
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise SimError(f"--option {pair!r}: use key=value")
        options[key.strip()] = _json_or_text(text)
    return options
