"""Commission-free Midibaccarat (629b.2): no vigorish, the D11 rule."""

from __future__ import annotations

from typing import ClassVar

from croupier.games.midibaccarat.refs import REF_COMMISSION_FREE, REF_PAYOUT
from croupier.games.midibaccarat.round import (
    MidibaccaratRound,
    Verdict,
    lose,
    push,
    win,
)
from croupier.games.midibaccarat.rules import (
    CommissionFreeRule,
    CommissionFreeRules,
    Wager,
)
from croupier.regs import implements
from croupier.rng import Rng
from croupier.shoe import Shoe

__all__ = ["CommissionFreeRound"]


class CommissionFreeRound(MidibaccaratRound):
    """Commission-free Midibaccarat (629b.2): no vigorish, D11 rule."""

    game: ClassVar[str] = "midibaccarat-commission-free"
    wager_names: ClassVar[tuple[str, ...]] = (
        *MidibaccaratRound.wager_names,
        Wager.DRAGON7,
        Wager.PANDA8,
    )
    rules: CommissionFreeRules
    """The Rules Submission in force, with the commission-free type."""

    def __init__(
        self,
        *,
        rules: CommissionFreeRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
    ) -> None:
        super().__init__(rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe)

    def allowed_wagers(self) -> tuple[str, ...]:
        """Wager names these rules allow, Dragon 7 and Panda 8 included."""
        names = list(super().allowed_wagers())
        if self.rules.dragon7_offered:
            names.append(Wager.DRAGON7)
        if self.rules.panda8_offered:
            names.append(Wager.PANDA8)
        return tuple(names)

    def _verdict(self, wager: Wager, amount: int) -> Verdict:
        coup, rounding = self.coup, self.rules.rounding
        if wager is Wager.DRAGON7:
            if coup.is_dragon7:
                return win(
                    self.rules.dragon7_payout,
                    amount,
                    rounding,
                    REF_COMMISSION_FREE,
                )
            return lose(amount, REF_COMMISSION_FREE)
        if wager is Wager.PANDA8:
            if coup.is_panda8:
                return win(
                    self.rules.panda8_payout,
                    amount,
                    rounding,
                    REF_COMMISSION_FREE,
                )
            return lose(amount, REF_COMMISSION_FREE)
        return super()._verdict(wager, amount)

    @implements("629b.2")
    def _banker_win(self, amount: int) -> Verdict:
        """No commission; the D11 rule takes the edge instead."""
        coup, rounding = self.coup, self.rules.rounding
        rule = self.rules.commission_free_rule
        if rule is CommissionFreeRule.DRAGON7_PUSH and coup.is_dragon7:
            return push(REF_COMMISSION_FREE)
        six = 6
        if (
            rule is CommissionFreeRule.BANKER6_PAYS_HALF
            and coup.banker_count == six
        ):
            return win(
                self.rules.banker_six_payout,
                amount,
                rounding,
                REF_COMMISSION_FREE,
            )
        return win(self.rules.banker_payout, amount, rounding, REF_PAYOUT)
