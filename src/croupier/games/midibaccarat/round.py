"""The Midibaccarat round: a state machine dealt and settled by ``deal``.

There are no player decisions in baccarat: :meth:`MidibaccaratRound.deal`
closes wagering and runs the whole round; :meth:`~MidibaccaratRound.
pending` is always ``None``.

>>> from croupier.shoe import Shoe
>>> from croupier.games.midibaccarat.rules import MidibaccaratRules
>>> rnd = MidibaccaratRound(rules=MidibaccaratRules(),
...     shoe=Shoe.stacked("9c 7d 5h 9s Kd"), new_shoe=False)
>>> _ = rnd.place_wager(1, "banker", 1000)
>>> _ = rnd.deal()
>>> rnd.hands(), [s.to_dict()["net"] for s in rnd.settlements]
({'player': ['9c', '5h', 'Kd'], 'banker': ['7d', '9s']}, [950])
>>> rnd.is_over, rnd.can_deal()
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from croupier.cards import Card
from croupier.errors import IllegalActionError, RulesError
from croupier.events import Announced, CardExposed, CardsCollected
from croupier.games.midibaccarat.refs import (
    MAX_SEATS,
    REF_BANKER_STOOD,
    REF_BANKER_TABLE,
    REF_CALL,
    REF_COMMISSION_FREE,
    REF_DEAL_FACE_DOWN,
    REF_DEAL_FACE_UP,
    REF_NATURAL,
    REF_NO_MORE_BETS,
    REF_PAYOUT,
    REF_PERFECT_PAIRS,
    REF_PLAYER_RULE,
    REF_PP_SETTLE,
    REF_RESULT,
    REF_SEATS,
    REF_SECOND_COVER,
    REF_THIRD_CARD,
    REF_WAGERS,
)
from croupier.games.midibaccarat.rules import (
    SETTLE_ORDER,
    WAGER_TITLES,
    BaccaratRules,
    Dealing,
    MidibaccaratRules,
    Wager,
)
from croupier.hands.baccarat import (
    Coup,
    Winner,
    banker_draws,
    is_natural,
    pair_kind,
    player_draws,
    point_count,
)
from croupier.jsontypes import LazyText, json_text
from croupier.money import Odds, Outcome, Rounding, WagerKey
from croupier.procedures.ch629a import burn_new_shoe
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.round import Action, GameRound, Pending, StakeView, cards_text
from croupier.shoe import Shoe

from .phases import PHASE_TITLES, PHASES, Phase
from .views import MidibaccaratView, visible

__all__ = [
    "MidibaccaratRound",
    "Phase",
    "Verdict",
    "lose",
    "push",
    "win",
]


_MAIN_WAGERS = (Wager.PLAYER, Wager.BANKER, Wager.TIE)
_PAIR_WAGERS = (Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER)


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a wager ends: outcome, net, citation, commission."""

    outcome: Outcome
    net: int
    ref: Ref
    commission: int = 0


def win(odds: Odds, amount: int, rounding: Rounding, ref: Ref) -> Verdict:
    """A win at ``odds``."""
    return Verdict(Outcome.WIN, odds.winnings(amount, rounding), ref)


def lose(amount: int, ref: Ref = REF_RESULT) -> Verdict:
    """A loss of the whole stake."""
    return Verdict(Outcome.LOSE, -amount, ref)


def push(ref: Ref = REF_RESULT) -> Verdict:
    """Returned without winnings."""
    return Verdict(Outcome.PUSH, 0, ref)


