from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.errors import RulesError
from croupier.money import Odds
from croupier.rules import (
    GameRules,
    Paytable,
    Provenance,
    load_rules_file,
    option,
    parse_settings,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyRules(GameRules):
    """A toy game's options."""

    decks: int = option(
        6, provenance=Provenance.ASSUMED, doc="decks", minimum=1, maximum=8
    )
    payout: Odds = option(
        Odds(3, 2), provenance=Provenance.ASSUMED, doc="pays"
    )
    penetration: Fraction = option(
        Fraction(3, 4), provenance=Provenance.ASSUMED, doc="cut"
    )
    peek: bool = option(True, provenance=Provenance.REG, doc="peek")
    order: str = option(
        "a", provenance=Provenance.ASSUMED, doc="o", choices=("a", "b")
    )
    table: Paytable = option(
        Paytable.parse({"pair": "1:1"}),
        provenance=Provenance.ASSUMED,
        doc="bonus",
        choices=("pair", "flush"),
    )


def test_defaults_and_overrides() -> None:
    rules = ToyRules.from_mapping(
        {"decks": 8, "payout": "6:5", "table": {"flush": "5:1"}}
    )
    assert rules.decks == 8
    assert rules.payout == Odds(6, 5)
    assert rules.table["flush"] == Odds(5, 1)
    assert ToyRules().decks == 6


@pytest.mark.parametrize(
    ("mapping", "key"),
    [
        ({"deck": 8}, "deck"),
        ({"decks": "8"}, "decks"),
        ({"decks": True}, "decks"),
        ({"decks": 9}, "decks"),
        ({"payout": "lots"}, "payout"),
        ({"order": "c"}, "order"),
        ({"table": {"straight": "9:1"}}, "table"),
        ({"peek": 3}, "peek"),
    ],
)
def test_bad_options_name_the_key(
    mapping: dict[str, object], key: str
) -> None:
    with pytest.raises(RulesError) as info:
        ToyRules.from_mapping(mapping)
    assert info.value.key == key
    assert f'rules option "{key}"' in str(info.value)


def test_cli_settings() -> None:
    rules = ToyRules().with_settings(["decks=2", "payout=1:1", "peek=false"])
    assert (rules.decks, rules.payout, rules.peek) == (2, Odds(1, 1), False)
    assert parse_settings(["penetration=0.5"]) == {"penetration": 0.5}
    with pytest.raises(RulesError):
        parse_settings(["nonsense"])


def test_options_document_provenance() -> None:
    infos = {info.name: info for info in ToyRules.options()}
    assert infos["peek"].provenance is Provenance.REG
    assert infos["payout"].default == "3:2"


def test_rules_files_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "casino.toml"
    toml.write_text('[rules]\ndecks = 4\npayout = "6:5"\n', encoding="utf-8")
    js = tmp_path / "casino.json"
    js.write_text(json.dumps({"decks": 2}), encoding="utf-8")
    assert ToyRules.from_mapping(load_rules_file(toml)).decks == 4
    assert ToyRules.from_mapping(load_rules_file(js)).decks == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = = 4", encoding="utf-8")
    with pytest.raises(RulesError):
        load_rules_file(bad)


def test_to_dict_round_trips() -> None:
    rules = ToyRules(decks=3)
    assert ToyRules.from_mapping(rules.to_dict()) == rules
