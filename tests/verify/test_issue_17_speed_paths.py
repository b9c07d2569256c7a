"""Issue 17 point 2: the verifier's shared fast paths give the plain answers.

``tests/foundation/test_event_codec.py`` compares the compiled event
functions with the plain ones on generated values; here every card of
the pai gow deck (the joker included) goes through the compiled encoder,
which writes a card as the text of its code, and must come out as
``str`` writes it, and as the plain field-by-field encoder does.
"""

from __future__ import annotations

from croupier.cards import Card, Rank, Suit, full_deck
from croupier.events import CardBurned, CardDealt, EventLog, plain_dict
from croupier.regs import Ref


def test_issue_17_2_every_card_encoded_as_str_writes_it() -> None:
    log = EventLog()
    ref = Ref.parse("670a.9(c)")
    cards = [
        *full_deck(jokers=1),
        # cards built afresh (not the deck's objects) encode the same
        *(Card(Rank(r), s) for r in range(2, 15) for s in Suit),
    ]
    for card in cards:
        dealt = log.emit(CardDealt, ref=ref, to="seat 1", card=card)
        burned = log.emit(CardBurned, ref=ref, card=card)
        for event in (dealt, burned):
            encoded = event.to_dict()
            assert encoded["card"] == str(card)
            assert encoded == plain_dict(event)
            assert list(encoded) == list(plain_dict(event))


def test_issue_17_2_a_card_subclass_keeps_the_plain_rule() -> None:
    class Marked(Card):
        __slots__ = ()

        def __str__(self) -> str:
            return "marked " + Card.__str__(self)

    log = EventLog()
    card = Marked(Rank.ACE, Suit.SPADES)
    event = log.emit(CardBurned, ref=Ref.parse("591.7(c)"), card=card)
    assert event.to_dict()["card"] == "marked As" == plain_dict(event)["card"]
