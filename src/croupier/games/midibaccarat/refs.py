"""Citations and table constants of Midibaccarat (629a) and 629b.

Most of Chapter 629a was not retrievable. Where the text is missing the
events cite the section the step belongs to by the chapter's table of
contents (INFER), and the drawing rules cite 631a.11, their source.
"""

from __future__ import annotations

from croupier.regs import Ref

MAX_SEATS = 9
"""Numbered seated positions at the table (629a.2(a))."""

# Citations. INFER: the text of these sections was not retrievable; the
# subject of each comes from the chapter's table of contents.
REF_SEATS = Ref.parse("629a.2(a)")
REF_WAGERS = Ref.parse("629a.7")  # INFER: "Wagers"
REF_NO_MORE_BETS = Ref.parse("629a.8(b)")  # INFER from 627a.8(b)
REF_DEAL_FACE_UP = Ref.parse("629a.8(c)(1)")  # cited by 629b.1(d)
REF_DEAL_FACE_DOWN = Ref.parse("629a.8(c)(2)")  # cited by 629b.1(d)
REF_CALL = Ref.parse("629a.9")  # INFER: the Player's Hand is "called"
REF_THIRD_CARD = Ref.parse("629a.10")  # INFER: text and Table 1 missing
REF_NATURAL = Ref.parse("631a.11(a)")  # source of the rule
REF_PLAYER_RULE = Ref.parse("631a.11(b)")  # source of the rule
REF_BANKER_STOOD = Ref.parse("631a.11(c)(1)")  # source of the rule
REF_BANKER_TABLE = Ref.parse("631a.11(c)(2)")  # source: Table 1
REF_RESULT = Ref.parse("629a.11")  # INFER: result, payment, collection
REF_PAYOUT = Ref.parse("629a.12")  # INFER: payout odds; vigorish
REF_PERFECT_PAIRS = Ref.parse("629b.1(c)")
REF_PP_SETTLE = Ref.parse("629b.1(d)")  # INFER: settled once positioned
REF_COMMISSION_FREE = Ref.parse("629b.2")  # INFER: text missing (D11)
REF_SECOND_COVER = Ref.parse("629a.5(d)")
