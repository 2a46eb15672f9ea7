"""Strict JSON for what clients send (HTTP bodies and WebSocket frames): I-JSON (RFC 7493) or a clear
refusal.

Python's :func:`json.loads` takes more than JSON that every peer reads alike, and some of it turns
into a server failure later: a key given twice keeps the last value (a checker and a handler reading
different copies is how the duplicate-key trick smuggles a field), ``NaN`` and ``Infinity`` are not
JSON and cannot be written back, an integer of thousands of digits raises a bare ``ValueError`` (the
interpreter's int-string limit) and one past 2**53 means another number in JavaScript, and a lone
UTF-16 surrogate (``"\\ud800"``) is a string that cannot be encoded as UTF-8 when it is echoed back.

>>> loads('{"name": "Ann", "seats": [1, 2.5]}')
{'name': 'Ann', 'seats': [1, 2.5]}
>>> loads('{"name": "Ann", "name": "Bob"}')
Traceback (most recent call last):
...
rummy.server.strict_json.StrictJSONError: the key 'name' appears twice in one object
>>> loads('{"id": ' + "9" * 5000 + '}')
Traceback (most recent call last):
...
rummy.server.strict_json.StrictJSONError: a number is out of range (integers must be within ±2**53)
"""

from __future__ import annotations

import json
import math
from typing import Any

#: The largest integer every JSON reader holds exactly (a double's 53-bit mantissa; RFC 7493 §2.2).
MAX_SAFE_INTEGER = 2**53
MAX_NUMBER_TEXT = 400  # digits: longer number texts are refused before Python converts them


class StrictJSONError(ValueError):
    """Text that is not I-JSON; the message says why in one sentence."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise StrictJSONError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _integer(text: str) -> int:
    if len(text) > MAX_NUMBER_TEXT:
        raise StrictJSONError("a number is out of range (integers must be within ±2**53)")
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise StrictJSONError("a number is out of range (integers must be within ±2**53)")
    return value


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_TEXT:
        raise StrictJSONError("a number is out of range (its text is too long)")
    value = float(text)
    if not math.isfinite(value):
        raise StrictJSONError("a number is out of range (larger than a double)")
    return value


def _constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not JSON")


def _check_strings(value: Any) -> None:
    """Refuse a lone surrogate in any string or key (walks without recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise StrictJSONError("a string holds a lone UTF-16 surrogate (not valid Unicode)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def loads(text: str | bytes) -> Any:
    """The value of ``text``, or :class:`StrictJSONError` naming what is wrong with it."""
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_integer, parse_float=_float,
                           parse_constant=_constant)
    except StrictJSONError:
        raise
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise StrictJSONError("the text is not valid JSON") from None
    except ValueError:  # anything else the decoder refuses
        raise StrictJSONError("the text is not valid JSON") from None
    _check_strings(value)
    return value
