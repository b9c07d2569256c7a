"""What the server holds in memory: accounts, limits, tables, rounds.

A :class:`TableRuntime` is one table (game, rules, limits, seats, the
engine's :class:`~croupier.table.Table` with its shoe) and its
:class:`LiveRound`, which remembers what of the round the database
already has (events, inputs, stakes taken, payouts made).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from croupier.history import Recorder
from croupier.jsontypes import json_text
from croupier.money import (
    WagerKey,
    amount_text,
    dollars,
    in_cents,
    is_minor_units,
)
from croupier.registry import GameSpec
from croupier.regs import Decision
from croupier.rng import SecureRng
from croupier.round import Round
from croupier.server.decisions import TABLE_LIMITS
from croupier.server.errors import TableLimitError
from croupier.server.limits import MAX_AMOUNT
from croupier.table import Table

__all__ = [
    "DEFAULT_MAX",
    "DEFAULT_MIN",
    "TABLE_LIMITS",
    "TABLE_LIMITS_ENV",
    "TABLE_SETTINGS_ENV",
    "Idem",
    "Limits",
    "LiveRound",
    "Player",
    "RecordedRng",
    "TableRuntime",
    "TableSettings",
    "checked_limits",
]

DEFAULT_MIN = 100
"""Default table minimum, minor units ($1.00; D195: the regulations
leave table limits to the casino; ``croupier serve --min-bet``)."""
DEFAULT_MAX = 100_000
"""Default table maximum, minor units ($1,000.00; D195;
``croupier serve --max-bet``)."""
TABLE_LIMITS_ENV = "CROUPIER_TABLE_LIMITS"
"""The default table limits of a server worker (JSON ``[min, max]``)."""


def checked_limits(
    given: object, *, of: str = "table", defaulted: Sequence[str] = ()
) -> tuple[int, int]:
    """``given`` as a table's (minimum, maximum), or refused (D195).

    Two whole numbers of minor units, the minimum at least 1 and not
    above the maximum, the maximum at most
    :data:`~croupier.server.limits.MAX_AMOUNT` (D31). ``of`` names the
    limits in a refusal: the table's, or a wager's (``'"tie" wager'``,
    its id as JSON writes it, D196). ``defaulted`` names the bounds
    (``"minimum"``, ``"maximum"``) that are the server's defaults, not
    given: a minimum above the maximum says so, and to give both.

    >>> checked_limits([500, 50_000])
    (500, 50000)
    >>> checked_limits((0, 100))
    Traceback (most recent call last):
    ...
    croupier.server.errors.TableLimitError: the table minimum must be \
