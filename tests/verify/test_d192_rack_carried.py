"""D192: a round recorded as dealt, on a shoe of its cards and a few more.

A round recorded without its stack that does not reach the cover card
is replayed on its own cards and a few of the decks' cards not known,
its rack counted from the round before's and not handed to the engine.
Each shortcut is held to the plain construction, written out here: the
rack's count to a count of its parsed text against the decks; the cards
not known to the sorted difference of two counters; and the engine's
whole round (events, settlements, the cards it racks) to the round
replayed on the whole shoe rebuilt as the verifier built it before
(every card of the decks not known, in code order, behind the round's
cards; the rack given), on sample rounds and on rounds broken so that
the engine deals cards the log does not show.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import CARD_TEXTS, Card
from croupier.hhf import HandHistory
from croupier.hhf.export import sealed
from croupier.hhf.sample import sample_histories
from croupier.registry import all_games, find_game
from croupier.rng import SeededRng
from croupier.shoe import COVER_CARD, Shoe, StackItem
from croupier.verify import dealt, replay, verify_lines

_DEALT_ON = [s.name for s in all_games() if not s.reshuffle_every_round]
"""The games whose shoe is dealt on from round to round."""

_WRITTEN = [*CARD_TEXTS[:52], "10h", "10s", "CC"]
"""Tokens a rack may hold: each card as croupier writes it, a ten
written another way, the cover card."""


def _plain_rack(decks: Counter[Card], text: str) -> tuple[list[Card], bool]:
    """The rack's cards and whether the decks hold them, counted afresh."""
    cards = [Card.parse(t) for t in text.split() if t != "CC"]
    return cards, not Counter(cards) - decks


