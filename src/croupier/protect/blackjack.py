"""Double Back Jack protection (issue 16 point 5): EoRs, a count, the hole.

Under any Double Back Jack Rules Submission (591.7, now 673a):

* :func:`eors`: the exact effects of removal of the main wager, the
  whole box's expectation (doubles, splits, Second Chance Wagers,
  insurance) per unit of the initial Blackjack Wager: the exact CDZ-
  analyzer (:func:`croupier.odds.double_back_jack.ca.solve_ca`) on the
  full shoe and on the shoe less one card of each value. *Per deck* is
  the per-card EoR times the decks (D51, as COUNT's D46).
* :func:`hilo`: a Hi-Lo style counter through real shoes of the Rules
  Submission (its decks, burn, penetration), playing the game's
  strategy (the simulator's tables) and sizing each bet by the true
  count before the round (conventions in :mod:`._bj_count`).
* :func:`hole_card`: the player's edge if the dealer's hole card were
  known (:mod:`._bj_hole`, a labelled approximation), against the edge
  with the card reader of 591.7(h), which never exposes it.

>>> from croupier.odds.double_back_jack.carules import CARules
>>> table = eors(CARules.ordinary(decks=6))   # ordinary blackjack
>>> f"{100 * table.by_value['5']:.3f} %"
'0.125 %'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.jsontypes import JsonObject
from croupier.odds.double_back_jack.analysis import rule_parameters, solve
from croupier.odds.double_back_jack.ca import composition, solve_ca
from croupier.odds.double_back_jack.carules import CARules
from croupier.odds.double_back_jack.dealer import full_composition
from croupier.odds.double_back_jack.simulation import (
    UNIT,
    integer_parameters,
)
from croupier.protect._bj_count import LOW, N_BUCKETS, count_shoes
from croupier.protect._bj_hole import round_values
from croupier.protect.base import Finding, Section
from croupier.rules import GameRules

__all__ = [
    "DEFAULT_RAMP",
    "GAME",
    "HI_LO",
    "VALUES",
    "BlackjackEoR",
    "CountResult",
    "HoleCard",
    "eors",
    "hilo",
    "hole_card",
    "sections",
]

GAME = "double-back-jack"
"""The registry name."""
VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""Card values in index order (1 = ace ... 10 = any 10-value card)."""
HI_LO = {
    "A": -1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1,
    "7": 0, "8": 0, "9": 0, "10": -1,
}  # fmt: skip
"""The Hi-Lo tags."""
DEFAULT_RAMP = ((2, 2), (3, 4), (4, 6), (5, 8))
"""The 1-8 spread: ``(true count, units)`` steps; 1 unit below 2."""
_PER_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)


def _carules(rules: GameRules) -> CARules:
    if isinstance(rules, CARules):
        return rules
    if isinstance(rules, DoubleBackJackRules):
        return CARules.from_game(rules)
    msg = f"Double Back Jack needs its rules, not {type(rules).__name__}"
    raise TypeError(msg)


@dataclass(frozen=True, slots=True)
class BlackjackEoR:
    """Exact effects of removal of the Double Back Jack main wager."""

    decks: int
    """Decks in the shoe."""
    ev: float
    """The box's EV per initial unit from the full shoe (exact CDZ-)."""
    by_value: dict[str, float]
    """EV(shoe less one card of the value) - EV(shoe), per card."""

    @property
    def per_deck(self) -> dict[str, float]:
        """Per-card EoRs times the decks (the one-deck scale)."""
        return {v: e * self.decks for v, e in self.by_value.items()}

    @property
    def sum_check(self) -> float:
        """Sum over one deck's 52 cards of the per-card EoRs.

        Near 0: the shoe less a random card is the shoe (a card nobody
        saw), so this is 52 times the value of knowing which card was
        removed, which CDZ- uses (small and positive).
        """
        return sum(
            n * self.by_value[v]
            for n, v in zip(_PER_DECK, VALUES, strict=True)
        )

    def correlation(self, tags: dict[str, int]) -> float:
        """Betting correlation of ``tags`` with the EoRs (one deck)."""
        w = np.array(_PER_DECK, dtype=float)
        x = np.array([tags[v] for v in VALUES], dtype=float)
        y = np.array([self.by_value[v] for v in VALUES])
        x = x - (w @ x) / w.sum()
        y = y - (w @ y) / w.sum()
        den = math.sqrt(float(w @ (x * x)) * float(w @ (y * y)))
        return float(w @ (x * y)) / den if den else 0.0

    def to_json(self) -> JsonObject:
        """JSON-ready figures."""
        return {
            "decks": self.decks,
            "ev": self.ev,
            "per_card": self.by_value,
            "per_deck": self.per_deck,
            "sum_check": self.sum_check,
            "hi_lo_correlation": self.correlation(HI_LO),
            "strategy": "CDZ- (exact composition-dependent analyzer)",
        }


