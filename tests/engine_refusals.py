"""An engine's refusal as the tests hold it: the error raised, the words
a player reads (its ``message``) and, where the test names it, the
subsection that forbids what was tried (its ``ref``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

    from croupier.errors import CroupierError


def refuses(
    error: type[CroupierError],
    message: str,
    call: Callable[[], object],
    *,
    ref: str | None = None,
) -> None:
    """``call()`` raises ``error`` whose message is ``message`` (the words
    alone, without the ``[ref]`` that ``str()`` adds) and, when ``ref`` is
    given, whose ``ref`` is written ``ref``."""
    with pytest.raises(error) as info:
        call()
    assert info.value.message == message, (info.value.message, message)
    if ref is not None:
        assert str(info.value.ref) == ref, (str(info.value.ref), ref)
