"""What a viewer may see of a round's events: one rule table per type.

Every event a client receives is derived here, field by field, from the
stored event and from what the viewer may know: nothing is copied
through and blanked afterwards. :data:`RULES` names, for each event
type, every field and who may read it:

``public``
    everyone, at once (the chips on the layout, a face-up card, an
    announcement, a decision's name and amount);
``dealt``
    a dealt card: everyone if it was dealt face up, else only the seat
    it was dealt to (``seat N`` or ``seat N ...``). A face-down card is
    named to the others only by the ``card_exposed`` event that turns it
    over (the Double Back Jack hole card at 591.7(h) or (n), a pai gow
    position at showdown, 670a.11; the Midibaccarat face-down option,
    629a.8(c)(2), once the hands are called);
``face_up``
    a burned card: only if it was burned face up;
``exposed``
    collected or removed cards: only if collected exposed (the eleven
    pai gow cards spread and counted, 670a.9(d), and the stacks of empty
    positions, 670a.9(f), never are);
``owner_until_shown``
    a pai gow hand setting (``hand_set`` high, low and its description):
    only the seat that set it, until that position's cards are exposed
    at showdown (670a.11), then everyone; the dealer's is set after its
    exposure, so everyone sees it;
``seat_until_shown``
    what a decision carried (``decision_made.detail``, the setting a
    seat chose): only that seat until its cards are exposed;
``sealed``
    never shown in a view (the seed of a seeded stream, which would
    give away every card; live tables use the CSPRNG, which has none).

An event type missing from the table is shown with its envelope only
(``seq``, ``ref``, ``type``) and every other field ``None``: unknown
means hidden. ``tests/server/test_noninterference.py`` checks that the
table covers every registered event type and field.

A viewer is a seat (``Viewer(seat=n)``), a spectator (``Viewer()``), or
the operator reading a finished round (``Viewer(everything=True)``):
every card that left the shoe, no seed. Cards still in the shoe are in
no event at all; the stored stack is the round record, which
:mod:`croupier.server.views` withholds while the shoe is in play.

>>> events = [
...     {"seq": 1, "ref": "591.7(e)(4)", "type": "card_dealt",
...      "to": "dealer", "card": "As", "face_up": False, "hand": 0,
...      "purpose": "hole"},
...     {"seq": 2, "ref": "670a.11", "type": "hand_set", "to": "seat 1",
...      "high": "Ks Kd 7h 5c 2s", "low": "Ah", "hand": "pair",
...      "way": "player"},
... ]
>>> [e["card"] for e in viewer_events(events, Viewer(seat=1))[:1]]
[None]
>>> viewer_events(events, Viewer(seat=1))[1]["hand"]
'pair'
>>> viewer_events(events, Viewer(seat=2))[1]["hand"] is None
True
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "CARD_TOKEN",
    "ENVELOPE",
    "RULES",
    "Shown",
    "Viewer",
    "card_tokens",
    "covered",
    "viewer_events",
]

log = logging.getLogger("croupier.server")

CARD_TOKEN = re.compile(
    r"(?<![0-9A-Za-z])(?:(?:10|[2-9TJQKA])[cdhs]|JK)(?![0-9A-Za-z])"
)
"""A card in the engine's notation inside any text."""


def card_tokens(text: str) -> list[str]:
    """The card notations found in ``text`` (``10h`` read as ``Th``).

    >>> card_tokens("Player 7s 10h, banker JK; As Td")
    ['7s', 'Th', 'JK', 'As', 'Td']
    """
    return [
        "T" + t[2:] if t.startswith("10") else t
        for t in CARD_TOKEN.findall(text)
    ]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: a seat, a spectator, or the operator after a round."""

    seat: int | None = None
    """The seat whose private cards the viewer may see (``None``: none)."""
    everything: bool = False
    """The operator recalling a finished round: every dealt card."""

    def owns(self, to: object) -> bool:
        """Whether ``to`` (``seat N`` or ``seat N ...``) is this seat's."""
        if self.seat is None or not isinstance(to, str):
            return False
        label = f"seat {self.seat}"
        return to == label or to.startswith(label + " ")


