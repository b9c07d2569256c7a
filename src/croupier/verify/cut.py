"""Midibaccarat's cut, replayed from what the record says was decided.

A new Midibaccarat shoe is shuffled (629a.5(a)), offered for the cut to
the highest-numbered occupied seat and then round the table from the
lowest until someone accepts, else the dealer cuts (b); the cover card
goes in at least 10 cards from either end (c); the cards above it go to
the bottom and the second cover card goes in as many cards above the
bottom as the rules say (d). The record's preparation states who was
offered the cut, who accepted and where the cut was made: those are
given to the engine's own procedure (:func:`croupier.procedures.ch629a.
prepare_shoe`), seated at the seats offered, and its steps must be the
record's, but for what the shuffle's randomness decided. So an offer
out of order, a cut by another than the one who accepted, a completion
that moves other cards than the cut's, a second cover card elsewhere
than the rules put it, or a shuffled shoe never cut, is a deviation of
(b), (c) or (d). Who else was seated is not recorded, so a seat skipped
altogether is not seen; a recut (629a.5(e)) is not replayed, its
floorperson's order not being recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from croupier.errors import CroupierError
from croupier.events import EventLog
from croupier.hhf.format import HandHistory
from croupier.procedures.ch629a import prepare_shoe
from croupier.registry import GameSpec
from croupier.regs import implements
from croupier.rules import GameRules
from croupier.shoe import Shoe, StackItem

from .explain import Deviation, describe, whole_number
from .quiet import QUIET_RNG

__all__ = ["cut_problem"]

_LOOSE = frozenset({"seq", "source", "seed", "device", "cards"})
"""Fields of the shuffle its randomness decides (its size is checked
against the rules' shoe elsewhere, D65), and the numbering."""


def _seat(to: object) -> int | None:
    text = str(to)
    number = text.removeprefix("seat ")
    return int(number) if number != text and number.isdigit() else None


def _plain(step: Mapping[str, Any]) -> dict[str, Any]:
    if step.get("type") != "shuffled":
        return {k: v for k, v in step.items() if k != "seq"}
    return {k: v for k, v in step.items() if k not in _LOOSE}


_SHOES: dict[int, tuple[GameRules, tuple[StackItem, ...]]] = {}
"""Each rules object's new shoe, by identity (the rules are cached, so
the same object comes back; it is kept alive here)."""


def _cards(spec: GameSpec, rules: GameRules) -> tuple[StackItem, ...]:
    """The rules' new shoe, built once (only its size matters here)."""
    found = _SHOES.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_SHOES) > 64:
            _SHOES.clear()
        cards = tuple(spec.new_shoe(rules, QUIET_RNG).stack)
        found = _SHOES[id(rules)] = (rules, cards)
    return found[1]


@implements("629a.5(b)", "629a.5(c)", "629a.5(d)")
def cut_problem(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> Deviation | None:
    """The first step of a Midibaccarat shoe's cut that is not the rule's."""
    steps: Sequence[Mapping[str, Any]] = history.shoe.preparation
    if spec.section != "629a.5" or not history.shoe.shuffles():
        return None
    if any(str(s.get("ref")) == "629a.5(e)" for s in steps):
        return None  # a recut: the floorperson's order is not recorded
    offers = [s for s in steps if s.get("type") == "cut_offered"]
    cuts = [
        s
        for s in steps
        if s.get("type") == "cover_card_inserted" and s.get("purpose") == "cut"
    ]
    if not cuts:
        return Deviation(
            "629a.5(c)",
            "the shoe is shuffled, but never cut (no cover card inserted "
            "for the cut)",
        )
    # the seats offered the cut are the seats the record shows occupied
    # then (a player who sat down later may wager in the shoe's first
    # round without having been offered it)
    seats = sorted(
        {n for s in offers if (n := _seat(s.get("to"))) is not None}
    )
    accepting = tuple(
        n
        for s in offers
        if s.get("accepted") is True and (n := _seat(s.get("to"))) is not None
    )[:1]
    position = whole_number(cuts[0].get("position"))
    if type(position) is not int:
        return None  # the record's own check names the field
    log = EventLog()
    shoe = Shoe(list(_cards(spec, rules)))
    try:
        prepare_shoe(
            shoe,
            log,
            rng=QUIET_RNG,
            occupied_seats=seats,
            accepting=accepting,
            cut_position=position,
            second_cover_from_bottom=getattr(
                rules, "second_cover_from_bottom", 14
            ),
        )
    except CroupierError as exc:
        ref = str(exc.ref) if exc.ref is not None else "629a.5(c)"
        return Deviation(
            ref, f"the recorded cut cannot be made: {exc.message}"
        )
    engine = [e.to_dict() for e in log.events]
    for i, want in enumerate(steps):
        got = engine[i] if i < len(engine) else None
        if got is None:
            return Deviation(
                "629a.5(d)",
                f"the preparation has {describe(want)} after the cut was "
                f"complete",
            )
        if _plain(got) != _plain(want):
            return Deviation(
                str(got["ref"]),
                f"the preparation has {describe(want)}; the rule requires "
                f"{describe(got)}",
            )
    if len(engine) > len(steps):
        got = engine[len(steps)]
        return Deviation(
            str(got["ref"]),
            f"the preparation ends where the rule requires {describe(got)}",
        )
    return None
