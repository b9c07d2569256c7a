"""The second pair of adversarial audits of ``croupier verify`` (2026-12-02).

Each case starts from a conforming round (a sample round or a scenario)
and changes it as a faulty table, a faulty log or a legitimate one would;
the verdict expected is read off the rule the change breaks (or keeps),
not off the verifier. Every case below failed before this change (D67;
the controls, rounds that still conform, passed either way):

- a legitimate round was refused: a wager changed before the deal
  (D34), a new dealer's burn, a progressive meter that grew (under a
  Rules Submission), a position written ``402.0``;
- a broken one was passed: a round cut off at a pending decision;
  anything before a void; a shuffled shoe with no cover card, or with
  one anywhere after a reshuffle; Midibaccarat's cut offered out of
  turn or made by another; a round dealt on from a shoe that had ended;
  a starting position drawn by a method 670a.5(i) does not know; a pai
  gow shuffle of the wrong count; odds paying nothing, or a commission
  in the commission-free game; one player on more boxes than the rules
  allow;
- or it was cited under the wrong rule: a deal the engine refuses, a
  step numbered out of order, a dealer drawing on 17, a fourth card in
  21 Baccarat, settlements out of order, a wager after the first card.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.verify.days import books, void_before, void_step
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.format import rules_digest
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_lines


def _docs(game: str, count: int = 1, seed: int = 3) -> list[dict[str, Any]]:
    return [
        json.loads(h.dumps()) for h in sample_histories(game, count, seed=seed)
    ]


def _verdicts(
    *docs: dict[str, Any], rules: dict[str, Any] | None = None
) -> list[tuple[str | None, str]]:
    report = verify_lines(
        [json.dumps(d) for d in docs], submission=rules, across=False
    )
    return [
        (None, "")
        if v.deviation is None
        else (v.deviation.ref, v.deviation.message)
        for v in report.verdicts
    ]


def _scenario_history(tmp_path: Path, scenario: dict[str, Any]) -> str:
    path, out = tmp_path / "s.json", tmp_path / "s.jsonl"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["scenario", str(path), "--history", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "scenario",
    [
        {
            "game": "double-back-jack",
            "shoe": "2c Tc Th 6d 9s",
            "wagers": [
                {"seat": 1, "wager": "blackjack", "amount": 1000},
                {
                    "seat": 1,
                    "wager": "blackjack",
                    "amount": 2000,
                    "change": True,
                },
            ],
            "decisions": [{"seat": 1, "action": "stand"}],
        },
        {
            "game": "21-baccarat",
            "shoe": "2c Tc 9h 7d 6s 5h 4c",
            "wagers": [
                {"seat": 1, "wager": "player", "amount": 1000},
                {"seat": 2, "wager": "tie", "amount": 500},
                {"seat": 2, "wager": "tie", "amount": 0, "change": True},
            ],
        },
    ],
)
def test_d34_a_wager_changed_before_the_deal_conforms(
    tmp_path: Path, scenario: dict[str, Any]
) -> None:
    line = _scenario_history(tmp_path, scenario)
    doc = json.loads(line)
    assert any(s["type"] == "wager_changed" for s in doc["procedure"])
    assert _verdicts(doc) == [(None, "")]
    # and a change the log makes up (another amount than the engine's
    # ledger gives) is still caught
    step = next(s for s in doc["procedure"] if s["type"] == "wager_changed")
    step["previous"] += 1
    [(ref, _)] = _verdicts(doc)
    assert ref is not None


def test_591_7_i_a_round_cut_off_at_a_pending_decision_deviates() -> None:
    [doc] = _docs("double-back-jack", seed=3)
    steps = doc["procedure"]
    cut = next(i for i, s in enumerate(steps) if s["type"] == "decision_made")
    asked = steps[cut]["ref"]
    doc["procedure"], doc["settlements"] = steps[:cut], []
    [(ref, message)] = _verdicts(books(doc))
    assert ref == asked
    assert "never made the decision" in message


def _paid_then_pending() -> dict[str, Any]:
    """A Double Back Jack round with a Blackjack paid at once (591.7(f))
    and a decision after it."""
    for seed in range(40):
        for doc in _docs("double-back-jack", 40, seed=seed):
            kinds = [(s["type"], str(s["ref"])) for s in doc["procedure"]]
            if ("wager_settled", "591.7(f)") in kinds and any(
                kind == "decision_made"
                for kind, _ in kinds[
                    kinds.index(("wager_settled", "591.7(f)")) :
                ]
            ):
                return doc
    raise AssertionError("no sample round pays a Blackjack before a decision")


def _void_after_payment(doc: dict[str, Any]) -> dict[str, Any]:
    """Void the round right after its 591.7(f) payment: the payment as
    made, then every stake still on the layout returned (D25)."""
    steps = doc["procedure"]
    paid = next(
        i
        for i, s in enumerate(steps)
        if s["type"] == "wager_settled" and s["ref"] == "591.7(f)"
    )
    before = steps[: paid + 1]
    layout: dict[int, int] = {}
    for s in before:
        if s["type"] == "wager_placed":
            layout[s["seat"]] = layout.get(s["seat"], 0) + s["amount"]
        elif s["type"] == "wager_settled":
            layout[s["seat"]] -= s["amount"]
    rows = [
        {
            key: s[key]
            for key in ("seat", "wager", "amount", "outcome", "net", "ref")
        }
        for s in before
        if s["type"] == "wager_settled"
    ]
    rows += [
        {
            "seat": seat,
            "wager": "blackjack",
            "amount": amount,
            "outcome": "void",
            "net": 0,
            "ref": "D25",
        }
        for seat, amount in sorted(layout.items())
        if amount
    ]
    doc["procedure"] = [*before, void_step(len(before) + 1)]
    doc["settlements"] = rows
    doc["status"], doc["void_reason"] = "voided", "a test"
    return books(doc)


def test_591_7_f_a_voided_round_is_replayed_up_to_its_void() -> None:
    voided = _void_after_payment(_paid_then_pending())
    assert _verdicts(voided) == [(None, "")]
    # the payment before the void a hundred times what 591.7(f) pays
    greedy = json.loads(json.dumps(voided))
    step = next(
        s
        for s in greedy["procedure"]
        if s["type"] == "wager_settled" and s["ref"] == "591.7(f)"
    )
    step["net"] *= 100
    row = next(r for r in greedy["settlements"] if r["outcome"] == "win")
    row["net"] *= 100
    [(ref, _)] = _verdicts(books(greedy))
    assert ref == "591.7(f)"
    # the payment left out of the record: as if it had been returned
    silent = json.loads(json.dumps(voided))
    silent["settlements"] = [
        r for r in silent["settlements"] if r["outcome"] != "win"
    ]
    [(ref, _)] = _verdicts(books(silent))
    assert ref == "591.7(f)"


def test_d25_a_void_is_a_step_and_a_finished_round_is_not_voided() -> None:
    [doc] = _docs("double-back-jack", seed=3)
    finished = json.loads(json.dumps(doc))
    finished["procedure"].append(
        void_step(len(finished["procedure"]) + 1, "late")
    )
    finished["status"], finished["void_reason"] = "voided", "late"
    finished["settlements"] = []
    [(ref, message)] = _verdicts(books(finished))
    assert (ref, "finished round" in message) == ("D25", True)
    unmarked = json.loads(json.dumps(doc))
    unmarked["status"], unmarked["void_reason"] = "voided", "late"
    [(ref, message)] = _verdicts(unmarked)
    assert (ref, "round_voided" in message) == ("D25", True)


def test_round_inputs_are_not_the_rules_submission() -> None:
    """A meter that grew is the round's state, not a departure (D23)."""
    [doc] = _docs("six-card-fortune-pai-gow", seed=3)
    submission = dict(doc["rules"]["values"])
    doc["rules"]["values"]["progressive_meter"] += 20
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    meter = doc["rules"]["values"]["progressive_meter"]
    assert _verdicts(doc) == [(None, "")]
    assert _verdicts(doc, rules=submission) == [(None, "")]
    # a real option still departs
    other = {**submission, "progressive_reset": meter + 1}
    [(ref, _)] = _verdicts(doc, rules=other)
    assert ref is not None


