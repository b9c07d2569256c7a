"""The README followed command by command, as a new user would (2026-12-06).

Each test is a command of the README (or a wrong argument to one) that
ended in ``internal error`` (exit 70), wrote a file other than its name
says, ignored an option without a word, answered a question it cannot
answer, or cut figures short at 80 columns.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rich.console import Console
from tests.refusals import invoke as _invoke
from tests.refusals import refused as _refused

from croupier.cli import app
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.odds.double_back_jack.chart import UPS, StrategyChart


def _seeded_commands() -> list[list[str]]:
    """Every command with a ``--seed``, with its required arguments."""
    group = typer.main.get_command(app)
    found = []
    for name, command in sorted(group.commands.items()):  # type: ignore[attr-defined]
        params = getattr(command, "params", [])
        if not any("--seed" in p.opts for p in params):
            continue
        positionals = [
            "midibaccarat"
            for p in params
            if p.required and not p.opts[0].startswith("--")
        ]
        found.append([name, *positionals])
    return found


SEEDED = _seeded_commands()


def test_the_seeded_commands_are_those_of_the_readme() -> None:
    names = {args[0] for args in SEEDED}
    assert {"simulate", "report", "protect", "play", "demo"} <= names


@pytest.mark.parametrize("args", SEEDED, ids=lambda a: a[0])
def test_a_negative_seed_is_refused_while_the_arguments_are_parsed(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seed -1`` reached numpy's SeedSequence: exit 70."""
    import numpy as np

    def forbidden(*_: object, **__: object) -> None:
        msg = "a seed was used"
        raise AssertionError(msg)

    monkeypatch.setattr(np.random, "SeedSequence", forbidden)
    _refused([*args, "--seed", "-1"], "--seed")


# -- strategy --margins at 80 columns ----------------------------------


def _chart(margin: float) -> StrategyChart:
    """A chart whose every cell has ``margin``: the widest figure."""
    ups = {("A" if u == 1 else str(u)): "S" for u in UPS}
    rows = {"2,2": dict(ups), "A,10": dict(ups)}
    totals = {"20": dict(ups)}
    chart = StrategyChart(
        rules=DoubleBackJackRules(),
        house_edge=0.023276,
        first=rows,
        second_chance={"22": dict.fromkeys(ups, "Y")},
        hard=totals,
        soft={"19": dict(ups)},
        td_house_edge=0.023299,
    )
    chart.margins = {
        title: {label: dict.fromkeys(ups, margin) for label in table}
        for title, table in chart._sections()
    }
    return chart


@pytest.mark.parametrize("margin", [151.12743, 0.69])
def test_strategy_margins_fit_80_columns_with_every_figure_whole(
    margin: float,
) -> None:
    """``croupier strategy --margins`` printed ``10.…``, ``124…``: ten
    columns of six-character margins do not fit 80 columns with rich's
    padding, and rich cut every figure it could not fit."""
    console = Console(width=80, color_system=None)
    with console.capture() as captured:
        console.print(_chart(margin).rich_table(margins=True))
    text = captured.get()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text
    figure = f"{margin:.2f}"
    # every up card of every row shows the whole figure
    assert text.count(figure) == 10 * 5, text
    # the section titles' words are whole too
    for word in ("decisions,", "decision", "Chance", "(busted"):
        assert re.search(rf"(^|\s){re.escape(word)}(\s|│|$)", text), word


# -- analyze --rule-effects at 80 columns -------------------------------


def _effects(decks: int, base: Any) -> dict[str, Any]:
    """A made-up rule-effect table with figures as wide as real ones."""
    del base
    steps = [
        {
            "ref": "591.7(f)",
            "option": "blackjack_paid_before_peek",
            "value": "true",
            "alone": -0.002660 - decks / 1e6,
            "in_order": -0.002660 - decks / 1e6,
        },
        {
            "ref": "591.7(q)(1)",
            "option": "dealer_22_push",
            "value": "true",
            "alone": 0.068247 + decks / 1e6,
            "in_order": 0.066998 + decks / 1e6,
        },
    ]
    return {
        "decks": decks,
        "ordinary": {"house_edge": -0.001531 + decks / 1e6},
        "steps": steps,
        "double_back_jack_house_edge": 0.021264 + decks / 1e6,
    }


