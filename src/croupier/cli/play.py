"""``croupier play GAME`` (a terminal table) and ``croupier demo``."""

from __future__ import annotations

import contextlib
from typing import Annotated

import typer
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table as RichTable

from croupier.autoplay import auto_action
from croupier.cards import Card
from croupier.cli.basic import RulesFile, Settings
from croupier.cli.common import console, fail, load_game_rules
from croupier.errors import CroupierError
from croupier.events import Event
from croupier.narrate import narrate
from croupier.registry import GameSpec, all_games
from croupier.rng import Rng, SecureRng, SeededRng
from croupier.round import Action, Round
from croupier.table import Table

__all__ = ["demo", "play", "visible_cards"]

_AMOUNT_ACTIONS = {"double", "insurance", "double_down"}


def _show(events: list[Event] | tuple[Event, ...], *, hidden: bool) -> None:
    for event in events:
        console.print(narrate(event, hide_face_down=hidden), markup=False)


def _show_settlements(rnd: Round) -> None:
    table = RichTable(title="Settlements")
    for column in ("seat", "wager", "hand", "amount", "outcome", "net", "§"):
        table.add_column(column)
    for s in rnd.settlements:
        table.add_row(
            str(s.key.seat),
            s.key.wager,
            str(s.key.hand + 1),
            str(s.amount),
            s.outcome.value,
            str(s.net),
            str(s.ref),
        )
    console.print(table)


def _ask_wagers(rnd: Round, spec: GameSpec, seats: list[int]) -> None:
    for seat in seats:
        while True:
            raw = Prompt.ask(
                f"seat {seat} wager ({'/'.join(spec.wagers)} AMOUNT; "
                "blank when done)",
                default="",
            )
            if not raw.strip():
                break
            try:
                name, amount = raw.split()
                rnd.place_wager(seat, name, int(amount))
            except (ValueError, CroupierError) as exc:
                console.print(f"[red]{exc}")


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


def _ask_action(rnd: Round) -> Action:
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
        raw = Prompt.ask("amount (blank for the most allowed)", default="")
        amount = int(raw) if raw.strip() else None
    if name == "set":
        card = Card.parse(Prompt.ask("card for the low hand"))
    return Action(seat=pending.seat, name=name, amount=amount, card=card)


def play(
    game: Annotated[str, typer.Argument(help="Game name (croupier games).")],
    seats: Annotated[str, typer.Option(help="Seats you play: 1,2")] = "1",
    rounds: Annotated[int, typer.Option(help="Rounds to play.")] = 1,
    seed: Annotated[
        int | None, typer.Option(help="Seeded shuffle (else CSPRNG).")
    ] = None,
    rules_file: RulesFile = None,
    settings: Settings = None,
) -> None:
    """Play at a terminal table; the procedure is shown with its § refs."""
    try:
        spec, loaded = load_game_rules(game, rules_file, settings)
    except CroupierError as exc:
        raise fail(exc) from None
    rng: Rng = SecureRng() if seed is None else SeededRng(seed)
    table = Table(spec, loaded, rng=rng)
    seat_list = [int(s) for s in seats.split(",") if s.strip()]
    for number in range(1, rounds + 1):
        console.print(Panel(f"{spec.title}: round {number}"))
        shown = len(table.log)
        rnd = table.new_round(occupied_seats=seat_list)
        _show(table.log.events[shown:], hidden=True)
        try:
            _ask_wagers(rnd, spec, seat_list)
            while not rnd.ledger.stakes:
                console.print("[yellow]no wager on the layout; place one")
                _ask_wagers(rnd, spec, seat_list)
        except EOFError:
            console.print("no more input: the table closes")
            return
        try:
            _show(rnd.deal(), hidden=True)
        except CroupierError as exc:
            raise fail(exc) from None
        while rnd.pending() is not None:
            before = len(rnd.events)
            try:
                rnd.apply(_ask_action(rnd))
            except CroupierError as exc:
                console.print(f"[red]refused: {exc}")
                continue
            _show(rnd.events[before:], hidden=True)
        _show_settlements(rnd)
        table.finish_round(rnd)


def _demo_round(spec: GameSpec, seed: int) -> Round:
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
    _show(table.log.events, hidden=False)
    _show(rnd.events, hidden=False)
    return rnd


def demo(
    seed: Annotated[int, typer.Option(help="Seed of the shuffles.")] = 2026,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
) -> None:
    """A narrated demonstration round of each game, step by step."""
    for spec in all_games():
        if game is not None and spec.name != game:
            continue
        console.print(Panel(f"{spec.title} (§ {spec.section})"))
        rnd = _demo_round(spec, seed)
        _show_settlements(rnd)
