"""Exact effects of removal of every wager (issue 16 point 1, D46).

The effect of removal (EoR) of a card is the exact change in the
wager's EV (per unit, the player's side) when that one card is taken
from the full shoe of the Rules Submission: ``EV(shoe - card) -
EV(shoe)``, both from the exact analyzer on that composition
(:mod:`croupier.protect.model`). *Per deck* is the per-card EoR times
the deck count (its size on a one-deck scale, the number a true count
multiplies). Where suits matter every one of the 52 card kinds is
computed; a full shoe is symmetric in the suits, so each suit of a rank
has the same EoR exactly, which the report checks and says.

The sum check is exact, not approximate: the next coup from the shoe
less one random card is the next coup from the shoe (the removed card
is a burn card nobody saw), so ``sum over the shoe's cards of EoR = 0``
as a fraction; the report gives the sum over one deck's 52 (53) cards.

Pai gow (670a.9) shuffles one 53-card deck before every round: no card
of one round tells anything about the next, so no count exists. Its
Fortune Bonus and Progressive EoRs are still reported (the effect of
one card known to be out of play, e.g. the dealer's exposed card), from
one pass over all C(53, 6) hands that counts, for each card, the hands
holding it.

>>> from croupier.games.midibaccarat.rules import CommissionFreeRules
>>> from croupier.protect.model import game_model
>>> table = wager_eors(game_model(CommissionFreeRules()).wager("dragon7"),
...                    8)
>>> table.sum_check
Fraction(0, 1)
>>> f"{100 * float(table.by_rank['9']):+.4f} %"
'+0.4785 %'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.hands.paigow import CATEGORY_KEYS
from croupier.hands.paigow_fast import binomials, five_card_table
from croupier.jsontypes import JsonObject
from croupier.protect import _kernels as pk
from croupier.protect.base import Section
from croupier.protect.model import (
    RANKS,
    GameModel,
    ProtectError,
    WagerModel,
    card_name,
    game_model,
)
from croupier.rules import GameRules, Paytable

__all__ = [
    "RANK_ORDER",
    "EorTable",
    "eor_section",
    "game_eors",
    "paigow_eors",
    "wager_eors",
]

RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""The order in which tables list ranks (Jacobson's)."""
PAIGOW_DECK = 53
"""The pai gow deck: 52 cards and the joker (code 52)."""


@dataclass(frozen=True, slots=True)
class EorTable:
    """The exact EoRs of one wager."""

    wager: str
    """The wager's name."""
    decks: int
    """Decks in the full shoe (1 for pai gow)."""
    ev: Fraction
    """The wager's EV per unit from the full shoe."""
    by_card: dict[int, Fraction]
    """EoR per card, by card code (every code that was computed)."""
    by_rank: dict[str, Fraction]
    """EoR per card by rank (``"A"`` ... ``"K"``, ``"Jk"``)."""
    weights: dict[str, int]
    """Cards of each rank in one deck (4; the joker 1)."""
    suits: bool
    """Whether suits matter to the wager (all 52 kinds computed)."""
    suits_equal: bool
    """Whether every suit of each rank had the same EoR (exactly)."""
    sum_check: Fraction
    """Sum of the per-card EoRs over one deck's cards (exactly 0)."""

    def to_json(self) -> JsonObject:
        """JSON-ready figures (floats; the sum check as a fraction)."""
        return {
            "wager": self.wager,
            "decks": self.decks,
            "ev": float(self.ev),
            "house_edge": float(-self.ev),
            "per_card": {r: float(v) for r, v in self.by_rank.items()},
            "per_deck": {
                r: float(v * self.decks) for r, v in self.by_rank.items()
            },
            "suits_matter": self.suits,
            "suits_equal": self.suits_equal,
            "by_card": (
                {card_name(c): float(v) for c, v in self.by_card.items()}
                if self.suits
                else {}
            ),
            "sum_check": str(self.sum_check),
        }


def _minus(full: npt.NDArray[np.int64], code: int) -> npt.NDArray[np.int64]:
    counts = full.copy()
    counts[code] -= 1
    return counts


