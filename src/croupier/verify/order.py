"""Steps whose order the rule leaves to the dealer (D95).

The engine settles and clears the layout in one order, and a log is
compared with it step by step. Where the rule fixes only part of that
order, a log in another order the rule allows conforms: a run of steps
that the rule lets the dealer take in any order (a *block*) is compared
as a whole, not step by step. An outside writer's honest rounds were
refused (2026-12-05) for two such orders:

- 21 Baccarat settles the Player and Banker Wagers from the dealer's
  right, counter-clockwise (681a.7(h)); the Tie and Bonus Wagers are
  settled as (k) says, with no order. In the run of settlements (with
  the announcements of the Bonus hands, (k)), the Player and Banker
  ones keep the engine's order among themselves; a Tie or Bonus
  settlement, or a Bonus announcement, may stand anywhere in the run.
- The cards left on the layout go to the discard rack "in a manner that
  permits the reconstruction of each hand" (591.7(u), 681a.7(l)): any
  order of the hands, each hand's cards as the engine placed them.

- Midibaccarat (and its commission-free form) settles in an order the
  text at hand does not give (629a.11, where the project has no text;
  the engine's order, from the dealer's right, is ASSUMED): a run of
  settlements may be in any order, as may the two hands' cards gathered
  after them (D163). A log that collects every losing wager before it
  pays a winning one, as many casinos do, conforms. Six-Card Fortune
  pai gow's hands gathered after the settlement likewise (670a.11).
- Six-Card Fortune pai gow exposes, compares and settles in an order
  the text at hand does not give either (670a.11; the engine's, the
  dealer's hand and then seat by seat from the dealer's right, is
  ASSUMED): the run from the dealer's first card exposed to the last
  settlement may be in any order in which nothing is read before it
  is on the table (D175). The dealer's hand is set after its six cards
  are shown; a seat's hands are compared after its own cards are
  shown and the dealer's hand is set; its Six-Card and Double Down
  Wagers are settled after that comparison; an Envy Bonus is paid on a
  hand already shown, before the Fortune Bonus Wager that carries it
  is settled; a Fortune Bonus or Progressive Wager after the seat's
  cards are shown. The progressive meter's steps and the Progressive
  Wagers keep the engine's order among themselves (each payout reads
  the meter the one before left).

Double Back Jack's settlements are not a block: 591.7(q)(2) settles the
hands from the dealer's right, counter-clockwise, and (t) then fixes
collection before payment, so the engine's order is the rule's.

A block conforms when the log's steps there are the engine's steps in
another order the rule allows, each numbered by its place in the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import orjson

from croupier.procedures.ch670a import position_label
from croupier.registry import GameSpec

from .book import book_of

__all__ = ["free_block_end", "misplaced_in_block", "settlements_reordered"]

Step = Mapping[str, Any]

_SIDE_WAGERS = frozenset({"tie", "bonus_player", "bonus_banker"})
"""21 Baccarat's wagers that (k) settles, in no order it names."""


def _side(row: Step) -> bool:
    """A Tie or Bonus settlement row (a record's, which has no type)."""
    return row.get("wager") in _SIDE_WAGERS


def _collected(section: str) -> Callable[[Step], bool]:
    """Steps gathering the layout's cards under the game's clearing rule."""
    ref = book_of(section).clearing
    return lambda s: s.get("type") == "cards_collected" and s.get("ref") == ref


def _anywhere(step: Step) -> bool:
    del step
    return True


def _settling_21(step: Step) -> bool:
    """A 21 Baccarat settlement, or a Tie or Bonus announcement ((k))."""
    kind = step.get("type")
    if kind == "wager_settled":
        return str(step.get("ref")).startswith("681a.7(")
    return kind == "announced" and str(step.get("ref")).startswith("681a.7(k)")


def _settling(step: Step) -> bool:
    """A settlement (Midibaccarat's, whose order no text at hand fixes)."""
    return step.get("type") == "wager_settled"


def _not_player_or_banker(step: Step) -> bool:
    """Free in the run: all but the Player and Banker settlements ((h))."""
    return step.get("type") != "wager_settled" or _side(step)


_PAI_GOW_SETTLING = frozenset(
    {
        "card_exposed",
        "hands_compared",
        "wager_settled",
        "envy_bonus_paid",
        "meter_changed",
    }
)
"""The steps of pai gow's settlement run, with the dealer's hand set."""


