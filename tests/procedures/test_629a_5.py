"""58 Pa. Code 629a.5 (a)-(f): shuffle, cut, second cover card, burn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, parse_cards
from croupier.errors import ShoeError, ShoeExhaustedError
from croupier.events import (
    Announced,
    CardBurned,
    CoverCardInserted,
    CutOffered,
    EventLog,
    Shuffled,
)
from croupier.games.midibaccarat import MidibaccaratRound, MidibaccaratRules
from croupier.procedures.ch629a import (
    CutCompleted,
    ShuffleMethod,
    burn_count,
    burn_new_shoe,
    complete_cut,
    cut,
    cut_order,
    cutter_of,
    insert_second_cover_card,
    offer_cut,
    prepare_shoe,
    recut,
    shuffle,
)
from croupier.regs import Ref
from croupier.rng import SecureRng, SeededRng
from croupier.shoe import COVER_CARD, Shoe


def _numbered(count: int) -> Shoe:
    """A stack of distinct cards (one deck, sliced) in a known order."""
    return Shoe(Shoe.new(decks=1).cards_in_stack()[:count])


# -- (a) shuffle ---------------------------------------------------------


@pytest.mark.proves("629a.5(a)")
def test_629a_5_a_seeded_shuffle_is_a_reproducible_permutation() -> None:
    first, second = Shoe.new(decks=2), Shoe.new(decks=2)
    original = first.cards_in_stack()
    events = shuffle(first, EventLog(), SeededRng(11))
    shuffle(second, EventLog(), SeededRng(11))
    assert first.notation() == second.notation()
    assert first.cards_in_stack() != original
    assert sorted(first.cards_in_stack()) == sorted(original)
    (event,) = events
    assert isinstance(event, Shuffled)
    assert (event.source, event.seed, event.cards) == ("seeded", 11, 104)
    assert event.ref == Ref.parse("629a.5(a)")


@pytest.mark.proves("629a.5(a)")
def test_629a_5_a_secure_rng_is_the_default() -> None:
    shoe = Shoe.new(decks=1)
    (event,) = shuffle(shoe, EventLog())
    assert isinstance(event, Shuffled)
    assert event.source == "secure"
    assert event.seed is None
    shoe.verify_conservation()


@pytest.mark.proves("629a.5(a)")
def test_629a_5_a_preshuffled_cards_are_not_shuffled_again() -> None:
    shoe = Shoe.stacked("9c 2d Kh As 5s")
    (event,) = shuffle(
        shoe, EventLog(), SecureRng(), method=ShuffleMethod.PRESHUFFLED
    )
    assert shoe.notation() == "9c 2d Kh As 5s"
    assert isinstance(event, Shuffled)
    assert event.source == "preshuffled"


@pytest.mark.proves("629a.5(a)")
def test_629a_5_a_manual_shuffle_is_left_feathered_for_the_floor() -> None:
    events = shuffle(
        Shoe.new(), EventLog(), SeededRng(1), method=ShuffleMethod.MANUAL
    )
    assert [type(e) for e in events] == [Shuffled, Announced]
    assert isinstance(events[1], Announced)
    assert "feathered" in events[1].text
    assert events[1].ref == Ref.parse("629a.5(a)")


@pytest.mark.proves("629a.5(a)")
def test_629a_5_a_shuffle_gathers_the_discard_bucket() -> None:
    shoe = Shoe.new(decks=1)
    shoe.burn(20)
    shuffle(shoe, EventLog(), SeededRng(2))
    assert len(shoe) == 52
    assert shoe.discard == []
    shoe.verify_conservation()


# -- (b) the cut is offered --------------------------------------------------


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_order_starts_at_highest_occupied_seat_and_wraps() -> None:
    assert cut_order([2, 5, 7]) == [7, 2, 5]
    assert cut_order([9, 1, 4]) == [9, 1, 4]
    assert cut_order([3]) == [3]


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_offered_clockwise_until_a_player_accepts() -> None:
    log = EventLog()
    offers = offer_cut(log, [2, 5, 7], accepting=[5, 2])
    assert [(o.to, o.accepted) for o in offers] == [
        ("seat 7", False),
        ("seat 2", True),
    ]
    assert cutter_of(offers) == "seat 2"
    assert all(o.ref == Ref.parse("629a.5(b)") for o in offers)


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_dealer_cuts_when_no_player_accepts() -> None:
    offers = offer_cut(EventLog(), [1, 4, 8], accepting=())
    assert [o.to for o in offers] == ["seat 8", "seat 1", "seat 4", "dealer"]
    assert [o.accepted for o in offers] == [False, False, False, True]
    assert cutter_of(offers) == "dealer"


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_empty_table_dealer_cuts() -> None:
    offers = offer_cut(EventLog(), [])
    assert [(o.to, o.accepted) for o in offers] == [("dealer", True)]


# -- (c) the cut: a cover card at least 10 from either end -------------------


@pytest.mark.proves("629a.5(c)")
@pytest.mark.parametrize("position", [10, 26, 42])
def test_629a_5_c_cover_card_at_least_ten_from_each_end(
    position: int,
) -> None:
    shoe = _numbered(52)
    (event,) = cut(shoe, EventLog(), position, by="seat 3")
    assert shoe.stack[position] is COVER_CARD
    assert isinstance(event, CoverCardInserted)
    assert (event.position, event.purpose, event.by) == (
        position,
        "cut",
        "seat 3",
    )
    assert event.ref == Ref.parse("629a.5(c)")


@pytest.mark.proves("629a.5(c)")
@pytest.mark.parametrize("position", [0, 1, 9, 43, 51, 52])
def test_629a_5_c_refuses_a_cut_closer_than_ten_to_an_end(
    position: int,
) -> None:
    shoe = _numbered(52)
    before = shoe.notation()
    log = EventLog()
    with pytest.raises(ShoeError) as info:
        cut(shoe, log, position)
    assert info.value.ref == Ref.parse("629a.5(c)")
    assert shoe.notation() == before
    assert len(log) == 0


@pytest.mark.proves("629a.5(c)")
def test_629a_5_c_refuses_to_cut_a_stack_already_holding_a_cover() -> None:
    shoe = _numbered(52)
    shoe.insert_cover_card(20)
    before = shoe.notation()
    with pytest.raises(ShoeError):
        cut(shoe, EventLog(), 30)
    assert shoe.notation() == before


# -- (d) cut part to the bottom; second cover card ---------------------------


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_cards_above_the_cover_card_go_to_the_bottom() -> None:
    shoe = _numbered(30)
    cards = shoe.cards_in_stack()
    log = EventLog()
    cut(shoe, log, 12)
    (event,) = complete_cut(shoe, log)
    assert isinstance(event, CutCompleted)
    assert event.moved == 12
    assert shoe.stack == [*cards[12:], *cards[:12], COVER_CARD]
    assert event.ref == Ref.parse("629a.5(d)")


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_second_cover_card_fourteen_above_the_bottom() -> None:
    shoe = _numbered(40)
    log = EventLog()
    cut(shoe, log, 10)
    complete_cut(shoe, log)
    (event,) = insert_second_cover_card(shoe, log, 14)
    assert isinstance(event, CoverCardInserted)
    assert (event.position, event.purpose) == (26, "reshuffle marker")
    assert shoe.stack[26] is COVER_CARD
    below = [item for item in shoe.stack[27:] if isinstance(item, Card)]
    assert len(below) == 14


@pytest.mark.proves("629a.5(d)")
@pytest.mark.parametrize("from_bottom", [0, 1, 13])
def test_629a_5_d_refuses_second_cover_card_closer_than_fourteen(
    from_bottom: int,
) -> None:
    shoe = _numbered(40)
    before = shoe.notation()
    with pytest.raises(ShoeError) as info:
        insert_second_cover_card(shoe, EventLog(), from_bottom)
    assert info.value.ref == Ref.parse("629a.5(d)")
    assert shoe.notation() == before


@pytest.mark.proves("629a.5(c)", "629a.5(d)")
def test_629a_5_d_prepare_shoe_refuses_before_anything_moves() -> None:
    shoe = Shoe.new(decks=1)
    before = shoe.notation()
    log = EventLog()
    with pytest.raises(ShoeError) as info:
        prepare_shoe(shoe, log, rng=SeededRng(1), second_cover_from_bottom=13)
    assert info.value.ref == Ref.parse("629a.5(d)")
    with pytest.raises(ShoeError) as info:
        prepare_shoe(shoe, log, rng=SeededRng(1), cut_position=5)
    assert info.value.ref == Ref.parse("629a.5(c)")
    assert shoe.notation() == before
    assert len(log) == 0


@pytest.mark.proves("629a.5(a)", "629a.5(b)", "629a.5(c)", "629a.5(d)")
def test_629a_5_d_prepare_shoe_runs_a_to_d_in_order() -> None:
    shoe = Shoe.new(decks=8)
    events = prepare_shoe(
        shoe,
        EventLog(),
        rng=SeededRng(5),
        occupied_seats=[3, 6, 9],
        accepting=[6],
        second_cover_from_bottom=16,
    )
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "Shuffled",
        "CutOffered",
        "CutOffered",
        "CutOffered",
        "CoverCardInserted",
        "CutCompleted",
        "CoverCardInserted",
    ]
    assert [e.to for e in events if isinstance(e, CutOffered)] == [
        "seat 9",
        "seat 3",
        "seat 6",
    ]
    assert shoe.stack[-1] is COVER_CARD
    second = shoe.stack.index(COVER_CARD)
    assert len(shoe.stack) - second - 2 == 16
    shoe.verify_conservation()


# -- (e) recut ------------------------------------------------------------


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_recut_by_the_next_person_entitled() -> None:
    shoe = _numbered(52)
    log = EventLog()
    offers = offer_cut(log, [2, 5, 7], accepting=[7])
    cut(shoe, log, 20, by=cutter_of(offers))
    complete_cut(shoe, log)
    insert_second_cover_card(shoe, log)
    order = shoe.cards_in_stack()
    events = recut(
        shoe,
        log,
        previous="seat 7",
        occupied_seats=[2, 5, 7],
        accepting=[2, 5],
        position=15,
    )
    offered = [e for e in events if isinstance(e, CutOffered)]
    assert [(o.to, o.accepted) for o in offered] == [("seat 2", True)]
    assert all(o.ref == Ref.parse("629a.5(e)") for o in offered)
    assert isinstance(events[0], Announced)
    assert events[0].ref == Ref.parse("629a.5(e)")
    assert shoe.cards_in_stack() == order[15:] + order[:15]
    assert shoe.stack.count(COVER_CARD) == 2
    shoe.verify_conservation()


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_recut_falls_to_the_dealer_after_the_last_seat() -> None:
    shoe = _numbered(52)
    events = recut(
        shoe,
        EventLog(),
        previous="seat 5",
        occupied_seats=[2, 5, 7],
        accepting=[7, 2],
        position=30,
    )
    offered = [e.to for e in events if isinstance(e, CutOffered)]
    assert offered == ["dealer"]


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_recut_after_the_dealer_cut_is_the_dealers() -> None:
    shoe = _numbered(52)
    events = recut(
        shoe, EventLog(), previous="dealer", occupied_seats=[4], position=25
    )
    assert [e.to for e in events if isinstance(e, CutOffered)] == ["dealer"]


@pytest.mark.proves("629a.5(e)")
def test_629a_5_e_refused_recut_leaves_the_stack_unchanged() -> None:
    shoe = _numbered(52)
    shoe.insert_cover_card(30)
    before = shoe.notation()
    log = EventLog()
    with pytest.raises(ShoeError):
        recut(shoe, log, previous="dealer", occupied_seats=[], position=5)
    assert shoe.notation() == before
    assert len(log) == 0


# -- (f) the burn --------------------------------------------------------


@pytest.mark.proves("629a.5(f)")
@pytest.mark.parametrize(
    ("first", "count"),
    [("As", 1), ("2d", 2), ("7h", 7), ("9c", 9), ("Ts", 10), ("Jd", 10),
     ("Qh", 10), ("Kc", 10)],
)  # fmt: skip
def test_629a_5_f_burn_face_value_of_the_exposed_card(
    first: str, count: int
) -> None:
    rest = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"
    shoe = Shoe.stacked(f"{first} {rest}")
    events = burn_new_shoe(shoe, EventLog())
    assert burn_count(Card.parse(first)) == count
    assert len(events) == count + 1
    assert all(isinstance(e, CardBurned) for e in events)
    flags = [e.face_up for e in events if isinstance(e, CardBurned)]
    assert flags == [True] + [False] * count
    assert shoe.discard == list(parse_cards(f"{first} {rest}"))[: count + 1]
    assert all(e.ref == Ref.parse("629a.5(f)") for e in events)
    shoe.verify_conservation()


@pytest.mark.proves("629a.5(f)")
def test_629a_5_f_face_value_is_not_the_baccarat_value() -> None:
    assert burn_count(Card.parse("Kd")) == 10
    assert burn_count(Card.parse("Ts")) == 10


@pytest.mark.proves("629a.5(f)")
def test_629a_5_f_refuses_a_shoe_too_short_for_the_burn() -> None:
    shoe = Shoe.stacked("9c 2d 3d")
    with pytest.raises(ShoeExhaustedError) as info:
        burn_new_shoe(shoe, EventLog())
    assert info.value.ref == Ref.parse("629a.5(f)")
    assert shoe.notation() == "9c 2d 3d"


@pytest.mark.proves("629a.5(f)")
def test_629a_5_f_round_runs_the_burn_on_a_new_shoe() -> None:
    shoe = Shoe.stacked("3h 2c 9d 4s 4h 5d 2s Kd 3c")
    rnd = MidibaccaratRound(rules=MidibaccaratRules(), shoe=shoe)
    burned = [e for e in rnd.events if isinstance(e, CardBurned)]
    assert [str(e.card) for e in burned] == ["3h", "2c", "9d", "4s"]
    rnd.deal()
    assert rnd.hands() == {
        "player": ["4h", "2s"],
        "banker": ["5d", "Kd", "3c"],
    }


# -- property: nothing lost or duplicated ---------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    decks=st.integers(min_value=1, max_value=2),
    seats=st.sets(st.integers(min_value=1, max_value=9), max_size=9),
    accepting=st.sets(st.integers(min_value=1, max_value=9), max_size=9),
    second=st.integers(min_value=14, max_value=40),
    manual=st.booleans(),
)
def test_property_shuffle_cut_burn_deal_conserves_cards(
    seed: int,
    decks: int,
    seats: set[int],
    accepting: set[int],
    second: int,
    manual: bool,
) -> None:
    shoe = Shoe.new(decks=decks)
    rng = SeededRng(seed)
    method = ShuffleMethod.MANUAL if manual else ShuffleMethod.AUTOMATED
    rules = MidibaccaratRules()
    for _ in range(2):  # two shoes in a row: the reshuffle gathers all
        prepare_shoe(
            shoe,
            EventLog(),
            rng=rng,
            occupied_seats=seats,
            accepting=accepting,
            second_cover_from_bottom=second,
            method=method,
        )
        shoe.verify_conservation()
        new_shoe = True
        while True:
            rnd = MidibaccaratRound(
                rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe
            )
            new_shoe = False
            rnd.verify_conservation()
            rnd.deal()
            rnd.verify_conservation()
            if rnd.cover_card_reached:
                break
        assert len(shoe) >= second - 6
        assert sum(len(h) for h in rnd.hands().values()) <= 6
