"""The compiled event encoders and constructors equal the plain ones.

Issue 17 point 2 (verify throughput): :meth:`Event.to_dict` and
:meth:`EventLog.emit` use per-class compiled functions
(:mod:`croupier.event_codec`). Here every event class of every game is
built both ways from generated field values (of the declared types and
of others: the encoder's rule is by the value's type) and must give
equal events, the same dictionary with its keys in the same order, and
the same JSON bytes as the field-by-field reference
(:func:`croupier.events.plain_dict`).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import croupier.games.double_back_jack.events
import croupier.games.six_card_fortune_pai_gow.events
import croupier.procedures.ch629a
import croupier.procedures.ch670a  # noqa: F401 (registers its events)
from croupier.cards import Card, Rank, Suit
from croupier.event_codec import compiled_maker, compiled_to_dict
from croupier.events import (
    _EVENT_TYPES,
    PLAIN_TYPES,
    CardBurned,
    Event,
    EventLog,
    card_fields,
    encode_value,
    field_names,
    plain_dict,
)
from croupier.regs import Ref

_CLASSES = sorted(_EVENT_TYPES.values(), key=lambda c: c.type_name)

_cards = st.builds(
    Card,
    st.sampled_from([r for r in Rank if r != Rank.JOKER]),
    st.sampled_from(list(Suit)),
) | st.just(Card(Rank.JOKER, None))
_refs = st.sampled_from(["591.7(c)", "670a.9(c)", "629a.5(f)(2)", "810a.11"])
_others = st.one_of(
    _cards,
    st.tuples(_cards, _cards),
    st.just(()),
    _refs.map(Ref.parse),
    st.tuples(st.integers(), st.text(max_size=3)),
    st.none(),
)
"""Values of another type than declared (dataclasses do not check)."""


def _of(hint: object) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([_of(a) for a in typing.get_args(hint)])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-(10**12), 10**12)
    if hint is str:
        return st.text(max_size=8)
    if hint is Card:
        return _cards
    if hint is Ref:
        # parsed ones (one object per text) and fresh objects
        return _refs.map(Ref.parse) | _refs.map(
            lambda t: Ref(Ref.parse(t).section, Ref.parse(t).parts)
        )
    if origin is tuple:
        return st.lists(_cards, max_size=7).map(tuple)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    raise AssertionError(hint)


@st.composite
def _events(draw: st.DrawFn, cls: type[Event]) -> tuple[int, dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    seq = draw(st.integers(1, 10**6))
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls)[1:]:
        has_default = f.default is not dataclasses.MISSING
        if has_default and draw(st.booleans()):
            continue  # left to its default
        typed = _of(hints[f.name])
        kwargs[f.name] = draw(typed | _others if f.name != "ref" else typed)
    return seq, kwargs


def _dumps(data: dict[str, object]) -> str:
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("cls", _CLASSES, ids=lambda c: c.type_name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_issue_17_2_compiled_event_codec_equals_plain(
    cls: type[Event], data: st.DataObject
) -> None:
    """Construction and encoding both ways agree on ``cls``."""
    seq, kwargs = data.draw(_events(cls))
    plain = cls(seq, **kwargs)
    made = compiled_maker(cls)(seq, **kwargs)
    assert type(made) is cls
    assert made == plain
    assert [getattr(made, f.name) for f in dataclasses.fields(cls)] == [
        getattr(plain, f.name) for f in dataclasses.fields(cls)
    ]
    reference = plain_dict(plain)
    got = compiled_to_dict(
        cls, field_names(cls), PLAIN_TYPES, encode_value, card_fields(cls)
    )(made)
    assert list(got.items()) == list(reference.items())
    assert list(made.to_dict().items()) == list(reference.items())
    assert _dumps(got) == _dumps(reference)


@pytest.mark.parametrize("cls", _CLASSES, ids=lambda c: c.type_name)
def test_issue_17_2_compiled_maker_refuses_as_the_class_does(
    cls: type[Event],
) -> None:
    """A missing field or an unknown one is a TypeError both ways."""
    with pytest.raises(TypeError):
        cls(1, bogus=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        compiled_maker(cls)(1, bogus=1)
    with pytest.raises(TypeError):
        compiled_maker(cls)(1)  # ref (at least) is required
    made = compiled_maker(cls)
    assert made is not cls  # every event class takes the fast path
    with pytest.raises(dataclasses.FrozenInstanceError):
        made(1, ref=Ref.parse("810a.11"), **_required(cls)).seq = 2


def _required(cls: type[Event]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {
        f.name: _sample(hints[f.name])
        for f in dataclasses.fields(cls)[2:]
        if f.default is dataclasses.MISSING
    }


def _sample(hint: object) -> object:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return None
    if hint is Card:
        return Card.parse("Kd")
    if typing.get_origin(hint) is tuple:
        return (Card.parse("Kd"),)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return next(iter(hint))
    return {bool: True, int: 3, str: "x"}[hint]  # type: ignore[index]


def test_issue_17_2_emit_numbers_and_keeps_the_event() -> None:
    """``emit`` gives the next ``seq`` and the event the class builds."""
    log = EventLog()
    ref = Ref.parse("591.7(c)")
    card = Card.parse("Kd")
    first = log.emit(CardBurned, ref=ref, card=card)
    second = log.emit(CardBurned, ref=ref, card=card, face_up=True)
    assert (first.seq, second.seq) == (1, 2)
    assert log.events == (
        CardBurned(1, ref=ref, card=card),
        CardBurned(2, ref=ref, card=card, face_up=True),
    )
    assert first.to_dict() == {
        "seq": 1,
        "ref": "591.7(c)",
        "type": "card_burned",
        "card": "Kd",
        "face_up": False,
    }


def test_issue_17_2_subclass_and_override_keep_their_own_to_dict() -> None:
    """A subclass gets its own encoder; a class's own to_dict is kept."""
    try:

        @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
        class CodecProbeBurn(CardBurned):
            extra: str = "e"

        @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
        class CodecProbeOwn(Event):
            x: int

            def to_dict(self) -> dict[str, object]:
                return {"own": self.x}

        ref = Ref.parse("591.7(c)")
        card = Card.parse("Kd")
        burn = CardBurned(1, ref=ref, card=card)
        probe = CodecProbeBurn(2, ref=ref, card=card)
        for _ in range(2):  # before and after the first call compiles
            assert burn.to_dict() == plain_dict(burn)
            assert list(probe.to_dict().items()) == list(
                plain_dict(probe).items()
            )
            assert probe.to_dict()["extra"] == "e"
            assert CodecProbeOwn(3, ref=ref, x=5).to_dict() == {"own": 5}
    finally:
        _EVENT_TYPES.pop("codec_probe_burn", None)
        _EVENT_TYPES.pop("codec_probe_own", None)


def test_issue_17_empty_card_collection_is_the_empty_notation() -> None:
    """No cards collected is ``""`` both ways, never ``[]`` (the schema's
    card notation is a string), and reads back as no cards."""
    from croupier.events import CardsCollected
    from croupier.regs import Ref

    event = CardsCollected(
        3, ref=Ref.parse("591.7(d)(1)"), source="shoe", cards=()
    )
    assert plain_dict(event)["cards"] == ""
    assert event.to_dict()["cards"] == ""
    assert Event.from_dict(event.to_dict()) == event
    assert card_fields(CardsCollected) == frozenset({"cards"})
    assert card_fields(CardBurned) == frozenset()
