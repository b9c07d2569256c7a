"""One round of Six-Card Fortune Pai Gow Poker (670a).

The round runs the dealer's procedure itself and stops only where a
player decides. The order of decisions (chosen here; 670a.11 was not
retrieved): each seat holding a Six-Card Wager, in the order dealt
(clockwise from the starting position, 670a.9(c), 670a.10(c): a seat
acting out of turn is refused under it), first decides on the
Double Down Wager (where the rules offer it; they do not by default,
670a.7(e), D182), then sets its hand (or asks for the house way). Then
the dealer's hand is exposed and set the house way, and every wager is
settled seat by seat counter-clockwise from the dealer's right.

>>> from croupier.shoe import Shoe
>>> from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
>>> offered = SixCardRules(double_down_offered=True)
>>> rnd = SixCardRound(rules=offered, shoe=Shoe.new(jokers=1),
...                    starting_position=1)
>>> _ = rnd.place_wager(1, "pai_gow", 1000)
>>> _ = rnd.deal()
>>> rnd.pending().to_dict()["legal"]
['double_down', 'no_double_down']
>>> rnd.can_apply(Action(seat=2, name="double_down"))
False
>>> plain = SixCardRound(rules=SixCardRules(), shoe=Shoe.new(jokers=1),
...                      starting_position=1)
>>> _ = plain.place_wager(1, "pai_gow", 1000)
>>> _ = plain.deal()
>>> plain.pending().to_dict()["legal"]
['set', 'house_way']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from croupier.cards import Card
from croupier.errors import (
    IllegalActionError,
    ProcedureError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    Announced,
    CardExposed,
    CardsCollected,
    DecisionMade,
    RoundVoided,
    Shuffled,
)
from croupier.hands.paigow import (
    Setting,
    compare,
    describe,
    evaluate,
    find_house_way,
    set_hand,
)
from croupier.money import (
    Outcome,
    WagerKey,
    amount_text,
    dollars,
    in_cents,
)
from croupier.procedures import ch670a
from croupier.procedures.ch670a import DEALER, Deal, DealFault, position_label
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.round import Action, GameRound, Pending
from croupier.shoe import Shoe

from .events import (
    DeckHeld,
    EnvyBonusPaid,
    EnvyLammerPlaced,
    HandsCompared,
    HandSet,
    MeterChanged,
    ProgressiveCountError,
    ProgressiveWagersCollected,
)
from .phases import (
    ACTION_TITLES,
    PHASE_TITLES,
    PHASES,
    PaiGowAction,
    Phase,
)
from .refs import (
    AUTOMATED_SHOE,
    BY_HAND_OR_MANUAL_SHOE,
    DOUBLE_DOWN_REF,
    OFFERED_REF,
    SETTLE_REF,
    SIDE_REF,
    WAGER_REF,
    DealRefs,
)
from .rules import WAGER_TITLES, Dealing, SixCardRules, Wager
from .views import PaiGowView, seat_view
from .wagers import (
    commission_on,
    envy_award,
    fortune_winnings,
    progressive_payout,
)

__all__ = ["SixCardRound"]

SEATS = (1, 2, 3, 4, 5, 6)
_DOUBLE_DOWN = (PaiGowAction.DOUBLE_DOWN, PaiGowAction.NO_DOUBLE_DOWN)
_SETTING = (PaiGowAction.SET, PaiGowAction.HOUSE_WAY)
_PENDING_DOUBLE_DOWN = {
    seat: Pending(seat=seat, hand=0, legal=_DOUBLE_DOWN, ref=WAGER_REF)
    for seat in SEATS
}
_PENDING_SETTING = {
    seat: Pending(seat=seat, hand=0, legal=_SETTING, ref=SETTLE_REF)
    for seat in SEATS
}
"""Each seat's pending decision, made once: a :class:`Pending` is
immutable, and :meth:`SixCardRound.pending` is asked about twelve times
a round."""


@implements("670a.9")
class SixCardRound(GameRound[SixCardRules, Phase]):
    """A round of Six-Card Fortune Pai Gow Poker."""

    game: ClassVar[str] = "six-card-fortune-pai-gow"
    wager_names: ClassVar[tuple[str, ...]] = (
        Wager.PAI_GOW,
        Wager.FORTUNE_BONUS,
        Wager.PROGRESSIVE,
    )
    wager_titles: ClassVar[Mapping[str, str]] = WAGER_TITLES
    seats_ref: ClassVar[Ref] = Ref.parse("670a.7(a)")
    offered_ref: ClassVar[Ref] = SIDE_REF
    action_titles: ClassVar[Mapping[str, str]] = ACTION_TITLES
    phase_titles: ClassVar[Mapping[str, str]] = PHASE_TITLES
    players: Mapping[int, str] = MappingProxyType({})
    """Who plays each box, when a caller names them (``place_wager``):
    a class default, set on the round only then, as :attr:`fault` is."""
    fault: DealFault | None = None
    """What voided the round, if anything (670a.9(e)).

    A class default, set on the round only for a misdeal: a round keeps
    its attributes in the class's shared-key table only while it has few
    enough (:attr:`croupier.round.Round.shoe_ran_out`)."""

    def __init__(
        self,
        *,
        rules: SixCardRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
        starting_position: int | None = None,
        shuffle: bool = False,
    ) -> None:
        super().__init__(
            rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe, phases=PHASES
        )
        self.given_start = starting_position
        """The starting position a replay gives (else the RNG decides)."""
        self.shuffle_first = shuffle
        """Whether the round shuffles the deck itself (670a.9(a)(1))."""
        self.starting_position: int | None = None
        """The position that received the first card."""
        self.deal_record = Deal()
        """What each position was dealt."""
        self.on_layout: set[int] = set()
        """Positions whose cards are still on the layout."""
        self.spread: list[Card] = []
        """Remaining cards spread face down while counted."""
        self.settings: dict[int, Setting] = {}
        """Hand settings by position (dealer 7)."""
        self.double_decided: set[int] = set()
        """Seats that made their Double Down decision."""
        self.lammers: set[int] = set()
        """Seats with an Envy lammer."""
        self.meter = rules.progressive_meter
        """The progressive meter (input: the rules; output: now)."""
        self.progressive_system_count: int | None = None
        """The count the progressive system accepted, once locked."""
        self.exposed: set[int] = set()
        """Positions whose cards have been exposed."""
        self._order: tuple[int, ...] = ()
        """The seats to decide, in order (:meth:`_decision_order`), fixed
        when the decisions begin: no Six-Card Wager changes after the
        deal, so it is worked out once instead of at every decision."""
        self._settings_made: dict[
            tuple[int, str, Card | None], tuple[Setting, str]
        ] = {}
        """The settings :meth:`_setting_for` gave, by seat, action and
        low card: the dealt stacks do not change after the deal, so the
        setting a decision was verified with is the one carried out."""

    # -- wagers ------------------------------------------------------

    def _offered(self) -> tuple[str, ...]:
        """The wagers placed before the deal that these rules offer."""
        offered = {
            Wager.PAI_GOW: True,
            Wager.FORTUNE_BONUS: self.rules.fortune_bonus_offered,
            Wager.PROGRESSIVE: self.rules.progressive_offered,
        }
        return tuple(w for w in self.wager_names if offered[Wager(w)])

    def _name_player(self, seat: int, player: str) -> None:
        """Note the box's player: no Envy for their own other box (D23)."""
        self.players = {**self.players, seat: player}

    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Raise unless ``wager`` may be placed now (670a.7(a)-(e))."""
        self._verify_phase(
            Phase.WAGERING,
            "no {wager} after 'no more bets'",
            WAGER_REF,
            wager=self.wager_title(wager),
        )
        self._verify_seat(
            seat,
            len(SEATS),
            "no seat {seat}: the layout has seats 1-6",
            self.seats_ref,
        )
        if wager == Wager.DOUBLE_DOWN:
            self._verify_double_down_offered(seat)
            msg = "the Double Down Wager is made after the cards are seen"
            raise WagerError(msg, ref=WAGER_REF)
        self._verify_offered(
            wager,
            self._offered(),
            "{wager} is not a wager offered at this table",
            self.offered_ref,
        )
        self._verify_amount(amount, Ref.parse("670a.7(a)"))
        if wager == Wager.PROGRESSIVE:
            if self.progressive_system_count is not None:
                msg = "the progressive system is locked: no more wagers"
                raise WagerError(msg, ref=Ref.parse("670a.9(a)(3)(ii)"))
            if amount != self.rules.progressive_wager_amount:
                msg = (
                    f"a Progressive Payout Wager is exactly "
                    f"{_progressive(self.rules.progressive_wager_amount)}, "
                    f"not {amount_text(amount)}"
                )
                raise WagerError(msg, ref=Ref.parse("670a.9(a)(3)(ii)"))
        self._verify_new(
            WagerKey(seat, wager),
            "seat {seat} already has a {wager}",
            WAGER_REF,
        )
        if wager != Wager.PAI_GOW and not self._stake(seat, Wager.PAI_GOW):
            msg = (
                f"a {self.wager_title(wager)} needs a "
                f"{self.wager_title(Wager.PAI_GOW)} at seat {seat} first"
            )
            raise WagerError(msg, ref=SIDE_REF)

    def _wager_ref(self, wager: str) -> Ref:
        """Every wager before "no more bets" is placed under 670a.7(a)."""
        return Ref.parse("670a.7(a)")

    def verify_wager_change(
        self, key: WagerKey, amount: int, ref: Ref
    ) -> None:
        """The common checks, then this layout's own (670a.7, 670a.9).

        The Progressive Payout Wager is of one fixed amount and is locked
        with the progressive system; a side wager stands only beside a
        Six-Card Fortune Pai Gow Poker Wager, which therefore is not
        taken back while one does.
        """
        super().verify_wager_change(key, amount, ref)
        if key.wager == Wager.PROGRESSIVE:
            if self.progressive_system_count is not None:
                msg = "the progressive system is locked: no more changes"
                raise WagerError(msg, ref=Ref.parse("670a.9(a)(3)(ii)"))
            if amount not in (0, self.rules.progressive_wager_amount):
                msg = (
                    f"a Progressive Payout Wager is exactly "
                    f"{_progressive(self.rules.progressive_wager_amount)}, "
                    f"not {amount_text(amount)}"
                )
                raise WagerError(msg, ref=Ref.parse("670a.9(a)(3)(ii)"))
        if key.wager == Wager.PAI_GOW and amount == 0:
            sides = [
                f"the {self.wager_title(k.wager)}"
                for k in self.ledger.open_keys()
                if k.seat == key.seat and k.wager != Wager.PAI_GOW
            ]
            if sides:
                msg = (
                    f"take back {' and '.join(sides)} at seat {key.seat} "
                    f"before its {self.wager_title(Wager.PAI_GOW)}"
                )
                raise WagerError(msg, ref=SIDE_REF)

    def _stake(self, seat: int, wager: str) -> int:
        return self.ledger.stakes.get(WagerKey(seat, wager), 0)

    def _seats_with(self, wager: str) -> list[int]:
        # one pass over the ledger, without a comprehension's frame (asked
        # some nine times a round, over a few wagers)
        held = set()
        for key, amount in self.ledger.stakes.items():
            if amount and key.wager == wager and key.hand == 0:
                held.add(key.seat)
        return [s for s in SEATS if s in held] if held else []

    def _progressive_ref(self) -> Ref:
        if self.rules.dealing is Dealing.AUTOMATED_SHOE:
            return Ref.parse("670a.10(a)(2)(ii)")
        return Ref.parse("670a.9(a)(3)(ii)")

    def verify_progressive_count(self, system_count: int) -> None:
        """Raise unless the chips collected equal the system's count."""
        count = len(self._seats_with(Wager.PROGRESSIVE))
        if count != system_count:
            msg = (
                f"{count} {self.wager_title(Wager.PROGRESSIVE)}(s) on the "
                f"layout but the progressive system accepted "
                f"{system_count}: the deal may not begin"
            )
            raise ProgressiveCountError(msg, ref=self._progressive_ref())

    def verify_lock_progressive(self) -> None:
        """Raise unless the progressive system may still be locked."""
        self._verify_phase(
            Phase.WAGERING,
            "the progressive system is locked before the deal",
            self._progressive_ref(),
        )

    def can_lock_progressive(self) -> bool:
        """Whether :meth:`lock_progressive` would lock the system now."""
        return self._passes(self.verify_lock_progressive)

    def lock_progressive(self, system_count: int) -> None:
        """Lock the progressive system with the count it accepted.

        The count is checked against the chips when the deal begins
        (670a.9(a)(3)(ii)); a mismatch refuses the deal.
        """
        self.verify_lock_progressive()
        self.progressive_system_count = system_count

    # -- the deal ----------------------------------------------------

    def verify_deal(self) -> None:
        """Raise unless the deal may begin (670a.7(d), 670a.9(a)(3)(ii)).

        A Six-Card Wager on the layout, every side wager beside one, the
        irregularities the rules list dealable, and the progressive
        system's count equal to the chips.
        """
        self._verify_phase(
            Phase.WAGERING,
            "the cards have already been dealt",
            Ref.parse("670a.9(c)"),
        )
        players = set(self._seats_with(Wager.PAI_GOW))
        if not players:
            msg = "no Six-Card Fortune Pai Gow Poker Wager on the layout"
            raise WagerError(msg, ref=Ref.parse("670a.7(d)"))
        for key in self.ledger.stakes:
            if key.seat not in players:
                msg = (
                    f"seat {key.seat} has a {self.wager_title(key.wager)} "
                    f"without a {self.wager_title(Wager.PAI_GOW)}"
                )
                raise WagerError(msg, ref=SIDE_REF)
        if self.rules.dealing_irregularities:
            if self.rules.dealing is Dealing.AUTOMATED_SHOE:
                msg = "an automated dealing shoe deals whole stacks"
                raise ProcedureError(msg, ref=Ref.parse("670a.10(c)"))
            ch670a.parse_irregularities(self.rules.dealing_irregularities)
        if self.given_start is not None:
            ch670a.clockwise_from(self.given_start)
        system_count = self._system_count()
        offered = self.rules.progressive_offered
        if offered and (self._seats_with(Wager.PROGRESSIVE) or system_count):
            self.verify_progressive_count(system_count)

    def _system_count(self) -> int:
        """The progressive system's count: as locked, else as configured."""
        if self.progressive_system_count is not None:
            return self.progressive_system_count
        return (
            len(self._seats_with(Wager.PROGRESSIVE))
            + self.rules.progressive_system_count_offset
        )

    def _deal_refs(self) -> DealRefs:
        """The subsections of the section these rules deal under."""
        if self.rules.dealing is Dealing.AUTOMATED_SHOE:
            return AUTOMATED_SHOE
        return BY_HAND_OR_MANUAL_SHOE

    @implements("670a.9(a)", "670a.10(a)")
    def _run_deal(self) -> None:
        """Announce "no more bets", deal, count and check (670a.9(a)-(f))."""
        system_count = self._system_count()
        hand = self.rules.dealing is Dealing.HAND
        refs = self._deal_refs()
        self._enter_phase(Phase.DEALING, refs.deal)
        self._prepare_deck(refs.shuffle)
        if hand:
            self.log.emit(
                DeckHeld,
                ref=Ref.parse("670a.9(a)(2)"),
                hand=self.rules.holding_hand,
            )
        self.log.emit(Announced, ref=refs.no_more_bets, text="no more bets")
        self._place_lammers(refs.lammers)
        self._collect_progressive(system_count, refs.progressive)
        start = ch670a.determine_starting_position(
            self.log, self.rng, refs.start, self.given_start
        )
        self.starting_position = start
        self.on_layout = set(ch670a.POSITIONS)
        slips = ch670a.parse_irregularities(self.rules.dealing_irregularities)
        if refs is AUTOMATED_SHOE:
            self.deal_record = ch670a.deliver_stacks(
                self.shoe, self.log, start
            )
        elif hand:
            self.deal_record = ch670a.deal_from_hand(
                self.shoe, self.log, start, slips
            )
        else:
            self.deal_record = ch670a.deal_from_manual_shoe(
                self.shoe, self.log, start, slips
            )
        self.spread = ch670a.count_remaining(self.shoe, self.log, refs.count)
        fault = ch670a.find_fault(self.deal_record, self.spread)
        if fault is not None:
            self.fault = fault
            self._void(refs.void)
        else:
            self._after_correct_deal(refs)
        self.verify_conservation()

    def _prepare_deck(self, ref: Ref) -> None:
        if self.shuffle_first:
            self.shoe.shuffle(self.rng)
            described = self.rng.describe()
            seed = described.get("seed")
            self.log.emit(
                Shuffled,
                ref=ref,
                source=str(described["kind"]),
                cards=len(self.shoe),
                seed=seed if isinstance(seed, int) else None,
            )
        else:
            self.log.emit(
                Shuffled, ref=ref, source="stacked", cards=len(self.shoe)
            )

    def _place_lammers(self, ref: Ref) -> None:
        if not (
            self.rules.fortune_bonus_offered and self.rules.envy_bonus_offered
        ):
            return
        for seat in self._seats_with(Wager.FORTUNE_BONUS):
            amount = self._stake(seat, Wager.FORTUNE_BONUS)
            if amount >= self.rules.envy_qualifying_minimum:
                self.lammers.add(seat)
                self.log.emit(
                    EnvyLammerPlaced, ref=ref, seat=seat, amount=amount
                )

    def _collect_progressive(self, system_count: int, ref: Ref) -> None:
        if not self.rules.progressive_offered:
            return
        seats = self._seats_with(Wager.PROGRESSIVE)
        self.progressive_system_count = system_count
        if not seats:
            return
        self.log.emit(
            ProgressiveWagersCollected,
            ref=ref,
            count=len(seats),
            system_count=system_count,
            total=sum(self._stake(s, Wager.PROGRESSIVE) for s in seats),
        )

    def _void(self, ref: Ref) -> None:
        fault = self.fault
        reason = (
            "misdeal: a position holds more or fewer than six cards"
            if fault is DealFault.MISDEALT
            else f"{len(self.spread)} cards remained instead of 11 "
            "with every position dealt six: the deck is removed"
        )
        self.log.emit(RoundVoided, ref=ref, reason=reason)
        self._return_all_open(Outcome.VOID, ref)
        if fault is DealFault.WRONG_DECK:
            cards = self.deal_record.cards() + self.spread
            ch670a.remove_deck(self.shoe, self.log, cards, ref)
        else:
            for position in ch670a.POSITIONS:
                self._collect(position, ref, exposed=False)
            self.shoe.discard_cards(self.spread)
            self.log.emit(
                CardsCollected,
                ref=ref,
                source="remaining",
                cards=tuple(self.spread),
                exposed=False,
            )
        self.spread = []
        self.on_layout = set()
        self._enter_phase(Phase.VOID, ref)

    def _collect(self, position: int, ref: Ref, *, exposed: bool) -> None:
        cards = self.deal_record.stacks[position]
        self.shoe.discard_cards(cards)
        self.on_layout.discard(position)
        self.log.emit(
            CardsCollected,
            ref=ref,
            source=position_label(position),
            cards=tuple(cards),
            exposed=exposed,
        )

    def _after_correct_deal(self, refs: DealRefs) -> None:
        self.shoe.discard_cards(self.spread)
        self.log.emit(
            CardsCollected,
            ref=refs.count,
            source="remaining",
            cards=tuple(self.spread),
            exposed=False,
        )
        self.spread = []
        players = self._seats_with(Wager.PAI_GOW)
        gone = ch670a.discard_unwagered_stacks(
            self.shoe,
            self.log,
            self.deal_record,
            players,
            Ref.parse("670a.9(f)"),
        )
        self.on_layout -= set(gone)
        self._order = tuple(self._decision_order())
        self._enter_phase(Phase.DECISIONS, SETTLE_REF)

    # -- decisions ---------------------------------------------------

    def _decision_order(self) -> list[int]:
        """Seats with a Six-Card Wager, clockwise from the start."""
        start = self.starting_position or 1
        order = ch670a.clockwise_from(start)
        players = set(self._seats_with(Wager.PAI_GOW))
        return [p for p in order if p in players]

    def pending(self) -> Pending | None:
        """The seat to decide and its legal actions, or ``None``."""
        if self._phase is not Phase.DECISIONS:
            return None
        offered = self.rules.double_down_offered
        for seat in self._order:
            if offered and seat not in self.double_decided:
                return _PENDING_DOUBLE_DOWN[seat]
            if seat not in self.settings:
                return _PENDING_SETTING[seat]
        return None  # pragma: no cover - settlement follows at once

    def _setting_for(self, action: Action) -> tuple[Setting, str]:
        key = (action.seat, action.name, action.card)
        made = self._settings_made.get(key)
        if made is None:
            made = self._settings_made[key] = self._new_setting(action)
        return made

    def _new_setting(self, action: Action) -> tuple[Setting, str]:
        """The setting ``action`` asks for, and who set it (or refuse)."""
        cards = self.deal_record.stacks[action.seat]
        if action.name == PaiGowAction.HOUSE_WAY:
            way = find_house_way(self.rules.house_way)
            return way.set_hand(cards), way.name
        if action.card is None:
            msg = 'a setting names its low card, e.g. "low": "Ah"'
            raise IllegalActionError(msg, ref=SETTLE_REF)
        return set_hand(cards, action.card), "player"

    def verify_action(self, action: Action) -> None:
        """Raise unless ``action`` is the pending seat's legal decision.

        A Double Down of 1 up to the Six-Card Wager; a setting naming a
        low card that leaves a legal high hand (D18). Only the Double
        Down takes an amount and only a setting names a card.
        """
        pending = self._verify_turn(
            action,
            SETTLE_REF,
            out_of_turn=(
                "seat {seat} acted while seat {to_act}'s decision is "
                "pending (the seats decide in the order dealt, clockwise "
                "from the starting position)"
            ),
            order=self._deal_refs().order,
        )
        if action.name in _DOUBLE_DOWN:
            self._verify_double_down_offered(action.seat)
        if action.name not in pending.legal:
            msg = (
                f"seat {action.seat} tried {self._action_named(action.name)}"
                f"; legal now: {self.actions_listed(pending.legal)}"
            )
            raise IllegalActionError(msg, ref=pending.ref)
        if action.amount is not None and action.name != (
            PaiGowAction.DOUBLE_DOWN
        ):
            msg = (
                f"{self.action_title(action.name)} takes no amount, not "
                f"{amount_text(action.amount)}"
            )
            raise WagerError(msg, ref=pending.ref)
        if action.card is not None and action.name != PaiGowAction.SET:
            msg = (
                f"{self.action_title(action.name)} names no card, not "
                f"{action.card}"
            )
            raise IllegalActionError(msg, ref=pending.ref)
        if action.name == PaiGowAction.DOUBLE_DOWN:
            self._double_down_amount(action)
        elif action.name in _SETTING:
            self._setting_for(action)

    def _verify_double_down_offered(self, seat: int) -> None:
        """Refuse a Double Down decision where the rules offer none.

        670a.7(e) lets a casino offer the Double Down Wager only where
        its Rules Submission says so (``double_down_offered``, off by
        default: D182).
        """
        if not self.rules.double_down_offered:
            msg = (
                f"seat {seat}: this table offers no Double Down Wager "
                f"(its Rules Submission does not: double_down_offered is "
                f"false)"
            )
            raise WagerError(msg, ref=OFFERED_REF)

    def _refuse_no_decision(self, action: Action, ref: Ref) -> None:
        """Nobody is to decide: refuse, naming the phase.

        The phase is named as the table's narration heads it (D189).
        """
        del action
        msg = f"no decision is pending in the {self.phase_title()} phase"
        raise WrongPhaseError(msg, ref=ref)

    def _carry_out(self, action: Action) -> None:
        """Record the decision; settle once nobody is left to decide."""
        if action.name in _DOUBLE_DOWN:
            self._double_down(action)
        else:
            setting, way = self._setting_for(action)
            self.settings[action.seat] = setting
            self._record_setting(action.seat, setting, way)
            self.log.emit(
                DecisionMade,
                ref=SETTLE_REF,
                seat=action.seat,
                action=action.name,
                detail=setting.describe(),
            )
        if self.pending() is None:
            self._settle_round()
        self.verify_conservation()

    def _double_down_amount(self, action: Action) -> int:
        """The Double Down amount: 1 up to the Six-Card Wager (D22).

        670a.7(e)(1) offers the wager; (c) only lets it be placed after
        "no more bets", so an amount out of range is refused under (e)(1).
        """
        base = self._stake(action.seat, Wager.PAI_GOW)
        amount = base if action.amount is None else action.amount
        if not 0 < amount <= base:
            msg = (
                f"a {self.wager_title(Wager.DOUBLE_DOWN)} is from "
                f"{dollars(1)} to the {self.wager_title(Wager.PAI_GOW)} "
                f"({dollars(base)}), not {amount_text(amount)}"
            )
            raise WagerError(msg, ref=DOUBLE_DOWN_REF)
        return amount

    def _double_down(self, action: Action) -> None:
        seat = action.seat
        if action.name == PaiGowAction.DOUBLE_DOWN:
            amount = self._double_down_amount(action)
            self._record_wager(
                WagerKey(seat, Wager.DOUBLE_DOWN), amount, WAGER_REF
            )
            self.log.emit(
                DecisionMade,
                ref=WAGER_REF,
                seat=seat,
                action=action.name,
                amount=amount,
            )
        else:
            self.log.emit(
                DecisionMade, ref=WAGER_REF, seat=seat, action=action.name
            )
        self.double_decided.add(seat)

    def _record_setting(
        self, position: int, setting: Setting, way: str
    ) -> None:
        self.log.emit(
            HandSet,
            ref=SETTLE_REF,
            to=position_label(position),
            high=setting.high,
            low=setting.low,
            hand=describe(setting.high_value),
            way=way,
        )

    # -- settlement --------------------------------------------------

    def _expose(self, position: int) -> None:
        if position in self.exposed:
            return
        self.exposed.add(position)
        label = position_label(position)
        exposed = self.log.emitter(CardExposed)
        for card in self.deal_record.stacks[position]:
            exposed(ref=SETTLE_REF, to=label, card=card)

    def _settle_round(self) -> None:
        self._enter_phase(Phase.SETTLEMENT, SETTLE_REF)
        self._expose(DEALER)
        way = find_house_way(self.rules.house_way)
        dealer = way.set_hand(self.deal_record.stacks[DEALER])
        self.settings[DEALER] = dealer
        self._record_setting(DEALER, dealer, way.name)
        # settling changes no stake: the seats stay those found here
        players = self._seats_with(Wager.PAI_GOW)
        values = {
            p: evaluate(self.deal_record.stacks[p]) for p in [*players, DEALER]
        }
        for seat in reversed(players):
            self._expose(seat)
            self._settle_seat(seat, dealer, values)
        for position in [DEALER, *reversed(players)]:
            self._collect(position, SETTLE_REF, exposed=True)
        self._enter_phase(Phase.COMPLETE, SETTLE_REF)

    def _settle_seat(
        self, seat: int, dealer: Setting, values: Mapping[int, int]
    ) -> None:
        comparison = compare(
            self.settings[seat],
            dealer,
            joker_low_beats_all=self.rules.joker_low_beats_all,
        )
        result = Outcome(comparison.result)
        self.log.emit(
            HandsCompared,
            ref=SETTLE_REF,
            seat=seat,
            high=comparison.high,
            low=comparison.low,
            high_copy=comparison.high_copy,
            low_copy=comparison.low_copy,
            result=result,
        )
        for wager in (Wager.PAI_GOW, Wager.DOUBLE_DOWN):
            amount = self._stake(seat, wager)
            if not amount:
                continue
            key = WagerKey(seat, wager)
            if result is Outcome.WIN:
                commission = commission_on(amount, self.rules.commission)
                self._settle(
                    key,
                    Outcome.WIN,
                    amount - commission,
                    SETTLE_REF,
                    commission=commission,
                )
            elif result is Outcome.LOSE:
                self._settle(key, Outcome.LOSE, -amount, SETTLE_REF)
            else:
                self._settle(key, Outcome.PUSH, 0, SETTLE_REF)
        self._settle_fortune(seat, values)
        self._settle_progressive(seat, values[seat])

    def _settle_fortune(self, seat: int, values: Mapping[int, int]) -> None:
        amount = self._stake(seat, Wager.FORTUNE_BONUS)
        if not amount:
            return
        winnings = fortune_winnings(
            amount, values[seat], self.rules.fortune_bonus_paytable
        )
        net = -amount if winnings is None else winnings
        if seat in self.lammers:
            player = self.players.get(seat)
            for other, value in values.items():
                if (
                    other == seat
                    or (other == DEALER and not self.rules.envy_counts_dealer)
                    # never for the player's own hand, on any box (D23)
                    or (
                        player is not None
                        and self.players.get(other) == player
                    )
                ):
                    continue
                award = envy_award(
                    value,
                    self.rules.envy_paytable,
                    self.rules.envy_qualifying_minimum,
                )
                if award:
                    net += award
                    self.log.emit(
                        EnvyBonusPaid,
                        ref=SETTLE_REF,
                        seat=seat,
                        source=position_label(other),
                        category=describe(value),
                        amount=award,
                    )
        outcome = (
            Outcome.WIN
            if net > 0
            else Outcome.PUSH
            if net == 0
            else Outcome.LOSE
        )
        self._settle(
            WagerKey(seat, Wager.FORTUNE_BONUS), outcome, net, SETTLE_REF
        )

    def _settle_progressive(self, seat: int, value: int) -> None:
        amount = self._stake(seat, Wager.PROGRESSIVE)
        if not amount:
            return
        contribution = int(amount * self.rules.progressive_contribution)
        if contribution:
            self.meter += contribution
            self.log.emit(
                MeterChanged,
                ref=SETTLE_REF,
                meter=self.meter,
                reason="contribution",
            )
        payout = progressive_payout(
            amount,
            value,
            self.meter,
            odds_table=self.rules.progressive_odds_paytable,
            meter_table=self.rules.progressive_meter_paytable,
            reset=self.rules.progressive_reset,
        )
        self._settle(
            WagerKey(seat, Wager.PROGRESSIVE),
            payout.outcome,
            payout.net,
            SETTLE_REF,
        )
        if payout.meter_after != self.meter:
            self.meter = payout.meter_after
            self.log.emit(
                MeterChanged, ref=SETTLE_REF, meter=self.meter, reason="payout"
            )

    def carried(self) -> dict[str, object]:
        """The meter after this round's contributions and payouts (D23).

        The next round at the table begins with it: the meter is the
        table's, carried from round to round, not reset to the Rules
        Submission's starting value.
        """
        return {"progressive_meter": self.meter}

    # -- views -------------------------------------------------------

    def table_cards(self) -> list[Card]:
        """Cards on the layout: stacks not yet collected, spread cards."""
        cards = [
            card
            for p in ch670a.POSITIONS
            if p in self.on_layout
            for card in self.deal_record.stacks[p]
        ]
        return cards + self.spread

    def _shown_positions(self) -> list[int]:
        if self.starting_position is None:
            return []
        return [*self._seats_with(Wager.PAI_GOW), DEALER]

    def hands(self) -> dict[str, list[str]]:
        """Cards of the positions in play (never the eleven remaining)."""
        out: dict[str, list[str]] = {}
        for position in self._shown_positions():
            label = position_label(position)
            out[label] = [str(c) for c in self.deal_record.stacks[position]]
            setting = self.settings.get(position)
            if setting is not None:
                out[f"{label} high"] = [str(c) for c in setting.high]
                out[f"{label} low"] = [str(setting.low)]
        return out

    def view(self, seat: int | None) -> PaiGowView:
        """What ``seat`` (``None``: a spectator) may see now.

        See :func:`~.views.seat_view`: never a face-down card of another
        position, the eleven remaining cards or a discarded stack.
        """
        return seat_view(self, seat)


def _progressive(amount: int) -> str:
    """The Progressive Payout Wager's one amount, as a refusal says it.

    In dollars, and once more in the minor units that the Rules
    Submission sets it in and an API client sends (D190).
    """
    return f"{dollars(amount)} {in_cents(amount)}"
