"""HTML (jinja2) and PDF (WeasyPrint) documents from a report's JSON.

The template (``templates/report.html.j2``) lays out a title page, a
table of contents, the sections and the method; its print stylesheet
(``templates/report.css``) sets A4 pages with running page numbers and
contents page references, which WeasyPrint lays out. The renderer
reads only the report dict: it prints nothing that the JSON lacks.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from croupier.extras import require
from croupier.report import plots
from croupier.report.build import SIMULATED_LABELS

if TYPE_CHECKING:
    from jinja2 import Environment, PackageLoader

__all__ = ["render_html", "render_pdf"]


def _percent(value: float | None, places: int = 4) -> str:
    """``0.010579`` -> ``1.0579 %``.

    >>> _percent(0.0105791), _percent(None)
    ('1.0579 %', '–')
    """
    if value is None:
        return "–"
    return f"{100 * value:.{places}f} %"


def _number(value: float | None, places: int = 4) -> str:
    """A plain figure with thousands separators.

    >>> _number(1234.56789), _number(None), _number(7, 0)
    ('1,234.5679', '–', '7')
    """
    if value is None:
        return "–"
    if isinstance(value, float) and not math.isfinite(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:,.{places}f}"


def _count(value: int | None) -> str:
    """``4998398275503360`` -> ``4,998,398,275,503,360``."""
    return "–" if value is None else f"{int(value):,}"


def _probability(value: float) -> str:
    """Six significant digits, scientific when small.

    >>> _probability(0.458597422632763), _probability(2.09e-06)
    ('0.458597', '2.09000e-06')
    """
    if value == 0:
        return "0"
    if value < 1e-4:
        return f"{value:.5e}"
    return f"{value:.6f}"


def _money(cents: float | None) -> str:
    """Minor units as dollars.

    >>> _money(150050), _money(-5), _money(None)
    ('$1,500.50', '-$0.05', '–')
    """
    if cents is None:
        return "–"
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def _value(value: object) -> str:
    """An option's value as written in a Rules Submission."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _environment() -> tuple[Environment, PackageLoader]:
    """The report's templates and the loader of its package files."""
    require("report", "the math report")
    from jinja2 import Environment, PackageLoader, StrictUndefined

    loader = PackageLoader("croupier.report", "templates")
    env = Environment(
        loader=loader,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        percent=_percent,
        number=_number,
        count=_count,
        probability=_probability,
        money=_money,
        value=_value,
    )
    return env, loader


def _pictures(report: dict[str, Any]) -> dict[str, dict[str, str | None]]:
    sim = report.get("simulation") or {}
    subtitle = (
        f"{sim.get('rounds', 0):,} rounds, seed {sim.get('seed')}, "
        f"rules {report['rules_digest'][7:19]}"
    )
    return {
        wager["name"]: {
            "distribution": plots.distribution_svg(wager),
            "convergence": plots.convergence_svg(wager, subtitle),
        }
        for wager in report["wagers"]
    }


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained HTML document (SVG inline)."""
    from markupsafe import Markup

    env, loader = _environment()
    css = loader.get_source(env, "report.css")[0]
    # The SVG comes from matplotlib and the CSS from this package: both
    # are ours, so they go in unescaped.
    pictures = {
        name: {
            k: Markup(v) if v else None  # noqa: S704
            for k, v in pics.items()
        }
        for name, pics in _pictures(report).items()
    }
    template = env.get_template("report.html.j2")
    style = Markup(css)  # noqa: S704
    return str(
        template.render(
            r=report,
            pictures=pictures,
            css=style,
            simulated_labels=SIMULATED_LABELS,
        )
    )


def render_pdf(html: str) -> bytes:
    """The HTML document laid out on A4 pages by WeasyPrint."""
    require("report", "the PDF math report")
    from weasyprint import HTML

    document = HTML(string=html).render()
    return bytes(document.write_pdf())
