"""The interplay correlation's pairs, computed a block at once (810a.5).

``CardTests.add`` correlates each shoe's mean places with the next
shoe's, leaving out a pair where either shoe has no spread. It called
:func:`numpy.corrcoef` once a pair; the block's pairs are now computed
together. Each is held here to ``numpy.corrcoef`` of its own pair.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.rngtest.card_tests import _next_correlations


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(2, 40),
    width=st.integers(2, 60),
    flat=st.sets(st.integers(0, 39), max_size=6),
)
def test_810a_5_interplay_pairs_equal_corrcoef_of_each_pair(
    seed: int, rows: int, width: int, flat: set[int]
) -> None:
    """Random blocks of mean places, some rows without spread (every
    value alike): the pairs kept and their correlations are
    ``numpy.corrcoef``'s, pair by pair, to rounding."""
    rng = np.random.default_rng(seed)
    means = rng.random((rows, width)) * width
    for row in flat:
        if row < rows:
            means[row] = means[row, 0]
    spread = np.ptp(means, axis=1) > 0
    want = [
        float(np.corrcoef(means[k], means[k + 1])[0, 1])
        for k in range(rows - 1)
        if spread[k] and spread[k + 1]
    ]
    got = _next_correlations(means, spread)
    assert got.shape == (len(want),)
    assert np.allclose(got, want, rtol=0, atol=1e-12)
    assert (np.abs(got) <= 1.0).all()


def test_810a_5_interplay_pairs_of_a_row_and_its_mirror() -> None:
    """A row followed by itself correlates at 1, by its mirror image
    (every value v as c - v) at -1: the bounds are met, not passed."""
    row = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    means = np.stack([row, row, 10.0 - row])
    got = _next_correlations(means, np.array([True, True, True]))
    assert got.tolist() == [1.0, -1.0]
