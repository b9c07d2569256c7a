"""The shapes every game-protection analysis reports in.

A protection report is a list of :class:`Section` objects, one per
analysis (effects of removal, a count, perfect play, known cards...),
each carrying JSON-ready data, its own Markdown rendering for
``docs/protection/`` and the :class:`Finding` objects that say whether
a wager can be beaten that way, by how much, and what closes the gap.

Each analysis module offers a provider
``sections(game, wager, rules) -> list[Section]`` (see
:class:`Provider`); :mod:`croupier.protect.report` assembles them.

>>> f = Finding(wager="dragon_7", method="count", beatable=True,
...             player_edge=0.012, per="per unit bet when betting",
...             remedy="deal to 5 decks (cut card at 6.5 decks: 1.3 %)",
...             ref="629a.13")
>>> f.to_json()["beatable"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from croupier.jsontypes import JsonObject
from croupier.rules import GameRules

__all__ = ["Finding", "Provider", "Section"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """Whether a wager can be beaten one way, and what closes the gap."""

    wager: str
    """The wager's name, as the Rules Submission spells it."""
    method: str
    """How (``count``, ``perfect_play``, ``known_card``, ``edge_sort``...)."""
    beatable: bool
    """True when the player's edge is positive under these rules."""
    player_edge: float
    """The player's best edge this way (a fraction; negative: house)."""
    per: str
    """What the edge is per (``per unit bet when betting``, ``per shoe``)."""
    remedy: str
    """The rule change that closes the gap (or why none is needed)."""
    ref: str = ""
    """The subsection or decision the wager or remedy rests on."""

    def to_json(self) -> JsonObject:
        """The finding as a JSON-ready dict."""
        return {
            "wager": self.wager,
            "method": self.method,
            "beatable": self.beatable,
            "player_edge": self.player_edge,
            "per": self.per,
            "remedy": self.remedy,
            "ref": self.ref,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """One analysis of one game (or one wager) for the report."""

    key: str
    """The JSON key (``eor``, ``counts``, ``perfect_play``, ``known``...)."""
    title: str
    """The Markdown heading."""
    data: Mapping[str, object]
    """JSON-ready results (numbers as int/float/str, no Fractions)."""
    markdown: str
    """The section's body in Markdown (tables, conventions, sources)."""
    findings: tuple[Finding, ...] = field(default=())
    """What the section concludes, wager by wager."""

    def to_json(self) -> dict[str, Any]:
        """The section as a JSON-ready dict."""
        return {
            "key": self.key,
            "title": self.title,
            "data": self.data,
            "findings": [f.to_json() for f in self.findings],
        }


class Provider(Protocol):
    """An analysis module's entry point for the report."""

    def __call__(
        self, game: str, wager: str | None, rules: GameRules
    ) -> list[Section]:
        """The sections this analysis offers for ``game``.

        All wagers when ``wager`` is None; ``[]`` when it does not apply.
        """
        ...
