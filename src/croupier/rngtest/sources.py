"""Shuffles to test: croupier's live shuffler, a file, known-bad shufflers.

A source yields shuffles as arrays of card codes (``Card.code``, joker
52), top card first, every one a permutation of the same shoe. The live
source runs the game's own shoe preparation (shuffle, cut, cover cards:
:func:`croupier.table.default_prepare_shoe` or the game's
``prepare_shoe``) on a fresh shoe, with :class:`~croupier.rng.SecureRng`
or, for reproducible runs, a :class:`~croupier.rng.SeededRng`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from croupier.cards import CARD_TEXTS, JOKER_CODE, parse_cards
from croupier.errors import CroupierError
from croupier.events import EventLog
from croupier.packed import (
    READ_ERRORS,
    checked_lines,
    not_text,
    open_packed,
)
from croupier.registry import GameSpec
from croupier.rng import Rng, SecureRng, SeededRng
from croupier.rngtest.cardmap import CardMap, mapped
from croupier.rules import GameRules
from croupier.table import default_prepare_shoe

__all__ = [
    "BAD_SHUFFLERS",
    "RngInputError",
    "bad_shuffles",
    "file_shuffles",
    "fresh_shoe",
    "iter_file_shuffles",
    "live_shuffles",
    "read_shuffle_file",
    "read_shuffle_stream",
]

Codes = npt.NDArray[np.int64]


class RngInputError(CroupierError):
    """A shuffle file that cannot be tested (exit 2)."""


def fresh_shoe(spec: GameSpec, rules: GameRules) -> Codes:
    """The game's new shoe before a shuffle: deck after deck, code order."""
    shoe = spec.new_shoe(rules, SeededRng(0))
    return np.array([c.code for c in shoe.cards_in_stack()])


def live_shuffles(
    spec: GameSpec, rules: GameRules, count: int, *, seed: int | None = None
) -> Iterator[Codes]:
    """``count`` shoes prepared by the game's live procedure."""
    rng: Rng = SecureRng() if seed is None else SeededRng(seed)
    seats = tuple(range(1, spec.max_seats + 1))
    for _ in range(count):
        shoe = spec.new_shoe(rules, rng)
        log = EventLog()
        if spec.prepare_shoe is not None:
            spec.prepare_shoe(rules, shoe, rng, log, seats)
        else:
            default_prepare_shoe(rules, shoe, rng, log, seats, spec.section)
        yield np.array([c.code for c in shoe.cards_in_stack()])


def file_shuffles(
    lines: Iterable[str],
    expected: Codes | None = None,
    *,
    card_map: CardMap | None = None,
) -> list[Codes]:
    """Shuffles from text, one per line as card notation (``As Kd ...``).

    Every line must hold the same cards (those of ``expected`` when
    given, the game's shoe); blank lines and ``#`` comments are skipped.
    With ``card_map`` (:func:`~croupier.rngtest.cardmap.load_card_map`)
    a line is the device's codes, spaces or commas between them. All of
    them at once: :func:`iter_file_shuffles` yields them as it reads.
    """
    return list(iter_file_shuffles(lines, expected, card_map=card_map))


def iter_file_shuffles(
    lines: Iterable[str],
    expected: Codes | None = None,
    *,
    card_map: CardMap | None = None,
) -> Iterator[Codes]:
    """:func:`file_shuffles`, each shuffle as soon as its line is read.

    A bad line raises :class:`RngInputError` when it is reached. Too
    few shuffles are the battery's to refuse, once it has counted them
    (:func:`croupier.rngtest.battery.check_shuffles`, naming the fewest
    it can judge).
    """
    reference: Codes | None = (
        None if expected is None else np.bincount(expected, minlength=_CODES)
    )
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            codes = (
                _card_codes(text)
                if card_map is None
                else np.array(mapped(text, card_map))
            )
        except CroupierError as exc:
            raise RngInputError(f"line {number}: {exc}") from None
        counts = np.bincount(codes, minlength=_CODES)
        if reference is None:
            reference = counts
        elif not np.array_equal(counts, reference):
            missing = _cards_text(np.maximum(reference - counts, 0))
            extra = _cards_text(np.maximum(counts - reference, 0))
            msg = (
                f"line {number}: not a shuffle of the same cards "
                f"(missing {missing}; extra {extra})"
            )
            raise RngInputError(msg)
        yield codes


_CODES = JOKER_CODE + 1
"""Card codes there are (the joker's the last)."""

_TOKEN_CODES = {text: code for code, text in enumerate(CARD_TEXTS)}
"""Each card's code by its text as croupier writes it (``As``, ``JK``)."""


def _pair_codes() -> Codes:
    """Each card's code by the two ASCII bytes croupier writes it in."""
    table = np.full((128, 128), -1, dtype=np.int64)
    for code, text in enumerate(CARD_TEXTS):
        table[ord(text[0]), ord(text[1])] = code
    return table


