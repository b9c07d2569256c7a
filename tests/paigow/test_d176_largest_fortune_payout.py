"""D176: the most a Qualifying Fortune Bonus Wager wins in one round.

Each figure here is worked by hand from the paytables and the 53-card
deck (four suits of 2-A and one joker, which makes five aces with four
aces, completes straights and flushes, and is otherwise an ace, D18);
the code under test searches the packings and must find the same.

Default paytables (D23): Fortune five aces 1000:1, royal flush 500:1,
straight flush 200:1, four of a kind 75:1; Envy, per other player's
hand, five aces 100:1, royal flush 50:1, straight flush 10:1, four of a
kind 5:1, each on the 5-unit qualifying minimum (so per unit of that
wager, the odds themselves).

- Envy alone, five other players: the twenty tens to aces make at most
  four royal flushes (the joker can stand for one card of a fifth, which
  still needs four more of them), 4 x 50; five aces would take the four
  aces and the joker, leaving no royal flush (4 x 10 at most besides:
  100 + 40 < 200). The fifth hand: a straight flush from the 2-9s,
  10. Total 210; with the dealer counted, a second straight flush: 220.
- With the player's own hand: five aces (1000) takes the aces and the
  joker, so no other hand holds a royal flush; the 2-K of each suit hold
  two disjoint straight flushes (2-6 and 7-J), so five others hold five,
  50: 1050. Any other own hand wins at most 500 + 210 = 710. With the
  dealer counted: 1060.
- Envy's royal flush at 400:1: the player's five aces leave no royal
  flush to the others (1000 + 50 = 1050); a royal flush of his own
  leaves three natural ones (500 + 1200 + 2 x 10 = 1720); a straight
  flush of his own from the 2-9s leaves all four (200 + 1600 + 10 =
  1810), which beats four of a kind (75 + 1610). Envy alone: 1610.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.odds.paigow.largest import largest_payouts
from croupier.rules import Paytable


@pytest.mark.proves("670a.9(a)(3)(i)")
@pytest.mark.parametrize(
    ("settings", "fortune", "envy"),
    [
        ({}, 1050, 210),
        ({"envy_counts_dealer": True}, 1060, 220),
        (
            {
                "envy_paytable": Paytable.parse(
                    {
                        "five_aces": "100:1",
                        "royal_flush": "400:1",
                        "straight_flush": "10:1",
                        "four_of_a_kind": "5:1",
                    }
                )
            },
            1810,
            1610,
        ),
    ],
)
def test_d176_largest_fortune_payout_worked_by_hand(
    settings: dict[str, object], fortune: int, envy: int
) -> None:
    top = largest_payouts(SixCardRules(**settings))  # type: ignore[arg-type]
    assert top.fortune_with_envy == Fraction(fortune)
    assert top.envy == Fraction(envy)


def test_d176_per_unit_of_the_wager_the_simulation_prices() -> None:
    """A Fortune paytable paying 7:3 on three of a kind makes the
    simulation's Qualifying Wager 15 units (the least multiple of the
    5-unit minimum that 7:3 pays whole on): the Fortune Bonus keeps its
    odds per unit, the Envy awards (odds on the 5-unit minimum) are a
    third of theirs. Five aces and five straight flushes: 1000 + 5 x 10
    / 3 = 3050/3; the Envy part alone 210 / 3 = 70."""
    fortune = Paytable.parse(
        {
            "five_aces": "1000:1",
            "royal_flush": "500:1",
            "straight_flush": "200:1",
            "four_of_a_kind": "75:1",
            "three_of_a_kind": "7:3",
        }
    )
    top = largest_payouts(SixCardRules(fortune_bonus_paytable=fortune))
    assert top.fortune_with_envy == Fraction(3050, 3)
    assert top.envy == Fraction(70)
