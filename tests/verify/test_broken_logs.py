"""Issue 17 point 2: deliberately broken logs, each reported with its §.

Every broken log starts from a conforming round dealt by a scenario file
(or an inline scenario), written as CHH, then changed the way a faulty
table or a faulty log would change it. The verifier must name the
subsection the change breaks; the expected subsection of each case is
read off the regulation's structure (which rule governs that step), not
off the verifier.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier.hhf import HandHistory, from_scenario
from croupier.scenario import run_scenario
from croupier.verify import verify_round

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
Steps = list[dict[str, Any]]


def dealt(doc: dict[str, Any], *, as_dealt: bool = True) -> HandHistory:
    """The CHH of a scenario's round; ``as_dealt`` drops the stack."""
    result = run_scenario(doc)
    assert result.exit_code == 0, result.stderr
    history = from_scenario(doc, result, round_id="r")
    assert verify_round(history) is None
    if as_dealt:
        history = dataclasses.replace(
            history,
            shoe=dataclasses.replace(
                history.shoe, known="as_dealt", stack=None, discard=None
            ),
        )
        assert verify_round(history) is None
    return history


def scenario(game: str, name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (SCENARIOS / game / f"{name}.json").read_text(encoding="utf-8")
    )
    return doc


def broken(
    history: HandHistory, change: Callable[[Steps], object]
) -> HandHistory:
    steps = json.loads(json.dumps(list(history.procedure)))
    change(steps)
    for seq, step in enumerate(steps, start=1):
        step["seq"] = seq
    return dataclasses.replace(history, procedure=tuple(steps))


def first(steps: Steps, **match: Any) -> int:
    return next(
        i
        for i, s in enumerate(steps)
        if all(s.get(k) == v for k, v in match.items())
    )


def remove(**match: Any) -> Callable[[Steps], None]:
    def change(steps: Steps) -> None:
        del steps[first(steps, **match)]

    return change


def edit(fields: dict[str, Any], **match: Any) -> Callable[[Steps], None]:
    def change(steps: Steps) -> None:
        steps[first(steps, **match)].update(fields)

    return change


def swap_to(card_a: str, card_b: str) -> Callable[[Steps], None]:
    """Swap two cards' destinations: they were dealt in the wrong order."""

    def change(steps: Steps) -> None:
        a = steps[first(steps, type="card_dealt", card=card_a)]
        b = steps[first(steps, type="card_dealt", card=card_b)]
        for key in ("to", "ref", "hand", "face_up", "purpose"):
            a[key], b[key] = b[key], a[key]

    return change


def move_after(
    match: dict[str, Any], after: dict[str, Any]
) -> Callable[[Steps], None]:
    def change(steps: Steps) -> None:
        step = steps.pop(first(steps, **match))
        steps.insert(first(steps, **after) + 1, step)

    return change


def swap_steps(
    a: dict[str, Any], b: dict[str, Any]
) -> Callable[[Steps], None]:
    def change(steps: Steps) -> None:
        i, j = first(steps, **a), first(steps, **b)
        steps[i], steps[j] = steps[j], steps[i]

    return change


def drop_last_card(**match: Any) -> Callable[[Steps], None]:
    """A hand gathered to the rack without its last card."""

    def change(steps: Steps) -> None:
        step = steps[first(steps, **match)]
        step["cards"] = " ".join(str(step["cards"]).split()[:-1])

    return change


def insert_before(
    step: dict[str, Any], **match: Any
) -> Callable[[Steps], None]:
    def change(steps: Steps) -> None:
        steps.insert(first(steps, **match), dict(step))

    return change


def _settle_in_order(steps: Steps, order: tuple[int, ...]) -> None:
    """Put the round's settlements in the given order of their own."""
    where = [i for i, s in enumerate(steps) if s["type"] == "wager_settled"]
    settled = [steps[i] for i in where]
    for i, k in zip(where, order, strict=True):
        steps[i] = settled[k]


DBJ = "double-back-jack"
B21 = "21-baccarat"
PG = "six-card-fortune-pai-gow"

