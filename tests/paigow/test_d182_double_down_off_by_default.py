"""D182: the Double Down Wager is not offered unless the rules say so.

670a.7(e) lets a casino offer its optional wagers, the Double Down among
them, only where its Rules Submission specifies them; at D22's assumed
terms the Double Down played well gives the Six-Card Wager to the
player (D177). So a table at the default rules asks no seat for a
Double Down and refuses one under 670a.7(e); a table whose rules turn
it on offers it at D22's terms; ``croupier analyze`` at the defaults
says it is not offered and warns of nothing. The expectations are
worked by hand from the rule and the stacked cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

import croupier.games  # noqa: F401  (registers every game)
from croupier.cards import Card
from croupier.cli import app
from croupier.errors import WagerError
from croupier.games.six_card_fortune_pai_gow import SixCardRound
from croupier.hhf import rules_digest
from croupier.hhf.sample import sample_histories
from croupier.money import WagerKey
from croupier.registry import find_game
from croupier.regs import Ref
from croupier.report import ReportSettings, build_report
from croupier.round import Action
from croupier.verify import verify_lines

Deck = Callable[..., list[Card]]
MakeRound = Callable[..., SixCardRound]

GAME = "six-card-fortune-pai-gow"
OPTIONAL = Ref.parse("670a.7(e)")
"""Optional wagers only where the Rules Submission specifies them."""
PLAYER = "JK 9h 8d 7c 6s Ac"
"""Seat 1: the joker completes a straight (9 high) and the ace goes low."""
DEALER = "Ks Qd 9s 5d 4c 3d"
"""No pair: king high, the queen low. The player's straight beats the
king high and his ace the queen: both hands win, the Six-Card Wager
(and a Double Down beside it, D22) pays even money (D20: no
commission)."""


def _dealt(deck: Deck, make_round: MakeRound, **rules: object) -> SixCardRound:
    """Seat 1's $10.00 Six-Card Wager against the dealer, the cards dealt
    from seat 1."""
    rnd = make_round(deck(1, {1: PLAYER, 7: DEALER}), **rules)
    rnd.place_wager(1, "pai_gow", 1000)
    rnd.deal()
    return rnd


def _nets(rnd: SixCardRound) -> dict[str, int]:
    return {s.key.wager: s.net for s in rnd.settlements}


@pytest.mark.proves("670a.7(e)")
def test_670a_7_e_a_default_table_asks_for_no_double_down(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = _dealt(deck, make_round)
    pending = rnd.pending()
    assert pending is not None
    # the seat goes straight to setting its hands
    assert (pending.seat, pending.legal) == (1, ("set", "house_way"))
    rnd.apply(Action(seat=1, name="set", card=Card.parse("Ac")))
    assert rnd.is_over
    assert _nets(rnd) == {"pai_gow": 1000}


@pytest.mark.proves("670a.7(e)")
@pytest.mark.parametrize(
    ("name", "amount"),
    [("double_down", 500), ("double_down", None), ("no_double_down", None)],
)
def test_670a_7_e_a_double_down_refused_where_the_rules_offer_none(
    deck: Deck, make_round: MakeRound, name: str, amount: int | None
) -> None:
    rnd = _dealt(deck, make_round)
    events, pending = len(rnd.events), rnd.pending()
    action = Action(seat=1, name=name, amount=amount)
    assert not rnd.can_apply(action)
    with pytest.raises(WagerError, match="offers no Double Down") as refused:
        rnd.apply(action)
    assert refused.value.ref == OPTIONAL
    # nothing changed: no wager, no event, the same decision pending
    assert len(rnd.events) == events
    assert rnd.pending() == pending
    assert rnd.ledger.stakes == {WagerKey(1, "pai_gow"): 1000}


@pytest.mark.proves("670a.7(e)")
def test_670a_7_e_a_double_down_before_the_deal_refused_as_not_offered(
    deck: Deck, make_round: MakeRound
) -> None:
    rnd = make_round(deck(1))
    rnd.place_wager(1, "pai_gow", 1000)
    with pytest.raises(WagerError, match="offers no Double Down") as refused:
        rnd.place_wager(1, "double_down", 1000)
    assert refused.value.ref == OPTIONAL


def test_d182_only_a_table_whose_rules_say_so_offers_it(
    deck: Deck, make_round: MakeRound
) -> None:
    """The default asks for none; ``double_down_offered`` on, the seat
    decides on it first and a Double Down of $5.00 is settled like the
    Six-Card Wager (D22): both hands win, +$5.00 beside +$10.00."""
    asked = _dealt(deck, make_round).pending()
    assert asked is not None
    assert "double_down" not in asked.legal
    rnd = _dealt(deck, make_round, double_down_offered=True)
    pending = rnd.pending()
    assert pending is not None
    assert pending.legal == ("double_down", "no_double_down")
    rnd.apply(Action(seat=1, name="double_down", amount=500))
    rnd.apply(Action(seat=1, name="set", card=Card.parse("Ac")))
    assert _nets(rnd) == {"pai_gow": 1000, "double_down": 500}


@pytest.mark.proves("670a.7(e)")
def test_670a_7_e_a_log_deciding_a_double_down_its_rules_do_not_offer() -> (
    None
):
    """A sample round whose seat declined the Double Down, its rules then
    said not to offer one: the verifier finds the decision out of the
    rules, under 670a.7(e)."""
    for history in sample_histories(GAME, 10, seed=6):
        record = json.loads(history.dumps())
        decided = [
            s["action"]
            for s in record["procedure"]
            if s["type"] == "decision_made"
        ]
        if decided[:1] == ["no_double_down"]:
            break
    else:  # pragma: no cover - the sample tables offer it
        pytest.fail("no round declined the Double Down")
    values = record["rules"]["values"]
    assert values["double_down_offered"] is True
    assert verify_lines([json.dumps(record)]).verdicts[0].deviation is None
    values["double_down_offered"] = False
    record["rules"]["digest"] = rules_digest(values)
    (verdict,) = verify_lines([json.dumps(record)]).verdicts
    assert verdict.deviation is not None
    assert verdict.deviation.ref == "670a.7(e)"
    assert "action=no_double_down" in verdict.deviation.message
    assert "offers no Double Down Wager" in verdict.deviation.message


runner = CliRunner()


def test_d182_analyze_at_the_defaults_says_it_is_not_offered() -> None:
    """No line of a Double Down played and no warning that the game
    favours the player: the wager is said to be not offered."""
    result = runner.invoke(app, ["analyze", GAME])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "the Double Down Wager not offered" in out
    assert "670a.7(e)" in out
    assert "Six-Card Wager with the Double Down" not in out
    assert "favours the player" not in " ".join(result.stderr.split())
    refused = runner.invoke(app, ["analyze", GAME, "--double-down", "10"])
    assert refused.exit_code == 2
    assert "do not offer the Double Down Wager" in " ".join(
        refused.output.split()
    )


def test_d182_the_report_warns_only_where_the_double_down_is_offered() -> None:
    """At the defaults the math report says the Rules Submission offers
    no Double Down, warns of nothing and has no growth of the Six-Card
    Wager to note; offered, D177's warning and the note are back."""
    spec = find_game(GAME)
    settings = ReportSettings(rounds=2_000, seed=1, date="2026-12-06")
    for offered in (False, True):
        rules = spec.rules_type.from_mapping({"double_down_offered": offered})
        report = build_report(spec, rules, settings)
        summary = " ".join(report["summary"])
        main = {w["name"]: w for w in report["wagers"]}["pai_gow"]
        warned = [w["wager"] for w in report["player_favourable"]]
        if offered:
            assert "a Double Down Wager may be added" in summary
            assert warned == ["six_card_with_double_down"]
            assert "Double Down" in main["growth_note"]
        else:
            assert "offers no Double Down Wager (670a.7(e)" in summary
            assert warned == []
            assert main["growth_note"] is None
