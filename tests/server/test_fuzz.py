"""Issue 12 point 6: no route answers 500 to any input.

Every operation of the OpenAPI schema is fuzzed by schemathesis (its
hypothesis strategies, positive and negative: well-formed requests and
requests that break the schema) as an anonymous client, a player with a
seat, the operator and a caller with a made-up token, against SQLite
and against PostgreSQL. Every answer must be JSON and below 500; the
only 5xx allowed is the documented JSON 503 of a storage outage, with
``Retry-After``. The WebSocket's path and query are fuzzed the same way.
The examples are bounded so that both databases take well under a
minute together.
"""

from __future__ import annotations

import itertools
import json
from typing import Any
from urllib.parse import quote, urlencode

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, openapi
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import OPERATOR, balanced_books, table_of

from croupier.server.app import create_app
from croupier.server.auth import hash_token

pytestmark = pytest.mark.slow  # a schemathesis fuzz; not in `make check`

EXAMPLES = 8
"""Examples per operation, caller-independent, per generation mode."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def callers(client: TestClient) -> dict[str, dict[str, str]]:
    """Headers of each kind of caller; the player sits at a table."""
    made = client.post("/players", json={"name": "fuzzed seat"}).json()
    table = table_of(client, "double-back-jack")
    auth = {"Authorization": f"Bearer {made['token']}"}
    who_ids["player"] = int(made["id"])
    op = {"Authorization": f"Bearer {OPERATOR}"}
    who_ids["operator"] = int(client.get("/me", headers=op).json()["id"])
    assert client.post(
        f"/tables/{table}/seats", json={"seat": 1}, headers=auth
    ).is_success
    return {
        "anonymous": {},
        "player": auth,
        "operator": {"Authorization": f"Bearer {OPERATOR}"},
        "stranger": {"Authorization": "Bearer " + "s" * 43},
    }


def send(
    client: TestClient, case: schemathesis.Case[Any], headers: dict[str, str]
) -> Any:
    """Send a generated case through ``client``.

    Through the one client (and its event loop) the whole fuzz uses: the
    server is one process on one loop, as in production; schemathesis's
    own ASGI client would start the application again for every call.
    """
    kw = case.as_transport_kwargs(base_url="http://testserver")
    data = kw.get("data")
    return client.request(
        kw["method"],
        kw["url"],
        params=kw.get("params"),
        headers={**(kw.get("headers") or {}), **headers},
        cookies=kw.get("cookies") or None,  # the API reads none
        json=kw.get("json"),
        content=data if isinstance(data, bytes | str) else None,
        data=data if isinstance(data, dict) else None,
    )


def keep_tokens(client: TestClient, who: dict[str, dict[str, str]]) -> None:
    """Give the fuzzed callers back their tokens.

    The fuzz may rotate or revoke the caller's own token (``/me/token``,
    ``/players/{id}/token``); the rest of it must still run as the
    operator and as the seated player.
    """
    casino = client.app.state.casino  # type: ignore[attr-defined]
    for kind in ("operator", "player"):
        token = who[kind]["Authorization"].split()[1]
        player = casino.optional_player(token)
        if player is None:
            casino._set_token(who_ids[kind], hash_token(token))


who_ids: dict[str, int] = {}
"""Account ids of the fuzzed callers (set by :func:`callers`)."""


def header(headers: Any, name: str) -> str:
    """One header of a response (schemathesis keeps lists of values)."""
    for key, value in dict(headers).items():
        if key.lower() == name:
            return str(value[0] if isinstance(value, list) else value)
    return ""


def check_answer(status: int, headers: Any, text: str, what: str) -> None:
    """JSON, and no 5xx but a storage outage's 503."""
    kind = header(headers, "content-type")
    assert kind.startswith("application/json"), (what, status, text[:300])
    if status >= 500:
        assert status == 503, (what, status, text[:300])
        assert header(headers, "retry-after"), what


