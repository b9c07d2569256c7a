"""A table: one game, its Rules Submission, its shoe across rounds.

The :class:`Table` owns what outlives a round: the shoe between rounds,
the shoe-level event log (shuffles, cuts, cover cards), and the decision
of when a new shoe is due. Live tables use the CSPRNG; analysis passes a
:class:`~croupier.rng.SeededRng`.

>>> from croupier.registry import find_game
>>> from croupier.rng import SeededRng
>>> table = Table(find_game("21-baccarat"), rng=SeededRng(1))
>>> rnd = table.new_round()
>>> _ = rnd.place_wager(1, "player", 1000)
>>> _ = rnd.deal()
>>> rnd.is_over
True
>>> table.finish_round(rnd)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from croupier.errors import ProcedureError
from croupier.events import EventLog, Shuffled
from croupier.procedures.shoe_games import insert_cover_card_at_penetration
from croupier.registry import GameSpec
from croupier.regs import Ref
from croupier.rng import Rng, SecureRng
from croupier.round import Round
from croupier.rules import GameRules, carried_options
from croupier.shoe import CoverCard, Shoe

__all__ = ["Table", "default_prepare_shoe", "place_cover_card"]


SHUFFLE_REFS: dict[str, Ref] = {
    "591.7": Ref.parse("591.7(a)"),
    "629a.5": Ref.parse("629a.5(a)"),
    "681a.7": Ref.parse("681a.7(a)"),
}
"""The subsection a shuffle cites, per dealing section (literal refs)."""


def default_prepare_shoe(
    rules: GameRules,
    shoe: Shoe,
    rng: Rng,
    log: EventLog,
    occupied_seats: tuple[int, ...],
    section: str,
) -> None:
    """Shuffle, then place the cover card at ``rules.penetration``.

    The shuffle and cut sections of Double Back Jack (673a.5) and 21
    Baccarat (681a.5) were not available; this is the project's reading
    (ASSUMED), citing subsection (a) of the dealing section, which places
    the stack in the shoe "once the shuffle and cut are completed".
    """
    shoe.shuffle(rng)
    described = rng.describe()
    seed = described.get("seed")
    log.emit(
        Shuffled,
        ref=SHUFFLE_REFS[section],
        source=str(described["kind"]),
        cards=len(shoe),
        seed=seed if isinstance(seed, int) else None,
    )
    place_cover_card(rules, shoe, log, section)


def place_cover_card(
    rules: GameRules, shoe: Shoe, log: EventLog, section: str
) -> None:
    """Place the cover card at ``rules.penetration`` (the cut, ASSUMED)."""
    penetration = getattr(rules, "penetration", None)
    if isinstance(penetration, Fraction):
        insert_cover_card_at_penetration(shoe, log, section, penetration)


class Table:
    """One gaming table: a game, its rules and a shoe that lasts."""

    def __init__(
        self,
        spec: GameSpec,
        rules: GameRules | None = None,
        *,
        rng: Rng | None = None,
    ) -> None:
        self.spec = spec
        """The game dealt at this table."""
        self.rules: GameRules = (
            rules if rules is not None else spec.rules_type()
        )
        """The Rules Submission in force."""
        self.rng: Rng = rng if rng is not None else SecureRng()
        """Shuffle randomness: the CSPRNG unless analysis seeds it."""
        self.log = EventLog()
        """Shoe-level events: shuffles, cuts, cover cards."""
        self.shoe: Shoe | None = None
        """The current shoe, ``None`` before the first."""
        self._new_shoe_due = True
        self._current: Round | None = None

    def _prepare(self, occupied_seats: tuple[int, ...]) -> Shoe:
        if self.shoe is None or self.shoe.set_aside:
            # First shoe, or the deck was removed from the table (670a.9(e)).
            shoe = self.spec.new_shoe(self.rules, self.rng)
        else:
            shoe = self.shoe
            shoe.gather()
        if self.spec.prepare_shoe is not None:
            self.spec.prepare_shoe(
                self.rules, shoe, self.rng, self.log, occupied_seats
            )
        else:
            default_prepare_shoe(
                self.rules,
                shoe,
                self.rng,
                self.log,
                occupied_seats,
                self.spec.section,
            )
        return shoe

    def new_round(
        self,
        *,
        occupied_seats: Iterable[int] = (),
        starting_position: int | None = None,
    ) -> Round:
        """Start the next round, preparing a new shoe when one is due."""
        if self._current is not None and not self._current.is_over:
            msg = "the current round is not finished"
            raise ProcedureError(msg)
        new_shoe = self._new_shoe_due or self.spec.reshuffle_every_round
        if new_shoe and self._reshuffled_by_round():
            self._cut_reshuffled_stack()
        elif new_shoe:
            self.shoe = self._prepare(tuple(sorted(occupied_seats)))
        if self.shoe is None:  # pragma: no cover - prepared above
            msg = "no shoe at the table"
            raise ProcedureError(msg)
        self._current = self.spec.new_round(
            rules=self.rules,
            shoe=self.shoe,
            rng=self.rng,
            new_shoe=new_shoe,
            starting_position=starting_position,
        )
        self._new_shoe_due = False
        return self._current

    def _reshuffled_by_round(self) -> bool:
        """Whether the last round already reshuffled (591.7(d)).

        A round that met the cover card collects and reshuffles every card
        itself (591.7(d)(1)-(2), 681a.7(d)): the discard rack is then
        empty. The next round needs at most the cut and its burn.
        """
        shoe = self.shoe
        return (
            shoe is not None
            and not self.spec.reshuffle_every_round
            and self.spec.prepare_shoe is None
            and not shoe.discard
            and not shoe.set_aside
        )

    def _cut_reshuffled_stack(self) -> None:
        """Cut a stack the round reshuffled: place its cover card.

        Nothing happens if the round placed one itself; the cards are not
        shuffled a second time.
        """
        shoe = self.shoe
        if shoe is None or any(
            isinstance(item, CoverCard) for item in shoe.stack
        ):
            return
        place_cover_card(self.rules, shoe, self.log, self.spec.section)

    def adopt(self, rnd: Round) -> None:
        """Go on with ``rnd``, rebuilt elsewhere: its shoe is the table's.

        A server process that takes over a table in the middle of a shoe
        rebuilds the round in play on the stack and discard rack stored
        when it began; the table then deals on from that shoe rather
        than shuffling a new one.
        """
        if self._current is not None and not self._current.is_over:
            msg = "the current round is not finished"
            raise ProcedureError(msg)
        self.shoe = rnd.shoe
        self._current = rnd
        self._new_shoe_due = False

    def carry(self, rnd: Round) -> None:
        """Take the round's carried state into the rules in force.

        A progressive meter the round grew or paid is the next round's
        starting meter (:meth:`croupier.round.Round.carried`, D23).
        """
        self._take(rnd.carried())

    def carry_from(self, rules: GameRules) -> None:
        """Take the carried options of ``rules`` (a voided round's own).

        A round voided before it settled left the table's state where it
        began (:func:`croupier.rules.carried_options`, D68).
        """
        self._take(
            {key: getattr(rules, key) for key in carried_options(type(rules))}
        )

    def _take(self, changes: dict[str, object]) -> None:
        """The rules in force with ``changes``, when any of them changes."""
        if any(getattr(self.rules, k) != v for k, v in changes.items()):
            self.rules = replace(self.rules, **changes)

    def finish_round(self, rnd: Round) -> None:
        """Record the end of a round; a cover card makes a new shoe due.

        So does a shoe that ran out (D69), which the round reshuffled.
        """
        if not rnd.is_over:
            msg = "the round is not finished"
            raise ProcedureError(msg)
        # (its chips and cards were accounted for as it ended: D193)
        self.carry(rnd)
        if rnd.cover_card_reached or rnd.shoe_ran_out:
            self._new_shoe_due = True
