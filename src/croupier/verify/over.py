"""A decision or card for a Double Back Jack hand whose play is over.

The engine asks a hand for decisions, and deals it cards, only while it
plays; a log that has one where the engine waits for nothing from that
hand breaks the rule that ended the hand's play, not whatever step the
engine had next. The hand's state is read from the steps before (the
engine's and the log's, which agree up to there): a surrender ends it
(673a.9), a double gives it one card only (591.7(k)(2)), its Second
Chance card leaves it over, on or under 21 ((l)(1)-(3): under 21 it
draws no more and waits for the dealer under (n)), a Blackjack is paid
at once (f), a hand of 21 or more draws no more ((k)(1): the engine's
own refusal of a hit on such a hand), and a hand that stood has made
its last decision (i). A busted hand still offered its Second Chance
is waiting for that decision: the engine's refusal there is the rule.
Insurance is the box's decision, not the hand's, and is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier.cards import Card
from croupier.games.double_back_jack.refs import (
    REF_DECISIONS,
    REF_DOUBLE_CARD,
    REF_HIT_BELOW_21,
    REF_PLAYER_BLACKJACK,
    REF_SECOND_CHANCE,
    REF_SECOND_CHANCE_21,
    REF_SECOND_CHANCE_BUST,
    REF_SECOND_CHANCE_STANDS,
    REF_SURRENDER,
)
from croupier.hands.blackjack import (
    blackjack_total,
    is_blackjack,
    second_chance_total,
)

__all__ = ["play_over"]

Step = Mapping[str, Any]

_SECTION = "591.7"
"""The game whose hands are followed (Double Back Jack)."""

_BOX_DECISIONS = frozenset({"insurance", "no_insurance"})
"""Decisions of the box, not of one of its hands."""

_TWENTY_ONE = 21


@dataclass(slots=True)
class _Hand:
    """What the steps so far show of one hand."""

    cards: list[Card] = field(default_factory=list)
    split: bool = False
    owed: bool = False
    """A hit, double or Second Chance is waiting for its card."""
    doubled: bool = False
    stood: bool = False
    surrendered: bool = False
    offered: bool = False
    """A Second Chance was offered (announced) to it."""
    declined: bool = False
    second_chance: Card | None = None
    settled: str | None = None
    """The subsection its Blackjack Wager was first settled under."""


def _label(seat: object, hand: int) -> str:
    """How the engine names a hand (``seat 1``, ``seat 1 hand 2``)."""
    return f"seat {seat}" + (f" hand {hand + 1}" if hand else "")


def _hands(steps: Sequence[Step], seat: object) -> dict[int, _Hand]:
    """The hands of box ``seat`` as the steps leave them."""
    hands: dict[int, _Hand] = {}
    box = f"seat {seat}"
    for step in steps:
        kind = step.get("type")
        index = step.get("hand") or 0
        if (
            kind == "card_dealt"
            and str(step.get("to")).split(" hand ")[0] == box
            and isinstance(index, int)
        ):
            hand = hands.setdefault(index, _Hand())
            card = Card.parse(str(step["card"]))
            if step.get("purpose") == "second chance":
                hand.second_chance = card
            else:
                hand.cards.append(card)
            hand.owed = False
        elif kind == "decision_made" and step.get("seat") == seat:
            _decided(hands, str(step.get("action")), index)
        elif (
            kind == "announced"
            and str(step.get("ref")) == str(REF_SECOND_CHANCE)
            and str(step.get("text", "")).startswith(box)
        ):
            for number, hand in hands.items():
                if str(step["text"]).startswith(f"{_label(seat, number)} has"):
                    hand.offered = True
        elif (
            kind == "wager_settled"
            and step.get("seat") == seat
            and step.get("wager") == "blackjack"
            and index in hands
            and hands[index].settled is None
        ):
            hands[index].settled = str(step.get("ref"))
    return hands


def _decided(hands: dict[int, _Hand], action: str, index: object) -> None:
    """Note a hand's decision."""
    if action in _BOX_DECISIONS or not isinstance(index, int):
        return
    hand = hands.setdefault(index, _Hand())
    if action == "split" and hand.cards:
        # the pair's second card begins the box's next hand
        hand.split = True
        hands[len(hands)] = _Hand(cards=[hand.cards.pop()], split=True)
    elif action in ("hit", "double", "second_chance"):
        hand.owed = True
        hand.doubled = hand.doubled or action == "double"
    elif action == "no_second_chance":
        hand.declined = True
    elif action == "stand":
        hand.stood = True
    elif action == "surrender":
        hand.surrendered = True


