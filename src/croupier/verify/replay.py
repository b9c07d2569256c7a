"""Check one CHH round against the regulation by replaying it.

The verifier takes a log's cards and decisions, not its conclusions: it
rebuilds the shoe from the cards in the order they came out (or takes
the recorded stack), feeds the wagers and decisions to the engine, and
compares the engine's procedure with the log's step by step. The first
step where they part is the deviation, cited with the subsection of the
step the rule required (:func:`explain`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import islice
from typing import Any, NamedTuple

import orjson

from croupier.cards import CARD_TEXTS, JOKER_CODE, Card, parse_cards
from croupier.errors import (
    CroupierError,
    InvariantError,
)
from croupier.hhf.format import HandHistory, inputs_of, steps_are_valid
from croupier.history import change_dealer
from croupier.jsontypes import LazyText, json_text, reading_error
from croupier.money import Odds
from croupier.procedures.ch670a import DEALER, POSITIONS
from croupier.registry import GameSpec, find_game
from croupier.regs import implements
from croupier.rng import SeededRng
from croupier.round import Action, GameRound, Round
from croupier.rules import GameRules, round_inputs
from croupier.scenario import verify_possible_shoe
from croupier.shoe import COVER_CARD, Shoe, StackItem

from .across import RoundEnds, ends_of
from .book import book_of
from .dealt import rack_of, unknown_top
from .explain import (
    Deviation,
    deck_ref,
    explain,
    explain_missing,
    explain_over,
    fields_text,
    option_house_rule,
    option_ref,
)
from .numbering import as_written, first_reading, second_reading
from .order import free_block_end, misplaced_in_block, settlements_reordered
from .preparation import (
    drawn_start_problem,
    preparation_problem,
    unmarked_new_shoe,
)
from .purse import Purses, purses_of
from .quiet import QUIET_RNG, DrawnRng
from .record import RECORD_REF, game_step, record_problem
from .reshuffle import (
    counts_reshuffle,
    dealt_whole_problem,
    reshuffle_problem,
    shortfall,
)
from .slips import shown_slips
from .voided import VOID_REF, voided_problem

__all__ = [
    "Checked",
    "Deviation",
    "verify_line_strict",
    "verify_round",
    "verify_round_strict",
]


_LOOSE: dict[str, tuple[str, ...]] = {
    "shuffled": ("source", "seed", "device"),
    "starting_position_determined": ("number", "method"),
}
"""Fields that say where randomness came from, not what it decided."""


class _StopError(Exception):
    """The engine refused an input: compare what came before, then cite."""

    def __init__(self, error: CroupierError, what: str) -> None:
        super().__init__(what)
        self.error = error
        self.what = what


_MARGIN = 16
"""Cards of a recorded stack kept beyond those the log drew: a round
that needs more is a deviation long before it would use them."""


@lru_cache(maxsize=256)
def _card(token: str) -> StackItem:
    return COVER_CARD if token == "CC" else Card.parse(token)  # noqa: S105


def _cards(text: str) -> list[StackItem]:
    return [_card(token) for token in text.split()]


@lru_cache(maxsize=64)
def _logged_rules(game: str, text: str) -> GameRules:
    values: dict[str, Any] = json.loads(text)
    return find_game(game).rules_type.from_mapping(values)


@lru_cache(maxsize=64)
def _against_regulation(game: str, text: str) -> Deviation | None:
    """Rules that set an option otherwise than the regulation fixes it.

    Such an option (a player's right, a step the dealer "shall" take:
    Double Back Jack's insurance, 591.7(g); doubling and splitting,
    673a.10, 673a.11) is a what-if for analysis; a round dealt under it
    is not a Pennsylvania table's (D97).
    """
    broken = _logged_rules(game, text).against_regulation()
    if not broken:
        return None
    name, ref, value, fixed = broken[0]
    return Deviation(
        ref or find_game(game).section,
        f"the rules set {name} = {json.dumps(value)}; the regulation "
        f"fixes it at {json.dumps(fixed)}",
    )


@lru_cache(maxsize=64)
def _digest(canonical: str) -> str:
    """The ``rules_digest`` of rules given by their canonical JSON."""
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


class _Decks(NamedTuple):
    """A rules object's full shoe, counted three ways."""

    rules: GameRules
    """The rules (kept alive, so that their identity is not reused)."""
    texts: Counter[str]
    """Each card's count by its text."""
    codes: tuple[int, ...]
    """Each card's count by its code, 0 to 52."""
    cards: Counter[Card]
    """Each card's count by the card (shared: a shoe given it copies it)."""


_DECKS: dict[int, _Decks] = {}
"""Each rules object's full shoe, by identity (the rules are cached, so
the same object comes back for the same rules)."""


def _decks(spec: GameSpec, rules: GameRules) -> _Decks:
    """The full shoe of ``rules``, counted once per rules object."""
    found = _DECKS.get(id(rules))
    if found is None or found.rules is not rules:
        shoe = spec.new_shoe(rules, SeededRng(0))
        cards = Counter(shoe.complement)
        codes = [0] * (JOKER_CODE + 1)
        for card, n in cards.items():
            codes[card.code] += n
        texts = Counter(
            {CARD_TEXTS[card.code]: n for card, n in cards.items()}
        )
        if len(_DECKS) > 256:
            _DECKS.clear()
        found = _DECKS[id(rules)] = _Decks(rules, texts, tuple(codes), cards)
    return found


def _complement(spec: GameSpec, rules: GameRules) -> Counter[str]:
    """The full shoe of ``rules``, each card's count by its text."""
    return _decks(spec, rules).texts


_RNG = QUIET_RNG


def _possible(
    spec: GameSpec,
    rules: GameRules,
    within: bool,
    tokens: Callable[[], Sequence[str]],
) -> Deviation | None:
    """Refuse more copies of a card than the rules' decks hold.

    ``within`` says whether the count of the ``tokens`` (``CC`` not
    checked) is within the rules' decks; the tokens are only listed when
    it is not (for the error's wording).
    """
    if within:
        return None
    try:
        verify_possible_shoe(
            spec, rules, [Card.parse(t) for t in tokens() if t != "CC"]
        )
    except CroupierError as exc:
        return Deviation(deck_ref(spec, rules), exc.message)
    return None


