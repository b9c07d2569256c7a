"""The croupier hand history (CHH): an open format for table-game rounds.

:mod:`.format` holds the record, its JSON Schema (shipped as
``chh-1.1.schema.json``), reading and writing; :mod:`.export` writes a
table server's stored rounds. ``docs/hand-history.md`` documents it.
"""

from __future__ import annotations

from .format import (
    FORMAT,
    VERSION,
    HandHistory,
    HistoryFormatError,
    PlayerEntry,
    ShoeState,
    from_record,
    from_scenario,
    inputs_of,
    read_history,
    rules_digest,
    schema,
    validate,
    write_history,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "HandHistory",
    "HistoryFormatError",
    "PlayerEntry",
    "ShoeState",
    "from_record",
    "from_scenario",
    "inputs_of",
    "read_history",
    "rules_digest",
    "schema",
    "validate",
    "write_history",
]
