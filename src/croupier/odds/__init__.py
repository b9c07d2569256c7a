"""Game mathematics: exact analysis and Monte Carlo simulation.

Named ``odds`` rather than ``math`` so that it never shadows the standard
library. Each game registers an exact analyzer and/or a simulator in
:mod:`croupier.odds.registry`; the reports share one shape
(:mod:`croupier.odds.report`), the JSON contract of ``croupier analyze``
and ``croupier simulate``.
"""
