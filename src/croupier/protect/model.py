"""Each wager as the protection analyses see it.

An exact EV from any composition of the shoe, and integer nets per
outcome for the kernels. A *composition* counts the 52 card kinds
(index = card code, see
:attr:`croupier.cards.Card.code`). The exact EV of the next coup from a
composition is the exact analyzer of :mod:`croupier.odds` run on that
composition (the drawing rules and settlements are the analyzers' own):
for the Midibaccarat cell wagers and the 21 Baccarat main wagers the
composition is folded to point values, for Perfect Pairs and the Bonus
every card kind counts. Pai gow is dealt from one freshly shuffled deck
each round and has no composition to speak of between rounds; its
wagers are modelled only for the effects of removal
(:mod:`croupier.protect.eor`).

>>> from croupier.games.midibaccarat.rules import CommissionFreeRules
>>> game = game_model(CommissionFreeRules())
>>> [w.name for w in game.wagers]  # doctest: +NORMALIZE_WHITESPACE
['player', 'banker', 'tie', 'perfect_pairs_player',
 'perfect_pairs_banker', 'dragon7', 'panda8']
>>> round(float(game.wager("dragon7").ev(game.full)), 6)
-0.076113
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.errors import CroupierError
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import BaccaratRules, Wager
from croupier.odds import leaf
from croupier.odds.baccarat import kernels as bk
from croupier.odds.baccarat.model import (
    cell_event,
    cells,
    game_name,
    pair_event,
    stake_unit,
    wagers_of,
)
from croupier.odds.baccarat21 import kernels as b21k
from croupier.odds.baccarat21 import model as b21
from croupier.odds.baccarat21.simulation import cover_position
from croupier.protect import _kernels as pk
from croupier.rules import GameRules

__all__ = [
    "BACCARAT",
    "BACCARAT21",
    "CELL",
    "PAIR_BANKER",
    "PAIR_PLAYER",
    "RANKS",
    "GameModel",
    "ProtectError",
    "WagerModel",
    "card_name",
    "game_model",
    "tables",
]

IntArray = np.ndarray[tuple[int, ...], np.dtype[np.int64]]

BACCARAT, BACCARAT21 = 0, 1
"""Kernel game codes."""
CELL, PAIR_PLAYER, PAIR_BANKER = 0, 1, 2
"""Which outcome code of a coup a wager settles on (kernel ``kinds``)."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
"""Rank names in code order (code // 4)."""
_SUITS = "cdhs"
OUTCOMES = 1024
"""Columns of the kernels' net tables."""


class ProtectError(CroupierError):
    """A protection analysis cannot be run as asked."""


def card_name(code: int) -> str:
    """``"Ah"`` for a card code (``"Jk"`` for the joker, 52)."""
    if code == 52:
        return "Jk"
    return RANKS[code // 4] + _SUITS[code % 4]


@dataclass(frozen=True, slots=True)
class WagerModel:
    """One wager: its exact EV from a composition, and its kernel nets."""

    name: str
    """The wager's name, as the rules and scenarios spell it."""
    suits: bool
    """Whether suits matter (Perfect Pairs, the Bonus)."""
    ev: Callable[[IntArray], Fraction]
    """Exact EV per unit of the next coup from 52 card counts."""
    kind: int
    """:data:`CELL`, :data:`PAIR_PLAYER` or :data:`PAIR_BANKER`."""
    nets: tuple[int, ...]
    """Net per outcome code, in stake units (length :data:`OUTCOMES`)."""
    pair: bool = False
    """A pair wager (point 3's perfect play applies)."""


@dataclass(frozen=True, slots=True)
class GameModel:
    """A baccarat-family game's wagers and shoe for the kernels."""

    game: str
    """The registry name."""
    code: int
    """:data:`BACCARAT` or :data:`BACCARAT21`."""
    rules: GameRules
    """The Rules Submission."""
    decks: int
    """Decks in the shoe."""
    unit: int
    """The stake on which every net is whole."""
    wagers: tuple[WagerModel, ...]
    """Every wager the rules offer."""
    cover: int
    """The coup that takes card index ``cover`` is a shoe's last."""

    @property
    def size(self) -> int:
        """Cards in the shoe."""
        return 52 * self.decks

    @property
    def full(self) -> IntArray:
        """The full shoe's composition."""
        return np.full(52, self.decks, dtype=np.int64)

    def wager(self, name: str) -> WagerModel:
        """The wager called ``name`` (:class:`ProtectError` if none)."""
        for wager in self.wagers:
            if wager.name == name:
                return wager
        offered = ", ".join(w.name for w in self.wagers)
        msg = f"{self.game} offers no wager {name!r} (offered: {offered})"
        raise ProtectError(msg)

    def with_cover(self, cover: int) -> GameModel:
        """The same game with the shoe's last coup at card ``cover``."""
        if not 0 < cover < self.size - 6:
            msg = (
                f"a cut card {self.size - cover} cards from the end does "
                f"not fit a {self.size}-card shoe"
            )
            raise ProtectError(msg)
        return GameModel(
            self.game,
            self.code,
            self.rules,
            self.decks,
            self.unit,
            self.wagers,
            cover,
        )


def _points(counts: IntArray, table: IntArray, size: int) -> IntArray:
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, table, counts)
    return out


