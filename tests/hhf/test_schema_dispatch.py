"""Issue 17 point 1: the fast schema test accepts exactly what the schema does.

:func:`croupier.hhf.format.dispatched` rewrites the step definition's
``if type == T then ...`` clauses as one ``anyOf`` that stops at the
step's own type (issue 17's speed). Here the rewritten schema and the
shipped one (by :mod:`jsonschema`, the reference implementation) judge
the same steps: every step of sample rounds of every game, and each of
them broken field by field.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import jsonschema_rs

from croupier.hhf.format import dispatched, schema
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games

_BAD_VALUES: tuple[object, ...] = (None, -1, 2.5, "", "Zz", True, [], {})


def _steps() -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for spec in all_games():
        for history in sample_histories(spec.name, 6, seed=3):
            for step in history.procedure:
                seen.setdefault(str(step["type"]), dict(step))
    return list(seen.values())


def _variants(step: dict[str, Any]) -> list[dict[str, Any]]:
    out = [step]
    for name in step:
        missing = dict(step)
        del missing[name]
        out.append(missing)
        for bad in _BAD_VALUES:
            out.append({**step, name: bad})
    for kind in ("card_dealt", "wager_settled", "announced", "dealer_peeked"):
        out.append({**step, "type": kind})
    return out


def test_17_1_dispatched_steps_judged_as_the_shipped_schema() -> None:
    full = schema()
    defs = {"$defs": full["$defs"]}
    reference = jsonschema.Draft202012Validator(
        {**defs, "$ref": "#/$defs/step"}
    )
    fast = dispatched(full)
    quick = jsonschema_rs.validator_for(
        {"$defs": fast["$defs"], "$ref": "#/$defs/step"}
    )
    judged = {True: 0, False: 0}
    for step in _steps():
        for variant in _variants(step):
            want = reference.is_valid(variant)
            assert quick.is_valid(copy.deepcopy(variant)) is want, variant
            judged[want] += 1
    # both kinds of verdict were exercised, on every core step type
    assert judged[True] > 50
    assert judged[False] > 500


def test_17_1_dispatched_schema_accepts_every_sample_round() -> None:
    quick = jsonschema_rs.validator_for(dispatched(schema()))
    for spec in all_games():
        for history in sample_histories(spec.name, 20, seed=4):
            assert quick.is_valid(history.to_dict()), history.round_id
