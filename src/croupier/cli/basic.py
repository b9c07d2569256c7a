"""``croupier games``, ``croupier rules`` and ``croupier scenario``."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from croupier.cli.common import (
    CommandError,
    JsonFlag,
    console,
    fail,
    load_game_rules,
    output_file,
)
from croupier.errors import CroupierError
from croupier.packed import not_text, read_text
from croupier.registry import all_games, find_game
from croupier.scenario import run_scenario_text
from croupier.submission import options_markdown, submission_toml

__all__ = ["games", "phases", "rules", "scenario"]

RulesFile = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        help="Rules Submission file (TOML or JSON).",
        exists=True,
        dir_okay=False,
        readable=True,
    ),
]
Settings = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override one option: key=value."),
]


def games(as_json: JsonFlag = False) -> None:
    """List the games with their governing section."""
    if as_json:
        rows = [
            {
                "name": spec.name,
                "title": spec.title,
                "section": spec.section,
                "cites": spec.cites,
                "positions": spec.max_seats,
                "wagers": list(spec.wagers),
            }
            for spec in all_games()
        ]
        print(json.dumps(rows, indent=2))
        return
    table = RichTable(title="Games")
    # ids to type whole (a game's name, bonus_player), never folded: at
    # 80 columns the title goes under the name and each § on its line
    table.add_column("game", no_wrap=True)
    table.add_column("§", no_wrap=True)
    table.add_column("seats", justify="right")
    table.add_column("wagers", no_wrap=True)
    for spec in all_games():
        table.add_row(
            f"{spec.name}\n[dim]{spec.title}[/dim]",
            "\n".join(spec.cites.split(", ")),
            str(spec.max_seats),
            "\n".join(spec.wagers),
        )
    console.print(table)


def rules(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    rules_file: RulesFile = None,
    settings: Settings = None,
    as_json: JsonFlag = False,
    as_toml: Annotated[
        bool,
        typer.Option("--toml", help="A commented Rules Submission file."),
    ] = False,
    as_markdown: Annotated[
        bool, typer.Option("--markdown", help="A reference table.")
    ] = False,
) -> None:
    """Show a game's options: value, default, provenance and meaning.

    A Double Back Jack or 21 Baccarat Rules Submission that leaves fewer
    cards behind the cover card than an ordinary round takes gets a
    one-line warning on stderr (D76); stdout is the listing alone, and
    the exit status stays 0.
    """
    chosen = [
        name
        for name, given in (
            ("--json", as_json),
            ("--toml", as_toml),
            ("--markdown", as_markdown),
        )
        if given
    ]
    if len(chosen) > 1:
        # each prints a whole document of its own: one was printed and
        # the others dropped without a word
        msg = f"{' and '.join(chosen)}: give one, each prints its own form"
        raise fail(CommandError(msg))
    try:
        spec, loaded = load_game_rules(game, rules_file, settings)
    except CroupierError as exc:
        raise fail(exc) from None
    from croupier.games.runout import round_run_out

    found = round_run_out(loaded)
    warning = None if found is None else found.warning()
    if warning is not None:
        sys.stderr.write(warning + "\n")
    values = loaded.to_dict()
    if as_json:
        print(json.dumps(values, indent=2))
        return
    if as_toml:
        print(submission_toml(spec, loaded))
        return
    if as_markdown:
        print(options_markdown(spec))
        return
    table = RichTable(title=f"{spec.title}: Rules Submission options")
    for column in ("option", "value", "default", "source", "§", "meaning"):
        table.add_column(column, overflow="fold")
    for info in spec.rules_type.options():
        value = values[info.name]
        source = info.provenance.value
        if info.decision:
            source += f" {info.decision}"
        table.add_row(
            info.name,
            json.dumps(value),
            json.dumps(info.default) if value != info.default else "",
            source,
            info.ref or "",
            info.doc,
        )
    console.print(table)


def scenario(
    file: Annotated[
        str, typer.Argument(help="Scenario JSON file, or - for stdin.")
    ],
    history: Annotated[
        Path | None,
        output_file(
            "Also append the round as a CHH line to this file "
            "(compressed when it ends in .gz, .bz2 or .xz).",
            "--history",
            packs=True,
        ),
    ] = None,
) -> None:
    """Run a stacked scenario; print its events, hands and settlements."""
    try:
        text = (
            sys.stdin.read().removeprefix("\ufeff")
            if file == "-"
            else read_text(Path(file))
        )
    except UnicodeDecodeError as exc:
        msg = f"{file} is {not_text(exc)}"
        raise fail(CroupierError(msg)) from None
    if history is not None:
        from croupier.cli.history import scenario_history

        result = scenario_history(text, history)
    else:
        result = run_scenario_text(text)
    if result.stdout:
        sys.stdout.write(result.stdout + "\n")
    if result.stderr:
        sys.stderr.write(result.stderr + "\n")
    raise typer.Exit(result.exit_code)


def _edge_refs(targets: object, target: object) -> list[str]:
    """The subsections an edge cites, when its table carries them."""
    if not isinstance(targets, Mapping):
        return []
    cited = targets[target]
    refs = cited if isinstance(cited, tuple) else (cited,)
    return [str(ref) for ref in refs]


def phases(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    as_json: JsonFlag = False,
) -> None:
    """Print the round's phase transition table as a Mermaid diagram."""
    try:
        spec = find_game(game)
    except CroupierError as exc:
        raise fail(exc) from None
    if spec.transitions is None:
        raise fail(CroupierError(f"{spec.name} declares no transitions"))
    cited = {
        str(source): {
            str(target): _edge_refs(targets, target) for target in targets
        }
        for source, targets in spec.transitions.items()
    }
    if as_json:
        table = {source: list(out) for source, out in cited.items()}
        document = {"game": spec.name, "transitions": table, "refs": cited}
        print(json.dumps(document, indent=2))
        return
    lines = ["stateDiagram-v2"]
    for source, out in cited.items():
        for target, refs in out.items():
            label = f": {', '.join(refs)}" if refs else ""
            lines.append(f"    {source} --> {target}{label}")
    print("\n".join(lines))
