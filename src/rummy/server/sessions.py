"""Player sessions: a signed cookie holding a random player id and a display name (no accounts).

>>> signer = SessionSigner("not-a-real-secret")
>>> token = signer.sign(Session("p-123", "Ann"))
>>> signer.read(token)
Session(player_id='p-123', name='Ann')
>>> signer.read(token[:-2] + "xx") is None
True
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE_NAME = "rummy_session"
COOKIE_MAX_AGE = 400 * 24 * 3600  # browsers cap cookie lifetimes at about 400 days
NAME_MAX = 24


@dataclass(frozen=True, slots=True)
class Session:
    player_id: str
    name: str


class SessionSigner:
    """Signs and checks session tokens with the server's secret (itsdangerous)."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt="rummy-session")

    def sign(self, session: Session) -> str:
        return self._serializer.dumps({"pid": session.player_id, "name": session.name})

    def read(self, token: str | None) -> Session | None:
        """The session in ``token``, or None when it is missing, forged or malformed."""
        if not token:
            return None
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        player_id, name = data.get("pid"), data.get("name")
        if not isinstance(player_id, str) or not isinstance(name, str):
            return None
        return Session(player_id, name)


def new_player_id() -> str:
    return "p-" + secrets.token_urlsafe(12)


def clean_name(value: object) -> str:
    """A display name: trimmed, 1–24 printable characters; raises ValueError with the reason.

    >>> clean_name("  Grandma   Jo ")
    'Grandma Jo'
    """
    if not isinstance(value, str):
        raise ValueError("the name must be a string")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise ValueError("the name is empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"the name is longer than {NAME_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ValueError("the name holds control or unassigned characters")
    return name
