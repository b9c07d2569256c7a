"""Issue 17 point 3: shuffles from a device that writes codes of its own.

An automated shuffler logs its shoes in its own codes; with a card map
(``rng-test --card-map``) the lab tests the file as written. The device
files here are made from the same shuffles written in card notation,
with device codes drawn at random (unrelated to croupier's card codes),
and the battery must come out as for the notation file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cards import Card
from croupier.cli import app
from croupier.registry import find_game
from croupier.rngtest import fresh_shoe, live_shuffles
from croupier.rngtest.cardmap import CardMapError, load_card_map
from croupier.rngtest.sources import read_shuffle_file

PAI_GOW = "six-card-fortune-pai-gow"


def _shuffles(game: str, count: int) -> list[list[int]]:
    spec = find_game(game)
    return [
        s.tolist()
        for s in live_shuffles(spec, spec.rules_type(), count, seed=3)
    ]


def _notation(shuffles: list[list[int]]) -> str:
    return "".join(
        " ".join(str(Card.from_code(c)) for c in s) + "\n" for s in shuffles
    )


def _write_map(path: Path, pairs: dict[str, str]) -> Path:
    """The map in the format the suffix names, written by hand here."""
    if path.suffix == ".json":
        path.write_text(json.dumps(pairs), encoding="utf-8")
    elif path.suffix == ".toml":
        path.write_text(
            "".join(f'"{k}" = "{v}"\n' for k, v in pairs.items()),
            encoding="utf-8",
        )
    else:
        path.write_text(
            "# device code, card\n"
            + "".join(f"{k} {v}\n" for k, v in pairs.items()),
            encoding="utf-8",
        )
    return path


def _battery(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(
        app, ["rng-test", "--game", PAI_GOW, "--seed", "5", "--json", *args]
    )
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.stdout)
    del report["source"]
    return report


@pytest.mark.parametrize("suffix", [".json", ".toml", ".txt"])
def test_17_3_a_device_file_gives_the_battery_of_its_cards(
    tmp_path: Path, suffix: str
) -> None:
    shuffles = _shuffles(PAI_GOW, 120)
    cards = sorted(set(shuffles[0]))
    labels = np.random.default_rng(9).permutation(len(cards))
    device = {
        code: f"SM-{label:03d}"
        for code, label in zip(cards, labels, strict=True)
    }
    card_map = _write_map(
        tmp_path / f"map{suffix}",
        {device[c]: str(Card.from_code(c)) for c in cards},
    )
    plain = tmp_path / "notation.txt"
    plain.write_text(_notation(shuffles), encoding="utf-8")
    coded = tmp_path / "device.txt"
    coded.write_text(
        "".join(", ".join(device[c] for c in s) + "\n" for s in shuffles),
        encoding="utf-8",
    )
    assert _battery("--source", str(coded), "--card-map", str(card_map)) == (
        _battery("--source", str(plain))
    )


def test_17_3_a_device_that_tells_the_decks_apart(tmp_path: Path) -> None:
    """Several codes for one card (one a deck): the shoe is read as cards."""
    game = "double-back-jack"
    shuffles = _shuffles(game, 3)
    spec = find_game(game)
    original = fresh_shoe(spec, spec.rules_type())
    decks = len(original) // 52
    pairs = {
        f"{deck}:{code}": str(Card.from_code(code))
        for deck in range(decks)
        for code in range(52)
    }
    card_map = _write_map(tmp_path / "decks.txt", pairs)
    lines = []
    for shuffle in shuffles:
        seen: dict[int, int] = {}
        tokens = []
        for code in shuffle:
            deck = seen[code] = seen.get(code, -1) + 1
            tokens.append(f"{deck}:{code}")
        lines.append(" ".join(tokens) + "\n")
    path = tmp_path / "shoes.txt"
    path.write_text("".join(lines), encoding="utf-8")
    read = read_shuffle_file(path, original, card_map=load_card_map(card_map))
    assert [r.tolist() for r in read] == shuffles


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("twice.txt", "1 As\n1 Kd\n", 'code "1" is given twice'),
        ("twice.json", '{"1": "As", "1": "Kd"}', 'code "1" is given twice'),
        ("bad.txt", "1 As\n2 Zz\n", 'code "2"'),
        ("three.txt", "1 As Kd\n", "line 1: write one code and one card"),
        ("array.json", '[["1", "As"]]', "one JSON object of code: card"),
        ("number.json", '{"1": 7}', "maps to 7, not a card"),
        ("empty.toml", "", "maps no code"),
        ("broken.toml", "1 = ", "not valid TOML"),
        ("comma.json", '{"1,2": "As"}', "holds a space or a comma"),
        ("hash.json", '{"#1": "As"}', "or a # (which starts a comment)"),
    ],
)
def test_17_3_a_card_map_that_cannot_be_used_is_named(
    tmp_path: Path, name: str, text: str, said: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardMapError, match="card map") as caught:
        load_card_map(path)
    assert said in str(caught.value)
    shoes = tmp_path / "shoes.txt"
    shoes.write_text("1 1\n1 1\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["rng-test", "--source", str(shoes), "--card-map", str(path)]
    )
    assert result.exit_code == 2, result.output
    assert said in result.stderr


def test_17_3_a_code_not_in_the_map_is_bad_input(tmp_path: Path) -> None:
    shuffles = _shuffles(PAI_GOW, 3)
    card_map = _write_map(
        tmp_path / "map.txt",
        {str(c): str(Card.from_code(c)) for c in sorted(set(shuffles[0]))},
    )
    lines = [" ".join(map(str, s)) for s in shuffles]
    lines[2] = lines[2].replace(str(shuffles[2][7]), "X9", 1)
    path = tmp_path / "shoes.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "rng-test",
            "--game",
            PAI_GOW,
            "--source",
            str(path),
            "--card-map",
            str(card_map),
        ],
    )
    assert result.exit_code == 2, result.output
    assert 'line 3: device code "X9" is not in the card map' in result.stderr


@pytest.mark.parametrize("source", ["live", "riffle-3"])
def test_17_3_a_card_map_needs_a_file_of_shuffles(
    tmp_path: Path, source: str
) -> None:
    card_map = _write_map(tmp_path / "map.txt", {"1": "As"})
    result = CliRunner().invoke(
        app, ["rng-test", "--source", source, "--card-map", str(card_map)]
    )
    assert result.exit_code == 2, result.output
    assert f"--source {source} makes its own shuffles" in result.stderr
