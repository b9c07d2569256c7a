"""Numba kernels: Double Back Jack rounds through real shoes.

One player box plays the analyzer's strategy (lookup tables from
:mod:`.strategy`) under every option of the Rules Submission. A round
follows the engine (:mod:`croupier.games.double_back_jack.round`) card
for card: player, up card, player, hole card (591.7(e)); a player
Blackjack paid at once (f); insurance on an ace (g); the card reader on
an ace or 10 (h); surrender, double, one split (i)-(k); a 21 paid at
once (m); the Second Chance on a bust (l); the dealer to 17-21, or no
card at all when no hand is left standing (o), (p); dealer 22 pushes
(q); comparison and settlement (r), (s).

Shoes hold value indices (1 = ace ... 10 = 10-value card): a shoe of
``52 * decks`` cards is shuffled (Fisher-Yates from the chunk's numpy
``Generator``), one card is burnt (591.7(c)), the cover card lies
``cut`` cards from the top, and the shoe is reshuffled after the round
in which the cover card comes out (591.7(d)).

Money is integer minor units; winnings round down (or half up) exactly
as :meth:`croupier.money.Odds.winnings`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .strategy import _eff

__all__ = [
    "CODE_VALUES",
    "D_INSURANCE",
    "D_NO_INSURANCE",
    "D_NO_SECOND_CHANCE",
    "D_SECOND_CHANCE",
    "N_OUT",
    "N_WORK",
    "O_CATEGORY",
    "O_DECISIONS",
    "O_FLAGS",
    "O_INS",
    "O_MAIN",
    "O_SC",
    "play_round",
    "shuffle",
    "simulate_shoes",
]

D_INSURANCE = 5
"""Decision code: take insurance (0-4 are the strategy codes)."""
D_NO_INSURANCE = 6
"""Decision code: decline insurance."""
D_SECOND_CHANCE = 7
"""Decision code: place a Second Chance Wager."""
D_NO_SECOND_CHANCE = 8
"""Decision code: decline the Second Chance."""

O_MAIN = 0
"""``out[0:2]``: Blackjack Wager nets of hands 1 and 2."""
O_SC = 2
"""``out[2:4]``: Second Chance Wager nets of hands 1 and 2."""
O_INS = 4
"""``out[4]``: insurance net."""
O_CATEGORY = 5
"""``out[5]``: outcome category (see :data:`CATEGORY_LABELS`)."""
O_DECISIONS = 6
"""``out[6]``: decisions taken (logged in ``dlog``)."""
O_FLAGS = 7
"""``out[7]``: 1 split, 2 / 4 Second Chance on hand 1 / 2, 8 insured."""
O_ERROR = 8
"""``out[8]``: 1 when the shoe ran out of cards."""
N_OUT = 9
"""Length of ``out``."""
N_WORK = 16
"""Length of the scratch array ``work``."""

CODE_VALUES = np.array(
    [min(code // 4 + 2, 10) if code // 4 < 12 else 1 for code in range(52)],
    dtype=np.int8,
)
"""Value index of each card code (0..51)."""

# integer rule parameters ``ipar``
I_BJ, I_WIN, I_21, I_SC21, I_SCWIN, I_INSPAY, I_INSMAX, I_REFUND = (
    0,
    2,
    4,
    6,
    8,
    10,
    12,
    14,
)
I_INS, I_SURR, I_DAS, I_SPLIT, I_ACES, I_SCDBL, I_SCSPLIT = (
    16,
    17,
    18,
    19,
    20,
    21,
    22,
)
I_COLLECT, I_HALFUP = 23, 24
N_IPAR = 25

C_BJ, C_DEALER_BJ, C_SURRENDER, C_SPLIT = 0, 1, 2, 3
C_PAID, C_WIN, C_PUSH, C_LOSE, C_PUSH22 = 4, 5, 6, 7, 8
C_DECLINED, C_DECLINED22, C_SC_OVER, C_SC21 = 9, 10, 11, 12
C_SC_WIN, C_SC_PUSH, C_SC_LOSE, C_SC_PUSH22 = 13, 14, 15, 16
C_DOUBLED, C_INSURED = 32, 64
N_CATEGORIES = 128

STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
PLAYING, STANDING, SETTLED = 0, 1, 2


@njit(cache=True)
def _winnings(amount: int, ipar: np.ndarray, at: int) -> int:
    num = amount * ipar[at]
    den = ipar[at + 1]
    whole = num // den
    if ipar[I_HALFUP] == 1 and 2 * (num - whole * den) >= den:
        whole += 1
    return int(whole)


@njit(cache=True)
def _draw(shoe: np.ndarray, st: np.ndarray) -> int:
    pos = st[0]
    if pos >= shoe.shape[0]:
        st[1] = 1
        return 10
    st[0] = pos + 1
    return int(shoe[pos])


@njit(cache=True)
def _decide(
    default: int, forced: np.ndarray, dlog: np.ndarray, out: np.ndarray
) -> int:
    k = out[O_DECISIONS]
    code = forced[k] if k < forced.shape[0] else default
    if k < dlog.shape[0]:
        dlog[k] = code
    out[O_DECISIONS] = k + 1
    return int(code)


@njit(cache=True)
def play_round(
    shoe: np.ndarray,
    pos: int,
    unit: int,
    ipar: np.ndarray,
    fd: np.ndarray,
    ins: np.ndarray,
    hs: np.ndarray,
    spd: np.ndarray,
    scd: np.ndarray,
    forced: np.ndarray,
    dlog: np.ndarray,
    out: np.ndarray,
    work: np.ndarray,
) -> int:
    """Play one round from ``shoe[pos:]`` (value indices); return new pos.

    ``forced`` decision codes are used first, in order, at each decision
    the round asks for (insurance, the decisions of each hand, each
    Second Chance); the strategy tables decide the rest. Every decision
    taken is written to ``dlog``. ``out`` receives the nets (see the
    ``O_*`` indices). Returns -1 if the shoe runs out.
    """
    out[:] = 0
    work[:] = 0
    st = work[0:2]
    hard = work[2:4]
    ace = work[4:6]
    stake = work[6:8]
    sc = work[8:10]
    total = work[10:12]
    status = work[12:14]
    doubled = work[14:16]
    st[0] = pos
    a = _draw(shoe, st)
    up = _draw(shoe, st)
    b = _draw(shoe, st)
    hole = _draw(shoe, st)
    if (a == 1 and b == 10) or (a == 10 and b == 1):
        out[O_MAIN] = _winnings(unit, ipar, I_BJ)
        out[O_CATEGORY] = C_BJ
        return -1 if st[1] else st[0]
    insured = 0
    if up == 1 and ipar[I_INS] == 1:
        amount = unit * ipar[I_INSMAX] // ipar[I_INSMAX + 1]
        code = _decide(
            D_INSURANCE if ins[a, b] == 1 else D_NO_INSURANCE,
            forced,
            dlog,
            out,
        )
        if code == D_INSURANCE and amount >= 1:
            insured = amount
            out[O_FLAGS] |= 8
    cat_ins = C_INSURED if insured else 0
    if up == 1 or up == 10:
        if up + hole == 11:
            out[O_MAIN] = -unit
            if insured:
                out[O_INS] = _winnings(insured, ipar, I_INSPAY)
            out[O_CATEGORY] = C_DEALER_BJ + cat_ins
            return -1 if st[1] else st[0]
        if insured:
            out[O_INS] = -insured
    hard[0] = a + b
    ace[0] = 1 if (a == 1 or b == 1) else 0
    stake[0] = unit
    nhands = 1
    split = False
    h = 0
    while h < nhands:
        if split:
            v = _draw(shoe, st)
            hard[h] += v
            ace[h] = 1 if (ace[h] == 1 or v == 1) else 0
            t = _eff(hard[h], ace[h] == 1)
            if t == 21:
                out[O_MAIN + h] = _winnings(stake[h], ipar, I_21)
                status[h] = SETTLED
            elif a == 1 and ipar[I_ACES] == 0:
                status[h] = STANDING
                total[h] = t
        first = True
        while status[h] == PLAYING:
            t = _eff(hard[h], ace[h] == 1)
            if first and not split:
                code = _decide(fd[a, b, up], forced, dlog, out)
            elif first:
                code = _decide(spd[a, up, hard[h] - a], forced, dlog, out)
            else:
                hit = hs[a, b, up, 1 if split else 0, hard[h], ace[h]]
                code = _decide(HIT if hit == 1 else STAND, forced, dlog, out)
            first = False
            if code == SURRENDER:
                refund = stake[h] * ipar[I_REFUND] // ipar[I_REFUND + 1]
                out[O_MAIN] = refund - stake[h]
                out[O_CATEGORY] = C_SURRENDER + cat_ins
                return -1 if st[1] else st[0]
            if code == SPLIT:
                split = True
                nhands = 2
                hard[0] = a
                hard[1] = b
                ace[0] = 1 if a == 1 else 0
                ace[1] = 1 if b == 1 else 0
                stake[1] = unit
                out[O_FLAGS] |= 1
                v = _draw(shoe, st)
                hard[0] += v
                ace[0] = 1 if (ace[0] == 1 or v == 1) else 0
                t0 = _eff(hard[0], ace[0] == 1)
                if t0 == 21:
                    out[O_MAIN] = _winnings(stake[0], ipar, I_21)
                    status[0] = SETTLED
                elif a == 1 and ipar[I_ACES] == 0:
                    status[0] = STANDING
                    total[0] = t0
                first = True
                continue
            if code == STAND:
                status[h] = STANDING
                total[h] = t
                break
            if code == DOUBLE:
                stake[h] *= 2
                doubled[h] = 1
            v = _draw(shoe, st)
            hard[h] += v
            ace[h] = 1 if (ace[h] == 1 or v == 1) else 0
            t = _eff(hard[h], ace[h] == 1)
            if t == 21:
                out[O_MAIN + h] = _winnings(stake[h], ipar, I_21)
                status[h] = SETTLED
            elif hard[h] > 21:
                offered = not (
                    doubled[h] == 1 and ipar[I_SCDBL] == 0
                ) and not (split and ipar[I_SCSPLIT] == 0)
                code = D_NO_SECOND_CHANCE
                if offered:
                    take = scd[a, b, up, hard[h]] == 1
                    code = _decide(
                        D_SECOND_CHANCE if take else D_NO_SECOND_CHANCE,
                        forced,
                        dlog,
                        out,
                    )
                if code == D_SECOND_CHANCE:
                    sc[h] = stake[h]
                    out[O_FLAGS] |= 2 << h
                    x = hard[h] - _draw(shoe, st)
                    total[h] = x
                    if x > 21:
                        out[O_MAIN + h] = -stake[h]
                        out[O_SC + h] = -sc[h]
                        status[h] = SETTLED
                    elif x == 21:
                        out[O_SC + h] = _winnings(sc[h], ipar, I_SC21)
                        status[h] = SETTLED
                    else:
                        status[h] = STANDING
                elif ipar[I_COLLECT] == 1:
                    out[O_MAIN + h] = -stake[h]
                    status[h] = SETTLED
                else:
                    total[h] = hard[h]
                    status[h] = STANDING
            elif doubled[h] == 1:
                total[h] = t
                status[h] = STANDING
        h += 1
    standing = False
    for i in range(nhands):
        standing = standing or status[i] == STANDING
    dealer = 0
    if standing:
        dh = up + hole
        dace = up == 1 or hole == 1
        while _eff(dh, dace) < 17:
            v = _draw(shoe, st)
            dh += v
            dace = dace or v == 1
        dealer = _eff(dh, dace)
    for i in range(nhands):
        if status[i] != STANDING or dealer == 22:
            continue
        p = total[i]
        if p > 21:
            out[O_MAIN + i] = -stake[i]
        elif dealer > 21 or p > dealer:
            if sc[i] > 0:
                out[O_SC + i] = _winnings(sc[i], ipar, I_SCWIN)
            else:
                out[O_MAIN + i] = _winnings(stake[i], ipar, I_WIN)
        elif p < dealer:
            out[O_MAIN + i] = -stake[i]
            out[O_SC + i] = -sc[i]
    if split:
        out[O_CATEGORY] = C_SPLIT + cat_ins
    else:
        out[O_CATEGORY] = (
            _category(status[0], total[0], sc[0] > 0, hard[0], dealer)
            + (C_DOUBLED if doubled[0] == 1 else 0)
            + cat_ins
        )
    return -1 if st[1] else st[0]


@njit(cache=True)
def _category(
    status: int, total: int, has_sc: bool, hard: int, dealer: int
) -> int:
    if status == SETTLED:
        if has_sc:
            return C_SC_OVER if total > 21 else C_SC21
        return C_PAID if hard <= 21 else C_DECLINED
    if total > 21:
        return C_DECLINED22 if dealer == 22 else C_DECLINED
    if dealer == 22:
        return C_SC_PUSH22 if has_sc else C_PUSH22
    if dealer > 21 or total > dealer:
        return C_SC_WIN if has_sc else C_WIN
    if total == dealer:
        return C_SC_PUSH if has_sc else C_PUSH
    return C_SC_LOSE if has_sc else C_LOSE


@njit(cache=True)
def shuffle(shoe: np.ndarray, rng: np.random.Generator) -> None:
    """Fisher-Yates shuffle of ``shoe`` in place from ``rng``.

    The swap index is ``floor(u * (i + 1))`` for a uniform double ``u``
    drawn in one batch (a per-card ``integers`` call costs ~10 times
    more in numba; the bias is below 2**-44 for any shoe).
    """
    n: int = shoe.shape[0]
    u = rng.random(n)
    for i in range(n - 1, 0, -1):
        j = int(u[i] * (i + 1))
        tmp = shoe[i]
        shoe[i] = shoe[j]
        shoe[j] = tmp


@njit(cache=True)
def simulate_shoes(
    rng: np.random.Generator,
    rounds: int,
    decks: int,
    cut: int,
    unit: int,
    ipar: np.ndarray,
    fd: np.ndarray,
    ins: np.ndarray,
    hs: np.ndarray,
    spd: np.ndarray,
    scd: np.ndarray,
    sums: np.ndarray,
    cat_count: np.ndarray,
    cat_net: np.ndarray,
) -> int:
    """Play ``rounds`` rounds through shoes; return 0, or 1 if a shoe ran out.

    ``sums`` receives (count, total, total of squares) of the box's net
    per round (all its wagers, minor units of an initial ``unit``);
    ``cat_count``/``cat_net`` count rounds and sum nets per category.
    """
    n = 52 * decks
    shoe = np.empty(n, dtype=np.int8)
    for i in range(n):
        shoe[i] = CODE_VALUES[i % 52]
    forced = np.empty(0, dtype=np.int8)
    dlog = np.empty(0, dtype=np.int8)
    out = np.zeros(N_OUT, dtype=np.int64)
    work = np.zeros(N_WORK, dtype=np.int64)
    shuffle(shoe, rng)
    pos = 1  # 591.7(c): the first card of the batch is burnt
    total = 0
    total_sq = 0
    for _ in range(rounds):
        new = play_round(
            shoe,
            pos,
            unit,
            ipar,
            fd,
            ins,
            hs,
            spd,
            scd,
            forced,
            dlog,
            out,
            work,
        )
        if new < 0:
            return 1
        net = out[0] + out[1] + out[2] + out[3] + out[4]
        total += net
        total_sq += net * net
        cat = out[O_CATEGORY]
        cat_count[cat] += 1
        cat_net[cat] += net
        if new > cut:  # the cover card came out during this round (d)
            shuffle(shoe, rng)
            pos = 1
        else:
            pos = new
    sums[0] += rounds
    sums[1] += total
    sums[2] += total_sq
    return 0
