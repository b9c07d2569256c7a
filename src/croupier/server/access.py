"""Who may recall which rounds (issue 12 point 8, D33).

A round's history belongs to the players who had a stake in it: a
player recalls the rounds he wagered in, the operator every round, and
an anonymous client none (``401``; the live table view stays public).
:func:`round_scope` is the one rule, for the list and for one round
alike: a SQL condition on ``rounds`` to add to any query of them.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, exists, select, true
from sqlalchemy.engine import Engine

from croupier.server import db
from croupier.server.decisions import RECALL
from croupier.server.errors import NotAuthenticatedError, NotFoundError
from croupier.server.tables import Player
from croupier.server.withdrawn import withdrawn_round

__all__ = ["require_round", "round_scope"]


def round_scope(viewer: Player | None) -> ColumnElement[bool]:
    """The rounds ``viewer`` may recall, as a condition on ``rounds``.

    A player's own rounds are those in which a stake of his moved (a
    ``transactions`` row of the round for his account). Anonymous
    callers are refused: :class:`NotAuthenticatedError`.
    """
    if viewer is None:
        msg = "recalling rounds needs a player's or the operator's token"
        raise NotAuthenticatedError(msg, ref=RECALL)
    if viewer.is_operator:
        return true()
    return exists(
        select(db.TransactionRow.id)
        .where(db.TransactionRow.round_id == db.RoundRow.id)
        .where(db.TransactionRow.player_id == viewer.id)
    )


def require_round(
    engine: Engine, round_id: int, viewer: Player | None
) -> None:
    """Refuse unless ``viewer`` may recall round ``round_id``.

    A round the viewer may not see is answered as one that does not
    exist (``404``), so that ids reveal nothing of other players. A round
    withdrawn when the operator ended its shoe is answered as such to
    any viewer (``410``, D198): it took no wager, so it tells nothing of
    anyone, and its id was shown to every client of its table.
    """
    scope = round_scope(viewer)
    with engine.connect() as conn:
        found = conn.execute(
            select(db.RoundRow.id)
            .where(db.RoundRow.id == round_id)
            .where(scope)
        ).first()
        gone = None if found is not None else withdrawn_round(conn, round_id)
    if gone is not None:
        raise gone.refusal()
    if found is None:
        raise NotFoundError(f"no round {round_id} of yours", ref=RECALL)