def test_670a_7_d_a_deal_the_engine_refuses_cites_its_rule() -> None:
    """No Six-Card Wager on the layout: 670a.7(d), not the record's rule."""
    [doc] = _docs("six-card-fortune-pai-gow", seed=3)
    steps = [
        s
        for s in doc["procedure"]
        if not (s["type"] == "wager_placed" and s["wager"] == "pai_gow")
    ]
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    doc["procedure"] = steps
    [(ref, _)] = _verdicts(doc)
    assert ref == "670a.7(d)"


def test_810a_11_a_step_numbered_out_of_order() -> None:
    [doc] = _docs("midibaccarat", seed=1)
    for step in doc["procedure"][10:]:
        step["seq"] += 1
    [(ref, message)] = _verdicts(doc)
    assert ref == "810a.11"
    assert "numbered 12" in message


@pytest.mark.parametrize(
    ("game", "ref"),
    [("double-back-jack", "591.7(d)"), ("21-baccarat", "681a.7(d)")],
)
def test_a_shuffled_shoe_holds_its_cover_card(game: str, ref: str) -> None:
    [doc] = _docs(game, seed=3)
    assert any(s["type"] == "shuffled" for s in doc["shoe"]["preparation"])
    doc["shoe"]["preparation"] = [
        s
        for s in doc["shoe"]["preparation"]
        if s["type"] != "cover_card_inserted"
    ]
    doc["shoe"]["stack"] = " ".join(
        t for t in doc["shoe"]["stack"].split() if t != "CC"
    )
    [(got, _)] = _verdicts(doc)
    assert got == ref


