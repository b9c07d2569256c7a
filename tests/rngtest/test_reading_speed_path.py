"""The quick reading of a shuffle line equals the card parser's reading.

Lines in croupier's card text are read by a lookup; any other spelling
or separator by :func:`croupier.cards.parse_cards`. Either way the codes
must be the parser's, and a line the parser refuses is refused.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck, parse_cards
from croupier.rngtest.sources import RngInputError, file_shuffles

_DECK = full_deck(jokers=1)
_SPELLINGS = {
    card: [str(card), str(card).replace("T", "10")] for card in _DECK
}


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_reading_a_line_equals_the_card_parser(data: st.DataObject) -> None:
    order = data.draw(st.permutations(_DECK))
    tokens = [data.draw(st.sampled_from(_SPELLINGS[c])) for c in order]
    gaps = data.draw(
        st.lists(
            st.sampled_from([" ", " ", "  ", ",", "\t", ", "]),
            min_size=len(tokens) - 1,
            max_size=len(tokens) - 1,
        )
    )
    line = tokens[0] + "".join(
        g + t for g, t in zip(gaps, tokens[1:], strict=True)
    )
    plain = " ".join(str(c) for c in reversed(order))
    (got, _) = file_shuffles([line, plain])
    assert got.tolist() == [c.code for c in parse_cards(line)]
    assert got.tolist() == [c.code for c in order]


def test_a_bad_token_is_named_with_its_line() -> None:
    deck = " ".join(str(c) for c in _DECK)
    with pytest.raises(RngInputError, match=r"line 2: .*Zz"):
        file_shuffles([deck, deck.replace("As", "Zz")])
    with pytest.raises(RngInputError, match="line 2: not a shuffle"):
        file_shuffles([deck, deck.replace("As", "Kd")])
    assert Card.parse("As").code in file_shuffles([deck, deck])[1].tolist()


@pytest.mark.parametrize("decks", [1, 6])
def test_croupiers_own_text_is_read_by_its_pairs_as_the_parser_reads_it(
    decks: int,
) -> None:
    """A line as croupier writes it (two ASCII bytes a card, one space
    between) is read by one lookup of its pairs: the same codes as the
    parser gives, the joker's too; a line it cannot read so (a
    non-breaking space, a lower-case card, a card it does not know) is
    the parser's to read or refuse."""
    rng = random.Random(decks)
    cards = [c for _ in range(decks) for c in _DECK]
    lines = []
    for _ in range(5):
        rng.shuffle(cards)
        lines.append(" ".join(str(c) for c in cards))
    got = file_shuffles(lines)
    for line, codes in zip(lines, got, strict=True):
        assert codes.tolist() == [c.code for c in parse_cards(line)]
    other = lines[0].replace(" ", "\u00a0", 1)
    assert file_shuffles([other])[0].tolist() == got[0].tolist()
    lower = lines[0].replace("As", "as")
    assert file_shuffles([lower])[0].tolist() == got[0].tolist()
    with pytest.raises(RngInputError, match=r"line 1: .*Zs"):
        file_shuffles([lines[0].replace("As", "Zs", 1)])
