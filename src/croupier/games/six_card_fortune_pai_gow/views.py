"""Per-seat views of a Six-Card Fortune Pai Gow Poker round.

Shared by the server, the CLI and the web client: a seat sees its own
six cards once dealt, everyone sees a position's cards once they are
exposed at settlement, and nobody ever sees the eleven remaining cards
(670a.9(d)) or the stacks discarded from empty positions (670a.9(f)).

The builder reads the round through :class:`SixCardState`, the few
things a view needs, so this module sits below :mod:`.round`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import StrEnum
from typing import NotRequired, Protocol, TypedDict

from croupier.hands.paigow import Setting
from croupier.money import Ledger, Settlement
from croupier.procedures import ch670a
from croupier.procedures.ch670a import Deal, position_label
from croupier.round import Pending, RoundView, StakeView

__all__ = ["PaiGowView", "PositionView", "SixCardState", "seat_view"]


class PositionView(TypedDict):
    """One position's cards as the viewer may see them."""

    cards: int | list[str]
    """The cards, or only how many when the viewer may not see them."""
    high: NotRequired[list[str]]
    """The five-card high hand, once set and shown."""
    low: NotRequired[str]
    """The one-card low hand, once set and shown."""


class PaiGowView(RoundView):
    """The round: the positions, the layout, whose turn, the results."""

    starting_position: int | None
    """The position dealt first (670a.9(b)), once determined."""
    positions: dict[str, PositionView]
    """The positions with cards on the layout (or exposed)."""
    wagers: list[StakeView]
    """Every stake on the layout."""
    envy_lammers: list[int]
    """Seats whose Envy lammer is placed."""
    progressive_meter: int
    """The progressive meter."""
    pending: dict[str, object] | None
    """The decision the round waits for."""
    settlements: list[dict[str, object]]
    """Every settlement so far."""


class SixCardState(Protocol):
    """What a view reads of a round."""

    @property
    def game(self) -> str:
        """The game's registry name."""

    @property
    def phase(self) -> StrEnum:
        """The current phase."""

    @property
    def starting_position(self) -> int | None:
        """The position dealt first."""

    @property
    def deal_record(self) -> Deal:
        """What each position was dealt."""

    @property
    def on_layout(self) -> Collection[int]:
        """Positions whose cards are on the layout."""

    @property
    def exposed(self) -> Collection[int]:
        """Positions whose cards were exposed."""

    @property
    def settings(self) -> Mapping[int, Setting]:
        """Hand settings by position."""

    @property
    def lammers(self) -> Collection[int]:
        """Seats with an Envy lammer."""

    @property
    def meter(self) -> int:
        """The progressive meter."""

    @property
    def ledger(self) -> Ledger:
        """Every wager of the round."""

    @property
    def settlements(self) -> list[Settlement]:
        """Settlements so far."""

    def pending(self) -> Pending | None:
        """The decision the round waits for."""


def seat_view(rnd: SixCardState, seat: int | None) -> PaiGowView:
    """What ``seat`` (``None``: a spectator) may see of ``rnd`` now.

    A seat sees its own cards once dealt; everyone sees a position's
    cards once exposed at settlement. The eleven remaining cards and
    the discarded stacks of empty positions are never shown.
    """
    positions: dict[str, PositionView] = {}
    for position in ch670a.POSITIONS:
        stack = rnd.deal_record.stacks[position]
        if position not in rnd.on_layout and position not in rnd.exposed:
            continue
        visible = position in rnd.exposed or (
            seat is not None and position == seat
        )
        entry = PositionView(cards=len(stack))
        if visible:
            entry["cards"] = [str(c) for c in stack]
        setting = rnd.settings.get(position)
        if setting is not None and (
            visible or rnd.phase.value in ("settlement", "complete")
        ):
            entry["high"] = [str(c) for c in setting.high]
            entry["low"] = str(setting.low)
        positions[position_label(position)] = entry
    pending = rnd.pending()
    return {
        "game": rnd.game,
        "phase": rnd.phase.value,
        "starting_position": rnd.starting_position,
        "positions": positions,
        "wagers": [
            StakeView(seat=k.seat, wager=k.wager, amount=v)
            for k, v in rnd.ledger.stakes.items()
        ],
        "envy_lammers": sorted(rnd.lammers),
        "progressive_meter": rnd.meter,
        "pending": None if pending is None else pending.to_dict(),
        "settlements": [s.to_dict() for s in rnd.settlements],
    }
