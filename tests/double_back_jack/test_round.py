"""Double Back Jack, 591.7 (a)-(v): one or more tests per subsection.

Shoes are stacked top first. With ``new_shoe=False`` (the default of
:func:`start` here) dealing starts at the top card, so the deal of (e)
takes, for boxes ``s1 < s2 < ...``: s1, s2, ..., dealer up card, s1,
s2, ..., dealer hole card; then the cards drawn in decision order.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, TypeVar

import pytest
from tests.engine_refusals import refuses

from croupier.cards import Card
from croupier.errors import (
    IllegalActionError,
    OutOfTurnError,
    ProcedureError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    Announced,
    CardBurned,
    CardDealt,
    CardExposed,
    CardsCollected,
    CoverCardReached,
    Event,
    Shuffled,
    WagerPlaced,
    WagerSettled,
)
from croupier.games.double_back_jack import (
    DbjAction,
    DoubleBackJackRound,
    DoubleBackJackRules,
    Phase,
)
from croupier.games.double_back_jack.events import CardReaderChecked
from croupier.games.double_back_jack.phases import TRANSITIONS
from croupier.regs import Ref, implementations
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe

Row = tuple[int, str, int, str, int, str]
E = TypeVar("E", bound=Event)


def start(
    shoe: str,
    wagers: dict[int, int],
    *,
    new_shoe: bool = False,
    **rules: object,
) -> DoubleBackJackRound:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules.from_mapping(rules),
        shoe=Shoe.stacked(shoe),
        rng=SeededRng(1),
        new_shoe=new_shoe,
    )
    for seat, amount in wagers.items():
        rnd.place_wager(seat, "blackjack", amount)
    rnd.deal()
    return rnd


def act(
    rnd: DoubleBackJackRound, seat: int, name: str, amount: int | None = None
) -> list[Event]:
    events = rnd.apply(Action(seat=seat, name=name, amount=amount))
    rnd.verify_conservation()
    return events


def rows(rnd: DoubleBackJackRound) -> list[Row]:
    return [
        (
            s.key.seat,
            s.key.wager,
            s.key.hand,
            s.outcome.value,
            s.net,
            str(s.ref),
        )
        for s in rnd.settlements
    ]


def of_type(rnd: DoubleBackJackRound, kind: type[E]) -> list[E]:
    return [e for e in rnd.events if isinstance(e, kind)]


def seq_of(rnd: DoubleBackJackRound, kind: type[Event]) -> int:
    return next(e.seq for e in rnd.events if isinstance(e, kind))


def snapshot(rnd: DoubleBackJackRound) -> dict[str, Any]:
    pending = rnd.pending()
    return {
        "events": len(rnd.events),
        "phase": rnd.phase,
        "pending": None if pending is None else pending.to_dict(),
        "hands": rnd.hands(),
        "stakes": dict(rnd.ledger.stakes),
        "settled": dict(rnd.ledger.settlements),
        "shoe": rnd.shoe.notation(),
        "view": json.dumps(rnd.view(None), sort_keys=True),
    }


def finish(rnd: DoubleBackJackRound) -> None:
    assert rnd.is_over
    rnd.ledger.verify()
    rnd.verify_conservation()


# -- (a), (b): the dealing shoe, and the dealer's hands --


@pytest.mark.proves("591.7(a)")
def test_591_7_a_every_card_comes_from_the_dealing_shoe_in_order() -> None:
    stack = "9c 10h 7d 6h 5s 2c 4d"
    rnd = start(stack, {1: 100})
    act(rnd, 1, "stand")
    dealt = [str(e.card) for e in of_type(rnd, CardDealt)]
    assert dealt == str(Shoe.stacked(stack).notation()).split()[:5]
    assert any(
        name.endswith("DealerProcedure._deal_card")
        for name in implementations()[Ref.parse("591.7(a)")]
    )
    finish(rnd)


@pytest.mark.proves("591.7(b)")
def test_591_7_b_cards_reach_the_layout_only_through_the_dealer() -> None:
    rnd = start("9c 10h 7d 6h 5s 2c 4d", {1: 100})
    on_table = sorted(str(c) for c in rnd.table_cards())
    dealt = sorted(str(e.card) for e in of_type(rnd, CardDealt))
    assert on_table == dealt
    assert any(
        name.endswith("_deal_card")
        for name in implementations()[Ref.parse("591.7(b)")]
    )


# -- (c) burn, (d) cover card --


@pytest.mark.proves("591.7(c)")
def test_591_7_c_new_shoe_burns_one_card() -> None:
    rnd = start("Kd 9c 10h 7d 6h 5s", {1: 100}, new_shoe=True)
    first = rnd.events[0]
    assert isinstance(first, CardBurned)
    assert str(first.ref) == "591.7(c)"
    assert rnd.shoe.discard[0] == Card.parse("Kd")
    assert str(of_type(rnd, CardDealt)[0].card) == "9c"


@pytest.mark.proves("591.7(c)")
def test_591_7_c_no_burn_when_the_shoe_is_not_new() -> None:
    rnd = start("9c 10h 7d 6h", {1: 100})
    assert not of_type(rnd, CardBurned)


@pytest.mark.proves("591.7(c)")
def test_591_7_c_new_dealer_burns_one_card_before_dealing() -> None:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(),
        shoe=Shoe.stacked("Kd 9c 10h 7d 6h 5s"),
        rng=SeededRng(1),
        new_shoe=True,
    )
    event = rnd.change_dealer()
    assert isinstance(event, CardBurned)
    assert event.card == Card.parse("9c")
    assert str(event.ref) == "591.7(c)"
    assert rnd.shoe.discard[:2] == [Card.parse("Kd"), Card.parse("9c")]
    rnd.place_wager(1, "blackjack", 100)
    rnd.deal()
    assert of_type(rnd, CardDealt)[0].card == Card.parse("10h")
    with pytest.raises(WrongPhaseError) as refused:
        rnd.change_dealer()
    assert str(refused.value.ref) == "591.7(c)"


@pytest.mark.proves("591.7(d)", "591.7(d)(1)", "591.7(d)(2)")
def test_591_7_d_cover_card_mid_round_then_reshuffle() -> None:
    rnd = start("10c 10h 9d CC 7s 5h 4h", {1: 100})
    assert rnd.cover_card_reached
    act(rnd, 1, "stand")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "win", 100, "591.7(s)(1)(ii)")]
    types = [type(e) for e in rnd.events]
    reached = types.index(CoverCardReached)
    settled = types.index(WagerSettled)
    shuffled = types.index(Shuffled)
    assert reached < settled < shuffled
    assert str(rnd.events[shuffled - 1].ref) == "591.7(d)(1)"
    assert str(rnd.events[shuffled].ref) == "591.7(d)(2)"
    assert rnd.needs_new_shoe
    assert len(rnd.shoe) == 6
    assert not rnd.shoe.discard
    assert not rnd.table_cards()


@pytest.mark.proves("591.7(d)")
def test_591_7_d_cover_card_first_in_the_shoe() -> None:
    rnd = start("CC 10c 10h 9d 7s", {1: 100})
    (reached,) = of_type(rnd, CoverCardReached)
    dealt = of_type(rnd, CardDealt)
    # set aside before the first card, never dealt: the deal is unchanged
    assert str(reached.ref) == "591.7(d)"
    assert reached.seq < dealt[0].seq
    assert [str(e.card) for e in dealt] == ["Tc", "Th", "9d", "7s"]
    act(rnd, 1, "stand")
    finish(rnd)
    # the hand is completed (19 against 17), then the reshuffle
    assert rows(rnd) == [(1, "blackjack", 0, "win", 100, "591.7(s)(1)(ii)")]
    (shuffled,) = of_type(rnd, Shuffled)
    assert str(shuffled.ref) == "591.7(d)(2)"
    assert of_type(rnd, WagerSettled)[-1].seq < shuffled.seq
    assert rnd.needs_new_shoe


# -- (e) the deal --


@pytest.mark.proves("591.7(e)")
def test_591_7_e_deal_order_and_face_down_hole_card() -> None:
    rnd = start("2c 3c 4c 5c 6c 7c 8c 9c", {3: 100, 1: 100, 2: 100})
    dealt = of_type(rnd, CardDealt)[:8]
    assert [(e.to, str(e.ref), e.face_up) for e in dealt] == [
        ("seat 1", "591.7(e)(1)", True),
        ("seat 2", "591.7(e)(1)", True),
        ("seat 3", "591.7(e)(1)", True),
        ("dealer", "591.7(e)(2)", True),
        ("seat 1", "591.7(e)(3)", True),
        ("seat 2", "591.7(e)(3)", True),
        ("seat 3", "591.7(e)(3)", True),
        ("dealer", "591.7(e)(4)", False),
    ]
    assert rnd.view(None)["dealer"] == ["5c", "hidden"]


@pytest.mark.proves("673a.6(d)")
def test_673a_6_d_deal_needs_a_blackjack_wager() -> None:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(), shoe=Shoe.stacked("2c 3c 4c 5c")
    )
    with pytest.raises(WagerError) as err:
        rnd.deal()
    assert str(err.value.ref) == "673a.6(d)"
    assert rnd.phase is Phase.WAGERING


# -- (f) player Blackjacks --


@pytest.mark.proves("591.7(f)")
def test_591_7_f_blackjacks_paid_right_to_left_before_the_reader() -> None:
    rnd = start("As 9c Ah Ac Kd 7d Qs 5d 2h", {1: 1000, 2: 1000, 3: 1000})
    paid = of_type(rnd, WagerSettled)
    assert [(e.seat, e.net, str(e.ref)) for e in paid] == [
        (3, 1500, "591.7(f)"),
        (1, 1500, "591.7(f)"),
    ]
    collected = of_type(rnd, CardsCollected)
    assert [(e.source, str(e.ref)) for e in collected] == [
        ("seat 3", "591.7(f)"),
        ("seat 1", "591.7(f)"),
    ]
    assert rnd.phase is Phase.INSURANCE
    pending = rnd.pending()
    assert pending is not None
    assert pending.seat == 2
    act(rnd, 2, "no_insurance")
    assert paid[-1].seq < seq_of(rnd, CardReaderChecked)
    act(rnd, 2, "stand")
    finish(rnd)
    assert rows(rnd)[-1] == (2, "blackjack", 0, "lose", -1000, "591.7(s)(3)")


@pytest.mark.proves("591.7(f)")
def test_591_7_f_blackjack_is_paid_even_against_a_dealer_blackjack() -> None:
    rnd = start("As 10d Kd Ac", {1: 1000})
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "win", 1500, "591.7(f)")]


# -- (g) insurance --


@pytest.mark.proves("591.7(g)", "673a.8")
def test_591_7_g_insurance_offered_clockwise_to_live_hands() -> None:
    rnd = start("9c Ks Ah 7d Qs 6h 4h", {1: 1000, 2: 1000}, new_shoe=False)
    pending = rnd.pending()
    assert pending is not None
    assert (pending.seat, pending.legal) == (1, ("insurance", "no_insurance"))
    assert str(pending.ref) == "591.7(g)"
    before = snapshot(rnd)
    with pytest.raises(WagerError) as err:
        act(rnd, 1, "insurance", 501)
    assert str(err.value.ref) == "673a.8"
    assert snapshot(rnd) == before
    with pytest.raises(OutOfTurnError):
        act(rnd, 2, "no_insurance")
    assert snapshot(rnd) == before
    act(rnd, 1, "insurance", 500)
    pending = rnd.pending()
    assert pending is not None
    assert pending.seat == 2
    act(rnd, 2, "no_insurance")
    assert rnd.phase is Phase.PLAYER_DECISIONS
    insured = [e for e in of_type(rnd, WagerPlaced) if e.wager == "insurance"]
    assert [(e.seat, e.amount) for e in insured] == [(1, 500)]


@pytest.mark.proves("673a.8")
def test_673a_8_an_insurance_over_the_limit_is_refused_by_its_name() -> None:
    """An insurance over half the wager is refused naming the Insurance
    Wager as 673a.8 does (before, "insurance must be 1 to 500, not
    501"; D187), the amounts in dollars (D190: before, "the Insurance
    Wager must be 1 to 500, not 501")."""
    rnd = start("9c Ks Ah 7d Qs 6h 4h", {1: 1000, 2: 1000})
    before = snapshot(rnd)
    refuses(
        WagerError,
        "the Insurance Wager must be $0.01 to $5.00, not $5.01",
        lambda: act(rnd, 1, "insurance", 501),
        ref="673a.8",
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(g)")
def test_591_7_g_no_insurance_without_an_ace_up() -> None:
    rnd = start("9c Ks 7d 6h", {1: 1000})
    pending = rnd.pending()
    assert pending is not None
    assert "insurance" not in pending.legal
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError) as err:
        act(rnd, 1, "insurance", 100)
    assert str(err.value.ref) == "591.7(g)"
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(g)", "591.7(h)", "673a.8")
def test_591_7_g_insurance_won_and_lost() -> None:
    won = start("9c Ah 8d Kc", {1: 1000})
    act(won, 1, "insurance", 500)
    finish(won)
    assert rows(won) == [
        (1, "blackjack", 0, "lose", -1000, "591.7(h)"),
        # settled at the check, at the insurance wager's own odds
        (1, "insurance", 0, "win", 1000, "673a.8"),
    ]
    lost = start("10c Ah 9d 7c", {1: 1000})
    act(lost, 1, "insurance", 500)
    assert rows(lost) == [(1, "insurance", 0, "lose", -500, "673a.8")]


# -- (h) the card reader --


@pytest.mark.proves("591.7(h)")
def test_591_7_h_dealer_blackjack_collects_without_more_cards() -> None:
    rnd = start("9c 8d Kh 7d 6s As 2c", {1: 1000, 2: 1000})
    check = of_type(rnd, CardReaderChecked)
    assert [(c.blackjack, str(c.ref)) for c in check] == [(True, "591.7(h)")]
    assert len(of_type(rnd, CardDealt)) == 6
    finish(rnd)
    assert rows(rnd) == [
        (2, "blackjack", 0, "lose", -1000, "591.7(h)"),
        (1, "blackjack", 0, "lose", -1000, "591.7(h)"),
    ]
    assert rnd.shoe.notation() == "2c"


@pytest.mark.proves("591.7(h)")
def test_591_7_h_no_reader_check_on_a_low_up_card() -> None:
    rnd = start("9c 5d 8h 6s", {1: 1000})
    assert not of_type(rnd, CardReaderChecked)
    assert rnd.phase is Phase.PLAYER_DECISIONS


@pytest.mark.proves("591.7(h)", "591.7(n)")
def test_591_7_h_hole_card_unseen_in_every_view_until_turned() -> None:
    rnd = start("9c 5c 10h 4d Qd 7s 6s Jc", {1: 1000, 2: 1000})
    assert of_type(rnd, CardReaderChecked)[0].blackjack is False
    for seat in (None, 1, 2):
        text = json.dumps(rnd.view(seat))
        assert "7s" not in text  # the hole card
        assert "Jc" not in text  # an undealt card
    act(rnd, 1, "hit")
    for seat in (None, 1, 2):
        assert "7s" not in json.dumps(rnd.view(seat))
    assert rnd.view(1)["legal"] == ["stand", "hit"]
    assert "legal" not in rnd.view(2)
    act(rnd, 1, "stand")
    act(rnd, 2, "stand")
    exposed = of_type(rnd, CardExposed)
    assert [(str(e.card), str(e.ref)) for e in exposed] == [("7s", "591.7(n)")]
    finish(rnd)


# -- (i)-(k) decisions --


@pytest.mark.proves("591.7(i)", "673a.11(a)")
def test_591_7_i_decisions_clockwise_with_their_options() -> None:
    rnd = start("8c 10d 9h 8d 5s 7c 9s", {1: 1000, 2: 1000})
    pending = rnd.pending()
    assert pending is not None
    assert pending.seat == 1
    assert pending.legal == ("surrender", "double", "split", "stand", "hit")
    before = snapshot(rnd)
    with pytest.raises(OutOfTurnError) as err:
        act(rnd, 2, "stand")
    assert str(err.value.ref) == "591.7(i)"
    assert snapshot(rnd) == before
    act(rnd, 1, "stand")
    pending = rnd.pending()
    assert pending is not None
    assert pending.seat == 2
    assert pending.legal == ("surrender", "double", "stand", "hit")
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError) as illegal:
        act(rnd, 2, "split")
    assert str(illegal.value.ref) == "673a.11(a)"
    assert snapshot(rnd) == before
    act(rnd, 2, "stand")
    finish(rnd)


