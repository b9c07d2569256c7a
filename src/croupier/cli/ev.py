"""``croupier ev`` and ``croupier analyze --rule-effects`` (issue 14).

Both use the exact CDZ- analyzer of Double Back Jack
(:mod:`croupier.odds.double_back_jack.ca`), whose options
(:class:`~croupier.odds.double_back_jack.carules.CARules`) span
ordinary blackjack: ``--rules FILE`` and ``--set key=value`` take those
option names, and ``--ordinary`` starts from ordinary blackjack instead
of the Double Back Jack defaults.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.table import Table as RichTable

from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import console, warn_favourable
from croupier.errors import RulesError, ScenarioError
from croupier.jsontypes import json_text
from croupier.odds.favour import player_favourable
from croupier.rules import load_rules_file, parse_settings

if TYPE_CHECKING:
    from croupier.odds.double_back_jack.carules import CARules

__all__ = ["ev", "parse_cards", "parse_shoe", "print_rule_effects"]

GAME = "double-back-jack"
CARD_NAMES = {
    "A": 1, "1": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10,
    **{str(v): v for v in range(2, 10)},
}  # fmt: skip
LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
DECKS_FOR_EFFECTS = (1, 2, 6, 8)
"""Deck counts of the rule-effect table."""


def parse_cards(text: str, key: str = "hand") -> list[int]:
    """Value indices of ``A,2,10`` / ``A-2-T`` (J, Q, K count 10).

    >>> parse_cards("A-t,k")
    [1, 10, 10]
    """
    cards = []
    for part in text.replace("-", ",").split(","):
        name = part.strip().upper()
        if name not in CARD_NAMES:
            msg = f"unknown card {part!r} (A, 2-9, 10/T/J/Q/K)"
            raise RulesError(msg, key=key)
        cards.append(CARD_NAMES[name])
    return cards


def parse_shoe(text: str) -> np.ndarray:
    """Counts per value index from ``6`` (decks) or ten counts A..10.

    >>> parse_shoe("1").tolist()
    [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
    >>> parse_shoe("0,4,4,2,0,0,2,0,0,7")[1:].sum()
    np.int64(19)
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        numbers = [int(p.removesuffix("d")) for p in parts]
    except ValueError:
        msg = f"{text!r}: a number of decks or ten counts A,2,...,10"
        raise RulesError(msg, key="shoe") from None
    if len(numbers) == 1 and numbers[0] > 0:
        counts = np.full(11, 4 * numbers[0], dtype=np.int64)
        counts[10] = 16 * numbers[0]
    elif len(numbers) == 10 and min(numbers) >= 0:
        counts = np.array([0, *numbers], dtype=np.int64)
    else:
        msg = f"{text!r}: a number of decks or ten counts A,2,...,10"
        raise RulesError(msg, key="shoe")
    counts[0] = 0
    return counts


def _ca_rules(
    rules_file: Path | None, settings: list[str] | None, ordinary: bool
) -> tuple[CARules, tuple[str, ...], list[str]]:
    """The analyzer's rules, the options left out and the sources of decks.

    The file, then ``--set``, each read by
    :meth:`~croupier.odds.double_back_jack.carules.CARules.with_submission`
    (the game's Rules Submission or the analyzer's options). The third
    item names where ``decks`` was given (``--rules FILE: decks = 2``).
    """
    from croupier.odds.double_back_jack.carules import CARules

    rules = CARules.ordinary() if ordinary else CARules()
    left_out: list[str] = []
    decks: list[str] = []
    sources = []
    if rules_file is not None:
        sources.append((f"--rules {rules_file}:", load_rules_file(rules_file)))
    if settings:
        sources.append(("--set", parse_settings(settings)))
    for where, mapping in sources:
        rules, unread = rules.with_submission(mapping)
        left_out += [name for name in unread if name not in left_out]
        if "decks" in mapping:
            decks.append(f"{where} decks={json_text(mapping['decks'])}")
    return rules, tuple(left_out), decks


def _refuse_other_decks(shoe: str, rules: CARules, given: list[str]) -> None:
    """Refuse a ``decks`` (file or ``--set``) the shoe contradicts.

    The shoe is ``--shoe``'s: a number of decks that is not it, or
    counts that many decks cannot hold, was read by nothing.
    """
    if not given:
        return
    counts = parse_shoe(shoe)
    full = parse_shoe(str(rules.decks))
    if shoe.strip().removesuffix("d").strip().isdigit():
        agrees = bool((counts == full).all())
    else:
        agrees = bool((counts <= full).all())
    if not agrees:
        msg = (
            f"--shoe {shoe} gives the shoe (--shoe 2 for two decks, or the "
            f"counts of A..10); {given[-1]} says otherwise"
        )
        raise RulesError(msg, key="decks")


def ev(
    game: Annotated[str, typer.Argument(help="double-back-jack")],
    shoe: Annotated[
        str,
        typer.Option(
            "--shoe",
            help="Decks (6) or counts of A,2,...,10 before the hand and "
            "up card are dealt (0,4,4,2,0,0,2,0,0,7).",
        ),
    ],
    hand: Annotated[
        str, typer.Option("--hand", help="The hand's cards: 2,2 or A-7.")
    ],
    up: Annotated[str, typer.Option("--up", help="The dealer's up card.")],
    rules_file: RulesFile = None,
    settings: Settings = None,
    ordinary: Annotated[
        bool,
        typer.Option("--ordinary", help="Start from ordinary blackjack."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="JSON.")] = False,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            help="Post-split strategy: cdz- (pre-split play), cdp1 (best "
            "for the first split hand), cdp (each hand knows all cards "
            "seen); one split for cdp1/cdp (D61).",
        ),
    ] = "cdz-",
) -> None:
    """Exact value of every action of a hand against an up card."""
    from croupier.odds.double_back_jack.cdp import evaluate_hand_strategy

    if game != GAME:
        msg = f"croupier ev knows {GAME} only, not {game!r}"
        raise ScenarioError(msg)
    rules, left_out, decks = _ca_rules(rules_file, settings, ordinary)
    _refuse_other_decks(shoe, rules, decks)
    cards = parse_cards(hand)
    up_cards = parse_cards(up, key="up")
    if len(up_cards) != 1:
        msg = "one up card"
        raise RulesError(msg, key="up")
    result = evaluate_hand_strategy(
        rules, parse_shoe(shoe), cards, up_cards[0], strategy
    )
    result["rules"] = rules.to_dict()
    result["not_in_the_analysis"] = list(left_out)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    names = "-".join(LABELS[c - 1] for c in cards)
    cond = (
        ", given no dealer Blackjack"
        if result["conditioned_on_no_dealer_blackjack"]
        else ""
    )
    table = RichTable(
        title=f"{names} against {LABELS[up_cards[0] - 1]} · "
        f"{result['strategy']} exact{cond}"
    )
    table.add_column("action")
    table.add_column("EV %", justify="right")
    actions: dict[str, float] = dict(result["actions"])  # type: ignore[call-overload]
    for name, value in sorted(actions.items(), key=lambda kv: -kv[1]):
        mark = " (best)" if name == result["best"] else ""
        table.add_row(name + mark, f"{100 * value:+.9f}")
    console.print(table)
    counts = ",".join(str(c) for c in result["shoe_before_deal"])  # type: ignore[attr-defined]
    options = rules.describe().split(", ", 1)
    console.print(
        f"[dim]shoe A..10 before the deal: {counts}; "
        f"{options[1] if len(options) > 1 else 'Double Back Jack defaults'}"
        f"; engine: {result['engine']}{_unread(left_out)}[/dim]"
    )


