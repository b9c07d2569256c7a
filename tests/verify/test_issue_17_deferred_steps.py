"""Issue 17 point 2: the steps' schema check skipped only when provably moot.

``croupier verify`` validates a line's envelope at once and its
procedure's steps only when they are not, as JSON and type for type,
exactly the engine's own steps. That is the same verdict as validating
everything first only if the engine's steps always meet the schema
(checked here with the reference validator on every game, both dealing
modes and every scenario) and if a log that differs from the engine
only in a JSON type (``true`` for ``1``, ``1.0`` for ``1``), which
Python's ``==`` calls equal, is still validated: each such log gives
the error, line and report of the plain reading, step by step.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from tests.verify.days import scenario_histories

from croupier.hhf import HandHistory, schema
from croupier.hhf.format import HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.jsontypes import reading_error
from croupier.registry import all_games
from croupier.verify import verify_lines, verify_round
from croupier.verify.replay import verify_round_strict
from croupier.verify.report import report_json

GAMES = [spec.name for spec in all_games()]
_REFERENCE = jsonschema.Draft202012Validator(schema())
"""The whole schema, by the reference validator (no split, no cache)."""


def _as_dealt(history: HandHistory) -> HandHistory:
    return dataclasses.replace(
        history,
        shoe=dataclasses.replace(
            history.shoe, known="as_dealt", stack=None, discard=None
        ),
    )


@pytest.mark.parametrize("game", GAMES)
def test_issue_17_2_engine_steps_meet_the_schema_both_modes(game: str) -> None:
    strict_rounds = 0
    for history in sample_histories(game, 60, seed=11, seats=3):
        for mode in (history, _as_dealt(history)):
            deviation, strict, _ = verify_round_strict(mode)
            assert deviation is None, mode.round_id
            assert deviation == verify_round(mode)
            if strict:
                # the log is the engine's steps as JSON: they are valid
                _REFERENCE.validate(json.loads(mode.dumps()))
                strict_rounds += 1
    # every stacked round but one that reshuffles (whose shuffle's seed
    # is the table's, not the replay's) is the engine's own steps
    assert strict_rounds >= 50


def test_issue_17_2_engine_steps_of_every_scenario_meet_the_schema() -> None:
    histories = scenario_histories()
    assert len({h.game for h in histories}) == len(GAMES)
    strict_rounds = 0
    for history in histories:
        with_lists = any(
            isinstance(v, list | dict)
            for s in history.procedure
            for v in s.values()
        )
        for mode in (history, _as_dealt(history)):
            deviation, strict, _ = verify_round_strict(mode)
            assert deviation == verify_round(mode)
            if strict:
                _REFERENCE.validate(json.loads(mode.dumps()))
                strict_rounds += 1
            # a step holding a list or an object is never taken as
            # the engine's own without its schema check
            assert not (strict and with_lists), history.round_id
    assert strict_rounds >= len(histories)


def test_issue_17_2_every_scenario_round_verifies_conforming() -> None:
    """croupier's own scenario histories are valid and conform.

    A collection of no cards (the shoe's rest at a mid-round cover card,
    a short deck's empty position) is written as the empty card notation
    ``""``: it used to be ``[]``, which the schema refuses, so
    ``croupier verify`` called croupier's own output malformed.
    """
    histories = scenario_histories()
    empties = [
        h
        for h in histories
        if any(
            s.get("type") == "cards_collected" and s.get("cards") == ""
            for s in h.procedure
        )
    ]
    ids = {h.round_id for h in empties}
    assert {"cover-card-mid-round", "short_deck_positions_short"} <= ids
    for history in histories:
        line = history.dumps()
        _REFERENCE.validate(json.loads(line))
        assert _new([line]) == _plain([line])
        verdict, _ = _new([line])
        assert verdict == "report", history.round_id
        report = verify_lines([line])
        assert report.conforming == report.rounds == 1, history.round_id


def _plain(lines: list[str]) -> tuple[str, object]:
    """The verdicts of validating every line whole first (the old way)."""
    from croupier.verify.file import FileReport, RoundVerdict

    report = FileReport()
    for number, line in enumerate(lines, start=1):
        try:
            history = HandHistory.loads(line)
        except HistoryFormatError as exc:
            return "error", (f"line {number}: {exc}", number)
        except (KeyError, TypeError, ValueError) as exc:
            said = reading_error(exc)
            return "error", (f"line {number}: malformed record: {said}",)
        report.verdicts.append(
            RoundVerdict(
                number,
                history.round_id,
                history.game,
                verify_round(history),
                irregularity_test=history.shoe.irregularity_test,
            )
        )
    return "report", report_json(report)


def _new(lines: list[str]) -> tuple[str, object]:
    try:
        report = verify_lines(lines)
    except HistoryFormatError as exc:
        if "malformed record" in str(exc):
            return "error", (str(exc),)
        return "error", (str(exc), exc.line)
    return "report", report_json(report)


def _step(steps: list[dict[str, Any]], kind: str, name: str) -> int | None:
    found = [i for i, s in enumerate(steps) if s["type"] == kind and name in s]
    return found[0] if found else None


Mutation = Callable[[list[dict[str, Any]]], bool]
"""Changes one step; ``False`` when the round has no such step."""


def _set(kind: str, name: str, value: Callable[[Any], Any]) -> Mutation:
    def mutate(steps: list[dict[str, Any]]) -> bool:
        i = _step(steps, kind, name)
        if i is not None:
            steps[i][name] = value(steps[i][name])
        return i is not None

    return mutate


def _drop(kind: str, name: str) -> Mutation:
    def mutate(steps: list[dict[str, Any]]) -> bool:
        i = _step(steps, kind, name)
        if i is not None:
            del steps[i][name]
        return i is not None

    return mutate


def _extra(steps: list[dict[str, Any]]) -> bool:
    i = _step(steps, "card_dealt", "card")
    assert i is not None
    steps[i]["extra"] = 1
    return True


MUTATIONS: dict[str, tuple[Mutation, bool]] = {
    # name: (mutation, whether the schema must refuse it)
    "true_for_seq_1": (_set("card_dealt", "seq", lambda _: True), True),
    # JSON Schema counts 1000.0 an integer: valid, and equal to 1000
    "float_for_amount": (
        _set("wager_placed", "amount", lambda v: float(v)),
        False,
    ),
    "string_for_amount": (_set("wager_placed", "amount", str), True),
    "true_for_decision_seat": (
        _set("decision_made", "seat", lambda _: True),
        True,
    ),
    "int_for_action": (_set("decision_made", "action", len), True),
    "string_for_seat": (_set("wager_placed", "seat", str), True),
    "true_for_seat_1": (_set("wager_placed", "seat", lambda _: True), True),
    "int_for_face_up": (_set("card_dealt", "face_up", int), True),
    "false_for_hand_0": (_set("card_dealt", "hand", lambda _: False), True),
    "float_for_hand_0": (_set("card_dealt", "hand", lambda _: 0.0), False),
    "nan_for_amount": (
        _set("wager_placed", "amount", lambda _: float("nan")),
        True,
    ),
    # the format's integers are 64-bit (past them orjson reads a float)
    "huge_int_for_amount": (
        _set("wager_placed", "amount", lambda _: 2**70),
        True,
    ),
    "missing_purpose": (_drop("card_dealt", "purpose"), True),
    "missing_card": (_drop("card_dealt", "card"), True),
    "extra_key": (_extra, False),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_issue_17_2_type_confused_log_gives_the_plain_verdict(
    game: str, name: str
) -> None:
    mutate, refused = MUTATIONS[name]
    histories = list(sample_histories(game, 4, seed=3))
    lines = [h.dumps() for h in histories]
    doc = json.loads(lines[2])
    changed = mutate(doc["procedure"])
    # the baccarats take no decisions: their rounds have none to change
    assert changed or "baccarat" in game
    lines[2] = json.dumps(doc, separators=(",", ":"))
    got, want = _new(lines), _plain(lines)
    assert got == want
    if refused and changed:
        kind, detail = got
        assert kind == "error"
        assert isinstance(detail, tuple)
        assert str(detail[0]).startswith("line 3: ")
    else:
        assert got[0] == "report"


@pytest.mark.parametrize("game", GAMES)
def test_issue_17_2_copied_input_of_another_type_never_the_engines(
    game: str,
) -> None:
    """A wager's seat ``true`` comes back from the engine as ``true``.

    Its steps then equal the engine's as JSON, yet they break the schema:
    the flag holds only with the wager and decision steps valid.
    """
    history = next(iter(sample_histories(game, 1, seed=3)))
    steps = [dict(s) for s in history.procedure]
    i = _step(steps, "wager_placed", "seat")
    assert i is not None
    assert steps[i]["seat"] == 1
    steps[i]["seat"] = True
    bad = dataclasses.replace(history, procedure=tuple(steps))
    assert verify_round_strict(history)[1]
    assert not verify_round_strict(bad)[1]
    with pytest.raises(HistoryFormatError, match="line 1: schema: at"):
        verify_lines([bad.dumps()])


@pytest.mark.parametrize("game", GAMES)
def test_issue_17_2_the_lines_own_text_stands_for_the_logs_json(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line is not written again when its text shows the engine's steps.

    ``_written_in`` finds the engine's steps in the line's own text when
    the key ``"procedure"`` stands once and nothing is escaped; a line
    with an escape (a player named in another script, written ``\\u``)
    or the key's text twice (a player named ``"procedure"``) is compared
    the long way, with the same verdict.
    """
    from croupier.verify import replay

    seen: list[bool] = []
    found = replay._written_in

    def spy(mine: bytes, text: str | bytes | None) -> bool:
        seen.append(found(mine, text))
        return seen[-1]

    monkeypatch.setattr(replay, "_written_in", spy)
    histories = list(sample_histories(game, 3, seed=4))
    lines = [h.dumps() for h in histories]
    report = verify_lines(lines)
    assert report.conforming == report.rounds == 3
    assert seen == [True, True, True]
    for name in ("Zoë", '"procedure"'):
        players = tuple(
            dataclasses.replace(p, player_id=name)
            for p in histories[0].players
        )
        named = dataclasses.replace(histories[0], players=players)
        line = named.dumps()
        assert ("\\u" in line) is (name == "Zoë")
        seen.clear()
        report = verify_lines([line])
        assert report.conforming == report.rounds == 1, report.verdicts
        assert seen == [False]
