"""``Shoe.empty`` is ``len(shoe) == 0`` (issue 17 point 2, verify speed).

The pai gow deal asks before every card whether any is left; the answer
is read off the top of the stack unless a cover card lies there. Here
stacks of cards and cover cards in every arrangement, drawn down card by
card, give the same answer both ways.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.shoe import COVER_CARD, Shoe, StackItem

_items = st.lists(
    st.sampled_from(["Kd", "7c", "JK", "2s", "CC"]).map(
        lambda t: COVER_CARD if t == "CC" else Card.parse(t)
    ),
    max_size=12,
)


@given(_items)
def test_issue_17_2_shoe_empty_is_no_card_left(items: list[StackItem]) -> None:
    """At every point of drawing the stack down, ``empty`` agrees."""
    shoe = Shoe(list(items))
    while True:
        assert shoe.empty == (len(shoe) == 0)
        assert shoe.empty == (not any(isinstance(i, Card) for i in shoe.stack))
        if shoe.empty:
            break
        shoe.draw()


def test_issue_17_2_shoe_empty_under_a_cover_card() -> None:
    """A cover card on top hides neither a card beneath nor its absence."""
    assert not Shoe([COVER_CARD, Card.parse("Kd")]).empty
    assert Shoe([COVER_CARD]).empty
    assert Shoe([]).empty