def _unread(left_out: tuple[str, ...]) -> str:
    """The footer's note of the options the analysis does not model."""
    if not left_out:
        return ""
    return (
        "; table options read but not in the analysis (they do not change "
        "a box's expectation): " + ", ".join(left_out)
    )


def print_rule_effects(
    rules_file: Path | None, settings: list[str] | None, as_json: bool
) -> None:
    """From ordinary blackjack to Double Back Jack, rule by rule."""
    from croupier.odds.double_back_jack.ca import rule_effects

    base, _, _ = _ca_rules(rules_file, settings, ordinary=True)
    tables: list[dict[str, Any]] = [
        rule_effects(d, base) for d in DECKS_FOR_EFFECTS
    ]
    favourable = _favourable_effects(tables)
    if as_json:
        print(
            json.dumps(
                {
                    "game": GAME,
                    "rule_effects": tables,
                    "player_favourable": favourable,
                },
                indent=2,
            )
        )
    else:
        _print_effects(tables)
    warn_favourable(favourable, as_json)


def _favourable_effects(
    tables: list[dict[str, Any]],
) -> list[dict[str, object]]:
    """The deck counts at which the rules in force favour the player.

    The last row of each table, the Double Back Jack edge with every
    rule in force, is judged as ``analyze`` judges an edge (D146), once
    per deck count (D164).
    """
    out: list[dict[str, object]] = []
    for table in tables:
        edge = float(table["double_back_jack_house_edge"])
        for item in player_favourable(GAME, {"blackjack": edge}):
            decks = int(table["decks"])
            where = f"{decks} deck{'s' if decks > 1 else ''}"
            out.append(
                {
                    **item,
                    "decks": decks,
                    "message": f"{item['message']} at {where}",
                }
            )
    return out


