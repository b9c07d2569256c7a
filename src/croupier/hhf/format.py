"""The croupier hand history format (CHH 1.1): one JSON object per round.

A :class:`HandHistory` carries what 58 Pa. Code 810a.11 asks a game
record to hold (round id, table, game and software, the rules in force
with a digest, start and end time, each player's balances, total bet and
total won) and the procedure itself: the shoe as far as it is known,
every step in order with its subsection, every settlement. The layout is
documented in ``docs/hand-history.md``; the JSON Schema ships with the
package (:func:`schema`).

>>> from croupier.scenario import run_scenario
>>> doc = {"game": "21-baccarat", "shoe": "Kd 9c 8h 7d 5c 4s 3c 2d",
...        "wagers": [{"seat": 1, "wager": "player", "amount": 1000}]}
>>> history = from_scenario(doc, run_scenario(doc), round_id="r1")
>>> line = history.dumps()
>>> validate(json.loads(line))
>>> HandHistory.loads(line) == history
True
>>> [(s["outcome"], s["net"]) for s in history.settlements]
[('win', 950)]
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, TextIO, TypeVar

import jsonschema
import jsonschema_rs
import orjson

import croupier
from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.frozen import frozen_constructor
from croupier.history import RoundRecord
from croupier.jsontypes import json_text, reading_error, whole_float_as_int
from croupier.packed import bounded_lines, not_text, open_packed
from croupier.procedures.ch629a import seated_at_cut
from croupier.registry import find_game
from croupier.regs import implements
from croupier.rng import SeededRng
from croupier.rules import GameRules
from croupier.scenario import ScenarioResult

from .twice import written_twice

__all__ = [
    "FORMAT",
    "SCHEMA_FILE",
    "VERSION",
    "Balances",
    "HandHistory",
    "HistoryFormatError",
    "PlayerEntry",
    "ShoeState",
    "check_unique_keys",
    "dispatched",
    "from_record",
    "from_scenario",
    "inputs_of",
    "read_at_line",
    "read_history",
    "rules_digest",
    "schema",
    "settled_rows",
    "validate",
    "write_history",
]

FORMAT = "croupier-hand-history"
"""The value of every record's ``format`` field."""
VERSION = "1.1"
"""The format version written (readers accept 1.x).

1.1 added ``shoe.whole`` (D75), a ``shuffled`` step's ``device`` (D77)
and ``shoe.seated_at_cut`` (D78); 1.0 records are 1.1 records without
them.
"""
SCHEMA_FILE = "chh-1.1.schema.json"
"""The JSON Schema's file name inside :mod:`croupier.hhf`."""


class HistoryFormatError(CroupierError):
    """A hand-history line that is not JSON or breaks the schema."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        """The 1-based line of the file, when read from one."""


_In = TypeVar("_In")
_Out = TypeVar("_Out")


def read_at_line(number: int, read: Callable[[_In], _Out], value: _In) -> _Out:
    """``read(value)``, its errors as the malformed line ``number``.

    A :class:`HistoryFormatError` gets the line's number in front; a
    ``KeyError``, ``TypeError`` or ``ValueError`` (a record of the wrong
    shape) becomes one, worded ``malformed record``.
    """
    try:
        return read(value)
    except HistoryFormatError as exc:
        raise HistoryFormatError(
            f"line {number}: {exc}", line=number
        ) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryFormatError(
            f"line {number}: malformed record: {reading_error(exc)}",
            line=number,
        ) from None


@cache
def schema() -> dict[str, Any]:
    """The CHH JSON Schema (draft 2020-12), loaded from the package."""
    text = (
        resources.files("croupier.hhf")
        .joinpath(SCHEMA_FILE)
        .read_text(encoding="utf-8")
    )
    loaded: dict[str, Any] = json.loads(text)
    return loaded


_ITEMS = {
    "procedure": "step",
    "table_steps": "step",
    "players": "player",
    "settlements": "settlement",
}
"""Arrays of the record whose items are checked one by one (cached)."""


@cache
def _validators() -> tuple[
    jsonschema.Draft202012Validator,
    dict[str, jsonschema.Draft202012Validator],
]:
    """The record less its arrays' items, and a validator per item kind.

    Together they check exactly what the whole schema checks: the
    record's own fields, then every item against its definition.
    """
    full = schema()
    jsonschema.Draft202012Validator.check_schema(full)
    record = json.loads(json.dumps(full))
    for name in _ITEMS:
        record["properties"][name] = {"type": "array"}
    record["$defs"]["shoe"]["properties"]["preparation"] = {"type": "array"}
    defs = record.pop("$defs")
    record = _inline(record, defs)
    items = {
        kind: jsonschema.Draft202012Validator(
            _inline(full["$defs"][kind], full["$defs"])
        )
        for kind in set(_ITEMS.values())
    }
    # the record's objects that repeat from round to round are checked
    # on their own, so that a repeat is looked up instead
    for name in _PARTS:
        items[name] = jsonschema.Draft202012Validator(
            record["properties"][name]
        )
        record["properties"][name] = {"type": "object"}
    return jsonschema.Draft202012Validator(record), items


_PARTS = ("game", "software", "rules")
"""Record fields (objects) validated separately and cached."""


def _part_key(name: str, value: object) -> tuple[str, Any] | None:
    """A cache key for a record part whose validity it determines."""
    if not isinstance(value, dict):
        return None
    if name == "rules":
        values, digest = value.get("values"), value.get("digest")
        if not isinstance(digest, str):
            return None
        # valid iff the keys are right, values is an object and the
        # digest has the pattern: the key holds exactly those facts
        return name, (tuple(sorted(value)), isinstance(values, dict), digest)
    plain = _key(name, value)
    return None if plain is None else (name, plain[1])


@cache
def _step_validators() -> dict[str, jsonschema.Draft202012Validator]:
    """The step definition split by ``type``: base plus that type's rules.

    The definition is the base schema and, for each core type, an
    ``if type == T then ...`` clause. A step of type T meets exactly one
    ``if`` (the constants differ), so it is valid when it meets the base
    and T's ``then``; a step of any other type meets the base alone.
    Checking it that way is the same test, without evaluating every
    clause.
    """
    full = schema()
    step = _inline(full["$defs"]["step"], full["$defs"])
    base = {k: v for k, v in step.items() if k != "allOf"}
    out = {"": jsonschema.Draft202012Validator(base)}
    for clause in step["allOf"]:
        kind = clause["if"]["properties"]["type"]["const"]
        out[kind] = jsonschema.Draft202012Validator(
            {"allOf": [base, clause["then"]]}
        )
    return out


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with every local ``$ref`` replaced by its definition.

    The schema has no recursive definitions, so this terminates; the
    validators then need no reference resolution, which is much of
    jsonschema's time on a record.
    """
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            target = _inline(defs[ref.removeprefix("#/$defs/")], defs)
            return {**target, **_inline(rest, defs)}
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


