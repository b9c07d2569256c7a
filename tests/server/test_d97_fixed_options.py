"""D97: the server opens no table under rules the regulation forbids.

Double Back Jack's insurance (591.7(g): the dealer "shall offer" it) and
the player's rights to double and split (673a.10, 673a.11) are options
for what-if analysis; a table that deals for money keeps them as the
regulation fixes them, and the refusal names the option and the rule.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import operator


@pytest.mark.proves("591.7(g)")
@pytest.mark.parametrize(
    ("option", "value", "ref"),
    [
        ("insurance", False, "591.7(g)"),
        ("double_after_split", False, "673a.10(c)"),
        ("max_split_hands", 1, "673a.11(a)"),
    ],
)
def test_a_table_under_rules_against_the_regulation_is_refused(
    client: TestClient, option: str, value: object, ref: str
) -> None:
    before = client.get("/tables").json()
    response = client.post(
        "/tables",
        json={"game": "double-back-jack", "rules": {option: value}},
        headers=operator(client),
    )
    body = response.json()
    assert response.status_code == 400, body
    assert body["error"] == "RulesError"
    assert option in body["message"]
    assert ref in body["message"]
    assert client.get("/tables").json() == before


def test_the_regulations_own_values_open_a_table(client: TestClient) -> None:
    response = client.post(
        "/tables",
        json={
            "game": "double-back-jack",
            "rules": {"insurance": True, "max_split_hands": 2},
        },
        headers=operator(client),
    )
    assert response.status_code in (200, 201), response.json()