def fuzz_app(app: FastAPI) -> None:
    """Fuzz every operation of ``app``'s schema (see the module)."""
    with TestClient(app) as client:
        who = callers(client)
        # from the dict: loading it over ASGI would start a second copy of
        # the application (its lifespan, its clocks) on another event loop
        schema = openapi.from_dict(client.get("/openapi.json").json())
        operations = [
            r.ok()  # type: ignore[union-attr]
            for r in schema.get_all_operations()
        ]
        assert len(operations) >= 15
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @FUZZ
                @given(
                    case=operation.as_strategy(generation_mode=mode),
                    caller=st.sampled_from(sorted(who)),
                )
                def one(case: schemathesis.Case[Any], caller: str) -> None:
                    response = send(client, case, who[caller])
                    if "/token" in case.path:
                        keep_tokens(client, who)
                    check_answer(
                        response.status_code,
                        response.headers,
                        response.text,
                        f"{case.method} {case.formatted_path} as {caller}",
                    )

                try:
                    one()
                except Unsatisfiable:
                    # nothing to break: no parameter, no body
                    assert mode is GenerationMode.NEGATIVE
        fuzz_socket(client, who)
        assert boundary_sweep(client, who) > 500
        # the callers kept their tokens, and the books still balance
        assert client.get("/me", headers=who["player"]).is_success
        balanced_books(client)


NASTY_PATH = [
    "2147483648",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775809",
    "1e20",
    "NaN",
    "1.5",
    "0",
    "-1",
    "%00",
    "%E2%80%AE",
]
"""Path and query values at and past what storage holds."""

NASTY_QUERY = [*NASTY_PATH, "\x00", "a\x00b", "\u202e", "x" * 300, "%"]
"""Query values, besides: a NUL once decoded, control and LIKE ones."""

NASTY_JSON: list[Any] = [
    2**31,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    1e20,
    -0.0,
    "1e20",
    "100",
    1000.0,
    True,
    None,
    "",
    "\x00",
    "a\x00b\x1b[2J",
    "\u202eoperator",
    "\ud800",
    "x" * 5000,
    [],
    {},
    [[[[[[[[]]]]]]]],
    {"a": {"b": {"c": {}}}},
]
"""Body values: wrong types, overflowing numbers, control characters."""


NASTY_HEADERS: list[dict[str, str | bytes]] = [
    {"Idempotency-Key": ""},
    {"Idempotency-Key": "k" * 128},
    {"Idempotency-Key": "k" * 129},
    {"Idempotency-Key": "\x7f\t é".encode("latin-1")},
    {"Prefer": "return=minimal"},
    {"Content-Type": "text/plain"},
    {"Content-Length": "-1"},
]
"""Headers the play routes read by hand (not in the OpenAPI schema)."""

NASTY_AUTH = [
    "",
    "Bearer",
    "Bearer ",
    "Basic b3A6b3A=",
    "Bearer " + "x" * 8000,
    "Bearer " + "s" * 43 + ".1",
    "Bearer " + "s" * 43 + "." + "9" * 30,
    "bearer \t" + OPERATOR,
]
"""``Authorization`` values: malformed, expired, overflowing expiry."""


def body_schema(spec: dict[str, Any], operation: dict[str, Any]) -> Any:
    """The JSON schema of an operation's request body, ``$ref`` resolved."""
    content = operation.get("requestBody", {}).get("content", {})
    schema = content.get("application/json", {}).get("schema")
    while isinstance(schema, dict) and "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = spec["components"]["schemas"][name]
    return schema


def plain_value(schema: dict[str, Any]) -> Any:
    """A well-formed value for a property (the sweep's baseline)."""
    kind = str(schema.get("type"))
    if "anyOf" in schema:
        kind = str(schema["anyOf"][0].get("type"))
    return {
        "integer": 1,
        "string": "x",
        "boolean": False,
        "object": {},
        "array": [],
    }.get(kind)


