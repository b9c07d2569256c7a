"""D106: a day of several games, each game's rounds held to its own submission.

``croupier verify --rules GAME=FILE`` (repeatable) holds each game's
rounds to that game's Rules Submission; a plain ``--rules FILE`` keeps
D100 (the game of the first round). The logs are croupier's own
(:func:`~croupier.hhf.sample.sample_histories`, two tables of two
games, interleaved as ``history export`` writes a day); what each round
ran with is read from the record, not from the verifier.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import CroupierError
from croupier.hhf import HandHistory, write_history
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import (
    RoundVerdict,
    Submission,
    Submissions,
    Tally,
    verify_lines,
)
from croupier.verify.report import report_json

DBJ, B21 = "double-back-jack", "21-baccarat"
OTHER_TIE = "9:1"
"""A Tie payout 21 Baccarat's sample rounds do not run with."""


def _day(rounds: int) -> tuple[list[HandHistory], list[HandHistory]]:
    """``rounds`` of each game, at two tables (seeds 3 and 4)."""
    return (
        list(sample_histories(DBJ, rounds, seed=3)),
        list(sample_histories(B21, rounds, seed=4)),
    )


def _write(path: Path, dbj: list[HandHistory], b21: list[HandHistory]) -> Path:
    """The two tables' rounds interleaved, a Double Back Jack one first."""
    with path.open("w", encoding="utf-8") as out:
        write_history(
            (h for pair in zip(dbj, b21, strict=True) for h in pair), out
        )
    return path


def _files(
    tmp_path: Path, dbj: HandHistory, b21: HandHistory
) -> tuple[Path, Path]:
    """A Double Back Jack submission the rounds keep, a 21 Baccarat one
    whose Tie payout they do not."""
    assert b21.rules["tie_payout"] != OTHER_TIE
    held = tmp_path / "dbj.toml"
    held.write_text(f"decks = {dbj.rules['decks']}\n", encoding="utf-8")
    other = tmp_path / "b21.json"
    other.write_text(json.dumps({"tie_payout": OTHER_TIE}), encoding="utf-8")
    return held, other


def _run(*args: str) -> tuple[int, str, str]:
    """``croupier verify ARGS``: exit code, stdout, and stderr after the
    command's name (``verify: ...``)."""
    result = CliRunner().invoke(app, ["verify", *args])
    said = result.stderr.partition(" verify: ")[2]
    return result.exit_code, result.stdout, said


def _recorded_digest(game: str, values: dict[str, object]) -> str:
    """The ``rules.digest`` croupier's writer records for a round of
    ``game`` dealt under ``values``."""
    (history,) = sample_histories(game, 1, seed=1, rules=values)
    return history.rules_digest


def test_d106_each_game_is_held_to_its_own_submission(tmp_path: Path) -> None:
    """The 21 Baccarat rounds break their Tie payout, the others conform.

    Without a submission every round conforms: the deviation is the
    21 Baccarat submission's, and the Double Back Jack one is not held
    to it (nor the other way round: a Tie payout is no option of its).
    """
    dbj, b21 = _day(4)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, other = _files(tmp_path, dbj[0], b21[0])
    assert _run(str(log))[0] == 0
    code, out, err = _run(
        str(log),
        "--rules",
        f"{DBJ}={held}",
        "--rules",
        f"{B21}={other}",
        "--json",
    )
    assert code == 1, err
    report = json.loads(out)
    games = [r["game"] for r in report["rounds"]]
    assert games == [DBJ, B21] * 4
    for verdict in report["rounds"]:
        if verdict["game"] == DBJ:
            assert verdict["conforming"], verdict
            continue
        recorded = b21[0].rules["tie_payout"]
        assert verdict["deviation"]["message"] == (
            f'the round ran with tie_payout="{recorded}"; the Rules '
            f'Submission says "{OTHER_TIE}"'
        )
    assert report["summary"]["conforming"] == 4
    assert report["summary"]["deviations"] == 4
    # the same through the library, the submissions given as values
    submissions = Submissions(
        [
            Submission({"decks": dbj[0].rules["decks"]}, game=DBJ),
            Submission({"tie_payout": OTHER_TIE}, game=B21),
        ]
    )
    lines = log.read_text(encoding="utf-8").splitlines()
    found = verify_lines(lines, submissions=submissions)
    assert [v.conforming for v in found.verdicts] == [True, False] * 4


