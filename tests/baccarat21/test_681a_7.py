"""21 Baccarat, § 681a.7 (a)-(m): one group of tests per subsection.

Shoes are stacked top first; with ``new_shoe`` (the default) the first
card is the (c) burn.
"""

from __future__ import annotations

import itertools
from functools import partial
from typing import Any

import pytest
from tests.engine_refusals import refuses

from croupier.cards import Card, parse_cards
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    RulesError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    CardBurned,
    CardDealt,
    CardsCollected,
    CoverCardInserted,
    CoverCardReached,
    PhaseEntered,
    Shuffled,
)
from croupier.games.baccarat21 import (
    TRANSITIONS,
    Baccarat21Round,
    Baccarat21Rules,
    Phase,
    Side,
    compare_totals,
    main_wager_outcome,
)
from croupier.money import Odds, Outcome
from croupier.registry import find_game
from croupier.regs import Ref, implementations
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.rules import Provenance
from croupier.shoe import COVER_CARD, Shoe

Wagers = list[tuple[int, str, int]]


def make_round(
    shoe: str,
    wagers: Wagers | None = None,
    *,
    new_shoe: bool = True,
    rules: dict[str, Any] | None = None,
) -> Baccarat21Round:
    """A round on a stacked shoe with the wagers placed, not yet dealt."""
    rnd = Baccarat21Round(
        rules=Baccarat21Rules.from_mapping(rules or {}),
        shoe=Shoe.stacked(shoe),
        rng=SeededRng(1),
        new_shoe=new_shoe,
    )
    for seat, wager, amount in wagers or []:
        rnd.place_wager(seat, wager, amount)
    return rnd


def play(
    shoe: str,
    wagers: Wagers,
    *,
    new_shoe: bool = True,
    rules: dict[str, Any] | None = None,
) -> Baccarat21Round:
    """A round on a stacked shoe, dealt to the end."""
    rnd = make_round(shoe, wagers, new_shoe=new_shoe, rules=rules)
    rnd.deal()
    return rnd


def outcomes(rnd: Baccarat21Round) -> list[tuple[int, str, str, int, str]]:
    """(seat, wager, outcome, net, ref) in settlement order."""
    return [
        (s.key.seat, s.key.wager, s.outcome.value, s.net, str(s.ref))
        for s in rnd.settlements
    ]


def dealt(rnd: Baccarat21Round) -> list[CardDealt]:
    return [e for e in rnd.events if isinstance(e, CardDealt)]


# -- (a) the dealing shoe ------------------------------------------------


@pytest.mark.proves("681a.7(a)")
def test_681a_7_a_cards_come_from_the_dealing_shoe_in_order() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d 4c", [(1, "player", 100)])
    assert [str(e.card) for e in dealt(rnd)] == ["9h", "Kd", "5s", "7c", "9d"]
    assert rnd.shoe.notation() == "4c"
    assert rnd.is_over


@pytest.mark.proves("681a.3")
def test_681a_3_the_shoe_holds_the_configured_decks() -> None:
    spec = find_game("21-baccarat")
    assert len(spec.new_shoe(Baccarat21Rules(), SeededRng(0))) == 3 * 52
    two = Baccarat21Rules.from_mapping({"decks": 2})
    assert len(spec.new_shoe(two, SeededRng(0))) == 2 * 52


# -- (b) one card at a time, by the dealer, onto the layout ----------------


@pytest.mark.proves("681a.7(b)")
def test_681a_7_b_each_card_goes_from_the_shoe_to_its_layout_area() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "banker", 100)])
    events = dealt(rnd)
    assert {e.to for e in events} == {"player hand", "banker hand"}
    assert all(e.face_up for e in events)
    # one card per event, each the next card of the stack
    assert [str(e.card) for e in events] == ["9h", "Kd", "5s", "7c", "9d"]
    names = implementations()[Ref.parse("681a.7(b)")]
    assert any("baccarat21" in name for name in names)


# -- (c) burn -------------------------------------------------------------


@pytest.mark.proves("681a.7(c)")
def test_681a_7_c_new_batch_burns_the_first_card() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "player", 100)])
    first = rnd.events[0]
    assert isinstance(first, CardBurned)
    assert first.card == Card.parse("2c")
    assert str(first.ref) == "681a.7(c)"
    assert rnd.shoe.discard[0] == Card.parse("2c")