_SEEN: set[tuple[str, tuple[tuple[str, str, Any], ...]]] = set()
"""Items already found valid, by kind and content (``seq`` left out): a
day's log repeats the same steps and settlements over and over."""
_PLAIN_VALUES = (str, int, bool, float, type(None))
_PARTS_SEEN: set[tuple[str, Any]] = set()
"""Record parts already found valid (see :func:`_part_key`)."""


def _fail(error: jsonschema.ValidationError | None, prefix: str) -> None:
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        where = "/".join(x for x in (prefix, where) if x) or "(record)"
        msg = f"schema: at {where}: {schema_message(error)}"
        raise HistoryFormatError(msg)


def schema_message(error: jsonschema.ValidationError) -> str:
    """What a schema error says, the line's values spelled as JSON.

    :mod:`jsonschema` words its errors with Python's reprs (``None is
    not of type 'string'``, ``'x' was unexpected``); a CHH line is JSON,
    and its writer reads ``null``, ``true``, ``"x"``. The message is
    built here from the error's keyword, the value met and the schema's
    own value (:func:`croupier.jsontypes.json_text`), in jsonschema's
    words otherwise.

    >>> check = jsonschema.Draft202012Validator(
    ...     {"type": "object", "properties": {"seat": {"type": "integer"}},
    ...      "required": ["seat"], "additionalProperties": False})
    >>> [schema_message(e) for e in check.iter_errors({"seat": None})]
    ['null is not of type "integer"']
    >>> [schema_message(e) for e in check.iter_errors({"x": True})]
    ['"seat" is a required property', \
'Additional properties are not allowed ("x" was unexpected)']
    """
    keyword = error.validator
    rule: Any = error.validator_value
    value: Any = error.instance
    schema: Mapping[str, Any] = (
        error.schema if isinstance(error.schema, Mapping) else {}
    )
    shown = json_text(value, 80)
    if keyword == "type":
        types = [rule] if isinstance(rule, str) else list(rule)
        return f"{shown} is not of type {' or '.join(map(json_text, types))}"
    if keyword == "enum":
        return f"{shown} is not one of {json_text(rule, 200)}"
    if keyword == "const":
        return f"{json_text(rule)} was expected, not {shown}"
    if keyword == "pattern":
        return f"{shown} does not match {json_text(rule)}"
    if keyword == "required":
        held = value if isinstance(value, dict) else {}
        missing = [name for name in rule if name not in held] or list(rule)
        return f"{json_text(missing[0])} is a required property"
    if keyword == "additionalProperties" and isinstance(value, dict):
        listed = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = [
            name
            for name in value
            if name not in listed
            and not any(re.search(p, name) for p in patterns)
        ]
        names = ", ".join(json_text(name) for name in extra)
        verb = "was" if len(extra) == 1 else "were"
        return (
            f"Additional properties are not allowed ({names} {verb} "
            f"unexpected)"
        )
    bounds = {
        "minimum": "less than the minimum of",
        "maximum": "greater than the maximum of",
        "exclusiveMinimum": "less than or equal to the minimum of",
        "exclusiveMaximum": "greater than or equal to the maximum of",
    }
    if keyword in bounds:
        return f"{shown} is {bounds[keyword]} {json_text(rule)}"
    if keyword in ("minLength", "minItems", "minProperties"):
        return f"{shown} is too short"
    if keyword in ("maxLength", "maxItems", "maxProperties"):
        return f"{shown} is too long"
    if keyword == "uniqueItems":
        return f"{shown} has non-unique elements"
    if keyword == "oneOf" and not error.context:
        return f"{shown} is valid under more than one of the given schemas"
    if keyword in ("oneOf", "anyOf"):
        return f"{shown} is not valid under any of the given schemas"
    return f"{shown} does not meet the schema's {json_text(keyword)}"