@pytest.mark.proves("591.7(i)", "673a.9")
def test_591_7_i_surrender_returns_half_and_only_on_two_cards() -> None:
    rnd = start("10c 10h 6d 9s 3c", {1: 1001})
    act(rnd, 1, "hit")
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError) as err:
        act(rnd, 1, "surrender")
    assert str(err.value.ref) == "673a.9"
    assert snapshot(rnd) == before
    other = start("10c 10h 6d 9s", {1: 1001})
    act(other, 1, "surrender")
    finish(other)
    assert rows(other) == [(1, "blackjack", 0, "lose", -501, "673a.9")]


@pytest.mark.proves("591.7(i)")
def test_591_7_i_surrender_can_be_switched_off() -> None:
    rnd = start("10c 10h 6d 9s", {1: 1000}, surrender=False)
    pending = rnd.pending()
    assert pending is not None
    assert "surrender" not in pending.legal


@pytest.mark.proves("591.7(i)", "591.7(m)", "673a.11")
def test_591_7_i_split_king_ten_ace_ten_is_21_not_blackjack() -> None:
    rnd = start("Kd 9c 10s 8d Ac 7h", {1: 1000})
    act(rnd, 1, "split")
    assert rows(rnd) == [(1, "blackjack", 0, "win", 1000, "591.7(m)")]
    pending = rnd.pending()
    assert pending is not None
    assert (pending.seat, pending.hand) == (1, 1)
    assert "split" not in pending.legal
    assert "surrender" not in pending.legal
    assert "double" in pending.legal
    act(rnd, 1, "stand")
    finish(rnd)
    assert rnd.hands()["seat 1 hand 2"] == ["Ts", "7h"]
    assert rows(rnd)[-1] == (1, "blackjack", 1, "push", 0, "591.7(s)(2)")


