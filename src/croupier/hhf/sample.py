"""Seeded sample rounds in CHH form, dealt the way a live table deals.

A :class:`~croupier.table.Table` on a seeded stream deals round after
round from one shoe (shuffles, cuts and cover cards included); each
seat wagers and takes a random legal decision. Tests and benchmarks use
these as the conforming rounds a server would produce.

>>> rounds = list(sample_histories("midibaccarat", 3, seed=1))
>>> [h.round_id for h in rounds], rounds[0].shoe.known
(['midibaccarat-1-1', 'midibaccarat-1-2', 'midibaccarat-1-3'], 'stacked')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

from croupier.history import Recorder
from croupier.registry import GameSpec, find_game
from croupier.rng import SeededRng
from croupier.round import Action
from croupier.table import Table

from .format import HandHistory, from_record

__all__ = ["SAMPLE_OPTIONS", "sample_histories", "seeded_table"]

_AMOUNTS = (500, 1000, 2500)

SAMPLE_OPTIONS: Mapping[str, Mapping[str, object]] = {
    "six-card-fortune-pai-gow": {"double_down_offered": True},
}
"""Options a sample table sets over the game's defaults, under the
options it is given: pai gow's Double Down Wager, off by default
(670a.7(e), D182), is offered, so that the sample rounds, the benches
that time them and the step catalogue deal every decision of the game
(the rounds are those dealt before D182)."""


def seeded_table(
    game: str, rules: Mapping[str, object] | None, seed: int, seats: int
) -> tuple[GameSpec, Table, np.random.Generator, tuple[int, ...]]:
    """A table of ``game`` on a seeded stream, and the players' choices.

    The table's own stream (shuffles, draws) is ``seed``; the players'
    wagers and decisions come from the second stream returned, seeded
    ``seed + 1``; seats 1 to ``seats`` (at most the game's) are taken.
    ``rules`` are laid over the game's :data:`SAMPLE_OPTIONS`.
    """
    spec = find_game(game)
    options = {**SAMPLE_OPTIONS.get(spec.name, {}), **(rules or {})}
    table = Table(
        spec,
        rules=spec.rules_type.from_mapping(options) if options else None,
        rng=SeededRng(seed),
    )
    choose = np.random.default_rng(seed + 1)
    occupied = tuple(range(1, min(seats, spec.max_seats) + 1))
    return spec, table, choose, occupied


def sample_histories(
    game: str,
    rounds: int,
    *,
    seed: int = 0,
    seats: int = 2,
    rules: Mapping[str, object] | None = None,
) -> Iterator[HandHistory]:
    """``rounds`` consecutive rounds of ``game`` at one seeded table.

    ``rules`` are Rules Submission options (the game's defaults if
    ``None``), laid over the game's :data:`SAMPLE_OPTIONS`.
    """
    spec, table, choose, occupied = seeded_table(game, rules, seed, seats)
    for n in range(1, rounds + 1):
        shown = len(table.log)
        # a pai gow round draws its starting position from the table's
        # RNG as it deals (670a.5(i), D84), as a served table's does
        rnd = table.new_round(occupied_seats=occupied)
        preparation = [e.to_dict() for e in table.log.events[shown:]]
        recorder = Recorder(spec.name, rnd)
        stakes: dict[int, int] = {}
        for seat in occupied:
            amount = _AMOUNTS[int(choose.integers(len(_AMOUNTS)))]
            recorder.place_wager(seat, spec.wagers[0], amount)
            stakes[seat] = amount
        recorder.deal()
        while (pending := rnd.pending()) is not None:
            legal = [
                a for a in pending.legal if a not in ("set", "split")
            ] or list(pending.legal)
            name = legal[int(choose.integers(len(legal)))]
            half: int | None = None
            if name == "insurance":
                half = stakes[pending.seat] // 2
            recorder.apply(Action(seat=pending.seat, name=name, amount=half))
        table.finish_round(rnd)
        yield from_record(
            recorder.record,
            round_id=f"{game}-{seed}-{n}",
            table=f"sample-{seed}",
            started_at=None,
            ended_at=None,
            preparation=preparation,
            # a table's shoe: the game's whole shoe (D75)
            whole=True,
            # who was seated when the shoe was offered for the cut (D78)
            seated=occupied,
        )
