"""D190: a refusal states an amount of money in dollars, not bare cents.

The server hands the engine's refusals to the web table, which shows
them as they come, and to API clients: "Double down must be 1 to 100,
not 101" read as dollars where it meant $0.01 to $1.00. Every refusal
that states a stake, a limit or a range of money now writes it as
``croupier.money.dollars`` does ("$1,000.00"); a bound set by the table's
configuration (table limits, the Progressive Payout Wager's one amount)
is given once more in the cents an API client sends ("(100 to 100000
in cents)"); an amount that is not a whole number of minor units (a
float, a bool, a string) is no money and is written as given. Here, for
every game: real refusals met through the engine, compared with the
words written out below; and a scan of the refusals met in random
rounds, every verb tried with amounts of money at every step, none of
which may state money as a bare number.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from functools import partial

import pytest
from tests.engine_refusals import messages_of, refusals_in_rounds, refuses

from croupier import money
from croupier.errors import WagerError
from croupier.games.double_back_jack import (
    DoubleBackJackRound,
    DoubleBackJackRules,
)
from croupier.money import Ledger, WagerKey
from croupier.registry import GameSpec, all_games, find_game
from croupier.rng import SeededRng
from croupier.round import Action, Round
from croupier.shoe import Shoe
from croupier.table import Table

GAMES = all_games()
_IDS = [g.name for g in GAMES]
BACCARATS = ("midibaccarat", "midibaccarat-commission-free", "21-baccarat")


def _round(game: str, seats: tuple[int, ...] = (1,), **rules: object) -> Round:
    spec = find_game(game)
    table = Table(spec, spec.rules_type.from_mapping(rules), rng=SeededRng(1))
    return table.new_round(occupied_seats=seats)


def _dbj(shoe: str, wagers: dict[int, int], **rules: object) -> Round:
    rnd = DoubleBackJackRound(
        rules=DoubleBackJackRules.from_mapping(rules),
        shoe=Shoe.stacked(shoe),
        rng=SeededRng(1),
        new_shoe=False,
    )
    for seat, amount in wagers.items():
        rnd.place_wager(seat, "blackjack", amount)
    rnd.deal()
    return rnd


def test_d190_amount_text_writes_money_in_dollars_and_else_as_given() -> None:
    amount_text = money.amount_text
    assert amount_text(100) == "$1.00"
    assert amount_text(150050) == "$1,500.50"
    assert amount_text(-1) == "-$0.01"
    assert amount_text(0) == "$0.00"
    assert amount_text(100_000_000_000) == "$1,000,000,000.00"
    # no money: as given
    assert amount_text(2500.0) == "2500.0"
    # what is no money is restated as JSON writes what was sent (D190)
    assert amount_text(True) == "true"
    assert amount_text("100") == '"100"'
    assert amount_text(None) == "null"
    assert amount_text("9" * 60) == '"' + "9" * 36 + "..."


# -- each game, through the engine ----------------------------------------


@pytest.mark.proves("673a.10(a)")
def test_d190_673a_10_a_a_double_refused_states_dollars() -> None:
    """Before, "Double down must be 1 to 100, not 101" and "Double down
    must be 100, not 60"."""
    rnd = _dbj("5c 10h 4d 7s 2h", {1: 100})
    refuses(
        WagerError,
        "Double down must be $0.01 to $1.00, not $1.01",
        lambda: rnd.apply(Action(seat=1, name="double", amount=101)),
        ref="673a.10(a)",
    )
    rnd = _dbj("5c 10h 4d 7s 2h", {1: 100}, double_for_less=False)
    refuses(
        WagerError,
        "Double down must be $1.00, not $0.60",
        lambda: rnd.apply(Action(seat=1, name="double", amount=60)),
        ref="673a.10(a)",
    )


