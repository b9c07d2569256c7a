"""Issue 15 point 5: the command line never shows a traceback.

Every command, every wrong argument: one line on stderr naming the
problem, exit status 2. The commands are enumerated from the typer app
itself, so commands added later are covered by the generic cases; the
specific cases follow the issue's list.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from tests.refusals import refusal
from typer.testing import CliRunner, Result

from croupier.cli import app
from croupier.hhf import write_history
from croupier.hhf.sample import sample_histories

runner = CliRunner()
MISSING = "/nonexistent-croupier-h8/sub/file.toml"


def _walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    subs = getattr(command, "commands", None)
    if subs is None:
        yield path, command
        return
    for name, sub in sorted(subs.items()):
        yield from _walk(sub, [*path, name])


COMMANDS = list(_walk(typer.main.get_command(app), []))
IDS = [" ".join(path) for path, _ in COMMANDS]


def _annotation(param: Any) -> Any:
    hint = param.type_descriptor.annotation
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is (
        typing.Union
    ):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 else hint
    return hint


def _run(
    args: list[str], stdin: str | None = None, *, parse_only: bool = False
) -> Result:
    """Run the command line; with ``parse_only`` never run a command.

    ``parse_only`` swaps every command's body for a marker: a wrong
    argument must be refused while the arguments are parsed, so the
    body (a server, a long simulation) is never reached.
    """
    if not parse_only:
        result = runner.invoke(app, args, input=stdin, prog_name="croupier")
    else:
        group = typer.main.get_command(app)
        started: list[str] = []
        for path, command in _walk(group, []):
            command.callback = _marker(" ".join(path), started)
        # typer.testing builds the command from the app; hand it ours.
        real = getattr(typer.testing, "_get_command")  # noqa: B009
        setattr(typer.testing, "_get_command", lambda _: group)  # noqa: B010
        try:
            result = runner.invoke(
                app, args, input=stdin, prog_name="croupier"
            )
        finally:
            setattr(typer.testing, "_get_command", real)  # noqa: B010
        assert not started, f"{started} ran despite a wrong argument"
    assert "Traceback" not in result.output, result.output
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _marker(name: str, started: list[str]) -> Any:
    def body(**_: object) -> None:
        started.append(name)

    return body


def _refused(args: list[str], *needles: str, parse_only: bool = False) -> str:
    """Run; assert exit 2 and one line on stderr naming the problem."""
    return refusal(_run(args, parse_only=parse_only), args, *needles)


def test_the_app_has_the_commands_of_the_issue() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    expected = {"games", "rules", "scenario", "play", "regs coverage"}
    assert expected <= names


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_command_refuses_an_unknown_option(
    path: list[str], command: Any
) -> None:
    _refused([*path, "--no-such-option"], "--no-such-option", parse_only=True)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_help_reads_as_text(path: list[str], command: Any) -> None:
    """A command's help is its docstring, shown as it is written: the
    markup of the code's documentation (``x``, :func:`y`) read as
    noise (serve, regs coverage, history steps showed it)."""
    shown = _run([*path, "--help"]).stdout
    for markup in ("``", ":func:", ":class:", ":mod:", ":meth:", ":data:"):
        assert markup not in shown, (path, markup)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_command_refuses_missing_arguments(
    path: list[str], command: Any
) -> None:
    required = [p for p in command.params if p.required]
    if not required:
        # Nothing is required: the generic bad-value cases cover it.
        assert all(not p.required for p in command.params)
        return
    _refused(path, "Missing", parse_only=True)


def _bad_values(command: Any) -> Iterator[tuple[str, str]]:
    for param in command.params:
        if not param.opts or not param.opts[0].startswith("--"):
            continue
        if getattr(param, "is_flag", False):
            continue
        hint = _annotation(param)
        option = param.opts[0]
        if hint is int:
            yield option, "abc"
            if param.min is not None:
                yield option, str(param.min - 1)
        elif hint is float:
            yield option, "abc"
        elif hint is Path:
            yield option, MISSING


SCENARIO = next(
    (Path(__file__).parent / "scenarios" / "midibaccarat").glob("*.json")
)
VALID = {"game": "midibaccarat", "file": str(SCENARIO), "round_id": "1"}
"""Valid values of the usual positional arguments."""


def _positionals(command: Any) -> list[str]:
    return [
        VALID.get(p.name, "x")
        for p in command.params
        if p.required and not p.opts[0].startswith("--")
    ]


BAD = [
    (path, option, value, _positionals(command))
    for path, command in COMMANDS
    for option, value in _bad_values(command)
]


@pytest.mark.parametrize(
    ("path", "option", "value", "positionals"),
    BAD,
    ids=[f"{' '.join(p)} {o} {v}" for p, o, v, _ in BAD],
)
def test_every_option_refuses_a_bad_value(
    path: list[str], option: str, value: str, positionals: list[str]
) -> None:
    line = _refused([*path, *positionals, option, value], parse_only=True)
    assert option in line or value in line, line


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_every_game_taking_command_refuses_an_unknown_game(
    path: list[str], command: Any
) -> None:
    game = [p for p in command.params if p.name == "game"]
    if not game:
        assert all(p.name != "game" for p in command.params)
        return
    if game[0].opts[0].startswith("--"):
        args = [*path, game[0].opts[0], "no-such-game"]
    else:
        # The arguments up to the game, then the other required ones.
        arguments = [p for p in command.params if p.opts[0][:2] != "--"]
        place = arguments.index(game[0])
        positionals = [
            "no-such-game" if p.name == "game" else VALID.get(p.name, "x")
            for i, p in enumerate(arguments)
            if i <= place or p.required
        ]
        args = [*path, *positionals]
    required_options = [
        p for p in command.params if p.required and p.opts[0][:2] == "--"
    ]
    if required_options:
        # Other required options left out: the command is refused one
        # way or the other, on one line, never as a ScenarioError.
        line = _refused(args)
    else:
        line = _refused(args, 'unknown game "no-such-game"')
    assert "ScenarioError" not in line


NO_JSON = {
    "scenario": "its output is the scenario contract's JSON already",
    "play": "an interactive terminal table",
    "serve": "runs the table server",
    "history export": "writes hand histories, JSON lines already",
    "token rotate": "writes a secret, never to a pipe",
}
"""Commands without ``--json``, and why."""


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_issue_15_5_every_command_has_json(
    path: list[str], command: Any
) -> None:
    options = {o for p in command.params for o in p.opts}
    if " ".join(path) in NO_JSON:
        assert NO_JSON[" ".join(path)]  # exempt, with its reason
        return
    assert "--json" in options, " ".join(path)


@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["rules", "double-back-jack"],
        ["rules", "six-card-fortune-pai-gow"],
        ["analyze", "midibaccarat-commission-free"],
        ["regs", "coverage", "--tests", str(Path(__file__).parent)],
        ["strategy"],
        ["demo", "--game", "21-baccarat"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_issue_15_5_readable_at_80_columns_when_piped(args: list[str]) -> None:
    result = _run(args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines
    assert all(len(line) <= 80 for line in lines)
    assert not [line for line in lines if "…" in line]


# -- the issue's specific cases ------------------------------------------


def test_issue_15_5_missing_rules_file() -> None:
    _refused(["rules", "midibaccarat", "--rules", MISSING], "--rules")
    _refused(["analyze", "midibaccarat", "--rules", MISSING], "--rules")


def test_issue_15_5_broken_toml_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "casino.toml"
    bad.write_text("decks = = 4\n", encoding="utf-8")
    line = _refused(["rules", "midibaccarat", "--rules", str(bad)])
    assert f"rules file {bad}: not valid TOML" in line
    assert "rules option" not in line


def test_issue_15_5_missing_scenario_file() -> None:
    _refused(["scenario", MISSING], "No such file", MISSING)


def test_issue_15_5_missing_output_folder_checked_before_the_run() -> None:
    # 10^9 rounds would take minutes: refused at once instead.
    line = _refused(
        [
            "simulate",
            "midibaccarat",
            "--rounds",
            "1000000000",
            "--plot",
            "/nonexistent-croupier-h8/edge.png",
        ],
        "--plot",
    )
    assert "does not exist" in line
    _refused(["strategy", "--png", "/nonexistent-croupier-h8/c.png"], "--png")


@pytest.mark.parametrize(
    "args",
    [
        ["--rounds", "0"],
        ["--rounds", "-5"],
        ["--chunk", "0"],
        ["--workers", "-1"],
    ],
)
def test_issue_15_5_simulate_ranges(args: list[str]) -> None:
    _refused(["simulate", "midibaccarat", *args], args[0])


def test_issue_15_5_replay_on_a_missing_database_creates_none(
    tmp_path: Path,
) -> None:
    db = tmp_path / "none.db"
    _refused(["replay", "1", "--db", f"sqlite:///{db}"], "no database")
    assert not db.exists()


def test_issue_15_5_regs_coverage_on_a_missing_tests_folder() -> None:
    line = _refused(
        ["regs", "coverage", "--tests", "/nonexistent-croupier-h8"]
    )
    assert "0 of" not in line


def test_issue_15_5_bad_settings_and_seats() -> None:
    _refused(["analyze", "midibaccarat", "--set", "decks=x"], "decks")
    _refused(["play", "midibaccarat", "--seats", "a,b"], "--seats")
    _refused(["play", "midibaccarat", "--seats", "99"], "seats 1 to 9")


def test_play_checks_seats_against_the_rules_in_force() -> None:
    """``--seats`` was checked against the game's default seat count: a
    seat the rules have was refused, and one they lack was asked for a
    wager again and again (every wager refused)."""
    _refused(
        ["play", "21-baccarat", "--set", "seats=3", "--seats", "7"],
        "21 Baccarat has seats 1 to 3 under these rules (seats=3), not 7",
    )
    _refused(
        ["play", "double-back-jack", "--set", "boxes=2", "--seats", "5"],
        "Double Back Jack has boxes 1 to 2 under these rules (boxes=2)",
    )
    played = _run(
        [
            "play",
            "21-baccarat",
            "--set",
            "seats=14",
            "--seats",
            "10",
            "--seed",
            "3",
        ],
        stdin="player 10\n\n",
    )
    assert played.exit_code == 0, played.output
    assert "seat 10 wager" in played.stdout
    assert "Settlements" in played.stdout
    assert "$10.00" in played.stdout


def test_play_refuses_a_seat_named_twice() -> None:
    _refused(
        ["play", "21-baccarat", "--seats", "1,1"],
        "--seats names seat 1 more than once",
    )
    _refused(["play", "midibaccarat", "--seats", "2, 3,2"], "seat 2")


def test_issue_15_5_games_json_and_no_truncated_names() -> None:
    result = _run(["games", "--json"])
    assert result.exit_code == 0
    names = {row["name"] for row in json.loads(result.stdout)}
    assert "midibaccarat-commission-free" in names
    table = _run(["games"])
    assert "…" not in table.stdout
    assert all(len(line) <= 80 for line in table.stdout.splitlines())
    for name in names:
        assert name in table.stdout
    # every wager's id and every title whole on a line of its own cell
    # (at 80 columns they were folded: "bonus_pla" / "yer")
    cells = {
        cell.strip()
        for line in table.stdout.splitlines()
        for cell in line.split("│")
    }
    for row in json.loads(result.stdout):
        assert row["title"] in cells
        assert set(row["wagers"]) <= cells, row["wagers"]


def test_rules_prints_one_form() -> None:
    """``--toml --json`` printed the JSON and dropped the TOML unsaid."""
    _refused(
        ["rules", "midibaccarat", "--toml", "--json"],
        "--json and --toml: give one",
    )
    _refused(
        ["rules", "midibaccarat", "--markdown", "--toml"],
        "--toml and --markdown: give one",
    )


def test_ev_refuses_a_decks_setting_beside_its_shoe() -> None:
    """``--shoe 6 --set decks=2`` valued six decks, the setting unread;
    a setting that agrees with the shoe is taken."""
    _refused(
        [
            "ev",
            "double-back-jack",
            "--shoe",
            "6",
            "--hand",
            "10-6",
            "--up",
            "10",
            "--set",
            "decks=2",
        ],
        "--set decks=2 says otherwise",
    )
    base = ["ev", "double-back-jack", "--hand", "10-6", "--up", "10"]
    # counts one deck cannot hold (five 2s) contradict decks=1
    counts = "0,5,4,2,0,1,2,0,0,7"
    _refused([*base, "--shoe", counts, "--set", "decks=1"], "says otherwise")
    agreed = _run([*base, "--shoe", "2", "--set", "decks=2", "--json"])
    assert agreed.exit_code == 0, agreed.stderr
    held = _run([*base, "--shoe", counts, "--set", "decks=2", "--json"])
    assert held.exit_code == 0, held.stderr


def test_rng_test_on_an_empty_file_names_the_minimum_alone(
    tmp_path: Path,
) -> None:
    """An empty file was told which test 0 shuffles fall short of
    ("the interplay correlation pairs each shoe with the next")."""
    empty = tmp_path / "none.txt"
    empty.write_text("", encoding="utf-8")
    line = _refused(["rng-test", "--source", str(empty)], "holds 0 shuffles")
    assert line.endswith("the battery needs at least 38 shuffles of it")


def test_issue_15_5_play_speaks_dollars_and_keeps_a_balance() -> None:
    result = _run(
        [
            "play",
            "21-baccarat",
            "--seed",
            "4",
            "--balance",
            "100",
            "--minimum",
            "5",
            "--maximum",
            "50",
        ],
        stdin="player ten\nplayer 500\nplayer 2\nplayer 10\n\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "table limits $5.00 to $50.00; balance $100.00" in out
    assert "'ten' is not an amount in dollars" in out
    assert "invalid literal" not in out
    assert "wagers are $5.00 to $50.00 at this table" in out
    assert "$10.00" in out  # the stake, in dollars
    # 21 Baccarat pays 19:20 (681a.7(i)(1)): $9.50 on $10, or -$10.00.
    assert "balance $109.50" in out or "balance $90.00" in out


def test_issue_15_5_play_blank_amount_is_the_most_allowed() -> None:
    # Find a seeded Double Back Jack round that offers a double, then
    # double with a blank amount: the full stake goes on (673a.10(a)).
    from croupier.cli.play import _most_allowed
    from croupier.registry import find_game
    from croupier.rng import SeededRng
    from croupier.table import Table

    spec = find_game("double-back-jack")
    for seed in range(60):
        table = Table(spec, rng=SeededRng(seed))
        rnd = table.new_round(occupied_seats=(1,))
        rnd.place_wager(1, "blackjack", 1000)
        rnd.deal()
        pending = rnd.pending()
        if pending is not None and "insurance" in pending.legal:
            # Insurance is up to half the wager: blank means all of it.
            assert _most_allowed(rnd, 1, "insurance") == 500
        if pending is not None and "double" in pending.legal:
            break
    else:  # pragma: no cover - a double comes within 60 shoes
        pytest.fail("no double offered")
    stdin = "blackjack 10\n\ndouble\n\n" + "stand\n" * 5
    result = _run(
        ["play", "double-back-jack", "--seed", str(seed)], stdin=stdin
    )
    assert result.exit_code == 0, result.output
    assert "$20.00" in result.stdout or "-$20.00" in result.stdout


@pytest.mark.parametrize(
    ("args", "target"),
    [
        (["verify", "-"], "croupier.cli.verify.iter_verdicts"),
        (
            ["rng-test", "--shuffles", "50"],
            "croupier.rngtest.battery.run_battery",
        ),
    ],
    ids=["verify", "rng-test"],
)
def test_issue_17_a_crash_is_never_read_as_a_verdict(
    args: list[str], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 1 is a verdict of verify and rng-test; a bug exits 70."""

    def crash(*_: object, **__: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(target, crash)
    monkeypatch.delenv("CROUPIER_DEBUG", raising=False)
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code == 70, result.output
    assert "internal error (RuntimeError: boom)" in result.stderr
    assert "Traceback" not in result.output
    monkeypatch.setenv("CROUPIER_DEBUG", "1")
    shown = CliRunner().invoke(app, args, input="")
    assert isinstance(shown.exception, RuntimeError)


def test_issue_15_5_files_that_are_not_text_are_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bytes that are not UTF-8: one line and exit 2, never a crash."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "d\xe9"}\n')
    result = CliRunner().invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path} is not UTF-8 text" in result.stderr

    def undecodable(*_: object, **__: object) -> object:
        return b"\xe9".decode("utf-8")

    # any command that meets such bytes deeper down says the same
    monkeypatch.setattr("croupier.cli.verify.iter_verdicts", undecodable)
    result = CliRunner().invoke(app, ["verify", "-"], input="")
    assert result.exit_code == 2, result.output
    assert "input that is not UTF-8 text" in result.stderr