@pytest.mark.proves("681a.7(c)")
def test_681a_7_c_no_burn_when_the_batch_is_already_in_play() -> None:
    rnd = play("9h Kd 5s 7c 9d", [(1, "player", 100)], new_shoe=False)
    assert not any(isinstance(e, CardBurned) for e in rnd.events)
    assert rnd.hands()["player"] == ["9h", "5s", "9d"]


@pytest.mark.proves("681a.7(c)")
def test_681a_7_c_new_dealer_burns_one_card_before_dealing() -> None:
    rnd = make_round("2c 3c 9h Kd 5s 7c 9d", [(1, "player", 100)])
    event = rnd.change_dealer()
    assert isinstance(event, CardBurned)
    assert event.card == Card.parse("3c")
    assert str(event.ref) == "681a.7(c)"
    rnd.deal()
    assert rnd.hands()["player"] == ["9h", "5s", "9d"]
    with pytest.raises(WrongPhaseError) as info:
        rnd.change_dealer()
    assert str(info.value.ref) == "681a.7(c)"


# -- (d) cover card ---------------------------------------------------------


@pytest.mark.proves("681a.7(d)", "681a.7(d)(1)", "681a.7(d)(2)", "681a.7(l)")
def test_681a_7_d_cover_card_mid_round_completes_then_reshuffles() -> None:
    rnd = play("2c 9h Kd CC 5s 7c 9d 4c 4h Qs", [(1, "banker", 2000)])
    types = [type(e) for e in rnd.events]
    reached = types.index(CoverCardReached)
    last_collected = max(
        i for i, e in enumerate(rnd.events) if isinstance(e, CardsCollected)
    )
    # the hand was completed: (l) collected both hands, then (d) ran
    assert rnd.hands() == {
        "player": ["9h", "5s", "9d"],
        "banker": ["Kd", "7c"],
    }
    assert reached < types.index(Shuffled)
    shuffled = next(e for e in rnd.events if isinstance(e, Shuffled))
    assert str(shuffled.ref) == "681a.7(d)(2)"
    assert last_collected < rnd.events.index(shuffled)
    rest = [
        e
        for e in rnd.events
        if isinstance(e, CardsCollected) and e.source == "shoe"
    ]
    assert [str(e.ref) for e in rest] == ["681a.7(d)(1)"]
    assert rest[0].cards == parse_cards("4c 4h Qs")
    assert rnd.needs_new_shoe
    assert rnd.phase is Phase.COMPLETE
    # every card is back in the shoe with a new cover card
    assert len(rnd.shoe) == 9
    assert rnd.shoe.discard == []
    assert rnd.shoe.stack[int(9 * 3 / 4)] is COVER_CARD
    assert any(isinstance(e, CoverCardInserted) for e in rnd.events)
    rnd.verify_conservation()


@pytest.mark.proves("681a.7(d)", "681a.7(c)")
def test_681a_7_d_cover_card_as_the_first_card_of_a_round() -> None:
    shoe = Shoe.stacked("CC 9h Kd 5s 7c 9d 4c")
    rnd = Baccarat21Round(
        rules=Baccarat21Rules(), shoe=shoe, rng=SeededRng(3), new_shoe=False
    )
    rnd.place_wager(2, "player", 500)
    rnd.deal()
    assert isinstance(
        rnd.events[rnd.events.index(dealt(rnd)[0]) - 1], (CoverCardReached)
    )
    assert rnd.settlements[0].outcome is Outcome.LOSE
    assert rnd.needs_new_shoe
    # the next round starts with the (c) burn of the new batch
    nxt = Baccarat21Round(
        rules=Baccarat21Rules(), shoe=shoe, rng=SeededRng(3), new_shoe=True
    )
    assert isinstance(nxt.events[0], CardBurned)
    nxt.verify_conservation()


@pytest.mark.proves("681a.7(d)")
def test_681a_7_d_no_reshuffle_without_the_cover_card() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d 4c", [(1, "player", 100)])
    assert not rnd.cover_card_reached
    assert not rnd.needs_new_shoe
    assert not any(isinstance(e, Shuffled) for e in rnd.events)


# -- (e) wagers, then Player, Banker, Player, Banker face up ----------------


@pytest.mark.proves("681a.7(e)")
def test_681a_7_e_deal_order_player_banker_player_banker() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "player", 100)])
    first_four = dealt(rnd)[:4]
    assert [e.to for e in first_four] == [
        "player hand",
        "banker hand",
        "player hand",
        "banker hand",
    ]
    assert [str(e.ref) for e in first_four] == [
        "681a.7(e)(1)",
        "681a.7(e)(2)",
        "681a.7(e)(3)",
        "681a.7(e)(4)",
    ]
    assert all(e.face_up for e in first_four)