def _key(
    kind: str, item: object
) -> tuple[str, tuple[tuple[str, str, Any], ...]] | None:
    """A cache key for ``item`` (``None``: check it every time).

    A step's validity does not depend on its ``seq`` beyond its being a
    positive integer, so ``seq`` is left out of the key.
    """
    if not isinstance(item, dict):
        return None
    seq = item.get("seq", 1)
    if type(seq) is not int or seq < 1:
        return None
    pairs = []
    for name, value in item.items():
        if type(value) not in _PLAIN_VALUES:
            return None
        if name != "seq":
            # the value's type is part of the key: True == 1 == 1.0
            pairs.append((name, type(value).__name__, value))
    pairs.sort()
    return kind, tuple(pairs)


@cache
def _step_fields() -> dict[
    str, tuple[frozenset[str], dict[str, jsonschema.Draft202012Validator]]
]:
    """Per step type: the required fields and a validator per field.

    A step's schema for its type (:func:`_step_validators`) is an object
    with required fields and a schema per listed property, nothing else;
    a step is valid exactly when it is an object, has the required
    fields and each listed field's value meets its schema, so the fields
    can be checked (and remembered) one at a time.
    """
    full = schema()
    step = _inline(full["$defs"]["step"], full["$defs"])
    base = {k: v for k, v in step.items() if k != "allOf"}
    if set(base) - {"description", "type", "required", "properties"}:
        return {}  # pragma: no cover - a schema this split cannot serve
    clauses: dict[str, dict[str, Any]] = {"": {}}
    for clause in step["allOf"]:
        clauses[clause["if"]["properties"]["type"]["const"]] = clause["then"]
    out = {}
    for kind, then in clauses.items():
        if set(then) - {"required", "properties"}:
            return {}  # pragma: no cover - as above
        props: dict[str, list[Any]] = {}
        for source in (base, then):
            for name, sub in source.get("properties", {}).items():
                props.setdefault(name, []).append(sub)
        required = frozenset(base.get("required", [])) | frozenset(
            then.get("required", [])
        )
        out[kind] = (
            required,
            {
                name: jsonschema.Draft202012Validator(
                    subs[0] if len(subs) == 1 else {"allOf": subs}
                )
                for name, subs in props.items()
            },
        )
    return out


_FIELDS_SEEN: set[tuple[str, str, type, Any]] = set()
"""Step fields already found valid: (step type, field, value type, value)."""


def _fields_valid(kind: str, item: object) -> bool:
    """Whether a step of ``kind`` is valid, field by field (cached).

    ``False`` means "not shown valid here": the caller then runs the
    whole validator, which gives the error.
    """
    fields = _step_fields().get(kind)
    if fields is None or not isinstance(item, dict):
        return False
    required, checks = fields
    if not required <= item.keys():
        return False
    seen = _FIELDS_SEEN
    for name, value in item.items():
        check = checks.get(name)
        if check is None:
            continue
        if type(value) not in _PLAIN_VALUES:
            return False
        key = (kind, name, type(value), value)  # True == 1: keep types
        if key in seen:
            continue
        if not check.is_valid(value):
            return False
        if len(seen) < 1_000_000:
            seen.add(key)
    return True


@cache
def _compiled() -> Any:
    """The whole schema compiled (``jsonschema_rs``, Rust): the fast test.

    Its regular expressions are Rust's, whose ``$`` matches only at the
    very end where Python's also matches before a final newline; so it
    may refuse a string that :mod:`jsonschema` accepts, never accept one
    it refuses. A refusal is therefore checked again by the reference
    path, which also words the error.
    """
    return jsonschema_rs.validator_for(dispatched(schema()))


def dispatched(full: Mapping[str, Any]) -> dict[str, Any]:
    """The schema with each step checked against its own type's clause.

    The step definition is the base and, per core type ``T``, a clause
    ``if type == T then ...``: every step meets all eleven ``if`` tests.
    The constants differ, so a step of type ``T`` must meet ``T``'s
    ``then`` only, and a step of any other type nothing more: the same
    test as ``anyOf`` over "type is ``T`` and ``T``'s ``then``" for each
    ``T``, and "type is none of them", which stops at the first branch
    that holds. A ``then`` of only ``required`` and ``properties`` (not
    naming ``type``) takes the type's constant among its properties, the
    same conjunction in one object schema. A schema not of that shape is
    returned unchanged.

    >>> steps = dispatched(schema())["$defs"]["step"]
    >>> "allOf" in steps, len(steps["anyOf"])
    (False, 13)
    """
    out: dict[str, Any] = json.loads(json.dumps(full))
    step = out.get("$defs", {}).get("step", {})
    clauses = step.get("allOf")
    if not isinstance(clauses, list) or "anyOf" in step:
        return out  # pragma: no cover - the shipped schema has the clauses
    kinds: list[str] = []
    branches: list[dict[str, Any]] = []
    for clause in clauses:
        try:
            kind = clause["if"]["properties"]["type"]["const"]
        except (KeyError, TypeError):  # pragma: no cover - as above
            return dict(full)
        if set(clause) != {"if", "then"} or clause["if"] != {
            "properties": {"type": {"const": kind}}
        }:  # pragma: no cover - as above
            return dict(full)
        kinds.append(kind)
        then = clause["then"]
        props = then.get("properties", {}) if isinstance(then, dict) else {}
        if (
            isinstance(then, dict)
            and set(then) <= {"required", "properties"}
            and isinstance(props, dict)
            and "type" not in props
        ):
            # the type's constant among the clause's own properties: the
            # same conjunction, checked in one object schema
            branches.append(
                {**then, "properties": {**props, "type": {"const": kind}}}
            )
        else:  # pragma: no cover - the shipped clauses have that shape
            branches.append({"allOf": [clause["if"], then]})
    branches.append({"properties": {"type": {"not": {"enum": kinds}}}})
    del step["allOf"]
    step["anyOf"] = branches
    return out


