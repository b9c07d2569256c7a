"""Bearer tokens: random secrets, stored only as their SHA-256 digest."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["bearer_token", "hash_token", "new_token"]


def new_token() -> str:
    """A fresh bearer token (256 bits from the CSPRNG)."""
    return secrets.token_urlsafe(32)


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
