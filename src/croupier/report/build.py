"""Assemble a game's math report: every figure, as one JSON document.

:func:`build_report` runs the game's exact analyzer (``croupier
analyze``) and its simulator (``croupier simulate``) on the same rules,
then derives the regulator's figures from them (:mod:`.figures`). The
result is a plain dict: the JSON output, and the only input of the HTML
and PDF renderers, so the documents print nothing the JSON lacks.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypedDict, TypeVar

from croupier.errors import CroupierError
from croupier.jsontypes import JsonObject, JsonValue
from croupier.odds.favour import (
    NEGATIVE_BY_CONSTRUCTION,
    by_construction,
    favourable_play,
    player_favourable,
)
from croupier.odds.registry import find_analyzer, find_simulator
from croupier.odds.report import GameReport, WagerReport
from croupier.odds.simulate import simulate
from croupier.registry import GameSpec
from croupier.report import figures
from croupier.report.summaries import rules_summary
from croupier.rules import GameRules

__all__ = [
    "MAX_SESSION_HOURS",
    "ReportError",
    "ReportSettings",
    "build_report",
    "rules_digest",
    "software_version",
]

SCHEMA = "croupier-math-report/2"
"""Version of the report's JSON shape (docs/reports/README.md, "The
JSON": version 2 made a wager's ``house_edge`` the exact figure wherever
one exists, D143)."""
MAX_SESSION_HOURS = 24 * 365
"""Longest session the risk of ruin is figured for: a year (D123)."""


class ReportError(CroupierError):
    """A report that cannot be made (no analyzer, bad settings...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportSettings:
    """What the report is computed at (all stated in the document)."""

    rounds: int = 1_000_000
    """Rounds of the statistical evaluation (simulation)."""
    seed: int = 1
    """Seed of the simulation's streams."""
    checkpoints: int = 40
    """Points of the convergence plot (the simulation's chunks)."""
    average_wager: int = 2_500
    """Average wager for the operating figures, in minor units."""
    table_maximum: int = 500_000
    """Table maximum, minor units, where the rules fix none."""
    session_hours: float = 4.0
    """Session length for the risk of ruin."""
    date: str | None = None
    """Report date (ISO); ``None``: today (UTC)."""
    workers: int = 1
    """Simulation processes."""

    def check(self) -> None:
        """Refuse settings that make no report."""
        if self.rounds < 1:
            msg = "the simulation needs at least one round"
            raise ReportError(msg)
        if self.checkpoints < 1:
            msg = "the convergence plot needs at least one checkpoint"
            raise ReportError(msg)
        if self.average_wager < 1 or self.table_maximum < 1:
            msg = "wagers and table maximum must be positive"
            raise ReportError(msg)
        if not 0 < self.session_hours <= MAX_SESSION_HOURS:
            msg = (
                f"the session must last more than 0 and at most "
                f"{MAX_SESSION_HOURS:,} hours"
            )
            raise ReportError(msg)


def software_version() -> str:
    """The installed croupier's version."""
    try:
        return version("croupier")
    except PackageNotFoundError:  # pragma: no cover - always installed
        return "unknown"


def rules_digest(rules: GameRules) -> str:
    """SHA-256 of the rules' canonical JSON (sorted keys, no spaces).

    Two Rules Submissions with the same options have the same digest.
    """
    text = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _title(name: str) -> str:
    """``perfect_pairs_player`` -> ``Perfect pairs player``."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def _options(spec: GameSpec, rules: GameRules) -> list[dict[str, object]]:
    values = rules.to_dict()
    return [
        {
            "name": info.name,
            "value": values[info.name],
            "default": info.default,
            "changed": values[info.name] != info.default,
            "provenance": info.provenance.value,
            "decision": info.decision,
            "ref": info.ref,
            "meaning": info.doc,
        }
        for info in spec.rules_type.options()
    ]


ReportRow = TypedDict(
    "ReportRow",
    {
        "event": str,
        "pays": str,
        "combinations": int | None,
        "probability": float,
        "true_odds": str,
        "net": float | None,
        "return": float,
        "one_in": float | None,
        "gli_rare": bool,
    },
)
"""One row of a wager's return table as the report prints it (a
functional TypedDict: ``return`` is a keyword)."""


def _row(row: Mapping[str, Any]) -> ReportRow:
    p = float(row["probability"])
    ret = float(row["return"])
    # The net per unit, rounded off the float noise of return / p.
    net = round(ret / p, 9) if p > 0 else None
    n = figures.one_in(p)
    award = net is not None and net > 0
    return {
        "event": str(row["event"]),
        "pays": str(row.get("pays", "")),
        "combinations": row.get("combinations"),
        "probability": p,
        "true_odds": figures.true_odds(p),
        "net": net,
        "return": ret,
        "one_in": n if award else None,
        "gli_rare": bool(award and n is not None and n > figures.GLI_RAREST),
    }


_PUSH = re.compile(r"push|tie|equal", re.IGNORECASE)


def _as_float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _won(row: Mapping[str, object]) -> bool:
    net = row["net"]
    return isinstance(net, int | float) and net > 0


def _observed_push(rows: list[ReportRow]) -> float:
    """Rows of net 0 named as a push or tie (in event or pays)."""
    return sum(
        float(r["probability"])
        for r in rows
        if r["net"] == 0 and _PUSH.search(f"{r['event']} {r['pays']}")
    )


_T = TypeVar("_T")


def _float(value: float | None) -> float | None:
    """A figure as a float, or ``None``."""
    return None if value is None else float(value)


_NUMBER = (int, float)
"""The types of a figure read as a number."""


def _find_exact(
    extra: Mapping[str, object],
    key: str,
    kind: type[_T] | tuple[type[_T], ...],
) -> _T | None:
    """A game-level exact figure ``key`` of type ``kind`` in the extra.

    The analyzer nests its game-level figures; the first ``key`` found
    whose value is a ``kind`` is the figure (a number, or an exact
    fraction's text).

    >>> figures = {"a": {"edge": 0.5, "edge_exact": "1/2"}}
    >>> _find_exact(figures, "edge", _NUMBER)
    0.5
    >>> _find_exact(figures, "edge_exact", str)
    '1/2'
    """
    for name, value in extra.items():
        if name == key and isinstance(value, kind):
            return value
        if isinstance(value, Mapping):
            found = _find_exact(value, key, kind)
            if found is not None:
                return found
    return None


SIMULATED_LABELS: dict[str, str] = {
    "house_edge": "house edge",
    "rows": "return table",
    "std_dev": "standard deviation",
    "push_frequency": "push frequency",
    "hit_frequency": "hit frequency",
    "house_edge_excluding_ties": "house edge excluding pushes",
    "max_payout_units": "largest payout",
    "operating": "volatility index and risk of ruin",
}
"""The fields a wager's ``simulated_figures`` may name, as printed."""


def _simulated_fields(
    *, table: bool, edge: bool, observed: list[str], top_analysed: bool
) -> list[str]:
    """The wager's fields that come from the simulation (D143).

    ``table``: its return table, and so every figure read from it, is
    the simulation's; ``edge``: its house edge too (no exact figure);
    ``observed``: the frequencies an exact analysis lacked;
    ``top_analysed``: the largest payout is the analysis's (D135, D176).
    """
    if table:
        names = ["rows", "std_dev", "push_frequency", "hit_frequency"]
        names += ["house_edge_excluding_ties"]
        names += [] if top_analysed else ["max_payout_units"]
        names += ["operating"]
        return (["house_edge"] if edge else []) + names
    out = [name.replace(" ", "_") for name in observed]
    if "push_frequency" in out:
        out.append("house_edge_excluding_ties")
    return out


def _game_cycle(wager: WagerReport) -> int | None:
    counts = [row.get("combinations") for row in wager.events]
    whole = [c for c in counts if isinstance(c, int)]
    if counts and len(whole) == len(counts):
        return sum(whole)
    return None


def _max_payout(rows: list[ReportRow]) -> float | None:
    """The largest net a row pays; a row's average net is none (D135)."""
    nets = [
        r["net"]
        for r in rows
        if r["net"] is not None and not str(r["pays"]).startswith("avg")
    ]
    return max(nets) if nets and max(nets) > 0 else None


def _operating(
    house_edge: float,
    std_dev: float,
    stake: int,
    pace: figures.PacePerHour,
    hours: float,
) -> dict[str, object]:
    rounds = pace.decisions * hours
    ruin = {}
    for risk in (0.01, 0.05):
        units = figures.units_for_ruin(risk, -house_edge, std_dev, rounds)
        ruin[f"{round(100 * risk)}%"] = {
            "units": units,
            "amount": math.ceil(units * stake),
        }
    return {
        "wager": stake,
        "decisions_per_hour": pace.decisions,
        "theoretical_win_per_hour": house_edge * stake * pace.decisions,
        "volatility_index": figures.volatility_index(std_dev),
        "session_hours": hours,
        "session_rounds": rounds,
        "ruin": ruin,
    }


STRATEGY_NAMES: dict[str, str] = {
    "CDZ-": (
        "CDZ-: every decision from the hand's own cards and the up card, "
        "a split hand playing the pre-split strategy of its cards"
    ),
}
"""What an analyzer's strategy name stands for, as the report says it."""


def _strategies(extra: Mapping[str, object]) -> dict[str, object] | None:
    """Which strategy the exact figure and the simulation each play (D145).

    ``None`` where the analysis names no simulator strategy of its own
    (the games without player decisions: both are the same rules).
    """
    played = extra.get("simulator_strategy")
    exact = extra.get("strategy")
    if not isinstance(played, Mapping) or not isinstance(exact, str):
        return None
    gap = _as_float(played.get("error_vs_exact"))
    return {
        "exact": STRATEGY_NAMES.get(exact, exact),
        "simulated": str(played.get("description", "")),
        "expected_difference": gap,
        "note": (
            "the two figures differ by the difference between the two "
            "strategies as well as by chance"
            + (
                ""
                if gap is None
                else (
                    " (the analyzer's own, approximate, figure for the "
                    f"simulator's tables puts it at {100 * gap:+.4f} points)"
                )
            )
            + ": the z-score tests both together"
        ),
    }


def _simulated_figures(
    sim: WagerReport,
    exact: float | None,
    running: list[list[float]],
    strategies: dict[str, object] | None = None,
) -> dict[str, object]:
    if sim.ci95 is None:  # pragma: no cover - simulations carry a CI
        msg = "a simulated wager without a confidence interval"
        raise ReportError(msg)
    half = (sim.ci95[1] - sim.ci95[0]) / 2
    out: dict[str, object] = {
        "rounds": sim.extra.get("rounds"),
        "house_edge": sim.house_edge,
        "std_dev": sim.std_dev,
        "ci95": list(sim.ci95),
        "ci95_half_width": half,
        "running": running,
    }
    if exact is not None:
        z = figures.z_score(sim.house_edge, exact, half)
        out.update(
            exact=exact,
            difference=sim.house_edge - exact,
            z=z,
            inside_ci=bool(sim.ci95[0] <= exact <= sim.ci95[1]),
            cut_card_effect_shows=bool(abs(z) > 1.96),
        )
        if strategies is not None:
            out["strategies"] = strategies
    return out


class AverageStakeResult(TypedDict):
    """The mean stake per initial unit of a wager that can grow."""

    mean: float
    ci95_half_width: float
    rounds: int
    per_round: dict[str, float]


AverageStake = Callable[[GameRules, int, int], AverageStakeResult]
"""``(rules, rounds, seed) ->`` the mean stake per initial unit
(``mean``), its 95 % half-width (``ci95_half_width``), ``rounds`` and the
mean count per round of each growing decision (``per_round``)."""


def _dbj_average_stake(
    rules: GameRules, rounds: int, seed: int
) -> AverageStakeResult:
    """Units on the layout per initial unit in Double Back Jack.

    Rounds are played by the simulation kernel with the analyzer's
    strategy from freshly shuffled shoes; each double and split adds one
    unit, a Second Chance Wager one unit, insurance half a unit.
    """
    import numpy as np

    from croupier.games.double_back_jack.rules import DoubleBackJackRules
    from croupier.odds.double_back_jack.simulation import (
        DECISION_NAMES,
        RoundPlayer,
    )

    if not isinstance(rules, DoubleBackJackRules):  # pragma: no cover
        msg = "not Double Back Jack rules"
        raise ReportError(msg)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    shoe = np.tile(np.arange(52, dtype=np.int64), rules.decks)
    units = {"double": 1.0, "split": 1.0, "second_chance": 1.0}
    units["insurance"] = 0.5
    counts = dict.fromkeys(units, 0)
    # by the kernel's decision code: the name and the units it adds
    growth = {
        code: (name, units[name])
        for code, name in enumerate(DECISION_NAMES)
        if name in units
    }
    player = RoundPlayer(rules)
    total = 0.0
    total_sq = 0.0
    for _ in range(rounds):
        rng.shuffle(shoe)
        player.play(shoe[:40])
        stake = 1.0
        for code in player.decision_codes().tolist():
            grows = growth.get(code)
            if grows is not None:
                stake += grows[1]
                counts[grows[0]] += 1
        total += stake
        total_sq += stake * stake
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0)
    return {
        "mean": mean,
        "ci95_half_width": 1.959963984540054 * math.sqrt(var / rounds),
        "rounds": rounds,
        "per_round": {k: v / rounds for k, v in counts.items()},
    }


