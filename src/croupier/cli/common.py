"""What the sub-commands share: rules loading, options, error handling.

Error handling lives here, in one place (issue 15 point 5): the root
command group is a :class:`GuardedGroup`, whose ``main`` turns every
way a command can fail into one line on stderr and an exit status:

* a wrong argument (click's usage errors: a missing argument, a number
  out of range, a file that does not exist, an unknown option), a
  refusal (:class:`~croupier.errors.CroupierError`), a file that cannot
  be read or written (:class:`OSError`) or input that is not UTF-8
  text: one line naming the problem, exit 2;
* Ctrl-C: exit 130; a closed pipe (``croupier verify ... | head``):
  exit 141, silently, as a shell reports a command that SIGPIPE ended
  (not 1, a verdict of ``verify`` and ``rng-test``);
* anything else is a bug: one line naming it and exit 70
  (:data:`BUG_EXIT`), the traceback only with ``CROUPIER_DEBUG=1``. Not
  1, which ``verify`` and ``rng-test`` give as a verdict ("a round does
  not conform", "the source fails"): a crash must never read as one.

Options that name files use the shared types below (:data:`InputFile`,
:func:`output_file`, :func:`picture_file`), so a missing input file or a
missing output folder is refused while the arguments are parsed, before
a long run starts; so is an output name for a packing croupier would not
write under it (``--history day.jsonl.zst``, ``--out report.html.gz``)
and a picture in a format matplotlib does not draw (``--plot e.txt``).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer._click as _click
from rich.console import Console
from rich.markup import escape

# typer (>= 0.29) carries its own copy of click; its exceptions and the
# current context are those of that copy.
from typer._click import exceptions as click
from typer._click.globals import get_current_context
from typer.core import TyperGroup

from croupier.errors import CroupierError
from croupier.extras import MissingExtraError, extra_of
from croupier.packed import UnwrittenPackingError, not_text, refuse_unwritten
from croupier.registry import GameSpec, find_game
from croupier.rules import GameRules, load_rules_file

if TYPE_CHECKING:  # SQLAlchemy is the server extra's, loaded on use
    from sqlalchemy.engine import URL

__all__ = [
    "BUG_EXIT",
    "DEBUG_ENV",
    "PIPE_EXIT",
    "CommandError",
    "GuardedGroup",
    "JsonFlag",
    "PipeConsole",
    "check_output",
    "console",
    "current_schema",
    "database_problem",
    "err_console",
    "fail",
    "load_game_rules",
    "notice",
    "output_file",
    "problem_line",
    "warn_favourable",
]

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print JSON instead of a table.")
]
"""The ``--json`` option every command that prints a table offers."""

DEBUG_ENV = "CROUPIER_DEBUG"
"""Set to 1 to see the traceback of an internal error."""
BUG_EXIT = 70
"""The exit status of an internal error (sysexits' ``EX_SOFTWARE``)."""
PIPE_EXIT = 128 + 13
"""The exit status when the reader of standard output has gone (SIGPIPE)."""


class PipeConsole(Console):
    """A rich console that leaves a closed pipe to the root group.

    rich meets a reader that has gone (``croupier rng-test | head -1``)
    by exiting 1 itself, the verdict "the source fails" of ``rng-test``
    and "a round does not conform" of ``verify``. This console raises
    the :class:`BrokenPipeError` instead, as any other write to the
    closed pipe does, and :class:`GuardedGroup` ends the command with
    :data:`PIPE_EXIT`. Every command prints through one of these
    (:data:`console`, :data:`err_console`), never a ``Console`` of its
    own.
    """

    def on_broken_pipe(self) -> None:
        """Print nothing more; raise the closed pipe as an ``OSError``."""
        self.quiet = True
        try:
            # what is still buffered for the stream goes nowhere,
            # instead of failing again when the interpreter flushes it
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.file.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # no descriptor (a test's stdout)
            pass
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


console = PipeConsole()
"""Standard output."""
err_console = PipeConsole(stderr=True, soft_wrap=True)
"""Standard error."""


def warn_favourable(
    favourable: list[dict[str, object]], as_json: bool
) -> None:
    """Print each player-favourable wager's warning (D146).

    On standard output with a table; on standard error with ``--json``,
    whose standard output is the JSON (it carries them as
    ``player_favourable``).
    """
    for item in favourable:
        warning = "[bold yellow]warning:[/bold yellow]"
        notice(warning, str(item["message"]), as_json)


def notice(label: str, text: str, as_json: bool) -> None:
    """Print ``label`` (markup) and ``text`` (plain) on one line.

    On standard output with a table; on standard error with ``--json``,
    whose standard output is the JSON alone.
    """
    where = err_console if as_json else console
    where.print(f"{label} {escape(text)}")


class CommandError(CroupierError):
    """A command's own refusal (no such round, no such database...)."""


def _command_path() -> str:
    context = get_current_context(silent=True)
    return context.command_path if context is not None else "croupier"


def problem_line(exc: BaseException, where: str | None = None) -> str:
    """The one line that names what went wrong, prefixed by the command.

    >>> problem_line(CommandError("no round 7"), "croupier replay")
    'croupier replay: no round 7'
    >>> problem_line(FileNotFoundError(2, "No such file", "a.toml"), "x")
    'x: No such file: a.toml'
    """
    where = where or _command_path()
    if isinstance(exc, click.UsageError):
        text = exc.format_message()
        if exc.ctx is not None:
            where = exc.ctx.command_path
            text += f" (see {where} --help)"
    elif isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
        if exc.filename is not None:
            text += f": {exc.filename}"
    elif isinstance(exc, click.ClickException):
        text = exc.format_message()
    else:
        text = str(exc) or type(exc).__name__
    return f"{where}: {' '.join(text.split())}"


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def fail(exc: Exception, code: int = 2) -> typer.Exit:
    """Print a refusal on one line of stderr and return the exit to raise.

    Commands may simply let a :class:`CroupierError` propagate: the root
    group prints it the same way. A failure that is no fault of the
    input (a process that died) is given :data:`BUG_EXIT`.
    """
    _say(problem_line(exc))
    return typer.Exit(code)


_RUNNING: list[str] = []
"""The names of the (sub-)commands being run, for the error line."""


class GuardedGroup(TyperGroup):
    """The root group: one line and an exit status, never a traceback.

    Sub-groups (``regs``) use it too, so that an error line names the
    whole command (``croupier regs coverage: ...``).
    """

    def resolve_command(
        self, ctx: _click.Context, args: list[str]
    ) -> tuple[str | None, _click.Command | None, list[str]]:
        """Resolve the sub-command and remember its name."""
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None:
            _RUNNING.append(name)
        return name, command, rest

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        """Run the command line; exit with its status (see module doc)."""
        code = self._guarded(args, prog_name, complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _guarded(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        **extra: Any,
    ) -> int:
        name = prog_name or "croupier"
        _RUNNING.clear()
        try:
            value = super().main(
                args,
                name,
                complete_var,
                standalone_mode=False,
                **extra,
            )
        except click.NoArgsIsHelpError as exc:
            # the error is made of the help: typer's rich formatter has
            # printed it then (and left the message empty), a plain one
            # returned it; printed once either way
            text = exc.format_message()
            if text.strip():
                typer.echo(text)
            return 2
        except click.UsageError as exc:
            _say(problem_line(exc, name))
            return 2
        except typer.Abort:
            _say(f"{name}: interrupted")
            return 130
        except SystemExit:
            # typer meets a closed pipe itself: it wraps the streams so
            # that nothing more is written, and exits 1 (a verdict here)
            if isinstance(sys.stdout, _click.utils.PacifyFlushWrapper):
                return PIPE_EXIT
            raise
        except click.ClickException as exc:
            _say(problem_line(exc, name))
            return exc.exit_code
        except CroupierError as exc:
            _say(problem_line(exc, " ".join([name, *_RUNNING])))
            return 2
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                return PIPE_EXIT
            _say(problem_line(exc, " ".join([name, *_RUNNING])))
            return 2
        except KeyboardInterrupt:
            _say(f"{name}: interrupted")
            return 130
        except UnicodeDecodeError as exc:
            # bytes read from a file or stdin that are not text: input
            where = " ".join([name, *_RUNNING])
            _say(f"{where}: input that is {not_text(exc)}")
            return 2
        except Exception as exc:
            where = " ".join([name, *_RUNNING])
            needed = (
                extra_of(exc.name)
                if isinstance(exc, ModuleNotFoundError) and exc.name
                else None
            )
            if needed is not None:  # a library of an uninstalled extra
                module = getattr(exc, "name", "")
                missing = MissingExtraError("this command", needed, module)
                _say(problem_line(missing, where))
                return 2
            if os.environ.get(DEBUG_ENV) == "1":
                raise
            _say(
                f"{where}: internal error ({type(exc).__name__}: {exc}); "
                f"{DEBUG_ENV}=1 shows the traceback"
            )
            return BUG_EXIT
        return value if isinstance(value, int) else 0


def _check_output(value: Path | None) -> Path | None:
    return check_output(value, packs=False)


def _check_packed_output(value: Path | None) -> Path | None:
    return check_output(value, packs=True)


def check_output(value: Path | None, *, packs: bool) -> Path | None:
    """Refuse an output file that cannot be written as named (see below).

    ``-`` (standard output elsewhere), a folder, a folder that does not
    exist or cannot be written, and a name for a packing the file will
    not have (:func:`croupier.packed.refuse_unwritten`; ``packs``: the
    file is written packed by its suffix, else always plain). Raises
    :class:`typer.BadParameter`, which names the option.
    """
    if value is None:
        return None
    try:
        refuse_unwritten(value, packs=packs)
    except UnwrittenPackingError as exc:
        raise typer.BadParameter(str(exc)) from None
    if str(value) == "-":
        # elsewhere the name of standard output: never a file of that
        # name made by mistake
        msg = (
            "- is standard output elsewhere, and this option writes a "
            "file: give the file's name (./- for a file named -)"
        )
        raise typer.BadParameter(msg)
    folder = value.parent
    if value.is_dir():
        msg = f"{value} is a folder, not a file"
        raise typer.BadParameter(msg)
    if not folder.is_dir():
        msg = f"folder {folder} does not exist"
        raise typer.BadParameter(msg)
    if not os.access(folder, os.W_OK):
        msg = f"folder {folder} is not writable"
        raise typer.BadParameter(msg)
    return value


def output_file(
    help_text: str, *names: str, packs: bool = False, show_default: bool = True
) -> Any:
    """A ``typer.Option`` for a file to write; its folder must exist.

    The check runs while the arguments are parsed, so a mistyped folder
    is refused before a long run starts. ``-`` is refused: these options
    write files, and ``-`` would make one named so where standard
    output was meant. ``packs``: the file is written packed when its
    name ends in ``.gz``, ``.bz2`` or ``.xz``
    (:func:`croupier.packed.writing`); either way a name for a packing
    it will not have is refused (:func:`check_output`, D104).
    ``show_default=False`` leaves the default out of the help (a command
    whose default name is too long for the column names it in its text).
    """
    return typer.Option(
        *names,
        help=help_text,
        show_default=show_default,
        callback=_check_packed_output if packs else _check_output,
        dir_okay=False,
        writable=True,
    )


def _check_picture(value: Path | None) -> Path | None:
    return check_picture(check_output(value, packs=False))


def check_picture(value: Path | None) -> Path | None:
    """Refuse a picture's name whose suffix matplotlib cannot write.

    matplotlib picks the format by the suffix and refuses an unknown one
    only when the figure is saved: after the run that draws it, which
    may take minutes (``--plot e.txt``). Given no suffix it writes a PNG
    under another name (``run`` becomes ``run.png``), so a name without
    one is refused too. The formats are those of the installed
    matplotlib; without it the command itself says which extra to
    install. Raises :class:`typer.BadParameter`, which names the option.
    """
    if value is None:
        return value
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:  # the command names the missing extra
        return value
    formats = FigureCanvasBase.get_supported_filetypes()
    if value.suffix[1:].lower() not in formats:
        known = ", ".join(f".{f}" for f in sorted(formats))
        what = (
            f"does not draw {value.suffix} pictures"
            if value.suffix
            else "picks a picture's format by its name's suffix"
        )
        msg = f"{value}: matplotlib {what}; give a name ending in {known}"
        raise typer.BadParameter(msg)
    return value


def picture_file(help_text: str, *names: str) -> Any:
    """A ``typer.Option`` for a picture to draw (:func:`check_picture`).

    As :func:`output_file`, and the suffix must be a format matplotlib
    writes, checked before the run that draws it.
    """
    return typer.Option(
        *names,
        help=help_text,
        callback=_check_picture,
        dir_okay=False,
        writable=True,
    )


def load_game_rules(
    game: str, rules_file: Path | None, settings: list[str] | None
) -> tuple[GameSpec, GameRules]:
    """The game and its rules: defaults, then the file, then ``--set``."""
    spec = find_game(game)
    rules = spec.rules_type()
    if rules_file is not None:
        rules = rules.with_overrides(load_rules_file(rules_file))
    if settings:
        rules = rules.with_settings(settings)
    return spec, rules


_DB_FORMS = "sqlite:///path.db or postgresql+psycopg://user:pw@host/name"
"""The two forms ``--db`` takes, as its refusals name them."""


def database_url(db: str) -> URL:
    """``--db`` parsed, or refused naming the two forms it takes.

    The server stores in SQLite or PostgreSQL only (its migrations and
    its locking are written for those two), and a URL whose driver is
    not installed (``mysql://``, ``postgresql+asyncpg://``) is refused
    here, before anything connects, rather than failing inside.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        url = make_url(db)
    except ArgumentError:
        msg = f"not a database URL: {db} ({_DB_FORMS})"
        raise CommandError(msg) from None
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        msg = (
            f"croupier stores in SQLite or PostgreSQL, not {backend} "
            f"({_DB_FORMS})"
        )
        raise CommandError(msg)
    try:
        url.get_dialect().import_dbapi()
    except (ImportError, NoSuchModuleError):
        msg = (
            f"the database driver {url.get_driver_name()!r} of {db} is not "
            f"installed ({_DB_FORMS})"
        )
        raise CommandError(msg) from None
    return url


def existing_database(db: str) -> None:
    """Refuse a database URL that names no existing SQLite file.

    ``replay`` and ``history export`` only read: they must never create
    (or migrate) a database (connecting to a SQLite path that names no
    file would leave an empty one behind).
    """
    url = database_url(db)
    if url.get_backend_name() != "sqlite":
        return
    if not url.database or url.database == ":memory:":
        msg = f"no database file in {db}"
        raise CommandError(msg)
    if not Path(url.database).is_file():
        msg = f"no database at {url.database} (give --db)"
        raise CommandError(msg)


def current_schema(engine: Any, db: str) -> None:
    """Refuse, in words, a database of another croupier's schema.

    A server of the version before stored no ``rounds.software`` (D132):
    reading its rounds failed with "lacks croupier's tables: is it a
    croupier server's database?", which it is.
    """
    from sqlalchemy.engine import make_url

    from croupier.server import db as storage

    found = storage.schema_mismatch(engine)
    if found is None:
        return
    revision, head, known = found
    shown = make_url(db).render_as_string(hide_password=True)
    if known:
        msg = (
            f"{shown} has croupier's schema {revision}, older than this "
            f"croupier's {head}: start this croupier's serve on it once "
            "to upgrade it, or read it with the croupier that wrote it"
        )
    else:
        msg = (
            f"{shown} has croupier's schema {revision}, newer than this "
            f"croupier's {head}: read it with the croupier that wrote it"
        )
    raise CommandError(msg)


def database_problem(exc: Exception, db: str) -> str:
    """What is wrong with ``--db``, in words, from the driver's error.

    A SQLite path whose folder does not exist, a folder, a file that is
    not a SQLite database, a database without croupier's tables, or a
    PostgreSQL server that cannot be reached: each named as such (the
    password of a URL left out), never as a bare ``OperationalError``.
    """
    from sqlalchemy.engine import make_url

    url = make_url(db)
    shown = url.render_as_string(hide_password=True)
    cause = str(getattr(exc, "orig", None) or exc).strip()
    said = " ".join(cause.splitlines()[0].split()) if cause else ""
    if url.get_backend_name() != "sqlite":
        return f"cannot use the database {shown}: {said or 'no answer'}"
    path = Path(url.database or "")
    if path.is_dir():
        return f"{path} is a folder, not a database file (--db {shown})"
    if not path.parent.is_dir():
        return f"folder {path.parent} does not exist (--db {shown})"
    if "not a database" in said:
        return f"{path} is not a SQLite database (--db {shown})"
    if "no such table" in said or "no such column" in said:
        return (
            f"{path} lacks croupier's tables: is it a croupier server's "
            f"database? (--db {shown})"
        )
    return f"cannot use the SQLite database {path}: {said} (--db {shown})"
