"""Issue 17 point 2: the verifier's shared fast paths give the plain answers.

``tests/foundation/test_event_codec.py`` compares the compiled event
functions with the plain ones on generated values; here every card of
the pai gow deck (the joker included) goes through the compiled encoder,
which writes a card as the text of its code, and must come out as
``str`` writes it, and as the plain field-by-field encoder does. The
possible-shoe count's one-set comparison must answer as the test per
token does.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import CARD_TEXTS, Card, Rank, Suit, card_texts, full_deck
from croupier.events import (
    CardBurned,
    CardDealt,
    CardsCollected,
    EventLog,
    field_names,
    plain_dict,
)
from croupier.hhf.export import sealed
from croupier.hhf.sample import sample_histories
from croupier.history import replay as replay_record
from croupier.registry import all_games, find_game
from croupier.regs import Ref
from croupier.rng import SeededRng
from croupier.verify import dealt, replay


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


def test_issue_17_2_tuples_of_cards_encoded_as_the_plain_rule() -> None:
    log = EventLog()
    ref = Ref.parse("670a.9(f)")
    deck = full_deck(jokers=1)
    for cards in (tuple(deck), tuple(reversed(deck)), (deck[7],), ()):
        event = log.emit(CardsCollected, ref=ref, source="x", cards=cards)
        assert event.to_dict() == plain_dict(event)
    whole = log.emit(CardsCollected, ref=ref, source="x", cards=tuple(deck))
    assert whole.to_dict()["cards"] == " ".join(str(card) for card in deck)
    empty = log.emit(CardsCollected, ref=ref, source="x", cards=())
    # no cards is the empty card notation, as the schema has it
    assert empty.to_dict()["cards"] == ""


def test_issue_17_2_a_card_subclass_keeps_the_plain_rule() -> None:
    class Marked(Card):
        __slots__ = ()

        def __str__(self) -> str:
            return "marked " + Card.__str__(self)

    log = EventLog()
    card = Marked(Rank.ACE, Suit.SPADES)
    event = log.emit(CardBurned, ref=Ref.parse("591.7(c)"), card=card)
    assert event.to_dict()["card"] == "marked As" == plain_dict(event)["card"]
    # in a tuple, beside plain cards, too
    mixed = (Card(Rank.KING, Suit.HEARTS), card)
    collected = log.emit(
        CardsCollected, ref=Ref.parse("591.7(c)"), source="x", cards=mixed
    )
    assert collected.to_dict()["cards"] == "Kh marked As"
    assert collected.to_dict() == plain_dict(collected)


_TOKENS = st.sampled_from(["As", "Kd", "7c", "JK", "CC", "2h"])


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(_TOKENS, st.integers(-1, 3)),
    st.dictionaries(_TOKENS, st.integers(0, 3)),
)
def test_issue_17_2_possible_shoe_count_as_the_token_by_token_test(
    counts: dict[str, int], complement: dict[str, int]
) -> None:
    # the one-set comparison (every token once) or the test per token:
    # always the answer of the test per token
    plain = all(counts[t] <= complement.get(t, 0) or t == "CC" for t in counts)
    assert replay._within(complement, Counter(counts)) is plain
    once = Counter(dict.fromkeys(counts, 1))
    plain_once = all(
        once[t] <= complement.get(t, 0) or t == "CC" for t in once
    )
    assert replay._within(complement, once) is plain_once


def test_issue_17_2_events_since_a_position_are_the_slice_of_the_events() -> (
    None
):
    log = EventLog()
    ref = Ref.parse("670a.9(c)")
    for card in full_deck(jokers=1)[:9]:
        log.emit(CardDealt, ref=ref, to="dealer", card=card, face_up=False)
    for start in range(-2, len(log) + 2):
        since = log.since(start)
        assert since == list(log.events[start:])
        since.clear()  # a copy: the log keeps its events
        assert len(log) == 9


def test_issue_17_2_an_emitter_logs_what_emit_logs() -> None:
    seen: set[type] = set()
    for spec in all_games():
        for history in sample_histories(spec.name, 8, seed=2):
            events = replay_record(history.to_record()).round.events
            by_emit, by_emitter = EventLog(), EventLog()
            for event in events:
                cls = type(event)
                seen.add(cls)
                fields = {
                    name: getattr(event, name)
                    for name in ("ref", *field_names(cls))
                }
                a = by_emit.emit(cls, **fields)
                b = by_emitter.emitter(cls)(**fields)
                assert a == b == event
                assert a.to_dict() == b.to_dict()
            assert by_emit.events == by_emitter.events == events
    assert len(seen) > 15  # every game's own event types too


@pytest.mark.parametrize(
    "fields", [{"ref": Ref.parse("591.7(c)")}, {"nope": 1}, {}]
)
def test_issue_17_2_an_emitter_refuses_what_emit_refuses(
    fields: dict[str, object],
) -> None:
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit(CardBurned, **fields)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        log.emitter(CardBurned)(**fields)  # type: ignore[arg-type]
    assert len(log) == 0


# -- a shoe rebuilt from the cards as dealt (D188 exports such rounds) --

_SPELLINGS = st.sampled_from(
    ["As", "as", "10h", "Th", "th", "Jo", "JK", "jk", "2c", "Qd", "9s"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_SPELLINGS, max_size=30))
def test_issue_17_2_card_texts_write_each_card_as_its_code_does(
    tokens: list[str],
) -> None:
    # one set test for a list written as CARD_TEXTS writes it, else
    # card by card: the same texts either way
    plain = tuple(str(Card.parse(token)) for token in tokens)
    assert card_texts(" ".join(tokens)) == plain
    assert card_texts("  ".join(tokens) + " ") == plain


def test_issue_17_2_each_code_is_one_card_equal_to_one_made_afresh() -> None:
    for code in range(53):
        card = Card.from_code(code)
        fresh = (
            Card(Rank.JOKER, None)
            if code == 52
            else Card(Rank(code // 4 + 2), list(Suit)[code % 4])
        )
        assert card == fresh
        assert hash(card) == hash(fresh) == code
        assert Card.parse(CARD_TEXTS[code]) is card
        # the pattern's way (a space to strip) finds the equal card
        assert Card.parse(f" {CARD_TEXTS[code]}") == card
    assert full_deck(jokers=2)[-2:] == [Card(Rank.JOKER, None)] * 2


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
@settings(max_examples=40, deadline=None)
@given(picks=st.lists(st.integers(0, 52), max_size=120))
def test_issue_17_2_the_rest_of_an_as_dealt_shoe_as_counters_give_it(
    game: str, picks: list[int]
) -> None:
    spec = find_game(game)
    rules = spec.rules_type()
    full = spec.new_shoe(rules, SeededRng(0)).complement
    # cards the round showed, some more often than the decks hold them
    known = [Card.from_code(code) for code in picks]
    plain = sorted((full - Counter(known)).elements())
    dealt._LAST.clear()
    nothing = dealt.rack_of(
        rules, replay._decks(spec, rules).codes, "", replay._cards
    )
    rest, _ = dealt.unknown_top(nothing, known, sum(full.values()))
    assert rest == plain


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
def test_d188_a_shoe_rebuilt_as_dealt_accounts_for_its_cards_as_built(
    game: str,
) -> None:
    """The shoe a round recorded as dealt is replayed on is accountable
    for its stack and its rack, as a shoe counted from them is: the
    rules' decks, given whole when the cards shown are within them."""
    spec = find_game(game)
    checked = 0
    for history in sample_histories(game, 60, seed=3):
        dealt = sealed(history)
        rules, problem = replay._rules(spec, dealt, None)
        assert problem is None
        assert rules is not None
        shoe, problem, _ = replay._shoe(spec, rules, dealt)
        assert problem is None
        assert shoe is not None
        built = Counter(c for c in shoe.stack if isinstance(c, Card))
        built.update(shoe.discard)
        assert +shoe.complement == +built, history.round_id
        checked += bool(dealt.shoe.discard)
    # rounds with a rack, not only fresh shoes (a pai gow deck has none)
    assert checked or spec.reshuffle_every_round