def test_591_7_d_the_cover_card_after_a_reshuffle_at_the_penetration() -> None:
    """A shoe reshuffled in the round before: its new cover card at 3/4."""
    docs = _docs("double-back-jack", 40, seed=3)
    [doc] = [
        d
        for d in docs
        if not any(s["type"] == "shuffled" for s in d["shoe"]["preparation"])
        and any(
            s["type"] == "cover_card_inserted"
            for s in d["shoe"]["preparation"]
        )
    ][:1]
    assert _verdicts(doc) == [(None, "")]
    step = next(
        s
        for s in doc["shoe"]["preparation"]
        if s["type"] == "cover_card_inserted"
    )
    tokens = doc["shoe"]["stack"].split()
    assert step["position"] == 234
    assert tokens[234] == "CC"
    del tokens[234]
    tokens.insert(305, "CC")
    doc["shoe"]["stack"], step["position"] = " ".join(tokens), 305
    [(ref, message)] = _verdicts(doc)
    assert ref == "591.7(d)"
    assert "234" in message


def test_629a_5_d_a_position_written_as_a_whole_float() -> None:
    """``402.0`` is the schema's integer 402: the same cover card."""
    [doc] = _docs("midibaccarat", seed=1)
    step = next(
        s
        for s in doc["shoe"]["preparation"]
        if s["type"] == "cover_card_inserted"
        and s.get("purpose") == "reshuffle marker"
    )
    text = json.dumps(doc).replace(
        f'"position": {step["position"]}, "purpose": "reshuffle marker"',
        f'"position": {step["position"]}.0, "purpose": "reshuffle marker"',
    )
    assert f"{step['position']}.0" in text
    report = verify_lines([text], across=False)
    assert report.conforming == 1


def _cut_change(doc: dict[str, Any], change: str) -> dict[str, Any]:
    steps = doc["shoe"]["preparation"]
    offers = [s for s in steps if s["type"] == "cut_offered"]
    cut = next(s for s in steps if s.get("purpose") == "cut")
    if change == "cut by another":
        cut["by"] = "seat 7"
    elif change == "never offered":
        doc["shoe"]["preparation"] = [s for s in steps if s not in offers]
        cut["by"] = "dealer"
    elif change == "declined, cut all the same":
        offers[-1]["accepted"] = False
    elif change == "completion moves other cards":
        next(s for s in steps if s["type"] == "cut_completed")["moved"] = 50
    elif change == "second cover card elsewhere":
        doc["rules"]["values"]["second_cover_from_bottom"] = 20
        doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    for n, step in enumerate(doc["shoe"]["preparation"], start=1):
        step["seq"] = n
    return doc


