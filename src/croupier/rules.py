"""Rules Submission options: typed, documented, overridable game settings.

Each game's options are a frozen dataclass deriving from
:class:`GameRules`. Every field is declared with :func:`option`, which
records its provenance (``REG``, ``INFER`` or ``ASSUMED``), the
project decision it comes from (a ``Dnn`` of docs/decisions.md) and a
one-line description. A casino's Rules Submission file (TOML or JSON)
or ``--set key=value`` overrides any of them; unknown keys, wrong types
and out-of-range values raise :class:`~croupier.errors.RulesError`
naming the key.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import Enum, StrEnum, unique
from fractions import Fraction
from pathlib import Path
from typing import (
    Any,
    Self,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from croupier.errors import RulesError, RulesFileError, RulesShapeError
from croupier.jsontypes import json_text, json_type, whole_float_as_int
from croupier.money import Odds, Rounding
from croupier.packed import read_text

__all__ = [
    "GameRules",
    "OptionInfo",
    "Paytable",
    "Provenance",
    "load_rules_file",
    "option",
    "options_table",
    "parse_settings",
]


@unique
class Provenance(StrEnum):
    """Where an option's default comes from."""

    REG = "REG"
    """Fixed by retrieved regulation text."""
    INFER = "INFER"
    """Inferred from the structure of the regulations or a calculation."""
    ASSUMED = "ASSUMED"
    """An industry-typical choice made by this project."""


@dataclass(frozen=True, slots=True)
class Paytable:
    """A named paytable: category to payout odds, in paying order.

    >>> table = Paytable.parse({"perfect": "25:1", "mixed": "6:1"})
    >>> table["perfect"], table.to_dict()
    (Odds.parse('25:1'), {'perfect': '25:1', 'mixed': '6:1'})
    """

    entries: tuple[tuple[str, Odds], ...]
    """(category, odds) pairs."""

    @classmethod
    def parse(cls, raw: Mapping[str, object] | Paytable) -> Paytable:
        """Build from a mapping of category to odds strings."""
        if isinstance(raw, Paytable):
            return raw
        return cls(
            tuple((str(k), Odds.parse(v)) for k, v in raw.items())  # type: ignore[arg-type]
        )

    def __getitem__(self, category: str) -> Odds:
        for name, odds in self.entries:
            if name == category:
                return odds
        raise KeyError(category)

    def get(self, category: str) -> Odds | None:
        """The odds of ``category``, or ``None`` if it does not pay."""
        try:
            return self[category]
        except KeyError:
            return None

    def __iter__(self) -> Iterator[tuple[str, Odds]]:
        return iter(self.entries)

    def categories(self) -> tuple[str, ...]:
        """The categories that pay."""
        return tuple(name for name, _ in self.entries)

    def to_dict(self) -> dict[str, str]:
        """Category to odds string."""
        return {name: str(odds) for name, odds in self.entries}


_T = TypeVar("_T")


def option(
    default: _T,
    *,
    provenance: Provenance,
    doc: str,
    ref: str | None = None,
    decision: str | None = None,
    minimum: int | Fraction | None = None,
    maximum: int | Fraction | None = None,
    choices: Iterable[str] | None = None,
    round_input: bool = False,
    carried: bool = False,
    fixed: bool = False,
) -> _T:
    """Declare a Rules Submission option (a dataclass field with metadata).

    ``choices`` restricts a string option, or names the categories a
    :class:`Paytable` may have. ``round_input`` marks a value that is
    the round's state or a replay's input (the progressive meter now, a
    dealer's slip), not a rule of the casino's: a Rules Submission does
    not fix it (:func:`round_inputs`). ``carried`` marks a round input
    the table carries from one round to the next (the meter:
    :func:`carried_options`). ``fixed`` marks an option whose default
    the regulation itself fixes (a player's right, a step the dealer
    "shall" take): another value is a what-if for analysis, and
    :meth:`GameRules.against_regulation` names it.
    """
    metadata = {
        "provenance": provenance,
        "doc": doc,
        "ref": ref,
        "decision": decision,
        "minimum": minimum,
        "maximum": maximum,
        "choices": tuple(choices) if choices is not None else None,
        "round_input": round_input or carried,
        "carried": carried,
        "fixed": fixed,
    }
    return field(default=default, metadata=metadata)


