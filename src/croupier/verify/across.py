"""Checks across the rounds of one file (D64).

Each round is replayed by itself (:mod:`croupier.verify.replay`); two
things only the file as a whole can show are checked here, on the
verdicts in file order:

- **Round ids are unique** (§ 810a.11): a line whose round id an earlier
  line already had deviates, citing that line.
- **A table deals one round at a time**: a round that begins before the
  one before it at its table ended (both times recorded) deviates
  (§ 810a.11: the record's times).
- **The shoe carries over.** Between two rounds of one table dealt from
  one shoe, nothing happens to the cards: the round after begins with
  the stack the round before left (its stack less the cards it drew) and
  the discard rack it left (its rack and the cards it put there). When
  the round before conformed, ran without a reshuffle and recorded its
  stack, and the round after continues that shoe (not ``new_shoe``, no
  shuffle in its preparation) and records its stack, the two must agree
  token for token, as written. A card added, taken out or moved between
  the rounds (or a round missing from the log between them) is a
  deviation of the later round, citing the rule that cards come from
  the shoe as shuffled. A round that reaches the cover card leaves no
  shoe to compare: its reshuffle gathers every card, and a card missing
  then is its own deviation, and the round after it must begin a new
  shoe, as must the round after a voided one (D29, D67), stack recorded
  or not (D71).
- **Recorded and as-dealt rounds link too** (D86): a table may record
  some rounds' stacks and not others'. A round recorded ``as_dealt``
  that deals on from a shoe whose stack is known (a stacked round
  before it, or a chain of as-dealt rounds back to one) must take its
  cards, cover cards included, from the top of that stack, and begin
  with the rack it left; what it leaves is known in turn. A stacked
  round that deals on from as-dealt rounds must begin with the rack
  they left, when it is known, and its rack must hold every card
  counted out of the shoe since D71's count began.
- **The progressive meter carries over**: a round begins with the meter
  the round before it at its table left (D23, D68).
- **A shoe without a recorded stack holds its decks** (D71): the rounds
  of one table recorded ``as_dealt`` are linked through the cards they
  show coming out of the shoe; from the round that begins a shoe (or
  the table's first in the file) no card may come out more often than
  the rules' decks hold it, or a card was added between the rounds.
- **The cover card comes out where it was put** (D82): in rounds
  recorded ``as_dealt`` the replay meets the reshuffle cover card where
  the log says, so its place is checked across them instead. From the
  step that inserts it (in a shoe's preparation, or in a round's
  procedure after a reshuffle) the cards out of the shoe (dealt and
  burned, in step order) are counted; ``cover_card_reached`` must come
  when the count is the marker's ``position`` (the cards above it), and
  a card past that count with no cover card before it deviates, citing
  the game's cover-card subsection (591.7(d), 681a.7(d), 629a.5(d)).
  Nothing is checked until a marker is seen in the file; a shuffle, the
  cover card reached, a stacked round (the replay checks those against
  its stack), a round that deviates, or one that begins a shoe without
  a marker of its own or a fresh one from the round before forgets it.

A table is its game and its ``table`` field; rounds of one table must
appear in the order dealt (as ``croupier history export`` writes them),
tables may interleave. Each id's first line is kept and, per table,
the shoe its last round left (its stack's and rack's texts) and a few
counts: memory grows with the number of round ids (some 150 bytes a
round) and of tables, not with the rounds' shoes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import NamedTuple

from croupier.cards import CARD_TEXTS, Card, card_texts
from croupier.frozen import frozen_constructor
from croupier.hhf.format import HandHistory
from croupier.jsontypes import LazyText, json_text
from croupier.registry import GameSpec

from .book import book_of
from .explain import Deviation, whole_number
from .record import RECORD_REF, instant
from .reshuffle import listed_cards

__all__ = ["AcrossRounds", "CoverSteps", "LeftShoe", "RoundEnds", "ends_of"]


class LeftShoe(NamedTuple):
    """The shoe a round left to be dealt on, as far as it is known.

    Texts as the schema writes a stack and a rack (card codes, ``CC``
    for a cover card, one space between two), so equal texts are equal
    cards in equal order; ``None`` where the log does not show them (a
    round recorded ``as_dealt`` with no stacked round before it in its
    shoe, or no rack recorded).
    """

    stack: str | None
    """The stack, top card first."""
    rack: str | None
    """The discard rack, in the order the cards were put in it."""


_AS_DEALT_LEFT = LeftShoe(None, None)
"""What an ``as_dealt`` round that did not end its shoe leaves, before
the checks across rounds (:meth:`AcrossRounds.check`) fill in what the
rounds before it show."""


@dataclass(frozen=True, slots=True)
class RoundEnds:
    """Which shoe a round began with and left (as digests), and its times."""

    table: str
    """The table: its game and its ``table`` field."""
    found: LeftShoe | None
    """The stack and rack the round began with, when it records its stack
    and deals on from the round before (``None``: a new shoe, a shuffle
    first, or no stack)."""
    left: LeftShoe | None
    """The shoe it left to be dealt on (``None``: none, for a round that
    deviated, reshuffled or was voided; for a round without its stack,
    :data:`_AS_DEALT_LEFT` or its rack, filled in across rounds)."""
    ref: str
    """The rule cited when the shoe did not carry over."""
    started: datetime | None = None
    """When the round began, when recorded (and a real instant)."""
    ended: datetime | None = None
    """When it ended, likewise."""
    unshuffled: bool = False
    """Whether it begins a new shoe with no shuffle in its preparation:
    then the round before it at the table must have reshuffled (D65)."""
    ends_shoe: str | None = None
    """The rule by which the shoe ends with this round (its cover card
    came out, or it was voided: D29), so that the next round at the
    table must begin a new one (D67); ``None``: it does not."""
    meter: tuple[int, int] | None = None
    """The progressive meter the round began with and left (D23), for a
    game whose rules carry one; the next round at the table begins with
    the meter this one left (D68)."""
    seen: tuple[str, ...] | None = None
    """The cards an ``as_dealt`` round shows leaving the shoe (dealt and
    burned) in order, ``CC`` where a cover card came out: counted across
    the shoe's rounds (D71), and held to the top of a stack known from
    the rounds before (D86); ``None``: not counted (the stack is
    recorded, or every round reshuffles)."""
    holds: Mapping[str, int] | None = None
    """How many of each card the rules' decks hold, with :attr:`seen`."""
    begins: bool = False
    """Whether the round begins a shoe (``new_shoe`` or a shuffle)."""
    racked_before: tuple[str, ...] | None = None
    """The discard rack it began with, when recorded (with :attr:`seen`)."""
    put: tuple[str, ...] = ()
    """The cards it put in the discard rack (with :attr:`seen`)."""
    cover: CoverSteps | None = None
    """With :attr:`seen`, for a game with a reshuffle cover card: what
    the round shows of where it lies (D82). One field, not two: a
    frozen dataclass pays for each field of every round, stacked or
    not."""
    contents: str | None = None
    """A stacked round's cards, its stack's and rack's texts: for a round
    that reshuffles its whole shoe, what the reshuffle gathers; for one
    that begins the new shoe a reshuffle made, what it holds (D98). The
    same cards either way, so one field; ``None`` for every other round.
    Kept as written, and counted only when two are compared."""