@pytest.mark.proves("591.7(i)", "673a.10", "673a.11(a)")
def test_591_7_i_split_left_hand_first_and_equal_wager() -> None:
    rnd = start("8c 6d 8s 10d 3h 2c 10h Ac", {1: 700})
    act(rnd, 1, "split")
    split_wager = [e for e in of_type(rnd, WagerPlaced) if e.hand == 1]
    assert [(e.amount, str(e.ref)) for e in split_wager] == [
        (700, "673a.11(a)")
    ]
    assert rnd.hands()["seat 1"] == ["8c", "3h"]
    assert rnd.hands()["seat 1 hand 2"] == ["8s"]
    act(rnd, 1, "double", 500)
    assert rnd.hands()["seat 1"] == ["8c", "3h", "2c"]
    assert rnd.hands()["seat 1 hand 2"] == ["8s", "Th"]
    act(rnd, 1, "stand")
    finish(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, "lose", -1200, "591.7(s)(3)"),
        (1, "blackjack", 1, "win", 700, "591.7(s)(1)(ii)"),
    ]


@pytest.mark.proves("591.7(i)", "673a.11")
def test_591_7_i_split_aces_may_draw_or_not() -> None:
    drawing = start("Ac 9d As 8d 5h 4c", {1: 100})
    act(drawing, 1, "split")
    pending = drawing.pending()
    assert pending is not None
    assert "hit" in pending.legal
    fixed = start("Ac 9d As 8d 5h 4c 9s", {1: 100}, split_aces_may_draw=False)
    act(fixed, 1, "split")
    finish(fixed)
    assert fixed.hands()["seat 1"] == ["Ac", "5h"]
    assert fixed.hands()["seat 1 hand 2"] == ["As", "4c"]