def test_d106_the_report_names_each_games_file_and_rules_digest(
    tmp_path: Path,
) -> None:
    """Text, --json and --jsonl: file, digest and rounds of each game.

    The digest is the one croupier's writer records for a round dealt
    under the submission (a log's ``rules.digest`` to compare with);
    --quiet still counts every round a submission held, and a game the
    file has no round of is listed with none.
    """
    dbj, b21 = _day(3)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, other = _files(tmp_path, dbj[0], b21[0])
    midi = tmp_path / "midi.toml"
    midi.write_text("decks = 6\n", encoding="utf-8")
    want = [
        {
            "game": DBJ,
            "file": str(held),
            "digest": _recorded_digest(DBJ, {"decks": dbj[0].rules["decks"]}),
            "rounds": 3,
        },
        {
            "game": B21,
            "file": str(other),
            "digest": _recorded_digest(B21, {"tie_payout": OTHER_TIE}),
            "rounds": 3,
        },
        {
            "game": "midibaccarat",
            "file": str(midi),
            "digest": _recorded_digest("midibaccarat", {"decks": 6}),
            "rounds": 0,
        },
    ]
    assert want[0]["digest"] != want[1]["digest"]
    given = [
        "--rules",
        f"{DBJ}={held}",
        "--rules",
        f"{B21}={other}",
        "--rules",
        f"midibaccarat={midi}",
    ]
    _, out, _ = _run(str(log), *given, "--json")
    assert json.loads(out)["submissions"] == want
    _, out, _ = _run(str(log), *given, "--json", "--quiet")
    assert json.loads(out)["submissions"] == want
    _, out, _ = _run(str(log), *given, "--jsonl")
    assert json.loads(out.splitlines()[-1])["submissions"] == want
    _, out, _ = _run(str(log), *given)
    assert out.splitlines()[-3:] == [
        f"{e['game']}: {e['rounds']} rounds held to the Rules Submission "
        f"{e['file']} (rules {e['digest']})"
        for e in want
    ]


def test_d106_workers_give_the_one_process_report(tmp_path: Path) -> None:
    """Two games, two submissions: one report whatever --workers is.

    260 lines: more than one chunk of 256, so that two processes share
    them; and through the library, chunks of 5 lines.
    """
    dbj, b21 = _day(130)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, other = _files(tmp_path, dbj[0], b21[0])
    args = [
        str(log),
        "--rules",
        f"{DBJ}={held}",
        "--rules",
        f"{B21}={other}",
        "--json",
    ]
    alone = _run(*args)
    shared = _run(*args, "--workers", "2")
    assert alone[0] == 1, alone[2]
    assert shared == alone
    report = json.loads(alone[1])
    assert report["summary"]["deviations"] == 130
    assert [e["rounds"] for e in report["submissions"]] == [130, 130]
    submissions = Submissions(
        [
            Submission({"tie_payout": OTHER_TIE}, game=B21, source="b21"),
            Submission({}, game=DBJ, source="dbj"),
        ]
    )
    lines = log.read_text(encoding="utf-8").splitlines()[:40]
    one = verify_lines(lines, submissions=submissions)
    many = verify_lines(
        lines, submissions=submissions, workers=2, chunk_lines=5
    )
    assert report_json(many, submissions) == report_json(one, submissions)
    assert one.conforming == 20


def _stopped_at(
    lines: list[str], submissions: Submissions, workers: int, chunk: int
) -> tuple[list[RoundVerdict], str, int | None]:
    got: list[RoundVerdict] = []
    with pytest.raises(CroupierError) as error:
        got.extend(
            verify_lines(
                lines,
                submissions=submissions,
                workers=workers,
                chunk_lines=chunk,
            ).verdicts
        )
    return got, str(error.value), getattr(error.value, "line", None)


def test_d106_a_a_round_of_a_game_given_no_submission_stops_at_its_line(
    tmp_path: Path,
) -> None:
    """Exit 2 at the first 21 Baccarat round, which names its game and
    how to give it one; the rounds before it are reported, the same
    with any --workers."""
    dbj, b21 = _day(3)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, _ = _files(tmp_path, dbj[0], b21[0])
    message = (
        f"line 2: a round of {B21}, and no Rules Submission is given for "
        f"{B21} (only for {DBJ}): add one (--rules {B21}=FILE), or verify "
        "its rounds apart"
    )
    code, out, err = _run(str(log), "--rules", f"{DBJ}={held}", "--json")
    assert code == 2
    assert err == f"{message}\n"
    report = json.loads(out)
    assert [r["line"] for r in report["rounds"]] == [1]
    assert report["error"] == {"line": 2, "message": message, "kind": "rules"}
    assert report["submissions"][0]["rounds"] == 1
    code, out, _ = _run(str(log), "--rules", f"{DBJ}={held}")
    assert code == 2
    assert (
        "1 round, 1 conforming, 0 with a deviation (stopped at line 2: no "
        "Rules Submission given holds this round's game)"
    ) in out.splitlines()
    submissions = Submissions([Submission({}, game=DBJ)])
    lines = log.read_text(encoding="utf-8").splitlines()
    seen = [
        _stopped_at(lines, submissions, w, c) for w, c in ((1, 256), (2, 1))
    ]
    assert seen[0] == seen[1]
    assert seen[0][1:] == (message, 2)


