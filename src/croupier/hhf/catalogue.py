"""Every step a game's CHH record holds, as the engine writes it.

``docs/hand-history.md`` describes the format; which steps a game's
round holds, in which order, under which reference and with which
announcement texts is the game's procedure, and ``croupier verify``
compares a log's steps with the engine's field by field, its references
and texts included. A writer of another system needs that list: this
module deals seeded rounds of a game at one table (shuffles, cuts, cover
cards and reshuffles included) under its default rules (with the sample
tables' :data:`~croupier.hhf.sample.SAMPLE_OPTIONS`: pai gow's Double
Down offered) and the variants of :data:`VARIANTS`, each seat placing
the game's wagers at random and taking random legal decisions, and
gathers every kind of step it sees: its type, its reference, its fields
with their JSON types, and, for an announcement, its text with the
numbers and cards taken out (``player N, banker N: player wins``).
``croupier history steps GAME --markdown`` prints it;
``docs/chh-steps.md`` is that output for every game (a test keeps it
current, another checks that every step of the hand-written scenarios is
in it).

It is the steps seen, not a proof that no other can occur: rare
branches (a shoe that runs out, an irregularity) may be missing; the
scenarios' check is what shows the branches they cover are here.

>>> found = catalogue("21-baccarat", rounds=40)
>>> ("phase_entered", "681a.7(e)") in {(k.type, k.ref) for k in found.steps}
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from croupier.errors import CroupierError
from croupier.history import Recorder
from croupier.jsontypes import json_type
from croupier.registry import find_game
from croupier.round import Action

from .sample import seeded_table

__all__ = [
    "VARIANTS",
    "Catalogue",
    "StepKind",
    "catalogue",
    "catalogue_markdown",
    "paytable_keys",
    "template",
]

VARIANTS: Mapping[str, tuple[Mapping[str, object], ...]] = {
    "double-back-jack": ({"collection_procedure": "player_by_player"},),
    "midibaccarat": ({"dealing": "face_down"},),
    "midibaccarat-commission-free": ({"dealing": "face_down"},),
    "six-card-fortune-pai-gow": (
        {"dealing": "manual_shoe"},
        {"dealing": "automated_shoe"},
        # a dealer's error in the deal, the round voided (670a.9(e))
        {"dealing_irregularities": ["skip:3"]},
        {"dealing_irregularities": ["double:7"]},
    ),
}
"""Rules Submission options under which a game's steps are gathered
besides its defaults: the options that change which steps are dealt."""

_AMOUNTS = (500, 1000, 2500, 100)
"""Stakes tried, in a random order until one is accepted (100: pai
gow's progressive wager, which is one fixed amount)."""

_CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|JK)\b")
_NUMBER = re.compile(r"-?\b\d+\b")


def template(text: str, keys: Iterable[str] = ()) -> str:
    """An announcement's text with its cards and numbers taken out.

    ``keys`` (a paytable's hands) are written ``K``: which hand a text
    names is the round's, not the step's kind.

    >>> template("player 9, banker 6: player wins")
    'player N, banker N: player wins'
    >>> template("seat 2 has As Kd")
    'seat N has C C'
    >>> template("Player Bonus: straight_flush", ["flush", "straight_flush"])
    'Player Bonus: K'
    """
    text = _NUMBER.sub("N", _CARD.sub("C", text))
    for key in sorted(keys, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(key)}\b", "K", text)
    return text


def paytable_keys(values: Mapping[str, object]) -> frozenset[str]:
    """The hands the rules' paytables name (the keys of their tables)."""
    return frozenset(
        key
        for value in values.values()
        if isinstance(value, Mapping)
        for key in value
        if isinstance(key, str)
    )


@dataclass(frozen=True, slots=True, order=True)
class StepKind:
    """One kind of step: where it is, its type and its reference."""

    place: str
    """``preparation`` (``shoe.preparation``) or ``procedure``."""
    type: str
    """The step's ``type``."""
    ref: str
    """The subsection it cites."""


@dataclass(slots=True)
class Catalogue:
    """The steps seen in a game's rounds, in the order first seen."""

    game: str
    """The game's id."""
    rounds: int
    """Rounds dealt."""
    steps: dict[StepKind, dict[str, set[str]]] = field(default_factory=dict)
    """Each kind of step and its fields, each with the JSON types seen."""
    texts: dict[StepKind, set[str]] = field(default_factory=dict)
    """Each kind of ``announced`` step's texts (:func:`template`)."""
    values: dict[StepKind, dict[str, set[str]]] = field(default_factory=dict)
    """For the fields that name a phase, a purpose or a source, the
    values seen (``phase``, ``purpose``, ``source``, ``wager``,
    ``action``, ``outcome``, ``method``)."""

    keys: frozenset[str] = frozenset()
    """The hands the game's paytables name (:func:`template`)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: each kind of step, then the announcements."""
        return {
            "game": self.game,
            "rounds": self.rounds,
            "steps": [
                {
                    "where": kind.place,
                    "type": kind.type,
                    "ref": kind.ref,
                    "fields": {
                        name: sorted(types) for name, types in fields.items()
                    },
                    "values": {
                        name: sorted(values)
                        for name, values in self.values.get(kind, {}).items()
                    },
                }
                for kind, fields in self.steps.items()
            ],
            "announcements": [
                {"ref": kind.ref, "text": text}
                for kind, texts in self.texts.items()
                for text in sorted(texts)
            ],
        }

    def add(self, place: str, step: Mapping[str, Any]) -> None:
        """Count one step."""
        kind = StepKind(place, str(step.get("type")), str(step.get("ref")))
        fields = self.steps.setdefault(kind, {})
        for name, value in step.items():
            fields.setdefault(name, set()).add(json_type(value))
            if name in _NAMED and isinstance(value, str):
                seen = self.values.setdefault(kind, {})
                seen.setdefault(name, set()).add(value)
        if kind.type == "announced":
            self.texts.setdefault(kind, set()).add(
                template(str(step.get("text", "")), self.keys)
            )