def carried_options(rules_type: type[object]) -> frozenset[str]:
    """The round inputs of ``rules_type`` a table carries between rounds.

    A round that is voided leaves them where it began: the next round
    at the table begins with the voided round's values (D68).
    """
    return frozenset(
        f.name
        for f in fields(rules_type)  # type: ignore[arg-type]
        if f.metadata.get("carried")
    )


def round_inputs(rules_type: type[object]) -> frozenset[str]:
    """The options of ``rules_type`` that are a round's state or input.

    A round logged with another progressive meter than the Rules
    Submission's default, or replaying a dealer's slip, still runs under
    that submission.
    """
    return frozenset(
        f.name
        for f in fields(rules_type)  # type: ignore[arg-type]
        if f.metadata.get("round_input")
    )


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option's documentation, for ``croupier rules`` and the README."""

    name: str
    """The option's snake_case key."""
    default: object
    """The default, in Rules Submission form."""
    provenance: Provenance
    """REG, INFER or ASSUMED."""
    doc: str
    """What it controls."""
    ref: str | None
    """The subsection it concerns, if any."""
    decision: str | None
    """The project decision (``Dnn``) behind the default, if any."""
    fixed: bool = False
    """Whether the regulation fixes the default (another value is a
    what-if for analysis, not a Pennsylvania table)."""

    @property
    def house_rule(self) -> str | None:
        """``house rule Dnn`` for an option no subsection fixes, else None.

        An option without a ``ref`` is the project's decision alone (no
        retrieved text sets it): it is named as the web table names a
        project decision (D112), never as a section.

        >>> from croupier.games.six_card_fortune_pai_gow.rules import (
        ...     SixCardRules,
        ... )
        >>> infos = {i.name: i for i in SixCardRules.options()}
        >>> infos["envy_paytable"].house_rule
        'house rule D23'
        >>> infos["house_way"].house_rule is None
        True
        """
        if self.ref or not self.decision:
            return None
        return f"house rule {self.decision}"


def _to_plain(value: object) -> object:
    if isinstance(value, Paytable):
        return value.to_dict()
    if isinstance(value, Odds | Fraction):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


