"""591.7(c), 681a.7(c), D69: a new dealer's burn on an empty shoe.

A new dealer burns one card before the deal. On a shoe with no card
left (the cards all in the rack, a cover card on top or not) there is
none to burn: the burn is refused, citing the rule that every card
comes from the dealing shoe ((a)), and changes nothing; the deal then
finds the shoe empty and voids the round (D69): every wager goes back,
and the whole deck is shuffled back into the shoe.
"""

from __future__ import annotations

import pytest

from croupier.cards import full_deck
from croupier.errors import ShoeExhaustedError
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.shoe import Shoe


def _empty(cover_card: bool) -> Shoe:
    """One deck, every card in the rack; ``cover_card``: one on top."""
    shoe = Shoe.stacked("", discard=" ".join(map(str, full_deck())))
    if cover_card:
        shoe.insert_cover_card(0)
    return shoe


@pytest.mark.parametrize("cover_card", [False, True])
@pytest.mark.parametrize(
    ("game", "wagers", "ref"),
    [
        ("double-back-jack", [(1, "blackjack", 1000)], "591.7(a)"),
        ("21-baccarat", [(1, "player", 1000), (2, "tie", 500)], "681a.7(a)"),
    ],
)
@pytest.mark.proves("591.7(a)", "591.7(c)", "681a.7(a)", "681a.7(c)")
def test_591_7_c_a_new_dealer_on_an_empty_shoe_is_refused_then_voids(
    game: str,
    wagers: list[tuple[int, str, int]],
    ref: str,
    cover_card: bool,
) -> None:
    spec = find_game(game)
    rnd = spec.new_round(
        rules=spec.rules_type.from_mapping({"decks": 1}),
        shoe=_empty(cover_card),
        rng=SeededRng(1),
        new_shoe=False,
        starting_position=None,
    )
    for seat, wager, amount in wagers:
        rnd.place_wager(seat, wager, amount)

    def state() -> tuple[object, ...]:
        return (
            rnd.shoe.notation(),
            rnd.shoe.discard_notation(),
            rnd.shoe.covers_aside,
            len(rnd.events),
            rnd.phase,
            dict(rnd.ledger.stakes),
            getattr(rnd, "cover_card_reached"),  # noqa: B009
        )

    before = state()
    change = getattr(rnd, "change_dealer")  # noqa: B009
    assert not getattr(rnd, "can_change_dealer")()  # noqa: B009
    with pytest.raises(ShoeExhaustedError) as refused:
        change()
    assert str(refused.value.ref) == ref
    # the refusal changed nothing: a cover card on top is still there
    assert state() == before
    rnd.deal()
    assert rnd.is_over
    assert rnd.shoe_ran_out
    assert getattr(rnd, "cover_card_reached") is cover_card  # noqa: B009
    # every wager back at net 0; the whole deck back in the shoe
    assert sorted(
        (s.key.seat, str(s.key.wager), s.amount, s.outcome.value, s.net)
        for s in rnd.settlements
    ) == sorted((seat, w, a, "void", 0) for seat, w, a in wagers)
    assert len(rnd.shoe) == 52
    assert rnd.shoe.discard == []
