"""The Double Back Jack round: 591.7 (a)-(v) as an explicit state machine.

The round runs the dealer's procedure by itself and stops only where a
player must decide (insurance, the decisions of (i), a Second Chance);
:meth:`DoubleBackJackRound.pending` names the seat and its legal
decisions, :meth:`DoubleBackJackRound.apply` takes one. Every step emits
events citing its subsection; every refusal raises a typed error citing
the subsection that forbids it and leaves the state unchanged.

Only the dealer handles the cards (591.7(v)): the decisions of
:class:`~.phases.DbjAction` are the players' whole vocabulary, and no
method lets a player touch, move or alter a card.

>>> from croupier.round import Action
>>> from croupier.shoe import Shoe
>>> from croupier.games.double_back_jack import DoubleBackJackRules
>>> rnd = DoubleBackJackRound(
...     rules=DoubleBackJackRules(),
...     shoe=Shoe.stacked("2c 10s 7d 6h 9c 8s"), new_shoe=True)
>>> _ = rnd.place_wager(1, "blackjack", 1000)
>>> _ = rnd.deal()
>>> rnd.pending().to_dict()["legal"]
['surrender', 'double', 'stand', 'hit']
>>> rnd.can_apply(Action(seat=1, name="split")), rnd.can_deal()
(False, False)
>>> _ = rnd.apply(Action(seat=1, name="stand"))
>>> [s.to_dict()["net"] for s in rnd.settlements], rnd.hands()["dealer"]
([1000], ['7d', '9c', '8s'])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from croupier.errors import (
    IllegalActionError,
    InvariantError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import Announced, WagerPlaced
from croupier.hands.blackjack import same_value
from croupier.jsontypes import json_text
from croupier.money import Outcome, WagerKey, amount_text, dollars
from croupier.regs import Ref, implements
from croupier.round import Action, Pending

from .hands import HandStatus, Payment, PlayerHand
from .phases import DbjAction, Phase
from .procedure import TWENTY_ONE, DealerProcedure
from .refs import (
    REF_DECISIONS,
    REF_DOUBLE,
    REF_DOUBLE_AFTER_SPLIT,
    REF_DOUBLE_CARD,
    REF_HIT,
    REF_HIT_BELOW_21,
    REF_INSURANCE,
    REF_INSURANCE_WAGER,
    REF_PLAYERS_DECIDE_ONLY,
    REF_SECOND_CHANCE,
    REF_SECOND_CHANCE_21,
    REF_SECOND_CHANCE_BUST,
    REF_SECOND_CHANCE_STANDS,
    REF_SPLIT,
    REF_SURRENDER,
)
from .rules import Wager
from .views import BoxView, DoubleBackJackView, HandView

__all__ = ["DoubleBackJackRound"]

_REFUSAL_REFS: dict[DbjAction, Ref] = {
    DbjAction.SURRENDER: REF_SURRENDER,
    DbjAction.DOUBLE: REF_DOUBLE,
    DbjAction.SPLIT: REF_SPLIT,
    DbjAction.STAND: REF_DECISIONS,
    DbjAction.HIT: REF_HIT_BELOW_21,
    DbjAction.INSURANCE: REF_INSURANCE,
    DbjAction.NO_INSURANCE: REF_INSURANCE,
    DbjAction.SECOND_CHANCE: REF_SECOND_CHANCE,
    DbjAction.NO_SECOND_CHANCE: REF_SECOND_CHANCE,
}
"""The subsection that forbids each decision when it is not legal."""

_ACTIONS: dict[str, DbjAction] = {action.value: action for action in DbjAction}
"""Each decision by its name (what ``DbjAction(name)`` finds)."""
_ACTION_NAMES: dict[DbjAction, str] = {a: a.value for a in DbjAction}
"""Each decision's name (its ``value``, without the enum's property)."""
_INSURANCE_OFFER = (DbjAction.INSURANCE, DbjAction.NO_INSURANCE)
"""An insurance offer to a box whose limit is at least one unit."""
_NO_INSURANCE_ONLY = (DbjAction.NO_INSURANCE,)
"""An insurance offer to a box too small to insure (limit 0)."""
_SECOND_CHANCE_OFFER = (DbjAction.SECOND_CHANCE, DbjAction.NO_SECOND_CHANCE)
"""The Second Chance question (591.7(l))."""
_STAND_OR_HIT = (DbjAction.STAND, DbjAction.HIT)
"""After the first two cards (or on two cards after a double)."""
_DOUBLE_STAND_OR_HIT = (DbjAction.DOUBLE, *_STAND_OR_HIT)
"""A split hand's first two cards, doubling after a split allowed."""
_OPENINGS: dict[tuple[bool, bool], tuple[DbjAction, ...]] = {
    (surrender, pair): (
        *((DbjAction.SURRENDER,) if surrender else ()),
        DbjAction.DOUBLE,
        *((DbjAction.SPLIT,) if pair else ()),
        *_STAND_OR_HIT,
    )
    for surrender in (False, True)
    for pair in (False, True)
}
"""A box's first hand on two cards, by (surrender offered, a pair that
may be split)."""
_HANDLERS: dict[DbjAction, str] = {
    DbjAction.SURRENDER: "_do_surrender",
    DbjAction.SPLIT: "_do_split",
    DbjAction.STAND: "_do_stand",
    DbjAction.HIT: "_do_hit",
    DbjAction.NO_SECOND_CHANCE: "_do_no_second_chance",
}
"""The method carrying out each decision that takes no amount."""


