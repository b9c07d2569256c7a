"""A round's shoe preparation and starting position, as its record shows.

The preparation's steps (the shuffle, the cut, the cover cards placed
before a new shoe's first round) and a pai gow starting position's draw
are held to the rules and to the recorded stack (D65, D67): the shuffle
before the cut, Midibaccarat's cut and second cover card away from the
ends (629a.5(c), (d)) and its whole cut replayed from what was decided
(:mod:`croupier.verify.cut`), the reshuffle cover card where the stack
has one and at the rules' penetration, and a drawn starting number
counting to the position dealt from (670a.9(b)); the draw itself is not
replayed. A pai gow deck dealt from the hand that a record says was
shuffled by hand (a ``shuffled`` step's ``device``, D77) breaks
670a.9(a)(1).
"""

from __future__ import annotations

from croupier.games.six_card_fortune_pai_gow.refs import (
    AUTOMATED_SHOE,
    BY_HAND_OR_MANUAL_SHOE,
)
from croupier.hhf.format import HandHistory
from croupier.jsontypes import json_text
from croupier.procedures.ch629a import CUT_MARGIN, SECOND_COVER_MARGIN
from croupier.procedures.ch670a import DEALER, POSITIONS
from croupier.registry import GameSpec
from croupier.regs import implements
from croupier.rules import GameRules

from .book import book_of
from .cut import cut_problem, shoe_size
from .explain import (
    RECORD_REF,
    Deviation,
    describe,
    option_ref,
    whole_number,
)

__all__ = ["drawn_start_problem", "preparation_problem", "unmarked_new_shoe"]


def _shuffle_and_cut(spec: GameSpec, history: HandHistory) -> Deviation | None:
    """The shoe's shuffle and cut before a new shoe's first round.

    The shuffle comes first; for Midibaccarat the cut's cover card lies
    at least 10 cards from either end (629a.5(c)) and the second cover
    card at least 14 above the bottom (629a.5(d)).
    """
    steps = history.shoe.preparation
    kinds = [str(step.get("type")) for step in steps]
    placed = [
        i
        for i, k in enumerate(kinds)
        if k in ("cut_offered", "cover_card_inserted")
    ]
    shuffled = [i for i, k in enumerate(kinds) if k == "shuffled"]
    # A reshuffle may happen inside the previous round (591.7(d)(2),
    # 681a.7(d)(2)), leaving only the cover card to place; Midibaccarat
    # always shuffles in the preparation, before the cut (629a.5(a)).
    book = book_of(spec.section)
    needs_shuffle = book.prepared_before_play and bool(placed)
    if (needs_shuffle and not shuffled) or (
        shuffled and placed and shuffled[0] > placed[0]
    ):
        ref = book.shuffle
        first = steps[placed[0]]
        return Deviation(
            ref,
            f"the shoe's preparation has {describe(first)} before any "
            f"shuffle; the rule requires the shuffle first",
            None,
        )
    if not book.prepared_before_play or not shuffled:
        return None
    size = int(steps[shuffled[0]].get("cards", 0))
    for step in steps:
        if step.get("type") != "cover_card_inserted":
            continue
        position = int(step["position"])
        if step.get("purpose") == "cut" and (
            position < CUT_MARGIN or size - position < CUT_MARGIN
        ):
            return Deviation(
                "629a.5(c)",
                f"the cut's cover card went {position} cards from the top "
                f"and {size - position} from the bottom; the rule requires "
                f"at least {CUT_MARGIN} from either end",
            )
        if step.get("purpose") == "reshuffle marker" and (
            size - position < SECOND_COVER_MARGIN
        ):
            return Deviation(
                "629a.5(d)",
                f"the second cover card went {size - position} cards above "
                f"the bottom; the rule requires at least "
                f"{SECOND_COVER_MARGIN}",
            )
    return None


