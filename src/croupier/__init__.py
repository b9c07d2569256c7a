"""croupier: Pennsylvania table games run by the regulation, and their math.

The engine follows 58 Pa. Code step by step: every event, refusal and
procedure cites the subsection it carries out. See the README for the
games, the command line and the table server.
"""

from __future__ import annotations

from croupier.cards import JOKER, Card, Rank, Suit, parse_cards
from croupier.errors import CroupierError
from croupier.money import Odds, Outcome
from croupier.regs import Ref
from croupier.shoe import Shoe

__all__ = [
    "JOKER",
    "Card",
    "CroupierError",
    "Odds",
    "Outcome",
    "Rank",
    "Ref",
    "Shoe",
    "Suit",
    "__version__",
    "parse_cards",
]

__version__ = "0.1.0"
