"""A round withdrawn when the operator ended its shoe, found by its id (D198).

When the operator ends a table's shoe between rounds (D194), the round
that waited for wagers on the old shoe, and took none, is deleted with
its events; the round opened on the new shoe records a ``shoe_ended``
step whose ``withdrawn`` is the deleted round's id. A client that still
holds that id is told so (:class:`~croupier.server.errors.
RoundWithdrawnError`, ``410``), not that there is no such round.

The answer is read from the database alone, so every process of
``--workers`` and a server started again give it: the step is stored
with the round that took the withdrawn round's place at its table, which
is that table's first round after it (a replacement withdrawn in turn
hands its table steps on to the next, D194). Only the events of those
rounds, one per table, are read; finding them reads the ids of the
rounds stored after the id asked for (none for an id above every
round's). It is asked only once the round is not found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from croupier.server import db
from croupier.server.decisions import SHOE_END, WITHDRAWN
from croupier.server.errors import RoundWithdrawnError

__all__ = ["Withdrawn", "withdrawn_round"]


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """What became of a withdrawn round: its table, its shoe, its successor."""

    round_id: int
    """The withdrawn round's id."""
    table_id: int
    """The table it waited at."""
    shoe: int
    """The number of the shoe the operator ended."""
    next_round: int
    """The table's round that took its place, on the new shoe."""

    def text(self) -> str:
        """What happened to the round, in a refusal's words."""
        return (
            f"round {self.round_id} was withdrawn when the operator ended "
            f"shoe {self.shoe} at table {self.table_id} ({SHOE_END}); "
            f"its table's next round is {self.next_round}"
        )

    def refusal(self, then: str = "") -> RoundWithdrawnError:
        """The refusal of a request naming the round, ``then`` after it.

        ``then`` says what the request did not do ("nothing was
        voided"); a read has nothing to add.
        """
        message = self.text() + (f"; {then}" if then else "")
        return RoundWithdrawnError(message, ref=WITHDRAWN)


def withdrawn_round(conn: Connection, round_id: int) -> Withdrawn | None:
    """Round ``round_id`` as withdrawn by an ended shoe, or ``None``.

    ``None`` for an id no ``shoe_ended`` step names: a round that is
    stored, an id never given, or a round withdrawn before the step
    named it (before D198 the step did not).
    """
    r = db.RoundRow
    e = db.EventRow
    successors = (
        select(func.min(r.id)).where(r.id > round_id).group_by(r.table_id)
    )
    rows = conn.execute(
        select(e.round_id, r.table_id, e.data_json)
        .join(r, r.id == e.round_id)
        .where(e.round_id.in_(successors))
        .where(e.scope == "server")
        .where(e.type == "shoe_ended")
        .order_by(e.round_id, e.seq)
    )
    for successor, table_id, text in rows:
        data = json.loads(text)
        withdrawn = data.get("withdrawn")
        shoe = data.get("shoe")
        if type(withdrawn) is int and withdrawn == round_id:
            return Withdrawn(
                round_id=round_id,
                table_id=int(table_id),
                shoe=shoe if type(shoe) is int else 0,
                next_round=int(successor),
            )
    return None