@pytest.mark.proves("591.7(i)", "673a.10")
def test_591_7_i_no_double_after_split_when_switched_off() -> None:
    rnd = start("8c 6d 8s 10d 3h", {1: 100}, double_after_split=False)
    act(rnd, 1, "split")
    pending = rnd.pending()
    assert pending is not None
    assert pending.legal == ("stand", "hit")


@pytest.mark.proves("591.7(j)")
def test_591_7_j_cards_dealt_face_up_as_decisions_require() -> None:
    rnd = start("2c 10h 3d 7s 4h 10d", {1: 100})
    act(rnd, 1, "hit")
    hit = of_type(rnd, CardDealt)[-1]
    assert (str(hit.card), hit.face_up, str(hit.ref)) == (
        "4h",
        True,
        "591.7(j)",
    )


@pytest.mark.proves("591.7(k)(1)", "591.7(m)")
def test_591_7_k_no_draw_on_hard_or_soft_21() -> None:
    rnd = start("As 9c 5d 8d 5h 2c", {1: 100})
    events = act(rnd, 1, "hit")
    assert rnd.hands()["seat 1"] == ["As", "5d", "5h"]
    assert any(
        isinstance(e, WagerSettled) and str(e.ref) == "591.7(m)"
        for e in events
    )
    assert rnd.is_over


@pytest.mark.proves("591.7(k)(2)")
def test_591_7_k_double_takes_exactly_one_card() -> None:
    rnd = start("5c 10h 4d 7s 2h 10d", {1: 100})
    act(rnd, 1, "double", 60)
    assert rnd.hands()["seat 1"] == ["5c", "4d", "2h"]
    double_card = of_type(rnd, CardDealt)[-1]
    assert str(double_card.ref) == "591.7(k)(2)"
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "lose", -160, "591.7(s)(3)")]


@pytest.mark.proves("673a.10(a)")
def test_673a_10_a_double_amount_limits() -> None:
    rnd = start("5c 10h 4d 7s 2h", {1: 100}, double_for_less=False)
    before = snapshot(rnd)
    for amount in (60, 101, 0):
        with pytest.raises(WagerError) as err:
            act(rnd, 1, "double", amount)
        assert str(err.value.ref) == "673a.10(a)"
        assert snapshot(rnd) == before


# -- (l) Second Chance --


@pytest.mark.proves("591.7(l)", "591.7(l)(2)")
def test_591_7_l_2_second_chance_reaches_21_after_a_double() -> None:
    rnd = start("10c 10h 6d 7s 9h 4s", {1: 1000})
    act(rnd, 1, "double")
    pending = rnd.pending()
    assert pending is not None
    assert pending.legal == ("second_chance", "no_second_chance")
    assert str(pending.ref) == "591.7(l)"
    act(rnd, 1, "second_chance")
    sideways = of_type(rnd, CardDealt)[-1]
    assert (sideways.purpose, str(sideways.ref)) == (
        "second chance",
        "591.7(l)",
    )
    finish(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, "push", 0, "591.7(l)(2)"),
        (1, "second_chance", 0, "win", 2000, "591.7(l)(2)"),
    ]
    assert rnd.ledger.stakes[rnd.settlements[1].key] == 2000


