"""The project's decisions that the table server's refusals and steps cite.

Where the regulation leaves a rule to the casino, the server follows one
of this project's decisions (``docs/decisions.md``) and a refusal made
under it cites it in ``ref`` (D198): ``"D199"``. They are kept here, one
constant each with its rule in a line, so that the rule behind any of
the server's refusals is found in one place, and a decision by grep.
A refusal under a rule of the regulation cites that subsection instead
(a game's seats, its wagers: :attr:`croupier.registry.GameSpec.seats_ref`).

>>> str(SEATS), str(OPERATOR_TASKS)
('D199', 'D200')
"""

from __future__ import annotations

from croupier.regs import Decision

__all__ = [
    "BODY_LIMITS",
    "BOUNDS",
    "CLOSE_BETTING",
    "DEFAULT_DECISION",
    "IDLE_SEAT",
    "NO_CREDIT",
    "ONE_NAME",
    "OPERATOR_TASKS",
    "RECALL",
    "REGULATION_FIXES",
    "RETRIED_ONCE",
    "SEATS",
    "SHOE_END",
    "TABLE_LIMITS",
    "TOKENS",
    "VOID",
    "VOID_NAMED",
    "WITHDRAWN",
]

DEFAULT_DECISION = Decision(26)
"""A decision's clock run out takes its passive default."""
CLOSE_BETTING = Decision(27)
"""Closing the betting: by the seats with a wager, or the operator."""
IDLE_SEAT = Decision(28)
"""A gone or idle player's seat is freed between rounds."""
VOID = Decision(29)
"""The operator's void of the round in play."""
BODY_LIMITS = Decision(30)
"""How large a request body the server reads."""
BOUNDS = Decision(31)
"""Bounds of ids, amounts and names: a deposit's, a balance's, a name."""
TOKENS = Decision(32)
"""Bearer tokens and rate limits."""
RECALL = Decision(33)
"""Who recalls which rounds."""
NO_CREDIT = Decision(73)
"""No stake is on credit: a stake must fit the balance left."""
REGULATION_FIXES = Decision(97)
"""An option the regulation fixes is a what-if, not a table's rule."""
VOID_NAMED = Decision(137)
"""A void names the round it is for."""
RETRIED_ONCE = Decision(138)
"""A request retried with its Idempotency-Key is answered once."""
ONE_NAME = Decision(157)
"""One name, one table."""
SHOE_END = Decision(194)
"""The operator ends a table's shoe between rounds."""
TABLE_LIMITS = Decision(195)
"""A server table's limits, the server's own where a table gives none."""
WITHDRAWN = Decision(198)
"""A withdrawn round's id is answered ``410 Gone``."""
SEATS = Decision(199)
"""A seat is one player's, a player has one seat a table, and a seat
with stakes on the layout, or sitting out, is held to them."""
OPERATOR_TASKS = Decision(200)
"""The tasks only an operator may do."""
