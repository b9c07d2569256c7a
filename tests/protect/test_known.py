"""Issue 16 point 4: known cards and edge sorting, against independent
derivations (published figures, closed forms, brute enumeration of the
physical cards of a tiny shoe with the drawing rules written out here).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np
import pytest

from croupier.cards import Card
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import (
    CommissionFreeRules,
    MidibaccaratRules,
)
from croupier.hands.bonus21 import bonus_payout
from croupier.odds.baccarat import model as bmodel
from croupier.odds.baccarat21 import model as b21model
from croupier.protect import known
from croupier.protect._known_bonus import bonus_sequences, hand_evs
from croupier.protect.base import Section

PUNTO_BANCO = MidibaccaratRules()  # 8 decks, Banker 19:20, Tie 8:1


@pytest.fixture(scope="module")
def midi() -> known.CoupModel:
    assert PUNTO_BANCO.decks == 8
    assert str(PUNTO_BANCO.banker_payout) == "19:20"
    assert str(PUNTO_BANCO.tie_payout) == "8:1"
    return known.coup_model(PUNTO_BANCO)


def test_issue_16_4_first_card_known_6_765_percent(
    midi: known.CoupModel,
) -> None:
    """Jacobson, *Edge Sorting in Baccarat* (apheat.net, 2012): 6.765 %.

    The sorting groups {6, 7, 8, 9} / the rest lose nothing against the
    full rank of the first card: in each group the same wager (Player
    high, Banker low) is best for every rank. The third card (the
    Player's second) plays the same.
    """
    for edge in (
        known.first_cards(midi, 1),
        known.position(midi, 3),
        known.edge_sort(midi, 1, frozenset({"6", "7", "8", "9"})),
    ):
        assert round(100 * float(edge.edge), 3) == 6.765
        assert edge.bet_frequency == 1


def test_issue_16_4_first_card_nine_player_21_53_percent(
    midi: known.CoupModel,
) -> None:
    """excelpunks, *Baccarat 1st Card Advantage* (2018): a known first
    card of 9 gives the Player Wager +21.53 % (8 decks, 5 % commission);
    its table also has Banker -23.25 % and Tie -13.28 % on a 9."""
    evs = known.conditional_evs(midi, 1)["9"]
    assert round(100 * evs["player"], 2) == 21.53
    assert round(100 * evs["banker"], 2) == -23.25
    assert round(100 * evs["tie"], 2) == -13.28


def test_issue_16_4_four_sorted_cards_20_928_and_best_30_291(
    midi: known.CoupModel,
) -> None:
    """Jacobson: the four initial cards sorted {6-9} / the rest give
    20.928 % per coup (no bet when nothing is positive); *Edge Sorting in
    Baccarat, Update #1*: the best of the 1,023 four-card sorts (F.
    Roach) gives 30.291 %."""
    naive = known.edge_sort(midi, 4)
    assert round(100 * float(naive.edge), 3) == 20.928
    best, _ = known.best_sort(midi, 4)
    assert round(100 * float(best.edge), 3) == 30.291
    assert best.edge > naive.edge


@pytest.mark.parametrize(
    "rules",
    [MidibaccaratRules(), CommissionFreeRules(), Baccarat21Rules()],
    ids=["midibaccarat", "commission-free", "21-baccarat"],
)
def test_issue_16_4_nothing_known_is_the_exact_house_edge(
    rules: MidibaccaratRules | CommissionFreeRules | Baccarat21Rules,
) -> None:
    """Summed over every sequence, the model's nets are the analyzers'
    exact house edges (an independent enumeration of the coup)."""
    model = known.coup_model(rules)
    report = (
        b21model.analyze(rules)
        if isinstance(rules, Baccarat21Rules)
        else bmodel.analyze(rules)
    )
    for i, wager in enumerate(model.wagers):
        ev = Fraction(int(model.sums[i].sum()), model.unit * model.total)
        exact = report.wagers[wager].house_edge_exact
        assert exact is not None
        assert ev == -exact


def _baccarat_cell(cards: tuple[int, ...]) -> tuple[int, int]:
    """A coup of baccarat values by the third-card rules, written out."""
    p, b = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
    if p >= 8 or b >= 8:
        return p, b
    nxt = 4
    third = None
    if p <= 5:
        third = cards[nxt]
        nxt += 1
        p = (p + third) % 10
    if third is None:
        draws = b <= 5
    else:
        draws = b <= 2 or (
            (b == 3 and third != 8)
            or (b == 4 and third in (2, 3, 4, 5, 6, 7))
            or (b == 5 and third in (4, 5, 6, 7))
            or (b == 6 and third in (6, 7))
        )
    if draws:
        b = (b + cards[nxt]) % 10
    return p, b


def _b21_totals(cards: tuple[int, ...]) -> tuple[int, int]:
    """A 21 Baccarat coup (classes 0 = ace ... 9 = ten), written out."""

    def best(hand: list[int]) -> int:
        hard = sum(hand)
        return hard + 10 if 1 in hand and hard + 10 <= 21 else hard

    player = [cards[0] + 1, cards[2] + 1]
    banker = [cards[1] + 1, cards[3] + 1]
    if best(player) != 21 and best(banker) != 21:
        rest = list(cards[4:])
        if best(player) < 17:
            player.append(rest.pop(0) + 1)
        if best(banker) < 17:
            banker.append(rest.pop(0) + 1)
    return best(player), best(banker)


Net = Callable[[int, int], Fraction]


def _brute(
    values: list[int],
    net: Mapping[str, Net],
    cell: Callable[[tuple[int, ...]], tuple[int, int]],
) -> dict[str, dict[int, Fraction]]:
    """EV of each wager given the first card, over physical cards."""
    sums: dict[str, dict[int, Fraction]] = {w: {} for w in net}
    seen: dict[int, int] = {}
    for perm in itertools.permutations(range(len(values)), 6):
        cards = tuple(values[i] for i in perm)
        totals = cell(cards)
        seen[cards[0]] = seen.get(cards[0], 0) + 1
        for w, f in net.items():
            row = sums[w]
            row[cards[0]] = row.get(cards[0], Fraction(0)) + f(*totals)
    return {
        w: {v: s / seen[v] for v, s in row.items()} for w, row in sums.items()
    }


def test_issue_16_4_tiny_shoe_brute_force_midibaccarat() -> None:
    """Ten physical cards, every ordered deal of six: the first card's
    conditional EVs and the best one-card edge agree exactly."""
    values = [0, 0, 0, 1, 2, 4, 5, 6, 8, 9]
    counts = tuple(values.count(v) for v in range(10))
    model = known.coup_model(PUNTO_BANCO, counts)
    net: dict[str, Net] = {
        "player": lambda p, b: Fraction(p > b) - Fraction(p < b),
        "banker": lambda p, b: Fraction(19, 20) * (b > p) - (p > b),
        "tie": lambda p, b: Fraction(8) if p == b else Fraction(-1),
    }
    brute = _brute(values, net, _baccarat_cell)
    evs = known.conditional_evs(model, 1)
    for w in net:
        for v, ev in brute[w].items():
            assert evs[str(v)][w] == pytest.approx(float(ev), abs=1e-12)
    share = {v: Fraction(values.count(v), len(values)) for v in set(values)}
    expected = Fraction(0)
    for v in brute["tie"]:
        top = max(brute[w][v] for w in net)
        expected += share[v] * max(Fraction(0), top)
    assert known.first_cards(model, 1).edge == expected
    # edge sorting card 1: a group's EV is its cards' average; the best
    # of every split, searched here over the brute-force table
    best = Fraction(0)
    for mask in range(1, 1 << 9):
        edge = Fraction(0)
        for side in (True, False):
            group = [v for v in brute["tie"] if bool(mask >> v & 1) == side]
            if not group:
                continue
            weight = sum((share[v] for v in group), Fraction(0))
            top = max(
                sum((share[v] * brute[w][v] for v in group), Fraction(0))
                / weight
                for w in net
            )
            edge += weight * max(Fraction(0), top)
        if mask == sum(1 << v for v in (6, 8, 9)):
            sorted_edge = known.edge_sort(model, 1, frozenset({"6", "8", "9"}))
            assert sorted_edge.edge == edge
        best = max(best, edge)
    assert known.best_sort(model, 1)[0].edge == best


def test_issue_16_4_tiny_shoe_brute_force_21_baccarat() -> None:
    """The same for 21 Baccarat's totals (681a.7(g)), Player and Banker
    at 19:20 and the Tie at the default odds."""
    rules = Baccarat21Rules()
    values = [0, 0, 3, 5, 6, 7, 9, 9, 9, 9]
    counts = tuple(values.count(v) for v in range(10))
    model = known.coup_model(rules, counts)
    tie = rules.tie_payout.fraction

    def side(own: int, other: int) -> Fraction:
        win = own != other and (
            (own <= 21 < other)
            or (own <= 21 and other <= 21 and own > other)
            or (own > 21 and other > 21 and own < other)
        )
        if own == other:
            return Fraction(0)
        return Fraction(19, 20) if win else Fraction(-1)

    net: dict[str, Net] = {
        "player": lambda p, b: side(p, b),
        "banker": lambda p, b: side(b, p),
        "tie": lambda p, b: tie if p == b else Fraction(-1),
    }
    brute = _brute(values, net, _b21_totals)
    evs = known.conditional_evs(model, 1)
    for w in net:
        for v, ev in brute[w].items():
            assert evs[known.B21_CLASSES[v]][w] == pytest.approx(
                float(ev), abs=1e-12
            )


def test_issue_16_4_perfect_pairs_closed_form(midi: known.CoupModel) -> None:
    """Knowing the Player's two cards (cards 1 and 3) settles whether it
    pairs: the edge is P(pair) times the net given a pair, (d-1, d, 2d) /
    (4d-1) perfect, colored, mixed at 25, 12, 6 to 1. One known card
    moves nothing (every rank pairs alike) and the wager stays negative.
    """
    d = 8
    given_pair = Fraction(25 * (d - 1) + 12 * d + 6 * 2 * d, 4 * d - 1)
    p_pair = Fraction(4 * d - 1, 52 * d - 1)
    assert (
        known.first_cards(midi, 3).by_wager["perfect_pairs_player"]
        == p_pair * given_pair
    )
    assert known.first_cards(midi, 3).by_wager["perfect_pairs_banker"] == 0
    for p in range(1, 7):
        assert known.position(midi, p).by_wager["perfect_pairs_player"] == 0


def test_issue_16_4_positions_and_sections_shape(
    midi: known.CoupModel,
) -> None:
    """More knowledge never hurts; sections name the dealing procedure,
    hold a finding per wager and method, and skip what is not theirs."""
    edges = [known.first_cards(midi, k).edge for k in range(1, 7)]
    assert edges == sorted(edges)
    assert known.position(midi, 2).edge < known.position(midi, 1).edge
    (section,) = known.sections("midibaccarat", "player", PUNTO_BANCO)
    assert isinstance(section, Section)
    assert "629a.8(c)" in section.markdown
    methods = {(f.wager, f.method) for f in section.findings}
    assert methods == {("player", "known_card"), ("player", "edge_sort")}
    found = {f.method: f for f in section.findings}
    # wagers close before the deal (629a.8(c)): a known card is only a
    # risk; one-way backs are not ruled out, so the edge sort is real
    assert not found["known_card"].beatable
    assert found["known_card"].player_edge > 0.03
    assert found["edge_sort"].beatable
    assert section.to_json()["data"]["positions"][0]["edge"] == (
        pytest.approx(0.06765, abs=5e-6)
    )
    assert known.sections("double-back-jack", None, PUNTO_BANCO) == []
    assert known.sections("21-baccarat", "bonus_player", Baccarat21Rules())
    assert known.sections("21-baccarat", "insurance", Baccarat21Rules()) == []
    with pytest.raises(ValueError, match="1-6"):
        known.first_cards(midi, 7)


def test_issue_16_4_bonus_nothing_known_is_the_exact_house_edge() -> None:
    """21 Baccarat's Bonus Wagers (681a.7(k)(2), (3)) through the rank
    model equal the analyzer's exact house edge (its own enumeration of
    52 card kinds), and a known first card moves only the Player's."""
    rules = Baccarat21Rules()
    model = known.coup_model(rules)
    report = b21model.analyze(rules)
    bonus = model.bonus
    assert bonus is not None
    for i, wager in enumerate(bonus.wagers):
        ev = float(bonus.prefix[..., i + 1].sum()) / bonus.total
        assert ev == pytest.approx(-report.wagers[wager].house_edge, abs=1e-12)
    first = known.first_cards(model, 1).by_wager
    assert first["bonus_player"] > 0.1
    assert first["bonus_banker"] == 0