@pytest.mark.parametrize(
    ("change", "ref"),
    [
        ("cut by another", "629a.5(c)"),
        ("never offered", "629a.5(b)"),
        ("declined, cut all the same", "629a.5(b)"),
        ("completion moves other cards", "629a.5(d)"),
        ("second cover card elsewhere", "629a.5(d)"),
    ],
)
def test_629a_5_the_cut_is_replayed(change: str, ref: str) -> None:
    """Who was offered the cut, who accepted and where it was cut are
    given to the engine's 629a.5 procedure; its steps must be the log's."""
    [doc] = _docs("midibaccarat", seed=1)
    offers = [
        s for s in doc["shoe"]["preparation"] if s["type"] == "cut_offered"
    ]
    assert [s["accepted"] for s in offers][-1] is True
    assert _verdicts(doc) == [(None, "")]
    [(got, _)] = _verdicts(_cut_change(doc, change))
    assert got == ref


def _file(*docs: dict[str, Any]) -> list[tuple[str | None, str]]:
    report = verify_lines([json.dumps(d) for d in docs])
    return [
        (None, "")
        if v.deviation is None
        else (v.deviation.ref, v.deviation.message)
        for v in report.verdicts
    ]


def test_629a_5_d_the_shoe_ends_with_the_second_cover_card() -> None:
    """A round dealt on from a shoe whose cover card came out deviates.

    The round after the cover card's round is left out, so the one after
    that (which dealt on from the new shoe) seems to deal on from the
    old one: before, nothing was compared after a reshuffle.
    """
    docs = _docs("midibaccarat", 120, seed=3)
    k = next(
        i
        for i, d in enumerate(docs)
        if any(s["type"] == "cover_card_reached" for s in d["procedure"])
    )
    assert docs[k + 1]["shoe"]["new_shoe"]
    assert not docs[k + 2]["shoe"]["new_shoe"]
    assert _file(*docs[: k + 3])[-2:] == [(None, ""), (None, "")]
    [first, (ref, message)] = _file(docs[k], docs[k + 2])
    assert first == (None, "")
    assert ref == "629a.5(d)"
    assert "reached the cover card" in message


def test_d29_the_round_after_a_void_begins_a_new_shoe() -> None:
    docs = _docs("double-back-jack", 10, seed=3)
    j = next(
        i for i in range(len(docs) - 1) if not docs[i + 1]["shoe"]["new_shoe"]
    )
    voided = void_before(docs[j], "card_dealt", "a test")
    [first, (ref, message)] = _file(books(voided), docs[j + 1])
    assert first == (None, "")
    assert ref == "D29"
    assert "voided" in message


def test_670a_9_a_1_the_count_shuffled_is_the_decks() -> None:
    """The procedure's shuffle of 52 cards where 53 are dealt and counted."""
    [doc] = _docs("six-card-fortune-pai-gow", seed=1)
    step = next(s for s in doc["procedure"] if s["type"] == "shuffled")
    assert step["cards"] == 53
    step["cards"] = 52
    [(ref, _)] = _verdicts(doc)
    assert ref == "670a.9(a)(1)"


@pytest.mark.parametrize(
    ("method", "number", "conforms"),
    [
        ("dice", 99, False),  # three dice make 3 to 18
        ("dice", 9, None),  # counts to 7 - 8 % 7 = 6
        ("dealer_choice", 1, False),  # not a 670a.5(i) draw
        ("rng", 2, None),  # 8 - 2 = 6
    ],
)
def test_670a_9_b_the_draw_counts_to_the_starting_position(
    method: str, number: int, conforms: bool | None
) -> None:
    [doc] = _docs("six-card-fortune-pai-gow", seed=2)
    doc["shoe"]["starting_position"] = None
    step = next(
        s
        for s in doc["procedure"]
        if s["type"] == "starting_position_determined"
    )
    assert step["position"] == 6
    step["method"], step["number"] = method, number
    [(ref, _)] = _verdicts(doc)
    assert ref == (None if conforms is None else "670a.9(b)")


def test_629b_2_the_commission_free_game_takes_no_commission() -> None:
    [doc] = _docs("midibaccarat-commission-free", seed=1)
    doc["rules"]["values"]["banker_payout"] = "19:20"
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    [(ref, message)] = _verdicts(doc)
    assert ref == "810a.11"
    assert "629b.2" in message


