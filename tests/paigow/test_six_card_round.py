"""Six-Card Fortune Pai Gow Poker rounds: decisions, wagers, settlement."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.engine_refusals import refuses

from croupier.cards import Card
from croupier.errors import (
    IllegalActionError,
    OutOfTurnError,
    RulesError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import DecisionMade
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.games.six_card_fortune_pai_gow.events import (
    HandSet,
    ProgressiveCountError,
)
from croupier.games.six_card_fortune_pai_gow.phases import Phase
from croupier.hands.paigow import FoulSettingError
from croupier.money import Outcome, WagerKey
from croupier.registry import find_game
from croupier.round import Action

Deck = Callable[..., list[Card]]
MakeRound = Callable[..., SixCardRound]
DEALER_WEAK = "Ks Qd 9s 5d 4c 3d"


def _act(rnd: SixCardRound, seat: int, name: str, **kw: object) -> None:
    card = kw.pop("low", None)
    amount = kw.pop("amount", None)
    rnd.apply(
        Action(
            seat=seat,
            name=name,
            card=None if card is None else Card.parse(str(card)),
            amount=None if amount is None else int(str(amount)),
        )
    )


def test_registered_game() -> None:
    spec = find_game("six-card-fortune-pai-gow")
    assert spec.uses_starting_position
    assert spec.max_seats == 6
    assert set(spec.wagers) == {"pai_gow", "fortune_bonus", "progressive"}
    assert len(spec.new_shoe(SixCardRules(), None)) == 53  # type: ignore[arg-type]


@pytest.mark.proves("670a.11")
def test_decision_order_clockwise_from_the_starting_position(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(4), start=4, double_down_offered=True)
    for seat in (1, 3, 5):
        rnd.place_wager(seat, "pai_gow", 1000)
    rnd.deal()
    seen = []
    while (pending := rnd.pending()) is not None:
        seen.append((pending.seat, pending.legal))
        name = "no_double_down" if "no_double_down" in pending.legal else ""
        _act(rnd, pending.seat, name or "house_way")
    dd = ("double_down", "no_double_down")
    hw = ("set", "house_way")
    assert seen == [
        (5, dd),
        (5, hw),
        (1, dd),
        (1, hw),
        (3, dd),
        (3, hw),
    ]
    assert rnd.phase is Phase.COMPLETE
    rnd.ledger.verify()


@pytest.mark.proves("670a.11")
def test_out_of_turn_and_illegal_actions_leave_state_unchanged(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1), double_down_offered=True)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.deal()
    events = rnd.events
    with pytest.raises(OutOfTurnError):
        _act(rnd, 2, "no_double_down")
    with pytest.raises(IllegalActionError, match="legal now"):
        _act(rnd, 1, "house_way")
    with pytest.raises(WagerError, match=r"from \$0\.01 to"):
        _act(rnd, 1, "double_down", amount=1001)
    assert rnd.events == events
    _act(rnd, 1, "no_double_down")
    with pytest.raises(IllegalActionError, match="names its low card"):
        _act(rnd, 1, "set")
    assert rnd.pending() is not None


@pytest.mark.proves("670a.7(c)", "670a.11")
def test_670a_11_a_decision_takes_only_its_own_amount_and_card(
    deck: Deck, make_round: MakeRound
) -> None:
    """Only the Double Down names an amount, only a setting a low card.

    The server accepted ``no_double_down`` and ``house_way`` with an
    amount (and any decision with a card), ignored what it did not use
    and stored it with the round's inputs (found by the stateful soak
    test, issue 17); Double Back Jack refuses an amount a decision does
    not take, and so does this game now.
    """
    rnd = make_round(
        deck(1, {1: "Kd 9c 7h 5s 2d Ac", 7: DEALER_WEAK}),
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    events = rnd.events
    with pytest.raises(WagerError, match="no amount") as amount:
        _act(rnd, 1, "no_double_down", amount=500)
    assert str(amount.value.ref) == "670a.7(c)"
    with pytest.raises(IllegalActionError, match="no card") as card:
        _act(rnd, 1, "double_down", amount=500, low="Kd")
    assert str(card.value.ref) == "670a.7(c)"
    with pytest.raises(IllegalActionError, match="no card"):
        _act(rnd, 1, "no_double_down", low="Kd")
    assert rnd.events == events
    _act(rnd, 1, "no_double_down")
    events = rnd.events
    for name, extra in (
        ("house_way", {"amount": 7}),
        ("set", {"amount": 7, "low": "Kd"}),
    ):
        with pytest.raises(WagerError, match="no amount") as refused:
            _act(rnd, 1, name, **extra)
        assert str(refused.value.ref) == "670a.11"
    with pytest.raises(IllegalActionError, match="no card") as card:
        _act(rnd, 1, "house_way", low="Kd")
    assert str(card.value.ref) == "670a.11"
    assert rnd.events == events
    assert dict(rnd.ledger.stakes) == {WagerKey(1, "pai_gow"): 1000}
    _act(rnd, 1, "set", low="Kd")
    assert rnd.phase is Phase.COMPLETE


@pytest.mark.proves("670a.7(c)", "670a.11")
def test_670a_7_c_decisions_refused_are_named_as_their_buttons_do(
    deck: Deck, make_round: MakeRound
) -> None:
    """The refusals a player reads name the decisions in the words of
    their buttons on the web table, the legal ones by those words and
    the ids an API client sends, and the phase as the table's narration
    heads it (D189): before, "seat 1 tried \"house_way\"; legal now:
    double_down, no_double_down", "no_double_down takes no amount, not
    500", "house_way names no card, not Kd" and "no decision is pending
    (phase complete)". A name that is no decision of the game is still
    written as given. An amount is written in dollars (D190: before,
    "No Double Down takes no amount, not 500")."""
    rnd = make_round(
        deck(1, {1: "Kd 9c 7h 5s 2d Ac", 7: DEALER_WEAK}),
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    refuses(
        WrongPhaseError,
        "no decision is pending in the Wagering phase",
        lambda: _act(rnd, 1, "house_way"),
        ref="670a.11",
    )
    rnd.deal()
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    legal = (
        "legal now: Double Down Wager (double_down), No Double Down "
        "(no_double_down)"
    )
    refuses(
        IllegalActionError,
        f"seat 1 tried House way; {legal}",
        lambda: _act(rnd, 1, "house_way"),
        ref="670a.7(c)",
    )
    refuses(
        IllegalActionError,
        f'seat 1 tried "hit"; {legal}',
        lambda: _act(rnd, 1, "hit"),
    )
    refuses(
        WagerError,
        "No Double Down takes no amount, not $5.00",
        lambda: _act(rnd, 1, "no_double_down", amount=500),
        ref="670a.7(c)",
    )
    refuses(
        IllegalActionError,
        "No Double Down names no card, not Kd",
        lambda: _act(rnd, 1, "no_double_down", low="Kd"),
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before
    _act(rnd, 1, "no_double_down")
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        IllegalActionError,
        "seat 1 tried Double Down Wager; legal now: Set my hands (set), "
        "House way (house_way)",
        lambda: _act(rnd, 1, "double_down", amount=500),
        ref="670a.11",
    )
    refuses(
        WagerError,
        "House way takes no amount, not $0.07",
        lambda: _act(rnd, 1, "house_way", amount=7),
        ref="670a.11",
    )
    refuses(
        IllegalActionError,
        "House way names no card, not Kd",
        lambda: _act(rnd, 1, "house_way", low="Kd"),
        ref="670a.11",
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before
    _act(rnd, 1, "set", low="Kd")
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WrongPhaseError,
        "no decision is pending in the Complete phase",
        lambda: _act(rnd, 1, "set", low="Kd"),
        ref="670a.11",
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("670a.11")
def test_foul_setting_refused_then_a_legal_one_accepted(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(
        deck(1, {1: "Kd 9c 7h 5s 2d Ac", 7: DEALER_WEAK}),
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    _act(rnd, 1, "no_double_down")
    events = rnd.events
    with pytest.raises(FoulSettingError) as info:
        _act(rnd, 1, "set", low="Ac")
    assert str(info.value.ref) == "670a.11"
    assert rnd.events == events
    _act(rnd, 1, "set", low="Kd")
    sets = [e for e in rnd.events if isinstance(e, HandSet)]
    assert [(e.to, str(e.low), e.way) for e in sets] == [
        ("seat 1", "Kd", "player"),
        ("dealer", "Qd", "standard"),
    ]


@pytest.mark.proves("670a.7(c)")
def test_double_down_is_settled_like_the_base_wager_d22(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(
        deck(1, {1: "JK 9h 8d 7c 6s Ac", 7: DEALER_WEAK}),
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    _act(rnd, 1, "double_down", amount=600)
    _act(rnd, 1, "set", low="Ac")
    by_wager = {s.key.wager: s for s in rnd.settlements}
    # D20 (revised): no commission on winning wagers, so even money
    assert by_wager["pai_gow"].net == 1000
    assert by_wager["pai_gow"].commission == 0
    assert by_wager["double_down"].amount == 600
    assert by_wager["double_down"].net == 600
    decisions = [e for e in rnd.events if isinstance(e, DecisionMade)]
    assert decisions[0].amount == 600


def test_double_down_not_offered(deck: Deck, make_round: MakeRound) -> None:
    rnd = make_round(deck(1), double_down_offered=False)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    pending = rnd.pending()
    assert pending is not None
    assert pending.legal == ("set", "house_way")


def test_commission_option_d20(deck: Deck, make_round: MakeRound) -> None:
    rnd = make_round(
        deck(1, {1: "JK 9h 8d 7c 6s Ac", 7: DEALER_WEAK}),
        commission="1/20",
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    _act(rnd, 1, "double_down", amount=600)
    _act(rnd, 1, "set", low="Ac")
    by_wager = {s.key.wager: s for s in rnd.settlements}
    # 5 % of 1000 is 50, of 600 is 30: 950 and 570 paid
    assert by_wager["pai_gow"].outcome is Outcome.WIN
    assert (by_wager["pai_gow"].net, by_wager["pai_gow"].commission) == (
        950,
        50,
    )
    assert by_wager["double_down"].net == 570


@pytest.mark.proves("670a.7(e)")
def test_wager_refusals(deck: Deck, make_round: MakeRound) -> None:
    rnd = make_round(
        deck(1), progressive_offered=False, double_down_offered=True
    )
    with pytest.raises(WagerError, match="after the cards"):
        rnd.place_wager(1, "double_down", 1000)
    with pytest.raises(WagerError, match="not a wager offered"):
        rnd.place_wager(1, "progressive", 100)
    with pytest.raises(WagerError, match="no seat 7"):
        rnd.place_wager(7, "pai_gow", 100)
    rnd.place_wager(1, "pai_gow", 1000)
    with pytest.raises(WagerError, match="already has"):
        rnd.place_wager(1, "pai_gow", 1000)
    with pytest.raises(WagerError) as info:
        rnd.place_wager(2, "fortune_bonus", 500)
    assert str(info.value.ref) == "670a.7(e)"
    assert rnd.phase is Phase.WAGERING
    assert WagerKey(2, "fortune_bonus") not in rnd.ledger.stakes


@pytest.mark.proves("670a.7(e)")
def test_670a_7_e_a_side_wager_alone_is_refused_in_the_sections_words(
    deck: Deck, make_round: MakeRound
) -> None:
    """The refusal a player reads names the wagers as the section does
    (the web table shows it as it is): before, "a fortune_bonus wager
    needs a Six-Card Fortune Pai Gow Poker Wager at seat 2 first"."""
    rnd = make_round(deck(1))
    for wager, amount, name in [
        ("fortune_bonus", 500, "Fortune Bonus Wager"),
        ("progressive", 100, "Progressive Payout Wager"),
    ]:
        with pytest.raises(WagerError) as info:
            rnd.place_wager(2, wager, amount)
        assert info.value.message == (
            f"a {name} needs a Six-Card Fortune Pai Gow Poker Wager at "
            "seat 2 first"
        )
        assert not rnd.ledger.stakes


