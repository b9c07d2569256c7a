"""The fewest shuffles the § 810a.5 battery can judge, named up front.

``croupier rng-test --shuffles N`` below what the battery's chi-squares
need (Cochran's rule, D40) drew every shuffle first and was refused at
the end, in words that did not say how many would do. A source that
draws its own shuffles (croupier's, the known-bad ones) is now refused
before it draws one, naming the minimum for the game's shoe and N; a
file, once its shuffles are counted, names the minimum too. The minimum
is the battery's own (:func:`croupier.rngtest.battery.minimum_shuffles`
runs the tests' checks): here it is derived by hand for a pai gow deck,
and for the other shoes it is held to what :func:`run_battery` itself
takes and refuses.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cards import CARD_TEXTS
from croupier.cli import app
from croupier.registry import find_game
from croupier.rngtest import battery, fresh_shoe
from croupier.rngtest.battery import TooFewShufflesError, run_battery

PAI_GOW = find_game("six-card-fortune-pai-gow")


def _pai_gow_minimum() -> int:
    """The fewest pai gow shuffles, by hand (not by the code under test).

    The battery's first chi-square counts each of the 53 cards (the
    joker among them, one copy each) in each tenth of the deck. 53
    places in ten tenths are seven of 5 places and three of 6, so 70 %
    of the cells are a card in a 5-place tenth, expecting N x 5 / 53
    shoes. Cochran's rule lets at most a fifth of the cells expect under
    5: those must expect 5, so N >= 53. At 53 every other test is
    well inside the rule (the Poisson test's law is Poisson(1): its
    least likely pooled cell, two or more cards in place, has 1 - 2/e
    = 0.26, some 14 shoes; the stream has 53 x 52 values).
    """
    places, tenths = 53, 10
    narrow = places // tenths  # the tenths of 5 places
    wide = tenths * (narrow + 1) - places  # how many are narrow
    assert (wide, tenths - wide) == (7, 3)
    assert wide / tenths > 1 / 5  # too many to be let under 5
    return math.ceil(5 * places / narrow)


def _shuffles(original: np.ndarray, count: int) -> Iterator[np.ndarray]:
    gen = np.random.default_rng(7)
    for _ in range(count):
        yield gen.permutation(original)


@pytest.mark.proves("810a.5")
def test_810a_5_the_pai_gow_minimum_is_the_tenths_by_hand() -> None:
    original = fresh_shoe(PAI_GOW, PAI_GOW.rules_type())
    assert len(original) == 53
    assert battery.minimum_shuffles(original) == _pai_gow_minimum() == 53


@pytest.mark.proves("810a.5")
@pytest.mark.parametrize(
    ("game", "decks"),
    [
        ("six-card-fortune-pai-gow", None),
        ("double-back-jack", 6),
        ("midibaccarat", 8),
    ],
)
def test_810a_5_the_battery_takes_the_minimum_and_refuses_one_less(
    game: str, decks: int | None
) -> None:
    """The minimum is the battery's: M - 1 uniform shuffles are refused
    naming M, and M are judged."""
    spec = find_game(game)
    rules = (
        spec.rules_type()
        if decks is None
        else spec.rules_type.from_mapping({"decks": decks})
    )
    original = fresh_shoe(spec, rules)
    least = battery.minimum_shuffles(original)
    with pytest.raises(TooFewShufflesError) as refused:
        run_battery(_shuffles(original, least - 1), original, seed=1)
    assert getattr(refused.value, "minimum", None) == least
    assert f"needs at least {least} shuffles" in str(refused.value)
    judged = run_battery(_shuffles(original, least), original, seed=1)
    assert judged.shuffles == least


@pytest.mark.proves("810a.5")
def test_810a_5_a_count_between_refused_counts_is_not_judged() -> None:
    """Eight decks: 12 shuffles happen to meet the Poisson test's pooling,
    13 to 54 do not. 12 were judged; the shoe needs 55 whatever the luck
    of the count, and 12 are refused naming 55 and the count refused."""
    spec = find_game("midibaccarat")
    original = fresh_shoe(spec, spec.rules_type.from_mapping({"decks": 8}))
    least = battery.minimum_shuffles(original)
    assert least == 55
    with pytest.raises(TooFewShufflesError) as refused:
        run_battery(_shuffles(original, 12), original, seed=1)
    assert getattr(refused.value, "minimum", None) == least
    assert f"with {least - 1}, the Poisson test" in str(refused.value)


def _drawing_forbidden(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []

    def draw(*_: object, **__: object) -> Iterator[np.ndarray]:
        drawn.append("a shuffle")
        raise AssertionError("a shuffle was drawn")

    monkeypatch.setattr("croupier.rngtest.sources.live_shuffles", draw)
    monkeypatch.setattr("croupier.rngtest.sources.bad_shuffles", draw)
    return drawn


@pytest.mark.proves("810a.5")
@pytest.mark.parametrize("source", ["live", "naive-swap", "riffle-3"])
def test_810a_5_too_few_shuffles_refused_before_one_is_drawn(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = _drawing_forbidden(monkeypatch)
    args = ["rng-test", "--game", PAI_GOW.name, "--source", source]
    result = CliRunner().invoke(app, [*args, "--shuffles", "10"])
    assert drawn == []
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("root rng-test: --shuffles 10 is too few")
    assert PAI_GOW.name in line
    assert f"needs at least {_pai_gow_minimum()} shuffles" in line


@pytest.mark.proves("810a.5")
def test_810a_5_the_minimum_follows_the_rules_submission(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One deck of Double Back Jack: the pai gow arithmetic without the
    joker, 52 places in tenths of 5 and 6 (eight of 5): N >= 52."""
    drawn = _drawing_forbidden(monkeypatch)
    rules = tmp_path / "one-deck.toml"
    rules.write_text("decks = 1\n", encoding="utf-8")
    args = ["rng-test", "--rules", str(rules), "--shuffles", "51"]
    result = CliRunner().invoke(app, args)
    assert drawn == []
    assert result.exit_code == 2, result.output
    assert "shoe of 52 cards" in result.stderr
    assert "needs at least 52 shuffles" in result.stderr