CASES: list[tuple[str, str, Any, Callable[[Steps], object], str, str]] = [
    # id, game, scenario (name or document), change, §, message fragment
    (
        "591_7_c_missing_burn",
        DBJ,
        "double-bust-second-chance-21",
        remove(type="card_burned"),
        "591.7(c)",
        "burned 0 card(s), requires 1",
    ),
    (
        "591_7_e_wrong_deal_order",
        DBJ,
        "double-bust-second-chance-21",
        swap_to("Tc", "Th"),
        "591.7(e)(1)",
        "the rule deals the next card to seat 1",
    ),
    (
        "591_7_e_4_hole_card_face_up",
        DBJ,
        "double-bust-second-chance-21",
        edit({"face_up": True}, type="card_dealt", purpose="hole"),
        "591.7(e)(4)",
        "face down",
    ),
    (
        "591_7_f_blackjack_not_paid_at_once",
        DBJ,
        "blackjack-paid-before-dealer-blackjack",
        move_after(
            {"type": "wager_settled", "ref": "591.7(f)"},
            {"type": "card_reader_checked"},
        ),
        "591.7(f)",
        "settling seat 1's blackjack (win, net 1500)",
    ),
    (
        "673a_8_insurance_underpaid",
        DBJ,
        "insurance-won",
        edit({"net": 500}, type="wager_settled", wager="insurance"),
        "673a.8",
        "net 1000",
    ),
    (
        "591_7_h_card_reader_check_skipped",
        DBJ,
        "insurance-won",
        remove(type="card_reader_checked"),
        "591.7(h)",
        "card reader checked",
    ),
    (
        "591_7_i_illegal_split",
        DBJ,
        "audit-591-7-o-dealer-stands-on-soft-17",
        edit({"action": "split"}, type="decision_made", seat=1),
        "673a.11(a)",
        # the refusal quoted names the decisions as their buttons (D189)
        "Split is not allowed for seat 1 now; legal: Surrender (surrender), "
        "Double down (double), Stand (stand), Hit (hit)",
    ),
    (
        "591_7_i_decision_out_of_turn",
        DBJ,
        "audit-591-7-o-dealer-stands-on-soft-17",
        edit({"seat": 2}, type="decision_made", seat=1),
        "591.7(i)",
        "seat 1 is to act, not seat 2",
    ),
    (
        "673a_8_insurance_over_half_the_wager",
        DBJ,
        "insurance-won",
        edit({"amount": 800}, type="decision_made", action="insurance"),
        "673a.8",
        # the engine's refusal, quoted: amounts in dollars (D190)
        "the Insurance Wager must be $0.01 to $5.00, not $8.00",
    ),
    (
        "591_7_l_second_chance_stake_not_the_wager",
        DBJ,
        "audit-591-7-q-1-second-chance-on-double-for-less-dealer-22",
        edit({"amount": 1000}, type="wager_placed", wager="second_chance"),
        "591.7(l)",
        "second_chance wager of 1400",
    ),
    (
        "591_7_m_21_not_paid_at_once",
        DBJ,
        "player-21-paid-before-dealer-21",
        move_after(
            {"type": "wager_settled", "ref": "591.7(m)"},
            {"type": "announced", "ref": "591.7(t)(1)"},
        ),
        "591.7(m)",
        "settling seat 1's blackjack (win, net 1000)",
    ),
    (
        "591_7_o_dealer_stood_on_16",
        DBJ,
        "audit-591-7-q-1-second-chance-on-double-for-less-dealer-22",
        remove(type="card_dealt", to="dealer", ref="591.7(o)"),
        "591.7(o)",
        "dealer stood on 16",
    ),
    (
        "591_7_p_dealer_drew_when_every_hand_decided",
        DBJ,
        "audit-591-7-p-dealer-draws-nothing-all-decided",
        insert_before(
            {
                "seq": 0,
                "ref": "591.7(o)",
                "type": "card_dealt",
                "to": "dealer",
                "card": "9d",
                "face_up": True,
                "hand": 0,
                "purpose": "",
            },
            type="announced",
            ref="591.7(p)",
        ),
        "591.7(p)",
        "dealer drew 9d on 11",
    ),
    (
        "591_7_q_1_second_chance_collected_on_dealer_22",
        DBJ,
        "audit-591-7-q-1-second-chance-on-double-for-less-dealer-22",
        edit(
            {"outcome": "lose", "net": -1400},
            type="wager_settled",
            wager="second_chance",
        ),
        "591.7(q)(1)",
        "second_chance (push, net 0)",
    ),
    (
        "591_7_s_win_overpaid",
        DBJ,
        "audit-591-7-o-dealer-stands-on-soft-17",
        edit({"net": 1500}, type="wager_settled", seat=1),
        "591.7(s)(1)(ii)",
        "net 1000",
    ),
    (
        "591_7_t_1_winner_paid_before_a_loser_collected",
        DBJ,
        "audit-591-7-t-1-collect-all-losers-then-pay",
        swap_steps(
            {"type": "wager_settled", "seat": 1},
            {"type": "wager_settled", "seat": 3},
        ),
        "591.7(t)(1)",
        "out of order",
    ),
    (
        "591_7_t_2_collected_all_losers_first_under_player_by_player",
        DBJ,
        "audit-591-7-t-2-player-by-player",
        lambda steps: _settle_in_order(steps, (1, 3, 0, 2)),
        "591.7(t)(2)",
        "out of order",
    ),
    (
        # the hands may be gathered in any order (D95), but every card
        "591_7_u_a_card_left_on_the_layout",
        DBJ,
        "audit-591-7-t-1-collect-all-losers-then-pay",
        drop_last_card(type="cards_collected", source="seat 3"),
        "591.7(u)",
        "collecting seat 3's cards",
    ),
    (
        "591_7_g_insurance_not_offered",
        DBJ,
        "insurance-won",
        remove(type="announced", ref="591.7(g)"),
        "591.7(g)",
        "insurance is open",
    ),
    (
        "591_7_j_hit_card_dealt_face_down",
        DBJ,
        "player-21-paid-before-dealer-21",
        edit({"face_up": False}, type="card_dealt", ref="591.7(j)"),
        "591.7(j)",
        "dealing 6h to seat 1",
    ),
    (
        "591_7_k_2_double_card_not_dealt_as_the_double",
        DBJ,
        "audit-591-7-q-1-second-chance-on-double-for-less-dealer-22",
        edit({"purpose": ""}, type="card_dealt", purpose="double"),
        "591.7(k)(2)",
        "as double",
    ),
    (
        "591_7_n_hole_card_not_turned",
        DBJ,
        "audit-591-7-o-dealer-stands-on-soft-17",
        remove(type="card_exposed", ref="591.7(n)"),
        "591.7(n)",
        "exposing dealer's As",
    ),
    (
        "681a_7_h_wrong_winner_announced",
        B21,
        "both_over_21_lower_wins",
        edit(
            {"text": "Player 24, Banker 23: Player wins"},
            type="announced",
            ref="681a.7(h)",
        ),
        "681a.7(h)",
        "Banker wins",
    ),
    (
        "681a_7_i_player_wager_paid_on_a_loss",
        B21,
        "both_over_21_lower_wins",
        edit(
            {"outcome": "win", "net": 1000},
            type="wager_settled",
            wager="player",
        ),
        "681a.7(i)(3)(ii)",
        "(lose, net -1000)",
    ),
    (
        "681a_7_j_banker_commission_not_taken",
        B21,
        "natural_with_bonus",
        edit(
            {"net": 1000, "commission": 0},
            type="wager_settled",
            wager="banker",
        ),
        "681a.7(j)(2)(i)",
        "net 950",
    ),
    (
        "681a_7_k_tie_underpaid",
        B21,
        "audit-681a-7-k-1-equal-bust-totals-tie-wins",
        edit({"net": 800}, type="wager_settled", wager="tie"),
        "681a.7(k)(1)(i)",
        "net 1000",
    ),
    (
        "629a_5_f_burned_7_after_an_exposed_9",
        "midibaccarat",
        "audit-629a-5-f-burn-nine-burns-nine-more",
        lambda steps: [
            steps.pop(first(steps, type="card_burned", face_up=False))
            for _ in range(2)
        ],
        "629a.5(f)",
        "burned 7 card(s) after an exposed 9, requires 9",
    ),
    (
        "681a_7_c_missing_burn",
        B21,
        "natural_with_bonus",
        remove(type="card_burned"),
        "681a.7(c)",
        "burned 0 card(s), requires 1",
    ),
    (
        "681a_7_e_banker_dealt_first",
        B21,
        "natural_with_bonus",
        lambda steps: swap_to(
            steps[first(steps, type="card_dealt", to="player hand")]["card"],
            steps[first(steps, type="card_dealt", to="banker hand")]["card"],
        )(steps),
        "681a.7(e)(1)",
        "the rule deals the next card to player hand",
    ),
    (
        "681a_7_f_2_bonus_only_card_counted",
        B21,
        "audit-681a-7-f-2-bonus-only-card-never-counts",
        edit({"purpose": "", "ref": "681a.7(g)"}, purpose="bonus only"),
        "681a.7(f)(2)",
        "bonus only",
    ),
    (
        "681a_7_g_hand_stood_below_17",
        B21,
        "audit-681a-7-g-soft-12-draws-to-21",
        lambda steps: steps.pop(
            max(
                i
                for i, s in enumerate(steps)
                if s["type"] == "card_dealt" and s["ref"] == "681a.7(g)"
            )
        ),
        "681a.7(g)",
        "stood on",
    ),
    (
        "681a_7_l_a_card_left_on_the_layout",
        B21,
        "natural_with_bonus",
        drop_last_card(type="cards_collected", ref="681a.7(l)"),
        "681a.7(l)",
        "collecting",
    ),
    (
        "670a_9_a_2_deck_not_held",
        PG,
        "copies_go_to_the_dealer",
        remove(type="deck_held"),
        "670a.9(a)(2)",
        "deck held",
    ),
    (
        "670a_9_c_wrong_deal_order",
        PG,
        "copies_go_to_the_dealer",
        lambda steps: swap_to(
            *[s["card"] for s in steps if s["type"] == "card_dealt"][:2]
        )(steps),
        "670a.9(c)",
        "the rule deals the next card to",
    ),
    (
        "670a_9_d_eleven_card_check_skipped",
        PG,
        "copies_go_to_the_dealer",
        remove(type="cards_counted"),
        "670a.9(d)",
        "cards counted",
    ),
    (
        "670a_9_e_short_count_not_voided",
        PG,
        "ten_remaining_deck_removed",
        remove(type="round_voided"),
        "670a.9(e)",
        "round voided",
    ),
    (
        "670a_9_f_unwagered_stack_exposed",
        PG,
        "copies_go_to_the_dealer",
        edit({"exposed": True}, type="cards_collected", ref="670a.9(f)"),
        "670a.9(f)",
        "unexposed",
    ),
]