@pytest.mark.proves("681a.6")
@pytest.mark.parametrize(
    ("seat", "wager", "amount", "fragment"),
    [
        (1, "dragon7", 100, 'no "dragon7" wager'),
        (0, "player", 100, "no seat 0"),
        (8, "tie", 100, "no seat 8"),
        (1, "player", 0, "positive amount"),
        (1, "banker", 100, "already has a Banker Wager"),
    ],
)
def test_681a_6_wager_refusals_leave_the_round_unchanged(
    seat: int, wager: str, amount: int, fragment: str
) -> None:
    rnd = make_round("2c 9h Kd 5s 7c 9d", [(1, "banker", 100)])
    before = len(rnd.events)
    assert not rnd.can_place_wager(seat, wager, amount)
    with pytest.raises(WagerError, match=fragment) as info:
        rnd.place_wager(seat, wager, amount)
    assert str(info.value.ref) == "681a.7(e)"
    assert len(rnd.events) == before
    assert rnd.ledger.stakes == dict.fromkeys(rnd.ledger.stakes, 100)


@pytest.mark.proves("681a.7(e)")
def test_681a_7_e_a_second_wager_is_refused_in_the_sections_words() -> None:
    """The refusals a player reads name the wagers as 681a.7 does (the
    web table shows them as they are, D187): before, "seat 1 already has
    a bonus_player wager" and "seat 1 has no tie wager to change"."""
    rnd = make_round(
        "2c 9h Kd 5s 7c 9d", [(1, "banker", 100), (1, "bonus_player", 100)]
    )
    before = (len(rnd.events), dict(rnd.ledger.stakes), rnd.phase)
    for wager, said in [
        ("banker", "seat 1 already has a Banker Wager"),
        (
            "bonus_player",
            "seat 1 already has a Bonus Wager on the Player's Hand",
        ),
    ]:
        refuses(
            WagerError,
            said,
            partial(rnd.place_wager, 1, wager, 100),
            ref="681a.7(e)",
        )
    for wager, said in [
        ("tie", "seat 1 has no Tie Wager to change"),
        (
            "bonus_banker",
            "seat 1 has no Bonus Wager on the Banker's Hand to change",
        ),
    ]:
        refuses(WagerError, said, partial(rnd.change_wager, 1, wager, 100))
    assert (len(rnd.events), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("681a.7(e)", "681a.7(c)")
def test_681a_7_e_refusals_after_the_deal_name_the_phase() -> None:
    """A wager, a deal or a new dealer's burn after the deal is refused
    naming the phase as the table's narration heads it (D189): before,
    "wagers are placed before the deal, not in complete", "the cards
    are dealt after wagering, not in complete" and "a new dealer burns
    before dealing, not in complete"."""
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "banker", 100)])
    before = (len(rnd.events), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WrongPhaseError,
        "wagers are placed before the deal, not in the Complete phase",
        lambda: rnd.place_wager(2, "player", 100),
        ref="681a.7(e)",
    )
    refuses(
        WrongPhaseError,
        "the cards are dealt after wagering, not in the Complete phase",
        rnd.deal,
        ref="681a.7(e)",
    )
    refuses(
        WrongPhaseError,
        "a new dealer burns before dealing, not in the Complete phase",
        rnd.change_dealer,
        ref="681a.7(c)",
    )
    assert (len(rnd.events), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("681a.7(e)")
def test_681a_7_e_no_deal_without_a_wager_and_no_wager_after_it() -> None:
    rnd = make_round("2c 9h Kd 5s 7c 9d")
    with pytest.raises(WagerError):
        rnd.deal()
    assert rnd.phase is Phase.WAGERING
    rnd.place_wager(3, "tie", 100)
    rnd.deal()
    with pytest.raises(WrongPhaseError) as info:
        rnd.place_wager(3, "player", 100)
    assert str(info.value.ref) == "681a.7(e)"
    with pytest.raises(WrongPhaseError):
        rnd.deal()


@pytest.mark.proves("681a.2")
def test_681a_2_seat_count_is_an_option() -> None:
    rnd = make_round("2c 9h Kd 5s 7c 9d", rules={"seats": 9})
    rnd.place_wager(9, "player", 100)
    with pytest.raises(RulesError, match="seats"):
        Baccarat21Rules.from_mapping({"seats": 0})


def test_no_starting_position_on_a_shoe_game() -> None:
    with pytest.raises(CroupierError, match="starting position"):
        Baccarat21Round(
            rules=Baccarat21Rules(),
            shoe=Shoe.stacked("2c 9h"),
            starting_position=1,
        )


# -- (f) naturals -----------------------------------------------------------


@pytest.mark.proves("681a.7(f)(1)")
def test_681a_7_f_1_natural_without_bonus_stops_all_draws() -> None:
    # the stack holds exactly the cards needed: any draw would fail
    rnd = play("4d As 7c Kd 5h", [(1, "player", 1000)])
    assert rnd.hands() == {"player": ["As", "Kd"], "banker": ["7c", "5h"]}
    assert rnd.is_natural(Side.PLAYER)
    settling = [
        e
        for e in rnd.events
        if isinstance(e, PhaseEntered) and e.phase == "settling"
    ]
    assert [str(e.ref) for e in settling] == ["681a.7(f)(1)"]


@pytest.mark.proves(
    "681a.7(f)(2)",
    "681a.7(i)(2)(i)",
    "681a.7(k)(1)(ii)",
    "681a.7(k)(3)(i)",
)
def test_681a_7_f_2_bonus_only_card_counts_only_for_the_bonus() -> None:
    rnd = play(
        "2d As 8c Kh 5d 8h",
        [(1, "bonus_banker", 500), (2, "tie", 200), (3, "player", 1000)],
    )
    bonus = [e for e in dealt(rnd) if e.purpose == "bonus only"]
    assert [(str(e.card), e.to, str(e.ref)) for e in bonus] == [
        ("8h", "banker hand", "681a.7(f)(2)")
    ]
    # 8c 5d 8h would be 21 and tie the natural; it counts 13
    assert rnd.total(Side.BANKER).value == 13
    assert rnd.bonus_cards(Side.BANKER) == parse_cards("8c 5d 8h")
    assert outcomes(rnd) == [
        (3, "player", "win", 950, "681a.7(i)(2)(i)"),
        (2, "tie", "lose", -200, "681a.7(k)(1)(ii)"),
        (1, "bonus_banker", "win", 500, "681a.7(k)(3)(i)"),
    ]


@pytest.mark.proves("681a.7(f)(2)")
def test_681a_7_f_2_any_bonus_wager_draws_for_the_other_hand_too() -> None:
    # only a Banker Bonus is on the table; the Player's 10 still draws
    rnd = play("5s 6c Ah 4d Qs Js", [(7, "bonus_banker", 100)])
    assert rnd.hands()["player bonus only"] == ["Js"]
    assert rnd.total(Side.PLAYER).value == 10
    assert "banker bonus only" not in rnd.hands()


@pytest.mark.proves("681a.7(f)(2)")
def test_681a_7_f_2_no_bonus_only_card_at_soft_17() -> None:
    rnd = play("4d As Ac Kd 6h", [(1, "bonus_player", 100)])
    assert rnd.hands() == {"player": ["As", "Kd"], "banker": ["Ac", "6h"]}
    assert rnd.total(Side.BANKER) == (17, True)


@pytest.mark.proves("681a.7(f)")
def test_681a_7_f_natural_is_an_ace_and_a_ten_value_card() -> None:
    rnd = play("4d Jh 7c As 5h", [(1, "banker", 1000)])
    assert rnd.is_natural(Side.PLAYER)
    assert not rnd.is_natural(Side.BANKER)
    # a three-card 21 is no natural: 7 4 + drawn K
    rnd = play("4d 7h 9c 4s 8d Kc", [(1, "banker", 1000)])
    assert rnd.total(Side.PLAYER).value == 21
    assert not rnd.natural


# -- (g) one card to each hand under 17 -------------------------------------


@pytest.mark.proves("681a.7(g)")
def test_681a_7_g_at_most_one_draw_even_when_still_under_17() -> None:
    rnd = play("9s 2c Kc 3d 7d 4h", [(1, "player", 100)])
    assert rnd.hands() == {
        "player": ["2c", "3d", "4h"],
        "banker": ["Kc", "7d"],
    }
    assert rnd.total(Side.PLAYER).value == 9
    assert [str(e.ref) for e in dealt(rnd)][4:] == ["681a.7(g)"]


@pytest.mark.proves("681a.7(g)", "681a.7(k)(1)(i)")
def test_681a_7_g_soft_17_stands() -> None:
    rnd = play("9s Tc As 5d 6d 2h", [(1, "tie", 100)])
    assert rnd.hands() == {
        "player": ["Tc", "5d", "2h"],
        "banker": ["As", "6d"],
    }
    assert outcomes(rnd) == [(1, "tie", "win", 1000, "681a.7(k)(1)(i)")]


@pytest.mark.proves("681a.7(g)")
def test_681a_7_g_player_draws_first_then_banker() -> None:
    rnd = play("9s Tc As 5d 5c 8h 9c", [(1, "banker", 100)])
    draws = [(e.to, str(e.card)) for e in dealt(rnd)][4:]
    assert draws == [("player hand", "8h"), ("banker hand", "9c")]
    assert rnd.total(Side.BANKER) == (15, False)


# -- (h) compare, settle from the dealer's right ----------------------------


@pytest.mark.proves("681a.7(h)")
def test_681a_7_h_settles_counter_clockwise_main_wagers_first() -> None:
    wagers = [(seat, "player", 100) for seat in range(1, 8)]
    wagers += [(2, "banker", 100), (6, "tie", 100), (4, "bonus_banker", 100)]
    rnd = play("2c 9h Kd 5s 7c 9d", wagers)
    order = [(s.key.seat, s.key.wager) for s in rnd.settlements]
    assert order == [
        (7, "player"),
        (6, "player"),
        (5, "player"),
        (4, "player"),
        (3, "player"),
        (2, "player"),
        (2, "banker"),
        (1, "player"),
        (6, "tie"),
        (4, "bonus_banker"),
    ]


@pytest.mark.proves("681a.7(h)")
@pytest.mark.parametrize(
    ("player", "banker", "winner"),
    [
        (19, 17, Side.PLAYER),
        (17, 19, Side.BANKER),
        (21, 22, Side.PLAYER),
        (26, 12, Side.BANKER),
        (23, 24, Side.PLAYER),
        (24, 23, Side.BANKER),
        (20, 20, None),
        (25, 25, None),
    ],
)
def test_681a_7_h_compare_totals(
    player: int, banker: int, winner: Side | None
) -> None:
    assert compare_totals(player, banker) is winner


# -- (i) and (j): every clause, on stacked shoes ----------------------------

CLAUSES = [
    # shoe, player wager (outcome, ref), banker wager (outcome, ref)
    (
        "3c Td 9s 6h 5d 2h 8c",  # P 18, B 22
        ("win", "681a.7(i)(1)"),
        ("lose", "681a.7(j)"),
    ),
    (
        "2c 9h Kd 5s 7c 9d",  # P 23, B 17
        ("lose", "681a.7(i)"),
        ("win", "681a.7(j)(1)"),
    ),
    (
        "4d As 7c Kd 5h",  # P 21 (natural), B 12
        ("win", "681a.7(i)(2)(i)"),
        ("lose", "681a.7(j)(2)(ii)"),
    ),
    (
        "6h 9s Th 8s Jd",  # P 17, B 20
        ("lose", "681a.7(i)(2)(ii)"),
        ("win", "681a.7(j)(2)(i)"),
    ),
    (
        "2c 9h Th 5c 6d 9c 8s",  # P 23, B 24
        ("win", "681a.7(i)(3)(i)"),
        ("lose", "681a.7(j)(3)(ii)"),
    ),
    (
        "2c Th 9h 6d 5c 8s 9c",  # P 24, B 23
        ("lose", "681a.7(i)(3)(ii)"),
        ("win", "681a.7(j)(3)(i)"),
    ),
    (
        "3c Td 9s 6h 5d 8c Kh",  # P 24, B 24
        ("push", "681a.7(i)(4)"),
        ("push", "681a.7(j)(4)"),
    ),
    (
        "9s Tc As 5d 6d 2h",  # P 17, B soft 17
        ("push", "681a.7(i)(4)"),
        ("push", "681a.7(j)(4)"),
    ),
]
NETS = {"win": 950, "lose": -1000, "push": 0}


@pytest.mark.proves("681a.7(i)")
@pytest.mark.parametrize(("shoe", "player", "banker"), CLAUSES)
def test_681a_7_i_player_wager_every_clause(
    shoe: str, player: tuple[str, str], banker: tuple[str, str]
) -> None:
    del banker
    rnd = play(shoe, [(1, "player", 1000)])
    outcome, ref = player
    assert outcomes(rnd) == [(1, "player", outcome, NETS[outcome], ref)]
    if outcome == "win":
        assert rnd.settlements[0].commission == 50


@pytest.mark.proves("681a.7(j)")
@pytest.mark.parametrize(("shoe", "player", "banker"), CLAUSES)
def test_681a_7_j_banker_wager_every_clause(
    shoe: str, player: tuple[str, str], banker: tuple[str, str]
) -> None:
    del player
    rnd = play(shoe, [(1, "banker", 1000)])
    outcome, ref = banker
    assert outcomes(rnd) == [(1, "banker", outcome, NETS[outcome], ref)]


@pytest.mark.proves("681a.7(i)", "681a.7(j)")
def test_681a_7_i_main_wager_outcome_is_symmetric() -> None:
    for own in range(4, 27):
        for other in range(4, 27):
            mine, _ = main_wager_outcome(own, other)
            theirs, _ = main_wager_outcome(other, own)
            if own == other:
                assert mine is theirs is Outcome.PUSH
            else:
                assert {mine, theirs} == {Outcome.WIN, Outcome.LOSE}


@pytest.mark.proves("681a.7(j)(1)")
def test_681a_7_j_payout_and_rounding_are_options() -> None:
    rnd = play(
        "2c 9h Kd 5s 7c 9d",
        [(1, "banker", 1005)],
        rules={"banker_payout": "1:1"},
    )
    assert outcomes(rnd) == [(1, "banker", "win", 1005, "681a.7(j)(1)")]
    assert rnd.settlements[0].commission == 0
    rnd = play(
        "2c 9h Kd 5s 7c 9d",
        [(1, "banker", 1010)],
        rules={"rounding": "half_up"},
    )
    assert (rnd.settlements[0].net, rnd.settlements[0].commission) == (960, 50)
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "banker", 1010)])
    assert (rnd.settlements[0].net, rnd.settlements[0].commission) == (959, 51)