@pytest.mark.proves("673a.8")
def test_d190_673a_8_an_insurance_refused_states_dollars() -> None:
    """Before, "the Insurance Wager must be 1 to 500, not 150050"."""
    rnd = _dbj("9c Ks Ah 7d Qs 6h 4h", {1: 1000, 2: 1000})
    refuses(
        WagerError,
        "the Insurance Wager must be $0.01 to $5.00, not $1,500.50",
        lambda: rnd.apply(Action(seat=1, name="insurance", amount=150050)),
        ref="673a.8",
    )


@pytest.mark.proves("673a.6(a)")
def test_d190_673a_6_a_the_table_limits_in_dollars_and_cents() -> None:
    """Before, "50 is outside the table limits 100-100000"."""
    rnd = _round("double-back-jack", table_minimum=100, table_maximum=100_000)
    limits = "$1.00 to $1,000.00 (100 to 100000 in cents)"
    refuses(
        WagerError,
        f"$0.50 is outside the table limits {limits}",
        lambda: rnd.place_wager(1, "blackjack", 50),
        ref="673a.6(a)",
    )
    rnd.place_wager(1, "blackjack", 500)
    refuses(
        WagerError,
        f"$1,000.01 is outside the table limits {limits}",
        lambda: rnd.change_wager(1, "blackjack", 100_001),
        ref="673a.6(a)",
    )
    assert rnd.ledger.stakes == {WagerKey(1, "blackjack"): 500}


@pytest.mark.proves("670a.9(a)(3)(ii)")
def test_d190_670a_9_a_3_ii_the_progressive_amount_in_dollars() -> None:
    """Before, "a Progressive Payout Wager is exactly 100, not 500"."""
    rnd = _round("six-card-fortune-pai-gow")
    refuses(
        WagerError,
        "a Progressive Payout Wager is exactly $1.00 (100 in cents), not "
        "$5.00",
        lambda: rnd.place_wager(1, "progressive", 500),
        ref="670a.9(a)(3)(ii)",
    )


@pytest.mark.proves("670a.7(e)(1)")
def test_d190_670a_7_e_1_a_double_down_refused_states_dollars() -> None:
    """Before, "a Double Down Wager is from 1 to the Six-Card Fortune Pai
    Gow Poker Wager (1010), not 1100"; "No Double Down takes no amount,
    not 500"."""
    rnd = _round("six-card-fortune-pai-gow", double_down_offered=True)
    rnd.place_wager(1, "pai_gow", 1010)
    rnd.deal()
    refuses(
        WagerError,
        "a Double Down Wager is from $0.01 to the Six-Card Fortune Pai Gow "
        "Poker Wager ($10.10), not $11.00",
        lambda: rnd.apply(Action(seat=1, name="double_down", amount=1100)),
        ref="670a.7(e)(1)",
    )
    refuses(
        WagerError,
        "No Double Down takes no amount, not $5.00",
        lambda: rnd.apply(Action(seat=1, name="no_double_down", amount=500)),
        ref="670a.7(c)",
    )


@pytest.mark.parametrize(
    ("game", "ref"),
    [
        ("midibaccarat", "629a.7"),
        ("midibaccarat-commission-free", "629a.7"),
        ("21-baccarat", "681a.7(e)"),
    ],
)
def test_d190_a_baccarat_wager_refused_states_dollars(
    game: str, ref: str
) -> None:
    """Before, "a wager must be a positive amount, not -150050" and "a
    wager cannot be negative, not -1"; an amount that is no money is
    written as given."""
    rnd = _round(game)
    refuses(
        WagerError,
        "a wager must be a positive amount, not -$1,500.50",
        lambda: rnd.place_wager(1, "banker", -150050),
        ref=ref,
    )
    refuses(
        WagerError,
        "a wager must be a positive amount, not $0.00",
        lambda: rnd.place_wager(1, "banker", 0),
        ref=ref,
    )
    refuses(
        WagerError,
        "an amount is a whole number of minor units (an integer), not 2.5",
        lambda: rnd.place_wager(1, "banker", 2.5),  # type: ignore[arg-type]
        ref=ref,
    )
    rnd.place_wager(1, "banker", 1000)
    refuses(
        WagerError,
        "a wager cannot be negative, not -$0.01",
        lambda: rnd.change_wager(1, "banker", -1),
        ref=ref,
    )
    refuses(
        WagerError,
        "an amount is a whole number of minor units (an integer), not true",
        lambda: rnd.change_wager(1, "banker", True),
        ref=ref,
    )
    assert rnd.ledger.stakes == {WagerKey(1, "banker"): 1000}