class CoverSteps(NamedTuple):
    """What an ``as_dealt`` round shows of its reshuffle cover card (D82)."""

    ref: str
    """The game's cover-card subsection (:attr:`.Book.cover`)."""
    steps: tuple[tuple[int, int | None], ...]
    """In step order, preparation first, ``(what, seq)``: ``what`` is
    :data:`_OUT` (a card out of the shoe), :data:`_REACHED` (the cover
    card came out), :data:`_FORGOTTEN` (a shuffle, or a marker whose
    place is not a count), :data:`_OTHER` (another cover card: the
    cut's) or, zero or more, a marker inserted with that many cards
    above it; ``seq`` is the procedure step's (``None`` in the
    preparation)."""


_new_ends = frozen_constructor(RoundEnds)
"""``RoundEnds(...)``, faster: one for every round, its sixteen fields
set each time (:func:`croupier.frozen.frozen_constructor`)."""


def ends_of(
    spec: GameSpec,
    history: HandHistory,
    drawn: int | None,
    racked: Iterable[Card] | None,
    holds: Mapping[str, int] | None = None,
) -> RoundEnds:
    """The ends of ``history``'s shoe.

    ``drawn`` is how many items (cards and cover cards) the round took
    from the top of its stack, ``None`` when it reshuffled; ``racked``
    the cards it put in the discard rack, ``None`` when the round did
    not conform (then what it left is not known); ``holds`` the rules'
    decks by card, for a round recorded without its stack (D71).
    """
    shoe = history.shoe
    stack = shoe.stack
    table = f"{history.game}\x1f{history.table}"
    ref = book_of(spec.section).from_the_shoe
    started, ended = instant(history.started_at), instant(history.ended_at)
    if stack is None:
        if holds is None or racked is None or spec.reshuffle_every_round:
            return _new_ends(table, None, None, ref, started, ended)
        seen: list[str] = []
        cover = [
            _cover_step(step, None)
            for step in shoe.preparation
            if step.get("type") in _COVER_STEPS
        ]
        for step in history.procedure:
            kind = step.get("type")
            if kind == "card_dealt" or kind == "card_burned":
                seen.append(CARD_TEXTS[Card.parse(str(step["card"])).code])
                cover.append((_OUT, _seq(step)))
            elif kind in _COVER_STEPS:
                if kind == "cover_card_reached":
                    seen.append(_CC)
                cover.append(_cover_step(step, _seq(step)))
        racked_before = (
            None if shoe.discard is None else card_texts(shoe.discard)
        )
        put = [CARD_TEXTS[card.code] for card in racked]
        cover_ref = book_of(spec.section).cover
        ends_shoe = _ends_shoe(spec, history, drawn)
        return _new_ends(
            table,
            None,
            # a round that did not end its shoe leaves it to be dealt on
            _AS_DEALT_LEFT
            if ends_shoe is None and history.status == "over"
            else None,
            ref,
            started,
            ended,
            unshuffled=shoe.new_shoe and not shoe.shuffles(),
            ends_shoe=ends_shoe,
            seen=tuple(seen),
            holds=holds,
            begins=shoe.new_shoe or bool(shoe.shuffles()),
            racked_before=racked_before,
            put=tuple(put),
            cover=None
            if cover_ref is None
            else CoverSteps(cover_ref, tuple(cover)),
        )
    rack = shoe.discard or ""
    shuffled = bool(shoe.shuffles())
    continues = not shoe.new_shoe and not shuffled
    found = LeftShoe(stack, rack) if continues else None
    unshuffled = (
        shoe.new_shoe and not shuffled and not spec.reshuffle_every_round
    )
    left = None
    if (
        drawn is not None
        and racked is not None
        and history.status == "over"
        and not spec.reshuffle_every_round
    ):
        rest = stack.split(" ", drawn)
        put = [CARD_TEXTS[card.code] for card in racked]
        left = LeftShoe(
            rest[drawn] if len(rest) > drawn else "",
            " ".join([rack, *put] if rack else put),
        )
    # a void ends the shoe however the round went (D29)
    known = racked is not None or history.status == "voided"
    ends_shoe = _ends_shoe(spec, history, drawn) if known else None
    contents = None
    if (unshuffled or ends_shoe not in (None, "D29")) and not (
        shoe.whole or shoe.irregularity_test
    ):
        # the shoe a reshuffle gathers, or the one it made (D98); a
        # whole shoe's new one holds the decks, D75's check
        contents = f"{stack} {rack}"
    return _new_ends(
        table,
        found,
        left,
        ref,
        started,
        ended,
        unshuffled,
        ends_shoe,
        _meter(history),
        contents=contents,
    )


