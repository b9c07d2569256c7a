"""Each account's balance through a replayed round (§ 810a.11, D73).

A record that gives a player's balance before the round says how much
the player could stake: no stake is placed on credit. The replay knows
every stake and every payment in the order the procedure made them, so
the balance left can be followed from input to input: each wager placed
or changed, the deal, each decision. Stakes are only ever added by an
input, and payments (a Blackjack paid at once, an immediate 21) only
raise the balance, so a shortfall is found exactly where it happened:
the stake an input adds is compared with what was left just before it.

A player may play more than one box (673a.6(e)); the balance is the
account's, so the boxes of one player id are followed together. An
account that the record says also moved elsewhere during the round
(another table, a deposit; D74) is not followed: when those movements
came between its inputs the record does not say, so the balance left
at each input is not known. Its books are still checked whole
(:mod:`.record`).

>>> from croupier.money import Ledger, WagerKey
>>> ledger = Ledger()
>>> purses = Purses({"7": ((1, 2), 1500)})
>>> ledger.place(WagerKey(1, "blackjack"), 1000)
>>> purses.check(ledger, "the wager of seat 1")
>>> ledger.place(WagerKey(2, "blackjack"), 1000)
>>> purses.check(ledger, "the wager of seat 2")
>>> print(purses.problem.message)  # doctest: +NORMALIZE_WHITESPACE
player 7 (seats 1, 2): the wager of seat 2 stakes 1000 with 500 of the
balance left (1500 before the round); no stake is placed on credit
"""

from __future__ import annotations

from collections.abc import Mapping

from croupier.hhf.format import HandHistory
from croupier.jsontypes import LazyText
from croupier.money import Ledger

from .explain import RECORD_REF, Deviation

__all__ = ["Purses", "purses_of"]


class Purses:
    """The balance left of each account that recorded its balance.

    ``accounts`` maps a player id to its seats and its balance before
    the round. :meth:`check` after every input keeps the first
    shortfall in :attr:`problem`.
    """

    def __init__(self, accounts: Mapping[str, tuple[tuple[int, ...], int]]):
        self._accounts = dict(accounts)
        self._moved = dict.fromkeys(self._accounts, (0, 0))
        self.problem: Deviation | None = None
        """The first stake placed with less than it left, or ``None``."""

    def check(self, ledger: Ledger, what: str | LazyText) -> None:
        """After an input, keep a stake beyond the balance left, if any.

        ``what`` names the input in the message (``the decision ...``);
        a :class:`~croupier.jsontypes.LazyText` is written for a
        shortfall only (a decision's fields as JSON at every input were
        some 4 % of a verified Double Back Jack round).
        """
        if self.problem is not None:
            return
        for player, (seats, before) in self._accounts.items():
            staked = received = 0
            for key, stake in ledger.stakes.items():
                if key.seat in seats:
                    staked += stake
            for key, settled in ledger.settlements.items():
                if key.seat in seats:
                    received += max(settled.amount + settled.net, 0)
            was_staked, was_received = self._moved[player]
            left = before - was_staked + was_received
            added = staked - was_staked
            if added > left:
                boxes = ", ".join(map(str, seats))
                plural = "s" if len(seats) > 1 else ""
                self.problem = Deviation(
                    RECORD_REF,
                    f"player {player} (seat{plural} {boxes}): {what} "
                    f"stakes {added} with {left} of the balance left "
                    f"({before} before the round); no stake is placed on "
                    f"credit",
                )
                return
            self._moved[player] = (staked, received)


def purses_of(history: HandHistory) -> Purses | None:
    """The accounts of ``history`` whose balance before is recorded.

    ``None`` when no player's is (a scenario, a writer without
    accounts), or when each that is moved elsewhere too (D74): nothing
    to follow, and nothing to pay for it.
    """
    accounts: dict[str, tuple[tuple[int, ...], int]] = {}
    for player in history.players:
        before = player.balance_before
        if before is None:
            continue
        seats, _ = accounts.get(player.player_id, ((), before))
        accounts[player.player_id] = ((*seats, player.seat), before)
    for player in history.players:
        if player.moved_elsewhere is not None:
            accounts.pop(player.player_id, None)
    return Purses(accounts) if accounts else None
