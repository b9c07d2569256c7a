"""Issue 17 point 1: the CHH format round-trips every game.

Rounds are dealt by the table server (through its API) and by scenario
files, exported (``croupier history export``, ``croupier scenario
--history``), validated against the shipped schema, read back and
compared with the server's own stored records and with a replay.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.server.conftest import (
    OPERATOR,
    Seat,
    passive_action,
    seat_player,
)
from tests.server.test_api import play_round
from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf import (
    HandHistory,
    HistoryFormatError,
    read_history,
    rules_digest,
    schema,
    validate,
)
from croupier.history import RoundRecord, replay
from croupier.registry import all_games
from croupier.server import db as storage
from croupier.server.app import create_app
from croupier.server.edge import RateLimits
from croupier.verify import verify_round

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
GAMES = [spec.name for spec in all_games()]
DECK = [f"{rank}{suit}" for suit in "cdhs" for rank in "23456789TJQKA"]
"""One deck of 52, written out."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A server database after three rounds of every game, two seats."""
    path = tmp_path_factory.mktemp("served") / "croupier.db"
    url = f"sqlite:///{path}"
    app_ = create_app(
        url, operator_token=OPERATOR, rate_limits=RateLimits.off()
    )
    with TestClient(app_) as client:
        for n, spec in enumerate(all_games()):
            players = [
                seat_player(client, spec.name, 1, f"ann{n}"),
                seat_player(client, spec.name, 2, f"bob{n}"),
            ]
            for _ in range(3):
                play_round(players, spec.wagers[0])
            for k in range(4):
                _play_boldly(players, spec.wagers[0], k)
            if spec.name == "double-back-jack":
                # one round voided by the operator (D25) after a wager
                wager = {"seat": 1, "wager": spec.wagers[0], "amount": 500}
                assert players[0].post("/wagers", wager).status_code == 200
                voided = client.post(
                    f"/tables/{players[0].table_id}/void",
                    json={"reason": "a test of the export"},
                    headers={"Authorization": f"Bearer {OPERATOR}"},
                )
                assert voided.status_code == 200, voided.json()
    return url


def _play_boldly(players: list[Seat], wager: str, salt: int) -> None:
    """A round whose decisions draw cards and wager (hit, double, split,
    Second Chance, Double Down...), chosen by a fixed rule."""
    for p in players:
        body = {"seat": p.seat, "wager": wager, "amount": 500}
        placed = p.post("/wagers", body)
        assert placed.status_code == 200, placed.json()
    for p in players:  # each seat says it is ready: the last one deals
        state = p.post("/deal").json()
    for step in range(60):
        pending = state["round"]["pending"]
        if pending is None or state["round"]["status"] == "betting":
            return
        actor = next(p for p in players if p.seat == pending["seat"])
        legal = [
            a
            for a in pending["legal"]
            if a not in ("insurance", "surrender", "set")
        ] or pending["legal"]
        action = legal[(salt + step) % len(legal)]
        r = actor.post("/actions", {"seat": actor.seat, "action": action})
        if r.status_code != 200:
            r = actor.post(
                "/actions",
                {"seat": actor.seat, "action": passive_action(legal)},
            )
        assert r.status_code == 200, r.json()
        state = r.json()


def _export(url: str, out: Path, *extra: str) -> list[HandHistory]:
    result = CliRunner().invoke(
        app, ["history", "export", "--db", url, "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    for line in out.read_text(encoding="utf-8").splitlines():
        validate(json.loads(line))
    return [history for _, history in read_history(out)]


def _stored(url: str) -> dict[str, tuple[str | None, Any]]:
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                storage.RoundRow.id,
                storage.RoundRow.record_json,
                storage.RoundRow.owners_json,
            ).where(storage.RoundRow.status == "over")
        ).all()
    return {str(rid): (text, json.loads(owners)) for rid, text, owners in rows}


