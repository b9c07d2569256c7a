"""A reshuffle gathers the whole shoe (591.7(d), 681a.7(d), 629a.5(a)).

A Double Back Jack or 21 Baccarat round voided because the shoe had no
card left (D69) collects every card and reshuffles them (591.7(d),
681a.7(d)). The replay shuffles the cards it knows of, so the record's
own count of the cards shuffled is held to the rules' decks (D72): the
scenario runner refuses a stacked shoe too short for its round, so a
smaller count is a shoe with cards missing, or a void that could not
have happened. A record without its stack that gives its discard rack
shows every card the reshuffle gathers (the rack, the round's cards);
the replay's count of those must be the decks too, whatever count the
record writes.

A round that reshuffles after its cover card is held so only when its
record says that its shoe is the table's whole shoe (``shoe.whole``,
CHH 1.1, D75): a scenario's stacked shoe may be only the cards its round
deals, and without the field its record is not told from a table's.
With it, the reshuffle at the cover card (591.7(d)(2), 681a.7(d)(2))
counts the rules' decks, as the void's does; and a stacked record that
begins the shoe a reshuffle in the round before made holds the rules'
decks in its stack and rack (:func:`dealt_whole_problem`). A shuffle in
a round's preparation (Midibaccarat's reshuffle, 629a.5(a); any game's
new shoe) is held to the decks whatever the record says (D65).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from croupier.events import Shuffled
from croupier.hhf.format import HandHistory
from croupier.jsontypes import json_text
from croupier.procedures.shoe_games import SHOE_REFS
from croupier.registry import GameSpec
from croupier.round import Round

from .explain import Deviation

__all__ = [
    "counts_reshuffle",
    "dealt_whole_problem",
    "listed_cards",
    "reshuffle_problem",
    "shortfall",
]


def counts_reshuffle(rnd: Round, history: HandHistory) -> bool:
    """Whether :func:`reshuffle_problem` has a shuffle of ``rnd`` to count.

    A void for want of cards (D72); for a record that says its shoe is
    whole, a reshuffle at the cover card (D75). Most rounds have none:
    the caller asks this first (a call of that function for every round
    of a whole shoe, with the complement looked up, cost 0.4 %).
    """
    return rnd.shoe_ran_out or (history.shoe.whole and rnd.cover_card_reached)


def reshuffle_problem(
    spec: GameSpec,
    complement: Mapping[str, int],
    rnd: Round,
    history: HandHistory,
) -> Deviation | None:
    """A reshuffle of fewer cards than the rules' decks, if any.

    ``rnd`` is the replayed round (it says whether the shoe ran out or
    the cover card came out); ``complement`` the rules' decks by card.
    The void for want of cards is held so always (D72); the reshuffle
    at the cover card only when the record says its shoe is whole
    (D75). Any other round is passed at once (:func:`counts_reshuffle`).
    (A shuffle in the preparation is held to the decks by D65, the
    stack recorded or not.)
    """
    shoe = history.shoe
    if shoe.irregularity_test or not counts_reshuffle(rnd, history):
        return None
    ran_out = rnd.shoe_ran_out
    owed = sum(complement.values())
    ref = spec.section
    counts: list[object] = []
    for step in history.procedure:
        kind = step.get("type")
        if kind == "round_voided":
            ref = str(step.get("ref") or spec.section)
        elif kind == "shuffled":
            counts.append(step.get("cards"))
    replayed = [e for e in rnd.events if isinstance(e, Shuffled)]
    if shoe.stack is None and shoe.discard is not None:
        # the cards the record shows: the replay gathered exactly those
        counts += [e.cards for e in replayed]
    short = [n for n in counts if n != owed]
    if not short:
        return None
    if ran_out:
        return Deviation(
            ref,
            f"the round is void because the shoe ran out, but its "
            f"reshuffle gathers {json_text(short[0])} cards where the rules' "
            f"decks "
            f"hold {owed}: a shoe runs out only when every card has come "
            f"out, so cards were missing from it",
        )
    # the engine's own citation of its reshuffle (591.7(d)(2), ...)
    ref = str(replayed[0].ref) if replayed else spec.section
    what = (
        f"the cover card came out and the reshuffle gathers "
        f"{json_text(short[0])}"
    )
    return _short(ref, f"{what} cards", owed)


def _short(ref: str, what: str, owed: int) -> Deviation:
    """The deviation of a whole shoe's shuffle short of the decks (D75)."""
    return Deviation(
        ref,
        f"{what}, but the record says its shoe is the table's whole shoe "
        f"(shoe.whole) and the rule shuffles every card of it: the rules' "
        f"decks hold {owed}, so cards were missing from it",
    )


def dealt_whole_problem(
    spec: GameSpec,
    complement: Mapping[str, int],
    counts: Mapping[str, int],
    history: HandHistory,
) -> Deviation | None:
    """A whole shoe, reshuffled in the round before, that is short (D75).

    For a stacked record that says its shoe is whole and begins a new
    shoe that its preparation does not shuffle (a Double Back Jack or
    21 Baccarat round after the one that reshuffled at its cover card):
    ``counts`` (the stack's and rack's tokens, ``CC`` among them, none
    too often) must be the rules' decks. The caller calls only then.
    """
    refs = SHOE_REFS.get(spec.section)  # the games that reshuffle in play
    if refs is None or history.shoe.irregularity_test:
        return None
    short = shortfall(complement, counts)
    if short is None:
        return None
    held, missing = short
    return _short(
        str(refs.reshuffle),
        f"the new shoe's stack and discard rack hold {held} cards "
        f"(missing {missing})",
        sum(complement.values()),
    )


def shortfall(
    complement: Mapping[str, int], counts: Mapping[str, int]
) -> tuple[int, str] | None:
    """How many cards ``counts`` holds and which it lacks, when short.

    ``counts`` holds no card more often than ``complement`` (the rules'
    decks) and may count cover cards (``CC``, not cards): ``None`` when
    it holds every card of the decks, else its card count and the
    missing cards, the first five. D65's freshly shuffled shoe and
    D75's whole shoe after a reshuffle are both held so.

    >>> shortfall({"As": 2, "Kd": 1, "7c": 1}, {"As": 1, "7c": 1, "CC": 1})
    (2, '1 x As, 1 x Kd')
    >>> shortfall({"As": 1}, {"As": 1, "CC": 2}) is None
    True
    """
    held = sum(counts.values()) - counts.get("CC", 0)
    if held == sum(complement.values()):
        return None
    return held, listed_cards(Counter(complement) - Counter(counts))


def listed_cards(counts: Mapping[str, int]) -> str:
    """Cards counted, in card order, the first five, then how many more.

    >>> listed_cards({"Kd": 1, "As": 2})
    '2 x As, 1 x Kd'
    >>> listed_cards(dict.fromkeys("ABCDEFG", 1))
    '1 x A, 1 x B, 1 x C, 1 x D, 1 x E and 2 more'
    """
    cards = sorted(counts.items())
    listed = ", ".join(f"{n} x {card}" for card, n in cards[:5])
    more = "" if len(cards) <= 5 else f" and {len(cards) - 5} more"
    return listed + more