@pytest.mark.proves("670a.7(c)", "670a.7(e)")
def test_670a_7_c_refusals_name_the_wagers_as_the_section_does(
    deck: Deck, make_round: MakeRound
) -> None:
    """Every refusal a player reads names the wagers as 670a.7 does
    (D187): before, "seat 2 already has a fortune_bonus wager", "take
    back the fortune_bonus wager at seat 2 before its Pai Gow Poker
    Wager", "fortune_bonus wager after 'no more bets'" and "seat 2's
    fortune_bonus wager can no longer be changed: wagering is closed"."""
    rnd = make_round(deck(1))
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.place_wager(2, "fortune_bonus", 500)
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WagerError,
        "seat 2 already has a Fortune Bonus Wager",
        lambda: rnd.place_wager(2, "fortune_bonus", 500),
        ref="670a.7(c)",
    )
    refuses(
        WagerError,
        "take back the Fortune Bonus Wager at seat 2 before its Six-Card "
        "Fortune Pai Gow Poker Wager",
        lambda: rnd.change_wager(2, "pai_gow", 0),
        ref="670a.7(e)",
    )
    rnd.place_wager(2, "progressive", 100)
    refuses(
        WagerError,
        "take back the Fortune Bonus Wager and the Progressive Payout "
        "Wager at seat 2 before its Six-Card Fortune Pai Gow Poker Wager",
        lambda: rnd.change_wager(2, "pai_gow", 0),
    )
    rnd.change_wager(2, "progressive", 0)
    assert (len(rnd.log) - 2, dict(rnd.ledger.stakes), rnd.phase) == before
    rnd.deal()
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WrongPhaseError,
        "no Fortune Bonus Wager after 'no more bets'",
        lambda: rnd.place_wager(3, "fortune_bonus", 500),
        ref="670a.7(c)",
    )
    refuses(
        WrongPhaseError,
        "seat 2's Fortune Bonus Wager can no longer be changed: wagering "
        "is closed",
        lambda: rnd.change_wager(2, "fortune_bonus", 1000),
        ref="670a.7(a)",
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("670a.7(e)")
def test_670a_7_e_a_side_wager_not_offered_is_named_as_the_section_does(
    deck: Deck, make_round: MakeRound
) -> None:
    """Before, "fortune_bonus is not a wager offered at this table"
    (D187); a name that is no wager of the game is still written as
    JSON."""
    rnd = make_round(deck(1), fortune_bonus_offered=False)
    rnd.place_wager(2, "pai_gow", 1000)
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WagerError,
        "the Fortune Bonus Wager is not a wager offered at this table",
        lambda: rnd.place_wager(2, "fortune_bonus", 500),
        ref="670a.7(e)",
    )
    refuses(
        WagerError,
        '"fortune" is not a wager offered at this table',
        lambda: rnd.place_wager(2, "fortune", 500),
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("670a.9(a)(3)(ii)")
def test_670a_9_a_3_ii_a_count_mismatch_names_the_progressive_wager(
    deck: Deck, make_round: MakeRound
) -> None:
    """Before, "1 progressive wager(s) on the layout but ..." (D187)."""
    rnd = make_round(deck(1), progressive_system_count_offset=1)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.place_wager(2, "progressive", 100)
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        ProgressiveCountError,
        "1 Progressive Payout Wager(s) on the layout but the progressive "
        "system accepted 2: the deal may not begin",
        rnd.deal,
        ref="670a.9(a)(3)(ii)",
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


def test_progressive_wager_is_one_fixed_chip(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1))
    rnd.place_wager(1, "pai_gow", 1000)
    with pytest.raises(WagerError, match=r"exactly \$1\.00 \(100 in cents\)"):
        rnd.place_wager(1, "progressive", 500)


