"""Property test: random shoes, wagers and legal decisions (591.7).

Each example shuffles a six-deck shoe with a seeded stream, then plays a
few consecutive rounds from it (a (d) reshuffle included whenever the
cover card comes out), choosing random legal decisions. Card
conservation is checked after every step; at the end of each round every
wager is settled exactly once, for its whole stake, and the nets add up.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.events import WagerPlaced, WagerSettled
from croupier.games.double_back_jack import (
    CollectionProcedure,
    DoubleBackJackRound,
    DoubleBackJackRules,
    shuffled_shoe,
)
from croupier.money import Outcome, WagerKey
from croupier.rng import SeededRng
from croupier.round import Action

Key = tuple[int, str, int]


def _amount(
    data: st.DataObject,
    rnd: DoubleBackJackRound,
    seat: int,
    hand: int,
    name: str,
) -> int | None:
    if name == "insurance":
        return data.draw(st.integers(1, rnd.insurance_limit(seat)))
    if name == "double":
        stake = rnd.ledger.stakes[WagerKey(seat, "blackjack", hand)]
        return data.draw(st.none() | st.integers(1, stake))
    return None


def _check_chips(rnd: DoubleBackJackRound) -> None:
    rnd.ledger.verify()
    placed: Counter[Key] = Counter()
    for event in rnd.events:
        if isinstance(event, WagerPlaced):
            placed[(event.seat, event.wager, event.hand)] += event.amount
    settled = [e for e in rnd.events if isinstance(e, WagerSettled)]
    keys = [(e.seat, e.wager, e.hand) for e in settled]
    assert len(keys) == len(set(keys)), "a wager was settled twice"
    assert set(keys) == set(placed)
    for event in settled:
        assert event.amount == placed[(event.seat, event.wager, event.hand)]
        assert event.net >= -event.amount
        if event.outcome == Outcome.PUSH.value:
            assert event.net == 0
        if event.outcome == Outcome.WIN.value:
            assert event.net >= 0
    assert sum(e.net for e in settled) == -rnd.ledger.house_net


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_conservation_over_random_rounds(
    seed: int, data: st.DataObject
) -> None:
    rules = DoubleBackJackRules(
        collection_procedure=data.draw(st.sampled_from(CollectionProcedure)),
        collect_busts_at_once=data.draw(st.booleans()),
        split_aces_may_draw=data.draw(st.booleans()),
        double_after_split=data.draw(st.booleans()),
        penetration=data.draw(
            st.sampled_from([Fraction(1, 10), Fraction(1, 4), Fraction(3, 4)])
        ),
    )
    rng = SeededRng(seed)
    shoe = shuffled_shoe(rules, rng)
    new_shoe = True
    for _ in range(data.draw(st.integers(1, 4))):
        rnd = DoubleBackJackRound(
            rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe
        )
        seats = data.draw(st.sets(st.integers(1, 6), min_size=1))
        for seat in sorted(seats):
            rnd.place_wager(seat, "blackjack", data.draw(st.integers(1, 5000)))
        rnd.verify_conservation()
        rnd.deal()
        rnd.verify_conservation()
        while (pending := rnd.pending()) is not None:
            name = data.draw(st.sampled_from(pending.legal))
            amount = _amount(data, rnd, pending.seat, pending.hand, name)
            rnd.apply(Action(seat=pending.seat, name=name, amount=amount))
            rnd.verify_conservation()
        assert rnd.is_over
        assert not rnd.table_cards()
        _check_chips(rnd)
        new_shoe = rnd.needs_new_shoe
        if new_shoe:
            shoe.insert_cover_card(int(len(shoe) * rules.penetration))
