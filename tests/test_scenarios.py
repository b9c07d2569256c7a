"""Every scenario file under tests/scenarios/<game>/ runs and meets its expect.

A scenario file is a scenario-contract document with an extra ``expect``
object (ignored by the runner) holding any of:

- ``exit_code``: the runner's exit code (default 0);
- ``settlements``: the exact list of settlement rows;
- ``hands``: a subset of the ``hands`` output;
- ``event_types``: event types that must all appear, in this order
  (a subsequence of the events);
- ``refs``: references that must all appear on some event;
- ``pending``: a subset of the pending object (exit code 3);
- ``stderr_contains``: a fragment of the refusal line (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from croupier.scenario import run_scenario

SCENARIOS = sorted(Path(__file__).parent.glob("scenarios/*/*.json"))


def _is_subsequence(wanted: list[str], seen: list[str]) -> bool:
    it = iter(seen)
    return all(any(w == s for s in it) for w in wanted)


@pytest.mark.parametrize(
    "path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS]
)
def test_scenario_file(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    expect: dict[str, Any] = data.get("expect", {})
    result = run_scenario(data)
    assert result.exit_code == expect.get("exit_code", 0), result.stderr
    if result.exit_code == 2:
        assert result.stdout == ""
        assert "\n" not in result.stderr.strip()
        assert expect.get("stderr_contains", "") in result.stderr
        return
    output = json.loads(result.stdout)
    if "settlements" in expect:
        assert output["settlements"] == expect["settlements"]
    for label, cards in expect.get("hands", {}).items():
        assert output["hands"][label] == cards, label
    types = [event["type"] for event in output["events"]]
    assert _is_subsequence(expect.get("event_types", []), types), types
    refs = {event["ref"] for event in output["events"]}
    assert set(expect.get("refs", [])) <= refs
    for key, value in expect.get("pending", {}).items():
        assert output["pending"][key] == value
    assert [e["seq"] for e in output["events"]] == list(
        range(1, len(output["events"]) + 1)
    )
    if result.round is not None and result.exit_code == 0:
        result.round.verify_conservation()
        result.round.ledger.verify()