def options_table(mapping: object) -> Mapping[str, object]:
    """``mapping``, refused unless it is a table of options (a mapping).

    A scenario's ``"rules": "hit soft 17"`` or a Rules Submission that is
    a list gets a :class:`RulesShapeError`, not an attribute error.

    >>> options_table(["decks", 6])
    Traceback (most recent call last):
    ...
    croupier.errors.RulesShapeError: the rules are a table of options \
(name = value), not an array ["decks", 6]
    """
    if not isinstance(mapping, Mapping):
        kind = json_type(mapping)
        article = "an" if kind[0] in "aeiou" else "a"
        shown = "" if mapping is None else f" {json_text(mapping, 60)}"
        msg = (
            f"the rules are a table of options (name = value), not "
            f"{'null' if mapping is None else f'{article} {kind}'}{shown}"
        )
        raise RulesShapeError(msg)
    return mapping


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRules:
    """Base of every game's options.

    Subclasses declare fields with :func:`option` only.
    """

    @classmethod
    def options(cls) -> list[OptionInfo]:
        """Documentation of every option with its default and provenance."""
        infos = []
        for f in fields(cls):
            default = f.default
            if default is MISSING and f.default_factory is not MISSING:
                default = f.default_factory()
            infos.append(
                OptionInfo(
                    name=f.name,
                    default=_to_plain(default),
                    provenance=f.metadata["provenance"],
                    doc=f.metadata["doc"],
                    ref=f.metadata["ref"],
                    decision=f.metadata["decision"],
                    fixed=bool(f.metadata.get("fixed")),
                )
            )
        return infos

    def against_regulation(
        self,
    ) -> list[tuple[str, str | None, object, object]]:
        """The options set otherwise than the regulation fixes them.

        Each as its name, its subsection, the value set and the value
        the regulation gives (the default of an option declared
        ``fixed``), both in Rules Submission form.

        >>> from croupier.games.double_back_jack.rules import (
        ...     DoubleBackJackRules,
        ... )
        >>> DoubleBackJackRules(insurance=False).against_regulation()
        [('insurance', '591.7(g)', False, True)]
        """
        return [
            (
                f.name,
                f.metadata["ref"],
                _to_plain(getattr(self, f.name)),
                _to_plain(f.default),
            )
            for f in fields(self)
            if f.metadata.get("fixed") and getattr(self, f.name) != f.default
        ]

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, object]) -> Self:
        """The defaults overridden by ``mapping`` (a parsed Rules file)."""
        return cls().with_overrides(mapping)

    def with_overrides(self, mapping: Mapping[str, object]) -> Self:
        """A copy with the options in ``mapping`` replaced, validated."""
        mapping = options_table(mapping)
        known = {f.name: f for f in fields(self)}
        hints = get_type_hints(type(self))
        changes: dict[str, object] = {}
        for key, raw in mapping.items():
            if key not in known:
                msg = "unknown option; known options are " + ", ".join(
                    sorted(known)
                )
                raise RulesError(msg, key=key)
            changes[key] = _convert(key, hints[key], raw, known[key].metadata)
        result = replace(self, **changes)
        result.check()
        return result

    def check(self) -> None:
        """Raise :class:`RulesError` if options contradict each other.

        Each option is validated alone when it is read; a game overrides
        this for rules that join several (a marker deeper than the shoe).
        """

    def with_settings(self, settings: Iterable[str]) -> Self:
        """A copy with ``key=value`` settings (CLI ``--set``) applied."""
        return self.with_overrides(parse_settings(settings))

    def to_dict(self) -> dict[str, object]:
        """Every option in Rules Submission form (JSON/TOML ready)."""
        return {f.name: _to_plain(getattr(self, f.name)) for f in fields(self)}


def _convert(
    key: str, hint: object, raw: object, meta: Mapping[str, Any]
) -> object:
    value = _convert_type(key, hint, raw)
    paid = (
        [value]
        if isinstance(value, Odds)
        else [odds for _, odds in value.entries]
        if isinstance(value, Paytable)
        else []
    )
    for odds in paid:
        if odds.fraction <= 0:
            # a win paying nothing is a push under another name: a
            # submission that says so is a mistake, never a rule
            msg = f"odds of {odds} pay nothing; payout odds are above 0"
            raise RulesError(msg, key=key)
    minimum, maximum = meta.get("minimum"), meta.get("maximum")
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        if minimum is not None and value < minimum:
            msg = f"{value} is below the minimum {minimum}"
            raise RulesError(msg, key=key)
        if maximum is not None and value > maximum:
            msg = f"{value} is above the maximum {maximum}"
            raise RulesError(msg, key=key)
    choices = meta.get("choices")
    if choices is not None:
        if isinstance(value, Paytable):
            bad = [c for c in value.categories() if c not in choices]
            if bad:
                msg = (
                    f"unknown categories {json_text(bad)}; allowed: "
                    f"{json_text(choices)}"
                )
                raise RulesError(msg, key=key)
        elif isinstance(value, str) and value not in choices:
            msg = f"{json_text(value)} is not one of {json_text(choices)}"
            raise RulesError(msg, key=key)
    return value


