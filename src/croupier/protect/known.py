"""Known cards and edge sorting (issue 16 point 4), exact.

For Midibaccarat (629a), commission-free Midibaccarat (629b) and 21
Baccarat (681a.7) under any Rules Submission: the player's best edge
when some of the coup's cards are known before wagering closes, by what
is known:

* the first ``k`` cards' ranks (:func:`first_cards`);
* the rank of one card position 1-6 (:func:`position`);
* edge sorting: only the group of each of the first ``k`` cards, for a
  split of the card classes into two groups (:func:`edge_sort`), and
  the best such split (:func:`best_sort`).

**Conventions** (D50). The cards of a coup are numbered in the order
they leave the shoe: 1 Player, 2 Banker, 3 Player, 4 Banker, then the
third cards in drawing order (5 is the Player's third card when the
Player draws, else the Banker's; 6 the Banker's after a Player third
card). Cards 5 and 6 are the fifth and sixth cards out of the shoe
whether the coup uses them or not. The shoe is full (a fresh shoe
after the burn, whose cards are unseen). The *edge* is per coup: the
player bets one unit on the wager of highest expectation given what he
knows when that expectation is positive, and nothing otherwise; the
*edge when betting* divides it by the frequency of betting. For a
single wager, the same with that wager only. The best wager is chosen
among the wagers settled on the coup's cells (Player, Banker, Tie,
Dragon 7, Panda 8); a Perfect Pairs or 21 Baccarat Bonus Wager has its
own figure (its outcome needs ranks, not values, and a player may bet
it beside a main wager). Ranks of equal value are one class for the
cell wagers (a 10 and a king play the same), so a split is a split of
the ten classes (511 splits), and of the 13 ranks for the side wagers.

Every figure is an exact fraction of ordered card sequences
(:mod:`croupier.protect._known_kernels`, :mod:`._known_pairs`), except
the Bonus Wagers' (float64 sums, :mod:`._known_bonus`). Reproduced
(tests): punto banco, 8 decks, Banker 19:20, Tie 8:1: knowing the first
card (or the third), or only its group {6, 7, 8, 9} / the rest, gives
6.765 %; a first card of 9 gives the Player Wager +21.53 %; the four
initial cards sorted {6-9} / the rest give 20.928 %, and the best
four-card split 30.291 %.

>>> from croupier.games.midibaccarat.rules import MidibaccaratRules
>>> result = first_cards(coup_model(MidibaccaratRules()), 1)
>>> f"{float(result.edge):.3%}"
'6.765%'
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import (
    BaccaratRules,
)
from croupier.games.midibaccarat.rules import Wager as MidiWager
from croupier.odds.baccarat import kernels as bkernels
from croupier.odds.baccarat import model as bmodel
from croupier.odds.baccarat.shoe import IntArray
from croupier.odds.baccarat21 import model as b21model
from croupier.protect._known_bonus import (
    bonus_sequences,
    hand_evs,
    split_sums_float,
)
from croupier.protect._known_kernels import (
    B21_TOTALS,
    CLASSES,
    POSITIONS,
    b21_sequences,
    baccarat_sequences,
    split_sums,
)
from croupier.protect._known_pairs import (
    HAND_POSITIONS,
    RANKS,
    pair_net,
    pair_sequences,
)
from croupier.protect._known_report import findings, markdown
from croupier.protect._known_shapes import (
    Bonus,
    CoupModel,
    KnownEdge,
    Pairs,
    SortSplit,
)
from croupier.protect.base import Section
from croupier.rules import GameRules

__all__ = [
    "GAMES",
    "CoupModel",
    "KnownEdge",
    "best_sort",
    "conditional_evs",
    "coup_model",
    "edge_sort",
    "first_cards",
    "full_counts",
    "position",
    "sections",
]

GAMES = ("midibaccarat", "midibaccarat-commission-free", "21-baccarat")
"""The games this analysis covers."""
MIDI_CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
"""Midibaccarat classes: the baccarat value (0 = 10, J, Q, K)."""
B21_CLASSES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
"""21 Baccarat classes: the blackjack value (10 = 10, J, Q, K)."""
RANK_LABELS = (
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
)  # fmt: skip
"""The 13 ranks, for the Perfect Pairs splits."""
_HIGH = frozenset({"6", "7", "8", "9"})
_WORD = {1: "first card", 2: "first two cards"}


# --------------------------------------------------------------- models


def full_counts(game: str, decks: int) -> tuple[int, ...]:
    """Cards of each class in a full shoe of ``decks`` decks.

    >>> full_counts("midibaccarat", 1)
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    >>> full_counts("21-baccarat", 1)[-1]
    16
    """
    ten = 9 if game == "21-baccarat" else 0
    return tuple(16 * decks if v == ten else 4 * decks for v in range(CLASSES))


@lru_cache(maxsize=8)
def _midi_sequences(counts: tuple[int, ...]) -> tuple[IntArray, IntArray]:
    return baccarat_sequences(
        np.array(counts, dtype=np.int64),
        bkernels.PLAYER,
        bkernels.BANKER_STOOD,
        bkernels.BANKER_AFTER,
    )


@lru_cache(maxsize=8)
def _b21_sequences(counts: tuple[int, ...]) -> tuple[IntArray, IntArray]:
    return b21_sequences(np.array(counts, dtype=np.int64))


def _midi_cell(index: int) -> tuple[int, int, int, int]:
    return index // 40, index // 4 % 10, index // 2 % 2, index % 2


def _scaled(nets: list[Fraction], unit: int) -> IntArray:
    scaled = [n * unit for n in nets]
    if any(s.denominator != 1 for s in scaled):
        msg = "the stake unit does not clear every net"
        raise ValueError(msg)
    return np.array([int(s) for s in scaled], dtype=np.int64)


def _build(
    game: str,
    classes: tuple[str, ...],
    wagers: tuple[str, ...],
    unit: int,
    seq: tuple[IntArray, IntArray],
    nets: dict[str, IntArray],
    pairs: Pairs | None,
    bonus: Bonus | None = None,
) -> CoupModel:
    weights, cells = seq
    peak = max(int(abs(n).max()) for n in nets.values())
    if int(weights.sum()) * peak >= 2**62:
        msg = f"{game}: the exact sums would overflow 64-bit integers"
        raise ValueError(msg)
    shape = (CLASSES,) * POSITIONS
    sums = np.stack([weights * nets[w][cells] for w in wagers])
    return CoupModel(
        game=game,
        classes=classes,
        wagers=wagers,
        unit=unit,
        weights=weights.reshape(shape),
        sums=sums.reshape((len(wagers), *shape)),
        pairs=pairs,
        bonus=bonus,
    )


@lru_cache(maxsize=4)
def _bonus_model(rules: Baccarat21Rules) -> Bonus:
    two, three = hand_evs(
        rules.decks, lambda mask: b21model.bonus_event(rules, mask).net
    )
    counts = np.full(RANKS, 4 * rules.decks, dtype=np.int64)
    prefix, position, full = bonus_sequences(counts, two, three)
    return Bonus(
        wagers=tuple(str(w) for w in b21model.BONUS_WAGERS),
        total=float(prefix[:, 0].sum()),
        prefix=prefix.reshape((RANKS,) * 5 + (3,)),
        position=position,
        full=full,
    )


def _bonus_tables(bonus: Bonus, k: int) -> np.ndarray:
    """``(3, 13**k)``: weight and the two EV sums by the first k ranks."""
    drop = tuple(range(k, 5))
    table = bonus.prefix.sum(axis=drop) if drop else bonus.prefix
    return table.reshape(-1, 3).T


def _bonus_gain(bonus: Bonus, sums: np.ndarray) -> dict[str, float]:
    return {
        w: float(np.maximum(sums[i + 1], 0).sum()) / bonus.total
        for i, w in enumerate(bonus.wagers)
    }


def _bonus_first(bonus: Bonus, k: int) -> dict[str, float]:
    if k == POSITIONS:
        return {
            w: float(bonus.full[i]) / bonus.total
            for i, w in enumerate(bonus.wagers)
        }
    return _bonus_gain(bonus, _bonus_tables(bonus, k))


def _bonus_sorted(bonus: Bonus, k: int, masks: IntArray) -> np.ndarray:
    """``(masks, 2)``: each split's per-coup gain of the two wagers."""
    out = split_sums_float(
        _bonus_tables(bonus, min(k, 5)), RANKS, min(k, 5), masks
    )
    gains: np.ndarray = np.maximum(out[:, 1:], 0).sum(axis=2)
    return gains / bonus.total


