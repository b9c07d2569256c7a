"""Card counts of each wager, simulated through real shoes (point 2).

Tags (D48): the best balanced integer tag set of level ``L`` (every tag
in ``-L..L``, the tags of one deck summing to 0) is the one whose
betting correlation with the wager's exact EoRs is largest; it is found
exactly by dynamic programming over the ranks, the state being the
tags' weighted sum and weighted sum of squares (the correlation of a
balanced set is ``sum w t e / sqrt(sum w t^2 sum w e^2)``).

Conventions of the simulation (D47): the shoe of the Rules Submission
is shuffled, cut and burned as the simulators do it
(:mod:`croupier.odds.baccarat.simulation`,
:mod:`croupier.odds.baccarat21.simulation`); every wager is on the
layout every coup (so 21 Baccarat deals its Bonus-only cards); the
counter sees every card dealt and the exposed first card of the
Midibaccarat burn, not the burned cards; before each coup the true
count is ``running count / (cards left in the shoe / 52)``; the counter
bets one unit on the wager when the true count, floored, reaches the
trigger, and nothing otherwise; the coup that takes the cut (second
cover) card is the shoe's last. Figures per hand count every coup
observed, bet or not (Schlesinger's back-counting convention, used by
Jacobson): win rate per 100 hands, SD per 100 hands and the
Desirability Index ``DI = 1000 x win per hand / SD per hand``.

>>> parse_tags("A=1,2=0,T=-1")["T"], parse_tags("A=1,10=-2")["T"]
(-1, -2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from croupier.odds.baccarat.shoe import random_block
from croupier.protect import _kernels as pk
from croupier.protect.eor import RANK_ORDER, EorTable
from croupier.protect.model import (
    RANKS,
    GameModel,
    ProtectError,
    WagerModel,
    tables,
)

__all__ = [
    "BLOCK",
    "Count",
    "CountRun",
    "TriggerRow",
    "best_tags",
    "betting_correlation",
    "parse_tags",
    "simulate_counts",
    "tag_codes",
    "trigger_row",
    "trigger_rows",
]

BLOCK = 1 << 20
"""Random words drawn per kernel call."""
CHUNK_SHOES = 200_000
"""Shoes per chunk (each chunk its own ``SeedSequence`` spawn key)."""
_ALIASES = {"10": "T", "1": "A"}


@dataclass(frozen=True, slots=True)
class Count:
    """A count: tags by rank, for one wager."""

    name: str
    """``level 1`` ... ``level 3`` or ``user``."""
    wager: str
    """The wager it bets."""
    tags: dict[str, int]
    """Tag by rank (``A`` ... ``K``)."""
    correlation: float
    """Betting correlation with the wager's exact EoRs."""
    start: int = 0
    """Running count at the start of a shoe (an unbalanced count's
    initial running count; 0 for a balanced one)."""

    def tag_text(self) -> str:
        """The tags in Jacobson's order, ``(A, 2, ..., 9, T, J, Q, K)``."""
        return (
            "("
            + ", ".join(
                f"{self.tags[r]:+d}" if self.tags[r] else "0"
                for r in RANK_ORDER
            )
            + ")"
        )


def parse_tags(text: str) -> dict[str, int]:
    """``A=1,2=0,...`` as tags by rank (ranks not named are 0).

    Ranks: ``A`` (or ``1``), ``2``-``9``, ``T`` (or ``10``), ``J``,
    ``Q``, ``K``; ``X`` sets all four ten-valued ranks.
    """
    tags = dict.fromkeys(RANK_ORDER, 0)
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        rank, sep, value = part.partition("=")
        rank = _ALIASES.get(rank.strip().upper(), rank.strip().upper())
        if not sep or (rank not in tags and rank != "X"):
            msg = (
                f"--tags: {part!r} is not RANK=TAG (ranks A, 2-9, T, J, Q, "
                "K or X for all ten-valued)"
            )
            raise ProtectError(msg)
        try:
            tag = int(value)
        except ValueError:
            msg = f"--tags: {value.strip()!r} is not an integer tag"
            raise ProtectError(msg) from None
        if abs(tag) > 20:
            msg = f"--tags: {tag} is out of range (-20..20)"
            raise ProtectError(msg)
        for name in ("T", "J", "Q", "K") if rank == "X" else (rank,):
            tags[name] = tag
    return tags