_PAIR_CODES = _pair_codes()
"""Each card's code by the two ASCII bytes croupier writes it in, -1
for any other pair: a line of such cards, one space apart, is read by
one lookup of all its pairs (about a tenth of a lookup a card)."""


def _cards_text(counts: Codes) -> str:
    """Cards counted by code, in card notation: ``5 x 2c, JK``, or none.

    >>> _cards_text(np.bincount([0, 0, 52], minlength=_CODES))
    '2 x 2c, JK'
    """
    held = [(int(n), CARD_TEXTS[code]) for code, n in enumerate(counts) if n]
    words = [text if n == 1 else f"{n} x {text}" for n, text in held]
    shown = ", ".join(words[:8])
    more = f" and {len(words) - 8} more" if len(words) > 8 else ""
    return (shown + more) or "none"


def _card_codes(text: str) -> Codes:
    """The card codes of one shuffle line in card notation.

    The tokens as croupier writes them are looked up; any other spelling
    (``10h``) or separator goes through :func:`parse_cards`, which reads
    it or names what it cannot read.

    >>> _card_codes("As 10h,Kd").tolist() == _card_codes("As Th Kd").tolist()
    True
    """
    if len(text) % 3 == 2 and text.isascii():
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        if (raw[2::3] == ord(" ")).all():
            paired: Codes = _PAIR_CODES[raw[0::3], raw[1::3]]
            if (paired >= 0).all():
                return paired
    codes = [_TOKEN_CODES.get(token, -1) for token in text.split(" ")]
    if -1 in codes:
        codes = [card.code for card in parse_cards(text)]
    return np.array(codes)


def read_shuffle_file(
    path: Path, expected: Codes | None, *, card_map: CardMap | None = None
) -> Iterator[Codes]:
    """:func:`file_shuffles` of a file, plain or packed (gzip, bzip2, xz).

    A line that is not UTF-8 is bad input naming its line, as is any
    other bad line; a file that cannot be read (a cut-off archive among
    them) is bad input too: never a verdict on the shuffles.
    """
    try:
        with open_packed(path) as handle:
            yield from read_shuffle_stream(
                handle, expected, name=str(path), card_map=card_map
            )
    except READ_ERRORS as exc:  # the file would not open
        raise RngInputError(f"cannot read {path}: {exc}") from None


def read_shuffle_stream(
    stream: BinaryIO,
    expected: Codes | None,
    *,
    name: str = "stdin",
    card_map: CardMap | None = None,
) -> Iterator[Codes]:
    """:func:`iter_file_shuffles` of a stream of bytes (stdin, say), unpacked.

    The stream is unpacked as :func:`croupier.packed.reading` does; a
    broken or cut-off stream is bad input naming ``name``.
    """
    lines = checked_lines(stream, name, RngInputError, unpack=True)
    return iter_file_shuffles(_text_lines(lines), expected, card_map=card_map)


def _text_lines(lines: Iterable[bytes]) -> Iterator[str]:
    """Each line as text; one that is not UTF-8 is refused by number."""
    for number, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RngInputError(f"line {number}: {not_text(exc)}") from None


def _naive_swap(order: Codes, gen: np.random.Generator) -> Codes:
    """Swap each position with any position (the classic biased shuffle)."""
    cards = order.copy()
    n = len(cards)
    for i, j in enumerate(gen.integers(0, n, size=n)):
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _riffle(cards: Codes, gen: np.random.Generator) -> Codes:
    """One Gilbert–Shannon–Reeds riffle: binomial cut, proportional drops."""
    n = len(cards)
    cut = int(gen.binomial(n, 0.5))
    left, right = list(cards[:cut]), list(cards[cut:])
    out = []
    i = j = 0
    while i < len(left) or j < len(right):
        a, b = len(left) - i, len(right) - j
        if gen.random() * (a + b) < a:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return np.array(out)


def _three_riffles(order: Codes, gen: np.random.Generator) -> Codes:
    cards = order.copy()
    for _ in range(3):
        cards = _riffle(cards, gen)
    return cards


def _cut_region_fixed(order: Codes, gen: np.random.Generator) -> Codes:
    """Shuffle the cards before the cut card only; the last quarter stays."""
    cards = order.copy()
    played = len(cards) * 3 // 4
    cards[:played] = gen.permutation(cards[:played])
    return cards


BAD_SHUFFLERS = {
    "naive-swap": _naive_swap,
    "riffle-3": _three_riffles,
    "cut-region-fixed": _cut_region_fixed,
}
"""Known-bad shufflers the battery must reject (tests, README)."""


def bad_shuffles(
    name: str, order: Codes, count: int, *, seed: int = 0
) -> Iterator[Codes]:
    """``count`` shuffles of ``order`` by the known-bad shuffler ``name``."""
    gen = np.random.default_rng(seed)
    shuffle = BAD_SHUFFLERS[name]
    for _ in range(count):
        yield shuffle(order, gen)
