"""``croupier analyze``, ``croupier simulate`` and ``croupier strategy``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import MofNCompleteColumn, Progress, TextColumn
from rich.table import Table as RichTable

from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import (
    CommandError,
    console,
    err_console,
    fail,
    load_game_rules,
    picture_file,
    warn_favourable,
)
from croupier.cli.double_down import print_double_down_line
from croupier.errors import CroupierError, ScenarioError
from croupier.odds.chunks import MAX_CHUNKS, MAX_ROUNDS, too_many_chunks
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.odds.report import GameReport, WagerReport
from croupier.odds.simulate import DEFAULT_CHUNK_ROUNDS
from croupier.odds.simulate import simulate as run_simulation

__all__ = ["analyze", "simulate", "strategy"]

DOUBLE_DOWN_MAX_ROUNDS = 100_000_000
"""``analyze --double-down``'s most rounds: one process's array of them
(32 bytes a round) stays under 4 GB."""

GameArg = Annotated[str, typer.Argument(help="Game name (croupier games).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="JSON contract.")]


def _wager_lines(report: GameReport, name: str, wager: WagerReport) -> str:
    """The figures above a wager's return table (readable at 80 columns)."""
    edge = f"house edge {100 * wager.house_edge:.4f} %"
    lines = [f"[bold]{report.game} · {name}[/bold]"]
    method = wager.extra.get("method")
    if wager.ci95 is not None:
        half = 100 * (wager.ci95[1] - wager.ci95[0]) / 2
        rounds = wager.extra.get("rounds")
        label = "simulated" if method is None else str(method)
        if rounds:
            label += f" over {rounds:,} wagers"
        if "seed" in wager.extra:
            label += f", seed {wager.extra['seed']}"
        lines.append(f"  [dim]{label}[/dim]")
        lines.append(f"  {edge} ± {half:.4f} (95 % CI), σ {wager.std_dev:.4f}")
        exact = wager.extra.get("exact_house_edge")
        if exact is not None:
            z = wager.extra.get("z")
            z_text = f", z = {z:+.2f}" if z is not None else ""
            lines.append(f"  exact {100 * exact:.4f} %{z_text}")
        void = wager.extra.get("void_share")
        if void:
            lines.append(
                f"  [dim]{100 * void:.2f} % of the rounds void: the shoe "
                f"ran out (D69); exact figures are of finished rounds[/dim]"
            )
    else:
        approximate = wager.extra.get("std_dev_method", "exact") != "exact"
        # an exact edge with an approximate σ (a Double Back Jack split):
        # say so, with the bounds that hold the exact σ
        note = " (approximate)" if approximate else ""
        lines.append(f"  {edge} (exact), σ {wager.std_dev:.4f}{note}")
        bounds = wager.extra.get("std_dev_bounds")
        if (
            approximate
            and isinstance(bounds, list | tuple)
            and len(bounds) == 2
        ):
            lines.append(
                f"  [dim]exact σ within {bounds[0]:.4f} .. "
                f"{bounds[1]:.4f}[/dim]"
            )
    return "\n".join(lines)


def _print_envy(report: GameReport) -> None:
    envy: dict[str, Any] = report.extra.get("envy") or {}
    if "fortune_bonus_with_envy_house_edge" not in envy:
        return
    others = envy.get("other_positions")
    console.print(
        f"[bold]{report.game} · Fortune Bonus with Envy[/bold]\n"
        f"  house edge "
        f"{100 * envy['fortune_bonus_with_envy_house_edge']:.4f} % (exact) "
        f"per Qualifying Wager, {others} other players' hands\n"
        f"  Envy paid per qualifying unit "
        f"{envy['expected_envy_per_qualifying_wager']:.6f}; without Envy "
        f"{100 * envy['fortune_bonus_house_edge']:.4f} %; largest payout "
        f"{envy['fortune_bonus_with_envy_max_payout_units']:,.0f} units "
        f"per unit (D176)"
    )


def _simulated_extras(report: GameReport) -> dict[str, WagerReport]:
    """Wagers an exact report carries from a simulation (pai gow's)."""
    main = report.extra.get("pai_gow")
    if report.method != "exact" or not isinstance(main, dict):
        return {}
    if "events" not in main or "ci95" not in main:
        return {}
    wager = WagerReport(
        house_edge=main["house_edge"],
        std_dev=main["std_dev"],
        events=main["events"],
        ci95=(main["ci95"][0], main["ci95"][1]),
        extra={
            "method": "simulated (not enumerable)",
            "rounds": main.get("rounds"),
            "seed": main.get("seed"),
        },
    )
    return {"pai_gow": wager}


