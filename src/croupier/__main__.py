"""The ``croupier`` command line, as its script and as ``python -m croupier``.

The same group, the same exit statuses and the same program name in
its help and error lines (``croupier``, not ``__main__.py``).

The console script's entry is :func:`main` here, not in
:mod:`croupier.cli`: importing the command line (typer, rich, every
command's module) takes half a second, a second or two on a loaded
machine, and a Ctrl-C in it was Python's traceback and a death by
SIGINT. Caught here, it ends as a Ctrl-C during a command does:
"croupier: interrupted" on stderr, exit 130. This module imports
nothing of croupier's before :func:`main` runs, and the package's own
import is light (:mod:`croupier`).
"""

from __future__ import annotations

import sys

INTERRUPTED_EXIT = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT)."""


def main() -> None:
    """Entry point of the ``croupier`` console script."""
    try:
        from croupier.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("croupier: interrupted\n")
        sys.stderr.flush()
        raise SystemExit(INTERRUPTED_EXIT) from None
    run()


if __name__ == "__main__":
    main()
