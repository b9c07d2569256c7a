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
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from types import MappingProxyType
from typing import Any, ClassVar

from croupier.cards import Card
from croupier.errors import (
    IllegalActionError,
    RulesError,
    WagerError,
    WrongPhaseError,
)
from croupier.events import (
    Announced,
    CardExposed,
    CardsCollected,
    Event,
    WagerPlaced,
)
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
from croupier.money import Odds, Outcome, Rounding, WagerKey
from croupier.procedures.ch629a import burn_new_shoe
from croupier.regs import Ref, implements
from croupier.rng import Rng
from croupier.round import Action, Pending, Round, cards_text
from croupier.shoe import Shoe

__all__ = [
    "TRANSITIONS",
    "MidibaccaratRound",
    "Phase",
    "Verdict",
    "lose",
    "push",
    "win",
]


@unique
class Phase(StrEnum):
    """Phases of a Midibaccarat round."""

    WAGERING = "wagering"
    """Wagers may be placed."""
    INITIAL_DEAL = "initial_deal"
    """No more bets; two cards to each hand (629a.8)."""
    CALL = "call"
    """Face-down option: the hands are called and turned (629a.9)."""
    PERFECT_PAIRS = "perfect_pairs"
    """Perfect Pairs wagers settled on the initial cards (629b.1)."""
    THIRD_CARD = "third_card"
    """Naturals and the third-card rules (629a.10)."""
    SETTLEMENT = "settlement"
    """Result announced; wagers paid, pushed or collected (629a.11)."""
    COLLECTION = "collection"
    """Cards to the discard bucket."""
    COMPLETE = "complete"
    """The round is over."""


TRANSITIONS: MappingProxyType[Phase, frozenset[Phase]] = MappingProxyType(
    {
        Phase.WAGERING: frozenset({Phase.INITIAL_DEAL}),
        Phase.INITIAL_DEAL: frozenset({Phase.CALL, Phase.PERFECT_PAIRS}),
        Phase.CALL: frozenset({Phase.PERFECT_PAIRS}),
        Phase.PERFECT_PAIRS: frozenset({Phase.THIRD_CARD}),
        Phase.THIRD_CARD: frozenset({Phase.SETTLEMENT}),
        Phase.SETTLEMENT: frozenset({Phase.COLLECTION}),
        Phase.COLLECTION: frozenset({Phase.COMPLETE}),
        Phase.COMPLETE: frozenset(),
    }
)
"""The legal phase transitions."""

HIDDEN = "??"
"""How a face-down card appears in a view."""


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


