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
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar, Generic, TypedDict, TypeVar

from croupier.cards import Card
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    InvariantError,
    OutOfTurnError,
    ShoeExhaustedError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    CardDealt,
    CoverCardReached,
    Event,
    EventLog,
    PhaseEntered,
    RoundVoided,
    WagerChanged,
    WagerPlaced,
    WagerSettled,
)
from croupier.frozen import frozen_constructor
from croupier.jsontypes import json_text, whole_number
from croupier.money import (
    Ledger,
    Outcome,
    Settlement,
    WagerKey,
    amount_text,
    is_minor_units,
)
from croupier.regs import Ref
from croupier.rng import Rng, SecureRng
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "SHOE_RAN_OUT",
    "Action",
    "GameRound",
    "Pending",
    "PhaseTable",
    "Round",
    "RoundEnvelope",
    "RoundView",
    "StakeRow",
    "StakeView",
    "phase_titles",
]

SHOE_RAN_OUT = "the shoe ran out of cards before the round was complete"
"""The reason a round voided for want of cards gives (D69)."""

PhaseT = TypeVar("PhaseT", bound=StrEnum)
"""A game's phase enum."""
RulesT = TypeVar("RulesT", bound=GameRules)
"""A game's Rules Submission type."""
ActionT = TypeVar("ActionT", bound=StrEnum)
"""A game's action enum."""


def phase_titles(
    phases: Iterable[StrEnum], named: Mapping[str, str] | None = None
) -> Mapping[str, str]:
    """Each phase's words as the web table's narration heads it (D189).

    The id with its words apart and the first capitalized, as
    ``Croupier.phaseName`` writes it ("player_decisions": "Player
    decisions"), but for the names ``named`` gives, those a section
    capitalizes ("Second Chance"): a round's
    :attr:`Round.phase_titles`.

    >>> from enum import StrEnum
    >>> class P(StrEnum):
    ...     DEALER_DRAW = "dealer_draw"
    ...     SECOND_CHANCE = "second_chance"
    >>> dict(phase_titles(P, {P.SECOND_CHANCE: "Second Chance"}))
    {'dealer_draw': 'Dealer draw', 'second_chance': 'Second Chance'}
    """
    named = named or {}
    return MappingProxyType(
        {
            phase.value: named.get(phase)
            or phase.value.replace("_", " ").capitalize()
            for phase in phases
        }
    )


_new_settlement = frozen_constructor(Settlement)
"""``Settlement(**fields)``, faster: every wager of every round is
settled so (:func:`croupier.frozen.frozen_constructor`)."""


