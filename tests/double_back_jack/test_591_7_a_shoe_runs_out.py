"""591.7(a), D69: a shoe with no card left for the round voids the round.

Every card comes from the dealing shoe (a). A one-deck shoe at a full
table, its cover card deep, can hold too few cards to finish a round;
then, as for any missing card (D25), the wagers still on the layout go
back, those settled already stand, the cards go to the rack and the
shoe is reshuffled (d). The expected settlements below are worked out
by hand from the stacked cards, not read off the engine.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import full_deck, parse_cards
from croupier.events import (
    CardsCollected,
    PhaseEntered,
    RoundVoided,
    Shuffled,
    WagerPlaced,
    WagerSettled,
)
from croupier.games.double_back_jack import (
    DoubleBackJackRound,
    DoubleBackJackRules,
)
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import SHOE_RAN_OUT, Action
from croupier.scenario import run_scenario
from croupier.shoe import CoverCard, Shoe
from croupier.table import Table

Row = tuple[int, str, int, int, str, int]


def whole(stack: str) -> Shoe:
    """One deck: ``stack`` on top of an empty shoe, the rest in the rack."""
    left = Counter(full_deck()) - Counter(parse_cards(stack))
    rack = [str(card) for card in full_deck() if left[card]]
    return Shoe.stacked(stack, discard=" ".join(rack))


def play(
    stack: str, boxes: int, *decisions: tuple[int, str]
) -> DoubleBackJackRound:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules.from_mapping({"decks": 1}),
        shoe=whole(stack),
        rng=SeededRng(1),
        new_shoe=False,
    )
    for seat in range(1, boxes + 1):
        rnd.place_wager(seat, "blackjack", 1000)
    rnd.deal()
    for seat, name in decisions:
        rnd.apply(Action(seat=seat, name=name))
        rnd.verify_conservation()
    return rnd


def rows(rnd: DoubleBackJackRound) -> list[Row]:
    return sorted(
        (
            s.key.seat,
            str(s.key.wager),
            s.key.hand,
            s.amount,
            s.outcome.value,
            s.net,
        )
        for s in rnd.settlements
    )


def assert_void_and_reshuffled(rnd: DoubleBackJackRound) -> None:
    assert rnd.is_over
    assert rnd.pending() is None
    assert rnd.shoe_ran_out
    assert rnd.needs_new_shoe
    (void,) = [e for e in rnd.events if isinstance(e, RoundVoided)]
    assert (str(void.ref), void.reason) == ("591.7(a)", SHOE_RAN_OUT)
    phases = [e.phase for e in rnd.events if isinstance(e, PhaseEntered)]
    assert phases[-3:] == ["void", "reshuffle", "complete"]
    # nothing on the layout; the whole deck shuffled back into the shoe
    assert rnd.table_cards() == []
    assert len(rnd.shoe) == 52
    assert rnd.shoe.discard == []
    (shuffled,) = [e for e in rnd.events if isinstance(e, Shuffled)]
    assert shuffled.cards == 52
    rnd.ledger.verify()
    rnd.verify_conservation()


def test_591_7_a_a_hit_with_the_shoe_empty_voids_the_round() -> None:
    # box Th 5c = 15, dealer 6d up and 9s in the hole; the hit finds none
    rnd = play("Th 6d 5c 9s", 1, (1, "hit"))
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, 1000, "void", 0)]
    collected = [
        (e.source, " ".join(map(str, e.cards)), str(e.ref))
        for e in rnd.events
        if isinstance(e, CardsCollected) and e.source != "shoe"
    ]
    assert collected == [
        ("seat 1", "Th 5c", "591.7(a)"),
        ("dealer", "6d 9s", "591.7(a)"),
    ]


def test_591_7_f_a_blackjack_paid_at_once_stands_when_the_shoe_runs_out() -> (
    None
):
    # box 1 As Kd: paid 3 to 2 at once (f); box 2 Th 5c hits on nothing
    rnd = play("As Th 6d Kd 5c 9s", 2, (2, "hit"))
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, 1000, "win", 1500),
        (2, "blackjack", 0, 1000, "void", 0),
    ]


def test_591_7_o_the_dealer_draw_runs_out_and_the_double_goes_back() -> None:
    # 6h 5c doubled for 1000 more: 9s gives 20; the dealer's 6d Ts = 16
    # must draw (o) and the shoe is empty: the 2000 stake goes back
    rnd = play("6h 6d 5c Ts 9s", 1, (1, "double"))
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, 2000, "void", 0)]


def test_591_7_e_the_deal_itself_runs_out() -> None:
    rnd = play("Th 6d 5c", 1)
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [(1, "blackjack", 0, 1000, "void", 0)]
    phases = [e.phase for e in rnd.events if isinstance(e, PhaseEntered)]
    assert phases[-4:] == ["dealing", "void", "reshuffle", "complete"]


def test_673a_11_both_split_hands_go_back() -> None:
    # 8h 8c split; hand 1 takes 3d and stands; hand 2's card is missing
    rnd = play("8h 6d 8c 9s 3d", 1, (1, "split"), (1, "stand"))
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, 1000, "void", 0),
        (1, "blackjack", 1, 1000, "void", 0),
    ]


def test_591_7_l_the_second_chance_card_missing_returns_both_wagers() -> None:
    # Th 6c hits Kc (26); the Second Chance Wager is placed, no card left
    rnd = play("Th 7d 6c 9s Kc", 1, (1, "hit"), (1, "second_chance"))
    assert_void_and_reshuffled(rnd)
    assert rows(rnd) == [
        (1, "blackjack", 0, 1000, "void", 0),
        (1, "second_chance", 0, 1000, "void", 0),
    ]


def test_591_7_c_the_table_goes_on_with_a_new_shoe_after_the_void() -> None:
    spec = find_game("double-back-jack")
    rules = spec.rules_type.from_mapping({"decks": 1, "penetration": "19/20"})
    table = Table(spec, rules=rules, rng=SeededRng(4))
    voided = None
    for _ in range(12):
        rnd = table.new_round()
        for seat in range(1, 7):
            rnd.place_wager(seat, "blackjack", 100)
        rnd.deal()
        while (pending := rnd.pending()) is not None:
            hit = "hit" in pending.legal
            name = "hit" if hit else pending.legal[-1]
            rnd.apply(Action(seat=pending.seat, name=name))
        table.finish_round(rnd)
        if rnd.shoe_ran_out:
            voided = rnd
            break
    assert voided is not None, "six boxes hitting ran a one-deck shoe out"
    after = table.new_round()
    # the next round burns (c) from the whole reshuffled deck, cover card in
    assert after.new_shoe
    assert len(after.shoe) + len(after.shoe.discard) == 52
    assert after.shoe.discard
    assert any(isinstance(item, CoverCard) for item in after.shoe.stack)
    after.place_wager(1, "blackjack", 100)
    after.deal()
    after.verify_conservation()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    boxes=st.integers(1, 6),
    choices=st.lists(st.integers(0, 9), min_size=40, max_size=40),
)
def test_591_7_a_every_round_ends_and_every_chip_is_accounted_for(
    seed: int, boxes: int, choices: list[int]
) -> None:
    spec = find_game("double-back-jack")
    rules = spec.rules_type.from_mapping({"decks": 1, "penetration": "19/20"})
    table = Table(spec, rules=rules, rng=SeededRng(seed))
    picks = iter(choices * 20)
    for _ in range(4):
        rnd = table.new_round()
        for seat in range(1, boxes + 1):
            rnd.place_wager(seat, "blackjack", 100)
        rnd.deal()
        while (pending := rnd.pending()) is not None:
            legal = pending.legal
            name = legal[next(picks) % len(legal)]
            amount = 1 if name == "insurance" else None
            rnd.apply(Action(seat=pending.seat, name=name, amount=amount))
            rnd.verify_conservation()
        assert rnd.is_over
        assert rnd.table_cards() == []
        # every stake placed is settled once; a void returns what was
        # still open, at net 0, and only after the void
        staked: Counter[tuple[int, str, int]] = Counter()
        settled: Counter[tuple[int, str, int]] = Counter()
        voided_at = None
        for event in rnd.events:
            if isinstance(event, WagerPlaced):
                staked[(event.seat, str(event.wager), event.hand)] += (
                    event.amount
                )
            elif isinstance(event, RoundVoided):
                voided_at = event.seq
            elif isinstance(event, WagerSettled):
                settled[(event.seat, str(event.wager), event.hand)] += (
                    event.amount
                )
                if event.outcome == "void":
                    assert voided_at is not None
                    assert event.net == 0
        assert settled == staked
        assert (voided_at is not None) == rnd.shoe_ran_out
        table.finish_round(rnd)


def test_591_7_a_a_scenario_stacked_short_still_says_so() -> None:
    result = run_scenario(
        {
            "game": "double-back-jack",
            "shoe": "Th 6d 5c 9s",
            "new_shoe": False,
            "wagers": [{"seat": 1, "wager": "blackjack", "amount": 1000}],
            "decisions": [{"seat": 1, "action": "hit"}],
        }
    )
    assert result.exit_code == 2
    assert "lists 4 cards but the round needs 1 more" in result.stderr