@pytest.mark.proves("591.7(l)", "591.7(l)(1)")
def test_591_7_l_1_second_chance_ace_counts_one_and_still_busts() -> None:
    rnd = start("10c 10h 6d 7s 9h Ah", {1: 1000})
    act(rnd, 1, "hit")
    act(rnd, 1, "second_chance")
    finish(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, "lose", -1000, "591.7(l)(1)"),
        (1, "second_chance", 0, "lose", -1000, "591.7(l)(1)"),
    ]


@pytest.mark.proves("591.7(l)(3)", "591.7(s)(1)(i)")
def test_591_7_l_3_second_chance_below_21_goes_to_the_dealer() -> None:
    rnd = start("10c 10h 5d 8s Kh 5h", {1: 1000})
    act(rnd, 1, "hit")
    act(rnd, 1, "second_chance")
    finish(rnd)
    assert rnd.hands()["seat 1"] == ["Tc", "5d", "Kh", "5h"]
    assert rows(rnd) == [
        (1, "blackjack", 0, "push", 0, "591.7(s)(1)(i)"),
        (1, "second_chance", 0, "win", 1000, "591.7(s)(1)(i)"),
    ]


@pytest.mark.proves("591.7(l)")
def test_591_7_l_second_chance_amount_must_equal_the_wager() -> None:
    rnd = start("10c 10h 5d 8s Kh 5h", {1: 1000})
    act(rnd, 1, "hit")
    before = snapshot(rnd)
    with pytest.raises(WagerError) as err:
        act(rnd, 1, "second_chance", 500)
    assert str(err.value.ref) == "591.7(l)"
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(l)")
def test_591_7_l_a_second_chance_wager_is_named_as_the_section_does() -> None:
    """The refusal a player reads names the wager as 591.7(l) does (the
    web table shows it as it is, D187): before, "seat 1's second_chance
    wager can no longer be changed: wagering is closed"."""
    rnd = start("10c 10d 10h 5d 8c 6s Kh 5h", {1: 1000, 2: 1000})
    act(rnd, 1, "hit")
    act(rnd, 1, "second_chance")
    pending = rnd.pending()
    assert pending is not None
    assert pending.seat == 2
    before = snapshot(rnd)
    refuses(
        WrongPhaseError,
        "seat 1's Second Chance Wager can no longer be changed: wagering "
        "is closed",
        lambda: rnd.change_wager(1, "second_chance", 500),
        ref="591.7(l)",
    )
    assert not rnd.can_change_wager(1, "second_chance", 500)
    assert snapshot(rnd) == before


@pytest.mark.proves("673a.6(d)")
def test_673a_6_d_wagers_refused_are_named_as_the_section_does() -> None:
    """Before the deal only a Blackjack Wager is placed: a Second Chance
    or Insurance Wager is refused by its name (before, "... not
    \"second_chance\""), and a wager not on the layout is named so too
    (before, "seat 2 has no second_chance wager to change"); once dealt,
    the Blackjack Wager can no longer be changed (D187)."""
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(),
        shoe=Shoe.stacked("10c 10d 10h 5d 8c 6s Kh 5h"),
        rng=SeededRng(1),
        new_shoe=False,
    )
    rnd.place_wager(1, "blackjack", 1000)
    before = snapshot(rnd)
    for wager, name in [
        ("second_chance", "Second Chance Wager"),
        ("insurance", "Insurance Wager"),
    ]:
        refuses(
            WagerError,
            "only a Blackjack Wager is placed before the deal, not the "
            f"{name}",
            partial(rnd.place_wager, 2, wager, 500),
            ref="673a.6(d)",
        )
        refuses(
            WagerError,
            f"seat 2 has no {name} to change",
            partial(rnd.change_wager, 2, wager, 500),
        )
        assert snapshot(rnd) == before
    rnd.deal()
    before = snapshot(rnd)
    refuses(
        WrongPhaseError,
        "seat 1's Blackjack Wager can no longer be changed: wagering is "
        "closed",
        lambda: rnd.change_wager(1, "blackjack", 500),
        ref="673a.6(d)",
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(l)", "591.7(q)(1)")
def test_591_7_l_declined_second_chance_collected_at_once() -> None:
    rnd = start("10c 10d 10h 5d 8c 6s Kh 6c", {1: 1000, 2: 1000})
    act(rnd, 1, "hit")
    act(rnd, 1, "no_second_chance")
    assert rows(rnd) == [(1, "blackjack", 0, "lose", -1000, "591.7(l)")]
    act(rnd, 2, "stand")
    finish(rnd)
    assert rnd.hands()["dealer"] == ["Th", "6s", "6c"]
    assert rows(rnd)[-1] == (2, "blackjack", 0, "push", 0, "591.7(q)(1)")


@pytest.mark.proves("591.7(l)", "591.7(q)(1)")
def test_591_7_l_declined_bust_left_on_layout_when_configured() -> None:
    rnd = start("10c 10h 5d 6s Kh 6c", {1: 1000}, collect_busts_at_once=False)
    act(rnd, 1, "hit")
    act(rnd, 1, "no_second_chance")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "push", 0, "591.7(q)(1)")]


@pytest.mark.proves("591.7(l)")
def test_591_7_l_no_second_chance_on_doubled_hands_when_off() -> None:
    rnd = start("10c 10h 6d 7s 9h", {1: 1000}, second_chance_on_doubled=False)
    act(rnd, 1, "double")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "lose", -2000, "591.7(l)")]


# -- (m)-(p) 21s and the dealer's hand --