GROWING: dict[str, tuple[str, AverageStake]] = {
    "double-back-jack": (
        "blackjack",
        _dbj_average_stake,
    ),
}
"""Wagers that can grow (doubles, splits, Second Chance), per game."""

UNMEASURED_GROWTH: dict[tuple[str, str], tuple[str, str]] = {
    ("six-card-fortune-pai-gow", "pai_gow"): (
        "double_down_offered",
        "the wager can grow by a Double Down Wager (670a.7(e)(1)), which the "
        "simulation does not play: the figures are those of the Six-Card "
        "Wager alone and its element of risk is not measured",
    ),
}
"""Wagers that can grow where the growth is not measured: the option
that lets them grow (pai gow's Double Down is off by default, D182) and
why it is not measured."""


def _growth_note(spec: GameSpec, rules: GameRules, wager: str) -> str | None:
    """Why ``wager``'s growth is unmeasured, where these rules let it grow.

    :data:`UNMEASURED_GROWTH` names the option and the reason.
    """
    found = UNMEASURED_GROWTH.get((spec.name, wager))
    if found is None or not getattr(rules, found[0], False):
        return None
    return found[1]


def _element_of_risk(
    spec: GameSpec,
    rules: GameRules,
    wager: str,
    house_edge: float,
    extra: Mapping[str, object],
    settings: ReportSettings,
) -> dict[str, object] | None:
    given = extra.get("average_stake")
    if isinstance(given, int | float) and given > 0:
        return {
            "value": figures.element_of_risk(house_edge, float(given)),
            "average_stake": float(given),
            "method": "exact (analyzer)",
        }
    grows = GROWING.get(spec.name)
    if grows is None or grows[0] != wager:
        return None
    rounds = max(2_000, min(settings.rounds, 200_000))
    stake = grows[1](rules, rounds, settings.seed)
    mean = float(stake["mean"])
    played = int(stake["rounds"])
    return {
        "value": figures.element_of_risk(house_edge, mean),
        "average_stake": mean,
        "average_stake_ci95_half_width": stake["ci95_half_width"],
        "rounds": played,
        "per_round": stake["per_round"],
        "method": (
            f"average stake estimated from {played:,} rounds played with "
            "the analyzer's strategy (fresh shoes); doubles, splits and "
            "Second Chance add one unit, insurance half a unit"
        ),
    }


