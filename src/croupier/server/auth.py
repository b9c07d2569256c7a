"""Bearer tokens: random secrets, stored only as their SHA-256 digest.

A token the server makes is 32 random bytes from the CSPRNG
(``secrets.token_urlsafe(32)``, 43 characters) followed by ``.`` and
the Unix time at which it expires (D32). The expiry is part of the
secret whose digest is stored, so it cannot be changed without making
a token the server does not know. A token given to the server by its
operator (``$CROUPIER_OPERATOR_TOKEN`` or a file) must have at least
:data:`MIN_TOKEN_LENGTH` characters and lasts while that server runs
with it, until it is rotated.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MIN_TOKEN_LENGTH",
    "RECHECK_SECONDS",
    "TokenLifetimes",
    "bearer_token",
    "hash_token",
    "new_token",
    "token_expiry",
    "write_secret",
]

MIN_TOKEN_LENGTH = 32
"""Shortest operator token the server accepts from outside (D32)."""
RECHECK_SECONDS = 5.0
"""How long a token is trusted from memory before storage is asked
again (a rotation or revocation elsewhere takes effect within it)."""


@dataclass(frozen=True, slots=True)
class TokenLifetimes:
    """How long the tokens the server makes last (ASSUMED, D32)."""

    player_days: float = 30.0
    """A player's token (renewed with ``POST /me/token``)."""
    operator_hours: float = 24.0
    """An operator token made up by the server or ``croupier token``."""

    def expiry(self, *, operator: bool) -> int:
        """The Unix time at which a token made now expires."""
        seconds = (
            self.operator_hours * 3600
            if operator
            else self.player_days * 86400
        )
        return int(time.time() + seconds)


def new_token(expires_at: int | None = None) -> str:
    """A fresh bearer token (256 bits from the CSPRNG), with its expiry.

    >>> token = new_token(2_000_000_000)
    >>> len(token), token_expiry(token)
    (54, 2000000000)
    """
    secret = secrets.token_urlsafe(32)
    return secret if expires_at is None else f"{secret}.{expires_at}"


def token_expiry(token: str) -> int | None:
    """The expiry a token carries, or ``None`` (an operator-given one).

    >>> token_expiry("abc.1700000000"), token_expiry("abc")
    (1700000000, None)
    """
    _, dot, tail = token.rpartition(".")
    if dot and tail.isascii() and tail.isdigit() and len(tail) <= 12:
        return int(tail)
    return None


def write_secret(path: Path, secret: str) -> None:
    """Write ``secret`` to ``path``, readable by its owner alone (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(secret + "\n")


def hash_token(token: str) -> str:
    """The digest stored for ``token`` (the token itself is never kept).

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if any.

    >>> bearer_token("Bearer xyz"), bearer_token(None), bearer_token("x")
    ('xyz', None, None)
    """
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
