"""D189: a refusal names a decision and a phase in words, not by its id.

Each game maps its decisions' ids to the words of their buttons on the
web table (``ACTION_TITLES``, beside the action enum: "no_insurance":
"No insurance") and its phases' ids to the words the table's narration
heads them with (``PHASE_TITLES``, beside the phase enum:
"player_decisions": "Player decisions"); the round's
:meth:`~croupier.round.Round.action_title` and
:meth:`~croupier.round.Round.phase_title` read them, and every refusal
that names a decision or a phase goes through them. A list of legal
decisions gives each by its words and its id ("Stand (stand)"): what a
player sees and what an API client sends. Here, for every registered
game: every decision and phase has words (the decisions' those of the
web table's buttons), and no refusal met while its rounds are played
names a decision or a phase by its bare id.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from tests.engine_refusals import messages_of, refusals_in_rounds

import croupier
from croupier.cards import Card
from croupier.registry import GameSpec, all_games
from croupier.rng import SeededRng
from croupier.round import Action, Round
from croupier.table import Table

GAMES = all_games()
_IDS = [g.name for g in GAMES]
EVERY_ACTION = sorted({a for g in GAMES for a in g.actions})
"""Every game's decisions: each is tried on every game (a name another
game has is no decision of this one, and is written as given)."""
COMMON_JS = Path(croupier.__file__).resolve().parent / "web" / "common.js"
"""The web table's script that names the decisions' buttons."""


def _buttons() -> dict[str, str]:
    """The web table's words for each decision (``Croupier.ACTIONS``)."""
    text = COMMON_JS.read_text(encoding="utf-8")
    block = re.search(r"\bACTIONS: \{(.*?)\}", text, re.DOTALL)
    assert block is not None, "Croupier.ACTIONS not found in common.js"
    return dict(re.findall(r'(\w+): "([^"]*)"', block.group(1)))


def _headings(phase: str) -> str:
    """The web table's narration heading of ``phase`` (its words, without
    the dashes): ``Croupier.PHASES``, else the id with its first letter
    capitalized (``Croupier.phaseName``)."""
    text = COMMON_JS.read_text(encoding="utf-8")
    block = re.search(r"\bPHASES: \{(.*?)\}", text, re.DOTALL)
    assert block is not None, "Croupier.PHASES not found in common.js"
    named: dict[str, str] = dict(
        re.findall(r'(\w+): "([^"]*)"', block.group(1))
    )
    words = phase.replace("_", " ")
    return named.get(phase, words[:1].upper() + words[1:])


def _phases(spec: GameSpec) -> set[str]:
    """Every phase of the game: those of its transition table."""
    assert spec.transitions is not None
    return {str(phase) for phase in spec.transitions}


def _new_round(spec: GameSpec) -> Round:
    return Table(spec, rng=SeededRng(1)).new_round(occupied_seats=(1,))


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d189_every_decision_has_the_words_of_its_button(
    spec: GameSpec,
) -> None:
    rnd = _new_round(spec)
    buttons = _buttons()
    assert set(rnd.action_titles) == set(spec.actions)
    for action in spec.actions:
        assert rnd.action_title(action) == buttons[action], action
        assert "_" not in rnd.action_title(action)
    # a name the game does not have is no decision of it: said as written
    assert rnd.action_title("nope") == "nope"


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d189_every_phase_has_the_words_of_the_narration(
    spec: GameSpec,
) -> None:
    rnd = _new_round(spec)
    assert set(rnd.phase_titles) == _phases(spec)
    for phase in _phases(spec):
        title = rnd.phase_title(phase)
        assert "_" not in title, title
        assert title[0].isupper(), title
        # the narration's heading ("— Player decisions —"), a name of
        # the section capitalized as the section writes it
        assert title.lower() == phase.replace("_", " "), title
        assert title == _headings(phase), title
    assert rnd.phase_title() == rnd.phase_title(rnd.phase.value)
    assert rnd.phase_title("nope") == "nope"


RULES = {"six-card-fortune-pai-gow": {"double_down_offered": True}}
"""Rules other than the defaults: pai gow's Double Down offered (D182),
so that its decisions are asked for too."""
ODD = (
    Action(seat=1, name="x", amount=10**9),
    Action(seat=1, name="x", amount=1),
    Action(seat=1, name="x", card=Card.parse("Ah")),
    Action(seat=1, name="x"),
)
"""A decision with a large amount, a small one, a card, and as it is:
in this order, so that one a decision takes as it is is tried last."""


