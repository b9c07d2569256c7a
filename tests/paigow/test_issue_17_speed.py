"""Issue 17 point 2: the pai gow round's remembered answers are the fresh ones.

``croupier verify`` replays every round through the engine, so the
round remembers what cannot change once the cards are dealt: the order
of the decisions (no Six-Card Wager changes after the deal), the setting
a decision was verified with (the dealt stacks do not change) and a
setting's high-hand value (a setting is immutable); a six-card hand's
five-card values are worked out once for its setting and its best five.
Each is compared here with an answer worked out independently, on many
seeded rounds and generated hands.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck
from croupier.errors import CroupierError
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.hands.paigow import (
    BestHighHouseWay,
    Setting,
    StandardHouseWay,
    _evaluate_five,
    _evaluate_natural,
    evaluate,
)
from croupier.hands.paigow_classes import FiveValues
from croupier.procedures.ch670a import clockwise_from
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.shoe import Shoe

_PLAIN_WAYS: dict[str, StandardHouseWay | BestHighHouseWay] = {
    "standard": StandardHouseWay(),
    "best_high": BestHighHouseWay(),
}


def _seeded_round(rng: random.Random) -> tuple[SixCardRound, set[int]]:
    """A dealt round with random rules, wagers and starting position."""
    rules = SixCardRules().with_overrides(
        {
            "dealing": rng.choice(["hand", "manual_shoe", "automated_shoe"]),
            "house_way": rng.choice(["standard", "best_high"]),
            "double_down_offered": rng.random() < 0.7,
        }
    )
    rnd = SixCardRound(
        rules=rules,
        shoe=Shoe.new(jokers=1),
        rng=SeededRng(rng.randrange(10**6)),
        shuffle=True,
        starting_position=rng.randint(1, 7),
    )
    seats = set(rng.sample(range(1, 7), rng.randint(1, 6)))
    for seat in sorted(seats):
        rnd.place_wager(seat, "pai_gow", rng.choice([500, 1000, 2500]))
    rnd.deal()
    return rnd, seats


def test_issue_17_2_decision_order_fixed_at_the_deal_is_the_fresh_one() -> (
    None
):
    rng = random.Random(17)
    checked = 0
    for _ in range(150):
        rnd, seats = _seeded_round(rng)
        start = rnd.starting_position
        assert start is not None
        expected = tuple(p for p in clockwise_from(start) if p in seats)
        while (pending := rnd.pending()) is not None:
            assert rnd._order == expected
            assert pending.seat in expected
            legal = [str(a) for a in pending.legal if a != "set"]
            rnd.apply(Action(seat=pending.seat, name=rng.choice(legal)))
            checked += 1
    assert checked > 300


def test_issue_17_2_setting_carried_out_is_a_fresh_setting() -> None:
    rng = random.Random(1717)
    refused = 0
    for _ in range(150):
        rnd, _seats = _seeded_round(rng)
        chosen: dict[int, Card | None] = {}
        while (pending := rnd.pending()) is not None:
            seat = pending.seat
            name = rng.choice([str(a) for a in pending.legal])
            card = None
            if name == "set":
                card = rng.choice(rnd.deal_record.stacks[seat])
            action = Action(seat=seat, name=name, card=card)
            # asked first (the setting is remembered), then carried out
            allowed = rnd.can_apply(action)
            try:
                rnd.apply(action)
            except CroupierError:
                assert not allowed
                refused += 1
                continue
            assert allowed
            if name in ("set", "house_way"):
                chosen[seat] = card
        way = _PLAIN_WAYS[rnd.rules.house_way]
        for seat, card in chosen.items():
            cards = rnd.deal_record.stacks[seat]
            made = rnd.settings[seat]
            if card is None:
                assert made == way.plain_set_hand(cards)
            else:
                rest = list(cards)
                rest.remove(card)
                assert made.low == card
                assert sorted(made.high) == sorted(rest)
    assert refused > 0  # foul settings were refused and not remembered


@settings(max_examples=200, deadline=None)
@given(st.permutations(full_deck(jokers=1)), st.integers(0, 5))
def test_issue_17_2_setting_high_value_asked_twice_is_the_plain_value(
    deck: list[Card], low: int
) -> None:
    six = deck[:6]
    setting = Setting(high=(*six[:low], *six[low + 1 :]), low=six[low])
    plain = _evaluate_five(setting.high)
    assert setting.high_value == plain
    assert setting.high_value == plain  # the remembered value
    assert setting == Setting(high=setting.high, low=setting.low)


def _plain_or_error(cards: list[Card]) -> int | str:
    try:
        return _evaluate_five(cards)
    except ValueError as exc:
        return str(exc)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(full_deck(jokers=1)), min_size=6, max_size=6)
    | st.permutations(full_deck(jokers=1)).map(lambda deck: deck[:6])
)
def test_issue_17_2_six_card_values_leaving_one_out_are_the_plain_values(
    six: list[Card],
) -> None:
    values = FiveValues(_evaluate_five, natural=_evaluate_natural)
    plain = [_plain_or_error([*six[:i], *six[i + 1 :]]) for i in range(6)]
    for _ in range(2):  # worked out, then remembered
        try:
            got: tuple[int, ...] | str = values.leave_one_out(six)
        except ValueError as exc:
            got = str(exc)
        if isinstance(got, str):
            assert got in plain  # the error a plain evaluation raises
        else:
            assert list(got) == plain
    if all(isinstance(v, int) for v in plain):
        best = max(_evaluate_five(five) for five in combinations(six, 5))
        assert evaluate(six) == best
