"""Issue 16: the report names beatable wagers, and a rule change closes
the gap (Dragon 7 40:1 is counted down; at 30:1 no count wins)."""

from __future__ import annotations

from typing import Any

from croupier.games.midibaccarat.rules import CommissionFreeRules
from croupier.protect.report import build_report, to_markdown
from croupier.protect.sections import ProtectSettings

SETTINGS = ProtectSettings(shoes=20_000, remedies=False, only=("counts",))


def _count_finding(rules: CommissionFreeRules) -> dict[str, Any]:
    report = build_report(
        "midibaccarat-commission-free", "dragon7", rules, SETTINGS
    )
    (finding,) = [f for f in report.findings if f.method == "count"]
    return finding.to_json()


def test_issue16_dragon7_beatable_at_40_to_1() -> None:
    finding = _count_finding(CommissionFreeRules())
    assert finding["beatable"] is True
    assert finding["player_edge"] > 0.02


def test_issue16_dragon7_closed_at_30_to_1() -> None:
    rules = CommissionFreeRules().with_settings(["dragon7_payout=30:1"])
    finding = _count_finding(rules)
    assert finding["beatable"] is False
    report = build_report(
        "midibaccarat-commission-free", "dragon7", rules, SETTINGS
    )
    text = to_markdown(report)
    assert "`dragon7_payout=30:1`" in text
    assert "Beatable under these rules: none." in text
