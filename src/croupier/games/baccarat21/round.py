"""The 21 Baccarat round: a state machine run entirely by the dealer.

See :mod:`croupier.games.baccarat21` for the procedure and the choices
made where § 681a.7 is silent.
"""

from __future__ import annotations

from collections.abc import Iterator

from croupier.cards import Card
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    ShoeExhaustedError,
    WagerError,
)
from croupier.events import Announced, CardsCollected, Event
from croupier.hands.blackjack import Total, blackjack_total, is_blackjack
from croupier.hands.bonus21 import BonusCategory, bonus_payout
from croupier.jsontypes import json_text
from croupier.money import Odds, Outcome, Settlement, WagerKey
from croupier.procedures.shoe_games import (
    burn_for_new_batch,
    burn_for_new_dealer,
    collect_and_reshuffle,
    insert_cover_card_at_penetration,
)
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.round import Action, GameRound, Pending, cards_text
from croupier.rules import GameRules
from croupier.shoe import Shoe

from .phases import PHASE_TITLES, PHASES, SECTION, Phase
from .rules import (
    DRAW_BELOW,
    WAGER_TITLES,
    Baccarat21Rules,
    Side,
    Wager,
    compare_totals,
    main_wager_outcome,
)
from .views import Baccarat21View, HandView

__all__ = ["Baccarat21Round"]

_BONUS_SIDE = {
    Wager.BONUS_PLAYER: Side.PLAYER,
    Wager.BONUS_BANKER: Side.BANKER,
}
_BONUS_WAGER = {side: wager for wager, side in _BONUS_SIDE.items()}
_MAIN_REFS: dict[tuple[Side, str], Ref] = {
    (Side.PLAYER, "(1)"): Ref.parse("681a.7(i)(1)"),
    (Side.PLAYER, "(2)(i)"): Ref.parse("681a.7(i)(2)(i)"),
    (Side.PLAYER, "(2)(ii)"): Ref.parse("681a.7(i)(2)(ii)"),
    (Side.PLAYER, "(3)(i)"): Ref.parse("681a.7(i)(3)(i)"),
    (Side.PLAYER, "(3)(ii)"): Ref.parse("681a.7(i)(3)(ii)"),
    (Side.PLAYER, "(4)"): Ref.parse("681a.7(i)(4)"),
    (Side.PLAYER, ""): Ref.parse("681a.7(i)"),
    (Side.BANKER, "(1)"): Ref.parse("681a.7(j)(1)"),
    (Side.BANKER, "(2)(i)"): Ref.parse("681a.7(j)(2)(i)"),
    (Side.BANKER, "(2)(ii)"): Ref.parse("681a.7(j)(2)(ii)"),
    (Side.BANKER, "(3)(i)"): Ref.parse("681a.7(j)(3)(i)"),
    (Side.BANKER, "(3)(ii)"): Ref.parse("681a.7(j)(3)(ii)"),
    (Side.BANKER, "(4)"): Ref.parse("681a.7(j)(4)"),
    (Side.BANKER, ""): Ref.parse("681a.7(j)"),
}
"""The clause of (i) (Player) or (j) (Banker) each comparison cites."""
_BONUS_REFS: dict[Side, Ref] = {
    Side.PLAYER: Ref.parse("681a.7(k)(2)"),
    Side.BANKER: Ref.parse("681a.7(k)(3)"),
}
"""The Bonus Wager subsection of each hand (k)(2), (k)(3)."""
_BONUS_WON: dict[Side, Ref] = {
    Side.PLAYER: Ref.parse("681a.7(k)(2)(i)"),
    Side.BANKER: Ref.parse("681a.7(k)(3)(i)"),
}
_BONUS_LOST: dict[Side, Ref] = {
    Side.PLAYER: Ref.parse("681a.7(k)(2)(ii)"),
    Side.BANKER: Ref.parse("681a.7(k)(3)(ii)"),
}
_INITIAL_DEAL = (
    (Side.PLAYER, Ref.parse("681a.7(e)(1)")),
    (Side.BANKER, Ref.parse("681a.7(e)(2)")),
    (Side.PLAYER, Ref.parse("681a.7(e)(3)")),
    (Side.BANKER, Ref.parse("681a.7(e)(4)")),
)
"""The four cards of (e), in order, each with its numbered clause."""
_WAGERS = tuple(wager.value for wager in Wager)
_BONUS_CARDS = 2
"""The fewest cards of a Bonus hand (681a.7(f)(2): two, or three)."""
_SIDES = (Side.PLAYER, Side.BANKER)
"""Player first, then Banker: the order of every step that takes both
(a tuple: iterating an enum class walks Python code every time)."""
_SETTLED_FIRST = ((Wager.PLAYER, Side.PLAYER), (Wager.BANKER, Side.BANKER))
"""The even-money wagers and their hands, settled first at a seat (h)."""
_SETTLED_THEN = tuple(_BONUS_SIDE.items())
"""The Bonus Wagers and their hands, settled after the Tie (k)."""
_WAGER_REF = Ref.parse("681a.7(e)")
_REF_FROM_SHOE = Ref.parse("681a.7(a)")
"""Every card comes from the dealing shoe (an empty shoe voids, D69)."""
_REF_COLLECT = Ref.parse("681a.7(l)")
"""The hands go to the discard rack."""


