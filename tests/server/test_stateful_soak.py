"""Issue 17: long random sequences against the real server, every chip kept.

A hypothesis state machine (:class:`Soak`) drives the FastAPI app on an
SQLite file the way careless and hostile users do: players sit down,
leave, sit out, wager on every spot of the game (main and side wagers,
amounts inside and outside the limits), change and take back wagers,
say they are ready, deal, take every legal decision and many illegal
ones, act on other people's seats, retry requests with the same
Idempotency-Key (and reuse a key for another request), renew tokens;
the operator deals, voids rounds, credits accounts and opens tables; the
decision, betting and idle-seat clocks run out (the wall clock of the
pacer is injected and moved by hand, and the clocks' job is run as the
clock task runs it: no sleeping); the server restarts mid-round on the
same database (a new app, resuming or voiding the round in play).
Small-shoe tables (one deck) reach their cover card and reshuffle, or
run out (D69), within a few rounds.

Checked after every step: no answer is a 5xx; an illegal request is
refused with a 4xx and changes nothing (the table as the operator sees
it, every balance, the books); an accepted wager or change moves exactly
its amount; the books balance (``GET /ledger``); no clock is left due
after the clocks' job; a restart that resumes changes no balance and no
round. At the end: every round in play is voided, the books hold nothing
on the layout, and ``croupier history export`` of the database gives
lines that ``croupier verify`` finds all conforming with the checks
across rounds on; each player entry satisfies ``balance_after =
balance_before - total_bet + total_won + moved_elsewhere``
(docs/hand-history.md); and each account's final balance is what was
credited to it plus its rounds' nets, summed from the export (every
chip accounted for).

The server's shuffles come from the CSPRNG; here they come from a
stream seeded by the example (so that hypothesis can replay and shrink
a failing sequence): the code that draws is the server's own.

The short runs are in the fast suite; the long ones are marked slow.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import os
import random
import shutil
import sqlite3
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from tests.server.conftest import OPERATOR, PASSIVE, SeededStream

from croupier.hhf.export import export_rounds
from croupier.hhf.format import write_history
from croupier.server import tables as server_tables
from croupier.server.app import create_app
from croupier.server.inputs import MAX_AMOUNT
from croupier.verify import verify_lines

GAMES = (
    "double-back-jack",
    "midibaccarat",
    "midibaccarat-commission-free",
    "six-card-fortune-pai-gow",
    "21-baccarat",
)

MAIN = {
    "double-back-jack": ("blackjack",),
    "midibaccarat": ("player", "banker", "tie"),
    "midibaccarat-commission-free": ("player", "banker", "tie"),
    "six-card-fortune-pai-gow": ("pai_gow",),
    "21-baccarat": ("player", "banker", "tie"),
}
"""The wagers a round is played on (the others are side wagers)."""

SMALL_SHOES: dict[str, list[dict[str, Any]]] = {
    "double-back-jack": [
        {"decks": 1, "penetration": "1/2"},
        {"decks": 1, "penetration": "19/20"},  # may run out (D69)
        {"decks": 2, "penetration": "3/4"},
    ],
    "midibaccarat": [{"decks": 1}, {"decks": 1, "dealing": "face_down"}],
    "midibaccarat-commission-free": [
        {"decks": 1},
        {"decks": 1, "commission_free_rule": "banker6_pays_half"},
    ],
    "six-card-fortune-pai-gow": [
        # the Double Down is off by default (D182)
        {"dealing": "automated_shoe", "double_down_offered": True},
        {"dealing": "manual_shoe", "double_down_offered": False},
    ],
    "21-baccarat": [
        {"decks": 1, "penetration": "1/2"},
        {"decks": 1, "penetration": "19/20"},
    ],
}
"""Rules of the tables the operator opens: shoes that end within a few
rounds (a cover card reached, or a shoe run out), other procedures."""

LIMITS: dict[str, list[dict[str, Any]]] = {
    "double-back-jack": [{}, {"min_bet": 500, "max_bet": 5000}],
    "midibaccarat": [
        {},
        {"min_bet": 500, "wager_limits": {"tie": [100, 1000]}},
    ],
    "midibaccarat-commission-free": [
        {},
        {"max_bet": 2500, "wager_limits": {"dragon7": [100, 500]}},
    ],
    "six-card-fortune-pai-gow": [
        {},
        {"min_bet": 500, "wager_limits": {"progressive": [100, 100]}},
        {"min_bet": 500},  # the progressive's 100 is below the minimum
    ],
    "21-baccarat": [
        {},
        {"min_bet": 1000, "wager_limits": {"bonus_player": [100, 500]}},
    ],
}
"""Table limits of the tables the operator opens (the table's own, and
per wager)."""

BAD_TABLES: list[dict[str, Any]] = [
    {"rules": {"no_such_option": 1}},
    {"rules": {"decks": 0}},
    {"min_bet": 500, "max_bet": 100},
    {"wager_limits": {"no_such_wager": [100, 200]}},
    {"betting_seconds": 0},
    {"decision_seconds": 4.9},
]
"""Table openings every game refuses."""

ACTIONS = {
    "double-back-jack": (
        "surrender",
        "double",
        "split",
        "stand",
        "hit",
        "insurance",
        "no_insurance",
        "second_chance",
        "no_second_chance",
    ),
    "six-card-fortune-pai-gow": (
        "set",
        "house_way",
        "double_down",
        "no_double_down",
    ),
}
"""Each game's decisions (baccarat has none)."""

TAKES_AMOUNT = ("insurance", "double", "double_down", "second_chance")
"""Decisions that stake an amount."""

TAKES_NO_AMOUNT = (
    "surrender",
    "split",
    "stand",
    "hit",
    "no_insurance",
    "no_second_chance",
    "set",
    "house_way",
    "no_double_down",
)
"""Decisions that take no amount: one given is refused."""

VALID_AMOUNTS = (100, 100, 500, 500, 1000, 2500, 25_000, 100_000)
AMOUNTS = st.sampled_from(
    [*VALID_AMOUNTS, 0, 99, 100_001, -500, MAX_AMOUNT + 1]
)
"""Wager amounts: valid at the default limits (100 to 100,000), and not."""

LOCK_WAIT_MS = 50
"""How long a step waits for the SQLite file's write lock (then 503)."""

