"""``croupier`` run with its output on a pseudo-terminal, as seen."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path


def on_a_terminal(
    *args: str, stdout_too: bool = False
) -> tuple[int, str, bytes]:
    """``croupier ARGS`` with stderr (and stdout) on a pseudo-terminal.

    Returns the exit status, stdout when it is a pipe (else ``""``), and
    every byte the terminal received.
    """
    main, side = pty.openpty()
    command = Path(sys.executable).with_name("croupier")
    proc = subprocess.Popen(  # noqa: S603 - the project's own command
        [str(command), *args],
        stdout=side if stdout_too else subprocess.PIPE,
        stderr=side,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(side)
    seen = b""
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        seen += data
    os.close(main)
    out = "" if proc.stdout is None else proc.stdout.read().decode()
    return proc.wait(), out, seen
