"""The § 810a.5 statistical battery, applied to shuffled shoes.

Two kinds of test. **Card tests** (:mod:`.card_tests`) look at the shoes
themselves: where each card lands (chi-square by tenth of the shoe;
card x position place by place, and its most extreme cell, D87), which
card follows which (adjacency), how many cards stay where they were
(Poisson), how one shoe relates to the next (interplay correlation) and
to the order before the shuffle (position correlation). **Stream
tests** (:mod:`.stream_tests`) look at a stream of uniform numbers the
shuffles define: a uniformly random permutation's Lehmer code (for each
position, how many later cards were earlier in the unshuffled order)
has independent digits, digit ``i`` uniform on ``0 .. n-1-i``; with a
seeded jitter (``(digit + V) / range``, V uniform) they become
independent U(0, 1) variates exactly when the shuffle is uniform, and
Knuth's classic tests apply (equidistribution, gap, overlaps, poker,
coupon collector, permutation, Kolmogorov–Smirnov, order statistic,
runs, serial correlation, subsequences). Copies of one card in a
multi-deck shoe are told apart by a random (seeded) labelling, which
keeps a uniform shuffle uniform.

Each test gives a statistic and a two-sided or upper-tail p-value from
:mod:`scipy.stats`; the family of tests is judged at 95 % with Holm's
step-down correction (:func:`holm`), so the chance that a good shuffler
fails any test is at most 5 %.

The shuffles are read once, a block at a time (:func:`run_battery`
takes any iterable: a file's lines are parsed as they are read), in two
passes over what a block leaves: the first labels each block's shoes and
counts the card tests, and keeps only the labelled permutations, in two
bytes a card; the second turns them into the stream, block by block,
for the stream tests. The random numbers are drawn in the order a
battery of all the shoes at once draws them (every label, then every
jitter), so a seed gives the same statistics (to rounding) however the
shoes arrive. Memory is about seven bytes a card (the permutations
kept, and the Kolmogorov–Smirnov samples:
:class:`.stream_tests.QuantizedSample`), where holding the shoes, their
labels, digits and stream as arrays of 8-byte numbers took some 80
(D66).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import numpy.typing as npt

from croupier.jit import jit

from .card_tests import CardTests
from .results import (
    ALPHA,
    Battery,
    Floats,
    Ints,
    Sparse,
    TestResult,
    TooFewShufflesError,
    holm,
)
from .stream_tests import stream_tests

__all__ = [
    "ALPHA",
    "Battery",
    "TestResult",
    "TooFewShufflesError",
    "check_shuffles",
    "holm",
    "minimum_shuffles",
    "run_battery",
]


# -- preparing the data ---------------------------------------------------


_BLOCK = 256
"""Shoes worked on at once: a block's arrays stay small (the Lehmer
code compares every pair of places, ``n * n`` per shoe)."""


def _labels(shoes: Ints, original: Ints, gen: np.random.Generator) -> Ints:
    """Each shoe as a permutation of the original positions.

    Copies of a card get the original positions of that card's copies in
    a random order, so a uniform multiset shuffle gives a uniform
    permutation. (The random keys are drawn a block of shoes at a time,
    the same numbers in the same order as one shoe at a time.)
    """
    count = shoes.shape[0]
    by_code = np.argsort(original, kind="stable")
    perms = np.empty_like(shoes)
    for start in range(0, count, _BLOCK):
        block = shoes[start : start + _BLOCK]
        keys = gen.random(block.shape)
        idx = np.lexsort((keys, block), axis=-1)
        np.put_along_axis(
            perms[start : start + _BLOCK],
            idx,
            np.broadcast_to(by_code, block.shape),
            axis=1,
        )
    return perms


def _stream(perms: Ints, gen: np.random.Generator) -> Floats:
    """The jittered Lehmer-code stream (i.i.d. U(0, 1) if uniform).

    Place ``i``'s digit is how many later places hold a smaller label;
    with ``U(0, 1)`` jitter and divided by the ``n - i`` values it can
    take, each digit is uniform exactly when the permutation is.
    """
    count, n = perms.shape
    ranges = n - np.arange(n - 1)
    digits = _lehmer_digits(perms)
    out = np.empty((count, n - 1))
    for start in range(0, count, _BLOCK):
        jitter = gen.random((min(_BLOCK, count - start), n - 1))
        out[start : start + _BLOCK] = (
            digits[start : start + _BLOCK] + jitter
        ) / ranges
    # the top digit with a jitter within 2**-53 of 1 can round to 1.0
    # itself (about once in 2.5e7 values): kept below 1, as U(0, 1) is,
    # one unit in the last place down
    np.minimum(out, _BELOW_ONE, out=out)
    return out.ravel()


_BELOW_ONE = np.nextafter(1.0, 0.0)
"""The largest float below 1."""


@jit
def _lehmer_digits(perms: Ints) -> Ints:
    """Each permutation's Lehmer code but its last digit (always 0).

    Digit ``i`` counts the later places holding a smaller label, read
    from the right with a Fenwick tree of the labels seen: ``n log n``
    a permutation, where comparing every pair is ``n * n``.
    """
    count, n = perms.shape
    out = np.empty((count, n - 1), dtype=np.int64)
    tree = np.zeros(n + 1, dtype=np.int64)
    for k in range(count):
        tree[:] = 0
        for i in range(n - 1, -1, -1):
            label = perms[k, i]
            # labels below this one seen so far (later places)
            below = 0
            j = label
            while j > 0:
                below += tree[j]
                j -= j & -j
            if i < n - 1:
                out[k, i] = below
            j = label + 1
            while j <= n:
                tree[j] += 1
                j += j & -j
    return out


_Kept = npt.NDArray[np.signedinteger[npt.NBitBase]]


def _blocks(shuffles: Iterable[npt.ArrayLike], n: int) -> Iterator[Ints]:
    """The shuffles, ``_BLOCK`` at a time, as rows of ``n`` card codes."""
    rows: list[Ints] = []
    for number, shuffle in enumerate(shuffles, start=1):
        row = np.asarray(shuffle, dtype=np.int64)
        if row.shape != (n,):
            msg = f"shuffle {number} holds {row.size} cards; the shoe has {n}"
            raise ValueError(msg)
        rows.append(row)
        if len(rows) == _BLOCK:
            yield np.stack(rows)
            rows = []
    if rows:
        yield np.stack(rows)


def _sparse(original: Ints, count: int) -> Sparse | None:
    """The first of the battery's tests too sparse for ``count`` shoes.

    Every test whose chi-square cells the number of shoes alone decides
    checks them as it will when it runs (:meth:`.CardTests.plan`,
    :meth:`.stream_tests.StreamTest.plan`); ``None`` when all pass.
    Fewer than two shoes are always too few (the interplay correlation
    pairs each shoe with the next).
    """
    n = len(original)
    try:
        if count < 2:
            raise Sparse("interplay correlation", np.zeros(count))
        CardTests(original).plan(count)
        for test in stream_tests(0):
            test.plan(count * (n - 1))
    except Sparse as sparse:
        return sparse
    return None


def minimum_shuffles(original: npt.ArrayLike) -> int:
    """The fewest shuffles of ``original`` the battery can judge (D105).

    The smallest count from which every count of shuffles meets
    Cochran's rule in every chi-square, by the tests' own cells
    (:func:`_sparse`). The tests of places and of the stream expect
    more in every cell with every shuffle, so the first count they all
    take is theirs; the Poisson test pools its tails anew for each
    count, and can refuse a count above one it took (eight decks: 12
    shuffles, not 13 to 40, 41 to 44, not 45 to 54), so its minimum is
    the count after the last it refuses
    (:meth:`.CardTests.poisson_minimum`). Between, a
    count that happens to meet the rule is not judged either: the
    battery needs the same number of a shoe, whatever its luck.
    """
    codes = np.asarray(original, dtype=np.int64)
    n = len(codes)
    cards = CardTests(codes)
    streams = stream_tests(0)
    count = 2
    while True:
        try:
            cards.plan_places(count)
            for test in streams:
                test.plan(count * (n - 1))
        except Sparse:
            count += 1
            continue
        return max(count, cards.poisson_minimum())


def check_shuffles(count: int, original: npt.ArrayLike) -> None:
    """Refuse ``count`` shuffles of ``original`` if they are too few.

    Raises :class:`TooFewShufflesError` naming the fewest the battery
    can judge (:func:`minimum_shuffles`) and the test that ``count``
    leaves too sparse. :func:`run_battery` checks its count so once
    the shuffles are read; a source that draws its own (croupier's
    shuffler, the known-bad ones) is checked before any is drawn.
    """
    codes = np.asarray(original, dtype=np.int64)
    minimum = minimum_shuffles(codes)
    if count >= minimum:
        return
    # the count's own shortfall; a count the rule happens to take
    # (below a count it refuses) is told of the last one refused
    shown = count if _sparse(codes, count) is not None else minimum - 1
    sparse = _sparse(codes, shown)
    reason = "" if sparse is None else _cochran(sparse)
    raise TooFewShufflesError(count, len(codes), minimum, shown, reason)


def _cochran(sparse: Sparse) -> str:
    """What a sparse test's cells break, in words."""
    if sparse.name == "interplay correlation":
        return "the interplay correlation pairs each shoe with the next"
    return (
        f"the {sparse.name} test's {sparse.cells} chi-square cell(s) "
        f"expect as little as {sparse.smallest:.2g}, and Cochran's rule "
        f"asks two cells or more, none under 1, at most a fifth under 5"
    )