_NAMED = frozenset(
    {"phase", "purpose", "source", "wager", "action", "outcome", "method"}
)


_STAKED = (None, 250, 500, 1250, 50)
"""Amounts tried with a decision: none (the engine's own, a double's
whole stake), then halves of the stakes (insurance)."""


def _decide(rnd: Any, recorder: Recorder, choose: np.random.Generator) -> None:
    """Random legal decisions until the round waits for none."""
    while (pending := rnd.pending()) is not None:
        legal = [str(a) for a in pending.legal]
        order = [legal[int(i)] for i in choose.permutation(len(legal))]
        # a pai gow setting names its low hand: the house way is its
        # stand-in (a setting of the player's own is the same step)
        order = [a for a in order if a != "set"] or order
        for name, amount in ((n, a) for n in order for a in _STAKED):
            try:
                recorder.apply(
                    Action(seat=pending.seat, name=name, amount=amount)
                )
            except CroupierError:
                continue  # an amount it refuses (insurance's half)
            break
        else:  # pragma: no cover - a pending decision has a legal one
            msg = f"no legal decision of {legal} was accepted"
            raise CroupierError(msg)


def _deal(
    found: Catalogue,
    game: str,
    rules: Mapping[str, object] | None,
    rounds: int,
    seed: int,
) -> None:
    spec, table, choose, occupied = seeded_table(game, rules, seed, 3)
    for _ in range(rounds):
        shown = len(table.log)
        rnd = table.new_round(occupied_seats=occupied)
        for event in table.log.events[shown:]:
            found.add("preparation", event.to_dict())
        recorder = Recorder(spec.name, rnd)
        for seat in occupied:
            for n, wager in enumerate(spec.wagers):
                if n and choose.random() < 0.5:
                    continue
                for i in choose.permutation(len(_AMOUNTS)):
                    try:
                        recorder.place_wager(seat, wager, _AMOUNTS[int(i)])
                    except CroupierError:
                        continue  # an amount the rules or limits refuse
                    break
        try:
            recorder.deal()
        except CroupierError:
            table.finish_round(rnd)
            continue
        _decide(rnd, recorder, choose)
        table.finish_round(rnd)
        found.rounds += 1
        for event in rnd.events:
            found.add("procedure", event.to_dict())


def catalogue(game: str, *, rounds: int = 400, seed: int = 1) -> Catalogue:
    """The steps of ``rounds`` rounds under each rules variant of ``game``.

    The default rules and each of :data:`VARIANTS` deal ``rounds``
    rounds at a seeded table of three seats, each over the sample
    tables' options (pai gow's Double Down offered, D182).
    """
    spec = find_game(game)
    found = Catalogue(game, 0, keys=paytable_keys(spec.rules_type().to_dict()))
    variants: Iterable[Mapping[str, object] | None] = (
        None,
        *VARIANTS.get(game, ()),
    )
    for n, rules in enumerate(variants):
        _deal(found, game, rules, rounds, seed + n)
    return found


def _fields(fields: Mapping[str, set[str]]) -> str:
    common = ("seq", "ref", "type")
    return ", ".join(
        f"`{name}` ({'/'.join(sorted(kinds))})"
        for name, kinds in fields.items()
        if name not in common
    )


def catalogue_markdown(found: Catalogue) -> str:
    """The catalogue as a Markdown section (``docs/chh-steps.md``)."""
    spec = find_game(found.game)
    variants = VARIANTS.get(found.game, ())
    under = "the default rules" + "".join(
        f", then {', '.join(f'`{k}` = `{v}`' for k, v in rules.items())}"
        for rules in variants
    )
    lines = [
        f"## {spec.title} (`{found.game}`)",
        "",
        f"{found.rounds} rounds under {under}.",
        "",
        "| where | type | ref | fields (JSON types) | values seen |",
        "| --- | --- | --- | --- | --- |",
    ]
    for kind, fields in found.steps.items():
        named = found.values.get(kind, {})
        seen = "; ".join(
            f"`{name}`: " + ", ".join(f"`{v}`" for v in sorted(values))
            for name, values in sorted(named.items())
        )
        lines.append(
            f"| {kind.place} | `{kind.type}` | {kind.ref} | "
            f"{_fields(fields)} | {seen} |"
        )
    lines += [
        "",
        "Announcements (`announced`), cards as C, numbers as N, a "
        "paytable's hands as K:",
        "",
    ]
    lines += ["| ref | text |", "| --- | --- |"]
    for kind, texts in found.texts.items():
        lines += [f"| {kind.ref} | `{text}` |" for text in sorted(texts)]
    return "\n".join(lines) + "\n"
