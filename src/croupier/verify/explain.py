"""Say what went wrong where a log and the engine's procedure part.

The subsection cited is the one of the step the rule required (the
engine's step at that point): a missing burn cites the burn rule, a
dealer who stood cites the dealer's drawing rule, a settlement out of
order cites the collection order in force. The message says what the
log did and what the rule required, in the dealer's terms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.cards import Card
from croupier.games.double_back_jack.refs import REF_SPLIT_CARD
from croupier.games.six_card_fortune_pai_gow.refs import (
    AUTOMATED_SHOE,
    BY_HAND_OR_MANUAL_SHOE,
)
from croupier.hands.baccarat import point_count
from croupier.hands.blackjack import blackjack_total
from croupier.jsontypes import json_text
from croupier.jsontypes import whole_float_as_int as whole_number
from croupier.registry import GameSpec

from .book import book_of
from .over import play_over

RECORD_REF = "810a.11"
"""The game-record rule (what a round's record must hold, its numbering)."""

__all__ = [
    "RECORD_REF",
    "Deviation",
    "describe",
    "explain",
    "explain_missing",
    "explain_over",
    "fields_text",
    "option_house_rule",
    "option_ref",
    "shown",
    "whole_number",
]

Step = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Deviation:
    """The first place where a round departs from the rules."""

    ref: str
    """The subsection broken (what the rule required)."""
    message: str
    """What happened and what the rule required."""
    seq: int | None = None
    """The log's step, when the deviation is at one."""

    def __str__(self) -> str:
        return f"{self.ref}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"ref": self.ref, "message": self.message, "seq": self.seq}


_ORDER_REFS = ("591.7(t)(1)", "591.7(t)(2)")
"""Announcements that fix the order of collection and payment."""


_SETTLED_WHEN: dict[str, tuple[str, str]] = {
    "629b.1(c)": (
        "629b.1(d)",
        "the Perfect Pairs wagers are settled once the first two cards of "
        "each hand are positioned, before a third card is dealt",
    ),
}
"""Settlements the rule times, by the engine's subsection of the
settlement: a log that goes on without settling them breaks the rule of
when, not the rule of what they pay."""


def _bonus_counted(steps: Sequence[Step], said: str, due: str) -> str | None:
    """The Bonus-only card an announcement ``said`` counted, if it did.

    A hand's total with its Bonus-only card named in the log's words and
    not in the rule's (``due``) is that card counted for the main wagers.

    >>> steps = [{"type": "card_dealt", "to": "banker hand", "card": c,
    ...           "purpose": p} for c, p in (("9c", ""), ("5c", ""),
    ...                                      ("7c", "bonus only"))]
    >>> _bonus_counted(steps, "Player 21, Banker 21: tie",
    ...                "Player 21, Banker 14: Player wins")
    '7c'
    """
    for hand, name in (("player hand", "Player"), ("banker hand", "Banker")):
        dealt = [
            s
            for s in steps
            if s.get("type") == "card_dealt" and s.get("to") == hand
        ]
        extra = [s for s in dealt if s.get("purpose") == "bonus only"]
        if not extra:
            continue
        total = blackjack_total([Card.parse(str(s["card"])) for s in dealt])
        words = f"{name} {total.value}"
        if words in said and words not in due:
            return str(extra[0]["card"])
    return None


_HOLE_SHOWN = ("591.7(h)", "591.7(h), 591.7(n)")
"""Double Back Jack's hole card: checked unseen (h), turned up at the
dealer's turn (n)."""


def _natural_ref(spec: GameSpec, engine: Sequence[Step]) -> str | None:
    """The natural's subsection the engine last cited, if the round has one."""
    prefix = book_of(spec.section).natural
    if prefix is None:
        return None
    return next(
        (
            str(e["ref"])
            for e in reversed(engine)
            if str(e.get("ref", "")).startswith(prefix)
        ),
        None,
    )


def _wagering_ref(spec: GameSpec, engine: Sequence[Step], ref: str) -> str:
    """The rule that closes wagering: the wagering phase's, as cited."""
    return next(
        (
            str(e["ref"])
            for e in engine
            if e.get("type") == "phase_entered"
            and e.get("phase") == "wagering"
        ),
        book_of(spec.section).wagers_close or ref,
    )


def _hole_card(spec: GameSpec, kind: object, step: Step) -> bool:
    """Whether ``step`` turns the Double Back Jack dealer's hole card up."""
    return (
        spec.section == "591.7"
        and kind == "card_exposed"
        and step.get("to") == "dealer"
    )


_DEALS = frozenset(
    {
        *(f"591.7(e)({n})" for n in range(1, 5)),
        *(f"681a.7(e)({n})" for n in range(1, 5)),
        "629a.8(c)(1)",
        "629a.8(c)(2)",
    }
)
"""The initial deal's subsections: a card the rule deals there is no
hand's draw, so a log that has another step there did not "stand"."""


def _settled_late(
    spec: GameSpec, got: Step, want: Step
) -> tuple[str, str] | None:
    """The rule of when a settlement is made, where the log goes on.

    ``got`` is the engine's settlement, ``want`` the log's step instead
    (not a settlement): a Perfect Pairs wager not settled before the
    third card (629b.1(d)), or a 21 Baccarat layout cleared while a
    wager remains (681a.7(l)). ``None``: no such rule.
    """
    timed = _SETTLED_WHEN.get(str(got.get("ref")))
    if timed is not None:
        rule, when = timed
        return (
            rule,
            f"the log has {describe(want)} before {describe(got)}: {when}",
        )
    clear = book_of(spec.section).cleared_after
    gathering = want.get("type") == "cards_collected" or (
        want.get("type") == "phase_entered" and str(want.get("ref")) == clear
    )
    if clear is not None and gathering:
        return (
            clear,
            f"the log has {describe(want)} while {describe(got)} is still "
            f"to come: the cards are removed from the table after all "
            f"wagers have been settled",
        )
    return None


def option_ref(spec: GameSpec, name: str) -> str:
    """The subsection a rules option applies (the game's section if none).

    An option no subsection fixes is a house decision: its deviation
    keeps the game's section, and its message says which decision
    (:func:`option_house_rule`).
    """
    for info in spec.rules_type.options():
        if info.name == name and info.ref:
            return info.ref
    return spec.section


def option_house_rule(spec: GameSpec, name: str) -> str | None:
    """``house rule Dnn`` for an option no subsection fixes.

    >>> from croupier.registry import find_game
    >>> game = find_game("six-card-fortune-pai-gow")
    >>> option_ref(game, "envy_paytable"), option_house_rule(
    ...     game, "envy_paytable")
    ('670a.9', 'house rule D23')
    >>> option_house_rule(game, "house_way") is None
    True
    """
    return next(
        (
            info.house_rule
            for info in spec.rules_type.options()
            if info.name == name
        ),
        None,
    )


def deck_ref(spec: GameSpec, rules: object) -> str:
    """The subsection a round's cards answer to: a card too many or missing.

    The ``decks`` option's, for a game dealt from a shoe of decks. A pai
    gow deck has no such option (one deck and a joker, D18): a deck that
    is not those 53 cards is the wrong deck that (e) of the section it is
    dealt under removes (670a.9(e); from an automated shoe, 670a.10(e)),
    not the bare section ``670a.9``.

    >>> from croupier.registry import find_game
    >>> spec = find_game("six-card-fortune-pai-gow")
    >>> rules = spec.rules_type.from_mapping
    >>> deck_ref(spec, rules({"dealing": "manual_shoe"}))
    '670a.9(e)'
    >>> deck_ref(spec, rules({"dealing": "automated_shoe"}))
    '670a.10(e)'
    >>> deck_ref(find_game("double-back-jack"), None)
    '673a.3(a)'
    """
    if spec.section != "670a.9":
        return option_ref(spec, "decks")
    if getattr(rules, "dealing", None) == "automated_shoe":
        return str(AUTOMATED_SHOE.void)
    return str(BY_HAND_OR_MANUAL_SHOE.void)


def shown(value: object) -> str:
    """A record's value in a message: text as written, else as JSON.

    A reference, a card or a name reads as it is (``591.7(c)``, ``As``);
    any other value as JSON writes it (``null``, ``true``, ``2500``,
    :func:`~croupier.jsontypes.json_text`), never Python's ``None``.

    >>> shown("591.7(c)"), shown(None), shown(False), shown([1, 2])
    ('591.7(c)', 'null', 'false', '[1, 2]')
    """
    return value if isinstance(value, str) else json_text(value, 60)


def fields_text(data: Mapping[str, Any]) -> str:
    """A step's or settlement's fields as ``key=value, ...`` for a message.

    >>> fields_text({"seat": 1, "wager": "tie", "face_up": False})
    'seat=1, wager=tie, face_up=false'
    """
    return ", ".join(f"{k}={shown(v)}" for k, v in data.items())


def describe(step: Step) -> str:
    """A step in the dealer's words."""
    kind = step.get("type")
    if kind == "card_dealt":
        face = "" if step.get("face_up", True) else " face down"
        hand = f" (hand {step['hand'] + 1})" if step.get("hand") else ""
        purpose = f" as {step['purpose']}" if step.get("purpose") else ""
        return f"dealing {step['card']}{face} to {step['to']}{hand}{purpose}"
    if kind == "card_burned":
        face = " face up" if step.get("face_up") else ""
        return f"burning {step['card']}{face}"
    if kind == "card_exposed":
        return f"exposing {step['to']}'s {step['card']}"
    if kind == "wager_placed":
        return (
            f"a {step['wager']} wager of {step['amount']} at seat "
            f"{step['seat']}"
        )
    if kind == "wager_settled":
        return (
            f"settling seat {step['seat']}'s {step['wager']} "
            f"({step['outcome']}, net {step['net']})"
        )
    if kind == "decision_made":
        return f"seat {step['seat']}'s decision {json_text(step['action'])}"
    if kind == "cards_collected":
        how = "" if step.get("exposed", True) else " unexposed"
        return f"collecting {step['source']}'s cards{how} ({step['cards']})"
    if kind == "announced":
        return f"announcing {json_text(step['text'])}"
    if kind == "phase_entered":
        return f"the {step['phase']} phase"
    if kind == "cover_card_reached":
        return "the cover card coming out"
    fields = ", ".join(
        f"{k}={v}" for k, v in step.items() if k not in ("seq", "ref", "type")
    )
    return f"{str(kind).replace('_', ' ')} ({fields})"


def _discarded_unwagered(
    engine: Sequence[Step], source: object
) -> Step | None:
    """The step that discarded ``source``'s stack for want of a wager.

    A pai gow position without a wager has its stack collected, unseen,
    once the deal is found right (670a.9(f)): an Envy Bonus paid on that
    stack breaks that rule, not the settlement's.

    >>> gone = {"ref": "670a.9(f)", "type": "cards_collected",
    ...         "source": "seat 3", "exposed": False}
    >>> _discarded_unwagered([gone], "seat 3")["ref"]
    '670a.9(f)'
    >>> _discarded_unwagered([gone], "seat 2") is None
    True
    """
    return next(
        (
            e
            for e in engine
            if e.get("type") == "cards_collected"
            and e.get("source") == source
            and e.get("exposed") is False
            and e.get("source") != "remaining"
        ),
        None,
    )


_NOTHING = "nothing the rule voids a round for has happened"
"""Why a void the rule does not make is a deviation."""

_DEALT_RIGHT = (
    "every position and the dealer hold six cards and eleven remain: the "
    "deal was right, and the eleven go to the discard rack"
)
"""Why a pai gow void after the count of (d) is a deviation."""


def _shuffle_message(log: Sequence[Step], i: int) -> str:
    """A pai gow log without the deck's shuffle where the rule has it.

    >>> held = {"seq": 4, "type": "deck_held", "hand": "left"}
    >>> print(_shuffle_message([held], 0))  # doctest: +ELLIPSIS
    the deck's shuffle is not recorded (the log has deck held (hand=left) ...
    """
    want = log[i]
    later = next(
        (s for s in log[i + 1 :] if s.get("type") == "shuffled"), None
    )
    if later is not None:
        return (
            f"the log shuffles the deck at step {later.get('seq')}, after "
            f"its step {want.get('seq')} ({describe(want)}); the shuffle "
            f"comes first, before the deck is held or placed in the shoe"
        )
    return (
        f"the deck's shuffle is not recorded (the log has {describe(want)} "
        f"here): the deck is shuffled for every round; record the "
        f"shuffled step in the round's preparation (shoe.preparation, "
        f"before the round) or here, after the dealing phase begins (D91)"
    )


def _burn_run(steps: Sequence[Step], i: int) -> tuple[int, Step | None]:
    """Burns in the run of burns that step ``i`` belongs to or follows."""
    start = i
    while start > 0 and steps[start - 1].get("type") == "card_burned":
        start -= 1
    end = start
    while end < len(steps) and steps[end].get("type") == "card_burned":
        end += 1
    return end - start, steps[start] if end > start else None


def _total(spec: GameSpec, steps: Sequence[Step], to: str) -> str:
    cards: list[Card] = []
    for step in steps:
        if step.get("type") == "card_dealt" and step.get("to") == to:
            if step.get("purpose") == "bonus only":
                continue
            cards.append(Card.parse(step["card"]))
    if spec.section.startswith("629"):
        return str(point_count(cards))
    total = blackjack_total(cards)
    return f"soft {total.value}" if total.soft else str(total.value)


def _burn_message(engine: Sequence[Step], log: Sequence[Step], i: int) -> str:
    required, first = _burn_run(engine, i)
    done, _ = _burn_run(log, i)
    after = ""
    if first is not None and first.get("face_up"):
        # the exposed card says how many more to burn (629a.5(f))
        after = f" after an exposed {str(first['card'])[0]}"
        required, done = required - 1, max(done - 1, 0)
    later = None
    if i < len(log) and log[i].get("type") != "card_burned":
        later = next(
            (
                step
                for step in log[i + 1 :]
                if step.get("type") in ("card_burned", "card_dealt")
            ),
            None,
        )
    if later is not None and later.get("type") == "card_burned":
        # the burn is there, but after steps that come after it
        return (
            f"the log burns at step {later.get('seq')}, after its step "
            f"{log[i].get('seq')} ({log[i].get('type')}); the burn, "
            f"{required} card(s){after}, comes first, before play begins"
        )
    return f"burned {done} card(s){after}, requires {required}"


def explain_over(
    spec: GameSpec,
    log: Sequence[Step],
    i: int,
    required: Step | None = None,
) -> Deviation | None:
    """Log step ``i`` decides for, or deals to, a hand whose play is over.

    Cited under the rule that ended the hand's play
    (:func:`~croupier.verify.over.play_over`), whatever the engine did
    next (``required``, if it did anything) or however it refused the
    decision (out of turn, nothing pending): the hand is the reason.
    """
    want = log[i]
    over = play_over(spec.section, log[:i], want)
    if over is None:
        return None
    ref, why = over
    instead = (
        "" if required is None else f"; the rule requires {describe(required)}"
    )
    return Deviation(
        ref,
        f"the log has {describe(want)}, but {why}{instead}",
        int(want["seq"]) if "seq" in want else None,
    )


def explain(
    spec: GameSpec,
    engine: Sequence[Step],
    log: Sequence[Step],
    i: int,
    refused: Deviation | None = None,
) -> Deviation:
    """The deviation at log step ``i`` (the engine differs or has ended).

    ``refused`` is the engine's refusal of the log's next decision, when
    step ``i`` is that decision: in a game that asks for none (21
    Baccarat, Midibaccarat) it is the rule the decision breaks.
    """
    over = explain_over(spec, log, i, engine[i] if i < len(engine) else None)
    if over is not None:
        return over
    want = log[i]
    seq = int(want["seq"]) if "seq" in want else None
    if i >= len(engine):
        last = engine[-1] if engine else {"ref": spec.section}
        return Deviation(
            str(last["ref"]),
            f"{describe(want)} after the round was complete",
            seq,
        )
    got = engine[i]
    ref = str(got["ref"])
    kind, their = got.get("type"), want.get("type")
    if kind == their:
        same = {k: v for k, v in got.items() if k != "ref"} == {
            k: v for k, v in want.items() if k != "ref"
        }
        if same:
            return Deviation(
                ref,
                f"step {seq} cites {shown(want['ref'])}, the rule is {ref}",
                seq,
            )
        numbered = {k: v for k, v in got.items() if k != "seq"} == {
            k: v for k, v in want.items() if k != "seq"
        }
        if numbered:
            # the record's numbering, not the dealer's procedure
            return Deviation(
                RECORD_REF,
                f"step {i + 1} is numbered {json_text(want.get('seq'))}; the "
                f"steps "
                f"are numbered from 1 in order",
                seq,
            )
    if kind == "shuffled" and their != kind and spec.reshuffle_every_round:
        # a deck shuffled for every round, before it is held (D91)
        return Deviation(ref, _shuffle_message(log, i), seq)
    if their == "round_voided" and kind != their:
        counted = (
            kind == "cards_collected" and got.get("source") == "remaining"
        )
        return Deviation(
            ref,
            f"the log voids the round ({want.get('reason')}) where the rule "
            f"goes on with {describe(got)}: "
            f"{_DEALT_RIGHT if counted else _NOTHING}",
            seq,
        )
    if kind == "round_voided" and their != kind:
        return Deviation(
            ref,
            f"the log goes on with {describe(want)} where the rule "
            f"requires {describe(got)}: the round is void, every stake "
            f"goes back",
            seq,
        )
    unwagered = (
        _discarded_unwagered(engine[:i], want.get("source"))
        if their == "envy_bonus_paid"
        else None
    )
    if unwagered is not None:
        return Deviation(
            str(unwagered["ref"]),
            f"the log pays seat {shown(want.get('seat'))} an Envy Bonus on "
            f"{shown(want.get('source'))}'s {shown(want.get('category'))}, "
            f"but {shown(want.get('source'))} held no wager: its stack was "
            f"collected unexposed to the discard rack after the count and "
            f"earns nothing; the rule requires {describe(got)}",
            seq,
        )
    if their == "card_dealt" and kind == "cards_counted":
        # pai gow: the engine's deal is over, the log deals on
        dealt = next(
            (
                str(e["ref"])
                for e in reversed(engine[:i])
                if e["type"] == their
            ),
            ref,
        )
        return Deviation(
            dealt,
            f"the log deals {want.get('card')} to {want.get('to')} after "
            f"the deal is complete: the rule deals six turns, one card at "
            f"a time clockwise to every position and the dealer, then "
            f"requires {describe(got)}",
            seq,
        )
    if their == "decision_made" and refused is not None and not spec.actions:
        return Deviation(refused.ref, refused.message, seq)
    offered = book_of(spec.section).offered_when
    if (
        kind == their == "phase_entered"
        and want.get("phase") in offered
        and got.get("phase") != want.get("phase")
    ):
        rule, condition = offered[str(want["phase"])]
        return Deviation(
            rule,
            f"the log enters the {want['phase']} phase where the rule "
            f"enters the {got.get('phase')} phase: {condition}",
            seq,
        )
    if (
        their == "card_dealt"
        and want.get("purpose") == "split"
        and kind != their
        and spec.section == "591.7"
    ):
        # a split pair's first hand is completed before the second gets
        # a card: the rule of the split card's deal
        return Deviation(
            str(REF_SPLIT_CARD),
            f"{want.get('to')} was dealt {want.get('card')} while the "
            f"split's first hand was still in play (the rule requires "
            f"{describe(got)}): the first hand is completed before the "
            f"second gets a card",
            seq,
        )
    if "card_burned" in (kind, their) and kind != their:
        burn = (
            ref if kind == "card_burned" else book_of(spec.section).burn or ref
        )
        return Deviation(burn, _burn_message(engine, log, i), seq)
    if kind == "wager_settled" and their != kind:
        late = _settled_late(spec, got, want)
        if late is not None:
            return Deviation(late[0], late[1], seq)
    if (
        kind == their == "card_dealt"
        and got["card"] == want["card"]
        and got["to"] != want["to"]
    ):
        return Deviation(
            ref,
            f"{want['card']} was dealt to {want['to']}; the rule deals "
            f"the next card to {got['to']}",
            seq,
        )
    if kind == "wager_placed" and their != "wager_placed":
        placed = (got["seat"], got["wager"], got["amount"])
        if any(
            (s.get("seat"), s.get("wager"), s.get("amount")) == placed
            for s in log[i + 1 :]
            if s.get("type") == "wager_placed"
        ):
            return Deviation(
                _wagering_ref(spec, engine[:i], ref),
                f"{describe(got)} is placed after {describe(want)}: "
                f"wagering had closed",
                seq,
            )
    if their == "wager_placed" and kind != "wager_placed":
        opened = _wagering_ref(spec, engine[:i], ref)
        return Deviation(
            opened,
            f"{describe(want)} placed after wagering closed; the rule "
            f"requires {describe(got)}",
            seq,
        )
    if (
        kind == "card_dealt"
        and their != "card_dealt"
        and not spec.section.startswith("670a")  # pai gow hands never draw
    ):
        who = str(got["to"])
        if who in book_of(spec.section).draws and ref not in _DEALS:
            total = _total(spec, log[:i], who)
            return Deviation(
                ref,
                f"{who} stood on {total}; the rule requires a card "
                f"(the log has {describe(want)})",
                seq,
            )
    bonus_only = book_of(spec.section).bonus_only
    if kind == their == "announced" and bonus_only is not None:
        counted = _bonus_counted(
            log[:i], str(want.get("text")), str(got.get("text"))
        )
        if counted is not None:
            return Deviation(
                bonus_only,
                f"the log announces {json_text(want.get('text'))} where the "
                f"rule announces {json_text(got.get('text'))}: the Bonus-only "
                f"card "
                f"{counted} does not count for the Player or Banker Wager",
                seq,
            )
    if _hole_card(spec, their, want) and kind != their:
        # the hole card stays unseen at the check (h), turned up only
        # when the players have acted, before the dealer draws (n)
        return Deviation(
            _HOLE_SHOWN[0],
            f"the dealer's hole card {want.get('card')} is turned face up "
            f"where the rule requires {describe(got)}: it stays unseen "
            f"until every player has acted ({_HOLE_SHOWN[1]})",
            seq,
        )
    if their == "card_dealt" and kind != "card_dealt":
        who = str(want["to"])
        total = _total(spec, log[:i], who)
        if who == "dealer" and (
            _hole_card(spec, kind, got) or got.get("phase") == "hole_card"
        ):
            return Deviation(
                ref,
                f"the dealer drew {want['card']} before turning the hole "
                f"card face up; the rule turns it up first",
                seq,
            )
        # the engine went on to settle: the drawing rule said no card
        # (any other step of the engine's, a cover card or an
        # announcement that no card is drawn, is the rule broken); in a
        # round with a natural, the natural's rule (21 Baccarat's (f))
        other = book_of(spec.section).other_hands_draw.get(who, frozenset())
        drew = (
            _natural_ref(spec, engine[: i + 1])
            or book_of(spec.section).draws.get(who, ref)
            if kind in ("phase_entered", "wager_settled")
            or (kind == "announced" and str(got.get("ref")) in other)
            else ref
        )
        return Deviation(
            drew,
            f"{who} drew {want['card']} on {total}; the rule requires "
            f"{describe(got)} instead",
            seq,
        )
    if kind == their == "wager_settled":
        later = [
            e
            for e in engine[i + 1 :]
            if e.get("type") == "wager_settled"
            and (e["seat"], e["wager"], e.get("hand"))
            == (want["seat"], want["wager"], want.get("hand"))
        ]
        if later and later[0]["net"] == want["net"]:
            order = next(
                (
                    str(e["ref"])
                    for e in reversed(engine[:i])
                    if str(e.get("ref")) in _ORDER_REFS
                ),
                book_of(spec.section).settlement_order or ref,
            )
            return Deviation(
                order,
                f"{describe(want)} out of order; the rule's order settles "
                f"seat {got['seat']}'s {got['wager']} first",
                seq,
            )
    mine, theirs = describe(want), describe(got)
    if mine == theirs:
        # the words are the same: name the fields that are not
        differ = [
            f"{k}={json_text(want.get(k))} (the rule: {json_text(got.get(k))})"
            for k in dict.fromkeys([*want, *got])
            if k not in ("seq", "ref") and want.get(k) != got.get(k)
        ]
        mine = f"{mine} with {', '.join(differ)}"
    return Deviation(
        ref, f"the log has {mine}; the rule requires {theirs}", seq
    )


def explain_missing(
    spec: GameSpec, engine: Sequence[Step], log: Sequence[Step]
) -> Deviation:
    """The log stops while the rule requires more steps."""
    got = engine[len(log)]
    ref = str(got["ref"])
    if got.get("type") == "card_burned":
        return Deviation(ref, _burn_message(engine, log, len(log)))
    if (
        got.get("type") == "card_dealt"
        and got["to"] in book_of(spec.section).draws
        and ref not in _DEALS
    ):
        total = _total(spec, log, str(got["to"]))
        return Deviation(
            ref, f"{got['to']} stood on {total}; the rule requires a card"
        )
    return Deviation(
        ref, f"the log ends where the rule requires {describe(got)}"
    )