@pytest.mark.proves("810a.11")
def test_810a_11_server_rounds_round_trip_every_game(
    served: str, tmp_path: Path
) -> None:
    # every stack, as stored (D188: a shoe still in play only on request)
    every = _export(served, tmp_path / "day.jsonl", "--stacks-in-play")
    # a server's table deals from the game's whole shoe: every round,
    # voided or over, says so (CHH 1.1, D75)
    assert all(h.shoe.whole and h.version == "1.1" for h in every)
    assert any(h.status == "voided" for h in every)
    histories = [h for h in every if h.status == "over"]
    stored = _stored(served)
    assert {h.game for h in histories} == set(GAMES)
    assert sorted(h.round_id for h in histories) == sorted(stored)
    taken = {
        s["action"]
        for h in histories
        for s in h.procedure
        if s["type"] == "decision_made"
    }
    assert taken & {"hit", "double", "split", "double_down"}, taken
    for history in histories:
        text, owners = stored[history.round_id]
        assert text is not None
        record = RoundRecord.loads(text)
        # read back equals what was written, and what the server stored
        assert HandHistory.loads(history.dumps()) == history
        again = history.to_record()
        assert again.events == record.events
        assert again.settlements == record.settlements
        assert again.shoe == record.shoe
        assert again.wagers == record.wagers
        assert replay(again).ok, replay(again).differences
        # issue 17 point 2: croupier verify passes every server round
        assert verify_round(history) is None, history.round_id
        # 810a.11 fields
        assert history.rules == record.rules
        assert history.rules_digest == rules_digest(record.rules)
        assert history.started_at is not None
        assert history.ended_at is not None
        assert history.ended_at >= history.started_at
        assert {str(p.seat): p.player_id for p in history.players} == {
            k: str(v) for k, v in owners.items()
        }
        for player in history.players:
            stakes = [
                s for s in record.settlements if s["seat"] == player.seat
            ]
            assert player.total_bet == sum(s["amount"] for s in stakes)
            assert player.total_won == sum(
                s["amount"] + s["net"]
                for s in stakes
                if s["outcome"] != "lose"
            )
            assert player.balance_before is not None
            assert player.balance_after == (
                player.balance_before - player.total_bet + player.total_won
            )


def _shoes(url: str) -> dict[str, tuple[str, bool]]:
    """Each finished or voided round's stored stack, and whether its shoe
    is out of play (``disclosed``), read straight from the database."""
    engine = storage.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                storage.RoundRow.id,
                storage.RoundRow.shoe,
                storage.RoundRow.disclosed,
            ).where(storage.RoundRow.status.in_(("over", "voided")))
        ).all()
    return {str(rid): (shoe, bool(out)) for rid, shoe, out in rows}


def test_d188_export_seals_the_stack_of_a_shoe_still_in_play(
    served: str, tmp_path: Path
) -> None:
    """A round dealt from a shoe the table still deals from is written as
    dealt: its stack, which names the cards still to come, appears
    nowhere in the file. A shoe out of play (pai gow's deck after each
    round; a Double Back Jack shoe ended by a void) keeps its stack, and
    ``--stacks-in-play`` writes every stack as stored. Either file
    verifies whole.
    """
    shoes = _shoes(served)
    in_play = {rid for rid, (_, out) in shoes.items() if not out}
    # the fixture's 21 Baccarat and Midibaccarat shoes are still dealt
    # from; its pai gow decks and its voided Double Back Jack shoe not
    assert in_play
    assert len(in_play) < len(shoes)
    sealed_out = tmp_path / "sealed.jsonl"
    sealed = {h.round_id: h for h in _export(served, sealed_out)}
    text = sealed_out.read_text(encoding="utf-8")
    assert sealed.keys() == shoes.keys()
    for rid, (stack, out) in shoes.items():
        shoe = sealed[rid].shoe
        if out:
            assert (shoe.known, shoe.stack) == ("stacked", stack), rid
        else:
            assert (shoe.known, shoe.stack) == ("as_dealt", None), rid
            assert stack not in text, rid
    # the operator is told, and how to have them
    told = CliRunner().invoke(
        app, ["history", "export", "--db", served, "--out", str(sealed_out)]
    )
    assert (
        f"{len(shoes)} rounds written\n{len(in_play)} of them dealt from a "
        "shoe still in play, written as dealt (their stacks name the cards "
        "still to come); --stacks-in-play writes them\n"
    ) in told.output
    whole_out = tmp_path / "whole.jsonl"
    whole = _export(served, whole_out, "--stacks-in-play")
    assert {h.round_id: h.shoe.stack for h in whole} == {
        rid: stack for rid, (stack, _) in shoes.items()
    }
    # the sealed rounds are the same rounds otherwise, step for step
    for history in whole:
        assert sealed[history.round_id].procedure == history.procedure
    for path in (sealed_out, whole_out):
        result = CliRunner().invoke(app, ["verify", str(path), "--quiet"])
        assert result.exit_code == 0, result.output


