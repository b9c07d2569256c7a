"""Wagers of Six-Card Fortune Pai Gow Poker and how each one settles.

Pure functions: given the hands and the Rules Submission they say what
a wager pays; the round records it. Amounts are integer minor units.

>>> from fractions import Fraction
>>> commission_on(1000, Fraction(1, 20)), commission_on(1010, Fraction(1, 20))
(50, 50)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from croupier.hands.paigow import category_of
from croupier.money import Outcome
from croupier.rules import Paytable

__all__ = [
    "ProgressivePayout",
    "commission_on",
    "envy_award",
    "fortune_winnings",
    "progressive_payout",
]


def commission_on(winnings: int, rate: Fraction) -> int:
    """Commission on ``winnings``, rounded down to whole minor units (D20)."""
    return int(winnings * rate)


def fortune_winnings(amount: int, value: int, table: Paytable) -> int | None:
    """Fortune Bonus winnings for a six-card hand value; ``None`` loses."""
    odds = table.get(category_of(value).key)
    return None if odds is None else odds.winnings(amount)


def envy_award(value: int, table: Paytable, minimum: int) -> int:
    """The Envy Bonus one other hand earns (odds on the minimum), or 0."""
    odds = table.get(category_of(value).key)
    return 0 if odds is None else odds.winnings(minimum)


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressivePayout:
    """What a Progressive Payout Wager pays and what it does to the meter."""

    outcome: Outcome
    """Win or lose."""
    net: int
    """Winnings (or minus the stake)."""
    meter_after: int
    """The meter once paid (reset after a whole-meter payout)."""
    category: str
    """The hand's category."""


def progressive_payout(
    amount: int,
    value: int,
    meter: int,
    *,
    odds_table: Paytable,
    meter_table: Paytable,
    reset: int,
) -> ProgressivePayout:
    """Settle one progressive wager against the meter (D23).

    A meter entry ``n:d`` pays ``n/d`` of the meter (rounded down); a
    whole-meter payout resets it to ``reset``. Otherwise fixed odds.

    >>> from croupier.hands.paigow import evaluate
    >>> from croupier.cards import parse_cards
    >>> five_aces = evaluate(parse_cards("Ac Ad Ah As JK 2c"))
    >>> p = progressive_payout(100, five_aces, 50_000,
    ...     odds_table=Paytable.parse({}),
    ...     meter_table=Paytable.parse({"five_aces": "1:1"}), reset=10_000)
    >>> p.net, p.meter_after
    (50000, 10000)
    """
    category = category_of(value)
    share = meter_table.get(category.key)
    if share is not None:
        paid = int(meter * share.fraction)
        after = meter - paid
        if share.fraction >= 1:
            after = reset
        return ProgressivePayout(
            outcome=Outcome.WIN,
            net=paid,
            meter_after=after,
            category=category.key,
        )
    odds = odds_table.get(category.key)
    if odds is not None:
        return ProgressivePayout(
            outcome=Outcome.WIN,
            net=odds.winnings(amount),
            meter_after=meter,
            category=category.key,
        )
    return ProgressivePayout(
        outcome=Outcome.LOSE,
        net=-amount,
        meter_after=meter,
        category=category.key,
    )
