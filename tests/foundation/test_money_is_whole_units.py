"""Money is integer minor units: no float (nor bool) ever enters a ledger.

A wager or a decision's amount of ``2500.0`` compares equal to ``2500``,
so nothing downstream would notice it, and every settlement after it
would be a float. The engine refuses it where it comes in, with the
wager's subsection and its state unchanged; a hand history written that
way (or with an integer past 64 bits, which the fast JSON parser reads as
a float) is a deviation, not a conforming round with float settlements.
"""

from __future__ import annotations

import json

import pytest

from croupier.errors import WagerError
from croupier.hhf import HandHistory, HistoryFormatError
from croupier.hhf.sample import sample_histories
from croupier.registry import GameSpec, all_games
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.scenario import run_scenario_text
from croupier.table import Table
from croupier.verify import verify_round

GAMES = all_games()
NOT_WHOLE_UNITS = [2500.0, 10.5, True, "2500", 2**70 * 1.0]


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
@pytest.mark.parametrize("amount", NOT_WHOLE_UNITS, ids=repr)
def test_a_wager_that_is_not_whole_units_is_refused(
    spec: GameSpec, amount: object
) -> None:
    rnd = Table(spec, rng=SeededRng(3)).new_round(occupied_seats=(1,))
    wager = type(rnd).wager_names[0]
    before = (rnd.events, dict(rnd.ledger.stakes), rnd.phase)
    with pytest.raises(WagerError, match="whole number of minor units") as e:
        rnd.place_wager(1, wager, amount)  # type: ignore[arg-type]
    assert e.value.ref is not None  # the wager's subsection
    assert (rnd.events, dict(rnd.ledger.stakes), rnd.phase) == before
    # the same wager in whole units is taken
    rnd.place_wager(1, wager, 2500)
    assert rnd.ledger.stakes[next(iter(rnd.ledger.stakes))] == 2500


@pytest.mark.parametrize("amount", NOT_WHOLE_UNITS, ids=repr)
def test_a_decision_amount_that_is_not_whole_units_is_refused(
    amount: object,
) -> None:
    with pytest.raises(WagerError, match="whole number of minor units"):
        Action(seat=1, name="double", amount=amount)  # type: ignore[arg-type]
    assert Action(seat=1, name="double", amount=500).amount == 500


@pytest.mark.parametrize("game", ["double-back-jack", "midibaccarat"])
def test_a_log_with_float_or_oversized_stakes_does_not_conform(
    game: str,
) -> None:
    history = next(iter(sample_histories(game, 1, seed=5)))
    assert verify_round(history) is None
    stake = next(
        s["amount"] for s in history.procedure if s["type"] == "wager_placed"
    )
    line = history.dumps()
    written = line.replace(f'"amount":{stake},', f'"amount":{stake}.0,', 1)
    assert written != line
    found = verify_round(HandHistory.loads(written))
    assert found is not None
    assert "whole number of minor units" in found.message
    # 2**70 is an exact integer in the text; orjson reads it as a float
    huge = json.loads(line)
    first = next(s for s in huge["procedure"] if s["type"] == "wager_placed")
    first["amount"] = 2**70
    found = verify_round(HandHistory.loads(json.dumps(huge)))
    assert found is not None
    assert "whole number of minor units" in found.message


def test_json_nested_too_deeply_is_bad_input_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    result = run_scenario_text(deep)
    assert result.exit_code == 2
    assert "nested too deeply" in result.stderr
    with pytest.raises(HistoryFormatError, match="nested too deeply"):
        HandHistory.loads(deep)
