"""Where each game's rules stand, as the verifier cites them: one a game.

A deviation is cited under the subsection it breaks, and many of those
depend only on the game: where the shuffle, the burn or the reshuffle
cover card is required, which rule says when a hand draws, which one
clears the layout. Each game's are gathered in one :class:`Book`,
keyed by the game's dealing section (``GameSpec.section``; both
Midibaccarats share 629a.5), so that the verifier's modules read one
record and a game added is one entry here. What the verifier does with
them stays in its modules (:mod:`croupier.verify.order` holds the
orders the rule leaves to the dealer, built on :attr:`Book.clearing`).

>>> BOOKS["629a.5"].burn, BOOKS["670a.9"].burn
('629a.5(f)', None)
>>> book_of("681a.7").draws["banker hand"]
'681a.7(g)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["BOOKS", "Book", "book_of"]


def _frozen(**refs: str) -> Mapping[str, str]:
    return MappingProxyType(refs)


_NOTHING: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class Book:
    """One game's subsections, as the verifier cites them."""

    shuffle: str
    """The shuffle before the cards are dealt (a new shoe's, a deck's)."""
    from_the_shoe: str
    """The cards dealt from the top of the stack, in order."""
    clearing: str
    """The cards left on the layout gathered after the settlement."""
    burn: str | None = None
    """The first card of a new shoe burned (shoe games): a log that burns
    where the rule burns no card, or more cards than it requires, breaks
    it, whatever step the rule takes instead (an audit, 2026-12-06: a
    second burned card was cited under the wagering phase's subsection)."""
    cover: str | None = None
    """The reshuffle cover card placed and met (shoe games)."""
    cover_in_preparation: bool = False
    """A new shoe's reshuffle cover card is placed in the next round's
    preparation (21 Baccarat places it inside the round that
    reshuffled, 681a.7(d)(2), where the replay compares it)."""
    prepared_before_play: bool = False
    """A new shoe is shuffled, offered for the cut, cut and marked in
    the round's preparation, never inside a round (Midibaccarat,
    629a.5(a)-(d), D83)."""
    burn_face_free: bool = False
    """The burn goes to the rack face up or down, the rule not saying
    which (591.7(c), 681a.7(c)); Midibaccarat's face is compared."""
    draws: Mapping[str, str] = field(default_factory=lambda: _NOTHING)
    """The rule that says when each hand draws, by the hand's name: a
    card the log deals where the rule deals none breaks it."""
    other_hands_draw: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Announcements of another hand's draw, by hand: a card the log
    deals a hand where the rule announces the other hand's draw breaks
    the first hand's rule (an audit, 2026-12-06: a Player's card on 6
    was cited under the Banker's rule, 631a.11(c)(1))."""
    natural: str | None = None
    """The prefix of the rule of a round with a natural, where it is not
    the drawing rule's (21 Baccarat deals no card but a Bonus-only one
    to a hand under 17, (f)(1), (f)(2))."""
    bonus_only: str | None = None
    """Where a Bonus-only card is dealt and kept out of the main wagers."""
    settlement_order: str | None = None
    """The rule of the settlement order, in a game that announces none
    (21 Baccarat: from the dealer's right, counter-clockwise)."""
    cleared_after: str | None = None
    """The rule that clears the layout only after every wager is settled:
    a log that gathers the cards while a wager remains breaks it."""
    wagers_close: str | None = None
    """Where wagers close, in a game whose round opens no wagering phase
    (pai gow: all but the Double Down before "no more bets")."""
    offered_when: Mapping[str, tuple[str, str]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """Phases a game enters only on a condition: the rule that sets the
    condition, and the condition in words. A log that enters one where
    the rule goes on to another breaks that rule (an audit, 2026-12-05:
    insurance offered on a king was cited under the card reader's
    check, (h))."""


BOOKS: Mapping[str, Book] = MappingProxyType(
    {
        # Double Back Jack (591.7, now 673a.7)
        "591.7": Book(
            shuffle="591.7(a)",
            from_the_shoe="591.7(a)",
            clearing="591.7(u)",
            burn="591.7(c)",
            cover="591.7(d)",
            cover_in_preparation=True,
            burn_face_free=True,
            draws=_frozen(dealer="591.7(o)"),
            offered_when=MappingProxyType(
                {
                    "insurance": (
                        "591.7(g)",
                        "insurance is offered when the dealer's first "
                        "card is an ace",
                    ),
                    "second_chance": (
                        "591.7(l)",
                        "a Second Chance Wager is offered to a hand over "
                        "21 once its drawing is done, where the rules' "
                        "options allow it",
                    ),
                }
            ),
        ),
        # 21 Baccarat
        "681a.7": Book(
            shuffle="681a.7(a)",
            from_the_shoe="681a.7(a)",
            clearing="681a.7(l)",
            burn="681a.7(c)",
            cover="681a.7(d)",
            burn_face_free=True,
            draws=_frozen(
                **{"player hand": "681a.7(g)", "banker hand": "681a.7(g)"}
            ),
            natural="681a.7(f)",
            bonus_only="681a.7(f)(2)",
            settlement_order="681a.7(h)",
            cleared_after="681a.7(l)",
        ),
        # Midibaccarat and commission-free Midibaccarat
        "629a.5": Book(
            shuffle="629a.5(a)",
            from_the_shoe="629a.8(c)",
            clearing="629a.11",
            burn="629a.5(f)",
            cover="629a.5(d)",
            cover_in_preparation=True,
            prepared_before_play=True,
            draws=_frozen(player="629a.10", banker="629a.10"),
            other_hands_draw=MappingProxyType(
                {"player": frozenset({"631a.11(c)(1)", "631a.11(c)(2)"})}
            ),
        ),
        # Six-Card Fortune Pai Gow Poker
        "670a.9": Book(
            shuffle="670a.9(a)(1)",
            from_the_shoe="670a.9(c)",
            clearing="670a.11",
            wagers_close="670a.7(c)",
        ),
    }
)
"""Each game's book, by its dealing section."""


def book_of(section: str) -> Book:
    """The book of the game dealt under ``section`` (``GameSpec.section``)."""
    return BOOKS[section]