def _ends_shoe(
    spec: GameSpec, history: HandHistory, drawn: int | None
) -> str | None:
    """The rule by which a conforming round ends its shoe, if it does."""
    if history.status == "voided":
        return "D29"  # the table takes a new shoe after a void
    if drawn is None and history.status == "over":
        return book_of(spec.section).cover  # the cover card came out
    return None


_CC = "CC"
"""A cover card's token in a stack's text."""

_OUT = -1
"""A card out of the shoe (dealt or burned), in :attr:`RoundEnds.cover`."""
_REACHED = -2
"""The cover card came out (``cover_card_reached``)."""
_FORGOTTEN = -3
"""A shuffle (the marker before it is gone), or a marker whose
``position`` is not a count: where the cover card lies is not known."""
_OTHER = -4
"""A cover card inserted for another purpose than the reshuffle marker
(Midibaccarat's cut card, 629a.5(c), which the cut takes to the
bottom): it changes nothing."""

_COVER_STEPS = frozenset(
    {"cover_card_inserted", "cover_card_reached", "shuffled"}
)
"""The steps besides the cards that say where the cover card lies."""


def _seq(step: Mapping[str, object]) -> int | None:
    """A step's ``seq``, when it is an integer."""
    seq = step.get("seq")
    return seq if type(seq) is int else None


