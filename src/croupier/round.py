"""The round: the base of every game's state machine.

A game's round is a mutable state machine with an explicit ``phase``
(an enum per game), driven by validated verbs that return the frozen
events they append to :attr:`Round.log`. Rounds run the dealer's chores
themselves and stop only where a player must decide; :meth:`pending`
says who, and :meth:`apply` takes the decision.

The base class carries what every game shares: the shoe, the event log,
the ledger of wagers, dealing with the cover-card rule, settling with its
citation, and the conservation checks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from croupier.cards import Card
from croupier.errors import WagerError, WrongPhaseError
from croupier.events import (
    CardDealt,
    CoverCardReached,
    Event,
    EventLog,
    PhaseEntered,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
)
from croupier.money import Ledger, Outcome, Settlement, WagerKey
from croupier.regs import Ref
from croupier.rng import Rng, SecureRng
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = ["Action", "Pending", "Round"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """A player's decision, as the scenario contract spells it."""

    seat: int
    """The seat deciding."""
    name: str
    """The action (``hit``, ``stand``, ``set``...)."""
    amount: int | None = None
    """An amount, for actions that wager (double, insurance...)."""
    card: Card | None = None
    """A card, for actions that name one (the pai gow low hand)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Build from a scenario decision ``{"seat": 1, "action": ...}``."""
        low = data.get("low", data.get("card"))
        return cls(
            seat=int(data["seat"]),
            name=str(data["action"]),
            amount=None if data.get("amount") is None else int(data["amount"]),
            card=None if low is None else Card.parse(str(low)),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Pending:
    """The decision the round waits for."""

    seat: int
    """The seat to act."""
    hand: int
    """The hand at that seat (split hands)."""
    legal: tuple[str, ...]
    """The legal action names."""
    ref: Ref
    """The subsection that asks for the decision."""

    def to_dict(self) -> dict[str, object]:
        """The scenario-contract form."""
        out: dict[str, object] = {"seat": self.seat, "legal": list(self.legal)}
        if self.hand:
            out["hand"] = self.hand
        out["ref"] = str(self.ref)
        return out


class Round(ABC):
    """Base of every game's round.

    Subclasses set :attr:`game` and :attr:`cover_card_ref` and implement
    the abstract methods.
    """

    game: ClassVar[str]
    """The game's registry name."""
    cover_card_ref: ClassVar[Ref | None] = None
    """The subsection of the cover-card rule, if the game has one."""
    wager_names: ClassVar[tuple[str, ...]] = ()
    """Wagers that may be placed before the deal."""

    def __init__(
        self,
        *,
        rules: GameRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
    ) -> None:
        self.rules = rules
        """The Rules Submission in force."""
        self.shoe = shoe
        """The shoe (or deck) the round is dealt from."""
        self.rng: Rng = rng if rng is not None else SecureRng()
        """Randomness for reshuffles: a CSPRNG unless a seeded one is given."""
        self.new_shoe = new_shoe
        """Whether the new-shoe burn runs before the first deal."""
        self.log = EventLog()
        """The append-only event record of the round."""
        self.ledger = Ledger()
        """Every wager of the round and its settlement."""
        self.cover_card_reached = False
        """Whether the cover card came out (reshuffle after the round)."""
        self.initial_stack = shoe.notation()
        """The shoe as it stood when the round began (for replay)."""
        self.initial_discard = shoe.discard_notation()
        """The discard rack when the round began (for replay)."""

    # -- the interface every game implements --------------------------

    @property
    @abstractmethod
    def phase(self) -> StrEnum:
        """The current phase."""

    @abstractmethod
    def place_wager(self, seat: int, wager: str, amount: int) -> WagerPlaced:
        """Place a wager before the deal."""

    @abstractmethod
    def deal(self) -> list[Event]:
        """Close wagering and run the procedure to the first decision."""

    @abstractmethod
    def pending(self) -> Pending | None:
        """The decision the round waits for, or ``None``."""

    @abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Apply a decision; refuse it, state unchanged, if illegal."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether every wager is settled and the cards are cleared."""

    @abstractmethod
    def table_cards(self) -> list[Card]:
        """Cards on the layout now (not in the shoe or discard rack)."""

    @abstractmethod
    def hands(self) -> dict[str, list[str]]:
        """Every hand's cards in notation, for the scenario output."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or, for ``None``, a spectator) may see now."""

    # -- changing a wager before the deal ------------------------------

    def change_wager(self, seat: int, wager: str, amount: int) -> WagerChanged:
        """Raise, lower or (``amount`` 0) take back a wager before the deal.

        At a real table a player adds chips to a wager, takes some back,
        or takes the wager back, until the dealer closes wagering; the
        round records that as one :class:`WagerChanged` event citing the
        subsection under which the wager was placed, and the ledger holds
        the new stake (D34). The game's own limits apply to the new stake
        (:meth:`verify_wager_change`); a refusal changes nothing.
        """
        key = WagerKey(seat, wager)
        ref = self._placed_ref(key)
        self.verify_wager_change(key, amount, ref)
        previous = self.ledger.stakes[key]
        self.ledger.change(key, amount)
        if amount == 0:
            self._wager_taken_back(key)
        return self.log.emit(
            WagerChanged,
            ref=ref,
            seat=seat,
            wager=wager,
            amount=amount,
            previous=previous,
            hand=0,
        )

    def verify_wager_change(
        self, key: WagerKey, amount: int, ref: Ref
    ) -> None:
        """Raise unless the open wager ``key`` may become ``amount`` now.

        Every game: only while wagers are taken (the ``wagering`` phase)
        and never below zero. Games add their own limits.
        """
        if self.phase.value != "wagering":
            msg = (
                f"seat {key.seat}'s {key.wager} wager can no longer be "
                f"changed: wagering is closed"
            )
            raise WrongPhaseError(msg, ref=ref)
        if amount < 0:
            msg = f"a wager cannot be negative, not {amount}"
            raise WagerError(msg, ref=ref)

    def _wager_taken_back(self, key: WagerKey) -> None:
        """Forget a wager taken back (games holding more state extend it)."""
        del key  # the ledger alone holds the wagers of most games

    def _placed_ref(self, key: WagerKey) -> Ref:
        """The subsection the open wager ``key`` was placed under."""
        if not self.ledger.is_open(key):
            msg = f"seat {key.seat} has no {key.wager} wager to change"
            raise WagerError(msg)
        for event in reversed(self.log.events):
            if (
                isinstance(event, WagerPlaced)
                and event.seat == key.seat
                and event.wager == key.wager
            ):
                return event.ref
        msg = f"seat {key.seat}'s {key.wager} wager was never placed"
        raise WagerError(msg)  # pragma: no cover - the ledger has it

    # -- shared machinery ----------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        """The events so far."""
        return self.log.events

    @property
    def settlements(self) -> list[Settlement]:
        """Settlements in the order the dealer made them."""
        return list(self.ledger.settlements.values())

    def legal_actions(self) -> tuple[str, ...]:
        """The legal action names for the seat to act (empty if none)."""
        pending = self.pending()
        return () if pending is None else pending.legal

    def verify_conservation(self) -> None:
        """Raise if a card is lost or duplicated anywhere."""
        self.shoe.verify_conservation(on_table=self.table_cards())

    def _enter(self, phase: StrEnum, ref: Ref) -> None:
        self.log.emit(PhaseEntered, ref=ref, phase=phase.value)

    def _draw(self) -> Card:
        """Take the next card, applying the cover-card rule if it shows."""
        return self.shoe.draw(on_cover_card=self._on_cover_card)

    def _on_cover_card(self) -> None:
        self.cover_card_reached = True
        if self.cover_card_ref is not None:
            self.log.emit(CoverCardReached, ref=self.cover_card_ref)

    def _deal_to(
        self,
        to: str,
        ref: Ref,
        *,
        face_up: bool = True,
        hand: int = 0,
        purpose: str = "",
    ) -> Card:
        card = self._draw()
        self.log.emit(
            CardDealt,
            ref=ref,
            to=to,
            card=card,
            face_up=face_up,
            hand=hand,
            purpose=purpose,
        )
        return card

    def _record_wager(
        self, key: WagerKey, amount: int, ref: Ref
    ) -> WagerPlaced:
        self.ledger.place(key, amount)
        return self.log.emit(
            WagerPlaced,
            ref=ref,
            seat=key.seat,
            wager=key.wager,
            amount=amount,
            hand=key.hand,
        )

    def _settle(
        self,
        key: WagerKey,
        outcome: Outcome,
        net: int,
        ref: Ref,
        *,
        commission: int = 0,
    ) -> Settlement:
        settlement = Settlement(
            key=key,
            amount=self.ledger.stakes[key],
            outcome=outcome,
            net=net,
            ref=ref,
            commission=commission,
        )
        self.ledger.settle(settlement)
        self.log.emit(
            WagerSettled,
            ref=ref,
            seat=key.seat,
            wager=key.wager,
            amount=settlement.amount,
            outcome=outcome.value,
            net=net,
            hand=key.hand,
            commission=commission,
        )
        return settlement

    def _return_all_open(self, outcome: Outcome, ref: Ref) -> None:
        for key in sorted(self.ledger.open_keys(), reverse=True):
            self._settle(key, outcome, 0, ref)


def cards_text(cards: Iterable[Card]) -> list[str]:
    """Cards as a list of notation strings."""
    return [str(card) for card in cards]
