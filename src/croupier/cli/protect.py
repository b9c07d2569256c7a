"""``croupier protect GAME [WAGER]``: how each wager can be beaten (issue 16).

Effects of removal, counts simulated through real shoes (with a table
and plot of the win rate against the cut card), perfect-play bounds of
the pair wagers, known cards and edge sorting and the Double Back Jack
card reader: :mod:`croupier.protect.report`. Markdown (the document of
``docs/protection/``) on standard output or ``--out``; ``--json`` for
the figures.
"""

from __future__ import annotations

import json
import shlex
import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import (
    CommandError,
    JsonFlag,
    err_console,
    load_game_rules,
    output_file,
    picture_file,
)

__all__ = ["protect"]


def _numbers(text: str, option: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        msg = f"{option}: give one or more values, comma separated"
        raise CommandError(msg)
    return parts


def _behind(
    size: int, penetration: str | None, cut_card: str | None
) -> tuple[int, ...]:
    """Cut-card depths (cards behind the cut card) from the options."""
    if penetration is not None and cut_card is not None:
        msg = "give --penetration or --cut-card, not both"
        raise CommandError(msg)
    out: list[int] = []
    if penetration is not None:
        for part in _numbers(penetration, "--penetration"):
            try:
                share = Fraction(part)
            except (ValueError, ZeroDivisionError):
                msg = f"--penetration: {part!r} is not a number like 0.8"
                raise CommandError(msg) from None
            if not Fraction(1, 10) <= share <= Fraction(19, 20):
                msg = f"--penetration: {part} is outside 0.1..0.95"
                raise CommandError(msg)
            out.append(size - int(size * share))
    if cut_card is not None:
        for part in _numbers(cut_card, "--cut-card"):
            try:
                behind = int(part)
            except ValueError:
                msg = f"--cut-card: {part!r} is not a whole number of cards"
                raise CommandError(msg) from None
            if not 7 <= behind <= size - 7:
                msg = (
                    f"--cut-card: {behind} cards behind the cut card does "
                    f"not fit a {size}-card shoe (7..{size - 7})"
                )
                raise CommandError(msg)
            out.append(behind)
    return tuple(out)


def protect(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    wager: Annotated[
        str | None,
        typer.Argument(help="One wager (default: every wager)."),
    ] = None,
    rules_file: RulesFile = None,
    settings: Settings = None,
    as_json: JsonFlag = False,
    tags: Annotated[
        str | None,
        typer.Option(
            "--tags",
            # an example short enough for the help's column at 80
            # columns (rich cut the longer one with "…")
            help="Your own count, e.g. 5=-1,6=-1,9=2 (ranks not named are "
            "0; X = all ten-valued).",
        ),
    ] = None,
    shoes: Annotated[
        int, typer.Option(help="Shoes per count simulation.", min=1)
    ] = 200_000,
    perfect_shoes: Annotated[
        int,
        typer.Option(
            "--perfect-shoes",
            help="Shoes of the perfect-play runs (21 Baccarat: a tenth).",
            min=10,
        ),
    ] = 20_000,
    seed: Annotated[
        int, typer.Option(help="Seed of every simulation.", min=0)
    ] = 1,
    workers: Annotated[
        int, typer.Option(help="Processes (0 = all cores).", min=0)
    ] = 2,
    penetration: Annotated[
        str | None,
        typer.Option(
            help="Depths to tabulate: shares of the shoe dealt before the "
            "cut card, e.g. 0.95,0.9,0.8.",
        ),
    ] = None,
    cut_card: Annotated[
        str | None,
        typer.Option(
            "--cut-card",
            help="Depths to tabulate: cards behind the cut card, e.g. "
            "14,52,104.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        picture_file("Draw the win rate against the depth (PNG).", "--plot"),
    ] = None,
    out: Annotated[
        Path | None,
        output_file("Write the report to this file.", "--out"),
    ] = None,
    remedies: Annotated[
        bool,
        typer.Option(
            "--remedies/--no-remedies",
            help="Search cut cards and paytables that close a gap.",
        ),
    ] = True,
    only: Annotated[
        str | None,
        typer.Option(
            help="Only these analyses: eor, counts, perfect, known, "
            "blackjack (comma separated).",
        ),
    ] = None,
) -> None:
    """How each wager can be beaten, by how much, and what closes it."""
    import os

    from croupier.extras import require

    require("sim", "croupier protect")
    if plot is not None:
        require("plot", "croupier protect --plot")
    from croupier.protect.counts import parse_tags
    from croupier.protect.model import ProtectError
    from croupier.protect.report import (
        GAME_WAGERS,
        build_report,
        to_json,
        to_markdown,
    )
    from croupier.protect.sections import ProtectSettings

    spec, rules = load_game_rules(game, rules_file, settings)
    offered = GAME_WAGERS.get(spec.name, ())
    if wager is not None and wager not in offered:
        names = ", ".join(offered)
        msg = f"{spec.name} has no wager {wager!r} (wagers: {names})"
        raise CommandError(msg)
    decks = int(getattr(rules, "decks", 1))
    behind = _behind(52 * decks, penetration, cut_card)
    if plot is not None and not behind:
        msg = "--plot draws the depth table: give --penetration or --cut-card"
        raise CommandError(msg)
    if spec.name in ("double-back-jack", "six-card-fortune-pai-gow") and (
        behind or tags
    ):
        msg = f"{spec.name}: no count is simulated here (see the report)"
        raise CommandError(msg)
    try:
        chosen = ProtectSettings(
            shoes=shoes,
            perfect_shoes=perfect_shoes,
            seed=seed,
            workers=workers if workers > 0 else (os.cpu_count() or 1),
            tags=parse_tags(tags) if tags is not None else None,
            behind=behind,
            plot=plot,
            remedies=remedies,
            only=tuple(_numbers(only, "--only")) if only is not None else (),
        )
        with err_console.status(f"analysing {spec.name}"):
            report = build_report(spec.name, wager, rules, chosen)
    except ProtectError as exc:
        raise CommandError(exc.message) from None
    if as_json:
        text = json.dumps(to_json(report), indent=2) + "\n"
    else:
        argv = sys.argv
        command = (
            "croupier protect " + shlex.join(argv[argv.index("protect") + 1 :])
            if "protect" in argv
            else ""
        )
        text = to_markdown(report, command)
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        out.write_text(text, encoding="utf-8")
        err_console.print(f"wrote {out} ({len(text):,} characters)")
