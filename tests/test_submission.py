"""Rules Submission templates load back; the options reference is current."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from croupier.registry import GameSpec, all_games
from croupier.rules import load_rules_file
from croupier.submission import options_markdown, submission_toml

GAMES = all_games()
DOCS = Path(__file__).resolve().parents[1] / "docs" / "options.md"


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_template_loads_back_to_the_same_rules(
    spec: GameSpec, tmp_path: Path
) -> None:
    rules = spec.rules_type()
    path = tmp_path / "casino.toml"
    path.write_text(submission_toml(spec, rules), encoding="utf-8")
    assert spec.rules_type.from_mapping(load_rules_file(path)) == rules
    tomllib.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_docs_options_reference_is_current(spec: GameSpec) -> None:
    assert options_markdown(spec) in DOCS.read_text(encoding="utf-8"), (
        "regenerate docs/options.md with croupier rules GAME --markdown"
    )
