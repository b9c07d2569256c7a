"""The round's kept answers equal the ones worked out afresh (issue 17.2).

``croupier verify`` replays every round through the engine, so the
Double Back Jack round keeps a few answers instead of working them out
at every step: the pending decision (until the log grows), the hands in
clockwise order (until a box or hand comes or goes), the carrying out
of the decision :meth:`verify_action` just checked, each hand's wager
keys and label. Here seeded rounds under several Rules Submissions,
with random legal and illegal decisions (splits, doubles for less,
insurance, Second Chances, wagers changed and taken back), check every
kept answer against the plain computation at the moment it is given,
and count the reuses so that no test passes on a path never taken.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import suppress
from functools import partial
from typing import Any

import pytest

from croupier.cards import Card, Rank, Suit
from croupier.errors import CroupierError
from croupier.games.double_back_jack import (
    DoubleBackJackRules,
    shuffled_shoe,
)
from croupier.games.double_back_jack.hands import PlayerHand
from croupier.games.double_back_jack.phases import DbjAction
from croupier.games.double_back_jack.refs import (
    REF_DECISIONS,
    REF_SECOND_CHANCE,
)
from croupier.games.double_back_jack.round import (
    DoubleBackJackRound,
    _offer,
)
from croupier.hands.blackjack import blackjack_total, card_value
from croupier.hhf.sample import sample_histories
from croupier.money import WagerKey
from croupier.rng import SeededRng
from croupier.round import Action, Pending
from croupier.verify import verify_round

_VARIANTS: list[dict[str, Any]] = [
    {},
    {"collection_procedure": "player_by_player"},
    {"insurance": False, "surrender": False},
    {"collect_busts_at_once": False},
    {"second_chance_on_doubled": False, "second_chance_on_split": False},
    {"double_after_split": False, "split_aces_may_draw": False},
    {"max_split_hands": 1, "double_for_less": False},
    {"decks": 1, "penetration": "1/2", "boxes_per_player": 2},
]
"""Rules Submissions that change which decisions are legal."""


def _play(rounds: int) -> Iterator[DoubleBackJackRound]:
    """Seeded rounds with random decisions, illegal ones tried first."""
    for number, overrides in enumerate(_VARIANTS):
        rules = DoubleBackJackRules().with_overrides(overrides)
        rng = SeededRng(100 + number)
        pick = random.Random(number)
        shoe = shuffled_shoe(rules, rng)
        new = True
        for _ in range(rounds):
            rnd = DoubleBackJackRound(
                rules=rules, shoe=shoe, rng=rng, new_shoe=new
            )
            seats = sorted(pick.sample(range(1, 8), pick.randint(1, 6)))
            for seat in seats:
                with suppress(CroupierError):  # box 7 is not on the table
                    rnd.place_wager(seat, "blackjack", pick.choice([5, 500]))
            if rnd.ledger.stakes and pick.random() < 0.2:
                key = next(iter(rnd.ledger.stakes))
                rnd.change_wager(key.seat, key.wager, pick.choice([0, 700]))
            if not rnd.can_deal():
                continue
            rnd.deal()
            while (pending := rnd.pending()) is not None:
                rnd.view(pending.seat)
                wrong = Action(
                    seat=pick.choice([pending.seat, pending.seat + 1]),
                    name=pick.choice([a.value for a in DbjAction]),
                    amount=pick.choice([None, 1, 10**9]),
                )
                try:
                    rnd.apply(wrong)
                except CroupierError:
                    pass
                else:
                    continue
                _decide(rnd, pick)
            rnd.verify_conservation()
            yield rnd
            new = rnd.needs_new_shoe
            if new:
                shoe = shuffled_shoe(rules, rng)


def _decide(rnd: DoubleBackJackRound, pick: random.Random) -> None:
    pending = rnd.pending()
    assert pending is not None
    name = pick.choice(list(pending.legal))
    amount = None
    if name == "insurance":
        amount = pick.choice([1, rnd.insurance_limit(pending.seat)])
    elif name == "double" and rnd.rules.double_for_less:
        amount = pick.choice([None, 1])
    action = Action(seat=pending.seat, name=name, amount=amount)
    assert rnd.can_apply(action)
    rnd.apply(action)


def _checked(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    check: Callable[..., Any],
) -> None:
    """Replace method ``name`` by ``check(original, self, *args)``."""
    original = getattr(DoubleBackJackRound, name)

    def wrapper(self: DoubleBackJackRound, *args: Any) -> Any:
        return check(original, self, *args)

    monkeypatch.setattr(DoubleBackJackRound, name, wrapper)


def test_issue_17_2_dbj_kept_pending_is_the_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every ``pending()`` answer equals ``_pending_now()`` at that moment.

    Asked between the verbs and, through ``_awaits``, between every two
    of the dealer's steps too (where a step may change the hand to play
    without recording anything).
    """
    seen: Counter[tuple[str, bool]] = Counter()

    def check(
        original: Callable[[DoubleBackJackRound], Pending | None],
        self: DoubleBackJackRound,
    ) -> Pending | None:
        asked = self._asked
        kept = (
            asked is not None
            and asked[0] == len(self.log)
            and asked[1] is self.phase
            and asked[2] is self._current
        )
        got = original(self)
        assert got == self._pending_now()
        seen["kept" if kept else "fresh", got is not None] += 1
        return got

    def between_steps(
        original: Callable[[DoubleBackJackRound], bool],
        self: DoubleBackJackRound,
    ) -> bool:
        self.pending()
        return original(self)

    _checked(monkeypatch, "pending", check)
    _checked(monkeypatch, "_awaits", between_steps)
    assert sum(1 for _ in _play(50)) > 300
    histories = list(sample_histories("double-back-jack", 200, seed=12))
    assert all(verify_round(h) is None for h in histories)
    assert seen["kept", True] > 1000
    assert seen["fresh", True] > 1000
    assert seen["fresh", False] > 100