def test_issue_17_a_reader_that_goes_is_not_a_verdict(tmp_path: Path) -> None:
    """``croupier verify ... | head``: 141 as SIGPIPE, never 1 (a verdict)."""
    path = tmp_path / "day.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        write_history(sample_histories("midibaccarat", 2000, seed=1), handle)
    command = Path(sys.executable).with_name("croupier")
    proc = subprocess.Popen(  # noqa: S603 - the project's own command
        [str(command), "verify", str(path), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    # the report is far larger than a pipe holds: the writer meets the
    # closed pipe while it still has most of it to write
    assert len(proc.stdout.read(100)) == 100
    proc.stdout.close()
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""  # silently


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("rules", "hit soft 17", "the rules are a table of options"),
        ("rules", ["decks", 6], 'not an array ["decks", 6]'),
        ("wagers", "blackjack 500", '"wagers" is a list of objects'),
        (
            "wagers",
            [{"seat": 1, "wager": "blackjack", "amount": 500}, 7],
            '"wagers" item 2 is 7',
        ),
        ("decisions", [True], '"decisions" item 1 is true'),
    ],
)
def test_scenario_of_the_wrong_shape_is_bad_input(
    tmp_path: Path, field: str, value: object, needle: str
) -> None:
    """Found by mutating scenario files at random: each was exit 70."""
    base = json.loads(
        (
            Path(__file__).parent
            / "scenarios"
            / "21-baccarat"
            / "audit-681a-7-f-2-bonus-only-card-never-counts.json"
        ).read_text(encoding="utf-8")
    )
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({**base, field: value}), encoding="utf-8")
    result = CliRunner().invoke(app, ["scenario", str(path)])
    assert result.exit_code == 2, result.output
    (line,) = [line for line in result.stderr.splitlines() if line.strip()]
    assert "internal error" not in line
    assert needle in line, line