def run_battery(
    shuffles: Iterable[npt.ArrayLike], original: Ints, *, seed: int = 0
) -> Battery:
    """Run every test on ``shuffles`` of the unshuffled ``original``.

    ``shuffles`` is read once, in order (a generator is never held
    whole). ``seed`` drives the jitter and the labelling of identical
    cards only (not the source), so a run is reproducible.
    """
    original = np.asarray(original, dtype=np.int64)
    n = len(original)
    gen = np.random.default_rng(seed)
    cards = CardTests(original)
    kept: list[_Kept] = []
    # the labels are places 0..n-1: two bytes hold them for any real shoe
    small = np.int16 if n <= np.iinfo(np.int16).max else np.int32
    for block in _blocks(shuffles, n):
        perms = _labels(block, original, gen)
        cards.add(block, perms)
        kept.append(perms.astype(small))
    count = cards.shoes
    check_shuffles(count, original)
    streams = stream_tests(count * (n - 1))
    kept.reverse()
    while kept:
        u = _stream(kept.pop().astype(np.int64), gen)
        for test in streams:
            test.add(u)
    try:
        results = [
            cards.chi_square(),
            *(test.result() for test in streams),
            cards.adjacency(),
            cards.interplay(),
            cards.poisson(),
            cards.position_correlation(),
            cards.card_position(),
            cards.largest_cell(),
        ]
    except Sparse as sparse:
        # a test whose cells hang on the values drawn (the coupon
        # collector's segments), though the count met every other
        raise TooFewShufflesError(
            count, n, None, count, _cochran(sparse)
        ) from None
    # a statistic that cannot be computed (no variance at all) is as far
    # from a uniform shuffle as it gets
    results = [
        r
        if np.isfinite(r.p_value)
        else TestResult(r.name, r.statistic, 0.0, r.detail + " (undefined)")
        for r in results
    ]
    adjusted = holm([r.p_value for r in results])
    final = tuple(
        TestResult(r.name, r.statistic, r.p_value, r.detail, a)
        for r, a in zip(results, adjusted, strict=True)
    )
    return Battery(final, count, n)
