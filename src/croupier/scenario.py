"""The scenario runner: replay an exact, stacked situation of any game.

The contract (input keys, output shape, exit codes 0/2/3) is documented
in the README under "Scenarios"; :func:`run_scenario` implements it and
``croupier scenario FILE.json`` exposes it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from croupier.cards import Card, parse_cards
from croupier.errors import CroupierError, ScenarioError, ShoeExhaustedError
from croupier.jsontypes import json_text, reading_error, whole_number
from croupier.registry import GameSpec, find_game
from croupier.rng import SeededRng, fisher_yates
from croupier.round import Action, Round
from croupier.rules import GameRules
from croupier.shoe import Shoe

__all__ = [
    "IRREGULARITY_KEY",
    "ScenarioResult",
    "run_scenario",
    "run_scenario_text",
    "verify_possible_shoe",
]

IRREGULARITY_KEY = "irregularity_test"
"""The field by which a file declares a deliberately impossible shoe."""

_KEYS = {
    "game",
    "rules",
    "shoe",
    "new_shoe",
    "starting_position",
    "wagers",
    "decisions",
    "seed",
    "description",
    "expect",
    IRREGULARITY_KEY,
}
_FILLER_DECKS = 8


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """What the runner prints and the exit code it ends with."""

    exit_code: int
    """0 done, 2 refused, 3 waiting for a decision."""
    stdout: str
    """JSON document (empty on refusal)."""
    stderr: str
    """One line on refusal."""
    round: Round | None = None
    """The round, for tests and tools (``None`` if it never started)."""


def verify_possible_shoe(
    spec: GameSpec, rules: GameRules, cards: Iterable[Card]
) -> None:
    """Refuse cards the rules' decks cannot hold (a stacked shoe).

    ``cards`` (stack, rack, anything the round holds) may be fewer than
    the full complement, never more of any card: seven 6s in a 3-deck
    shoe, or a second joker in a one-joker pai gow deck, cannot occur in
    play and raise :class:`ScenarioError` naming the card and the count.

    >>> from croupier.registry import find_game
    >>> spec = find_game("21-baccarat")
    >>> rules = spec.rules_type.from_mapping({"decks": 1})
    >>> verify_possible_shoe(spec, rules, parse_cards("6s 6s"))
    Traceback (most recent call last):
    ...
    croupier.errors.ScenarioError: the shoe holds 2 x 6s but the rules' \
shoe (1 deck(s)) has 1; mark the file "irregularity_test": true if this \
is deliberate
    """
    complement = spec.new_shoe(rules, SeededRng(0)).complement
    held = Counter(cards)
    for card, count in sorted(held.items()):
        if count > complement.get(card, 0):
            decks = getattr(rules, "decks", 1)
            msg = (
                f"the shoe holds {count} x {card} but the rules' shoe "
                f"({decks} deck(s)) has {complement.get(card, 0)}; mark "
                f'the file "{IRREGULARITY_KEY}": true if this is '
                f"deliberate"
            )
            raise ScenarioError(msg)


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    """``data[key]``, a JSON ``true`` or ``false`` (else ``default``).

    Not any value's truth: ``"new_shoe": "no"`` was a new shoe.
    """
    value = data.get(key, default)
    if not isinstance(value, bool):
        msg = f"{json_text(key)} is true or false, not {json_text(value, 60)}"
        raise ScenarioError(msg)
    return value


def _text(data: Mapping[str, Any], key: str, what: str) -> str:
    """``data[key]``, a JSON string (``what`` names it in the refusal)."""
    value = data[key]
    if not isinstance(value, str):
        msg = f"{what} is a string, not {json_text(value, 60)}"
        raise ScenarioError(msg)
    return value


_WAGER_KEYS = ("seat", "wager", "amount")
"""What every wager of a scenario names."""
_WAGER_FIELDS = {*_WAGER_KEYS, "change"}
"""Every key a scenario's wager may hold."""
_DECISION_FIELDS = {"seat", "action", "amount", "card", "low"}
"""Every key a scenario's decision may hold (``low``: pai gow's card)."""


def _known_keys(
    item: Mapping[str, Any], known: set[str], what: str, n: int
) -> None:
    """Refuse keys of ``item`` outside ``known``.

    A misspelt ``"amout"`` or ``"acton"`` was dropped without a word and
    the round ran without it.
    """
    unknown = sorted(set(item) - known)
    if unknown:
        msg = (
            f"{what} {n} has unknown keys {json_text(unknown)} (known: "
            f"{json_text(sorted(known))})"
        )
        raise ScenarioError(msg)


def _play(
    spec: GameSpec, data: Mapping[str, Any], shoe: Shoe
) -> tuple[Round, dict[str, object] | None]:
    rules = spec.rules_type.from_mapping(data.get("rules", {}))
    if not _flag(data, IRREGULARITY_KEY, False):
        verify_possible_shoe(spec, rules, shoe.cards_in_stack())
    start = data.get("starting_position")
    if start is not None and not spec.uses_starting_position:
        msg = f"{spec.name} does not determine a starting position"
        raise ScenarioError(msg)
    rnd = spec.new_round(
        rules=rules,
        shoe=shoe,
        rng=SeededRng(whole_number(data.get("seed", 0), '"seed"')),
        new_shoe=_flag(data, "new_shoe", True),
        starting_position=None
        if start is None
        else whole_number(start, '"starting_position"'),
    )
    for n, wager in enumerate(_objects(data, "wagers", "wager"), start=1):
        _known_keys(wager, _WAGER_FIELDS, "wager", n)
        missing = [key for key in _WAGER_KEYS if key not in wager]
        if missing:
            msg = f"wager {n} has no {json_text(missing[0])}"
            raise ScenarioError(msg)
        # "change": true raises, lowers or (0) takes back a wager placed
        # earlier in the list, as a player may before the deal
        change = _flag(wager, "change", False)
        verb = rnd.change_wager if change else rnd.place_wager
        verb(
            whole_number(wager["seat"], "a wager's seat"),
            _text(wager, "wager", "a wager's name"),
            whole_number(wager["amount"], "a wager's amount"),
        )
    rnd.deal()
    _verify_stacked_enough(spec, rules, rnd)
    decisions = _objects(data, "decisions", "decision")
    for n, decision in enumerate(decisions, start=1):
        _known_keys(decision, _DECISION_FIELDS, "decision", n)
    for decision in decisions:
        if rnd.pending() is None:
            msg = (
                f"decision {json_text(decision, 80)} given but no "
                f"decision is pending"
            )
            raise ScenarioError(msg)
        rnd.apply(Action.from_dict(decision))
        _verify_stacked_enough(spec, rules, rnd)
    pending = rnd.pending()
    return rnd, None if pending is None else pending.to_dict()