def test_d190_the_ledger_states_dollars_and_keeps_no_money_as_given() -> None:
    """The ledger's own guards (the round refuses first)."""
    ledger = Ledger()
    key = WagerKey(1, "player")
    refuses(
        WagerError,
        "a wager must be a positive amount, not -$2.50",
        lambda: ledger.place(key, -250),
    )
    refuses(
        WagerError,
        "a wager must be a positive amount, not -0.5",
        lambda: ledger.place(key, -0.5),  # type: ignore[arg-type]
    )
    ledger.place(key, 1000)
    refuses(
        WagerError,
        "a wager cannot be negative: -$1,234.56",
        lambda: ledger.change(key, -123456),
    )


# -- a scan of the refusals met in random rounds --------------------------

RULES: dict[str, dict[str, object]] = {
    "six-card-fortune-pai-gow": {"double_down_offered": True},
    "double-back-jack": {"table_minimum": 100, "table_maximum": 100_000},
}
"""Rules other than the defaults: pai gow's Double Down offered (D182),
Double Back Jack's table limits of $1.00 to $1,000.00, so that their
refusals are met too."""
AMOUNTS = (10**9, 123_456, 1010, 501, 99, 50, 1, 0, -500, -150_050)
"""Amounts of money tried: above, within and below the limits and stakes
of the rounds, zero and negative; the largest first, so that one taken
(a double of $0.01) is tried after those refused."""
NO_MONEY = (2.5, True, "100")
"""Amounts that are not whole minor units: written as given."""
_EVERY_ACTION = sorted({a for g in GAMES for a in g.actions})


def _tries(rnd: Round, chooser: random.Random) -> list[Callable[[], object]]:
    """Every verb with an amount, tried now: each wager placed and
    changed, each decision of every game, at each seat."""
    tries: list[Callable[[], object]] = []
    names = list(_EVERY_ACTION)
    chooser.shuffle(names)
    given: tuple[object, ...] = (*AMOUNTS, *NO_MONEY)
    for seat in (1, 2):
        for amount in given:
            for wager in rnd.wager_names:
                tries.append(partial(_place, rnd, seat, wager, amount))
                tries.append(partial(_change, rnd, seat, wager, amount))
        for name in names:
            for amount in (*given, None):
                tries.append(partial(_apply, rnd, seat, name, amount))
    return tries


def _place(rnd: Round, seat: int, wager: str, amount: object) -> None:
    """A wager of ``amount`` as a caller may send it (any JSON value)."""
    rnd.place_wager(seat, wager, amount)  # type: ignore[arg-type]


def _change(rnd: Round, seat: int, wager: str, amount: object) -> None:
    """A change to ``amount`` as a caller may send it."""
    rnd.change_wager(seat, wager, amount)  # type: ignore[arg-type]


def _apply(rnd: Round, seat: int, name: str, amount: object) -> None:
    """A decision with ``amount`` as a caller may send it."""
    rnd.apply(Action(seat=seat, name=name, amount=amount))  # type: ignore[arg-type]


def _said(rnd: Round, chooser: random.Random) -> list[str]:
    return messages_of(_tries(rnd, chooser))


