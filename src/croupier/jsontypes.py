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

import re
from collections.abc import Mapping, Sequence
from typing import TypeAlias

from croupier.errors import CroupierError

__all__ = [
    "JsonMapping",
    "JsonObject",
    "JsonScalar",
    "JsonValue",
    "json_type",
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

    An integer, or text that is one (``"1000"``). Not a bool, and not a
    float, however whole: ``int(1000.5)`` would quietly stake 1000, and
    ``int(True)`` a unit.

    >>> whole_number(1000, "amount"), whole_number(" 25 ", "seat")
    (1000, 25)
    >>> whole_number(1000.5, "amount")
    Traceback (most recent call last):
    croupier.errors.CroupierError: amount is a whole number, not 1000.5
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value)
    msg = f"{what} is a whole number, not {value!r}"
    raise CroupierError(msg)


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