def validate(doc: object) -> None:
    """Raise :class:`HistoryFormatError` unless ``doc`` fits the schema.

    The message names the first error's path in the document. A record
    the compiled schema accepts is valid; otherwise :mod:`jsonschema`
    decides: the items of the record's arrays are checked one by one
    against their definitions, and an item already seen valid (up to a
    step's ``seq``) is not checked again. A record of a later minor
    version than :data:`VERSION` is checked against this version's
    schema; when it fails, the message says which version this reader
    knows (a later version may add fields).
    """
    try:
        if _compiled().is_valid(doc):
            return
    except (ValueError, TypeError, OverflowError):
        pass  # not a JSON value jsonschema_rs can read: the slow path
    try:
        _validate_slowly(doc)
    except HistoryFormatError as exc:
        later = _later_minor(doc)
        if later is None:
            raise
        msg = (
            f"{exc} (the record is CHH {later} and this croupier reads "
            f"CHH {VERSION}: a later minor version may add fields this "
            f"one does not know; verify the file with a croupier that "
            f"reads {later})"
        )
        raise HistoryFormatError(msg) from None


def _later_minor(doc: object) -> str | None:
    """``doc``'s version when it is a later 1.x than :data:`VERSION`.

    >>> _later_minor({"version": "1.3"}), _later_minor({"version": "1.0"})
    ('1.3', None)
    """
    version = doc.get("version") if isinstance(doc, dict) else None
    if not isinstance(version, str):
        return None
    major, _, minor = version.partition(".")
    ours_major, _, ours_minor = VERSION.partition(".")
    if major != ours_major or not minor.isdigit():
        return None
    return version if int(minor) > int(ours_minor) else None


def _validate_slowly(doc: object) -> None:
    """:func:`validate` by :mod:`jsonschema`, part by part."""
    record, validators = _validators()
    _fail(jsonschema.exceptions.best_match(record.iter_errors(doc)), "")
    if not isinstance(doc, dict):  # pragma: no cover - the schema says so
        return
    for name in _PARTS:
        part = doc[name]
        key = _part_key(name, part)
        if key is not None and key in _PARTS_SEEN:
            continue
        _fail(
            jsonschema.exceptions.best_match(
                validators[name].iter_errors(part)
            ),
            name,
        )
        if key is not None and len(_PARTS_SEEN) < 100_000:
            _PARTS_SEEN.add(key)
    lists = [(name, kind, doc.get(name, [])) for name, kind in _ITEMS.items()]
    preparation = doc["shoe"].get("preparation", [])
    lists.append(("shoe/preparation", "step", preparation))
    seen = _SEEN
    for where, kind, items in lists:
        for i, item in enumerate(items):
            key = _key(kind, item)
            if key is not None and key in seen:
                continue
            check = validators[kind]
            if kind == "step":
                steps = _step_validators()
                named = item.get("type") if isinstance(item, dict) else None
                if not isinstance(named, str) or named not in steps:
                    named = ""
                if _fields_valid(named, item):
                    if key is not None and len(seen) < 1_000_000:
                        seen.add(key)
                    continue
                check = steps[named]
            _fail(
                jsonschema.exceptions.best_match(check.iter_errors(item)),
                f"{where}/{i}",
            )
            if key is not None and len(seen) < 1_000_000:
                seen.add(key)


@cache
def _compiled_envelope() -> Any:
    """The compiled schema less the checks of the procedure's steps.

    The same schema as :func:`_compiled` with ``procedure`` only an
    array: with it, a record is valid exactly when the envelope is and
    every step of its procedure meets the step definition.
    """
    full = dispatched(schema())
    full["properties"]["procedure"] = {"type": "array"}
    return jsonschema_rs.validator_for(full)


@cache
def _compiled_steps() -> Any:
    """An array of procedure steps, compiled as :func:`_compiled` has it."""
    full = dispatched(schema())
    return jsonschema_rs.validator_for(
        {
            "type": "array",
            "items": {"$ref": "#/$defs/step"},
            "$defs": full["$defs"],
        }
    )