def eors(rules: GameRules) -> BlackjackEoR:
    """The exact EoRs of the main wager (Double Back Jack or CARules)."""
    ca = _carules(rules)
    full = composition(ca.decks)
    base = -float(solve_ca(ca).edge)
    by = {}
    for index, label in enumerate(VALUES, start=1):
        shoe = full.copy()
        shoe[index] -= 1
        by[label] = -float(solve_ca(ca, shoe).edge) - base
    return BlackjackEoR(decks=ca.decks, ev=base, by_value=by)


@dataclass(frozen=True, slots=True)
class CountResult:
    """A counter's results through real shoes (units of one base bet)."""

    tags: dict[str, int]
    """The count's tags."""
    ramp: tuple[tuple[int, int], ...]
    """``(true count, units)`` steps of the bet; 1 unit below the first."""
    decks: int
    """Decks in the shoe."""
    penetration: float
    """Share of the shoe dealt before the cover card (591.7(d))."""
    rounds: int
    """Rounds played."""
    shoes: int
    """Shoes started."""
    seed: int
    """The simulation seed."""
    win_per_100: float
    """Units won per 100 rounds."""
    sd_per_100: float
    """Standard deviation of 100 rounds' result, in units."""
    average_bet: float
    """Units bet per round."""
    flat_ev: float
    """EV per round of a flat one-unit bet (the same rounds)."""
    flat_ci95: tuple[float, float]
    """Its 95 % confidence interval (from the shoes' totals)."""
    win_ci95: tuple[float, float] = (0.0, 0.0)
    """The 95 % confidence interval of ``win_per_100``."""
    by_true_count: list[dict[str, float]] = field(default_factory=list)
    """Per floored true count: share of rounds and flat EV."""

    @property
    def edge_per_unit_bet(self) -> float:
        """Win per unit bet."""
        return self.win_per_100 / (100 * self.average_bet)

    def to_json(self) -> JsonObject:
        """JSON-ready figures."""
        return {
            "tags": self.tags,
            "ramp": [list(step) for step in self.ramp],
            "decks": self.decks,
            "penetration": self.penetration,
            "rounds": self.rounds,
            "shoes": self.shoes,
            "seed": self.seed,
            "win_per_100": self.win_per_100,
            "sd_per_100": self.sd_per_100,
            "average_bet": self.average_bet,
            "edge_per_unit_bet": self.edge_per_unit_bet,
            "flat_ev": self.flat_ev,
            "flat_ci95": list(self.flat_ci95),
            "win_ci95": list(self.win_ci95),
            "by_true_count": self.by_true_count,
        }


def _ratio_se(
    sums: np.ndarray, sq: int, cross: int, ratio: float, rounds: int
) -> float:
    """Standard error of a per-round mean from the shoes' totals.

    Rounds of one shoe are correlated (its composition); a shoe's total
    X over its N rounds gives the ratio estimator's variance
    ``sum (X - r N)^2 / (S (S - 1) nbar^2)`` for S shoes.
    """
    shoes = int(sums[4])
    if shoes < 2:
        return math.inf
    xx = int(sums[sq]) / UNIT**2
    xn = int(sums[cross]) / UNIT
    nn = int(sums[5])
    resid = xx - 2 * ratio * xn + ratio * ratio * nn
    nbar = rounds / shoes
    return math.sqrt(max(resid, 0.0) / (shoes * (shoes - 1))) / nbar


