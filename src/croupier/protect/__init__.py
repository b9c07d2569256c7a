"""Game protection: how each wager can be beaten, and what closes it.

Effects of removal, card counts simulated through real shoes, perfect
play bounds for the pair wagers, known cards and edge sorting, and the
Double Back Jack card reader, for any Rules Submission.
"""
