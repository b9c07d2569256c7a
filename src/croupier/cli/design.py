"""``croupier design``: integer paytables whose exact hold is in range.

The search itself is :func:`croupier.odds.design.design`; this module
parses the command line, prints the tables found (or, with ``--price``,
the exact figures of one table) and the JSON form.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Annotated

import typer
from rich.table import Table as RichTable

from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import (
    console,
    fail,
    load_game_rules,
    notice,
    warn_favourable,
)
from croupier.errors import CroupierError, RulesError
from croupier.money import Odds
from croupier.odds.design import (
    DEFAULT_MAX_NODES,
    RANKINGS,
    DesignError,
    DesignResult,
    WagerSpace,
    find_space,
    space_for_rules,
    with_base,
)
from croupier.odds.design import (
    design as run_design,
)
from croupier.odds.favour import player_favourable
from croupier.rules import GameRules

__all__ = ["design", "parse_hold_range"]


def _percent(text: str) -> Fraction:
    raw = text.strip().removesuffix("%").strip()
    try:
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        msg = f"{text!r} is not a percentage such as 5.8"
        raise DesignError(msg) from None
    return value / 100


def parse_hold_range(text: str) -> tuple[Fraction, Fraction]:
    """``"5.8..8.0"`` (percent) as exact fractions ``(0.058, 0.08)``.

    >>> parse_hold_range("5.8..8")
    (Fraction(29, 500), Fraction(2, 25))
    >>> parse_hold_range("7.6113")
    (Fraction(76113, 1000000), Fraction(76113, 1000000))
    """
    low, sep, high = text.partition("..")
    if not sep:
        high = low
    bounds = _percent(low), _percent(high)
    if bounds[0] > bounds[1]:
        msg = f"--target-hold {text}: the low hold is above the high one"
        raise DesignError(msg)
    if bounds[0] < 0 or bounds[1] >= 1:
        msg = f"--target-hold {text}: a hold is from 0 to below 100 (%)"
        raise DesignError(msg)
    return bounds


def _names(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [n.strip() for n in text.split(",") if n.strip()]


def _decks(text: str | None, rules: GameRules) -> tuple[int, ...]:
    """The deck counts of ``--decks``, each within the rules' bounds."""
    if text is None:
        return ()
    try:
        counts = tuple(int(n) for n in text.split(",") if n.strip())
    except ValueError:
        msg = f"--decks takes deck counts such as 2,3, not {text!r}"
        raise DesignError(msg) from None
    if hasattr(rules, "decks"):  # else one fixed deck (the space says so)
        for count in counts:
            try:  # the rules' own bounds of their decks option
                rules.with_overrides({"decks": count})
            except RulesError as exc:
                msg = f"--decks {count}: {exc}"
                raise DesignError(msg) from None
    return counts


def _base_changes(items: list[str] | None) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for item in items or []:
        name, sep, odds = item.partition("=")
        if not sep:
            msg = f"--base takes category=N:1, not {item!r}"
            raise DesignError(msg)
        try:
            value = Odds.parse(odds.strip()).fraction
        except ValueError:
            if odds.strip() not in ("0", "none"):
                msg = f"--base {name}: {odds!r} is not odds such as 40:1"
                raise DesignError(msg) from None
            value = Fraction(0)
        out[name.strip()] = value
    return out


def _label(category: str) -> str:
    return category.replace("_", " ")


def _print_price(space: WagerSpace, decks: tuple[int, ...]) -> None:
    # every price first: a deck count the wager refuses (pai gow's one
    # deck) is an error before anything is printed, not after the table
    priced = [(d, space.evaluate(space.base, d)) for d in decks]
    console.print(f"{space.game} {space.wager}: the base table priced")
    table = RichTable()
    table.add_column("category")
    table.add_column("pays", justify="right")
    for category in space.categories:
        odds = space.base.get(category)
        table.add_row(_label(category), _odds_text(odds))
    console.print(table)
    for d, figures in priced:
        console.print(
            f"{_decks_text(d)}: hold {100 * float(figures.hold):.4f} % "
            f"(exact {figures.hold}), σ {figures.sigma:.4f}"
        )


def _decks_text(decks: int) -> str:
    return f"{decks} deck{'s' if decks != 1 else ''}"


def _odds_text(odds: Fraction | None) -> str:
    if odds is None:
        return "loses"
    return f"{odds.numerator}:{odds.denominator}"


