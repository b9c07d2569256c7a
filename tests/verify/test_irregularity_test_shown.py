"""D89: a round marked a deliberate irregularity test is shown as one.

``"irregularity_test": true`` (D41) lifts the checks that hold a shoe to
the rules' decks, for a scenario's deliberately impossible stack. A
table's record that says its shoe is the table's whole shoe (D75) holds
the rules' decks by its own word, so it cannot be such a test; and any
round the flag covers is named so in the verdicts and the summary, so
that a reader of the report sees which rounds' shoes were not checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories


def _rounds(n: int) -> list[dict[str, Any]]:
    docs = [
        json.loads(h.dumps())
        for h in sample_histories("midibaccarat", n, seed=1)
    ]
    assert all(d["shoe"]["whole"] for d in docs)  # a table's shoes
    return docs


def _verify(tmp_path: Path, docs: list[dict[str, Any]], *args: str) -> Any:
    path = tmp_path / "day.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return CliRunner().invoke(app, ["verify", str(path), *args])


def test_629a_3_a_whole_shoe_is_no_irregularity_test(tmp_path: Path) -> None:
    docs = _rounds(2)
    docs[1]["shoe"]["irregularity_test"] = True
    result = _verify(tmp_path, docs, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    first, second = report["rounds"]
    assert first["conforming"]
    assert "irregularity_test" not in first
    assert second["irregularity_test"] is True
    # the decks are the Rules Submission's (629a.3 for Midibaccarat)
    assert second["deviation"]["ref"] == "629a.3"
    assert "cannot be both" in second["deviation"]["message"]
    assert report["summary"]["irregularity_tests"] == 1


def test_d89_an_irregularity_test_is_named_in_the_report(
    tmp_path: Path,
) -> None:
    """A flagged round that is not a table's whole shoe may conform, but
    the text and JSON reports both say its shoe was not checked."""
    docs = _rounds(3)
    for doc in docs[1:]:
        doc["shoe"]["irregularity_test"] = True
        del doc["shoe"]["whole"]
    text = _verify(tmp_path, docs)
    assert text.exit_code == 0, text.stdout
    lines = text.stdout.splitlines()
    assert lines[0].endswith(": conforming")
    for line in lines[1:3]:
        assert line.endswith(
            ": conforming (a deliberate irregularity test, its shoe not "
            "held to the rules' decks)"
        )
    assert lines[-1] == (
        "2 rounds marked irregularity_test: a deliberate irregularity "
        "test, its shoe not held to the rules' decks"
    )
    report = json.loads(_verify(tmp_path, docs, "--json").stdout)
    assert [r.get("irregularity_test", False) for r in report["rounds"]] == [
        False,
        True,
        True,
    ]
    assert report["summary"] == {
        "rounds": 3,
        "conforming": 3,
        "deviations": 0,
        "by_ref": {},
        "irregularity_tests": 2,
    }
    # with no round flagged the summary is as it always was
    plain = json.loads(_verify(tmp_path, _rounds(3), "--json").stdout)
    assert "irregularity_tests" not in plain["summary"]
