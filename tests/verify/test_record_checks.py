"""810a.11: what a round's record says of its players and its times.

Each record is a conforming sample round with one fact of its envelope
changed; the procedure and settlements are left as they were, so the
replay alone finds nothing and only the record's own checks can.
"""

from __future__ import annotations

import dataclasses

import pytest

from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import verify_lines, verify_round

GAMES = [spec.name for spec in all_games()]


def _round(game: str) -> HandHistory:
    history = next(sample_histories(game, 1, seed=4, seats=3))
    assert len(history.players) == 3
    assert verify_round(history) is None
    return history


def _message(history: HandHistory) -> str:
    """The deviation of ``history`` read back from its line, as a lab would."""
    (verdict,) = verify_lines([history.dumps()]).verdicts
    assert verdict.deviation is not None
    assert verdict.deviation.ref == "810a.11"
    return verdict.deviation.message


@pytest.mark.parametrize("game", GAMES)
def test_810a_11_a_seat_that_wagered_has_a_player_entry(game: str) -> None:
    history = _round(game)
    gone = history.players[1]
    left_out = dataclasses.replace(
        history, players=(history.players[0], history.players[2])
    )
    message = _message(left_out)
    assert f"seat {gone.seat} wagered {gone.total_bet}" in message
    assert "no player entry" in message


@pytest.mark.parametrize("game", GAMES)
def test_810a_11_one_player_entry_per_seat(game: str) -> None:
    history = _round(game)
    twice = dataclasses.replace(
        history, players=(*history.players, history.players[0])
    )
    message = _message(twice)
    assert f"seat {history.players[0].seat} has two player entries" in message


def test_810a_11_a_seated_player_who_did_not_wager_may_be_listed() -> None:
    history = _round("double-back-jack")
    idle = dataclasses.replace(
        history.players[0], seat=7, player_id="idle", total_bet=0, total_won=0
    )
    listed = dataclasses.replace(history, players=(*history.players, idle))
    assert verify_round(listed) is None


@pytest.mark.parametrize(
    ("started", "ended", "said"),
    [
        (
            "2026-12-01T10:00:00+00:00",
            "2026-12-01T09:59:59+00:00",
            "ending at 2026-12-01T09:59:59+00:00, before it started",
        ),
        # the same instants in other offsets: 10:00 UTC is 11:00 at +01:00
        ("2026-12-01T11:00:00+01:00", "2026-12-01T09:59:59Z", "before it"),
        ("2026-02-30T10:00:00Z", None, 'start time "2026-02-30T10:00:00Z"'),
        ("2026-12-01T10:00:00Z", "2026-12-01T24:30:00Z", "end time"),
    ],
)
def test_810a_11_the_round_ends_after_it_starts(
    started: str, ended: str | None, said: str
) -> None:
    history = dataclasses.replace(
        _round("21-baccarat"), started_at=started, ended_at=ended
    )
    assert said in _message(history)


def test_810a_11_times_in_other_offsets_in_order_conform() -> None:
    # 10:00 at -05:00 is 15:00 UTC, after 14:59 UTC
    history = dataclasses.replace(
        _round("midibaccarat"),
        started_at="2026-12-01T14:59:00Z",
        ended_at="2026-12-01T10:00:00-05:00",
    )
    assert verify_round(history) is None