def test_issue_17_2_dbj_kept_hand_order_is_clockwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kept order is seat by seat, each box's hands as split."""
    seen: Counter[bool] = Counter()

    def check(
        original: Callable[[DoubleBackJackRound], list[PlayerHand]],
        self: DoubleBackJackRound,
    ) -> list[PlayerHand]:
        got = original(self)
        plain = [
            hand for seat in sorted(self._boxes) for hand in self._boxes[seat]
        ]
        assert len(got) == len(plain)
        assert all(a is b for a, b in zip(got, plain, strict=True))
        seen[any(hand.index for hand in got)] += 1
        return got

    _checked(monkeypatch, "_in_order", check)
    assert sum(1 for _ in _play(40)) > 250
    assert seen[True] > 50  # split boxes met
    assert seen[False] > 1000


def test_issue_17_2_dbj_verified_decision_carried_out_as_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What ``verify_action`` kept is what ``_decision`` gives afresh."""
    seen: Counter[str] = Counter()

    def check(
        original: Callable[[DoubleBackJackRound, Action], None],
        self: DoubleBackJackRound,
        action: Action,
    ) -> None:
        kept = self._verified
        assert kept is not None
        assert kept[0] is action
        fresh = self._decision(DbjAction(action.name), action)
        assert isinstance(kept[1], partial)
        assert isinstance(fresh, partial)
        assert kept[1].func == fresh.func
        assert kept[1].args == fresh.args
        seen[action.name] += 1
        original(self, action)

    _checked(monkeypatch, "_carry_out", check)
    assert sum(1 for _ in _play(40)) > 250
    assert set(seen) == {action.value for action in DbjAction}


@pytest.mark.parametrize(("seat", "index"), [(1, 0), (4, 0), (6, 1)])
def test_issue_17_2_dbj_hand_keys_and_label(seat: int, index: int) -> None:
    """A hand's keys and label, fixed at creation, as the contract has."""
    hand = PlayerHand(seat=seat, index=index)
    assert hand.key == WagerKey(seat, "blackjack", index)
    assert hand.second_chance_key == WagerKey(seat, "second_chance", index)
    assert hand.label == (
        f"seat {seat} hand {index + 1}" if index else f"seat {seat}"
    )