def test_d106_b_a_game_named_twice_is_refused_before_any_line(
    tmp_path: Path,
) -> None:
    dbj, b21 = _day(1)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, _ = _files(tmp_path, dbj[0], b21[0])
    code, out, err = _run(
        str(log), "--rules", f"{DBJ}={held}", "--rules", f"{DBJ}={held}"
    )
    assert (code, out) == (2, "")
    assert err == (
        f"two Rules Submissions for {DBJ} ({DBJ}={held} "
        f"and {DBJ}={held}): a game's rounds are held to one\n"
    )


def test_d106_c_a_game_that_does_not_exist_is_refused_listing_the_games(
    tmp_path: Path,
) -> None:
    dbj, b21 = _day(1)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, _ = _files(tmp_path, dbj[0], b21[0])
    code, out, err = _run(str(log), "--rules", f"roulette={held}")
    assert (code, out) == (2, "")
    assert "'roulette' is not a game" in err
    names = [spec.name for spec in all_games()]
    assert f"games are: {', '.join(names)})" in err
    with pytest.raises(CroupierError, match="which is not a game; games are"):
        Submissions([Submission({}, game="roulette", source="r.toml")])


def test_d106_d_a_plain_file_is_given_alone(tmp_path: Path) -> None:
    """A file without its game holds the first round's (D100): beside a
    named one, or another plain one, it is refused; a second plain one
    is no longer silently taken in the first one's place."""
    dbj, b21 = _day(1)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, other = _files(tmp_path, dbj[0], b21[0])
    tail = (
        ": a Rules Submission given without its game holds the game of "
        "the file's first round (D100), so it is given alone; with "
        "several, name each one's game (--rules GAME=FILE)\n"
    )
    code, out, err = _run(
        str(log), "--rules", str(held), "--rules", f"{B21}={other}"
    )
    assert (code, out) == (2, "")
    assert err == f"{held}{tail}"
    code, out, err = _run(
        str(log), "--rules", str(held), "--rules", str(other)
    )
    assert (code, out) == (2, "")
    assert err == f"{held}, {other}{tail}"


def test_d106_e_a_game_before_the_equals_sign_only_when_it_is_a_games_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``./GAME=x.toml`` and ``a=b.toml`` are files; ``GAME=x.toml`` is
    that game's ``x.toml``, and says how to name the other file."""
    dbj, b21 = _day(1)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    monkeypatch.chdir(tmp_path)
    odd = tmp_path / f"{DBJ}=x.toml"
    odd.write_text(f"decks = {dbj[0].rules['decks']}\n", encoding="utf-8")
    (tmp_path / "a=b.toml").write_text(odd.read_text("utf-8"), "utf-8")
    for plain in (f"./{DBJ}=x.toml", "a=b.toml"):
        code, out, err = _run(str(log), "--rules", plain, "--json")
        # a plain file: the first round's game, D100, stops at line 2
        assert code == 2, err
        report = json.loads(out)
        assert report["error"]["line"] == 2
        assert report["submissions"][0]["file"] == plain
    code, out, err = _run(str(log), "--rules", f"{DBJ}=x.toml")
    assert (code, out) == (2, "")
    assert err.startswith(f"--rules {DBJ}=x.toml: rules file x.toml: ")
    assert f"for the file {DBJ}=x.toml write ./{DBJ}=x.toml" in err
    code, out, err = _run(str(log), "--rules", f"{B21}=")
    assert (code, out) == (2, "")
    assert "no file after '='" in err


def test_d106_a_submission_that_does_not_fit_its_game_names_file_and_game(
    tmp_path: Path,
) -> None:
    """A Tie payout given for Double Back Jack: refused before any line."""
    dbj, b21 = _day(1)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, other = _files(tmp_path, dbj[0], b21[0])
    code, out, err = _run(
        str(log), "--rules", f"{DBJ}={other}", "--rules", f"{B21}={held}"
    )
    assert (code, out) == (2, "")
    assert err.startswith(
        f"rules file {other}, given for {DBJ}: rules "
        'option "tie_payout": unknown option'
    )
    missing = tmp_path / "none.toml"
    code, out, err = _run(str(log), "--rules", f"{B21}={missing}")
    assert (code, out) == (2, "")
    assert err.startswith(f"--rules {B21}={missing}: rules file {missing}: ")


