"""58 Pa. Code § 670a.9 (a)-(f): dealing Six-Card Fortune Pai Gow by hand.

One group of tests per lettered subsection, named after it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import WagerError, WrongPhaseError
from croupier.events import (
    Announced,
    CardDealt,
    CardExposed,
    CardsCollected,
    Event,
    RoundVoided,
    Shuffled,
)
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.games.six_card_fortune_pai_gow.events import (
    DeckHeld,
    EnvyLammerPlaced,
    ProgressiveCountError,
    ProgressiveWagersCollected,
)
from croupier.games.six_card_fortune_pai_gow.phases import Phase
from croupier.money import Outcome
from croupier.procedures.ch670a import (
    CardsCounted,
    DeckRemoved,
    StartingPositionDetermined,
)
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe

Deck = Callable[..., list[Card]]
MakeRound = Callable[..., SixCardRound]


def _types(events: tuple[Event, ...] | list[Event]) -> list[str]:
    return [e.type_name for e in events]


def _first_card_index(events: tuple[Event, ...]) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, CardDealt))


class FixedRng:
    """An RNG that always draws the same number (to pin 670a.5(i))."""

    def __init__(self, value: int) -> None:
        self.value = value

    def randbelow(self, n: int) -> int:
        assert 0 <= self.value < n
        return self.value

    def describe(self) -> dict[str, object]:
        return {"kind": "fixed", "value": self.value}


# -- (a) ------------------------------------------------------------------


@pytest.mark.proves(
    "670a.9(a)(1)",
    "670a.9(a)(2)",
    "670a.9(a)(3)(i)",
    "670a.9(a)(3)(ii)",
)
def test_670a_9_a_steps_before_any_card(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1), holding_hand="right")
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "fortune_bonus", 500)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.place_wager(2, "fortune_bonus", 499)
    rnd.place_wager(2, "progressive", 100)
    rnd.place_wager(3, "pai_gow", 1000)
    rnd.place_wager(3, "progressive", 100)
    rnd.deal()
    events = rnd.events
    before = events[: _first_card_index(events)]
    shuffled = [e for e in before if isinstance(e, Shuffled)]
    assert [str(e.ref) for e in shuffled] == ["670a.9(a)(1)"]
    held = [e for e in before if isinstance(e, DeckHeld)]
    assert [(e.hand, str(e.ref)) for e in held] == [("right", "670a.9(a)(2)")]
    announced = [e for e in before if isinstance(e, Announced)]
    assert [(e.text, str(e.ref)) for e in announced] == [
        ("no more bets", "670a.9(a)(3)")
    ]
    lammers = [e for e in before if isinstance(e, EnvyLammerPlaced)]
    assert [(e.seat, str(e.ref)) for e in lammers] == [(1, "670a.9(a)(3)(i)")]
    collected = [
        e for e in before if isinstance(e, ProgressiveWagersCollected)
    ]
    assert [(e.count, e.system_count, e.total) for e in collected] == [
        (2, 2, 200)
    ]
    assert str(collected[0].ref) == "670a.9(a)(3)(ii)"
    # the order of (a)(1) .. (a)(3)(ii)
    order = _types(before)
    assert order.index("shuffled") < order.index("deck_held")
    assert order.index("deck_held") < order.index("announced")
    assert order.index("announced") < order.index("envy_lammer_placed")
    assert order.index("envy_lammer_placed") < order.index(
        "progressive_wagers_collected"
    )


@pytest.mark.proves("670a.9(a)(3)(ii)")
def test_670a_9_a_progressive_count_mismatch_refuses_the_deal(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1))
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "progressive", 100)
    rnd.lock_progressive(2)
    events_before = rnd.events
    stack_before = list(rnd.shoe.stack)
    with pytest.raises(ProgressiveCountError) as info:
        rnd.deal()
    assert str(info.value.ref) == "670a.9(a)(3)(ii)"
    assert rnd.phase is Phase.WAGERING
    assert rnd.events == events_before
    assert rnd.shoe.stack == stack_before
    # the count agreed with the system: the deal goes ahead
    rnd.lock_progressive(1)
    rnd.deal()
    assert rnd.pending() is not None


@pytest.mark.proves("670a.9(a)(3)(ii)")
def test_670a_9_a_progressive_system_offset_option(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1), progressive_system_count_offset=-1)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "progressive", 100)
    with pytest.raises(ProgressiveCountError, match="accepted 0"):
        rnd.deal()


@pytest.mark.proves("670a.9(a)(3)", "670a.7(c)")
def test_670a_9_a_no_wager_after_no_more_bets(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1))
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.lock_progressive(0)
    with pytest.raises(WagerError, match="locked"):
        rnd.place_wager(1, "progressive", 100)
    rnd.deal()
    with pytest.raises(WrongPhaseError) as info:
        rnd.place_wager(2, "pai_gow", 1000)
    assert str(info.value.ref) == "670a.7(c)"


@pytest.mark.proves("670a.9(a)(1)")
def test_670a_9_a_shuffle_by_the_device_uses_the_rng() -> None:
    deck = Shoe.new(jokers=1)
    rnd = SixCardRound(
        rules=SixCardRules(),
        shoe=deck,
        rng=SeededRng(9),
        shuffle=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    shuffled = [e for e in rnd.events if isinstance(e, Shuffled)]
    assert shuffled[0].source == "seeded"
    assert shuffled[0].seed == 9
    rnd.verify_conservation()


# -- (b) ------------------------------------------------------------------


@pytest.mark.proves("670a.9(b)")
@pytest.mark.parametrize(
    ("drawn", "number", "position"),
    [(0, 1, 7), (1, 2, 6), (5, 6, 2), (6, 7, 1)],
)
def test_670a_9_b_starting_position_counted_from_the_dealer(
    deck: Deck, drawn: int, number: int, position: int
) -> None:
    rnd = SixCardRound(
        rules=SixCardRules(), shoe=Shoe(deck(1)), rng=FixedRng(drawn)
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    (start,) = [
        e for e in rnd.events if isinstance(e, StartingPositionDetermined)
    ]
    assert (start.number, start.position, start.method) == (
        number,
        position,
        "rng",
    )
    assert str(start.ref) == "670a.9(b)"
    first = rnd.events[_first_card_index(rnd.events)]
    assert isinstance(first, CardDealt)
    assert first.to == ("dealer" if position == 7 else f"seat {position}")


@pytest.mark.proves("670a.9(b)")
def test_670a_9_b_given_starting_position_is_recorded(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(5), start=5)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.deal()
    (start,) = [
        e for e in rnd.events if isinstance(e, StartingPositionDetermined)
    ]
    assert (start.position, start.method, start.number) == (5, "given", None)
    assert rnd.starting_position == 5


@pytest.mark.proves("670a.9(b)")
def test_670a_9_b_unknown_starting_position_refused(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1), start=8)
    rnd.place_wager(1, "pai_gow", 1000)
    with pytest.raises(ValueError, match="no position 8"):
        rnd.deal()
    assert rnd.phase is Phase.WAGERING


# -- (c) ------------------------------------------------------------------


@pytest.mark.proves("670a.9(c)")
def test_670a_9_c_one_card_at_a_time_clockwise_to_every_position(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = deck(3)
    rnd = make_round(cards, start=3)
    rnd.place_wager(5, "pai_gow", 1000)
    rnd.deal()
    dealt = [e for e in rnd.events if isinstance(e, CardDealt)]
    assert len(dealt) == 42
    ring = ["seat 3", "seat 4", "seat 5", "seat 6", "dealer", "seat 1"]
    ring.append("seat 2")
    assert [e.to for e in dealt] == ring * 6
    assert [e.card for e in dealt] == cards[:42]
    assert not any(e.face_up for e in dealt)
    assert {str(e.ref) for e in dealt} == {"670a.9(c)"}
    stacks = rnd.deal_record.stacks
    assert all(len(stacks[p]) == 6 for p in range(1, 8))


@pytest.mark.proves("670a.9(c)", "670a.9(e)")
def test_670a_9_c_short_deck_is_dealt_not_refused(
    make_round: MakeRound,
) -> None:
    cards = list(parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"))
    rnd = make_round(cards, start=1)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    assert len([e for e in rnd.events if isinstance(e, CardDealt)]) == 10
    assert rnd.phase is Phase.VOID
    rnd.verify_conservation()


# -- (d) ------------------------------------------------------------------


@pytest.mark.proves("670a.9(d)")
def test_670a_9_d_eleven_remaining_counted_and_never_exposed(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = deck(1)
    remaining = cards[42:]
    rnd = make_round(cards, double_down_offered=True)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    (count,) = [e for e in rnd.events if isinstance(e, CardsCounted)]
    assert (count.count, count.expected, str(count.ref)) == (
        11,
        11,
        "670a.9(d)",
    )
    collected = [
        e
        for e in rnd.events
        if isinstance(e, CardsCollected) and e.source == "remaining"
    ]
    assert len(collected) == 1
    assert list(collected[0].cards) == remaining
    assert collected[0].exposed is False
    assert rnd.shoe.discard[:11] == remaining
    rnd.apply(Action(seat=1, name="no_double_down"))
    rnd.apply(Action(seat=1, name="house_way"))
    assert rnd.is_over
    shown = {c for cards_ in rnd.hands().values() for c in cards_}
    assert not shown & {str(c) for c in remaining}
    exposed = {e.card for e in rnd.events if isinstance(e, CardExposed)}
    assert not exposed & set(remaining)
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert not any(str(c) in str(rnd.view(seat)) for c in remaining)


# -- (e) ------------------------------------------------------------------


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_wrong_count_with_a_correct_deal_removes_the_deck(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = deck(1)
    cards.remove(Card.parse("7h"))  # 52 cards: 10 remain
    rnd = make_round(cards)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "fortune_bonus", 500)
    rnd.deal()
    assert rnd.phase is Phase.VOID
    assert rnd.is_over
    (count,) = [e for e in rnd.events if isinstance(e, CardsCounted)]
    assert count.count == 10
    assert all(
        s.outcome is Outcome.VOID and s.net == 0 for s in rnd.settlements
    )
    assert len(rnd.settlements) == 2
    (removed,) = [e for e in rnd.events if isinstance(e, DeckRemoved)]
    assert Counter(removed.cards) == Counter(cards)
    assert Counter(rnd.shoe.set_aside) == Counter(cards)
    assert rnd.shoe.discard == []
    assert str(removed.ref) == "670a.9(e)"
    rnd.ledger.verify()
    rnd.verify_conservation()


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_twelve_remaining_removes_the_deck(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = [*deck(1), Card.parse("2c")]
    rnd = make_round(cards)
    rnd.place_wager(6, "pai_gow", 1000)
    rnd.deal()
    assert any(isinstance(e, DeckRemoved) for e in rnd.events)
    assert len(rnd.shoe.set_aside) == 54


@pytest.mark.parametrize(
    ("slip", "size", "remaining", "holder", "held"),
    [
        ("double:3", 53, 10, 3, 7),
        ("skip:7", 53, 12, 7, 5),
        # eleven remain but seat 2 holds five: a misdeal all the same (D25)
        ("skip:2", 52, 11, 2, 5),
    ],
)
@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_misdeal_voids_and_returns_every_wager(
    deck: Deck,
    make_round: MakeRound,
    slip: str,
    size: int,
    remaining: int,
    holder: int,
    held: int,
) -> None:
    cards = deck(1)[:size]
    rnd = make_round(cards, dealing_irregularities=[slip])
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(4, "pai_gow", 2000)
    rnd.place_wager(4, "progressive", 100)
    rnd.deal()
    assert len(rnd.deal_record.stacks[holder]) == held
    (count,) = [e for e in rnd.events if isinstance(e, CardsCounted)]
    assert count.count == remaining
    (void,) = [e for e in rnd.events if isinstance(e, RoundVoided)]
    assert "misdeal" in void.reason
    assert str(void.ref) == "670a.9(e)"
    assert {s.outcome for s in rnd.settlements} == {Outcome.VOID}
    assert len(rnd.settlements) == 3
    assert not any(isinstance(e, DeckRemoved) for e in rnd.events)
    assert len(rnd.shoe.discard) == size
    assert rnd.pending() is None
    rnd.verify_conservation()


@pytest.mark.proves("670a.9(e)")
def test_670a_9_e_void_round_takes_no_decision(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = deck(1)[:52]
    rnd = make_round(cards)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    with pytest.raises(WrongPhaseError):
        rnd.apply(Action(seat=1, name="house_way"))


# -- (f) ------------------------------------------------------------------


@pytest.mark.proves("670a.9(f)")
def test_670a_9_f_stacks_without_a_wager_discarded_unexposed(
    deck: Deck, make_round: MakeRound
) -> None:
    cards = deck(1)
    rnd = make_round(cards)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.place_wager(5, "pai_gow", 1000)
    rnd.deal()
    discarded = [
        e
        for e in rnd.events
        if isinstance(e, CardsCollected) and str(e.ref) == "670a.9(f)"
    ]
    assert [e.source for e in discarded] == [
        "seat 1",
        "seat 3",
        "seat 4",
        "seat 6",
    ]
    assert all(e.exposed is False for e in discarded)
    empty_cards = {c for e in discarded for c in e.cards}
    assert len(empty_cards) == 24
    assert set(rnd.table_cards()).isdisjoint(empty_cards)
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert not any(str(c) in str(rnd.view(seat)) for c in empty_cards)
    assert set(rnd.hands()) == {"seat 2", "seat 5", "dealer"}
    rnd.verify_conservation()