def _verify_minor_units(
    amount: object, ref: Ref | None, who: str = ""
) -> None:
    """Refuse an amount that is not an ``int`` (citing ``ref``).

    The type, not only the sign: a ``2500.0`` (or a ``True``) would
    carry a float (or a bool) into the ledger and every settlement
    after it.
    """
    if not is_minor_units(amount):
        msg = (
            f"{who}an amount is a whole number of minor units (an "
            f"integer), not {amount_text(amount)}"
        )
        raise WagerError(msg, ref=ref)


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """A player's decision, as the scenario contract spells it."""

    seat: int
    """The seat deciding."""
    name: str
    """The action as given (``hit``, ``stand``, ``set``...): raw input,
    which the round parses into its game's action enum, refusing a name
    the game does not have."""
    amount: int | None = None
    """An amount, for actions that wager (double, insurance...)."""
    card: Card | None = None
    """A card, for actions that name one (the pai gow low hand)."""

    def __post_init__(self) -> None:
        """Refuse an amount that is not a whole number of minor units."""
        if self.amount is not None:
            _verify_minor_units(
                self.amount, None, f"seat {self.seat}'s {self.name}: "
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Action:
        """Build from a scenario decision ``{"seat": 1, "action": ...}``.

        The action (and a card named) is a JSON string: ``"action":
        null`` is refused as such, never read as the action "None".
        """
        low = data.get("low", data.get("card"))
        amount = data.get("amount")
        action = data["action"]
        if not isinstance(action, str):
            msg = (
                f"a decision's action is a string, not {json_text(action, 60)}"
            )
            raise CroupierError(msg)
        if low is not None and not isinstance(low, str):
            msg = f"a decision's card is a string, not {json_text(low, 60)}"
            raise CroupierError(msg)
        build = _new_action if cls is Action else cls
        return build(
            seat=whole_number(data["seat"], "a decision's seat"),
            name=action,
            amount=None
            if amount is None
            else whole_number(amount, "a decision's amount"),
            card=None if low is None else Card.parse(str(low)),
        )


_new_action = frozen_constructor(Action)
"""``Action(**fields)``, faster: a replay reads every decision of a log
so (:func:`croupier.frozen.frozen_constructor`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pending:
    """The decision the round waits for."""

    seat: int
    """The seat to act."""
    hand: int
    """The hand at that seat (split hands)."""
    legal: tuple[StrEnum, ...]
    """The legal actions, members of the game's action enum."""
    ref: Ref
    """The subsection that asks for the decision."""

    def to_dict(self) -> dict[str, object]:
        """The scenario-contract form."""
        out: dict[str, object] = {
            "seat": self.seat,
            "legal": [action.value for action in self.legal],
        }
        if self.hand:
            out["hand"] = self.hand
        out["ref"] = str(self.ref)
        return out


@dataclass(frozen=True, slots=True)
class PhaseTable(Generic[PhaseT]):
    """A game's phases: where a round starts and every edge it may take.

    Each edge names the subsection(s) under which the round moves along
    it; the first is the one cited unless the step cites another of the
    edge's own (a rule option may decide which subsection deals, say).
    The terminal phases are those with no edge out.

    >>> from enum import StrEnum
    >>> class P(StrEnum):
    ...     A = "a"
    ...     B = "b"
    >>> table = PhaseTable(P.A, {P.A: {P.B: Ref.parse("591.7(e)")}, P.B: {}})
    >>> table.refs(P.A, P.B), table.terminal
    ((Ref.parse('591.7(e)'),), frozenset({<P.B: 'b'>}))
    """

    start: PhaseT
    """The phase a new round is in."""
    edges: Mapping[PhaseT, Mapping[PhaseT, Ref | tuple[Ref, ...]]]
    """Every phase's legal successors, each with its citation(s)."""
    start_ref: Ref | None = None
    """The subsection cited on entering :attr:`start` (``None``: the
    round begins in it without a ``phase_entered`` event)."""

    def refs(self, source: PhaseT, target: PhaseT) -> tuple[Ref, ...]:
        """The citations of the edge ``source`` -> ``target`` (or none)."""
        cited = self.edges[source].get(target, ())
        return (cited,) if isinstance(cited, Ref) else cited

    @property
    def terminal(self) -> frozenset[PhaseT]:
        """The phases a round ends in."""
        return frozenset(p for p, out in self.edges.items() if not out)


class RoundView(TypedDict):
    """The envelope every view starts with: the game and its phase."""

    game: str
    """The game's registry name."""
    phase: str
    """The current phase."""


class StakeView(TypedDict):
    """One stake on the layout, as a view lists it."""

    seat: int
    """The seat."""
    wager: str
    """The wager."""
    amount: int
    """The stake in minor units."""


class StakeRow(TypedDict):
    """One stake of the round's ledger, open or settled."""

    seat: int
    """The seat."""
    wager: str
    """The wager."""
    hand: int
    """The hand at the seat (split hands)."""
    amount: int
    """The stake in minor units."""
    open: bool
    """Whether it is still to be settled."""


class RoundEnvelope(TypedDict):
    """The one shape every game's round is shown in.

    The same for every game: the phase, the decision awaited, every
    stake and every settlement of the public record; the game's own
    layout, as the viewing seat may see it, is :attr:`layout`, in the
    shape the game has always published (D55).
    """

    game: str
    """The game's registry name."""
    phase: str
    """The current phase."""
    seat: int | None
    """The seat viewing (``None``: a spectator)."""
    pending: dict[str, object] | None
    """The decision the round waits for (scenario-contract form)."""
    layout: RoundView
    """The game's view for :attr:`seat`."""
    stakes: list[StakeRow]
    """Every stake, in the order placed."""
    settlements: list[dict[str, object]]
    """Every settlement, in the order made."""


class Round(ABC):
    """Base of every game's round: the interface tables and tools use.

    Games derive from :class:`GameRound`, which adds the typed rules,
    the phase table and the shared verifications.

    Subclasses set :attr:`game` and :attr:`cover_card_ref` and implement
    the abstract methods.
    """

    game: ClassVar[str]
    """The game's registry name."""
    cover_card_ref: ClassVar[Ref | None] = None
    """The subsection of the cover-card rule, if the game has one."""
    wager_names: ClassVar[tuple[str, ...]] = ()
    """Wagers that may be placed before the deal."""
    seats_ref: ClassVar[Ref]
    """The subsection that numbers the table's betting positions: a seat
    outside them is refused citing it, by the round and by the server
    that seats a player (D199)."""
    offered_ref: ClassVar[Ref]
    """The subsection a wager the game does not offer is refused under,
    by the round and by the server that takes the wager (D199)."""
    wager_titles: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Each wager's name as the game's section writes it, by its id
    (``"banker"``: ``"Banker Wager"``), from the game's rules module: the
    words a refusal names a wager in (:meth:`wager_title`, D187)."""
    action_titles: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Each decision's words as the web table's button shows it, by its
    id (``"no_insurance"``: ``"No insurance"``), from the module of the
    game's action enum: the words a refusal names a decision in
    (:meth:`action_title`, D189)."""
    phase_titles: ClassVar[Mapping[str, str]] = MappingProxyType({})
    """Each phase's words as the table's narration heads it, by its id
    (``"player_decisions"``: ``"Player decisions"``), from the module of
    the game's phase enum: the words a refusal names a phase in
    (:meth:`phase_title`, D189)."""
    shoe_ran_out: bool = False
    """Whether the shoe had no card for a step and the round was void (D69).

    A class default, set on the round only when it happens: CPython reads
    an object's attributes from its class's shared-key table (fast) only
    while it has few of them; a Double Back Jack round holds 28 after its
    decisions, and as a 30th this flag cost a verified round 2 % more
    instructions (``tests/foundation/test_round_attributes.py``)."""

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
        # the round's most frequent events, emitted without passing the
        # fields on (:meth:`EventLog.emitter`, the same events)
        self._emit_dealt = self.log.emitter(CardDealt)
        self._emit_phase = self.log.emitter(PhaseEntered)
        self._emit_settled = self.log.emitter(WagerSettled)
        self._emit_placed = self.log.emitter(WagerPlaced)
        self.ledger = Ledger()
        """Every wager of the round and its settlement."""
        self.cover_card_reached = False
        """Whether the cover card came out (reshuffle after the round)."""
        # one attribute for the two texts: see :attr:`shoe_ran_out`
        self._initial = (shoe.notation(), shoe.discard_notation())

    @property
    def initial_stack(self) -> str:
        """The shoe as it stood when the round began (for replay)."""
        return self._initial[0]

    @initial_stack.setter
    def initial_stack(self, text: str) -> None:
        self._initial = (text, self._initial[1])

    @property
    def initial_discard(self) -> str:
        """The discard rack when the round began (for replay)."""
        return self._initial[1]

    @initial_discard.setter
    def initial_discard(self, text: str) -> None:
        self._initial = (self._initial[0], text)

    # -- the interface every game implements --------------------------

    @property
    @abstractmethod
    def phase(self) -> StrEnum:
        """The current phase."""

    @abstractmethod
    def place_wager(
        self, seat: int, wager: str, amount: int, player: str | None = None
    ) -> WagerPlaced:
        """Place a wager before the deal (``player``: who plays the box)."""

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

    def carried(self) -> dict[str, object]:
        """Round inputs the next round at the table begins with.

        The options a round changes as it goes that are the table's
        state, not the casino's rules (:func:`croupier.rules.round_inputs`):
        a progressive meter the round contributed to or paid from. The
        table takes them into its rules when the round ends
        (:meth:`croupier.table.Table.carry`). None for most games.
        """
        return {}

    @abstractmethod
    def hands(self) -> dict[str, list[str]]:
        """Every hand's cards in notation, for the scenario output."""

    @abstractmethod
    def view(self, seat: int | None) -> RoundView:
        """What ``seat`` (or, for ``None``, a spectator) may see now.

        Each game returns its own :class:`RoundView`: the envelope
        (``game``, ``phase``) and the game's layout part.
        """

    def envelope(self, seat: int | None) -> RoundEnvelope:
        """The round in the shape every game shares, as ``seat`` sees it.

        Raises what :meth:`view` raises for a seat the game lacks.
        """
        pending = self.pending()
        ledger = self.ledger
        return {
            "game": self.game,
            "phase": self.phase.value,
            "seat": seat,
            "pending": None if pending is None else pending.to_dict(),
            "layout": self.view(seat),
            "stakes": [
                StakeRow(
                    seat=k.seat,
                    wager=k.wager,
                    hand=k.hand,
                    amount=amount,
                    open=ledger.is_open(k),
                )
                for k, amount in ledger.stakes.items()
            ],
            "settlements": [s.to_dict() for s in self.settlements],
        }

    # -- the wagers' names ----------------------------------------------

    def wager_title(self, wager: str) -> str:
        """The wager ``wager`` (an id) as the game's section names it.

        What a refusal shown to a player names a wager by (D187): "seat
        3 already has a Banker Wager", not "... a banker wager". The
        id itself for a wager the game does not name (a caller's typing,
        which no title fits).
        """
        return self.wager_titles.get(wager, wager)

    # -- the decisions' and phases' names ---------------------------------

    def action_title(self, action: str) -> str:
        """The decision ``action`` (an id) in the words of its button.

        What a refusal shown to a player names a decision by (D189):
        "No insurance takes no amount", not "no_insurance takes no
        amount". The id itself for a decision the game does not name.
        """
        return self.action_titles.get(action, action)

    def actions_listed(self, actions: Iterable[str]) -> str:
        """Decisions a caller may make, each by its words and its id.

        The form of every list of legal decisions in a refusal (D189):
        "Stand (stand), Hit (hit)": the words name the buttons a player
        sees, the ids are what an API client sends. A decision the game
        does not name is listed by its id alone.
        """
        return ", ".join(
            action
            if (title := self.action_titles.get(action)) is None
            else f"{title} ({action})"
            for action in actions
        )

    def phase_title(self, phase: str | None = None) -> str:
        """A phase (an id; the current one if ``None``) in words.

        The words the table's narration heads the phase with: what a
        refusal names a phase by (D189), "no decision is pending in the
        Dealer draw phase", not "... in phase dealer_draw". The id
        itself for a phase the game does not name.
        """
        name = self.phase.value if phase is None else phase
        return self.phase_titles.get(name, name)

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
                f"seat {key.seat}'s {self.wager_title(key.wager)} can no "
                f"longer be changed: wagering is closed"
            )
            raise WrongPhaseError(msg, ref=ref)
        _verify_minor_units(amount, ref)
        if amount < 0:
            msg = f"a wager cannot be negative, not {amount_text(amount)}"
            raise WagerError(msg, ref=ref)

    def _wager_taken_back(self, key: WagerKey) -> None:
        """Forget a wager taken back (games holding more state extend it)."""
        del key  # the ledger alone holds the wagers of most games

    def _placed_ref(self, key: WagerKey) -> Ref:
        """The subsection the open wager ``key`` was placed under."""
        if not self.ledger.is_open(key):
            msg = (
                f"seat {key.seat} has no {self.wager_title(key.wager)} to "
                f"change"
            )
            raise WagerError(msg)
        for event in reversed(self.log.events):
            if (
                isinstance(event, WagerPlaced)
                and event.seat == key.seat
                and event.wager == key.wager
            ):
                return event.ref
        msg = (
            f"seat {key.seat}'s {self.wager_title(key.wager)} was never placed"
        )
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

    def legal_actions(self) -> tuple[StrEnum, ...]:
        """The legal action names for the seat to act (empty if none)."""
        pending = self.pending()
        return () if pending is None else pending.legal

    def verify_conservation(self) -> None:
        """Raise if a card is lost or duplicated anywhere."""
        self.shoe.verify_conservation(on_table=self.table_cards())

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
        self._emit_dealt(
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
        return self._emit_placed(
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
        settlement = _new_settlement(
            key=key,
            amount=self.ledger.stakes[key],
            outcome=outcome,
            net=net,
            ref=ref,
            commission=commission,
        )
        self.ledger.settle(settlement)
        self._emit_settled(
            ref=ref,
            seat=key.seat,
            wager=key.wager,
            amount=settlement.amount,
            outcome=outcome,
            net=net,
            hand=key.hand,
            commission=commission,
        )
        return settlement

    def _return_all_open(self, outcome: Outcome, ref: Ref) -> None:
        for key in sorted(self.ledger.open_keys(), reverse=True):
            self._settle(key, outcome, 0, ref)


class GameRound(Round, Generic[RulesT, PhaseT]):
    """The machinery of every game's round, typed by rules and phase.

    It owns the typed :attr:`rules` and the :class:`PhaseTable`; enters
    phases one way (:meth:`_enter_phase`, along a cited edge);
    answers :attr:`is_over` from the terminal phases; runs the verbs
    (:meth:`place_wager`, :meth:`deal`, :meth:`apply`) as *verify, then
    carry out, then return the events*; and offers the shared
    verifications, which raise a :class:`~croupier.errors.CroupierError`
    citing the rule or return ``None``, and a ``can_*`` for every verb.
    Refusal messages are templates filled in only when they are raised
    (fields ``seat``, ``wager``, ``amount``, ``phase``); a wager is named
    in them as the game's section names it (:meth:`Round.wager_title`,
    D187), a decision and a phase as the table shows them
    (:meth:`Round.action_title`, :meth:`Round.phase_title`, D189), never
    by their ids: ``{phase}`` is the current phase's words, written "in
    the {phase} phase"; an amount of money in dollars
    (:func:`~croupier.money.amount_text`, D190).
    """

    def __init__(
        self,
        *,
        rules: RulesT,
        shoe: Shoe,
        rng: Rng | None,
        new_shoe: bool,
        phases: PhaseTable[PhaseT],
    ) -> None:
        super().__init__(rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe)
        self.rules: RulesT = rules
        """The Rules Submission in force, with the game's type."""
        self.phases = phases
        """The game's phase table."""
        self._phase: PhaseT = phases.start
        self._phase_ref: Ref | None = None

    # -- phases ----------------------------------------------------------

    @property
    def phase(self) -> PhaseT:
        """The current phase."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """Whether the round is in a terminal phase of its table.

        A terminal phase has no edge out (:attr:`PhaseTable.terminal`),
        read off the current phase's edges without building the set.
        """
        return not self.phases.edges[self._phase]

    def _open(self) -> None:
        """Enter the starting phase (its event, if the table cites one)."""
        self._phase_ref = self.phases.start_ref
        if self.phases.start_ref is not None:
            self._emit_phase(
                ref=self.phases.start_ref, phase=self.phases.start.value
            )

    def _enter_phase(self, target: PhaseT, ref: Ref | None = None) -> None:
        """Move along the edge to ``target``, citing the edge's subsection.

        ``ref`` picks one of the edge's citations; a target the table
        does not reach from here, or a citation the edge does not carry,
        is a broken invariant of the game, not a caller's error.
        """
        refs = self.phases.refs(self._phase, target)
        if not refs or (ref is not None and ref not in refs):
            msg = f"no transition {self._phase} -> {target} under {ref}"
            raise InvariantError(msg)
        self._phase = target
        self._phase_ref = refs[0] if ref is None else ref
        self._emit_phase(ref=self._phase_ref, phase=target)
        if not self.phases.edges[target]:
            # the round is over, whoever runs it (a table, the server, a
            # scenario, the verifier's replay): every chip and every
            # card is accounted for
            self.ledger.verify()
            self.verify_conservation()

    def _void_for_want_of_cards(self, void: PhaseT, ref: Ref) -> None:
        """Enter ``void``, log the void, return every open stake (D69).

        What follows (the cards to the rack, the reshuffle) is the game's.
        """
        self.shoe_ran_out = True
        self._enter_phase(void)
        self.log.emit(RoundVoided, ref=ref, reason=SHOE_RAN_OUT)
        self._return_all_open(Outcome.VOID, ref)

    # -- the shared verifications ------------------------------------------

    def _refuse(
        self,
        error: type[CroupierError],
        template: str,
        ref: Ref,
        **fields: object,
    ) -> None:
        """Raise ``error`` with ``template`` filled in, citing ``ref``."""
        msg = template.format(phase=self.phase_title(), **fields)
        raise error(msg, ref=ref)

    def _verify_phase(
        self, phase: PhaseT, template: str, ref: Ref, **fields: object
    ) -> None:
        """Refuse (wrong phase) unless the round is in ``phase``."""
        if self._phase is not phase:
            self._refuse(WrongPhaseError, template, ref, **fields)

    def _verify_seat(
        self, seat: int, seats: int, template: str, ref: Ref
    ) -> None:
        """Refuse unless ``seat`` is one of the seats 1..``seats``."""
        if not 1 <= seat <= seats:
            self._refuse(WagerError, template, ref, seat=seat, seats=seats)

    def _verify_offered(
        self,
        wager: str,
        offered: Collection[str],
        template: str,
        ref: Ref,
    ) -> None:
        """Refuse a wager these rules do not offer.

        The template's ``{wager}`` names the refused wager as
        :meth:`_wager_named` does; ``{known}`` lists the wagers offered
        in the same words: by the section's names for a wager of the
        game (one these rules leave out, D187), else by the ids a caller
        may write for a name the game does not have.
        """
        if wager not in offered:
            if wager in self.wager_titles:
                known = ", ".join(self.wager_title(w) for w in offered)
            else:
                known = ", ".join(offered)
            self._refuse(
                WagerError,
                template,
                ref,
                wager=self._wager_named(wager),
                known=known,
            )

    def _wager_named(self, wager: str) -> str:
        """A wager a caller named, as a refusal names it (D187).

        "the Perfect Pairs Wager on the Player's Hand" for a wager of the
        game (:meth:`wager_title`); a name the game does not have is no
        wager of it, and is written as JSON writes it (``"dragon7"``).
        """
        title = self.wager_titles.get(wager)
        return json_text(wager) if title is None else f"the {title}"

    def _action_named(self, name: object) -> str:
        """A decision a caller named, as a refusal names it (D189).

        "Double down" for a decision of the game (:meth:`action_title`);
        a name the game does not have is no decision of it, and is
        written as JSON writes it (``"hit me"``), as D187 writes a wager.
        """
        title = self.action_titles.get(name) if isinstance(name, str) else None
        return json_text(name) if title is None else title

    def _verify_amount(self, amount: int, ref: Ref) -> None:
        """Refuse an amount that is not a positive number of minor units.

        The refusal states the amount in dollars (D190).
        """
        _verify_minor_units(amount, ref)
        if amount <= 0:
            template = "a wager must be a positive amount, not {amount}"
            self._refuse(WagerError, template, ref, amount=amount_text(amount))

    def _verify_new(self, key: WagerKey, template: str, ref: Ref) -> None:
        """Refuse a second wager of the same kind on the same spot."""
        if key in self.ledger.stakes:
            self._refuse(
                WagerError,
                template,
                ref,
                seat=key.seat,
                wager=self.wager_title(key.wager),
            )

    def _verify_turn(
        self,
        action: Action,
        ref: Ref,
        *,
        out_of_turn: str = "seat {to_act} is to act, not seat {seat}",
        order: Ref | None = None,
    ) -> Pending:
        """The pending decision ``action`` answers; refuse out of turn.

        With no decision pending the game says why
        (:meth:`_refuse_no_decision`, citing ``ref`` unless it knows
        better); a seat other than the one to act is refused citing the
        rule of the order the seats act in: ``order``, in a game whose
        decisions do not fix it themselves (pai gow: the order dealt,
        670a.9(c)), else the subsection that asks for the decision.
        """
        pending = self.pending()
        if pending is None:
            self._refuse_no_decision(action, ref)
            raise InvariantError("no decision pending")  # pragma: no cover
        if action.seat != pending.seat:
            self._refuse(
                OutOfTurnError,
                out_of_turn,
                pending.ref if order is None else order,
                seat=action.seat,
                to_act=pending.seat,
            )
        return pending

    def _refuse_no_decision(self, action: Action, ref: Ref) -> None:
        """Refuse ``action`` when nobody is to decide anything.

        The decision and the phase are named as a player reads them
        (:meth:`_action_named`, :meth:`phase_title`, D189).
        """
        msg = (
            f"seat {action.seat} tried {self._action_named(action.name)}: "
            f"no decision is pending in the {self.phase_title()} phase"
        )
        raise IllegalActionError(msg, ref=ref)

    # -- the verbs -------------------------------------------------------

    @abstractmethod
    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Raise unless ``seat`` may place ``amount`` on ``wager`` now."""

    @abstractmethod
    def _wager_ref(self, wager: str) -> Ref:
        """The subsection a wager is placed under."""

    def place_wager(
        self, seat: int, wager: str, amount: int, player: str | None = None
    ) -> WagerPlaced:
        """Place a wager before the deal (verified first).

        ``player`` names who plays the box, for a game where one player's
        several boxes differ from several players' (:meth:`_name_player`);
        without it each box is its own player.
        """
        self.verify_wager(seat, wager, amount)
        if player is not None:
            self._name_player(seat, player)
        return self._place(seat, wager, amount)

    def _name_player(self, seat: int, player: str) -> None:
        """Note who plays box ``seat`` (a game that cares extends it)."""
        del seat, player  # in most games a box's player changes nothing

    def _place(self, seat: int, wager: str, amount: int) -> WagerPlaced:
        """Put a verified wager on the layout, citing where it is placed."""
        key = WagerKey(seat, wager)
        self._wager_placed(key)
        return self._record_wager(key, amount, self._wager_ref(wager))

    def _wager_placed(self, key: WagerKey) -> None:
        """Note a new wager (games holding more state extend it)."""
        del key  # the ledger alone holds the wagers of most games

    @abstractmethod
    def verify_deal(self) -> None:
        """Raise unless the cards may be dealt now."""

    @abstractmethod
    def _run_deal(self) -> None:
        """Close wagering and run the procedure to the first decision."""

    def deal(self) -> list[Event]:
        """Close wagering and run the procedure to the first decision."""
        self.verify_deal()
        start = len(self.log)
        try:
            self._run_deal()
        except ShoeExhaustedError as exc:
            self._shoe_empty(exc)
        return self.log.since(start)

    @abstractmethod
    def verify_action(self, action: Action) -> None:
        """Raise unless ``action`` is legal now."""

    def _carry_out(self, action: Action) -> None:
        """Carry out a verified decision (games with decisions override)."""
        msg = f"{self.game} has no decisions to carry out"  # pragma: no cover
        raise InvariantError(msg)  # pragma: no cover

    def apply(self, action: Action) -> list[Event]:
        """Apply a decision; refuse it, state unchanged, if illegal."""
        self.verify_action(action)
        start = len(self.log)
        try:
            self._carry_out(action)
        except ShoeExhaustedError as exc:
            self._shoe_empty(exc)
        return self.log.since(start)

    def _shoe_empty(self, exc: ShoeExhaustedError) -> None:
        """The shoe had no card for a step of :meth:`deal` or :meth:`apply`.

        The draw raised before any card left the shoe, so every card is
        still in the shoe, on the layout or in the rack. A game whose
        shoe may run out in play voids the round here (D69: a missing
        card, D25); the others' shoes cannot run out in play (a scenario
        stacked too short), and the error stands.
        """
        raise exc

    def can_place_wager(self, seat: int, wager: str, amount: int) -> bool:
        """Whether :meth:`place_wager` would accept the wager now."""
        return _can(lambda: self.verify_wager(seat, wager, amount))

    def can_change_wager(self, seat: int, wager: str, amount: int) -> bool:
        """Whether :meth:`change_wager` would accept the change now."""
        key = WagerKey(seat, wager)
        return _can(
            lambda: self.verify_wager_change(
                key, amount, self._placed_ref(key)
            )
        )

    def can_deal(self) -> bool:
        """Whether :meth:`deal` would deal now."""
        return _can(self.verify_deal)

    def can_apply(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        return _can(lambda: self.verify_action(action))

    @staticmethod
    def _passes(verify: Callable[[], None]) -> bool:
        """Whether ``verify`` passes: the ``can_*`` of a game's own verb."""
        return _can(verify)


def _can(verify: Callable[[], None]) -> bool:
    """Whether ``verify`` passes (the ``can_*`` of a ``verify_*``)."""
    try:
        verify()
    except CroupierError:
        return False
    return True


def cards_text(cards: Iterable[Card]) -> list[str]:
    """Cards as a list of notation strings."""
    return [str(card) for card in cards]