def test_rule_effects_fit_80_columns_with_every_figure_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``analyze double-back-jack --rule-effects`` printed ``-0.26…`` and
    ``591.7…`` in every cell: eight columns of figures, cut to fit."""
    from croupier.odds.double_back_jack import ca

    monkeypatch.setattr(ca, "rule_effects", _effects)
    result = _invoke(["analyze", "double-back-jack", "--rule-effects"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80
    for decks in (1, 2, 6, 8):
        every = [
            -0.001531 + decks / 1e6,  # ordinary blackjack
            -0.002660 - decks / 1e6,  # 591.7(f), alone and in order
            0.068247 + decks / 1e6,  # 591.7(q)(1) alone
            0.066998 + decks / 1e6,  # 591.7(q)(1) in order
            0.021264 + decks / 1e6,  # Double Back Jack
        ]
        for value in every:
            assert f"{100 * value:+.4f}" in text, (value, text)
    assert "blackjack_paid_before_peek=true" in text
    assert "591.7(q)(1) dealer_22_push=true" in text


# -- ev -----------------------------------------------------------------

EV = ["ev", "double-back-jack", "--shoe", "6", "--up", "7"]


@pytest.mark.parametrize("hand", ["A-K", "10,A", "T-A"])
def test_591_7_f_ev_refuses_a_blackjack(hand: str) -> None:
    """``ev --hand A-K --up 7`` valued a Blackjack as a 21 paid even money
    (stand +100 %, surrender -50 %): a Blackjack is paid 3:2 at once
    (591.7(f)) and has no decision to value."""
    _refused([*EV, "--hand", hand], "Blackjack", "591.7(f)")


def test_ev_refuses_a_hand_of_one_card() -> None:
    """``--hand 10`` was valued as a hand that may stand on one card."""
    _refused([*EV, "--hand", "10"], "two cards")


def test_ev_names_the_up_card_when_it_is_wrong() -> None:
    """``--up 11`` was refused as a wrong ``hand``."""
    line = _refused(
        ["ev", "double-back-jack", "--shoe", "6", "--hand", "10-6",
         "--up", "11"],
        '"up"',
    )  # fmt: skip
    assert '"hand"' not in line


# -- design -------------------------------------------------------------

DESIGN = ["design", "21-baccarat", "bonus", "--target-hold"]


@pytest.mark.parametrize(
    ("hold", "needle"),
    [("8..5.8", "the low hold is above"), ("-5..8", "below 100"),
     ("5..100", "below 100")],
)  # fmt: skip
def test_design_refuses_a_hold_range_in_the_percent_it_was_given(
    hold: str, needle: str
) -> None:
    """``--target-hold 8..5.8`` said "the range 2/25..29/500 is not
    within 0..1": fractions the user never typed."""
    line = _refused([*DESIGN, hold], f"--target-hold {hold}", needle)
    assert "/" not in line.split(":", 1)[1]


# -- report -------------------------------------------------------------


@pytest.fixture
def no_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a report fails the test: a refusal comes first."""
    import croupier.report

    def forbidden(*_: object, **__: object) -> None:
        msg = "the report was built"
        raise AssertionError(msg)

    monkeypatch.setattr(croupier.report, "build_report", forbidden)


@pytest.mark.usefixtures("no_report")
@pytest.mark.parametrize(
    ("options", "needle"),
    [
        (["--out", "{dir}/r.docx"], ".html, .pdf or .json"),
        (["--out", "{dir}/r.txt"], ".html, .pdf or .json"),
        (["--format", "pdf", "--out", "{dir}/r.html"], "contradict"),
        (["--json", "--out", "{dir}/r.pdf"], "--json and --out"),
        (["--format", "html", "--out", "{dir}/r.json"], "contradict"),
    ],
)
def test_report_refuses_a_file_named_for_another_document(
    options: list[str], needle: str, tmp_path: Path
) -> None:
    """``report --out r.docx`` wrote HTML into r.docx, and ``--format pdf
    --out r.html`` a PDF into r.html."""
    args = [o.format(dir=tmp_path) for o in options]
    _refused(["report", "midibaccarat", *args], needle)
    assert list(tmp_path.iterdir()) == []


def test_report_format_given_names_any_file(tmp_path: Path) -> None:
    """With ``--format``, a name of no known document is the user's."""
    out = tmp_path / "m.out"
    result = _invoke(
        ["report", "midibaccarat", "--format", "json", "--rounds", "1000",
         "--date", "2026-12-06", "--out", str(out)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("{")


# -- rng-test -----------------------------------------------------------


def test_810a_5_rng_test_refuses_shuffles_with_a_file(tmp_path: Path) -> None:
    """``--source FILE --shuffles 100`` tested every shuffle of the file
    and said nothing of the 100."""
    path = tmp_path / "shuffles.txt"
    path.write_text("As Kd\n", encoding="utf-8")
    _refused(
        ["rng-test", "--source", str(path), "--shuffles", "100"],
        "--shuffles",
        "every shuffle",
    )


# -- serve --------------------------------------------------------------


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting uvicorn fails the test: a refusal comes first."""
    pytest.importorskip("uvicorn")
    import uvicorn

    def forbidden(*_: object, **__: object) -> None:
        msg = "the server started"
        raise AssertionError(msg)

    monkeypatch.setattr(uvicorn, "run", forbidden)


@pytest.mark.usefixtures("no_server")
@pytest.mark.parametrize(
    ("options", "needle"),
    [
        (["--port", "70000"], "--port"),
        (["--port", "-1"], "--port"),
        (["--db", "nosuch"], "not a database URL: nosuch"),
        (["--db", "sqlite:///{dir}/c.db", "--workers", "2"], "PostgreSQL"),
        (["--db", "sqlite:///{dir}/c.db", "--play-rate", "abc"], "abc"),
    ],
)
def test_serve_refuses_bad_arguments_on_one_line_of_its_own(
    options: list[str], needle: str, tmp_path: Path
) -> None:
    """``serve --port 70000`` served, ``--port -1`` ended in uvicorn's
    own error (exit 3), ``--db nosuch`` in an internal error (exit 70),
    and the refusals of ``--workers`` and ``--play-rate`` began with
    ``error:`` instead of the command."""
    args = [o.format(dir=tmp_path) for o in options]
    _refused(["serve", *args], needle)
