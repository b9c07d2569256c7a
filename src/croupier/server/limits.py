"""What ``croupier serve`` sets at the edge: sizes, body and rate limits.

Kept apart from :mod:`croupier.server.edge` (the middleware, which
loads FastAPI and Starlette) so that the command line can offer these
settings, and their defaults, without loading the server stack: every
``croupier`` command starts faster for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "EDGE_ENV",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_ID",
    "MAX_NAME",
    "BodyLimits",
    "RateLimits",
    "edge",
]

MAX_ID = 2**31 - 1
"""Largest id or seat number: the 32-bit ``INTEGER`` columns hold it."""
MAX_AMOUNT = 10**12
"""Largest single amount (wager, deposit, limit), minor units (ASSUMED,
D31: $10,000,000,000.00, far above any table and far below 2^63)."""
MAX_BALANCE = 10**15
"""Largest balance a deposit may reach, minor units (ASSUMED, D31)."""
MAX_NAME = 40
"""Longest player name, in characters (issue 12 point 6)."""


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """Largest request bodies accepted, in bytes (D30).

    ``play`` applies to every route but ``POST /tables``: seats, wagers,
    deals, decisions, ready, sit-out, accounts and deposits are each a
    few dozen bytes of JSON. ``other`` applies to ``POST /tables``,
    whose Rules Submission overrides may run to a few KiB.
    """

    play: int = 4 * 1024
    """Limit of every body but a new table's (ASSUMED, D30)."""
    other: int = 64 * 1024
    """Limit of ``POST /tables`` (ASSUMED, D30)."""

    def for_path(self, method: str, path: str) -> int:
        """The limit of a request."""
        if method == "POST" and path.rstrip("/") == "/tables":
            return self.other
        return self.play


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Requests allowed per client address (D32), ``limits`` notation.

    Each is a ``;``-separated list such as ``"5/minute;100/day"``;
    ``None`` switches that limit off. A server with several worker
    processes counts in each process separately.
    """

    register: str | None = "5/minute;100/day"
    """Accounts a client address may open (ASSUMED, D32); an operator's
    requests are not counted."""
    play: str | None = "20/second;600/minute"
    """Play requests (seats, wagers, deal, ready, decisions, sit-out)
    per client address (ASSUMED, D32)."""

    def __post_init__(self) -> None:
        from limits import parse_many  # the rate-limit notation's parser

        for spec in (self.register, self.play):
            if spec:
                try:
                    parse_many(spec)
                except ValueError:
                    msg = f"not a rate limit: {spec!r} (e.g. '5/minute')"
                    raise ValueError(msg) from None

    @classmethod
    def off(cls) -> RateLimits:
        """No rate limits (tests, benchmarks, a trusted network)."""
        return cls(register=None, play=None)


EDGE_ENV = "CROUPIER_EDGE_SETTINGS"
"""Environment variable passing ``croupier serve``'s edge settings
(JSON) to its worker processes."""


def edge(settings: dict[str, Any]) -> dict[str, Any]:
    """``create_app`` keyword arguments from ``croupier serve`` settings.

    ``settings`` holds ``starting_balance``, ``register_rate``,
    ``play_rate`` (``None`` for off), ``player_token_days`` and
    ``operator_token_hours``.
    """
    from croupier.server.auth import TokenLifetimes

    return {
        "starting_balance": int(settings["starting_balance"]),
        "rate_limits": RateLimits(
            register=settings["register_rate"], play=settings["play_rate"]
        ),
        "token_lifetimes": TokenLifetimes(
            player_days=float(settings["player_token_days"]),
            operator_hours=float(settings["operator_token_hours"]),
        ),
    }