class Baccarat21Round(GameRound[Baccarat21Rules, Phase]):
    """One round of 21 Baccarat, from wagering to the discard rack.

    ``needs_new_shoe`` tells the table whether the shoe was reshuffled
    under (d), in which case the next round starts with the (c) burn.
    """

    game = "21-baccarat"
    cover_card_ref = Ref.parse("681a.7(d)")
    wager_names = _WAGERS
    wager_titles = WAGER_TITLES
    seats_ref = _WAGER_REF
    offered_ref = _WAGER_REF
    phase_titles = PHASE_TITLES

    def __init__(
        self,
        *,
        rules: GameRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
        starting_position: int | None = None,
    ) -> None:
        if not isinstance(rules, Baccarat21Rules):
            msg = f"21 Baccarat needs Baccarat21Rules, not {type(rules)}"
            raise CroupierError(msg)
        if starting_position is not None:
            msg = "21 Baccarat determines no starting position"
            raise CroupierError(msg, ref=Ref.parse("681a.7(e)"))
        super().__init__(
            rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe, phases=PHASES
        )
        self._cards: dict[Side, list[Card]] = {s: [] for s in _SIDES}
        self._bonus_only: dict[Side, list[Card]] = {s: [] for s in _SIDES}
        self._collected = False
        self.needs_new_shoe = False
        """Whether the shoe was reshuffled (d): burn first next round."""
        if new_shoe:
            self._burn_first_card()
        self._open()

    # -- (a)-(d): the shoe -------------------------------------------------

    def _take_cover_card_from_top(self) -> None:
        """A cover card on top at the start is set aside (d)."""
        while self.shoe.next_is_cover_card:
            self.shoe.remove_cover_card()
            self._on_cover_card()

    @implements("681a.7(c)")
    def _burn_first_card(self) -> Event:
        self._take_cover_card_from_top()
        return burn_for_new_batch(
            self.shoe, self.log, SECTION, self._on_cover_card
        )

    def verify_change_dealer(self) -> None:
        """Raise unless a new dealer may burn now: before the deal (c).

        A shoe with no card left (a cover card aside) has none to burn:
        refused, citing (a), before anything changes; the deal then
        finds the shoe empty and voids the round (D69).
        """
        self._verify_phase(
            Phase.WAGERING,
            "a new dealer burns before dealing, not in the {phase} phase",
            Ref.parse("681a.7(c)"),
        )
        if self.shoe.empty:
            msg = (
                "the shoe holds no card for a new dealer to burn; "
                "the deal will find it empty and void the round (D69)"
            )
            raise ShoeExhaustedError(msg, ref=_REF_FROM_SHOE)

    def can_change_dealer(self) -> bool:
        """Whether :meth:`change_dealer` would burn now."""
        return self._passes(self.verify_change_dealer)

    @implements("681a.7(c)")
    def change_dealer(self) -> Event:
        """A new dealer comes to the table and burns one card (c).

        A cover card on top is set aside first (d). On an empty shoe it
        is refused and changes nothing (:meth:`verify_change_dealer`).
        """
        self.verify_change_dealer()
        self._take_cover_card_from_top()
        return burn_for_new_dealer(
            self.shoe, self.log, SECTION, self._on_cover_card
        )

    @implements("681a.7(a)", "681a.7(b)")
    def _deal_card(self, side: Side, ref: Ref, purpose: str = "") -> Card:
        """Take the top card of the shoe and place it face up for ``side``.

        Every card comes out of the dealing shoe (a), one at a time, by
        the dealer (b).
        """
        card = self._deal_to(
            f"{side} hand", ref, face_up=True, purpose=purpose
        )
        if purpose:
            self._bonus_only[side].append(card)
        else:
            self._cards[side].append(card)
        return card

    @implements("681a.7(d)")
    def _reshuffle(self) -> None:
        self._enter_phase(Phase.RESHUFFLING)
        collect_and_reshuffle(self.shoe, self.log, SECTION, self.rng)
        insert_cover_card_at_penetration(
            self.shoe, self.log, SECTION, self.rules.penetration
        )
        self.needs_new_shoe = True

    @implements("681a.7(a)")
    def _shoe_empty(self, exc: ShoeExhaustedError) -> None:
        """The shoe has no card for the deal: the round is void (D69).

        Every card comes from the shoe (a); a shoe of few decks with the
        cover card deep may hold too few beneath it to finish a round.
        As for any card missing (D25), every wager goes back, the hands
        go to the rack and the shoe is reshuffled (d).
        """
        del exc  # the draw that found the shoe empty
        self._void_for_want_of_cards(Phase.VOID, _REF_FROM_SHOE)
        self._collect(_REF_FROM_SHOE)
        self._reshuffle()
        self._enter_phase(Phase.COMPLETE)

    # -- wagers ------------------------------------------------------------

    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Raise unless the wager may be placed now (e)."""
        ref = _WAGER_REF
        self._verify_phase(
            Phase.WAGERING,
            "wagers are placed before the deal, not in the {phase} phase",
            ref,
        )
        self._verify_offered(
            wager,
            _WAGERS,
            "no {wager} wager in 21 Baccarat (wagers: {known})",
            self.offered_ref,
        )
        self._verify_seat(
            seat,
            self.rules.seats,
            "no seat {seat}: seats are 1 to {seats}",
            self.seats_ref,
        )
        self._verify_amount(amount, ref)
        self._verify_new(
            WagerKey(seat, wager),
            "seat {seat} already has a {wager}",
            ref,
        )

    def _wager_ref(self, wager: str) -> Ref:
        """Every wager is placed before the deal (e)."""
        return _WAGER_REF

    def _seats_counter_clockwise(self) -> Iterator[int]:
        """Seats with a wager, from the dealer's right (h)."""
        return iter(sorted({k.seat for k in self.ledger.stakes}, reverse=True))

    @property
    def bonus_on_table(self) -> bool:
        """Whether any Bonus Wager is on the layout (f)(2)."""
        return any(
            k.wager in (Wager.BONUS_PLAYER.value, Wager.BONUS_BANKER.value)
            for k in self.ledger.stakes
        )

    # -- the deal ------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise unless the cards may be dealt now."""
        self._verify_phase(
            Phase.WAGERING,
            "the cards are dealt after wagering, not in the {phase} phase",
            _WAGER_REF,
        )
        if not self.ledger.stakes:
            msg = "no wager on the layout: the dealer deals after wagers"
            raise WagerError(msg, ref=_WAGER_REF)

    def _run_deal(self) -> None:
        """Close wagering and run the whole round (e)-(l), and (d)."""
        self._enter_phase(Phase.DEALING)
        self._deal_initial()
        if self.natural:
            self._declare_natural()
        else:
            self._enter_phase(Phase.DRAWING)
            self._draw_counting_cards()
        self._enter_phase(Phase.SETTLING)
        self._settle_round()
        self._enter_phase(Phase.COLLECTING)
        self._collect()
        if self.cover_card_reached:
            self._reshuffle()
        self._enter_phase(Phase.COMPLETE)

    @implements("681a.7(e)")
    def _deal_initial(self) -> None:
        """Player, Banker, Player, Banker, one card each, face up (e)."""
        for side, ref in _INITIAL_DEAL:
            self._deal_card(side, ref)
        self.verify_conservation()

    @implements("681a.7(f)")
    def _declare_natural(self) -> None:
        """A natural stops the counting draws (f); Bonus-only cards (f)(2)."""
        holders = [s.title() for s in _SIDES if self.is_natural(s)]
        self.log.emit(
            Announced,
            ref=Ref.parse("681a.7(f)"),
            text="natural: " + " and ".join(holders),
        )
        if not self.bonus_on_table:
            return  # (f)(1): straight on to settlement
        self._enter_phase(Phase.BONUS_DRAWING)
        for side in _SIDES:  # Player first, then Banker (D17)
            if self.total(side).value < DRAW_BELOW:
                self._deal_card(
                    side, Ref.parse("681a.7(f)(2)"), purpose="bonus only"
                )
        self.verify_conservation()

    @implements("681a.7(g)")
    def _draw_counting_cards(self) -> None:
        """One card to each hand under 17, Player first (g)."""
        for side in _SIDES:
            if self.total(side).value < DRAW_BELOW:
                self._deal_card(side, Ref.parse("681a.7(g)"))
        self.verify_conservation()

    # -- hands ---------------------------------------------------------

    def counting_cards(self, side: Side) -> tuple[Card, ...]:
        """The cards that count for the Player and Banker Wagers."""
        return tuple(self._cards[side])

    def bonus_cards(self, side: Side) -> tuple[Card, ...]:
        """The hand's final cards for its Bonus Wager (f)(2), (k)."""
        return tuple(self._cards[side] + self._bonus_only[side])

    def total(self, side: Side) -> Total:
        """The hand's blackjack-style total (Bonus-only card excluded)."""
        return blackjack_total(self._cards[side])

    def is_natural(self, side: Side) -> bool:
        """Whether the hand is a natural (D13: ace and 10-value card)."""
        return is_blackjack(self._cards[side])

    @property
    def natural(self) -> bool:
        """Whether either hand is a natural (f)."""
        return any(self.is_natural(side) for side in _SIDES)

    @property
    def winner(self) -> Side | None:
        """The winning hand once the cards are out; ``None``: equal."""
        return compare_totals(
            self.total(Side.PLAYER).value, self.total(Side.BANKER).value
        )

    # -- settlement ----------------------------------------------------------

    @implements("681a.7(h)")
    def _settle_round(self) -> None:
        """Compare, then settle from the dealer's right (h), then (k).

        The hands are final here: their totals are counted once.
        """
        player = self.total(Side.PLAYER).value
        banker = self.total(Side.BANKER).value
        winner = compare_totals(player, banker)
        result = "tie" if winner is None else f"{winner.title()} wins"
        self.log.emit(
            Announced,
            ref=Ref.parse("681a.7(h)"),
            text=f"Player {player}, Banker {banker}: {result}",
        )
        totals = {Side.PLAYER: player, Side.BANKER: banker}
        stakes = self.ledger.stakes
        seats = list(self._seats_counter_clockwise())
        for seat in seats:
            for wager, side in _SETTLED_FIRST:
                if WagerKey(seat, wager) in stakes:
                    self._settle_main(seat, side, totals)
        self._announce_bonus()
        for seat in seats:
            if WagerKey(seat, Wager.TIE) in stakes:
                self._settle_tie(seat, winner)
            for wager, side in _SETTLED_THEN:
                if WagerKey(seat, wager) in stakes:
                    self._settle_bonus(seat, side)

    @implements("681a.7(i)", "681a.7(j)")
    def _settle_main(
        self, seat: int, side: Side, totals: dict[Side, int]
    ) -> Settlement:
        """Settle a Player (i) or Banker (j) Wager at ``seat``."""
        key = WagerKey(seat, side.value)
        outcome, clause = main_wager_outcome(totals[side], totals[side.other])
        ref = _MAIN_REFS[side, clause]
        amount = self.ledger.stakes[key]
        if outcome is Outcome.WIN:
            odds = (
                self.rules.player_payout
                if side is Side.PLAYER
                else self.rules.banker_payout
            )
            net = odds.winnings(amount, self.rules.rounding)
            # less than even money: what it falls short by is commission
            short = odds.numerator < odds.denominator
            commission = max(0, amount - net) if short else 0
            return self._settle(key, outcome, net, ref, commission=commission)
        net = -amount if outcome is Outcome.LOSE else 0
        return self._settle(key, outcome, net, ref)

    @implements("681a.7(k)")
    def _settle_tie(self, seat: int, winner: Side | None) -> Settlement:
        """Settle a Tie Wager (k)(1): equal totals win, busts included."""
        key = WagerKey(seat, Wager.TIE.value)
        amount = self.ledger.stakes[key]
        if winner is None:
            net = self.rules.tie_payout.winnings(amount, self.rules.rounding)
            return self._settle(
                key, Outcome.WIN, net, Ref.parse("681a.7(k)(1)(i)")
            )
        return self._settle(
            key, Outcome.LOSE, -amount, Ref.parse("681a.7(k)(1)(ii)")
        )

    def bonus_result(self, side: Side) -> tuple[BonusCategory, Odds] | None:
        """The Bonus category and odds the hand pays, or ``None``."""
        return bonus_payout(self.bonus_cards(side), self.rules.bonus_paytable)

    def _announce_bonus(self) -> None:
        for side in _SIDES:
            wager = _BONUS_WAGER[side]
            if not any(k.wager == wager for k in self.ledger.stakes):
                continue
            result = self.bonus_result(side)
            text = "no pair or better" if result is None else result[0].value
            self.log.emit(
                Announced,
                ref=_BONUS_REFS[side],
                text=f"{side.title()} Bonus: {text}",
            )

    @implements("681a.7(k)")
    def _settle_bonus(self, seat: int, side: Side) -> Settlement:
        """Settle a Bonus Wager on ``side`` (k)(2) or (k)(3)."""
        wager = _BONUS_WAGER[side]
        key = WagerKey(seat, wager.value)
        amount = self.ledger.stakes[key]
        result = self.bonus_result(side)
        if result is None:
            return self._settle(key, Outcome.LOSE, -amount, _BONUS_LOST[side])
        _, odds = result
        net = odds.winnings(amount, self.rules.rounding)
        return self._settle(key, Outcome.WIN, net, _BONUS_WON[side])

    # -- (l): the discard rack -----------------------------------------------

    @implements("681a.7(l)")
    def _collect(self, ref: Ref = _REF_COLLECT) -> list[Event]:
        """Each hand to the discard rack as a unit, Player first (l).

        Within a hand the cards keep dealing order, the Bonus-only card
        last, so the rack alone rebuilds both hands.
        """
        events: list[Event] = []
        for side in _SIDES:
            cards = self.bonus_cards(side)
            self.shoe.discard_cards(cards)
            events.append(
                self.log.emit(
                    CardsCollected,
                    ref=ref,
                    source=f"{side.value} hand",
                    cards=cards,
                )
            )
        self._collected = True
        self.verify_conservation()
        return events

    # -- (m): no player decisions --------------------------------------------

    def pending(self) -> Pending | None:
        """Always ``None``: no patron decides anything in 21 Baccarat."""
        return None

    @implements("681a.7(m)")
    def verify_action(self, action: Action) -> None:
        """Refuse: players neither decide nor handle any card (m)."""
        msg = (
            f"seat {action.seat} tried {json_text(action.name)}: in 21 "
            "Baccarat the "
            "dealer's procedure decides every card and players may not "
            "handle any card"
        )
        raise IllegalActionError(msg, ref=Ref.parse("681a.7(m)"))

    # -- the layout ----------------------------------------------------------

    def table_cards(self) -> list[Card]:
        """Cards on the layout now (none once collected)."""
        if self._collected:
            return []
        return [c for side in _SIDES for c in self.bonus_cards(side)]

    def hands(self) -> dict[str, list[str]]:
        """Each hand's counting cards; Bonus-only cards under their own key.

        Labels: ``player``, ``banker``, and ``player bonus only`` /
        ``banker bonus only`` when (f)(2) dealt one.
        """
        out: dict[str, list[str]] = {}
        for side in _SIDES:
            out[side.value] = cards_text(self._cards[side])
        for side in _SIDES:
            if self._bonus_only[side]:
                out[f"{side.value} bonus only"] = cards_text(
                    self._bonus_only[side]
                )
        return out

    def _hand_view(self, side: Side) -> HandView:
        dealt = bool(self._cards[side])
        total = self.total(side)
        # a Bonus hand has two cards or three: a hand the shoe ran out
        # on in the deal (D69) may hold one
        whole = len(self.bonus_cards(side)) >= _BONUS_CARDS
        category = self.bonus_result(side) if whole else None
        return {
            "cards": cards_text(self._cards[side]),
            "bonus_only": cards_text(self._bonus_only[side]),
            "total": total.value if dealt else None,
            "soft": total.soft if dealt else False,
            "natural": self.is_natural(side),
            "bonus": None if category is None else category[0].value,
        }

    def view(self, seat: int | None) -> Baccarat21View:
        """What ``seat`` (``None``: a spectator) may see.

        Every card on the layout is face up (e); the burned card never
        shows. A seat also sees its own wagers and their settlements.
        """
        out: Baccarat21View = {
            "game": self.game,
            "phase": self._phase.value,
            "player": self._hand_view(Side.PLAYER),
            "banker": self._hand_view(Side.BANKER),
            "cover_card_reached": self.cover_card_reached,
        }
        if seat is None:
            return out
        if not 1 <= seat <= self.rules.seats:
            msg = f"no seat {seat}: seats are 1 to {self.rules.seats}"
            raise CroupierError(msg, ref=Ref.parse("681a.7(h)"))
        out["seat"] = seat
        out["wagers"] = {
            key.wager: amount
            for key, amount in self.ledger.stakes.items()
            if key.seat == seat
        }
        out["settlements"] = [
            s.to_dict() for s in self.settlements if s.key.seat == seat
        ]
        return out