def _print_result(result: DesignResult) -> None:
    space = result.space
    first = result.candidates[0].odds if result.candidates else {}
    cats = [c for c in space.categories if c in first]
    deck_text = " and ".join(_decks_text(d) for d in result.decks)
    found = f"{result.found:,} table{'s' if result.found != 1 else ''}"
    console.print(f"{space.game} {space.wager} (option {space.option})")
    console.print(
        f"hold {100 * float(result.low):.4f}–{100 * float(result.high):.4f} "
        f"% at {deck_text}: {found} ({result.nodes:,} search nodes)"
    )
    aim = (
        f", aiming at {100 * float(result.target):.4f} %"
        if result.rank == "target"
        else ""
    )
    console.print(f"ranked by {result.rank}{aim}")
    if not result.candidates:
        console.print("no integer table meets the range")
        return
    console.print("paytable, N:1, highest rank first:")
    console.print("  " + " / ".join(_label(c) for c in cats))
    table = RichTable()
    table.add_column("#", justify="right")
    table.add_column("paytable")
    for d in result.decks:
        table.add_column(f"hold {d}d", justify="right")
    table.add_column(f"σ {result.decks[-1]}d", justify="right")
    table.add_column("chg", justify="right")
    for i, candidate in enumerate(result.candidates, 1):
        holds = [f"{100 * float(e.hold):.4f} %" for e in candidate.evaluations]
        table.add_row(
            str(i),
            "/".join(str(candidate.odds[c]) for c in cats),
            *holds,
            f"{candidate.evaluations[-1].sigma:.4f}",
            str(candidate.changes),
        )
    console.print(table)


def design(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    wager: Annotated[
        str,
        typer.Argument(
            help="Designable wager: bonus (21-baccarat), perfect_pairs, "
            "dragon7, panda8, fortune_bonus."
        ),
    ],
    target_hold: Annotated[
        str | None,
        typer.Option(
            "--target-hold",
            help="Accepted hold in percent, LO..HI (5.8..8.0) or one value.",
        ),
    ] = None,
    decks: Annotated[
        str | None,
        typer.Option(
            help="Deck counts every table must satisfy (2,3; default: the "
            "rules' decks, 21 Baccarat's Bonus 2 and 3 when they are 2 "
            "or 3)."
        ),
    ] = None,
    categories: Annotated[
        str | None,
        typer.Option(
            help="Categories to search (comma-separated; default: those of "
            "the base table). The base table's others keep their odds."
        ),
    ] = None,
    base: Annotated[
        list[str] | None,
        typer.Option(
            help="Change the base table: category=N:1 (0: not paid). "
            "Repeatable."
        ),
    ] = None,
    target: Annotated[
        float | None,
        typer.Option(help="Hold to aim at, percent (default: mid-range)."),
    ] = None,
    rank: Annotated[
        str,
        typer.Option(
            help="Ranking: target (closest hold), sigma (lowest), changes "
            "(fewest from the base table)."
        ),
    ] = "target",
    any_order: Annotated[
        bool,
        typer.Option(
            "--any-order",
            help="Allow odds that are not monotone in rank (wagers whose "
            "categories exclude each other only).",
        ),
    ] = False,
    min_odds: Annotated[
        int, typer.Option(help="Smallest N:1 tried (0 or more).")
    ] = 1,
    max_odds: Annotated[
        int | None,
        typer.Option(
            help="Largest N:1 tried (default: twice the category's base "
            "odds, at least 50)."
        ),
    ] = None,
    top: Annotated[int, typer.Option(help="Tables to print.", min=1)] = 10,
    max_nodes: Annotated[
        int,
        typer.Option(help="Give up after this many search nodes.", min=1),
    ] = DEFAULT_MAX_NODES,
    price: Annotated[
        bool,
        typer.Option(
            "--price",
            help="Only price the base table (with --base changes).",
        ),
    ] = False,
    rules_file: RulesFile = None,
    settings: Settings = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON output.")
    ] = False,
) -> None:
    """Search integer N:1 paytables whose exact hold is in a range.

    Exact, from croupier's enumerations: the category counts are
    computed once per deck count, then the search runs over payouts.
    """
    try:
        spec, rules = load_game_rules(game, rules_file, settings)
        space = with_base(
            space_for_rules(find_space(spec.name, wager), rules),
            _base_changes(base),
        )
        deck_counts = _decks(decks, rules) or space.default_decks
        not_offered = _not_offered(space, rules)
        if price:
            favourable = _favourable(space, deck_counts)
            if as_json:
                figures = {str(d): _figures(space, d) for d in deck_counts}
                out = {
                    "game": space.game,
                    "wager": space.wager,
                    "paytable": {
                        c: _odds_text(o) for c, o in space.base.items()
                    },
                    "decks": figures,
                    "player_favourable": favourable,
                    "offered": not_offered is None,
                }
                print(json.dumps(out, indent=2))
            else:
                _print_price(space, deck_counts)
            _note(not_offered, as_json)
            warn_favourable(favourable, as_json)
            return
        if target_hold is None:
            msg = "--target-hold LO..HI is required (or --price)"
            raise DesignError(msg)
        if rank not in RANKINGS:
            msg = f"--rank must be one of {', '.join(RANKINGS)}"
            raise DesignError(msg)
        low, high = parse_hold_range(target_hold)
        _check_odds_bounds(min_odds, max_odds)
        if target is not None and not math.isfinite(target):
            msg = f"--target {target}: give a hold in percent, such as 6.5"
            raise DesignError(msg)
        result = run_design(
            space,
            low=low,
            high=high,
            decks=deck_counts,
            categories=_names(categories),
            target=None if target is None else Fraction(str(target)) / 100,
            rank=rank,
            monotone=not any_order,
            min_odds=min_odds,
            max_odds=max_odds,
            top=top,
            max_nodes=max_nodes,
        )
    except CroupierError as exc:
        raise fail(exc) from None
    favourable = _favourable(space, deck_counts)
    if as_json:
        data: dict[str, object] = dict(result.to_dict())
        data["player_favourable"] = favourable
        data["offered"] = not_offered is None
        print(json.dumps(data, indent=2))
    else:
        _print_result(result)
    _note(not_offered, as_json)
    warn_favourable(favourable, as_json)


