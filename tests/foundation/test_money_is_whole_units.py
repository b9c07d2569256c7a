"""Money is integer minor units: no float (nor bool) ever enters a ledger.

A wager or a decision's amount of ``2500.0`` compares equal to ``2500``,
so nothing downstream would notice it, and every settlement after it
would be a float. The engine refuses it where it comes in, with the
wager's subsection and its state unchanged. A hand history is JSON,
whose one kind of number makes ``2500.0`` the integer 2500 (the
schema's, as every reader's): its reader hands the engine that integer,
as it does every integer of the record, so no float reaches the ledger
there either; a number with a fraction, or an integer past 64 bits
(which the fast JSON parser reads as a float), makes the line malformed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.errors import CroupierError, WagerError
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


def _first_stake(history: HandHistory) -> int:
    stake: int = next(
        s["amount"] for s in history.procedure if s["type"] == "wager_placed"
    )
    return stake


@pytest.mark.parametrize("game", ["double-back-jack", "midibaccarat"])
def test_a_log_with_a_whole_float_stake_hands_the_engine_an_integer(
    game: str,
) -> None:
    """``2500.0`` is 2500: the round conforms, its inputs are integers."""
    history = next(iter(sample_histories(game, 1, seed=5)))
    assert verify_round(history) is None
    stake = _first_stake(history)
    line = history.dumps()
    written = line.replace(f'"amount":{stake},', f'"amount":{stake}.0,', 1)
    assert written != line
    read = HandHistory.loads(written)
    assert _first_stake(read) == stake
    assert type(_first_stake(read)) is float  # the record as written
    assert verify_round(read) is None
    record = read.to_record()
    assert all(type(w["amount"]) is int for w in record.wagers)


@pytest.mark.parametrize("game", ["double-back-jack", "midibaccarat"])
def test_a_log_with_a_fractional_or_oversized_stake_is_malformed(
    game: str,
) -> None:
    history = next(iter(sample_histories(game, 1, seed=5)))
    stake = _first_stake(history)
    line = history.dumps()
    written = line.replace(f'"amount":{stake},', f'"amount":{stake}.5,', 1)
    with pytest.raises(HistoryFormatError, match='is not of type "integer"'):
        HandHistory.loads(written)
    # 2**70 is an exact integer in the text; orjson reads it as a float:
    # the format's integers are 64-bit, so the line is malformed (D65)
    huge = json.loads(line)
    first = next(s for s in huge["procedure"] if s["type"] == "wager_placed")
    first["amount"] = 2**70
    with pytest.raises(HistoryFormatError, match="maximum"):
        HandHistory.loads(json.dumps(huge))


def test_json_nested_too_deeply_is_bad_input_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    result = run_scenario_text(deep)
    assert result.exit_code == 2
    assert "nested too deeply" in result.stderr
    with pytest.raises(HistoryFormatError, match="nested too deeply"):
        HandHistory.loads(deep)


def _dbj_scenario() -> dict[str, object]:
    folder = Path(__file__).resolve().parents[1] / "scenarios"
    for path in sorted((folder / "double-back-jack").glob("*.json")):
        doc: dict[str, object] = json.loads(path.read_text("utf-8"))
        if (
            doc.get("wagers")
            and run_scenario_text(json.dumps(doc)).exit_code == 0
        ):
            return doc
    raise AssertionError("no Double Back Jack scenario with a wager")


@pytest.mark.parametrize(
    ("amount", "written"),
    [(1000.5, "1000.5"), (True, "true"), ("ten", '"ten"')],
    ids=repr,
)
def test_a_scenario_stake_that_is_not_a_whole_number_is_refused(
    amount: object, written: str
) -> None:
    """``int(1000.5)`` quietly staked 1000, ``int(True)`` one unit.

    (``1000.0`` is the whole number 1000, D101:
    ``test_scenario_whole_floats.py``.) The value is named as the file
    writes it.
    """
    doc = _dbj_scenario()
    wagers = doc["wagers"]
    assert isinstance(wagers, list)
    wagers[0]["amount"] = amount
    result = run_scenario_text(json.dumps(doc))
    assert result.exit_code == 2, result.stdout
    assert f"a wager's amount is a whole number, not {written}" in (
        result.stderr
    )


def test_a_scenario_may_write_a_whole_number_as_text() -> None:
    doc = _dbj_scenario()
    wagers = doc["wagers"]
    assert isinstance(wagers, list)
    plain = run_scenario_text(json.dumps(doc))
    wagers[0]["amount"] = str(wagers[0]["amount"])
    assert run_scenario_text(json.dumps(doc)).stdout == plain.stdout


@pytest.mark.parametrize("amount", [500.5, False, "5e2"], ids=repr)
def test_a_decision_read_from_a_document_is_whole_units(
    amount: object,
) -> None:
    with pytest.raises(CroupierError, match="whole number"):
        Action.from_dict({"seat": 1, "action": "double", "amount": amount})
    with pytest.raises(CroupierError, match="whole number"):
        Action.from_dict({"seat": 1.5, "action": "stand"})
    assert Action.from_dict({"seat": "2", "action": "stand"}).seat == 2