def preparation_problem(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> Deviation | None:
    """The first way the record's shoe preparation breaks the rules."""
    return (
        _numbered(history)
        or _new_shoe(spec, history)
        or _shuffling_device(spec, rules, history)
        or _shuffle_and_cut(spec, history)
        or _marker(spec, rules, history)
        or cut_problem(spec, rules, history)
    )


def _numbered(history: HandHistory) -> Deviation | None:
    """The preparation's steps numbered in order, one apart (810a.11).

    They go on from where the table's log stood (croupier's own
    preparation of a later shoe starts past 1), but in order: an
    outside writer's preparation numbered at random conformed.
    """
    steps = history.shoe.preparation
    if not steps:
        return None
    first = steps[0].get("seq")
    for n, step in enumerate(steps):
        seq = step.get("seq")
        if type(first) is not int or first < 1 or seq != first + n:
            return Deviation(
                RECORD_REF,
                f"the preparation's step {n + 1} is numbered "
                f"{json_text(seq)}; its "
                f"steps are numbered in order, one apart",
            )
    return None


_HAND_DEALT = ("670a.9", "hand")
"""Pai gow's section and the ``dealing`` of a deck dealt from the hand."""


@implements("670a.9(a)(1)")
def _shuffling_device(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> Deviation | None:
    """A deck dealt from the hand that the dealer shuffled by hand.

    A pai gow deck dealt from the dealer's hand is shuffled by an
    automated shuffling device (670a.9(a)(1)); a record may say what
    shuffled its cards (a ``shuffled`` step's ``device``, CHH 1.1,
    D77). Its shuffles lie in the preparation and before the first card
    of the procedure; one said to be ``manual`` breaks the rule.
    """
    if (spec.section, str(getattr(rules, "dealing", ""))) != _HAND_DEALT:
        return None
    for step in history.shoe.preparation:
        if step.get("type") == "shuffled" and step.get("device") == "manual":
            return _shuffled_by_hand(None)
    for step in history.procedure:
        kind = step.get("type")
        if kind == "card_dealt":
            break
        if kind == "shuffled" and step.get("device") == "manual":
            seq = step.get("seq")
            return _shuffled_by_hand(seq if type(seq) is int else None)
    return None


def _shuffled_by_hand(seq: int | None) -> Deviation:
    """The deviation of a hand-dealt deck the dealer shuffled by hand."""
    return Deviation(
        "670a.9(a)(1)",
        "the deck was shuffled by hand (device manual); a deck dealt from "
        "the dealer's hand is shuffled by an automated shuffling device",
        seq,
    )


def _new_shoe(spec: GameSpec, history: HandHistory) -> Deviation | None:
    """A shoe shuffled for the round is a new one; a new one, a whole one.

    A shuffle in the round's preparation begins a new shoe, whose burn
    comes first (the record's ``new_shoe``); a new shoe is the whole
    shoe shuffled, its discard rack empty. Conversely a record that says
    its shoe is the table's whole shoe (``shoe.whole``, D75) with the
    discard rack empty holds every card in the shoe (the layout is clear
    before a round): no card has come out since it was loaded, so it
    begins a new shoe and its burn too (D80).
    """
    shoe = history.shoe
    shuffled = bool(shoe.shuffles())
    book = book_of(spec.section)
    burn = book.burn
    if shuffled and not shoe.new_shoe and burn is not None:
        return Deviation(
            burn,
            "the shoe was shuffled for this round (its preparation records "
            "the shuffle), so the round begins a new shoe and its burn; the "
            "record says it deals on from a shoe (new_shoe false)",
        )
    if (
        book.prepared_before_play
        and shoe.whole
        and shoe.new_shoe
        and not any(s.get("type") == "cut_offered" for s in shoe.preparation)
    ):
        # Midibaccarat never reshuffles inside a round: a table's new
        # shoe is prepared before it (D83)
        return Deviation(
            "629a.5(b)",
            "the round begins a new shoe of the table's (shoe.whole), but "
            "its preparation never offers the stack for the cut: a new "
            "shoe is shuffled (a), offered for the cut (b), cut (c) and "
            "its second cover card placed (d) before play",
        )
    untouched = shoe.whole and shoe.discard == ""
    if untouched and not shoe.new_shoe and burn is not None:
        return Deviation(
            burn,
            "the record says its shoe is the table's whole shoe with the "
            "discard rack empty, so no card has come out of it since it "
            "was loaded: the round begins a new shoe and its burn; the "
            "record says it deals on from a shoe (new_shoe false)",
        )
    if shoe.new_shoe and shoe.discard:
        held = len(shoe.discard.split())
        return Deviation(
            book.shuffle,
            f"the round begins a new shoe with {held} cards in the discard "
            f"rack; a new shoe is shuffled whole, its rack empty",
        )
    return None


def _marker(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> Deviation | None:
    """The preparation's reshuffle cover card, against stack and rules (D65).

    The preparation's steps are not replayed: the cover card it records
    must lie where the recorded stack has one (position ``p``: ``p``
    cards above it), and where the rules' penetration puts it in the
    cards shuffled when the game places it by penetration (D8).
    """
    steps = history.shoe.preparation
    markers = [
        step
        for step in steps
        if step.get("type") == "cover_card_inserted"
        and step.get("purpose") == "reshuffle marker"
    ]
    ref = book_of(spec.section).cover
    if ref is None:
        return None
    shuffled = history.shoe.shuffles()
    if not markers:
        if shuffled and not history.shoe.irregularity_test:
            # a shoe shuffled for the round is dealt with its reshuffle
            # cover card in it: without one it is never reshuffled
            return Deviation(
                ref,
                "the shoe is shuffled, but no reshuffle cover card is "
                "inserted in it",
            )
        return None
    position = whole_number(markers[-1].get("position"))
    stack = history.shoe.stack
    tokens = stack.split() if stack is not None else None
    if tokens is not None and not (
        type(position) is int
        and 0 <= position < len(tokens)
        and tokens[position] == "CC"
    ):
        where = [i for i, t in enumerate(tokens) if t == "CC"]
        return Deviation(
            ref,
            f"the preparation puts the cover card {json_text(position)} cards "
            f"down; the recorded stack has cover cards at {where}",
        )
    penetration = getattr(rules, "penetration", None)
    if penetration is None:
        return None
    if shuffled:
        size = whole_number(shuffled[-1].get("cards"))
    elif tokens is not None:
        # reshuffled at the end of the round before (the cover card came
        # out there): the whole shoe is in the stack, its rack empty
        size = len(tokens) - tokens.count("CC")
        if history.shoe.discard:
            size += len(history.shoe.discard.split())
    elif history.shoe.whole:
        # known only as dealt, but the table's whole shoe: the rules'
        # decks were reshuffled (D75, D82)
        size = shoe_size(spec, rules)
    else:
        return None
    if type(size) is int and position != int(size * penetration):
        return Deviation(
            option_ref(spec, "penetration"),
            f"the cover card went {json_text(position)} cards down in a "
            f"shoe of {size}; the rules' penetration {penetration} puts it "
            f"{int(size * penetration)} down",
        )
    return None


def unmarked_new_shoe(
    spec: GameSpec, history: HandHistory
) -> Deviation | None:
    """A table's new shoe whose record hides where its cover card went (D90).

    A record that says its shoe is the table's whole shoe (D75) and
    begins a new one shows the reshuffle cover card's insertion in its
    preparation (Double Back Jack, Midibaccarat), or the rules'
    penetration is never checked: an audit's table dropped the step and
    met the cover card 100 cards into a 312-card shoe marked at 234.
    Checked after everything else in the round, so that a round with a
    worse fault (a new shoe never shuffled, cards missing) is reported
    by that.
    """
    shoe = history.shoe
    ref = book_of(spec.section).cover
    if (
        ref is None
        or not book_of(spec.section).cover_in_preparation
        or not (shoe.whole and shoe.new_shoe)
        or shoe.irregularity_test
    ):
        return None
    if any(
        step.get("type") == "cover_card_inserted"
        and step.get("purpose") == "reshuffle marker"
        for step in shoe.preparation
    ):
        return None
    return Deviation(
        ref,
        "the round begins a new shoe of the table's (shoe.whole), but its "
        "preparation does not record where the reshuffle cover card was "
        "inserted",
    )


_START_REFS = (
    str(BY_HAND_OR_MANUAL_SHOE.start),
    str(AUTOMATED_SHOE.start),
)
"""Where the dealer determines the starting position: from the hand or a
manual shoe (670a.9(b)), and from an automated dealing shoe (670a.10(b))."""

_STARTS = {"rng": (1, 7), "dice": (3, 18)}
"""The 670a.5(i) draws a number decides (D24): the table's random number,
1 to 7, or three dice in a shaker, 3 to 18; either is counted from the
dealer as 1, counter-clockwise. ``given`` (a scenario's or a replay's
position, no draw recorded) is taken as it is for a stacked deck, and
is a deviation for a deck shuffled for the round (D84)."""


@implements("670a.9(b)")
def drawn_start_problem(history: HandHistory) -> Deviation | None:
    """A position drawn by number must be where that number counts (D65).

    The draw is not replayed (the engine is given the position), but
    the number recorded is what decided it: counted from the dealer as
    1, counter-clockwise round the seven places, number ``n`` is
    position ``7 - (n - 1) % 7`` (7 the dealer's). A method that is not
    one of the draws 670a.5(i) authorizes deviates (D67). A position
    ``given`` (no draw) is a scenario's, dealt from a stacked deck; a
    deck shuffled for the round (a ``shuffled`` step whose source is not
    ``stacked``) is a table's, which draws it (D84).
    """
    shuffled = next(
        (
            str(s.get("source"))
            for s in history.shoe.preparation
            if s.get("type") == "shuffled" and s.get("source") != "stacked"
        ),
        None,
    )
    for step in history.procedure:
        kind = step["type"]
        if kind == "card_dealt":
            break
        if kind == "shuffled" and step.get("source") != "stacked":
            shuffled = str(step.get("source"))
        if kind != "starting_position_determined":
            continue
        method = step.get("method")
        if method == "given" and shuffled is None:
            continue
        if method == "given":
            cited = str(step.get("ref"))
            return Deviation(
                cited if cited in _START_REFS else _START_REFS[0],
                f"the starting position {step.get('position')} is recorded "
                f"as given, but the deck was shuffled for the round "
                f"(source {json_text(shuffled)}): a table determines it by "
                f"one of the draws 670a.5(i) authorizes (rng, dice) and "
                f"records the number drawn",
            )
        number = whole_number(step.get("number"))
        position = whole_number(step.get("position"))
        if type(position) is not int:
            continue  # the record's own check names the field
        if method not in _STARTS:
            known = ", ".join(sorted(_STARTS))
            return Deviation(
                "670a.9(b)",
                f"the starting position is recorded as determined by "
                f"{json_text(method)}; the draws 670a.5(i) authorizes are "
                f"{known}",
            )
        low, high = _STARTS[str(method)]
        places = len(POSITIONS)
        if type(number) is int and low <= number <= high:
            counts = DEALER - (number - 1) % places
            if position == counts:
                continue
            counted = f"which counts to position {counts}"
        else:
            counted = f"where the {method} draw gives {low} to {high}"
        return Deviation(
            "670a.9(b)",
            f"the starting position {position} is recorded as drawn "
            f"number {json_text(number)}, {counted} (the dealer 1, then "
            f"counter-clockwise)",
        )
    return None