def _ramp_array(ramp: tuple[tuple[int, int], ...]) -> np.ndarray:
    units = np.ones(N_BUCKETS, dtype=np.int64)
    for b in range(N_BUCKETS):
        for tc, bet in ramp:
            if b + LOW >= tc:
                units[b] = bet
    return units


def hilo(
    rules: DoubleBackJackRules,
    rounds: int = 10_000_000,
    seed: int = 1,
    tags: dict[str, int] | None = None,
    ramp: tuple[tuple[int, int], ...] = DEFAULT_RAMP,
) -> CountResult:
    """A counter's win rate through real shoes of ``rules``.

    Default: Hi-Lo, 1 unit below a true count of 2, then 2, 4, 6, 8
    units at 2, 3, 4, 5 and above (a 1-8 spread). Randomness from
    ``SeedSequence(seed, spawn_key=(0,))`` only (the simulators' and
    COUNT's convention, D47).
    """
    tag_set = dict(HI_LO if tags is None else tags)
    if set(tag_set) != set(VALUES):
        msg = f"tags must give every value {VALUES}: {sorted(tag_set)}"
        raise ValueError(msg)
    if rounds < 1:
        msg = f"rounds must be positive, not {rounds}"
        raise ValueError(msg)
    solution = solve(rules)
    tag_array = np.zeros(11, dtype=np.int64)
    for index, label in enumerate(VALUES, start=1):
        tag_array[index] = tag_set[label]
    sums = np.zeros(10, dtype=np.int64)
    by = np.zeros((N_BUCKETS, 3), dtype=np.int64)
    count_shoes(
        np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,))),
        rounds,
        rules.decks,
        int(52 * rules.decks * rules.penetration),
        UNIT,
        integer_parameters(rules),
        solution.fd,
        solution.ins,
        solution.hs,
        solution.spd,
        solution.scd,
        tag_array,
        _ramp_array(ramp),
        sums,
        by,
    )
    n = int(sums[0])
    mean = int(sums[2]) / UNIT / n
    var = int(sums[3]) / UNIT**2 / n - mean * mean
    flat = int(by[:, 1].sum()) / UNIT / n
    half = 1.96 * _ratio_se(sums, 6, 7, flat, n)
    win_half = 100 * 1.96 * _ratio_se(sums, 8, 9, mean, n)
    rows = [
        {
            "true_count": float(b + LOW),
            "share": int(by[b, 0]) / n,
            "flat_ev": int(by[b, 1]) / UNIT / int(by[b, 0]),
        }
        for b in range(N_BUCKETS)
        if by[b, 0] > 0
    ]
    return CountResult(
        tags=tag_set,
        ramp=ramp,
        decks=rules.decks,
        penetration=float(rules.penetration),
        rounds=n,
        shoes=int(sums[4]),
        seed=seed,
        win_per_100=100 * mean,
        sd_per_100=10 * math.sqrt(var),
        average_bet=int(sums[1]) / n,
        flat_ev=flat,
        flat_ci95=(flat - half, flat + half),
        win_ci95=(100 * mean - win_half, 100 * mean + win_half),
        by_true_count=rows,
    )


@dataclass(frozen=True, slots=True)
class HoleCard:
    """The player's EV without and with the dealer's hole card known."""

    decks: int
    """Decks in the shoe."""
    unknown: float
    """EV per initial unit, the hole card unseen (the card reader)."""
    known: float
    """EV per initial unit, the hole card known before every decision."""

    def to_json(self) -> JsonObject:
        """JSON-ready figures."""
        return {
            "decks": self.decks,
            "ev_hole_unknown": self.unknown,
            "ev_hole_known": self.known,
            "value_of_the_hole_card": self.known - self.unknown,
            "method": (
                "approximate: total-dependent play after the first "
                "decision, the shoe less the initial cards for the "
                "player's draws, the dealer exact for that composition"
            ),
        }


