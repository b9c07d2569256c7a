"""Shared builders (as fixtures) for the Six-Card Fortune Pai Gow tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from croupier.cards import Card, full_deck, parse_cards
from croupier.games.six_card_fortune_pai_gow import SixCardRound, SixCardRules
from croupier.procedures.ch670a import clockwise_from
from croupier.shoe import Shoe


def stacked_deck(
    start: int,
    hands: Mapping[int, str] | None = None,
    *,
    stacks: bool = False,
) -> list[Card]:
    """A 53-card deck that deals ``hands`` (position -> cards) from ``start``.

    Positions not named get the lowest unused cards; the eleven left
    follow. ``stacks`` orders it for an automated shoe (whole stacks).
    """
    pool = full_deck(jokers=1)
    dealt = {p: list(parse_cards(h)) for p, h in (hands or {}).items()}
    for cards in dealt.values():
        for card in cards:
            pool.remove(card)
    for position in range(1, 8):
        if position not in dealt:
            dealt[position] = [pool.pop(0) for _ in range(6)]
    order = clockwise_from(start)
    if stacks:
        deck = [card for p in order for card in dealt[p]]
    else:
        deck = [dealt[order[i % 7]][i // 7] for i in range(42)]
    return deck + pool


def new_round(
    deck: list[Card],
    *,
    start: int | None = 1,
    **rules: object,
) -> SixCardRound:
    """A round on a stacked deck with rule overrides."""
    return SixCardRound(
        rules=SixCardRules.from_mapping(rules),
        shoe=Shoe(deck),
        starting_position=start,
    )


@pytest.fixture(name="deck")
def deck_fixture() -> Callable[..., list[Card]]:
    """The :func:`stacked_deck` builder."""
    return stacked_deck


@pytest.fixture(name="make_round")
def make_round_fixture() -> Callable[..., SixCardRound]:
    """The :func:`new_round` builder."""
    return new_round
