"""Issue 14 point 6: the dealer laws the fast exact solve caches.

The solve fills one dealer cache per up card (``exact._prefill``): the
dealer's outcome probabilities of every hand the shoe can deal, each
rescaled from its parent hand's, and for each bust the joint law of the
Second Chance card and the dealer's outcome, from its parent's sums.
Both are checked here against :func:`.dealer.dealer_distribution`, an
independent ordered enumeration of the dealer's draws from the hand's
(or bust's) own shoe: by exchangeability the Second Chance card's joint
law is ``P(c) * P(outcome | shoe less c)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.odds.double_back_jack.ca import composition
from croupier.odds.double_back_jack.carules import CARules
from croupier.odds.double_back_jack.dealer import dealer_distribution
from croupier.odds.double_back_jack.exact import player_hands
from croupier.odds.double_back_jack.passes import DealerCache, run_pass

TOL = 1e-13
"""Rounding of the rescaled products (the figures agree to 2e-15)."""


@pytest.mark.parametrize("up", [1, 6, 10])
def test_issue_14_point_6_cached_dealer_laws_match_enumeration(
    up: int,
) -> None:
    shoe = composition(1)
    shoe[up] -= 1
    cache = DealerCache.empty()
    run_pass(CARules(decks=1), shoe, up, 0, cache=cache)
    counts, _, _, bust = player_hands()
    assert cache.hand_ok[-1] == 1  # the plain pass filled the cache
    hands = np.flatnonzero(cache.hand_ok[:-1] == 1)
    live = [i for i in range(counts.shape[0]) if np.all(counts[i] <= shoe)]
    assert list(hands) == live  # every hand the shoe can deal, no other
    for i in hands[::9]:
        expect = dealer_distribution(shoe - counts[i], up)
        assert np.abs(cache.hand_dd[i] - expect).max() < TOL
    busts = np.flatnonzero(cache.bust_ok == 2)
    assert busts.size > 100
    for j in busts[::40]:
        rb = shoe - bust[j]
        nb = int(rb[1:].sum())
        expect = dealer_distribution(rb.copy(), up)
        assert np.abs(cache.bust_dd[j] - expect).max() < TOL
        for c in range(1, 11):
            if rb[c] == 0:
                continue
            less = rb.copy()
            less[c] -= 1
            joint = rb[c] / nb * dealer_distribution(less, up)
            laws = cache.bust_w0[j] * rb[c] - cache.bust_w[j][:, c]
            assert np.abs(laws - joint).max() < TOL
