"""The house-way kernel sets every hand class like the engine.

Random hands rarely hold three pairs, two trips, a six-card straight
flush or five aces; these sets are built deliberately, class by class,
each with and without the joker where it can play, over several ranks
and suit patterns, and both house ways of the kernel
(:func:`croupier.odds.paigow.kernels.set_all`) must choose the engine's
setting (:data:`croupier.hands.paigow.HOUSE_WAYS`) for every one of
them: the same low card, high-hand value and low rank, and the same
best five-card value. Whole rounds dealing these hands to the seven
positions must then settle every wager as the engine does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from croupier.cards import JOKER_CODE, Card
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.hands.paigow import HOUSE_WAYS, Category, category_of, evaluate
from croupier.hands.paigow_fast import five_card_table
from croupier.odds.paigow import kernels as k
from croupier.odds.paigow.simulation import kernel_params, play_round
from croupier.scenario import run_scenario

ACE = 12
"""Rank index of the ace (a code is ``4 * rank index + suit``)."""
JK = JOKER_CODE
_RANKS = (0, 3, 5, 8, 10, ACE)
"""Rank indices the classes are built on: 2, 5, 7, 10, Q, A."""


def _code(rank: int, suit: int) -> int:
    return 4 * (rank % 13) + suit % 4


def _others(used: set[int], count: int, start: int) -> list[int]:
    """``count`` kicker ranks not in ``used``, spread out, no run of 5."""
    free = [r for r in range(13) if r not in used]
    picked: list[int] = []
    i = start
    while len(picked) < count:
        rank = free[i % len(free)]
        if rank not in picked:
            picked.append(rank)
        i += 2
    return picked


def _groups(sizes: tuple[int, ...], first: int, suit: int) -> list[int]:
    """Ranks in groups of ``sizes`` (a pair, trips...), rest kickers."""
    ranks: list[int] = []
    for n, size in enumerate(sizes):
        ranks += [(first + 4 * n) % 13] * size
    kickers = _others(set(ranks), 6 - len(ranks), first + suit)
    ranks += kickers
    seen: dict[int, int] = {}
    codes = []
    for rank in ranks:
        codes.append(_code(rank, suit + seen.get(rank, 0)))
        seen[rank] = seen.get(rank, 0) + 1
    # kickers: vary the suits so that no accidental flush forms
    return [
        c if ranks.count(c // 4) > 1 else _code(c // 4, suit + i)
        for i, c in enumerate(codes)
    ]


def _matched() -> Iterator[tuple[str, list[int]]]:
    """Pairs, two and three pairs, trips, two trips, full houses,
    quads; each also with the joker in place of a card (an ace)."""
    shapes = {
        "pair": (2,),
        "two pairs": (2, 2),
        "three pairs": (2, 2, 2),
        "trips": (3,),
        "two trips": (3, 3),
        "full house": (3, 2),
        "full house and a pair": (3, 2, 1),
        "quads": (4,),
        "quads and a pair": (4, 2),
    }
    for name, sizes in shapes.items():
        for first in _RANKS:
            for suit in range(4):
                hand = _groups(sizes, first, suit)
                yield name, hand
                # the joker replaces the last card: an ace, or a kicker
                yield name + " with the joker", [*hand[:5], JK]


def _straights() -> Iterator[tuple[str, list[int]]]:
    """Five- and six-card straights (the wheel included), a gap the
    joker fills, a straight beside a pair; mixed suits."""
    for top in range(3, 13):  # 3 is the wheel A-2-3-4-5
        run = [(top - i) % 13 if top - i >= 0 else ACE for i in range(5)]
        if top == 3:
            run = [3, 2, 1, 0, ACE]
        for shift in range(3):
            codes = [_code(r, i + shift) for i, r in enumerate(run)]
            extra = _others(set(run) | {(top + 1) % 13}, 1, top + shift)[0]
            yield "straight", [*codes, _code(extra, shift)]
            yield "straight and a pair", [*codes, _code(run[2], shift + 3)]
            if top < ACE:
                above = _code(top + 1, shift + 3)
                yield "six-card straight", [*codes, above]
            for gap in range(5):
                rest = [c for i, c in enumerate(codes) if i != gap]
                kick = _code(extra, shift + 1)
                yield "straight by the joker", [*rest, JK, kick]


def _flushes() -> Iterator[tuple[str, list[int]]]:
    """Five- and six-card flushes, four suited cards and the joker, a
    flush beside a pair or a straight."""
    for suit in range(4):
        for first in (0, 2, 5):
            ranks = [first, first + 2, first + 3, first + 6, first + 8]
            codes = [_code(r, suit) for r in ranks]
            yield "flush", [*codes, _code(first + 10, suit + 1)]
            yield "six-card flush", [*codes, _code(first + 10, suit)]
            yield "flush and a pair", [*codes, _code(first, suit + 1)]
            yield "flush by the joker", [*codes[:4], JK, _code(11, suit + 2)]
            yield "flush with the joker", [*codes, JK]


def _straight_flushes() -> Iterator[tuple[str, list[int]]]:
    """Straight and royal flushes, six-card ones, the wheel, with the
    joker filling a gap or extending the run."""
    for suit in range(4):
        for top in (3, 6, 9, 11, ACE):
            run = (
                [3, 2, 1, 0, ACE] if top == 3 else [top - i for i in range(5)]
            )
            codes = [_code(r, suit) for r in run]
            low = (run[-1] - 2) % 13 if top != 3 else 6
            yield "straight flush", [*codes, _code(low, suit + 1)]
            yield (
                "straight flush and a pair",
                [*codes, _code(run[1], suit + 1)],
            )
            if top < ACE:
                six = [*codes, _code(top + 1, suit)]
                yield "six-card straight flush", six
                yield "six-card straight flush by the joker", [*six[:5], JK]
            for gap in range(5):
                rest = [c for i, c in enumerate(codes) if i != gap]
                yield "straight flush by the joker", [*rest, JK, _code(7, 3)]
            yield "straight flush with the joker", [*codes, JK]


def _five_aces() -> Iterator[tuple[str, list[int]]]:
    """Four aces and the joker, with every kind of sixth card."""
    aces = [_code(ACE, s) for s in range(4)]
    for rank in range(12):
        yield "five aces", [*aces, JK, _code(rank, rank)]


def _high_cards() -> Iterator[tuple[str, list[int]]]:
    """No pair, no straight, no flush; with the joker as the ace."""
    patterns = ([0, 2, 4, 7, 9, 11], [1, 3, 6, 8, 10, ACE], [0, 1, 3, 5, 8, 9])
    for ranks in patterns:
        for shift in range(4):
            codes = [_code(r, i + shift) for i, r in enumerate(ranks)]
            yield "high card", codes
            if ACE not in ranks[:5]:
                yield "high card with the joker", [*codes[:5], JK]


def structured_hands() -> list[tuple[str, list[int]]]:
    """Every hand class, deliberately built; no hand twice."""
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[str, list[int]]] = []
    for source in (
        _high_cards,
        _matched,
        _straights,
        _flushes,
        _straight_flushes,
        _five_aces,
    ):
        for name, hand in source():
            key = tuple(sorted(hand))
            if len(set(hand)) == 6 and key not in seen:
                seen.add(key)
                out.append((name, hand))
    return out


HANDS = structured_hands()


def test_structured_hands_cover_every_category() -> None:
    """The sets hold each of the eleven categories, joker or not."""
    with_joker: set[Category] = set()
    without: set[Category] = set()
    for _, hand in HANDS:
        category = category_of(evaluate([Card.from_code(c) for c in hand]))
        (with_joker if JK in hand else without).add(category)
    assert with_joker == set(Category)
    assert without == set(Category) - {Category.FIVE_ACES}
    names = {name for name, _ in HANDS}
    assert {"three pairs", "two trips", "six-card straight flush"} <= names
    assert {"straight and a pair", "straight by the joker"} <= names
    assert len(HANDS) > 700


@pytest.mark.parametrize(
    ("name", "way"), [("standard", k.STANDARD), ("best_high", k.BEST_HIGH)]
)
def test_house_way_kernel_sets_every_class_like_the_engine(
    name: str, way: int
) -> None:
    hands = np.array([hand for _, hand in HANDS], dtype=np.int64)
    n = hands.shape[0]
    best, highs, lows, low_codes = (
        np.zeros(n, dtype=np.int64) for _ in "1234"
    )
    k.set_all(
        five_card_table(),
        k.binomials(),
        k.LOW_RANK,
        hands,
        best,
        highs,
        lows,
        low_codes,
        way,
    )
    house_way = HOUSE_WAYS[name]
    for row, (label, hand) in enumerate(HANDS):
        cards = [Card.from_code(c) for c in hand]
        setting = house_way.set_hand(cards)
        where = (label, " ".join(map(str, cards)))
        assert setting.low.code == low_codes[row], where
        assert setting.high_value == highs[row], where
        assert setting.low_value == lows[row], where
        assert evaluate(cards) == best[row], where


def _structured_deck(rng: np.random.Generator, start: int) -> list[int]:
    """53 codes dealing structured hands to as many positions as fit.

    Hands are taken in a random order while they share no card with
    those already taken; positions left over get the remaining cards.
    One card at a time clockwise from ``start`` (670a.9(c)).
    """
    taken: list[list[int]] = []
    used: set[int] = set()
    for row in rng.permutation(len(HANDS)):
        hand = HANDS[int(row)][1]
        if used.isdisjoint(hand):
            taken.append(hand)
            used.update(hand)
            if len(taken) == k.POSITIONS:
                break
    rest = [int(c) for c in rng.permutation(sorted(set(range(53)) - used))]
    while len(taken) < k.POSITIONS:
        taken.append([rest.pop() for _ in range(6)])
    order = [int(p) for p in rng.permutation(k.POSITIONS)]
    hands = {order[i] + 1: hand for i, hand in enumerate(taken)}
    clockwise = [(start - 1 + i) % k.POSITIONS + 1 for i in range(7)]
    deck = [hands[clockwise[n % 7]][n // 7] for n in range(42)]
    return deck + rest


def _engine_nets(
    rules: dict[str, Any], deck: list[int], start: int
) -> dict[int, dict[str, int]]:
    params = kernel_params(SixCardRules.from_mapping(rules))
    stakes = {
        "pai_gow": params.pai_gow_stake,
        "fortune_bonus": params.fortune_stake,
        "progressive": params.progressive_stake,
    }
    clockwise = [(start - 1 + i) % 7 + 1 for i in range(7)]
    result = run_scenario(
        {
            "game": "six-card-fortune-pai-gow",
            # each seat declines the Double Down, offered here (D182)
            "rules": {**rules, "double_down_offered": True},
            "shoe": " ".join(str(Card.from_code(c)) for c in deck),
            "starting_position": start,
            "wagers": [
                {"seat": seat, "wager": wager, "amount": amount}
                for seat in range(1, 7)
                for wager, amount in stakes.items()
            ],
            "decisions": [
                {"seat": seat, "action": action}
                for seat in clockwise
                if seat != 7
                for action in ("no_double_down", "house_way")
            ],
        }
    )
    assert result.exit_code == 0, result.stderr
    out: dict[int, dict[str, int]] = {}
    for row in json.loads(result.stdout)["settlements"]:
        out.setdefault(int(row["seat"]), {})[str(row["wager"])] = int(
            row["net"]
        )
    return dict(sorted(out.items()))


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"house_way": "best_high", "envy_counts_dealer": True},
    ],
)
def test_kernel_rounds_of_structured_hands_settle_like_the_engine(
    rules: dict[str, Any],
) -> None:
    parsed = SixCardRules.from_mapping(rules)
    rng = np.random.default_rng(670)
    for _ in range(40):
        start = int(rng.integers(1, 8))
        deck = _structured_deck(rng, start)
        assert sorted(deck) == list(range(53))
        engine = _engine_nets(rules, deck, start)
        assert play_round(parsed, deck, start) == engine, (deck, start)
