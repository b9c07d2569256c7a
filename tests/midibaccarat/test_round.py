"""The Midibaccarat and commission-free Midibaccarat rounds."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.engine_refusals import refuses

from croupier.errors import (
    IllegalActionError,
    RulesError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    CardDealt,
    CardExposed,
    CoverCardReached,
    CutOffered,
    EventLog,
    PhaseEntered,
    WagerSettled,
)
from croupier.games.midibaccarat import (
    CommissionFreeRound,
    CommissionFreeRules,
    MidibaccaratRound,
    MidibaccaratRules,
    Phase,
    prepare_new_shoe,
)
from croupier.games.midibaccarat.phases import TRANSITIONS
from croupier.hands.baccarat import play_coup
from croupier.money import Odds, Outcome
from croupier.registry import find_game
from croupier.regs import Ref
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe
from croupier.table import Table

# Player 2h 3d (5) draws Kc -> 5; Banker 6s Kd (6) stays: Banker wins 6-5.
BANKER_SIX = "2h 6s 3d Kd Kc"


def _round(
    shoe: str = BANKER_SIX,
    rules: MidibaccaratRules | None = None,
) -> MidibaccaratRound:
    return MidibaccaratRound(
        rules=rules or MidibaccaratRules(),
        shoe=Shoe.stacked(shoe),
        new_shoe=False,
    )


def _cf_round(
    shoe: str, rules: CommissionFreeRules | None = None
) -> CommissionFreeRound:
    return CommissionFreeRound(
        rules=rules or CommissionFreeRules(),
        shoe=Shoe.stacked(shoe),
        new_shoe=False,
    )


# -- seats and wagers ----------------------------------------------------


@pytest.mark.proves("629a.2(a)")
def test_629a_2_a_nine_numbered_seats() -> None:
    rnd = _round()
    rnd.place_wager(9, "player", 100)
    rnd.place_wager(1, "player", 100)
    before = len(rnd.log)
    for seat in (0, 10):
        with pytest.raises(WagerError) as info:
            rnd.place_wager(seat, "player", 100)
        assert info.value.ref == Ref.parse("629a.2(a)")
    assert len(rnd.log) == before
    assert find_game("midibaccarat").max_seats == 9


@pytest.mark.proves("629a.7", "629b.2")
def test_629a_7_refusals_leave_the_round_unchanged() -> None:
    rnd = _round()
    rnd.place_wager(3, "banker", 500)
    before = (len(rnd.log), dict(rnd.ledger.stakes))
    with pytest.raises(WagerError):
        rnd.place_wager(3, "banker", 100)
    with pytest.raises(WagerError):
        rnd.place_wager(3, "tie", -5)
    with pytest.raises(WagerError) as info:
        rnd.place_wager(3, "dragon7", 100)
    assert info.value.ref == Ref.parse("629b.2")
    with pytest.raises(WagerError):
        rnd.place_wager(3, "blackjack", 100)
    assert (len(rnd.log), dict(rnd.ledger.stakes)) == before


@pytest.mark.proves("629b.1(c)")
def test_629b_1_c_perfect_pairs_only_if_offered() -> None:
    rnd = _round(rules=MidibaccaratRules(perfect_pairs_offered=False))
    with pytest.raises(WagerError) as info:
        rnd.place_wager(1, "perfect_pairs_banker", 100)
    assert info.value.ref == Ref.parse("629b.1(c)")


@pytest.mark.proves("629a.8(b)")
def test_629a_8_b_no_more_bets_after_the_deal() -> None:
    rnd = _round()
    rnd.place_wager(1, "player", 100)
    rnd.deal()
    with pytest.raises(WrongPhaseError) as info:
        rnd.place_wager(2, "player", 100)
    assert info.value.ref == Ref.parse("629a.8(b)")
    with pytest.raises(WrongPhaseError):
        rnd.deal()


@pytest.mark.proves("629a.8(b)")
@pytest.mark.parametrize("commission_free", [False, True])
def test_629a_8_b_a_deal_after_no_more_bets_names_the_phase(
    commission_free: bool,
) -> None:
    """A second deal is refused naming the phase as the table's
    narration heads it, in both games (D189): before, "the round is past
    wagering (complete)"."""
    rnd = _cf_round(BANKER_SIX) if commission_free else _round()
    rnd.place_wager(1, "player", 100)
    rnd.deal()
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WrongPhaseError,
        "the round is past wagering, in the Complete phase",
        rnd.deal,
        ref="629a.8(b)",
    )
    assert not rnd.can_deal()
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("629a.7")
def test_629a_7_a_second_wager_is_refused_in_the_sections_words() -> None:
    """The refusals a player reads name the wagers as 629a does (the web
    table shows them as they are, D187): before, "seat 3 already has a
    banker wager" and "seat 3 has no tie wager to change"."""
    rnd = _round()
    rnd.place_wager(3, "banker", 500)
    rnd.place_wager(3, "perfect_pairs_player", 100)
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    for wager, said in [
        ("banker", "seat 3 already has a Banker Wager"),
        (
            "perfect_pairs_player",
            "seat 3 already has a Perfect Pairs Wager on the Player's Hand",
        ),
    ]:
        refuses(
            WagerError,
            said,
            partial(rnd.place_wager, 3, wager, 100),
            ref="629a.7",
        )
    refuses(
        WagerError,
        "seat 3 has no Tie Wager to change",
        lambda: rnd.change_wager(3, "tie", 100),
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("629b.1(c)", "629b.2")
def test_629b_1_c_a_wager_not_offered_is_named_as_the_section_does() -> None:
    """A wager of the game these rules leave out is refused by its name,
    and so are the wagers offered (before, "wager
    \"perfect_pairs_banker\" is not offered; wagers are player, banker,
    tie"; D187)."""
    rnd = _round(rules=MidibaccaratRules(perfect_pairs_offered=False))
    refuses(
        WagerError,
        "the Perfect Pairs Wager on the Banker's Hand is not offered; "
        "wagers are Player Wager, Banker Wager, Tie Wager",
        lambda: rnd.place_wager(1, "perfect_pairs_banker", 100),
        ref="629b.1(c)",
    )
    free = _cf_round(BANKER_SIX, CommissionFreeRules(panda8_offered=False))
    refuses(
        WagerError,
        "the Panda 8 Wager is not offered; wagers are Player Wager, "
        "Banker Wager, Tie Wager, Perfect Pairs Wager on the Player's "
        "Hand, Perfect Pairs Wager on the Banker's Hand, Dragon 7 Wager",
        lambda: free.place_wager(1, "panda8", 100),
        ref="629b.2",
    )
    assert not rnd.ledger.stakes
    assert not free.ledger.stakes
    assert rnd.phase is free.phase is Phase.WAGERING


@pytest.mark.proves("629a.8(b)")
def test_629a_8_b_a_wager_after_no_more_bets_is_named_as_629a_does() -> None:
    """Before, "no more bets: wager \"tie\" at seat 2 refused" (D187);
    a name that is no wager of the game is still written as JSON."""
    rnd = _round()
    rnd.place_wager(1, "player", 100)
    rnd.deal()
    before = (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase)
    refuses(
        WrongPhaseError,
        "no more bets: the Tie Wager at seat 2 refused",
        lambda: rnd.place_wager(2, "tie", 100),
        ref="629a.8(b)",
    )
    refuses(
        WrongPhaseError,
        'no more bets: "ti\\"e" at seat 2 refused',
        lambda: rnd.place_wager(2, 'ti"e', 100),
    )
    assert (len(rnd.log), dict(rnd.ledger.stakes), rnd.phase) == before


@pytest.mark.proves("629a.10")
def test_629a_10_no_player_decisions() -> None:
    rnd = _round()
    assert rnd.pending() is None
    rnd.deal()
    assert rnd.pending() is None
    assert rnd.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        rnd.apply(Action(seat=1, name="hit"))


# -- the state machine --------------------------------------------------------


def test_phases_follow_the_transition_table() -> None:
    face_down = MidibaccaratRules.from_mapping({"dealing": "face_down"})
    for rules in (MidibaccaratRules(), face_down):
        rnd = _round(rules=rules)
        assert rnd.phase is Phase.WAGERING
        rnd.deal()
        phases = [
            Phase(e.phase) for e in rnd.events if isinstance(e, PhaseEntered)
        ]
        assert phases[0] is Phase.WAGERING
        assert (Phase.CALL in phases) == (rules is face_down)
        assert phases[-1] is Phase.COMPLETE
        for before, after in itertools.pairwise(phases):
            assert after in TRANSITIONS[before]
        assert rnd.is_over
        assert rnd.table_cards() == []


@pytest.mark.proves("629a.8(c)(1)")
def test_629a_8_c_1_face_up_order_player_banker_player_banker() -> None:
    rnd = _round()
    rnd.deal()
    dealt = [e for e in rnd.events if isinstance(e, CardDealt)]
    assert [(e.to, str(e.card), e.face_up) for e in dealt[:4]] == [
        ("player", "2h", True),
        ("banker", "6s", True),
        ("player", "3d", True),
        ("banker", "Kd", True),
    ]
    assert all(e.ref == Ref.parse("629a.8(c)(1)") for e in dealt[:4])


@pytest.mark.proves("629a.8(c)(2)", "629a.9")
def test_629a_8_c_2_face_down_banker_waits_until_player_called() -> None:
    rules = MidibaccaratRules().with_overrides({"dealing": "face_down"})
    rnd = _round(rules=rules)
    rnd.place_wager(4, "player", 100)
    # step by step to look at the table while cards are face down
    rnd._initial_deal()
    view = rnd.view(4)
    assert view["player"] == ["??", "??"]
    assert view["banker"] == ["??", "??"]
    assert "player_count" not in view
    assert "2h" not in str(view)
    rnd._call_hands()
    exposed = [e for e in rnd.events if isinstance(e, CardExposed)]
    assert [(e.to, str(e.card)) for e in exposed] == [
        ("player", "2h"),
        ("player", "3d"),
        ("banker", "6s"),
        ("banker", "Kd"),
    ]
    assert exposed[0].ref == Ref.parse("629a.9")
    assert exposed[2].ref == Ref.parse("629a.8(c)(2)")
    assert rnd.view(None)["banker"] == ["6s", "Kd"]


def test_views_show_each_seat_its_own_settlements() -> None:
    rnd = _round()
    rnd.place_wager(1, "player", 100)
    rnd.place_wager(2, "banker", 100)
    rnd.deal()
    mine = rnd.view(2)
    assert [s["wager"] for s in mine["settlements"]] == ["banker"]
    assert mine["player_count"] == 5
    assert mine["banker_count"] == 6
    assert "settlements" not in rnd.view(None)
    assert len(rnd.view(None)["layout"]) == 2


# -- settlement ----------------------------------------------------------


@pytest.mark.proves("629a.12")
@pytest.mark.parametrize(
    ("amount", "net", "commission"),
    [(1000, 950, 50), (1005, 954, 51), (20, 19, 1), (19, 18, 1), (1, 0, 1)],
)
def test_629a_12_banker_commission_exact_per_wager(
    amount: int, net: int, commission: int
) -> None:
    rnd = _round()
    rnd.place_wager(5, "banker", amount)
    rnd.deal()
    (settled,) = rnd.settlements
    assert (settled.outcome, settled.net, settled.commission) == (
        Outcome.WIN,
        net,
        commission,
    )
    assert settled.net + settled.commission == amount


@pytest.mark.proves("629a.11")
def test_629a_11_settled_from_the_highest_seat_down() -> None:
    rnd = _round()
    for seat in (2, 9, 5):
        rnd.place_wager(seat, "tie", 10)
        rnd.place_wager(seat, "player", 10)
    rnd.deal()
    assert [(s.key.seat, s.key.wager) for s in rnd.settlements] == [
        (9, "player"),
        (9, "tie"),
        (5, "player"),
        (5, "tie"),
        (2, "player"),
        (2, "tie"),
    ]


@pytest.mark.proves("629b.1(d)")
def test_629b_1_d_perfect_pairs_settled_before_the_third_card() -> None:
    rnd = _round("Qh 6s Qh Kd 5c")
    rnd.place_wager(1, "perfect_pairs_player", 100)
    rnd.deal()
    events = list(rnd.events)
    settled = next(
        i for i, e in enumerate(events) if isinstance(e, WagerSettled)
    )
    third = [i for i, e in enumerate(events) if isinstance(e, CardDealt)][4]
    assert settled < third
    (row,) = rnd.settlements
    assert (row.outcome, row.net) == (Outcome.WIN, 2500)


@pytest.mark.proves("629b.2")
def test_629b_2_commission_free_banker_win_without_commission() -> None:
    rnd = _cf_round(BANKER_SIX)
    rnd.place_wager(1, "banker", 1005)
    rnd.deal()
    (row,) = rnd.settlements
    assert (row.net, row.commission) == (1005, 0)


@pytest.mark.proves("629b.2")
def test_629b_2_banker6_pays_half_rounds_down() -> None:
    rules = CommissionFreeRules().with_overrides(
        {"commission_free_rule": "banker6_pays_half"}
    )
    rnd = _cf_round(BANKER_SIX, rules)
    rnd.place_wager(1, "banker", 1005)
    rnd.deal()
    (row,) = rnd.settlements
    assert (row.outcome, row.net, row.ref) == (
        Outcome.WIN,
        502,
        Ref.parse("629b.2"),
    )


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_second_cover_card_ends_the_shoe_after_the_round() -> None:
    rnd = _round("2h 6s 3d Kd CC Kc")
    rnd.place_wager(1, "banker", 100)
    rnd.deal()
    reached = [e for e in rnd.events if isinstance(e, CoverCardReached)]
    assert len(reached) == 1
    assert reached[0].ref == Ref.parse("629a.5(d)")
    assert rnd.cover_card_reached
    assert rnd.hands()["player"] == ["2h", "3d", "Kc"]
    assert rnd.is_over
    rnd.ledger.verify()
    rnd.verify_conservation()


# -- rules ---------------------------------------------------------------


def test_rules_defaults_and_validation() -> None:
    rules = MidibaccaratRules()
    assert rules.decks == 8
    assert rules.banker_payout == Odds(19, 20)
    assert rules.banker_payout.fraction == Fraction(19, 20)
    assert rules.tie_payout == Odds(8, 1)
    assert rules.perfect_pairs.to_dict() == {
        "perfect": "25:1",
        "colored": "12:1",
        "mixed": "6:1",
    }
    cf = CommissionFreeRules()
    assert (cf.dragon7_payout, cf.panda8_payout) == (Odds(40, 1), Odds(25, 1))
    assert cf.commission_free_rule == "dragon7_push"
    with pytest.raises(RulesError, match="dragon7_payout"):
        MidibaccaratRules.from_mapping({"dragon7_payout": "40:1"})
    with pytest.raises(RulesError, match="commission_free_rule"):
        CommissionFreeRules.from_mapping({"commission_free_rule": "none"})
    with pytest.raises(RulesError, match="perfect_pairs"):
        MidibaccaratRules.from_mapping({"perfect_pairs": {"suited": "5:1"}})
    with pytest.raises(RulesError, match="second_cover_from_bottom"):
        MidibaccaratRules.from_mapping({"second_cover_from_bottom": 13})
    with pytest.raises(RulesError, match="dealing"):
        MidibaccaratRules.from_mapping({"dealing": "sideways"})


def test_commission_free_registry_new_shoe_and_preparation() -> None:
    spec = find_game("midibaccarat-commission-free")
    assert "dragon7" in spec.wagers
    shoe = spec.new_shoe(CommissionFreeRules(decks=6), SeededRng(0))
    assert len(shoe) == 6 * 52
    log = EventLog()
    prepare_new_shoe(
        CommissionFreeRules(second_cover_from_bottom=20),
        shoe,
        log,
        rng=SeededRng(4),
        occupied_seats=(1, 2),
    )
    shoe.verify_conservation()
    assert shoe.notation().count("CC") == 2


# -- property: chips and cards conserved --------------------------------------

WAGER_NAMES = [
    "player",
    "banker",
    "tie",
    "perfect_pairs_player",
    "perfect_pairs_banker",
    "dragon7",
    "panda8",
]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    wagers=st.dictionaries(
        st.tuples(
            st.integers(min_value=1, max_value=9), st.sampled_from(WAGER_NAMES)
        ),
        st.integers(min_value=1, max_value=100_000),
        max_size=12,
    ),
    commission_free=st.booleans(),
    face_down=st.booleans(),
    banker6=st.booleans(),
)
def test_property_chips_and_cards_conserved(
    seed: int,
    wagers: dict[tuple[int, str], int],
    commission_free: bool,
    face_down: bool,
    banker6: bool,
) -> None:
    shoe = Shoe.new(decks=1)
    shoe.shuffle(SeededRng(seed))
    stack = shoe.cards_in_stack()
    dealing = "face_down" if face_down else "face_up"
    rnd: MidibaccaratRound
    if commission_free:
        rule = "banker6_pays_half" if banker6 else "dragon7_push"
        rnd = CommissionFreeRound(
            rules=CommissionFreeRules.from_mapping(
                {"dealing": dealing, "commission_free_rule": rule}
            ),
            shoe=shoe,
            new_shoe=False,
        )
    else:
        rnd = MidibaccaratRound(
            rules=MidibaccaratRules.from_mapping({"dealing": dealing}),
            shoe=shoe,
            new_shoe=False,
        )
    placed = 0
    for (seat, name), amount in wagers.items():
        if name in rnd.allowed_wagers():
            rnd.place_wager(seat, name, amount)
            placed += amount
    rnd.verify_conservation()
    rnd.deal()
    rnd.verify_conservation()
    rnd.ledger.verify()
    # the hands are those of the reference drawing rules
    cards = iter(stack)
    coup = play_coup(lambda: next(cards))
    assert rnd.hands() == {
        "player": [str(c) for c in coup.player],
        "banker": [str(c) for c in coup.banker],
    }
    # every chip placed was returned, paid or collected, exactly once
    settled = rnd.settlements
    assert sum(s.amount for s in settled) == placed
    assert len(settled) == len(rnd.ledger.stakes)
    for s in settled:
        if s.outcome is Outcome.LOSE:
            assert s.net == -s.amount
        elif s.outcome is Outcome.PUSH:
            assert s.net == 0
        else:
            assert s.outcome is Outcome.WIN
            assert s.net >= 0
        assert s.commission >= 0
        if s.commission:
            assert s.key.wager == "banker"
            assert not commission_free
            assert s.net + s.commission == s.amount
    events = [e for e in rnd.events if isinstance(e, WagerSettled)]
    assert sum(e.net for e in events) == -rnd.ledger.house_net
    assert len(shoe.discard) == len(coup.player) + len(coup.banker)