def _tries(
    rnd: Round, names: list[str], *, deal: bool
) -> list[Callable[[], object]]:
    """Every verb a caller may try now, refused or not: each decision of
    ``names`` (in that order), each wager, and with ``deal`` the deal
    and a new dealer's burn."""
    tries: list[Callable[[], object]] = []
    for seat in (1, 2):
        for name in names:
            for odd in ODD:
                action = replace(odd, seat=seat, name=name)
                tries.append(partial(rnd.apply, action))
        for wager in rnd.wager_names:
            tries.append(partial(rnd.place_wager, seat, wager, 500))
    if deal:
        tries.append(rnd.deal)
        change_dealer = getattr(rnd, "change_dealer", None)
        if change_dealer is not None:
            tries.append(change_dealer)
    return tries


def _said(
    rnd: Round, chooser: random.Random, *, deal: bool = True
) -> list[str]:
    """What ``rnd`` says to every verb tried now, the decisions in an
    order ``chooser`` draws (one taken changes the round: so be it)."""
    names = [*EVERY_ACTION, "hit me"]
    chooser.shuffle(names)
    return messages_of(_tries(rnd, names, deal=deal))


def _played(spec: GameSpec, rounds: int) -> list[str]:
    """The refusals met in ``rounds`` rounds, every verb tried at every
    step (before the deal, at each decision, after the round)."""
    chooser = random.Random(f"D189 {spec.name}")
    return refusals_in_rounds(
        spec,
        spec.rules_type.from_mapping(RULES.get(spec.name, {})),
        rounds,
        seed=189,
        chooser=chooser,
        stake=lambda _wager: chooser.choice((500, 1000)),
        said=lambda rnd, stage: _said(rnd, chooser, deal=stage != "wagers"),
    )


def _titles(rnd: Round, kind: str) -> dict[str, str]:
    """The round's words for its decisions or phases (``kind``), none on
    a round that has none (the code before D189: its refusals are then
    checked as they are)."""
    return dict(getattr(rnd, f"{kind}_titles", {}))


def _bare(message: str, rnd: Round) -> str:
    """``message`` without what names a decision or a phase rightly: an
    entry "Title (id)" of a list of legal decisions, a name written as
    JSON (one the game does not have), "the Title phase", a decision's
    words."""
    actions = _titles(rnd, "action")
    for action, title in actions.items():
        message = message.replace(f"{title} ({action})", "")
    message = re.sub(r'"(?:[^"\\]|\\.)*"', "", message)
    for title in _titles(rnd, "phase").values():
        message = message.replace(f"the {title} phase", "")
    # a decision's words ("No insurance" holds "insurance"), longest first
    for title in sorted(actions.values(), key=len, reverse=True):
        message = message.replace(title, "")
    return message


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d189_no_refusal_names_a_decision_or_a_phase_by_its_id(
    spec: GameSpec,
) -> None:
    said = _played(spec, 8)
    rnd = _new_round(spec)
    assert said
    lists = [m for m in said if "legal" in m]
    if spec.actions:
        assert lists, "no list of legal decisions was met"
    for message in lists:
        entries = message.split(
            "legal: " if "legal: " in message else "legal now: "
        )[1]
        for entry in entries.split(", "):
            found = re.fullmatch(r"(.+) \((\w+)\)", entry)
            assert found is not None, message
            assert _titles(rnd, "action").get(found[2]) == found[1], message
    phases = _phases(spec)
    for message in said:
        bare = _bare(message, rnd)
        # "phase is second_chance", "in phase complete", "(phase void)"
        assert "phase" not in bare, message
        for name in (*EVERY_ACTION, *phases):
            if "_" in name:
                # "no_insurance takes no amount", "not in player_decisions"
                assert not re.search(rf"\b{name}\b", bare), (name, message)
        for action in spec.actions:
            # "stand takes no amount", "a double must be 1 to 100"
            assert not re.search(rf"\b{action}\b", bare), (action, message)
        for phase in phases:
            # "not in complete", "past wagering (complete)"
            pattern = rf"(?:not in |\(){phase}\b"
            assert not re.search(pattern, bare), (phase, message)
