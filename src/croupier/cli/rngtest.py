"""``croupier rng-test``: the § 810a.5 battery on a source of shuffles.

Exit 0 when the source passes every test (after Holm's correction at
95 %), 1 when any test rejects it, 2 on bad input.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table as RichTable

from croupier.cli.common import console, fail, load_game_rules
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.rngtest.results import TooFewShufflesError

__all__ = ["rng_test"]

HOLM_NOTE = (
    "Holm's step-down correction: the p-values are sorted, the smallest "
    "is compared with 0.05/m, the next with 0.05/(m-1), and so on; the "
    "adjusted p-value is what is compared with 0.05. A good shuffler "
    "fails any of the m tests with probability at most 5 %."
)


DEFAULT_SHUFFLES = 1000
"""Shuffles drawn from ``live`` or a bad shuffler without ``--shuffles``."""


def _too_few(
    exc: TooFewShufflesError, source: str, game: str, generated: bool
) -> CroupierError:
    """Too few shuffles, in the words of the option or file that gave them."""
    if exc.minimum is None:
        return exc
    count = exc.shuffles
    given = (
        f"--shuffles {count} is"
        if generated
        else f"{'stdin' if source == '-' else source} holds {count} "
        f"shuffle{'' if count == 1 else 's'},"
    )
    # which test the count falls short of says nothing of an empty file
    why = f" ({exc.reason})" if count else ""
    return CroupierError(
        f"{given} too few for {game}'s shoe of {exc.cards} cards: the "
        f"battery needs at least {exc.minimum} shuffles of it{why}"
    )


def rng_test(
    source: Annotated[
        str,
        typer.Option(
            help="live (croupier's shuffler), a file of shuffles (one "
            "per line, card codes; gzip, bzip2 or xz too; - for stdin), or "
            "a known-bad shuffler: naive-swap, riffle-3, cut-region-fixed."
        ),
    ] = "live",
    game: Annotated[
        str, typer.Option(help="The game whose shoe is shuffled.")
    ] = "double-back-jack",
    shuffles: Annotated[
        int | None,
        typer.Option(
            min=2,
            help="Shuffles to draw (live, bad; default 1000). A file is "
            "tested on every shuffle it holds.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Seed the shuffler (live: SeededRng instead of the "
            "CSPRNG) and the battery's jitter, for a reproducible run.",
        ),
    ] = None,
    rules_file: Annotated[
        Path | None,
        typer.Option(
            "--rules",
            help="Rules Submission (decks...).",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    card_map_file: Annotated[
        Path | None,
        typer.Option(
            "--card-map",
            help="The device's codes to cards (JSON, TOML or 'code card' "
            "lines), for a file of shuffles in codes of its own.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")
    ] = False,
) -> None:
    """Run the § 810a.5 statistical tests on shuffled shoes."""
    from croupier.rngtest.battery import (
        ALPHA,
        TooFewShufflesError,
        check_shuffles,
        run_battery,
    )
    from croupier.rngtest.cardmap import load_card_map
    from croupier.rngtest.sources import (
        BAD_SHUFFLERS,
        bad_shuffles,
        fresh_shoe,
        live_shuffles,
        read_shuffle_file,
        read_shuffle_stream,
    )

    try:
        spec, rules = load_game_rules(game, rules_file, None)
        original = fresh_shoe(spec, rules)
        generated = source == "live" or source in BAD_SHUFFLERS
        if card_map_file is not None and generated:
            msg = (
                f"--card-map reads a file's device codes; --source {source} "
                "makes its own shuffles"
            )
            raise CroupierError(msg)
        if shuffles is not None and not generated:
            msg = (
                f"--shuffles draws live or bad shuffles; --source {source} "
                "is tested on every shuffle it holds"
            )
            raise CroupierError(msg)
        card_map = (
            None if card_map_file is None else load_card_map(card_map_file)
        )
        if shuffles is None:
            shuffles = DEFAULT_SHUFFLES
        if generated:
            # the count is known: refused before a shuffle is drawn
            check_shuffles(shuffles, original)
        if source == "live":
            drawn = live_shuffles(spec, rules, shuffles, seed=seed)
        elif source in BAD_SHUFFLERS:
            drawn = bad_shuffles(source, original, shuffles, seed=seed or 0)
        elif source == "-":
            drawn = read_shuffle_stream(
                sys.stdin.buffer, original, card_map=card_map
            )
        else:
            drawn = read_shuffle_file(
                Path(source), original, card_map=card_map
            )
        # the shuffles are read as the battery runs: a bad line of a file
        # is found there (exit 2, as before any test)
        battery = run_battery(drawn, original, seed=seed or 0)
    except TooFewShufflesError as exc:
        raise fail(_too_few(exc, source, spec.name, generated)) from None
    except CroupierError as exc:
        raise fail(exc) from None
    if as_json:
        print(
            json.dumps(
                {
                    "source": source,
                    "game": spec.name,
                    "shuffles": battery.shuffles,
                    "cards": battery.cards,
                    "alpha": ALPHA,
                    "correction": "holm",
                    "passed": battery.passed,
                    "tests": [
                        {
                            "name": r.name,
                            "statistic": r.statistic
                            if math.isfinite(r.statistic)
                            else None,
                            "p_value": r.p_value,
                            "adjusted_p": r.adjusted_p,
                            "passed": r.passed,
                            "detail": r.detail,
                        }
                        for r in battery.results
                    ],
                }
            )
        )
    else:
        table = RichTable(
            title=f"§ 810a.5 battery: {source}, {spec.name}, "
            f"{battery.shuffles} shuffles of {battery.cards} cards"
        )
        for column in ("test", "statistic", "p", "Holm p", "verdict"):
            table.add_column(column)
        for r in battery.results:
            table.add_row(
                r.name,
                f"{r.statistic:.4g}",
                f"{r.p_value:.3g}",
                f"{r.adjusted_p:.3g}",
                "pass" if r.passed else "FAIL",
            )
        console.print(table)
        console.print(HOLM_NOTE)
        console.print("PASS" if battery.passed else "FAIL")
    raise typer.Exit(0 if battery.passed else 1)
