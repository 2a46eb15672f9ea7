"""Carrying a player's identity (the signed cookie's player id and name) to another browser.

A player asks for a one-time code (``POST /api/identity/code``); the code, or a link holding it, is
used once on the other browser (``POST /api/identity/redeem``), which then gets the same session
cookie.  A code is 16 characters of Crockford base32 (80 random bits from :mod:`secrets`, shown as
``ABCD-EFGH-JKMN-PQRS``), lives :data:`CODE_LIFETIME`, works once, and a new code cancels the
player's earlier ones.  The database keeps only the SHA-256 of a code.  A player may ask for
:data:`CODES_PER_HOUR` codes an hour, and all the sessions of one address :data:`CODES_PER_ADDRESS_HOUR`;
an address that sends :data:`FAILED_REDEEMS` wrong codes in
:data:`FAILED_WINDOW_SECONDS` is refused until the window passes (``429``), whatever it sends.

>>> normalize_code("abcd-efgh-jkmn-pqrs")
'ABCDEFGHJKMNPQRS'
>>> normalize_code("0O1I-L000-0000-0000")  # letters a reader may take for digits count as those digits
'0011100000000000'
>>> normalize_code("too short") is None
True
>>> len(new_code()), new_code().count("-")
(19, 3)
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from rummy.server.limits import LimitError
from rummy.server.sessions import Session
from rummy.server.storage.database import Database, now
from rummy.server.storage.history_schema import IDENTITY_CODES
from rummy.server.storage.side_writes import SideWriter

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
CODE_CHARACTERS = 16
CODE_LIFETIME = timedelta(minutes=10)
CODES_PER_HOUR = 5
CODES_PER_ADDRESS_HOUR = 30  # one household behind one address: several players, each a few codes
FAILED_REDEEMS = 10
FAILED_WINDOW_SECONDS = 600.0
KEPT_FOR = timedelta(days=1)  # used and expired codes are deleted after a day (the hourly count needs an hour)
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    """A fresh code, grouped by four for reading aloud."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARACTERS))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_CHARACTERS, 4))


def normalize_code(text: object) -> str | None:
    """The code in ``text`` (any case, dashes and spaces ignored), or None when it cannot be one."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    code = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    if len(code) != CODE_CHARACTERS or any(ch not in ALPHABET for ch in code):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class IssuedCode:
    code: str
    expires_at: datetime


class PerAddressWindow:
    """Events per address in a sliding window, kept in this process: wrong codes, codes issued.

    :meth:`take` counts an event *before* the request awaits anything, so requests sent at once cannot
    all pass the check before any of them is counted; :meth:`give_back` uncounts one that turned out
    not to be such an event (a right code).
    """

    def __init__(self, limit: int, window: float, code: str, refusal: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.code, self.refusal, self.clock = limit, window, code, refusal, clock
        self._events: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        events = self._events.get(address, deque())
        cutoff = self.clock() - self.window
        while events and events[0] <= cutoff:
            events.popleft()
        if not events:
            self._events.pop(address, None)
        return events

    def take(self, address: str) -> float:
        """Count one event of ``address`` now (its time is returned), or raise :class:`LimitError`
        when the address has had its ``limit`` in the window."""
        events = self._recent(address)
        if len(events) >= self.limit:
            wait = max(1, round(events[0] + self.window - self.clock()))
            raise LimitError(self.code, f"{self.refusal}: try again in {wait} seconds")
        stamp = self.clock()
        events.append(stamp)
        self._events[address] = events
        return stamp

    def give_back(self, address: str, stamp: float) -> None:
        events = self._events.get(address)
        if events is not None and stamp in events:
            events.remove(stamp)


def failed_redeems(clock: Callable[[], float] = time.monotonic) -> PerAddressWindow:
    """Wrong codes per address: :data:`FAILED_REDEEMS` in :data:`FAILED_WINDOW_SECONDS`."""
    return PerAddressWindow(FAILED_REDEEMS, FAILED_WINDOW_SECONDS, "too-many-attempts",
                            "too many wrong codes from your address", clock)


def codes_issued(clock: Callable[[], float] = time.monotonic) -> PerAddressWindow:
    """Codes issued per address: :data:`CODES_PER_ADDRESS_HOUR` an hour, whatever sessions ask."""
    return PerAddressWindow(CODES_PER_ADDRESS_HOUR, 3600.0, "too-many-codes",
                            "too many codes were asked for from your address", clock)


class IdentityCodes:
    """The one-time codes of one database."""

    def __init__(self, db: Database, *, lifetime: timedelta = CODE_LIFETIME, per_hour: int = CODES_PER_HOUR,
                 clock: Callable[[], datetime] = now) -> None:
        self.db, self.lifetime, self.per_hour, self.clock = db, lifetime, per_hour, clock
        self.writer = SideWriter(db)

    async def issue(self, session: Session) -> IssuedCode:
        """A new code for ``session``'s identity; the player's earlier unused codes stop working."""
        moment = self.clock()
        code = new_code()
        expires_at = moment + self.lifetime

        def write(connection: Connection) -> None:
            recent = connection.scalar(select(func.count()).select_from(IDENTITY_CODES).where(
                IDENTITY_CODES.c.player_id == session.player_id,
                IDENTITY_CODES.c.created_at > moment - timedelta(hours=1)))
            if (recent or 0) >= self.per_hour:
                raise LimitError("too-many-codes",
                                 f"you asked for {self.per_hour} codes in the last hour: use one of them or wait")
            connection.execute(delete(IDENTITY_CODES).where(IDENTITY_CODES.c.created_at < moment - KEPT_FOR))
            connection.execute(update(IDENTITY_CODES).where(
                IDENTITY_CODES.c.player_id == session.player_id, IDENTITY_CODES.c.status == "open",
            ).values(status="revoked"))
            connection.execute(insert(IDENTITY_CODES).values(
                code_hash=code_hash(normalize_code(code) or ""), player_id=session.player_id, name=session.name,
                status="open", created_at=moment, expires_at=expires_at))

        await self.writer.run(write)
        return IssuedCode(code, expires_at)

    async def redeem(self, text: object) -> Session | None:
        """The identity of the code in ``text``, used up now; None for a wrong, used or expired code."""
        code = normalize_code(text)
        if code is None:
            return None
        digest = code_hash(code)
        moment = self.clock()

        def write(connection: Connection) -> Session | None:
            # One conditional update: of two browsers racing with the same code exactly one wins.
            result = connection.execute(update(IDENTITY_CODES).where(and_(
                IDENTITY_CODES.c.code_hash == digest, IDENTITY_CODES.c.status == "open",
                IDENTITY_CODES.c.expires_at > moment,
            )).values(status="used", used_at=moment))
            if result.rowcount != 1:
                return None
            row = connection.execute(select(IDENTITY_CODES.c.player_id, IDENTITY_CODES.c.name).where(
                IDENTITY_CODES.c.code_hash == digest)).one()
            return Session(row.player_id, row.name)

        return await self.writer.run(write)