@pytest.mark.parametrize(
    ("game", "option"),
    [
        ("double-back-jack", "blackjack_payout"),
        ("double-back-jack", "win_payout"),
        ("21-baccarat", "tie_payout"),
        ("midibaccarat", "banker_payout"),
    ],
)
def test_payout_odds_of_nothing_are_not_rules(game: str, option: str) -> None:
    """A win paying 0:1 is a push under another name: invalid rules."""
    [doc] = _docs(game, seed=1)
    doc["rules"]["values"][option] = "0:1"
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    [(ref, message)] = _verdicts(doc)
    assert ref == "810a.11"
    assert "pay nothing" in message


def test_673a_6_e_one_player_on_more_boxes_than_the_rules_allow() -> None:
    docs = _docs("double-back-jack", 10, seed=3)
    doc = next(d for d in docs if len(d["players"]) >= 2)
    for player in doc["players"]:
        player["player_id"] = "one player"
    assert _verdicts(doc) == [(None, "")]  # two adjacent boxes: allowed
    doc["rules"]["values"]["boxes_per_player"] = 1
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    [(ref, _)] = _verdicts(doc)
    assert ref == "673a.6(e)"


def _new_dealer(doc: dict[str, Any], ref: str) -> dict[str, Any]:
    """A new dealer burns the top card while the wagers are open: the
    lowest card of the stack moved to its top, so the shoe stays whole."""
    tokens = doc["shoe"]["stack"].split()
    last = max(i for i, t in enumerate(tokens) if t != "CC")
    bottom = tokens.pop(last)
    doc["shoe"]["stack"] = " ".join([bottom, *tokens])
    steps = doc["procedure"]
    at = next(
        i + 1
        for i, s in enumerate(steps)
        if s["type"] == "phase_entered" and s["phase"] == "wagering"
    )
    burn = {"seq": 0, "ref": ref, "type": "card_burned", "card": bottom}
    steps.insert(at, {**burn, "face_up": False})
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    return doc


@pytest.mark.parametrize(
    ("game", "ref"),
    [("double-back-jack", "591.7(c)"), ("21-baccarat", "681a.7(c)")],
)
def test_a_new_dealer_burns_one_card_before_the_deal(
    game: str, ref: str
) -> None:
    """591.7(c), 681a.7(c): the burn ``change_dealer`` makes conforms."""
    doc = next(d for d in _docs(game, 10, seed=3) if not d["shoe"]["new_shoe"])
    burned = _new_dealer(doc, ref)
    step = next(s for s in burned["procedure"] if s["type"] == "card_burned")
    assert step["ref"] == ref
    assert _verdicts(burned) == [(None, "")]


def test_629a_midibaccarat_has_no_new_dealer_burn() -> None:
    doc = next(
        d
        for d in _docs("midibaccarat", 10, seed=3)
        if not d["shoe"]["new_shoe"]
    )
    [(ref, _)] = _verdicts(_new_dealer(doc, "629a.5(f)"))
    assert ref is not None


def _as_dealt(doc: dict[str, Any]) -> dict[str, Any]:
    """The shoe not recorded: only the cards as they came out."""
    doc["shoe"].update(known="as_dealt", stack=None, discard=None)
    return doc


def _insert(doc: dict[str, Any], at: int, step: dict[str, Any]) -> None:
    doc["procedure"].insert(at, {"seq": 0, **step})
    for n, each in enumerate(doc["procedure"], start=1):
        each["seq"] = n


def _card(to: str, ref: str) -> dict[str, Any]:
    return {
        "ref": ref,
        "type": "card_dealt",
        "to": to,
        "card": "2c",
        "face_up": True,
        "hand": 0,
        "purpose": "",
    }


def test_591_7_o_a_dealer_drawing_on_17_breaks_the_drawing_rule() -> None:
    """Not the settlement's subsection the engine went on to."""
    for doc in _docs("double-back-jack", 40, seed=3):
        stands = [
            i
            for i, s in enumerate(doc["procedure"])
            if s["type"] == "announced" and s["text"] == "dealer hard 17"
        ]
        if stands:
            break
    else:
        raise AssertionError("no dealer stood on hard 17")
    _insert(_as_dealt(doc), stands[-1] + 1, _card("dealer", "591.7(o)"))
    [(ref, message)] = _verdicts(doc)
    assert ref == "591.7(o)"
    assert "drew 2c on 17" in message