def _print_report(report: GameReport) -> None:
    shown = {**_simulated_extras(report), **report.wagers}
    for name, wager in shown.items():
        console.print(_wager_lines(report, name, wager))
        table = RichTable()
        for column in ("event", "pays", "probability", "return"):
            table.add_column(
                column, justify="left" if column == "event" else "right"
            )
        for row in wager.events:
            table.add_row(
                str(row["event"]),
                str(row.get("pays", "")),
                f"{row['probability']:.8f}",
                f"{row['return']:+.8f}",
            )
        console.print(table)
    _print_envy(report)
    print_double_down_line(report)
    what = (
        f": {report.rounds:,} rounds, {report.rounds / report.seconds:,.0f}/s"
        if report.rounds and report.seconds
        else ""
    )
    seed = report.extra.get("seed")
    seeded = f", seed {seed}" if seed is not None else ""
    console.print(
        f"[dim]{report.method}{what}{seeded}; {report.seconds:.3f} s "
        f"(+{report.compile_seconds:.2f} s compile)[/dim]"
    )


def _favourable(game: str, report: GameReport) -> list[dict[str, object]]:
    """The wagers of an analysis that favour the player (D146)."""
    from croupier.odds.favour import favourable_play, player_favourable
    from croupier.odds.present import exact_edges

    edges = exact_edges(report)
    simulated = _simulated_extras(report)
    for name, wager in simulated.items():
        edges.setdefault(name, wager.house_edge)
    return [
        *player_favourable(game, edges, simulated=frozenset(simulated)),
        *favourable_play(report.extra),
    ]


def _emit(
    report: GameReport,
    as_json: bool,
    favourable: list[dict[str, object]] | None = None,
) -> None:
    if as_json:
        data: dict[str, object] = report.to_dict()
        data.pop("running", None)
        if favourable is not None:
            data["player_favourable"] = favourable
        print(json.dumps(data, indent=2))
    else:
        _print_report(report)
    if favourable:
        warn_favourable(favourable, as_json)


def analyze(
    game: GameArg,
    rules_file: RulesFile = None,
    settings: Settings = None,
    as_json: JsonFlag = False,
    rule_effects: Annotated[
        bool,
        typer.Option(
            "--rule-effects",
            help="double-back-jack: exact edge change of each rule from "
            "ordinary blackjack (--set takes analyzer options).",
        ),
    ] = False,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            help="double-back-jack: the exact edge of one strategy, cdz-, "
            "cdp1, cdp (slow: a minute to many) or td (--set takes "
            "analyzer options; D61).",
        ),
    ] = None,
    double_down: Annotated[
        int | None,
        typer.Option(
            "--double-down",
            help="six-card-fortune-pai-gow: the Six-Card Wager with the "
            "Double Down Wager played, simulated over this many rounds "
            "(seed 1; about 10,000 rounds a second; D177), where the "
            "rules offer it (--set double_down_offered=true: it is off "
            "by default, D182).",
            min=1,
            max=DOUBLE_DOWN_MAX_ROUNDS,
        ),
    ] = None,
) -> None:
    """Exact house edge and return table of every wager where feasible."""
    asked = [
        name
        for name, given in (
            ("--strategy", strategy is not None),
            ("--rule-effects", rule_effects),
            ("--double-down", double_down is not None),
        )
        if given
    ]
    if len(asked) > 1:
        # reports of their own, each a whole run: one at a time
        msg = f"{' and '.join(asked)} are separate analyses: give one"
        raise fail(ScenarioError(msg))
    if double_down is not None:
        from croupier.cli.double_down import GAME, print_double_down
        from croupier.registry import find_game

        if find_game(game).name != GAME:
            raise fail(ScenarioError(f"--double-down: {GAME} only"))
        try:
            print_double_down(rules_file, settings, double_down, as_json)
        except CroupierError as exc:
            raise fail(exc) from None
        return
    if strategy is not None:
        from croupier.cli.ev import print_strategy_edge
        from croupier.registry import find_game

        if find_game(game).name != "double-back-jack":
            raise fail(ScenarioError("--strategy: double-back-jack only"))
        try:
            print_strategy_edge(rules_file, settings, strategy, as_json)
        except CroupierError as exc:
            raise fail(exc) from None
        return
    if rule_effects:
        from croupier.cli.ev import print_rule_effects
        from croupier.registry import find_game

        if find_game(game).name != "double-back-jack":
            raise fail(ScenarioError("--rule-effects: double-back-jack only"))
        print_rule_effects(rules_file, settings, as_json)
        return
    try:
        spec, rules = load_game_rules(game, rules_file, settings)
        analyzer = find_analyzer(spec.name)
        if analyzer is None:
            msg = f"no exact analysis for {spec.name}; use simulate"
            raise ScenarioError(msg)
        report = analyzer(rules)
    except CroupierError as exc:
        raise fail(exc) from None
    _emit(report, as_json, _favourable(spec.name, report))


