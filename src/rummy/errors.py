"""The engine's exception types.

* :class:`RecordSyntaxError` — text that does not parse (a card, a meld, an action, a record).
* :class:`VariantError` — an unknown variant, house-rule key or value.
* :class:`IllegalActionError` — an action that parses but the rules do not allow; it carries a
  stable ``rule`` key.  The state is unchanged when it is raised.
"""

from __future__ import annotations


class RummyError(Exception):
    """Base class of every error the engine raises on bad input."""


class RecordSyntaxError(RummyError, ValueError):
    """Text that does not parse: a bad card, meld, action or record."""


class VariantError(RummyError, ValueError):
    """An unknown variant, an unknown house-rule key, or a bad value for one."""


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


class DealError(RummyError, ValueError):
    """A supplied deal that does not fit the variant (sizes, pack, dealer rotation)."""
