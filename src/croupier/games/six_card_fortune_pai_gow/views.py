"""Per-seat views of a Six-Card Fortune Pai Gow Poker round.

Shared by the server, the CLI and the web client: a seat sees its own
six cards once dealt, everyone sees a position's cards once they are
exposed at settlement, and nobody ever sees the eleven remaining cards
(670a.9(d)) or the stacks discarded from empty positions (670a.9(f)).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.procedures import ch670a
from croupier.procedures.ch670a import position_label

if TYPE_CHECKING:
    from .round import SixCardRound

__all__ = ["seat_view"]


def seat_view(rnd: SixCardRound, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may see of ``rnd`` now.

    A seat sees its own cards once dealt; everyone sees a position's
    cards once exposed at settlement. The eleven remaining cards and
    the discarded stacks of empty positions are never shown.
    """
    positions: dict[str, Any] = {}
    for position in ch670a.POSITIONS:
        stack = rnd.deal_record.stacks[position]
        if position not in rnd.on_layout and position not in rnd.exposed:
            continue
        visible = position in rnd.exposed or (
            seat is not None and position == seat
        )
        entry: dict[str, Any] = {"cards": len(stack)}
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
            {"seat": k.seat, "wager": k.wager, "amount": v}
            for k, v in rnd.ledger.stakes.items()
        ],
        "envy_lammers": sorted(rnd.lammers),
        "progressive_meter": rnd.meter,
        "pending": None if pending is None else pending.to_dict(),
        "settlements": [s.to_dict() for s in rnd.settlements],
    }