def _pairs_model(rules: BaccaratRules) -> Pairs | None:
    if not rules.perfect_pairs_offered:
        return None
    nets = tuple(bmodel.pair_event(rules, kind).net for kind in (1, 2, 3))
    given = pair_net(rules.decks, (nets[0], nets[1], nets[2]))
    weights, digits = pair_sequences(rules.decks)
    wagers = (
        str(MidiWager.PERFECT_PAIRS_PLAYER),
        str(MidiWager.PERFECT_PAIRS_BANKER),
    )
    rows = []
    for hand in ("player", "banker"):
        i, j = HAND_POSITIONS[hand]
        paired = digits[:, i] == digits[:, j]
        rows.append(
            np.where(
                paired,
                weights * given.numerator,
                -weights * given.denominator,
            )
        )
    shape = (RANKS,) * 4
    return Pairs(
        wagers=wagers,
        scale=given.denominator,
        weights=weights.reshape(shape),
        sums=np.stack(rows).reshape((2, *shape)),
    )


def coup_model(
    rules: GameRules, counts: tuple[int, ...] | None = None
) -> CoupModel:
    """The exact six-card model of a baccarat-family Rules Submission.

    ``counts``: cards of each class left in the shoe (default: the full
    shoe, :func:`full_counts`); at least six cards. The Perfect Pairs
    tables always assume the full shoe.
    """
    if counts is not None and (
        len(counts) != CLASSES or min(counts) < 0 or sum(counts) < POSITIONS
    ):
        msg = f"counts must be {CLASSES} class counts of 6+ cards: {counts}"
        raise ValueError(msg)
    if isinstance(rules, BaccaratRules):
        game = bmodel.game_name(rules)
        shoe = counts or full_counts(game, rules.decks)
        cell_wagers = tuple(
            w
            for w in bmodel.wagers_of(rules)
            if w
            not in (
                MidiWager.PERFECT_PAIRS_PLAYER,
                MidiWager.PERFECT_PAIRS_BANKER,
            )
        )
        unit = bmodel.stake_unit(rules)
        nets = {
            str(w): _scaled(
                [
                    bmodel.cell_event(rules, w, _midi_cell(c)).net
                    for c in range(400)
                ],
                unit,
            )
            for w in cell_wagers
        }
        return _build(
            game,
            MIDI_CLASSES,
            tuple(str(w) for w in cell_wagers),
            unit,
            _midi_sequences(shoe),
            nets,
            _pairs_model(rules),
        )
    if isinstance(rules, Baccarat21Rules):
        shoe = counts or full_counts(b21model.GAME, rules.decks)
        unit = b21model.stake_unit(rules)
        size = B21_TOTALS * B21_TOTALS
        nets = {
            str(w): _scaled(
                [
                    b21model.main_event(
                        rules, w, c // B21_TOTALS, c % B21_TOTALS
                    ).net
                    for c in range(size)
                ],
                unit,
            )
            for w in b21model.MAIN_WAGERS
        }
        return _build(
            b21model.GAME,
            B21_CLASSES,
            tuple(str(w) for w in b21model.MAIN_WAGERS),
            unit,
            _b21_sequences(shoe),
            nets,
            None,
            _bonus_model(rules),
        )
    msg = f"known cards: no baccarat-family rules in {type(rules).__name__}"
    raise TypeError(msg)