def _cover_step(
    step: Mapping[str, object], seq: int | None
) -> tuple[int, int | None]:
    """The :attr:`RoundEnds.cover` entry of a step of :data:`_COVER_STEPS`."""
    kind = step.get("type")
    if kind == "cover_card_reached":
        return (_REACHED, seq)
    if kind == "shuffled":
        return (_FORGOTTEN, seq)
    if step.get("purpose") != "reshuffle marker":
        return (_OTHER, seq)
    position = whole_number(step.get("position"))  # 402.0 is 402
    if type(position) is int and position >= 0:
        return (position, seq)
    return (_FORGOTTEN, seq)


def _meter(history: HandHistory) -> tuple[int, int] | None:
    """The meter a round began with and left, when both are integers.

    It began with its rules' ``progressive_meter`` and left its last
    ``meter_changed`` step's meter, else the one it began with.
    """
    start = history.rules.get("progressive_meter")
    if type(start) is not int:
        return None
    end: object = start
    for step in history.procedure:
        if step.get("type") == "meter_changed":
            end = step.get("meter")
    return (start, end) if type(end) is int else None


class _Out(NamedTuple):
    """A table's shoe known as dealt: the cards out of it so far (D71)."""

    line: int
    """The line that began the count."""
    out: Counter[str]
    """Each card's times out of the shoe since (its rack's first)."""
    holds: Mapping[str, int] | None
    """The decks the count fitted when last checked (``None``: not yet
    checked): another round against the same decks need only check the
    cards it adds."""


