"""Each game's rules in a few sentences, in our words, citing sections.

These paragraphs open a math report's "Rules of the game" section; the
options that a Rules Submission may change follow them as a table. No
regulation text is copied: each sentence is a summary and cites the
subsection it summarises.
"""

from __future__ import annotations

__all__ = ["SUMMARIES", "rules_summary"]

_BACCARAT = [
    "Two hands, Player and Banker, receive two cards each from a shoe; "
    "cards count at face value, tens and faces at zero, and a hand's "
    "total is the last digit of the sum. Fixed drawing rules give each "
    "hand at most one third card; nobody decides anything once the "
    "cards come out. The higher total wins; equal totals are a tie, on "
    "which Player and Banker Wagers push (629a, drawing rules as in "
    "631a.11, Table 1).",
    "Wagers are made on the Player or Banker hand winning, on a tie, and "
    "on the side wagers the Rules Submission offers (Perfect Pairs on "
    "the first two cards of either hand).",
]

SUMMARIES: dict[str, list[str]] = {
    "midibaccarat": [
        *_BACCARAT,
        "A winning Banker Wager pays 19 to 20 (a 5 % commission on the "
        "win), a Player Wager 1 to 1 and a Tie Wager the odds of the "
        "Rules Submission (629a.12).",
    ],
    "midibaccarat-commission-free": [
        *_BACCARAT,
        "Commission-free play (629b.2): a winning Banker Wager pays 1 to "
        "1 except when the Banker wins with a three-card total of 7, "
        "which pushes. The Dragon 7 Wager wins on exactly that outcome "
        "and the Panda 8 Wager on a Player win with a three-card 8.",
    ],
    "21-baccarat": [
        "Two hands, Player and Banker, are dealt face up from a shoe and "
        "counted as in blackjack, an ace as 1 or 11 (681a.7(e)). A hand "
        "under 17 draws one card, Player first, and never holds more "
        "than three cards; a natural (an ace and a ten-value card) stops "
        "the draws (681a.7(f), (g)).",
        "Both hands 21 or less: the higher wins; both over 21: the lower "
        "wins; one over 21: the other wins; equal totals push the Player "
        "and Banker Wagers (681a.7(h)-(j)). Winning Player and Banker "
        "Wagers pay the Rules Submission's odds (19 to 20 by default).",
        "The Tie Wager wins on equal totals; the Bonus Wagers pay by a "
        "paytable on a pair or better among the hand's final cards, a "
        "Bonus-only card included when a natural stopped the draws "
        "(681a.7(f)(2), (k)).",
    ],
    "double-back-jack": [
        "Blackjack against a dealer who checks the hole card with a card "
        "reader device before the players act (591.7(h)). Player "
        "Blackjacks and player 21s are paid at once (591.7(f), (m)); a "
        "dealer 22 pushes every hand still standing (591.7(q)(1)).",
        "A player may hit, stand, double, split and, where the Rules "
        "Submission allows, surrender late (591.7(i), 673a.9-673a.11). "
        "A hand that busts may be continued with a Second Chance Wager "
        "equal to its wager: the busted hand's cards are set aside and "
        "its last card starts a new hand (591.7(l)). Insurance is "
        "offered against a dealer ace (591.7(g), 673a.8).",
        "The Blackjack Wager is the one wager before the deal; doubles, "
        "splits and Second Chance Wagers add to it during the round, so "
        "the element of risk is reported beside the house edge.",
    ],
    "six-card-fortune-pai-gow": [
        "A 53-card deck (52 cards and a joker) is dealt six cards to each "
        "position and the dealer (670a.9). Each hand is set as a "
        "five-card high hand and a one-card low hand; the dealer's is "
        "set the house way. The joker counts as an ace or completes a "
        "straight, flush or straight flush.",
        "The Six-Card Fortune Pai Gow Poker Wager wins when both of the "
        "player's hands beat the dealer's, loses when both lose or "
        "copy, and pushes otherwise; a Double Down Wager may be added "
        "after the cards are seen (670a). The Fortune Bonus pays by "
        "a paytable on the best five-card hand among a position's six "
        "cards, with an Envy Bonus for qualifying wagers when another "
        "position holds a high hand; the progressive wager pays a "
        "meter share on the top hands.",
    ],
}
"""The rules summaries, per registry name."""


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


def rules_summary(game: str, rules: object = None) -> list[str]:
    """The rules summary of ``game`` (paragraphs); generic if unknown.

    With ``rules``, the Midibaccarat paragraphs on payouts and on the
    commission-free rule are those of the Rules Submission in force
    (D136); without, the defaults'.

    >>> rules_summary("21-baccarat")[0].startswith("Two hands")
    True
    """
    if rules is not None and game == "midibaccarat":
        return [*_BACCARAT, _midibaccarat_payouts(rules)]
    if rules is not None and game == "midibaccarat-commission-free":
        return [*_BACCARAT, _commission_free(rules)]
    return SUMMARIES.get(
        game,
        [
            "The rules of the game are those of its section; the options "
            "below are the Rules Submission in force."
        ],
    )