def _print_effects(tables: list[dict[str, Any]]) -> None:
    """The rule effects as one table, or two where one does not fit."""
    wide = _effects_table(tables, ("alone", "in order"))
    unbounded = console.options.update_width(10_000)
    if console.measure(wide, options=unbounded).maximum <= console.width:
        console.print(wide)
        return
    # Eight columns of figures do not fit: one table of each rule alone,
    # one of the rules in order, so that no figure is cut short.
    for kind in ("alone", "in order"):
        console.print(_effects_table(tables, (kind,)))


def _effects_table(
    tables: list[dict[str, Any]], kinds: tuple[str, ...]
) -> RichTable:
    """The rule effects, a column per deck count and kind of effect.

    ``kinds`` are ``"alone"`` and ``"in order"``; the edges of ordinary
    blackjack and of Double Back Jack are the rows that frame them.
    """
    title = (
        "Double Back Jack rule effects on the house edge "
        "(exact, CDZ-; points of the wager; + = house)"
    )
    if kinds == ("alone",):
        title += ": each rule alone, from ordinary blackjack"
    elif kinds == ("in order",):
        title += ": the rules one after another, in Rules Submission order"
    table = RichTable(title=title)
    table.add_column("rule", overflow="fold")
    for t in tables:
        for kind in kinds:
            # One kind: the title names it, the column the deck count.
            name = f"{t['decks']}D" + (f" {kind}" if len(kinds) > 1 else "")
            table.add_column(name, justify="right")

    def figure(value: float) -> str:
        return f"{100 * value:+.4f}"

    ordinary = [
        figure(t["ordinary"]["house_edge"]) if kind == "alone" else ""
        for t in tables
        for kind in kinds
    ]
    if kinds == ("in order",):
        ordinary = [figure(t["ordinary"]["house_edge"]) for t in tables]
    table.add_row("ordinary blackjack (edge)", *ordinary)
    for k, step in enumerate(tables[0]["steps"]):
        row = [
            figure(t["steps"][k]["alone" if kind == "alone" else "in_order"])
            for t in tables
            for kind in kinds
        ]
        table.add_row(f"{step['ref']} {step['option']}={step['value']}", *row)
    if "in order" in kinds:
        table.add_row(
            "Double Back Jack (edge)",
            *[
                figure(t["double_back_jack_house_edge"])
                if kind == "in order"
                else ""
                for t in tables
                for kind in kinds
            ],
        )
    return table


def print_strategy_edge(
    rules_file: Path | None,
    settings: list[str] | None,
    strategy: str,
    as_json: bool,
) -> None:
    """``analyze --strategy``: the exact edge of one named strategy."""
    from croupier.odds.double_back_jack.cdp import solve_strategy

    rules, left_out, _ = _ca_rules(rules_file, settings, ordinary=False)
    data: dict[str, Any] = {"game": GAME, "rules": rules.to_dict()}
    data["not_in_the_analysis"] = list(left_out)
    data |= solve_strategy(rules, strategy).to_dict()
    # a Rules Submission may make the strategy's edge negative (D146)
    favourable = player_favourable(GAME, {"blackjack": data["house_edge"]})
    data["player_favourable"] = favourable
    if as_json:
        print(json.dumps(data, indent=2))
        warn_favourable(favourable, as_json)
        return
    sigma = data.get("std_dev")
    spread = (
        f", σ {sigma:.4f} ({data['std_dev_method']})"
        if sigma is not None
        else ""
    )
    console.print(
        f"{data['strategy']}: house edge {100 * data['house_edge']:.4f} % "
        f"(exact){spread}; CDZ- {100 * data['cdz_house_edge']:.4f} %, "
        f"difference {100 * data['minus_cdz']:+.4f} points"
    )
    console.print(
        f"[dim]{rules.describe()}; {data['seconds']:.2f} s"
        f"{_unread(left_out)}[/dim]"
    )
    warn_favourable(favourable, as_json)