def _short(
    spec: GameSpec, rules: GameRules, counts: Mapping[str, int]
) -> Deviation | None:
    """Refuse a freshly shuffled shoe that is not the rules' whole shoe (D65).

    The round's preparation records the shuffle, whose count
    :func:`_replayed` has held to the rules' decks already
    (:func:`_shuffled_count`): every one of them is in the recorded
    stack or discard rack. ``counts`` (of the stack and the rack, ``CC``
    among them) is known to hold no card too often. A scenario's stacked
    shoe, with no shuffle recorded, may be just the cards its round
    deals.
    """
    complement = _complement(spec, rules)
    short = shortfall(complement, counts)
    if short is None:
        return None
    held, missing = short
    return Deviation(
        deck_ref(spec, rules),
        f"the recorded stack and discard rack hold {held} cards; the rules' "
        f"shoe has {sum(complement.values())}: missing {missing} "
        f'(mark the file "irregularity_test": true if this is deliberate)',
    )


def _shuffled_count(
    spec: GameSpec, rules: GameRules, shuffled: Mapping[str, Any]
) -> Deviation | None:
    """Refuse a shoe shuffled for the round with a count not the decks'.

    A shoe whose preparation records its shuffle is the rules' whole
    shoe (D65), its stack recorded or not.
    """
    owed = sum(_complement(spec, rules).values())
    if shuffled.get("cards") == owed:
        return None
    return Deviation(
        deck_ref(spec, rules),
        f"the shuffle is recorded as {json_text(shuffled.get('cards'))} "
        f"cards; "
        f"the rules' shoe has {owed}",
    )


def _within(
    complement: Mapping[str, int],
    counts: Mapping[str, int],
    tokens: Iterable[str] | None = None,
) -> bool:
    """Whether no token (of ``tokens``, or any) outnumbers the complement.

    When every token is counted once (a pai gow deck: each card once)
    and the complement holds each of its cards at least once, that is
    whether every token but ``CC`` is one of the complement's: one set
    comparison instead of a test per token.
    """
    values = counts.values()
    if (
        tokens is None
        and min(values, default=1) >= 1
        and sum(values) == len(counts)
        and min(complement.values(), default=1) >= 1
    ):
        return counts.keys() - _COVER_TOKENS <= complement.keys()
    names = counts if tokens is None else tokens
    return all(counts[t] <= complement.get(t, 0) or t == "CC" for t in names)


_COVER_TOKENS = frozenset({"CC"})
"""The cover card's token: never counted against the decks."""


@dataclass(slots=True)
class _Held:
    """The last recorded stack and rack counted, and their count."""

    rules: GameRules
    stack: str
    discard: str
    counts: Counter[str]
    within: bool


_LAST_HELD: list[_Held] = []
"""The last round's count (one entry): the next round of the same shoe
differs from it by the cards the round took and the rack gained."""


def _held(spec: GameSpec, rules: GameRules, stack: str, discard: str) -> _Held:
    """The count of ``stack`` and ``discard``, and whether it fits the decks.

    A day's log deals round after round from one shoe: each round's
    stack is the end of the one before (its top cards were dealt) and
    its rack the one before plus what that round discarded. Then the
    last count is corrected by those few tokens (and, when it fitted,
    only the tokens added are checked: the others did not grow) instead
    of counting and checking hundreds again; anything else is counted
    and checked from scratch. Either way the answer is that of exactly
    these two texts.
    """
    complement = _complement(spec, rules)
    last = _LAST_HELD[0] if _LAST_HELD else None
    if last is not None and last.rules is rules:
        cut = len(last.stack) - len(stack)
        kept = len(last.discard)
        if (
            cut >= 0
            and last.stack.endswith(stack)
            and (cut == 0 or not stack or last.stack[cut - 1] == " ")
            and discard.startswith(last.discard)
            and (kept in (0, len(discard)) or discard[kept] == " ")
        ):
            # the last entry is replaced: its count is corrected in place
            counts = last.counts
            counts.subtract(last.stack[:cut].split())
            added = discard[kept:].split()
            counts.update(added)
            within = (
                _within(complement, counts, added)
                if last.within
                else _within(complement, counts)
            )
            _LAST_HELD[:] = [_Held(rules, stack, discard, counts, within)]
            return _LAST_HELD[0]
    counts = Counter(stack.split())
    counts.update(discard.split())
    within = _within(complement, counts)
    _LAST_HELD[:] = [_Held(rules, stack, discard, counts, within)]
    return _LAST_HELD[0]


def _rules(
    spec: GameSpec, history: HandHistory, submission: GameRules | None
) -> tuple[GameRules | None, Deviation | None]:
    text = _canonical(history.rules)
    if _digest(text) != history.rules_digest:
        return None, Deviation(
            RECORD_REF,
            "the rules digest does not match the recorded rules values",
        )
    try:
        logged = _logged_rules(spec.name, text)
    except CroupierError as exc:
        return None, Deviation(
            RECORD_REF, f"the recorded rules are not valid: {exc}"
        )
    fixed = _against_regulation(spec.name, text)
    if fixed is not None:
        return None, fixed
    if submission is None:
        return logged, None
    found = _AGREED.get((id(submission), id(logged)))
    if found is None or found[0] is not submission or found[1] is not logged:
        found = (
            submission,
            logged,
            _disagreement(spec, submission, logged, history.rules),
        )
        if len(_AGREED) > 256:
            _AGREED.clear()
        _AGREED[(id(submission), id(logged))] = found
    problem = found[2]
    # agreed: the round's own rules say what the submission says (ratios
    # of equal value, its round inputs its own), and are replayed
    return (None, problem) if problem is not None else (logged, None)


_AGREED: dict[
    tuple[int, int], tuple[GameRules, GameRules, Deviation | None]
] = {}
"""Whether a submission and a round's rules agree, by the two objects'
identities (the logged rules are cached, so they repeat; both are kept
alive here, so an id is not reused while its entry lives)."""


