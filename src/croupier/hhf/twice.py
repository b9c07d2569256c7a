r"""A key written twice in one JSON object of a line, found at little cost.

RFC 8259 (section 4) says the names of an object SHOULD be unique, and
that readers differ when they are not: :mod:`orjson` and :mod:`json`
keep the last value, others the first or refuse the text. A verifier
must not read a record another reader would read otherwise, so a line
that writes a key twice is malformed; :func:`written_twice` finds
one.

Parsing cannot tell: the parsed object has one value a key. The
re-encoding can: :mod:`orjson` writes the parsed value compactly, keys
in their order, so a line written that way (as croupier writes its
lines: compact, ASCII) is its re-encoding byte for byte, which a key
written twice would have made shorter. A line that is not needs more:

* without a backslash no string holds a quote, so each string is
  written between two quotes there and in the re-encoding alike; a key
  written twice is a string that the parsed value has lost, so the line
  holds more quotes than its re-encoding exactly when a key is written
  twice (whatever its spacing or its numbers' spelling);
* with one (a name in another script, ``\u00eb``), the line is compared
  with :func:`json.dumps`'s compact writing (croupier's own), and last
  the line is read again by :mod:`json`, each object's pairs counted.

The verifier, whose replay has already found the procedure's text in
the line to be the engine's own steps, re-encodes only the rest
(:func:`rest_written_once`): the procedure, most of a line, costs
nothing more, and the rest about 1 % of a round's check.

>>> import orjson
>>> line = b'{"game":{"id":"roulette","id":"midibaccarat"},"x":1}'
>>> written_twice(line, orjson.loads(line))
'game/id'
>>> written_twice(b'{"a": 1, "b": [1.0]}', {"a": 1, "b": [1.0]}) is None
True
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["rest_written_once", "written_twice"]

_PROCEDURE_NULL = b'"procedure":null'
"""The record's procedure key with ``null`` for its value, compact."""


def written_twice(text: str | bytes, data: object) -> str | None:
    """Where ``text`` (``data`` read) writes a key twice, or ``None``.

    The answer is the key's path, ``/`` between the keys and array
    indexes from the top (``procedure/3/amount``).
    """
    raw = text.encode() if isinstance(text, str) else text
    line = raw.rstrip(b"\r\n")
    try:
        again = orjson.dumps(data)
        if again == line:
            return None
        if b"\\" not in line and line.count(b'"') == again.count(b'"'):
            return None
    except (TypeError, orjson.JSONEncodeError):
        pass  # a value orjson does not write (past 64 bits): read again
    if line == json.dumps(data, separators=(",", ":")).encode():
        return None
    return _path_of_first_twice(line)


def rest_written_once(text: str | bytes, data: object, steps: bytes) -> bool:
    """Whether ``text`` is ``data`` re-encoded, ``steps`` its procedure.

    ``steps`` is the text ``text`` writes at its one ``"procedure"``
    key, found there by the caller (the verifier's replay compares it
    byte for byte) and written by :mod:`orjson` (the engine's steps).
    The record is re-encoded with ``null`` for its procedure: the line
    must be that, with ``steps`` where the ``null`` stands (the same
    bytes before it, as long a text as ``steps`` there, the same bytes
    after it). It is then :mod:`orjson`'s writing of Python values
    throughout, which names no key twice, and only the rest of it was
    re-encoded. The ``null`` is looked for from the end, past the few
    settlements rather than the rules and the shoe. ``False`` says
    only "not shown so".
    """
    if not isinstance(data, dict) or "procedure" not in data:
        return False
    raw = text.encode() if isinstance(text, str) else text
    size = len(raw)  # the line less its end, without a copy of it
    while size and raw[size - 1] in b"\r\n":
        size -= 1
    procedure = data["procedure"]
    data["procedure"] = None  # in its place: no copy of the record
    try:
        rest = orjson.dumps(data)
    except (TypeError, orjson.JSONEncodeError):
        return False
    finally:
        data["procedure"] = procedure
    at = rest.rfind(_PROCEDURE_NULL)
    if at == -1:
        return False
    cut = at + len(_PROCEDURE_NULL) - 4
    tail = rest[cut + 4 :]
    return (
        size == cut + len(steps) + len(tail)
        and raw.startswith(rest[:cut])
        and raw.startswith(tail, cut + len(steps))
    )


class _Twice(dict[str, Any]):
    """An object read with a key written twice (the key is kept)."""

    key: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s object hook: a :class:`_Twice` for a key twice."""
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    twice = _Twice(out)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            twice.key = key
            break
        seen.add(key)
    return twice


def _path_of_first_twice(raw: bytes) -> str | None:
    """The path of a key written twice, read by :mod:`json`, or ``None``."""
    try:
        read = json.loads(raw, object_pairs_hook=_pairs)
    except (ValueError, RecursionError):
        return None  # not JSON: the reader says so
    path = _find(read)
    return None if path is None else "/".join(path)


def _find(value: object) -> list[str] | None:
    """The path to the first object (in the text's order) with a key twice.

    An object whose key was written twice is found before anything
    inside it (whatever is inside a value written over is gone).
    """
    stack: list[tuple[object, list[str]]] = [(value, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _Twice):
            return [*path, node.key]
        if isinstance(node, dict):
            items = [(v, [*path, str(k)]) for k, v in node.items()]
        elif isinstance(node, list):
            items = [(v, [*path, str(i)]) for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(items))
    return None