# -------------------------------------------------------------- figures


def _keep(array: IntArray, axes: tuple[int, ...], lead: int) -> IntArray:
    """Sum ``array`` over every position axis not in ``axes``."""
    n_pos = array.ndim - lead
    drop = tuple(lead + a for a in range(n_pos) if a not in axes)
    return array.sum(axis=drop) if drop else array


def _edge(
    sums: IntArray,
    weights: IntArray,
    unit: int,
    total: int,
    wagers: tuple[str, ...],
) -> tuple[Fraction, Fraction, dict[str, Fraction | float]]:
    flat = sums.reshape(len(wagers), -1)
    best = flat.max(axis=0)
    positive = best > 0
    edge = Fraction(int(best[positive].sum()), unit * total)
    freq = Fraction(int(weights.reshape(-1)[positive].sum()), total)
    by: dict[str, Fraction | float] = {
        w: Fraction(int(np.maximum(flat[i], 0).sum()), unit * total)
        for i, w in enumerate(wagers)
    }
    return edge, freq, by


def _pair_by(pairs: Pairs, axes: tuple[int, ...]) -> dict[str, Fraction]:
    sums = _keep(pairs.sums, axes, 1).reshape(2, -1)
    total = int(pairs.weights.sum())
    return {
        w: Fraction(int(np.maximum(sums[i], 0).sum()), pairs.scale * total)
        for i, w in enumerate(pairs.wagers)
    }