# the subsection of each case of CASES
@pytest.mark.proves(
    "591.7(c)",
    "591.7(e)(1)",
    "591.7(e)(4)",
    "591.7(f)",
    "591.7(g)",
    "591.7(h)",
    "591.7(i)",
    "591.7(j)",
    "591.7(k)(2)",
    "591.7(l)",
    "591.7(m)",
    "591.7(n)",
    "591.7(o)",
    "591.7(p)",
    "591.7(q)(1)",
    "591.7(s)(1)(ii)",
    "591.7(t)(1)",
    "591.7(t)(2)",
    "591.7(u)",
    "629a.5(f)",
    "670a.9(a)(2)",
    "670a.9(c)",
    "670a.9(d)",
    "670a.9(e)",
    "670a.9(f)",
    "673a.11(a)",
    "673a.8",
    "681a.7(c)",
    "681a.7(e)(1)",
    "681a.7(f)(2)",
    "681a.7(g)",
    "681a.7(h)",
    "681a.7(i)(3)(ii)",
    "681a.7(j)(2)(i)",
    "681a.7(k)(1)(i)",
    "681a.7(l)",
)
@pytest.mark.parametrize(
    ("game", "source", "change", "ref", "fragment"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_broken_log_reported_with_its_subsection(
    game: str,
    source: Any,
    change: Callable[[Steps], object],
    ref: str,
    fragment: str,
) -> None:
    doc = source if isinstance(source, dict) else scenario(game, source)
    deviation = verify_round(broken(dealt(doc), change))
    assert deviation is not None
    assert deviation.ref == ref, str(deviation)
    assert fragment in deviation.message, str(deviation)


@pytest.mark.proves("681a.7(d)")
def test_681a_7_d_cover_card_not_reached_in_the_log() -> None:
    history = dealt(scenario(B21, "cover_card_mid_round"), as_dealt=False)
    deviation = verify_round(
        broken(history, remove(type="cover_card_reached"))
    )
    assert deviation is not None
    assert deviation.ref == "681a.7(d)", str(deviation)


@pytest.mark.proves("591.7(a)", "681a.7(a)")
@pytest.mark.parametrize(
    ("game", "name", "ref"),
    [
        (DBJ, "insurance-won", "591.7(a)"),
        (B21, "natural_with_bonus", "681a.7(a)"),
    ],
    ids=["591_7_a", "681a_7_a"],
)
def test_recorded_stack_card_not_from_the_top(
    game: str, name: str, ref: str
) -> None:
    history = dealt(scenario(game, name), as_dealt=False)

    def second_card_first(steps: Steps) -> None:
        a, b = [i for i, s in enumerate(steps) if s["type"] == "card_dealt"][
            :2
        ]
        steps[a]["card"], steps[b]["card"] = steps[b]["card"], steps[a]["card"]

    deviation = verify_round(broken(history, second_card_first))
    assert deviation is not None
    assert deviation.ref == ref, str(deviation)
    assert "did not come from the top of the shoe" in deviation.message


def test_impossible_shoe_in_a_log_is_refused_unless_marked() -> None:
    history = dealt(scenario(B21, "natural_with_bonus"))
    steps = json.loads(json.dumps(list(history.procedure)))
    for step in steps:
        if step["type"] == "card_dealt":
            step["card"] = "6s"
    history = dataclasses.replace(history, procedure=tuple(steps))
    deviation = verify_round(history)
    assert deviation is not None
    assert "x 6s but the rules' shoe" in deviation.message
    marked = dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, irregularity_test=True),
    )
    again = verify_round(marked)
    assert again is None or "x 6s" not in again.message