class Shown(StrEnum):
    """Who may read a field (see the module docstring)."""

    PUBLIC = "public"
    DEALT = "dealt"
    FACE_UP = "face_up"
    EXPOSED = "exposed"
    OWNER_UNTIL_SHOWN = "owner_until_shown"
    SEAT_UNTIL_SHOWN = "seat_until_shown"
    SEALED = "sealed"


P = Shown.PUBLIC

ENVELOPE = ("seq", "ref", "type", "scope")
"""Keys of every event that say only which step it is (always shown)."""

RULES: dict[str, dict[str, Shown]] = {
    # croupier.events: shared by every game
    "phase_entered": {"phase": P},
    "shuffled": {"source": P, "cards": P, "seed": Shown.SEALED},
    "cut_offered": {"to": P, "accepted": P},
    "cover_card_inserted": {"position": P, "purpose": P, "by": P},
    "card_burned": {"card": Shown.FACE_UP, "face_up": P},
    "card_dealt": {
        "to": P,
        "card": Shown.DEALT,
        "face_up": P,
        "hand": P,
        "purpose": P,
    },
    "card_exposed": {"to": P, "card": P},
    "cover_card_reached": {},
    "cards_collected": {
        "source": P,
        "cards": Shown.EXPOSED,
        "exposed": P,
    },
    "wager_placed": {"seat": P, "wager": P, "amount": P, "hand": P},
    "wager_changed": {
        "seat": P,
        "wager": P,
        "amount": P,
        "previous": P,
        "hand": P,
    },
    "decision_made": {
        "seat": P,
        "action": P,
        "hand": P,
        "amount": P,
        "detail": Shown.SEAT_UNTIL_SHOWN,
    },
    "wager_settled": {
        "seat": P,
        "wager": P,
        "amount": P,
        "outcome": P,
        "net": P,
        "hand": P,
        "commission": P,
    },
    "announced": {"text": P},
    "round_voided": {"reason": P, "by": P, "returned": P},
    # the table's pacing (croupier.server.pacing, D26-D29): public
    "clock_expired": {
        "clock": P,
        "seat": P,
        "action": P,
        "seconds": P,
        "decision": P,
        "late_ms": P,
    },
    "seats_left_out": {"seats": P, "reason": P},
    "seat_freed": {"seat": P, "player_id": P, "reason": P},
    # the operator retired the shoe before the round (D194), and the
    # round withdrawn then (D198): it took no wager, its id was public
    "shoe_ended": {
        "by": P,
        "reason": P,
        "shoe": P,
        "rounds": P,
        "withdrawn": P,
    },
    # Double Back Jack: the card reader's answer is acted on openly
    # (591.7(h): a Blackjack is exposed, otherwise play goes on)
    "card_reader_checked": {"blackjack": P},
    # Midibaccarat / commission-free: the cut (629a.5)
    "cut_completed": {"moved": P},
    # Six-Card Fortune Pai Gow Poker (670a.9-670a.11)
    "starting_position_determined": {"position": P, "number": P, "method": P},
    "cards_counted": {"count": P, "expected": P},
    "deck_removed": {"cards": Shown.EXPOSED, "exposed": P},
    "deck_held": {"hand": P},
    "envy_lammer_placed": {"seat": P, "amount": P},
    "progressive_wagers_collected": {
        "count": P,
        "system_count": P,
        "total": P,
    },
    "hand_set": {
        "to": P,
        "high": Shown.OWNER_UNTIL_SHOWN,
        "low": Shown.OWNER_UNTIL_SHOWN,
        "hand": Shown.OWNER_UNTIL_SHOWN,
        "way": P,
    },
    # made at showdown, when every position in play is exposed (670a.11)
    "hands_compared": {
        "seat": P,
        "high": P,
        "low": P,
        "high_copy": P,
        "low_copy": P,
        "result": P,
    },
    "envy_bonus_paid": {"seat": P, "source": P, "category": P, "amount": P},
    "meter_changed": {"meter": P, "reason": P},
}
"""Every event type's fields and who may read each (module docstring)."""


