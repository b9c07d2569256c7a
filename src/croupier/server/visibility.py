"""What a seat may see: event filtering and the last-line card censor.

The games' ``view(seat)`` already hides what the seat may not see; the
server does not rely on it alone. Every message to a seat is built from
seat-filtered events (:func:`seat_events`), then passed through
:func:`censor`, which removes any card notation that is not among the
cards visible to that seat (:class:`Visibility`).

A card is visible to a seat when it was dealt face up, dealt to that
seat (``seat N`` or ``seat N ...``), exposed, burned face up or
collected exposed. Undealt cards, the hole card before its exposure,
cards burned or collected face down and other seats' face-down hands
never are.

>>> vis = Visibility.of(
...     [
...         {"type": "card_dealt", "to": "dealer", "card": "As",
...          "face_up": False},
...         {"type": "card_dealt", "to": "seat 1", "card": "Kd",
...          "face_up": False},
...     ],
...     seat=2,
... )
>>> censor({"hole": "As", "text": "seat 1 holds Kd 10h"}, vis.cards)
{'hole': None, 'text': 'seat 1 holds ?? ??'}
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CARD_TOKEN",
    "Visibility",
    "card_tokens",
    "censor",
    "needs_censor",
    "seat_events",
]

CARD_TOKEN = re.compile(
    r"(?<![0-9A-Za-z])(?:(?:10|[2-9TJQKA])[cdhs]|JK)(?![0-9A-Za-z])"
)
"""A card in the engine's notation inside any text."""

_HIDDEN = "??"


def card_tokens(text: str) -> list[str]:
    """The card notations found in ``text``.

    >>> card_tokens("Player 7s 10h, banker JK; As Td")
    ['7s', 'Th', 'JK', 'As', 'Td']
    """
    return [_canon(t) for t in CARD_TOKEN.findall(text)]


def _canon(token: str) -> str:
    """The engine's notation of a card token (``10h`` -> ``Th``)."""
    return "T" + token[2:] if token.startswith("10") else token


def _owns(to: object, seat: int | None) -> bool:
    if seat is None or not isinstance(to, str):
        return False
    label = f"seat {seat}"
    return to == label or to.startswith(label + " ")


def _split(cards: object) -> list[str]:
    if isinstance(cards, str):
        return card_tokens(cards)
    if isinstance(cards, list | tuple):
        return [_canon(str(c)) for c in cards]
    return []


@dataclass(slots=True)
class Visibility:
    """The cards of a round that one seat (or a spectator) has seen."""

    seat: int | None
    """The seat, ``None`` for a spectator."""
    cards: Counter[str] = field(default_factory=Counter)
    """Visible card instances by notation."""
    hidden: list[tuple[str, str]] = field(default_factory=list)
    """Face-down instances (owner label, card) not visible to the seat."""

    @classmethod
    def of(
        cls, events: Iterable[Mapping[str, Any]], seat: int | None
    ) -> Visibility:
        """Play the events through, tracking what ``seat`` has seen."""
        vis = cls(seat)
        for event in events:
            vis.see(event)
        return vis

    def see(self, event: Mapping[str, Any]) -> bool:
        """Account for one event; whether its cards may be shown as is."""
        kind = event.get("type")
        if kind == "card_dealt":
            card = _canon(str(event.get("card")))
            to = str(event.get("to"))
            if event.get("face_up", True) or _owns(to, self.seat):
                self.cards[card] += 1
                return True
            self.hidden.append((to, card))
            return False
        if kind == "card_exposed":
            self._reveal(_canon(str(event.get("card"))))
            return True
        if kind == "card_burned":
            if event.get("face_up", False):
                self.cards[_canon(str(event.get("card")))] += 1
                return True
            return False
        if kind == "cards_collected":
            if not event.get("exposed", True):
                return False
            for card in _split(event.get("cards")):
                self._reveal(card)
            return True
        return True

    def _reveal(self, card: str) -> None:
        for i, (_to, hidden) in enumerate(self.hidden):
            if hidden == card:
                del self.hidden[i]
                self.cards[card] += 1
                return
        if self.cards[card] == 0:
            self.cards[card] += 1


def seat_events(
    events: Sequence[Mapping[str, Any]], seat: int | None
) -> tuple[list[dict[str, Any]], Visibility]:
    """The events as ``seat`` may receive them, and what it has seen.

    Cards the seat may not see are replaced by ``None`` (the page draws
    a card back); any other text is censored token by token.
    """
    vis = Visibility(seat)
    out: list[dict[str, Any]] = []
    for event in events:
        shown = dict(event)
        if not vis.see(event):
            if "card" in shown:
                shown["card"] = None
            if "cards" in shown:
                shown["cards"] = [None] * len(_split(shown["cards"]))
        out.append(shown)
    return censor(out, vis.cards), vis


_LOOSE = re.compile(r"(?:10|[2-9TJQKA])[cdhs]|JK")


def needs_censor(obj: Any, visible: Mapping[str, int]) -> bool:
    """Whether ``obj`` may mention a card not in ``visible``.

    A quick test on the JSON text with a looser pattern than
    :data:`CARD_TOKEN` (no word boundaries, so escapes cannot hide a
    card): it may answer true for nothing, never false for a card.
    """
    text = json.dumps(obj)
    return any(not visible.get(_canon(m)) for m in _LOOSE.findall(text))


def censor(obj: Any, visible: Mapping[str, int]) -> Any:
    """``obj`` with every card not in ``visible`` removed.

    A string that is exactly a hidden card becomes ``None``; inside
    longer text a hidden card becomes ``??``. Dictionary keys are
    censored like text.
    """
    if not needs_censor(obj, visible):
        return obj
    return _censor(obj, visible)


def _censor(obj: Any, visible: Mapping[str, int]) -> Any:
    if isinstance(obj, str):
        return _censor_text(obj, visible)
    if isinstance(obj, dict | Mapping):
        out: dict[Any, Any] = {}
        for key, value in obj.items():
            if isinstance(key, str) and _search(key):
                key = _censor_text(key, visible) or _HIDDEN
            if isinstance(value, str):
                out[key] = _censor_text(value, visible)
            elif isinstance(value, dict | list | tuple | Mapping):
                out[key] = _censor(value, visible)
            else:
                out[key] = value
        return out
    if isinstance(obj, list | tuple):
        return [_censor(v, visible) for v in obj]
    return obj


_search = CARD_TOKEN.search


def _censor_text(text: str, visible: Mapping[str, int]) -> str | None:
    if len(text) > 3:
        if not _search(text):
            return text
        return CARD_TOKEN.sub(
            lambda m: (
                m.group(0) if visible.get(_canon(m.group(0))) else _HIDDEN
            ),
            text,
        )
    if CARD_TOKEN.fullmatch(text):
        return text if visible.get(_canon(text), 0) > 0 else None
    return text