# -- (k) Tie and Bonus ------------------------------------------------------


@pytest.mark.proves("681a.7(k)(1)(i)")
def test_681a_7_k_1_tie_wins_on_equal_bust_totals() -> None:
    rnd = play("3c Td 9s 6h 5d 8c Kh", [(2, "tie", 100)])
    assert rnd.total(Side.PLAYER).value == rnd.total(Side.BANKER).value == 24
    assert outcomes(rnd) == [(2, "tie", "win", 1000, "681a.7(k)(1)(i)")]
    rnd = play(
        "3c Td 9s 6h 5d 8c Kh", [(2, "tie", 100)], rules={"tie_payout": "8:1"}
    )
    assert rnd.settlements[0].net == 800


@pytest.mark.proves("681a.7(k)(2)", "681a.7(k)(3)")
def test_681a_7_k_2_bonus_categories_follow_the_paytable_option() -> None:
    shoe = "8h 2d Jc 9d 4s Kd Js"  # Player flush, Banker pair of jacks
    wagers = [(5, "bonus_player", 100), (5, "bonus_banker", 100)]
    rnd = play(shoe, wagers)  # D16 table A: flush 4:1, pair 1:1
    assert outcomes(rnd) == [
        (5, "bonus_player", "win", 400, "681a.7(k)(2)(i)"),
        (5, "bonus_banker", "win", 100, "681a.7(k)(3)(i)"),
    ]
    rnd = play(shoe, wagers, rules={"bonus_paytable": {"pair": "2:1"}})
    assert outcomes(rnd) == [
        (5, "bonus_player", "lose", -100, "681a.7(k)(2)(ii)"),
        (5, "bonus_banker", "win", 200, "681a.7(k)(3)(i)"),
    ]
    with pytest.raises(RulesError, match="bonus_paytable"):
        Baccarat21Rules.from_mapping({"bonus_paytable": {"quads": "50:1"}})


