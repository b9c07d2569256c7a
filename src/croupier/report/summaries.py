"""Each game's rules in a few sentences, in our words, citing sections.

These paragraphs open a math report's "Rules of the game" section; the
options that a Rules Submission may change follow them as a table. No
regulation text is copied: each sentence is a summary and cites the
subsection it summarises.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.errors import CroupierError
from croupier.money import dollars
from croupier.rules import Paytable

__all__ = ["rules_summary"]

_BACCARAT_PLAY = (
    "Two hands, Player and Banker, receive two cards each from a shoe; "
    "cards count at face value, tens and faces at zero, and a hand's "
    "total is the last digit of the sum. Fixed drawing rules give each "
    "hand at most one third card; nobody decides anything once the "
    "cards come out. The higher total wins; equal totals are a tie, on "
    "which Player and Banker Wagers push (629a, drawing rules as in "
    "631a.11, Table 1)."
)

_PAIRS = {
    "perfect": "a pair of one suit",
    "colored": "a pair of one colour in two suits",
    "mixed": "a pair of two colours",
}
"""The Perfect Pairs categories (629b.1), in words."""


def _paid(table: object, names: dict[str, str]) -> str:
    """A paytable in words: ``a pair of one suit pays 25 to 1, ...``."""
    rows = [
        f"{names.get(key, key.replace('_', ' '))} {_to(odds)}"
        for key, odds in _rows(table)
    ]
    return _joined(rows)


def _rows(table: object) -> list[tuple[str, object]]:
    """A :class:`~croupier.rules.Paytable`'s rows (none for anything else)."""
    if not isinstance(table, Paytable):
        return []
    return [(str(k), v) for k, v in table]


