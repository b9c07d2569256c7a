"""Regulation references and the registry of what implements them.

A :class:`Ref` names a subsection of 58 Pa. Code, such as ``591.7(l)(2)``.
A :class:`Decision` names one of the project's own decisions
(``docs/decisions.md``), such as ``D137``, for a rule the regulation
leaves to the casino; a :data:`Citation` is either, as a refusal's
``ref`` (D198) and a record's step cite them.
The registry maps each lettered subsection of the four seed sections to
the code that carries it out (via :func:`implements`); the tests that
prove it carry ``@pytest.mark.proves("591.7(l)(2)")`` (see
:mod:`croupier.coverage`).

The one-line summaries in :data:`SEED_SUBSECTIONS` are this project's own
paraphrases, not regulation text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

__all__ = [
    "SEED_SECTIONS",
    "SEED_SUBSECTIONS",
    "Citation",
    "Decision",
    "Ref",
    "implementations",
    "implements",
]

_REF_RE = re.compile(r"^(\d+[a-z]?)\.(\d+)((?:\([0-9a-zA-Z]+\))*)$")
_PART_RE = re.compile(r"\(([0-9a-zA-Z]+)\)")


@dataclass(frozen=True, slots=True, order=True)
class Ref:
    """A reference to a section or subsection of 58 Pa. Code.

    >>> ref = Ref.parse("591.7(l)(2)")
    >>> ref.section, ref.parts
    ('591.7', ('l', '2'))
    >>> str(ref), ref.lettered
    ('591.7(l)(2)', Ref.parse('591.7(l)'))
    """

    section: str
    """The section number, such as ``"629a.5"``."""
    parts: tuple[str, ...] = ()
    """The subsection path: letters, then numbers, then roman numerals."""

    @classmethod
    def parse(cls, raw: str) -> Ref:
        """Parse ``"591.7(l)(2)"`` (an optional leading ``§`` is ignored)."""
        if cls is Ref:
            # a Ref is immutable: the steps cite the same texts all along
            known = _PARSED.get(raw)
            if known is not None:
                return known
        text = raw.strip().removeprefix("§").strip()
        match = _REF_RE.match(text)
        if match is None:
            msg = f"not a regulation reference: {raw!r}"
            raise ValueError(msg)
        chapter, number, tail = match.groups()
        ref = cls(f"{chapter}.{number}", tuple(_PART_RE.findall(tail)))
        if cls is Ref and len(_PARSED) < 4096:
            _PARSED[raw] = ref
        return ref

    @property
    def lettered(self) -> Ref:
        """The lettered subsection that contains this reference."""
        return Ref(self.section, self.parts[:1])

    def within(self, other: Ref) -> bool:
        """Whether this reference lies inside ``other`` (or equals it)."""
        return (
            self.section == other.section
            and self.parts[: len(other.parts)] == other.parts
        )

    def slug(self) -> str:
        """The test-name form: ``591.7(l)(2)`` becomes ``591_7_l_2``."""
        return "_".join(
            [self.section.replace(".", "_"), *(p.lower() for p in self.parts)]
        )

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = self.section + "".join(f"({p})" for p in self.parts)
            if len(_TEXTS) < 4096:
                _TEXTS[self] = text
        return text

    def __repr__(self) -> str:
        return f"Ref.parse({str(self)!r})"


_PARSED: dict[str, Ref] = {}
"""References already parsed, by their text (see :meth:`Ref.parse`)."""
_TEXTS: dict[Ref, str] = {}
"""The text of each reference already printed."""

_DECISION_RE = re.compile(r"^D([1-9][0-9]*)$")


@dataclass(frozen=True, slots=True, order=True)
class Decision:
    """One of the project's decisions (``docs/decisions.md``), cited as a rule.

    What the regulation leaves to the casino (a void, the end of a shoe,
    the table limits...) the project decides; a refusal that follows
    such a decision cites it as another cites a subsection (D198). It
    is written as the decisions' headings write it, and as a record's
    step cites it (the CHH schema's ``ref``: ``D`` and the number).

    >>> Decision(137), str(Decision.parse("D194"))
    (Decision.parse('D137'), 'D194')
    >>> Decision.parse("591.7(k)")
    Traceback (most recent call last):
    ...
    ValueError: not a decision id: '591.7(k)'
    """

    number: int
    """The decision's number: 137 for D137."""

    def __post_init__(self) -> None:
        if self.number < 1:
            msg = f"not a decision number: {self.number!r}"
            raise ValueError(msg)

    @classmethod
    def parse(cls, raw: str) -> Decision:
        """Parse ``"D137"``."""
        match = _DECISION_RE.match(raw.strip())
        if match is None:
            msg = f"not a decision id: {raw!r}"
            raise ValueError(msg)
        return cls(int(match.group(1)))

    def __str__(self) -> str:
        return f"D{self.number}"

    def __repr__(self) -> str:
        return f"Decision.parse({str(self)!r})"


Citation: TypeAlias = Ref | Decision
"""The rule a refusal or a step cites: a subsection of 58 Pa. Code, or a
project decision where the regulation leaves the matter to the casino."""


SEED_SECTIONS: dict[str, str] = {
    "591.7": "Double Back Jack: dealing and completion of each round",
    "629a.5": "Midibaccarat: shuffle and cut of the cards",
    "670a.9": "Six-Card Fortune Pai Gow Poker: dealing from the hand",
    "681a.7": "21 Baccarat: dealing and completion of each round",
}
"""The four seed sections whose subsections coverage is reported for."""

_SUMMARIES: dict[str, dict[str, str]] = {
    "591.7": {
        "a": "cards come from a dealing shoe loaded after shuffle and cut",
        "b": "the dealer draws with the shoe-side hand, places with the other",
        "c": "burn one card per loaded batch and per new dealer",
        "d": "cover card: set aside, finish the hand, then reshuffle",
        "e": "deal order: boxes, dealer up, boxes, dealer hole face down",
        "f": "player Blackjacks paid at once, right to left, before the peek",
        "g": "insurance offered when the dealer's first card is an ace",
        "h": "card-reader check of the hole card on an ace or ten up card",
        "i": "decisions left to right: surrender, double, split, stand, hit",
        "j": "cards dealt face up as each decision requires",
        "k": "hit below 21 only; a doubled hand takes exactly one card",
        "l": "Second Chance on a busted hand: one card, value subtracted",
        "m": "a 21 made without Second Chance is paid at once",
        "n": "after the 21s are settled the hole card is turned",
        "o": "dealer draws to hard or soft 17 and announces each total",
        "p": "no dealer draw when no undecided hand remains",
        "q": "dealer 22 returns every remaining wager; else settle",
        "r": "comparison of player and dealer totals",
        "s": "settlement, Second Chance wins paying only that wager",
        "t": "collection order is one of two Rules Submission procedures",
        "u": "cards to the discard rack so each hand can be rebuilt",
        "v": "nobody but the dealer handles the cards",
    },
    "629a.5": {
        "a": "shuffle before play unless preshuffled; hand shuffle feathered",
        "b": "cut offered from the highest seat clockwise, else the dealer",
        "c": "the cut: a cover card at least 10 cards from either end",
        "d": "cut part to the bottom; second cover card 14+ from the bottom",
        "e": "a floorperson may order a recut by the next person entitled",
        "f": "burn: expose the first card and burn its face value more",
    },
    "670a.9": {
        "a": "hand deal: shuffler required, one holding hand, no more bets",
        "b": "deal with the other hand; determine the starting position",
        "c": "one card at a time clockwise to all positions and dealer, six",
        "d": "exactly eleven cards must remain, never exposed",
        "e": "a wrong count voids the round; a bad deck is also removed",
        "f": "stacks of positions without a wager discarded unexposed",
    },
    "681a.7": {
        "a": "cards come from a dealing shoe loaded after shuffle and cut",
        "b": "the dealer draws with the shoe-side hand, places with the other",
        "c": "burn one card per loaded batch and per new dealer",
        "d": "cover card: set aside, finish the hand, then reshuffle",
        "e": "deal face up: Player, Banker, Player, Banker",
        "f": "a natural stops the count; Bonus-only card when Bonus bets",
        "g": "no natural: one card to each hand under 17",
        "h": "compare totals; settle right to left",
        "i": "Player Wager outcomes",
        "j": "Banker Wager outcomes",
        "k": "Tie and Bonus Wager outcomes",
        "l": "cards to the discard rack so each hand can be rebuilt",
        "m": "players may not handle the cards",
    },
}

SEED_SUBSECTIONS: dict[Ref, str] = {
    Ref(section, (letter,)): summary
    for section, letters in _SUMMARIES.items()
    for letter, summary in letters.items()
}
"""Every lettered subsection of the seed sections with our own summary."""

_REGISTRY: dict[Ref, list[str]] = {}

_T = TypeVar("_T", bound=Callable[..., object] | type)


def implements(*raw_refs: str) -> Callable[[_T], _T]:
    """Register the decorated function or class as implementing refs.

    >>> @implements("629a.5(f)")
    ... def burn(): ...
    >>> "burn" in implementations()[Ref.parse("629a.5(f)")][-1]
    True
    """
    refs = [Ref.parse(raw) for raw in raw_refs]

    def decorate(obj: _T) -> _T:
        name = f"{obj.__module__}.{obj.__qualname__}"
        for ref in refs:
            names = _REGISTRY.setdefault(ref, [])
            if name not in names:
                names.append(name)
        return obj

    return decorate


def implementations() -> dict[Ref, list[str]]:
    """A copy of the registry: reference to implementing qualified names."""
    return {ref: list(names) for ref, names in _REGISTRY.items()}