def _notes(extra: Mapping[str, object]) -> list[str]:
    return [
        f"{_title(k)}: {v}"
        for k, v in extra.items()
        if isinstance(v, str) and k not in ("pays",)
    ]


def _stake(extra: Mapping[str, object], settings: ReportSettings) -> int:
    fixed = extra.get("stake")
    return int(fixed) if isinstance(fixed, int) else settings.average_wager


@dataclass(frozen=True, slots=True, kw_only=True)
class _Context:
    """What every wager's figures are computed against."""

    spec: GameSpec
    rules: GameRules
    settings: ReportSettings
    analysis: GameReport | None
    running: dict[str, list[list[float]]]
    table_maximum: int
    pace: figures.PacePerHour


def _wager(
    name: str,
    exact: WagerReport | None,
    sim: WagerReport | None,
    context: _Context,
) -> dict[str, object]:
    spec = context.spec
    rules = context.rules
    settings = context.settings
    analysis = context.analysis
    running = context.running
    source = exact if exact is not None else sim
    if source is None:  # pragma: no cover - one of them exists
        msg = f"no figures for {name}"
        raise ReportError(msg)
    game_extra = analysis.extra if analysis is not None else {}
    rows = [_row(r) for r in source.events]
    sim_rows = [_row(r) for r in sim.events] if sim is not None else []
    push: float | None = _as_float(source.extra.get("push_frequency"))
    hit: float | None = _as_float(source.extra.get("hit_frequency"))
    observed = []
    if (push is None or hit is None) and sim_rows:
        # The analyzer gives none: observed in the simulation, so said.
        if push is None:
            push = _observed_push(sim_rows)
            observed.append("push frequency")
        if hit is None:
            hit = sum(r["probability"] for r in sim_rows if _won(r))
            observed.append("hit frequency")
    stake = _stake(source.extra, settings)
    table_max = context.table_maximum
    # The largest net in the exact table, or seen in the simulation (an
    # exact table may group outcomes, as a DBJ "played out" row does).
    top = _max_payout(rows + sim_rows)
    given_top = source.extra.get("max_payout_units")
    if given_top is None:
        # a game-level figure: pai gow's Fortune Bonus with Envy, whose
        # simulated table averages its "net win" row
        given_top = _find_exact(
            game_extra, f"{name}_max_payout_units", _NUMBER
        )
    analysed = (
        float(given_top)
        if isinstance(given_top, int | float) and given_top > 0
        else None
    )
    if analysed is not None:
        # the analyzer's, from the rules, where the table groups
        # outcomes (a Double Back Jack split box, D135)
        top = analysed
    exact_edge = (
        exact.house_edge
        if exact is not None
        else _float(_find_exact(game_extra, f"{name}_house_edge", _NUMBER))
    )
    exact_text = (
        str(exact.house_edge_exact)
        if exact is not None and exact.house_edge_exact is not None
        else (
            None
            if exact is not None
            else _find_exact(game_extra, f"{name}_house_edge_exact", str)
        )
    )
    # The headline edge is the exact one wherever the analysis has it,
    # a figure without a table included (D143); the simulation's
    # estimate stays in "simulation" with its interval and z-score.
    edge = exact_edge if exact_edge is not None else source.house_edge
    out: dict[str, object] = {
        "name": name,
        "title": _title(name),
        "method": "exact" if exact is not None else "simulation",
        "label": (
            "exact analysis"
            if exact is not None
            else (
                f"house edge exact (analysis); the return table and the "
                f"other figures from a simulation of {settings.rounds:,} "
                "rounds, with its sampling error"
                if exact_edge is not None
                else f"from a simulation of {settings.rounds:,} rounds "
                "(not enumerated here); every figure carries its "
                "sampling error"
            )
        ),
        "house_edge": edge,
        "house_edge_method": "exact"
        if exact_edge is not None
        else ("simulation"),
        "house_edge_source": (
            "the exact return table"
            if exact is not None
            else (
                "the exact analysis (a figure without a return table)"
                if exact_edge is not None
                else "the simulation"
            )
        ),
        "house_edge_exact": exact_text,
        "house_edge_ci95": (
            list(source.ci95) if source.ci95 and exact_edge is None else None
        ),
        "house_edge_excluding_ties": figures.edge_excluding_ties(
            edge, push or 0.0
        ),
        "observed_in_simulation": observed,
        "simulated_figures": _simulated_fields(
            table=exact is None,
            edge=exact_edge is None,
            observed=observed,
            top_analysed=analysed is not None,
        ),
        "push_frequency": push,
        "hit_frequency": hit,
        "std_dev": source.std_dev,
        "element_of_risk": _element_of_risk(
            spec, rules, name, edge, source.extra, settings
        ),
        "growth_note": _growth_note(spec, rules, name),
        "max_payout_units": top,
        "stake": stake,
        "stake_fixed": "stake" in source.extra,
        "max_payout_at_table_maximum": (
            None
            if top is None
            else math.floor(
                top * (stake if "stake" in source.extra else table_max)
            )
        ),
        "game_cycle": _game_cycle(source),
        "rows": rows,
        # The simulation's own outcome table, where it tells more than
        # the exact one (an exact table that groups outcomes).
        "observed_rows": (
            sim_rows if exact is not None and len(sim_rows) > len(rows) else []
        ),
        "gli_rare_awards": [r["event"] for r in rows if r["gli_rare"]],
        "notes": _notes(source.extra),
        "operating": _operating(
            edge,
            source.std_dev,
            stake,
            context.pace,
            settings.session_hours,
        ),
        "simulation": (
            None
            if sim is None
            else _simulated_figures(
                sim,
                exact_edge,
                running.get(name, []),
                _strategies(game_extra),
            )
        ),
        "negative_by_construction": (
            None
            if (why := NEGATIVE_BY_CONSTRUCTION.get((spec.name, name))) is None
            else {"judged_as": why[0], "why": why[1]}
        ),
    }
    return out


