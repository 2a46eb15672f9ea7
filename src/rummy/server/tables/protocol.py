"""WebSocket protocol version 1 (docs/protocol.md): parsing client commands, building server messages.

Every bad input becomes a :class:`ProtocolError` with a stable code and a sentence; nothing here
touches a table.

>>> parse_command('{"v": 1, "id": "c-1", "type": "action", "seq": 4, "action": "p2 draw"}')
Command(id='c-1', type='action', seat=None, seq=4, action='p2 draw', until=None)
>>> parse_command('{"v": 2, "id": "c-2", "type": "ping"}')
Traceback (most recent call last):
...
rummy.server.tables.protocol.ProtocolError: bad-message: unsupported protocol version 2 (this server speaks 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from rummy.server.strict_json import StrictJSONError, loads

VERSION = 1
COMMAND_TYPES = ("join", "start", "action", "play_again", "ready", "skip_claims", "hint", "ping")
SKIP_UNTIL = ("turn", "hand", "off")
MAX_ID_LENGTH = 64
MAX_ACTION_LENGTH = 2000

#: Every error code a client may see, with what it means.
ERROR_CODES = {
    "bad-message": "not JSON, wrong version, unknown type or a missing or malformed field",
    "duplicate": "a command id already used on this connection",
    "stale": "the action was chosen on an older state; look at the newest state and choose again",
    "not-your-turn": "a hint is for a decision of your own: wait until you have a move to make",
    "not-your-seat": "the action names another seat",
    "not-seated": "only a player with a seat at this table may do this",
    "no-session": "no valid session cookie: POST /api/session first",
    "illegal": "the rules do not allow this action now (see rule)",
    "syntax": "the action text does not parse",
    "not-host": "only the host may do this",
    "seat-taken": "that seat is not free",
    "table-full": "no seat is free",
    "already-seated": "you already have a seat at this table",
    "already-started": "the game has started; seats cannot change",
    "seats-empty": "every seat needs a player before the game starts",
    "not-started": "no game is being played at this table",
    "not-finished": "the game is not over yet",
    "not-found": "no such table",
    "rate-limited": "too many messages; slow down",
    "forbidden": "the handshake came from a page of another site",
    "too-many-connections": "this address holds as many connections as the server allows",
    "unavailable": "the server could not save the action; nothing changed, try again",
    "internal": "the server failed on this command; nothing changed",
}


class ProtocolError(Exception):
    """A refused command: ``code`` from :data:`ERROR_CODES`, a sentence, and the command's id."""

    def __init__(self, code: str, message: str, *, command_id: str | int | None = None,
                 rule: str | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.command_id = command_id
        self.rule = rule

    def to_message(self) -> dict[str, Any]:
        return error_message(self.code, self.message, command_id=self.command_id, rule=self.rule)


@dataclass(frozen=True, slots=True)
class Command:
    """A well-formed client command."""

    id: str | int
    type: str
    seat: int | None = None
    seq: int | None = None
    action: str | None = None
    until: str | None = None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(text: str) -> Command:
    """Check one client message against the protocol; raises :class:`ProtocolError` (``bad-message``)."""
    try:
        data = loads(text)
    except StrictJSONError as error:
        raise ProtocolError("bad-message", f"the message is not accepted: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a message must be a JSON object")
    command_id = data.get("id")
    valid_id = (isinstance(command_id, str) and 0 < len(command_id) <= MAX_ID_LENGTH) or _is_int(command_id)

    def bad(message: str) -> ProtocolError:
        return ProtocolError("bad-message", message, command_id=command_id if valid_id else None)

    version = data.get("v")
    if not _is_int(version) or version != VERSION:  # true and 1.0 equal 1 in Python, not in the protocol
        raise bad(f"unsupported protocol version {version!r} (this server speaks {VERSION})")
    if not valid_id:
        raise bad(f"every command needs an \"id\": a string of 1–{MAX_ID_LENGTH} characters or an integer")
    assert isinstance(command_id, str | int)
    kind = data.get("type")
    if kind not in COMMAND_TYPES:
        raise bad(f"unknown type {kind!r} (expected one of {', '.join(COMMAND_TYPES)})")
    if kind == "join":
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
            raise bad("\"seat\" must be a seat number (0, 1, …) or absent")
        return Command(command_id, kind, seat=seat)
    if kind == "action":
        seq, action = data.get("seq"), data.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise bad("an action needs \"seq\": the number of the last state you saw")
        if not isinstance(action, str) or not action.strip():
            raise bad("an action needs \"action\": record notation such as \"p2 draw\"")
        if len(action) > MAX_ACTION_LENGTH:
            raise bad(f"the action is longer than {MAX_ACTION_LENGTH} characters")
        return Command(command_id, kind, seq=seq, action=action)
    if kind == "skip_claims":
        until = data.get("until")
        if until not in SKIP_UNTIL:
            raise bad(f"skip_claims needs \"until\": one of {', '.join(SKIP_UNTIL)}")
        return Command(command_id, kind, until=until)
    return Command(command_id, kind)


def error_message(code: str, message: str, *, command_id: str | int | None = None,
                  rule: str | None = None) -> dict[str, Any]:
    """The ``error`` message (``id`` and ``rule`` only when known)."""
    data: dict[str, Any] = {"v": VERSION, "type": "error"}
    if command_id is not None:
        data["id"] = command_id
    data["code"] = code
    if rule is not None:
        data["rule"] = rule
    data["message"] = message
    return data


def ack_message(command_id: str | int) -> dict[str, Any]:
    return {"v": VERSION, "type": "ack", "id": command_id}


def encode(message: Any) -> str:
    """Compact JSON text of a server message (or of a part of one), UTF-8 characters unescaped.

    orjson writes it several times faster than :func:`json.dumps` and the same text for everything a
    message holds: strings, integers, booleans, None, lists, tuples, dicts (integer keys become
    strings) and floats from 1e-4 to 1e16, such as a timer's seconds (outside that range the two
    spell the exponent differently: ``1e16`` against ``1e+16``).

    >>> encode({"seat": 1, "events": ["Zoë discarded the 7♥"], "deadline": {"seconds": 3.5}})
    '{"seat":1,"events":["Zoë discarded the 7♥"],"deadline":{"seconds":3.5}}'
    """
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