def _why(label: str, hand: _Hand) -> tuple[str, str] | None:
    """The rule that ended ``hand``'s play, and why; ``None``: it plays."""
    if not hand.cards or hand.owed:
        return None
    if hand.surrendered:
        return str(REF_SURRENDER), f"{label} surrendered"
    if hand.doubled:
        return (
            str(REF_DOUBLE_CARD),
            f"{label} doubled down and has had its one card",
        )
    if hand.second_chance is not None:
        total = second_chance_total(hand.cards, hand.second_chance)
        ref = (
            REF_SECOND_CHANCE_BUST
            if total > _TWENTY_ONE
            else REF_SECOND_CHANCE_21
            if total == _TWENTY_ONE
            else REF_SECOND_CHANCE_STANDS
        )
        return (
            str(ref),
            f"{label}'s Second Chance card left it on {total}: it draws "
            f"no more",
        )
    if not hand.split and is_blackjack(hand.cards):
        return str(REF_PLAYER_BLACKJACK), f"{label} has a Blackjack"
    total = blackjack_total(hand.cards).value
    if total >= _TWENTY_ONE:
        if total > _TWENTY_ONE and hand.offered and not hand.declined:
            return None  # its Second Chance decision is still to come
        return str(REF_HIT_BELOW_21), f"{label} has {total}: it draws no more"
    if hand.stood:
        return str(REF_DECISIONS), f"{label} stood"
    if hand.settled is not None:
        return hand.settled, f"{label} was settled under {hand.settled}"
    return None


def play_over(
    section: str, steps: Sequence[Step], want: Step
) -> tuple[str, str] | None:
    """Whether ``want`` decides for, or deals to, a hand whose play is over.

    Returns the subsection that ended the hand's play and what ended it,
    read from ``steps`` (those before ``want``); ``None`` when ``want``
    is no such step.

    >>> steps = [
    ...     {"type": "card_dealt", "to": "seat 1", "card": c, "hand": 0}
    ...     for c in ("5h", "6d")
    ... ] + [
    ...     {"type": "decision_made", "seat": 1, "action": "double",
    ...      "hand": 0},
    ...     {"type": "card_dealt", "to": "seat 1", "card": "2s", "hand": 0,
    ...      "purpose": "double"},
    ... ]
    >>> hit = {"type": "decision_made", "seat": 1, "action": "hit", "hand": 0}
    >>> play_over("591.7", steps, hit)
    ('591.7(k)(2)', 'seat 1 doubled down and has had its one card')
    >>> play_over("591.7", steps[:3], hit) is None  # its card is owed
    True
    """
    if section != _SECTION:
        return None
    kind = want.get("type")
    index = want.get("hand") or 0
    if not isinstance(index, int):
        return None
    if kind == "decision_made":
        if str(want.get("action")) in _BOX_DECISIONS:
            return None
        seat = want.get("seat")
    elif kind == "card_dealt":
        box = str(want.get("to")).split(" hand ")[0]
        number = box.removeprefix("seat ")
        if number == box or not number.isdigit():
            return None
        seat = int(number)
    else:
        return None
    hand = _hands(steps, seat).get(index)
    return None if hand is None else _why(_label(seat, index), hand)
