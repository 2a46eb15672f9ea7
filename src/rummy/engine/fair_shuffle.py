"""Provably fair shuffles: a round's secret seed and salt, and the commitment published before play.

A round dealt from a :class:`ShuffleSecret` is shuffled by ``random.Random(secret.seed_number)`` (and its
reshuffles are seeded from the same number), so anyone who learns the seed can deal the round again.
Before anyone acts, every seat is shown the :attr:`ShuffleSecret.commitment`, the SHA-256 of
``rummy-shuffle/1:SEED:SALT``; seed and salt are revealed only once the round is over, and the check is
``sha256(message) == commitment`` plus "the engine's deal from the seed is the deal that was played"
(docs/fair-shuffle.md).  Standard library only: the engine imports this module.

>>> secret = ShuffleSecret("00" * 16, "ff" * 16)
>>> secret.message
'rummy-shuffle/1:00000000000000000000000000000000:ffffffffffffffffffffffffffffffff'
>>> secret.commitment == commitment_of(secret.seed, secret.salt)
True
>>> len(new_shuffle().seed)
32
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

SCHEME = "rummy-shuffle/1"
#: Lower-case hexadecimal of 32 to 64 digits (128 to 256 bits): the spelling of a seed and a salt.
HEX_SECRET = re.compile(r"[0-9a-f]{32,64}")
#: Lower-case hexadecimal of exactly 64 digits: a SHA-256 digest.
HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
SECRET_BYTES = 16


class ShuffleFormatError(ValueError):
    """A seed, salt or commitment that is not spelled as docs/fair-shuffle.md says."""


def commitment_message(seed: str, salt: str) -> str:
    """The text whose SHA-256 is the commitment (what ``printf`` pipes into ``sha256sum``)."""
    return f"{SCHEME}:{seed}:{salt}"


def commitment_of(seed: str, salt: str) -> str:
    """The commitment to ``seed`` and ``salt``: lower-case hex SHA-256 of :func:`commitment_message`."""
    return hashlib.sha256(commitment_message(seed, salt).encode("ascii")).hexdigest()


def check_secret(value: object, what: str) -> str:
    """``value`` if it is a well-spelled seed or salt, else :class:`ShuffleFormatError`."""
    if not isinstance(value, str) or HEX_SECRET.fullmatch(value) is None:
        raise ShuffleFormatError(f"{what} must be 32 to 64 lower-case hex digits, not {value!r}")
    return value


def check_digest(value: object, what: str = "commitment") -> str:
    """``value`` if it is a well-spelled SHA-256 digest, else :class:`ShuffleFormatError`."""
    if not isinstance(value, str) or HEX_DIGEST.fullmatch(value) is None:
        raise ShuffleFormatError(f"{what} must be 64 lower-case hex digits, not {value!r}")
    return value


@dataclass(frozen=True)
class ShuffleSecret:
    """A round's seed and salt, both lower-case hex; the seed alone decides the round's cards."""

    seed: str
    salt: str

    def __post_init__(self) -> None:
        check_secret(self.seed, "seed")
        check_secret(self.salt, "salt")

    @property
    def seed_number(self) -> int:
        """The seed as the integer the engine seeds ``random.Random`` with."""
        return int(self.seed, 16)

    @property
    def message(self) -> str:
        return commitment_message(self.seed, self.salt)

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed, self.salt)


def new_shuffle() -> ShuffleSecret:
    """A fresh seed and salt from the operating system's cryptographic source (:mod:`secrets`)."""
    return ShuffleSecret(secrets.token_hex(SECRET_BYTES), secrets.token_hex(SECRET_BYTES))