$0.01 to $10,000,000,000.00 (1 to 1000000000000 in cents), not $0.00 (D195)
    """
    if not isinstance(given, list | tuple) or len(given) != 2:
        msg = (
            f"the {of} limits are two amounts, [minimum, maximum], in "
            f"minor units, not {json_text(given, limit=40)} (D195)"
        )
        raise TableLimitError(msg, ref=TABLE_LIMITS)
    low, high = given
    for name, value in (("minimum", low), ("maximum", high)):
        if not is_minor_units(value) or not 1 <= value <= MAX_AMOUNT:
            msg = (
                f"the {of} {name} must be {dollars(1)} to "
                f"{dollars(MAX_AMOUNT)} {in_cents(1, MAX_AMOUNT)}, not "
                f"{amount_text(value)} (D195)"
            )
            raise TableLimitError(msg, ref=TABLE_LIMITS)
    if low > high:
        why = (
            f", the {' and '.join(defaulted)} being the server's default: "
            "give min_bet and max_bet together"
            if defaulted
            else ""
        )
        msg = (
            f"the {of} minimum ({dollars(low)}) is above the maximum "
            f"({dollars(high)}){why} (D195)"
        )
        raise TableLimitError(msg, ref=TABLE_LIMITS)
    return (low, high)


@dataclass(frozen=True, slots=True)
class Player:
    """An authenticated account."""

    id: int
    """Account id."""
    name: str
    """Display name."""
    is_operator: bool = False
    """Whether the account may run tables and the cashier."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits in minor units, optionally per wager."""

    min_bet: int
    """Smallest wager."""
    max_bet: int
    """Largest wager."""
    per_wager: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Limits for particular wagers (a fixed progressive, say)."""

    def bounds(self, wager: str) -> tuple[int, int]:
        """The (minimum, maximum) for ``wager``."""
        return self.per_wager.get(wager, (self.min_bet, self.max_bet))


TABLE_SETTINGS_ENV = "CROUPIER_TABLE_SETTINGS"
"""The default :class:`TableSettings` of a server worker (JSON)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The table's pacing (a table setting, stored with the table).

    Every value is the project's choice (ASSUMED, D26-D28): the
    regulations set no time for a player's decision or the betting.
    Times may be fractions; a clock of a live table runs five seconds
    at the least (D170). Tests that need a clock to run out at once
    make it run faster (``Pacer.clock_scale``), not shorter.
    """

    betting_seconds: float = 20
    """Betting stays open this long after the round's first wager (D27)."""
    decision_seconds: float = 30
    """A player has this long for each decision, then the default (D26)."""
    idle_seat_minutes: float = 5
    """No connection and no request this long frees the seat (D28)."""
    idle_rounds: int = 3
    """This many rounds in a row without a wager free the seat (D28)."""

    LIMITS: ClassVar[dict[str, tuple[float, float]]] = {
        "betting_seconds": (5, 3600),
        "decision_seconds": (5, 3600),
        "idle_seat_minutes": (1, 1440),
        "idle_rounds": (1, 1000),
    }
    """Accepted range of each setting: the clocks five seconds to an
    hour (D170; a player must have time to bet and to decide, and 0.1
    typed for 10 is refused); ``idle_seat_minutes`` a minute to a day
    (D158; a seat is not lost to a page reloaded or a phone's
    connection dropped for a few seconds)."""
    UNITS: ClassVar[dict[str, str]] = {
        "betting_seconds": "seconds",
        "decision_seconds": "seconds",
        "idle_seat_minutes": "minutes",
        "idle_rounds": "rounds",
    }
    """What each setting counts, for the refusals."""
    DECIDED: ClassVar[dict[str, str]] = {
        "betting_seconds": "D170",
        "decision_seconds": "D170",
        "idle_seat_minutes": "D158",
        "idle_rounds": "D28",
    }
    """The decision that sets each range, named in refusals and in the
    warning of a stored value brought into range."""

    @classmethod
    def range_text(cls, key: str) -> str:
        """``key``'s range in words: ``"5 to 3600 seconds"``."""
        low, high = cls.LIMITS[key]
        return f"{_number(low)} to {_number(high)} {cls.UNITS[key]}"

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any]) -> TableSettings:
        """Settings from a mapping; refuse unknown or out-of-range ones."""
        from croupier.server.errors import TableSettingError

        out: dict[str, Any] = {}
        for key, value in given.items():
            if value is None:
                continue
            if key not in cls.LIMITS:
                msg = f"no table setting {json_text(key, limit=40)}"
                raise TableSettingError(msg)
            decided = Decision.parse(cls.DECIDED[key])
            if isinstance(value, bool) or not isinstance(value, int | float):
                msg = (
                    f"table setting {key} must be a number, not "
                    f"{json_text(value, limit=40)}"
                )
                raise TableSettingError(msg, ref=decided)
            low, high = cls.LIMITS[key]
            if key == "idle_rounds" and not isinstance(value, int):
                msg = (
                    "idle_rounds must be a whole number, not "
                    f"{json_text(value, limit=40)}"
                )
                raise TableSettingError(msg, ref=decided)
            if not low <= value <= high:
                msg = (
                    f"table setting {key} must be {cls.range_text(key)} "
                    f"({decided}), not {json_text(value, limit=40)}"
                )
                raise TableSettingError(msg, ref=decided)
            out[key] = value
        return cls(**out)

    @classmethod
    def stored(
        cls, given: Mapping[str, Any]
    ) -> tuple[TableSettings, list[str]]:
        """A table's stored settings, each brought into today's range.

        A table stored before a range narrowed (``idle_seat_minutes``
        took 0.001 before D158, the clocks 0.1 seconds before D170)
        must still load: its value is raised or
        lowered to the nearest bound. Returns the settings and the
        settings so changed (empty: as stored).
        """
        known = {k: v for k, v in given.items() if k in cls.LIMITS}
        changed = []
        for key, value in known.items():
            low, high = cls.LIMITS[key]
            if isinstance(value, int | float) and not low <= value <= high:
                kept = min(max(value, low), high)
                known[key] = int(kept) if key == "idle_rounds" else kept
                changed.append(key)
        return cls.from_mapping(known), changed

    def to_dict(self) -> dict[str, float]:
        """The settings as stored and shown (whole numbers as ints)."""
        out: dict[str, float] = {}
        for key in self.LIMITS:
            value = getattr(self, key)
            out[key] = int(value) if float(value).is_integer() else value
        return out


