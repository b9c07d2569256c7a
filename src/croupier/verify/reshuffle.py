"""A shoe runs out only when every card has come out (591.7(a), 681a.7(a)).

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

A round that reshuffles after its cover card is not held so: a
scenario's stacked shoe may be only the cards its round deals, and its
record, with or without the stack, is not told from a table's.
"""

from __future__ import annotations

from collections.abc import Mapping

from croupier.events import Shuffled
from croupier.hhf.format import HandHistory
from croupier.registry import GameSpec
from croupier.round import Round

from .explain import Deviation

__all__ = ["reshuffle_problem"]


def reshuffle_problem(
    spec: GameSpec,
    complement: Mapping[str, int],
    rnd: Round,
    history: HandHistory,
) -> Deviation | None:
    """The void for want of cards on a shoe short of its decks, if any.

    ``rnd`` is the replayed round (it says whether the shoe ran out);
    ``complement`` the rules' decks by card.
    """
    if not rnd.shoe_ran_out or history.shoe.irregularity_test:
        return None
    owed = sum(complement.values())
    void_ref = spec.section
    counts: list[object] = []
    for step in history.procedure:
        kind = step.get("type")
        if kind == "round_voided":
            void_ref = str(step.get("ref") or spec.section)
        elif kind == "shuffled":
            counts.append(step.get("cards"))
    if history.shoe.stack is None and history.shoe.discard is not None:
        # the cards the record shows: the replay gathered exactly those
        counts += [e.cards for e in rnd.events if isinstance(e, Shuffled)]
    short = [n for n in counts if n != owed]
    if not short:
        return None
    return Deviation(
        void_ref,
        f"the round is void because the shoe ran out, but its reshuffle "
        f"gathers {short[0]!r} cards where the rules' decks hold {owed}: a "
        f"shoe runs out only when every card has come out, so cards were "
        f"missing from it",
    )