def test_issue_16_4_bonus_tiny_shoe_brute_force() -> None:
    """Twelve physical cards (2, 3 and 4 of every suit: every hand is
    under 17 and takes its third card, (f)(2), (g), so the Player's
    Bonus cards are cards 1, 3 and 5, an ordered draw of three), every
    ordered draw settled by the engine's Bonus paytable (croupier.hands.
    bonus21): the Player Bonus EV given the first card's rank agrees
    with the rank model (suits within a rank without replacement)."""
    rules = Baccarat21Rules()
    cards = [Card.parse(r + s) for r in "234" for s in "cdhs"]
    total: dict[str, Fraction] = {}
    seen: dict[str, int] = {}
    for hand in itertools.permutations(cards, 3):
        deal = hand
        paid = bonus_payout(hand, rules.bonus_paytable)
        net = Fraction(-1) if paid is None else paid[1].fraction
        rank = str(deal[0])[0]
        total[rank] = total.get(rank, Fraction(0)) + net
        seen[rank] = seen.get(rank, 0) + 1
    two, three = hand_evs(
        1, lambda mask: b21model.bonus_event(rules, mask).net
    )
    counts = np.zeros(13, dtype=np.int64)
    counts[1:4] = 4  # ranks 2, 3, 4 (index 0 is the ace)
    _, position, _ = bonus_sequences(counts, two, three)
    for index, rank in ((1, "2"), (2, "3"), (3, "4")):
        w, player, _ = position[0, index]
        assert player / w == pytest.approx(
            float(total[rank] / seen[rank]), abs=1e-12
        )