def _known(model: CoupModel, axes: tuple[int, ...], label: str) -> KnownEdge:
    edge, freq, by = _edge(
        _keep(model.sums, axes, 1),
        _keep(model.weights, axes, 0),
        model.unit,
        model.total,
        model.wagers,
    )
    if model.pairs is not None:
        by.update(_pair_by(model.pairs, axes))
    return KnownEdge(label, edge, freq, by)


def first_cards(model: CoupModel, k: int) -> KnownEdge:
    """The edge when the first ``k`` cards' ranks (1-6) are known.

    For Perfect Pairs only positions 1-4 matter: ``k`` above 4 is 4.
    """
    _check(k, "k")
    label = _WORD.get(k, f"first {k} cards")
    edge = _known(model, tuple(range(k)), f"{label} known")
    if model.pairs is not None and k > 4:
        edge.by_wager.update(_pair_by(model.pairs, (0, 1, 2, 3)))
    if model.bonus is not None:
        edge.by_wager.update(_bonus_first(model.bonus, k))
    return edge


def position(model: CoupModel, p: int) -> KnownEdge:
    """The edge when only the rank of card ``p`` (1-6) is known."""
    _check(p, "position")
    edge = _known(model, (p - 1,), f"card {p} known")
    if model.pairs is not None and p > 4:
        # a card outside both hands: positions 2 (Player) and 1 (Banker)
        player = _pair_by(model.pairs, (1,))
        banker = _pair_by(model.pairs, (0,))
        pp, pb = model.pairs.wagers
        edge.by_wager[pp] = player[pp]
        edge.by_wager[pb] = banker[pb]
    if model.bonus is not None:
        edge.by_wager.update(
            _bonus_gain(model.bonus, model.bonus.position[p - 1].T)
        )
    return edge


def _check(value: int, name: str) -> None:
    if not 1 <= value <= POSITIONS:
        msg = f"{name} must be 1-{POSITIONS}, not {value}"
        raise ValueError(msg)


def conditional_evs(model: CoupModel, p: int) -> dict[str, dict[str, float]]:
    """Each cell wager's expectation given the class of card ``p``.

    >>> from croupier.games.midibaccarat.rules import MidibaccaratRules
    >>> evs = conditional_evs(coup_model(MidibaccaratRules()), 1)
    >>> round(100 * evs["9"]["player"], 2)
    21.53
    """
    _check(p, "position")
    sums = _keep(model.sums, (p - 1,), 1)
    weights = _keep(model.weights, (p - 1,), 0)
    return {
        label: {
            w: int(sums[i, v]) / (model.unit * int(weights[v]))
            for i, w in enumerate(model.wagers)
        }
        for v, label in enumerate(model.classes)
        if weights[v] > 0
    }


