"""Round records and replay: rebuild any round from its inputs.

A :class:`RoundRecord` holds what went into a round (game, rules, the
stack as it stood, wagers and decisions in order) and what came out (its
events and settlements). Its inputs are exactly a scenario document, so
:func:`replay` re-runs them through the engine and checks that the same
events and settlements come out again (591.7(u), 681a.7(l): every hand
can be reconstructed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from croupier.errors import WrongPhaseError
from croupier.registry import find_game
from croupier.regs import implements
from croupier.rng import SeededRng
from croupier.round import Action, Round
from croupier.shoe import Shoe

__all__ = [
    "Recorder",
    "ReplayResult",
    "RoundRecord",
    "change_dealer",
    "replay",
]


@dataclass(slots=True, kw_only=True)
class RoundRecord:
    """Inputs and outputs of one round, serialisable to JSON."""

    game: str
    """Registry name of the game."""
    rules: dict[str, object]
    """The Rules Submission options in force (full form)."""
    shoe: str
    """The stack when the round began, top first (cover cards ``CC``)."""
    new_shoe: bool
    """Whether the round ran the new-shoe burn."""
    discard: str = ""
    """The discard rack when the round began (a reshuffle gathers it)."""
    starting_position: int | None = None
    """The starting position, for games that determine one."""
    wagers: list[dict[str, Any]] = field(default_factory=list)
    """Wagers placed before the deal, in order."""
    decisions: list[dict[str, Any]] = field(default_factory=list)
    """Decisions, in order."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """The events the round emitted."""
    settlements: list[dict[str, Any]] = field(default_factory=list)
    """The settlements, in the dealer's order."""

    def to_scenario(self) -> dict[str, object]:
        """The inputs as a scenario document (``croupier scenario``)."""
        doc: dict[str, object] = {
            "game": self.game,
            "rules": self.rules,
            "shoe": self.shoe,
            "new_shoe": self.new_shoe,
            "wagers": self.wagers,
            "decisions": self.decisions,
        }
        if self.starting_position is not None:
            doc["starting_position"] = self.starting_position
        return doc

    def dumps(self) -> str:
        """JSON text of the whole record."""
        return json.dumps(
            {
                **self.to_scenario(),
                "starting_position": self.starting_position,
                "discard": self.discard,
                "events": self.events,
                "settlements": self.settlements,
            }
        )

    @classmethod
    def loads(cls, text: str) -> RoundRecord:
        """Rebuild a record from :meth:`dumps` output."""
        data = json.loads(text)
        return cls(
            game=data["game"],
            rules=data["rules"],
            shoe=data["shoe"],
            new_shoe=data["new_shoe"],
            discard=data.get("discard", ""),
            starting_position=data.get("starting_position"),
            wagers=data["wagers"],
            decisions=data["decisions"],
            events=data["events"],
            settlements=data["settlements"],
        )


def change_dealer(rnd: Round) -> None:
    """A new dealer's burn before the deal, in a game that has one.

    Double Back Jack and 21 Baccarat burn one card when a new dealer
    comes to the table (591.7(c), 681a.7(c)); a game without that burn
    refuses it, citing no rule of its own. A shoe with no card left is
    refused too, changing nothing (591.7(a), 681a.7(a)): the deal then
    voids the round (D69).
    """
    change = getattr(rnd, "change_dealer", None)
    if change is None:
        msg = "this game burns no card for a new dealer"
        raise WrongPhaseError(msg)
    change()