def test_issue_17_2_dbj_legal_decisions_follow_591_7_i(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each offer follows 591.7(i) and 673a.9-673a.11 case by case.

    On the first two cards of an undoubled hand: surrender only on a
    box's first hand and when offered (673a.9); double unless a split
    hand may not double (673a.10); split a pair of equal value on a
    box's first hand while it may hold another (673a.11); always stand
    and hit.
    """
    seen: Counter[tuple[DbjAction, ...]] = Counter()

    def check(
        original: Callable[
            [DoubleBackJackRound, PlayerHand], tuple[DbjAction, ...]
        ],
        self: DoubleBackJackRound,
        hand: PlayerHand,
    ) -> tuple[DbjAction, ...]:
        got = original(self, hand)
        rules = self.rules
        two = len(hand.cards) == 2 and not hand.doubled
        want = []
        if two and rules.surrender and not hand.split:
            want.append(DbjAction.SURRENDER)
        if two and (rules.double_after_split or not hand.split):
            want.append(DbjAction.DOUBLE)
        if (
            two
            and not hand.split
            and len(self._boxes[hand.seat]) < rules.max_split_hands
            and card_value(hand.cards[0]) == card_value(hand.cards[1])
        ):
            want.append(DbjAction.SPLIT)
        want += [DbjAction.STAND, DbjAction.HIT]
        assert got == tuple(want)
        seen[got] += 1
        return got

    _checked(monkeypatch, "_legal_decisions", check)
    assert sum(1 for _ in _play(40)) > 250
    # every kind of offer met: with and without surrender, with and
    # without a split, and stand or hit alone
    assert len(seen) == 5


def _best_total(cards: list[Card]) -> tuple[int, bool]:
    """673a.3 by hand: each ace 1 or 11, the best total not over 21."""
    values = [
        1 if card.rank == Rank.ACE else min(int(card.rank), 10)
        for card in cards
    ]
    hard = sum(values)
    totals = {hard + 10 * aces for aces in range(values.count(1) + 1)}
    fitting = [total for total in totals if total <= 21]
    best = max(fitting) if fitting else hard
    return best, best != hard


def test_issue_17_2_blackjack_totals_tabled_as_673a_3() -> None:
    """The tabled totals are those of 673a.3 for every hand of 1-4 ranks.

    And for long hands (past the table of hard totals) drawn at random.
    """
    ranks = [Card(rank, Suit.SPADES) for rank in Rank if rank != Rank.JOKER]
    hands = [
        list(cards)
        for size in range(5)
        for cards in itertools.combinations_with_replacement(ranks, size)
    ]
    pick = random.Random(17)
    hands += [pick.choices(ranks, k=pick.randint(5, 12)) for _ in range(500)]
    assert max(sum(min(int(c.rank), 10) for c in h) for h in hands) > 64
    for cards in hands:
        total = blackjack_total(cards)
        assert (total.value, total.soft) == _best_total(cards), cards


def test_issue_17_2_dbj_offers_made_once_equal_the_built_ones() -> None:
    """A pending decision handed out again is the one built from its parts."""
    legal = (DbjAction.STAND, DbjAction.HIT)
    ref = REF_DECISIONS
    first = _offer(ref, 3, 1, legal)
    assert first == Pending(seat=3, hand=1, legal=legal, ref=ref)
    assert _offer(ref, 3, 1, legal) is first
    other = _offer(REF_SECOND_CHANCE, 3, 1, legal)
    assert other.ref == REF_SECOND_CHANCE
    assert other is not first


def test_issue_17_2_dbj_first_hand_holds_the_ledgers_key() -> None:
    """A box's first hand uses the ledger's own key, equal to its own."""
    rounds = 0
    for rnd in _play(10):
        keys = {key: key for key in rnd.ledger.stakes}
        for hands in rnd._boxes.values():
            first = hands[0]
            assert first.key == WagerKey(first.seat, "blackjack", 0)
            assert keys[first.key] is first.key
        rounds += 1
    assert rounds > 50
