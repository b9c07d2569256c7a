"""D84 after a restart: a resumed round stores the draws it makes.

D84: a served pai gow round draws its starting position when it deals,
"and the server stores the draw with the deal's other draws, so that a
round rebuilt after a restart draws the same (RecordedRng)". Every round
open when the server starts is rebuilt (resumed) -- the empty round
waiting for wagers too. Such a round was rebuilt on an RNG of its own,
while the server took the draws to store from the table's new RNG: the
deal's draw of the starting position was never stored, and when the
server restarted again before the round ended it replayed the round to
another starting position and voided it (ReplayMismatchError or
OutOfTurnError), returning every stake, although nothing had gone wrong.

Here the expectation is worked out from the round's own events: the
``starting_position_determined`` step gives the number drawn, and the
stored inputs must hold a ``draws`` input drawing that number below 7
(670a.9(b), D24: the table's random number 1 to 7); the second restart
must resume the round, not void it. Three rounds in a row, so that a
replay landing on the same position by chance (1 in 7) cannot pass.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from tests.server.conftest import OPERATOR, Seat, passive_action, table_of

from croupier.server import db as storage
from croupier.server.app import create_app

GAME = "six-card-fortune-pai-gow"
OP = {"Authorization": f"Bearer {OPERATOR}"}


def _server(url: str) -> TestClient:
    return TestClient(create_app(url, operator_token=OPERATOR))


def _inputs(url: str, round_id: int) -> list[tuple[str, dict[str, object]]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(
                    storage.RoundInputRow.kind, storage.RoundInputRow.data_json
                )
                .where(storage.RoundInputRow.round_id == round_id)
                .order_by(storage.RoundInputRow.n)
            ).all()
    finally:
        engine.dispose()
    return [(kind, json.loads(text)) for kind, text in rows]


def test_d84_a_round_resumed_at_a_restart_stores_its_starting_draw(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'croupier.db'}"
    with _server(url) as c:
        made = c.post("/players", json={"name": "ann"}).json()
        table = table_of(c, GAME)
        ann = Seat(c, table, 1, made["token"], made["id"])
        assert ann.post("/seats", {"seat": 1}).status_code == 200
    for _ in range(3):
        # the server restarts between rounds: the open round is resumed
        with _server(url) as c:
            ann.client = c
            r = ann.post(
                "/wagers", {"seat": 1, "wager": "pai_gow", "amount": 500}
            )
            assert r.status_code == 200, r.json()
            state = ann.post("/deal").json()
            round_id = state["round"]["id"]
            # a decision pending: the seat's setting (its Double Down
            # before D182, which made the wager off by default)
            assert state["round"]["pending"] is not None
            (drawn,) = [
                e
                for e in state["round"]["events"]
                if e["type"] == "starting_position_determined"
            ]
            assert drawn["method"] == "rng"
        draws = [
            pair
            for kind, data in _inputs(url, round_id)
            if kind == "draws"
            for pair in data["draws"]  # type: ignore[attr-defined]
        ]
        # the number drawn 1 to 7 is a draw below 7, stored for replay
        assert [7, int(drawn["number"]) - 1] in draws, draws
        # restarted in the middle of the round: resumed, not voided
        with _server(url) as c:
            ann.client = c
            log = [  # the round's rows, newest first (D140)
                e["message"]
                for e in c.get(
                    "/log", params={"round_id": round_id}, headers=OP
                ).json()
            ]
            assert "resumed" in log[0], log
            state = c.get(f"/tables/{table}", headers=ann.headers).json()
            assert state["round"]["id"] == round_id
            for _ in range(4):
                pending = state["round"]["pending"]
                if pending is None or state["round"]["id"] != round_id:
                    break
                action = passive_action(pending["legal"])
                r = ann.post("/actions", {"seat": 1, "action": action})
                assert r.status_code == 200, r.json()
                state = r.json()
            detail = c.get(f"/rounds/{round_id}", headers=OP).json()
            assert detail["status"] == "over", detail["status"]