def boundary_sweep(client: TestClient, who: dict[str, dict[str, str]]) -> int:
    """Every path, query and body field set to each nasty value in turn.

    Returns the number of requests made. Each request goes out as the
    operator and as the seated player (those get past the token).
    """
    spec = client.get("/openapi.json").json()
    headers = [who["operator"], who["player"]]
    sent = 0
    for template, item in spec["paths"].items():
        for method, operation in item.items():
            params = operation.get("parameters", [])
            in_path = [p["name"] for p in params if p["in"] == "path"]
            in_query = [p["name"] for p in params if p["in"] == "query"]
            schema = body_schema(spec, operation)
            props = (schema or {}).get("properties", {})
            base_body = (
                None
                if schema is None
                else {k: plain_value(v) for k, v in props.items()}
            )

            def path_of(
                values: dict[str, str],
                t: str = template,
                names: tuple[str, ...] = tuple(in_path),
            ) -> str:
                for name in names:
                    t = t.replace(f"{{{name}}}", values.get(name, "1"))
                return t

            requests: list[tuple[str, dict[str, str], Any]] = []
            for name in in_path:
                requests += [
                    (path_of({name: v}), {}, base_body) for v in NASTY_PATH
                ]
            for name in in_query:
                requests += [
                    (path_of({}), {name: v}, base_body) for v in NASTY_QUERY
                ]
            for name in props:
                requests += [
                    (path_of({}), {}, {**(base_body or {}), name: v})
                    for v in NASTY_JSON
                ]
            if schema is not None:
                requests += [(path_of({}), {}, v) for v in NASTY_JSON]
            cases: list[
                tuple[
                    tuple[str, dict[str, str], Any],
                    dict[str, str],
                    dict[str, str | bytes],
                ]
            ] = [
                (request, caller, {})
                for request, caller in itertools.product(requests, headers)
            ]
            cases += [
                ((path_of({}), {}, base_body), caller, extra)
                for caller in headers
                for extra in NASTY_HEADERS
            ]
            cases += [
                ((path_of({}), {}, base_body), {"Authorization": auth}, {})
                for auth in NASTY_AUTH
            ]
            for (path, query, body), caller, extra in cases:
                response = client.request(
                    method.upper(),
                    path,
                    params=query,
                    # by hand: a lone surrogate is escaped, not refused
                    content=None if body is None else json.dumps(body),
                    headers={
                        **caller,
                        "Content-Type": "application/json",
                        **extra,
                    },
                )
                sent += 1
                if "/token" in path:
                    keep_tokens(client, who)
                check_answer(
                    response.status_code,
                    response.headers,
                    response.text,
                    f"{method} {path} {query} {body!r:.200}",
                )
    return sent


def fuzz_socket(client: TestClient, who: dict[str, dict[str, str]]) -> None:
    """The WebSocket's table id and ``token`` query, fuzzed."""
    tokens = [h["Authorization"].split()[1] for h in who.values() if h]

    @FUZZ
    @given(
        table=st.one_of(
            st.integers(min_value=-(2**70), max_value=2**70).map(str),
            st.sampled_from(["1", "1e20", "0x10", "%00", "1.5"]),
            st.text(min_size=1, max_size=12),
        ),
        token=st.one_of(
            st.none(),
            st.sampled_from(tokens),
            st.text(max_size=300),
        ),
    )
    def one(table: str, token: str | None) -> None:
        path = f"/ws/tables/{quote(table, safe='')}"
        if token is not None:
            path += "?" + urlencode({"token": token})
        code = None
        try:
            with client.websocket_connect(path) as socket:
                message = socket.receive_json()
                assert isinstance(message, dict)
        except WebSocketDisconnect as closed:
            code = closed.code
        # refused: a bad path (1008), no such table, a bad token, too many
        assert code in (None, 1000, 1008, 4401, 4404, 4429), code

    one()


def test_issue12_point6_fuzz_every_route_sqlite(db_url: str) -> None:
    fuzz_app(create_app(db_url, operator_token=OPERATOR))


def test_issue12_point6_fuzz_every_route_postgres(pg_url: str) -> None:
    fuzz_app(create_app(pg_url, operator_token=OPERATOR))