class AcrossRounds:
    """The file's rounds so far: each id's first line, each table's last."""

    def __init__(self) -> None:
        self._lines: dict[str, int] = {}
        self._last: dict[str, _Last] = {}
        self._out: dict[str, _Out] = {}
        """Per table: the line its shoe's count began at, and the cards
        out of the shoe since (``as_dealt`` rounds, D71)."""
        self._covers: dict[str, tuple[int, int, int]] = {}
        """Per table, while its reshuffle cover card's place is known
        (``as_dealt`` rounds, D82): the line that inserted it, the cards
        above it and the cards out of the shoe since."""

    def check(
        self,
        line: int,
        round_id: str,
        deviation: Deviation | None,
        ends: RoundEnds | None,
    ) -> Deviation | None:
        """The round's deviation: its own first, else one across rounds."""
        first = self._lines.setdefault(round_id, line)
        found = deviation
        if found is None and first != line:
            found = Deviation(
                RECORD_REF,
                f"the round id {json_text(round_id)} is already the id of the "
                f"round "
                f"on line {first}; each round's id is unique",
            )
        if ends is None:
            return found
        before = self._last.get(ends.table)
        if found is None and before is not None:
            found = _after(before, ends)
        if found is None:
            found = self._count(line, ends, before)
        if found is None and ends.cover is not None:
            found = self._cover(line, ends)
        elif self._covers:
            # a stacked round (checked against its stack), or one that
            # deviated: where the cover card lies is no longer followed
            self._covers.pop(ends.table, None)
        if found is not None:
            self._out.pop(ends.table, None)
        left = ends.left
        if left is not None and ends.seen is not None and found is None:
            left = _dealt_on(before, ends)
        # (an as-dealt round that deviated leaves a shoe not known, as its
        # count is forgotten: its own racks are not taken on trust)
        self._last[ends.table] = _new_last(
            left,
            line,
            round_id,
            ends.ended,
            ends.ends_shoe,
            None if ends.meter is None else ends.meter[1],
            # what a reshuffle at its end gathered (D98)
            None if ends.ends_shoe in (None, "D29") else ends.contents,
        )
        return found

    def _count(
        self, line: int, ends: RoundEnds, before: _Last | None
    ) -> Deviation | None:
        """Count the cards out of the table's shoe; more than it holds? (D71).

        A round begins the count when it begins a shoe, follows one that
        ended its shoe or is the table's first in the file; a round with
        its stack recorded (linked by :attr:`RoundEnds.found`) or one
        that deviated ends it.
        """
        seen, holds = ends.seen, ends.holds
        if seen is None or holds is None:
            entry = self._out.pop(ends.table, None)
            if entry is None or ends.found is None or before is None:
                return None
            # a stacked round dealing on from as-dealt ones (D86): the
            # cards counted out of the shoe are in the rack it began with
            return _racked(entry, ends.found, ends.ref)
        entry = self._out.get(ends.table)
        if (
            entry is None
            or ends.begins
            or before is None
            or before.ends_shoe is not None
        ):
            # the rack holds cards out of this shoe already
            entry = _Out(line, Counter(ends.racked_before or ()), None)
        count = entry.out
        # a count carried from a round it fitted against the same decks:
        # only the cards this round adds can now be too many
        added: Iterable[str] = seen if entry.holds is holds else count
        count.update(token for token in seen if token != _CC)
        over = sorted(
            {
                (card, count[card])
                for card in added
                if count[card] > holds.get(card, 0)
            }
        )
        if not over:
            self._out[ends.table] = entry._replace(holds=holds)
            return None
        self._out.pop(ends.table, None)
        card, n = over[0]
        return Deviation(
            ends.ref,
            f"{card} has come out of the shoe {n} times since line "
            f"{entry.line} began counting it, but the rules' decks hold "
            f"{holds.get(card, 0)}: a card was added to the shoe between "
            f"the rounds (or a round that began a new shoe does not say so)",
        )

    def _cover(self, line: int, ends: RoundEnds) -> Deviation | None:
        """Follow the table's reshuffle cover card through the round (D82).

        From the step that inserts it, the cards out of the shoe are
        counted; the cover card comes out when the count is the cards
        above it: ``cover_card_reached`` at another count, or a card
        past it with no cover card before it, deviates. A round that
        begins a shoe goes on with the count only when the round before
        left a marker inserted after its reshuffle with no card out since
        (21 Baccarat inserts it in the procedure); its own preparation's
        shuffle or marker come first in :attr:`RoundEnds.cover`.
        """
        table, cover = ends.table, ends.cover
        known = self._covers.pop(table, None)
        if cover is None:
            return None
        if known is not None and ends.begins and known[2] != 0:
            known = None  # a new shoe, and not the one marked before
        for what, seq in cover.steps:
            if what == _OUT:
                if known is None:
                    continue
                start, position, count = known
                count += 1
                if count > position:
                    return Deviation(
                        cover.ref,
                        f"{count} cards have come out of the shoe, but the "
                        f"cover card inserted with {position} above it "
                        f"(line {start}) has not: it comes out before card "
                        f"{position + 1}",
                        seq,
                    )
                known = (start, position, count)
            elif what == _REACHED:
                if known is not None and known[2] != known[1]:
                    return Deviation(
                        cover.ref,
                        f"the cover card came out after {known[2]} cards of "
                        f"the shoe; it was inserted with {known[1]} above it "
                        f"(line {known[0]})",
                        seq,
                    )
                known = None
            elif what == _FORGOTTEN:
                known = None
            elif what >= 0:
                known = (line, what, 0)
        if known is not None:
            self._covers[table] = known
        return None


