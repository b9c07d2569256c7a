"""Plain-language narration of events, each with its § reference.

Used by the terminal game, the demonstration, ``croupier replay`` and the
web table. The narration is built from the event's own fields and this
project's one-line summary of the subsection cited.

>>> from croupier.cards import Card
>>> from croupier.events import CardDealt, EventLog
>>> log = EventLog()
>>> e = log.emit(CardDealt, ref=Ref.parse("591.7(e)(2)"), to="dealer",
...              card=Card.parse("Kd"))
>>> narrate(e)
'§ 591.7(e)(2)  Kd dealt face up to dealer'
"""

from __future__ import annotations

from croupier.events import (
    Announced,
    CardBurned,
    CardDealt,
    CardExposed,
    CardsCollected,
    CoverCardInserted,
    CoverCardReached,
    CutOffered,
    DecisionMade,
    Event,
    PhaseEntered,
    RoundVoided,
    Shuffled,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
)
from croupier.regs import SEED_SUBSECTIONS, Ref

__all__ = ["describe", "narrate", "summary_of"]


def _money(amount: int) -> str:
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{whole}.{cents:02d}"


def summary_of(ref: Ref) -> str:
    """Our one-line summary of the lettered subsection, if it is a seed."""
    return SEED_SUBSECTIONS.get(ref.lettered, "")


def describe(event: Event, *, hide_face_down: bool = False) -> str:
    """What happened, in words, without the reference.

    With ``hide_face_down`` a face-down card is not named (for players).
    """
    if isinstance(event, CardDealt):
        face = "face up" if event.face_up else "face down"
        card = "a card" if hide_face_down and not event.face_up else event.card
        hand = f" (hand {event.hand + 1})" if event.hand else ""
        purpose = f" [{event.purpose}]" if event.purpose else ""
        return f"{card} dealt {face} to {event.to}{hand}{purpose}"
    if isinstance(event, CardBurned):
        shown = event.face_up or not hide_face_down
        card = str(event.card) if shown else "a card"
        how = "exposed and burned" if event.face_up else "burned"
        return f"{card} {how}"
    if isinstance(event, CardExposed):
        return f"{event.to}'s card turned: {event.card}"
    if isinstance(event, CardsCollected):
        if hide_face_down and not event.exposed:
            return f"{len(event.cards)} cards from {event.source} to the rack"
        cards = " ".join(str(c) for c in event.cards) or "no cards"
        return f"{event.source} cards to the discard rack: {cards}"
    if isinstance(event, WagerPlaced):
        return (
            f"seat {event.seat} wagers {_money(event.amount)} on {event.wager}"
        )
    if isinstance(event, WagerChanged):
        if not event.amount:
            return f"seat {event.seat} takes back the {event.wager} wager"
        return (
            f"seat {event.seat} changes the {event.wager} wager from "
            f"{_money(event.previous)} to {_money(event.amount)}"
        )
    if isinstance(event, WagerSettled):
        hand = f" hand {event.hand + 1}" if event.hand else ""
        return (
            f"seat {event.seat} {event.wager}{hand} {event.outcome}: "
            f"net {_money(event.net)}"
        )
    if isinstance(event, DecisionMade):
        amount = f" {_money(event.amount)}" if event.amount else ""
        detail = f" ({event.detail})" if event.detail else ""
        return f"seat {event.seat} decides: {event.action}{amount}{detail}"
    if isinstance(event, Announced):
        return f"dealer announces: {event.text}"
    if isinstance(event, CoverCardReached):
        return "cover card reached: set aside; reshuffle after this round"
    if isinstance(event, CoverCardInserted):
        return f"cover card ({event.purpose}) placed at {event.position}"
    if isinstance(event, CutOffered):
        verb = "accepts" if event.accepted else "declines"
        return f"cut offered to {event.to}, who {verb}"
    if isinstance(event, Shuffled):
        return f"{event.cards} cards shuffled ({event.source})"
    if isinstance(event, PhaseEntered):
        return f"phase: {event.phase}"
    if isinstance(event, RoundVoided):
        return f"round void: {event.reason}"
    fields = {
        k: v
        for k, v in event.to_dict().items()
        if k not in ("seq", "ref", "type")
    }
    what = event.type_name.replace("_", " ")
    details = ", ".join(f"{k} {v}" for k, v in fields.items())
    return f"{what}: {details}" if details else what


def narrate(event: Event, *, hide_face_down: bool = False) -> str:
    """``§ ref  description`` for one event."""
    text = describe(event, hide_face_down=hide_face_down)
    return f"§ {event.ref}  {text}"
