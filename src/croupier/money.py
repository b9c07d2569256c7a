"""Money in integer minor units, payout odds as exact fractions, the ledger.

No float ever takes part in settlement. Winnings that do not come out
whole are rounded by a named policy (:class:`Rounding`), never by
:func:`round`.

>>> Odds.parse("3:2").winnings(1000)
1500
>>> Odds.parse("19:20").winnings(1005), Odds.parse("19 to 20").fraction
(954, Fraction(19, 20))
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum, unique
from fractions import Fraction
from typing import NamedTuple, TypeGuard

from croupier.errors import CroupierError, LedgerError, WagerError
from croupier.jsontypes import json_text
from croupier.regs import Ref

__all__ = [
    "Ledger",
    "Odds",
    "Outcome",
    "Rounding",
    "Settlement",
    "WagerKey",
    "amount_text",
    "dollars",
    "in_cents",
    "is_minor_units",
]


def dollars(minor: int) -> str:
    """Minor units (cents) as dollars.

    >>> dollars(150050), dollars(-500), dollars(0)
    ('$1,500.50', '-$5.00', '$0.00')
    """
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return f"{sign}${whole:,}.{cents:02d}"


def is_minor_units(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number of minor units: an ``int``.

    A ``bool`` is not (``True`` is no stake), nor a float however whole
    (``2500.0`` would carry floats into every settlement after it).

    >>> is_minor_units(2500), is_minor_units(2500.0), is_minor_units(True)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def amount_text(amount: object) -> str:
    """An amount of money as a refusal states it: in dollars (D190).

    A whole number of minor units (:func:`is_minor_units`) is money and
    is written as :func:`dollars` writes it; anything else a caller gave
    for an amount (a float, a bool, a string) is not, and is written as
    it was sent, in JSON's spelling (:func:`croupier.jsontypes.json_text`:
    a scenario, a CHH line and the server's requests are JSON), cut to
    40 characters.

    >>> amount_text(150050), amount_text(-5), amount_text(0)
    ('$1,500.50', '-$0.05', '$0.00')
    >>> amount_text(2500.0), amount_text(True), amount_text("100")
    ('2500.0', 'true', '"100"')
    """
    if is_minor_units(amount):
        return dollars(amount)
    return json_text(amount, limit=_SENT_LIMIT)


_SENT_LIMIT = 40
"""The longest a value sent for an amount is restated in a refusal."""


def in_cents(low: int, high: int | None = None, *, also: str = "") -> str:
    """A bound once more in the minor units a client sends (D190).

    A refusal states money in dollars; a bound the table or the cashier
    sets (which an API client must send within) follows in parentheses,
    in cents, with ``also`` after a comma. The web table leaves the note
    out for players (``Croupier.dollarsIn`` in ``common.js`` reads this
    form).

    >>> in_cents(100), in_cents(100, 100000)
    ('(100 in cents)', '(100 to 100000 in cents)')
    >>> in_cents(10**15, also="D31")
    '(1000000000000000 in cents, D31)'
    """
    bounds = str(low) if high is None else f"{low} to {high}"
    return f"({bounds} in cents{', ' + also if also else ''})"


_ODDS_RE = re.compile(r"^\s*(\d+)\s*(?::|to|-|/)\s*(\d+)\s*$", re.IGNORECASE)


@unique
class Rounding(StrEnum):
    """How fractional winnings are rounded to whole minor units."""

    DOWN = "down"
    """Toward zero: the player is never paid a fraction of a unit."""
    HALF_UP = "half_up"
    """To nearest, halves up."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Payout odds ``numerator`` to ``denominator``, e.g. 3 to 2."""

    numerator: int
    """Units paid ..."""
    denominator: int = 1
    """... for this many units wagered."""

    def __post_init__(self) -> None:
        if self.numerator < 0 or self.denominator <= 0:
            msg = f"odds must be n:d with n >= 0 and d > 0, not {self}"
            raise CroupierError(msg)

    @classmethod
    def parse(cls, raw: str | int | Odds) -> Odds:
        """Parse ``"3:2"``, ``"3 to 2"``, ``"8-1"`` or an integer ``8``."""
        if isinstance(raw, Odds):
            return raw
        if isinstance(raw, int) and not isinstance(raw, bool):
            return cls(raw, 1)
        if isinstance(raw, str):
            match = _ODDS_RE.match(raw)
            if match is not None:
                return cls(int(match.group(1)), int(match.group(2)))
        msg = (
            f'not payout odds: {json_text(raw, 60)} (write e.g. "3:2" or '
            f'"19:20")'
        )
        raise CroupierError(msg)

    @property
    def fraction(self) -> Fraction:
        """The odds as an exact fraction of the wager."""
        return Fraction(self.numerator, self.denominator)

    def winnings(self, amount: int, rounding: Rounding = Rounding.DOWN) -> int:
        """Winnings on ``amount`` minor units, rounded by ``rounding``."""
        numerator = amount * self.numerator
        whole, rest = divmod(numerator, self.denominator)
        if rounding is Rounding.HALF_UP and 2 * rest >= self.denominator:
            whole += 1
        return whole

    def __str__(self) -> str:
        return f"{self.numerator}:{self.denominator}"

    def __repr__(self) -> str:
        return f"Odds.parse({str(self)!r})"