def _joined(parts: list[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or ``word``).

    >>> _joined(["hit", "stand", "double"], "or")
    'hit, stand or double'
    """
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def _baccarat_wagers(rules: object) -> str:
    """The wagers sentence of the Midibaccarat games, as offered (D144)."""
    sides = []
    if getattr(rules, "perfect_pairs_offered", False):
        sides.append(
            "the Perfect Pairs Wagers on the first two cards of the Player "
            "or the Banker hand (629b.1: "
            f"{_paid(getattr(rules, 'perfect_pairs', None), _PAIRS)})"
        )
    if getattr(rules, "dragon7_offered", False):
        sides.append("the Dragon 7 Wager")
    if getattr(rules, "panda8_offered", False):
        sides.append("the Panda 8 Wager")
    if not sides:
        return (
            "Wagers are made on the Player or Banker hand winning and on a "
            "tie; this Rules Submission offers no side wager."
        )
    return (
        "Wagers are made on the Player or Banker hand winning, on a tie, "
        f"and on the side wagers this Rules Submission offers: "
        f"{_joined(sides)}."
    )


def _baccarat21(rules: object) -> list[str]:
    """The 21 Baccarat paragraphs with the Rules Submission's odds."""
    player = _to(getattr(rules, "player_payout", "19:20"))
    banker = _to(getattr(rules, "banker_payout", "19:20"))
    pays = (
        f"Winning Player and Banker Wagers pay {player}"
        if player == banker
        else f"A winning Player Wager pays {player} and a Banker Wager "
        f"{banker}"
    )
    bonus = _paid(getattr(rules, "bonus_paytable", None), {})
    return [
        "Two hands, Player and Banker, are dealt face up from a shoe and "
        "counted as in blackjack, an ace as 1 or 11 (681a.7(e)). A hand "
        "under 17 draws one card, Player first, and never holds more "
        "than three cards; a natural (an ace and a ten-value card) stops "
        "the draws (681a.7(f), (g)).",
        "Both hands 21 or less: the higher wins; both over 21: the lower "
        "wins; one over 21: the other wins; equal totals push the Player "
        f"and Banker Wagers (681a.7(h)-(j)). {pays}.",
        "The Tie Wager wins on equal totals and pays "
        f"{_to(getattr(rules, 'tie_payout', '10:1'))}; the Bonus Wagers "
        "pay by a paytable on a pair or better among the hand's final "
        "cards, a Bonus-only card included when a natural stopped the "
        f"draws (681a.7(f)(2), (k)): {bonus}.",
    ]


def _double_back_jack(rules: object) -> list[str]:
    """The Double Back Jack paragraphs, as the options in force say."""
    at_once = str(getattr(rules, "twenty_one_paid", "at_once")) == "at_once"
    twenty_one = (
        "Player Blackjacks and player 21s are paid at once (591.7(f), (m))"
        if at_once
        else "Player Blackjacks are paid at once (591.7(f)); a player 21 "
        "is paid when every player has acted, before the hole card is "
        "turned (591.7(m), (n))"
    )
    splits = int(getattr(rules, "max_split_hands", 2)) > 1
    moves = ["hit", "stand", "double"] + (["split"] if splits else [])
    surrender = getattr(rules, "surrender", True)
    refund = getattr(rules, "surrender_refund", "1/2")
    play = (
        f"A player may {_joined(moves, 'or')}"
        + (
            f", and surrender late for {refund} of the wager back"
            if surrender
            else "; this Rules Submission offers no surrender"
        )
        + " (591.7(i), 673a.9-673a.11)."
    )
    if getattr(rules, "insurance", True):
        insurance = (
            "Insurance, up to "
            f"{getattr(rules, 'insurance_max', '1/2')} of the wager and "
            f"paying {_to(getattr(rules, 'insurance_payout', '2:1'))}, is "
            "offered against a dealer ace (591.7(g), 673a.8)."
        )
    else:
        insurance = "This Rules Submission offers no insurance (673a.8)."
    growth = ["doubles"] + (["splits"] if splits else [])
    growth.append("Second Chance Wagers")
    return [
        "Blackjack against a dealer who checks the hole card with a card "
        "reader device before the players act (591.7(h)). "
        f"{twenty_one}; a dealer 22 pushes every hand still standing "
        "(591.7(q)(1)).",
        f"{play} A hand that busts may be continued with a Second Chance "
        "Wager equal to its wager: the busted hand's cards are set aside "
        "and its last card starts a new hand (591.7(l)). "
        f"{insurance}",
        "The Blackjack Wager is the one wager before the deal; "
        f"{_joined(growth)} add to it during the round, so the element "
        "of risk is reported beside the house edge.",
    ]


def _pai_gow(rules: object) -> list[str]:
    """The Six-Card Fortune Pai Gow paragraphs, as offered (D144)."""
    commission = Fraction(str(getattr(rules, "commission", 0)))
    main = (
        "The Six-Card Fortune Pai Gow Poker Wager wins when both of the "
        "player's hands beat the dealer's, loses when both lose or copy, "
        "and pushes otherwise"
        + (
            ""
            if commission == 0
            else f"; a win pays less a {float(100 * commission):g} % "
            "commission (670a.11)"
        )
    )
    parts = [
        main
        + (
            "; a Double Down Wager may be added after the cards are seen "
            "(670a.7(e)(1), on D22's assumed terms)."
            if getattr(rules, "double_down_offered", False)
            else "; this Rules Submission offers no Double Down Wager "
            "(670a.7(e): only where it says so)."
        )
    ]
    fortune = getattr(rules, "fortune_bonus_offered", True)
    if fortune:
        text = (
            "The Fortune Bonus pays by a paytable on the best five-card "
            "hand among a position's six cards"
        )
        if getattr(rules, "envy_bonus_offered", True):
            minimum = getattr(rules, "envy_qualifying_minimum", 500)
            text += (
                f", with an Envy Bonus for wagers of at least "
                f"{dollars(int(minimum))} when another position holds a "
                "high hand"
            )
        else:
            text += "; this Rules Submission offers no Envy Bonus"
        parts.append(text + " (670a.9(a)(3)(i)).")
    else:
        parts.append(
            "This Rules Submission offers no Fortune Bonus Wager, and so "
            "no Envy Bonus."
        )
    if getattr(rules, "progressive_offered", True):
        parts.append(
            "The Progressive Wager pays odds or a meter share on the top "
            "hands (670a.9(a)(3)(ii))."
        )
    else:
        parts.append("This Rules Submission offers no Progressive Wager.")
    return [
        "A 53-card deck (52 cards and a joker) is dealt six cards to each "
        "position and the dealer (670a.9). Each hand is set as a "
        "five-card high hand and a one-card low hand; the dealer's is "
        "set the house way. The joker counts as an ace or completes a "
        "straight, flush or straight flush.",
        " ".join(parts),
    ]


def _to(odds: object) -> str:
    """Odds in words: ``19:20`` as ``19 to 20``."""
    return str(odds).replace(":", " to ")


def _midibaccarat_payouts(rules: object) -> str:
    """The 629a.12 paragraph with the Rules Submission's odds."""
    banker = _to(getattr(rules, "banker_payout", "19:20"))
    commission = (
        " (a 5 % commission on the win)" if banker == "19 to 20" else ""
    )
    return (
        f"A winning Banker Wager pays {banker}{commission}, a Player Wager "
        f"{_to(getattr(rules, 'player_payout', '1:1'))} and a Tie Wager "
        f"{_to(getattr(rules, 'tie_payout', '8:1'))} (629a.12)."
    )


def _commission_free(rules: object) -> str:
    """The 629b.2 paragraph for the Rules Submission's commission-free rule.

    >>> from croupier.games.midibaccarat.rules import CommissionFreeRules
    >>> text = _commission_free(CommissionFreeRules.from_mapping(
    ...     {"commission_free_rule": "banker6_pays_half"}))
    >>> "total of 6, which pays 1 to 2" in text, "total of 7" in text
    (True, False)
    """
    rule = str(getattr(rules, "commission_free_rule", "dragon7_push"))
    banker = _to(getattr(rules, "banker_payout", "1:1"))
    if rule == "banker6_pays_half":
        six = _to(getattr(rules, "banker_six_payout", "1:2"))
        text = (
            f"Commission-free play (629b.2): a winning Banker Wager pays "
            f"{banker} except when the Banker wins with a total of 6, "
            f"which pays {six}."
        )
    else:
        text = (
            f"Commission-free play (629b.2): a winning Banker Wager pays "
            f"{banker} except when the Banker wins with a three-card total "
            "of 7, which pushes."
        )
    sides = []
    if getattr(rules, "dragon7_offered", True):
        sides.append(
            "the Dragon 7 Wager wins on a Banker win with a three-card 7 "
            f"(it pays {_to(getattr(rules, 'dragon7_payout', '40:1'))})"
        )
    if getattr(rules, "panda8_offered", True):
        sides.append(
            "the Panda 8 Wager on a Player win with a three-card 8 (it "
            f"pays {_to(getattr(rules, 'panda8_payout', '25:1'))})"
        )
    if sides:
        joined = " and ".join(sides)
        text += f" {joined[0].upper()}{joined[1:]}."
    return text


def _defaults(game: str) -> object:
    """The default rules of ``game`` (``None`` for a game unknown here)."""
    from croupier.registry import find_game

    try:
        return find_game(game).rules_type()
    except CroupierError:
        return None


def rules_summary(game: str, rules: object = None) -> list[str]:
    """The rules summary of ``game`` (paragraphs); generic if unknown.

    Every sentence that names an option (payouts, side wagers, surrender,
    insurance, Double Down, Envy, progressive) follows ``rules``, the
    Rules Submission in force (D136, D144); without it, the defaults.

    >>> rules_summary("21-baccarat")[0].startswith("Two hands")
    True
    """
    if rules is None:
        rules = _defaults(game)
    if game == "midibaccarat":
        return [
            _BACCARAT_PLAY,
            _baccarat_wagers(rules),
            _midibaccarat_payouts(rules),
        ]
    if game == "midibaccarat-commission-free":
        return [
            _BACCARAT_PLAY,
            _baccarat_wagers(rules),
            _commission_free(rules),
        ]
    if game == "21-baccarat":
        return _baccarat21(rules)
    if game == "double-back-jack":
        return _double_back_jack(rules)
    if game == "six-card-fortune-pai-gow":
        return _pai_gow(rules)
    return [
        "The rules of the game are those of its section; the options "
        "below are the Rules Submission in force."
    ]