PLAYERS = 4
"""Accounts of a machine (besides the operator)."""

START_BALANCE = 100_000
"""Each account's balance when it opens (the server's default)."""

START_MS = 1_800_000_000_000
"""The injected wall clock's first reading (epoch ms)."""

OP = {"Authorization": f"Bearer {OPERATOR}"}


class Clock:
    """The pacer's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        return self.now


@dataclass
class Account:
    """A player account of the machine."""

    id: int
    name: str
    token: str
    credited: int = START_BALANCE
    """Opening balance plus every deposit accepted."""
    keys: int = 0
    """Idempotency-Keys used so far."""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Stats:
    """What the runs reached (checked by the slow test)."""

    rounds: Counter[str] = field(default_factory=Counter)
    cover_cards: Counter[str] = field(default_factory=Counter)
    voided: Counter[str] = field(default_factory=Counter)
    clock_defaults: int = 0
    restarts: int = 0
    refusals: int = 0
    outages: int = 0


STATS = Stats()


@contextmanager
def seeded_shuffles(seed: int) -> Iterator[None]:
    """The server's CSPRNG replaced by a stream seeded with ``seed``."""
    source = random.Random(seed)
    with mock.patch.object(
        server_tables, "SecureRng", return_value=SeededStream(source)
    ):
        yield