@dataclass(frozen=True, slots=True)
class _Known:
    """What the whole round (so far) tells about a single event's fields."""

    viewer: Viewer
    exposed: frozenset[str]
    """Positions (``to`` labels) that had a card exposed so far."""

    def shows(self, rule: Shown, event: Mapping[str, Any]) -> bool:
        if rule is Shown.PUBLIC:
            return True
        if rule is Shown.SEALED:
            return False
        if self.viewer.everything:
            return True
        if rule is Shown.DEALT:
            return bool(event.get("face_up", True)) or self.viewer.owns(
                event.get("to")
            )
        if rule is Shown.FACE_UP:
            return bool(event.get("face_up", False))
        if rule is Shown.EXPOSED:
            return bool(event.get("exposed", True))
        if rule is Shown.OWNER_UNTIL_SHOWN:
            to = event.get("to")
            return self.viewer.owns(to) or to in self.exposed
        # Shown.SEAT_UNTIL_SHOWN
        label = f"seat {event.get('seat')}"
        return self.viewer.owns(label) or label in self.exposed


def _hidden(name: str, value: Any) -> Any:
    """What a field the viewer may not read becomes.

    A card becomes ``None``; several cards (``cards``, ``high``) a list
    of ``None`` as long as the list (how many cards moved is on the
    layout for all to see), whatever their stored form.
    """
    if name not in _COLLECTIONS:
        return None
    if isinstance(value, list | tuple):
        return [None] * len(value)
    if isinstance(value, str):
        return [None] * len(value.split())
    return None


_COLLECTIONS = frozenset({"cards", "high"})
"""Fields holding several cards (hidden as a list of ``None``)."""

_PLAN: dict[str, tuple[frozenset[str], tuple[tuple[str, Shown], ...]]] = {
    kind: (
        frozenset(ENVELOPE) | frozenset(fields),
        tuple((f, r) for f, r in fields.items() if r is not Shown.PUBLIC),
    )
    for kind, fields in RULES.items()
}
"""Per type: every key it may carry, and the fields that are not public."""

_warned: set[str] = set()


def _unknown(event: Mapping[str, Any]) -> dict[str, Any]:
    kind = str(event.get("type"))
    if kind not in _warned:
        _warned.add(kind)
        log.warning("no visibility rule for event type %r: hidden", kind)
    return {k: (v if k in ENVELOPE else None) for k, v in event.items()}


def viewer_events(
    events: Sequence[Mapping[str, Any]], viewer: Viewer
) -> list[dict[str, Any]]:
    """The events as ``viewer`` may receive them, field by field.

    Public events are passed on as they are (the same objects: views are
    built often); an event with a field the viewer may not read is a new
    dictionary with that field ``None`` (or a list of ``None``).
    """
    known = _Known(
        viewer,
        frozenset(
            str(e.get("to")) for e in events if e.get("type") == "card_exposed"
        ),
    )
    out: list[dict[str, Any]] = []
    for event in events:
        plan = _PLAN.get(str(event.get("type")))
        if plan is None:
            out.append(_unknown(event))
            continue
        keys, private = plan
        shown: dict[str, Any] | None = None
        if not keys.issuperset(event):
            # a field the table does not know: unknown means hidden
            shown = {k: (v if k in keys else None) for k, v in event.items()}
        for name, rule in private:
            if name in event and not known.shows(rule, event):
                if shown is None:
                    shown = dict(event)
                shown[name] = _hidden(name, event[name])
        if shown is None:
            shown = event if isinstance(event, dict) else dict(event)
        out.append(shown)
    return out


def covered(
    types: Iterable[tuple[str, Iterable[str]]],
) -> list[str]:
    """Event types or fields of ``types`` that :data:`RULES` misses."""
    missing = []
    for kind, names in types:
        fields = RULES.get(kind)
        if fields is None:
            missing.append(kind)
            continue
        missing.extend(f"{kind}.{n}" for n in names if n not in fields)
    return missing
