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

from collections.abc import Mapping, Sequence
from typing import TypeAlias

__all__ = ["JsonMapping", "JsonObject", "JsonScalar", "JsonValue"]

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