class Soak(RuleBasedStateMachine):
    """The server driven by careless and hostile users (module docstring)."""

    games: tuple[str, ...] = GAMES

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-soak-"))
        self.url = f"sqlite:///{self.dir / 'croupier.db'}"
        self.clock = Clock()
        self.client: TestClient | None = None
        self.accounts: list[Account] = []
        self.tables: list[tuple[int, str]] = []
        self.patch: Any = None
        self.answered: list[
            tuple[Account, str, dict[str, Any], str, dict[str, Any]]
        ] = []
        """Keyed requests answered 200: (who, path, body, key, answer)."""
        self.fast_play = True
        self.stopped = False

    # -- the server ----------------------------------------------------

    def _start(self, recovery: str = "resume") -> None:
        app = create_app(
            self.url,
            operator_token=OPERATOR,
            pacing=False,  # the clocks' job runs when a rule says so
            recovery=recovery,
            fast_play=self.fast_play,
            lock_wait_ms=LOCK_WAIT_MS,
        )
        app.state.casino.dealer.time_ms = self.clock
        self.client = TestClient(app)
        self.client.__enter__()

    def _stop(self) -> None:
        if self.client is not None:
            casino = self.client.app.state.casino  # type: ignore[attr-defined]
            self.client.__exit__(None, None, None)
            self.client = None
            # what a process exit would free: the serial thread, the pool
            casino.serial.close()
            casino.engine.dispose()

    @property
    def c(self) -> TestClient:
        assert self.client is not None
        return self.client

    def send(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: Any = None,
        *,
        outage: bool = False,
    ) -> httpx.Response:
        """A request; never a 5xx, always JSON, a refusal names itself.

        During an ``outage`` the one 5xx allowed is the documented 503.
        """
        r: httpx.Response = self.c.request(
            method, path, json=body, headers=headers or {}
        )
        if outage and r.status_code == 503:
            assert r.json()["error"] == "StorageUnavailable", r.json()
            assert int(r.headers["retry-after"]) >= 1
            return r
        assert r.status_code < 500, (method, path, body, r.text)
        data = r.json()
        if r.status_code >= 400:
            assert isinstance(data, dict), data
            assert "error" in data, data
            STATS.refusals += 1
        return r

    # -- reading the state ---------------------------------------------

    def table(self, table_id: int) -> dict[str, Any]:
        """The table as the operator sees it (no seat: a spectator)."""
        r = self.send("GET", f"/tables/{table_id}", OP)
        assert r.status_code == 200, r.json()
        return dict(r.json())

    def balance(self, account: Account) -> int:
        r = self.send("GET", "/me", account.headers)
        assert r.status_code == 200, r.json()
        return int(r.json()["balance"])

    def books(self) -> dict[str, Any]:
        r = self.send("GET", "/ledger", OP)
        assert r.status_code == 200, r.json()
        return dict(r.json())

    def snapshot(self, table_id: int | None = None) -> Any:
        """What a refused request must leave as it was."""
        ids = [t for t, _ in self.tables] if table_id is None else [table_id]
        views = {t: self.table(t) for t in ids}
        for view in views.values():
            # the cards left in the table's shoe: a step lost to an
            # outage drew from the shoe in memory, which the table then
            # leaves for a new one (the views show the shoe as it is)
            view["table"].pop("shoe", None)
            for rnd in (view["round"], view["last"]):
                if rnd is not None and isinstance(rnd["view"], dict):
                    rnd["view"].pop("shoe", None)
        return (
            views,
            [self.balance(a) for a in self.accounts],
            self.books(),
        )

    def refused(
        self, r: httpx.Response, before: Any, table_id: int | None = None
    ) -> None:
        """``r`` is a 4xx and nothing changed."""
        assert 400 <= r.status_code < 500, (r.status_code, r.json())
        after = self.snapshot(table_id)
        assert after == before, ("a refusal changed the state", r.json())

    def account_of(self, player_id: int | None) -> Account | None:
        return next((a for a in self.accounts if a.id == player_id), None)

    def seat_owner(self, view: dict[str, Any], seat: int) -> int | None:
        for s in view["table"]["seats"]:
            if s["seat"] == seat:
                return int(s["player_id"])
        return None

    def seat_of(self, view: dict[str, Any], account: Account) -> int | None:
        for s in view["table"]["seats"]:
            if s["player_id"] == account.id:
                return int(s["seat"])
        return None

    @staticmethod
    def stakes_at(view: dict[str, Any], seat: int) -> dict[str, int]:
        """The open stakes at ``seat`` by ``wager/hand``."""
        rnd = view["round"] or {}
        return {
            f"{s['wager']}/{s['hand']}": int(s["amount"])
            for s in rnd.get("stakes") or []
            if s["seat"] == seat and s.get("open", True)
        }

    # -- start ---------------------------------------------------------

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        fast_play=st.booleans(),
        small=st.lists(st.integers(0, 9), min_size=1, max_size=1),
    )
    def start(self, seed: int, fast_play: bool, small: list[int]) -> None:
        """A server, its accounts, and per game its table and a small one."""
        self.patch = seeded_shuffles(seed)
        self.patch.__enter__()
        self.fast_play = fast_play
        self._start()
        for n in range(PLAYERS):
            r = self.send("POST", "/players", body={"name": f"soak{n}"})
            assert r.status_code == 200, r.json()
            made = r.json()
            self.accounts.append(
                Account(int(made["id"]), made["name"], made["token"])
            )
        present = {
            t["game"]: int(t["id"]) for t in self.c.get("/tables").json()
        }
        for game in self.games:
            self.tables.append((present[game], game))
            variants = SMALL_SHOES[game]
            rules = variants[small[0] % len(variants)]
            self._open(game, rules)
        # two players at every table to start with (more sit down later)
        for n, (table_id, _game) in enumerate(self.tables):
            for k in (0, 1):
                who = self.accounts[(n + k) % PLAYERS]
                r = self.send(
                    "POST",
                    f"/tables/{table_id}/seats",
                    who.headers,
                    {"seat": 1 + 2 * k},
                )
                assert r.status_code == 200, r.json()

    def _open(
        self, game: str, rules: dict[str, Any], **limits: Any
    ) -> httpx.Response:
        r = self.send(
            "POST",
            "/tables",
            OP,
            # a name of its own: two tables may not share one (D157)
            {
                "game": game,
                "name": f"soak {game} {len(self.tables) + 1}",
                "rules": rules,
                **limits,
            },
        )
        if r.status_code == 200:
            self.tables.append((int(r.json()["id"]), game))
        return r

    def teardown(self) -> None:
        try:
            if self.client is not None and not self.stopped:
                self._final_checks()
        finally:
            self._stop()
            if self.patch is not None:
                self.patch.__exit__(None, None, None)
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- strategies drawn inside rules ---------------------------------

    def _pick_table(self, data: st.DataObject) -> tuple[int, str]:
        return data.draw(st.sampled_from(self.tables), label="table")

    def _pick_account(self, data: st.DataObject) -> Account:
        return data.draw(st.sampled_from(self.accounts), label="account")

    def _pick_actor(
        self, data: st.DataObject, view: dict[str, Any]
    ) -> tuple[Account, int]:
        """Mostly a seated player at its seat; else anyone at any seat."""
        seated = [
            (a, int(s["seat"]))
            for s in view["table"]["seats"]
            if (a := self.account_of(s["player_id"])) is not None
        ]
        if seated and data.draw(st.integers(0, 4), label="hostile") < 4:
            return data.draw(st.sampled_from(seated), label="actor")
        who = self._pick_account(data)
        count = int(view["table"]["seat_count"])
        return who, data.draw(st.integers(1, count), label="seat")

    # -- seats ---------------------------------------------------------

    @rule(data=st.data())
    def sit(self, data: st.DataObject) -> None:
        """Sit down (a free seat, a taken one, one that does not exist)."""
        table_id, _game = self._pick_table(data)
        who = self._pick_account(data)
        view = self.table(table_id)
        count = int(view["table"]["seat_count"])
        seat = data.draw(st.integers(1, count + 1), label="seat")
        taken = self.seat_owner(view, seat) is not None
        mine = self.seat_of(view, who)
        before = self.snapshot(table_id)
        r = self.send(
            "POST", f"/tables/{table_id}/seats", who.headers, {"seat": seat}
        )
        if seat > count or taken or mine is not None:
            self.refused(r, before, table_id)
        else:
            assert r.status_code == 200, r.json()
            assert self.seat_of(r.json(), who) == seat

    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        """Leave a seat (one's own, with or without stakes; another's)."""
        table_id, _game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        mine = self.seat_of(view, who)
        before = self.snapshot(table_id)
        r = self.send(
            "DELETE", f"/tables/{table_id}/seats/{seat}", who.headers
        )
        if seat != mine or self.stakes_at(view, seat):
            self.refused(r, before, table_id)
        else:
            assert r.status_code == 200, r.json()
            assert self.seat_of(r.json(), who) is None

    @rule(data=st.data())
    def sit_out(self, data: st.DataObject) -> None:
        """Sit out from the next round on, or come back in."""
        table_id, _game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        mine = self.seat_of(view, who)
        out = data.draw(st.booleans(), label="sitting_out")
        before = self.snapshot(table_id)
        r = self.send(
            "POST",
            f"/tables/{table_id}/sit-out",
            who.headers,
            {"seat": seat, "sitting_out": out},
        )
        # a seat keeps its place in the round while any of its wagers is
        # in it, settled or not (leaving needs only the open ones settled)
        staked = any(s["seat"] == seat for s in view["round"]["stakes"])
        if mine != seat or (out and staked):
            self.refused(r, before, table_id)
        else:
            assert r.status_code == 200, r.json()

    # -- wagers ----------------------------------------------------------

    def _wager_names(self, game: str) -> list[str]:
        spec = next(
            g for g in self.c.get("/games").json() if g["name"] == game
        )
        return [*spec["wagers"], "blackjack", "dragon7", "bonus_player", "x"]

    @rule(data=st.data())
    def wager(self, data: st.DataObject) -> None:
        """Place a wager of any kind and amount, at one's seat or not."""
        table_id, game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        names = self._wager_names(game)
        name = data.draw(st.sampled_from(names), label="wager")
        amount = data.draw(AMOUNTS, label="amount")
        key = None
        if data.draw(st.booleans(), label="keyed"):
            who.keys += 1
            key = f"w{who.keys}"
        minimal = data.draw(st.booleans(), label="Prefer: return=minimal")
        self._place(
            view, table_id, game, who, seat, name, amount, key, minimal=minimal
        )

    def _place(
        self,
        view: dict[str, Any],
        table_id: int,
        game: str,
        who: Account,
        seat: int,
        name: str,
        amount: int,
        key: str | None,
        *,
        minimal: bool = False,
    ) -> httpx.Response:
        balance = self.balance(who)
        info = view["table"]
        low, high = info["wager_limits"].get(
            name, [info["min_bet"], info["max_bet"]]
        )
        sitting_out = any(
            s["seat"] == seat and s["sitting_out"] for s in info["seats"]
        )
        fixed = info["rules"].get("progressive_wager_amount")
        clearly_illegal = (
            self.seat_owner(view, seat) != who.id
            or name not in info["wagers"]
            or not low <= amount <= high
            or amount > balance
            or view["round"]["status"] != "betting"
            or sitting_out
            or (name == "progressive" and amount != fixed)
        )
        # a main wager on an empty spot of one's own seat within the limits
        must = not clearly_illegal and (
            name in MAIN[game] and not self.stakes_at(view, seat)
        )
        before = None if must else self.snapshot(table_id)
        headers = dict(who.headers)
        if key is not None:
            headers["Idempotency-Key"] = key
        if minimal:
            headers["Prefer"] = "return=minimal"
        body = {"seat": seat, "wager": name, "amount": amount}
        r = self.send("POST", f"/tables/{table_id}/wagers", headers, body)
        if must:
            assert r.status_code == 200, (body, r.json())
        elif clearly_illegal or r.status_code != 200:
            self.refused(r, before, table_id)
            return r
        assert self.balance(who) == balance - amount
        if minimal:
            short = r.json()
            assert (short["ok"], short["balance"]) == (True, balance - amount)
            assert short["round"] == view["round"]["id"]
        if key is not None:  # a retry is answered again, not applied
            self.answered.append(
                (who, f"/tables/{table_id}/wagers", body, key, r.json())
            )
            again = self.send(
                "POST", f"/tables/{table_id}/wagers", headers, body
            )
            assert again.status_code == 200
            assert again.headers.get("Idempotent-Replayed") == "true"
            assert again.json() == r.json()
            assert self.balance(who) == balance - amount
            other = {**body, "amount": amount + 1}
            before = self.snapshot(table_id)
            reused = self.send(
                "POST", f"/tables/{table_id}/wagers", headers, other
            )
            assert reused.json()["error"] == "IdempotencyConflictError"
            self.refused(reused, before, table_id)
        return r

    @rule(data=st.data())
    def change_wager(self, data: st.DataObject) -> None:
        """Set a spot's new total (0 takes the wager back)."""
        table_id, game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        mine = self.seat_of(view, who)
        held = self.stakes_at(view, seat)
        names = [k.split("/")[0] for k in held] or list(MAIN[game])
        name = data.draw(st.sampled_from(names), label="wager")
        amount = data.draw(st.one_of(st.just(0), AMOUNTS), label="amount")
        before = self.snapshot(table_id)
        balance = self.balance(who)
        r = self.send(
            "POST",
            f"/tables/{table_id}/wagers/change",
            who.headers,
            {"seat": seat, "wager": name, "amount": amount},
        )
        old = held.get(f"{name}/0", 0)
        info = view["table"]
        low, high = info["wager_limits"].get(
            name, [info["min_bet"], info["max_bet"]]
        )
        if (
            mine != seat
            or view["round"]["status"] != "betting"
            or (amount != 0 and not low <= amount <= high)
            or (amount == 0 and not old)
            or amount - old > balance
        ):
            self.refused(r, before, table_id)
            return
        if r.status_code != 200:
            self.refused(r, before, table_id)
            return
        assert self.balance(who) == balance - (amount - old)
        assert self.stakes_at(r.json(), seat).get(f"{name}/0", 0) == amount

    @precondition(lambda self: bool(self.answered))
    @rule(data=st.data())
    def retry_later(self, data: st.DataObject) -> None:
        """A keyed request sent again later (the round may be over, the
        server restarted): the first answer again, nothing applied."""
        who, path, body, key, answer = data.draw(
            st.sampled_from(self.answered), label="retry"
        )
        before = self.snapshot()
        headers = {**who.headers, "Idempotency-Key": key}
        r = self.send("POST", path, headers, body)
        assert r.status_code == 200, r.json()
        assert r.headers.get("Idempotent-Replayed") == "true"
        assert r.json() == answer
        assert self.snapshot() == before

    # -- the deal ----------------------------------------------------------

    @rule(data=st.data())
    def ready(self, data: st.DataObject) -> None:
        """A player says the seat is done betting (``/ready`` or ``/deal``)."""
        table_id, _game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        mine = self.seat_of(view, who)
        before = self.snapshot(table_id)
        if data.draw(st.booleans(), label="by /deal"):
            r = self.send("POST", f"/tables/{table_id}/deal", who.headers)
            seat = mine if mine is not None else seat
        else:
            r = self.send(
                "POST",
                f"/tables/{table_id}/ready",
                who.headers,
                {"seat": seat},
            )
        if (
            mine != seat
            or view["round"]["status"] != "betting"
            or not self.stakes_at(view, seat)
        ):
            self.refused(r, before, table_id)
        else:
            assert r.status_code == 200, r.json()

    @rule(data=st.data())
    def operator_deals(self, data: st.DataObject) -> None:
        """The operator closes betting and deals."""
        table_id, _game = self._pick_table(data)
        view = self.table(table_id)
        before = self.snapshot(table_id)
        r = self.send("POST", f"/tables/{table_id}/deal", OP)
        rnd = view["round"]
        if rnd["status"] != "betting" or not rnd["stakes"]:
            self.refused(r, before, table_id)
        else:
            assert r.status_code == 200, r.json()

    @rule(data=st.data())
    def a_few_rounds(self, data: st.DataObject) -> None:
        """A few rounds at a table: every seat wagers, all are ready.

        (Hypothesis runs the rules with the fewest arguments first, by
        name, and its simplest example runs the first rule over and
        over: this one, so that example plays.)
        """
        table_id, game = self._pick_table(data)
        for _ in range(data.draw(st.integers(1, 4), label="rounds")):
            self._quick_round(data, table_id, game)

    @rule(data=st.data())
    def through_the_shoe(self, data: st.DataObject) -> None:
        """Rounds at a table until its shoe ends (the cover card, a shoe
        run out, a deck reshuffled), at most 40."""
        table_id, game = self._pick_table(data)
        for _ in range(40):
            before = self.table(table_id)["round"]["id"]
            self._quick_round(data, table_id, game)
            view = self.table(table_id)
            last = view["last"]
            if view["round"]["id"] == before or last is None:
                return  # nobody could play a round
            ended = {e["type"] for e in last["events"]} & {
                "cover_card_reached",
                "round_voided",
            }
            if ended or game == "six-card-fortune-pai-gow":
                return

    def _quick_round(
        self, data: st.DataObject, table_id: int, game: str
    ) -> None:
        view = self.table(table_id)
        if view["round"]["status"] == "playing":  # finish that one first
            self._play_out(data, table_id, game, steps=60)
            view = self.table(table_id)
        if view["round"]["status"] != "betting":
            return
        if not view["table"]["seats"]:  # an empty table: someone sits
            newcomer = self._pick_account(data)
            r = self.send(
                "POST",
                f"/tables/{table_id}/seats",
                newcomer.headers,
                {"seat": 2},
            )
            assert r.status_code == 200, r.json()
            view = self.table(table_id)
        for s in view["table"]["seats"]:
            who = self.account_of(s["player_id"])
            if who is None or s["sitting_out"]:
                continue
            if self.stakes_at(view, s["seat"]):
                continue
            name = data.draw(st.sampled_from(MAIN[game]), label="wager")
            info = view["table"]
            low, high = info["wager_limits"].get(
                name, [info["min_bet"], info["max_bet"]]
            )
            amount = min(
                high, max(low, data.draw(st.sampled_from([100, 500, 1000])))
            )
            if self.balance(who) < amount:
                continue
            self._place(
                view, table_id, game, who, s["seat"], name, amount, None
            )
            view = self.table(table_id)
        for s in view["table"]["seats"]:
            ready = self.account_of(s["player_id"])
            if ready is None or not self.stakes_at(view, s["seat"]):
                continue
            r = self.send(
                "POST",
                f"/tables/{table_id}/ready",
                ready.headers,
                {"seat": s["seat"]},
            )
            assert r.status_code == 200, r.json()
            view = self.table(table_id)
        self._play_out(data, table_id, game, steps=60)

    # -- decisions ---------------------------------------------------------

    def _decision(
        self,
        data: st.DataObject,
        view: dict[str, Any],
        actor: Account,
        pending: dict[str, Any],
    ) -> tuple[dict[str, Any], bool]:
        """A decision from ``pending.legal``, and whether it must be taken.

        Amounts are drawn inside and outside what the rules allow; a
        decision that must be taken may still be refused for want of
        balance (402).
        """
        seat = int(pending["seat"])
        hand = int(pending.get("hand", 0))
        action = data.draw(st.sampled_from(pending["legal"]), label="action")
        body: dict[str, Any] = {"seat": seat, "action": action}
        stakes = self.stakes_at(view, seat)
        must = True
        if action == "insurance":
            limit = stakes.get("blackjack/0", 0) // 2
            amount = data.draw(
                st.sampled_from([1, limit, limit + 1]), label="insure"
            )
            body["amount"] = amount
            must = 1 <= amount <= limit
        elif action in ("double", "double_down"):
            key = f"blackjack/{hand}" if action == "double" else "pai_gow/0"
            stake = stakes.get(key, 0)
            more: int | None = data.draw(
                st.sampled_from([None, stake, 1, stake + 1]), label="more"
            )
            if more is not None:
                body["amount"] = more
                must = 1 <= more <= stake
        elif action == "second_chance":
            stake = stakes.get(f"blackjack/{hand}", 0)
            second: int | None = data.draw(
                st.sampled_from([None, stake, stake - 1]), label="second"
            )
            if second is not None:
                body["amount"] = second
                must = second == stake
        elif action == "set":
            cards = self._own_cards(view["table"]["id"], actor, seat)
            low = data.draw(st.sampled_from([*cards, "2c", "Xx"]), label="low")
            body["low"] = low
            must = False  # a low card may leave an illegal high hand
        return body, must

    def _own_cards(
        self, table_id: int, actor: Account, seat: int
    ) -> list[str]:
        """The pai gow cards the actor holds (its own view)."""
        r = self.send("GET", f"/tables/{table_id}", actor.headers)
        shown = r.json()["round"]["view"]["positions"].get(f"seat {seat}", {})
        cards = shown.get("cards")
        return list(cards) if isinstance(cards, list) else []

    def _decide_once(
        self,
        data: st.DataObject,
        table_id: int,
        game: str,
        view: dict[str, Any],
    ) -> bool:
        """One legal decision at ``table_id``; whether one was pending."""
        rnd = view["round"]
        pending = rnd["pending"]
        if pending is None or rnd["status"] != "playing":
            return False
        owner = self.seat_owner(view, int(pending["seat"]))
        actor = self.account_of(owner)
        if actor is None:
            return False  # only the clock decides for an empty seat
        if data.draw(st.integers(0, 3), label="try something") == 3:
            self._illegal_attempt(data, table_id, game, view)
        body, must = self._decision(data, view, actor, pending)
        before = self.snapshot(table_id)
        balance = before[1][self.accounts.index(actor)]
        r = self.send(
            "POST", f"/tables/{table_id}/actions", actor.headers, body
        )
        if r.status_code == 200:
            return True
        if must and r.status_code != 402:
            raise AssertionError(
                ("a legal decision was refused", body, r.json())
            )
        if r.status_code == 402:  # the decision stakes more than is left
            hand = int(pending.get("hand", 0))
            stakes = self.stakes_at(view, body["seat"])
            needed = body.get("amount") or stakes.get(
                f"blackjack/{hand}", stakes.get("pai_gow/0", 0)
            )
            assert balance < needed, (body, balance, r.json())
        self.refused(r, before, table_id)
        # then the decision the clock would take (it stakes nothing)
        quiet = next(a for a in PASSIVE if a in pending["legal"])
        r = self.send(
            "POST",
            f"/tables/{table_id}/actions",
            actor.headers,
            {"seat": pending["seat"], "action": quiet},
        )
        assert r.status_code == 200, r.json()
        return True

    def _play_out(
        self, data: st.DataObject, table_id: int, game: str, steps: int
    ) -> None:
        for _ in range(steps):
            view = self.table(table_id)
            if not self._decide_once(data, table_id, game, view):
                return

    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """The seat to act takes a legal decision."""
        table_id, game = self._pick_table(data)
        self._decide_once(data, table_id, game, self.table(table_id))

    @rule(data=st.data())
    def play_out(self, data: st.DataObject) -> None:
        """Legal decisions until the round at a table is over."""
        table_id, game = self._pick_table(data)
        self._play_out(data, table_id, game, steps=40)

    @rule(data=st.data())
    def illegal_decision(self, data: st.DataObject) -> None:
        """A decision the table must refuse, changing nothing."""
        table_id, game = self._pick_table(data)
        self._illegal_attempt(data, table_id, game, self.table(table_id))

    def _illegal_attempt(
        self,
        data: st.DataObject,
        table_id: int,
        game: str,
        view: dict[str, Any],
    ) -> None:
        """Out of turn, at another's seat, not legal now, or with an
        amount or a card the decision does not take: refused."""
        who, seat = self._pick_actor(data, view)
        mine = self.seat_of(view, who)
        pending = view["round"]["pending"]
        every = [*ACTIONS.get(game, ()), "hit", "deal", "shuffle", "stand"]
        legal = (
            pending["legal"]
            if pending is not None and pending["seat"] == seat
            else []
        )
        kind = data.draw(
            st.sampled_from(
                ["not legal", "other seat", "amount", "card", "negative"]
            ),
            label="illegal",
        )
        body: dict[str, Any]
        if kind == "not legal":
            wrong = [a for a in every if a not in legal]
            body = {"seat": seat, "action": data.draw(st.sampled_from(wrong))}
        elif kind == "other seat":
            count = int(view["table"]["seat_count"])
            others = [
                s["seat"] for s in view["table"]["seats"] if s["seat"] != mine
            ] or [n for n in range(1, count + 2) if n != mine]
            body = {
                "seat": data.draw(st.sampled_from(others)),
                "action": data.draw(st.sampled_from(every)),
            }
        elif kind == "amount":
            takes_none = [a for a in legal if a in TAKES_NO_AMOUNT]
            if not takes_none:
                return
            body = {
                "seat": seat,
                "action": data.draw(st.sampled_from(takes_none)),
                "amount": data.draw(st.sampled_from([1, 500])),
            }
        elif kind == "card":
            takes_none = [a for a in legal if a != "set"]
            if not takes_none:
                return
            body = {
                "seat": seat,
                "action": data.draw(st.sampled_from(takes_none)),
                "low": data.draw(st.sampled_from(["Ah", "2c", "Xx"])),
            }
        else:
            bets = [a for a in legal if a in TAKES_AMOUNT]
            if not bets:
                return
            body = {
                "seat": seat,
                "action": data.draw(st.sampled_from(bets)),
                "amount": data.draw(st.sampled_from([0, -500])),
            }
        before = self.snapshot(table_id)
        r = self.send("POST", f"/tables/{table_id}/actions", who.headers, body)
        self.refused(r, before, table_id)

    # -- clocks ------------------------------------------------------------

    def _run_clocks(self) -> None:
        """The clocks' job, as :func:`croupier.server.pacing.run_clocks`
        runs it (due defaults, then gone players' seats), each change a
        job on the serial thread; a failure is raised, not logged."""
        casino = self.c.app.state.casino  # type: ignore[attr-defined]
        pacer = casino.dealer
        serial = casino.serial
        portal = self.c.portal
        assert portal is not None  # the client's loop runs
        due = sorted(
            rt.id
            for rt in list(casino.tables.values())
            if rt.clock is not None
            and rt.clock["deadline_ms"] <= pacer.now_ms()
        )
        for table_id in due:
            applied = portal.call(
                functools.partial(
                    serial.run,
                    functools.partial(pacer.expire, table_id),
                    table=table_id,
                )
            )
            STATS.clock_defaults += bool(applied)
        for rt in list(casino.tables.values()):
            if rt.seats:
                portal.call(
                    functools.partial(
                        serial.run,
                        functools.partial(pacer.free_idle, rt.id),
                        table=rt.id,
                    )
                )

    @rule(
        seconds=st.sampled_from([1, 21, 31, 301]),
        ticks=st.integers(1, 3),
    )
    def clocks_run_out(self, seconds: int, ticks: int) -> None:
        """Time passes (betting 20 s, decisions 30 s, a gone seat 5 min)."""
        for _ in range(ticks):
            self.clock.now += seconds * 1000
            self._run_clocks()
        now = self.clock.now
        for table_id, _game in self.tables:
            clock = self.table(table_id)["clock"]
            assert clock is None or clock["deadline_ms"] > now, clock

    # -- the operator --------------------------------------------------------

    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        """The operator voids the round in play: every stake goes back."""
        table_id, _game = self._pick_table(data)
        view = self.table(table_id)
        before = self.snapshot(table_id)
        balances = before[1]
        r = self.send(
            "POST", f"/tables/{table_id}/void", OP, {"reason": "soak test"}
        )
        if r.status_code != 200:
            assert view["round"]["status"] == "betting", r.json()
            assert not view["round"]["stakes"], r.json()
            self.refused(r, before, table_id)
            return
        after = [self.balance(a) for a in self.accounts]
        returned: Counter[int | None] = Counter()
        for s in view["round"]["stakes"]:
            if s.get("open", True):
                owner = self.seat_owner(view, s["seat"])
                returned[owner] += int(s["amount"])
        for account, was, now in zip(
            self.accounts, balances, after, strict=True
        ):
            assert now - was == returned.get(account.id, 0), (
                account,
                was,
                now,
            )

    @rule(data=st.data())
    def not_operator(self, data: st.DataObject) -> None:
        """A player tries the operator's requests: 403, nothing changes."""
        table_id, game = self._pick_table(data)
        who = self._pick_account(data)
        before = self.snapshot(table_id)
        kind = data.draw(st.sampled_from(["void", "deposit", "table"]))
        if kind == "void":
            r = self.send(
                "POST",
                f"/tables/{table_id}/void",
                who.headers,
                {"reason": "x"},
            )
        elif kind == "deposit":
            r = self.send(
                "POST",
                f"/players/{who.id}/deposits",
                who.headers,
                {"amount": 1},
            )
        else:
            r = self.send("POST", "/tables", who.headers, {"game": game})
        assert r.status_code == 403, r.json()
        self.refused(r, before, table_id)

    @rule(data=st.data())
    def deposit(self, data: st.DataObject) -> None:
        """The cashier credits an account (good and bad amounts)."""
        who = self._pick_account(data)
        amount = data.draw(
            st.sampled_from([1, 500, 100_000, 0, -5, MAX_AMOUNT + 1]),
            label="deposit",
        )
        unknown = data.draw(st.integers(0, 9), label="unknown") == 0
        player_id = 10**6 if unknown else who.id
        before = self.snapshot()
        r = self.send(
            "POST", f"/players/{player_id}/deposits", OP, {"amount": amount}
        )
        if player_id != who.id or not 1 <= amount <= MAX_AMOUNT:
            self.refused(r, before)
            return
        assert r.status_code == 200, r.json()
        who.credited += amount
        assert (
            self.balance(who) == before[1][self.accounts.index(who)] + amount
        )

    @precondition(lambda self: len(self.tables) < 3 * len(self.games))
    @rule(data=st.data())
    def open_table(self, data: st.DataObject) -> None:
        """The operator opens a table (and some it must refuse)."""
        game = data.draw(st.sampled_from(self.games), label="game")
        if data.draw(st.booleans(), label="bad"):
            bad = data.draw(st.sampled_from(BAD_TABLES), label="opening")
            before = self.snapshot()
            r = self.send("POST", "/tables", OP, {"game": game, **bad})
            self.refused(r, before)
            return
        rules = data.draw(st.sampled_from(SMALL_SHOES[game]), label="rules")
        limits = data.draw(st.sampled_from(LIMITS[game]), label="limits")
        r = self._open(game, rules, **limits)
        assert r.status_code == 200, r.json()

    @rule(data=st.data())
    def renew_token(self, data: st.DataObject) -> None:
        """A player takes a new token; the old one stops working."""
        who = self._pick_account(data)
        old = dict(who.headers)
        r = self.send("POST", "/me/token", old)
        assert r.status_code == 200, r.json()
        who.token = r.json()["token"]
        assert self.send("GET", "/me", old).status_code == 401
        assert self.send("GET", "/me", who.headers).status_code == 200

    @rule(data=st.data())
    def log_out_and_back(self, data: st.DataObject) -> None:
        """A player logs out (the token stops working); the operator
        issues the account a new one."""
        who = self._pick_account(data)
        old = dict(who.headers)
        before = self.snapshot()
        assert self.send("DELETE", "/me/token", old).status_code == 200
        r = self.send("GET", "/me", old)
        assert r.status_code == 401, r.json()
        view = self.table(self.tables[0][0])
        refused = self.send(
            "POST",
            f"/tables/{self.tables[0][0]}/wagers",
            old,
            {"seat": 1, "wager": MAIN[self.tables[0][1]][0], "amount": 100},
        )
        assert refused.status_code == 401, refused.json()
        assert self.table(self.tables[0][0]) == view
        r = self.send("POST", f"/players/{who.id}/token", OP)
        assert r.status_code == 200, r.json()
        who.token = r.json()["token"]
        assert self.snapshot() == before

    @rule(data=st.data())
    def nowhere(self, data: st.DataObject) -> None:
        """Requests to a table or a round that does not exist: 404."""
        who = self._pick_account(data)
        before = self.snapshot()
        path = data.draw(
            st.sampled_from(
                [
                    "/tables/999999/wagers",
                    "/tables/999999/deal",
                    "/tables/999999/actions",
                    "/tables/999999/seats",
                    "/tables/999999/ready",
                ]
            ),
            label="path",
        )
        body = {"seat": 1, "wager": "player", "amount": 100, "action": "hit"}
        keep = {
            "wagers": ("seat", "wager", "amount"),
            "actions": ("seat", "action"),
            "seats": ("seat",),
            "ready": ("seat",),
        }.get(path.rsplit("/", 1)[1])
        sent = None if keep is None else {k: body[k] for k in keep}
        r = self.send("POST", path, who.headers, sent)
        assert r.status_code == 404, r.json()
        self.refused(r, before)

    # -- storage --------------------------------------------------------------

    @rule(data=st.data())
    def storage_outage(self, data: st.DataObject) -> None:
        """Another connection holds the database's write lock while a
        step is tried: 503 (or a refusal), nothing changed; once the lock
        is gone the same step is answered again."""
        table_id, game = self._pick_table(data)
        view = self.table(table_id)
        who, seat = self._pick_actor(data, view)
        pending = view["round"]["pending"]
        kind = data.draw(
            st.sampled_from(["wager", "ready", "decide", "void", "deposit"]),
            label="step",
        )
        path = f"/tables/{table_id}/{kind}"
        headers = who.headers
        body: dict[str, Any] | None = {"seat": seat}
        if kind == "wager":
            path = f"/tables/{table_id}/wagers"
            body = {"seat": seat, "wager": MAIN[game][0], "amount": 500}
        elif kind == "decide":
            path = f"/tables/{table_id}/actions"
            legal = [] if pending is None else pending["legal"]
            quiet = next((a for a in PASSIVE if a in legal), "stand")
            seat = seat if pending is None else int(pending["seat"])
            owner = self.account_of(self.seat_owner(view, seat))
            headers = (owner or who).headers
            body = {"seat": seat, "action": quiet}
        elif kind == "void":
            headers, body = OP, {"reason": "during an outage"}
        elif kind == "deposit":
            path = f"/players/{who.id}/deposits"
            headers, body = OP, {"amount": 500}
        before = self.snapshot()
        holder = sqlite3.connect(
            self.dir / "croupier.db", isolation_level=None
        )
        try:
            holder.execute("BEGIN IMMEDIATE")  # the write lock, held
            r = self.send("POST", path, headers, body, outage=True)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        STATS.outages += r.status_code == 503
        assert r.status_code != 200 or kind == "ready", r.json()
        assert self.snapshot() == before, ("an outage changed", kind, r.json())
        again = self.send("POST", path, headers, body)
        if again.status_code == 200 and kind == "deposit":
            who.credited += 500

    # -- a restart ---------------------------------------------------------

    @rule(recovery=st.sampled_from(["resume", "resume", "resume", "void"]))
    def restart(self, recovery: str) -> None:
        """A new app on the same database, whatever was in play."""
        balances = [self.balance(a) for a in self.accounts]
        tables = {t: self._kept(self.table(t)) for t, _ in self.tables}
        self._stop()
        self._start(recovery)
        STATS.restarts += 1
        assert self.books()["ok"]
        if recovery != "resume":
            return
        assert [self.balance(a) for a in self.accounts] == balances
        for table_id, _game in self.tables:
            now = self._kept(self.table(table_id))
            assert now == tables[table_id], (table_id, now, tables[table_id])

    @staticmethod
    def _kept(view: dict[str, Any]) -> dict[str, Any]:
        """What a restart that resumes keeps of a table: the round in
        play, its clock, who is ready, who sits where (and out)."""
        rnd = view["round"]
        keep = ("id", "status", "pending", "stakes", "settlements")
        return {
            "round": {k: rnd[k] for k in keep},
            "clock": view["clock"],
            "ready": view["ready"],
            "seats": view["table"]["seats"],
        }

    # -- invariants ----------------------------------------------------------

    @invariant()
    def books_balance(self) -> None:
        """Balances plus the layout are deposits plus settled nets."""
        if self.client is None:
            return
        books = self.books()
        assert books["ok"], books
        assert books["balances"] + books["on_layout"] == (
            books["deposits"] + books["players_net"]
        )
        assert books["deposits"] == sum(a.credited for a in self.accounts)

    # -- the end -------------------------------------------------------------

    def _final_checks(self) -> None:
        for table_id, _game in self.tables:
            self.send(
                "POST", f"/tables/{table_id}/void", OP, {"reason": "end"}
            )
        books = self.books()
        assert books["ok"], books
        assert books["on_layout"] == 0, books
        final = {a.id: self.balance(a) for a in self.accounts}
        self._stop()
        self.stopped = True
        out = io.StringIO()
        write_history(export_rounds(self.url), out)
        lines = out.getvalue().splitlines()
        report = verify_lines(lines, across=True)
        bad = [v.to_dict() for v in report.verdicts if not v.conforming]
        assert not bad, bad
        nets: Counter[int] = Counter()
        by_round: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(
            list
        )
        for line in lines:
            doc = json.loads(line)
            game = doc["game"]["id"]
            STATS.rounds[game] += 1
            steps = [s["type"] for s in doc["procedure"]]
            STATS.cover_cards[game] += "cover_card_reached" in steps
            STATS.voided[game] += doc["status"] == "voided"
            # betting closes once a round: one step says who was left out
            # (a voided round lists the table's steps in its procedure)
            table_steps = [s["type"] for s in doc.get("table_steps", ())]
            left_out = (steps + table_steps).count("seats_left_out")
            assert left_out <= 1, doc
            for entry in doc["players"]:
                by_round[(doc["round_id"], entry["player_id"])].append(entry)
        for (_rid, pid), entries in by_round.items():
            first = entries[0]
            bet = sum(e["total_bet"] for e in entries)
            won = sum(e["total_won"] for e in entries)
            for e in entries:  # one account: the same balances on each box
                assert (e["balance_before"], e["balance_after"]) == (
                    first["balance_before"],
                    first["balance_after"],
                ), entries
            assert first["balance_after"] == (
                first["balance_before"]
                - bet
                + won
                + first.get("moved_elsewhere", 0)
            ), entries
            nets[int(pid)] += won - bet
        for account in self.accounts:
            assert final[account.id] == account.credited + nets[account.id], (
                account,
                final[account.id],
                nets[account.id],
            )
        if any(STATS.cover_cards.values()):
            event("a shoe reached its cover card")


