"""The math report of a game: ``croupier report`` (issue 15 point 2).

A submission-style document (the shape New Jersey, Maryland and Nevada
submissions share: N.J.A.C. 13:69F-8.4, COMAR 36.05.03.20, Nevada
Regulation 14.230): the game and its Rules Submission, per wager the
return table and the regulator's figures, a statistical evaluation by
simulation, operating figures and plots.

* :mod:`.figures` - the figures derived here (true odds, element of
  risk, risk of ruin...);
* :mod:`.build` - every figure as one JSON document;
* :mod:`.plots` - the pictures (SVG, matplotlib);
* :mod:`.render` - HTML (jinja2) and PDF (WeasyPrint) from the JSON.
"""

from __future__ import annotations

from croupier.report.build import (
    ReportError,
    ReportSettings,
    build_report,
    rules_digest,
)

__all__ = ["ReportError", "ReportSettings", "build_report", "rules_digest"]
