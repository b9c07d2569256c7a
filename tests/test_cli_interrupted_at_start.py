"""A Ctrl-C while the ``croupier`` command is still starting.

Importing the command line (typer, rich and every command's module)
takes half a second, a second or two on a loaded machine. A Ctrl-C then
printed Python's traceback and the command died by SIGINT; a Ctrl-C a
moment later, once a command runs, is "croupier: interrupted" and exit
130 (``croupier.cli.common.GuardedGroup``). The start now ends the same
way (``croupier.__main__``).

To land the Ctrl-C inside the import every time, the command runs with a
``sitecustomize`` module on its path that holds the import of
``croupier.cli`` until the signal comes: it says when it holds it, and
then sleeps, which the signal interrupts as it would interrupt any
import.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

_COMMAND = Path(sys.executable).with_name("croupier")

_HOLD = """
import importlib.abc, sys, time

class _Hold(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "croupier.cli":
            sys.meta_path.remove(self)
            sys.stderr.write("holding the import\\n")
            sys.stderr.flush()
            time.sleep(120)
        return None

sys.meta_path.insert(0, _Hold())
"""
"""A ``sitecustomize`` that stops the import of ``croupier.cli``."""

_WAYS = {
    "console script": [str(_COMMAND)],
    "python -m croupier": [sys.executable, "-m", "croupier"],
}


def _started_with_the_import_held(
    way: str, tmp_path: Path
) -> subprocess.Popen[bytes]:
    """``croupier games`` started ``way``, held in its import.

    The child gets SIGINT's default action back, as in a terminal (a
    test run started in the background by a script has it ignored).
    """
    (tmp_path / "sitecustomize.py").write_text(_HOLD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(  # noqa: S603 - the project's own command
            [*_WAYS[way], "games"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    assert proc.stderr is not None
    said = proc.stderr.readline()
    assert said == b"holding the import\n", said
    return proc


@pytest.mark.parametrize("way", sorted(_WAYS))
def test_ctrl_c_while_the_command_starts_is_interrupted_exit_130(
    way: str, tmp_path: Path
) -> None:
    """Ctrl-C in the import: one line, "croupier: interrupted", exit
    130, no traceback, nothing on stdout."""
    proc = _started_with_the_import_held(way, tmp_path)
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err.decode()
    assert err.decode() == "croupier: interrupted\n"
    assert out == b""


def test_the_held_import_lets_the_command_run_when_not_interrupted(
    tmp_path: Path,
) -> None:
    """The hold alone breaks nothing: held a moment and not interrupted,
    the same start lists the games, exit 0 (what the test above
    interrupts is a start that would have run)."""
    (tmp_path / "sitecustomize.py").write_text(
        _HOLD.replace("time.sleep(120)", "time.sleep(0.2)"),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(  # noqa: S603 - the project's own command
        [str(_COMMAND), "games"],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b"holding the import\n"
    assert b"double-back-jack" in done.stdout