class Recorder:
    """Drives a round and records its inputs, for storage and replay."""

    def __init__(
        self, game: str, rnd: Round, *, starting_position: int | None = None
    ) -> None:
        self.round = rnd
        """The round being recorded."""
        self.record = RoundRecord(
            game=game,
            rules=rnd.rules.to_dict(),
            shoe=rnd.initial_stack,
            new_shoe=rnd.new_shoe,
            discard=rnd.initial_discard,
            starting_position=starting_position,
        )
        """The record, updated as the round goes."""
        self._event_dicts: list[dict[str, Any]] = []

    def place_wager(
        self, seat: int, wager: str, amount: int, player: str | None = None
    ) -> None:
        """Place a wager and record it.

        ``player`` names who plays the box (one player's several boxes:
        673a.6(e), D23); the record's player entries say it
        (``from_record``'s ``owners``).
        """
        self.round.place_wager(seat, wager, amount, player)
        self.record.wagers.append(
            {"seat": seat, "wager": wager, "amount": amount}
        )

    def change_wager(self, seat: int, wager: str, amount: int) -> None:
        """Change a wager before the deal (0 takes it back) and record it.

        The record keeps it in :attr:`RoundRecord.wagers`, in order, as
        ``{"seat", "wager", "amount", "change": true}``.
        """
        self.round.change_wager(seat, wager, amount)
        self.record.wagers.append(
            {"seat": seat, "wager": wager, "amount": amount, "change": True}
        )

    def change_dealer(self) -> None:
        """A new dealer burns a card before the deal, recorded in order.

        The record keeps it in :attr:`RoundRecord.wagers` as
        ``{"new_dealer": true}`` (591.7(c), 681a.7(c)); a game without
        the burn refuses it.
        """
        change_dealer(self.round)
        self.record.wagers.append({"new_dealer": True})

    def deal(self) -> None:
        """Close wagering and deal."""
        self.round.deal()
        self._sync()

    def apply(self, action: Action) -> None:
        """Apply a decision and record it."""
        self.round.apply(action)
        decision: dict[str, object] = {
            "seat": action.seat,
            "action": action.name,
        }
        if action.amount is not None:
            decision["amount"] = action.amount
        if action.card is not None:
            decision["low"] = str(action.card)
        self.record.decisions.append(decision)
        self._sync()

    def event_dicts(self) -> list[dict[str, Any]]:
        """Every event of the round so far in JSON form (kept, not redone).

        The round's log is append-only, so each event is converted once;
        the list returned grows as the round goes (do not change it).
        """
        done = self._event_dicts
        events = self.round.events
        if len(events) > len(done):
            done.extend(e.to_dict() for e in events[len(done) :])
        return done

    def _sync(self) -> None:
        # A game that determines its starting position (670a.9(b)) records
        # it on the round; replay must deal from the same position.
        start = getattr(self.round, "starting_position", None)
        if isinstance(start, int):
            self.record.starting_position = start
        # Events and settlements are append-only: add only the new ones.
        record = self.record
        events = self.event_dicts()
        if len(record.events) > len(events):  # replaced from outside
            record.events = []
        record.events.extend(events[len(record.events) :])
        settled = self.round.settlements
        if len(record.settlements) > len(settled):
            record.settlements = []
        record.settlements.extend(
            s.to_dict() for s in settled[len(record.settlements) :]
        )


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of a replay."""

    round: Round
    """The rebuilt round."""
    differences: tuple[str, ...]
    """Where the replay differs from the record (empty: identical)."""

    @property
    def ok(self) -> bool:
        """Whether the replay reproduced the record exactly."""
        return not self.differences


_RANDOM_SOURCE_FIELDS: dict[str, tuple[str, ...]] = {
    "shuffled": ("source", "seed", "cards"),
    "starting_position_determined": ("number", "method"),
}
"""Fields that name where randomness came from, not what it decided: a
replay takes the recorded decision (the stack, the position) as given."""


@implements("591.7(u)", "681a.7(l)")
def replay(record: RoundRecord) -> ReplayResult:
    """Re-run a round's inputs and compare events and settlements.

    A replay takes the recorded stack and starting position as given, so
    the fields that only say where randomness came from (the stream of a
    reshuffle, the RNG draw of a starting position) are not compared.
    """
    spec = find_game(record.game)
    rules = spec.rules_type.from_mapping(record.rules)
    shoe = Shoe.stacked(record.shoe, discard=record.discard)
    rnd = spec.new_round(
        rules=rules,
        shoe=shoe,
        rng=SeededRng(0),
        new_shoe=record.new_shoe,
        starting_position=record.starting_position,
    )
    for wager in record.wagers:
        if wager.get("new_dealer"):
            change_dealer(rnd)
            continue
        verb = rnd.change_wager if wager.get("change") else rnd.place_wager
        verb(wager["seat"], wager["wager"], wager["amount"])
    rnd.deal()
    for decision in record.decisions:
        rnd.apply(Action.from_dict(decision))
    differences: list[str] = []
    events = [e.to_dict() for e in rnd.events]
    if len(events) != len(record.events):
        differences.append(
            f"{len(events)} events replayed, {len(record.events)} recorded"
        )
    for got, want in zip(events, record.events, strict=False):
        loose = _RANDOM_SOURCE_FIELDS.get(str(want.get("type")), ())
        same = {k: v for k, v in got.items() if k not in loose} == {
            k: v for k, v in want.items() if k not in loose
        }
        if not same:
            differences.append(f"event {want.get('seq')}: {want} != {got}")
    settlements = [s.to_dict() for s in rnd.settlements]
    if settlements != record.settlements:
        differences.append(
            f"settlements differ: {record.settlements} != {settlements}"
        )
    return ReplayResult(rnd, tuple(differences))
