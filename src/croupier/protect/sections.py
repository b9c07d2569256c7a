"""The count and perfect-play sections of a protection report.

:func:`count_sections` derives the best level 1-3 counts of every wager
from its exact EoRs (and takes the user's ``--tags``), simulates them
side by side through real shoes of the Rules Submission, and reports
each in Jacobson's shape at its best trigger, with the table of every
trigger, the betting correlation, a table (and plot) of the win rate
against the depth of the cut card, and the rule change that closes a
beatable wager (D49). :func:`perfect_sections` gives the perfect-play
bounds of the pair wagers (:mod:`croupier.protect.perfect`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

from croupier.errors import CroupierError
from croupier.games.baccarat21 import Baccarat21Rules
from croupier.games.midibaccarat.rules import (
    BaccaratRules,
    CommissionFreeRules,
)
from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
from croupier.protect.base import Finding, Section
from croupier.protect.counts import (
    Count,
    CountRun,
    TriggerRow,
    best_row,
    best_tags,
    betting_correlation,
    simulate_counts,
    trigger_rows,
)
from croupier.protect.eor import EorTable, game_eors
from croupier.protect.model import (
    GameModel,
    WagerModel,
    game_model,
)
from croupier.protect.perfect import PerfectRow, perfect_play
from croupier.rules import GameRules

__all__ = [
    "ProtectSettings",
    "count_sections",
    "depth_grid",
    "perfect_sections",
]

LEVELS = (1, 2, 3)
"""Tag levels searched."""


@dataclass(frozen=True, slots=True)
class ProtectSettings:
    """How long to simulate, and what the user asked for."""

    shoes: int = 200_000
    """Shoes of each count simulation."""
    perfect_shoes: int = 20_000
    """Shoes of a perfect-play run (Midibaccarat; 21 Baccarat: a tenth)."""
    seed: int = 1
    """Seed of every simulation."""
    workers: int = 1
    """Processes."""
    tags: dict[str, int] | None = None
    """The user's tags (``--tags``), counted for every wager (or WAGER)."""
    behind: tuple[int, ...] = ()
    """Cut-card depths to tabulate: cards behind the cut card."""
    plot: Path | None = None
    """Where to draw the win rate against the depth."""
    remedies: bool = True
    """Search the depth grid and the paytables for what closes a gap."""
    only: tuple[str, ...] = ()
    """The analyses to run (:data:`~.report.ANALYSES`; empty: all)."""


def _behind_default(game: GameModel) -> int:
    return game.size - game.cover


def depth_grid(game: GameModel) -> tuple[int, ...]:
    """Cut-card depths (cards behind) for the remedy search, shallow first.

    The rules' own depth, then a deck's worth steps (a half deck in
    shoes of three decks or fewer) up to half the shoe.
    """
    step = 52 if game.decks > 3 else 26
    own = _behind_default(game)
    grid = [own]
    depth = step
    while depth <= game.size // 2:
        if depth > own:
            grid.append(depth)
        depth += step
    return tuple(grid)


def _pct(x: float, digits: int = 2) -> str:
    return f"{100 * x:+.{digits}f} %"


def _variants(rules: GameRules, wager: str) -> list[str]:
    """Paytable changes to try on a beatable wager (``--set`` form)."""
    if isinstance(rules, CommissionFreeRules) and wager == "dragon7":
        top = rules.dragon7_payout.fraction.numerator
        return [f"dragon7_payout={n}:1" for n in range(top - 1, 29, -1)]
    if isinstance(rules, CommissionFreeRules) and wager == "panda8":
        top = rules.panda8_payout.fraction.numerator
        return [f"panda8_payout={n}:1" for n in range(top - 1, 14, -1)]
    if isinstance(rules, BaccaratRules | Baccarat21Rules) and wager == "tie":
        tie = rules.tie_payout.fraction
        if tie.denominator == 1:
            n = tie.numerator
            return [f"tie_payout={k}:1" for k in range(n - 1, n - 4, -1)]
    if isinstance(rules, Baccarat21Rules) and wager.startswith("bonus"):
        return [f"bonus_paytable={t}" for t in "ABCD"]
    return []