def _settling_670a(step: Step) -> bool:
    """A step of pai gow's exposures, comparisons and settlements."""
    if step.get("ref") != "670a.11":
        return False
    kind = step.get("type")
    if kind == "hand_set":
        return step.get("to") == "dealer"
    return kind in _PAI_GOW_SETTLING


def _not_meter(step: Step) -> bool:
    """Free in pai gow's run: all but the meter and Progressive Wagers."""
    return step.get("type") != "meter_changed" and (
        step.get("wager") != "progressive"
    )


def _shown_before_read(engine: Sequence[Step], log: Sequence[Step]) -> bool:
    """Whether the log reads no hand before it is on the table (D175).

    ``log`` holds ``engine``'s steps (checked before). A hand is shown
    when all the cards the engine exposes for it are; each step needs
    what it reads shown or done first.
    """
    cards = Counter(s["to"] for s in engine if s["type"] == "card_exposed")
    envy = Counter(s["seat"] for s in engine if s["type"] == "envy_bonus_paid")
    shown: Counter[str] = Counter()
    envied: Counter[int] = Counter()
    compared: set[int] = set()
    dealer_set = False

    def whole(label: str) -> bool:
        return shown[label] == cards[label]

    for step in log:
        kind = step["type"]
        if kind == "card_exposed":
            shown[step["to"]] += 1
            continue
        if kind == "meter_changed":
            continue
        if kind == "hand_set":
            dealer_set = whole("dealer")
            if not dealer_set:
                return False
            continue
        seat = step["seat"]
        if kind == "hands_compared":
            ready = dealer_set and whole(position_label(seat))
            compared.add(seat)
        elif kind == "envy_bonus_paid":
            ready = whole(step["source"])
            envied[seat] += 1
        elif step["wager"] in ("pai_gow", "double_down"):
            ready = seat in compared
        else:
            ready = whole(position_label(seat)) and (
                step["wager"] != "fortune_bonus" or envied[seat] == envy[seat]
            )
        if not ready:
            return False
    return True


class _Kind(NamedTuple):
    """A block of steps whose order is (in part) the dealer's.

    Which steps belong to it, which of them may stand anywhere in it
    (the others keep the engine's order among themselves), and what
    else the log's order must meet, if anything (given the engine's
    block and the log's, the same steps).
    """

    member: Callable[[Step], bool]
    free: Callable[[Step], bool]
    needs: Callable[[Sequence[Step], Sequence[Step]], bool] | None = None


_BLOCKS: Mapping[str, tuple[_Kind, ...]] = {
    "591.7": (_Kind(_collected("591.7"), _anywhere),),
    "681a.7": (
        _Kind(_collected("681a.7"), _anywhere),
        _Kind(_settling_21, _not_player_or_banker),
    ),
    # both Midibaccarats (D163)
    "629a.5": (
        _Kind(_collected("629a.5"), _anywhere),
        _Kind(_settling, _anywhere),
    ),
    # the hands gathered after the settlement (D163), and the
    # exposures, comparisons and settlements before (D175)
    "670a.9": (
        _Kind(_collected("670a.9"), _anywhere),
        _Kind(_settling_670a, _not_meter, _shown_before_read),
    ),
}
"""The blocks of each game: by section, the kinds of run whose order the
rule leaves (in part) to the dealer."""


def _kind_of(spec: GameSpec, step: Step) -> _Kind | None:
    for kind in _BLOCKS.get(spec.section, ()):
        if kind.member(step):
            return kind
    return None


def _key(step: Step) -> bytes:
    """A step but its number, as one comparable value (types included)."""
    return orjson.dumps(
        {k: v for k, v in step.items() if k != "seq"},
        option=orjson.OPT_SORT_KEYS,
    )


def _same_order_allowed(
    engine: Sequence[Step], log: Sequence[Step], free: Callable[[Step], bool]
) -> bool:
    """Whether ``log`` is ``engine`` in an order the block allows."""
    try:
        mine = [_key(s) for s in engine]
        theirs = [_key(s) for s in log]
    except (TypeError, orjson.JSONEncodeError):
        return False
    if Counter(mine) != Counter(theirs):
        return False
    fixed = [k for k, s in zip(mine, engine, strict=True) if not free(s)]
    kept = [k for k, s in zip(theirs, log, strict=True) if not free(s)]
    return fixed == kept