def _disagreement(
    spec: GameSpec,
    submission: GameRules,
    logged: GameRules,
    given: Mapping[str, Any],
) -> Deviation | None:
    """The first option in which the round departs from the submission.

    Options that are the round's state or a replay's input (the meter,
    a dealer's slip: :func:`croupier.rules.round_inputs`) are the
    round's own. ``given`` is the record's ``rules.values``: an option
    it leaves out was read at croupier's default, and the deviation
    says so rather than that the round set it.
    """
    mine, theirs = submission.to_dict(), logged.to_dict()
    inputs = round_inputs(type(submission))
    for key, value in mine.items():
        if key not in inputs and not _same_value(value, theirs.get(key)):
            # an option no subsection fixes is named as the house
            # decision it is, beside the game's section
            house = option_house_rule(spec, key)
            whose = "" if house is None else f" ({house}, no subsection)"
            logged_text = json_text(theirs.get(key))
            ran = (
                f"the round ran with {key}={logged_text}"
                if key in given
                else f"the round's rules leave out {key} (croupier's "
                f"default {logged_text} stood in)"
            )
            return Deviation(
                option_ref(spec, key),
                f"{ran}; the Rules Submission says {json_text(value)}{whose}",
            )
    return None


def _same_value(mine: object, theirs: object) -> bool:
    """Whether two option values say the same: equal, or equal ratios.

    Odds and fractions are written as two integers (``6:4``, ``3/4``);
    ``6:4`` pays what ``3:2`` pays on every stake, so a Rules Submission
    of one holds a round logged with the other. Paytables and lists
    agree entry by entry.

    >>> _same_value("6:4", "3:2"), _same_value("3:2", "7:5")
    (True, False)
    >>> _same_value({"flush": "10:1"}, {"flush": "20:2"})
    True
    """
    if mine == theirs:
        return True
    if isinstance(mine, str) and isinstance(theirs, str):
        try:
            return Odds.parse(mine).fraction == Odds.parse(theirs).fraction
        except CroupierError:
            return False
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return mine.keys() == theirs.keys() and all(
            _same_value(value, theirs[key]) for key, value in mine.items()
        )
    if isinstance(mine, list) and isinstance(theirs, list):
        return len(mine) == len(theirs) and all(map(_same_value, mine, theirs))
    return False


_CANONICAL: dict[bytes, str] = {}
"""The canonical JSON of rules values already seen, by orjson's bytes."""