@dataclass(frozen=True, slots=True)
class _Last:
    """A table's last round: the shoe it left, where it is, when it ended."""

    left: LeftShoe | None
    line: int
    round_id: str
    ended: datetime | None
    ends_shoe: str | None = None
    meter: int | None = None
    gathered: str | None = None
    """The cards its reshuffle gathered (its stack's and rack's texts),
    when it reshuffled its whole shoe with the stack recorded (D98)."""


_new_last = frozen_constructor(_Last)
"""``_Last(...)``, faster (:func:`croupier.frozen.frozen_constructor`)."""


def _regathered(
    ref: str, gathered: str, ends: RoundEnds, where: LazyText
) -> Deviation | None:
    """A new shoe that is not the cards the round before reshuffled."""
    holds = Counter((ends.contents or "").split())
    had = Counter(gathered.split())
    holds.pop(_CC, None)
    had.pop(_CC, None)
    if holds == had:
        return None
    missing, added = had - holds, holds - had
    said = [
        *([f"missing {listed_cards(missing)}"] if missing else []),
        *([f"added {listed_cards(added)}"] if added else []),
    ]
    return Deviation(
        ref,
        f"the round begins the new shoe that {where} made at its "
        f"reshuffle, but its stack and rack are not the cards the "
        f"reshuffle gathered: {'; '.join(said)}",
    )


def _before_text(last: _Last) -> str:
    """How a message names the round before at the table."""
    return (
        f"round {json_text(last.round_id)} (line {last.line}) of the same "
        f"table"
    )


def _after(before: _Last, ends: RoundEnds) -> Deviation | None:
    """What is wrong with a round that follows ``before`` at its table."""
    # written for a message only (the round id as JSON at every round
    # of a log was 1 % of a verified round)
    where = LazyText(partial(_before_text, before))
    left = before.left
    if ends.found is not None and left is not None:
        if left.stack is not None and left.rack is not None:
            if left != ends.found:
                return Deviation(
                    ends.ref,
                    f"the shoe this round began with is not the one {where} "
                    f"left: cards were added, taken out or moved between the "
                    f"rounds, or a round between them is missing from the log",
                )
        elif left.rack is not None and left.rack != ends.found.rack:
            return _other_rack(ends.ref, where)
    elif ends.seen is not None and not ends.begins and left is not None:
        found = _from_top(left, ends, where)
        if found is not None:
            return found
    continues = ends.found is not None or (
        ends.seen is not None and not ends.begins
    )
    if before.ends_shoe is not None and continues:
        why = (
            "was voided: the table takes a new shoe"
            if before.ends_shoe == "D29"
            else "reached the cover card: the shoe ended with it"
        )
        return Deviation(
            before.ends_shoe,
            f"the round deals on from the shoe of {where}, which {why}; "
            f"the next round begins a new shoe",
        )
    if (
        before.meter is not None
        and ends.meter is not None
        and ends.meter[0] != before.meter
    ):
        return Deviation(
            "D23",
            f"the round begins with the progressive meter at "
            f"{ends.meter[0]}, but {where} left it at {before.meter}: the "
            f"meter is the table's, carried from round to round",
        )
    if (
        ends.unshuffled
        and before.gathered is not None
        and ends.contents is not None
        and before.ends_shoe is not None
    ):
        found = _regathered(before.ends_shoe, before.gathered, ends, where)
        if found is not None:
            return found
    if ends.unshuffled and before.left is not None:
        return Deviation(
            ends.ref,
            f"the round begins a new shoe with no shuffle recorded, but "
            f"{where} left its shoe to be dealt on (it did not reach the "
            f"cover card): a new shoe is shuffled before it is dealt",
        )
    # a round's start, or its end when no start is recorded, comes after
    # the table's last round ended
    for said, when in (("began", ends.started), ("ended", ends.ended)):
        if when is not None and before.ended is not None:
            if when < before.ended:
                return Deviation(
                    RECORD_REF,
                    f"the round {said} at {when.isoformat()}, before "
                    f"{where} ended at {before.ended.isoformat()}: a table "
                    f"deals one round at a time, and its rounds are logged "
                    f"in that order",
                )
            break
    return None