def simulate(
    ctx: typer.Context,
    game: GameArg,
    rounds: Annotated[
        int,
        typer.Option(
            help="Rounds to play (at most 10^12).", min=1, max=MAX_ROUNDS
        ),
    ] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Seed of the streams.", min=0)] = 1,
    workers: Annotated[
        int,
        typer.Option(
            help="Processes (0 = all cores); with --cluster local, the "
            "local Dask workers.",
            min=0,
        ),
    ] = 1,
    chunk: Annotated[
        int, typer.Option(help="Rounds per seeded chunk.", min=1)
    ] = DEFAULT_CHUNK_ROUNDS,
    rules_file: RulesFile = None,
    settings: Settings = None,
    as_json: JsonFlag = False,
    plot: Annotated[
        Path | None, picture_file("PNG of the running edge and CI.")
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            help="Run the chunks on Dask: 'local' starts a local cluster of "
            "--workers processes, anything else is a scheduler address "
            "(tcp://host:8786). Same seed and chunk: same result."
        ),
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact/--no-exact",
            help="Print the exact edge and the z-score beside each "
            "estimate where an exact analysis exists.",
        ),
    ] = True,
    checkpoints: Annotated[
        int,
        typer.Option(
            help="With --plot: points on the running curve; the rounds "
            "are run in at least this many seeded chunks.",
            min=2,
        ),
    ] = 100,
) -> None:
    """Monte Carlo through real shoes: edge per wager with a 95 % CI.

    The progress bar counts seeded chunks done out of the total. The
    figures depend only on the seed and the chunk size (--plot makes
    the chunks at most rounds / --checkpoints).
    """
    source = ctx.get_parameter_source("checkpoints")
    if plot is None and source is not None and source.name == "COMMANDLINE":
        # the points of the running curve: without a curve, read by nothing
        raise fail(CommandError("--checkpoints is for --plot: give both"))
    try:
        spec, rules = load_game_rules(game, rules_file, settings)
        simulator = find_simulator(spec.name)
        if simulator is None:
            msg = f"no simulator for {spec.name}"
            raise ScenarioError(msg)
    except CroupierError as exc:
        raise fail(exc) from None
    count = workers if workers > 0 else (os.cpu_count() or 1)
    columns = (*Progress.get_default_columns(), MofNCompleteColumn())
    try:
        with Progress(
            *columns,
            TextColumn("chunks"),
            console=err_console,
            transient=True,
            disable=not err_console.is_terminal,
        ) as bar:
            where = f" on {cluster}" if cluster else ""
            task = bar.add_task(f"simulating {spec.name}{where}", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            size = _chunk_size(rounds, chunk, plot, checkpoints)
            report = run_simulation(
                spec.name,
                simulator,
                rules,
                rounds=rounds,
                seed=seed,
                workers=count,
                chunk_rounds=size,
                progress=progress,
                cluster=cluster,
                cluster_workers=count,
            )
    except CroupierError as exc:
        raise fail(exc) from None
    reference = None
    analyzer = find_analyzer(spec.name) if exact else None
    if analyzer is not None:
        from croupier.odds.present import align_with_exact

        reference = analyzer(rules)
        align_with_exact(report, reference)
    if plot is not None:
        from croupier.odds.plot import plot_running_edge

        plot_running_edge(report, plot, exact=reference)
    _emit(report, as_json)


def _chunk_size(
    rounds: int, chunk: int, plot: Path | None, checkpoints: int
) -> int:
    """The chunk size: ``--chunk``, finer with ``--plot``.

    Refused when it splits the rounds into more than
    :data:`~croupier.odds.chunks.MAX_CHUNKS` chunks.
    """
    size = min(chunk, rounds)
    if plot is not None:
        size = min(size, max(1, -(-rounds // checkpoints)))
    if too_many_chunks(rounds, size):
        msg = (
            f"--rounds {rounds:,} in chunks of {size:,} makes more than "
            f"{MAX_CHUNKS:,} chunks: raise --chunk (or lower --checkpoints)"
        )
        raise CommandError(msg)
    return size


def strategy(
    game: GameArg = "double-back-jack",
    rules_file: RulesFile = None,
    settings: Settings = None,
    png: Annotated[
        Path | None, picture_file("Write the chart as a picture.")
    ] = None,
    as_json: JsonFlag = False,
    margins: Annotated[
        bool,
        typer.Option(
            "--margins",
            help="Show each cell's EV margin over the second-best action.",
        ),
    ] = False,
) -> None:
    """The composition-dependent strategy chart of Double Back Jack."""
    try:
        spec, rules = load_game_rules(game, rules_file, settings)
        if spec.name != "double-back-jack":
            msg = "strategy charts exist for double-back-jack only"
            raise ScenarioError(msg)
        from croupier.games.double_back_jack.rules import (
            DoubleBackJackRules,
        )
        from croupier.odds.double_back_jack import (
            strategy_chart,
        )
    except CroupierError as exc:
        raise fail(exc) from None
    if not isinstance(rules, DoubleBackJackRules):  # pragma: no cover
        msg = f"unexpected rules type {type(rules).__name__}"
        raise TypeError(msg)
    chart = strategy_chart(rules)
    if png is not None:
        chart.plot(png, margins=margins)
    if as_json:
        print(json.dumps(chart.to_dict(), indent=2))
        return
    console.print(chart.rich_table(margins=margins))
