"""Rules Submission templates and option references, from the options.

``croupier rules GAME --toml`` writes a complete, commented Rules
Submission file for a game: every option with its value, provenance,
decision and meaning, ready for a casino to edit and load back with
``--rules``. ``--markdown`` writes the same as a reference table
(``docs/options.md`` is generated this way).
"""

from __future__ import annotations

import json

import tomli_w

from croupier.registry import GameSpec
from croupier.rules import GameRules

__all__ = ["options_markdown", "submission_toml"]


def _source(spec: GameSpec, name: str) -> tuple[str, str, str]:
    for info in spec.rules_type.options():
        if info.name == name:
            source = info.provenance.value
            if info.decision:
                source += f" ({info.decision})"
            return source, info.ref or "", info.doc
    raise KeyError(name)  # pragma: no cover - names come from the rules


def submission_toml(spec: GameSpec, rules: GameRules) -> str:
    """A commented Rules Submission file holding every option of ``rules``.

    >>> from croupier.registry import find_game
    >>> game = find_game("21-baccarat")
    >>> text = submission_toml(game, game.rules_type())
    >>> "tie_payout = " in text and text.startswith("# Rules Submission")
    True
    """
    values = rules.to_dict()
    scalars = {k: v for k, v in values.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in values.items() if isinstance(v, dict)}
    lines = [
        f"# Rules Submission: {spec.title} (58 Pa. Code {spec.citation})",
        "# Every option with its value; the comment above each gives its",
        "# provenance (REG, INFER or ASSUMED, with the project decision)",
        "# and meaning. Load it with: croupier ... --rules THIS_FILE",
        "",
        "[rules]",
    ]
    for name, value in [*scalars.items(), *tables.items()]:
        source, ref, doc = _source(spec, name)
        where = f" § {ref}" if ref else ""
        lines.append(f"# {doc} [{source}{where}]")
        if isinstance(value, dict):
            body = tomli_w.dumps({"rules": {name: value}}).strip()
            lines.append(body)
        else:
            lines.append(tomli_w.dumps({name: value}).strip())
        lines.append("")
    return "\n".join(lines)


_FIXED = (
    " Fixed by the regulation: another value is a what-if for analysis, "
    "and `croupier verify` finds a round under it non-conforming."
)
"""What an option the regulation fixes adds to its meaning."""


def options_markdown(spec: GameSpec) -> str:
    """A Markdown table of the game's options and their defaults."""
    rows = [
        f"## {spec.title} (`{spec.name}`, {spec.citation})",
        "",
        "| option | default | source | § | meaning |",
        "| --- | --- | --- | --- | --- |",
    ]
    for info in spec.rules_type.options():
        source = info.provenance.value
        if info.decision:
            source += f" {info.decision}"
        default = json.dumps(info.default).replace("|", "\\|")
        doc = info.doc + (_FIXED if info.fixed else "")
        rows.append(
            f"| `{info.name}` | `{default}` | {source} "
            f"| {info.ref or info.house_rule or ''} "
            f"| {doc} |"
        )
    return "\n".join(rows) + "\n"