def free_block_end(
    spec: GameSpec,
    engine: Sequence[Step],
    log: Sequence[Step],
    i: int,
) -> int | None:
    """Where the block holding step ``i`` ends, when the log's is allowed.

    ``engine[i]`` and ``log[i]`` differ, the steps before are equal.
    When ``engine[i]`` lies in a block of its game and the log's steps
    over the block's places are the engine's in an order the rule
    allows, each numbered by its place in the log, returns the index
    after the block (the comparison goes on from there); else ``None``.
    """
    kind = _kind_of(spec, engine[i])
    places = _block(spec, engine, i)
    if kind is None or places is None:
        return None
    start, end = places.start, places.stop
    if end > len(log):
        return None
    theirs = log[start:end]
    if any(
        s.get("seq") != e.get("seq")
        for s, e in zip(theirs, engine[start:end], strict=True)
    ):
        return None
    if not _same_order_allowed(engine[start:end], theirs, kind.free):
        return None
    if kind.needs is not None and not kind.needs(engine[start:end], theirs):
        return None
    return end


def _block(spec: GameSpec, engine: Sequence[Step], i: int) -> range | None:
    """The places of the block holding the engine's step ``i``, if any."""
    kind = _kind_of(spec, engine[i])
    if kind is None:
        return None
    start = i
    while start > 0 and _kind_of(spec, engine[start - 1]) == kind:
        start -= 1
    end = i + 1
    while end < len(engine) and _kind_of(spec, engine[end]) == kind:
        end += 1
    return range(start, end)


def _identity(step: Step) -> tuple[object, ...]:
    """What a step of a block is about.

    A seat's wager, a hand's Bonus, a position's card or hand, a seat's
    comparison or Envy Bonus.
    """
    kind = step.get("type")
    if kind == "wager_settled":
        return (kind, step.get("seat"), step.get("wager"), step.get("hand"))
    if kind in ("card_exposed", "hand_set"):
        return (kind, step.get("to"))
    if kind == "hands_compared":
        return (kind, step.get("seat"))
    if kind == "envy_bonus_paid":
        return (kind, step.get("seat"), step.get("source"))
    return (kind, step.get("ref"), step.get("source"))


def misplaced_in_block(
    spec: GameSpec,
    engine: Sequence[Step],
    log: Sequence[Step],
    i: int,
) -> tuple[int, list[Step]] | None:
    """The log's first step of a block that the engine's block lacks.

    ``engine[i]`` and ``log[i]`` differ, the block holding ``engine[i]``
    is not the engine's in an order the rule allows
    (:func:`free_block_end` said no). In a block taken in another order
    (a Tie settled before a Bonus, D95), the steps that differ by place
    are not the one that is wrong: the first of the log's steps there
    that the engine's block has nowhere is (a Tie paid at other odds),
    and it is compared with the engine's step about the same thing (that
    seat's Tie). Returns its index and the engine's steps with that step
    moved to it, or ``None`` when there is none (the steps are the
    engine's, in an order the rule does not allow, or the log's step is
    about nothing the block holds).
    """
    places = _block(spec, engine, i)
    if places is None:
        return None
    try:
        left = Counter(_key(engine[j]) for j in places)
        for k in range(places.start, min(places.stop, len(log))):
            key = _key(log[k])
            if left[key] > 0:
                left[key] -= 1
                continue
            same = _identity(log[k])
            j = next(
                (
                    j
                    for j in places
                    if _identity(engine[j]) == same
                    and left[_key(engine[j])] > 0
                ),
                None,
            )
            if j is None or j == k:
                return None
            view = list(engine)
            view[k], view[j] = view[j], view[k]
            return k, view
    except (TypeError, orjson.JSONEncodeError):
        return None
    return None


_RECORD_FREE: Mapping[str, Callable[[Step], bool]] = {
    "681a.7": _side,
    "629a.5": _anywhere,
    "670a.9": _not_meter,
}
"""The record's settlement rows free to stand anywhere, by game."""


def settlements_reordered(
    spec: GameSpec, engine: Sequence[Step], record: Sequence[Step]
) -> bool:
    """Whether the record's settlements are the engine's in an allowed order.

    The record lists the settlements in the dealer's order; where the
    rule leaves part of it free (21 Baccarat's Tie and Bonus Wagers),
    another order of the same rows conforms, the others kept in order;
    Midibaccarat's rows may be in any order (D163), pai gow's too but
    for its Progressive Wagers' (D175).
    """
    free = _RECORD_FREE.get(spec.section)
    if free is None or len(engine) != len(record):
        return False
    return _same_order_allowed(engine, record, free)
