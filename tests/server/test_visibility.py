"""No response or WebSocket message to a seat carries a card it may not see.

The hidden cards are taken from the live round itself: the undealt
stack, the hole card before its exposure, cards burned or collected face
down (the 11 unexposed pai gow cards) and other seats' face-down hands.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import passive_action, seat_player

from croupier.events import CardBurned, CardDealt, CardExposed
from croupier.registry import all_games
from croupier.round import Round
from croupier.server.visibility import card_tokens

GAMES = [spec.name for spec in all_games()]


def seen_and_hidden(rnd: Round, seat: int) -> tuple[set[str], set[str]]:
    """Card notations ``seat`` has seen, and those hidden from it."""
    seen: Counter[str] = Counter()
    hidden: list[tuple[str, str]] = []
    for event in rnd.events:
        if isinstance(event, CardDealt):
            card = str(event.card)
            own = event.to == f"seat {seat}" or event.to.startswith(
                f"seat {seat} "
            )
            if event.face_up or own:
                seen[card] += 1
            else:
                hidden.append((event.to, card))
        elif isinstance(event, CardExposed):
            card = str(event.card)
            if (event.to, card) in hidden:
                hidden.remove((event.to, card))
            seen[card] += 1
        elif isinstance(event, CardBurned):
            if event.face_up:
                seen[str(event.card)] += 1
            else:
                hidden.append(("burn", str(event.card)))
    undealt = [str(c) for c in rnd.shoe.cards_in_stack()]
    return set(seen), {c for _, c in hidden} | set(undealt)


def leaks(message: Any, rounds: list[Round], seat: int) -> set[str]:
    seen: set[str] = set()
    hidden: set[str] = set()
    for rnd in rounds:
        s, h = seen_and_hidden(rnd, seat)
        seen |= s
        hidden |= h
    tokens = set(card_tokens(json.dumps(message)))
    return tokens & (hidden - seen)


def face_down_shown(message: Any, seat: int) -> list[Any]:
    """Card-dealt events to other hands, face down, that name the card."""
    bad = []
    data = message.get("data", message)
    for key in ("round", "last"):
        part = data.get(key) or {}
        for ev in part.get("events", []):
            if (
                ev.get("type") == "card_dealt"
                and ev.get("face_up") is False
                and not str(ev.get("to")).startswith(f"seat {seat}")
                and ev.get("card") is not None
            ):
                bad.append(ev)
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_no_message_reveals_a_hidden_card(
    client: TestClient, game: str
) -> None:
    spec = next(s for s in all_games() if s.name == game)
    casino = client.app.state.casino  # type: ignore[attr-defined]
    players = [
        seat_player(client, game, 1, "ann"),
        seat_player(client, game, 2, "bob"),
    ]
    table = casino.table(players[0].table_id)
    sockets = [
        client.websocket_connect(f"/ws/tables/{p.table_id}?token={p.token}")
        for p in players
    ]
    checked = 0

    def check(message: Any, seat: int) -> None:
        nonlocal checked
        rounds = [r.round for r in (table.live, table.last) if r]
        assert not leaks(message, rounds, seat), (seat, message)
        assert not face_down_shown(message, seat)
        checked += 1

    def drain() -> None:
        for p, ws in zip(players, sockets, strict=True):
            check(ws.receive_json(), p.seat)

    with sockets[0] as ws1, sockets[1] as ws2:
        del ws1, ws2
        drain()
        for _ in range(3):
            for p in players:
                r = p.post(
                    "/wagers",
                    {"seat": p.seat, "wager": spec.wagers[0], "amount": 500},
                )
                check(r.json(), p.seat)
                drain()
            for p in players[1:]:  # ready; the first seat's deal closes
                check(p.post("/deal").json(), p.seat)
                drain()
            state = players[0].post("/deal").json()
            check(state, 1)
            drain()
            for p in players:
                check(
                    client.get(
                        f"/tables/{p.table_id}", headers=p.headers
                    ).json(),
                    p.seat,
                )
            for _ in range(40):
                pending = state["round"]["pending"]
                if pending is None or state["round"]["status"] == "betting":
                    break
                actor = next(p for p in players if p.seat == pending["seat"])
                state = actor.post(
                    "/actions",
                    {
                        "seat": actor.seat,
                        "action": passive_action(pending["legal"]),
                    },
                ).json()
                check(state, actor.seat)
                drain()
    assert checked > 20


def test_recall_of_an_open_shoe_is_sealed(client: TestClient) -> None:
    spec = all_games()[0]
    p = seat_player(client, spec.name, 1)
    p.post("/wagers", {"seat": 1, "wager": spec.wagers[0], "amount": 500})
    p.post("/deal")
    rounds = client.get(
        f"/rounds?table_id={p.table_id}", headers=p.headers
    ).json()
    for summary in rounds:
        detail = client.get(
            f"/rounds/{summary['id']}", headers=p.headers
        ).json()
        if not detail["disclosed"] or detail["status"] == "open":
            assert detail["sealed"]
            assert detail["record"] is None
            for ev in detail["events"]:
                if ev.get("type") == "card_burned" and not ev.get("face_up"):
                    assert ev["card"] is None
