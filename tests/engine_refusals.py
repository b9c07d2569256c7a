"""An engine's refusal as the tests hold it: the error raised, the words
a player reads (its ``message``) and, where the test names it, the
subsection that forbids what was tried (its ``ref``)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import pytest

from croupier.errors import CroupierError
from croupier.rng import SeededRng
from croupier.round import Action, GameRound
from croupier.table import Table

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Iterable

    from croupier.registry import GameSpec
    from croupier.round import Round
    from croupier.rules import GameRules


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


def messages_of(attempts: Iterable[Callable[[], object]]) -> list[str]:
    """The words of each refusal the ``attempts`` meet, in order (an
    attempt that succeeds says nothing)."""
    said = []
    for attempt in attempts:
        try:
            attempt()
        except CroupierError as exc:
            said.append(exc.message)
    return said


def refusals_in_rounds(
    spec: GameSpec,
    rules: GameRules,
    rounds: int,
    *,
    seed: int,
    chooser: random.Random,
    stake: Callable[[str], int],
    said: Callable[[Round, str], list[str]],
) -> list[str]:
    """The refusals ``said`` meets in ``rounds`` rounds of two seats.

    Each round: every wager of the game at seats 1 and 2 (of ``stake``
    for its name; one refused is left off), then ``said(rnd, stage)``
    after the wagers (``"wagers"``), after the deal and each decision
    (``"play"``; a decision drawn by ``chooser`` among the legal ones)
    and once the round is over (``"over"``), on a table seeded ``seed``.
    """
    table = Table(spec, rules, rng=SeededRng(seed))
    met: list[str] = []
    for _ in range(rounds):
        rnd = table.new_round(occupied_seats=(1, 2))
        for seat in (1, 2):
            for wager in spec.wagers:
                amount = stake(wager)
                with contextlib.suppress(CroupierError):
                    rnd.place_wager(seat, wager, amount)
        met += said(rnd, "wagers")
        assert isinstance(rnd, GameRound)
        if not rnd.can_deal():  # pragma: no cover - two seats wagered
            continue
        rnd.deal()
        met += said(rnd, "play")
        while (pending := rnd.pending()) is not None:
            name = chooser.choice([a for a in pending.legal if a != "set"])
            insured = 1 if name == "insurance" else None
            rnd.apply(Action(seat=pending.seat, name=name, amount=insured))
            met += said(rnd, "play")
        met += said(rnd, "over")
        table.finish_round(rnd)
    return met
