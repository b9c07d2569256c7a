"""Chip and card conservation over random shoes and wagers (§ 681a.7)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.events import CardBurned, CardsCollected
from croupier.games.baccarat21 import (
    Baccarat21Round,
    Baccarat21Rules,
    Side,
    Wager,
    compare_totals,
)
from croupier.money import Outcome
from croupier.rng import SeededRng
from croupier.shoe import COVER_CARD, Shoe

RULES = Baccarat21Rules()
CARDS_PER_SHOE = 14  # a burn card plus at most six dealt, with room

wager_lists = st.lists(
    st.tuples(
        st.integers(1, RULES.seats),
        st.sampled_from([w.value for w in Wager]),
        st.integers(1, 10_000),
    ),
    min_size=1,
    max_size=12,
    unique_by=lambda w: (w[0], w[1]),
)


def _shoe(seed: int, cover: int | None) -> Shoe:
    full = Shoe.new(decks=RULES.decks)
    full.shuffle(SeededRng(seed))
    stack: list[Card | object] = list(full.cards_in_stack()[:CARDS_PER_SHOE])
    if cover is not None:
        stack.insert(cover, COVER_CARD)
    return Shoe.stacked(" ".join(str(item) for item in stack))


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    cover=st.none() | st.integers(0, CARDS_PER_SHOE),
    wagers=wager_lists,
)
def test_conservation_over_random_shoes_and_wagers(
    seed: int, cover: int | None, wagers: list[tuple[int, str, int]]
) -> None:
    shoe = _shoe(seed, cover)
    complement = Counter(shoe.complement)
    rnd = Baccarat21Round(
        rules=RULES, shoe=shoe, rng=SeededRng(seed), new_shoe=True
    )
    for seat, wager, amount in wagers:
        rnd.place_wager(seat, wager, amount)
    rnd.deal()

    # cards: nothing lost or duplicated, nothing left on the layout
    rnd.verify_conservation()
    assert rnd.table_cards() == []
    seen = Counter(shoe.cards_in_stack()) + Counter(shoe.discard)
    assert seen == complement
    if not rnd.cover_card_reached:
        burned = [e.card for e in rnd.events if isinstance(e, CardBurned)]
        collected = [
            c
            for e in rnd.events
            if isinstance(e, CardsCollected)
            for c in e.cards
        ]
        assert shoe.discard == burned + collected
    else:
        assert rnd.needs_new_shoe
        assert shoe.discard == []

    # hands: (e)-(g) never give a hand more than three cards
    for side in Side:
        assert 2 <= len(rnd.counting_cards(side)) <= 3
        assert len(rnd.bonus_cards(side)) <= 3
        if len(rnd.bonus_cards(side)) > len(rnd.counting_cards(side)):
            assert rnd.natural
            assert rnd.bonus_on_table

    # chips: every wager settled once, nets add up, outcomes agree
    rnd.ledger.verify()
    assert len(rnd.settlements) == len(wagers)
    assert rnd.ledger.house_net == -sum(s.net for s in rnd.settlements)
    winner = compare_totals(
        rnd.total(Side.PLAYER).value, rnd.total(Side.BANKER).value
    )
    for s in rnd.settlements:
        assert s.amount + s.net >= 0
        if s.outcome is Outcome.LOSE:
            assert s.net == -s.amount
        elif s.outcome is Outcome.PUSH:
            assert s.net == 0
        else:
            assert s.net >= 0
        assert s.commission == (
            s.amount - s.net
            if s.key.wager in ("player", "banker") and s.outcome is Outcome.WIN
            else 0
        )
        if s.key.wager in ("player", "banker"):
            expected = (
                Outcome.PUSH
                if winner is None
                else Outcome.WIN
                if winner.value == s.key.wager
                else Outcome.LOSE
            )
            assert s.outcome is expected
        if s.key.wager == "tie":
            assert (s.outcome is Outcome.WIN) == (winner is None)