@settings(max_examples=60, deadline=None)
@given(
    racks=st.lists(
        st.tuples(
            st.sampled_from(["on", "on", "on", "afresh", "glued"]),
            st.lists(st.sampled_from(_WRITTEN), max_size=40),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_d192_a_rack_carried_over_counts_as_counted_afresh(
    racks: list[tuple[str, list[str]]],
) -> None:
    """Racks dealt on from the last (its text and more), begun afresh,
    or glued to the last token (no space: not dealt on) are each counted
    as their own text counted alone."""
    spec = find_game("midibaccarat")
    rules = spec.rules_type(decks=1)
    decks = Counter(spec.new_shoe(rules, SeededRng(0)).complement)
    by_code = replay._decks(spec, rules).codes
    dealt._LAST.clear()
    text = ""
    for how, tokens in racks:
        more = " ".join(tokens)
        if how == "afresh":
            text = more
        elif how == "glued" and text and more:
            text = f"{text}{more}"
        else:
            text = f"{text} {more}".strip() if more else text
        try:
            cards, within = _plain_rack(decks, text)
        except ValueError:
            with pytest.raises(ValueError):
                dealt.rack_of(rules, by_code, text, replay._cards)
            dealt._LAST.clear()
            continue
        rack = dealt.rack_of(rules, by_code, text, replay._cards)
        assert list(rack.cards) == cards
        assert rack.within is within
        for code in range(53):
            owed = decks[Card.from_code(code)]
            assert rack.left[code] == owed - cards.count(Card.from_code(code))


@settings(max_examples=60, deadline=None)
@given(
    rack=st.lists(st.integers(0, 51), max_size=60),
    shown=st.lists(st.integers(0, 51), max_size=12),
    count=st.integers(0, 20),
)
def test_d192_the_cards_not_known_are_the_counters_difference(
    rack: list[int], shown: list[int], count: int
) -> None:
    spec = find_game("21-baccarat")
    rules = spec.rules_type()
    full = Counter(spec.new_shoe(rules, SeededRng(0)).complement)
    racked = [Card.from_code(c) for c in rack]
    seen = [Card.from_code(c) for c in shown]
    dealt._LAST.clear()
    counted = dealt.rack_of(
        rules,
        replay._decks(spec, rules).codes,
        " ".join(CARD_TEXTS[c] for c in rack),
        replay._cards,
    )
    top, within = dealt.unknown_top(counted, seen, count)
    known = Counter([*racked, *seen])
    assert top == sorted((full - known).elements())[:count]
    assert within is not (known - full)


def _whole_shoe(
    spec: Any, rules: Any, history: HandHistory
) -> tuple[Shoe, list[Card]]:
    """The shoe as the verifier rebuilt it before D192: the round's cards
    as they came out, every other card of the decks in code order, the
    recorded rack in the rack, the decks its complement."""
    items: list[StackItem] = []
    for step in history.procedure:
        if step["type"] in ("card_dealt", "card_burned"):
            items.append(Card.parse(step["card"]))
        elif step["type"] == "cover_card_reached":
            items.append(COVER_CARD)
    rack = [
        Card.parse(t)
        for t in (history.shoe.discard or "").split()
        if t != "CC"
    ]
    full = Counter(spec.new_shoe(rules, SeededRng(0)).complement)
    shown = [c for c in items if isinstance(c, Card)]
    rest = sorted((full - Counter([*shown, *rack])).elements())
    shoe = Shoe([*items, *rest], complement=full)
    shoe.discard = list(rack)
    return shoe, rack


def _broken(history: HandHistory, how: str) -> HandHistory:
    """The round with its last card step, or all after the fourth, gone:
    the engine then deals cards the log does not show."""
    steps = list(history.procedure)
    cards = [i for i, s in enumerate(steps) if s["type"] == "card_dealt"]
    cut = cards[-1:] if how == "last" else cards[4:]
    kept = tuple(s for i, s in enumerate(steps) if i not in set(cut))
    return dataclasses.replace(history, procedure=kept)


def _events(rnd: Any) -> list[dict[str, Any]]:
    return [e.to_dict() for e in rnd.events]


@pytest.mark.parametrize("game", _DEALT_ON)
@pytest.mark.parametrize("how", ["as recorded", "last", "after the fourth"])
def test_d192_a_round_dealt_on_plays_as_on_the_whole_rebuilt_shoe(
    game: str, how: str
) -> None:
    spec = find_game(game)
    dealt._LAST.clear()
    compared = 0
    for history in sample_histories(game, 60, seed=8):
        sealed_round = sealed(history)
        if how != "as recorded":
            sealed_round = _broken(sealed_round, how)
        rules, problem = replay._rules(spec, sealed_round, None)
        assert problem is None and rules is not None
        shoe, problem, drawn = replay._shoe(spec, rules, sealed_round)
        assert problem is None and shoe is not None
        if drawn is None:  # it reached the cover card: the whole shoe
            continue
        whole, rack = _whole_shoe(spec, rules, sealed_round)
        # only the round's cards and a few more, and no rack
        assert len(shoe.stack) <= drawn + replay._MARGIN
        assert shoe.discard == []
        ours, stop = replay._run(spec, rules, shoe, sealed_round)
        theirs, stop_whole = replay._run(spec, rules, whole, sealed_round)
        assert _events(ours) == _events(theirs), history.round_id
        assert ours.settlements == theirs.settlements
        assert (stop is None) is (stop_whole is None)
        assert shoe.discard == whole.discard[len(rack) :]
        compared += 1
    assert compared >= 30


@pytest.mark.parametrize("game", _DEALT_ON)
def test_d192_a_card_too_many_in_the_rack_mid_shoe_is_refused(
    game: str,
) -> None:
    """A rack that gains, between two rounds of one shoe, a card the
    decks hold no more of is refused at that round, as a rack counted
    alone is, naming the card and its count."""
    spec = find_game(game)
    rounds = [sealed(h) for h in sample_histories(game, 12, seed=12)]
    at = next(
        i
        for i in range(3, len(rounds))
        if rounds[i].shoe.discard and not rounds[i].shoe.new_shoe
    )
    rules = spec.rules_type.from_mapping(dict(rounds[at].rules))
    owed = Counter(spec.new_shoe(rules, SeededRng(0)).complement)
    card = Card.parse("6s")
    held = Counter(
        Card.parse(t) for t in (rounds[at].shoe.discard or "").split()
    )[card]
    extra = " ".join(["6s"] * (owed[card] + 1 - held))
    shoe = dataclasses.replace(
        rounds[at].shoe, discard=f"{rounds[at].shoe.discard} {extra}"
    )
    rounds[at] = dataclasses.replace(rounds[at], shoe=shoe)
    report = verify_lines([h.dumps() for h in rounds])
    first = next(v for v in report.verdicts if not v.conforming)
    assert first.line == at + 1
    assert first.deviation is not None
    assert "x 6s but the rules' shoe (" in first.deviation.message
