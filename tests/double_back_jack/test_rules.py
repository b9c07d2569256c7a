"""The Double Back Jack Rules Submission options and their provenance."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.errors import RulesError
from croupier.games.double_back_jack import (
    CollectionProcedure,
    DoubleBackJackRules,
)
from croupier.money import Odds
from croupier.regs import SEED_SUBSECTIONS, Ref, implementations
from croupier.rules import Provenance


def test_defaults_follow_the_project_decisions() -> None:
    rules = DoubleBackJackRules()
    assert rules.decks == 6
    assert rules.penetration == Fraction(3, 4)
    assert rules.boxes == 6
    assert rules.blackjack_payout == Odds(3, 2)
    assert rules.win_payout == Odds(1, 1)
    assert rules.twenty_one_payout == Odds(1, 1)
    assert rules.second_chance_21_payout == Odds(1, 1)
    assert rules.second_chance_win_payout == Odds(1, 1)
    assert rules.insurance_payout == Odds(2, 1)
    assert rules.insurance_max == Fraction(1, 2)
    assert rules.max_split_hands == 2
    assert rules.collection_procedure is CollectionProcedure.COLLECT_THEN_PAY
    infos = {info.name: info for info in DoubleBackJackRules.options()}
    assert all(info.doc and info.provenance for info in infos.values())
    assert infos["collect_busts_at_once"].decision == "D1"
    assert infos["second_chance_on_doubled"].decision == "D2"
    assert infos["second_chance_21_payout"].decision == "D3"
    assert infos["blackjack_payout"].decision == "D4"
    assert infos["insurance_max"].decision == "D5"
    assert infos["surrender"].decision == "D6"
    assert infos["split_aces_may_draw"].provenance is Provenance.REG
    assert infos["decks"].decision == "D8"


@pytest.mark.parametrize(
    ("mapping", "key"),
    [
        ({"boxes": 7}, "boxes"),
        ({"max_split_hands": 3}, "max_split_hands"),
        ({"collection_procedure": "pay_first"}, "collection_procedure"),
        ({"blackjack_payout": "three to two"}, "blackjack_payout"),
        ({"peek": True}, "peek"),
    ],
)
def test_rules_submission_refusals(
    mapping: dict[str, object], key: str
) -> None:
    with pytest.raises(RulesError) as err:
        DoubleBackJackRules.from_mapping(mapping)
    assert err.value.key == key


def test_rules_round_trip() -> None:
    rules = DoubleBackJackRules.from_mapping(
        {"collection_procedure": "player_by_player", "blackjack_payout": "6:5"}
    )
    again = DoubleBackJackRules.from_mapping(rules.to_dict())
    assert again == rules


def test_every_591_7_subsection_has_implementing_code() -> None:
    registry = implementations()
    letters = [r for r in SEED_SUBSECTIONS if r.section == "591.7"]
    assert len(letters) == 22
    missing = [
        str(ref)
        for ref in letters
        if not any(r.within(ref) for r in registry if registry[r])
    ]
    assert missing == []
    assert Ref.parse("591.7(v)") in registry
