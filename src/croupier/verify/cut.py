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
(b), (c) or (d). Who was seated is known when the record says
(``shoe.seated_at_cut``, CHH 1.1, D78): the offer then runs over those
seats, so a seat passed over, or offered the cut without being seated,
is a deviation of (b). A record that does not say is held to the seats
it shows offered, so a seat skipped altogether is not seen there. A
recut (629a.5(e)), which begins with the floorperson's order announced
under (e), is replayed too: offered on from the last cutter in the (b)
order (the next person entitled), cut and completed again; a recut
ordered but never made is a deviation of (e). Whether the floorperson
was right to order it is the floorperson's judgement, not the log's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.events import CutOffered, EventLog
from croupier.hhf.format import HandHistory
from croupier.procedures.ch629a import (
    DEALER,
    SECOND_COVER_MARGIN,
    cutter_of,
    prepare_shoe,
    recut,
)
from croupier.registry import GameSpec
from croupier.regs import implements
from croupier.rules import GameRules
from croupier.shoe import Shoe, StackItem

from .book import book_of
from .explain import (
    RECORD_REF,
    Deviation,
    describe,
    option_ref,
    whole_number,
)
from .quiet import QUIET_RNG

__all__ = ["cut_problem", "shoe_size"]

_LOOSE = frozenset({"seq", "source", "seed", "device", "cards"})
"""Fields of the shuffle its randomness decides (its size is checked
against the rules' shoe elsewhere, D65), and the numbering."""


def _seat(to: object) -> int | None:
    text = str(to)
    number = text.removeprefix("seat ")
    return int(number) if number != text and number.isdigit() else None


def _plain(step: Mapping[str, Any]) -> dict[str, Any]:
    if _is_recut(step):
        # the floorperson's order in the dealer's words: who cut before
        # is the replay's, not the text's
        return {k: v for k, v in step.items() if k not in ("seq", "text")}
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


def shoe_size(spec: GameSpec, rules: GameRules) -> int:
    """How many cards the rules' shoe holds (cover cards not counted)."""
    return sum(1 for item in _cards(spec, rules) if isinstance(item, Card))


