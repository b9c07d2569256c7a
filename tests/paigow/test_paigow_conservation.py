"""Property: chips and cards are conserved in every Six-Card round.

Random shuffles (of a correct, short or long deck), random wagers,
starting positions, dealing procedures, dealer slips and decisions:
at every step no card is lost or duplicated, and at the end every chip
is returned, paid or collected.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck
from croupier.errors import CroupierError
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.round import Action
from croupier.shoe import Shoe

DECK = full_deck(jokers=1)
WAGERS = st.lists(
    st.tuples(
        st.integers(1, 6),
        st.sampled_from(["pai_gow", "fortune_bonus", "progressive"]),
        st.sampled_from([100, 500, 1000, 2500]),
    ),
    max_size=12,
)


@st.composite
def decks(draw: st.DrawFn) -> list[Card]:
    cards = list(draw(st.permutations(DECK)))
    change = draw(st.sampled_from(["none", "none", "none", "drop", "add"]))
    if change == "drop":
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif change == "add":
        cards.append(draw(st.sampled_from(DECK[:52])))
    return cards


@settings(max_examples=100, deadline=None)
@given(
    cards=decks(),
    wagers=WAGERS,
    start=st.integers(1, 7),
    dealing=st.sampled_from(["hand", "manual_shoe", "automated_shoe"]),
    slip=st.sampled_from([(), ("skip:3",), ("double:7",)]),
    choices=st.lists(st.integers(0, 10), min_size=30, max_size=30),
)
def test_chips_and_cards_conserved(
    cards: list[Card],
    wagers: list[tuple[int, str, int]],
    start: int,
    dealing: str,
    slip: tuple[str, ...],
    choices: list[int],
) -> None:
    rules = SixCardRules.from_mapping(
        {
            "dealing": dealing,
            "dealing_irregularities": list(slip)
            if dealing != "automated_shoe"
            else [],
        }
    )
    shoe = Shoe(cards)
    rnd = SixCardRound(rules=rules, shoe=shoe, starting_position=start)
    placed = 0
    for seat, wager, amount in [(2, "pai_gow", 1000), *wagers]:
        for name, stake in (("pai_gow", amount), (wager, amount)):
            try:
                rnd.place_wager(seat, name, stake)
                placed += stake
            except CroupierError:
                pass  # a second wager of a kind, a wrong progressive amount
        rnd.verify_conservation()
    rnd.deal()
    rnd.verify_conservation()
    pick = iter(choices)
    while (pending := rnd.pending()) is not None:
        choice = next(pick, 0)
        seat = pending.seat
        if "double_down" in pending.legal:
            if choice % 2:
                action = Action(
                    seat=seat, name="double_down", amount=1 + choice * 50
                )
            else:
                action = Action(seat=seat, name="no_double_down")
        else:
            hand = rnd.deal_record.stacks[seat]
            low = hand[choice % 6]
            action = Action(seat=seat, name="set", card=low)
        try:
            rnd.apply(action)
        except CroupierError:
            fallback = (
                "no_double_down"
                if "no_double_down" in pending.legal
                else "house_way"
            )
            rnd.apply(Action(seat=seat, name=fallback))
        rnd.verify_conservation()
    assert rnd.is_over
    rnd.ledger.verify()
    assert rnd.table_cards() == []
    everything = Counter(shoe.discard) + Counter(shoe.set_aside)
    assert everything == Counter(cards)
    assert shoe.cards_in_stack() == []
    stakes = sum(rnd.ledger.stakes.values())
    assert stakes >= placed
    assert sum(s.net for s in rnd.settlements) == -rnd.ledger.house_net
    for settlement in rnd.settlements:
        assert settlement.net >= -settlement.amount