def _checkpoint_chunk(settings: ReportSettings) -> int:
    return max(1, math.ceil(settings.rounds / settings.checkpoints))


def _shoe_text(spec: GameSpec, rules: GameRules) -> str:
    values = rules.to_dict()
    decks = values.get("decks")
    parts = []
    if spec.reshuffle_every_round:
        parts.append("a freshly shuffled deck every round")
    elif decks:
        parts.append(f"{decks}-deck shoes, shuffled and cut")
    if "penetration" in values:
        parts.append(f"cut card at {values['penetration']} of the shoe")
    if "second_cover_from_bottom" in values:
        parts.append(
            "second cover card "
            f"{values['second_cover_from_bottom']} cards from the bottom"
        )
    return ", ".join(parts) or "shoes dealt as the rules prescribe"


def _strategy_chart(spec: GameSpec, rules: GameRules) -> dict[str, object]:
    """The Double Back Jack strategy chart, as the report prints it."""
    if spec.name != "double-back-jack":
        return {}
    from croupier.games.double_back_jack.rules import DoubleBackJackRules
    from croupier.odds.double_back_jack import strategy_chart

    if not isinstance(rules, DoubleBackJackRules):  # pragma: no cover
        return {}
    chart = strategy_chart(rules).to_dict()
    later = chart.get("after_first_decision", {})
    sections = [
        ("First decision (two cards)", chart.get("first_decision", {})),
        ("Second Chance (busted total)", chart.get("second_chance", {})),
        ("Later decisions, hard total", later.get("hard", {})),
        ("Later decisions, soft total", later.get("soft", {})),
    ]
    sections = [(title, rows) for title, rows in sections if rows]
    first_rows = next(iter(sections[0][1].values())) if sections else {}
    return {
        "house_edge": chart.get("house_edge"),
        "legend": chart.get("legend", {}),
        "insurance": chart.get("insurance", []),
        "ups": list(first_rows),
        "sections": sections,
    }


