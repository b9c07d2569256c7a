"""A record of a later CHH minor version: what this reader says of it.

Minor versions only add optional fields (docs/hand-history.md). A 1.x
line holding only 1.0's fields is read; one with a field 1.0 does not
know is malformed, and the error says the record's version and the one
this croupier reads, so that a lab knows to upgrade rather than to
reject the vendor's log. A 1.0 line with an unknown field gets the plain
schema error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from croupier.cli import app
from croupier.hhf.sample import sample_histories

runner = CliRunner()


def _line(tmp_path: Path, **changes: Any) -> Path:
    history = next(sample_histories("midibaccarat", 1, seed=3))
    doc = json.loads(history.dumps())
    doc.update(changes)
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(doc) + "\n")
    return path


def test_a_later_minor_version_with_only_known_fields_is_read(
    tmp_path: Path,
) -> None:
    result = runner.invoke(
        app, ["verify", str(_line(tmp_path, version="1.4"))]
    )
    assert result.exit_code == 0, result.output


def test_a_later_minor_versions_new_field_names_both_versions(
    tmp_path: Path,
) -> None:
    path = _line(tmp_path, version="1.4", dealer_id="D-17")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert '"dealer_id" was unexpected' in text
    assert "the record is CHH 1.4 and this croupier reads CHH 1.1" in text


def test_an_unknown_field_at_this_version_is_a_plain_schema_error(
    tmp_path: Path,
) -> None:
    path = _line(tmp_path, dealer_id="D-17")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert '"dealer_id" was unexpected' in text
    assert "this croupier reads" not in text