@pytest.mark.proves("810a.5")
@pytest.mark.parametrize("count", [0, 1, 10])
def test_810a_5_a_file_of_too_few_shuffles_names_the_minimum(
    count: int, tmp_path: Path
) -> None:
    original = fresh_shoe(PAI_GOW, PAI_GOW.rules_type())
    path = tmp_path / "shuffles.txt"
    path.write_text(
        "".join(
            " ".join(CARD_TEXTS[code] for code in shuffle) + "\n"
            for shuffle in _shuffles(original, count)
        ),
        encoding="utf-8",
    )
    args = ["rng-test", "--game", PAI_GOW.name, "--source", str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert f"{path} holds {count} shuffle" in line
    assert f"needs at least {_pai_gow_minimum()} shuffles" in line


@pytest.mark.proves("810a.5")
@pytest.mark.parametrize("decks", range(1, 9))
def test_810a_5_no_count_past_the_poisson_minimum_is_refused(
    decks: int,
) -> None:
    """The Poisson test's minimum is found below a bound it derives;
    every count from 2 to 5,000 is tried here instead, one by one."""
    from croupier.rngtest.card_tests import CardTests
    from croupier.rngtest.results import Sparse

    spec = find_game("double-back-jack")
    original = fresh_shoe(spec, spec.rules_type.from_mapping({"decks": decks}))
    cards = CardTests(original)
    refused = []
    for shoes in range(2, 5000):
        try:
            cards.plan_poisson(shoes)
        except Sparse:
            refused.append(shoes)
    assert cards.poisson_minimum() == max(refused, default=1) + 1