@implements("629a.5(b)", "629a.5(c)", "629a.5(d)", "629a.5(e)")
def cut_problem(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> Deviation | None:
    """The first step of a Midibaccarat shoe's cut that is not the rule's."""
    steps: Sequence[Mapping[str, Any]] = history.shoe.preparation
    if not book_of(spec.section).prepared_before_play or (
        not history.shoe.shuffles()
    ):
        return None
    offers = [s for s in steps if s.get("type") == "cut_offered"]
    segments = _segments(steps)
    cut_at = [_cut_position(segment) for segment in segments]
    if cut_at[0] is None:
        return Deviation(
            "629a.5(c)",
            "the shoe is shuffled, but never cut (no cover card inserted "
            "for the cut)",
        )
    # the cuts made: the first, then each recut up to one never cut
    made = cut_at.index(None) if None in cut_at else len(cut_at)
    replayed = [step for segment in segments[:made] for step in segment]
    seated = history.shoe.seated_at_cut
    if seated is not None:
        beyond = [n for n in seated if n > spec.max_seats]
        if beyond:
            return Deviation(
                RECORD_REF,
                f"shoe.seated_at_cut names seat {beyond[0]}; the table has "
                f"seats 1-{spec.max_seats}",
            )
        seats = sorted(seated)
    else:
        # not recorded: the seats offered the cut are the seats the
        # record shows occupied then (a player who sat down later may
        # wager in the shoe's first round without having been offered it)
        seats = sorted(
            {n for s in offers if (n := _seat(s.get("to"))) is not None}
        )
    positions: list[int] = []
    for raw in cut_at[:made]:
        position = whole_number(raw)
        if type(position) is not int:
            return None  # the record's own check names the field
        positions.append(position)
    log = EventLog()
    shoe = Shoe(list(_cards(spec, rules)))
    second = getattr(rules, "second_cover_from_bottom", 14)
    try:
        prepare_shoe(
            shoe,
            log,
            rng=QUIET_RNG,
            occupied_seats=seats,
            accepting=_accepting(segments[0]),
            cut_position=positions[0],
            second_cover_from_bottom=second,
        )
        for segment, position in zip(
            segments[1:made], positions[1:], strict=True
        ):
            # each recut is offered on from the engine's last cutter
            # (629a.5(e): the next person entitled under (b))
            recut(
                shoe,
                log,
                previous=cutter_of(
                    e for e in log.events if isinstance(e, CutOffered)
                ),
                occupied_seats=seats,
                accepting=_accepting(segment),
                position=position,
                second_cover_from_bottom=second,
                rng=QUIET_RNG,
            )
    except CroupierError as exc:
        ref = str(exc.ref) if exc.ref is not None else "629a.5(c)"
        return Deviation(
            ref, f"the recorded cut cannot be made: {exc.message}"
        )
    engine = [e.to_dict() for e in log.events]
    for i, want in enumerate(replayed):
        got = engine[i] if i < len(engine) else None
        if got is None:
            return Deviation(
                "629a.5(d)",
                f"the preparation has {describe(want)} after the cut was "
                f"complete",
            )
        if _plain(got) != _plain(want):
            if _other_seat(got, want):
                return _out_of_turn(got, want, replayed[:i], seats, seated)
            depth = _second_cover(spec, second, got, want)
            if depth is not None:
                return depth
            return Deviation(
                str(got["ref"]),
                f"the preparation has {describe(want)}; the rule requires "
                f"{describe(got)}",
            )
    if len(engine) > len(replayed):
        got = engine[len(replayed)]
        return Deviation(
            str(got["ref"]),
            f"the preparation ends where the rule requires {describe(got)}",
        )
    if made < len(segments):
        return Deviation(
            RECUT,
            "a floorperson required a recut, but the stack was not cut "
            "again (no cover card inserted for the cut after it)",
        )
    return None


RECUT = "629a.5(e)"
"""The recut a floorperson may require before the stack goes in the shoe."""


def _segments(
    steps: Sequence[Mapping[str, Any]],
) -> list[Sequence[Mapping[str, Any]]]:
    """The preparation cut by its recuts: the first cut, then each recut.

    A recut begins with the engine's announcement under 629a.5(e) (the
    floorperson's order, :func:`croupier.procedures.ch629a.recut`).
    """
    starts = [i for i, step in enumerate(steps) if _is_recut(step)]
    bounds = [0, *starts, len(steps)]
    return [steps[a:b] for a, b in pairwise(bounds)]


def _is_recut(step: Mapping[str, Any]) -> bool:
    return step.get("type") == "announced" and str(step.get("ref")) == RECUT


def _cut_position(segment: Sequence[Mapping[str, Any]]) -> object:
    """Where a cut's cover card went (``None``: the stack was not cut)."""
    for step in segment:
        if (
            step.get("type") == "cover_card_inserted"
            and step.get("purpose") == "cut"
        ):
            return step.get("position")
    return None


def _accepting(segment: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
    """The seat that accepted the cut in ``segment`` (none: the dealer)."""
    return tuple(
        n
        for s in segment
        if s.get("type") == "cut_offered"
        and s.get("accepted") is True
        and (n := _seat(s.get("to"))) is not None
    )[:1]


def _second_cover(
    spec: GameSpec,
    second: int,
    got: Mapping[str, Any],
    want: Mapping[str, Any],
) -> Deviation | None:
    """The second cover card placed at another depth than the rule's.

    629a.5(d) asks for at least 14 cards beneath it; the exact depth is
    the Rules Submission's (``second_cover_from_bottom``, ``second``).
    Below 14 breaks (d) itself (the preparation's own check finds it
    first; here the engine's step, citing (d), would); deeper, but not
    where the Rules Submission puts it, breaks the option, cited as a
    penetration is (:func:`~croupier.verify.explain.option_ref`).
    """
    marker = "reshuffle marker"
    if got.get("purpose") != marker or want.get("purpose") != marker:
        return None
    if {k: v for k, v in _plain(got).items() if k != "position"} != {
        k: v for k, v in _plain(want).items() if k != "position"
    }:
        return None
    position, placed = whole_number(want.get("position")), got.get("position")
    if type(position) is not int or type(placed) is not int:
        return None
    # the engine's marker lies ``second`` cards above the bottom
    below = second + placed - position
    if below < SECOND_COVER_MARGIN:
        return None  # (d) itself: the engine's step cites it
    return Deviation(
        option_ref(spec, "second_cover_from_bottom"),
        f"the second cover card went {below} cards above the bottom "
        f"(position {position}); the Rules Submission's "
        f"second_cover_from_bottom puts it {second} above (position "
        f"{placed}); the regulation's least is {SECOND_COVER_MARGIN}",
    )


def _other_seat(got: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    """Whether the record offered the cut to another than the rule's."""
    if got.get("type") != "cut_offered" or want.get("type") != "cut_offered":
        return False
    return got.get("to") != want.get("to")


def _out_of_turn(
    got: Mapping[str, Any],
    want: Mapping[str, Any],
    before: Sequence[Mapping[str, Any]],
    seats: Sequence[int],
    seated: tuple[int, ...] | None,
) -> Deviation:
    """The cut offered out of turn: to whom, and whom the rule offers it.

    Whether the rule's seat would have accepted is not known, so only
    who is offered the cut is named (the engine's step says declined).
    """
    turn = (
        "next"
        if any(s.get("type") == "cut_offered" for s in before)
        else "first"
    )
    listed = ", ".join(map(str, seats))
    known = (
        f"seated at the cut: {listed}"
        if seated is not None
        else f"the seats the record shows offered it: {listed}"
    )
    return Deviation(
        str(got["ref"]),
        f"the cut was offered {turn} to {_who(want)}; the rule offers it "
        f"{turn} to {_who(got)} ({known})",
    )


def _who(offer: Mapping[str, Any]) -> str:
    """Whom an offer names: ``seat N`` as written, ``the dealer``."""
    to = str(offer.get("to"))
    return f"the {to}" if to == DEALER else to