@pytest.mark.proves("591.7(m)")
def test_591_7_m_21_paid_before_the_dealer_makes_21() -> None:
    rnd = start("10c 10d 5s 5d 8c 6c 6h Kh", {1: 1000, 2: 1000})
    act(rnd, 1, "hit")
    assert rows(rnd) == [(1, "blackjack", 0, "win", 1000, "591.7(m)")]
    act(rnd, 2, "stand")
    finish(rnd)
    assert rnd.hands()["dealer"] == ["5s", "6c", "Kh"]
    assert rows(rnd)[-1] == (2, "blackjack", 0, "lose", -1000, "591.7(s)(3)")


@pytest.mark.proves("591.7(n)")
def test_591_7_n_hole_card_turned_after_the_21s_are_settled() -> None:
    rnd = start("10c 10d 5s 5d 8c 6c 6h Kh", {1: 1000, 2: 1000})
    act(rnd, 1, "hit")
    act(rnd, 2, "stand")
    exposed = of_type(rnd, CardExposed)
    assert [(str(e.card), str(e.ref)) for e in exposed] == [("6c", "591.7(n)")]
    twenty_one = of_type(rnd, WagerSettled)[0]
    assert twenty_one.seq < exposed[0].seq


@pytest.mark.proves("591.7(o)")
def test_591_7_o_dealer_stands_on_soft_17_and_announces() -> None:
    rnd = start("10c As 9d 2h 4s 9h", {1: 1000})
    act(rnd, 1, "no_insurance")
    act(rnd, 1, "stand")
    finish(rnd)
    assert rnd.hands()["dealer"] == ["As", "2h", "4s"]
    said = [(e.text, str(e.ref)) for e in of_type(rnd, Announced)]
    assert ("dealer soft 13", "591.7(n)") in said
    assert ("dealer soft 17", "591.7(o)") in said


@pytest.mark.proves("591.7(p)")
def test_591_7_p_no_draw_when_every_hand_is_decided() -> None:
    rnd = start("10c 10h 6d 2s Kh 9c", {1: 1000})
    act(rnd, 1, "hit")
    act(rnd, 1, "no_second_chance")
    finish(rnd)
    assert rnd.hands()["dealer"] == ["Th", "2s"]
    assert any(str(e.ref) == "591.7(p)" for e in of_type(rnd, Announced))


# -- (q)-(t) settlement --


@pytest.mark.proves("591.7(q)(1)")
def test_591_7_q_1_dealer_22_returns_every_remaining_wager() -> None:
    rnd = start("10c 10h 8d 6s 6c", {1: 1000})
    act(rnd, 1, "stand")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "push", 0, "591.7(q)(1)")]


@pytest.mark.proves("591.7(r)(1)(i)", "591.7(s)(1)(ii)")
def test_591_7_r_1_i_dealer_over_22_pays_the_remaining_hands() -> None:
    rnd = start("10c 10h 8d 6s 7c", {1: 1000})
    act(rnd, 1, "stand")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, "win", 1000, "591.7(s)(1)(ii)")]


@pytest.mark.proves("591.7(r)", "591.7(s)")
@pytest.mark.parametrize(
    ("second", "outcome", "net", "ref"),
    [
        ("9d", "win", 1000, "591.7(s)(1)(ii)"),
        ("8d", "push", 0, "591.7(s)(2)"),
        ("7d", "lose", -1000, "591.7(s)(3)"),
    ],
)
def test_591_7_r_comparison_with_the_dealer(
    second: str, outcome: str, net: int, ref: str
) -> None:
    rnd = start(f"10c 10h {second} 8s", {1: 1000})
    act(rnd, 1, "stand")
    finish(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, outcome, net, ref)]


@pytest.mark.proves("591.7(s)(1)(i)")
def test_591_7_s_payouts_follow_the_rules_submission() -> None:
    rnd = start(
        "10c 10h 5d 8s Kh 5h",
        {1: 1000},
        second_chance_win_payout="3:2",
    )
    act(rnd, 1, "hit")
    act(rnd, 1, "second_chance")
    finish(rnd)
    assert rows(rnd)[-1] == (
        1,
        "second_chance",
        0,
        "win",
        1500,
        "591.7(s)(1)(i)",
    )


@pytest.mark.proves("591.7(t)(1)", "591.7(t)(2)")
@pytest.mark.parametrize(
    ("procedure", "order", "ref"),
    [
        ("collect_then_pay", [1, 3, 2], "591.7(t)(1)"),
        ("player_by_player", [3, 2, 1], "591.7(t)(2)"),
    ],
)
def test_591_7_t_collection_procedures(
    procedure: str, order: list[int], ref: str
) -> None:
    rnd = start(
        "10c 10d Kc 10h 7d 9c 9h 8s",
        {1: 1000, 2: 1000, 3: 1000},
        collection_procedure=procedure,
    )
    for seat in (1, 2, 3):
        act(rnd, seat, "stand")
    finish(rnd)
    assert [s.key.seat for s in rnd.settlements] == order
    assert any(str(e.ref) == ref for e in of_type(rnd, Announced))


# -- (u), (v) --


@pytest.mark.proves("591.7(u)")
def test_591_7_u_discard_rack_rebuilds_every_hand() -> None:
    rnd = start(
        "8c As 9d 7h 8s Kd 6c 3h 2d 9h 4c 10s",
        {1: 500, 2: 500, 3: 500},
        new_shoe=False,
    )
    act(rnd, 1, "split")
    act(rnd, 1, "stand")
    act(rnd, 1, "stand")
    act(rnd, 3, "hit")
    act(rnd, 3, "stand")
    finish(rnd)
    collected = of_type(rnd, CardsCollected)
    hands = rnd.hands()
    for event in collected:
        assert [str(c) for c in event.cards] == hands[event.source]
    rack = [c for e in collected for c in e.cards]
    assert rack == rnd.shoe.discard
    sources = [e.source for e in collected if str(e.ref) == "591.7(u)"]
    assert sources == ["seat 3", "seat 1 hand 2", "seat 1", "dealer"]