def test_croupier_verify_passes_a_whole_server_export(
    served: str, tmp_path: Path
) -> None:
    out = tmp_path / "day.jsonl"
    rounds = len(_export(served, out))
    result = CliRunner().invoke(app, ["verify", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert f"{rounds} rounds, {rounds} conforming, 0 with a deviation" in (
        result.stdout
    )


def test_591_7_a_server_export_carries_its_shoes_over(
    served: str, tmp_path: Path
) -> None:
    """D64 on a server's own day: its rounds link, and a tamper is found.

    A table's rounds after the first deal on from its shoe; the card at
    the bottom of that shoe (below the cover card, so no round reaches
    it) is taken out from the second round on: each round still
    conforms by itself, but the second no longer begins with the shoe
    the first left.
    """
    out = tmp_path / "day.jsonl"
    docs = [json.loads(line) for line in _lines(out, served)]
    by_table: dict[tuple[str, Any], list[int]] = {}
    for n, doc in enumerate(docs):
        by_table.setdefault((doc["game"]["id"], doc["table"]), []).append(n)
    linked = [
        rows
        for (game, _), rows in by_table.items()
        if game == "double-back-jack"
        and len(rows) >= 2
        and not docs[rows[1]]["shoe"]["new_shoe"]
    ]
    assert linked, "no Double Back Jack table dealt on from its shoe"
    rows = linked[0]
    for n in rows[1:]:
        tokens = docs[n]["shoe"]["stack"].split(" ")
        assert "CC" in tokens[:-1]
        docs[n]["shoe"]["stack"] = " ".join(tokens[:-1])
    out.write_text("".join(json.dumps(d) + "\n" for d in docs), "utf-8")
    runner = CliRunner()
    alone = runner.invoke(app, ["verify", str(out), "--rounds-alone"])
    assert alone.exit_code == 0, alone.output
    found = runner.invoke(app, ["verify", str(out), "--quiet", "--json"])
    assert found.exit_code == 1, found.output
    report = json.loads(found.stdout)
    assert [(r["line"], r["deviation"]["ref"]) for r in report["rounds"]] == [
        (rows[1] + 1, "591.7(a)")
    ]


@pytest.mark.proves("629a.5(b)")
def test_629a_5_b_server_export_says_who_was_seated_at_the_cut(
    served: str, tmp_path: Path
) -> None:
    """A served Midibaccarat shoe's record names the seats at its cut (D78).

    Seats 1 and 2 were taken at each table (a shoe prepared before then
    has none seated); the cut is offered first to the highest-numbered
    occupied seat, else the dealer cuts. A seat above them added to the
    record is a seat the offer passed over: the round then deviates.
    """
    out = tmp_path / "day.jsonl"
    docs = [json.loads(line) for line in _lines(out, served)]
    midi = [
        n
        for n, d in enumerate(docs)
        if d["game"]["id"].startswith("midibaccarat")
    ]
    cut = [
        n
        for n in midi
        if any(
            s["type"] == "cut_offered" for s in docs[n]["shoe"]["preparation"]
        )
    ]
    assert cut, "no Midibaccarat shoe was cut"
    for n in midi:
        assert ("seated_at_cut" in docs[n]["shoe"]) == (n in cut)
    for n in cut:
        seated = docs[n]["shoe"]["seated_at_cut"]
        assert seated == sorted(seated)
        assert set(seated) <= {1, 2}
        first = next(
            s
            for s in docs[n]["shoe"]["preparation"]
            if s["type"] == "cut_offered"
        )
        # nobody seated yet when the shoe was prepared: the dealer cuts
        assert first["to"] == (f"seat {seated[-1]}" if seated else "dealer")
    tampered = cut[0]
    docs[tampered]["shoe"]["seated_at_cut"].append(3)
    out.write_text("".join(json.dumps(d) + "\n" for d in docs), "utf-8")
    found = CliRunner().invoke(app, ["verify", str(out), "--quiet", "--json"])
    assert found.exit_code == 1, found.output
    report = json.loads(found.stdout)
    assert [(r["line"], r["deviation"]["ref"]) for r in report["rounds"]] == [
        (tampered + 1, "629a.5(b)")
    ]
    assert "seat 3" in report["rounds"][0]["deviation"]["message"]


def _lines(out: Path, served: str) -> list[str]:
    _export(served, out)
    return out.read_text(encoding="utf-8").splitlines()


def test_export_to_a_packed_file_is_the_plain_export_packed(
    served: str, tmp_path: Path
) -> None:
    """``--out day.jsonl.gz`` writes the same lines, gzipped."""
    plain = tmp_path / "day.jsonl"
    _export(served, plain)
    packed = tmp_path / "day.jsonl.gz"
    result = CliRunner().invoke(
        app, ["history", "export", "--db", served, "--out", str(packed)]
    )
    assert result.exit_code == 0, result.output
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    checked = CliRunner().invoke(app, ["verify", str(packed), "--quiet"])
    assert checked.exit_code == 0, checked.output


@pytest.mark.proves("810a.11")
def test_810a_11_voided_round_exported_with_its_refund(
    served: str, tmp_path: Path
) -> None:
    histories = _export(served, tmp_path / "day.jsonl")
    [void] = [h for h in histories if h.status == "voided"]
    assert void.void_reason == "a test of the export"
    assert [
        (s["seat"], s["amount"], s["outcome"], s["net"])
        for s in void.settlements
    ] == [(1, 500, "void", 0)]
    assert [s["type"] for s in void.procedure][-1] == "round_voided"
    assert [s["seq"] for s in void.procedure] == list(
        range(1, len(void.procedure) + 1)
    )
    [player] = void.players
    assert (player.seat, player.total_bet, player.total_won) == (1, 500, 500)
    assert player.balance_after == player.balance_before
    assert verify_round(void) is None


@pytest.mark.proves("810a.11")
def test_810a_11_export_since_keeps_later_rounds(
    served: str, tmp_path: Path
) -> None:
    every = _export(served, tmp_path / "all.jsonl")
    middle = sorted(h.started_at or "" for h in every)[len(every) // 2]
    later = _export(served, tmp_path / "later.jsonl", "--since", middle)
    assert [h.round_id for h in later] == [
        h.round_id for h in every if (h.started_at or "") >= middle
    ]
    assert 0 < len(later) < len(every)


def _first_scenario(game: str) -> Path:
    for path in sorted((SCENARIOS / game).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("expect", {}).get("exit_code", 0) == 0:
            return path
    raise AssertionError(game)


@pytest.mark.proves("810a.11")
@pytest.mark.parametrize("game", GAMES)
def test_810a_11_scenario_history_round_trips(
    game: str, tmp_path: Path
) -> None:
    path = _first_scenario(game)
    out = tmp_path / "scenario.jsonl"
    result = CliRunner().invoke(
        app, ["scenario", str(path), "--history", str(out)]
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    [(line, history)] = list(read_history(out))
    assert line == 1
    validate(history.to_dict())
    assert HandHistory.loads(history.dumps()) == history
    assert list(history.procedure) == printed["events"]
    assert list(history.settlements) == printed["settlements"]
    assert history.shoe.known == "stacked"
    assert replay(history.to_record()).ok
    # the record says it is a table's whole shoe only when its stack and
    # rack are the rules' decks (pai gow's: 52 and the joker), D75
    shoe = history.to_dict()["shoe"]
    held = f"{shoe['stack']} {shoe['discard'] or ''}".split()
    decks = int(history.rules.get("decks", 1))
    jokers = ["JK"] if game == "six-card-fortune-pai-gow" else []
    full = sorted(DECK * decks + jokers)
    assert shoe.get("whole", False) is (sorted(held) == full)


def test_a_scenario_of_the_whole_shoe_says_so(tmp_path: Path) -> None:
    # one deck of 52, and the same less one card (D75)
    deck = DECK
    wagers = [{"seat": 1, "wager": "player", "amount": 1000}]
    for cards, whole in ((deck, True), (deck[1:], False)):
        doc = {
            "game": "21-baccarat",
            "rules": {"decks": 1},
            "shoe": " ".join(cards),
            "wagers": wagers,
        }
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        out = tmp_path / f"{whole}.jsonl"
        result = CliRunner().invoke(
            app, ["scenario", str(path), "--history", str(out)]
        )
        assert result.exit_code == 0, result.output
        [(_, history)] = list(read_history(out))
        assert history.shoe.whole is whole
        assert verify_round(history) is None


def test_chh_schema_ships_in_the_package_and_refuses_bad_lines(
    tmp_path: Path,
) -> None:
    assert schema()["$defs"]["card"]["pattern"]
    path = _first_scenario("double-back-jack")
    out = tmp_path / "one.jsonl"
    CliRunner().invoke(app, ["scenario", str(path), "--history", str(out)])
    good = json.loads(out.read_text(encoding="utf-8"))
    bad = json.loads(json.dumps(good))
    dealt = next(s for s in bad["procedure"] if s["type"] == "card_dealt")
    dealt["card"] = "1x"
    out.write_text(
        json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8"
    )
    with pytest.raises(HistoryFormatError, match="line 2: schema") as info:
        list(read_history(out))
    assert info.value.line == 2
    del good["rules"]
    with pytest.raises(HistoryFormatError, match='"rules" is a required'):
        validate(good)


def _mutations(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``doc`` each broken (or not) in one place."""
    out: list[dict[str, Any]] = []

    def variant(change: Any) -> None:
        copy = json.loads(json.dumps(doc))
        change(copy)
        out.append(copy)

    variant(lambda d: None)
    variant(lambda d: d.pop("players"))
    variant(lambda d: d.update(extra=1))
    variant(lambda d: d["game"].update(id=5))
    variant(lambda d: d["software"].pop("version"))
    variant(lambda d: d["rules"].update(digest="sha256:XYZ"))
    variant(lambda d: d["rules"].update(values=[]))
    variant(lambda d: d.update(started_at="yesterday"))
    variant(lambda d: d["shoe"].update(stack="As Kd ZZ"))
    variant(lambda d: d["shoe"].update(known="guessed"))
    variant(lambda d: d["procedure"][0].update(seq=0))
    variant(lambda d: d["procedure"][0].update(seq="1"))
    variant(lambda d: d["procedure"][-1].update(ref="591.7 (a)"))
    variant(lambda d: d["procedure"][-1].update(ref="D25"))
    variant(lambda d: d["procedure"][-1].update(type="Card Dealt"))
    for i, step in enumerate(doc["procedure"]):
        if step["type"] == "card_dealt":
            variant(lambda d, i=i: d["procedure"][i].pop("face_up"))
            variant(lambda d, i=i: d["procedure"][i].update(card="1s"))
            variant(lambda d, i=i: d["procedure"][i].update(hand=-1))
            # True == 1 in Python: a cache must still tell them apart
            variant(lambda d, i=i: d["procedure"][i].update(face_up=1))
            variant(lambda d, i=i: d["procedure"][i].update(hand=False))
            variant(lambda d, i=i: d["procedure"][i].update(hand=0.0))
            # Python's "$" matches before a final newline, Rust's not:
            # the compiled fast path must defer to jsonschema here
            variant(
                lambda d, i=i: d["procedure"][i].update(
                    card=d["procedure"][i]["card"] + "\n"
                )
            )
            break
    variant(lambda d: d["settlements"][0].update(outcome="won"))
    variant(lambda d: d["settlements"][0].update(hand=0))
    variant(lambda d: d["players"][0].update(total_bet=-1))
    variant(lambda d: d["players"][0].update(player_id=""))
    variant(lambda d: d["players"][0].update(seat=True))
    variant(
        lambda d: d["settlements"][0].update(
            net=float(d["settlements"][0]["net"])
        )
    )
    return out


def test_chh_validation_item_by_item_equals_the_whole_schema() -> None:
    """The split, cached check accepts exactly what the schema accepts."""
    import jsonschema

    from croupier.hhf.sample import sample_histories

    whole = jsonschema.Draft202012Validator(schema())
    for game in GAMES:
        for history in sample_histories(game, 2, seed=3):
            for doc in _mutations(history.to_dict()):
                expected = whole.is_valid(doc)
                for _ in range(2):  # the second time from the cache
                    try:
                        validate(doc)
                    except HistoryFormatError:
                        assert not expected, doc
                    else:
                        assert expected, doc
