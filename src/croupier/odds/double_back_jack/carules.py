"""Rules of the exact blackjack analyzer: Double Back Jack to ordinary.

:class:`CARules` is an *analyzer-only* rules type (issue 14). It holds
every Double Back Jack option that changes the mathematics of one box,
plus the options that turn the game into ordinary blackjack, so that
the exact analyzer can be checked against the published combinatorial
analyzers and each Double Back Jack rule can be priced alone. The game
engine keeps :class:`~croupier.games.double_back_jack.rules.
DoubleBackJackRules`: options such as ``second_chance=false`` or
``hole_card=enhc_all`` describe other games, which the engine does not
deal, so they are not added to the game's rules class (where they would
have to be honoured or refused). The options the two share are declared
once, by the game: each is the game's own field (default, provenance,
decision, subsection, doc; :func:`_game_option`), and
:meth:`CARules.from_game` copies them from a Rules Submission; every
default is the Double Back Jack default (D1-D8).

>>> CARules().second_chance, CARules().surrender
(True, <Surrender.LATE: 'late'>)
>>> ordinary = CARules.ordinary(decks=6)
>>> ordinary.dealer_22_push, ordinary.twenty_one_paid_at_once
(False, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum, unique
from fractions import Fraction
from typing import Any

from croupier.errors import RulesError
from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.money import Odds
from croupier.rules import GameRules, Provenance, option, options_table

__all__ = [
    "NOT_MODELLED",
    "CARules",
    "DoubleOn",
    "HoleCard",
    "Surrender",
]

_GAME_FIELDS = {f.name: f for f in fields(DoubleBackJackRules)}
_SHARED: set[str] = set()
"""The options declared once, by the game (:func:`_game_option`)."""


def _game_option(name: str, **changes: Any) -> Any:
    """The game's own declaration of option ``name`` (one source).

    Default, provenance, decision, subsection, bounds and doc are those
    of :class:`DoubleBackJackRules`; ``changes`` overrides metadata
    where the analyzer allows more (``max_split_hands`` up to 4).
    """
    game = _GAME_FIELDS[name]
    _SHARED.add(name)
    metadata = {**game.metadata, **changes}
    if game.default is not MISSING:
        return field(default=game.default, metadata=metadata)
    return field(default_factory=game.default_factory, metadata=metadata)


@unique
class Surrender(StrEnum):
    """When a hand may be surrendered."""

    NONE = "none"
    """No surrender."""
    LATE = "late"
    """After the card reader found no dealer Blackjack (591.7(i))."""
    EARLY = "early"
    """Before the card reader (full early surrender)."""


@unique
class DoubleOn(StrEnum):
    """Which first two cards may be doubled (totals, soft as high)."""

    ANY = "any"
    """Any two cards."""
    NINE_TO_ELEVEN = "9-11"
    """Hard (or soft-as-high) totals 9, 10, 11."""
    TEN_ELEVEN = "10-11"
    """Totals 10 and 11."""


@unique
class HoleCard(StrEnum):
    """How a dealer Blackjack is found."""

    PEEK = "peek"
    """Card reader on an ace or 10 (591.7(h)); later play knows no BJ."""
    ENHC_OBO = "enhc_obo"
    """No hole card; a dealer Blackjack takes the original bets only."""
    ENHC_ALL = "enhc_all"
    """No hole card; a dealer Blackjack takes every bet (doubles, splits)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CARules(GameRules):
    """Options of the exact analyzer (Double Back Jack defaults)."""

    decks: int = _game_option("decks")
    blackjack_payout: Odds = _game_option("blackjack_payout")
    win_payout: Odds = _game_option("win_payout")
    twenty_one_paid_at_once: bool = option(
        True,
        provenance=Provenance.REG,
        decision="D4",
        ref="591.7(m)",
        doc="A 21 (not a Blackjack, not a Second Chance) is paid at once; "
        "false: it stands like any total (ordinary blackjack).",
    )
    twenty_one_payout: Odds = _game_option("twenty_one_payout")
    blackjack_paid_before_peek: bool = option(
        True,
        provenance=Provenance.REG,
        ref="591.7(f)",
        doc="A player Blackjack is paid before the card reader; false: it "
        "pushes against a dealer Blackjack (ordinary blackjack).",
    )
    dealer_22_push: bool = option(
        True,
        provenance=Provenance.REG,
        ref="591.7(q)(1)",
        doc="A dealer 22 pushes every remaining hand; false: 22 is a bust.",
    )
    dealer_hits_soft_17: bool = option(
        False,
        provenance=Provenance.REG,
        ref="591.7(o)",
        doc="The dealer hits a soft 17 (false: stands on every 17).",
    )
    second_chance: bool = option(
        True,
        provenance=Provenance.REG,
        ref="591.7(l)",
        doc="A busted hand may buy a Second Chance (card subtracted).",
    )
    second_chance_21_payout: Odds = _game_option("second_chance_21_payout")
    second_chance_win_payout: Odds = _game_option("second_chance_win_payout")
    second_chance_on_doubled: bool = _game_option("second_chance_on_doubled")
    second_chance_on_split: bool = _game_option("second_chance_on_split")
    collect_busts_at_once: bool = _game_option("collect_busts_at_once")
    insurance: bool = _game_option("insurance")
    insurance_payout: Odds = _game_option("insurance_payout")
    insurance_max: Fraction = _game_option("insurance_max")
    surrender: Surrender = option(
        Surrender.LATE,
        provenance=Provenance.ASSUMED,
        decision="D6",
        ref="591.7(i)",
        choices=[s.value for s in Surrender],
        doc="none, late (after the card reader) or early (before it).",
    )
    surrender_refund: Fraction = _game_option("surrender_refund")
    double_on: DoubleOn = option(
        DoubleOn.ANY,
        provenance=Provenance.REG,
        decision="D7",
        ref="673a.10(a)",
        choices=[d.value for d in DoubleOn],
        doc="any two cards, 9-11 or 10-11 (soft totals count high).",
    )
    double_after_split: bool = _game_option("double_after_split")
    max_split_hands: int = _game_option(
        "max_split_hands",
        maximum=4,
        doc="Hands a box may hold after splitting (1 = no split; above "
        "2 = resplits, exact for CDZ-, D45).",
    )
    resplit_aces: bool = option(
        False,
        provenance=Provenance.ASSUMED,
        decision="D7",
        ref="673a.11(a)",
        doc="Split aces may be split again (when resplits are allowed).",
    )
    split_aces_one_card: bool = option(
        False,
        provenance=Provenance.REG,
        decision="D7",
        ref="673a.11(c)",
        doc="Each split ace gets exactly one card.",
    )
    hole_card: HoleCard = option(
        HoleCard.PEEK,
        provenance=Provenance.REG,
        ref="591.7(h)",
        choices=[h.value for h in HoleCard],
        doc="peek (card reader), enhc_obo or enhc_all (no hole card).",
    )

    def __post_init__(self) -> None:
        """Coerce enum names; refuse undefined combinations."""
        for name, kind in (
            ("surrender", Surrender),
            ("double_on", DoubleOn),
            ("hole_card", HoleCard),
        ):
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, name, kind(value))
                except ValueError:
                    self._refuse(name, f"unknown value {value!r}")
        if self.hole_card is not HoleCard.PEEK:
            if self.surrender is Surrender.LATE:
                self._refuse(
                    "surrender",
                    "late surrender needs hole_card=peek (use early)",
                )
            if self.hole_card is HoleCard.ENHC_ALL:
                for name in ("second_chance", "twenty_one_paid_at_once"):
                    if getattr(self, name):
                        self._refuse(
                            name,
                            f"{name}=true is defined with hole_card=peek "
                            "or enhc_obo only",
                        )

    @staticmethod
    def _refuse(name: str, why: str) -> None:
        raise RulesError(why, key=name)

    @classmethod
    def from_game(cls, rules: DoubleBackJackRules) -> CARules:
        """The analyzer's rules for a Double Back Jack Rules Submission.

        Table options (limits, boxes, rounding, collection order,
        penetration) do not change one box's expectation and are left
        out; ``double_for_less`` is never better than a full double
        (:data:`NOT_MODELLED`).
        """
        return cls(**_from_game_values(rules.to_dict(), rules))

    def with_submission(
        self, mapping: Mapping[str, object]
    ) -> tuple[CARules, tuple[str, ...]]:
        """A copy with a Rules Submission's options, and those left out.

        ``mapping`` (a ``--rules`` file, ``--set`` settings) may name
        the game's options in the game's spelling (a Double Back Jack
        Rules Submission, ``surrender = true``) and the analyzer's own
        (``hole_card``, ``surrender = "early"``). The game's options are
        read as :meth:`from_game` reads them (one mapping), validated by
        the game's rules; the ones that do not enter the analysis
        (:data:`NOT_MODELLED`) are returned, by name, in their order.
        """
        mapping = options_table(mapping)
        mine = {f.name for f in fields(self)}
        game: dict[str, object] = {}
        own: dict[str, object] = {}
        for key, value in mapping.items():
            if key in _TRANSLATED and (
                key not in mine or _in_game_spelling(value)
            ):
                game[key] = value
            elif key in mine:
                own[key] = value
            elif key in _GAME_FIELDS:
                game[key] = value
            else:
                # neither the analysis' option nor the game's: refused,
                # naming both (the game's file is read here too)
                known = sorted(mine | _GAME_FIELDS.keys())
                msg = "unknown option; known options are " + ", ".join(known)
                raise RulesError(msg, key=key)
        read = DoubleBackJackRules().with_overrides(game)
        values = _from_game_values(game, read)
        for key in values.keys() & own.keys():
            named = next(k for k in game if _RENAMED.get(k, k) == key)
            msg = f"{named} and {key} say the same: give one"
            raise RulesError(msg, key=key)
        result = self.with_overrides({**values, **own})
        left_out = tuple(k for k in mapping if k in NOT_MODELLED)
        return result, left_out

    @classmethod
    def ordinary(cls, **overrides: Any) -> CARules:
        """Ordinary blackjack, the analyzers' reference game.

        3:2, peek, S17, double any two, DAS, one split, split aces one
        card, no surrender, no insurance, no Double Back Jack rule.
        """
        base = cls(
            twenty_one_paid_at_once=False,
            blackjack_paid_before_peek=False,
            dealer_22_push=False,
            second_chance=False,
            surrender=Surrender.NONE,
            split_aces_one_card=True,
            insurance=False,
        )
        return replace(base, **overrides) if overrides else base

    def describe(self) -> str:
        """A one-line summary of the options that differ from DBJ."""
        default = CARules()
        parts = [f"{self.decks} deck" + ("s" if self.decks > 1 else "")]
        for f in fields(self):
            if f.name == "decks":
                continue
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                parts.append(f"{f.name}={_plain(value)}")
        return ", ".join(parts)