def _from_top(
    left: LeftShoe, ends: RoundEnds, where: LazyText
) -> Deviation | None:
    """An ``as_dealt`` round dealing on from a shoe partly known (D86).

    Its cards (and cover cards) out of the shoe are the top of the stack
    the round before left, when that is known, and it begins with the
    rack that round left, when both are known.
    """
    seen = ends.seen or ()
    if left.stack is not None:
        tokens = left.stack.split(" ", len(seen))
        for i, token in enumerate(seen):
            there = tokens[i] if i < len(tokens) and tokens[i] else None
            if token != there:
                what = "the cover card" if token == _CC else token
                return Deviation(
                    ends.ref,
                    f"item {i + 1} out of the shoe is {what}, but the shoe "
                    f"{where} left has {there or 'no card'} there: the cards "
                    f"come from the top of the shoe as it was left",
                )
    if (
        left.rack is not None
        and ends.racked_before is not None
        and " ".join(ends.racked_before) != left.rack
    ):
        return _other_rack(ends.ref, where)
    return None


def _other_rack(ref: str, where: LazyText) -> Deviation:
    """The rack a round began with is not the one the round before left."""
    return Deviation(
        ref,
        f"the discard rack this round began with is not the one {where} "
        f"left: cards were added to it, taken out of it or moved between the "
        f"rounds, or a round between them is missing from the log",
    )


def _racked(entry: _Out, found: LeftShoe, ref: str) -> Deviation | None:
    """Whether the rack a stacked round began with holds the cards out (D86).

    ``entry`` is D71's count of the cards out of the shoe in the as-dealt
    rounds before it (from the line that began counting); a card out of
    the shoe goes to the discard rack and stays there until the shoe is
    reshuffled.
    """
    held = Counter((found.rack or "").split())
    for card, n in sorted(entry.out.items()):
        if n > held[card]:
            return Deviation(
                ref,
                f"{card} has come out of the shoe {n} times since line "
                f"{entry.line} began counting it, but the discard rack this "
                f"round began with holds it {held[card]} times: a card out "
                f"of the shoe stays in the rack until the reshuffle",
            )
    return None


def _dealt_on(before: _Last | None, ends: RoundEnds) -> LeftShoe:
    """What an ``as_dealt`` round that deals on left, as far as known (D86).

    The stack the round before left less the items this round took from
    its top, when that stack is known and this round continues it; the
    rack it began with (recorded, or else the one the round before left)
    and the cards it put there.
    """
    known = (
        None
        if before is None or ends.begins or before.ends_shoe is not None
        else before.left
    )
    stack = None
    if known is not None and known.stack is not None:
        rest = known.stack.split(" ", len(ends.seen or ()))
        stack = rest[-1] if len(rest) > len(ends.seen or ()) else ""
    base: tuple[str, ...] | None = ends.racked_before
    if base is None and known is not None and known.rack is not None:
        base = tuple(known.rack.split())
    rack = None if base is None else " ".join((*base, *ends.put))
    return LeftShoe(stack, rack)