def _groups(
    labels: tuple[str, ...], mask: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    one = tuple(x for v, x in enumerate(labels) if mask >> v & 1)
    zero = tuple(x for v, x in enumerate(labels) if not mask >> v & 1)
    return one, zero


def _mask(labels: tuple[str, ...], group: frozenset[str]) -> int:
    unknown = group - set(labels)
    if unknown:
        msg = f"no card class {sorted(unknown)} (classes: {labels})"
        raise ValueError(msg)
    return sum(1 << v for v, x in enumerate(labels) if x in group)


def _sorted_tables(model: CoupModel, k: int) -> IntArray:
    axes = tuple(range(k))
    sums = _keep(model.sums, axes, 1).reshape(len(model.wagers), -1)
    weights = _keep(model.weights, axes, 0).reshape(1, -1)
    return np.concatenate([sums, weights])


def _sort_edge(
    model: CoupModel, k: int, out: IntArray, mask: int
) -> KnownEdge:
    n = len(model.wagers)
    edge, freq, by = _edge(
        out[:n], out[n], model.unit, model.total, model.wagers
    )
    groups = _groups(model.classes, mask)
    label = _WORD.get(k, f"first {k} cards")
    text = " / ".join("{" + ", ".join(g) + "}" for g in groups)
    return KnownEdge(f"{label} sorted {text}", edge, freq, by, groups)


def edge_sort(
    model: CoupModel, k: int, group: frozenset[str] | None = None
) -> KnownEdge:
    """The edge when only the group of each of the first ``k`` cards is known.

    ``group``: the class labels of one group (default: 6, 7, 8, 9 in
    Midibaccarat, the high group of the edge-sorting literature). The
    Perfect Pairs figures use the ranks of these classes (a class 0 of
    Midibaccarat is the four ranks 10-K).
    """
    _check(k, "k")
    chosen = _HIGH if group is None else group
    mask = _mask(model.classes, chosen)
    out = split_sums(
        _sorted_tables(model, k), CLASSES, k, np.array([mask], np.int64)
    )[0]
    edge = _sort_edge(model, k, out, mask)
    _add_sorted(model, k, _rank_mask(model, mask), edge)
    return edge


def _add_sorted(
    model: CoupModel, k: int, rank_mask: int, edge: KnownEdge
) -> None:
    """The rank-level wagers' figures under the same split."""
    if model.pairs is not None:
        edge.by_wager.update(_pair_sorted(model, k, rank_mask))
    if model.bonus is not None:
        gains = _bonus_sorted(
            model.bonus, k, np.array([rank_mask], dtype=np.int64)
        )[0]
        for i, w in enumerate(model.bonus.wagers):
            edge.by_wager[w] = float(gains[i])


def _rank_mask(model: CoupModel, mask: int) -> int:
    rank_mask = 0
    for r in range(len(RANK_LABELS)):
        midi = model.classes[0] == "0"
        value = min(r + 1, 10) % 10 if midi else min(r, 9)
        if mask >> value & 1:
            rank_mask |= 1 << r
    return rank_mask


def _pair_sorted(
    model: CoupModel, k: int, rank_mask: int
) -> dict[str, Fraction]:
    pairs = model.pairs
    if pairs is None:
        return {}
    out = _pair_split(pairs, k, np.array([rank_mask], np.int64))[0]
    total = int(pairs.weights.sum())
    return {
        w: Fraction(int(np.maximum(out[i], 0).sum()), pairs.scale * total)
        for i, w in enumerate(pairs.wagers)
    }


def _pair_split(pairs: Pairs, k: int, masks: IntArray) -> IntArray:
    k = min(k, 4)
    axes = tuple(range(k))
    tables = _keep(pairs.sums, axes, 1).reshape(2, -1)
    return split_sums(tables, RANKS, k, masks)


def best_sort(
    model: CoupModel, k: int
) -> tuple[KnownEdge, dict[str, SortSplit]]:
    """The split of the classes into two groups best for an edge sort.

    Returns the best split for the best cell wager (as
    :func:`edge_sort`), and per wager its own best split: ``{wager:
    {"edge": Fraction, "groups": (...)}}`` (Perfect Pairs over the 13
    ranks).
    """
    _check(k, "k")
    masks = np.arange(1, 1 << (CLASSES - 1), dtype=np.int64)
    out = split_sums(_sorted_tables(model, k), CLASSES, k, masks)
    n = len(model.wagers)
    per_split = np.where(out[:, :n].max(axis=1) > 0, out[:, :n].max(axis=1), 0)
    top = int(per_split.sum(axis=1).argmax())
    best = _sort_edge(model, k, out[top], int(masks[top]))
    _add_sorted(model, k, _rank_mask(model, int(masks[top])), best)
    per: dict[str, SortSplit] = {}
    total = model.total * model.unit
    for i, w in enumerate(model.wagers):
        gains = np.maximum(out[:, i], 0).sum(axis=1)
        j = int(gains.argmax())
        per[w] = {
            "edge": Fraction(int(gains[j]), total),
            "groups": _groups(model.classes, int(masks[j])),
        }
    if model.pairs is not None:
        pairs = model.pairs
        rmasks = np.arange(1, 1 << (RANKS - 1), dtype=np.int64)
        pout = _pair_split(pairs, k, rmasks)
        ptotal = int(pairs.weights.sum()) * pairs.scale
        for i, w in enumerate(pairs.wagers):
            gains = np.maximum(pout[:, i], 0).sum(axis=1)
            j = int(gains.argmax())
            per[w] = {
                "edge": Fraction(int(gains[j]), ptotal),
                "groups": _groups(RANK_LABELS, int(rmasks[j])),
            }
    if model.bonus is not None:
        rmasks = np.arange(1, 1 << (RANKS - 1), dtype=np.int64)
        bgains = _bonus_sorted(model.bonus, k, rmasks)
        for i, w in enumerate(model.bonus.wagers):
            j = int(bgains[:, i].argmax())
            per[w] = {
                "edge": float(bgains[j, i]),
                "groups": _groups(RANK_LABELS, int(rmasks[j])),
            }
    return best, per


# ------------------------------------------------------------- sections


def sections(game: str, wager: str | None, rules: GameRules) -> list[Section]:
    """The known-cards and edge-sorting section of a baccarat game.

    ``[]`` for other games and for wagers it does not know.
    """
    if game not in GAMES:
        return []
    model = coup_model(rules)
    every = list(model.wagers)
    if model.pairs is not None:
        every += list(model.pairs.wagers)
    if model.bonus is not None:
        every += list(model.bonus.wagers)
    if wager is not None and wager not in every:
        return []
    wagers = every if wager is None else [wager]
    first = [first_cards(model, k) for k in range(1, POSITIONS + 1)]
    single = [position(model, p) for p in range(1, POSITIONS + 1)]
    sort_ks = range(1, 5)
    default = frozenset({"6", "7", "8", "9"})
    sorts = [edge_sort(model, k, default) for k in sort_ks]
    best = [best_sort(model, k) for k in sort_ks]
    evs = conditional_evs(model, 1)
    data: dict[str, object] = {
        "conventions": "per coup, one unit on the best positive wager",
        "classes": list(model.classes),
        "wagers": wagers,
        "first_cards": [e.to_json() for e in first],
        "positions": [e.to_json() for e in single],
        "edge_sort": [e.to_json() for e in sorts],
        "best_sort": [
            {
                "best": b.to_json(),
                "by_wager": {
                    w: {
                        "edge": float(per[w]["edge"]),
                        "groups": [list(g) for g in per[w]["groups"]],
                    }
                    for w in wagers
                },
            }
            for b, per in best
        ],
        "card1_evs": evs,
    }
    return [
        Section(
            key="known",
            title="Known cards and edge sorting",
            data=data,
            markdown=markdown(model, wagers, first, single, sorts, best, evs),
            findings=findings(model, wagers, single[0], best[0][1]),
        )
    ]
