"""Conforming logs changed at random: never a crash, never passed when broken.

A lab gets logs from systems it does not know. Whatever a line holds,
``croupier verify`` must give a verdict or name the malformed line (a
typed error), never fail inside. And a change that always breaks a
round (a step left out or given twice, a settlement's amount, a step's
subsection or number) must always be found, whatever step it hits.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games
from croupier.verify import verify_lines

GAMES = [spec.name for spec in all_games()]

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["As", "CC", "JK", "Th", "591.7(c)", "670a.9(d)", ""]),
    st.just([]),
    st.just({}),
    st.just([1, "As"]),
)


@cache
def _docs(game: str) -> tuple[str, ...]:
    """A few conforming rounds of ``game``, as JSON text."""
    return tuple(h.dumps() for h in sample_histories(game, 6, seed=12))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.sampled_from(GAMES),
    st.integers(0, 5),
    st.lists(
        st.tuples(st.integers(0, 10**6), st.booleans(), VALUES),
        min_size=1,
        max_size=3,
    ),
)
def test_any_change_of_a_line_gives_a_verdict_or_names_the_line(
    game: str, which: int, changes: list[tuple[int, bool, object]]
) -> None:
    doc = json.loads(_docs(game)[which])
    for where, remove, value in changes:
        paths = _paths(doc)[1:]
        path = paths[where % len(paths)]
        parent = _at(doc, path[:-1])
        if remove:
            del parent[path[-1]]
        else:
            # a copy: st.just gives the same list or dict every draw, and
            # put twice, one inside the other, it would make a cycle
            parent[path[-1]] = copy.deepcopy(value)
    line = json.dumps(doc)
    try:
        report = verify_lines([line])
    except CroupierError:
        return  # a malformed line, named (exit 2)
    assert report.rounds == 1


_BREAKS = ("leave out", "twice", "net", "ref", "seq")


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(GAMES),
    st.integers(0, 5),
    st.sampled_from(_BREAKS),
    st.integers(0, 10**6),
)
def test_a_step_left_out_or_changed_is_always_a_deviation(
    game: str, which: int, change: str, where: int
) -> None:
    doc = json.loads(_docs(game)[which])
    steps = doc["procedure"]
    i = where % len(steps)
    if change == "leave out":
        del steps[i]
    elif change == "twice":
        steps.insert(i, dict(steps[i]))
    elif change == "net":
        row = doc["settlements"][where % len(doc["settlements"])]
        row["net"] += 1 if where % 2 else -1
    elif change == "ref":
        steps[i]["ref"] = "591.7(b)" if steps[i]["ref"] != "591.7(b)" else None
    else:
        steps[i]["seq"] += 1
    try:
        report = verify_lines([json.dumps(doc)])
    except CroupierError:
        return  # refused as malformed: not passed either
    assert report.conforming == 0, (change, i)
