"""A key written twice in one object makes a line malformed (an audit).

orjson, like :mod:`json`, keeps the last value of a key written twice,
so ``"game":{"id":"roulette","id":"double-back-jack"}`` or a second
``"procedure"`` read as a conforming round; another reader may keep the
first (RFC 8259, section 4). The verifier must not read a record
another reader would read otherwise: exit 2, naming the line and the
key's path. The lines are edited here as text, the duplicate put where
each way of finding it is taken: croupier's own compact lines (whose
steps the replay finds written as the engine's), lines written with
spaces, and lines with an escape in them.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import HandHistory, HistoryFormatError, read_history
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_lines


def _line(game: str = "double-back-jack") -> str:
    (history,) = sample_histories(game, 1, seed=3)
    return history.dumps()


def _once(line: str, old: str, new: str) -> str:
    """``line`` with ``old``, found exactly once, replaced by ``new``."""
    assert line.count(old) == 1, old
    return line.replace(old, new)


def _verify(tmp_path: Path, *lines: str, workers: int = 1) -> tuple[int, str]:
    path = tmp_path / "day.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    args = ["verify", str(path), "--workers", str(workers)]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.stderr


def test_a_game_id_written_twice_is_malformed(tmp_path: Path) -> None:
    """The audit's line: roulette, then Double Back Jack (read last)."""
    line = _once(
        _line(),
        '"game":{"id":"double-back-jack"',
        '"game":{"id":"roulette","id":"double-back-jack"',
    )
    code, err = _verify(tmp_path, line)
    assert code == 2, err
    assert "line 1: a key written twice in one object, at game/id" in err


def test_a_second_procedure_key_is_malformed(tmp_path: Path) -> None:
    line = _once(_line(), '"procedure":', '"procedure":[],"procedure":')
    code, err = _verify(tmp_path, line)
    assert code == 2, err
    assert "line 1: a key written twice in one object, at procedure " in err


def test_a_step_field_written_twice_is_malformed(tmp_path: Path) -> None:
    """Inside the procedure: the path names the step by its index."""
    line = _line()
    steps = json.loads(line)["procedure"]
    i = next(n for n, s in enumerate(steps) if s["type"] == "wager_placed")
    old = json.dumps(steps[i], separators=(",", ":"))
    new = old.replace('"amount":', '"amount":999999,"amount":')
    code, err = _verify(tmp_path, _once(line, old, new))
    assert code == 2, err
    assert f"at procedure/{i}/amount " in err


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('"status":"over"', '"status":"voided","status":"over"', "status"),
        (
            '"player_id":"seat 1"',
            '"player_id":"x","player_id":"seat 1"',
            "players/0/player_id",
        ),
        (
            '"settlements":[{"seat":',
            '"settlements":[{"seat":9,"seat":',
            "settlements/0/seat",
        ),
    ],
    ids=["top", "players", "settlements"],
)
def test_a_key_twice_around_the_engines_own_steps_is_malformed(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    """Croupier's own line, its steps the engine's: the rest is read too."""
    code, err = _verify(tmp_path, _once(_line(), old, new))
    assert code == 2, err
    assert f"at {where} " in err


def test_a_key_twice_in_a_line_written_with_spaces_is_malformed(
    tmp_path: Path,
) -> None:
    line = json.dumps(json.loads(_line()))  # ", " and ": "
    assert line.count('"status": "over"') == 1
    twice = line.replace('"status": "over"', '"status": "x", "status": "over"')
    code, err = _verify(tmp_path, twice)
    assert code == 2, err
    assert "at status " in err
    assert _verify(tmp_path, line)[0] == 0  # spaces alone are fine


def test_a_key_twice_in_a_line_with_an_escape_is_malformed(
    tmp_path: Path,
) -> None:
    """A player named in another script: ``\\u00eb`` in croupier's line."""
    (history,) = sample_histories("midibaccarat", 1, seed=3)
    players = tuple(
        dataclasses.replace(p, player_id="Zoë") for p in history.players
    )
    line = dataclasses.replace(history, players=players).dumps()
    assert "\\u00eb" in line
    assert _verify(tmp_path, line)[0] == 0
    twice = _once(line, '"status":"over"', '"status":"x","status":"over"')
    code, err = _verify(tmp_path, twice)
    assert code == 2, err
    assert "at status " in err


def test_a_key_twice_stops_the_run_at_its_line_with_workers(
    tmp_path: Path,
) -> None:
    """The same line named with one process or several."""
    line = _line("midibaccarat")
    twice = _once(line, '"status":"over"', '"status":"x","status":"over"')
    lines = [line] * 300 + [twice] + [line] * 300
    alone = _verify(tmp_path, *lines)
    shared = _verify(tmp_path, *lines, workers=2)
    assert alone == shared
    assert alone[0] == 2
    assert "line 301: a key written twice" in alone[1]


def test_every_reader_of_chh_refuses_a_key_twice() -> None:
    """``HandHistory.loads`` and ``read_history``, not only the verifier."""
    line = _once(
        _line(),
        '"game":{"id":"double-back-jack"',
        '"game":{"id":"roulette","id":"double-back-jack"',
    )
    with pytest.raises(HistoryFormatError, match="at game/id"):
        HandHistory.loads(line)
    with pytest.raises(HistoryFormatError, match="line 2: a key written"):
        list(read_history([_line(), line]))
    report = verify_lines([_line()])
    assert report.conforming == report.rounds == 1


def test_croupiers_own_lines_are_proven_by_the_rest_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check's cost: croupier's lines re-encode all but their steps.

    Their steps are found in the line as the engine's own by the replay,
    which writes no key twice; only the rest is re-encoded (about 1 % of
    a round's check), never the whole line.
    """
    from croupier.hhf import twice
    from croupier.verify import file

    seen: list[bool] = []
    found = twice.rest_written_once

    def spy(text: str | bytes, data: object, steps: bytes) -> bool:
        seen.append(found(text, data, steps))
        return seen[-1]

    monkeypatch.setattr(file, "rest_written_once", spy)
    for game in ("21-baccarat", "six-card-fortune-pai-gow"):
        (history,) = sample_histories(game, 1, seed=3)
        seen.clear()
        report = verify_lines([history.dumps()])
        assert report.conforming == report.rounds == 1
        assert seen == [True], game