class LiveRound:
    """A round in play at a table, with what the database already has."""

    def __init__(
        self,
        db_id: int,
        recorder: Recorder,
        *,
        shoe_no: int,
        owners: dict[int, int] | None = None,
        detached: bool = False,
    ) -> None:
        self.db_id = db_id
        """The ``rounds`` row."""
        self.recorder = recorder
        """Drives the round and records its inputs."""
        self.shoe_no = shoe_no
        """Which shoe of the table the round is dealt from."""
        self.owners: dict[int, int] = dict(owners or {})
        """Seat to the player whose stakes are on it this round."""
        self.detached = detached
        """Rebuilt from storage on its own stacked shoe (not the table's)."""
        self.persisted = 0
        """Round events already stored."""
        self.inputs = 0
        """Inputs already stored."""
        self.debited: dict[WagerKey, int] = {}
        """Stakes already taken from balances."""
        self.credited: set[WagerKey] = set()
        """Settlements already paid to balances."""
        self.event_dicts: list[dict[str, Any]] = []
        """The stored events in JSON form (cache for views)."""
        self.dealt = False
        """Whether the deal has happened."""
        self.finished = False
        """Whether the end of the round has been stored."""
        self.stored_owners = json.dumps(self.owners)
        """The owners as last stored."""
        self.views: dict[int | None, tuple[int, dict[str, Any]]] = {}
        """Seat views already built, with the table version they show."""
        self.server_seq = 0
        """Server events of the round stored so far (clocks, voids)."""
        self.voided: str | None = None
        """Why the round was voided, if it was."""

    @property
    def round(self) -> Round:
        """The engine's round."""
        return self.recorder.round


