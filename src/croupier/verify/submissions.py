"""The Rules Submissions a run of the verifier holds rounds to.

A Rules Submission is one game's (D100). Given without its game
(``croupier verify day.jsonl --rules casino.toml``) it holds the game
of the file's first round; given with it (``--rules
double-back-jack=dbj.json --rules 21-baccarat=b21.json``), each game's
rounds are held to that game's own, so that a casino's whole day, every
table and every game in one file, is checked in one run (D106).

>>> held = Submissions(
...     [
...         Submission({"decks": 6}, game="double-back-jack", source="dbj"),
...         Submission({"tie_payout": "9:1"}, game="21-baccarat"),
...     ]
... )
>>> sorted(held.rules_by_game)
['21-baccarat', 'double-back-jack']
>>> [(e["game"], e["file"], e["rounds"]) for e in held.report({})]
[('double-back-jack', 'dbj', 0), ('21-baccarat', None, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.errors import CroupierError, RulesFileError
from croupier.hhf.format import rules_digest
from croupier.registry import all_games, find_game
from croupier.rules import GameRules, load_rules_file

__all__ = [
    "Submission",
    "Submissions",
    "submission_from_arg",
    "submissions_from_args",
]


@dataclass(frozen=True, slots=True)
class Submission:
    """One Rules Submission: its options, its game, where it was read."""

    values: Mapping[str, object]
    """The options (a Rules Submission file's table)."""
    game: str | None = None
    """The game whose rounds it holds; ``None``: the game of the file's
    first round (D100)."""
    source: str | None = None
    """Where it was read (the file as named), for messages and the
    report; ``None``: given otherwise."""

    @property
    def where(self) -> str:
        """How messages name it: the file, or "the Rules Submission"."""
        return (
            "the Rules Submission"
            if self.source is None
            else f"rules file {self.source}"
        )


class Submissions:
    """The Rules Submissions of one run, each one game's, checked up front.

    Either one submission without its game (D100: it holds the game of
    the file's first round) or any number, each naming its game (D106:
    a round of a game none names stops the run at its line). Refused
    here, before any line is read: a submission without its game beside
    another, a game named twice, a game that does not exist, a
    submission that does not fit its game (each error names the file
    and the game). A submission that names its game is worked out into
    that game's rules here, once.
    """

    def __init__(self, given: Iterable[Submission]) -> None:
        self.given: tuple[Submission, ...] = tuple(given)
        """In the order given."""
        plain = [s for s in self.given if s.game is None]
        if plain and len(self.given) > 1:
            names = ", ".join(_shown(s) for s in plain)
            msg = (
                f"{names}: a Rules Submission given without its game "
                "holds the game of the file's first round (D100), so it "
                "is given alone; with several, name each one's game "
                "(--rules GAME=FILE)"
            )
            raise CroupierError(msg)
        self.rules_by_game: dict[str, GameRules] = {}
        """Each named game's rules: its defaults overridden by its
        submission."""
        sources: dict[str, Submission] = {}
        for submission in self.given:
            game = submission.game
            if game is None:
                continue
            if game in sources:
                msg = (
                    f"two Rules Submissions for {game} "
                    f"({_shown(sources[game])} and {_shown(submission)}): "
                    "a game's rounds are held to one"
                )
                raise CroupierError(msg)
            sources[game] = submission
            self.rules_by_game[game] = _fitted(submission, game)

    def __len__(self) -> int:
        """How many submissions were given."""
        return len(self.given)

    @property
    def plain(self) -> Mapping[str, object] | None:
        """The one submission given without its game, if that is it."""
        if len(self.given) == 1 and self.given[0].game is None:
            return self.given[0].values
        return None

    def report(self, games: Mapping[str, int]) -> list[dict[str, Any]]:
        """Which submission each game was held to, for the report.

        ``games``: the rounds checked of each game, in the order each
        game first came (:attr:`~croupier.verify.file.Tally.games`).
        Each submission, in the order given: ``game`` (for one given
        without its game, the first round's; ``None`` before any round
        was checked), ``file`` (``None`` when not read from one),
        ``digest`` (the ``sha256:`` of its rules, the game's defaults
        overridden by it, in canonical JSON as a round's ``rules.digest``
        is written; ``None`` when the game is not known or the
        submission does not fit it) and ``rounds`` (of its game
        checked).
        """
        out: list[dict[str, Any]] = []
        for submission in self.given:
            game = submission.game
            rules: GameRules | None
            if game is None:
                game = next(iter(games), None)
                rules = None if game is None else _fitting(submission, game)
            else:
                rules = self.rules_by_game[game]
            out.append(
                {
                    "game": game,
                    "file": submission.source,
                    "digest": (
                        None
                        if rules is None
                        else rules_digest(rules.to_dict())
                    ),
                    "rounds": 0 if game is None else games.get(game, 0),
                }
            )
        return out


def _shown(submission: Submission) -> str:
    """A submission as the command line gave it."""
    source = submission.source or "(given without a file)"
    return source if submission.game is None else f"{submission.game}={source}"


def _fitted(submission: Submission, game: str) -> GameRules:
    """``game``'s rules under ``submission``; a clear error if they are not."""
    try:
        spec = find_game(game)
    except CroupierError:
        msg = (
            f"{submission.where}: given for {game!r}, which is not a game; "
            f"games are: {_games()}"
        )
        raise CroupierError(msg) from None
    try:
        return spec.rules_type().with_overrides(submission.values)
    except CroupierError as exc:
        msg = f"{submission.where}, given for {game}: {exc}"
        raise CroupierError(msg) from None


def _fitting(submission: Submission, game: str) -> GameRules | None:
    """``game``'s rules under ``submission``, or ``None`` if they are not."""
    try:
        return _fitted(submission, game)
    except CroupierError:
        return None


def _games() -> str:
    return ", ".join(spec.name for spec in all_games())


def submission_from_arg(text: str) -> Submission:
    """A ``--rules`` argument read: ``GAME=FILE``, or ``FILE`` alone.

    The text before the first ``=`` names a game only when it is a
    game's id exactly (``croupier games``); otherwise the whole text is
    the file, ``=`` and all (``./double-back-jack=x.toml`` names a file
    whatever its name). A file that cannot be read is refused naming
    it (and its game); a text with ``=`` naming no file and no game is
    refused listing the games.
    """
    head, sep, rest = text.partition("=")
    game = head if sep and head in {s.name for s in all_games()} else None
    path = text if game is None else rest
    if game is not None and not path:
        msg = f"--rules {text}: no file after '=' (--rules GAME=FILE)"
        raise CroupierError(msg)
    try:
        values = load_rules_file(path)
    except CroupierError as exc:
        if game is not None:
            msg = f"--rules {text}: {exc}"
            if Path(text).exists():
                msg += (
                    f" (a game's id before '=' names the game; for the "
                    f"file {text} write ./{text})"
                )
            raise CroupierError(msg) from None
        if isinstance(exc, RulesFileError) and sep and not Path(path).exists():
            msg = (
                f"{exc}; nor does --rules {text} name a game's Rules "
                f"Submission: {head!r} is not a game (games are: "
                f"{_games()})"
            )
            raise CroupierError(msg) from None
        raise
    return Submission(values, game=game, source=path)


def submissions_from_args(texts: Sequence[str]) -> Submissions | None:
    """A run's ``--rules`` arguments, read and checked (none: ``None``)."""
    if not texts:
        return None
    return Submissions(submission_from_arg(text) for text in texts)