_OFFERS: dict[tuple[int, int, int, tuple[DbjAction, ...]], Pending] = {}
"""Each pending decision already made, by what it is made of (its
reference by identity: the entry holds it, and it is checked)."""


def _offer(
    ref: Ref, seat: int, hand: int, legal: tuple[DbjAction, ...]
) -> Pending:
    """``Pending(seat=, hand=, legal=, ref=)``, made once for each.

    A :class:`Pending` is immutable, and a table has few seats, hands
    and lists of decisions: the same one is handed out each time.
    """
    key = (id(ref), seat, hand, legal)
    found = _OFFERS.get(key)
    if found is None or found.ref is not ref:
        found = Pending(seat=seat, hand=hand, legal=legal, ref=ref)
        if len(_OFFERS) < 4096:
            _OFFERS[key] = found
    return found


class DoubleBackJackRound(DealerProcedure):
    """One round of Double Back Jack (591.7, now 673a.7).

    Seats are the boxes 1..``rules.boxes``, seat 1 farthest to the
    dealer's left; clockwise is ascending, and the dealer's right (where
    settlements start) is the highest seat. Players act only through
    :meth:`apply` with a :class:`~.phases.DbjAction`; nothing here lets a
    player handle a card (591.7(v)).
    """

    # -- decisions -------------------------------------------------------

    _asked: tuple[int, Phase, PlayerHand | None, Pending | None] | None = None
    """The last :meth:`pending` answer, with the log's length, the phase
    and the hand to play when it was given."""
    _verified: tuple[Action, Callable[[], None]] | None = None
    """The action :meth:`verify_action` last passed, and its carrying out."""

    def pending(self) -> Pending | None:
        """The decision the round waits for, or ``None``.

        Asked again before anything happened, the last answer is given:
        every step and decision is recorded in the log, a refused verb
        changes nothing, and the one step that records nothing finds
        the next hand to play (:meth:`_step_decisions`); so with the log
        as long, the phase and the hand to play the same, the round is
        as it was (``tests/double_back_jack/test_dbj_fast_paths.py``
        checks every answer against :meth:`_pending_now`, between the
        verbs and between the dealer's steps; D57).
        """
        count = len(self.log)
        phase = self._phase
        hand = self._current
        asked = self._asked
        if (
            asked is not None
            and asked[0] == count
            and asked[1] is phase
            and asked[2] is hand
        ):
            return asked[3]
        found = self._pending_now()
        self._asked = (count, phase, hand, found)
        return found

    def _pending_now(self) -> Pending | None:
        """The decision the round waits for, worked out from the state."""
        phase = self._phase
        queue = self._insurance_queue
        if phase is Phase.INSURANCE and queue:
            seat = queue[0]
            return _offer(
                REF_INSURANCE,
                seat,
                0,
                _INSURANCE_OFFER
                if self.insurance_limit(seat)
                else _NO_INSURANCE_ONLY,
            )
        hand = self._current
        if hand is None:
            return None
        if phase is Phase.SECOND_CHANCE:
            return _offer(
                REF_SECOND_CHANCE, hand.seat, hand.index, _SECOND_CHANCE_OFFER
            )
        if phase is Phase.PLAYER_DECISIONS and (
            hand.status is HandStatus.PLAYING
        ):
            return _offer(
                REF_DECISIONS,
                hand.seat,
                hand.index,
                self._legal_decisions(hand),
            )
        return None

    def _awaits(self) -> bool:
        """Whether :meth:`pending` is not ``None``, without building it.

        The same three cases: an insurance offer queued, a Second Chance
        to offer, a hand still playing (``tests/double_back_jack/
        test_dbj_awaits.py`` checks the two agree at every step).
        """
        phase = self._phase
        if phase is Phase.INSURANCE and self._insurance_queue:
            return True
        hand = self._current
        return hand is not None and (
            phase is Phase.SECOND_CHANCE
            or (
                phase is Phase.PLAYER_DECISIONS
                and hand.status is HandStatus.PLAYING
            )
        )

    def insurance_limit(self, seat: int) -> int:
        """The largest insurance box ``seat`` may place (D5, 673a.8).

        A share (``insurance_max``) of the box's Blackjack Wager,
        rounded down to a whole minor unit.
        """
        stake = self.ledger.stakes[WagerKey(seat, Wager.BLACKJACK)]
        return int(stake * self.rules.insurance_max)

    def _legal_decisions(self, hand: PlayerHand) -> tuple[DbjAction, ...]:
        """The decisions open to a hand, in the order of 591.7(i).

        On the first two cards: surrender (not on a split hand, 673a.9),
        double (on a split hand only if the rules allow, 673a.10), split
        (a pair, while the box may hold another hand, 673a.11); then
        stand and hit. Chosen from the fixed lists of :data:`_OPENINGS`.
        """
        cards = hand.cards
        if len(cards) != 2 or hand.doubled:
            return _STAND_OR_HIT
        rules = self.rules
        if hand.split:
            return (
                _DOUBLE_STAND_OR_HIT
                if rules.double_after_split
                else _STAND_OR_HIT
            )
        pair = len(self._boxes[hand.seat]) < rules.max_split_hands and (
            same_value(cards[0], cards[1])
        )
        return _OPENINGS[rules.surrender, pair]

    @implements("591.7(v)")
    def verify_action(self, action: Action) -> None:
        """Raise unless ``action`` is legal now.

        The name must be one of :class:`DbjAction` (a player only
        decides, never handles a card), the seat the one to act, the
        decision legal for its hand, and any amount within the rules; no
        decision names a card.
        """
        self._verified = None
        try:
            name = _ACTIONS.get(action.name)
        except TypeError:  # an unhashable name is no decision either
            name = None
        if name is None:
            msg = (
                f"{json_text(action.name)} is not a Double Back Jack "
                "decision; a "
                "player only decides, and never handles the cards"
            )
            pending = self.pending()
            if pending is not None:
                # what may be sent instead, as the other refusals list it
                msg += (
                    f"; seat {pending.seat} is to act, legal now: "
                    f"{self.actions_listed(pending.legal)}"
                )
            raise IllegalActionError(msg, ref=REF_PLAYERS_DECIDE_ONLY)
        pending = self._verify_turn(action, REF_PLAYERS_DECIDE_ONLY)
        if name not in pending.legal:
            msg = (
                f"{self.action_title(name)} is not allowed for seat "
                f"{action.seat} now; legal: "
                f"{self.actions_listed(pending.legal)}"
            )
            raise IllegalActionError(msg, ref=self._refusal_ref(name))
        if action.card is not None:
            msg = f"{self.action_title(name)} names no card, not {action.card}"
            raise IllegalActionError(msg, ref=pending.ref)
        self._verified = (action, self._decision(name, action))

    def _refusal_ref(self, name: DbjAction) -> Ref:
        """The subsection that forbids ``name`` for the hand to act now.

        A double on a split hand is the rules' option to allow (673a.10(c));
        any other refusal is the decision's own rule.
        """
        hand = self._current
        if (
            name is DbjAction.DOUBLE
            and hand is not None
            and hand.split
            and not self.rules.double_after_split
        ):
            return REF_DOUBLE_AFTER_SPLIT
        return _REFUSAL_REFS[name]

    def _refuse_no_decision(self, action: Action, ref: Ref) -> None:
        """Nobody is to decide: the phase the round is in says why.

        The phase is named as the table's narration heads it (D189).
        """
        del action
        msg = f"no decision is pending in the {self.phase_title()} phase"
        raise WrongPhaseError(msg, ref=self._phase_ref or ref)

    def _carry_out(self, action: Action) -> None:
        """Carry out a verified decision, then run the dealer's steps.

        :meth:`apply` verifies ``action`` just before: what the check
        returned carries it out (the same as working it out again).
        """
        verified = self._verified
        self._verified = None
        if verified is not None and verified[0] is action:
            verified[1]()
        else:
            self._decision(DbjAction(action.name), action)()
        self._continue()

    def _decision(self, name: DbjAction, action: Action) -> Callable[[], None]:
        """Check the decision's amount; return what carries it out."""
        amount = action.amount
        if name is DbjAction.INSURANCE:
            seat = action.seat
            limit = self.insurance_limit(seat)
            if amount is None or not 1 <= amount <= limit:
                # (an amount left out is said so, not written "None")
                given = (
                    "; no amount was given"
                    if amount is None
                    else f", not {amount_text(amount)}"
                )
                msg = (
                    f"the {self.wager_title(Wager.INSURANCE)} must be "
                    f"{_range(1, limit)}{given}"
                )
                raise WagerError(msg, ref=REF_INSURANCE_WAGER)
            return partial(self._do_insurance, seat, amount)
        if name is DbjAction.NO_INSURANCE:
            if amount is not None:
                msg = f"{self.action_title(name)} takes no amount"
                raise WagerError(msg, ref=REF_INSURANCE)
            return partial(self._do_no_insurance, action.seat)
        hand = self._current
        if hand is None:  # pragma: no cover - pending() guarantees it
            raise InvariantError("no current hand")
        if name is DbjAction.DOUBLE:
            stake = self.ledger.stakes[hand.key]
            amount = stake if amount is None else amount
            if not 1 <= amount <= stake or (
                amount != stake and not self.rules.double_for_less
            ):
                least = 1 if self.rules.double_for_less else stake
                msg = (
                    f"{self.action_title(name)} must be {_range(least, stake)}"
                    f", not {amount_text(amount)}"
                )
                raise WagerError(msg, ref=REF_DOUBLE)
            return partial(self._do_double, hand, amount)
        if name is DbjAction.SECOND_CHANCE:
            stake = self.ledger.stakes[hand.key]
            if amount is not None and amount != stake:
                msg = f"the Second Chance Wager must equal {dollars(stake)}"
                raise WagerError(msg, ref=REF_SECOND_CHANCE)
            return partial(self._do_second_chance, hand, stake)
        if amount is not None:
            msg = f"{self.action_title(name)} takes no amount"
            raise WagerError(msg, ref=_REFUSAL_REFS[name])
        handler: Callable[[PlayerHand], None] = getattr(self, _HANDLERS[name])
        return partial(handler, hand)

    def _decided(
        self,
        seat: int,
        action: DbjAction,
        ref: Ref,
        hand: int = 0,
        amount: int | None = None,
    ) -> None:
        self._emit_decided(
            ref=ref,
            seat=seat,
            action=_ACTION_NAMES[action],
            hand=hand,
            amount=amount,
        )

    @implements("591.7(g)")
    def _do_insurance(self, seat: int, amount: int) -> None:
        self._insurance_queue.pop(0)
        self._decided(seat, DbjAction.INSURANCE, REF_INSURANCE, amount=amount)
        self._record_wager(
            WagerKey(seat, Wager.INSURANCE), amount, REF_INSURANCE_WAGER
        )

    def _do_no_insurance(self, seat: int) -> None:
        self._insurance_queue.pop(0)
        self._decided(seat, DbjAction.NO_INSURANCE, REF_INSURANCE)

    @implements("591.7(i)")
    def _do_surrender(self, hand: PlayerHand) -> None:
        self._decided(hand.seat, DbjAction.SURRENDER, REF_DECISIONS)
        stake = self.ledger.stakes[hand.key]
        refund = int(stake * self.rules.surrender_refund)
        self._pay(
            Payment(hand.key, Outcome.LOSE, refund - stake, REF_SURRENDER)
        )
        self._collect(hand, REF_DECISIONS)
        hand.status = HandStatus.SETTLED
        self._current = None

    @implements("591.7(k)")
    def _do_double(self, hand: PlayerHand, amount: int) -> None:
        self._decided(
            hand.seat,
            DbjAction.DOUBLE,
            REF_DECISIONS,
            hand.index,
            amount,
        )
        self.ledger.increase(hand.key, amount)
        self.log.emit(
            WagerPlaced,
            ref=REF_DOUBLE,
            seat=hand.seat,
            wager=Wager.BLACKJACK,
            amount=amount,
            hand=hand.index,
        )
        hand.doubled = True
        hand.cards.append(
            self._deal_card(
                hand.label,
                REF_DOUBLE_CARD,
                hand=hand.index,
                purpose="double",
            )
        )
        self._current = None
        self._after_card(hand)
        if hand.status is HandStatus.PLAYING:  # pragma: no cover - defensive
            hand.status = HandStatus.STANDING

    def _do_split(self, hand: PlayerHand) -> None:
        self._decided(hand.seat, DbjAction.SPLIT, REF_DECISIONS)
        stake = self.ledger.stakes[hand.key]
        second = PlayerHand(
            seat=hand.seat, index=1, cards=[hand.cards.pop()], split=True
        )
        hand.split = True
        self._boxes[hand.seat].append(second)
        self._boxes_changed()
        self._record_wager(second.key, stake, REF_SPLIT)
        self._current = None

    def _do_stand(self, hand: PlayerHand) -> None:
        self._decided(hand.seat, DbjAction.STAND, REF_DECISIONS, hand.index)
        hand.status = HandStatus.STANDING
        self._current = None

    @implements("591.7(j)")
    def _do_hit(self, hand: PlayerHand) -> None:
        self._decided(hand.seat, DbjAction.HIT, REF_DECISIONS, hand.index)
        hand.cards.append(
            self._deal_card(hand.label, REF_HIT, hand=hand.index)
        )
        self._after_card(hand)
        if self._phase is not Phase.SECOND_CHANCE:
            self._current = None

    def _do_second_chance(self, hand: PlayerHand, stake: int) -> None:
        self._decided(
            hand.seat,
            DbjAction.SECOND_CHANCE,
            REF_SECOND_CHANCE,
            hand.index,
            stake,
        )
        self._record_wager(hand.second_chance_key, stake, REF_SECOND_CHANCE)
        hand.second_chance_card = self._deal_card(
            hand.label,
            REF_SECOND_CHANCE,
            hand=hand.index,
            purpose="second chance",
        )
        total = hand.total()
        keys = [hand.key, hand.second_chance_key]
        if total > TWENTY_ONE:
            ref = REF_SECOND_CHANCE_BUST
            self._settle_many(
                Payment(key, Outcome.LOSE, -self.ledger.stakes[key], ref)
                for key in keys
            )
            self._collect(hand, ref)
            hand.status = HandStatus.SETTLED
        elif total == TWENTY_ONE:
            ref = REF_SECOND_CHANCE_21
            self._settle_many(
                [
                    Payment(hand.key, Outcome.PUSH, 0, ref),
                    Payment(
                        hand.second_chance_key,
                        Outcome.WIN,
                        self._winnings(
                            self.rules.second_chance_21_payout,
                            hand.second_chance_key,
                        ),
                        ref,
                    ),
                ]
            )
            self._collect(hand, ref)
            hand.status = HandStatus.SETTLED
        else:
            self.log.emit(
                Announced,
                ref=REF_SECOND_CHANCE_STANDS,
                text=f"{hand.label} has {total} after the Second Chance",
            )
            hand.status = HandStatus.STANDING
        self._current = None
        self._enter_phase(Phase.PLAYER_DECISIONS)

    def _do_no_second_chance(self, hand: PlayerHand) -> None:
        self._decided(
            hand.seat,
            DbjAction.NO_SECOND_CHANCE,
            REF_SECOND_CHANCE,
            hand.index,
        )
        self._lose_bust(hand)
        self._current = None
        self._enter_phase(Phase.PLAYER_DECISIONS)

    # -- views -----------------------------------------------------------

    def view(self, seat: int | None) -> DoubleBackJackView:
        """What ``seat`` (``None``: a spectator) may see now.

        Built from the state, never a copy of it: the hole card appears
        only once turned face up ((h) on a dealer Blackjack, else (n)),
        and no undealt card ever appears, only how many remain.
        """
        dealer: list[str] = []
        if self._dealer_on_table:
            dealer = [str(self._dealer[0])]
            if self._hole_exposed:
                dealer.extend(str(card) for card in self._dealer[1:])
            else:
                dealer.append("hidden")
        boxes: list[BoxView] = []
        for box_seat in sorted(self._boxes):
            hands = [
                HandView(
                    label=hand.label,
                    cards=[str(c) for c in hand.all_cards()]
                    if hand.on_table
                    else [],
                    total=hand.total() if hand.on_table else None,
                    status=hand.status.value,
                    doubled=hand.doubled,
                )
                for hand in self._boxes[box_seat]
            ]
            wagers = {
                f"{key.wager}/{key.hand}": amount
                for key, amount in self.ledger.stakes.items()
                if key.seat == box_seat and self.ledger.is_open(key)
            }
            boxes.append(BoxView(seat=box_seat, hands=hands, wagers=wagers))
        pending = self.pending()
        out: DoubleBackJackView = {
            "game": self.game,
            "phase": self._phase.value,
            "seat": seat,
            "dealer": dealer,
            "boxes": boxes,
            "shoe": {"cards_left": len(self.shoe)},
            "to_act": None if pending is None else pending.seat,
            "settlements": [s.to_dict() for s in self.settlements],
        }
        if pending is not None and seat == pending.seat:
            out["legal"] = [action.value for action in pending.legal]
        return out


def _range(least: int, most: int) -> str:
    """Amounts from ``least`` to ``most``, as a refusal says them (D190).

    "$0.01 to $5.00", or "$5.00" when only one amount is allowed (a
    double for less not allowed, 673a.10(a)).
    """
    if least == most:
        return dollars(most)
    return f"{dollars(least)} to {dollars(most)}"
