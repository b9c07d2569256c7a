"""681a.7(a), D69: a shoe with no card left for the round voids the round.

A one-deck shoe whose cover card lies deep (a penetration of 19/20
leaves two cards beneath it) may hold fewer cards than a round needs.
Every wager goes back, the hands go to the rack, and the shoe is
reshuffled with a new cover card (d). Expected values are worked out
from the stacked cards.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from croupier.cards import full_deck, parse_cards
from croupier.events import (
    CardsCollected,
    CoverCardInserted,
    PhaseEntered,
    RoundVoided,
    Shuffled,
)
from croupier.games.baccarat21 import Baccarat21Round, Baccarat21Rules
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import SHOE_RAN_OUT
from croupier.shoe import CoverCard, Shoe
from croupier.table import Table


def whole(stack: str) -> Shoe:
    """One deck: ``stack`` on top of an empty shoe, the rest in the rack."""
    left = Counter(full_deck()) - Counter(parse_cards(stack))
    rack = [str(card) for card in full_deck() if left[card]]
    return Shoe.stacked(stack, discard=" ".join(rack))


def deal(stack: str) -> Baccarat21Round:
    rnd = Baccarat21Round(
        rules=Baccarat21Rules.from_mapping({"decks": 1}),
        shoe=whole(stack),
        rng=SeededRng(1),
        new_shoe=False,
    )
    rnd.place_wager(1, "player", 1000)
    rnd.place_wager(2, "tie", 500)
    rnd.deal()
    return rnd


def assert_void(rnd: Baccarat21Round, last_phase: str) -> None:
    assert rnd.is_over
    assert rnd.shoe_ran_out
    assert rnd.needs_new_shoe
    (void,) = [e for e in rnd.events if isinstance(e, RoundVoided)]
    assert (str(void.ref), void.reason) == ("681a.7(a)", SHOE_RAN_OUT)
    phases = [e.phase for e in rnd.events if isinstance(e, PhaseEntered)]
    assert phases[-4:] == [last_phase, "void", "reshuffling", "complete"]
    assert sorted(
        (s.key.seat, s.key.wager, s.amount, s.outcome.value, s.net)
        for s in rnd.settlements
    ) == [(1, "player", 1000, "void", 0), (2, "tie", 500, "void", 0)]
    # the whole deck back in the shoe, its new cover card at 3/4 (D8)
    (shuffled,) = [e for e in rnd.events if isinstance(e, Shuffled)]
    assert shuffled.cards == 52
    assert rnd.shoe.discard == []
    stack = rnd.shoe.stack
    assert len(rnd.shoe) == 52
    cover = next(
        i for i, item in enumerate(stack) if isinstance(item, CoverCard)
    )
    assert cover == int(Fraction(3, 4) * 52)
    assert any(isinstance(e, CoverCardInserted) for e in rnd.events)
    rnd.ledger.verify()
    rnd.verify_conservation()


def test_681a_7_a_the_initial_deal_runs_out() -> None:
    # Player Kd, Banker 5h, Player 9c: the Banker's second card is missing
    rnd = deal("Kd 5h 9c")
    assert_void(rnd, "dealing")
    collected = [
        (e.source, " ".join(map(str, e.cards)))
        for e in rnd.events
        if isinstance(e, CardsCollected) and e.source != "shoe"
    ]
    assert collected == [("player hand", "Kd 9c"), ("banker hand", "5h")]


def test_681a_7_g_the_draw_under_17_runs_out() -> None:
    # Player Kd 6c = 16 and Banker 5h 9s = 14 both draw (g): none is left
    rnd = deal("Kd 5h 6c 9s")
    assert_void(rnd, "drawing")


def test_681a_7_d_rounds_go_on_after_a_void() -> None:
    spec = find_game("21-baccarat")
    rules = spec.rules_type.from_mapping({"decks": 1, "penetration": "19/20"})
    table = Table(spec, rules=rules, rng=SeededRng(2))
    voids = 0
    for _ in range(60):
        rnd = table.new_round()
        rnd.place_wager(1, "player", 100)
        rnd.deal()
        assert rnd.is_over
        assert not rnd.table_cards()
        voids += rnd.shoe_ran_out
        rnd.ledger.verify()
        table.finish_round(rnd)
    assert voids


def test_681a_7_a_a_round_the_deal_ran_out_on_can_be_viewed() -> None:
    """The Player holds two cards, the Banker one: no Bonus hand yet.

    Viewing the round asked the Bonus category of the one-card hand and
    raised, so the server could not answer the step that dealt it, rolled
    it back, and dealt the same void again at every later try: the table
    was stuck (found by the stateful soak test, issue 17).
    """
    rnd = deal("Kd 5h 9c")
    assert rnd.shoe_ran_out
    for seat in (None, 1, 2):
        view = rnd.view(seat)
        assert (view["player"]["cards"], view["player"]["bonus"]) == (
            ["Kd", "9c"],
            None,  # K-9: no pair, flush or better
        )
        assert (view["banker"]["cards"], view["banker"]["bonus"]) == (
            ["5h"],
            None,
        )
        assert view["banker"]["total"] == 5
    assert rnd.envelope(None)["pending"] is None