def _favourable(
    space: WagerSpace, decks: tuple[int, ...]
) -> list[dict[str, object]]:
    """The base table (the rules in force) where it favours the player.

    One warning per deck count whose exact hold is negative (D146).
    """
    out: list[dict[str, object]] = []
    for count in decks:
        hold = space.evaluate(space.base, count).hold
        for item in player_favourable(space.game, {space.wager: float(hold)}):
            out.append(
                {
                    **item,
                    "decks": count,
                    "house_edge_exact": str(hold),
                    "message": f"{item['message']} at {_decks_text(count)}",
                }
            )
    return out


def _not_offered(space: WagerSpace, rules: GameRules) -> str | None:
    """Why ``rules`` do not offer the wager designed, if they do not (D162).

    A game whose side wager can be left off says so in an option
    ``<wager>_offered`` (Perfect Pairs, Dragon 7, Panda 8, Fortune
    Bonus); 21 Baccarat's Bonus has none. A designer may well price a
    wager before offering it, so the figures are still given, with a
    note that the Rules Submission does not offer it.

    >>> from croupier.games.midibaccarat.rules import MidibaccaratRules
    >>> from croupier.odds.design import find_space
    >>> space = find_space("midibaccarat", "perfect_pairs")
    >>> _not_offered(space, MidibaccaratRules()) is None
    True
    >>> off = MidibaccaratRules.from_mapping({"perfect_pairs_offered": False})
    >>> print(_not_offered(space, off))  # doctest: +ELLIPSIS
    the rules in force do not offer perfect_pairs (perfect_pairs_offered = f...
    """
    option = f"{space.wager}_offered"
    if getattr(rules, option, True):
        return None
    return (
        f"the rules in force do not offer {space.wager} ({option} = "
        "false): its figures are for the table as if it were offered"
    )


def _note(text: str | None, as_json: bool) -> None:
    """Print a note, if there is one (on standard error with ``--json``)."""
    if text is not None:
        notice("[bold]note:[/bold]", text, as_json)


def _check_odds_bounds(min_odds: int, max_odds: int | None) -> None:
    """Refuse a negative ``--min-odds`` or ``--max-odds``."""
    for option, value in (("--min-odds", min_odds), ("--max-odds", max_odds)):
        if value is not None and value < 0:
            msg = (
                f"{option} {value}: odds N:1 are never negative; give an N "
                "of 0 or more"
            )
            raise DesignError(msg)


def _figures(space: WagerSpace, decks: int) -> dict[str, object]:
    evaluation = space.evaluate(space.base, decks)
    return {
        "hold": float(evaluation.hold),
        "hold_exact": str(evaluation.hold),
        "sigma": evaluation.sigma,
    }