def steps_are_valid(steps: list[Any]) -> bool:
    """Whether the compiled schema accepts every item of ``steps`` as a step.

    ``True`` means valid; ``False`` only "not shown valid" (the Rust
    patterns refuse a little more than :mod:`jsonschema`, never less).
    """
    try:
        return bool(_compiled_steps().is_valid(steps))
    except (ValueError, TypeError, OverflowError):
        return False


def loads_deferring_steps(text: str | bytes) -> tuple[HandHistory, Any]:
    """Parse one line; validate all of it but the procedure's steps.

    Returns the record and, when its steps are still to be checked,
    the parsed document (``validate(doc)`` checks them, with the error
    :meth:`HandHistory.loads` would raise, and
    ``check_unique_keys(text, doc)`` that no key is written twice),
    else ``None``. A line :mod:`orjson` cannot read, or whose envelope
    the compiled schema refuses, is checked whole as by
    :meth:`HandHistory.loads`.
    """
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return HandHistory.loads(text), None
    try:
        envelope = bool(_compiled_envelope().is_valid(data))
    except (ValueError, TypeError, OverflowError):
        envelope = False
    if not envelope:
        check_unique_keys(text, data)
        validate(data)
        return HandHistory.from_dict(data), None
    return HandHistory.from_dict(data), data


def check_unique_keys(text: str | bytes, doc: object) -> None:
    """Raise :class:`HistoryFormatError` if ``text`` writes a key twice.

    ``doc`` is ``text`` read. RFC 8259 (section 4) leaves an object
    whose names repeat to each reader: :mod:`orjson` keeps the last
    value, another reader the first, so the record is not one record
    (:func:`croupier.hhf.twice.written_twice`).
    """
    where = written_twice(text, doc)
    if where is not None:
        msg = (
            f"a key written twice in one object, at {where} (JSON readers "
            "differ on which value counts: RFC 8259, section 4)"
        )
        raise HistoryFormatError(msg)


