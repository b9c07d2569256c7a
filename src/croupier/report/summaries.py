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


def rules_summary(game: str) -> list[str]:
    """The rules summary of ``game`` (paragraphs); generic if unknown.

    >>> rules_summary("21-baccarat")[0].startswith("Two hands")
    True
    """
    return SUMMARIES.get(
        game,
        [
            "The rules of the game are those of its section; the options "
            "below are the Rules Submission in force."
        ],
    )
