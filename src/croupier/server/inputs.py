"""What the server accepts at its edge: bounded ids, amounts and names.

Every number that reaches storage is bounded by what its column holds
(issue 12 point 6): ids and seat numbers are 32-bit ``INTEGER`` columns
(:data:`MAX_ID`), money is ``BIGINT`` and bounded far below 2^63
(:data:`MAX_AMOUNT` for one amount, :data:`MAX_BALANCE` for a balance,
D31). Amounts are strict JSON integers: ``"100"``, ``1000.0`` and
``true`` are refused, not coerced. Player names are cleaned by
:func:`clean_name` (D31).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import Path, Query
from pydantic import (
    AfterValidator,
    Field,
    PlainValidator,
    StrictInt,
    StrictStr,
    WithJsonSchema,
)

from croupier.server.limits import MAX_AMOUNT, MAX_BALANCE, MAX_ID, MAX_NAME

__all__ = [
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_DAY_OR_TIME",
    "MAX_ID",
    "MAX_NAME",
    "Amount",
    "Balance",
    "DayOrTime",
    "IdPath",
    "IdQuery",
    "PlayerName",
    "Reason",
    "SearchText",
    "SeatNumber",
    "TableName",
    "clean_name",
    "day_or_time",
    "name_key",
    "name_skeleton",
    "printable",
    "table_name_key",
]


_RESERVED = ("operator",)
"""Names no player may take, nor anything that reads as them."""

Amount = Annotated[StrictInt, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
"""An amount in minor units; its sign is the engine's to refuse (with
the rule it breaks), its size the edge's."""
Balance = Annotated[StrictInt, Field(ge=0, le=MAX_BALANCE)]
"""A starting balance, minor units."""
SeatNumber = Annotated[StrictInt, Field(ge=1, le=MAX_ID)]
"""A seat number in a body (the table refuses one it does not have)."""
IdPath = Annotated[int, Path(ge=1, le=MAX_ID)]
"""A table, round, seat or player id in a path."""
IdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID)]
"""An optional id in a query string."""


def clean_name(raw: str) -> str:
    """A player name trimmed and checked (D31); ``ValueError`` if bad.

    The name is NFC-normalised and trimmed; it must then be 1 to
    :data:`MAX_NAME` printable characters (no control, format or
    line-separator characters) and must not read as ``operator`` once
    case, width, accents, digits-for-letters and punctuation are set
    aside.

    >>> clean_name("  Ann  ")
    'Ann'
    >>> clean_name("0p-Erator")
    Traceback (most recent call last):
    ...
    ValueError: the name 'operator' is reserved
    """
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= MAX_NAME:
        msg = f"a name has 1 to {MAX_NAME} characters after trimming"
        raise ValueError(msg)
    if not name.isprintable():
        msg = "a name may hold only printable characters"
        raise ValueError(msg)
    if any(word in name_skeleton(name) for word in _RESERVED):
        msg = "the name 'operator' is reserved"
        raise ValueError(msg)
    return name


_LOOKALIKE = str.maketrans("013457$@", "oleastsa")


def name_skeleton(name: str) -> str:
    """``name`` reduced to what it reads as: lower-case ASCII letters.

    >>> name_skeleton("Ópér4t0r!")
    'operator'
    """
    folded = unicodedata.normalize("NFKD", name).casefold()
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^a-z]", "", plain.translate(_LOOKALIKE))


def name_key(name: str) -> str:
    """The key under which names are unique (case-insensitive)."""
    return unicodedata.normalize("NFKC", name).casefold()


PlayerName = Annotated[StrictStr, AfterValidator(clean_name)]
"""A player name in a body, cleaned by :func:`clean_name`."""