@pytest.mark.proves("681a.7(k)(2)(ii)", "681a.7(f)(2)")
def test_681a_7_k_2_ii_a_natural_never_wins_the_bonus() -> None:
    rnd = play("4d As 7c Kd 5h 9s", [(1, "bonus_player", 100)])
    # the Banker's 12 gets a Bonus-only card; the natural stays two cards
    assert rnd.hands()["banker bonus only"] == ["9s"]
    assert rnd.bonus_cards(Side.PLAYER) == parse_cards("As Kd")
    assert outcomes(rnd) == [
        (1, "bonus_player", "lose", -100, "681a.7(k)(2)(ii)")
    ]


# -- (l) discard rack ---------------------------------------------------------


@pytest.mark.proves("681a.7(l)")
def test_681a_7_l_discard_rack_rebuilds_each_hand() -> None:
    rnd = play(
        "5s 6c Ah 4d Qs Js 9c",
        [(1, "banker", 100), (1, "bonus_player", 100)],
    )
    assert rnd.table_cards() == []
    collected = [e for e in rnd.events if isinstance(e, CardsCollected)]
    assert [(e.source, str(e.ref)) for e in collected] == [
        ("player hand", "681a.7(l)"),
        ("banker hand", "681a.7(l)"),
    ]
    assert collected[0].cards == parse_cards("6c 4d Js")
    assert collected[1].cards == parse_cards("Ah Qs")
    assert rnd.shoe.discard == list(parse_cards("5s 6c 4d Js Ah Qs"))
    # collection comes after every settlement
    last_settled = max(
        i
        for i, e in enumerate(rnd.events)
        if type(e).__name__ == "WagerSettled"
    )
    assert last_settled < rnd.events.index(collected[0])
    rnd.verify_conservation()