class MidibaccaratRound(Round):
    """One round of Midibaccarat, dealt and settled in :meth:`deal`."""

    game: ClassVar[str] = "midibaccarat"
    cover_card_ref: ClassVar[Ref | None] = REF_SECOND_COVER
    wager_names: ClassVar[tuple[str, ...]] = (
        Wager.PLAYER,
        Wager.BANKER,
        Wager.TIE,
        Wager.PERFECT_PAIRS_PLAYER,
        Wager.PERFECT_PAIRS_BANKER,
    )

    def __init__(
        self,
        *,
        rules: BaccaratRules,
        shoe: Shoe,
        rng: Rng | None = None,
        new_shoe: bool = True,
    ) -> None:
        super().__init__(rules=rules, shoe=shoe, rng=rng, new_shoe=new_shoe)
        self.options: BaccaratRules = rules
        """The options, typed for this game."""
        self._phase = Phase.WAGERING
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
        self._enter(self._phase, REF_WAGERS)

    # -- state ---------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    def _go(self, phase: Phase, ref: Ref) -> None:
        if phase not in TRANSITIONS[self._phase]:
            msg = f"no transition from {self._phase} to {phase}"
            raise WrongPhaseError(msg, ref=ref)
        self._phase = phase
        self._enter(phase, ref)

    @property
    def is_over(self) -> bool:
        """Whether the round is complete."""
        return self._phase is Phase.COMPLETE

    @property
    def coup(self) -> Coup:
        """The two hands as they stand."""
        return Coup(tuple(self.player), tuple(self.banker))

    def pending(self) -> Pending | None:
        """Always ``None``: baccarat has no player decisions."""
        return None

    def apply(self, action: Action) -> list[Event]:
        """Refuse: the drawing rules leave nothing to decide."""
        msg = (
            f"seat {action.seat} tried {action.name!r}: baccarat has no "
            "player decisions; the third-card rules decide every draw"
        )
        raise IllegalActionError(msg, ref=REF_THIRD_CARD)

    # -- wagers ----------------------------------------------------------

    def allowed_wagers(self) -> tuple[str, ...]:
        """Wager names these rules allow."""
        names = [Wager.PLAYER, Wager.BANKER, Wager.TIE]
        if self.options.perfect_pairs_offered:
            names += [Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER]
        return tuple(names)

    def _wager_ref(self, wager: str) -> Ref:
        if wager.startswith("perfect_pairs"):
            return REF_PERFECT_PAIRS
        if wager in (Wager.DRAGON7, Wager.PANDA8):
            return REF_COMMISSION_FREE
        return REF_WAGERS

    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Raise unless ``seat`` may place ``amount`` on ``wager`` now."""
        if self._phase is not Phase.WAGERING:
            msg = f"no more bets: wager {wager!r} at seat {seat} refused"
            raise WrongPhaseError(msg, ref=REF_NO_MORE_BETS)
        if not 1 <= seat <= MAX_SEATS:
            msg = f"no seat {seat}: the table has seats 1 to {MAX_SEATS}"
            raise WagerError(msg, ref=REF_SEATS)
        if wager not in self.allowed_wagers():
            msg = f"wager {wager!r} is not offered; wagers are " + ", ".join(
                self.allowed_wagers()
            )
            raise WagerError(msg, ref=self._wager_ref(wager))
        if amount <= 0:
            msg = f"a wager must be a positive amount, not {amount}"
            raise WagerError(msg, ref=REF_WAGERS)
        if WagerKey(seat, wager) in self.ledger.stakes:
            msg = f"seat {seat} already has a {wager} wager"
            raise WagerError(msg, ref=REF_WAGERS)

    def place_wager(self, seat: int, wager: str, amount: int) -> WagerPlaced:
        """Place a wager before the deal (629a.7, 629b.1(c))."""
        self.verify_wager(seat, wager, amount)
        key = WagerKey(seat, wager)
        return self._record_wager(key, amount, self._wager_ref(wager))

    def _keys(self, names: tuple[str, ...]) -> list[WagerKey]:
        """Open wagers named ``names``, seat by seat, highest seat first.

        ASSUMED settlement order: from the dealer's right (the highest
        seat) counter-clockwise, and at each seat in ``names`` order.
        """
        rank = {name: i for i, name in enumerate(names)}
        keys = [k for k in self.ledger.open_keys() if k.wager in rank]
        return sorted(keys, key=lambda k: (-k.seat, rank[k.wager]))

    # -- the round ---------------------------------------------------------

    def deal(self) -> list[Event]:
        """Close wagering and run the whole round to the end."""
        if self._phase is not Phase.WAGERING:
            msg = f"the round is past wagering ({self._phase})"
            raise WrongPhaseError(msg, ref=REF_NO_MORE_BETS)
        start = len(self.log)
        self._initial_deal()
        if self.options.dealing is Dealing.FACE_DOWN:
            self._call_hands()
        self._settle_perfect_pairs()
        self._third_cards()
        self._settle_main()
        self._collect()
        return list(self.log.events[start:])

    @implements("629a.8(c)")
    def _initial_deal(self) -> None:
        """No more bets, then P, B, P, B (face up or face down)."""
        face_up = self.options.dealing is Dealing.FACE_UP
        ref = REF_DEAL_FACE_UP if face_up else REF_DEAL_FACE_DOWN
        self._go(Phase.INITIAL_DEAL, ref)
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
        self._go(Phase.CALL, REF_CALL)
        self._expose("player", self.player, REF_CALL)
        self._expose("banker", self.banker, REF_DEAL_FACE_DOWN)

    def _settle_perfect_pairs(self) -> None:
        """Settle Perfect Pairs wagers on the initial two cards (629b.1)."""
        self._go(Phase.PERFECT_PAIRS, REF_PP_SETTLE)
        hands = {
            Wager.PERFECT_PAIRS_PLAYER: self.player,
            Wager.PERFECT_PAIRS_BANKER: self.banker,
        }
        names = (Wager.PERFECT_PAIRS_PLAYER, Wager.PERFECT_PAIRS_BANKER)
        for key in self._keys(names):
            amount = self.ledger.stakes[key]
            kind = pair_kind(hands[Wager(key.wager)][:2])
            odds = (
                None if kind is None else self.options.perfect_pairs.get(kind)
            )
            if odds is None:
                verdict = lose(amount, REF_PERFECT_PAIRS)
            else:
                verdict = win(
                    odds,
                    amount,
                    self.options.rounding,
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
        self._go(Phase.THIRD_CARD, REF_THIRD_CARD)
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
        self._go(Phase.SETTLEMENT, REF_RESULT)
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
        coup, rounding = self.coup, self.options.rounding
        winner = coup.winner
        if wager is Wager.TIE:
            if winner is Winner.TIE:
                return win(
                    self.options.tie_payout, amount, rounding, REF_PAYOUT
                )
            return lose(amount)
        side = Winner.PLAYER if wager is Wager.PLAYER else Winner.BANKER
        if winner is Winner.TIE:
            return push()
        if winner is not side:
            return lose(amount)
        if side is Winner.PLAYER:
            return win(
                self.options.player_payout, amount, rounding, REF_PAYOUT
            )
        return self._banker_win(amount)

    def _banker_win(self, amount: int) -> Verdict:
        """A winning Banker Wager: 19 to 20 by default, the rest commission."""
        if not isinstance(self.options, MidibaccaratRules):
            msg = "Midibaccarat needs MidibaccaratRules"
            raise RulesError(msg, key="banker_payout")
        net = self.options.banker_payout.winnings(
            amount, self.options.rounding
        )
        return Verdict(
            Outcome.WIN, net, REF_PAYOUT, commission=max(0, amount - net)
        )

    def _collect(self) -> None:
        """Cards to the discard bucket, Player's then Banker's."""
        self._go(Phase.COLLECTION, REF_RESULT)
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
        self._go(Phase.COMPLETE, REF_RESULT)
        self.ledger.verify()

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

    def _visible(self, label: str, hand: list[Card]) -> list[str]:
        return [
            HIDDEN if (label, i) in self._face_down else str(card)
            for i, card in enumerate(hand)
        ]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; no hidden card."""
        out: dict[str, Any] = {
            "game": self.game,
            "phase": self._phase.value,
            "player": self._visible("player", self.player),
            "banker": self._visible("banker", self.banker),
            "cover_card_reached": self.cover_card_reached,
        }
        if not self._face_down:
            out["player_count"] = point_count(self.player)
            out["banker_count"] = point_count(self.banker)
        out["layout"] = [
            {"seat": k.seat, "wager": k.wager, "amount": amount}
            for k, amount in sorted(self.ledger.stakes.items())
        ]
        if seat is not None:
            out["seat"] = seat
            out["settlements"] = [
                s.to_dict() for s in self.settlements if s.key.seat == seat
            ]
        return out