def printable(raw: str) -> str:
    """Free text (a table's name, a void's reason) trimmed and checked.

    NFC-normalised and trimmed; not empty; printable characters only, so
    that no NUL (which PostgreSQL cannot store), control, format or
    unpaired surrogate character reaches storage or a log.

    >>> printable(" Main floor ")
    'Main floor'
    """
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        msg = "the text is empty after trimming"
        raise ValueError(msg)
    if not text.isprintable():
        msg = "the text may hold only printable characters"
        raise ValueError(msg)
    return text


def table_name_key(name: str) -> str:
    """The key under which open tables' names are unique (D157).

    Two names are the same table name when a person would read them
    alike: the same letters in any case (and width: NFKC), the same
    words with any run of spaces between them and none around them.

    >>> table_name_key("  Main   FLOOR ") == table_name_key("main floor")
    True
    >>> table_name_key("Mainfloor") == table_name_key("Main floor")
    False
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


TableName = Annotated[
    StrictStr, Field(max_length=80), AfterValidator(printable)
]
"""A table's display name in a body."""
Reason = Annotated[StrictStr, Field(max_length=200), AfterValidator(printable)]
"""A reason stored with a round (an operator's void)."""
SearchText = Annotated[str, AfterValidator(printable)]
"""A text filter in a query string (no NUL reaches a SQL ``LIKE``)."""


def day_or_time(raw: str) -> date:
    """A recall filter's bound: a date, or a time (a ``datetime``).

    ``2026-12-05`` is a day (UTC); ``2026-12-05T05:00:00.000Z`` or
    ``2026-12-05T00:00-05:00`` an instant, given back in UTC (UTC
    without an offset), as the recall page sends the viewer's own day.

    >>> day_or_time("2026-12-05")
    datetime.date(2026, 12, 5)
    >>> day_or_time("2026-12-05T00:00-05:00").isoformat()
    '2026-12-05T05:00:00+00:00'
    """
    try:
        if "T" in raw or " " in raw:
            moment = datetime.fromisoformat(raw)
            if moment.tzinfo is None:
                return moment.replace(tzinfo=UTC)
            return moment.astimezone(UTC)
        return date.fromisoformat(raw)
    except (ValueError, OverflowError):
        msg = "neither a date (YYYY-MM-DD) nor an ISO 8601 time"
        raise ValueError(msg) from None


MAX_DAY_OR_TIME = 40
"""Most characters of a ``since`` or ``until`` query value."""


def _day_or_time_value(raw: object) -> date:
    """A query's ``since``/``until`` text as :func:`day_or_time` reads it.

    The one place the text is parsed: the route is handed the ``date``
    (a day) or ``datetime`` (an instant, in UTC), never the text.
    """
    if not isinstance(raw, str):
        msg = "a date (YYYY-MM-DD) or an ISO 8601 time, as text"
        raise ValueError(msg)  # pragma: no cover - a query is text
    if len(raw) > MAX_DAY_OR_TIME:
        msg = f"at most {MAX_DAY_OR_TIME} characters"
        raise ValueError(msg)
    return day_or_time(raw)


DayOrTime = Annotated[
    date,
    PlainValidator(_day_or_time_value),
    WithJsonSchema(
        {
            "type": "string",
            "maxLength": MAX_DAY_OR_TIME,
            "description": (
                "A date, YYYY-MM-DD (a whole UTC day, included), or an "
                "ISO 8601 time such as 2026-12-05T05:00:00Z or "
                "2026-12-05T00:00-05:00 (an instant; UTC when it carries "
                "no offset; an until time is excluded)."
            ),
            "examples": ["2026-12-05", "2026-12-05T00:00-05:00"],
        }
    ),
]
"""A date or time in a query string: checked and parsed once, by
:func:`day_or_time`, so that the handler is given the ``date`` (a UTC
day) or the ``datetime`` (an instant, UTC) and parses nothing (D160).
The OpenAPI schema stays a string of at most :data:`MAX_DAY_OR_TIME`
characters, its two forms in its description (no ``format``: neither
``date`` nor ``date-time`` alone is right, and a made-up one would
mislead a client generator)."""