# -- (m) players never handle the cards --------------------------------------


@pytest.mark.proves("681a.7(m)")
def test_681a_7_m_players_have_no_action_on_the_cards() -> None:
    spec = find_game("21-baccarat")
    assert spec.actions == ()
    rnd = make_round("2c 9h Kd 5s 7c 9d", [(1, "player", 100)])
    assert rnd.pending() is None
    before = len(rnd.events)
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(Action(seat=1, name="hit"))
    assert str(info.value.ref) == "681a.7(m)"
    assert len(rnd.events) == before
    rnd.deal()
    assert rnd.pending() is None
    assert rnd.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        rnd.apply(Action(seat=1, name="take_card"))
    assert "legal" not in rnd.view(1)


# -- the state machine, the views, the options -------------------------------


def test_phase_transitions_follow_the_table() -> None:
    rnd = play("2c 9h Kd 5s 7c 9d", [(1, "player", 100)])
    phases = [
        Phase(e.phase) for e in rnd.events if isinstance(e, PhaseEntered)
    ]
    assert phases[0] is Phase.WAGERING
    for before, after in itertools.pairwise(phases):
        assert after in TRANSITIONS[before]
    assert phases[-1] is Phase.COMPLETE


def test_views_show_all_cards_and_only_own_wagers() -> None:
    rnd = make_round("2c 9h Kd 5s 7c 9d", [(1, "player", 100), (2, "tie", 50)])
    before = rnd.view(None)
    assert before["player"]["cards"] == []
    assert before["player"]["total"] is None
    rnd.deal()
    spectator = rnd.view(None)
    assert spectator["player"]["cards"] == ["9h", "5s", "9d"]
    assert spectator["player"]["total"] == 23
    assert spectator["banker"] == {
        "cards": ["Kd", "7c"],
        "bonus_only": [],
        "total": 17,
        "soft": False,
        "natural": False,
        "bonus": None,
    }
    assert "wagers" not in spectator
    assert "2c" not in str(spectator)  # the burned card never shows
    seat = rnd.view(2)
    assert seat["wagers"] == {"tie": 50}
    assert [s["wager"] for s in seat["settlements"]] == ["tie"]
    with pytest.raises(CroupierError):
        rnd.view(99)


def test_options_defaults_and_provenance() -> None:
    rules = Baccarat21Rules()
    assert rules.decks == 3
    assert rules.seats == 7
    assert rules.player_payout == rules.banker_payout == Odds(19, 20)
    assert rules.tie_payout == Odds(10, 1)
    info = {o.name: o for o in Baccarat21Rules.options()}
    assert info["decks"].provenance is Provenance.INFER
    assert info["player_payout"].decision == "D14"
    assert info["bonus_paytable"].default == {
        "suited_three_of_a_kind": "30:1",
        "straight_flush": "25:1",
        "three_of_a_kind": "20:1",
        "straight": "20:1",
        "flush": "4:1",
        "pair": "1:1",
    }  # D16 table A (issue 15 point 1)
    with pytest.raises(RulesError, match="unknown option"):
        Baccarat21Rules.from_mapping({"commission": 5})
