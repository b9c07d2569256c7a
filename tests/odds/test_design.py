"""Issue 15 points 1 and 3: the Bonus paytables and the designer.

The 21 Baccarat Bonus holds are checked against a brute-force
enumeration written here from the rules alone (its own card model,
draw rule and categories; nothing from ``croupier.odds``): every
ordered sequence of a hand's final cards from a full shoe, a third card
exactly when the two-card total is under 17 (681a.7(f)(2), (g)). The
designer's search is checked against an exhaustive loop over small
paytable grids.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier.errors import RulesError
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.hands.bonus21 import (
    BONUS_PAYTABLES,
    DEFAULT_BONUS_PAYTABLE,
)
from croupier.odds.baccarat21.model import analyze
from croupier.odds.design import DesignError, design, find_space

LOW, HIGH = Fraction(58, 1000), Fraction(80, 1000)
# ranks 0..12 = 2..A; blackjack values with the ace as 1
_VALUE = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1]
_ORDER = (
    "suited_three_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
    "pair",
)


def _two_card_total(a: int, b: int) -> int:
    hard = _VALUE[a // 4] + _VALUE[b // 4]
    has_ace = 12 in (a // 4, b // 4)
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


def _qualifies(cards: tuple[int, ...]) -> set[str]:
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    found: set[str] = set()
    if len(set(ranks)) < len(ranks):
        found.add("pair")
    if len(cards) == 3:
        if len(set(ranks)) == 1:
            found.add("three_of_a_kind")
            if len(set(cards)) == 1:
                found.add("suited_three_of_a_kind")
        flush = len(set(suits)) == 1
        if flush:
            found.add("flush")
        ordered = sorted(ranks)
        straight = len(set(ranks)) == 3 and (
            ordered[2] - ordered[0] == 2 or ordered == [0, 1, 12]
        )
        if straight:
            found.add("straight")
            if flush:
                found.add("straight_flush")
    return found


@cache
def _brute(decks: int) -> dict[frozenset[str], Fraction]:
    """Probability of each set of categories, by direct enumeration."""
    n = 52 * decks
    out: dict[frozenset[str], Fraction] = {}
    for a in range(52):
        for b in range(52):
            w2 = Fraction(decks * (decks - (a == b)), n * (n - 1))
            if not w2:
                continue
            if _two_card_total(a, b) >= 17:
                key = frozenset(_qualifies((a, b)))
                out[key] = out.get(key, Fraction(0)) + w2
                continue
            for c in range(52):
                left = decks - (a == c) - (b == c)
                if left > 0:
                    key = frozenset(_qualifies((a, b, c)))
                    out[key] = out.get(key, Fraction(0)) + w2 * Fraction(
                        left, n - 2
                    )
    return out


def _brute_hold(odds: dict[str, Fraction], decks: int) -> Fraction:
    mean = Fraction(0)
    for cats, p in _brute(decks).items():
        paid = [odds[c] for c in _ORDER if c in cats and c in odds]
        mean += p * (max(paid) if paid else -1)
    return -mean


def _fractions(table: object) -> dict[str, Fraction]:
    return {c: o.fraction for c, o in table}  # type: ignore[attr-defined]


def test_issue_15_1_brute_force_is_a_distribution() -> None:
    for decks in (2, 3):
        assert sum(_brute(decks).values()) == 1


@pytest.mark.parametrize("name", sorted(BONUS_PAYTABLES))
def test_issue_15_1_d16_named_tables_hold_5_8_to_8_0_at_2_and_3_decks(
    name: str,
) -> None:
    table = _fractions(BONUS_PAYTABLES[name])
    assert set(table) == set(_ORDER)
    space = find_space("21-baccarat", "bonus")
    for decks in (2, 3):
        hold = _brute_hold(table, decks)
        assert LOW <= hold <= HIGH, (name, decks, float(hold))
        assert space.evaluate(table, decks).hold == hold
        rules = Baccarat21Rules.from_mapping(
            {"decks": decks, "bonus_paytable": name}
        )
        report = analyze(rules)
        assert report.wagers["bonus_player"].house_edge_exact == hold


def test_issue_15_1_d16_default_is_table_a_and_names_resolve() -> None:
    assert Baccarat21Rules().bonus_paytable == DEFAULT_BONUS_PAYTABLE
    assert BONUS_PAYTABLES["A"] == DEFAULT_BONUS_PAYTABLE
    rules = Baccarat21Rules().with_settings(["bonus_paytable=c"])
    assert rules.bonus_paytable == BONUS_PAYTABLES["C"]
    with pytest.raises(RulesError, match="named tables are A, B, C, D"):
        Baccarat21Rules.from_mapping({"bonus_paytable": "Z"})


def test_issue_15_1_former_default_held_twice_the_published_range() -> None:
    former = {
        "suited_three_of_a_kind": Fraction(100),
        "straight_flush": Fraction(40),
        "three_of_a_kind": Fraction(30),
        "straight": Fraction(10),
        "flush": Fraction(5),
        "pair": Fraction(1),
    }
    assert round(100 * float(_brute_hold(former, 3)), 2) == 14.82
    assert round(100 * float(_brute_hold(former, 2)), 2) == 17.64


def test_issue_15_3_designer_finds_bonus_tables_in_the_published_range() -> (
    None
):
    space = find_space("21-baccarat", "bonus")
    result = design(space, low=LOW, high=HIGH, decks=(2, 3), top=5)
    assert result.found >= 5
    assert len(result.candidates) == 5
    distances = []
    for candidate in result.candidates:
        odds = {c: Fraction(n) for c, n in candidate.odds.items()}
        values = [odds[c] for c in _ORDER]
        assert values == sorted(values, reverse=True)  # monotone in rank
        holds = [_brute_hold(odds, d) for d in (2, 3)]
        assert all(LOW <= h <= HIGH for h in holds)
        assert [e.hold for e in candidate.evaluations] == holds
        distances.append(max(abs(h - (LOW + HIGH) / 2) for h in holds))
    assert distances == sorted(distances)


def test_issue_15_3_dragon7_40_to_1_prices_at_7_6113_percent() -> None:
    # Wizard of Odds, EZ Baccarat: Dragon 7 at 40:1 holds 7.61 % at 8
    # decks (combinations of the six-card enumeration).
    space = find_space("midibaccarat-commission-free", "dragon7")
    hold = space.evaluate({"dragon7": Fraction(40)}, 8).hold
    assert f"{100 * float(hold):.4f}" == "7.6113"
    result = design(space, low=Fraction(7, 100), high=Fraction(8, 100))
    assert [c.odds for c in result.candidates] == [{"dragon7": 40}]
    assert f"{100 * float(result.candidates[0].evaluations[0].hold):.4f}" == (
        "7.6113"
    )


def test_issue_15_3_search_finds_every_table_of_an_exhaustive_grid() -> None:
    # Perfect Pairs at 8 decks: every monotone table perfect >= colored
    # >= mixed within 1..40, counted by brute force over the grid.
    space = find_space("midibaccarat", "perfect_pairs")
    n = 52 * 8
    p = {
        "perfect": Fraction(52 * 8 * 7, n * (n - 1)),
        "colored": Fraction(52 * 8 * 8, n * (n - 1)),
        "mixed": Fraction(52 * 8 * 16, n * (n - 1)),
    }
    low, high = Fraction(2, 100), Fraction(6, 100)
    expected = set()
    for perfect, colored, mixed in itertools.product(range(1, 41), repeat=3):
        if not perfect >= colored >= mixed:
            continue
        ret = p["perfect"] * (perfect + 1) + p["colored"] * (colored + 1)
        ret += p["mixed"] * (mixed + 1)
        if low <= 1 - ret <= high:
            expected.add((perfect, colored, mixed))
    result = design(
        space, low=low, high=high, decks=(8,), max_odds=40, top=10_000
    )
    got = {
        (c.odds["perfect"], c.odds["colored"], c.odds["mixed"])
        for c in result.candidates
    }
    assert result.found == len(expected) > 0
    assert got == expected
    anyorder = design(
        space,
        low=low,
        high=high,
        decks=(8,),
        max_odds=40,
        top=10_000,
        monotone=False,
    )
    assert anyorder.found > result.found


def test_issue_15_3_fewest_changes_keeps_the_base_table() -> None:
    space = find_space("midibaccarat", "perfect_pairs")
    base_hold = space.evaluate(dict(space.base), 8).hold
    result = design(
        space,
        low=base_hold,
        high=base_hold,
        decks=(8,),
        rank="changes",
        top=1,
    )
    assert result.candidates[0].changes == 0
    assert result.candidates[0].odds == {
        c: int(o) for c, o in space.base.items()
    }


def test_issue_15_3_refusals_are_typed() -> None:
    space = find_space("21-baccarat", "bonus")
    with pytest.raises(DesignError, match="overlap"):
        design(space, low=LOW, high=HIGH, monotone=False)
    with pytest.raises(DesignError, match="unknown categories"):
        design(space, low=LOW, high=HIGH, categories=["quads"])
    with pytest.raises(DesignError, match="not within"):
        design(space, low=HIGH, high=LOW)
    with pytest.raises(DesignError, match="designable"):
        find_space("21-baccarat", "tie")
    fortune = find_space("six-card-fortune-pai-gow", "fortune_bonus")
    with pytest.raises(DesignError, match="fixed deck"):
        fortune.outcomes(2)


def test_issue_15_1_readme_bonus_table_is_the_brute_force_holds() -> None:
    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = readme.read_text(encoding="utf-8")
    block = text.split("<!-- bonus-paytables -->")[1]
    block = block.split("<!-- /bonus-paytables -->")[0]
    rows = [r for r in block.strip().splitlines()[2:] if r.startswith("|")]
    assert len(rows) == len(BONUS_PAYTABLES)
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = cells[0].split()[0]
        table = _fractions(BONUS_PAYTABLES[name])
        assert [Fraction(c.split(":")[0]) for c in cells[1:7]] == [
            table[c] for c in _ORDER
        ]
        for cell, decks in ((cells[7], 2), (cells[8], 3)):
            assert cell == f"{100 * float(_brute_hold(table, decks)):.4f} %"
    assert "| A (default) |" in block


# -- croupier design (the command) -----------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from croupier.cli import app

    result = CliRunner().invoke(app, ["design", *args])
    return result.exit_code, result.stdout, result.stderr


def test_issue_15_3_cli_prices_dragon7_at_7_6113_percent() -> None:
    code, out, _ = _run(
        "midibaccarat-commission-free",
        "dragon7",
        "--price",
        "--base",
        "dragon7=40:1",
        "--decks",
        "8",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert f"{100 * data['decks']['8']['hold']:.4f}" == "7.6113"
    code, out, _ = _run(
        "midibaccarat-commission-free",
        "dragon7",
        "--target-hold",
        "7..8",
        "--decks",
        "8",
    )
    assert code == 0
    assert "7.6113 %" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_issue_15_3_cli_bonus_tables_checked_by_brute_force() -> None:
    code, out, _ = _run(
        "21-baccarat",
        "bonus",
        "--target-hold",
        "5.8..8.0",
        "--decks",
        "2,3",
        "--top",
        "3",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["target_hold"] == [0.058, 0.08]
    assert len(data["candidates"]) == 3
    for candidate in data["candidates"]:
        odds = {
            c: Fraction(text.split(":")[0])
            for c, text in candidate["paytable"].items()
        }
        for decks in ("2", "3"):
            exact = Fraction(candidate["decks"][decks]["hold_exact"])
            assert exact == _brute_hold(odds, int(decks))
            assert LOW <= exact <= HIGH


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("21-baccarat", "tie", "--target-hold", "1..2"), "designable"),
        (("21-baccarat", "bonus"), "--target-hold"),
        (("21-baccarat", "bonus", "--target-hold", "x..8"), "percentage"),
        (("21-baccarat", "bonus", "--target-hold", "9..8"), "hold is above"),
        (
            ("21-baccarat", "bonus", "--target-hold", "5..8", "--rank", "x"),
            "--rank",
        ),
        (("21-baccarat", "bonus", "--price", "--base", "pair"), "--base"),
        (("21-baccarat", "bonus", "--price", "--decks", "two"), "--decks"),
        (("nope", "bonus", "--price"), "nope"),
    ],
)
def test_issue_15_3_cli_refusals_are_one_line(
    args: tuple[str, ...], fragment: str
) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert fragment in err


@pytest.mark.parametrize(
    ("game", "wager", "decks", "published"),
    [
        # Wizard of Odds, EZ Baccarat side bets at 8 decks
        ("midibaccarat-commission-free", "panda8", 8, "10.1876"),
        # Perfect Pairs 25/12/6 at 8 decks (the analyzer's figure)
        ("midibaccarat", "perfect_pairs", 8, "4.0964"),
        # every six-card hand of the 53-card deck, paytable 1000/.../5
        ("six-card-fortune-pai-gow", "fortune_bonus", 1, "8.1854"),
    ],
)
def test_issue_15_3_base_tables_price_at_the_published_holds(
    game: str, wager: str, decks: int, published: str
) -> None:
    space = find_space(game, wager)
    hold = space.evaluate(dict(space.base), decks).hold
    assert f"{100 * float(hold):.4f}" == published


def test_issue_15_3_prices_equal_the_analyzers_on_other_tables() -> None:
    from croupier.games.midibaccarat.rules import MidibaccaratRules
    from croupier.odds.baccarat.model import analyze as analyze_baccarat

    odds = {"perfect": 30, "colored": 10, "mixed": 5}
    rules = MidibaccaratRules.from_mapping(
        {"decks": 6, "perfect_pairs": {k: f"{v}:1" for k, v in odds.items()}}
    )
    report = analyze_baccarat(rules).wagers["perfect_pairs_player"]
    space = find_space("midibaccarat", "perfect_pairs")
    table = {k: Fraction(v) for k, v in odds.items()}
    assert space.evaluate(table, 6).hold == report.house_edge_exact


# -- D133: the deck count of the Rules Submission ---------------------------


def _pairs_hold(
    decks: int, perfect: int, colored: int, mixed: int
) -> Fraction:
    """Perfect Pairs hold by hand: the second card against the first.

    Of the 52 d - 1 cards left after the first, d - 1 are its rank and
    suit, d its rank in the other suit of its colour and 2 d its rank in
    the suits of the other colour.
    """
    left = 52 * decks - 1
    same, coloured, mixed_n = decks - 1, decks, 2 * decks
    losing = left - same - coloured - mixed_n
    ret = perfect * same + colored * coloured + mixed * mixed_n - losing
    return Fraction(-ret, left)


@pytest.mark.parametrize("how", ["--set", "--rules"])
def test_d133_design_prices_at_the_rules_decks(
    how: str, tmp_path: Path
) -> None:
    if how == "--set":
        given = ["--set", "decks=6"]
    else:
        path = tmp_path / "six.toml"
        path.write_text("decks = 6\n", encoding="utf-8")
        given = ["--rules", str(path)]
    code, out, _ = _run(
        "midibaccarat", "perfect_pairs", "--price", "--json", *given
    )
    assert code == 0
    data = json.loads(out)
    assert list(data["decks"]) == ["6"]
    assert Fraction(data["decks"]["6"]["hold_exact"]) == _pairs_hold(
        6, 25, 12, 6
    )
    assert _pairs_hold(6, 25, 12, 6) == Fraction(19, 311)
    code, out, _ = _run("midibaccarat", "perfect_pairs", "--price", *given)
    assert code == 0
    assert "6 decks: hold 6.1093 %" in out
    assert "8 decks" not in out


def test_d133_design_searches_at_the_rules_decks() -> None:
    code, out, _ = _run(
        "midibaccarat",
        "perfect_pairs",
        "--target-hold",
        "5..7",
        "--set",
        "decks=6",
        "--json",
        "--top",
        "2",
    )
    assert code == 0
    data = json.loads(out)
    assert data["decks"] == [6]
    for candidate in data["candidates"]:
        odds = [
            int(candidate["paytable"][c].split(":")[0])
            for c in ("perfect", "colored", "mixed")
        ]
        exact = Fraction(candidate["decks"]["6"]["hold_exact"])
        assert exact == _pairs_hold(6, *odds)


def test_d133_the_bonus_keeps_2_and_3_decks_and_follows_other_counts() -> None:
    for decks, expected in (
        ("2", ["2", "3"]),
        ("3", ["2", "3"]),
        ("6", ["6"]),
    ):
        code, out, _ = _run(
            "21-baccarat",
            "bonus",
            "--price",
            "--json",
            "--set",
            f"decks={decks}",
        )
        assert code == 0
        assert list(json.loads(out)["decks"]) == expected


def test_issue_15_3_a_refused_deck_count_prints_nothing() -> None:
    """Six-Card Fortune is dealt from one 53-card deck (670a.9)."""
    code, out, err = _run(
        "six-card-fortune-pai-gow", "fortune_bonus", "--price", "--decks", "2"
    )
    assert code == 2
    assert out == ""
    assert "one fixed deck" in err


@pytest.mark.parametrize(
    ("game", "wager", "option"),
    [
        ("midibaccarat", "perfect_pairs", "perfect_pairs_offered"),
        ("midibaccarat-commission-free", "dragon7", "dragon7_offered"),
        ("midibaccarat-commission-free", "panda8", "panda8_offered"),
        (
            "six-card-fortune-pai-gow",
            "fortune_bonus",
            "fortune_bonus_offered",
        ),
    ],
)
def test_d162_design_notes_a_wager_the_rules_do_not_offer(
    game: str, wager: str, option: str
) -> None:
    """Priced as asked, with a note that the rules leave it off."""
    code, out, err = _run(game, wager, "--price", "--set", f"{option}=false")
    assert code == 0
    assert f"do not offer {wager} ({option} = false)" in " ".join(out.split())
    assert "hold" in out
    code, out, err = _run(
        game, wager, "--price", "--json", "--set", f"{option}=false"
    )
    assert code == 0
    assert json.loads(out)["offered"] is False
    assert f"({option} = false)" in " ".join(err.split())
    # offered (the default rules): no note
    code, out, err = _run(game, wager, "--price", "--json")
    assert code == 0
    assert json.loads(out)["offered"] is True
    assert "do not offer" not in out + err


def test_d162_21_baccarat_bonus_is_always_offered() -> None:
    code, out, err = _run("21-baccarat", "bonus", "--price")
    assert code == 0
    assert "do not offer" not in out + err
