"""A dealer's slips in a pai gow deal, read from the record's own steps.

``dealing_irregularities`` (``skip:3``, ``double:7``) is croupier's own
replay input: it makes the engine's dealer pass a position over, or
give it two cards, so that a misdeal can be replayed (670a.9(e)). A
record written by another system shows the slip in its ``card_dealt``
steps and need not know that input (D92). When a round's rules give no
slips and its replay deviates, the slips its cards show (which position
got none or two on which turn of the deal, in the order dealt) are
worked out here, and the round is replayed with them: an honest misdeal
then conforms, and a forged one (a void when the deal was right, stakes
kept, the deal played on after the slip) deviates where its steps leave
what 670a.9(d)-(e) require.

>>> from croupier.hhf.sample import sample_histories
>>> from croupier.registry import find_game
>>> spec = find_game("six-card-fortune-pai-gow")
>>> history = next(sample_histories(spec.name, 1, seed=5))
>>> rules = spec.rules_type.from_mapping(dict(history.rules))
>>> shown_slips(spec, rules, history, 5) is None  # a regular deal
True
"""

from __future__ import annotations

from croupier.errors import CroupierError
from croupier.games.six_card_fortune_pai_gow.rules import Dealing
from croupier.hhf.format import HandHistory
from croupier.procedures.ch670a import irregularities_shown, position_of
from croupier.registry import GameSpec
from croupier.rules import GameRules

from .explain import whole_number

__all__ = ["shown_slips"]

_OPTION = "dealing_irregularities"
"""The rules option that replays a dealer's slips (pai gow's)."""


def shown_slips(
    spec: GameSpec,
    rules: GameRules,
    history: HandHistory,
    start: int | None,
) -> GameRules | None:
    """``rules`` with the slips ``history``'s deal shows, if it shows any.

    ``None`` when there is nothing to add: the game replays no slips,
    the rules give some already (they are replayed as given), the deal
    is dealt in stacks by an automated shoe (670a.10(c)), the record
    names no starting position (``start``), or the deal shows no slip
    (or none that slips give: it is then left to the replay to say
    where it breaks 670a.9(c)).
    """
    if getattr(rules, _OPTION, None) != ():
        return None
    if getattr(rules, "dealing", None) is Dealing.AUTOMATED_SHOE:
        return None
    if start is None:
        return None
    dealt: list[int] = []
    remaining = 0
    for step in history.procedure:
        kind = step["type"]
        if kind == "card_dealt":
            position = position_of(step.get("to"))
            if position is None:
                return None
            dealt.append(position)
        elif kind == "cards_counted":
            count = whole_number(step.get("count"))
            remaining = count if type(count) is int and count > 0 else 0
            break
    try:
        slips = irregularities_shown(start, dealt, remaining)
        return _with_slips(rules, slips) if slips else None
    except CroupierError:
        return None


_DERIVED: dict[tuple[int, tuple[str, ...]], tuple[GameRules, GameRules]] = {}
"""Rules with slips added, by the rules' identity and the slips (the
rules are cached, so they repeat; both are kept alive here, so an id is
not reused while its entry lives): the same object comes back for the
same slips, and what the replay caches by rules (the shoe's cards) is
found again."""


def _with_slips(rules: GameRules, slips: tuple[str, ...]) -> GameRules:
    found = _DERIVED.get((id(rules), slips))
    if found is None or found[0] is not rules:
        if len(_DERIVED) > 256:
            _DERIVED.clear()
        found = (rules, rules.with_overrides({_OPTION: list(slips)}))
        _DERIVED[(id(rules), slips)] = found
    return found[1]
