"""Pure hand evaluators, no state: totals, points, poker ranks."""
