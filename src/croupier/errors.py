"""The exception tree: every refusal names the rule that forbids it.

All errors a caller can provoke derive from :class:`CroupierError`, itself
a :class:`ValueError`, and carry the rule (``ref``) that forbids what was
tried: the regulation's subsection (:class:`~croupier.regs.Ref`) or, where
the regulation leaves the matter to the casino, the project decision
(:class:`~croupier.regs.Decision`, D198); ``None`` only where no rule
applies. Internal invariant failures (a lost card, an
unbalanced ledger) are :class:`InvariantError`, which is *not* a
``ValueError``: they mean a bug, never bad input.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croupier.regs import Citation


class CroupierError(ValueError):
    """Base of every error caused by a caller's input or action.

    >>> from croupier.regs import Ref
    >>> err = CroupierError("no draw on 21", ref=Ref.parse("591.7(k)(1)"))
    >>> str(err)
    'no draw on 21 [591.7(k)(1)]'
    >>> from croupier.regs import Decision
    >>> str(CroupierError("nothing was voided", ref=Decision(137)))
    'nothing was voided [D137]'

    A message that names its rule already is not followed by it again:

    >>> str(CroupierError("nothing was voided (D137)", ref=Decision(137)))
    'nothing was voided (D137)'
    """

    def __init__(self, message: str, *, ref: Citation | None = None) -> None:
        self.message = message
        self.ref: Citation | None = ref
        """The rule that forbids what was tried (D198), or ``None``."""
        suffix = "" if ref is None or _names(message, ref) else f" [{ref}]"
        super().__init__(f"{message}{suffix}")


def _names(message: str, ref: Citation) -> bool:
    """Whether ``message`` cites ``ref`` itself ("... (D137)").

    A longer citation that begins with it (591.7(k)(1) for 591.7(k),
    D137 for D13) is another rule.
    """
    text = str(ref)
    at = message.find(text)
    while at >= 0:
        before = message[at - 1 : at]
        after = message[at + len(text) : at + len(text) + 1]
        if not (before.isalnum() or before == ".") and not (
            after.isalnum() or after == "("
        ):
            return True
        at = message.find(text, at + 1)
    return False


class CardParseError(CroupierError):
    """A card or a card list could not be parsed."""


class RulesError(CroupierError):
    """A Rules Submission option is unknown, mistyped or out of range."""

    def __init__(
        self, message: str, *, key: str, ref: Citation | None = None
    ) -> None:
        self.key = key
        # the option's name as a JSON file writes it ("decks", not
        # Python's 'decks'); a name is a string, which json.dumps spells
        # as croupier.jsontypes.json_text does (that module is a layer
        # above this one)
        shown = json.dumps(key, ensure_ascii=False)
        super().__init__(f"rules option {shown}: {message}", ref=ref)


class RulesFileError(RulesError):
    """A Rules Submission file that is missing or cannot be parsed."""

    def __init__(self, message: str, *, path: str) -> None:
        self.key = path
        CroupierError.__init__(self, f"rules file {path}: {message}")


class RulesShapeError(RulesError):
    """Rules given as something other than a table of options."""

    def __init__(self, message: str) -> None:
        self.key = ""
        CroupierError.__init__(self, message)


class ProcedureError(CroupierError):
    """An action that the dealing procedure does not allow now."""


class IllegalActionError(ProcedureError):
    """A decision that the rules do not allow for this hand."""


class WrongPhaseError(ProcedureError):
    """An action tried in a phase of the round where it has no place."""


class OutOfTurnError(ProcedureError):
    """A seat tried to act when another seat is to act."""


class WagerError(ProcedureError):
    """A wager that is not allowed (spot, amount, seat or timing)."""


class ShoeError(CroupierError):
    """A shoe or cut operation that the procedure forbids."""


class ShoeExhaustedError(ShoeError):
    """The shoe (or a stacked scenario deck) ran out of cards."""


class ScenarioError(CroupierError):
    """A scenario file that does not follow the scenario contract."""


class InvariantError(RuntimeError):
    """An internal invariant failed: a card or a chip is unaccounted for.

    This is never the caller's fault; it is raised with ``if``/``raise``
    (not ``assert``) so that ``python -O`` keeps the check.
    """


class CardConservationError(InvariantError):
    """Shoe + table + discard rack + set-aside differ from the complement."""


class LedgerError(InvariantError):
    """A chip placed on the layout was not returned, paid or collected."""