@pytest.mark.proves("591.7(v)")
def test_591_7_v_players_have_no_card_handling_verb() -> None:
    assert {a.value for a in DbjAction} == {
        "hit",
        "stand",
        "double",
        "split",
        "surrender",
        "insurance",
        "no_insurance",
        "second_chance",
        "no_second_chance",
    }
    public = {n for n in dir(DoubleBackJackRound) if not n.startswith("_")}
    handling = ("take", "touch", "move", "remove", "alter", "handle", "peek")
    assert not [n for n in public if n.startswith(handling)]
    assert "591.7(v)" in (DoubleBackJackRound.__doc__ or "")
    rnd = start("10c 10h 6d 9s", {1: 1000})
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError) as err:
        act(rnd, 1, "take_card")
    assert str(err.value.ref) == "591.7(v)"
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(i)")
def test_591_7_i_a_decision_names_no_card() -> None:
    """No Double Back Jack decision names a card: one that does is
    refused, not carried out with the card ignored (and stored with the
    round's inputs, as the server did: the stateful soak test, issue 17).
    """
    rnd = start("10c 10h 6d 9s", {1: 1000})
    before = snapshot(rnd)
    for name in ("stand", "hit", "double", "surrender"):
        with pytest.raises(IllegalActionError, match="no card") as err:
            rnd.apply(Action(seat=1, name=name, card=Card.parse("Ah")))
        assert str(err.value.ref) == "591.7(i)"  # what asks for it
        assert snapshot(rnd) == before
    act(rnd, 1, "stand")
    finish(rnd)