def _played(spec: GameSpec, rounds: int) -> list[str]:
    """The refusals met in ``rounds`` rounds of two seats, every verb
    tried before the deal, at each decision and after the round (on a
    copy of the round while it goes on: the round itself is played out)."""
    chooser = random.Random(f"D190 {spec.name}")

    def stake(wager: str) -> int:
        amount = chooser.choice((500, 1000, 1010))
        return 100 if wager == "progressive" else amount

    return refusals_in_rounds(
        spec,
        spec.rules_type.from_mapping(RULES.get(spec.name, {})),
        rounds,
        seed=190,
        chooser=chooser,
        stake=stake,
        said=lambda rnd, stage: _said(
            rnd if stage == "over" else _copy(rnd), chooser
        ),
    )


def _copy(rnd: Round) -> Round:
    return copy.deepcopy(rnd)


_MONEY = re.compile(r"-?\$\d{1,3}(?:,\d{3})*\.\d{2}(?![\d,])")
"""An amount in dollars as the refusals write it: "$1,500.50"."""
_CENTS = re.compile(r" \((-?\d+)(?: to (-?\d+))? in cents\)")
"""The cents an API client sends, after the dollars they restate."""
_BARE = re.compile(r"(?<![\w$.'\"-])-?\d{3,}(?![\w'\"%]|\.\d)")
"""A number of three digits or more standing alone: money in cents, in
a refusal that states it (the defect)."""
_COUNTS = re.compile(
    r"(?:seat|seats|box|boxes|round|position|hand) -?\d+|\d+ cards?\b"
)
"""Numbers that are counts and places, not money."""


def _cents(dollars: str) -> int:
    """``"-$1,500.50"`` as minor units, read independently of the code."""
    sign = -1 if dollars.startswith("-") else 1
    digits = dollars.lstrip("-$").replace(",", "").replace(".", "")
    return sign * int(digits)


def _bare_money(message: str) -> list[str]:
    """What of ``message`` states money as a bare number: each "(... in
    cents)" must restate the dollars just before it, and is then set
    aside with the dollars and the counts."""
    for found in _CENTS.finditer(message):
        before = _MONEY.findall(message[: found.start()])
        stated = [int(n) for n in found.groups() if n is not None]
        assert [_cents(d) for d in before[-len(stated) :]] == stated, message
    rest = _COUNTS.sub("", _MONEY.sub("", _CENTS.sub("", message)))
    return _BARE.findall(rest)


@pytest.mark.parametrize("spec", GAMES, ids=_IDS)
def test_d190_no_refusal_states_money_as_a_bare_number(
    spec: GameSpec,
) -> None:
    said = _played(spec, 8)
    assert said
    bare = {m: found for m in said if (found := _bare_money(m))}
    assert not bare, sorted(bare.items())[:12]
    money = [m for m in said if _MONEY.search(m)]
    # the scan met refusals of money: the sign of a wager in every game,
    # in dollars; a stake too large where the game has a bound
    assert any(m.endswith("not -$1,500.50") for m in money), spec.name
    if spec.name not in BACCARATS:
        assert any("$10,000,000.00" in m for m in money), spec.name
    # and amounts that are no money, as given
    assert any(m.endswith("not 2.5") for m in said), spec.name
    assert any(m.endswith("not true") for m in said), spec.name
    assert any(m.endswith('not "100"') for m in said), spec.name


def test_d190_the_scan_reads_bare_money_as_the_defect() -> None:
    """The scan's reading, on the words before and after D190."""
    assert _bare_money("Double down must be 1 to 100, not 101") == [
        "100",
        "101",
    ]
    assert _bare_money(
        "a Banker Wager must be between 100 and 100000 at this table, not 1"
    ) == ["100", "100000"]
    assert _bare_money("Double down must be $0.01 to $1.00, not $1.01") == []
    assert (
        _bare_money(
            "a Banker Wager must be between $1.00 and $1,000.00 (100 to "
            "100000 in cents) at this table, not $0.01"
        )
        == []
    )
    assert _bare_money("seat 1000 holds 416 cards; not 2500.0") == []
    with pytest.raises(AssertionError):
        _bare_money("exactly $1.00 (500 in cents)")
