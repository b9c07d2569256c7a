"""The Markdown and findings of the known-cards section (D50).

Pure presentation: :func:`croupier.protect.known.sections` computes the
figures and passes them here.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.protect._known_shapes import CoupModel, KnownEdge, SortSplit
from croupier.protect.base import Finding

__all__ = ["findings", "markdown"]

_DEALING = {
    "midibaccarat": (
        "Positions under the seed regulation: the first card out of the "
        "shoe after the 629a.5(f) burn (the exposed burn card and the "
        "cards burned face down with it belong to no coup) is card 1. "
        "629a.8(c) (not retrieved; its two options inferred from "
        "627a.8) deals Player, Banker, Player, Banker: face up under "
        "(c)(1), face down under (c)(2) with the Banker cards held "
        "under the shoe until the Player's Hand is called; the third "
        "cards follow in drawing order (629a.9, 629a.10), so card 5 is "
        "the Player's third card, or the Banker's when the Player "
        "stands. Wagers close before the first card is dealt, so no "
        "card of the coup is visible to a player under either option: "
        "an edge exists only if a card is seen early (a flashed or "
        "exposed card, a marked back, or a back whose pattern shows "
        "its group while it sits in the shoe: the top card, card 1, is "
        "the one in view, which is the one-card edge sort below)."
    ),
    "21-baccarat": (
        "Positions under the seed regulation: after the 681a.7(c) burn, "
        "681a.7(e) deals face up, once every wager is placed, Player, "
        "Banker, Player, Banker; the third cards follow in drawing "
        "order (g) (a Bonus-only card of (f)(2) takes the same place "
        "in the shoe order and never counts). No card of the coup is "
        "visible before wagering closes; an edge exists only if one is "
        "seen early (a flashed card, a marked back, or the top card's "
        "back in the shoe: card 1)."
    ),
}
_REMEDY_KNOWN = (
    "none needed while every wager closes before the first card leaves "
    "the shoe; a card seen early (flashed, exposed, marked) gives this "
    "edge: keep the top card hidden in the shoe and treat an exposed "
    "card as an irregularity"
)
_REMEDY_SORT = (
    "cards whose backs look the same both ways up (no one-way "
    "pattern), and a shuffle that turns part of the stack "
    "(automatic shufflers rotate cards)"
)
_REF = {"midibaccarat": "629a.8(c)", "21-baccarat": "681a.7(e)"}
_SORT_REF = {"midibaccarat": "629a.5(a)", "21-baccarat": "681a.7(d)(2)"}


def _pct(value: Fraction | float) -> str:
    return f"{float(value):.3%}"


def _family(game: str) -> str:
    return "21-baccarat" if game == "21-baccarat" else "midibaccarat"


def _table(rows: list[KnownEdge], wagers: list[str]) -> list[str]:
    head = ["known before wagering", "best wager", "bets", "when betting"]
    lines = [
        "| " + " | ".join(head + wagers) + " |",
        "|" + " --- |" * (len(head) + len(wagers)),
    ]
    for r in rows:
        cells = [
            r.information,
            _pct(r.edge),
            _pct(r.bet_frequency),
            _pct(r.edge_when_betting),
        ] + [_pct(r.by_wager[w]) for w in wagers]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(
    model: CoupModel,
    wagers: list[str],
    first: list[KnownEdge],
    single: list[KnownEdge],
    sorts: list[KnownEdge],
    best: list[tuple[KnownEdge, dict[str, SortSplit]]],
    evs: dict[str, dict[str, float]],
) -> str:
    out = [
        "Exact, over the full shoe's ordered card sequences. Per coup: "
        "the player bets one unit on the wager of highest expectation "
        "given what he knows when it is positive, nothing otherwise "
        "(*best wager*, among the wagers settled on the coup's totals); "
        "*bets* is how often, *when betting* the edge per unit bet; a "
        "wager's column bets that wager alone when it is positive. "
        "Card classes: "
        + ", ".join(model.classes)
        + " (ranks of equal value are one class; Perfect Pairs use the "
        "13 ranks). D50.",
        "",
        _DEALING[_family(model.game)],
        "",
        "### The first k cards known",
        "",
        *_table(first, wagers),
        "",
        "### One card position known",
        "",
        *_table(single, wagers),
        "",
        "### Edge sorting: only each card's group known",
        "",
        *_table(sorts + [b for b, _ in best], wagers),
        "",
        "Each wager's own best split:",
        "",
        "| cards sorted | " + " | ".join(wagers) + " |",
        "|" + " --- |" * (len(wagers) + 1),
    ]
    for k, (_, per) in enumerate(best, start=1):
        cells = []
        for w in wagers:
            one, zero = per[w]["groups"]
            cells.append(
                f"{_pct(per[w]['edge'])} ({{{', '.join(one)}}} / "
                f"{{{', '.join(zero)}}})"
            )
        out.append(f"| {k} | " + " | ".join(cells) + " |")
    cell_wagers = [w for w in wagers if w in model.wagers]
    out += [
        "",
        "### Each wager's expectation given card 1",
        "",
        "| card 1 | " + " | ".join(cell_wagers) + " |",
        "|" + " --- |" * (len(cell_wagers) + 1),
    ]
    for label, row in evs.items():
        out.append(
            f"| {label} | "
            + " | ".join(f"{row[w]:+.4%}" for w in cell_wagers)
            + " |"
        )
    if model.game.startswith("midibaccarat"):
        out += [
            "",
            "Published figures reproduced by the tests (punto banco, 8 "
            "decks, Banker 19:20, Tie 8:1): one sorted card {6, 7, 8, 9} "
            "gives 6.765 % and four 20.928 % (E. Jacobson, *Edge "
            "Sorting in Baccarat*, 2012), the best four-card split "
            "30.291 % (F. Roach, in Jacobson's *Update #1*); a first "
            "card of 9 gives the Player Wager +21.53 % (excelpunks, "
            "*Baccarat 1st Card Advantage*, 2018).",
        ]
    return "\n".join(out) + "\n"


def findings(
    model: CoupModel,
    wagers: list[str],
    first: KnownEdge,
    sort: dict[str, SortSplit],
) -> tuple[Finding, ...]:
    family = _family(model.game)
    found = []
    for w in wagers:
        edge = first.by_wager[w]
        found.append(
            Finding(
                wager=w,
                method="known_card",
                beatable=False,  # wagers close before the deal (D50)
                player_edge=float(edge),
                per=(
                    "per coup, betting only when positive, if card 1 "
                    "were seen before wagering closes"
                ),
                remedy=_REMEDY_KNOWN if edge > 0 else "none needed",
                ref=_REF[family],
            )
        )
        s = sort[w]["edge"]
        one, zero = sort[w]["groups"]
        found.append(
            Finding(
                wager=w,
                method="edge_sort",
                beatable=s > 0,
                player_edge=float(s),
                per=(
                    "per coup, betting only when positive, card 1's "
                    f"group known ({{{', '.join(one)}}} / "
                    f"{{{', '.join(zero)}}})"
                ),
                remedy=_REMEDY_SORT if s > 0 else "none needed",
                ref=_SORT_REF[family],
            )
        )
    return tuple(found)
