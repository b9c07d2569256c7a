"""D70: a Double Back Jack log may cite the current Chapter 673a numbers.

The seed is the temporary 591.7; the permanent 673a.7 keeps its letters
(673a.6(c) puts the Second Chance Wager at 673a.7(l)). The conforming
log below is rewritten by hand into the current numbering: 591.7(x) to
673a.7(x), and the engine's 673a.N (N not 7) back to the seed's 591.N.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from tests.verify.days import deviations

from croupier.hhf.sample import sample_histories
from croupier.verify.numbering import seed_numbering, seed_numbering_ref


def _other_numbering(ref: str) -> str:
    if ref.startswith("591.7"):
        return "673a.7" + ref[len("591.7") :]
    if ref.startswith("673a."):
        return "591." + ref[len("673a.") :]
    return ref


def _renumbered(game: str, rounds: int) -> list[dict[str, Any]]:
    docs = []
    for history in sample_histories(game, rounds, seed=5, seats=3):
        doc = json.loads(history.dumps())
        doc["game"]["section"] = _other_numbering(doc["game"]["section"])
        steps = [
            *doc["procedure"],
            *doc["settlements"],
            *doc["shoe"].get("preparation", []),
        ]
        for step in steps:
            if step.get("ref"):
                step["ref"] = _other_numbering(step["ref"])
        docs.append(doc)
    return docs


def test_673a_7_a_log_in_the_current_numbering_conforms() -> None:
    docs = _renumbered("double-back-jack", 40)
    cited = {s["ref"] for doc in docs for s in doc["procedure"] if s["ref"]}
    assert "673a.7(e)(1)" in cited
    assert "591.7(e)(1)" not in cited
    assert docs[0]["game"]["section"] == "673a.7"
    assert deviations(docs) == []


def test_673a_7_a_wrong_subsection_in_the_current_numbering_deviates() -> None:
    docs = _renumbered("double-back-jack", 1)
    dealt = next(s for s in docs[0]["procedure"] if s["type"] == "card_dealt")
    assert dealt["ref"] == "673a.7(e)(1)"
    dealt["ref"] = "673a.7(f)"
    ((line, ref, message),) = deviations(docs)
    assert (line, ref) == (1, "591.7(e)(1)")
    # the log's step quoted as the log wrote it, with the reading
    seq = dealt["seq"]
    assert message == (
        f"step {seq} cites 673a.7(f) (read as 591.7(f)), the rule is "
        f"591.7(e)(1)"
    )


def test_673a_7_a_record_read_renumbered_first_quotes_its_own_step() -> None:
    """After one renumbered record the next are read so first (D70)."""
    docs = _renumbered("double-back-jack", 2)
    dealt = next(s for s in docs[1]["procedure"] if s["type"] == "card_dealt")
    dealt["ref"] = "673a.7(g)"
    ((line, ref, message),) = deviations(docs)
    assert (line, ref) == (2, "591.7(e)(1)")
    assert f"step {dealt['seq']} cites 673a.7(g) (read as 591.7(g))" in (
        message
    )


def test_d70_only_double_back_jack_has_two_numberings() -> None:
    doc = json.loads(next(sample_histories("21-baccarat", 1, seed=5)).dumps())
    step = next(s for s in doc["procedure"] if s["type"] == "card_dealt")
    rule, step["ref"] = step["ref"], "673a.7(e)"
    assert rule.startswith("681a.7(e)")
    assert [(line, ref) for line, ref, _ in deviations([doc])] == [(1, rule)]


@pytest.mark.parametrize(
    ("ref", "engine"),
    [
        ("673a.7(l)(2)", "591.7(l)(2)"),
        ("673a.7", "591.7"),
        ("591.9", "673a.9"),
        ("591.12(a)", "673a.12(a)"),
        ("591.7(e)", "591.7(e)"),
        ("673a.6(c)", "673a.6(c)"),
        ("673a.70", "673a.70"),
        ("681a.7(e)", "681a.7(e)"),
        ("D25", "D25"),
    ],
)
def test_d70_references_read_in_the_engine_numbering(
    ref: str, engine: str
) -> None:
    assert seed_numbering_ref(ref) == engine


def test_d70_a_record_in_the_engine_numbering_is_the_same_record() -> None:
    history = next(sample_histories("double-back-jack", 1, seed=5))
    assert seed_numbering(history) is history
    # a record citing nothing at all needs no second replay either
    bare = dataclasses.replace(
        history,
        procedure=tuple({**s, "ref": None} for s in history.procedure),
        settlements=tuple({**s, "ref": None} for s in history.settlements),
    )
    assert seed_numbering(bare) is bare
    current = dataclasses.replace(history, section="673a.7")
    assert seed_numbering(current).section == "591.7"