def _late_or_none(on: object) -> Surrender:
    return Surrender.LATE if on else Surrender.NONE


def _one_card(may_draw: object) -> bool:
    return not may_draw


_TRANSLATED: dict[str, Callable[[object], object]] = {
    "surrender": _late_or_none,
    "split_aces_may_draw": _one_card,
}
"""The game's options the analyzer spells otherwise: (game value ->
analyzer value); the analyzer's name is in :data:`_RENAMED`."""
_RENAMED = {"split_aces_may_draw": "split_aces_one_card"}
"""The game's options the analyzer names otherwise."""

NOT_MODELLED = frozenset(_GAME_FIELDS) - _SHARED - set(_TRANSLATED)
"""The game's options that do not change one box's expectation (table
limits, boxes, penetration, rounding, collection order, when a 21 is
paid, a double for less): read, validated, and left out of the
analysis."""


def _in_game_spelling(value: object) -> bool:
    """Whether ``value`` of an option both spell is the game's (a bool)."""
    if isinstance(value, str):
        return value.lower() in ("true", "false")
    return isinstance(value, bool)


def _from_game_values(
    given: Mapping[str, object], rules: DoubleBackJackRules
) -> dict[str, Any]:
    """The analyzer's values of the game options in ``given``.

    ``rules`` holds them read and validated; an option the analysis
    does not model is left out, one it spells otherwise is translated.
    """
    out: dict[str, Any] = {}
    for name in given:
        value = getattr(rules, name)
        if name in _SHARED:
            out[name] = value
        elif name in _TRANSLATED:
            out[_RENAMED.get(name, name)] = _TRANSLATED[name](value)
    return out


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