EXPLORE = os.environ.get("CROUPIER_SOAK_EXPLORE", "")
"""``CROUPIER_SOAK_EXPLORE=N``: the slow runs take N times the examples,
each from a new random seed (to hunt for bugs); unset, every run is the
same (derandomized) sequence of examples."""


def run_soak(
    games: tuple[str, ...], *, examples: int, steps: int, slow: bool = False
) -> Stats:
    """Run the machine on ``games``; what the runs reached."""

    class Machine(Soak):
        pass

    Machine.games = games
    explore = int(EXPLORE or 0) if slow else 0
    before = dataclasses.replace(
        STATS,
        rounds=Counter(STATS.rounds),
        cover_cards=Counter(STATS.cover_cards),
        voided=Counter(STATS.voided),
    )
    run_state_machine_as_test(
        Machine,
        settings=settings(
            max_examples=examples * max(1, explore),
            stateful_step_count=steps,
            deadline=None,
            database=None,
            derandomize=not explore,
            suppress_health_check=list(HealthCheck),
            print_blob=True,
        ),
    )
    return Stats(
        rounds=STATS.rounds - before.rounds,
        cover_cards=STATS.cover_cards - before.cover_cards,
        voided=STATS.voided - before.voided,
        clock_defaults=STATS.clock_defaults - before.clock_defaults,
        restarts=STATS.restarts - before.restarts,
        refusals=STATS.refusals - before.refusals,
        outages=STATS.outages - before.outages,
    )


