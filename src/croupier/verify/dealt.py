"""A shoe known only as dealt, followed from round to round (D71, D192).

A round recorded ``as_dealt`` (no stack: a shoe still in play when the
log was exported, D188) is replayed on a shoe rebuilt from what the
round shows: its cards in the order they came out, then cards of the
rules' decks that are not known (not shown, not in the discard rack).
A round that does not reach the cover card uses only the cards it
shows; a few more are enough for a replay that departs from the log
(a card the dealer was not entitled to), as for a recorded stack
(:data:`croupier.verify.replay._MARGIN`).

What costs is the rack: hundreds of cards late in a shoe, counted
against the decks at every round (a card shown more often than the
decks hold it is refused, issue 17 point 4). A day's log deals round
after round from one shoe, each round's rack the one before plus the
cards that round put there, so the last rack's count is carried and
corrected by the cards added (:func:`rack_of`), as
:func:`croupier.verify.replay._held` does for a recorded stack (D54).
Either way the answer is that of exactly this round's texts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from croupier.cards import Card
from croupier.rules import GameRules
from croupier.shoe import StackItem

__all__ = ["Rack", "rack_of", "unknown_top"]


@dataclass(frozen=True, slots=True)
class Rack:
    """A discard rack's cards and what they leave of the rules' decks."""

    rules: GameRules
    """The rules whose decks :attr:`left` counts from (by identity)."""
    text: str
    """The rack as the record writes it."""
    cards: tuple[Card, ...]
    """Its cards in order (cover cards left out)."""
    left: tuple[int, ...]
    """The decks' count of each card code less the rack's: below zero
    where the rack holds a card more often than the decks."""
    within: bool
    """Whether no count of :attr:`left` is below zero."""


_LAST: list[Rack] = []
"""The last rack counted (one entry): the next round of the same shoe
begins with it and the cards that round before put there."""


def rack_of(
    rules: GameRules,
    decks: Sequence[int],
    text: str,
    parse: Callable[[str], list[StackItem]],
) -> Rack:
    """The rack written ``text``, counted against ``decks`` (count by code).

    When the last rack counted was under the same rules and ``text``
    begins with its text, up to a space, only the cards after it are
    parsed and taken off its count; otherwise the whole text is.
    ``parse`` reads a text's cards (the replay's cached parser): a
    token it cannot read raises as it would reading the whole rack, the
    part before having been read already.

    >>> from croupier.games.midibaccarat.rules import MidibaccaratRules
    >>> from croupier.cards import CARD_TEXTS
    >>> from croupier.verify.replay import _cards
    >>> rules, one_deck = MidibaccaratRules(), [1] * 52 + [0]
    >>> first = rack_of(rules, one_deck, "As Kd", _cards)
    >>> later = rack_of(rules, one_deck, "As Kd As", _cards)
    >>> [CARD_TEXTS[c.code] for c in later.cards], later.within
    (['As', 'Kd', 'As'], False)
    >>> later.left[Card.parse("As").code], first.within
    (-1, True)
    """
    last = _LAST[0] if _LAST else None
    if last is not None and last.rules is rules:
        kept = len(last.text)
        if text.startswith(last.text) and (
            kept in (0, len(text)) or text[kept] == " "
        ):
            added = [c for c in parse(text[kept:]) if isinstance(c, Card)]
            left = list(last.left)
            for card in added:
                left[card.code] -= 1
            within = last.within and all(left[c.code] >= 0 for c in added)
            rack = Rack(
                rules, text, last.cards + tuple(added), tuple(left), within
            )
            _LAST[:] = [rack]
            return rack
    cards = tuple(c for c in parse(text) if isinstance(c, Card))
    left = list(decks)
    for card in cards:
        left[card.code] -= 1
    rack = Rack(rules, text, cards, tuple(left), min(left, default=0) >= 0)
    _LAST[:] = [rack]
    return rack


def unknown_top(
    rack: Rack, shown: Sequence[Card], count: int
) -> tuple[list[Card], bool]:
    """The first ``count`` cards of the decks not known, in code order.

    Not known: neither in ``rack`` nor ``shown`` (the round's cards out
    of the shoe). Also whether the rack and the shown cards together
    hold no card more often than the decks (the whole shoe's check).
    The same list as the first ``count`` of ``sorted((decks - rack -
    shown).elements())``, counted by code (the sort compared cards in
    Python); a card known more often than the decks hold it takes none
    away from another.

    >>> from croupier.games.midibaccarat.rules import MidibaccaratRules
    >>> from croupier.verify.replay import _cards
    >>> deck = [1] * 52 + [0]
    >>> rack = rack_of(MidibaccaratRules(), deck, "2c 2d", _cards)
    >>> top, within = unknown_top(rack, [Card.parse("2h")], 3)
    >>> [str(c) for c in top], within
    (['2s', '3c', '3d'], True)
    """
    left = list(rack.left)
    for card in shown:
        left[card.code] -= 1
    within = rack.within and all(left[c.code] >= 0 for c in shown)
    top: list[Card] = []
    for code, n in enumerate(left):
        if n > 0:
            top += [Card.from_code(code)] * min(n, count - len(top))
            if len(top) >= count:
                break
    return top, within
