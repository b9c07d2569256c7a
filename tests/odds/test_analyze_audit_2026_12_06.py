"""Audit of 2026-12-06: ``croupier analyze`` says which σ is approximate.

Double Back Jack's house edge is exact (CDZ-), but its standard
deviation is exact only where no pair is split: a split's two hands are
taken as independent, and the exact σ lies between bounds the analyzer
gives. ``analyze`` printed "house edge 2.3276 % (exact), σ 1.1761", as
if both were exact; the report said "approximate" in a note.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from croupier.cli import app


def _analyze(*args: str) -> str:
    result = CliRunner().invoke(app, ["analyze", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_591_7_analyze_says_the_split_sigma_is_approximate() -> None:
    data = json.loads(_analyze("double-back-jack", "--json"))
    wager = data["wagers"]["blackjack"]
    low, high = wager["std_dev_bounds"]
    assert low < wager["std_dev"] < high  # not one exact value
    out = _analyze("double-back-jack")
    headline = out.splitlines()[1]
    assert headline.endswith(f"σ {wager['std_dev']:.4f} (approximate)")
    assert f"exact σ within {low:.4f} .. {high:.4f}" in out


def test_591_7_analyze_without_splits_gives_sigma_as_exact() -> None:
    """No split (673a.11(a): one hand per box): σ exact, no label."""
    args = ("double-back-jack", "--set", "max_split_hands=1")
    data = json.loads(_analyze(*args, "--json"))
    low, high = data["wagers"]["blackjack"]["std_dev_bounds"]
    assert low == high
    out = _analyze(*args)
    assert "approximate" not in out
    assert "(exact), σ" in out.splitlines()[1]


def test_629a_analyze_baccarat_sigma_is_not_labelled() -> None:
    out = _analyze("midibaccarat")
    assert "approximate" not in out
