"""Shoe, burn and cover-card steps shared by 591.7 and 681a.7 (a)-(d).

Double Back Jack (591.7, now 673a.7) and 21 Baccarat (681a.7) word their
subsections (a)-(d) identically; the functions here take the section so
that each game's events cite its own chapter, from :data:`SHOE_REFS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from croupier.errors import ShoeError
from croupier.events import (
    CardBurned,
    CardsCollected,
    CoverCardInserted,
    Event,
    EventLog,
    Shuffled,
)
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.shoe import Shoe

__all__ = [
    "SHOE_REFS",
    "ShoeRefs",
    "burn_for_new_batch",
    "burn_for_new_dealer",
    "collect_and_reshuffle",
    "cover_card_position",
    "insert_cover_card_at_penetration",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRefs:
    """The subsections of one dealing section's shoe steps."""

    load: Ref
    """(a): the stack placed in the shoe, its cover card with it."""
    burn: Ref
    """(c): one card burned per batch and per new dealer."""
    collect: Ref
    """(d)(1): the cards left in the shoe go to the discard rack."""
    reshuffle: Ref
    """(d)(2): the whole stack is reshuffled."""


SHOE_REFS: dict[str, ShoeRefs] = {
    "591.7": ShoeRefs(
        load=Ref.parse("591.7(a)"),
        burn=Ref.parse("591.7(c)"),
        collect=Ref.parse("591.7(d)(1)"),
        reshuffle=Ref.parse("591.7(d)(2)"),
    ),
    "681a.7": ShoeRefs(
        load=Ref.parse("681a.7(a)"),
        burn=Ref.parse("681a.7(c)"),
        collect=Ref.parse("681a.7(d)(1)"),
        reshuffle=Ref.parse("681a.7(d)(2)"),
    ),
}
"""The shoe steps' citations of each section worded this way."""


@implements("591.7(c)", "681a.7(c)")
def burn_for_new_batch(
    shoe: Shoe,
    log: EventLog,
    section: str,
    on_cover_card: Callable[[], None] | None = None,
) -> Event:
    """Burn the first card after a full batch is placed in the shoe.

    A cover card on top is set aside through ``on_cover_card`` (591.7(d)).
    """
    (card,) = shoe.burn(1, on_cover_card)
    return log.emit(CardBurned, ref=SHOE_REFS[section].burn, card=card)


@implements("591.7(c)", "681a.7(c)")
def burn_for_new_dealer(
    shoe: Shoe,
    log: EventLog,
    section: str,
    on_cover_card: Callable[[], None] | None = None,
) -> Event:
    """Burn one card when a new dealer comes to the table."""
    (card,) = shoe.burn(1, on_cover_card)
    return log.emit(CardBurned, ref=SHOE_REFS[section].burn, card=card)


def cover_card_position(cards: int, penetration: Fraction) -> int:
    """How many of ``cards`` lie above a cover card cut at ``penetration``.

    The share rounded down: the rest lie behind it (D69, D76).

    >>> cover_card_position(52, Fraction(19, 20))
    49
    """
    return int(cards * penetration)


@implements("591.7(a)", "681a.7(a)")
def insert_cover_card_at_penetration(
    shoe: Shoe, log: EventLog, section: str, penetration: Fraction
) -> Event:
    """Place the cover card after ``penetration`` of the stack.

    The regulation leaves the position to the casino; the fraction is a
    Rules Submission option (D8).
    """
    if not 0 < penetration < 1:
        msg = f"penetration must lie strictly between 0 and 1: {penetration}"
        raise ShoeError(msg, ref=SHOE_REFS[section].load)
    position = cover_card_position(len(shoe), penetration)
    shoe.insert_cover_card(position)
    return log.emit(
        CoverCardInserted,
        ref=SHOE_REFS[section].load,
        position=position,
        purpose="reshuffle marker",
    )


@implements("591.7(d)", "681a.7(d)")
def collect_and_reshuffle(
    shoe: Shoe, log: EventLog, section: str, rng: Rng
) -> list[Event]:
    """After a cover-card round: cards to the rack, then reshuffle.

    (d)(1) the cards left in the shoe go to the discard rack so none is
    missing; (d)(2) the whole stack is shuffled.
    """
    remaining = shoe.cards_in_stack()
    shoe.stack = []
    shoe.discard_cards(remaining)
    events: list[Event] = [
        log.emit(
            CardsCollected,
            ref=SHOE_REFS[section].collect,
            source="shoe",
            cards=tuple(remaining),
            exposed=False,
        )
    ]
    shoe.gather()
    shoe.shuffle(rng)
    described = rng.describe()
    seed = described.get("seed")
    events.append(
        log.emit(
            Shuffled,
            ref=SHOE_REFS[section].reshuffle,
            source=str(described["kind"]),
            cards=len(shoe),
            seed=seed if isinstance(seed, int) else None,
        )
    )
    return events