def _convert_type(key: str, hint: object, raw: object) -> object:
    def fail(expected: str) -> RulesError:
        got = json_text(raw, 60)
        return RulesError(f"expected {expected}, got {got}", key=key)

    origin = get_origin(hint)
    if hint is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in ("true", "false"):
            return raw.lower() == "true"
        raise fail("true or false")
    if hint is int:
        # a whole number written 6.0 is the integer 6 (D101)
        whole = whole_float_as_int(raw)
        if isinstance(whole, int) and not isinstance(whole, bool):
            return whole
        raise fail("an integer")
    if hint is str:
        if isinstance(raw, str):
            return raw
        raise fail("a string")
    if hint is Fraction:
        try:
            return Fraction(str(raw))
        except (ValueError, ZeroDivisionError):
            raise fail("a fraction such as 3/4 or 0.75") from None
    if hint is Odds:
        try:
            return Odds.parse(raw)  # type: ignore[arg-type]
        except ValueError:
            raise fail('payout odds such as "3:2"') from None
    if hint is Paytable:
        if not isinstance(raw, Mapping | Paytable):
            raise fail('a table of category = "n:d"')
        try:
            table = Paytable.parse(raw)
        except ValueError:
            raise fail('a table of category = "n:d"') from None
        if not table.entries:
            # a paytable paying nothing makes its wager a sure loss: a
            # submission that says so is a mistake, never a rule
            msg = (
                "an empty paytable pays nothing; give at least one "
                'category = "n:d"'
            )
            raise RulesError(msg, key=key)
        return table
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(raw)
        except ValueError:
            allowed = [m.value for m in hint]
            raise fail(f"one of {json_text(allowed)}") from None
    if origin is tuple:
        (item_hint, *_rest) = get_args(hint)
        if not isinstance(raw, list | tuple):
            raise fail("a list")
        return tuple(_convert_type(key, item_hint, item) for item in raw)
    msg = f"unsupported option type {hint!r}"  # pragma: no cover
    raise RulesError(msg, key=key)  # pragma: no cover


def parse_settings(settings: Iterable[str]) -> dict[str, object]:
    """Parse ``key=value`` strings; values are TOML literals or strings.

    >>> parse_settings(["decks=8", "tie_payout=9:1", "peek=true"])
    {'decks': 8, 'tie_payout': '9:1', 'peek': True}
    """
    out: dict[str, object] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        if not sep or not key.strip():
            msg = "expected key=value"
            raise RulesError(msg, key=setting)
        try:
            value: object = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            value = text
        out[key.strip()] = value
    return out


def load_rules_file(path: str | Path) -> dict[str, object]:
    """Read a Rules Submission file (``.toml`` or ``.json``) into a dict.

    A file holds the options at top level or under ``[rules]`` (JSON:
    ``"rules"``); a key beside that table is refused, naming it.
    """
    file = Path(path)
    try:
        text = read_text(file)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise RulesFileError(reason, path=str(file)) from None
    try:
        data: dict[str, object] = (
            json.loads(text)
            if file.suffix.lower() == ".json"
            else tomllib.loads(text)
        )
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if file.suffix.lower() == ".json" else "TOML"
        msg = f"not valid {kind}: {exc}"
        raise RulesFileError(msg, path=str(file)) from None
    if not isinstance(data, dict):
        msg = (
            f"a Rules Submission is a table of options; this file holds "
            f"a JSON {json_type(data)}"
        )
        raise RulesFileError(msg, path=str(file))
    rules = data.get("rules", data)
    beside = (
        [key for key in data if key != "rules"] if rules is not data else []
    )
    if beside:
        # a file holds its options at top level or under [rules], not
        # both: a key beside the table would be read by nothing
        msg = (
            f"keys beside the [rules] table: {', '.join(beside)}; put every "
            "option under [rules] (or every one at top level)"
        )
        raise RulesFileError(msg, path=str(file))
    if not isinstance(rules, dict):
        msg = "the [rules] table must be a table"
        raise RulesError(msg, key="rules")
    return rules


# Re-exported for games that take a rounding policy as an option.
RoundingPolicy = Rounding