class TableRuntime:
    """One table: its game, rules, limits, seats, shoe and rounds."""

    def __init__(
        self,
        db_id: int,
        name: str,
        spec: GameSpec,
        rules: dict[str, Any],
        limits: Limits,
        *,
        shoe_no: int = 0,
    ) -> None:
        self.id = db_id
        """The ``game_tables`` row."""
        self.name = name
        """Display name."""
        self.spec = spec
        """The game dealt here."""
        self.limits = limits
        """Table limits."""
        self.shoe_no = shoe_no
        """Shoes used so far."""
        self.table = Table(
            spec, spec.rules_type.from_mapping(rules), rng=RecordedRng()
        )
        """The engine's table (shoe across rounds, CSPRNG shuffles)."""
        self.shoe_events = 0
        """Shoe-level events of :attr:`table` already stored."""
        self.seats: dict[int, int] = {}
        """Seat to player id."""
        self.live: LiveRound | None = None
        """The round in play (or open for wagers)."""
        self.last: LiveRound | None = None
        """The previous round, shown until the next deal."""
        self.undisclosed: list[int] = []
        """Finished rounds whose shoe is still in play (stack sealed)."""
        self.version = 0
        """Bumped at each committed change (keys cached views)."""
        self.stored_version = 0
        """The ``game_tables.version`` this memory shows (several
        processes on PostgreSQL; ``-1``: reload before use)."""
        self._rules_json: tuple[object, str] | None = None
        self.settings = TableSettings()
        """Clocks and idle-seat limits (:mod:`croupier.server.pacing`)."""
        self.clock: dict[str, Any] | None = None
        """The clock running, as clients see it (``None``: none)."""
        self.clock_key: list[Any] | None = None
        """What the clock is for (the round, its inputs, the seat)."""
        self.ready: set[int] = set()
        """Seats done betting this round."""
        self.sitting_out: set[int] = set()
        """Seats that sit out (not dealt in, not counted as idle)."""
        self.idle: dict[int, int] = {}
        """Rounds in a row each seat went without a wager."""
        self.seen: dict[int, int] = {}
        """Each seat's last sign of life (epoch ms, in memory)."""
        self.stored_seen: dict[int, int] = {}
        """The signs of life as last stored."""
        self.stored_pacing = ""
        """The pacing state as last stored (JSON)."""
        self.queued_events: list[tuple[LiveRound, dict[str, Any]]] = []
        """Server events to store with the step in progress."""
        self.stale = False
        """Memory ran ahead of storage: rebuild before the next use."""

    def seat_of(self, player_id: int) -> int | None:
        """The seat ``player_id`` holds here, if any."""
        for seat, owner in self.seats.items():
            if owner == player_id:
                return seat
        return None

    def rules_json(self) -> str:
        """The full rules in force as JSON (kept while they stay)."""
        rules = self.table.rules
        if self._rules_json is None or self._rules_json[0] is not rules:
            self._rules_json = (rules, json.dumps(rules.to_dict()))
        return self._rules_json[1]

    def fresh_table(self) -> None:
        """Start over with a new engine table (a new shoe is due)."""
        self.table = Table(self.spec, self.table.rules, rng=RecordedRng())
        self.shoe_events = 0


def _number(value: float) -> str:
    """A bound as a person writes it: ``1``, not ``1.0``; ``0.1``."""
    return str(int(value)) if float(value).is_integer() else str(value)


Idem = tuple[int, str] | None
"""(player id, Idempotency-Key) of a request, if it carried one."""


class RecordedRng:
    """The CSPRNG, keeping each draw of a round so it can be replayed.

    A round may shuffle in play (the cover card came out: 591.7(d),
    681a.7(d)). Its stored stack and inputs alone cannot reproduce that
    shuffle, so another process rebuilding the round (or this one after
    a restart) would draw a different order. The server stores the
    draws each step made (``draws`` inputs, server-side only: they name
    the new order of the shoe) and replays them: draws queued in
    :attr:`replay` are given back, in order, before any new one.
    """

    def __init__(self, replay: Iterable[Sequence[int]] = ()) -> None:
        self._secure = SecureRng()
        self.replay: deque[tuple[int, int]] = deque(
            (int(n), int(v)) for n, v in replay
        )
        """Draws to give back first: (bound, value)."""
        self.drawn: list[list[int]] = []
        """New draws not yet taken for storage: [bound, value]."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: replayed, else drawn."""
        if self.replay:
            bound, value = self.replay.popleft()
            if bound != n:
                msg = f"replayed draw below {bound}, asked below {n}"
                raise ValueError(msg)
            return value
        value = self._secure.randbelow(n)
        self.drawn.append([n, value])
        return value

    def describe(self) -> dict[str, object]:
        """As the CSPRNG describes itself (no seed)."""
        return self._secure.describe()

    def take(self) -> list[list[int]]:
        """The draws since the last take (and forget them)."""
        out, self.drawn = self.drawn, []
        return out
