from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.errors import CroupierError, LedgerError, WagerError
from croupier.money import (
    Ledger,
    Odds,
    Outcome,
    Rounding,
    Settlement,
    WagerKey,
)
from croupier.regs import Ref

REF = Ref.parse("591.7(s)(1)(ii)")


@pytest.mark.parametrize(
    ("raw", "odds"),
    [
        ("3:2", Odds(3, 2)),
        ("19 to 20", Odds(19, 20)),
        ("8-1", Odds(8, 1)),
        (8, Odds(8, 1)),
    ],
)
def test_odds_parse(raw: str | int, odds: Odds) -> None:
    assert Odds.parse(raw) == odds
    assert Odds.parse(str(odds)) == odds


@pytest.mark.parametrize("raw", ["3", "a:b", "-1:2", "1:0", 1.5])
def test_bad_odds_refused(raw: object) -> None:
    with pytest.raises(CroupierError):
        Odds.parse(raw)  # type: ignore[arg-type]


@given(st.integers(min_value=1, max_value=10**9))
def test_winnings_are_exact_and_rounded_down(amount: int) -> None:
    odds = Odds(19, 20)
    paid = odds.winnings(amount)
    assert paid == (amount * 19) // 20
    assert Fraction(paid) <= odds.fraction * amount < paid + 1
    half_up = odds.winnings(amount, Rounding.HALF_UP)
    assert abs(Fraction(half_up) - odds.fraction * amount) <= Fraction(1, 2)


def test_ledger_settles_each_wager_once() -> None:
    ledger = Ledger()
    key = WagerKey(1, "blackjack")
    ledger.place(key, 1000)
    with pytest.raises(LedgerError):
        ledger.verify()
    win = Settlement(
        key=key, amount=1000, outcome=Outcome.WIN, net=1500, ref=REF
    )
    ledger.settle(win)
    ledger.verify()
    assert ledger.house_net == -1500
    with pytest.raises(LedgerError, match="twice"):
        ledger.settle(win)


def test_ledger_refuses_bad_wagers_and_overdrawn_losses() -> None:
    ledger = Ledger()
    with pytest.raises(WagerError):
        ledger.place(WagerKey(1, "tie"), 0)
    key = WagerKey(1, "tie")
    ledger.place(key, 100)
    with pytest.raises(WagerError):
        ledger.place(key, 100)
    with pytest.raises(LedgerError):
        ledger.settle(
            Settlement(
                key=key, amount=100, outcome=Outcome.LOSE, net=-101, ref=REF
            )
        )
    ledger.increase(key, 100)
    assert ledger.on_layout == 200