def _variant_models(game: GameModel, wager: str) -> dict[str, WagerModel]:
    models: dict[str, WagerModel] = {}
    for setting in _variants(game.rules, wager):
        try:
            rules = game.rules.with_settings([setting])
        except CroupierError:
            continue
        if rules == game.rules:
            continue
        variant = game_model(rules)
        if variant.unit != game.unit:
            continue
        models[f"{wager}@{setting}"] = variant.wager(wager)
    return models


@dataclass
class _Plan:
    """The counts of one report and where their results are."""

    tables: dict[str, EorTable]
    counts: list[Count] = field(default_factory=list)
    best: dict[str, int] = field(default_factory=dict)
    """Wager -> index of its most correlated count."""


def _plan(
    game: GameModel, wager: str | None, settings: ProtectSettings
) -> _Plan:
    tables = {t.wager: t for t in game_eors(game, wager)}
    plan = _Plan(tables)
    for name, table in tables.items():
        spread = max(table.by_rank.values()) - min(table.by_rank.values())
        if spread == 0:
            continue  # every card alike: no count (Perfect Pairs)
        found: list[Count] = []
        for level in LEVELS:
            count = best_tags(table, level)
            if any(c.tags == count.tags for c in found):
                continue
            found.append(count)
        if settings.tags is not None:
            found.append(
                Count(
                    "user",
                    name,
                    dict(settings.tags),
                    betting_correlation(table, settings.tags),
                )
            )
        plan.best[name] = len(plan.counts) + max(
            range(len(found)), key=lambda i: found[i].correlation
        )
        plan.counts += found
    return plan


class _CountEntry(TypedDict):
    """One count of a wager in the section's data."""

    name: str
    tags: dict[str, int]
    betting_correlation: float
    best: TriggerRow | None
    triggers: list[TriggerRow]


class _WagerCounts(TypedDict):
    """The counts of one wager (none, and why, when no count works)."""

    counts: list[_CountEntry]
    why: NotRequired[str]


def _row_cells(row: TriggerRow) -> str:
    return (
        f"{row['trigger']:+d} | {100 * row['bet_frequency']:.2f} % | "
        f"{_pct(row['edge_when_betting'])} | "
        f"{row['units_per_100_hands']:+.4f} | "
        f"{row['units_per_shoe']:+.4f} | {row['sd_per_100_hands']:.2f} | "
        f"{row['di']:+.2f}"
    )


def _depth_label(game: GameModel, behind: int) -> str:
    pen = 1 - behind / game.size
    return f"{behind} cards ({100 * pen:.1f} % dealt)"


def _run_depths(
    game: GameModel,
    plan: _Plan,
    behind: tuple[int, ...],
    settings: ProtectSettings,
    variants: dict[str, WagerModel] | None = None,
    extra: list[Count] | None = None,
) -> dict[int, CountRun]:
    best = [plan.counts[k] for k in plan.best.values()] + (extra or [])
    runs: dict[int, CountRun] = {}
    for depth in behind:
        runs[depth] = simulate_counts(
            game.with_cover(game.size - depth),
            best,
            settings.shoes,
            seed=settings.seed,
            workers=settings.workers,
            variants=variants,
        )
    return runs