def wager_eors(wager: WagerModel, decks: int) -> EorTable:
    """Exact EoRs of a baccarat-family wager from a ``decks``-deck shoe."""
    full = np.full(52, decks, dtype=np.int64)
    base = wager.ev(full)
    codes = range(52) if wager.suits else [4 * r for r in range(13)]
    by_card: dict[int, Fraction] = {}
    for code in codes:
        by_card[code] = wager.ev(_minus(full, code)) - base
    by_rank: dict[str, Fraction] = {}
    equal = True
    for rank in RANK_ORDER:
        index = RANKS.index(rank)
        values = [
            by_card[c] for c in range(4 * index, 4 * index + 4) if c in by_card
        ]
        equal = equal and all(v == values[0] for v in values)
        by_rank[rank] = values[0]
    total = sum(
        (by_card.get(c, by_rank[RANKS[c // 4]]) for c in range(52)),
        Fraction(0),
    )
    return EorTable(
        wager=wager.name,
        decks=decks,
        ev=base,
        by_card=by_card,
        by_rank=by_rank,
        weights=dict.fromkeys(RANK_ORDER, 4),
        suits=wager.suits,
        suits_equal=equal,
        sum_check=total,
    )


def game_eors(game: GameModel, wager: str | None = None) -> list[EorTable]:
    """The EoR tables of every wager of a baccarat-family game."""
    chosen = [game.wager(wager)] if wager else list(game.wagers)
    return [wager_eors(w, game.decks) for w in chosen]


@functools.lru_cache(maxsize=1)
def _containing() -> tuple[tuple[int, ...], ...]:
    """``[card][category]`` hands holding the card (all C(53,6) hands)."""
    table = pk.fortune_containing(five_card_table(), binomials(), PAIGOW_DECK)
    return tuple(tuple(int(x) for x in row) for row in table)


def _category_nets(rules: SixCardRules) -> dict[str, dict[str, Fraction]]:
    out: dict[str, dict[str, Fraction]] = {}
    if rules.fortune_bonus_offered:
        out["fortune_bonus"] = _paytable_nets(rules.fortune_bonus_paytable)
    if rules.progressive_offered:
        nets = _paytable_nets(rules.progressive_odds_paytable)
        for key, share in rules.progressive_meter_paytable:
            paid = int(rules.progressive_meter * share.fraction)
            nets[key] = Fraction(paid, rules.progressive_wager_amount)
        out["progressive"] = nets
    return out


def _paytable_nets(table: Paytable) -> dict[str, Fraction]:
    nets = dict.fromkeys(CATEGORY_KEYS, Fraction(-1))
    for key, odds in table:
        nets[key] = odds.fraction
    return nets


def paigow_eors(
    rules: SixCardRules, wager: str | None = None
) -> list[EorTable]:
    """Exact EoRs of the Fortune Bonus and the Progressive (53 cards).

    The Envy Bonus part of a Qualifying Fortune Bonus Wager depends on
    the other positions' hands and is left out (the paytable part
    only); the Six-Card Wager is not enumerated here (no exact EoR).
    """
    containing = _containing()
    totals = [sum(row[k] for row in containing) // 6 for k in range(11)]
    hands, fewer = comb(PAIGOW_DECK, 6), comb(PAIGOW_DECK - 1, 6)
    tables: list[EorTable] = []
    for name, nets in _category_nets(rules).items():
        if wager is not None and name != wager:
            continue
        net = [nets[key] for key in CATEGORY_KEYS]
        base = (
            sum(
                (Fraction(t) * n for t, n in zip(totals, net, strict=True)),
                Fraction(0),
            )
            / hands
        )
        by_card: dict[int, Fraction] = {}
        for code in range(PAIGOW_DECK):
            left = [
                t - h for t, h in zip(totals, containing[code], strict=True)
            ]
            ev = (
                sum(
                    (Fraction(c) * n for c, n in zip(left, net, strict=True)),
                    Fraction(0),
                )
                / fewer
            )
            by_card[code] = ev - base
        by_rank: dict[str, Fraction] = {}
        equal = True
        for rank in RANK_ORDER:
            index = RANKS.index(rank)
            values = [by_card[c] for c in range(4 * index, 4 * index + 4)]
            equal = equal and all(v == values[0] for v in values)
            by_rank[rank] = values[0]
        by_rank["Jk"] = by_card[52]
        tables.append(
            EorTable(
                wager=name,
                decks=1,
                ev=base,
                by_card=by_card,
                by_rank=by_rank,
                weights={**dict.fromkeys(RANK_ORDER, 4), "Jk": 1},
                suits=True,
                suits_equal=equal,
                sum_check=sum(by_card.values(), Fraction(0)),
            )
        )
    if wager is not None and not tables:
        offered = ", ".join(_category_nets(rules)) or "none"
        msg = (
            f"six-card-fortune-pai-gow has no exact EoR for {wager!r} "
            f"(exact: {offered}; the Six-Card Wager is not enumerated)"
        )
        raise ProtectError(msg)
    return tables


def eor_tables(rules: GameRules, wager: str | None = None) -> list[EorTable]:
    """The EoR tables of the game these rules belong to."""
    if isinstance(rules, SixCardRules):
        return paigow_eors(rules, wager)
    return game_eors(game_model(rules), wager)


def _pct(value: Fraction | float, digits: int = 4) -> str:
    return f"{100 * float(value):+.{digits}f}"


def _markdown(tables: list[EorTable], paigow: bool) -> str:
    lines: list[str] = []
    if paigow:
        lines += [
            "Pai gow is dealt from one 53-card deck shuffled before every "
            "round (670a.9): nothing seen in one round says anything about "
            "the next, so no card count can be built. The EoRs below are "
            "the effect of one card known to be out of the deck (the "
            "Six-Card Wager is not enumerated here; the Envy Bonus is "
            "left out).",
            "",
        ]
    lines += [
        "EoR: the exact change of the wager's EV (player's side, percent "
        "of a unit) when one card is removed from the full shoe; per "
        "deck = per card x decks. Sum check: the sum over one deck's "
        "cards, exactly 0 (D46).",
        "",
    ]
    ranks = list(tables[0].by_rank) if tables else []
    header = "| wager | edge | " + " | ".join(ranks) + " | sum |"
    lines += [
        "Per card removed (percent):",
        "",
        header,
        "|" + " --- |" * (len(ranks) + 3),
    ]
    for t in tables:
        cells = " | ".join(_pct(t.by_rank[r]) for r in ranks)
        lines.append(
            f"| {t.wager} | {100 * float(-t.ev):.4f} % | {cells} "
            f"| {t.sum_check} |"
        )
    if any(t.decks > 1 for t in tables):
        lines += [
            "",
            "Per deck (per card x decks, percent):",
            "",
            header,
            "|" + " --- |" * (len(ranks) + 3),
        ]
        for t in tables:
            cells = " | ".join(_pct(t.by_rank[r] * t.decks, 3) for r in ranks)
            lines.append(
                f"| {t.wager} | {100 * float(-t.ev):.4f} % | {cells} "
                f"| {t.sum_check} |"
            )
    suited = [t.wager for t in tables if t.suits]
    if suited:
        same = all(t.suits_equal for t in tables if t.suits)
        lines += [
            "",
            f"Suits matter to {', '.join(suited)}: all "
            f"{'53' if paigow else '52'} card kinds were computed; "
            + (
                "each suit of a rank has exactly the same EoR (a full "
                "shoe is symmetric in the suits)"
                + (
                    "."
                    if paigow
                    else ", so a suit or colour count has no first-order "
                    "value -- suits act only through the composition's "
                    "second-order terms (see perfect play)."
                )
                if same
                else "the suits of a rank differ (see the JSON)."
            ),
        ]
    return "\n".join(lines)


def eor_section(
    game: str, wager: str | None, rules: GameRules
) -> list[Section]:
    """The EoR section of the report (a :class:`~.base.Provider`)."""
    tables = eor_tables(rules, wager)
    if not tables:
        return []
    paigow = isinstance(rules, SixCardRules)
    return [
        Section(
            key="eor",
            title="Effects of removal",
            data={
                "game": game,
                "dealt_fresh_each_round": paigow,
                "wagers": {t.wager: t.to_json() for t in tables},
            },
            markdown=_markdown(tables, paigow),
        )
    ]