@pytest.mark.parametrize("game", GAMES)
def test_issue17_random_play_keeps_every_chip_and_every_round_verifies(
    game: str,
) -> None:
    """A short run per game (the fast suite): every check holds."""
    reached = run_soak((game,), examples=2, steps=25)
    assert reached.rounds[game], reached


@pytest.mark.slow
@pytest.mark.skipif(
    not EXPLORE,
    reason="four minutes of CI: set CROUPIER_SOAK_EXPLORE=1 to run it "
    "(the every-game run below stays in `make test`)",
)
@pytest.mark.parametrize("game", GAMES)
def test_issue17_long_random_play_keeps_every_chip_and_verifies(
    game: str,
) -> None:
    """Longer runs: a shoe reaches its cover card, the server restarts,
    refusals are checked, and every check holds."""
    reached = run_soak((game,), examples=8, steps=100, slow=True)
    assert reached.rounds[game] >= 50, reached
    assert reached.restarts, reached
    assert reached.refusals, reached
    if game != "six-card-fortune-pai-gow":  # it shuffles every round
        assert reached.cover_cards[game], reached


@pytest.mark.slow
def test_issue17_every_game_at_once_keeps_every_chip_and_verifies() -> None:
    """Every game's tables on one server: accounts play at several."""
    reached = run_soak(GAMES, examples=4, steps=150, slow=True)
    assert set(reached.rounds) == set(GAMES), reached
