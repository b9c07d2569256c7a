"""The protection report of a game: every analysis, assembled.

:func:`build_report` runs each provider (effects of removal, counts,
perfect play, known cards and edge sorting, the Double Back Jack card
reader) on a game and its Rules Submission; :func:`to_markdown` writes
the document committed under ``docs/protection/``, :func:`to_json` the
same figures for ``--json``. A wager is *beatable* under these rules
when some finding says so; the summary names it, by how much and the
rule change that closes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from croupier.protect import blackjack, known
from croupier.protect.base import Finding, Section
from croupier.protect.eor import eor_section
from croupier.protect.model import ProtectError
from croupier.protect.sections import (
    ProtectSettings,
    count_sections,
    perfect_sections,
)
from croupier.rules import GameRules

__all__ = [
    "ANALYSES",
    "ANALYSES_OF",
    "GAME_WAGERS",
    "ProtectReport",
    "build_report",
    "to_json",
    "to_markdown",
]

GAME_WAGERS: dict[str, tuple[str, ...]] = {
    "midibaccarat": (
        "player",
        "banker",
        "tie",
        "perfect_pairs_player",
        "perfect_pairs_banker",
    ),
    "midibaccarat-commission-free": (
        "player",
        "banker",
        "tie",
        "perfect_pairs_player",
        "perfect_pairs_banker",
        "dragon7",
        "panda8",
    ),
    "21-baccarat": ("player", "banker", "tie", "bonus_player", "bonus_banker"),
    "six-card-fortune-pai-gow": ("pai_gow", "fortune_bonus", "progressive"),
    "double-back-jack": ("blackjack",),
}
"""The wagers each game's report covers (``WAGER`` must be one)."""

Provider = Callable[[str, str | None, GameRules], list[Section]]
"""An analysis's ``sections(game, wager, rules)``."""

_OTHERS: tuple[tuple[str, Provider], ...] = (
    ("known", known.sections),
    ("blackjack", blackjack.sections),
)
"""The providers of points 4 and 5 (known cards; Double Back Jack)."""
ANALYSES = ("eor", "counts", "perfect", "known", "blackjack")
"""The analyses a report may be limited to (``--only``)."""
_BACCARAT = ("eor", "counts", "perfect", "known")
ANALYSES_OF: dict[str, tuple[str, ...]] = {
    "midibaccarat": _BACCARAT,
    "midibaccarat-commission-free": _BACCARAT,
    "21-baccarat": _BACCARAT,
    "six-card-fortune-pai-gow": ("eor", "counts"),
    "double-back-jack": ("blackjack",),
}
"""The analyses that report on each game (of :data:`ANALYSES`): the
effects of removal and counts of the shoe games, the perfect play of
the baccarat pair wagers, their known cards and edge sorting, and the
Double Back Jack card reader."""


@dataclass(frozen=True, slots=True)
class ProtectReport:
    """A game's protection report."""

    game: str
    """The registry name."""
    wager: str | None
    """The one wager asked for, or None for all."""
    rules: dict[str, object]
    """The Rules Submission (every option)."""
    changed: dict[str, object]
    """The options that differ from the defaults."""
    sections: tuple[Section, ...]
    """Every analysis, in report order."""

    @property
    def findings(self) -> list[Finding]:
        """Every finding of every section."""
        return [f for s in self.sections for f in s.findings]


def _others(only: set[str]) -> list[Provider]:
    return [provider for key, provider in _OTHERS if key in only]


def build_report(
    game: str,
    wager: str | None,
    rules: GameRules,
    settings: ProtectSettings | None = None,
    defaults: GameRules | None = None,
) -> ProtectReport:
    """Run every analysis of ``game`` (or of its one ``wager``)."""
    settings = settings or ProtectSettings()
    offered = GAME_WAGERS.get(game)
    if offered is None:
        msg = f"no protection report for {game!r}"
        raise ProtectError(msg)
    if wager is not None and wager not in offered:
        msg = f"{game} has no wager {wager!r} (wagers: {', '.join(offered)})"
        raise ProtectError(msg)
    only = set(settings.only or ANALYSES)
    unknown = only - set(ANALYSES)
    if unknown:
        msg = (
            f"no analysis {sorted(unknown)[0]!r} "
            f"(analyses: {', '.join(ANALYSES)})"
        )
        raise ProtectError(msg)
    # each name given must report on the game: one that does not would
    # be dropped without a word (eor,blackjack on a baccarat game)
    foreign = [a for a in settings.only if a not in ANALYSES_OF[game]]
    if foreign:
        msg = (
            f"--only {','.join(settings.only)}: {', '.join(foreign)} "
            f"{'is' if len(foreign) == 1 else 'are'} not an analysis of "
            f"{game} (its analyses: {', '.join(ANALYSES_OF[game])})"
        )
        raise ProtectError(msg)
    sections: list[Section] = []
    if "eor" in only and game != "double-back-jack" and wager != "pai_gow":
        sections += eor_section(game, wager, rules)
    if "counts" in only:
        sections += count_sections(game, wager, rules, settings)
    if "perfect" in only:
        sections += perfect_sections(game, wager, rules, settings)
    others = _others(only)
    for provider in others:
        sections += provider(game, wager, rules)
    if settings.only and not sections:
        msg = (
            f"--only {','.join(settings.only)} has no analysis of the "
            f"{wager} wager of {game}"
        )
        raise ProtectError(msg)
    plain = rules.to_dict()
    base = (defaults or type(rules)()).to_dict()
    return ProtectReport(
        game=game,
        wager=wager,
        rules=plain,
        changed={k: v for k, v in plain.items() if base.get(k) != v},
        sections=tuple(sections),
    )


def to_json(report: ProtectReport) -> dict[str, object]:
    """The report as JSON-ready data."""
    return {
        "game": report.game,
        "wager": report.wager,
        "rules": report.rules,
        "changed": report.changed,
        "beatable": sorted({f.wager for f in report.findings if f.beatable}),
        "findings": [f.to_json() for f in report.findings],
        "sections": [s.to_json() for s in report.sections],
    }


def _edge(f: Finding) -> str:
    return f"{100 * f.player_edge:+.2f} %"


def summary_lines(report: ProtectReport) -> list[str]:
    """The headline table: every finding, beatable first."""
    findings = sorted(
        report.findings, key=lambda f: (not f.beatable, f.wager, f.method)
    )
    lines = [
        "| wager | method | beatable | player's edge | per | closes it |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for f in findings:
        lines.append(
            f"| {f.wager} | {f.method} | {'**yes**' if f.beatable else 'no'}"
            f" | {_edge(f)} | {f.per} | {f.remedy} |"
        )
    return lines


def to_markdown(report: ProtectReport, command: str = "") -> str:
    """The report as the Markdown document of ``docs/protection/``."""
    title = report.game + (f" · {report.wager}" if report.wager else "")
    changed = (
        ", ".join(f"`{k}={v}`" for k, v in report.changed.items())
        or "the defaults"
    )
    beatable = sorted({f.wager for f in report.findings if f.beatable})
    lines = [f"# Game protection: {title}", ""]
    if command:
        lines += [f"Generated by `{command}`.", ""]
    lines += [
        f"Rules: {changed} (`croupier rules {report.game}` lists every "
        "option).",
        "",
        "Beatable under these rules: "
        + (", ".join(f"**{w}**" for w in beatable) if beatable else "none")
        + ".",
        "",
        "## Summary",
        "",
        *summary_lines(report),
        "",
    ]
    for section in report.sections:
        lines += [f"## {section.title}", "", section.markdown.rstrip(), ""]
    return "\n".join(lines).rstrip() + "\n"