@pytest.mark.proves("670a.7(d)")
def test_no_wager_no_deal(deck: Deck, make_round: MakeRound) -> None:
    rnd = make_round(deck(1))
    with pytest.raises(WagerError) as info:
        rnd.deal()
    assert str(info.value.ref) == "670a.7(d)"


def test_rules_options_validated() -> None:
    with pytest.raises(RulesError, match="house_way"):
        SixCardRules.from_mapping({"house_way": "mine"})
    with pytest.raises(RulesError, match="dealing"):
        SixCardRules.from_mapping({"dealing": "telepathy"})
    with pytest.raises(RulesError, match="fortune_bonus_paytable"):
        SixCardRules.from_mapping({"fortune_bonus_paytable": {"pair!": "1:1"}})
    names = {info.name for info in SixCardRules.options()}
    assert {"commission", "house_way", "envy_qualifying_minimum"} <= names


def test_envy_not_paid_without_a_lammer_or_for_own_hand(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(
        deck(
            1,
            {
                1: "5c 5d 5h 5s Jh 7c",
                2: "Ah Kh Qd 7s 4c 3h",
                7: "9c 9d 9h 9s Kc 2d",
            },
        ),
        envy_counts_dealer=False,
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(1, "fortune_bonus", 500)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.place_wager(2, "fortune_bonus", 400)  # below the 500 minimum
    rnd.deal()
    for seat in (1, 2):
        _act(rnd, seat, "no_double_down")
        _act(rnd, seat, "house_way")
    fortune = {
        s.key.seat: s.net
        for s in rnd.settlements
        if s.key.wager == "fortune_bonus"
    }
    # seat 1: quads 75:1, no Envy (own hand; dealer excluded by option)
    assert fortune == {1: 37_500, 2: -400}


def test_view_hides_other_seats_until_settlement(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(
        deck(1, {1: "JK 9h 8d 7c 6s Ac", 2: "2c 2d 2h 3c 3d 3h"}),
        double_down_offered=True,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.place_wager(2, "pai_gow", 1000)
    rnd.deal()
    mine = rnd.view(1)["positions"]
    assert mine["seat 1"]["cards"] == ["JK", "9h", "8d", "7c", "6s", "Ac"]
    assert mine["seat 2"]["cards"] == 6
    assert mine["dealer"]["cards"] == 6
    assert rnd.view(None)["positions"]["seat 1"]["cards"] == 6
    for seat in (1, 2):
        _act(rnd, seat, "no_double_down")
        _act(rnd, seat, "house_way")
    done = rnd.view(None)
    assert done["phase"] == "complete"
    dealer_cards = done["positions"]["dealer"]["cards"]
    assert isinstance(dealer_cards, list)
    assert len(dealer_cards) == 6
    assert rnd.ledger.stakes[WagerKey(1, "pai_gow")] == 1000