def _canonical(values: Mapping[str, Any]) -> str:
    """``values`` as sorted, compact :func:`json.dumps` (the digest's text).

    Remembered by orjson's sorted serialisation, which is one-to-one on
    JSON values except that it writes NaN and infinities as ``null``: a
    text holding ``null`` is therefore worked out afresh every time.
    """
    try:
        key: bytes | None = orjson.dumps(values, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        key = None
    text = None if key is None else _CANONICAL.get(key)
    if text is None:
        text = json.dumps(values, sort_keys=True, separators=(",", ":"))
        if key is not None and b"null" not in key:
            if len(_CANONICAL) > 256:
                _CANONICAL.clear()
            _CANONICAL[key] = text
    return text


def _draws(
    procedure: Sequence[Mapping[str, Any]],
) -> tuple[list[StackItem], list[str]]:
    """The cards in the order they left the shoe, cover card included.

    Also the cards' tokens as the log writes them (cover card left out).
    """
    items: list[StackItem] = []
    texts: list[str] = []
    for step in procedure:
        kind = step["type"]
        if kind == "card_dealt" or kind == "card_burned":
            token = step["card"]
            items.append(_card(token))
            texts.append(token)
        elif kind == "cover_card_reached":
            items.append(COVER_CARD)
    return items, texts


def _tail(
    procedure: Sequence[Mapping[str, Any]], drawn: Sequence[Card]
) -> tuple[list[Card], int | None]:
    """The cards left in the shoe when the log shows them, and how many.

    A reshuffle collects them (the cover card came out), pai gow counts
    the remainder (670a.9(d)) and collects it or removes the whole deck
    (670a.9(e)); otherwise they are unknown (``[]``, ``None``).
    """
    tail: list[Card] = []
    count: int | None = None
    removed: list[Card] = []
    for step in procedure:
        kind = step["type"]
        if kind == "cards_counted":
            count = int(step["count"])
        elif kind == "cards_collected" and step["source"] in (
            "remaining",
            "shoe",
        ):
            tail.extend(parse_cards(step["cards"]))
            count = len(tail) if count is None else count
        elif kind == "deck_removed":
            removed.extend(parse_cards(step["cards"]))
    if not tail and removed and count is not None:
        # the removed deck lists the positions' cards, then the remainder
        tail = removed[len(removed) - count :] if count else []
    elif not tail and removed:
        left = Counter(removed) - Counter(drawn)
        for card in removed:
            if left[card] > 0:
                left[card] -= 1
                tail.append(card)
    if tail:
        count = len(tail) if count is None else max(count, len(tail))
    return tail, count


def _shoe(
    spec: GameSpec, rules: GameRules, history: HandHistory
) -> tuple[Shoe | None, Deviation | None, int | None]:
    """The shoe to replay on, or the deviation that the log's cards are.

    Also how many items (cards and cover cards) the round drew from the
    top of the stack, ``None`` when it reshuffled.
    """
    procedure = history.procedure
    drawn, drawn_texts = _draws(procedure)
    drawn_cards = [c for c in drawn if isinstance(c, Card)]
    discard_text = history.shoe.discard or ""
    reshuffles = any(c is COVER_CARD for c in drawn)
    tail: list[Card] = []
    count: int | None = None
    if history.shoe.stack is None:
        tail, count = _tail(procedure, drawn_cards)
        if not reshuffles and not tail and count is None:
            return _shoe_dealt_on(spec, rules, history, drawn, drawn_cards)
    # a recorded stack's rack matters when the round reshuffles (and one
    # not recorded is counted below); otherwise only its card counts are
    # checked
    discard = (
        [c for c in _cards(discard_text) if isinstance(c, Card)]
        if reshuffles and history.shoe.stack is not None
        else []
    )
    if history.shoe.stack is not None:
        stack_text = history.shoe.stack
        # without a reshuffle the round uses only the top of the stack
        limit = len(drawn) + _MARGIN
        need = len(drawn_cards) + 1
        tokens = (
            stack_text.split()
            if reshuffles
            else stack_text.split(None, limit)[:limit]
        )
        # the stack's cards down to the first one the log did not draw
        order = list(islice((t for t in tokens if t != "CC"), need))
        if len(order) < need and len(tokens) == limit:
            # cover cards crowd the top: look further down
            order = list(
                islice((t for t in stack_text.split() if t != "CC"), need)
            )
        # the log's card tokens as the stack writes them: equal texts
        # are equal cards (a card written another way, ``10h`` for
        # ``Th``, is compared card by card below)
        same_text = drawn_texts == order[: len(drawn_texts)]
        for i, card in enumerate([] if same_text else drawn_cards):
            # equal tokens give the one cached card: ``is`` settles most
            if i >= len(order) or (
                (top := _card(order[i])) is not card and top != card
            ):
                want = order[i] if i < len(order) else "no card"
                not_top = Deviation(
                    book_of(spec.section).from_the_shoe,
                    f"card {i + 1} out of the shoe is {card}, but the "
                    f"recorded stack has {want} there: a card did not come "
                    f"from the top of the shoe",
                )
                return None, not_top, None
        counted = _held(spec, rules, stack_text, discard_text)
        within = counted.within

        def held() -> list[str]:
            return [*stack_text.split(), *discard_text.split()]

        shuffled = history.shoe.shuffles() or (
            # a pai gow deck is shuffled for every round, in its
            # procedure (670a.9(a)(1)): a whole one holds every card
            history.shoe.whole and spec.reshuffle_every_round
        )
        if shuffled and within and not history.shoe.irregularity_test:
            # a shoe shuffled for this round is the whole shoe; none too
            # many, so as many cards as the decks hold is all of them
            short = _short(spec, rules, counted.counts)
            if short is not None:
                return None, short, None
        elif (
            history.shoe.whole
            and history.shoe.new_shoe
            and within
            and not history.shoe.irregularity_test
        ):
            # a whole shoe reshuffled in the round before (D75)
            short = dealt_whole_problem(
                spec, _complement(spec, rules), counted.counts, history
            )
            if short is not None:
                return None, short, None

        if not reshuffles:
            # no reshuffle in the round: the rest of the stack is unused
            tokens = tokens[: len(drawn) + _MARGIN]
        items: list[StackItem] = [_card(t) for t in tokens]
        full: Counter[Card] | None = None  # counted from the stack
    else:
        # (a shuffle's count, stack or not, was held to the decks before
        # the preparation, in _replayed: D65)
        decks = _decks(spec, rules).codes
        rack = rack_of(rules, decks, discard_text, _cards)
        discard = list(rack.cards)
        shown = [*drawn_cards, *tail]
        whole = not tail and count is None
        # the decks' cards not known: all of them behind a whole shoe's,
        # else as many as the shoe is known to hold after its tail
        filler, within = unknown_top(
            rack,
            shown,
            sum(decks) if whole else max((count or 0) - len(tail), 0),
        )
        items = [*drawn, *tail, *filler]

        def held() -> list[str]:
            return [CARD_TEXTS[c.code] for c in (*shown, *discard)]

        # the cards known, none more often than the decks hold them, and
        # the rest of the decks: the shoe and its rack hold the rules'
        # decks, the count every shoe of these rules starts from
        full = _decks(spec, rules).cards if whole and within else None

    if not history.shoe.irregularity_test:
        problem = _possible(spec, rules, within, held)
        if problem is not None:
            return None, problem, None
    shoe = Shoe(items, complement=full)
    if discard:
        shoe.discard = discard
        if full is None:
            shoe.account_for(discard)
    return shoe, None, None if reshuffles else len(drawn)


def _shoe_dealt_on(
    spec: GameSpec,
    rules: GameRules,
    history: HandHistory,
    drawn: list[StackItem],
    drawn_cards: list[Card],
) -> tuple[Shoe | None, Deviation | None, int | None]:
    """:func:`_shoe` for a round recorded as dealt that does not reshuffle.

    Its shoe is the cards it shows, then a few of the decks' cards not
    known (:data:`_MARGIN`, as for a recorded stack); its rack is
    counted from the round before's (:func:`croupier.verify.dealt.rack_of`)
    and not handed to the engine, which puts the round's cards in an
    empty one: the same round as on the whole rebuilt shoe, the rack
    being read only by a reshuffle (D192).
    """
    rack = rack_of(
        rules, _decks(spec, rules).codes, history.shoe.discard or "", _cards
    )
    filler, within = unknown_top(rack, drawn_cards, _MARGIN)
    if not history.shoe.irregularity_test:

        def held() -> list[str]:
            return [CARD_TEXTS[c.code] for c in (*drawn_cards, *rack.cards)]

        problem = _possible(spec, rules, within, held)
        if problem is not None:
            return None, problem, None
    return Shoe([*drawn, *filler]), None, len(drawn)


def _start(history: HandHistory) -> int | None:
    if history.shoe.starting_position is not None:
        return history.shoe.starting_position
    for step in history.procedure:
        if step["type"] == "starting_position_determined":
            return int(step["position"])
    return None


def _drawn(history: HandHistory, start: int | None) -> int | None:
    """The number a table drew for ``start`` (D84), to replay as drawn.

    A ``starting_position_determined`` step of method ``rng`` whose
    number counts to the position dealt from (as the record's check,
    :func:`~croupier.verify.preparation.drawn_start_problem`, requires)
    is replayed as that draw, so that the engine writes the step the
    table wrote; any other is replayed as given.
    """
    for step in history.procedure:
        kind = step["type"]
        if kind == "card_dealt":
            return None
        if kind != "starting_position_determined":
            continue
        number = step.get("number")
        if (
            step.get("method") == "rng"
            and type(number) is int
            and 1 <= number <= len(POSITIONS)
            and DEALER + 1 - number == start
        ):
            return number
        return None
    return None


def _run(
    spec: GameSpec,
    rules: GameRules,
    shoe: Shoe,
    history: HandHistory,
    purses: Purses | None = None,
) -> tuple[Round, _StopError | None]:
    """Replay the record's inputs; ``purses`` follows the balances (D73)."""
    start = _start(history) if spec.uses_starting_position else None
    drawn = None if start is None else _drawn(history, start)
    rnd = spec.new_round(
        rules=rules,
        shoe=shoe,
        # a number the table drew is drawn again: the engine then writes
        # the table's step (D84); else the position is given
        rng=_RNG if drawn is None else DrawnRng(drawn - 1),
        new_shoe=history.shoe.new_shoe,
        starting_position=start if drawn is None else None,
    )
    wagers, decisions = inputs_of(history.procedure)
    # who plays each box, for a game where one player's boxes differ
    # from several players' (673a.6(e)'s limit, (t)(2)'s order, D23's
    # Envy): the record's player ids, when one of them has several boxes
    # (distinct ids are each box its own player, as no ids are)
    owners = _owners(history)
    try:
        for w in wagers:
            try:
                if w.get("new_dealer"):
                    change_dealer(rnd)
                elif w.get("change"):
                    rnd.change_wager(w["seat"], w["wager"], w["amount"])
                else:
                    rnd.place_wager(
                        w["seat"],
                        w["wager"],
                        w["amount"],
                        owners.get(w["seat"]),
                    )
            except CroupierError as exc:
                raise _StopError(exc, _wager_text(w)) from None
            if purses is not None:
                purses.check(rnd.ledger, LazyText(partial(_wager_text, w)))
        try:
            rnd.deal()
        except CroupierError as exc:
            # the deal refused (the shoe ran out, no wager the deal needs,
            # a progressive count that does not agree): its own rule
            raise _StopError(exc, "the deal") from None
        if purses is not None:
            purses.check(rnd.ledger, "the deal")
        for d in decisions:
            # the decision's name is written for a message only (its
            # fields as JSON, at every decision, were 4 % of a round)
            what = LazyText(partial(_decision_text, d))
            try:
                action = Action.from_dict(d)
                if rnd.pending() is None:
                    # the engine's own refusal, its state unchanged (a
                    # game with no decisions cites the rule that says so)
                    if isinstance(rnd, GameRound):
                        rnd.verify_action(action)
                    raise CroupierError("no decision was pending")
                rnd.apply(action)
            except CroupierError as exc:
                raise _StopError(exc, str(what)) from None
            if purses is not None:
                purses.check(rnd.ledger, what)
    except _StopError as stop:
        return rnd, stop
    return rnd, None


def _decision_text(d: Mapping[str, Any]) -> str:
    """How a message names a recorded decision input."""
    return f"the decision {fields_text(d)}"


def _wager_text(w: Mapping[str, Any]) -> str:
    """How a message names a recorded wager input."""
    if w.get("new_dealer"):
        return "the new dealer's burn"
    what = "change" if w.get("change") else "wager"
    shown = {k: v for k, v in w.items() if k != "change"}
    return f"the {what} {fields_text(shown)}"


def _owners(history: HandHistory) -> dict[int, str]:
    """Each box's player id, when some player has several boxes."""
    players = history.players
    if len(players) < 2 or len({p.player_id for p in players}) == len(players):
        return {}
    return {p.seat: p.player_id for p in players}


_UNKNOWN_SHOE: dict[str, tuple[str, ...]] = {
    **_LOOSE,
    "shuffled": ("source", "seed", "device", "cards"),
    "cover_card_inserted": ("position",),
}
"""Also loose when the stack is not recorded: a reshuffle within the
round gathers a discard rack the log does not show, so the cards it
shuffles and the new cover card's position (a share of the whole shoe)
cannot be checked. With the stack recorded, the count shuffled is."""

_UNKNOWN_WHOLE: dict[str, tuple[str, ...]] = {
    **_LOOSE,
    "shuffled": ("source", "seed", "device", "cards"),
}
"""Loose for a record without its stack that says its shoe is whole and
shows its rack: the reshuffle gathers the rules' decks (their count is
D75's check), the cards dealt, left in the shoe and racked, all of which
the replay holds, so the new cover card lies at the rules' penetration
of them, as the replay places it (D82)."""


def _loosened(
    spec: GameSpec, history: HandHistory
) -> Mapping[str, tuple[str, ...]]:
    """What the comparison leaves out: as the shoe is known (D75, D82).

    The burn's face, too, where the rule does not fix it (D95): 591.7(c)
    and 681a.7(c) say only that the card goes to the discard rack.
    """
    shoe = history.shoe
    if shoe.stack is not None:
        loose = _LOOSE
    else:
        whole = shoe.whole and shoe.discard is not None
        loose = _UNKNOWN_WHOLE if whole else _UNKNOWN_SHOE
    if book_of(spec.section).burn_face_free:
        return {**loose, "card_burned": ("face_up",)}
    return loose


def _same(
    got: Mapping[str, Any],
    want: Mapping[str, Any],
    loosened: Mapping[str, tuple[str, ...]] = _LOOSE,
) -> bool:
    if got == want:
        return True
    loose = loosened.get(str(want.get("type")), ())
    if not loose:
        return False
    return {k: v for k, v in got.items() if k not in loose} == {
        k: v for k, v in want.items() if k not in loose
    }


def _compare(
    spec: GameSpec,
    engine: list[dict[str, Any]],
    log: Sequence[Mapping[str, Any]],
    stop: _StopError | None,
    loosened: Mapping[str, tuple[str, ...]] = _LOOSE,
) -> Deviation | None:
    if stop is None and engine == list(log):
        # every step equal (one C-level list comparison): what the loop
        # below finds for a conforming round, step by step
        return None
    refused = None if stop is None else _refusal(spec, stop)
    found = _first_difference(spec, engine, log, loosened)
    if found is not None:
        i, view = found
        return explain(spec, view, log, i, refused)
    if len(log) > len(engine):
        if stop is not None:
            # the engine refused the log's next input: a decision for a
            # hand whose play is over is cited for that
            return explain_over(spec, log, len(engine)) or refused
        return explain(spec, engine, log, len(engine))
    if refused is not None:
        return refused
    if len(engine) > len(log):
        return explain_missing(spec, engine, log)
    return None


def _first_difference(
    spec: GameSpec,
    engine: Sequence[Mapping[str, Any]],
    log: Sequence[Mapping[str, Any]],
    loosened: Mapping[str, tuple[str, ...]],
) -> tuple[int, Sequence[Mapping[str, Any]]] | None:
    """Where the log first leaves the engine's steps, over those both have.

    A run the rule lets the dealer order otherwise (D95) is taken whole:
    in an order it allows, the comparison goes on after it; in another,
    the log's step there that the engine has nowhere is the departure,
    compared with the engine's step about the same wager
    (:func:`~croupier.verify.order.misplaced_in_block`). Returns the
    log's index and the engine's steps to compare it with.
    """
    i, both = 0, min(len(engine), len(log))
    while i < both:
        got, want = engine[i], log[i]
        if got != want and not _same(got, want, loosened):
            end = free_block_end(spec, engine, log, i)
            if end is None:
                return misplaced_in_block(spec, engine, log, i) or (i, engine)
            i = end
        else:
            i += 1
    return None


def _refusal(spec: GameSpec, stop: _StopError) -> Deviation:
    """The engine's refusal of a recorded input, under its own rule."""
    ref = stop.error.ref
    return Deviation(
        str(ref) if ref is not None else spec.section,
        f"{stop.what} is not allowed here: {stop.error.message}",
        None,
    )


@implements("591.7(u)", "681a.7(l)")
def verify_round(
    history: HandHistory, *, submission: GameRules | None = None
) -> Deviation | None:
    """The first deviation of ``history`` from the rules, or ``None``.

    ``submission`` is the Rules Submission to hold the round to; without
    it the round is held to the rules it records (which must be valid).
    A round the server voided is replayed up to its void, then its
    books are checked (D67). A record
    that fits the schema but cannot be replayed at all (a card the
    engine cannot account for, a step missing a field it needs) is a
    deviation of the record itself.
    """
    return verify_round_strict(history, submission=submission)[0]


class Checked(NamedTuple):
    """One round's verdict, as :func:`verify_round_strict` gives it."""

    deviation: Deviation | None
    """The first deviation, or ``None``."""
    strict: bool
    """Whether the steps were the engine's own, as JSON."""
    ends: RoundEnds | None = None
    """Which shoe the round began with and left, for the checks across
    the rounds of a file (:mod:`croupier.verify.across`); ``None`` when
    the record could not be read that far."""


def verify_round_strict(
    history: HandHistory,
    *,
    submission: GameRules | None = None,
    ends: bool = False,
    text: str | bytes | None = None,
) -> Checked:
    """:func:`verify_round`, with what the checks of a file need too.

    That is whether the steps were the engine's own and, with ``ends``,
    the round's shoe at either end and its times (:class:`Checked`),
    which only the checks across a file's rounds read. The flag is true
    when the replay ran to the end and the recorded procedure is, as
    JSON, exactly the engine's (:func:`_same_json`): then its steps meet
    the schema because the engine's do. ``text`` is the line ``history``
    was read from, if the caller has it: the engine's steps are then
    looked for in it as they are written, before the log's are written
    again to compare (:func:`_written_in`).
    """
    return verify_line_strict(
        history, submission=submission, ends=ends, text=text
    )[0]


def verify_line_strict(
    history: HandHistory,
    *,
    submission: GameRules | None = None,
    ends: bool = False,
    text: str | bytes | None = None,
) -> tuple[Checked, bytes | None]:
    """:func:`verify_round_strict`, and the steps the line writes as its own.

    Those are the engine's steps as JSON when ``text`` writes the
    procedure as exactly these bytes (:func:`_written_in`), else
    ``None``: a text of the engine's, it writes no key twice, so a check
    for one (:func:`croupier.hhf.format.check_unique_keys`) need only
    read the rest of the line.
    """
    try:
        return _verify(history, submission, ends=ends, text=text)
    except InvariantError as exc:
        return Checked(
            Deviation(RECORD_REF, f"the cards or chips do not add up: {exc}"),
            False,
        ), None
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
        # OverflowError: a number past every integer (``1e400``, read as
        # infinity) where the replay needs a count or a position
        return Checked(
            Deviation(
                RECORD_REF,
                f"the record cannot be replayed: {reading_error(exc)}",
            ),
            False,
        ), None


_INPUTS = frozenset({"wager_placed", "decision_made"})
"""The steps the replay's inputs are read from (:func:`inputs_of`)."""


def _inputs_valid(procedure: Iterable[Mapping[str, Any]]) -> bool:
    """Whether every step the engine's inputs come from meets the schema.

    The engine copies a wager's or decision's seat, name and amount into
    its own steps as it gets them (``true`` for seat 1 comes back as
    ``true``); every other value of its steps it makes itself or
    converts (``int``, cards parsed and written again). So steps equal
    to the engine's are valid once these are.
    """
    return steps_are_valid(
        [step for step in procedure if step["type"] in _INPUTS]
    )


def _same_json(
    engine: Sequence[Mapping[str, Any]],
    log: Sequence[Mapping[str, Any]],
    text: str | bytes | None = None,
) -> tuple[bool, bytes | None]:
    """Whether two step lists are the same JSON, types included.

    And the engine's steps as JSON when ``text`` writes the log's so
    (:func:`_written_in`), else ``None``.

    :mod:`orjson` writes each JSON value one way (``true``, ``1``,
    ``1.0`` and ``"1"`` all differently; keys in their order), so equal
    texts mean equal values of equal types, where Python's ``==`` has
    ``True == 1 == 1.0``. (A log read by :mod:`orjson` holds no NaN,
    which it would write as ``null``.)

    Only steps of plain values count: a step holding an array or an
    object is never taken as the engine's own (the engine writes an
    empty card list as ``[]``, which the schema refuses), so its log is
    validated in full.
    """
    try:
        mine = orjson.dumps(engine)
        # plain values only: no array but the list itself (one byte
        # searched for, at memchr speed), no object but the steps (a
        # string holding either only sends the round to the full check)
        if mine.find(b"[", 1) != -1 or mine.count(b"{") != len(engine):
            return False, None
        if _written_in(mine, text):
            return True, mine
        return mine == orjson.dumps(log), None
    except (TypeError, orjson.JSONEncodeError):
        return False, None


_PROCEDURE_KEY = b'"procedure"'
"""The record's procedure's key, as JSON writes it."""


def _written_in(mine: bytes, text: str | bytes | None) -> bool:
    r"""Whether ``text`` (a record's line) writes its procedure as ``mine``.

    ``mine`` is a JSON array. Then the procedure the line was read as is
    ``mine`` read, the same values of the same types, and the log need
    not be written again to compare it (:func:`_same_json`). Only when
    the key ``"procedure"`` is written once in the line, and nothing in
    it is escaped (no backslash: a ``\u`` escape could spell the key
    another way): every record has that key at its top, and unescaped a
    string naming it is written as those eleven bytes, so the one place
    they stand is the top key (another key or string holding them, or
    the top key twice, makes two). ``False`` says only "not shown so".
    (The backslash is looked for as one byte, at :c:func:`memchr`'s
    speed; searching for the two bytes ``\u`` took 60 times as long.)

    >>> line = b'{"id":"r1","procedure":[{"seq":1}],"settlements":[]}'
    >>> _written_in(b'[{"seq":1}]', line), _written_in(b'[{"seq":2}]', line)
    (True, False)
    >>> decoy = b'{"x":{"procedure":[{"seq":1}]},"proc\\u0065dure":[]}'
    >>> _written_in(b'[{"seq":1}]', decoy)
    False
    """
    if text is None:
        return False
    raw = text.encode() if isinstance(text, str) else text
    at = raw.find(_PROCEDURE_KEY)
    if at == -1 or raw.find(b"\\") != -1:
        return False
    start = at + len(_PROCEDURE_KEY)
    if raw.find(_PROCEDURE_KEY, start) != -1:
        return False
    return raw.startswith(b":", start) and raw.startswith(mine, start + 1)


def _verify(
    history: HandHistory,
    submission: GameRules | None,
    *,
    ends: bool,
    text: str | bytes | None,
) -> tuple[Checked, bytes | None]:
    try:
        spec = find_game(history.game)
    except CroupierError as exc:
        return Checked(Deviation(RECORD_REF, str(exc)), False), None
    # a Double Back Jack log may cite 673a.7 for 591.7 (D70); a record
    # renumbered is no longer the line's text
    written = history
    read = first_reading(history)
    if read is not history:
        history, text = read, None
    found, strict, drawn, racked, holds, steps = _replayed(
        spec, history, submission, text
    )
    renumbered = None if found is None else second_reading(history)
    if renumbered is not None:
        history = renumbered
        found, strict, drawn, racked, holds, steps = _replayed(
            spec, history, submission, None
        )
    if found is not None and history is not written:
        found = as_written(found, written)
    if not ends:
        return Checked(found, strict), steps
    return Checked(
        found,
        strict,
        ends_of(
            spec,
            history,
            drawn,
            racked if found is None else None,
            holds if found is None else None,
        ),
    ), steps


class _Replayed(NamedTuple):
    """What replaying a round found."""

    found: Deviation | None
    """Its first deviation."""
    strict: bool = False
    """Whether its steps were the engine's own, as JSON."""
    drawn: int | None = None
    """The items it drew from the stack (``None``: it reshuffled)."""
    racked: list[Card] | None = None
    """The cards it put in the discard rack (``None``: not replayed); of
    a round that reshuffles only whether it is ``None`` counts (its rack
    went into the new shoe)."""
    holds: Counter[str] | None = None
    """For a conforming round recorded without its stack, the rules'
    decks by card (D71)."""
    steps: bytes | None = None
    """The engine's steps when the line writes them byte for byte
    (:func:`verify_line_strict`)."""


def _replayed(
    spec: GameSpec,
    history: HandHistory,
    submission: GameRules | None,
    text: str | bytes | None,
) -> _Replayed:
    rules, problem = _rules(spec, history, submission)
    if problem is not None or rules is None:
        return _Replayed(problem)
    found = _replayed_under(spec, rules, history, text)
    if found.found is None:
        return found
    # a dealer's slip the deal shows that the rules do not give (another
    # system's record): replayed as its card_dealt steps show it (D92)
    start = _start(history) if spec.uses_starting_position else None
    shown = shown_slips(spec, rules, history, start)
    if shown is None:
        return found
    return _replayed_under(spec, shown, history, text)


def _replayed_under(
    spec: GameSpec,
    rules: GameRules,
    history: HandHistory,
    text: str | bytes | None,
) -> _Replayed:
    """:func:`_replayed` under ``rules`` (the round's, agreed)."""
    if history.shoe.irregularity_test and history.shoe.whole:
        # a whole shoe is the rules' decks (D75); an irregularity test's
        # may hold other cards (D41): not both (D89)
        return _Replayed(
            Deviation(
                deck_ref(spec, rules),
                "the record marks its shoe the table's whole shoe, which "
                "holds the rules' decks, and a deliberate irregularity test, "
                "whose shoe need not: it cannot be both",
            )
        )
    shuffled = history.shoe.shuffles()
    problem = (
        # a shoe shuffled for the round is the rules' whole shoe (D65):
        # first, since the preparation's positions count in its cards
        _shuffled_count(spec, rules, shuffled[0])
        if shuffled and not history.shoe.irregularity_test
        else None
    ) or preparation_problem(spec, rules, history)
    if problem is None and spec.uses_starting_position:
        problem = drawn_start_problem(history)
    if problem is not None:
        return _Replayed(problem)
    shoe, problem, drawn = _shoe(spec, rules, history)
    if problem is not None or shoe is None:
        return _Replayed(problem)
    purses = purses_of(history)
    # the rack the engine began with: what it holds after the round
    # beyond it is what the round put there
    given = len(shoe.discard)
    rnd, stop = _run(spec, rules, shoe, history, purses)
    if history.status == "voided":
        found = _voided(spec, rnd, stop, history)
        if found is None and purses is not None:
            found = purses.problem
        return _Replayed(found)
    if stop is None and not rnd.is_over:
        # every input replayed, and the round still waits: the step where
        # the log left the engine's before then (a card dealt elsewhere),
        # else a decision the log never made (its stakes never settled)
        found = _departure(
            spec, _steps(spec, rnd, history), history.procedure, history
        )
        return _Replayed(found or _unfinished(rnd))
    engine = _steps(spec, rnd, history)
    same, steps = (
        _same_json(engine, history.procedure, text)
        if stop is None
        else (False, None)
    )
    strict = same and _inputs_valid(history.procedure)
    steps = steps if strict else None
    if not strict:
        # every step equal as JSON is what the comparison finds equal
        loosened = _loosened(spec, history)
        found = _compare(spec, engine, history.procedure, stop, loosened)
        if found is not None:
            return _Replayed(found)
    found = _settlements_problem(spec, rnd, history)
    if found is None and counts_reshuffle(rnd, history):
        # a reshuffle gathers the whole shoe (D72; D75 for a whole one)
        found = reshuffle_problem(spec, _complement(spec, rules), rnd, history)
    if found is not None:
        return _Replayed(found, strict, steps=steps)
    # a shoe known only as dealt is counted across its rounds (D71)
    holds = _complement(spec, rules) if history.shoe.stack is None else None
    found = record_problem(history) or unmarked_new_shoe(spec, history)
    if found is None and purses is not None:
        found = purses.problem
    return _Replayed(found, strict, drawn, shoe.discard[given:], holds, steps)


def _voided(
    spec: GameSpec, rnd: Round, stop: _StopError | None, history: HandHistory
) -> Deviation | None:
    """A voided round's steps up to its void replayed, then its books.

    The steps before the ``round_voided`` step are the engine's (as any
    round's: cards from the shoe, decisions legal, payments at once
    right); the engine may have gone on past them (the void stopped the
    round there), but not have finished before it (a round over is not
    voided). The settlements made before the void come first in the
    record, as the engine made them; then the returns (D25).
    """
    procedure = history.procedure
    cut = next(
        (i for i, s in enumerate(procedure) if s["type"] == "round_voided"),
        None,
    )
    if cut is None:
        return Deviation(
            VOID_REF,
            "the round is recorded as voided, but no step voids it "
            "(round_voided)",
        )
    engine = _steps(spec, rnd, history)
    # the dealer's steps before the void; the server's own (a seat left
    # out or freed by the pacing, D29) are not the engine's to replay,
    # but a step of the game's is, whatever scope it claims (D79)
    before = [
        s
        for s in procedure[:cut]
        if s.get("scope") != "server" or game_step(s)
    ]
    cut = len(before)
    if rnd.is_over and len(engine) <= cut and stop is None:
        return Deviation(
            VOID_REF,
            "the round was over, every wager settled, before it was "
            "voided: a finished round is not voided",
        )
    loosened = _loosened(spec, history)
    # (a log going on where the engine waits for a decision is found
    # where the engine's steps end); a refusal the engine met past the
    # void (a deal it would not make, the round voided before it) is not
    # the log's
    late = stop is not None and len(engine) >= cut
    found = _compare(
        spec, engine[:cut], before, None if late else stop, loosened
    )
    if found is not None:
        return found
    if (
        stop is None
        and rnd.is_over
        and len(engine) > cut
        and engine[cut]["type"] == "round_voided"
    ):
        return _voided_by_procedure(engine[cut], procedure)
    settled = sum(1 for s in before if s["type"] == "wager_settled")
    made = [s.to_dict() for s in rnd.settlements][:settled]
    return voided_problem(history, made)


def _voided_by_procedure(
    void: Mapping[str, Any], procedure: Sequence[Mapping[str, Any]]
) -> Deviation:
    """A round recorded ``voided`` that its own procedure voided (D67).

    The rule itself voids the round there (``void``, the engine's step:
    a pai gow misdeal or wrong count, 670a.9(e); a shoe that ran out,
    D69) and returns its stakes in steps of the procedure: the round
    ran to its end, so its record says ``over``. ``voided`` is for a
    round the server stopped before its procedure ended.
    """
    seq = next(
        (s.get("seq") for s in procedure if s["type"] == "round_voided"),
        None,
    )
    return Deviation(
        RECORD_REF,
        f"the round is recorded as voided, but its own procedure voids "
        f"it (step {seq}, {void['ref']}: {void.get('reason')}) and "
        f"returns every stake: such a round is played to its end, so "
        f'record it with status "over" (its void rows as they are, no '
        f'void_reason); "voided" is for a round the server stopped '
        f"before its procedure ended (D25, D67)",
        seq if type(seq) is int else None,
    )


def _departure(
    spec: GameSpec,
    engine: list[dict[str, Any]],
    log: Sequence[Mapping[str, Any]],
    history: HandHistory,
) -> Deviation | None:
    """The first of the engine's steps the log does not take, if any.

    Only the steps both have: a log that stops while the engine goes on
    is left to the caller.
    """
    found = _first_difference(spec, engine, log, _loosened(spec, history))
    return None if found is None else explain(spec, found[1], log, found[0])


def _steps(
    spec: GameSpec, rnd: Round, history: HandHistory
) -> list[dict[str, Any]]:
    """The engine's steps, as the record is to show them.

    A pai gow deck shuffled before the round (its record's preparation
    holds the shuffle, its procedure none before the first card) is
    compared without the engine's own ``shuffled`` step (D91): the
    670a.5 shuffle is completed before the deck is held (670a.9(a)(2))
    or placed in the automated shoe (670a.10(a)(1)).
    """
    engine = [e.to_dict() for e in rnd.events]
    if spec.reshuffle_every_round and _shuffled_before(history):
        at = next(
            (i for i, e in enumerate(engine) if e["type"] == "shuffled"),
            None,
        )
        if at is not None:
            del engine[at]
            for step in engine[at:]:
                seq = step.get("seq")
                if type(seq) is int:
                    step["seq"] = seq - 1
    return engine


def _shuffled_before(history: HandHistory) -> bool:
    """Whether the deck's shuffle is recorded in the preparation alone."""
    if not history.shoe.shuffles():
        return False
    for step in history.procedure:
        kind = step["type"]
        if kind == "shuffled":
            return False
        if kind == "card_dealt":
            break
    return True


def _unfinished(rnd: Round) -> Deviation:
    """The deviation of a round over by its status but not by its steps."""
    pending = rnd.pending()
    if pending is None:
        return Deviation(
            RECORD_REF,
            f"the round is recorded as over, but its steps stop in the "
            f"{rnd.phase} phase",
        )
    hand = f", hand {pending.hand}" if pending.hand else ""
    legal = ", ".join(action.value for action in pending.legal)
    return Deviation(
        str(pending.ref),
        f"the round is recorded as over, but seat {pending.seat}{hand} "
        f"never made the decision the rule asks for ({legal}); its "
        f"stakes were never settled",
    )


def _settlements_problem(
    spec: GameSpec, rnd: Round, history: HandHistory
) -> Deviation | None:
    """The first recorded settlement that is not the engine's, if any."""
    settled = [s.to_dict() for s in rnd.settlements]
    if settled == list(history.settlements) or settlements_reordered(
        spec, settled, history.settlements
    ):
        return None
    for i, want in enumerate(history.settlements):
        got = settled[i] if i < len(settled) else None
        if got != want:
            return Deviation(
                str((got or want)["ref"]),
                f"settlement {i + 1} is recorded as {fields_text(want)}; "
                f"the rule gives "
                f"{fields_text(got) if got else 'no further settlement'}",
            )
    extra = settled[len(history.settlements)]
    return Deviation(
        str(extra["ref"]),
        f"the settlements stop at {len(history.settlements)}; the rule "
        f"also requires {fields_text(extra)}",
    )
