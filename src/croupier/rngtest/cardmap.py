"""A device's own card codes, mapped to cards, for ``rng-test --card-map``.

An automated shuffler or an electronic table often logs its shuffles in
codes of its own (``0`` to ``51``, ``D1-017``, a card reader's bytes),
not in card notation. A card map names the card behind each code, and
the shuffle file is then read code by code (spaces or commas between
them). It is a JSON object or a TOML table of ``code = card`` (by the
file's suffix), or otherwise a text file of ``code card`` lines with
``#`` comments. A device that tells the decks of a shoe apart gives
several codes for one card, which is allowed; a code written twice
over is refused, even for the same card.

>>> card_map_from_pairs([("0", "As"), ("1", "Kd"), ("52", "JK")], "map.txt")
{'0': 51, '1': 45, '52': 52}
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.jsontypes import json_text
from croupier.packed import read_text

__all__ = [
    "CardMap",
    "CardMapError",
    "card_map_from_pairs",
    "load_card_map",
    "mapped",
]

CardMap = Mapping[str, int]
"""A device code and the code of its card (``Card.code``)."""


class CardMapError(CroupierError):
    """A card map that cannot be used (exit 2)."""


def load_card_map(path: Path) -> dict[str, int]:
    """Each device code of the file at ``path`` and its card's code.

    Raises :class:`CardMapError` naming the file and what is wrong.
    """
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        msg = f"card map {path} is not UTF-8 text: {exc.reason}"
        raise CardMapError(msg) from None
    except OSError as exc:
        msg = f"cannot read card map {path}: {exc.strerror or exc}"
        raise CardMapError(msg) from None
    suffix = path.suffix.lower()
    if suffix == ".json":
        pairs = _json_pairs(text, path)
    elif suffix == ".toml":
        pairs = _toml_pairs(text, path)
    else:
        pairs = _text_pairs(text, path)
    return card_map_from_pairs(pairs, str(path))


def card_map_from_pairs(
    pairs: Iterable[tuple[str, object]], name: str
) -> dict[str, int]:
    """The map of ``(code, card notation)`` pairs, checked as above."""
    out: dict[str, int] = {}
    for code, card in pairs:
        shown = json_text(code, 60)
        if not code or any(c.isspace() or c in ",#" for c in code):
            msg = (
                f"card map {name}: code {shown} is empty or holds a space "
                "or a comma (which separate codes in a shuffle) or a # "
                "(which starts a comment)"
            )
            raise CardMapError(msg)
        if code in out:
            msg = f"card map {name}: code {shown} is given twice"
            raise CardMapError(msg)
        if not isinstance(card, str):
            msg = (
                f"card map {name}: code {shown} maps to "
                f"{json_text(_object(card), 60)}, not a card"
            )
            raise CardMapError(msg)
        try:
            out[code] = Card.parse(card).code
        except CroupierError as exc:
            msg = f"card map {name}: code {shown}: {exc}"
            raise CardMapError(msg) from None
    if not out:
        msg = f"card map {name} maps no code"
        raise CardMapError(msg)
    return out


class _Pairs(list[tuple[str, object]]):
    """A JSON object read as its (key, value) pairs, repeats kept."""


def _object(value: object) -> object:
    """``value`` with every object read as :class:`_Pairs` an object again.

    For the message that names it: ``{"a": 1}``, not its pairs.
    """
    if isinstance(value, _Pairs):
        return {key: _object(item) for key, item in value}
    if isinstance(value, list):
        return [_object(item) for item in value]
    return value


def _json_pairs(text: str, path: Path) -> list[tuple[str, object]]:
    try:
        # every object as its list of (key, value) pairs, repeats kept
        data = json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as exc:
        msg = f"card map {path} is not valid JSON: {exc}"
        raise CardMapError(msg) from None
    # an object's pairs are tuples; an array of arrays gives lists
    if not isinstance(data, list) or not all(
        isinstance(pair, tuple) for pair in data
    ):
        msg = f"card map {path} must be one JSON object of code: card"
        raise CardMapError(msg)
    return data


def _toml_pairs(text: str, path: Path) -> list[tuple[str, object]]:
    try:
        data = tomllib.loads(text)  # TOML itself refuses a repeated key
    except tomllib.TOMLDecodeError as exc:
        msg = f"card map {path} is not valid TOML: {exc}"
        raise CardMapError(msg) from None
    return list(data.items())


def _text_pairs(text: str, path: Path) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            msg = (
                f"card map {path} line {number}: write one code and one "
                f"card, not {json_text(line.strip(), 80)}"
            )
            raise CardMapError(msg)
        pairs.append((words[0], words[1]))
    return pairs


def mapped(text: str, card_map: CardMap) -> list[int]:
    """The card codes of one shuffle line written in device codes.

    >>> mapped("7, 3 7", {"3": 0, "7": 51})
    [51, 0, 51]
    """
    out: list[int] = []
    for token in text.replace(",", " ").split():
        code = card_map.get(token)
        if code is None:
            msg = f"device code {json_text(token, 60)} is not in the card map"
            raise CardMapError(msg)
        out.append(code)
    return out