def hole_card(rules: DoubleBackJackRules) -> HoleCard:
    """The hole card's value to a player who could see it (labelled)."""
    values = round_values(
        full_composition(rules.decks), rule_parameters(rules)
    )
    return HoleCard(
        decks=rules.decks, unknown=float(values[0]), known=float(values[1])
    )


# ------------------------------------------------------------- sections


def _pct(value: float, digits: int = 3) -> str:
    return f"{100 * value:+.{digits}f} %"


def _eor_section(table: BlackjackEoR) -> Section:
    rows = [
        "| card | per card | per deck |",
        "| --- | --- | --- |",
    ]
    rows += [
        f"| {v} | {_pct(table.by_value[v], 4)} | {_pct(table.per_deck[v])} |"
        for v in VALUES
    ]
    text = "\n".join(
        [
            "The whole box's expectation per unit of the initial "
            "Blackjack Wager (doubles, splits, Second Chance Wagers, "
            "insurance) from the exact CDZ- analyzer, on the full shoe "
            f"({_pct(table.ev, 4)}) and on the shoe less one card of "
            "each value; the player's side (positive: removing the card "
            "helps the player). Per deck: per card times "
            f"{table.decks} decks. D51.",
            "",
            *rows,
            "",
            f"Sum over one deck's 52 cards: {_pct(table.sum_check, 4)} "
            "(zero for a fixed strategy; CDZ- re-optimises for each "
            "composition, so the sum is the small value of knowing the "
            "removed card). Betting correlation of Hi-Lo with these "
            f"EoRs: {table.correlation(HI_LO):.3f}.",
        ]
    )
    return Section(
        key="eor",
        title="Effects of removal (Blackjack Wager)",
        data={"blackjack": table.to_json()},
        markdown=text + "\n",
    )


def _depth_rows(result: CountResult, deeper: list[CountResult]) -> list[str]:
    if not deeper:
        return []
    return [
        "",
        "Deeper cover cards (the same count and spread, "
        f"{deeper[0].rounds:,} rounds each):",
        "",
        "| penetration | units won per 100 rounds | SD per 100 | "
        "win per unit bet |",
        "| --- | --- | --- | --- |",
        *[
            f"| {r.penetration:.0%} | {r.win_per_100:+.3f} | "
            f"{r.sd_per_100:.2f} | {_pct(r.edge_per_unit_bet)} |"
            for r in [result, *deeper]
        ],
    ]


def _count_section(result: CountResult, deeper: list[CountResult]) -> Section:
    steps = ", ".join(f"{u} at {tc}+" for tc, u in result.ramp)
    tags = ", ".join(f"{v}={result.tags[v]:+d}" for v in VALUES)
    rows = [
        "| true count | share of rounds | flat EV |",
        "| --- | --- | --- |",
    ]
    rows += [
        f"| {int(r['true_count']):+d} | {100 * r['share']:.2f} % | "
        f"{_pct(r['flat_ev'])} |"
        for r in result.by_true_count
        if r["share"] >= 0.001
    ]
    beat = result.win_per_100 > 0
    text = "\n".join(
        [
            f"Tags {tags}. Real shoes of the Rules Submission: "
            f"{result.decks} decks, one card burnt (591.7(c)), the "
            f"cover card at {result.penetration:.0%} (591.7(d)); one "
            "box playing the game's strategy (the simulator's tables). "
            "Every card of a round counts when the round ends (the hole "
            "card is turned at 591.7(n)); the true count is the running "
            "count per remaining deck, floored, before the round; the "
            f"bet is 1 unit below {result.ramp[0][0]}, then {steps} (a "
            f"1-{max(u for _, u in result.ramp)} spread); every round "
            "is played; 95 % intervals from the shoes' totals (the "
            "rounds of one shoe are correlated).",
            "",
            "| figure | value |",
            "| --- | --- |",
            f"| rounds (shoes) | {result.rounds:,} ({result.shoes:,}) |",
            f"| units won per 100 rounds (95 % CI) | "
            f"{result.win_per_100:+.3f} [{result.win_ci95[0]:+.3f}, "
            f"{result.win_ci95[1]:+.3f}] |",
            f"| SD per 100 rounds (units) | {result.sd_per_100:.2f} |",
            f"| average bet (units) | {result.average_bet:.3f} |",
            f"| win per unit bet | {_pct(result.edge_per_unit_bet)} |",
            f"| flat-bet EV (95 % CI) | {_pct(result.flat_ev)} "
            f"[{_pct(result.flat_ci95[0])}, {_pct(result.flat_ci95[1])}]"
            " |",
            "",
            *rows,
            *_depth_rows(result, deeper),
        ]
    )
    beat = beat or any(r.win_per_100 > 0 for r in deeper)
    finding = Finding(
        wager="blackjack",
        method="count",
        beatable=beat,
        player_edge=result.edge_per_unit_bet,
        per="per unit bet, Hi-Lo with a 1-8 spread by true count",
        remedy=(
            "cut the penetration (591.7(d)) or shuffle every shoe continuously"
            if beat
            else "none needed: the Double Back Jack rules move the "
            "edge too little with the count for a 1-8 spread to "
            "overcome it"
        ),
        ref="591.7(d)",
    )
    return Section(
        key="counts",
        title="Card counting (Hi-Lo, 1-8 spread)",
        data={"blackjack": result.to_json()},
        markdown=text + "\n",
        findings=(finding,),
    )


