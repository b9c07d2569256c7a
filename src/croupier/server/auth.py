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
from datetime import UTC, datetime
from pathlib import Path

from croupier.server.decisions import TOKENS
from croupier.server.errors import NotAuthenticatedError

__all__ = [
    "LATEST_EXPIRY",
    "MIN_TOKEN_LENGTH",
    "RECHECK_SECONDS",
    "TOKENS",
    "TokenLifetimes",
    "bearer_token",
    "hash_token",
    "lifetime_problem",
    "new_token",
    "token_expiry",
    "token_refusal",
    "unknown_token",
    "write_secret",
]

MIN_TOKEN_LENGTH = 32
"""Shortest operator token the server accepts from outside (D32)."""
RECHECK_SECONDS = 5.0
"""How long a token is trusted from memory before storage is asked
again (a rotation or revocation elsewhere takes effect within it)."""
LATEST_EXPIRY = int(datetime.max.replace(tzinfo=UTC).timestamp())
"""The latest expiry a token may carry, in Unix time: the last second a
``datetime`` can name (9999-12-31 23:59:59 UTC; 12 digits, as
:func:`token_expiry` reads them)."""


@dataclass(frozen=True, slots=True)
class TokenLifetimes:
    """How long the tokens the server makes last (ASSUMED, D32)."""

    player_days: float = 30.0
    """A player's token (renewed with ``POST /me/token``)."""
    operator_hours: float = 24.0
    """An operator token made up by the server or ``croupier token``."""

    def __post_init__(self) -> None:
        """Refuse a lifetime that is not positive or outlasts a date."""
        for name, seconds in (
            ("player_days", self.player_days * 86400),
            ("operator_hours", self.operator_hours * 3600),
        ):
            problem = lifetime_problem(seconds)
            if problem is not None:
                msg = f"{name}: {problem}"
                raise ValueError(msg)

    def expiry(self, *, operator: bool) -> int:
        """The Unix time at which a token made now expires."""
        seconds = (
            self.operator_hours * 3600
            if operator
            else self.player_days * 86400
        )
        return int(time.time() + seconds)


def lifetime_problem(seconds: float) -> str | None:
    """Why a token lifetime of ``seconds`` is refused, or ``None``.

    A lifetime is positive and ends by :data:`LATEST_EXPIRY`: a longer
    one has an expiry no date can name (and no ``int`` when infinite).

    >>> lifetime_problem(3600) is None, lifetime_problem(1e308)
    (True, 'a token must expire by 9999-12-31 (the last date there is)')
    """
    if not seconds > 0:
        return "a token's lifetime must be more than 0"
    if not time.time() + seconds <= LATEST_EXPIRY:
        return "a token must expire by 9999-12-31 (the last date there is)"
    return None


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


def unknown_token(token: str | None, now: float | None = None) -> str:
    """Why a request's token opens nothing: expired (when), or unknown.

    An operator on the second day of a shift was told only "a valid
    bearer token is required" (D32: a made-up operator token lasts a
    day).

    >>> unknown_token("abc.86400", now=90000.0)[:45]
    'this token expired at 1970-01-02 00:00 UTC (D'
    >>> unknown_token(None)
    'a valid bearer token is required'
    """
    expiry = _expired(token, now)
    if expiry is not None:
        when = datetime.fromtimestamp(expiry, UTC)
        return (
            f"this token expired at {when:%Y-%m-%d %H:%M} UTC (D32): a "
            "player signs in again; the operator renews it with croupier "
            "token rotate"
        )
    return "a valid bearer token is required"


def _expired(token: str | None, now: float | None) -> int | None:
    """When ``token`` expired, if it carries an expiry that is past."""
    expiry = None if token is None else token_expiry(token)
    if expiry is not None and expiry <= (time.time() if now is None else now):
        return expiry
    return None


def token_refusal(
    token: str | None, now: float | None = None
) -> NotAuthenticatedError:
    """The refusal (401) of a request whose token opens nothing.

    Said as :func:`unknown_token` says it. An expired token cites the
    rule of its lifetime (D32); a token missing or unknown cites none.

    >>> token_refusal("abc.86400", now=90000.0).ref, token_refusal(None).ref
    (Decision.parse('D32'), None)
    """
    expired = _expired(token, now) is not None
    return NotAuthenticatedError(
        unknown_token(token, now), ref=TOKENS if expired else None
    )


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