def rules_digest(values: Mapping[str, Any]) -> str:
    """``sha256:`` of the rules' canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


class Balances(NamedTuple):
    """An account's balances around one round (810a.11, D74)."""

    before: int | None
    """Before the round's first movement (``None``: not known)."""
    after: int | None
    """After the round's last movement (``None``: not known)."""
    elsewhere: int | None = None
    """The net of the account's other movements in between (``None``:
    there were none)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerEntry:
    """One seat's player in a round (810a.11)."""

    seat: int
    """Layout position."""
    player_id: str
    """The player's account id (``seat N`` when there are no accounts)."""
    balance_before: int | None
    """Balance before the round's first stake (``None``: not recorded)."""
    balance_after: int | None
    """Balance after the round's last payout (``None``: not recorded)."""
    total_bet: int
    """Every stake the seat placed in the round."""
    total_won: int
    """What the seat was paid back: stakes returned plus winnings."""
    moved_elsewhere: int | None = None
    """The net of the account's other movements between the round's
    first and last (another table's round, a deposit; D74); ``None``:
    nothing else of the account moved in that time."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``moved_elsewhere`` only when something did)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "player_id": self.player_id,
            "balance_before": self.balance_before,
            "balance_after": self.balance_after,
            "total_bet": self.total_bet,
            "total_won": self.total_won,
        }
        if self.moved_elsewhere is not None:
            out["moved_elsewhere"] = self.moved_elsewhere
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeState:
    """The shoe or deck as far as it is known when the round begins."""

    known: str
    """``stacked`` (the whole stack recorded) or ``as_dealt``."""
    new_shoe: bool
    """Whether the round began a new shoe (its burn runs first)."""
    stack: str | None
    """The stack, top card first, ``CC`` a cover card (``None``: unknown)."""
    discard: str | None
    """The discard rack when the round began (``None``: unknown)."""
    starting_position: int | None = None
    """The starting position, for games that determine one (670a.9(b))."""
    irregularity_test: bool = False
    """Whether the stack is a deliberately impossible one (a test)."""
    preparation: tuple[dict[str, Any], ...] = ()
    """Shuffle and cut steps of the table before the round."""
    whole: bool = False
    """Whether the shoe is the table's whole shoe (CHH 1.1, D75): every
    card of the rules' decks is in the stack, the discard rack or on the
    layout, so that a reshuffle gathers all of them. ``False``: it may
    be only some cards (a scenario's stacked shoe)."""
    seated_at_cut: tuple[int, ...] | None = None
    """The seats occupied when the stack was offered for the cut
    (629a.5(b); CHH 1.1, D78), in ascending order: the offer begins at
    the highest of them. ``None``: not recorded (then only the seats
    the preparation shows offered are known)."""

    def shuffles(self) -> list[dict[str, Any]]:
        """The preparation's ``shuffled`` steps (none: no shuffle recorded)."""
        return [s for s in self.preparation if s.get("type") == "shuffled"]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        out: dict[str, Any] = {
            "known": self.known,
            "new_shoe": self.new_shoe,
            "stack": self.stack,
            "discard": self.discard,
            "starting_position": self.starting_position,
        }
        if self.whole:
            out["whole"] = True
        if self.seated_at_cut is not None:
            out["seated_at_cut"] = list(self.seated_at_cut)
        if self.irregularity_test:
            out["irregularity_test"] = True
        out["preparation"] = list(self.preparation)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class HandHistory:
    """One round in CHH form; :meth:`dumps` writes one JSONL line."""

    round_id: str
    """Unique id of the round."""
    table: int | str
    """Table number."""
    game: str
    """Registry name (``double-back-jack``)."""
    section: str
    """The seed section of the game (``591.7``)."""
    rules: dict[str, Any]
    """Every Rules Submission option in force (full form)."""
    started_at: str | None
    """ISO 8601 start time."""
    ended_at: str | None
    """ISO 8601 end time."""
    shoe: ShoeState
    """The shoe state at the start of the round."""
    procedure: tuple[dict[str, Any], ...]
    """Every step, in order, each with ``seq``, ``ref`` and ``type``."""
    settlements: tuple[dict[str, Any], ...]
    """Settlements in the dealer's order (scenario-output rows)."""
    players: tuple[PlayerEntry, ...] = ()
    """The players of the round, by seat."""
    status: str = "over"
    """``over`` or ``voided``."""
    void_reason: str | None = None
    """Why a voided round was voided."""
    software: tuple[str, str] = ("croupier", croupier.__version__)
    """Name and version of the system that dealt (or wrote) the round."""
    version: str = VERSION
    """Format version."""
    rules_digest: str = field(default="")
    """``sha256:...`` of the rules; computed when left empty."""
    table_steps: tuple[dict[str, Any], ...] = ()
    """The table's own steps around the round (clocks, seats left out)."""

    def __post_init__(self) -> None:
        if not self.rules_digest:
            object.__setattr__(self, "rules_digest", rules_digest(self.rules))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the record (key order as documented)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": self.version,
            "round_id": self.round_id,
            "table": self.table,
            "game": {"id": self.game, "section": self.section},
            "software": {
                "name": self.software[0],
                "version": self.software[1],
            },
            "rules": {"values": self.rules, "digest": self.rules_digest},
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "status": self.status,
        }
        if self.void_reason is not None:
            out["void_reason"] = self.void_reason
        out["players"] = [p.to_dict() for p in self.players]
        out["shoe"] = self.shoe.to_dict()
        out["procedure"] = list(self.procedure)
        if self.table_steps:
            out["table_steps"] = list(self.table_steps)
        out["settlements"] = list(self.settlements)
        return out

    def dumps(self) -> str:
        """One line of JSON (no newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandHistory:
        """Rebuild from :meth:`to_dict` output (validate it first).

        The record and its parts are built by their classes' compiled
        constructors (:func:`croupier.frozen.frozen_constructor`, the
        class call, faster: every verified round is read so).
        """
        shoe = data["shoe"]
        build = _new_history if cls is HandHistory else cls
        return build(
            round_id=data["round_id"],
            table=data["table"],
            game=data["game"]["id"],
            section=data["game"]["section"],
            rules=dict(data["rules"]["values"]),
            rules_digest=data["rules"]["digest"],
            started_at=data["started_at"],
            ended_at=data["ended_at"],
            status=data["status"],
            void_reason=data.get("void_reason"),
            software=(data["software"]["name"], data["software"]["version"]),
            version=data["version"],
            players=tuple([_new_player(**p) for p in data["players"]]),
            shoe=_new_shoe_state(
                known=shoe["known"],
                new_shoe=shoe["new_shoe"],
                stack=shoe["stack"],
                discard=shoe["discard"],
                starting_position=shoe.get("starting_position"),
                irregularity_test=bool(shoe.get("irregularity_test", False)),
                preparation=tuple(shoe.get("preparation", ())),
                whole=bool(shoe.get("whole", False)),
                seated_at_cut=_seats_or_none(shoe.get("seated_at_cut")),
            ),
            procedure=tuple(data["procedure"]),
            table_steps=tuple(data.get("table_steps", ())),
            settlements=tuple(data["settlements"]),
        )

    @classmethod
    def loads(cls, text: str | bytes) -> HandHistory:
        """Parse and validate one line (text, or bytes in UTF-8)."""
        try:
            data = _parse(text)
        except json.JSONDecodeError as exc:
            raise HistoryFormatError(f"not JSON: {exc}") from None
        except UnicodeDecodeError as exc:
            raise HistoryFormatError(not_text(exc)) from None
        except RecursionError:
            msg = "not JSON that can be read: nested too deeply"
            raise HistoryFormatError(msg) from None
        check_unique_keys(text, data)
        validate(data)
        return cls.from_dict(data)

    @implements("591.7(u)", "681a.7(l)")
    def to_record(self) -> RoundRecord:
        """The round's inputs and outputs, for :func:`history.replay`.

        Needs the stack (``known`` = ``stacked``); the wagers and
        decisions are read off the procedure (:func:`inputs_of`).
        """
        if self.shoe.stack is None:
            msg = f"round {self.round_id}: the stack is not recorded"
            raise HistoryFormatError(msg)
        wagers, decisions = inputs_of(self.procedure)
        return RoundRecord(
            game=self.game,
            rules=dict(self.rules),
            shoe=self.shoe.stack,
            new_shoe=self.shoe.new_shoe,
            discard=self.shoe.discard or "",
            starting_position=self.shoe.starting_position,
            wagers=wagers,
            decisions=decisions,
            events=list(self.procedure),
            settlements=list(self.settlements),
        )


_new_player = frozen_constructor(PlayerEntry)
"""``PlayerEntry(**fields)``, faster (:meth:`HandHistory.from_dict`)."""
_new_shoe_state = frozen_constructor(ShoeState)
"""``ShoeState(**fields)``, faster (:meth:`HandHistory.from_dict`)."""
_new_history = frozen_constructor(HandHistory)
"""``HandHistory(**fields)``, faster (:meth:`HandHistory.from_dict`)."""


def _parse(text: str | bytes) -> Any:
    """``json.loads``, by :mod:`orjson` when it can read the text.

    orjson refuses what the standard library accepts beyond strict JSON
    (``NaN``, integers past 64 bits, lone surrogates): those lines are
    read by :mod:`json`, so that what parses is unchanged.
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def inputs_of(
    procedure: Iterable[Mapping[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The wagers placed before the deal and the decisions, in order.

    A wager is an input when it comes before the first card dealt; later
    ones follow from decisions (a double, a Second Chance, insurance).
    A wager changed before the deal is one too, marked ``change``, and
    so is a new dealer's burn while the wagers are open
    (``{"new_dealer": true}``).
    A decision keeps the amount it wagered and, for a pai gow setting,
    the low hand (``detail`` ``"...; low: 7d"``). A seat or an amount
    written as a whole float (``2500.0``) is that integer, as every
    integer of the record is read.
    """
    wagers: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    dealt = False
    wagering = False
    for step in procedure:
        kind = step.get("type")
        if kind == "phase_entered":
            wagering = step.get("phase") == "wagering"
        if kind == "card_dealt":
            dealt = True
        elif kind == "card_burned" and wagering and not dealt:
            # a new dealer's burn while the wagers are open (591.7(c),
            # 681a.7(c)); a new shoe's burn comes before wagering opens
            wagers.append({"new_dealer": True})
        elif kind == "wager_placed" and not dealt:
            wagers.append(
                {
                    "seat": _whole(step["seat"]),
                    "wager": step["wager"],
                    "amount": _whole(step["amount"]),
                }
            )
        elif kind == "wager_changed" and not dealt:
            # raised, lowered or taken back before the deal (D34): in
            # order with the placements, as RoundRecord.wagers keeps it
            wagers.append(
                {
                    "seat": _whole(step["seat"]),
                    "wager": step["wager"],
                    "amount": _whole(step["amount"]),
                    "change": True,
                }
            )
        elif kind == "decision_made":
            decision: dict[str, Any] = {
                "seat": _whole(step["seat"]),
                "action": step["action"],
            }
            if step.get("amount") is not None:
                decision["amount"] = _whole(step["amount"])
            if step["action"] == "set":
                low = _low_card(str(step.get("detail") or ""))
                if low is not None:
                    decision["low"] = low
            decisions.append(decision)
    return wagers, decisions


def _whole(value: Any) -> Any:
    """A whole float as its integer (:func:`whole_float_as_int`), cheaply.

    Only a float is looked at: the replay reads every input step so.
    """
    return whole_float_as_int(value) if type(value) is float else value


def _low_card(detail: str) -> str | None:
    head, sep, tail = detail.rpartition("low:")
    del head
    if not sep:
        return None
    token = tail.strip().split(" ")[0].rstrip(";,")
    try:
        return str(Card.parse(token))
    except CroupierError:
        return None


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def settled_rows(
    steps: Iterable[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """Each ``wager_settled`` step of ``steps`` as a settlement row.

    The row is the scenario output's (``seat``, ``wager``, ``amount``,
    ``outcome``, ``net``, ``ref``, and ``hand`` and ``commission`` when
    not 0), what :meth:`croupier.money.Settlement.to_dict` writes.
    """
    rows: list[dict[str, Any]] = []
    for step in steps:
        if step.get("type") != "wager_settled":
            continue
        row = {
            key: step[key]
            for key in ("seat", "wager", "amount", "outcome", "net", "ref")
        }
        for key in ("hand", "commission"):
            if step.get(key):
                row[key] = step[key]
        rows.append(row)
    return rows


def players_of(
    settlements: Iterable[Mapping[str, Any]],
    owners: Mapping[int, str] | None = None,
    balances: Mapping[int, Balances] | None = None,
) -> tuple[PlayerEntry, ...]:
    """Per seat: total bet and total won from the settlements.

    ``total_won`` counts what went back to the player (the stake of a
    win or push plus its net); a lost wager adds nothing.
    """
    bet: dict[int, int] = {}
    won: dict[int, int] = {}
    for s in settlements:
        seat = int(s["seat"])
        bet[seat] = bet.get(seat, 0) + int(s["amount"])
        back = int(s["amount"]) + int(s["net"])
        won[seat] = won.get(seat, 0) + max(back, 0)
    entries = []
    for seat in sorted(bet):
        held = (balances or {}).get(seat, Balances(None, None))
        entries.append(
            PlayerEntry(
                seat=seat,
                player_id=(owners or {}).get(seat, f"seat {seat}"),
                balance_before=held.before,
                balance_after=held.after,
                total_bet=bet[seat],
                total_won=won[seat],
                moved_elsewhere=held.elsewhere,
            )
        )
    return tuple(entries)


def from_record(
    record: RoundRecord,
    *,
    round_id: str,
    table: int | str,
    started_at: datetime | None,
    ended_at: datetime | None,
    owners: Mapping[int, str] | None = None,
    balances: Mapping[int, Balances] | None = None,
    preparation: Iterable[Mapping[str, Any]] = (),
    irregularity_test: bool = False,
    table_steps: Iterable[Mapping[str, Any]] = (),
    whole: bool = False,
    seated: Iterable[int] | None = None,
    software: str = croupier.__version__,
) -> HandHistory:
    """A stored (or recorded) round in CHH form; the stack is known.

    ``software`` is the version of croupier that dealt the round (the
    one running, unless the store recorded another: D132).

    ``whole`` says that the stack and rack are the table's whole shoe
    (``shoe.whole``, D75): a table's round, dealt from
    :attr:`~croupier.registry.GameSpec.new_shoe`'s shoe. ``seated`` are
    the seats occupied when the table prepared the round's shoe: written
    as ``shoe.seated_at_cut`` when the preparation offers the cut (D78).
    """
    steps = tuple(dict(e) for e in preparation)
    spec = find_game(record.game)
    return HandHistory(
        round_id=round_id,
        table=table,
        game=record.game,
        section=spec.section,
        rules=dict(record.rules),
        started_at=_iso(started_at),
        ended_at=_iso(ended_at),
        shoe=ShoeState(
            known="stacked",
            new_shoe=record.new_shoe,
            stack=record.shoe,
            discard=record.discard,
            starting_position=record.starting_position,
            irregularity_test=irregularity_test,
            preparation=steps,
            whole=whole,
            seated_at_cut=seated_at_cut(steps, seated),
        ),
        procedure=tuple(record.events),
        settlements=tuple(record.settlements),
        players=players_of(record.settlements, owners, balances),
        software=("croupier", software),
        table_steps=tuple(dict(e) for e in table_steps),
    )


def from_scenario(
    doc: Mapping[str, Any],
    result: ScenarioResult,
    *,
    round_id: str,
    started_at: datetime | None = None,
    ended_at: datetime | None = None,
) -> HandHistory:
    """The round a finished scenario run dealt (``ScenarioResult``)."""
    rnd = result.round
    irregular = bool(doc.get("irregularity_test", False))
    if rnd is None or result.exit_code != 0:
        msg = "only a scenario that ran to the end has a hand history"
        raise HistoryFormatError(msg)
    output = json.loads(result.stdout)
    record = RoundRecord(
        game=str(doc["game"]),
        rules=rnd.rules.to_dict(),
        shoe=rnd.initial_stack,
        new_shoe=rnd.new_shoe,
        discard=rnd.initial_discard,
        starting_position=getattr(rnd, "starting_position", None),
        events=output["events"],
        settlements=output["settlements"],
    )
    return from_record(
        record,
        round_id=round_id,
        # each scenario deals from a shoe of its own: a table of its own,
        # so that no check across rounds links two scenarios (D64)
        table=round_id,
        started_at=started_at,
        ended_at=ended_at,
        irregularity_test=irregular,
        # a stacked scenario may hold only the cards its round deals: the
        # record says "whole" only when it holds every card (D75)
        whole=not irregular
        and _is_whole(record.game, rnd.rules, record.shoe, record.discard),
    )


def _seats_or_none(raw: object) -> tuple[int, ...] | None:
    """A record's ``seated_at_cut`` (the schema has checked it)."""
    if not isinstance(raw, list):
        return None
    return tuple(int(seat) for seat in raw)


def _is_whole(game: str, rules: GameRules, stack: str, discard: str) -> bool:
    """Whether ``stack`` and ``discard`` hold exactly the rules' decks.

    >>> from croupier.games.baccarat21 import Baccarat21Rules
    >>> rules = Baccarat21Rules(decks=1)
    >>> deck = " ".join(f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA")
    >>> _is_whole("21-baccarat", rules, deck, "")
    True
    >>> _is_whole("21-baccarat", rules, deck[3:], deck[:2])
    True
    >>> _is_whole("21-baccarat", rules, deck[3:], "")
    False
    """
    held = Counter(
        Card.parse(token)
        for token in (*stack.split(), *discard.split())
        if token != "CC"  # noqa: S105 - the cover card's token
    )
    shoe = find_game(game).new_shoe(rules, SeededRng(0))
    return held == shoe.complement


def read_history(
    source: Path | str | Iterable[str | bytes],
) -> Iterator[tuple[int, HandHistory]]:
    """Each line's number and record; raises on the first bad line.

    A path is opened as :func:`croupier.packed.open_packed` opens it
    (compressed or not); otherwise ``source`` gives the lines.
    """
    if isinstance(source, Path | str):
        with open_packed(source) as handle:
            yield from read_history(bounded_lines(handle))
        return
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        yield number, read_at_line(number, HandHistory.loads, line)


def write_history(histories: Iterable[HandHistory], out: TextIO) -> int:
    """Write one line per record; returns how many were written."""
    count = 0
    for history in histories:
        out.write(history.dumps() + "\n")
        count += 1
    return count
