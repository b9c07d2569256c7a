"""The command line run in-process, and a refusal as the tests hold it:
exit 2 and one line on stderr that names the command and the problem."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from croupier.cli import app

runner = CliRunner()


def invoke(args: list[str]) -> Result:
    """``croupier ARGS`` in this process (stdout and stderr apart)."""
    return runner.invoke(app, args, prog_name="croupier")


def refused(args: list[str], *needles: str) -> str:
    """Exit 2, one line on stderr naming the command and the problem
    (each of ``needles`` in it); the line."""
    return refusal(invoke(args), args, *needles)


def refusal(result: Result, args: list[str], *needles: str) -> str:
    """``result`` of ``croupier ARGS`` is a refusal: exit 2, one line on
    stderr naming the command and the problem (each of ``needles`` in
    it); the line."""
    assert result.exit_code == 2, (args, result.output, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, (args, result.stderr)
    assert lines[0].startswith(f"croupier {args[0]}"), lines[0]
    assert "internal error" not in lines[0], lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]