def _plot(
    game: GameModel,
    runs: dict[int, CountRun],
    wagers: list[str],
    path: Path,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    depths = sorted(runs)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for k, wager in enumerate(wagers):
        wins, bands = [], []
        for depth in depths:
            row = best_row(runs[depth], k)
            wins.append(row["units_per_100_hands"] if row else 0.0)
            bands.append(row["units_per_100_hands_ci95"] if row else 0.0)
        x = [100 * (1 - d / game.size) for d in depths]
        ax.errorbar(x, wins, yerr=bands, marker="o", capsize=3, label=wager)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("penetration: share of the shoe dealt before the cut (%)")
    ax.set_ylabel("units won per 100 hands (best trigger)")
    ax.set_title(
        f"{game.game}, {game.decks} decks: best count per wager\n"
        f"{next(iter(runs.values())).shoes:,} shoes per point, seed "
        f"{next(iter(runs.values())).seed}",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _wins(row: TriggerRow | None) -> bool:
    """Whether a count's best trigger wins, its 95 % interval above 0."""
    if row is None:
        return False
    return bool(
        row["units_per_100_hands"] - row["units_per_100_hands_ci95"] > 0
    )


def _remedy(
    game: GameModel,
    wager: str,
    k: int,
    runs: dict[int, CountRun],
    paytable: dict[str, TriggerRow | None],
) -> str:
    parts: list[str] = []
    for depth in sorted(runs):
        row = best_row(runs[depth], k)
        if not _wins(row):
            pen = 100 * (1 - depth / game.size)
            parts.append(
                f"place the cut card at least {depth} cards from the end "
                f"(at most {pen:.1f} % dealt)"
            )
            break
    else:
        deepest = max(runs)
        row = best_row(runs[deepest], k)
        won = row["units_per_100_hands"] if row else 0.0
        parts.append(
            f"no cut card in the grid closes it ({deepest} cards from the "
            f"end still wins {won:+.4f} per 100 hands)"
        )
    for setting, row in paytable.items():
        if not _wins(row):
            parts.append(f"or pay {setting.split('=', 1)[1]} ({setting})")
            break
    return "; ".join(parts)


def count_sections(
    game_name: str,
    wager: str | None,
    rules: GameRules,
    settings: ProtectSettings,
) -> list[Section]:
    """The count section (:class:`~.base.Section`) of a shoe game."""
    if isinstance(rules, SixCardRules):
        return [_paigow_section(wager, rules)]
    if not isinstance(rules, BaccaratRules | Baccarat21Rules):
        return []
    game = game_model(rules)
    plan = _plan(game, wager, settings)
    if not plan.counts:
        return [_no_count_section(plan)]
    run = simulate_counts(
        game,
        plan.counts,
        settings.shoes,
        seed=settings.seed,
        workers=settings.workers,
    )
    wagers: dict[str, _WagerCounts] = {}
    data: dict[str, object] = {
        "conventions": _CONVENTIONS,
        "shoes": run.shoes,
        "seed": settings.seed,
        "seconds": run.seconds,
        "cut_card_behind": _behind_default(game),
        "wagers": wagers,
    }
    lines = [_CONVENTIONS, ""]
    lines += [
        f"{run.shoes:,} shoes (seed {settings.seed}), cut card "
        f"{_depth_label(game, _behind_default(game))}; each count at "
        "the trigger that wins the most per 100 hands.",
        "",
        "| wager | count | tags (A 2 3 4 5 6 7 8 9 T J Q K) | BC | "
        "trigger | bet freq | edge when betting | units / 100 hands | "
        "units / shoe | SD / 100 hands | DI |",
        "| --- " * 11 + "|",
    ]
    findings: list[Finding] = []
    best_by_wager: dict[str, tuple[int, TriggerRow | None]] = {}
    for k, count in enumerate(plan.counts):
        row = best_row(run, k)
        entry = wagers.setdefault(count.wager, {"counts": []})
        entry["counts"].append(
            {
                "name": count.name,
                "tags": count.tags,
                "betting_correlation": count.correlation,
                "best": row,
                "triggers": trigger_rows(run, k, 0, 20),
            }
        )
        cells = _row_cells(row) if row else "- | - | - | - | - | - | -"
        lines.append(
            f"| {count.wager} | {count.name} | {count.tag_text()} | "
            f"{count.correlation:.3f} | {cells} |"
        )
        if plan.best.get(count.wager) == k:
            best_by_wager[count.wager] = (k, row)
    for name in plan.tables:
        if name not in plan.best:
            wagers[name] = {
                "counts": [],
                "why": "every card has the same EoR: no count",
            }
    beatable = [name for name, (_, row) in best_by_wager.items() if _wins(row)]
    behind = settings.behind or (
        depth_grid(game) if settings.remedies and beatable else ()
    )
    depth_runs: dict[int, CountRun] = {}
    paytable: dict[str, dict[str, TriggerRow | None]] = {}
    if behind:
        variants: dict[str, WagerModel] = {}
        extra: list[Count] = []
        index: dict[str, tuple[str, int]] = {}
        base = len(plan.best)
        if settings.remedies:
            for name in beatable:
                count = plan.counts[plan.best[name]]
                for label, model in _variant_models(game, name).items():
                    variants[label] = model
                    index[label] = (name, base + len(extra))
                    extra.append(
                        Count(count.name, label, count.tags, count.correlation)
                    )
        own = _behind_default(game)
        grid = tuple(sorted({*behind, own}))  # the rules' own depth too
        depth_runs = _run_depths(game, plan, grid, settings, variants, extra)
        own_run = depth_runs.get(own) or next(iter(depth_runs.values()))
        for label, (name, k) in index.items():
            paytable.setdefault(name, {})[label.split("@", 1)[1]] = best_row(
                own_run, k
            )
        lines += ["", *_depth_table(game, plan, depth_runs)]
        data["depths"] = {
            str(d): {w: best_row(r, i) for i, w in enumerate(plan.best)}
            for d, r in depth_runs.items()
        }
        data["paytables"] = paytable
        if settings.plot is not None:
            _plot(game, depth_runs, list(plan.best), settings.plot)
            data["plot"] = str(settings.plot)
    order = list(plan.best)
    for name, (k, row) in best_by_wager.items():
        count = plan.counts[k]
        if row is None:
            continue
        is_beatable = name in beatable
        if is_beatable and depth_runs:
            remedy = _remedy(
                game,
                name,
                order.index(name),
                depth_runs,
                paytable.get(name, {}),
            )
        elif is_beatable:
            remedy = "deal less of the shoe (see --cut-card)"
        else:
            remedy = (
                "none needed: the best count "
                f"({count.name}) wins {row['units_per_100_hands']:+.4f} "
                "per 100 hands at its best trigger"
            )
        findings.append(
            Finding(
                wager=name,
                method="count",
                beatable=is_beatable,
                player_edge=row["edge_when_betting"],
                per=(
                    f"per unit bet when betting (true count >= "
                    f"{row['trigger']:+d}, {count.name} tags "
                    f"{count.tag_text()}); "
                    f"{row['units_per_100_hands']:+.4f} units per 100 "
                    f"hands, {row['units_per_shoe']:+.4f} per shoe"
                ),
                remedy=remedy,
                ref="D47",
            )
        )
    for name in beatable:
        k = plan.best[name]
        count = plan.counts[k]
        lines += [
            "",
            f"{name}, {count.name} count {count.tag_text()}, every trigger:",
            "",
            "| trigger | bet freq | edge when betting | units / 100 hands "
            "| units / shoe | SD / 100 hands | DI |",
            "| --- " * 7 + "|",
        ]
        lines += [
            f"| {_row_cells(row)} |" for row in trigger_rows(run, k, 0, 15)
        ]
    for name, figures in paytable.items():
        lines += [
            "",
            f"Paytables of {name} (same count, best trigger):",
            "",
            "| change | trigger | units / 100 hands |",
            "| --- | --- | --- |",
        ]
        for setting, row in figures.items():
            won = f"{row['units_per_100_hands']:+.4f}" if row else "no bets"
            trig = f"{row['trigger']:+d}" if row else "-"
            lines.append(f"| {setting} | {trig} | {won} |")
    return [
        Section(
            key="counts",
            title="Card counts",
            data=data,
            markdown="\n".join(lines),
            findings=tuple(findings),
        )
    ]


def _depth_table(
    game: GameModel, plan: _Plan, runs: dict[int, CountRun]
) -> list[str]:
    wagers = list(plan.best)
    lines = [
        "Win rate of each wager's best count against the cut card "
        "(units per 100 hands at the best trigger, 95 % CI):",
        "",
        "| cut card behind | " + " | ".join(wagers) + " |",
        "| --- " * (len(wagers) + 1) + "|",
    ]
    for depth in sorted(runs):
        cells = []
        for k in range(len(wagers)):
            row = best_row(runs[depth], k)
            cells.append(
                f"{row['units_per_100_hands']:+.4f} ± "
                f"{row['units_per_100_hands_ci95']:.4f} "
                f"(TC {row['trigger']:+d})"
                if row
                else "no bets"
            )
        lines.append(
            f"| {_depth_label(game, depth)} | " + " | ".join(cells) + " |"
        )
    return lines


def _paigow_section(wager: str | None, rules: SixCardRules) -> Section:
    wagers = ["pai_gow", "fortune_bonus", "progressive"]
    offered = {
        "pai_gow": True,
        "fortune_bonus": rules.fortune_bonus_offered,
        "progressive": rules.progressive_offered,
    }
    chosen = [w for w in wagers if offered[w] and wager in (None, w)]
    text = (
        "Six-Card Fortune Pai Gow is dealt from one 53-card deck that is "
        "shuffled before every round (670a.9): every round starts from "
        "the full deck, the true count of every count is 0 at every "
        "wager, and a count bets always or never. No count can beat a "
        "wager here; the effects of removal above measure only what one "
        "card known to be out of play is worth (known-card play)."
    )
    return Section(
        key="counts",
        title="Card counts",
        data={"dealt_fresh_each_round": True, "wagers": chosen},
        markdown=text,
        findings=tuple(
            Finding(
                wager=name,
                method="count",
                beatable=False,
                player_edge=0.0,
                per="no count exists (a fresh deck every round)",
                remedy="none needed: the deck is shuffled every round "
                "(670a.9)",
                ref="670a.9",
            )
            for name in chosen
        ),
    )


def _no_count_section(plan: _Plan) -> Section:
    names = ", ".join(plan.tables)
    return Section(
        key="counts",
        title="Card counts",
        data={"wagers": {n: {"counts": []} for n in plan.tables}},
        markdown=(
            f"No count exists for {names}: removing any one card from the "
            "full shoe changes the EV by exactly the same amount (0), so "
            "no tag set correlates with the EoRs. See perfect play."
        ),
    )


_CONVENTIONS = (
    "Conventions (D47): real shoes of the Rules Submission (shuffle, cut, "
    "burn, cut card as the simulator deals them; every wager on the "
    "layout each coup). The counter sees every dealt card and the exposed "
    "first card of a Midibaccarat burn, not the burned cards. True count "
    "= running count / (cards left in the shoe / 52), floored. One unit "
    "is bet when the true count reaches the trigger, nothing otherwise. "
    "Per-hand figures count every coup observed (bet or not); "
    "DI = 1000 x win per hand / SD per hand. Tags: the balanced integer "
    "set of each level most correlated with the exact EoRs (D48); BC = "
    "betting correlation."
)


def perfect_sections(
    game_name: str,
    wager: str | None,
    rules: GameRules,
    settings: ProtectSettings,
) -> list[Section]:
    """The perfect-play section of the pair wagers (point 3)."""
    if not isinstance(rules, BaccaratRules | Baccarat21Rules):
        return []
    game = game_model(rules)
    pairs = [w.name for w in game.wagers if w.pair]
    if wager is not None:
        pairs = [w for w in pairs if w == wager]
    if not pairs:
        return []
    shoes = settings.perfect_shoes
    if isinstance(rules, Baccarat21Rules):
        shoes = max(1, shoes // 10)
    # both hands' wagers have the same EV: one run serves each
    result = perfect_play(
        game, pairs[0], shoes, seed=settings.seed, workers=settings.workers
    )
    behind = settings.behind or (depth_grid(game) if settings.remedies else ())
    depth_rows: dict[int, PerfectRow] = {}
    for depth in sorted({*behind, _behind_default(game)}):
        if depth == _behind_default(game):
            depth_rows[depth] = result
            continue
        depth_rows[depth] = perfect_play(
            game.with_cover(game.size - depth),
            pairs[0],
            shoes,
            seed=settings.seed,
            workers=settings.workers,
        )
    lines = [
        "A player who knows the exact composition of the unseen cards bets "
        "one unit exactly when the next coup's exact EV is positive, "
        "computed at every coup of real shoes (D49). Per wager (one hand); "
        "both hands' wagers have the same EV at every coup.",
        "",
        f"{result['shoes']:,} shoes (seed {settings.seed}), cut card "
        f"{_depth_label(game, _behind_default(game))}:",
        "",
        "| wager | bet freq | bets / shoe | edge when betting | "
        "gain / shoe (exact EVs) | realized / shoe | units / 100 hands |",
        "| --- " * 7 + "|",
    ]
    for name in pairs:
        lines.append(
            f"| {name} | {100 * result['bet_frequency']:.2f} % | "
            f"{result['bets_per_shoe']:.3f} | "
            f"{_pct(result['edge_when_betting'])} | "
            f"{result['gain_per_shoe']:+.4f} ± "
            f"{result['gain_per_shoe_ci95']:.4f} | "
            f"{result['realized_per_shoe']:+.3f} ± "
            f"{result['realized_per_shoe_ci95']:.3f} | "
            f"{result['units_per_100_hands']:+.4f} |"
        )
    if len(depth_rows) > 1:
        lines += [
            "",
            "Against the cut card:",
            "",
            "| cut card behind | bet freq | gain / shoe | units / 100 hands |",
            "| --- | --- | --- | --- |",
        ]
        for depth, row in sorted(depth_rows.items()):
            lines.append(
                f"| {_depth_label(game, depth)} | "
                f"{100 * row['bet_frequency']:.2f} % | "
                f"{row['gain_per_shoe']:+.4f} | "
                f"{row['units_per_100_hands']:+.4f} |"
            )
    gain = result["gain_per_shoe"]
    remedy = _perfect_remedy(game, depth_rows, gain)
    findings = tuple(
        Finding(
            wager=name,
            method="perfect_play",
            beatable=gain > 0,
            player_edge=result["edge_when_betting"],
            per=(
                f"per unit bet when betting; {gain:+.4f} units per shoe, "
                f"{result['units_per_100_hands']:+.4f} per 100 hands "
                "(an upper bound: exact composition known)"
            ),
            remedy=remedy,
            ref="D49",
        )
        for name in pairs
    )
    return [
        Section(
            key="perfect_play",
            title="Perfect play of the pair wagers",
            data={
                "wagers": dict.fromkeys(pairs, result),
                "depths": {str(d): r for d, r in depth_rows.items()},
            },
            markdown="\n".join(lines),
            findings=findings,
        )
    ]


def _perfect_remedy(
    game: GameModel, rows: dict[int, PerfectRow], gain: float
) -> str:
    if gain <= 0:
        return "none needed: the exact EV is never positive in these shoes"
    text = "no count reaches it (it needs the exact composition)"
    deeper = sorted(d for d in rows if d > _behind_default(game))
    for depth in deeper:
        left = rows[depth]["gain_per_shoe"]
        if left <= gain / 10:
            pen = 100 * (1 - depth / game.size)
            return (
                f"{text}; a cut card {depth} cards from the end (at most "
                f"{pen:.1f} % dealt) cuts it to {left:+.4f} per shoe"
            )
    if deeper:
        left = rows[deeper[-1]]["gain_per_shoe"]
        return (
            f"{text}; a cut card {deeper[-1]} cards from the end still "
            f"leaves {left:+.4f} per shoe: lower the top payout"
        )
    return text
