"""D64: the checks across the rounds of one file.

Rounds of one table dealt from one shoe are altered the way a tampered
table (or a gap in its log) would leave them: a card taken out of the
stack or the rack between two rounds, a round left out, a round id used
twice. Which line must deviate, and under which subsection, is decided
here from what was altered; every such file still passes when each round
is checked by itself (``across=False``, ``--rounds-alone``), so only the
checks across rounds can find it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import HandHistory
from croupier.hhf.sample import sample_histories
from croupier.verify import verify_lines

SHOE_GAMES = {
    "double-back-jack": "591.7(a)",
    "21-baccarat": "681a.7(a)",
    "midibaccarat": "629a.8(c)",
    "midibaccarat-commission-free": "629a.8(c)",
}
"""Each shoe game and the rule that its cards come from the shoe as
shuffled (the subsection a shoe that changed between rounds breaks)."""


def _continues(history: HandHistory) -> bool:
    """Whether the round deals on from the shoe the round before left."""
    return not history.shoe.new_shoe and all(
        step["type"] != "shuffled" for step in history.shoe.preparation
    )


def _reshuffles(history: HandHistory) -> bool:
    return any(s["type"] == "cover_card_reached" for s in history.procedure)


def _day(game: str) -> list[HandHistory]:
    return list(sample_histories(game, 40, seed=8))


def _first_link(day: list[HandHistory], after: int = 0) -> int:
    """The first ``i >= after`` whose round the next one deals on from."""
    for i in range(after, len(day) - 2):
        if (
            not _reshuffles(day[i])
            and _continues(day[i + 1])
            and _continues(day[i + 2])
            and not _reshuffles(day[i + 1])
        ):
            return i
    raise AssertionError("no two rounds dealt on from one shoe")


def _same_shoe(day: list[HandHistory], start: int) -> range:
    """``start`` and the rounds after it dealt from the same shoe, up to
    the one that reaches the cover card (left as it is: its reshuffle
    gathers every card, so a card missing then is a deviation of that
    round alone)."""
    end = start
    while (
        end < len(day) and _continues(day[end]) and not _reshuffles(day[end])
    ):
        end += 1
    return range(start, end)


def _found_at(
    day: list[HandHistory], altered: range, ref: str
) -> dict[int, str]:
    """The lines (from 1) whose shoe no longer carries over: the first
    altered round, and the round after the last one when it deals on."""
    found = {altered.start + 1: ref}
    after = altered.stop
    if after < len(day) and _continues(day[after]):
        found[after + 1] = ref
    return found


def _alter(
    day: list[HandHistory],
    rounds: range,
    change: Callable[[HandHistory], HandHistory],
) -> list[HandHistory]:
    return [change(h) if i in rounds else h for i, h in enumerate(day)]


def _without_bottom_card(history: HandHistory) -> HandHistory:
    stack = history.shoe.stack
    assert stack is not None
    tokens = stack.split()
    # the bottom card lies below the cover card: no round of the shoe
    # reaches it, so each round still replays the same way
    assert "CC" in tokens[:-1]
    shoe = dataclasses.replace(history.shoe, stack=" ".join(tokens[:-1]))
    return dataclasses.replace(history, shoe=shoe)


def _without_first_racked(history: HandHistory) -> HandHistory:
    rack = (history.shoe.discard or "").split()
    assert rack
    shoe = dataclasses.replace(history.shoe, discard=" ".join(rack[1:]))
    return dataclasses.replace(history, shoe=shoe)


def _lines(day: list[HandHistory]) -> list[str]:
    return [h.dumps() for h in day]


def _deviating(lines: list[str], **options: object) -> dict[int, str]:
    report = verify_lines(lines, **options)  # type: ignore[arg-type]
    return {v.line: v.deviation.ref for v in report.verdicts if v.deviation}


@pytest.mark.parametrize("game", sorted(SHOE_GAMES))
@pytest.mark.parametrize(
    "change",
    [_without_bottom_card, _without_first_racked],
    ids=["stack", "rack"],
)
def test_591_7_a_card_taken_out_between_rounds(
    game: str, change: Callable[[HandHistory], HandHistory]
) -> None:
    """A card gone from the stack, or from the rack, after a round."""
    day = _day(game)
    i = _first_link(day)
    altered = _same_shoe(day, i + 1)
    lines = _lines(_alter(day, altered, change))
    assert _deviating(lines, across=False) == {}
    # line i + 2 holds round i + 1, the first with the card gone
    want = _found_at(day, altered, SHOE_GAMES[game])
    assert min(want) == i + 2
    assert _deviating(lines) == want
    assert _deviating(lines, workers=2, chunk_lines=3) == want
    assert _deviating(_lines(day)) == {}


@pytest.mark.parametrize("game", sorted(SHOE_GAMES))
def test_591_7_a_round_missing_from_the_log(game: str) -> None:
    day = _day(game)
    i = _first_link(day)
    missing = day[: i + 1] + day[i + 2 :]
    lines = _lines(missing)
    assert _deviating(lines, across=False) == {}
    # round i + 2 now follows round i, on line i + 2
    message = next(
        str(v.deviation)
        for v in verify_lines(lines).verdicts
        if v.deviation is not None
    )
    assert _deviating(lines) == {i + 2: SHOE_GAMES[game]}
    assert f'round "{day[i].round_id}"' in message
    assert f"(line {i + 1})" in message


def test_a_moved_card_deep_in_the_stack_is_found() -> None:
    day = _day("double-back-jack")
    i = _first_link(day)

    def swapped(history: HandHistory) -> HandHistory:
        stack = history.shoe.stack
        assert stack is not None
        tokens = stack.split()
        a, b = len(tokens) - 1, len(tokens) - 3
        assert "CC" not in tokens[b:]
        assert tokens[a] != tokens[b]
        tokens[a], tokens[b] = tokens[b], tokens[a]
        shoe = dataclasses.replace(history.shoe, stack=" ".join(tokens))
        return dataclasses.replace(history, shoe=shoe)

    altered = _same_shoe(day, i + 1)
    changed = _alter(day, altered, swapped)
    assert _deviating(_lines(changed), across=False) == {}
    assert _deviating(_lines(changed)) == _found_at(day, altered, "591.7(a)")


def test_other_tables_interleave() -> None:
    """Rounds of two tables of one game, one after the other in turn."""
    first = _day("double-back-jack")
    second = [
        dataclasses.replace(h, table="another", round_id=f"b-{h.round_id}")
        for h in sample_histories("double-back-jack", 40, seed=9)
    ]
    mixed = [h for pair in zip(first, second, strict=True) for h in pair]
    assert _deviating(_lines(mixed)) == {}
    # the same rounds as one table: the shoes no longer carry over
    one = [dataclasses.replace(h, table="sample-8") for h in mixed]
    assert len(_deviating(_lines(one))) > 10


def test_810a_11_round_id_used_twice() -> None:
    day = list(sample_histories("six-card-fortune-pai-gow", 6, seed=3))
    again = dataclasses.replace(day[4], round_id=day[1].round_id)
    lines = _lines([*day[:4], again, day[5]])
    assert _deviating(lines, across=False) == {}
    report = verify_lines(lines)
    bad = [v for v in report.verdicts if v.deviation is not None]
    assert [v.line for v in bad] == [5]
    assert bad[0].deviation is not None
    assert bad[0].deviation.ref == "810a.11"
    assert "line 2" in bad[0].deviation.message
    assert verify_lines(lines, workers=2, chunk_lines=2).verdicts == (
        report.verdicts
    )


def test_rounds_alone_on_the_command_line(tmp_path: Path) -> None:
    day = _day("21-baccarat")
    i = _first_link(day)
    altered = _same_shoe(day, i + 1)
    changed = _alter(day, altered, _without_bottom_card)
    want = _found_at(day, altered, "681a.7(a)")
    path = tmp_path / "day.jsonl"
    path.write_text("\n".join(_lines(changed)) + "\n", encoding="utf-8")
    runner = CliRunner()
    found = runner.invoke(app, ["verify", str(path), "--quiet", "--json"])
    assert found.exit_code == 1, found.output
    report = json.loads(found.stdout)
    assert [r["line"] for r in report["rounds"]] == sorted(want)
    assert report["summary"]["by_ref"] == {"681a.7(a)": len(want)}
    alone = runner.invoke(
        app, ["verify", str(path), "--quiet", "--rounds-alone"]
    )
    assert alone.exit_code == 0, alone.output


def test_scenarios_appended_to_one_file_do_not_link(tmp_path: Path) -> None:
    """Each scenario deals from a shoe of its own, mid-shoe ones too."""
    scenarios = sorted(
        (Path(__file__).resolve().parents[1] / "scenarios").glob(
            "double-back-jack/*.json"
        )
    )
    mid_shoe = [
        p
        for p in scenarios
        if json.loads(p.read_text(encoding="utf-8")).get("new_shoe") is False
    ]
    assert mid_shoe, "no mid-shoe scenario to append"
    out = tmp_path / "scenarios.jsonl"
    runner = CliRunner()
    for path in [*mid_shoe[:3], *mid_shoe[:3]]:
        result = runner.invoke(
            app, ["scenario", str(path), "--history", str(out)]
        )
        assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["verify", str(out), "--quiet"])
    assert result.exit_code == 0, result.output


def _timed(day: list[HandHistory], start: datetime) -> list[HandHistory]:
    """Each round 50 s long, a minute after the one before."""
    return [
        dataclasses.replace(
            h,
            started_at=(start + timedelta(minutes=n)).isoformat(),
            ended_at=(start + timedelta(minutes=n, seconds=50)).isoformat(),
        )
        for n, h in enumerate(day)
    ]


def test_810a_11_a_table_deals_one_round_at_a_time() -> None:
    start = datetime(2026, 12, 1, 18, tzinfo=UTC)
    day = _timed(list(sample_histories("midibaccarat", 8, seed=5)), start)
    assert _deviating(_lines(day)) == {}
    # round 5 back-dated to begin 20 s before round 4 ended
    early = start + timedelta(minutes=3, seconds=30)
    back = dataclasses.replace(
        day[4],
        started_at=early.isoformat(),
        ended_at=(early + timedelta(seconds=50)).isoformat(),
    )
    lines = _lines([*day[:4], back, *day[5:]])
    assert _deviating(lines, across=False) == {}
    report = verify_lines(lines)
    assert _deviating(lines) == {5: "810a.11"}
    (bad,) = [v for v in report.verdicts if v.deviation]
    assert bad.deviation is not None
    assert f'"{day[3].round_id}" (line 4)' in bad.deviation.message
    # another table's rounds at the same times are no overlap
    other = [
        dataclasses.replace(h, table="another", round_id=f"b-{h.round_id}")
        for h in _timed(
            list(sample_histories("midibaccarat", 8, seed=6)), start
        )
    ]
    both = [h for pair in zip(day, other, strict=True) for h in pair]
    assert _deviating(_lines(both)) == {}
