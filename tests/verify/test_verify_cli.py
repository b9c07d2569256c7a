"""``croupier verify``: exit codes, summary, Rules Submission, live rounds."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games, find_game
from croupier.verify import verify_lines, verify_round

GAMES = [spec.name for spec in all_games()]


def _write(path: Path, histories: list[HandHistory]) -> Path:
    path.write_text(
        "".join(h.dumps() + "\n" for h in histories), encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("game", GAMES)
def test_table_rounds_conform_stacked_and_as_dealt(game: str) -> None:
    """Rounds a seeded table deals (shuffles, cuts, cover cards) conform."""
    for history in sample_histories(game, 40, seed=11, seats=3):
        assert verify_round(history) is None, history.round_id
        unknown = dataclasses.replace(
            history,
            shoe=dataclasses.replace(
                history.shoe, known="as_dealt", stack=None, discard=None
            ),
        )
        assert verify_round(unknown) is None, history.round_id


def test_verify_exit_codes_and_summary(tmp_path: Path) -> None:
    good = list(sample_histories("double-back-jack", 5, seed=2))
    path = _write(tmp_path / "good.jsonl", good)
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "5 rounds, 5 conforming, 0 with a deviation" in result.stdout
    steps = [dict(s) for s in good[2].procedure]
    burn = next(i for i, s in enumerate(steps) if s["type"] == "card_dealt")
    steps[burn]["to"], steps[burn + 1]["to"] = (
        steps[burn + 1]["to"],
        steps[burn]["to"],
    )
    bad = dataclasses.replace(good[2], procedure=tuple(steps))
    path = _write(tmp_path / "bad.jsonl", [*good[:2], bad, *good[3:]])
    result = CliRunner().invoke(app, ["verify", str(path), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["rounds"] == 5
    assert report["summary"]["conforming"] == 4
    [deviant] = [r for r in report["rounds"] if not r["conforming"]]
    assert deviant["line"] == 3
    assert deviant["deviation"]["ref"].startswith("591.7(e)")
    assert report["summary"]["by_ref"] == {deviant["deviation"]["ref"]: 1}
    path.write_text(good[0].dumps() + "\n{not json\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "line 2" in result.output
    record = json.loads(good[0].dumps())
    del record["shoe"]
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "line 1: schema" in result.output


def test_verify_holds_rounds_to_the_rules_submission(tmp_path: Path) -> None:
    rounds = list(sample_histories("midibaccarat", 3, seed=4))
    path = _write(tmp_path / "day.jsonl", rounds)
    same = tmp_path / "same.toml"
    same.write_text(f"decks = {rounds[0].rules['decks']}\n", encoding="utf-8")
    assert (
        CliRunner()
        .invoke(app, ["verify", str(path), "--rules", str(same)])
        .exit_code
        == 0
    )
    other = tmp_path / "other.toml"
    other.write_text('tie_payout = "9:1"\n', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["verify", str(path), "--rules", str(other), "--quiet"]
    )
    assert result.exit_code == 1
    assert 'tie_payout="8:1"; the Rules Submission says "9:1"' in (
        result.stdout
    )


def test_810a_11_an_option_a_record_leaves_out_is_named_not_said_set(
    tmp_path: Path,
) -> None:
    """A record whose ``rules.values`` leave ``tie_payout`` out is read
    with croupier's default there; held to a Rules Submission of 9:1, it
    was reported as "the round ran with tie_payout="8:1"", a value the
    record never gave. The deviation now says the record leaves it out
    and which default stood in."""
    lines = []
    for history in sample_histories("midibaccarat", 2, seed=4):
        record = json.loads(history.dumps())
        values = record["rules"]["values"]
        del values["tie_payout"]
        canonical = json.dumps(values, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode()).hexdigest()
        record["rules"]["digest"] = f"sha256:{digest}"
        lines.append(json.dumps(record))
    path = tmp_path / "day.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # alone, the record's rules are what it gives and the defaults, and
    # the report says which options were left out (D122)
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "  midibaccarat.tie_payout: 2 rounds" in result.stdout
    for workers in ("1", "2"):
        result = CliRunner().invoke(
            app, ["verify", str(path), "--json", "--workers", workers]
        )
        report = json.loads(result.stdout)
        assert report["summary"]["defaulted"] == {"midibaccarat.tie_payout": 2}
        assert [r["defaulted"] for r in report["rounds"]] == [
            ["tie_payout"],
            ["tie_payout"],
        ]
    # a record naming every option says nothing of the kind
    whole = _write(
        tmp_path / "whole.jsonl",
        list(sample_histories("midibaccarat", 2, seed=4)),
    )
    result = CliRunner().invoke(app, ["verify", str(whole), "--json"])
    report = json.loads(result.stdout)
    assert "defaulted" not in report["summary"]
    assert all("defaulted" not in r for r in report["rounds"])
    other = tmp_path / "other.toml"
    other.write_text('tie_payout = "9:1"\n', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["verify", str(path), "--rules", str(other), "--quiet"]
    )
    assert result.exit_code == 1
    assert "ran with tie_payout" not in result.stdout
    assert (
        "the round's rules leave out tie_payout (croupier's default "
        '"8:1" stood in); the Rules Submission says "9:1"'
    ) in result.stdout.replace("\n", " ")


SCENARIOS = sorted(
    (Path(__file__).resolve().parents[1] / "scenarios").glob("*/*.json")
)


def test_every_scenario_round_conforms() -> None:
    """Every round tests/scenarios deals conforms, stack known or not."""
    from croupier.hhf import from_scenario
    from croupier.scenario import run_scenario

    checked = 0
    for path in SCENARIOS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        result = run_scenario(doc)
        if result.exit_code != 0:
            continue
        history = from_scenario(doc, result, round_id=path.stem)
        assert verify_round(history) is None, path.name
        unknown = dataclasses.replace(
            history,
            shoe=dataclasses.replace(
                history.shoe,
                known="as_dealt",
                stack=None,
                discard=None,
                starting_position=None,
            ),
        )
        assert verify_round(unknown) is None, path.name
        checked += 1
    assert checked > 150


def test_verify_never_crashes_on_a_tampered_log() -> None:
    """Random single-field changes: a verdict every time, no exception."""
    import random

    from croupier.hhf import HistoryFormatError, validate

    chooser = random.Random(17)
    values: list[object] = [
        0,
        1,
        7,
        -1,
        500,
        "",
        "seat 9",
        "As",
        "JK",
        "dealer",
        True,
        False,
        None,
        "hit",
    ]
    checked = 0
    for game in GAMES:
        for history in sample_histories(game, 6, seed=21, seats=3):
            base = history.to_dict()
            for _ in range(15):
                doc = json.loads(json.dumps(base))
                step = chooser.choice(doc["procedure"])
                field = chooser.choice(
                    [k for k in step if k not in ("seq", "type")]
                )
                step[field] = chooser.choice(values)
                try:
                    validate(doc)
                except HistoryFormatError:
                    continue
                verdict = verify_round(HandHistory.from_dict(doc))
                assert verdict is None or verdict.ref
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_810a_11_croupiers_own_records_leave_no_option_out(game: str) -> None:
    """Every record croupier writes names every option in force, so its
    verdicts name none left out (D122); the count is the rules' own."""
    histories = list(sample_histories(game, 3, seed=2))
    options = {o.name for o in find_game(game).rules_type.options()}
    assert all(set(h.rules) == options for h in histories)
    report = verify_lines([h.dumps() for h in histories])
    assert [v.defaulted for v in report.verdicts] == [(), (), ()]
    assert "defaulted" not in report.summary()
