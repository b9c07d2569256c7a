"""The subsections a Double Back Jack round cites, parsed once.

The dealer's steps and the players' decisions cite these at every card
and settlement; parsing the text each time cost a verified round about
forty dictionary look-ups (issue 17 point 2). Each name says what the
subsection governs; the numbers are those of 591.7 (now 673a.7) and
673a.
"""

from __future__ import annotations

from croupier.regs import Ref

# 591.7: dealing and completion of each round
REF_FROM_SHOE = Ref.parse("591.7(a)")
"""Every card comes from the dealing shoe (an empty shoe voids, D69)."""
REF_NEW_DEALER_BURN = Ref.parse("591.7(c)")
"""A new dealer (and each loaded batch) burns one card."""
REF_COVER_CARD = Ref.parse("591.7(d)")
"""The cover card is set aside and the round completed."""
REF_DEAL = Ref.parse("591.7(e)")
"""The deal: boxes, dealer up card, boxes, dealer hole card."""
REF_DEAL_BOXES_FIRST = Ref.parse("591.7(e)(1)")
"""The first card to each box, clockwise."""
REF_DEAL_DEALER_UP = Ref.parse("591.7(e)(2)")
"""The dealer's first card, face up."""
REF_DEAL_BOXES_SECOND = Ref.parse("591.7(e)(3)")
"""The second card to each box, clockwise."""
REF_DEAL_DEALER_HOLE = Ref.parse("591.7(e)(4)")
"""The dealer's second card, face down."""
REF_PLAYER_BLACKJACK = Ref.parse("591.7(f)")
"""Player Blackjacks paid at once, right to left."""
REF_INSURANCE = Ref.parse("591.7(g)")
"""Insurance offered on an ace up card."""
REF_CARD_READER = Ref.parse("591.7(h)")
"""The hole card checked in the card reader device."""
REF_DECISIONS = Ref.parse("591.7(i)")
"""The players' decisions, left to right."""
REF_HIT = Ref.parse("591.7(j)")
"""Cards dealt face up as each decision requires (a hit's card)."""
REF_HIT_BELOW_21 = Ref.parse("591.7(k)(1)")
"""A hit only below 21 (a hit refused cites it)."""
REF_DOUBLE_CARD = Ref.parse("591.7(k)(2)")
"""The one card of a double down."""
REF_SECOND_CHANCE = Ref.parse("591.7(l)")
"""A busted hand may place a Second Chance Wager."""
REF_SECOND_CHANCE_BUST = Ref.parse("591.7(l)(1)")
"""Busted again after the Second Chance card: both wagers lose."""
REF_SECOND_CHANCE_21 = Ref.parse("591.7(l)(2)")
"""21 after the Second Chance card: paid at once."""
REF_SECOND_CHANCE_STANDS = Ref.parse("591.7(l)(3)")
"""Under 21 after the Second Chance card: the hand stands."""
REF_TWENTY_ONE = Ref.parse("591.7(m)")
"""A player 21 paid at once."""
REF_HOLE_CARD = Ref.parse("591.7(n)")
"""After the 21s are settled, the hole card turned face up."""
REF_DEALER_DRAWS = Ref.parse("591.7(o)")
"""The dealer draws to 17-21."""
REF_DEALER_DRAWS_NOTHING = Ref.parse("591.7(p)")
"""Every hand decided: the dealer draws no card."""
REF_DEALER_22 = Ref.parse("591.7(q)(1)")
"""A dealer 22 returns every remaining wager."""
REF_WIN_WITH_SECOND_CHANCE = Ref.parse("591.7(s)(1)(i)")
"""A winning hand with a Second Chance Wager: that wager is paid."""
REF_WIN = Ref.parse("591.7(s)(1)(ii)")
"""A winning hand without a Second Chance Wager."""
REF_PUSH = Ref.parse("591.7(s)(2)")
"""A tie returns the wagers."""
REF_LOSE = Ref.parse("591.7(s)(3)")
"""A losing hand's wagers collected."""
REF_COLLECT_THEN_PAY = Ref.parse("591.7(t)(1)")
"""Collect every loser, then pay, right to left."""
REF_PLAYER_BY_PLAYER = Ref.parse("591.7(t)(2)")
"""Player by player, right to left."""
REF_CLEARING = Ref.parse("591.7(u)")
"""The cards collected to the discard rack."""
REF_PLAYERS_DECIDE_ONLY = Ref.parse("591.7(v)")
"""Only the dealer handles the cards."""

# 673a: the table, the wagers and the decisions
REF_BOXES = Ref.parse("673a.2(a)")
"""The table's boxes."""
REF_TABLE_LIMITS = Ref.parse("673a.6(a)")
"""Wagers within the table limits."""
REF_WAGERING = Ref.parse("673a.6(c)")
"""Wagers placed before the first card."""
REF_BLACKJACK_WAGER = Ref.parse("673a.6(d)")
"""The Blackjack Wager."""
REF_BOXES_PER_PLAYER = Ref.parse("673a.6(e)")
"""How many (adjacent) boxes one player may play."""
REF_INSURANCE_WAGER = Ref.parse("673a.8")
"""The insurance wager and its limit."""
REF_SURRENDER = Ref.parse("673a.9")
"""Surrender for part of the wager back."""
REF_DOUBLE = Ref.parse("673a.10(a)")
"""The double down wager."""
REF_DOUBLE_AFTER_SPLIT = Ref.parse("673a.10(c)")
"""Doubling on a split hand, as the rules allow it or not."""
REF_SPLIT = Ref.parse("673a.11(a)")
"""Splitting a pair."""
REF_SPLIT_CARD = Ref.parse("673a.11(b)")
"""The second card to each split hand."""