def _reader_gone(*args: str) -> tuple[int, bytes]:
    """``croupier ARGS`` with stdout a pipe its reader closes at once.

    The reader is gone before the command writes its first byte (it
    takes far longer to start than the pipe takes to close): the first
    write meets the closed pipe, whatever the output's size.
    """
    command = Path(sys.executable).with_name("croupier")
    proc = subprocess.Popen(  # noqa: S603 - the project's own command
        [str(command), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()
    code = proc.wait(timeout=120)
    return code, proc.stderr.read()


def test_rng_test_table_to_a_reader_that_goes_exits_141() -> None:
    """rich's own exit on a closed pipe was 1: the battery's FAIL."""
    code, err = _reader_gone("rng-test", "--shuffles", "50", "--seed", "1")
    assert (code, err) == (141, b"")


def test_history_steps_table_to_a_reader_that_goes_exits_141() -> None:
    code, err = _reader_gone(
        "history", "steps", "midibaccarat", "--rounds", "2"
    )
    assert (code, err) == (141, b"")


OUTPUTS: dict[tuple[str, str], tuple[list[str], bool]] = {
    # (command, option): the arguments before the option, and whether
    # the file is written packed by its suffix (.gz, .bz2, .xz)
    ("history export", "--out"): (["history", "export"], True),
    ("scenario", "--history"): (["scenario", "s.json"], True),
    ("simulate", "--plot"): (["simulate", "midibaccarat"], False),
    ("strategy", "--png"): (["strategy"], False),
    ("report", "--out"): (["report", "midibaccarat"], False),
    ("protect", "--plot"): (["protect", "midibaccarat"], False),
    ("protect", "--out"): (["protect", "midibaccarat"], False),
    ("token rotate", "--out"): (["token", "rotate"], False),
    ("serve", "--token-file"): (["serve"], False),
}
"""Every option that names a file croupier writes."""


def test_every_file_written_is_checked_while_the_arguments_are_parsed() -> (
    None
):
    """The options whose file name is checked (folder, ``-``, packing)
    are every option that names a file to write; ``history export
    --out`` was checked only when the file was opened, after the
    database was read."""
    from croupier.cli import common, history

    checks = {
        common._check_output,
        common._check_packed_output,
        common._check_picture,
        history._check_out,
    }
    checked = {
        (" ".join(path), param.opts[0])
        for path, command in COMMANDS
        for param in command.params
        # typer wraps a callback, keeping it as __wrapped__
        if getattr(param.callback, "__wrapped__", None) in checks
    }
    assert checked == set(OUTPUTS)


@pytest.mark.parametrize(
    ("where", "suffix"),
    [
        (where, suffix)
        for where, (_, packs) in OUTPUTS.items()
        for suffix in (
            [".zst", ".lz4", ".zip", ".7z", ".bz", ".Z", ".br"]
            if packs
            else [".gz", ".xz", ".zst", ".zip"]
        )
    ],
    ids=str,
)
def test_an_output_named_for_a_packing_it_will_not_have_is_refused(
    where: tuple[str, str], suffix: str, tmp_path: Path
) -> None:
    """``--history day.jsonl.zst`` or ``--out report.html.gz`` was
    written as plain text under that name; refused while the arguments
    are parsed (the command never runs, no file is made), naming the
    compressions croupier writes."""
    before, packs = OUTPUTS[where]
    name = tmp_path / f"out{suffix}"
    line = _refused([*before, where[1], str(name)], where[1], parse_only=True)
    assert suffix in line
    for written in (".gz", ".bz2", ".xz"):
        assert written in line
    if packs:
        assert "croupier does not write" in line
    else:
        assert "written uncompressed" in line
    assert list(tmp_path.iterdir()) == []


PICTURES = [
    ("simulate", "--plot"),
    ("strategy", "--png"),
    ("protect", "--plot"),
]
"""The options that draw a picture with matplotlib."""


def test_every_picture_option_checks_its_format() -> None:
    from croupier.cli import common

    drawn = {
        (" ".join(path), param.opts[0])
        for path, command in COMMANDS
        for param in command.params
        if getattr(param.callback, "__wrapped__", None)
        is common._check_picture
    }
    assert drawn == set(PICTURES)


@pytest.mark.parametrize("where", PICTURES, ids=str)
@pytest.mark.parametrize("name", ["e.txt", "chart.v2", "plot.html", "run"])
def test_a_picture_matplotlib_cannot_draw_is_refused_before_the_run(
    where: tuple[str, str], name: str, tmp_path: Path
) -> None:
    """``--plot e.txt`` ran the whole simulation, then matplotlib
    refused the suffix and the command ended as a bug (exit 70). Now
    refused while the arguments are parsed, naming formats it draws. So
    is a name without a suffix, which matplotlib wrote as ``run.png``."""
    pytest.importorskip("matplotlib")
    before, _ = OUTPUTS[where]
    line = _refused(
        [*before, where[1], str(tmp_path / name)], where[1], parse_only=True
    )
    suffix = Path(name).suffix
    if suffix:
        assert f"does not draw {suffix} pictures" in line
    else:
        assert "by its name's suffix" in line
    for drawn in (".png", ".svg", ".pdf"):
        assert drawn in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["run.png", "run.SVG", "run.pdf"])
def test_a_picture_in_a_format_matplotlib_draws_is_written(
    name: str, tmp_path: Path
) -> None:
    """The formats matplotlib draws pass, the suffix in any case, and
    the picture is written under the name given."""
    pytest.importorskip("matplotlib")
    out = tmp_path / name
    args = ["simulate", "midibaccarat", "--rounds", "2000", "--plot", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    head = out.read_bytes()[:8]
    suffix = out.suffix.lower()
    if suffix == ".png":
        assert head.startswith(b"\x89PNG")
    elif suffix == ".pdf":
        assert head.startswith(b"%PDF")
    else:
        assert b"<svg" in out.read_bytes()[:2000]


def test_history_export_to_a_packing_it_does_not_write_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sqlalchemy")
    from croupier.server import db

    path = tmp_path / "croupier.db"
    db.migrate(db.make_engine(f"sqlite:///{path}"))
    monkeypatch.chdir(tmp_path)
    for name in ("day.jsonl.zst", "day.jsonl.zip", "day.jsonl.7z"):
        result = runner.invoke(
            app,
            ["history", "export", "--db", f"sqlite:///{path}", "--out", name],
        )
        assert result.exit_code == 2, result.output
        assert f"{name}: croupier does not write" in result.stderr
        assert "0 rounds written" not in result.stderr
    # the database (and SQLite's journal files beside it) alone
    left = [p.name for p in tmp_path.iterdir()]
    assert [name for name in left if not name.startswith("croupier.db")] == []


@pytest.mark.parametrize("args", [[], ["history"], ["token"], ["regs"]])
def test_a_group_without_a_command_shows_its_help_once(
    args: list[str],
) -> None:
    """``croupier`` alone, the first thing a new user types, printed its
    help twice: typer's rich help is printed while the error is made,
    and the root group printed it again."""
    result = _run(args)
    assert result.exit_code == 2
    shown = result.output + result.stderr
    if args == ["regs"]:  # no help by default: one line names the miss
        assert "croupier regs: Missing command" in result.stderr
        return
    assert shown.count("Usage:") == 1, shown


def test_sub_command_errors_name_the_whole_command(tmp_path: Path) -> None:
    """An error line of ``history export`` or ``token rotate`` named
    only ``croupier history`` (the sub-groups did not record the
    command run), and ``token rotate`` wrote ``error: ...``."""
    pytest.importorskip("sqlalchemy")
    missing = f"sqlite:///{tmp_path / 'none.db'}"
    _refused(
        ["history", "export", "--db", missing, "--out", str(tmp_path / "o")],
        "croupier history export: no database at",
    )
    line = _refused(["token", "rotate", "--db", missing])
    assert line.startswith("croupier token rotate: standard output is not")


def test_token_rotate_on_a_missing_or_foreign_database(tmp_path: Path) -> None:
    """``token rotate`` on a SQLite path that names no file made an
    empty database there and ended as a bug (exit 70, the empty file's
    tables missing); on a database that is not a croupier server's,
    likewise. Both refused now, exit 2, and no file is made."""
    pytest.importorskip("sqlalchemy")
    import sqlite3

    out = tmp_path / "token"
    missing = tmp_path / "none.db"
    _refused(
        ["token", "rotate", "--db", f"sqlite:///{missing}", "--out", str(out)],
        "croupier token rotate: no database at",
    )
    assert not missing.exists()
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (text)")
    _refused(
        ["token", "rotate", "--db", f"sqlite:///{foreign}", "--out", str(out)],
        "croupier token rotate: cannot rotate the operator token",
        "is it a croupier server's database?",
    )
    assert not out.exists()


def test_simulate_checkpoints_without_a_plot_is_refused() -> None:
    """``--checkpoints`` sets the points of ``--plot``'s curve; without a
    plot it was read by nothing, unsaid."""
    _refused(
        ["simulate", "midibaccarat", "--rounds", "1000", "--checkpoints", "5"],
        "--checkpoints is for --plot",
    )


_EV_10_6 = ["ev", "double-back-jack", "--hand", "10-6", "--up", "10"]


@pytest.mark.parametrize(
    ("shoe", "words"),
    [
        # the hand and the up card take every card: no hole card
        ("0,0,0,0,0,1,0,0,0,2", "no card is left for the dealer's hole"),
        # an ace alone left under a 10: always a dealer Blackjack
        ("1,0,0,0,0,1,0,0,0,2", "every card left is A, which gives the"),
        # a 2 alone left: the dealer's 12 has nothing to draw
        ("0,1,0,0,0,1,0,0,0,2", "can run out before the dealer stands"),
    ],
)
def test_ev_refuses_a_shoe_too_short_for_the_dealer(
    shoe: str, words: str
) -> None:
    """A shoe left empty (or all aces under a 10) printed ``+nan`` EVs,
    a numpy warning and, with --json, ``NaN`` (not JSON), exit 0; one
    that runs dry before the dealer stands printed EVs of 0."""
    for extra in ([], ["--json"]):
        line = _refused([*_EV_10_6, "--shoe", shoe, *extra], words)
        assert '"shoe"' in line
        assert "nan" not in line.lower()


def test_ev_refuses_a_shoe_the_hands_draws_can_run_out() -> None:
    """``--shoe 0,1,1,0,0,0,0,0,0,2 --hand 2,3 --up 10`` printed "hit
    (best) +0.000000000": one 10 is left, a hit takes it and the dealer
    has no hole card, so that path's outcomes were lost (D130). Refused
    under every strategy, naming the hand, the up card and the play."""
    ev = ["ev", "double-back-jack", "--shoe", "0,1,1,0,0,0,0,0,0,2",
          "--hand", "2,3", "--up", "10"]  # fmt: skip
    for extra in ([], ["--json"], ["--strategy", "cdp"]):
        line = _refused(
            [*ev, *extra],
            "the cards left can run out while the hand 2-3 plays against 10",
            "hit 10",
        )
        assert '"shoe"' in line


def test_ev_names_a_missing_ace_as_a_player_does() -> None:
    """``--hand A-A-A-A-A --up A`` from one deck said "no card 1"."""
    line = _refused(
        ["ev", "double-back-jack", "--shoe", "1", "--hand", "A-A-A-A-A",
         "--up", "A"],
        "no card A left for the hand and the up card",
    )  # fmt: skip
    assert "card 1 " not in line


def _ev(args: list[str]) -> dict[str, Any]:
    result = _run([*args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.slow
def test_the_games_rules_submission_is_read_by_ev_and_analyze(
    tmp_path: Path,
) -> None:
    """``croupier rules double-back-jack --toml`` (the README's starting
    file) was refused by ev and analyze --strategy ("penetration":
    unknown option; ``surrender = true`` not one of none, late, early).
    It is read now: at the defaults it gives the values of no file, and
    the options the analysis does not model are named."""
    written = _run(["rules", "double-back-jack", "--toml"])
    assert written.exit_code == 0, written.stderr
    submission = tmp_path / "dbj.toml"
    submission.write_text(written.stdout, encoding="utf-8")
    ev = [*_EV_10_6, "--shoe", "6"]
    plain = _ev(ev)
    read = _ev([*ev, "--rules", str(submission)])
    assert read["actions"] == plain["actions"]
    assert read["rules"] == plain["rules"]
    assert "penetration" in read["not_in_the_analysis"]
    assert "rounding" in read["not_in_the_analysis"]
    text = _run([*ev, "--rules", str(submission)])
    assert text.exit_code == 0, text.stderr
    assert "not in the analysis" in text.stdout
    strategy = ["analyze", "double-back-jack", "--strategy", "cdz-"]
    edge = _ev([*strategy, "--rules", str(submission)])
    assert edge["house_edge"] == _ev(strategy)["house_edge"]
    assert "collection_procedure" in edge["not_in_the_analysis"]
    # the game's spelling of surrender: false is no surrender
    none = tmp_path / "none.toml"
    none.write_text(
        written.stdout.replace("surrender = true", "surrender = false"),
        encoding="utf-8",
    )
    assert "surrender" not in _ev([*ev, "--rules", str(none)])["actions"]


def test_a_rules_files_decks_is_held_to_the_shoe(tmp_path: Path) -> None:
    """``decks = 2`` in a --rules file beside ``--shoe 6`` was ignored
    (the footer said "Double Back Jack defaults") while ``--set
    decks=2`` was refused: both are refused now."""
    two = tmp_path / "two.toml"
    two.write_text("[rules]\ndecks = 2\n", encoding="utf-8")
    _refused(
        [*_EV_10_6, "--shoe", "6", "--rules", str(two)],
        '"decks"',
        f"--rules {two}: decks=2 says otherwise",
    )
    agreed = _run([*_EV_10_6, "--shoe", "2", "--rules", str(two)])
    assert agreed.exit_code == 0, agreed.stderr


def test_ev_reads_the_games_table_options_and_validates_them() -> None:
    """A game option the analysis leaves out is still checked (range),
    and a game option beside the analyzer's own name for it is refused
    rather than one silently winning."""
    _refused(
        [*_EV_10_6, "--shoe", "6", "--set", "penetration=2"],
        '"penetration"',
        "above the maximum",
    )
    _refused(
        [*_EV_10_6, "--shoe", "6", "--set", "split_aces_may_draw=false",
         "--set", "split_aces_one_card=false"],
        "say the same: give one",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("stray.toml", 'decks = 1\nnokey = 5\n[rules]\ntie_payout = "9:1"\n'),
        ("stray.json", '{"rules": {"tie_payout": "9:1"}, "x": 1}'),
    ],
)
def test_keys_beside_the_rules_table_are_refused(
    tmp_path: Path, name: str, text: str
) -> None:
    """``decks = 1`` beside ``[rules]`` was read by nothing: croupier
    rules printed decks 8, exit 0."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    words = "decks, nokey" if name.endswith(".toml") else ": x;"
    _refused(
        ["rules", "midibaccarat", "--rules", str(path)],
        "keys beside the [rules] table",
        words,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "six-card-fortune-pai-gow", "--set",
         "fortune_bonus_paytable={}"],
        ["rules", "six-card-fortune-pai-gow", "--set", "envy_paytable={}"],
        ["rules", "midibaccarat", "--set", "perfect_pairs={}"],
    ],
)  # fmt: skip
def test_an_empty_paytable_is_refused(args: list[str]) -> None:
    """An empty paytable was taken: a 100 % house edge, exit 0."""
    option = args[-1].split("=")[0]
    _refused(args, f'"{option}"', "an empty paytable pays nothing")


def test_analyze_refuses_rule_effects_beside_a_strategy() -> None:
    """``--rule-effects --strategy cdz-`` printed the strategy's edge
    alone, --rule-effects dropped unsaid."""
    _refused(
        ["analyze", "double-back-jack", "--rule-effects", "--strategy",
         "cdz-"],
        "--strategy and --rule-effects are separate analyses: give one",
    )  # fmt: skip


def test_ev_names_the_games_options_and_its_own_when_one_is_unknown() -> None:
    """``ev`` reads the game's Rules Submission and the analysis' own
    options (``hole_card``): an unknown one is refused naming both kinds
    (it named the analysis' alone, though ``penetration`` is taken)."""
    line = _refused(
        ["ev", "double-back-jack", "--shoe", "6", "--hand", "10-6",
         "--up", "10", "--set", "nokey=1"],
        'rules option "nokey": unknown option',
    )  # fmt: skip
    for name in ("penetration", "boxes", "hole_card", "surrender"):
        assert f" {name}," in line or line.endswith(f" {name}"), name
