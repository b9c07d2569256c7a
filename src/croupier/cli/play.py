"""``croupier play GAME`` (a terminal table) and ``croupier demo``."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Annotated

import typer
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table as RichTable

from croupier.autoplay import auto_action
from croupier.cards import Card
from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import CommandError, console, load_game_rules
from croupier.errors import CroupierError, WagerError
from croupier.events import Event
from croupier.money import dollars
from croupier.narrate import narrate
from croupier.registry import GameSpec, all_games, find_game
from croupier.rng import Rng, SecureRng, SeededRng
from croupier.round import Action, Round
from croupier.rules import GameRules
from croupier.server.limits import MAX_BALANCE
from croupier.table import Table

__all__ = [
    "TableLimits",
    "demo",
    "dollars",
    "parse_dollars",
    "play",
    "visible_cards",
]

_AMOUNT_ACTIONS = {"double", "insurance", "double_down"}


def _show(events: list[Event] | tuple[Event, ...], *, hidden: bool) -> None:
    for event in events:
        console.print(narrate(event, hide_face_down=hidden), markup=False)


def parse_dollars(text: str) -> int:
    """A dollar amount typed by a player, in minor units.

    At most the largest balance the server keeps (D31's 10^15 minor
    units): an amount past it is refused, not carried into the table.

    >>> parse_dollars("25"), parse_dollars("$7.50"), parse_dollars("1,000")
    (2500, 750, 100000)
    """
    raw = text.strip().removeprefix("$").replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        msg = f"{text.strip()!r} is not an amount in dollars (like 25 or 7.50)"
        raise WagerError(msg) from None
    cents = value * 100
    if not value.is_finite() or cents != cents.to_integral_value():
        msg = f"{text.strip()!r}: amounts are whole cents"
        raise WagerError(msg)
    if cents <= 0:
        msg = "an amount must be more than $0"
        raise WagerError(msg)
    if cents > MAX_BALANCE:
        msg = f"an amount must be at most {dollars(MAX_BALANCE)}"
        raise WagerError(msg)
    return int(cents)


@dataclass(slots=True)
class TableLimits:
    """The terminal table's limits and the player's balance (cents)."""

    minimum: int
    """Smallest wager."""
    maximum: int
    """Largest wager."""
    balance: int
    """What the player has, wagers on the layout included."""

    def check(self, amount: int, on_layout: int, *, side: bool) -> None:
        """Refuse a wager outside the limits or beyond the balance."""
        if not side and not self.minimum <= amount <= self.maximum:
            msg = (
                f"wagers are {dollars(self.minimum)} to "
                f"{dollars(self.maximum)} at this table"
            )
            raise WagerError(msg)
        if side and amount > self.maximum:
            msg = f"the table maximum is {dollars(self.maximum)}"
            raise WagerError(msg)
        if amount > self.balance - on_layout:
            msg = (
                f"{dollars(amount)} is more than the "
                f"{dollars(self.balance - on_layout)} left in your balance"
            )
            raise WagerError(msg)


def _show_settlements(rnd: Round) -> None:
    table = RichTable(title="Settlements")
    for column in ("seat", "wager", "hand", "stake", "outcome", "net", "§"):
        table.add_column(
            column,
            justify="right" if column in ("stake", "net") else "left",
            overflow="fold",
        )
    for s in rnd.settlements:
        table.add_row(
            str(s.key.seat),
            s.key.wager,
            str(s.key.hand + 1),
            dollars(s.amount),
            s.outcome.value,
            dollars(s.net),
            str(s.ref),
        )
    console.print(table)


def _ask_wagers(
    rnd: Round, spec: GameSpec, seats: list[int], limits: TableLimits
) -> None:
    for seat in seats:
        while True:
            raw = Prompt.ask(
                f"seat {seat} wager ({'/'.join(spec.wagers)} DOLLARS; "
                "blank when done)",
                default="",
                show_default=False,
            )
            if not raw.strip():
                break
            try:
                parts = raw.split()
                if len(parts) != 2:
                    example = f"{spec.wagers[0]} 25"
                    msg = f"type a wager and an amount, like: {example}"
                    raise WagerError(msg)
                name, amount = parts[0], parse_dollars(parts[1])
                limits.check(
                    amount,
                    rnd.ledger.on_layout,
                    side=name != spec.wagers[0],
                )
                rnd.place_wager(seat, name, amount)
            except CroupierError as exc:
                console.print(str(exc), style="red", markup=False)


def _is_cards(value: object) -> bool:
    if not isinstance(value, list) or not value:
        return False
    for item in value:
        if item == "hidden":
            continue
        try:
            Card.parse(str(item))
        except CroupierError:
            return False
    return True


def visible_cards(view: object, path: str = "") -> list[str]:
    """Lines ``where: cards`` for every card list in a seat's view.

    Works on any game's view: it finds the lists of cards (``hidden``
    for a face-down card) and names them by their place in the view.

    >>> visible_cards({"dealer": ["6d", "hidden"],
    ...                "boxes": [{"label": "seat 1", "cards": ["Th", "9s"],
    ...                           "total": 19}]})
    ['dealer: 6d hidden', 'seat 1: Th 9s (19)']
    """
    lines: list[str] = []
    if isinstance(view, dict):
        label = str(view.get("label", path))
        if _is_cards(view.get("cards")):
            total = f" ({view['total']})" if "total" in view else ""
            lines.append(f"{label}: {' '.join(view['cards'])}{total}")
        for key, value in view.items():
            if key in ("cards", "label", "settlements"):
                continue
            name = str(key) if not path else f"{path} {key}"
            lines.extend(visible_cards(value, name))
    elif isinstance(view, list):
        if _is_cards(view):
            lines.append(f"{path}: {' '.join(str(c) for c in view)}")
        else:
            for item in view:
                lines.extend(visible_cards(item, path))
    return lines


def _most_allowed(rnd: Round, seat: int, name: str) -> int | None:
    """The largest amount for an action (``None``: the game's default)."""
    if name == "insurance":
        limit = getattr(rnd, "insurance_limit", None)
        if callable(limit):
            return int(limit(seat))
    return None


def _ask_action(rnd: Round, limits: TableLimits) -> Action:
    pending = rnd.pending()
    if pending is None:  # pragma: no cover - caller checks
        msg = "no decision pending"
        raise RuntimeError(msg)
    for line in visible_cards(rnd.view(pending.seat)):
        console.print(line, markup=False)
    name = Prompt.ask(
        f"seat {pending.seat} (§ {pending.ref})", choices=list(pending.legal)
    )
    amount = None
    card = None
    if name in _AMOUNT_ACTIONS:
        raw = Prompt.ask(
            "amount in dollars (blank for the most allowed)",
            default="",
            show_default=False,
        )
        amount = (
            parse_dollars(raw)
            if raw.strip()
            else _most_allowed(rnd, pending.seat, name)
        )
        if amount is not None:
            limits.check(amount, rnd.ledger.on_layout, side=True)
    if name == "set":
        card = Card.parse(Prompt.ask("card for the low hand"))
    return Action(seat=pending.seat, name=name, amount=amount, card=card)


def _seat_list(seats: str, spec: GameSpec, rules: GameRules) -> list[int]:
    """``--seats`` read and checked against the rules in force."""
    count, option = spec.positions(rules)
    noun = "boxes" if option == "boxes" else "seats"
    numbers: list[int] = []
    for part in seats.split(","):
        if not part.strip():
            continue
        if not part.strip().isdigit():
            msg = f"--seats takes seat numbers like 1,2, not {seats!r}"
            raise CommandError(msg)
        number = int(part)
        if not 1 <= number <= count:
            rule = (
                ""
                if option is None
                else f" under these rules ({option}={count})"
            )
            msg = f"{spec.title} has {noun} 1 to {count}{rule}, not {number}"
            raise CommandError(msg)
        if number in numbers:
            msg = f"--seats names seat {number} more than once: {seats!r}"
            raise CommandError(msg)
        numbers.append(number)
    if not numbers:
        msg = "--seats names no seat"
        raise CommandError(msg)
    return sorted(numbers)


def _table_limits(
    loaded: object, minimum: str, maximum: str, balance: str
) -> TableLimits:
    amounts = {}
    for option, text in (
        ("--minimum", minimum),
        ("--maximum", maximum),
        ("--balance", balance),
    ):
        try:
            amounts[option] = parse_dollars(text)
        except WagerError as exc:
            raise CommandError(f"{option}: {exc}") from None
    limits = TableLimits(
        minimum=amounts["--minimum"],
        maximum=amounts["--maximum"],
        balance=amounts["--balance"],
    )
    # A game whose rules fix table limits (Double Back Jack, 673a.6(a))
    # narrows the table's own.
    low = getattr(loaded, "table_minimum", None)
    high = getattr(loaded, "table_maximum", None)
    if isinstance(low, int):
        limits.minimum = max(limits.minimum, low)
    if isinstance(high, int):
        limits.maximum = min(limits.maximum, high)
    if limits.minimum > limits.maximum:
        msg = (
            f"the minimum {dollars(limits.minimum)} is above the maximum "
            f"{dollars(limits.maximum)}"
        )
        raise CommandError(msg)
    return limits


def play(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    seats: Annotated[str, typer.Option(help="Seats you play: 1,2")] = "1",
    rounds: Annotated[int, typer.Option(help="Rounds to play.", min=1)] = 1,
    seed: Annotated[
        int | None, typer.Option(help="Seeded shuffle (else CSPRNG).", min=0)
    ] = None,
    minimum: Annotated[
        str, typer.Option("--minimum", help="Table minimum, dollars.")
    ] = "5",
    maximum: Annotated[
        str, typer.Option("--maximum", help="Table maximum, dollars.")
    ] = "1000",
    balance: Annotated[
        str, typer.Option("--balance", help="Your balance, dollars.")
    ] = "500",
    rules_file: RulesFile = None,
    settings: Settings = None,
) -> None:
    """Play at a terminal table; the procedure is shown with its § refs.

    Amounts are in dollars; the main wager lies within the table limits
    (a side wager up to the maximum) and no wager beyond the balance.
    """
    spec, loaded = load_game_rules(game, rules_file, settings)
    seat_list = _seat_list(seats, spec, loaded)
    limits = _table_limits(loaded, minimum, maximum, balance)
    rng: Rng = SecureRng() if seed is None else SeededRng(seed)
    table = Table(spec, loaded, rng=rng)
    console.print(
        f"{spec.title} (§ {spec.cites}): table limits "
        f"{dollars(limits.minimum)} to {dollars(limits.maximum)}; "
        f"balance {dollars(limits.balance)}",
        markup=False,
    )
    for number in range(1, rounds + 1):
        console.print(Panel(f"{spec.title}: round {number}"))
        shown = len(table.log)
        rnd = table.new_round(occupied_seats=seat_list)
        _show(table.log.events[shown:], hidden=True)
        try:
            _play_round(rnd, spec, seat_list, limits)
        except EOFError:
            console.print("no more input: the table closes")
            return
        table.finish_round(rnd)
        if limits.balance < limits.minimum:
            console.print("your balance is below the table minimum")
            return


def _play_round(
    rnd: Round, spec: GameSpec, seat_list: list[int], limits: TableLimits
) -> None:
    _ask_wagers(rnd, spec, seat_list, limits)
    while not rnd.ledger.stakes:
        console.print("[yellow]no wager on the layout; place one")
        _ask_wagers(rnd, spec, seat_list, limits)
    _show(rnd.deal(), hidden=True)
    while rnd.pending() is not None:
        before = len(rnd.events)
        try:
            rnd.apply(_ask_action(rnd, limits))
        except CroupierError as exc:
            console.print(f"refused: {exc}", style="red", markup=False)
            continue
        _show(rnd.events[before:], hidden=True)
    _show_settlements(rnd)
    net = sum(s.net for s in rnd.settlements)
    limits.balance += net
    console.print(
        f"round net {dollars(net)}; balance {dollars(limits.balance)}",
        markup=False,
    )


def _demo_round(
    spec: GameSpec, seed: int
) -> tuple[Round, list[Event], list[Event]]:
    table = Table(spec, rng=SeededRng(seed))
    rnd = table.new_round(occupied_seats=(1, 2, 3))
    main, *sides = spec.wagers
    plan = [(1, wager) for wager in spec.wagers]
    plan += [(2, main), (3, main), (3, sides[0] if sides else main)]
    for seat, wager in plan:
        # A wager the rules refuse (two sides at one seat, say) is skipped.
        with contextlib.suppress(CroupierError):
            rnd.place_wager(seat, wager, 1000)
    rnd.deal()
    while (pending := rnd.pending()) is not None:
        rnd.apply(auto_action(rnd, pending))
    table.finish_round(rnd)
    return rnd, list(table.log.events), list(rnd.events)


def demo(
    seed: Annotated[
        int, typer.Option(help="Seed of the shuffles.", min=0)
    ] = 2026,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Events and settlements as JSON."),
    ] = False,
) -> None:
    """A narrated demonstration round of each game, step by step."""
    specs = all_games() if game is None else [find_game(game)]
    rounds = []
    for spec in specs:
        rnd, table_events, round_events = _demo_round(spec, seed)
        if as_json:
            rounds.append(
                {
                    "game": spec.name,
                    "title": spec.title,
                    "section": spec.section,
                    "events": [
                        e.to_dict() for e in (*table_events, *round_events)
                    ],
                    "settlements": [s.to_dict() for s in rnd.settlements],
                }
            )
            continue
        console.print(Panel(f"{spec.title} (§ {spec.cites})"))
        _show(table_events, hidden=False)
        _show(round_events, hidden=False)
        _show_settlements(rnd)
    if as_json:
        print(json.dumps(rounds, indent=2))
