"""Issue 17: a shoe's complement, counted when first needed, is the stack's.

A shoe built without a complement is accountable for the cards it was
built with (cover cards aside). It now counts them only when something
asks (the conservation check, :attr:`Shoe.complement`, a rack it is made
accountable for), from a copy of the stack as built. Here the stack is
moved about first (cards drawn, burned, racked, withdrawn, gathered,
shuffled, a card lost or added by hand), and the complement must still
be the count of the cards it was built with, as the constructor counted
them before; and the conservation check must pass or fail as it does on
a shoe counted at once.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck
from croupier.errors import CardConservationError
from croupier.rng import SeededRng
from croupier.shoe import COVER_CARD, Shoe, StackItem

_DECK = full_deck(jokers=1)
_ITEMS = st.lists(
    st.one_of(st.sampled_from(_DECK), st.just(COVER_CARD)), max_size=30
)
_MOVES = st.lists(
    st.sampled_from(
        [
            "draw",
            "burn",
            "rack",
            "withdraw",
            "gather",
            "shuffle",
            "lose",
            "add",
        ]
    ),
    max_size=8,
)


def _move(shoe: Shoe, move: str, table: list[Card]) -> None:
    cards = [item for item in shoe.stack if isinstance(item, Card)]
    if move == "draw" and cards:
        table.append(shoe.draw())
    elif move == "burn" and cards:
        shoe.burn()
    elif move == "rack" and table:
        shoe.discard_cards([table.pop()])
    elif move == "withdraw" and table:
        shoe.withdraw([table.pop()])
    elif move == "gather" and not table:
        shoe.gather()
    elif move == "shuffle":
        shoe.shuffle(SeededRng(len(shoe.stack)))
    elif move == "lose" and shoe.stack:
        shoe.stack.pop()
    elif move == "add":
        shoe.stack.append(_DECK[len(shoe.stack) % len(_DECK)])


def _conserved(shoe: Shoe, table: list[Card]) -> str | None:
    try:
        shoe.verify_conservation(on_table=table)
    except CardConservationError as exc:
        return str(exc)
    return None


@settings(max_examples=300, deadline=None)
@given(_ITEMS, _MOVES, st.booleans())
def test_issue_17_the_complement_is_the_cards_the_shoe_was_built_with(
    items: list[StackItem], moves: list[str], rack_first: bool
) -> None:
    built = Counter(item for item in items if isinstance(item, Card))
    late, early = Shoe(items), Shoe(items, complement=Counter(built))
    rack = [_DECK[0], _DECK[5]]
    verdicts = []
    for shoe in (late, early):
        table: list[Card] = []
        if rack_first:
            # accountable for a rack too, before anything counted
            shoe.discard = list(rack)
            shoe.account_for(rack)
        for move in moves:
            _move(shoe, move, table)
        verdicts.append(_conserved(shoe, table))
    # the same verdict, and message, as the shoe counted at once
    assert verdicts[0] == verdicts[1]
    want = built + (Counter(rack) if rack_first else Counter())
    assert late.complement == early.complement == want


def test_issue_17_a_complement_set_before_it_is_counted_stands() -> None:
    shoe = Shoe([_DECK[1], COVER_CARD, _DECK[2]])
    shoe.draw()
    shoe.complement = Counter({_DECK[9]: 2})
    assert shoe.complement == Counter({_DECK[9]: 2})
    # a shoe whose stack was emptied before anything counted it
    drained = Shoe([_DECK[3]])
    drained.stack.clear()
    assert drained.complement == Counter({_DECK[3]: 1})