def _ratio(weights: list[int], nets: list[int], unit: int) -> Fraction:
    total = sum(weights)
    if total == 0:
        return Fraction(0)
    value = sum(w * n for w, n in zip(weights, nets, strict=True))
    return Fraction(value, total * unit)


def _baccarat(rules: BaccaratRules) -> GameModel:
    unit = stake_unit(rules)
    all_cells = list(cells())
    index = [
        ((pc * 10 + bc) * 2 + dp) * 2 + db for pc, bc, dp, db in all_cells
    ]
    wagers: list[WagerModel] = []
    for wager in wagers_of(rules):
        if wager in (Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER):
            pays = [int(pair_event(rules, k).net * unit) for k in range(4)]
            kind = (
                PAIR_PLAYER
                if wager is Wager.PERFECT_PAIRS_PLAYER
                else PAIR_BANKER
            )
            wagers.append(
                WagerModel(
                    str(wager),
                    True,
                    _pair_ev(pays, unit),
                    kind,
                    tuple(pays + [0] * (OUTCOMES - 4)),
                    pair=True,
                )
            )
            continue
        nets = [0] * OUTCOMES
        cell_nets = []
        for cell, code in zip(all_cells, index, strict=True):
            net = int(cell_event(rules, wager, cell).net * unit)
            nets[code] = net
            cell_nets.append(net)
        wagers.append(
            WagerModel(
                str(wager), False, _cell_ev(cell_nets, unit), CELL, tuple(nets)
            )
        )
    return GameModel(
        game_name(rules),
        BACCARAT,
        rules,
        rules.decks,
        unit,
        tuple(wagers),
        52 * rules.decks - rules.second_cover_from_bottom,
    )


def _cell_ev(nets: list[int], unit: int) -> Callable[[IntArray], Fraction]:
    def ev(counts: IntArray) -> Fraction:
        values = _points(counts, leaf.POINT, 10)
        table = bk.enumerate_cells(
            values, leaf.PLAYER_DRAWS, leaf.BANKER_STOOD, leaf.BANKER_AFTER
        )
        return _ratio(table.reshape(-1).tolist(), nets, unit)

    return ev


def _pair_ev(pays: list[int], unit: int) -> Callable[[IntArray], Fraction]:
    def ev(counts: IntArray) -> Fraction:
        weights = pk.pair_weights(np.asarray(counts, dtype=np.int64))
        return _ratio([int(w) for w in weights], pays, unit)

    return ev


def _baccarat21(rules: Baccarat21Rules) -> GameModel:
    unit = b21.stake_unit(rules)
    wagers: list[WagerModel] = []
    for wager in b21.MAIN_WAGERS:
        nets = [0] * OUTCOMES
        for pt in range(b21k.MAX_TOTAL):
            for bt in range(b21k.MAX_TOTAL):
                event = b21.main_event(rules, wager, pt, bt)
                nets[pt * 32 + bt] = int(event.net * unit)
        wagers.append(
            WagerModel(
                str(wager), False, _totals_ev(nets, unit), CELL, tuple(nets)
            )
        )
    pays = [int(b21.bonus_event(rules, m).net * unit) for m in range(64)]
    for wager, kind in zip(
        b21.BONUS_WAGERS, (PAIR_PLAYER, PAIR_BANKER), strict=True
    ):
        wagers.append(
            WagerModel(
                str(wager),
                True,
                _bonus_ev(pays, unit),
                kind,
                tuple(pays + [0] * (OUTCOMES - 64)),
                pair=True,
            )
        )
    return GameModel(
        b21.GAME,
        BACCARAT21,
        rules,
        rules.decks,
        unit,
        tuple(wagers),
        cover_position(rules),
    )


def _totals_ev(nets: list[int], unit: int) -> Callable[[IntArray], Fraction]:
    def ev(counts: IntArray) -> Fraction:
        values = _points(counts, leaf.VALUE, 11)
        table = b21k.enumerate_totals(values)
        return _ratio(table.reshape(-1).tolist(), nets, unit)

    return ev


def _bonus_ev(pays: list[int], unit: int) -> Callable[[IntArray], Fraction]:
    def ev(counts: IntArray) -> Fraction:
        weights = pk.bonus21_weights(
            np.asarray(counts, dtype=np.int64), leaf.VALUE
        )
        return _ratio(weights.tolist(), pays, unit)

    return ev


def tables() -> tuple[
    IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray
]:
    """The leaf tables the kernels read (:mod:`croupier.odds.leaf`).

    Point, pair kind, Player draws, Banker draws (stood; after a third
    card), burn and blackjack value.
    """
    return (
        leaf.POINT,
        leaf.PAIR_KIND,
        leaf.PLAYER_DRAWS,
        leaf.BANKER_STOOD,
        leaf.BANKER_AFTER,
        leaf.BURN,
        leaf.VALUE,
    )


def game_model(rules: GameRules) -> GameModel:
    """The model of a baccarat-family game (:class:`ProtectError` else)."""
    if isinstance(rules, BaccaratRules):
        return _baccarat(rules)
    if isinstance(rules, Baccarat21Rules):
        return _baccarat21(rules)
    msg = f"no shoe model for {type(rules).__name__}"
    raise ProtectError(msg)
