"""``_awaits`` answers as ``pending() is not None`` (issue 17 point 2).

The dealer's steps run until a player must decide; the round asks that
before each step without building the :class:`Pending` (verify speed).
Here seeded rounds of every kind of play (insurance, Second Chance,
doubles, splits, surrenders; the sample histories choose them) are
dealt and verified with every such question checked against
:meth:`pending`, and the kinds of waits seen are counted so that the
test cannot pass on rounds that never wait.
"""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.games.double_back_jack.phases import Phase
from croupier.games.double_back_jack.round import DoubleBackJackRound
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_round


def test_issue_17_2_dbj_awaits_agrees_with_pending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every answer of ``_awaits`` equals ``pending() is not None``."""
    fast = DoubleBackJackRound._awaits
    seen: Counter[tuple[Phase, bool]] = Counter()

    def checked(self: DoubleBackJackRound) -> bool:
        got = fast(self)
        assert got == (self.pending() is not None), self._phase
        seen[self._phase, got] += 1
        return got

    monkeypatch.setattr(DoubleBackJackRound, "_awaits", checked)
    histories = list(sample_histories("double-back-jack", 300, seed=11))
    assert all(verify_round(h) is None for h in histories)
    waits = {phase for (phase, got) in seen if got}
    assert {
        Phase.INSURANCE,
        Phase.SECOND_CHANCE,
        Phase.PLAYER_DECISIONS,
    } <= waits
    assert any(not got for (_, got) in seen)
