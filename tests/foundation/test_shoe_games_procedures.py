"""591.7 and 681a.7 (a)-(d): the steps both games share, proved once each."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from croupier.cards import parse_cards
from croupier.errors import ShoeError
from croupier.events import (
    CardBurned,
    CardsCollected,
    CoverCardInserted,
    EventLog,
    Shuffled,
)
from croupier.procedures.shoe_games import (
    burn_for_new_batch,
    burn_for_new_dealer,
    collect_and_reshuffle,
    insert_cover_card_at_penetration,
)
from croupier.regs import Ref
from croupier.rng import SeededRng
from croupier.shoe import Shoe


@pytest.mark.proves("591.7(c)", "681a.7(c)")
@pytest.mark.parametrize("section", ["591.7", "681a.7"])
def test_591_7_c_burn_first_card_of_each_batch(section: str) -> None:
    shoe = Shoe.stacked("Kd 5h 9c")
    log = EventLog()
    event = burn_for_new_batch(shoe, log, section)
    assert isinstance(event, CardBurned)
    assert event.ref == Ref(section, ("c",))
    assert shoe.discard == list(parse_cards("Kd"))
    assert shoe.notation() == "5h 9c"


@pytest.mark.proves("681a.7(c)")
def test_681a_7_c_new_dealer_burns_one_card() -> None:
    shoe = Shoe.stacked("2c 3c")
    log = EventLog()
    burn_for_new_dealer(shoe, log, "681a.7")
    assert shoe.discard == list(parse_cards("2c"))
    shoe.verify_conservation()


@pytest.mark.proves("591.7(a)")
def test_591_7_a_cover_card_placed_at_penetration() -> None:
    shoe = Shoe.new(decks=6)
    before = [str(card) for card in shoe.stack]
    log = EventLog()
    event = insert_cover_card_at_penetration(
        shoe, log, "591.7", Fraction(3, 4)
    )
    after = [str(card) for card in shoe.stack]
    # 3/4 of 6 x 52 = 234 cards are dealt before the cover card
    assert after.count("CC") == 1
    assert after.index("CC") == 234
    assert after[:234] + after[235:] == before  # nothing else moved
    assert isinstance(event, CoverCardInserted)
    assert (event.position, str(event.ref)) == (234, "591.7(a)")
    with pytest.raises(ShoeError):
        insert_cover_card_at_penetration(shoe, log, "591.7", Fraction(1))


@pytest.mark.proves(
    "591.7(d)(1)",
    "591.7(d)(2)",
    "681a.7(d)(1)",
    "681a.7(d)(2)",
)
@pytest.mark.parametrize("section", ["591.7", "681a.7"])
def test_591_7_d_collect_remaining_cards_then_reshuffle(section: str) -> None:
    shoe = Shoe.new(decks=1)
    complement = Counter(shoe.complement)
    shoe.burn(10)
    dealt = [shoe.draw() for _ in range(5)]
    shoe.discard_cards(dealt)
    log = EventLog()
    collected, shuffled = collect_and_reshuffle(
        shoe, log, section, SeededRng(3)
    )
    assert isinstance(collected, CardsCollected)
    assert collected.ref == Ref(section, ("d", "1"))
    assert len(collected.cards) == 37
    assert isinstance(shuffled, Shuffled)
    assert shuffled.ref == Ref(section, ("d", "2"))
    assert shuffled.seed == 3
    assert Counter(shoe.cards_in_stack()) == complement
    assert shoe.discard == []


@pytest.mark.proves("681a.7(d)")
def test_681a_7_d_cover_card_met_mid_deal_is_set_aside() -> None:
    shoe = Shoe.stacked("As CC Kd")
    calls: list[int] = []
    shoe.draw(lambda: calls.append(1))
    assert shoe.draw(lambda: calls.append(1)) == parse_cards("Kd")[0]
    assert calls == [1]