def build_report(
    spec: GameSpec,
    rules: GameRules,
    settings: ReportSettings | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Every figure of the game's math report, as a JSON-able dict."""
    settings = settings or ReportSettings()
    settings.check()
    analyzer = find_analyzer(spec.name)
    simulator = find_simulator(spec.name)
    if analyzer is None and simulator is None:
        msg = f"no analysis or simulation for {spec.name}"
        raise ReportError(msg)
    analysis = analyzer(rules) if analyzer is not None else None
    sim_report: GameReport | None = None
    if simulator is not None:
        sim_report = simulate(
            spec.name,
            simulator,
            rules,
            rounds=settings.rounds,
            seed=settings.seed,
            workers=settings.workers,
            chunk_rounds=_checkpoint_chunk(settings),
            progress=progress,
        )
    values = rules.to_dict()
    rules_max = values.get("table_maximum")
    table_max = (
        int(rules_max)
        if isinstance(rules_max, int)
        else settings.table_maximum
    )
    pace = figures.DECISIONS_PER_HOUR.get(
        spec.name, figures.PacePerHour(60, "table game", "assumed")
    )
    running: dict[str, list[list[float]]] = (
        sim_report.extra.get("running", {}) if sim_report else {}
    )
    context = _Context(
        spec=spec,
        rules=rules,
        settings=settings,
        analysis=analysis,
        running=running,
        table_maximum=table_max,
        pace=pace,
    )
    exact_wagers = analysis.wagers if analysis is not None else {}
    sim_wagers = sim_report.wagers if sim_report is not None else {}
    order = list(exact_wagers) + [
        w for w in sim_wagers if w not in exact_wagers
    ]
    wagers = [
        _wager(name, exact_wagers.get(name), sim_wagers.get(name), context)
        for name in order
    ]
    edges = {
        str(w["name"]): float(w["house_edge"])
        for w in wagers
        if isinstance(w["house_edge"], int | float)
    }
    estimated = frozenset(
        str(w["name"]) for w in wagers if w["house_edge_method"] != "exact"
    )
    date = settings.date or datetime.now(UTC).date().isoformat()
    game_extra = {
        k: v
        for k, v in (analysis.extra if analysis else {}).items()
        if isinstance(v, int | float | str) and not k.endswith("seconds")
    }
    return _plain_object(
        {
            "schema": SCHEMA,
            "title": f"{spec.title}: mathematics of the game",
            "game": spec.name,
            "game_title": spec.title,
            "section": spec.section,
            "sections": list(spec.sections or (spec.section,)),
            "citation": f"58 Pa. Code {spec.citation}",
            "date": date,
            "software": {"name": "croupier", "version": software_version()},
            "rules_digest": rules_digest(rules),
            "summary": rules_summary(spec.name, rules),
            "options": _options(spec, rules),
            "rules": values,
            "settings": {
                "rounds": settings.rounds,
                "seed": settings.seed,
                "chunk_rounds": _checkpoint_chunk(settings),
                "average_wager": settings.average_wager,
                "table_maximum": table_max,
                "table_maximum_source": (
                    "rules option table_maximum"
                    if isinstance(rules_max, int)
                    else "stated for this report"
                ),
                "session_hours": settings.session_hours,
            },
            "pace": {
                "decisions_per_hour": pace.decisions,
                "basis": pace.basis,
                "source": pace.source,
            },
            "simulation": None
            if sim_report is None
            else {
                "rounds": sim_report.rounds,
                "seed": settings.seed,
                "chunk_rounds": _checkpoint_chunk(settings),
                "shoes": _shoe_text(spec, rules),
                # a deck shuffled every round has no cut card: a large z
                # is chance or a fault, never the cut-card effect
                "cut_card": not spec.reshuffle_every_round,
                "seconds": sim_report.seconds,
            },
            "analysis": {
                "method": analysis.method if analysis else None,
                "figures": game_extra,
            },
            "wagers": wagers,
            # D146: wagers the rules in force make favour the player
            "player_favourable": [
                *player_favourable(spec.name, edges, simulated=estimated),
                *favourable_play(analysis.extra if analysis else {}),
            ],
            "negative_by_construction": by_construction(spec.name, edges),
            "strategy_chart": _strategy_chart(spec, rules),
            "gli_rarest": figures.GLI_RAREST,
            "volatility_z": figures.VOLATILITY_Z,
        }
    )


def _plain_object(value: Mapping[str, object]) -> JsonObject:
    """A JSON object of JSON types only (see :func:`_plain`)."""
    return {str(k): _plain(v) for k, v in value.items()}


def _plain(value: object) -> JsonValue:
    """JSON types only: numpy scalars (an analyzer's) become Python's."""
    if isinstance(value, dict):
        return _plain_object(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    item = getattr(value, "item", None)
    if callable(item):
        scalar: JsonValue = item()
        return scalar
    return str(value)