def tag_codes(tags: dict[str, int]) -> npt.NDArray[np.int64]:
    """The tag of each of the 52 card codes."""
    return np.array(
        [tags[RANKS[code // 4]] for code in range(52)], dtype=np.int64
    )


def betting_correlation(table: EorTable, tags: dict[str, int]) -> float:
    """Pearson correlation of the tags with the EoRs, card by card.

    Weighted by the cards of each rank in a deck; 0 for all-zero tags.
    """
    ranks = [r for r in RANK_ORDER if r in table.by_rank]
    w = np.array([table.weights[r] for r in ranks], dtype=float)
    e = np.array([float(table.by_rank[r]) for r in ranks])
    t = np.array([tags.get(r, 0) for r in ranks], dtype=float)
    e = e - (w @ e) / w.sum()
    t = t - (w @ t) / w.sum()
    den = math.sqrt(float(w @ (t * t)) * float(w @ (e * e)))
    return float(w @ (t * e)) / den if den > 0 else 0.0


def best_tags(table: EorTable, level: int) -> Count:
    """The balanced tag set of ``level`` most correlated with the EoRs.

    Exact: a dynamic programme over the ranks keeps, for every weighted
    tag sum and weighted sum of squares, the largest ``sum w t e``; the
    balanced states (sum 0) are compared by ``dot / sqrt(squares)``.
    Ties keep the first found (fewer, smaller tags first).
    """
    if not 1 <= level <= 3:
        msg = f"tag levels are 1 to 3, not {level}"
        raise ProtectError(msg)
    ranks = [r for r in RANK_ORDER if r in table.by_rank]
    weights = [table.weights[r] for r in ranks]
    eors = [float(table.by_rank[r]) for r in ranks]
    mean = sum(w * e for w, e in zip(weights, eors, strict=True)) / sum(
        weights
    )
    eors = [e - mean for e in eors]
    span = sum(weights) * level
    width = 2 * span + 1
    depth = sum(weights) * level * level + 1
    dot = np.full((width, depth), -np.inf)
    dot[span, 0] = 0.0
    choices: list[npt.NDArray[np.int8]] = []
    order = sorted(range(-level, level + 1), key=lambda v: (abs(v), -v))
    for w, e in zip(weights, eors, strict=True):
        new = np.full_like(dot, -np.inf)
        pick = np.zeros(dot.shape, dtype=np.int8)
        for tag in order:
            ds, dq = w * tag, w * tag * tag
            moved = np.full_like(dot, -np.inf)
            src = dot[max(0, -ds) : width - max(0, ds), 0 : depth - dq]
            moved[max(0, ds) : width - max(0, -ds), dq:depth] = (
                src + w * tag * e
            )
            better = moved > new + 1e-15
            new[better] = moved[better]
            pick[better] = tag
        dot = new
        choices.append(pick)
    row = dot[span]
    q = np.arange(depth, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(q > 0, row / np.sqrt(np.maximum(q, 1)), -np.inf)
    best_q = int(np.argmax(score))
    tags: dict[str, int] = {}
    s, qq = span, best_q
    for index in range(len(ranks) - 1, -1, -1):
        tag = int(choices[index][s, qq])
        tags[ranks[index]] = tag
        s -= weights[index] * tag
        qq -= weights[index] * tag * tag
    full = {r: tags.get(r, 0) for r in RANK_ORDER}
    return Count(
        name=f"level {level}",
        wager=table.wager,
        tags=full,
        correlation=betting_correlation(table, full),
    )


_Ints = npt.NDArray[np.int64]
"""An array of the kernel's integer sums (or of the codes it reads)."""


def _no_ints() -> _Ints:
    return np.zeros(0, dtype=np.int64)


class TriggerRow(TypedDict):
    """Jacobson's figures of one count betting at one trigger."""

    trigger: int
    bet_frequency: float
    bets: int
    edge_when_betting: float
    edge_ci95: float
    units_per_100_hands: float
    units_per_100_hands_ci95: float
    units_per_shoe: float
    units_per_shoe_ci95: float
    sd_per_hand: float
    sd_per_100_hands: float
    sd_per_shoe: float
    di: float
    hands_per_shoe: float


@dataclass
class CountRun:
    """The integer sums of a count simulation (all triggers at once)."""

    game: GameModel
    """The game and its shoe."""
    counts: list[Count]
    """The counts simulated side by side."""
    shoes: int = 0
    """Shoes played."""
    hands: _Ints = field(default_factory=_no_ints)
    """``[count, bucket]`` coups observed."""
    sums: _Ints = field(default_factory=_no_ints)
    """``[count, bucket]`` sum of the nets (stake units)."""
    squares: _Ints = field(default_factory=_no_ints)
    """``[count, bucket]`` sum of the squared nets."""
    shoe_sums: _Ints = field(default_factory=_no_ints)
    """``[count, trigger bucket]`` sum over shoes of the shoe's win."""
    shoe_squares: _Ints = field(default_factory=_no_ints)
    """``[count, trigger bucket]`` sum over shoes of its square."""
    record: _Ints = field(default_factory=_no_ints)
    """Rows recorded for count 0: 52 unseen counts and the net."""
    seed: int = 1
    """The seed of ``SeedSequence(seed, spawn_key=(chunk,))``."""
    seconds: float = 0.0
    """Wall time of the simulation."""


_Task = tuple[
    int,
    int,
    int,
    _Ints,
    _Ints,
    _Ints,
    _Ints,
    _Ints,
    int,
    int,
    tuple[int],
    int,
    int,
]
"""A chunk's arguments: game code, decks, cover, tags, start counts,
wager of each count, wager kinds, nets, shoes, seed, spawn key, rows to
record and the bucket they are recorded from."""


def _chunk(args: _Task) -> tuple[int, list[_Ints], _Ints]:
    """One chunk of shoes (a picklable task for the process pool)."""
    (
        code,
        decks,
        cover,
        tags,
        start,
        wager_of,
        kinds,
        nets,
        shoes,
        seed,
        key,
        record_rows,
        record_from,
    ) = args
    gen = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    codes = np.repeat(np.arange(52, dtype=np.int64), decks)
    work = np.empty_like(codes)
    k = tags.shape[0]
    hands, sums, squares, shoe_sums, shoe_squares = (
        np.zeros((k, pk.BUCKETS), dtype=np.int64) for _ in range(5)
    )
    record = np.zeros((record_rows, 53), dtype=np.int64)
    recorded = 0
    done = 0
    budget = (codes.shape[0] + 64) * min(shoes, BLOCK // (codes.shape[0] + 64))
    while done < shoes:
        played, recorded = pk.count_shoes(
            code,
            codes,
            work,
            random_block(gen, budget),
            shoes - done,
            cover,
            tables(),
            tags,
            start,
            wager_of,
            kinds,
            nets,
            hands,
            sums,
            squares,
            shoe_sums,
            shoe_squares,
            record,
            record_from,
            recorded,
        )
        done += played
    out = [hands, sums, squares, shoe_sums, shoe_squares]
    return done, out, record[:recorded]


def simulate_counts(
    game: GameModel,
    counts: Sequence[Count],
    shoes: int,
    *,
    seed: int = 1,
    workers: int = 1,
    record_rows: int = 0,
    record_trigger: int = 0,
    variants: dict[str, WagerModel] | None = None,
) -> CountRun:
    """Play ``shoes`` shoes with every count on; see the module doc.

    Chunks of :data:`CHUNK_SHOES` are seeded ``SeedSequence(seed,
    spawn_key=(i,))`` and their integer sums merge exactly, so the result
    depends on the seed alone, not on ``workers``. With
    ``record_rows``, count 0's coups at a true count of at least
    ``record_trigger`` are recorded (composition and net) up to that
    many rows, from the first chunk. ``variants`` adds wagers (the same
    outcome, other nets: another paytable) that counts may name.
    """
    import time

    if shoes < 1:
        msg = f"shoes must be at least 1, not {shoes}"
        raise ProtectError(msg)
    if not counts:
        msg = "no count to simulate"
        raise ProtectError(msg)
    models = [*game.wagers, *(variants or {}).values()]
    names = [w.name for w in game.wagers] + list(variants or {})
    unknown = [c.wager for c in counts if c.wager not in names]
    if unknown:
        msg = f"no wager {unknown[0]!r} in {game.game}"
        raise ProtectError(msg)
    tags = np.array([tag_codes(c.tags) for c in counts], dtype=np.int64)
    initial = np.array([c.start for c in counts], dtype=np.int64)
    wager_of = np.array([names.index(c.wager) for c in counts], np.int64)
    kinds = np.array([w.kind for w in models], dtype=np.int64)
    nets = np.array([w.nets for w in models], dtype=np.int64)
    started = time.perf_counter()
    tasks: list[_Task] = []
    for i, first in enumerate(range(0, shoes, CHUNK_SHOES)):
        size = min(CHUNK_SHOES, shoes - first)
        tasks.append(
            (
                game.code,
                game.decks,
                game.cover,
                tags,
                initial,
                wager_of,
                kinds,
                nets,
                size,
                seed,
                (i,),
                record_rows if i == 0 else 0,
                record_trigger - pk.LOW,
            )
        )
    if workers > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            results = list(pool.map(_chunk, tasks))
    else:
        results = [_chunk(t) for t in tasks]
    run = CountRun(game=game, counts=list(counts), seed=seed)
    total = [
        np.zeros((len(counts), pk.BUCKETS), dtype=np.int64) for _ in range(5)
    ]
    for done, arrays, _ in results:
        run.shoes += done
        for acc, part in zip(total, arrays, strict=True):
            acc += part
    (run.hands, run.sums, run.squares, run.shoe_sums, run.shoe_squares) = total
    run.record = results[0][2]
    run.seconds = time.perf_counter() - started
    return run


def trigger_row(run: CountRun, k: int, trigger: int) -> TriggerRow:
    """Jacobson's figures of count ``k`` betting at true count >= trigger."""
    unit = run.game.unit
    b = min(max(trigger - pk.LOW, 0), pk.BUCKETS - 1)
    hands = int(run.hands[k].sum())
    bets = int(run.hands[k, b:].sum())
    won = int(run.sums[k, b:].sum()) / unit
    squares = int(run.squares[k, b:].sum()) / (unit * unit)
    per_hand = won / hands if hands else 0.0
    var_hand = squares / hands - per_hand**2 if hands else 0.0
    sd_hand = math.sqrt(max(var_hand, 0.0))
    edge = won / bets if bets else 0.0
    var_bet = squares / bets - edge**2 if bets else 0.0
    shoes = run.shoes
    shoe_mean = int(run.shoe_sums[k, b]) / unit / shoes
    shoe_var = (
        int(run.shoe_squares[k, b]) / (unit * unit) / shoes - shoe_mean**2
    )
    shoe_sd = math.sqrt(max(shoe_var, 0.0))
    hands_per_shoe = hands / shoes
    se_shoe = shoe_sd / math.sqrt(shoes)
    return {
        "trigger": trigger,
        "bet_frequency": bets / hands if hands else 0.0,
        "bets": bets,
        "edge_when_betting": edge,
        "edge_ci95": 1.96 * math.sqrt(max(var_bet, 0.0) / bets)
        if bets
        else 0.0,
        "units_per_100_hands": 100 * per_hand,
        "units_per_100_hands_ci95": 1.96 * 100 * se_shoe / hands_per_shoe,
        "units_per_shoe": shoe_mean,
        "units_per_shoe_ci95": 1.96 * se_shoe,
        "sd_per_hand": sd_hand,
        "sd_per_100_hands": 10 * sd_hand,
        "sd_per_shoe": shoe_sd,
        "di": 1000 * per_hand / sd_hand if sd_hand > 0 else 0.0,
        "hands_per_shoe": hands_per_shoe,
    }


def trigger_rows(
    run: CountRun, k: int, low: int = 0, high: int = 20
) -> list[TriggerRow]:
    """The figures at every trigger ``low..high`` with at least 30 bets."""
    rows = [trigger_row(run, k, t) for t in range(low, high + 1)]
    return [r for r in rows if r["bets"] >= 30]


def best_row(run: CountRun, k: int) -> TriggerRow | None:
    """The trigger with the most units per 100 hands (None: no bets)."""
    rows = trigger_rows(run, k, -10, 25)
    if not rows:
        return None
    return max(rows, key=lambda r: r["units_per_100_hands"])