def _new_midibaccarat_shoe() -> HandHistory:
    from croupier.hhf.sample import sample_histories

    history = next(sample_histories("midibaccarat", 1, seed=8, seats=3))
    assert history.shoe.new_shoe
    assert verify_round(history) is None
    return history


def _prepared(
    history: HandHistory, change: Callable[[Steps], object]
) -> HandHistory:
    steps = json.loads(json.dumps(list(history.shoe.preparation)))
    change(steps)
    return dataclasses.replace(
        history,
        shoe=dataclasses.replace(history.shoe, preparation=tuple(steps)),
    )


@pytest.mark.proves("629a.5(a)", "629a.5(c)", "629a.5(d)")
@pytest.mark.parametrize(
    ("change", "ref", "fragment"),
    [
        (remove(type="shuffled"), "629a.5(a)", "the shuffle first"),
        (
            edit({"position": 6}, type="cover_card_inserted", purpose="cut"),
            "629a.5(c)",
            "6 cards from the top",
        ),
        (
            edit(
                {"position": 410},
                type="cover_card_inserted",
                purpose="reshuffle marker",
            ),
            "629a.5(d)",
            "6 cards above the bottom",
        ),
    ],
    ids=["629a_5_a_no_shuffle", "629a_5_c_cut_too_near", "629a_5_d_marker"],
)
def test_629a_5_shoe_preparation_broken(
    change: Callable[[Steps], object], ref: str, fragment: str
) -> None:
    deviation = verify_round(_prepared(_new_midibaccarat_shoe(), change))
    assert deviation is not None
    assert deviation.ref == ref, str(deviation)
    assert fragment in deviation.message, str(deviation)


@pytest.mark.proves("591.7(d)")
def test_591_7_d_cover_card_reached_not_logged() -> None:
    history = dealt(scenario(DBJ, "cover-card-mid-round"), as_dealt=False)
    deviation = verify_round(
        broken(history, remove(type="cover_card_reached"))
    )
    assert deviation is not None
    assert deviation.ref == "591.7(d)", str(deviation)


@pytest.mark.proves("670a.9(b)")
def test_670a_9_b_dealt_from_another_starting_position() -> None:
    history = dealt(scenario(PG, "copies_go_to_the_dealer"), as_dealt=False)
    recorded = history.shoe.starting_position
    assert recorded is not None
    moved = 1 + recorded % 7
    deviation = verify_round(
        broken(
            history,
            edit({"position": moved}, type="starting_position_determined"),
        )
    )
    assert deviation is not None
    assert deviation.ref == "670a.9(b)", str(deviation)
