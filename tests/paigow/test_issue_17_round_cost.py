"""Issue 17: a verified pai gow round's shortcuts give the plain answers.

The regular deal takes its 42 cards from the stack at once, a setting
carries the high hand's value it was checked with, and the pending
decision of a seat is one object made once. Each is compared here with
an answer worked out independently: the deal with the cards of a known
deck counted out clockwise, the value with the plain evaluator, the
pending decision with the contract's form written out.
"""

from __future__ import annotations

import random
import re

import pytest

from croupier.cards import JOKER, Card, full_deck, parse_cards
from croupier.events import CardDealt, CardsCollected
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.hands.paigow import (
    HOUSE_WAYS,
    FoulSettingError,
    _evaluate_five,
    describe,
    set_hand,
)
from croupier.round import Action
from croupier.shoe import COVER_CARD, Shoe


def _deck(seed: int) -> list[Card]:
    deck = full_deck(jokers=1)
    random.Random(seed).shuffle(deck)
    return deck


def _round(
    stack: list[Card | object], start: int, dealing: str = "hand"
) -> SixCardRound:
    rnd = SixCardRound(
        rules=SixCardRules().with_overrides({"dealing": dealing}),
        shoe=Shoe(stack),  # type: ignore[arg-type]
        starting_position=start,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    return rnd


def _dealt(rnd: SixCardRound) -> list[tuple[str, str]]:
    return [
        (e.to, str(e.card)) for e in rnd.log.events if isinstance(e, CardDealt)
    ]


def _counted_out(cards: list[Card], start: int) -> list[tuple[str, str]]:
    """Card ``k`` to the ``k``-th position clockwise from ``start``."""
    out = []
    for k, card in enumerate(cards[:42]):
        position = (start - 1 + k) % 7 + 1
        label = "dealer" if position == 7 else f"seat {position}"
        out.append((label, str(card)))
    return out


@pytest.mark.parametrize("dealing", ["hand", "manual_shoe"])
@pytest.mark.parametrize("start", range(1, 8))
def test_670a_9_c_regular_deal_takes_its_cards_at_once_in_dealing_order(
    start: int, dealing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = _deck(start)
    rnd = _round(list(deck), start, dealing)

    def refuse(self: Shoe, *args: object) -> Card:
        msg = "a regular deal draws no card one at a time"
        raise AssertionError(msg)

    monkeypatch.setattr(Shoe, "draw", refuse)
    rnd.deal()
    want = _counted_out(deck, start)
    assert _dealt(rnd) == want
    for position in range(1, 8):
        label = "dealer" if position == 7 else f"seat {position}"
        assert [str(c) for c in rnd.deal_record.stacks[position]] == [
            card for to, card in want if to == label
        ]
    # the eleven left were counted out of the stack, the deal is correct
    (remaining,) = [
        e.cards
        for e in rnd.log.events
        if isinstance(e, CardsCollected) and e.source == "remaining"
    ]
    assert list(remaining) == deck[42:]
    assert rnd.fault is None
    # the refs and flags of the plain deal
    ref = "670a.9(c)" if dealing == "hand" else "670a.8"
    dealt = [e for e in rnd.log.events if isinstance(e, CardDealt)]
    assert {(str(e.ref), e.face_up, e.hand, e.purpose) for e in dealt} == {
        (ref, False, 0, "")
    }


@pytest.mark.parametrize("at", [0, 20, 41])
def test_670a_9_c_cover_card_among_the_cards_dealt_is_set_aside_as_drawn(
    at: int,
) -> None:
    # not the regular stack: dealt a card at a time, the cover card set
    # aside as Shoe.draw meets it and the card beneath it dealt
    deck = _deck(100 + at)
    stack: list[Card | object] = list(deck)
    stack.insert(at, COVER_CARD)
    rnd = _round(stack, 3)
    rnd.deal()
    assert _dealt(rnd) == _counted_out(deck, 3)
    assert rnd.shoe.covers_aside == 1
    assert rnd.fault is None


def test_670a_9_c_short_stack_is_dealt_a_card_at_a_time_until_it_ends() -> (
    None
):
    deck = _deck(7)[:40]
    rnd = _round(list(deck), 5)
    rnd.deal()
    assert _dealt(rnd) == _counted_out(deck, 5)[:40]
    assert rnd.fault == "misdealt"


def test_670a_9_c_slip_deals_a_card_at_a_time() -> None:
    deck = _deck(8)
    rnd = SixCardRound(
        rules=SixCardRules().with_overrides(
            {"dealing_irregularities": ["skip:2"]}
        ),
        shoe=Shoe(deck),
        starting_position=1,
    )
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    # seat 2 passed over on the first turn: every card after seat 1's
    # first goes one position further than in a regular deal
    order = [1, *range(3, 8)] + [*range(1, 8)] * 5
    want = [
        ("dealer" if p == 7 else f"seat {p}", str(card))
        for p, card in zip(order, deck, strict=False)
    ]
    assert _dealt(rnd) == want
    assert rnd.fault == "misdealt"


@pytest.mark.parametrize("seed", range(40))
def test_670a_11_setting_carries_the_plain_value_of_its_high_hand(
    seed: int,
) -> None:
    six = _deck(seed)[:6]
    for low in six:
        high = [card for card in six if card != low]
        value = _evaluate_five(high)
        top = 14 if low.is_joker else int(low.rank)
        if value >> 20 == 0 and (value >> 16) & 0xF < top:
            # a no-pair high hand below the low card (D18): refused with
            # the plain value's description
            shown = re.escape(f"({describe(value)})")
            with pytest.raises(FoulSettingError, match=shown):
                set_hand(six, low)
            continue
        setting = set_hand(six, low)
        # carried from the check, before anyone asks for it
        assert setting._high_value == value
        assert list(setting.high) == high
    for way in HOUSE_WAYS.values():
        setting = way.set_hand(six)
        assert setting._high_value == _evaluate_five(setting.high)


def test_issue_17_pending_decision_is_one_object_per_seat_and_stage() -> None:
    rnd = SixCardRound(
        rules=SixCardRules(double_down_offered=True),
        shoe=Shoe(_deck(1)),
        starting_position=1,
    )
    for seat in (2, 5):
        rnd.place_wager(seat, "pai_gow", 1000)
    rnd.deal()
    seen = []
    while (pending := rnd.pending()) is not None:
        assert rnd.pending() is pending
        seen.append(pending.to_dict())
        name = "no_double_down" if "no_double_down" in pending.legal else ""
        rnd.apply(Action(seat=pending.seat, name=name or "house_way"))
    double = {"legal": ["double_down", "no_double_down"], "ref": "670a.7(c)"}
    setting = {"legal": ["set", "house_way"], "ref": "670a.11"}
    assert seen == [
        {"seat": 2, **double},
        {"seat": 2, **setting},
        {"seat": 5, **double},
        {"seat": 5, **setting},
    ]


def test_670a_11_setting_beside_two_jokers_values_its_high_hand() -> None:
    # not a pai gow deck's hand, but set_hand answers as the plain
    # evaluator of the high hand does: the other fives hold two jokers
    six = [JOKER, JOKER, *parse_cards("7h 5s 3d 2c")]
    setting = set_hand(six, JOKER)
    assert setting.high_value == _evaluate_five(setting.high)
    with pytest.raises(ValueError, match="at most one joker"):
        set_hand(six, six[2])
