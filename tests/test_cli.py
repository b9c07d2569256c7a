"""The command line: games, rules, regs coverage, demo, play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from croupier.cli import app
from croupier.registry import all_games

runner = CliRunner()
TESTS = Path(__file__).parent


def test_games_lists_every_registered_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for spec in all_games():
        assert spec.name in result.output


def test_rules_json_applies_file_and_settings(tmp_path: Path) -> None:
    rules_file = tmp_path / "casino.toml"
    rules_file.write_text("[rules]\ndecks = 2\n", encoding="utf-8")
    spec = next(g for g in all_games() if g.name == "21-baccarat")
    result = runner.invoke(
        app,
        [
            "rules",
            spec.name,
            "--rules",
            str(rules_file),
            "--set",
            "tie_payout=9:1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["decks"] == 2
    assert data["tie_payout"] == "9:1"


def test_rules_refuses_an_unknown_option_naming_it() -> None:
    result = runner.invoke(app, ["rules", "21-baccarat", "--set", "dekcs=2"])
    assert result.exit_code == 2
    assert "dekcs" in result.output


def test_rules_table_shows_provenance() -> None:
    result = runner.invoke(app, ["rules", "double-back-jack"])
    assert result.exit_code == 0
    assert "ASSUMED" in result.output


def test_regs_coverage_reports_every_seed_subsection() -> None:
    result = runner.invoke(
        app, ["regs", "coverage", "--tests", str(TESTS), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["total"] == 47
    refs = {row["ref"] for row in data["subsections"]}
    assert "591.7(l)" in refs
    assert "670a.9(e)" in refs
    burn = next(r for r in data["subsections"] if r["ref"] == "591.7(c)")
    assert burn["covered"]
    assert any("test_591_7_c" in t for t in burn["tests"])


def test_demo_plays_a_narrated_round_of_every_game() -> None:
    result = runner.invoke(app, ["demo", "--seed", "3"])
    assert result.exit_code == 0, result.output
    for spec in all_games():
        assert spec.title in result.output
    assert "§ " in result.output


def test_play_terminal_round_of_21_baccarat() -> None:
    result = runner.invoke(
        app,
        ["play", "21-baccarat", "--seats", "1", "--seed", "4"],
        input="player 10\n\n",
    )
    assert result.exit_code == 0, result.output
    assert "Settlements" in result.output
    assert "681a.7" in result.output


def test_serve_several_workers_on_sqlite_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    result = runner.invoke(
        app, ["serve", "--db", f"sqlite:///{db}", "--workers", "2"]
    )
    assert result.exit_code == 2
    assert "need PostgreSQL" in result.output
    assert not db.exists()  # refused before anything was created


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("mysql://u@h/x", "stores in SQLite or PostgreSQL, not mysql"),
        (
            "postgresql+asyncpg://u@h/x",
            "the database driver 'asyncpg' of postgresql+asyncpg://u@h/x "
            "is not installed",
        ),
    ],
    ids=["backend", "driver"],
)
@pytest.mark.parametrize(
    "command",
    [
        ["serve"],
        ["history", "export", "--out", "{out}"],
        ["replay", "1"],
        ["token", "rotate", "--out", "{out}"],
    ],
    ids=lambda words: " ".join(words[:2]),
)
def test_every_db_option_refuses_a_database_croupier_cannot_use(
    tmp_path: Path, command: list[str], db: str, says: str
) -> None:
    """``--db mysql://...`` (or a PostgreSQL driver not installed) went
    through to SQLAlchemy, which failed on importing the driver: exit
    70, "internal error (ModuleNotFoundError ...)". Every command with
    ``--db`` now refuses it first, exit 2, naming the two forms."""
    out = str(tmp_path / "day.jsonl")
    args = [a.replace("{out}", out) for a in command]
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert says in text
    assert "sqlite:///path.db or postgresql+psycopg://" in text
    assert "internal error" not in text
    assert not Path(out).exists()


def test_phases_label_every_edge_with_its_cited_subsection() -> None:
    # each label is the subsection the game's phase table cites for that
    # edge; docs/phases.md is exactly what the command prints
    docs = (TESTS.parent / "docs" / "phases.md").read_text(encoding="utf-8")
    for spec in all_games():
        assert spec.transitions is not None
        result = runner.invoke(app, ["phases", spec.name])
        assert result.exit_code == 0, result.output
        block = f"## {spec.name}\n\n```mermaid\n{result.output}```\n"
        assert block in docs, f"docs/phases.md is stale for {spec.name}"
        edges = {
            tuple(line.strip().split(": ")[0].split(" --> ")): line.split(
                ": ", 1
            )[1].split(", ")
            for line in result.output.splitlines()[1:]
        }
        expected = {
            (str(source), str(target)): [
                str(ref)
                for ref in (cited if isinstance(cited, tuple) else (cited,))
            ]
            for source, out in spec.transitions.items()
            for target, cited in dict(out).items()
        }
        assert edges == expected
        assert all(refs and refs[0] for refs in edges.values())


def test_the_command_line_starts_without_the_server_stack() -> None:
    """Every ``croupier`` command imports ``croupier.cli`` first.

    The server's stack (SQLAlchemy, Alembic, FastAPI, Starlette,
    uvicorn) took about 0.57 s of its 0.92 s; the commands that need it
    load it when they run. (Checked by the modules loaded, not a time.)
    """
    import subprocess
    import sys

    code = (
        "import sys, croupier.cli; "
        "print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    loaded = subprocess.run(  # noqa: S603 - this interpreter, our code
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for heavy in ("sqlalchemy", "alembic", "fastapi", "starlette", "uvicorn"):
        assert f"'{heavy}'" not in loaded, heavy


def _command_line(*args: str, module: bool) -> tuple[int, str, str]:
    """``croupier ARGS`` by the console script, or ``python -m croupier``."""
    import os
    import subprocess
    import sys

    import croupier

    script = Path(sys.executable).with_name("croupier")
    head = [sys.executable, "-m", "croupier"] if module else [str(script)]
    # the croupier under test for both, and one terminal width
    src = str(Path(croupier.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src, "COLUMNS": "80"}
    done = subprocess.run(  # noqa: S603 - this interpreter, our code
        [*head, *args], capture_output=True, text=True, env=env, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["rules", "--help"],
        ["games", "--json"],
        ["rules", "no-such-game"],
        ["games", "--no-such-option"],
        [],
    ],
    ids=" ".join,
)
def test_python_m_croupier_is_the_croupier_command(args: list[str]) -> None:
    """``python -m croupier`` ran nothing ("No module named
    croupier.__main__", exit 1); it is now the console script itself:
    the same output, the same exit status, the program named croupier."""
    import sys

    if not Path(sys.executable).with_name("croupier").exists():
        pytest.skip("the croupier console script is not installed here")
    module = _command_line(*args, module=True)
    assert module == _command_line(*args, module=False)
    if args[:1] == ["--help"] or not args:
        assert "Usage: croupier [OPTIONS] COMMAND" in module[1]
    if args == ["rules", "no-such-game"]:
        assert module[0] == 2
        assert module[2].startswith("croupier rules: unknown game")


def _commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's words (``("history", "export")``), groups' too.

    Typer 0.29 carries its own click (``typer._click``): a group is
    whatever lists commands.
    """
    found = [path]
    ctx = group.context_class(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        if hasattr(command, "list_commands"):
            found += _commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


def test_every_help_at_80_columns_shows_every_word_whole() -> None:
    """Rich cuts a word longer than its column with "…": at 80 columns
    ``croupier serve --help`` showed ``postgresql+psycopg://…``,
    ``$CROUPIER_OPERATOR_TO…`` and two defaults cut short. Every
    command's help at 80 columns must show each word whole."""
    commands = _commands(typer.main.get_command(app))
    assert ("serve",) in commands
    assert ("history", "export") in commands
    cut = {}
    for words in commands:
        result = runner.invoke(
            app, [*words, "--help"], env={"COLUMNS": "80"}, color=False
        )
        assert result.exit_code == 0, (words, result.output)
        lines = [line for line in result.output.splitlines() if "…" in line]
        if lines:
            cut[" ".join(words)] = lines
    assert not cut, cut