def test_d106_a_plain_rules_file_still_holds_the_first_rounds_game(
    tmp_path: Path,
) -> None:
    """D100 as it was: the mixed day stops at its first 21 Baccarat round
    (exit 2, kind rules, the same with --workers 2); the report now names
    the file and the game it held."""
    dbj, b21 = _day(130)
    log = _write(tmp_path / "day.jsonl", dbj, b21)
    held, _ = _files(tmp_path, dbj[0], b21[0])
    args = [str(log), "--rules", str(held), "--json"]
    alone = _run(*args)
    assert alone == _run(*args, "--workers", "2")
    code, out, err = alone
    assert code == 2
    report: dict[str, Any] = json.loads(out)
    assert report["error"]["kind"] == "rules"
    assert report["error"]["line"] == 2
    assert err == (
        f"line 2: a round of {B21}, and the Rules "
        f"Submission is {DBJ}'s (the game of line 1): a Rules Submission "
        "holds one game's rounds; give each game its own (--rules "
        "GAME=FILE)\n"
    )
    assert report["submissions"] == [
        {
            "game": DBJ,
            "file": str(held),
            "digest": _recorded_digest(DBJ, {"decks": dbj[0].rules["decks"]}),
            "rounds": 1,
        }
    ]
    # a one-game log: held as before, the same verdicts as the values
    # given alone
    lines = [h.dumps() for h in b21[:6]]
    values = {"tie_payout": OTHER_TIE}
    old = verify_lines(lines, submission=values)
    new = verify_lines(lines, submissions=Submissions([Submission(values)]))
    assert old == new
    assert old.conforming == 0


def test_d106_a_log_of_no_round_names_no_game_for_a_plain_file(
    tmp_path: Path,
) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_text("\n", encoding="utf-8")
    rules = tmp_path / "casino.toml"
    rules.write_text("decks = 6\n", encoding="utf-8")
    code, out, _ = _run(str(log), "--rules", str(rules), "--json")
    assert code == 2  # no round, no verdict (D129)
    assert json.loads(out)["submissions"] == [
        {"game": None, "file": str(rules), "digest": None, "rounds": 0}
    ]
    code, _, _ = _run(str(log), "--rules", str(rules), "--allow-empty")
    assert code == 0
    _, out, _ = _run(str(log), "--rules", str(rules))
    assert out.splitlines()[-1] == (
        f"no round held to the Rules Submission {rules} (it holds the game "
        "of the file's first round)"
    )


def test_d106_rounds_by_game_count_only_games_that_exist() -> None:
    """A log's made-up game ids (one a line) do not grow the counts."""
    tally = Tally()
    for n in range(3):
        tally.add(RoundVerdict(n + 1, f"r{n}", f"no-such-game-{n}", None))
    tally.add(RoundVerdict(4, "r4", DBJ, None))
    assert dict(tally.games) == {DBJ: 1}
    assert tally.rounds == 4


def test_d100_a_first_round_of_no_game_does_not_take_a_plain_file(
    tmp_path: Path,
) -> None:
    """A plain ``--rules`` holds the first round of a game that exists.

    A log whose first line names a game croupier does not know (a
    vendor's typo) made the submission that game's: the run stopped at
    the next round, "the Rules Submission is chess's". That first round
    reports its unknown game (810a.11) and the file holds the rounds of
    the first real game; the same with ``--workers 2``.
    """
    dbj, _ = _day(4)
    unknown = json.loads(dbj[0].dumps())
    unknown["game"]["id"] = "chess"
    log = tmp_path / "day.jsonl"
    log.write_text(
        "\n".join([json.dumps(unknown), *(h.dumps() for h in dbj[1:])]) + "\n",
        encoding="utf-8",
    )
    held = tmp_path / "dbj.toml"
    held.write_text(f"decks = {dbj[1].rules['decks']}\n", encoding="utf-8")
    args = [str(log), "--rules", str(held), "--json"]
    alone = _run(*args)
    assert alone == _run(*args, "--workers", "2")
    code, out, err = alone
    assert (code, err) == (1, "")
    report: dict[str, Any] = json.loads(out)
    assert report["summary"]["rounds"] == 4
    assert report["summary"]["conforming"] == 3
    assert report["summary"]["by_ref"] == {"810a.11": 1}
    assert report["submissions"] == [
        {
            "game": DBJ,
            "file": str(held),
            "digest": _recorded_digest(DBJ, {"decks": dbj[1].rules["decks"]}),
            "rounds": 3,
        }
    ]
