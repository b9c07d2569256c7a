"""The citations of Six-Card Fortune Pai Gow Poker, named once.

The deal runs under 670a.9 (by hand or from a manual dealing shoe) or
under 670a.10 (from an automated dealing shoe): the two sections number
their steps alike, so each step's citation is named here for both and
the round picks the set its rules deal under.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.regs import Ref

__all__ = [
    "AUTOMATED_SHOE",
    "BY_HAND_OR_MANUAL_SHOE",
    "DOUBLE_DOWN_REF",
    "OFFERED_REF",
    "SETTLE_REF",
    "SIDE_REF",
    "WAGER_REF",
    "DealRefs",
]

SETTLE_REF = Ref.parse("670a.11")
"""Hands set, exposed, compared and settled (670a.11, not retrieved)."""
WAGER_REF = Ref.parse("670a.7(c)")
"""Wagers before "no more bets"; the Double Down after the cards."""
SIDE_REF = Ref.parse("670a.7(e)")
"""A side wager stands only beside a Six-Card Wager."""
DOUBLE_DOWN_REF = Ref.parse("670a.7(e)(1)")
"""The Double Down Wager offered: after the cards, up to the Six-Card
Wager (D22); its amount is refused under it, not under (c), which only
lets it be placed after "no more bets"."""
OFFERED_REF = Ref.parse("670a.7(e)")
"""The optional wagers, the Double Down among them, offered only where
the casino's Rules Submission says so: a Double Down at a table whose
rules do not offer it is refused under it (D182)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRefs:
    """The subsection of each dealing step under one dealing section."""

    deal: Ref
    """(a): the procedure of the deal."""
    shuffle: Ref
    """(a)(1): the deck shuffled (or arriving stacked)."""
    no_more_bets: Ref
    """"No more bets" announced."""
    lammers: Ref
    """(i) of that announcement: the Envy lammers placed."""
    progressive: Ref
    """(ii) of that announcement: the progressive wagers collected."""
    start: Ref
    """(b): the starting position determined."""
    order: Ref
    """(c): clockwise from the starting position, every position and the
    dealer: the order the cards are dealt in, and the only order of the
    positions the retrieved text fixes. The players decide in it (670a.11,
    which would say how hands are set, was not retrieved), so a seat that
    acts while another's decision is pending breaks it."""
    count: Ref
    """(d): the remaining cards counted face down."""
    void: Ref
    """(e): a misdeal or a wrong count voids the round."""


BY_HAND_OR_MANUAL_SHOE = DealRefs(
    deal=Ref.parse("670a.9(a)"),
    shuffle=Ref.parse("670a.9(a)(1)"),
    no_more_bets=Ref.parse("670a.9(a)(3)"),
    lammers=Ref.parse("670a.9(a)(3)(i)"),
    progressive=Ref.parse("670a.9(a)(3)(ii)"),
    start=Ref.parse("670a.9(b)"),
    order=Ref.parse("670a.9(c)"),
    count=Ref.parse("670a.9(d)"),
    void=Ref.parse("670a.9(e)"),
)
"""670a.9: dealt by hand or from a manual dealing shoe."""
AUTOMATED_SHOE = DealRefs(
    deal=Ref.parse("670a.10(a)"),
    shuffle=Ref.parse("670a.10(a)(1)"),
    no_more_bets=Ref.parse("670a.10(a)(2)"),
    lammers=Ref.parse("670a.10(a)(2)(i)"),
    progressive=Ref.parse("670a.10(a)(2)(ii)"),
    start=Ref.parse("670a.10(b)"),
    order=Ref.parse("670a.10(c)"),
    count=Ref.parse("670a.10(d)"),
    void=Ref.parse("670a.10(e)"),
)
"""670a.10: stacks delivered by an automated dealing shoe."""
