"""Issue 16: ``croupier protect`` -- a small run, and wrong arguments.

Every wrong argument gives one line on stderr naming the problem and
exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-game"], "no-such-game"),
        (["midibaccarat", "dragon7"], "no wager 'dragon7'"),
        (["midibaccarat", "--tags", "Z=1"], "--tags"),
        (["midibaccarat", "--penetration", "0.99"], "--penetration"),
        (["midibaccarat", "--cut-card", "412"], "--cut-card"),
        (
            ["midibaccarat", "--penetration", "0.9", "--cut-card", "20"],
            "not both",
        ),
        (["midibaccarat", "--plot", "x.png"], "--plot"),
        (["midibaccarat", "--shoes", "0"], "--shoes"),
        (["six-card-fortune-pai-gow", "--tags", "A=1"], "no count"),
        (["midibaccarat", "--set", "decks=99"], "decks"),
        (["midibaccarat", "--only", "eor,nothing"], "no analysis"),
    ],
)
def test_issue16_cli_wrong_arguments(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["protect", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert says in result.output


def test_issue16_cli_json_report(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "protect",
            "21-baccarat",
            "tie",
            "--shoes",
            "300",
            "--workers",
            "1",
            "--no-remedies",
            "--only",
            "eor,counts",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["game"] == "21-baccarat"
    assert data["wager"] == "tie"
    keys = [s["key"] for s in data["sections"]]
    assert keys[:2] == ["eor", "counts"]
    eor = data["sections"][0]["data"]["wagers"]["tie"]
    assert eor["sum_check"] == "0"
    counts = data["sections"][1]["data"]["wagers"]["tie"]["counts"]
    assert {c["name"] for c in counts} >= {"level 1"}
    assert all(f["wager"] == "tie" for f in data["findings"])


def test_issue16_cli_depth_table_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "depth.png"
    result = runner.invoke(
        app,
        [
            "protect",
            "midibaccarat-commission-free",
            "dragon7",
            "--shoes",
            "400",
            "--workers",
            "1",
            "--cut-card",
            "14,104",
            "--plot",
            str(plot),
            "--no-remedies",
            "--only",
            "counts",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "cut card behind" in result.output
    assert "104 cards (75.0 % dealt)" in result.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_issue16_1_paigow_report_says_fresh_deck_no_count() -> None:
    result = runner.invoke(
        app,
        ["protect", "six-card-fortune-pai-gow", "--only", "eor,counts"],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Beatable under these rules: none." in text
    assert "shuffled before every round (670a.9)" in text
    assert "| fortune_bonus | 8.1854 % |" in text
    assert "| K | Jk | sum |" in text  # the joker's EoR has its column


@pytest.mark.parametrize(
    ("args", "analyses"),
    [
        (["midibaccarat", "--only", "blackjack"], "eor, counts, perfect"),
        (["double-back-jack", "--only", "perfect"], "its analyses: blackjack"),
        (["six-card-fortune-pai-gow", "--only", "known"], "eor, counts"),
        # one of two that does not report on the game was dropped unsaid
        (["midibaccarat", "--only", "eor,blackjack"], "eor, counts, perfect"),
        (["six-card-fortune-pai-gow", "--only", "perfect,eor"], "eor, counts"),
    ],
)
def test_protect_only_of_no_analysis_of_the_game_is_refused(
    args: list[str], analyses: str
) -> None:
    """``--only`` naming analyses that do not report on the game ran
    nothing and said "Beatable under these rules: none."; exit 0. Named
    beside one that does, it was left out without a word."""
    result = runner.invoke(app, ["protect", *args])
    assert result.exit_code == 2, result.output
    assert "Beatable" not in result.output
    foreign = next(
        a
        for a in args[-1].split(",")
        if a in ("blackjack", "perfect", "known")
    )
    assert f": {foreign} is not an analysis of {args[0]}" in result.output
    assert analyses in result.output


def test_protect_only_of_no_analysis_of_the_wager_is_refused() -> None:
    """Perfect play is of the pair wagers: the Tie alone has none."""
    result = runner.invoke(
        app, ["protect", "midibaccarat", "tie", "--only", "perfect"]
    )
    assert result.exit_code == 2, result.output
    assert "Beatable" not in result.output
    assert "no analysis of the tie wager of midibaccarat" in result.output