class MidibaccaratRound(GameRound[BaccaratRules, Phase]):
    """One round of Midibaccarat, dealt and settled in :meth:`deal`.

    :class:`~.commission_free.CommissionFreeRound` derives from it: the
    two games differ only in their wagers and in how a winning Banker
    Wager is paid (:meth:`_banker_win`).
    """

    game: ClassVar[str] = "midibaccarat"
    cover_card_ref: ClassVar[Ref | None] = REF_SECOND_COVER
    wager_names: ClassVar[tuple[str, ...]] = (*_MAIN_WAGERS, *_PAIR_WAGERS)
    wager_titles: ClassVar[Mapping[str, str]] = WAGER_TITLES
    seats_ref: ClassVar[Ref] = REF_SEATS
    offered_ref: ClassVar[Ref] = REF_WAGERS
    phase_titles: ClassVar[Mapping[str, str]] = PHASE_TITLES

    def __init__(
        self,
        *,
        rules: BaccaratRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
    ) -> None:
        super().__init__(
            rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe, phases=PHASES
        )
        self.player: list[Card] = []
        """The Player's Hand, in dealing order."""
        self.banker: list[Card] = []
        """The Banker's Hand, in dealing order."""
        self._face_down: set[tuple[str, int]] = set()
        self._collected = False
        if new_shoe:
            burn_new_shoe(
                self.shoe, self.log, on_cover_card=self._on_cover_card
            )
        self._open()

    # -- state ---------------------------------------------------------

    @property
    def coup(self) -> Coup:
        """The two hands as they stand."""
        return Coup(tuple(self.player), tuple(self.banker))

    def pending(self) -> Pending | None:
        """Always ``None``: baccarat has no player decisions."""
        return None

    def verify_action(self, action: Action) -> None:
        """Refuse: the drawing rules leave nothing to decide."""
        msg = (
            f"seat {action.seat} tried {json_text(action.name)}: baccarat "
            "has no "
            "player decisions; the third-card rules decide every draw"
        )
        raise IllegalActionError(msg, ref=REF_THIRD_CARD)

    # -- wagers ----------------------------------------------------------

    def allowed_wagers(self) -> tuple[str, ...]:
        """Wager names these rules allow."""
        if self.rules.perfect_pairs_offered:
            return (*_MAIN_WAGERS, *_PAIR_WAGERS)
        return _MAIN_WAGERS

    def _wager_ref(self, wager: str) -> Ref:
        if wager.startswith("perfect_pairs"):
            return REF_PERFECT_PAIRS
        if wager in (Wager.DRAGON7, Wager.PANDA8):
            return REF_COMMISSION_FREE
        return REF_WAGERS

    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Raise unless ``seat`` may place ``amount`` on ``wager`` now.

        Wagers are placed under 629a.7, Perfect Pairs under 629b.1(c).
        """
        self._verify_phase(
            Phase.WAGERING,
            "no more bets: {wager} at seat {seat} refused",
            REF_NO_MORE_BETS,
            # named for the refusal only (LazyText)
            wager=LazyText(partial(self._wager_named, wager)),
            seat=seat,
        )
        self._verify_seat(
            seat,
            MAX_SEATS,
            "no seat {seat}: the table has seats 1 to {seats}",
            self.seats_ref,
        )
        self._verify_offered(
            wager,
            self.allowed_wagers(),
            "{wager} is not offered; wagers are {known}",
            self._wager_ref(wager),
        )
        self._verify_amount(amount, REF_WAGERS)
        self._verify_new(
            WagerKey(seat, wager),
            "seat {seat} already has a {wager}",
            REF_WAGERS,
        )

    def _keys(self, names: tuple[str, ...]) -> list[WagerKey]:
        """Open wagers named ``names``, seat by seat, highest seat first.

        ASSUMED settlement order: from the dealer's right (the highest
        seat) counter-clockwise, and at each seat in ``names`` order.
        """
        rank = {name: i for i, name in enumerate(names)}
        keys = [k for k in self.ledger.open_keys() if k.wager in rank]
        return sorted(keys, key=lambda k: (-k.seat, rank[k.wager]))

    # -- the round ---------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise unless the round is still taking wagers."""
        self._verify_phase(
            Phase.WAGERING,
            "the round is past wagering, in the {phase} phase",
            REF_NO_MORE_BETS,
        )

    def _run_deal(self) -> None:
        """Close wagering and run the whole round to the end."""
        self._initial_deal()
        if self.rules.dealing is Dealing.FACE_DOWN:
            self._call_hands()
        self._settle_perfect_pairs()
        self._third_cards()
        self._settle_main()
        self._collect()

    @implements("629a.8(c)")
    def _initial_deal(self) -> None:
        """No more bets, then P, B, P, B (face up or face down)."""
        face_up = self.rules.dealing is Dealing.FACE_UP
        ref = REF_DEAL_FACE_UP if face_up else REF_DEAL_FACE_DOWN
        self._enter_phase(Phase.INITIAL_DEAL, ref)
        self.log.emit(Announced, ref=REF_NO_MORE_BETS, text="no more bets")
        for _ in range(2):
            for label, hand in (
                ("player", self.player),
                ("banker", self.banker),
            ):
                card = self._deal_to(label, ref, face_up=face_up)
                if not face_up:
                    self._face_down.add((label, len(hand)))
                hand.append(card)

    def _expose(self, label: str, hand: list[Card], ref: Ref) -> None:
        for index, card in enumerate(hand):
            if (label, index) in self._face_down:
                self._face_down.discard((label, index))
                self.log.emit(CardExposed, ref=ref, to=label, card=card)

    @implements("629a.8(c)")
    def _call_hands(self) -> None:
        """Face-down option: call the Player's Hand, then turn the Banker's."""
        self._enter_phase(Phase.CALL, REF_CALL)
        self._expose("player", self.player, REF_CALL)
        self._expose("banker", self.banker, REF_DEAL_FACE_DOWN)

    def _settle_perfect_pairs(self) -> None:
        """Settle Perfect Pairs wagers on the initial two cards (629b.1)."""
        self._enter_phase(Phase.PERFECT_PAIRS, REF_PP_SETTLE)
        hands = {
            Wager.PERFECT_PAIRS_PLAYER: self.player,
            Wager.PERFECT_PAIRS_BANKER: self.banker,
        }
        for key in self._keys(_PAIR_WAGERS):
            amount = self.ledger.stakes[key]
            kind = pair_kind(hands[Wager(key.wager)][:2])
            odds = None if kind is None else self.rules.perfect_pairs.get(kind)
            if odds is None:
                verdict = lose(amount, REF_PERFECT_PAIRS)
            else:
                verdict = win(
                    odds,
                    amount,
                    self.rules.rounding,
                    REF_PERFECT_PAIRS,
                )
            self._apply_verdict(key, verdict)

    def _apply_verdict(self, key: WagerKey, verdict: Verdict) -> None:
        self._settle(
            key,
            verdict.outcome,
            verdict.net,
            verdict.ref,
            commission=verdict.commission,
        )

    @implements("629a.10", "631a.11")
    def _third_cards(self) -> None:
        """Naturals stop the deal; else the third-card rules, as data.

        INFER: 629a.9/629a.10 were not retrievable; the rules are those
        of 631a.11 and its Table 1, and a third card is dealt face up in
        both dealing options.
        """
        self._enter_phase(Phase.THIRD_CARD, REF_THIRD_CARD)
        player, banker = point_count(self.player), point_count(self.banker)
        self.log.emit(
            Announced,
            ref=REF_THIRD_CARD,
            text=f"player {player}, banker {banker}",
        )
        if is_natural(self.player) or is_natural(self.banker):
            self.log.emit(
                Announced, ref=REF_NATURAL, text="natural: no more cards"
            )
            return
        third: Card | None = None
        if player_draws(player):
            self.log.emit(
                Announced,
                ref=REF_PLAYER_RULE,
                text=f"player draws on {player}",
            )
            third = self._deal_to("player", REF_THIRD_CARD)
            self.player.append(third)
        else:
            self.log.emit(
                Announced,
                ref=REF_PLAYER_RULE,
                text=f"player stays on {player}",
            )
        rule = REF_BANKER_STOOD if third is None else REF_BANKER_TABLE
        if banker_draws(banker, player_third=third):
            self.log.emit(
                Announced, ref=rule, text=f"banker draws on {banker}"
            )
            self.banker.append(self._deal_to("banker", REF_THIRD_CARD))
        else:
            self.log.emit(
                Announced, ref=rule, text=f"banker stays on {banker}"
            )

    def _settle_main(self) -> None:
        """Announce the result and settle, highest seat first (ASSUMED)."""
        self._enter_phase(Phase.SETTLEMENT, REF_RESULT)
        coup = self.coup
        self.log.emit(
            Announced,
            ref=REF_RESULT,
            text=(
                f"player {coup.player_count}, banker {coup.banker_count}: "
                + (
                    "tie"
                    if coup.winner is Winner.TIE
                    else f"{coup.winner} wins"
                )
            ),
        )
        for key in self._keys(tuple(SETTLE_ORDER)):
            amount = self.ledger.stakes[key]
            self._apply_verdict(key, self._verdict(Wager(key.wager), amount))

    def _verdict(self, wager: Wager, amount: int) -> Verdict:
        coup, rounding = self.coup, self.rules.rounding
        winner = coup.winner
        if wager is Wager.TIE:
            if winner is Winner.TIE:
                return win(self.rules.tie_payout, amount, rounding, REF_PAYOUT)
            return lose(amount)
        side = Winner.PLAYER if wager is Wager.PLAYER else Winner.BANKER
        if winner is Winner.TIE:
            return push()
        if winner is not side:
            return lose(amount)
        if side is Winner.PLAYER:
            return win(self.rules.player_payout, amount, rounding, REF_PAYOUT)
        return self._banker_win(amount)

    def _banker_win(self, amount: int) -> Verdict:
        """A winning Banker Wager: 19 to 20 by default, the rest commission."""
        if not isinstance(self.rules, MidibaccaratRules):
            msg = "Midibaccarat needs MidibaccaratRules"
            raise RulesError(msg, key="banker_payout")
        net = self.rules.banker_payout.winnings(amount, self.rules.rounding)
        return Verdict(
            Outcome.WIN, net, REF_PAYOUT, commission=max(0, amount - net)
        )

    def _collect(self) -> None:
        """Cards to the discard bucket, Player's then Banker's."""
        self._enter_phase(Phase.COLLECTION, REF_RESULT)
        for label, hand in (("player", self.player), ("banker", self.banker)):
            self.shoe.discard_cards(hand)
            self.log.emit(
                CardsCollected, ref=REF_RESULT, source=label, cards=tuple(hand)
            )
        self._collected = True
        if self.cover_card_reached:
            self.log.emit(
                Announced,
                ref=REF_SECOND_COVER,
                text="the second cover card came out: last round of the "
                "shoe; the cards are to be reshuffled",
            )
        self._enter_phase(Phase.COMPLETE, REF_RESULT)

    # -- what is seen --------------------------------------------------------

    def table_cards(self) -> list[Card]:
        """The cards of both hands until they are collected."""
        if self._collected:
            return []
        return [*self.player, *self.banker]

    def hands(self) -> dict[str, list[str]]:
        """Both hands in notation."""
        return {
            "player": cards_text(self.player),
            "banker": cards_text(self.banker),
        }

    def view(self, seat: int | None) -> MidibaccaratView:
        """What ``seat`` (``None``: a spectator) may see; no hidden card."""
        layout = [
            StakeView(seat=k.seat, wager=k.wager, amount=amount)
            for k, amount in sorted(self.ledger.stakes.items())
        ]
        player = visible("player", self.player, self._face_down)
        banker = visible("banker", self.banker, self._face_down)
        out: MidibaccaratView
        if self._face_down:
            out = {
                "game": self.game,
                "phase": self._phase.value,
                "player": player,
                "banker": banker,
                "cover_card_reached": self.cover_card_reached,
                "layout": layout,
            }
        else:
            out = {
                "game": self.game,
                "phase": self._phase.value,
                "player": player,
                "banker": banker,
                "cover_card_reached": self.cover_card_reached,
                "player_count": point_count(self.player),
                "banker_count": point_count(self.banker),
                "layout": layout,
            }
        if seat is not None:
            out["seat"] = seat
            out["settlements"] = [
                s.to_dict() for s in self.settlements if s.key.seat == seat
            ]
        return out
