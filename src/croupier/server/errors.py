"""The server's refusals, and the HTTP status of every refusal.

Engine refusals (:class:`~croupier.errors.CroupierError` and its
subclasses) keep their type name and the rule they cite; the server adds
its own (authentication, ownership, balance, limits). Each goes out as
``{"error": type, "ref": rule, "message": ...}``, where ``ref`` is the
rule the refusal follows, in one of two forms:

- a subsection of 58 Pa. Code (:class:`~croupier.regs.Ref`), such as
  ``"591.7(k)(1)"``, for a rule of the regulation;
- a project decision (:class:`~croupier.regs.Decision`,
  ``docs/decisions.md``), such as ``"D137"``, for a rule the regulation
  leaves to the casino (the operator's void, the end of a shoe, the
  table limits, the tokens...; D198);

and ``null`` only where no rule applies (a token missing or unknown, a
request that is not the JSON the route takes, an unexpected error).
"""

from __future__ import annotations

from croupier.errors import (
    CroupierError,
    OutOfTurnError,
    ShoeError,
    WagerError,
    WrongPhaseError,
)

__all__ = [
    "ForbiddenError",
    "IdempotencyConflictError",
    "InsufficientBalanceError",
    "NameTakenError",
    "NoWagerError",
    "NotAuthenticatedError",
    "NotFoundError",
    "NotOperatorError",
    "NotSeatOwnerError",
    "RoundWithdrawnError",
    "SeatError",
    "ServerError",
    "StorageUnavailableError",
    "TableLimitError",
    "TableNameTakenError",
    "TableSettingError",
    "error_body",
    "status_of",
]


class ServerError(CroupierError):
    """A refusal that the table server (not the game) makes."""

    status = 400
    """The HTTP status of the refusal."""


class NotAuthenticatedError(ServerError):
    """No bearer token, or one the server does not know."""

    status = 401


class ForbiddenError(ServerError):
    """The caller may not do this."""

    status = 403


class NotSeatOwnerError(ForbiddenError):
    """Acting for a seat that another player (or nobody) holds."""


class NotOperatorError(ForbiddenError):
    """An operator's task tried by a player."""


class NotFoundError(ServerError):
    """No such table, round, seat or player."""

    status = 404


class RoundWithdrawnError(ServerError):
    """A round withdrawn when the operator ended its shoe (D194, D198).

    The round waited for wagers on the old shoe and took none: its row
    and events were deleted, and the table went on with a round on the
    new shoe. A request naming it is answered ``410 Gone``: the round
    existed and will never be back, unlike an id never given (``404``).
    """

    status = 410


class SeatError(ServerError):
    """A seat that cannot be taken or left now."""

    status = 409


class NameTakenError(ServerError):
    """A player name another account has already (in any case, D31)."""

    status = 409


class TableNameTakenError(ServerError):
    """A table name another table has already (D157).

    Read as a person reads it: in any case, with any spaces around or
    between its words.
    """

    status = 409


class IdempotencyConflictError(ServerError):
    """An Idempotency-Key reused for a different request."""

    status = 409


class InsufficientBalanceError(ServerError):
    """A wager (or a double, insurance...) above the player's balance."""

    status = 402


class TableLimitError(WagerError):
    """A wager outside the table's minimum and maximum."""

    status = 400


class TableSettingError(ServerError):
    """A table setting (clock, idle seats) unknown or out of range."""

    status = 400


class NoWagerError(WrongPhaseError):
    """A seat without a wager tried to close betting (D27)."""

    status = 409


class StorageUnavailableError(ServerError):
    """The database cannot be used now (locked too long, connection lost).

    Answered as 503 ``{"error": "StorageUnavailable", ...}`` with
    ``Retry-After``; nothing was changed, so the request may be retried
    (with the same Idempotency-Key).
    """

    status = 503
    error_name = "StorageUnavailable"
    """The ``error`` of the JSON body."""

    def __init__(self, message: str, *, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        """Seconds to wait before retrying."""
        self.headers = {"Retry-After": str(retry_after)}
        """Headers of the response."""


def status_of(exc: CroupierError) -> int:
    """The HTTP status for a refusal."""
    status = getattr(exc, "status", None)
    if isinstance(status, int):
        return status
    if isinstance(exc, WrongPhaseError | OutOfTurnError | ShoeError):
        return 409
    return 400


def error_body(exc: CroupierError) -> dict[str, object]:
    """The JSON body of a refusal: ``{"error", "ref", "message"}``.

    ``ref`` is the rule cited, as text: ``"591.7(k)(1)"`` or ``"D137"``
    (see the module docstring), or ``None``.
    """
    return {
        "error": getattr(exc, "error_name", None) or type(exc).__name__,
        "ref": None if exc.ref is None else str(exc.ref),
        "message": exc.message,
    }