@pytest.mark.proves("591.7(i)", "591.7(k)(1)", "673a.11(a)")
def test_591_7_i_a_decision_refused_is_named_as_its_button_does() -> None:
    """The refusal a player reads names a decision in the words of its
    button on the web table, and lists the legal ones by those words and
    the ids an API client sends (D189): before, "split is not allowed
    for seat 2 now; legal: surrender, double, stand, hit", "stand takes
    no amount", "stand names no card, not Ah". A name that is no
    decision of the game is still written as given."""
    rnd = start("8c 10d 9h 8d 5s 7c 9s", {1: 1000, 2: 1000})
    act(rnd, 1, "stand")
    before = snapshot(rnd)
    refuses(
        IllegalActionError,
        "Split is not allowed for seat 2 now; legal: Surrender (surrender), "
        "Double down (double), Stand (stand), Hit (hit)",
        lambda: act(rnd, 2, "split"),
        ref="673a.11(a)",
    )
    refuses(
        WagerError,
        "Stand takes no amount",
        lambda: act(rnd, 2, "stand", 500),
        ref="591.7(i)",
    )
    refuses(
        WagerError,
        "Hit takes no amount",
        lambda: act(rnd, 2, "hit", 500),
        ref="591.7(k)(1)",
    )
    refuses(
        IllegalActionError,
        "Stand names no card, not Ah",
        lambda: rnd.apply(Action(seat=2, name="stand", card=Card.parse("Ah"))),
        ref="591.7(i)",
    )
    refuses(
        IllegalActionError,
        '"hit me" is not a Double Back Jack decision; a player only '
        "decides, and never handles the cards; seat 2 is to act, legal now: "
        "Surrender (surrender), Double down (double), Stand (stand), Hit "
        "(hit)",
        lambda: act(rnd, 2, "hit me"),
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(g)", "591.7(k)(1)", "673a.6(c)", "591.7(e)")
def test_591_7_g_insurance_refusals_name_decisions_and_the_phase() -> None:
    """While insurance is offered, a refusal names the decisions as the
    buttons do and the phase as the table's narration heads it (D189):
    before, "no_insurance takes no amount", "hit is not allowed for seat
    1 now; legal: insurance, no_insurance", "wagers close before the
    first card; phase is insurance", "the cards are dealt once per
    round; phase is insurance"."""
    rnd = start("9c Ks Ah 7d Qs 6h 4h", {1: 1000, 2: 1000})
    assert rnd.phase is Phase.INSURANCE
    before = snapshot(rnd)
    refuses(
        WagerError,
        "No insurance takes no amount",
        lambda: act(rnd, 1, "no_insurance", 5),
        ref="591.7(g)",
    )
    # an insurance of no amount: said so, never Python's "None"
    refuses(
        WagerError,
        "the Insurance Wager must be $0.01 to $5.00; no amount was given",
        lambda: act(rnd, 1, "insurance"),
    )
    refuses(
        IllegalActionError,
        "Hit is not allowed for seat 1 now; legal: Insurance (insurance), "
        "No insurance (no_insurance)",
        lambda: act(rnd, 1, "hit"),
        ref="591.7(k)(1)",
    )
    refuses(
        WrongPhaseError,
        "wagers close before the first card; the round is in the Insurance "
        "phase",
        lambda: rnd.place_wager(3, "blackjack", 1000),
        ref="673a.6(c)",
    )
    refuses(
        WrongPhaseError,
        "the cards are dealt once per round; the round is in the Insurance "
        "phase",
        rnd.deal,
        ref="591.7(e)",
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(l)", "591.7(c)")
def test_591_7_l_second_chance_refusals_use_the_buttons_words() -> None:
    """A busted hand is asked for its Second Chance: the refusals name
    the decisions and the phase in the table's words (D189): before,
    "no_second_chance takes no amount", "hit is not allowed for seat 1
    now; legal: second_chance, no_second_chance", "a new dealer burns
    before dealing, not in second_chance"."""
    rnd = start("10c 10d 10h 5d 8c 6s Kh 5h", {1: 1000, 2: 1000})
    act(rnd, 1, "hit")
    assert rnd.phase is Phase.SECOND_CHANCE
    before = snapshot(rnd)
    refuses(
        WagerError,
        "No Second Chance takes no amount",
        lambda: act(rnd, 1, "no_second_chance", 1000),
        ref="591.7(l)",
    )
    refuses(
        IllegalActionError,
        "Hit is not allowed for seat 1 now; legal: Second Chance "
        "(second_chance), No Second Chance (no_second_chance)",
        lambda: act(rnd, 1, "hit"),
    )
    refuses(
        WrongPhaseError,
        "a new dealer burns before dealing, not in the Second Chance phase",
        rnd.change_dealer,
        ref="591.7(c)",
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("673a.10(a)")
def test_673a_10_a_a_double_refused_is_named_as_its_button_does() -> None:
    """A double out of its range is refused naming the decision as its
    button does, and the range the rules allow (D189): before, "a
    double must be 1 to 100, not 101", also where no double for less is
    allowed and the only amount is the wager's; the amounts in dollars
    (D190: before, "Double down must be 1 to 100, not 101")."""
    rnd = start("5c 10h 4d 7s 2h", {1: 100})
    before = snapshot(rnd)
    for amount, said in ((101, "$1.01"), (0, "$0.00")):
        refuses(
            WagerError,
            f"Double down must be $0.01 to $1.00, not {said}",
            partial(act, rnd, 1, "double", amount),
            ref="673a.10(a)",
        )
    assert snapshot(rnd) == before
    rnd = start("5c 10h 4d 7s 2h", {1: 100}, double_for_less=False)
    before = snapshot(rnd)
    refuses(
        WagerError,
        "Double down must be $1.00, not $0.60",
        lambda: act(rnd, 1, "double", 60),
        ref="673a.10(a)",
    )
    assert snapshot(rnd) == before


@pytest.mark.proves("591.7(u)")
def test_591_7_u_no_decision_after_the_round_names_the_phase() -> None:
    """Before, "no decision is pending in phase complete" (D189)."""
    rnd = start("10c 10h 9d 8s", {1: 1000})
    act(rnd, 1, "stand")
    before = snapshot(rnd)
    refuses(
        WrongPhaseError,
        "no decision is pending in the Complete phase",
        lambda: act(rnd, 1, "hit"),
        ref="591.7(u)",
    )
    assert snapshot(rnd) == before


# -- wagers, phases, refusals --


@pytest.mark.proves("673a.2(a)", "673a.6(a)", "673a.6(d)")
@pytest.mark.parametrize(
    ("seat", "wager", "amount", "ref"),
    [
        (7, "blackjack", 100, "673a.2(a)"),
        (0, "blackjack", 100, "673a.2(a)"),
        (1, "blackjack", 0, "673a.6(a)"),
        (1, "blackjack", -5, "673a.6(a)"),
        (1, "insurance", 100, "673a.6(d)"),
    ],
)
def test_673a_6_wager_refusals(
    seat: int, wager: str, amount: int, ref: str
) -> None:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(), shoe=Shoe.stacked("2c 3c 4c 5c")
    )
    before = len(rnd.events)
    with pytest.raises(WagerError) as err:
        rnd.place_wager(seat, wager, amount)
    assert str(err.value.ref) == ref
    assert len(rnd.events) == before
    assert not rnd.ledger.stakes


@pytest.mark.proves("673a.2(a)")
def test_673a_2_a_boxes_limit_follows_the_rules() -> None:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(boxes=3), shoe=Shoe.stacked("2c")
    )
    with pytest.raises(WagerError):
        rnd.place_wager(4, "blackjack", 100)


@pytest.mark.proves("673a.6(e)")
def test_673a_6_e_one_player_adjacent_boxes() -> None:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules(boxes_per_player=2), shoe=Shoe.stacked("2c")
    )
    rnd.place_wager(2, "blackjack", 100, player="ann")
    with pytest.raises(WagerError) as err:
        rnd.place_wager(4, "blackjack", 100, player="ann")
    assert str(err.value.ref) == "673a.6(e)"
    rnd.place_wager(3, "blackjack", 100, player="ann")
    with pytest.raises(WagerError):
        rnd.place_wager(1, "blackjack", 100, player="ann")


@pytest.mark.proves("673a.6(c)")
def test_673a_6_c_wagers_close_at_the_deal() -> None:
    rnd = start("10c 10h 6d 9s", {1: 1000})
    with pytest.raises(WrongPhaseError) as err:
        rnd.place_wager(2, "blackjack", 100)
    assert str(err.value.ref) == "673a.6(c)"
    with pytest.raises(WrongPhaseError):
        rnd.deal()


def test_no_decision_after_the_round() -> None:
    rnd = start("10c 10h 9d 8s", {1: 1000})
    act(rnd, 1, "stand")
    before = snapshot(rnd)
    with pytest.raises(WrongPhaseError):
        act(rnd, 1, "hit")
    assert snapshot(rnd) == before


def test_no_starting_position_on_a_shoe_game() -> None:
    with pytest.raises(ProcedureError):
        DoubleBackJackRound(
            rules=DoubleBackJackRules(),
            shoe=Shoe.stacked("2c"),
            starting_position=1,
        )


def test_transition_table_is_closed() -> None:
    assert set(TRANSITIONS) == set(Phase)
    assert all(set(targets) <= set(Phase) for targets in TRANSITIONS.values())
    assert not TRANSITIONS[Phase.COMPLETE]
    # issue 18 point 1: every edge cites a subsection of 591.7 or 673a
    cited = [
        ref for targets in TRANSITIONS.values() for ref in targets.values()
    ]
    assert cited
    assert all(
        isinstance(ref, Ref) and ref.section in ("591.7", "673a.6")
        for ref in cited
    )