@unique
class Outcome(StrEnum):
    """How a wager ended."""

    WIN = "win"
    """Returned with winnings."""
    LOSE = "lose"
    """Collected (in whole or, for surrender, in part)."""
    PUSH = "push"
    """Returned without winnings."""
    VOID = "void"
    """Returned because the round was void."""


class WagerKey(NamedTuple):
    """Identifies one wager on the layout: seat, wager name, hand index.

    A named tuple rather than a frozen dataclass: the engine builds and
    looks up keys for every wager at every step, and a tuple's
    construction, hash and comparison run in C (a lookup of a new key
    costs under half a dataclass's). Keys order as their fields do, and a
    key equals the plain tuple of its fields.
    """

    seat: int
    """Layout position, numbered from 1."""
    wager: str
    """Wager name as in the scenario contract (``blackjack``, ``tie``)."""
    hand: int = 0
    """Hand index for split hands (0 for the first or only hand)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """The end of one wager: what the player got back and why."""

    key: WagerKey
    """The wager settled."""
    amount: int
    """The stake, in minor units."""
    outcome: Outcome
    """Win, lose, push or void."""
    net: int
    """What the player gained (positive) or lost (negative)."""
    ref: Ref
    """The subsection under which the dealer settled it."""
    commission: int = 0
    """Commission taken from the winnings (already out of ``net``)."""

    def to_dict(self) -> dict[str, object]:
        """The scenario-contract form of the settlement."""
        row: dict[str, object] = {
            "seat": self.key.seat,
            "wager": self.key.wager,
            "amount": self.amount,
            "outcome": self.outcome.value,
            "net": self.net,
            "ref": str(self.ref),
        }
        if self.key.hand:
            row["hand"] = self.key.hand
        if self.commission:
            row["commission"] = self.commission
        return row


@dataclass(slots=True)
class Ledger:
    """Every chip placed in a round, and where it went.

    Invariant (checked by :meth:`verify`): every wager placed is settled
    exactly once, and the house's net equals minus the players' nets.

    >>> ledger = Ledger()
    >>> key = WagerKey(1, "player")
    >>> ledger.place(key, 1000)
    >>> ledger.settle(Settlement(key=key, amount=1000, outcome=Outcome.WIN,
    ...     net=1000, ref=Ref.parse("681a.7(i)(1)")))
    >>> ledger.verify(); ledger.house_net
    -1000
    """

    stakes: dict[WagerKey, int] = field(default_factory=dict)
    """The open and settled wagers with their stakes."""
    settlements: dict[WagerKey, Settlement] = field(default_factory=dict)
    """The settlement of each settled wager."""

    def place(self, key: WagerKey, amount: int) -> None:
        """Record a wager of ``amount`` minor units."""
        if amount <= 0:
            msg = (
                f"a wager must be a positive amount, not {amount_text(amount)}"
            )
            raise WagerError(msg)
        if key in self.stakes:
            msg = f"seat {key.seat} already has a {key.wager} wager"
            raise WagerError(msg)
        self.stakes[key] = amount

    def increase(self, key: WagerKey, amount: int) -> None:
        """Add ``amount`` to an open wager (a double down)."""
        if key not in self.stakes or key in self.settlements:
            msg = f"no open {key.wager} wager at seat {key.seat}"
            raise LedgerError(msg)
        self.stakes[key] += amount

    def change(self, key: WagerKey, amount: int) -> None:
        """Set an open wager's stake to ``amount``; 0 takes it back."""
        if not self.is_open(key):
            msg = f"no open {key.wager} wager at seat {key.seat}"
            raise WagerError(msg)
        if amount < 0:
            msg = f"a wager cannot be negative: {amount_text(amount)}"
            raise WagerError(msg)
        if amount == 0:
            del self.stakes[key]
        else:
            self.stakes[key] = amount

    def settle(self, settlement: Settlement) -> None:
        """Record how a wager ended; each wager settles exactly once."""
        key = settlement.key
        if key not in self.stakes:
            msg = f"settling a wager that was never placed: {key}"
            raise LedgerError(msg)
        if key in self.settlements:
            msg = f"wager settled twice: {key}"
            raise LedgerError(msg)
        if settlement.amount != self.stakes[key]:
            msg = f"settled {settlement.amount} of a {self.stakes[key]} stake"
            raise LedgerError(msg)
        if settlement.net < -settlement.amount:
            msg = f"a player cannot lose more than the stake: {settlement}"
            raise LedgerError(msg)
        self.settlements[key] = settlement

    def is_open(self, key: WagerKey) -> bool:
        """Whether the wager is on the layout and not yet settled."""
        return key in self.stakes and key not in self.settlements

    def open_keys(self) -> Iterator[WagerKey]:
        """The wagers still on the layout."""
        return (k for k in self.stakes if k not in self.settlements)

    @property
    def house_net(self) -> int:
        """What the house gained over the settled wagers."""
        return -sum(s.net for s in self.settlements.values())

    @property
    def on_layout(self) -> int:
        """Minor units still at risk on the layout."""
        return sum(self.stakes[k] for k in self.open_keys())

    def verify(self) -> None:
        """Raise :class:`LedgerError` unless every wager was settled."""
        unsettled = list(self.open_keys())
        if unsettled:
            msg = f"wagers never settled: {unsettled}"
            raise LedgerError(msg)
