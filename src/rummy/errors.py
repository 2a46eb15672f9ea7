"""The engine's exception types: one hierarchy, every class a :class:`RummyError`.

::

    RummyError                 anything the engine refuses; a program catches this at its edge
    ├── RecordError            a malformed game record (exit code 2 of ``rummy replay``)
    │   └── RecordSyntaxError  text in record notation that does not parse
    ├── VariantError           an unknown variant, house-rule key or value
    ├── DealError              a supplied deal or starting position that does not fit the variant
    ├── IllegalActionError     an action that parses but the rules do not allow (exit code 1)
    ├── MeldError              cards that do not form a meld, or do not fit one
    ├── BotError               an unknown bot, bot option, or a bad value for one
    └── UsageError             a call that does not fit the game it asks about

Every class but :class:`IllegalActionError` and :class:`MeldError` is also a :class:`ValueError`
(a bad value was given).  Those two carry a stable ``rule`` key and leave the state unchanged.

Why :class:`RecordSyntaxError` is a kind of :class:`RecordError`: the record format
(docs/game-record.md, "Syntax errors and rule errors") makes an action that does not parse a
malformed record, like a bad key or an impossible deal — both end a replay with exit code 2 — so a
handler for malformed records catches both.  The narrower type stays for callers that parse one
line of notation outside a record (an action sent to a table, a card typed at a prompt), where
"malformed record" would be the wrong words.

Command-line programs add their own subclass for bad arguments (``rummy.sim.SimError``).
"""

from __future__ import annotations


class RummyError(Exception):
    """Base class of every error the engine raises on bad input."""


class RecordError(RummyError, ValueError):
    """A malformed record (exit code 2 of ``rummy replay``): bad JSON, an unknown key, variant or
    option, impossible cards, a deal that does not fit, a round past the last, bad action syntax."""


class RecordSyntaxError(RecordError):
    """Text in record notation that does not parse: a bad card, meld, seat or action."""


class VariantError(RummyError, ValueError):
    """An unknown variant, an unknown house-rule key, or a bad value for one."""


class DealError(RummyError, ValueError):
    """A supplied deal that does not fit the variant (sizes, pack, dealer rotation), or a starting
    round, totals or phase in which nothing can be dealt."""


class BotError(RummyError, ValueError):
    """An unknown bot or level, an option a bot does not take, or a value out of its range."""


class UsageError(RummyError, ValueError):
    """A call that does not fit what it asks about: a seat the game does not have, a hand vector of
    the wrong shape, asking who is to act when nobody is."""


class IllegalActionError(RummyError):
    """An action the rules do not allow in this state.

    ``rule`` is a stable key (``"wrong-seat"``, ``"layoff-before-next-turn"`` …), ``action`` the
    action in record notation and ``reason`` a sentence about the situation.
    """

    def __init__(self, rule: str, action: str, reason: str) -> None:
        self.rule = rule
        self.action = action
        self.reason = reason
        super().__init__(f"illegal {action!r} (rule: {rule}): {reason}")


class MeldError(RummyError):
    """A meld that breaks a rule; ``rule`` is a stable key, the message a sentence."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)
