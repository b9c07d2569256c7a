"""croupier: Pennsylvania table games run by the regulation, and their math.

The engine follows 58 Pa. Code step by step: every event, refusal and
procedure cites the subsection it carries out. See the README for the
games, the command line and the table server.

The names below are imported when first asked for (PEP 562), not with
the package: ``import croupier`` took 0.13 s (numpy, with the shoe's
random numbers), and the ``croupier`` command imports this package
before it can catch a Ctrl-C (:mod:`croupier.__main__`).

>>> import croupier
>>> croupier.parse_cards("AS KH JK")
(Card.parse('As'), Card.parse('Kh'), Card.parse('JK'))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME = {
    "JOKER": "croupier.cards",
    "Card": "croupier.cards",
    "Rank": "croupier.cards",
    "Suit": "croupier.cards",
    "parse_cards": "croupier.cards",
    "CroupierError": "croupier.errors",
    "Odds": "croupier.money",
    "Outcome": "croupier.money",
    "Ref": "croupier.regs",
    "Shoe": "croupier.shoe",
}
"""The module each public name comes from."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its module when first asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'croupier' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names, those not yet imported among them."""
    return sorted({*globals(), *__all__})
