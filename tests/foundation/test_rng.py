"""The shuffle is uniform, seeded streams reproduce, live play is secure."""

from __future__ import annotations

import itertools
from collections import Counter

from croupier.rng import SecureRng, SeededRng, fisher_yates
from croupier.shoe import Shoe

# Chi-square critical values at p = 0.001 (standard tables).
CHI2_CRIT_DF23 = 49.728
CHI2_CRIT_DF51 = 86.661


def _chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)


def test_every_permutation_equally_likely() -> None:
    rng = SeededRng(20261129)
    trials = 24_000
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(trials):
        items = [0, 1, 2, 3]
        fisher_yates(items, rng)
        counts[tuple(items)] += 1
    perms = list(itertools.permutations(range(4)))
    assert set(counts) == set(perms)
    stat = _chi_square([counts[p] for p in perms], trials / 24)
    assert stat < CHI2_CRIT_DF23


def test_top_card_uniform_over_a_deck() -> None:
    rng = SeededRng(7)
    trials = 20_800
    tops: Counter[int] = Counter()
    for _ in range(trials):
        shoe = Shoe.new(decks=1)
        shoe.shuffle(rng)
        tops[shoe.draw().code] += 1
    stat = _chi_square([tops[c] for c in range(52)], trials / 52)
    assert stat < CHI2_CRIT_DF51


def test_seeded_streams_reproduce_and_record_their_seed() -> None:
    a, b = Shoe.new(decks=2), Shoe.new(decks=2)
    a.shuffle(SeededRng(5, spawn_key=(1,)))
    b.shuffle(SeededRng(5, spawn_key=(1,)))
    assert a.notation() == b.notation()
    c = Shoe.new(decks=2)
    c.shuffle(SeededRng(5, spawn_key=(2,)))
    assert c.notation() != a.notation()
    assert SeededRng(5, spawn_key=(1,)).describe()["spawn_key"] == [1]


def test_secure_rng_range_and_description() -> None:
    rng = SecureRng()
    assert {rng.randbelow(3) for _ in range(200)} == {0, 1, 2}
    assert rng.describe()["kind"] == "secure"
