"""The dealer's side of a Double Back Jack round (591.7 (a)-(h), (j)-(u)).

:class:`DealerProcedure` holds the round's state and runs every step the
dealer takes without a player's decision: the (c) burn, the (e) deal,
(f) Blackjacks, the (h) card-reader check, the (m) 21s, (n)-(p) the
dealer's hand, (q)-(t) settlement, (u) clearing and the (d) reshuffle.
The players' decisions and the per-seat view are added by
:class:`~.round.DoubleBackJackRound`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from croupier.cards import Card, Rank
from croupier.errors import ProcedureError, ShoeExhaustedError, WagerError
from croupier.events import (
    Announced,
    CardExposed,
    CardsCollected,
    DecisionMade,
    Event,
    WagerPlaced,
)
from croupier.hands.blackjack import (
    Total,
    blackjack_total,
    is_blackjack,
)
from croupier.jsontypes import json_text
from croupier.money import (
    Odds,
    Outcome,
    WagerKey,
    amount_text,
    dollars,
    in_cents,
)
from croupier.procedures.shoe_games import (
    burn_for_new_batch,
    burn_for_new_dealer,
    collect_and_reshuffle,
)
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.round import GameRound
from croupier.shoe import Shoe

from .events import CardReaderChecked
from .hands import HandStatus, Payment, PlayerHand, settlement_order
from .phases import ACTION_TITLES, PHASE_TITLES, PHASES, Phase
from .refs import (
    REF_BLACKJACK_WAGER,
    REF_BOXES,
    REF_BOXES_PER_PLAYER,
    REF_CARD_READER,
    REF_CLEARING,
    REF_COLLECT_THEN_PAY,
    REF_COVER_CARD,
    REF_DEAL,
    REF_DEAL_BOXES_FIRST,
    REF_DEAL_BOXES_SECOND,
    REF_DEAL_DEALER_HOLE,
    REF_DEAL_DEALER_UP,
    REF_DEALER_22,
    REF_DEALER_DRAWS,
    REF_DEALER_DRAWS_NOTHING,
    REF_FROM_SHOE,
    REF_HOLE_CARD,
    REF_INSURANCE,
    REF_INSURANCE_WAGER,
    REF_LOSE,
    REF_NEW_DEALER_BURN,
    REF_PLAYER_BLACKJACK,
    REF_PLAYER_BY_PLAYER,
    REF_PUSH,
    REF_SECOND_CHANCE,
    REF_SPLIT_CARD,
    REF_TABLE_LIMITS,
    REF_TWENTY_ONE,
    REF_WAGERING,
    REF_WIN,
    REF_WIN_WITH_SECOND_CHANCE,
)
from .rules import (
    WAGER_TITLES,
    CollectionProcedure,
    DoubleBackJackRules,
    TwentyOnePaid,
    Wager,
)

__all__ = ["SECTION", "DealerProcedure"]

SECTION = "591.7"
"""The seed section (now 673a.7) that governs the round."""
DEALER_STANDS = 17
"""The dealer stands on any hard or soft 17-21 (591.7(o))."""
TWENTY_ONE = 21
"""The best total."""
DEALER_PUSH_TOTAL = 22
"""A dealer 22 returns every remaining wager (591.7(q)(1))."""


_COLLECTION_ANNOUNCED: dict[CollectionProcedure, tuple[Ref, str]] = {
    procedure: (
        REF_COLLECT_THEN_PAY
        if procedure is CollectionProcedure.COLLECT_THEN_PAY
        else REF_PLAYER_BY_PLAYER,
        f"collection procedure {procedure.value}",
    )
    for procedure in CollectionProcedure
}
"""What the dealer announces before settling, by collection procedure."""
_TEN_OR_ACE = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE})


class DealerProcedure(GameRound[DoubleBackJackRules, Phase]):
    """State and dealer steps of a Double Back Jack round (591.7).

    Seats are the boxes 1..``rules.boxes``, seat 1 farthest to the
    dealer's left; clockwise is ascending, and the dealer's right (where
    settlements start) is the highest seat.
    """

    game = "double-back-jack"
    cover_card_ref = REF_COVER_CARD
    wager_names = (Wager.BLACKJACK.value,)
    wager_titles = WAGER_TITLES
    seats_ref = REF_BOXES
    offered_ref = REF_BLACKJACK_WAGER
    action_titles = ACTION_TITLES
    phase_titles = PHASE_TITLES

    def __init__(
        self,
        *,
        rules: DoubleBackJackRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
        starting_position: int | None = None,
    ) -> None:
        if starting_position is not None:
            msg = (
                "Double Back Jack has no starting position: the deal starts "
                "with the player farthest to the dealer's left"
            )
            raise ProcedureError(msg, ref=REF_DEAL)
        super().__init__(
            rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe, phases=PHASES
        )
        self._boxes: dict[int, list[PlayerHand]] = {}
        self._order: list[PlayerHand] | None = None
        self._players: dict[int, str] = {}
        self._dealer: list[Card] = []
        self._dealer_on_table = False
        self._hole_exposed = False
        self._insurance_queue: list[int] = []
        self._current: PlayerHand | None = None
        # events of every round, emitted without passing the fields on
        # (:meth:`EventLog.emitter`, the same events)
        self._emit_announced = self.log.emitter(Announced)
        self._emit_collected = self.log.emitter(CardsCollected)
        self._emit_decided = self.log.emitter(DecisionMade)
        if new_shoe:
            burn_for_new_batch(
                self.shoe, self.log, SECTION, self._on_cover_card
            )
        self._open()

    # -- state -----------------------------------------------------------

    @property
    def needs_new_shoe(self) -> bool:
        """Whether the cover card came out: the next round burns anew.

        After a (d) reshuffle the stack must be cut and given a cover
        card (591.5) and the next round created with ``new_shoe=True``
        so that its (c) burn runs.
        """
        return self.cover_card_reached or self.shoe_ran_out

    def verify_change_dealer(self) -> None:
        """Raise unless a new dealer may burn now: before the deal (c).

        A shoe with no card left (a cover card aside) has none to burn:
        refused, citing (a), before anything changes; the deal then
        finds the shoe empty and voids the round (D69).
        """
        self._verify_phase(
            Phase.WAGERING,
            "a new dealer burns before dealing, not in the {phase} phase",
            REF_NEW_DEALER_BURN,
        )
        if self.shoe.empty:
            msg = (
                "the shoe holds no card for a new dealer to burn; "
                "the deal will find it empty and void the round (D69)"
            )
            raise ShoeExhaustedError(msg, ref=REF_FROM_SHOE)

    def can_change_dealer(self) -> bool:
        """Whether :meth:`change_dealer` would burn now."""
        return self._passes(self.verify_change_dealer)

    @implements("591.7(c)")
    def change_dealer(self) -> Event:
        """A new dealer comes to the table and burns one card (c).

        Allowed only before the first card of the round is dealt; a
        cover card met on top is set aside (d). On an empty shoe it is
        refused and changes nothing (:meth:`verify_change_dealer`).
        """
        self.verify_change_dealer()
        return burn_for_new_dealer(
            self.shoe, self.log, SECTION, self._on_cover_card
        )

    def player_hands(self) -> list[PlayerHand]:
        """Every player hand, seat by seat clockwise (a copy of the list)."""
        return list(self._in_order())

    def _in_order(self) -> list[PlayerHand]:
        """Every player hand, seat by seat clockwise (the round's own list).

        Kept between the changes of the boxes (a box placed or taken
        back, a split), which drop it (:meth:`_boxes_changed`); the
        steps only read it.
        """
        order = self._order
        if order is None:
            boxes = self._boxes
            order = self._order = [
                hand for seat in sorted(boxes) for hand in boxes[seat]
            ]
        return order

    def _boxes_changed(self) -> None:
        """A box or a hand came or went: the hands' order is built anew."""
        self._order = None

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards (the state, not a view: includes the hole)."""
        return tuple(self._dealer)

    def table_cards(self) -> list[Card]:
        """Cards on the layout now."""
        cards = [
            card
            for hand in self._in_order()
            if hand.on_table
            for card in hand.all_cards()
        ]
        if self._dealer_on_table:
            cards.extend(self._dealer)
        return cards

    def hands(self) -> dict[str, list[str]]:
        """Every hand's cards: ``seat N``, ``seat N hand 2``, ``dealer``."""
        out = {
            hand.label: [str(card) for card in hand.all_cards()]
            for hand in self._in_order()
        }
        out["dealer"] = [str(card) for card in self._dealer]
        return out

    # -- wagering ----------------------------------------------------------

    def verify_wager(
        self, seat: int, wager: str, amount: int, player: str | None = None
    ) -> None:
        """Raise unless the wager may be placed now."""
        rules = self.rules
        self._verify_phase(
            Phase.WAGERING,
            "wagers close before the first card; the round is in the "
            "{phase} phase",
            REF_WAGERING,
        )
        self._verify_offered(
            wager,
            self.wager_names,
            "only a Blackjack Wager is placed before the deal, not {wager}",
            self.offered_ref,
        )
        self._verify_seat(
            seat,
            rules.boxes,
            "the table has boxes 1 to {seats}, not {seat}",
            self.seats_ref,
        )
        self._verify_amount(amount, REF_TABLE_LIMITS)
        if not rules.table_minimum <= amount <= rules.table_maximum:
            msg = _outside_limits(amount, rules)
            raise WagerError(msg, ref=REF_TABLE_LIMITS)
        if seat in self._boxes:
            msg = f"box {seat} already holds a Blackjack Wager"
            raise WagerError(msg, ref=REF_WAGERING)
        if player is not None:
            self._verify_player_boxes(seat, player)

    def _verify_player_boxes(self, seat: int, player: str) -> None:
        owned = [s for s, p in self._players.items() if p == player]
        if len(owned) + 1 > self.rules.boxes_per_player:
            msg = (
                f"player {json_text(player)} may wager on at most "
                f"{self.rules.boxes_per_player} boxes"
            )
            raise WagerError(msg, ref=REF_BOXES_PER_PLAYER)
        if owned and not any(abs(seat - s) == 1 for s in owned):
            msg = (
                f"box {seat} is not adjacent to {json_text(player)}'s boxes "
                f"{owned}"
            )
            raise WagerError(msg, ref=REF_BOXES_PER_PLAYER)

    def place_wager(
        self, seat: int, wager: str, amount: int, player: str | None = None
    ) -> WagerPlaced:
        """Place a Blackjack Wager on box ``seat`` (673a.6).

        ``player`` names who plays the box, so that one player's boxes
        can be held to the adjacent-box limit of the Rules Submission
        (673a.6(e)); without it each box is its own player.
        """
        self.verify_wager(seat, wager, amount, player)
        if player is not None:
            self._players[seat] = player
        return self._place(seat, wager, amount)

    def _wager_placed(self, key: WagerKey) -> None:
        """A new box: its first hand, waiting for the deal.

        The hand's wager key becomes the ledger's own (equal) key, so
        that the ledger finds the hand's wager by identity.
        """
        hand = PlayerHand(seat=key.seat)
        if hand.key == key:
            hand.key = key
        self._boxes[key.seat] = [hand]
        self._boxes_changed()

    def _wager_ref(self, wager: str) -> Ref:
        """The Blackjack Wager is placed under 673a.6(d)."""
        return REF_BLACKJACK_WAGER

    def verify_wager_change(
        self, key: WagerKey, amount: int, ref: Ref
    ) -> None:
        """The common checks, then the table limits on the new stake."""
        super().verify_wager_change(key, amount, ref)
        rules = self.rules
        if amount and not rules.table_minimum <= amount <= rules.table_maximum:
            msg = _outside_limits(amount, rules)
            raise WagerError(msg, ref=REF_TABLE_LIMITS)

    def _wager_taken_back(self, key: WagerKey) -> None:
        """The box is empty again (and no longer counts as the player's)."""
        self._boxes.pop(key.seat, None)
        self._players.pop(key.seat, None)
        self._boxes_changed()

    # -- the automatic procedure --------------------------------------------

    def verify_deal(self) -> None:
        """Raise unless a box holds a wager and nothing is dealt yet."""
        self._verify_phase(
            Phase.WAGERING,
            "the cards are dealt once per round; the round is in the "
            "{phase} phase",
            REF_DEAL,
        )
        if not self._boxes:
            msg = "no box holds a Blackjack Wager"
            raise WagerError(msg, ref=REF_BLACKJACK_WAGER)

    def _run_deal(self) -> None:
        """Deal (e) and run the procedure to the first decision."""
        self._enter_phase(Phase.DEALING)
        self._continue()

    def _continue(self) -> None:
        """Run dealer steps until a player must decide or the round ends."""
        steps = self._STEPS
        awaits = self._awaits
        while self._phase is not Phase.COMPLETE and not awaits():
            steps[self._phase](self)

    def _awaits(self) -> bool:
        """Whether :meth:`pending` is not ``None`` (a player must decide)."""
        return self.pending() is not None

    @implements("591.7(a)", "591.7(b)")
    def _deal_card(
        self,
        to: str,
        ref: Ref,
        *,
        face_up: bool = True,
        hand: int = 0,
        purpose: str = "",
    ) -> Card:
        """The dealer takes the next card from the dealing shoe.

        Every card of the round comes from the shoe (a), drawn and placed
        by the dealer alone (b); a cover card met on the way is set aside
        and the round completed (d).
        """
        return self._deal_to(
            to, ref, face_up=face_up, hand=hand, purpose=purpose
        )

    @implements("591.7(e)")
    def _step_deal(self) -> None:
        boxes = self._boxes
        first = [boxes[seat][0] for seat in sorted(boxes)]
        for hand in first:
            hand.cards.append(
                self._deal_card(hand.label, REF_DEAL_BOXES_FIRST)
            )
        self._dealer_on_table = True
        self._dealer.append(self._deal_card("dealer", REF_DEAL_DEALER_UP))
        for hand in first:
            hand.cards.append(
                self._deal_card(hand.label, REF_DEAL_BOXES_SECOND)
            )
        self._dealer.append(
            self._deal_card(
                "dealer",
                REF_DEAL_DEALER_HOLE,
                face_up=False,
                purpose="hole",
            )
        )
        self._enter_phase(Phase.PLAYER_BLACKJACKS)

    @implements("591.7(f)")
    def _step_player_blackjacks(self) -> None:
        rules = self.rules
        for seat in sorted(self._boxes, reverse=True):
            hand = self._boxes[seat][0]
            if is_blackjack(hand.cards):
                self._pay(
                    Payment(
                        hand.key,
                        Outcome.WIN,
                        self._winnings(rules.blackjack_payout, hand.key),
                        REF_PLAYER_BLACKJACK,
                    )
                )
                self._collect(hand, REF_PLAYER_BLACKJACK)
                hand.status = HandStatus.SETTLED
        up = self._dealer[0]
        # the boxes still playing are listed only when insurance may open
        live = (
            [h.seat for h in self._in_order() if self._is_live(h)]
            if up.rank == Rank.ACE and rules.insurance
            else []
        )
        if live:
            self._insurance_queue = live
            self._enter_phase(Phase.INSURANCE)
            self.log.emit(
                Announced, ref=REF_INSURANCE, text="insurance is open"
            )
        elif up.rank in _TEN_OR_ACE:
            self._enter_phase(Phase.CARD_READER)
        else:
            self._enter_phase(Phase.PLAYER_DECISIONS)

    def _step_insurance_closed(self) -> None:
        self._enter_phase(Phase.CARD_READER)

    @implements("591.7(h)")
    def _step_card_reader(self) -> None:
        blackjack = is_blackjack(self._dealer)
        self.log.emit(
            CardReaderChecked, ref=REF_CARD_READER, blackjack=blackjack
        )
        if blackjack:
            self._enter_phase(Phase.DEALER_BLACKJACK)
            return
        # insurance is settled at the check, at its own odds (673a.8)
        self._settle_many(
            Payment(
                key,
                Outcome.LOSE,
                -self.ledger.stakes[key],
                REF_INSURANCE_WAGER,
            )
            for key in self._open_insurance()
        )
        self._enter_phase(Phase.PLAYER_DECISIONS)

    def _step_dealer_blackjack(self) -> None:
        ref = REF_CARD_READER
        self._expose_hole(ref)
        self.log.emit(Announced, ref=ref, text="dealer has Blackjack")
        payments = [
            Payment(hand.key, Outcome.LOSE, -self.ledger.stakes[hand.key], ref)
            for hand in self._in_order()
            if self.ledger.is_open(hand.key)
        ]
        payments.extend(
            Payment(
                key,
                Outcome.WIN,
                self._winnings(self.rules.insurance_payout, key),
                REF_INSURANCE_WAGER,
            )
            for key in self._open_insurance()
        )
        self._settle_many(payments)
        for hand in self._in_order():
            hand.status = HandStatus.SETTLED
        self._enter_phase(Phase.CLEARING)

    def _step_decisions(self) -> None:
        """Find the next hand to decide, left to right (591.7(i))."""
        for hand in self._in_order():
            if hand.status is not HandStatus.PLAYING:
                continue
            if len(hand.cards) == 1:
                hand.cards.append(
                    self._deal_card(
                        hand.label,
                        REF_SPLIT_CARD,
                        hand=hand.index,
                        purpose="split",
                    )
                )
                self._after_card(hand)
                if hand.status is not HandStatus.PLAYING:
                    if self._phase is Phase.SECOND_CHANCE:
                        return
                    continue
            self._current = hand
            return
        self._current = None
        if self.rules.twenty_one_paid is TwentyOnePaid.BEFORE_HOLE_CARD:
            self._pay_twenty_ones()
        self._enter_phase(Phase.HOLE_CARD)

    @implements("591.7(n)")
    def _step_hole_card(self) -> None:
        self._expose_hole(REF_HOLE_CARD)
        self._announce_total(REF_HOLE_CARD)
        self._enter_phase(Phase.DEALER_DRAW)

    @implements("591.7(o)", "591.7(p)")
    def _step_dealer_draw(self) -> None:
        if not any(h.status is HandStatus.STANDING for h in self._in_order()):
            self.log.emit(
                Announced,
                ref=REF_DEALER_DRAWS_NOTHING,
                text="every hand is decided: the dealer draws no card",
            )
        else:
            dealer = self._dealer
            total = blackjack_total(dealer)
            while total.value < DEALER_STANDS:
                dealer.append(self._deal_card("dealer", REF_DEALER_DRAWS))
                total = blackjack_total(dealer)
                self._announce_total(REF_DEALER_DRAWS, total)
        self._enter_phase(Phase.SETTLEMENT)

    @implements("591.7(q)", "591.7(r)", "591.7(s)")
    def _step_settlement(self) -> None:
        ref, text = _COLLECTION_ANNOUNCED[self.rules.collection_procedure]
        self._emit_announced(ref=ref, text=text)
        dealer = blackjack_total(self._dealer).value
        payments: list[Payment] = []
        for hand in self._in_order():
            if hand.status is HandStatus.STANDING:
                payments.extend(self._compare(hand, dealer))
                hand.status = HandStatus.SETTLED
        self._settle_many(payments)
        self._enter_phase(Phase.CLEARING)

    def _compare(self, hand: PlayerHand, dealer: int) -> list[Payment]:
        """The (q)-(s) settlement of one remaining hand."""
        rules = self.rules
        player = hand.total()
        chance = hand.second_chance_key
        has_chance = self.ledger.is_open(chance)
        keys = [hand.key, chance] if has_chance else [hand.key]
        if dealer == DEALER_PUSH_TOTAL:
            return [
                Payment(key, Outcome.PUSH, 0, REF_DEALER_22) for key in keys
            ]
        if player > TWENTY_ONE:  # only when busts stay on the layout (D1)
            outcome = Outcome.LOSE
        elif dealer > TWENTY_ONE or player > dealer:
            outcome = Outcome.WIN
        elif player == dealer:
            outcome = Outcome.PUSH
        else:
            outcome = Outcome.LOSE
        if outcome is Outcome.WIN and has_chance:
            ref = REF_WIN_WITH_SECOND_CHANCE
            return [
                Payment(hand.key, Outcome.PUSH, 0, ref),
                Payment(
                    chance,
                    Outcome.WIN,
                    self._winnings(rules.second_chance_win_payout, chance),
                    ref,
                ),
            ]
        if outcome is Outcome.WIN:
            return [
                Payment(
                    hand.key,
                    Outcome.WIN,
                    self._winnings(rules.win_payout, hand.key),
                    REF_WIN,
                )
            ]
        if outcome is Outcome.PUSH:
            return [Payment(key, Outcome.PUSH, 0, REF_PUSH) for key in keys]
        return [
            Payment(
                key,
                Outcome.LOSE,
                -self.ledger.stakes[key],
                REF_LOSE,
            )
            for key in keys
        ]

    @implements("591.7(u)")
    def _step_clearing(self) -> None:
        self._clear_layout(REF_CLEARING)
        self._enter_phase(
            Phase.RESHUFFLE if self.cover_card_reached else Phase.COMPLETE
        )

    def _clear_layout(self, ref: Ref) -> None:
        """Every card on the layout to the rack, the dealer's last (u)."""
        # right to left, the second hand of a box before the first: the
        # clockwise order reversed (no two hands share seat and index)
        for hand in reversed(self._in_order()):
            if hand.on_table:
                self._collect(hand, ref)
        if self._dealer_on_table:
            self._dealer_on_table = False
            self.shoe.discard_cards(self._dealer)
            self._emit_collected(
                ref=ref,
                source="dealer",
                cards=tuple(self._dealer),
                exposed=self._hole_exposed,
            )

    @implements("591.7(a)")
    def _shoe_empty(self, exc: ShoeExhaustedError) -> None:
        """The shoe has no card for the step: the round is void (D69).

        Every card comes from the shoe (a); when none is left (a shoe of
        few decks, many boxes and splits) the round cannot be completed.
        As for any card missing (D25), every wager still on the layout
        goes back; those settled already (a Blackjack paid at once, a
        busted hand collected) stand. The cards go to the rack, hands
        right to left, and the shoe is reshuffled (d) for the next round.
        """
        del exc  # the draw that found the shoe empty
        self._current = None
        self._insurance_queue.clear()
        self._void_for_want_of_cards(Phase.VOID, REF_FROM_SHOE)
        self._clear_layout(REF_FROM_SHOE)
        self._enter_phase(Phase.RESHUFFLE)
        self._step_reshuffle()

    @implements("591.7(d)")
    def _step_reshuffle(self) -> None:
        collect_and_reshuffle(self.shoe, self.log, SECTION, self.rng)
        self._enter_phase(Phase.COMPLETE)

    _STEPS: ClassVar[dict[Phase, Callable[[DealerProcedure], None]]] = {
        Phase.DEALING: _step_deal,
        Phase.PLAYER_BLACKJACKS: _step_player_blackjacks,
        Phase.INSURANCE: _step_insurance_closed,
        Phase.CARD_READER: _step_card_reader,
        Phase.DEALER_BLACKJACK: _step_dealer_blackjack,
        Phase.PLAYER_DECISIONS: _step_decisions,
        Phase.HOLE_CARD: _step_hole_card,
        Phase.DEALER_DRAW: _step_dealer_draw,
        Phase.SETTLEMENT: _step_settlement,
        Phase.CLEARING: _step_clearing,
        Phase.RESHUFFLE: _step_reshuffle,
    }

    # -- hand bookkeeping ------------------------------------------------

    def _is_live(self, hand: PlayerHand) -> bool:
        return hand.status is HandStatus.PLAYING

    def _open_insurance(self) -> list[WagerKey]:
        return [
            key
            for key in self.ledger.open_keys()
            if key.wager == Wager.INSURANCE
        ]

    def _winnings(self, odds: Odds, key: WagerKey) -> int:
        return odds.winnings(self.ledger.stakes[key], self.rules.rounding)

    def _pay(self, payment: Payment) -> None:
        self._settle(payment.key, payment.outcome, payment.net, payment.ref)

    def _settle_many(self, payments: Iterable[Payment]) -> None:
        ordered = settlement_order(
            payments, self.rules.collection_procedure, self._players
        )
        for payment in ordered:
            self._pay(payment)

    def _collect(self, hand: PlayerHand, ref: Ref) -> None:
        """Place a hand's cards in the discard rack, in dealt order."""
        extra = hand.second_chance_card
        cards = (*hand.cards,) if extra is None else (*hand.cards, extra)
        hand.on_table = False
        self.shoe.discard_cards(cards)
        self._emit_collected(ref=ref, source=hand.label, cards=cards)

    def _expose_hole(self, ref: Ref) -> None:
        self._hole_exposed = True
        self.log.emit(CardExposed, ref=ref, to="dealer", card=self._dealer[1])

    def _announce_total(self, ref: Ref, total: Total | None = None) -> None:
        """Announce the dealer's total (``total``: already worked out)."""
        if total is None:
            total = blackjack_total(self._dealer)
        kind = "soft" if total.soft else "hard"
        self._emit_announced(ref=ref, text=f"dealer {kind} {total.value}")

    def _after_card(self, hand: PlayerHand) -> None:
        """Decide what a new card means for the hand ((k), (l), (m))."""
        total = hand.total()
        if total > TWENTY_ONE:
            self._bust(hand, total)
        elif total == TWENTY_ONE:
            if self.rules.twenty_one_paid is TwentyOnePaid.AT_ONCE:
                self._pay_twenty_one(hand)
            else:
                # it may draw no more ((k)(1)); paid before the hole
                # card, when every player has acted ((m), (n), D96)
                hand.status = HandStatus.STANDING
        elif hand.doubled or (
            hand.split
            and hand.cards[0].rank == Rank.ACE
            and not self.rules.split_aces_may_draw
        ):
            hand.status = HandStatus.STANDING

    def _second_chance_offered(self, hand: PlayerHand) -> bool:
        rules = self.rules
        return not (
            (hand.doubled and not rules.second_chance_on_doubled)
            or (hand.split and not rules.second_chance_on_split)
        )

    @implements("591.7(l)")
    def _bust(self, hand: PlayerHand, total: int) -> None:
        """A hand over 21 (``total``): a Second Chance, or it loses."""
        if self._second_chance_offered(hand):
            hand.status = HandStatus.BUSTED
            self._current = hand
            self._enter_phase(Phase.SECOND_CHANCE)
            self.log.emit(
                Announced,
                ref=REF_SECOND_CHANCE,
                text=f"{hand.label} has {total}: Second Chance?",
            )
        else:
            self._lose_bust(hand)

    def _lose_bust(self, hand: PlayerHand) -> None:
        """A bust without Second Chance: collected at once (D1)."""
        if not self.rules.collect_busts_at_once:
            hand.status = HandStatus.STANDING
            return
        ref = REF_SECOND_CHANCE
        self._pay(
            Payment(hand.key, Outcome.LOSE, -self.ledger.stakes[hand.key], ref)
        )
        self._collect(hand, ref)
        hand.status = HandStatus.SETTLED

    @implements("591.7(m)")
    def _pay_twenty_ones(self) -> None:
        """Every hand standing on 21 paid, from the dealer's right (D96).

        Under ``before_hole_card`` the 21s wait until every player has
        acted; (m) names no order for them, so each is paid and its cards
        racked as (t) and (u) go, from the dealer's right.
        """
        for hand in reversed(self._in_order()):
            if (
                hand.status is HandStatus.STANDING
                and hand.second_chance_card is None
                and hand.total() == TWENTY_ONE
            ):
                self._pay_twenty_one(hand)

    @implements("591.7(m)")
    def _pay_twenty_one(self, hand: PlayerHand) -> None:
        ref = REF_TWENTY_ONE
        self._pay(
            Payment(
                hand.key,
                Outcome.WIN,
                self._winnings(self.rules.twenty_one_payout, hand.key),
                ref,
            )
        )
        self._collect(hand, ref)
        hand.status = HandStatus.SETTLED


def _outside_limits(amount: int, rules: DoubleBackJackRules) -> str:
    """The refusal of a Blackjack Wager outside the table limits (D190).

    The limits in dollars, and once more in the minor units that the
    Rules Submission and an API client write them in.
    """
    low, high = rules.table_minimum, rules.table_maximum
    return (
        f"{amount_text(amount)} is outside the table limits "
        f"{dollars(low)} to {dollars(high)} {in_cents(low, high)}"
    )
