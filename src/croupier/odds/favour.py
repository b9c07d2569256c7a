"""Wagers whose house edge favours the player (D146).

A paytable can be set (``--set``, a Rules Submission, ``croupier
design --base``) so that a wager returns more than it takes: a negative
house edge. That is not an error (a promotion may mean it), but it must
not pass unremarked: ``croupier analyze``, ``croupier design`` and
``croupier report`` name every such wager with :func:`player_favourable`.

Some figures are negative by their nature: the Envy Bonus of Six-Card
Fortune Pai Gow has no stake of its own (it is paid with a qualifying
Fortune Bonus Wager, D134), so its figure is minus the Envy paid per
unit of that wager whatever the paytable. Those are listed in
:data:`NEGATIVE_BY_CONSTRUCTION` with the wager that carries them, which
is checked instead; :func:`by_construction` says why they are not
warned about.

>>> [w["message"] for w in player_favourable("g", {"a": -0.25, "b": 0.1})]
['a favours the player by 25.0000 % of the wager: its house edge is negative']
>>> player_favourable("six-card-fortune-pai-gow", {"envy_bonus": -0.05})
[]
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "NEGATIVE_BY_CONSTRUCTION",
    "by_construction",
    "favour_text",
    "favourable_play",
    "player_favourable",
]

NEGATIVE_BY_CONSTRUCTION: dict[tuple[str, str], tuple[str, str]] = {
    ("six-card-fortune-pai-gow", "envy_bonus"): (
        "fortune_bonus_with_envy",
        "the Envy Bonus has no stake of its own: it is paid with a "
        "qualifying Fortune Bonus Wager (670a.9(a)(3)(i), D134), so its "
        "figure is minus the Envy paid per unit of that wager, negative "
        "whatever the paytable; the wager that pays it is judged instead",
    ),
}
"""``(game, wager) -> (the wager that carries it, why)``: figures that
cannot be positive, by construction."""


def favour_text(edge: float) -> str:
    """``favours the player by X % of the wager`` for a negative edge.

    >>> favour_text(-0.0125)
    'favours the player by 1.2500 % of the wager'
    >>> favour_text(-12.5)
    'favours the player by 1,250.0000 % of the wager'
    """
    return f"favours the player by {-100 * edge:,.4f} % of the wager"


def player_favourable(
    game: str,
    edges: Mapping[str, float],
    *,
    simulated: frozenset[str] = frozenset(),
) -> list[dict[str, object]]:
    """Every wager of ``edges`` whose house edge is negative, as warnings.

    ``simulated`` names the wagers whose edge is a simulation's estimate
    (the message says so). Wagers negative by construction are left out
    (:func:`by_construction`). Each warning is ``{"wager", "house_edge",
    "message"}``.
    """
    out: list[dict[str, object]] = []
    for name, edge in edges.items():
        if edge >= 0 or (game, name) in NEGATIVE_BY_CONSTRUCTION:
            continue
        estimate = " (a simulation's estimate)" if name in simulated else ""
        out.append(
            {
                "wager": name,
                "house_edge": edge,
                "message": (
                    f"{name} {favour_text(edge)}: its house edge is "
                    f"negative{estimate}"
                ),
            }
        )
    return out


def by_construction(
    game: str, edges: Mapping[str, float]
) -> list[dict[str, object]]:
    """The negative figures of ``edges`` that are so by construction.

    Each is ``{"wager", "house_edge", "judged_as", "why"}``: not a
    warning, and the reason it is not one.

    >>> [n["judged_as"] for n in by_construction(
    ...     "six-card-fortune-pai-gow", {"envy_bonus": -0.05})]
    ['fortune_bonus_with_envy']
    """
    out: list[dict[str, object]] = []
    for name, edge in edges.items():
        known = NEGATIVE_BY_CONSTRUCTION.get((game, name))
        if known is None or edge >= 0:
            continue
        out.append(
            {
                "wager": name,
                "house_edge": edge,
                "judged_as": known[0],
                "why": known[1],
            }
        )
    return out


def favourable_play(extra: Mapping[str, object]) -> list[dict[str, object]]:
    """The warnings an analysis gives of play its edges cannot show.

    A wager's edge assumes the play its analysis names; where a decision
    the rules offer makes a wager favour the player (pai gow's Double
    Down played well, D177), the analysis lists the warning in its
    figures' ``favourable_play``, in :func:`player_favourable`'s form.

    >>> favourable_play({"favourable_play": [{"wager": "w", "message": "m"}]})
    [{'wager': 'w', 'message': 'm'}]
    >>> favourable_play({})
    []
    """
    listed = extra.get("favourable_play")
    if not isinstance(listed, list):
        return []
    return [dict(item) for item in listed if isinstance(item, Mapping)]