@pytest.mark.proves("629a.5(a)", "629a.5(b)")
@pytest.mark.parametrize(
    "game", ["midibaccarat", "midibaccarat-commission-free"]
)
def test_629a_5_table_deals_whole_shoes_and_reshuffles(game: str) -> None:
    spec = find_game(game)
    rules = spec.rules_type.from_mapping({"decks": 2})
    table = Table(spec, rules, rng=SeededRng(8))
    shoes = 0
    while shoes < 2:
        rnd = table.new_round(occupied_seats=(2, 7))
        rnd.place_wager(2, "banker", 1000)
        rnd.place_wager(7, "player", 500)
        rnd.deal()
        table.finish_round(rnd)
        rnd.verify_conservation()
        shoes += rnd.cover_card_reached
    kinds = [type(e).__name__ for e in table.log.events]
    assert kinds.count("Shuffled") == 2
    offers = [e for e in table.log.events if isinstance(e, CutOffered)]
    assert [(o.to, o.accepted) for o in offers[:1]] == [("seat 7", True)]


@pytest.mark.proves("629a.5(d)")
def test_629a_5_d_second_cover_deeper_than_the_shoe_refused() -> None:
    from croupier.errors import RulesError
    from croupier.games.midibaccarat.rules import MidibaccaratRules

    with pytest.raises(RulesError) as info:
        MidibaccaratRules.from_mapping(
            {"decks": 1, "second_cover_from_bottom": 60}
        )
    assert info.value.key == "second_cover_from_bottom"


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_cut_offered_from_highest_seat_then_wraps_to_seat_1() -> None:
    log = EventLog()
    shoe = Shoe.new(decks=1)
    prepare_new_shoe(
        MidibaccaratRules.from_mapping({"decks": 1}),
        shoe,
        log,
        rng=SeededRng(5),
        occupied_seats=(3, 9, 1, 6),
        accepting=(3,),
    )
    offers = [e for e in log.events if isinstance(e, CutOffered)]
    assert [(o.to, o.accepted) for o in offers] == [
        ("seat 9", False),
        ("seat 1", False),
        ("seat 3", True),
    ]
    assert all(str(o.ref) == "629a.5(b)" for o in offers)