def _hole_section(hole: HoleCard) -> Section:
    text = "\n".join(
        [
            "| the dealer's hole card | player's EV per initial unit |",
            "| --- | --- |",
            f"| unseen (card reader, 591.7(h)) | {_pct(hole.unknown)} |",
            f"| known before every decision | {_pct(hole.known)} |",
            "",
            "A player who knew the hole card would play every hand "
            "against the dealer's actual total (stand on stiffs against "
            "a stiff, double and split into a dealer bust, take the "
            "Second Chance knowing the dealer's total, insure exactly "
            "when the hole card makes a Blackjack). The card reader "
            "closes this: on an ace or 10-value up card the dealer "
            "slides the hole card face down into the reader without "
            "exposing it to anyone, the dealer included (591.7(h)), so "
            "no peek can flash it and no dealer tell exists; the reader "
            "only answers Blackjack or not, which the game's own "
            "strategy already uses; the card is turned face up only "
            "after every player decision (591.7(n)). On other up cards "
            "the hole card is not looked at at all. With the reader "
            "the hole-card player's edge is the game's own: no gain.",
            "",
            "Method (approximate, labelled): the game solver's total-"
            "dependent play after the first decision, the shoe less "
            "the initial cards for the player's draws, the dealer exact "
            "for that composition; the unseen-hole figure is the "
            "simulator strategy's edge of `croupier analyze` "
            "(reproduced exactly by the same code path). D52.",
        ]
    )
    finding = Finding(
        wager="blackjack",
        method="hole_card",
        beatable=False,  # the card reader never exposes it (D52)
        player_edge=hole.known,
        per="per initial unit, if the hole card were seen",
        remedy=(
            "none needed: the card reader (591.7(h)) never exposes the "
            "hole card, so the player's EV stays the game's "
            f"{_pct(hole.unknown)}"
        ),
        ref="591.7(h)",
    )
    return Section(
        key="hole_card",
        title="Hole-card play and the card reader",
        data={"blackjack": hole.to_json()},
        markdown=text + "\n",
        findings=(finding,),
    )


def sections(game: str, wager: str | None, rules: GameRules) -> list[Section]:
    """EoRs, the Hi-Lo count and the hole card of Double Back Jack.

    ``[]`` for other games and other wagers (the Blackjack Wager, with
    its Second Chance and insurance, is the analysed box).
    """
    if game != GAME or wager not in (None, "blackjack"):
        return []
    if not isinstance(rules, DoubleBackJackRules):
        msg = f"Double Back Jack needs its rules, not {type(rules).__name__}"
        raise TypeError(msg)
    deeper = [
        hilo(replace(rules, penetration=depth), rounds=1_000_000)
        for depth in (Fraction(17, 20), Fraction(9, 10))
        if depth > rules.penetration
    ]
    return [
        _eor_section(eors(rules)),
        _count_section(hilo(rules), deeper),
        _hole_section(hole_card(rules)),
    ]
