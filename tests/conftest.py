"""The ``proves`` marker: the subsection(s) of 58 Pa. Code a test proves.

``@pytest.mark.proves("591.7(l)(2)")`` is what ``croupier regs coverage``
counts (see :mod:`croupier.coverage`). Each reference is checked at
collection: a paragraph a seed section does not have, or a section this
project does not cite, stops the run instead of covering nothing.
"""

from __future__ import annotations

import pytest

from croupier.coverage import PROVES, ProofError, check_proof


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Refuse a ``proves`` marker that names an unknown paragraph."""
    del config
    for item in items:
        for marker in item.iter_markers(PROVES):
            if marker.kwargs or not marker.args:
                msg = f"{item.nodeid}: proves() takes references only"
                raise pytest.UsageError(msg)
            for raw in marker.args:
                try:
                    check_proof(raw)
                except ProofError as exc:
                    msg = f"{item.nodeid}: {exc}"
                    raise pytest.UsageError(msg) from None
