"""Types of JSON values, for documents whose content is arbitrary JSON.

:data:`JsonValue` is what :func:`json.dumps` writes and
:func:`json.loads` reads back: a scalar, or a sequence or mapping (with
string keys) of JSON values. The containers are read-only
(``Sequence``, ``Mapping``) so that a ``dict[str, float]`` or a
``list[str]`` is a JSON value as it is, without copying; tuples are
written as arrays. :data:`JsonObject` is a JSON object being built (a
``dict``, which can be added to). Where the shape of a document is
known, a ``TypedDict`` or a dataclass says it instead.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from croupier.errors import CroupierError

__all__ = [
    "JsonMapping",
    "JsonObject",
    "JsonScalar",
    "JsonValue",
    "json_text",
    "json_type",
    "reading_error",
    "whole_float_as_int",
    "whole_number",
]

JsonScalar: TypeAlias = str | int | float | bool | None
"""A JSON string, number, boolean or ``null``."""

JsonValue: TypeAlias = (
    JsonScalar | Sequence["JsonValue"] | Mapping[str, "JsonValue"]
)
"""A JSON value of any kind (arrays and objects read-only)."""

JsonMapping: TypeAlias = Mapping[str, JsonValue]
"""A JSON object, read-only (what a function reads)."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object being built (what a function returns)."""


def whole_float_as_int(value: object) -> object:
    """A number written ``402.0`` as the integer it is, else ``value``.

    JSON has one kind of number: ``2500.0`` and ``2.5e3`` are the number
    ``2500``, an integer to the JSON Schema (2020-12) as to any reader.
    Where a record's integer is read (a count, a position, an amount of
    minor units), a whole number so written is that integer; a number
    with a fraction is left as it is, for the schema to refuse.

    >>> whole_float_as_int(402.0), whole_float_as_int(1.5)
    (402, 1.5)
    >>> whole_float_as_int("7"), whole_float_as_int(True)
    ('7', True)
    """
    if type(value) is float and value.is_integer():
        return int(value)
    return value


_WHOLE = re.compile(r"[+-]?[0-9]+")
"""A whole number written as text."""


def whole_number(value: object, what: str) -> int:
    """``value``, read from a document, as an ``int``; refuse anything else.

    An integer, a number written ``1000.0`` (the integer it is, as
    everywhere in a record: :func:`whole_float_as_int`, D101), or text
    that is one (``"1000"``). Not a bool, and not a number with a
    fraction: ``int(1000.5)`` would quietly stake 1000, and
    ``int(True)`` a unit. The refusal names ``what`` and the value as
    JSON writes it (:func:`json_text`).

    >>> whole_number(1000, "amount"), whole_number(" 25 ", "seat")
    (1000, 25)
    >>> whole_number(2500.0, "amount")
    2500
    >>> whole_number(1000.5, "amount")
    Traceback (most recent call last):
    croupier.errors.CroupierError: amount is a whole number, not 1000.5
    >>> whole_number(None, "seat")
    Traceback (most recent call last):
    croupier.errors.CroupierError: seat is a whole number, not null
    """
    value = whole_float_as_int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value)
    msg = f"{what} is a whole number, not {json_text(value, 60)}"
    raise CroupierError(msg)


class LazyText:
    """Text made only when a message writes it.

    A refusal's or a deviation's wording (a decision's fields, a name
    spelled as JSON) is built where the check is, at every input of
    every round verified, and needed only when the check fails; built
    eagerly it cost 1-4 % of a verified round. ``make`` runs each time
    the text is written (``str`` or an f-string), never before.

    >>> from functools import partial
    >>> shown = LazyText(partial(json_text, "tie"))
    >>> f"wager {shown} refused", str(shown)
    ('wager "tie" refused', '"tie"')
    """

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self._make = make

    def __str__(self) -> str:
        return self._make()

    def __format__(self, spec: str) -> str:
        return format(self._make(), spec)


def json_text(value: object, limit: int | None = None) -> str:
    """``value`` as JSON writes it, for a message about a document's value.

    What a person wrote in a JSON document (a scenario, a Rules
    Submission, a CHH line, a card map) is named in its own spelling:
    ``null``, ``true``, ``"abc"``, ``{"a": 1}``, never Python's
    ``None``, ``True``, ``'abc'``, ``{'a': 1}``. Text is quoted and
    escaped as JSON does (a newline or an escape sequence in a value
    cannot forge a line of a report); a date or time (TOML has them)
    is written as TOML writes it; anything else JSON has no spelling
    for, as text. ``limit`` cuts the text to that many characters, an
    ellipsis included.

    >>> [json_text(v) for v in (None, True, False, "abc", {"a": 1})]
    ['null', 'true', 'false', '"abc"', '{"a": 1}']
    >>> json_text(("As", 2.5)), json_text(datetime.date(2026, 12, 5))
    ('["As", 2.5]', '2026-12-05')
    >>> json_text("x" * 10, limit=6)
    '"xx...'
    """
    if isinstance(value, datetime.date | datetime.time):
        text = value.isoformat()
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=_as_text)
        except (TypeError, ValueError, RecursionError):
            text = str(value)
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 3, 0)] + "..."
    return text


def reading_error(exc: Exception) -> str:
    """What reading a document's values raised, for a message.

    A :class:`KeyError` is a key the document lacks, named as JSON
    writes it; any other error, its own message (never Python's
    ``KeyError('seat')``).

    >>> reading_error(KeyError("seat")), reading_error(ValueError("bad"))
    ('no "seat"', 'bad')
    """
    if isinstance(exc, KeyError) and exc.args:
        return f"no {json_text(exc.args[0])}"
    return str(exc) or type(exc).__name__


def _as_text(value: object) -> object:
    """What :func:`json.dumps` writes for a value JSON has no type for."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return list(value)
    return str(value)


def json_type(value: object) -> str:
    """The JSON type a parsed value has, by JSON Schema's names.

    >>> [json_type(v) for v in (None, True, 3, 2.5, "x", [], {})]
    ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__
