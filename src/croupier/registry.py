"""The registry of games: name to specification (python-chess variants).

Each game module registers a :class:`GameSpec` at import. The registry
does not import the games (they import it): the installed distributions
name their game modules as entry points of the group ``croupier.games``
(``pyproject.toml``), and the first lookup loads them, so
``find_game("midibaccarat")`` works without importing
:mod:`croupier.games` first, and another distribution can add a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from croupier.errors import ScenarioError
from croupier.events import EventLog
from croupier.jsontypes import json_text
from croupier.regs import Ref
from croupier.rng import Rng
from croupier.round import Round
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = ["GameSpec", "all_games", "find_game", "register_game"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec:
    """What the rest of the system needs to know about a game."""

    name: str
    """Registry name, as in ``croupier scenario`` (``double-back-jack``)."""
    title: str
    """Human title."""
    section: str
    """The seed section that governs the round (``591.7``); it keys the
    game's tables (the verifier's, the coverage report's)."""
    rules_type: type[GameRules]
    """The frozen options class."""
    new_round: Callable[..., Round]
    """Factory: ``new_round(rules=, shoe=, rng=, new_shoe=,
    starting_position=)``."""
    new_shoe: Callable[[GameRules, Rng], Shoe]
    """A full, unshuffled shoe (or deck) for these rules."""
    wagers: tuple[str, ...]
    """Wager names a player may place before the deal."""
    wager_titles: Mapping[str, str] = field(default_factory=dict)
    """Each wager's name as the game's section writes it, by its id: the
    round's :attr:`~croupier.round.Round.wager_titles` (D187), for a
    message written where no round is at hand (the server's limits)."""
    actions: tuple[str, ...] = ()
    """Decision names the game may ask for."""
    max_seats: int
    """Number of betting positions."""
    seats_ref: Ref
    """The subsection that numbers the betting positions, the round's
    :attr:`~croupier.round.Round.seats_ref`: the server refuses a seat
    outside them citing it, as the round refuses a wager there (D199)."""
    offered_ref: Ref
    """The subsection a wager the game does not offer is refused under,
    the round's :attr:`~croupier.round.Round.offered_ref` (D199)."""
    uses_starting_position: bool = False
    """Whether the game determines a starting position (670a.9(b))."""
    prepare_shoe: (
        Callable[[GameRules, Shoe, Rng, EventLog, tuple[int, ...]], None]
        | None
    ) = None
    """Shuffle and cut a gathered shoe for a new shoe (``rules, shoe, rng,
    log, occupied_seats``); ``None``: shuffle and place the cover card at
    ``rules.penetration`` (:func:`croupier.table.default_prepare_shoe`)."""
    reshuffle_every_round: bool = False
    """Whether every round starts from a freshly shuffled deck."""
    transitions: Mapping[Any, Iterable[Any]] | None = None
    """The round's phase transition table: phase to the phases it may
    enter next (``croupier phases GAME`` draws it)."""
    sections: tuple[str, ...] = ()
    """The sections shown with the title, the game's own rules first
    (commission-free Midibaccarat: ``629b.2`` and the ``629a.5`` it is
    dealt under); empty: ``section`` alone."""

    @property
    def cites(self) -> str:
        """The sections a person is shown for the game (``629b.2, 629a.5``).

        >>> from croupier.registry import find_game
        >>> find_game("midibaccarat-commission-free").cites
        '629b.2, 629a.5'
        >>> find_game("double-back-jack").cites
        '591.7'
        """
        return ", ".join(self.sections or (self.section,))

    @property
    def citation(self) -> str:
        """The game's sections as a citation: ``§ 591.7``, ``§§ 629b.2, ...``.

        >>> from croupier.registry import find_game
        >>> find_game("midibaccarat-commission-free").citation
        '§§ 629b.2, 629a.5'
        >>> find_game("midibaccarat").citation
        '§ 629a.5'
        """
        mark = "§§" if len(self.sections) > 1 else "§"
        return f"{mark} {self.cites}"

    def positions(self, rules: GameRules) -> tuple[int, str | None]:
        """The betting positions ``rules`` number, and the option that does.

        21 Baccarat's ``seats`` (up to 14) and Double Back Jack's
        ``boxes`` (up to 6) are options of the Rules Submission; the
        other games have :attr:`max_seats` (``None``: no option).

        >>> from croupier.registry import find_game
        >>> spec = find_game("21-baccarat")
        >>> spec.positions(spec.rules_type.from_mapping({"seats": 14}))
        (14, 'seats')
        >>> find_game("midibaccarat").positions(
        ...     find_game("midibaccarat").rules_type())
        (9, None)
        """
        for option in _POSITION_OPTIONS:
            value = getattr(rules, option, None)
            if isinstance(value, int) and not isinstance(value, bool):
                return value, option
        return self.max_seats, None


_POSITION_OPTIONS = ("seats", "boxes")
"""The options by which a game's rules number its betting positions."""


_GAMES: dict[str, GameSpec] = {}

ENTRY_POINTS = "croupier.games"
"""The entry-point group naming the modules that register games."""

_loaded: list[str] = []
"""The entry points loaded so far (once, at the first lookup)."""


def _load_games() -> None:
    """Import every installed game module (once)."""
    if _loaded:
        return
    found = sorted(entry_points(group=ENTRY_POINTS), key=lambda p: p.name)
    if not found:
        msg = (
            f"no {ENTRY_POINTS!r} entry point is installed: install "
            "croupier (pip install -e . in a checkout)"
        )
        raise ScenarioError(msg)
    for point in found:
        point.load()
        _loaded.append(point.name)


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (called by each game module)."""
    _GAMES[spec.name] = spec
    return spec


def find_game(name: str) -> GameSpec:
    """The game registered as ``name``; a clear error if unknown."""
    _load_games()

    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "(none)"
        msg = f"unknown game {json_text(name, 60)}; games are: {known}"
        raise ScenarioError(msg) from None


def all_games() -> list[GameSpec]:
    """Every registered game, by name."""
    _load_games()

    return [_GAMES[name] for name in sorted(_GAMES)]