def _verify_stacked_enough(
    spec: GameSpec, rules: GameRules, rnd: Round
) -> None:
    """Refuse a stack too short for the round.

    A game whose shoe may run out in play voids the round when it does
    (D69); a scenario's shoe that holds fewer cards than the rules'
    decks ran out because it was stacked short, which the runner
    reports instead.
    """
    if not rnd.shoe_ran_out:
        return
    full = spec.new_shoe(rules, SeededRng(0)).complement.total()
    if rnd.shoe.complement.total() < full:
        msg = "the stacked shoe ran out before the round was complete"
        raise ShoeExhaustedError(msg)


def _objects(
    data: Mapping[str, Any], key: str, what: str
) -> list[Mapping[str, Any]]:
    """``data[key]``: a list of JSON objects (one per ``what``), or refused."""
    items = data.get(key, [])
    name = json_text(key)
    if isinstance(items, list):
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                msg = (
                    f"{name} item {n} is {json_text(item, 60)}: each "
                    f"{what} is an object"
                )
                raise ScenarioError(msg)
        return items
    msg = (
        f"{name} is a list of objects, one per {what}, not "
        f"{json_text(items, 60)}"
    )
    raise ScenarioError(msg)


_FILLER_TRIES = 200
"""Orders of the filler cards tried before the count is given up."""


def _missing_cards(spec: GameSpec, data: Mapping[str, Any]) -> int | None:
    """Count the cards a round needs beyond the listed ones (filler run).

    The listed cards are followed by filler cards, in a fixed order and
    then in seeded shuffles of it, until the file's wagers and decisions
    complete a round; the count is the filler cards it drew. ``None``
    when no order tried fits the decisions (a double the filler's deal
    does not allow): how many more cards the round needs is then not
    known.
    """
    filler = Shoe.new(decks=_FILLER_DECKS, jokers=1).cards_in_stack()
    for attempt in range(_FILLER_TRIES):
        if attempt:
            fisher_yates(filler, SeededRng(attempt))
        shoe = Shoe.stacked(str(data["shoe"]))
        shoe.stack.extend(filler)
        shoe.complement.update(filler)
        # the filler makes an over-full shoe on purpose: skip that check
        try:
            _play(spec, {**data, IRREGULARITY_KEY: True}, shoe)
        except CroupierError:
            continue
        return max(1, len(filler) - len(shoe))
    return None


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Run one scenario document; never raises for bad input."""
    try:
        unknown = set(data) - _KEYS
        if unknown:
            msg = f"unknown scenario keys {json_text(sorted(unknown))}"
            raise ScenarioError(msg)
        if "game" not in data or "shoe" not in data:
            msg = 'a scenario needs "game" and "shoe"'
            raise ScenarioError(msg)
        spec = find_game(_text(data, "game", '"game"'))
        _text(data, "shoe", '"shoe"')
        try:
            rnd, pending = _play(spec, data, Shoe.stacked(str(data["shoe"])))
        except ShoeExhaustedError:
            missing = _missing_cards(spec, data)
            listed = len(parse_cards(str(data["shoe"]).replace("CC", " ")))
            msg = (
                f"the shoe lists {listed} cards but the round needs "
                f"{missing} more (counted by completing it with filler "
                f"cards; other cards may change the count)"
                if missing is not None
                else f"the shoe lists {listed} cards but the round needs "
                f"more cards (how many could not be counted: no filler "
                f"cards tried after them fit the decisions)"
            )
            raise ScenarioError(msg) from None
    except CroupierError as exc:
        return ScenarioResult(2, "", f"{type(exc).__name__}: {exc}")
    except (KeyError, TypeError, ValueError) as exc:
        # a key some object of the file lacks (a decision's "action")
        return ScenarioResult(
            2, "", f"ScenarioError: malformed scenario: {reading_error(exc)}"
        )
    output: dict[str, object] = {}
    if pending is not None:
        output["pending"] = pending
    output["events"] = [event.to_dict() for event in rnd.events]
    output["hands"] = rnd.hands()
    output["settlements"] = [s.to_dict() for s in rnd.settlements]
    return ScenarioResult(
        3 if pending is not None else 0, json.dumps(output), "", rnd
    )


def run_scenario_text(text: str) -> ScenarioResult:
    """Parse a JSON scenario document and run it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return ScenarioResult(2, "", f"ScenarioError: not JSON: {exc}")
    except RecursionError:
        return ScenarioResult(
            2,
            "",
            "ScenarioError: not JSON that can be read: nested too deeply",
        )
    if not isinstance(data, dict):
        return ScenarioResult(2, "", "ScenarioError: expected a JSON object")
    return run_scenario(data)