def test_681a_7_g_one_additional_card_only() -> None:
    doc = next(
        d
        for d in _docs("21-baccarat", 40, seed=3)
        if not any(
            s["type"] == "announced" and s["text"].startswith("natural")
            for s in d["procedure"]
        )
    )
    last = max(
        i for i, s in enumerate(doc["procedure"]) if s["type"] == "card_dealt"
    )
    _insert(_as_dealt(doc), last + 1, _card("banker hand", "681a.7(g)"))
    [(ref, _)] = _verdicts(doc)
    assert ref == "681a.7(g)"


def test_681a_7_h_settled_out_of_order() -> None:
    """From the dealer's right, counter-clockwise: (h), not an outcome."""
    for doc in _docs("21-baccarat", 40, seed=3):
        settled = [
            i
            for i, s in enumerate(doc["procedure"])
            if s["type"] == "wager_settled"
            and s["wager"] in ("player", "banker")
        ]
        seats = {doc["procedure"][i]["seat"] for i in settled}
        if len(seats) >= 2:
            break
    else:
        raise AssertionError("no round settles two seats' main wagers")
    steps = doc["procedure"]
    a, b = (
        settled[0],
        next(
            i for i in settled if steps[i]["seat"] != steps[settled[0]]["seat"]
        ),
    )
    steps[a], steps[b] = steps[b], steps[a]
    steps[a]["seq"], steps[b]["seq"] = steps[b]["seq"], steps[a]["seq"]
    [(ref, message)] = _verdicts(doc)
    assert ref == "681a.7(h)"
    assert "out of order" in message


@pytest.mark.parametrize(
    ("game", "ref", "wager"),
    [
        ("double-back-jack", "673a.6(c)", "blackjack"),
        ("21-baccarat", "681a.7(e)", "player"),
    ],
)
def test_a_wager_after_the_first_card_breaks_the_wagering_rule(
    game: str, ref: str, wager: str
) -> None:
    [doc] = _docs(game, seed=3)
    first = next(
        i for i, s in enumerate(doc["procedure"]) if s["type"] == "card_dealt"
    )
    late = {
        "ref": ref,
        "type": "wager_placed",
        "seat": 6,
        "wager": wager,
        "amount": 100,
        "hand": 0,
    }
    _insert(doc, first + 1, late)
    [(got, message)] = _verdicts(doc)
    assert got == ref
    assert "after wagering closed" in message


def test_810a_11_only_a_voided_round_has_a_void_reason() -> None:
    [doc] = _docs("double-back-jack", seed=3)
    doc["void_reason"] = "table closed"
    [(ref, message)] = _verdicts(doc)
    assert ref == "810a.11"
    assert "void reason" in message


def test_d25_the_servers_own_steps_before_a_void_are_not_replayed() -> None:
    """A seat the pacing left out (D27) is the server's step, not the
    dealer's: the voided round still conforms (the third audit found
    the server's own voided rounds refused)."""
    voided = _void_after_payment(_paid_then_pending())
    steps = voided["procedure"]
    steps.insert(
        len(steps) - 1,
        {
            "seq": 0,
            "scope": "server",
            "type": "seats_left_out",
            "ref": "D27",
            "seats": [6],
            "reason": "no wager when betting closed",
        },
    )
    for n, step in enumerate(steps, start=1):
        step["seq"] = n
    assert _verdicts(voided) == [(None, "")]


def test_d25_a_round_voided_before_a_deal_the_engine_would_refuse() -> None:
    """The progressive system's count disagrees, the deal may not begin
    (670a.9(a)(3)(ii)) and the round is voided: the refusal comes after
    the void, so the round conforms (a third audit's finding)."""
    [doc] = _docs("six-card-fortune-pai-gow", seed=3)
    doc["rules"]["values"]["progressive_system_count_offset"] = 1
    doc["rules"]["digest"] = rules_digest(doc["rules"]["values"])
    kinds = [s["type"] for s in doc["procedure"]]
    assert set(kinds[: kinds.index("phase_entered")]) == {"wager_placed"}
    void_before(doc, "phase_entered", "the deal may not begin")
    assert _verdicts(books(doc)) == [(None, "")]
    # dealt all the same, the same round deviates under that rule
    [dealt] = _docs("six-card-fortune-pai-gow", seed=3)
    dealt["rules"] = doc["rules"]
    [(ref, _)] = _verdicts(dealt)
    assert ref == "670a.9(a)(3)(ii)"
