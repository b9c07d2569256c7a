"""D76: a Rules Submission whose round may run out of cards is flagged.

The worst cases below are worked out by hand from the rules (the module
docstring of :mod:`croupier.games.runout` gives the reasoning), then
checked against the engine: no played round takes more cards than the
bound, and stacked rounds take exactly as many.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import cycle

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.events import CardDealt
from croupier.games.baccarat21 import Baccarat21Round, Baccarat21Rules
from croupier.games.double_back_jack import (
    DoubleBackJackRound,
    DoubleBackJackRules,
)
from croupier.games.midibaccarat import MidibaccaratRules
from croupier.games.runout import (
    most_cards_within,
    round_run_out,
)
from croupier.registry import find_game
from croupier.rng import SeededRng
from croupier.round import Action, Round
from croupier.rules import GameRules
from croupier.shoe import Shoe
from croupier.table import Table

runner = CliRunner()
DEEP = Fraction(19, 20)


def _dealt(rnd: Round) -> int:
    """Cards the round took from the shoe for its hands (burns aside)."""
    return sum(isinstance(e, CardDealt) for e in rnd.events)


# -- the bound, worked out by hand ---------------------------------------


def test_d76_one_deck_six_boxes_deep_cover_card() -> None:
    found = round_run_out(DoubleBackJackRules(decks=1, penetration=DEEP))
    assert found is not None
    # int(52 * 19/20) = 49 above the cover card, 3 behind it
    assert (found.cover_card, found.behind) == (49, 3)
    # 12 hands: their cards but the last add up to 20 each, the dealer's
    # to 16: 256. One deck's A-9 add up to 180 (36 cards), then 7 tens
    # (70): 43 cards; + 12 last cards + the dealer's + 12 Second
    # Chances = 68, more than the deck: every card of it
    assert found.most == 52
    assert found.can_run_out
    assert (found.ordinary, found.often) == (21, True)


def test_d76_six_decks_by_default_can_run_out() -> None:
    found = round_run_out(DoubleBackJackRules())
    assert found is not None
    # int(312 * 3/4) = 234 above the cover card: 78 behind it
    assert (found.cards, found.cover_card, found.behind) == (312, 234, 78)
    # 24 each of A, 2, 3, 4 add up to 240 (96 cards), 3 fives to 15:
    # 99 cards within 256, + 12 + 1 + 12 = 124
    assert found.most == 124
    assert found.can_run_out  # the stacked round below takes 124
    # an ordinary round of six boxes: about 3 cards a hand and the
    # dealer's, 21, far fewer than 78: no warning
    assert found.ordinary == 21
    assert not found.often
    assert found.warning() is None


@pytest.mark.parametrize(
    ("options", "most", "behind"),
    [
        # six decks cut at 3/5: int(312 * 3/5) = 187, 125 behind
        ({"penetration": Fraction(3, 5)}, 124, 125),
        # one box: 2 hands, 56: 24 aces and 16 deuces (40); + 2 + 1 + 2
        ({"boxes": 1}, 45, 78),
    ],
)
def test_d76_six_decks_cut_higher_or_one_box_cannot_run_out(
    options: dict[str, object], most: int, behind: int
) -> None:
    found = round_run_out(DoubleBackJackRules.from_mapping(options))
    assert found is not None
    assert (found.most, found.behind) == (most, behind)
    assert not found.can_run_out
    assert found.warning() is None


def test_d76_second_chance_on_split_hands_off() -> None:
    # one Second Chance card a box, not a hand: 99 + 12 + 1 + 6
    rules = DoubleBackJackRules(second_chance_on_split=False)
    found = round_run_out(rules)
    assert found is not None
    assert found.most == 118


def test_d76_no_split_one_box_one_deck() -> None:
    # 1 hand: 20 + 16 = 36 = 4 aces, 4 deuces, 4 threes, 3 fours (15
    # cards); + the hand's last card, the dealer's, a Second Chance
    rules = DoubleBackJackRules(decks=1, boxes=1, max_split_hands=1)
    found = round_run_out(rules)
    assert found is not None
    assert found.most == 18
    assert found.behind == 13  # int(52 * 3/4) = 39 above
    assert found.can_run_out
    # an ordinary round: 3 for the hand, 3 for the dealer
    assert (found.ordinary, found.often) == (6, False)
    assert found.warning() is None


@pytest.mark.parametrize(
    ("decks", "penetration", "behind", "often"),
    [
        # int(52 * 3/4) = 39 above, 13 behind; 6 boxes: 3 * 7 = 21
        (1, Fraction(3, 4), 13, True),
        # int(104 * 17/20) = 88 above, 16 behind
        (2, Fraction(17, 20), 16, True),
        # int(104 * 3/4) = 78 above, 26 behind
        (2, Fraction(3, 4), 26, False),
    ],
)
def test_d76_warned_when_an_ordinary_round_outruns_the_cover_card(
    decks: int, penetration: Fraction, behind: int, often: bool
) -> None:
    rules = DoubleBackJackRules(decks=decks, penetration=penetration)
    found = round_run_out(rules)
    assert found is not None
    assert (found.behind, found.ordinary, found.often) == (behind, 21, often)
    assert (found.warning() is not None) is often


@pytest.mark.parametrize(
    ("decks", "penetration", "behind", "runs_out"),
    [(1, DEEP, 3, True), (1, Fraction(3, 4), 13, False), (3, None, 39, False)],
)
def test_d76_baccarat21_takes_six_cards_at_most(
    decks: int, penetration: Fraction | None, behind: int, runs_out: bool
) -> None:
    rules = Baccarat21Rules(decks=decks)
    if penetration is not None:
        rules = Baccarat21Rules(decks=decks, penetration=penetration)
    found = round_run_out(rules)
    assert found is not None
    assert (found.most, found.behind) == (6, behind)
    assert found.can_run_out is runs_out


def test_d76_games_whose_shoe_cannot_run_out_have_no_finding() -> None:
    assert round_run_out(MidibaccaratRules()) is None


def test_d76_most_cards_within_takes_the_smallest_first() -> None:
    assert most_cards_within(0, 1) == 0
    assert most_cards_within(4, 1) == 4  # four aces
    assert most_cards_within(5, 1) == 4  # a deuce does not fit
    assert most_cards_within(6, 1) == 5


# -- the warning -----------------------------------------------------------


def test_d76_rules_warns_on_stderr_and_exits_0() -> None:
    result = runner.invoke(
        app,
        [
            "rules",
            "double-back-jack",
            "--set",
            "decks=1",
            "--set",
            "penetration=19/20",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["decks"] == 1  # stdout stays JSON
    assert result.stderr == (
        "warning: with 1 deck and the cover card at 49 of 52, 3 cards are "
        "left behind it, but a round of 6 boxes takes about 21 (up to "
        "52): rounds will often run out of cards and be void (D69, D76)\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["21-baccarat", "--set", "decks=1", "--set", "penetration=19/20"],
        ["21-baccarat", "--set", "decks=1", "--toml"],
        ["double-back-jack", "--set", "penetration=3/5"],
        ["double-back-jack"],
        ["midibaccarat"],
    ],
)
def test_d76_rules_warns_only_where_rounds_will_often_run_out(
    args: list[str],
) -> None:
    result = runner.invoke(app, ["rules", *args])
    assert result.exit_code == 0, result.output
    assert result.stdout
    if "penetration=19/20" in args:
        assert result.stderr.count("\n") == 1
        assert "about 6 (up to 6): rounds will often run out" in (
            result.stderr
        )
    else:
        assert result.stderr == ""


# -- the bound is an upper bound, and it is reached ----------------------


def _play_at_random(rules: GameRules, game: str, rounds: int) -> list[int]:
    """Cards dealt in each of ``rounds`` rounds at a full seeded table.

    Every legal decision is as likely as another, splits included; a
    Second Chance is always taken (more cards).
    """
    spec = find_game(game)
    table = Table(spec, rules=rules, rng=SeededRng(7))
    choose = np.random.default_rng(8)
    seats = rules.boxes if isinstance(rules, DoubleBackJackRules) else 7
    taken: list[int] = []
    for _ in range(rounds):
        rnd = table.new_round()
        for seat in range(1, seats + 1):
            rnd.place_wager(seat, spec.wagers[0], 100)
        rnd.deal()
        while (pending := rnd.pending()) is not None:
            legal = list(pending.legal)
            name = (
                "second_chance"
                if "second_chance" in legal
                else legal[int(choose.integers(len(legal)))]
            )
            amount = 1 if name == "insurance" else None
            rnd.apply(Action(seat=pending.seat, name=name, amount=amount))
        table.finish_round(rnd)
        taken.append(_dealt(rnd))
    return taken


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("double-back-jack", DoubleBackJackRules(decks=8)),
        ("double-back-jack", DoubleBackJackRules(boxes=1)),
        (
            "double-back-jack",
            DoubleBackJackRules(decks=1, boxes=1, max_split_hands=1),
        ),
        ("21-baccarat", Baccarat21Rules(decks=1)),
    ],
)
def test_d76_no_played_round_takes_more_than_the_bound(
    game: str, rules: GameRules
) -> None:
    found = round_run_out(rules)
    assert found is not None
    taken = _play_at_random(rules, game, 300)
    assert max(taken) <= found.most


def _decide(rnd: DoubleBackJackRound) -> None:
    """Split every pair, take every Second Chance, hit everything else."""
    while (pending := rnd.pending()) is not None:
        legal = pending.legal
        name = next(
            (n for n in ("split", "second_chance") if n in legal), "hit"
        )
        rnd.apply(Action(seat=pending.seat, name=name))


def test_d76_six_boxes_of_six_decks_take_124_cards() -> None:
    # each box splits deuces; each of its hands draws 2 3 3 4 A A 4 (20)
    # and a ten, takes a Second Chance ten and stands on 20; the dealer
    # draws 5 5 5 and a ten
    def cards(rank: str, count: int) -> list[str]:
        suits = cycle("cdhs")
        return [rank + next(suits) for _ in range(count)]

    tens = iter(cards("T", 13) + cards("K", 12))
    hand = ["2", "3", "3", "4", "A", "A", "4"]
    stack = [*cards("2", 6), "5c", *cards("2", 6), "5d"]
    for _ in range(12):
        stack += [rank + "s" for rank in hand] + [next(tens), next(tens)]
    stack += ["5h", next(tens)]
    rules = DoubleBackJackRules()
    rnd = DoubleBackJackRound(
        rules=rules,
        shoe=Shoe.stacked(" ".join(stack)),
        rng=SeededRng(1),
        new_shoe=False,
    )
    for seat in range(1, 7):
        rnd.place_wager(seat, "blackjack", 100)
    rnd.deal()
    _decide(rnd)
    assert rnd.is_over
    assert not rnd.shoe_ran_out
    found = round_run_out(rules)
    assert found is not None
    assert _dealt(rnd) == len(stack) == found.most == 124
    assert found.most > found.behind  # the default's 78 would run out


def test_d76_one_box_one_deck_without_splits_takes_18_cards() -> None:
    rules = DoubleBackJackRules(decks=1, boxes=1, max_split_hands=1)
    # the box 3 3, the dealer 4 4; the box draws 3 3 A A A A 2 2 (20),
    # a ten and a Second Chance ten; the dealer draws 4 2 2 and a ten
    stack = "3c 4c 3d 4d 3h 3s Ac Ad Ah As 2c 2d Th Ts 4h 2h 2s Kd"
    rnd = DoubleBackJackRound(
        rules=rules, shoe=Shoe.stacked(stack), rng=SeededRng(1), new_shoe=False
    )
    rnd.place_wager(1, "blackjack", 100)
    rnd.deal()
    _decide(rnd)
    assert rnd.is_over
    found = round_run_out(rules)
    assert found is not None
    assert _dealt(rnd) == len(stack.split()) == found.most == 18


@pytest.mark.parametrize(
    ("stack", "wager"),
    [
        ("2c 3c 4c 5c 6c 7c", "player"),  # 5 and 9: one card each (g)
        ("9c 9d 7c 7d Kc Kd", "tie"),  # 16 and 16: both draw and bust
    ],
)
def test_d76_baccarat21_rounds_of_six_cards(stack: str, wager: str) -> None:
    rules = Baccarat21Rules(decks=1)
    rnd = Baccarat21Round(
        rules=rules, shoe=Shoe.stacked(stack), rng=SeededRng(1), new_shoe=False
    )
    rnd.place_wager(1, wager, 100)
    rnd.deal()
    assert rnd.is_over
    found = round_run_out(rules)
    assert found is not None
    assert _dealt(rnd) == found.most == 6
