"""Issue 16 point 1: exact effects of removal, and their sum check.

Every EoR is compared with an independent derivation: a plain-Python
enumeration of the coup on the engine's own drawing rules
(:mod:`croupier.hands.baccarat`), the existing full-shoe enumerations
of the analyzers, and (pai gow) a second enumeration of the deck less
the joker. The published Dragon 7 count (Jacobson, Wizard of Odds,
2011: 4-7 count -1, 8 and 9 count +2) is the best level-2 count.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import (
    CommissionFreeRules,
    MidibaccaratRules,
)
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.hands.baccarat import banker_draws, player_draws
from croupier.hands.paigow_fast import (
    binomials,
    count_categories,
    five_card_table,
)
from croupier.odds.baccarat21 import kernels as b21k
from croupier.odds.leaf import VALUE
from croupier.protect import _kernels as pk
from croupier.protect.counts import best_tags
from croupier.protect.eor import _containing, game_eors, paigow_eors
from croupier.protect.model import game_model

_BY_VALUE = [
    Card.parse(c)
    for c in ("Ts", "As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s")
]


def _naive_cells(counts: list[int]) -> dict[tuple[int, int, int, int], int]:
    """Ordered six-card weights of every cell, in plain Python."""
    n = sum(counts)
    c = list(counts)
    out: dict[tuple[int, int, int, int], int] = {}

    def add(cell: tuple[int, int, int, int], weight: int) -> None:
        out[cell] = out.get(cell, 0) + weight

    def take(v: int) -> int:
        w = c[v]
        c[v] -= 1
        return w

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    if w4:
                        pc, bc = (p1 + p2) % 10, (b1 + b2) % 10
                        if pc >= 8 or bc >= 8:
                            add((pc, bc, 0, 0), w4 * (n - 4) * (n - 5))
                        elif player_draws(pc):
                            for p3 in range(10):
                                w5 = w4 * take(p3)
                                pc3 = (pc + p3) % 10
                                if not w5:
                                    pass
                                elif banker_draws(
                                    bc, player_third=_BY_VALUE[p3]
                                ):
                                    for b3 in range(10):
                                        add(
                                            (pc3, (bc + b3) % 10, 1, 1),
                                            w5 * c[b3],
                                        )
                                else:
                                    add((pc3, bc, 1, 0), w5 * (n - 5))
                                c[p3] += 1
                        elif banker_draws(bc, player_third=None):
                            for b3 in range(10):
                                add(
                                    (pc, (bc + b3) % 10, 0, 1),
                                    w4 * c[b3] * (n - 5),
                                )
                        else:
                            add((pc, bc, 0, 0), w4 * (n - 4) * (n - 5))
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out


def _dragon7_ev(cells: dict[tuple[int, int, int, int], int]) -> Fraction:
    win = sum(
        w for (pc, bc, _, db), w in cells.items() if db and bc == 7 and pc < 7
    )
    total = sum(cells.values())
    return Fraction(41 * win - total, total)


def _player_ev(cells: dict[tuple[int, int, int, int], int]) -> Fraction:
    win = sum(w for (pc, bc, _, _), w in cells.items() if pc > bc)
    lose = sum(w for (pc, bc, _, _), w in cells.items() if pc < bc)
    return Fraction(win - lose, sum(cells.values()))


def test_issue16_1_eor_sum_check_is_exactly_zero() -> None:
    for rules in (
        MidibaccaratRules(decks=6),
        CommissionFreeRules(),
        Baccarat21Rules(),
    ):
        for table in game_eors(game_model(rules)):
            assert table.sum_check == 0, table.wager
            assert any(v != 0 for v in table.by_rank.values()) or (
                table.wager.startswith("perfect_pairs")
            )


def test_issue16_1_eor_matches_a_plain_python_enumeration() -> None:
    game = game_model(CommissionFreeRules())
    tables = {t.wager: t for t in game_eors(game)}
    full = [128] + [32] * 9
    less_nine = list(full)
    less_nine[9] -= 1
    less_four = list(full)
    less_four[4] -= 1
    base = _naive_cells(full)
    nine = _naive_cells(less_nine)
    four = _naive_cells(less_four)
    assert tables["dragon7"].ev == _dragon7_ev(base)
    assert tables["dragon7"].by_rank["9"] == _dragon7_ev(nine) - _dragon7_ev(
        base
    )
    assert tables["player"].by_rank["4"] == _player_ev(four) - _player_ev(base)
    # the ten-valued ranks play alike
    assert len({tables["dragon7"].by_rank[r] for r in "TJQK"}) == 1


def test_issue16_1_published_dragon7_count_is_the_best_level_2() -> None:
    table = game_eors(game_model(CommissionFreeRules()), "dragon7")[0]
    count = best_tags(table, 2)
    expected = {
        "A": 0,
        "2": 0,
        "3": 0,
        "4": -1,
        "5": -1,
        "6": -1,
        "7": -1,
        "8": 2,
        "9": 2,
        "T": 0,
        "J": 0,
        "Q": 0,
        "K": 0,
    }
    assert count.tags == expected
    assert count.correlation > 0.96


def test_issue16_1_perfect_pairs_eors_per_suit_and_zero() -> None:
    table = game_eors(game_model(MidibaccaratRules()), "perfect_pairs_player")[
        0
    ]
    assert table.suits
    assert len(table.by_card) == 52
    assert table.suits_equal
    # every card alike and the sum exactly 0: each EoR is exactly 0,
    # checked against the closed form of the pair weights
    n = 416
    d = 8
    weights = [
        n * (n - 1) - 52 * d * (d - 1) - 52 * d * d - 104 * d * d,
        52 * d * (d - 1),
        52 * d * d,
        104 * d * d,
    ]
    ev = Fraction(
        -weights[0] + 25 * weights[1] + 12 * weights[2] + 6 * weights[3],
        n * (n - 1),
    )
    assert table.ev == ev
    assert set(table.by_card.values()) == {Fraction(0)}


def test_issue16_1_bonus_weights_match_the_full_shoe_enumeration() -> None:
    for decks in (2, 3):
        full = np.full(52, decks, dtype=np.int64)
        assert np.array_equal(
            pk.bonus21_weights(full, VALUE),
            b21k.enumerate_bonus(decks, VALUE),
        )
    tables = {t.wager: t for t in game_eors(game_model(Baccarat21Rules()))}
    bonus = tables["bonus_player"]
    assert bonus.suits
    assert bonus.suits_equal
    assert round(float(-bonus.ev), 6) == 0.060198


@pytest.mark.parametrize("wager", ["fortune_bonus"])
def test_issue16_1_paigow_eor_of_the_joker_by_a_second_enumeration(
    wager: str,
) -> None:
    table = paigow_eors(SixCardRules(), wager)[0]
    assert table.sum_check == 0
    assert table.suits_equal
    counts = count_categories(five_card_table(), binomials(), 52)
    containing = _containing()
    totals = [sum(row[k] for row in containing) // 6 for k in range(11)]
    assert [t - h for t, h in zip(totals, containing[52], strict=True)] == [
        int(x) for x in counts
    ]
    assert round(float(-table.ev), 6) == 0.081854
