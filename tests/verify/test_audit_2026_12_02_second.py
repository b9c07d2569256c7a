"""The second pair of adversarial audits of ``croupier verify`` (2026-12-02).

Each case starts from a conforming round (a sample round or a scenario)
and changes it as a faulty table, a faulty log or a legitimate one would;
the verdict expected is read off the rule the change breaks (or keeps),
not off the verifier. Every case below failed before this change: a
legitimate round was refused (a wager changed before the deal, D34; a
progressive meter that grew, under a Rules Submission; a position
written ``402.0``), a broken one was passed (a round cut off at a
pending decision; anything before a void; a shuffled shoe with no cover
card, or with one anywhere after a reshuffle) or cited under the wrong
rule (a deal the engine refuses; a step numbered out of order).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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


def _books(doc: dict[str, Any]) -> dict[str, Any]:
    """The players' totals worked out again from the settlements."""
    seats: dict[int, list[int]] = {}
    for row in doc["settlements"]:
        bet_won = seats.setdefault(row["seat"], [0, 0])
        bet_won[0] += row["amount"]
        bet_won[1] += max(row["amount"] + row["net"], 0)
    doc["players"] = [
        {
            "seat": seat,
            "player_id": f"p{seat}",
            "balance_before": None,
            "balance_after": None,
            "total_bet": bet,
            "total_won": won,
        }
        for seat, (bet, won) in sorted(seats.items())
    ]
    return doc


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
    [(ref, message)] = _verdicts(_books(doc))
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
    void = {
        "seq": len(before) + 1,
        "ref": "D25",
        "type": "round_voided",
        "reason": "a test",
    }
    doc["procedure"] = [*before, void]
    doc["settlements"] = rows
    doc["status"], doc["void_reason"] = "voided", "a test"
    return _books(doc)


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
    [(ref, _)] = _verdicts(_books(greedy))
    assert ref == "591.7(f)"
    # the payment left out of the record: as if it had been returned
    silent = json.loads(json.dumps(voided))
    silent["settlements"] = [
        r for r in silent["settlements"] if r["outcome"] != "win"
    ]
    [(ref, _)] = _verdicts(_books(silent))
    assert ref == "591.7(f)"


def test_d25_a_void_is_a_step_and_a_finished_round_is_not_voided() -> None:
    [doc] = _docs("double-back-jack", seed=3)
    finished = json.loads(json.dumps(doc))
    finished["procedure"].append(
        {
            "seq": len(finished["procedure"]) + 1,
            "ref": "D25",
            "type": "round_voided",
            "reason": "late",
        }
    )
    finished["status"], finished["void_reason"] = "voided", "late"
    finished["settlements"] = []
    [(ref, message)] = _verdicts(_books(finished))
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
