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

Card values, the soft total and the dealer's rule are those of
:mod:`croupier.odds.leaf` (the engine's own functions). The options
reach the kernels as one *rule vector* (:func:`rule_vector`, entries
``R_*``): the solver of :mod:`.strategy` reads it as floats
(:func:`float_parameters`), the shoe kernels as exact fractions
(:func:`integer_parameters`: entry ``r`` is ``ipar[2 r] / ipar[2 r + 1]``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.games.double_back_jack.rules import DoubleBackJackRules
from croupier.jit import jit
from croupier.money import Rounding
from croupier.odds.leaf import VALUE, dealer_stands, soft_total

__all__ = [
    "CODE_VALUES",
    "D_INSURANCE",
    "D_NO_INSURANCE",
    "D_NO_SECOND_CHANCE",
    "D_SECOND_CHANCE",
    "N_CATEGORIES",
    "N_OUT",
    "N_RULES",
    "N_TRACE",
    "N_WORK",
    "O_CATEGORY",
    "O_DECISIONS",
    "O_FLAGS",
    "O_INS",
    "O_MAIN",
    "O_SC",
    "float_parameters",
    "integer_parameters",
    "play_round",
    "play_shoe",
    "rule_vector",
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
N_OUT = 8
"""Length of ``out``."""
N_TRACE = N_OUT + 1
"""A round's row in :func:`play_shoe`'s trace: ``out``, then the next
position in the shoe."""
N_WORK = 16
"""Length of the scratch array ``work``."""

CODE_VALUES: npt.NDArray[np.int8] = VALUE.astype(np.int8)
"""Value index of each card code (0..51): :data:`croupier.odds.leaf.VALUE`."""

# The rule vector: one entry per option (see :func:`rule_vector`).
R_BJ, R_WIN, R_21, R_SC21, R_SCWIN = 0, 1, 2, 3, 4
R_INSPAY, R_INSMAX, R_INS, R_SURR, R_REFUND = 5, 6, 7, 8, 9
R_DAS, R_SPLIT, R_ACES, R_SCDBL, R_SCSPLIT, R_COLLECT = 10, 11, 12, 13, 14, 15
R_HALFUP = 16
N_RULES = 17
"""Entries of the rule vector."""


def _exact(value: object) -> Fraction:
    numerator = getattr(value, "numerator", None)
    denominator = getattr(value, "denominator", None)
    if isinstance(numerator, int) and isinstance(denominator, int):
        return Fraction(numerator, denominator)
    return Fraction(int(bool(value)))


def rule_vector(rules: DoubleBackJackRules) -> tuple[Fraction, ...]:
    """The options as exact numbers, entry ``R_*`` (flags 0 or 1).

    Payouts are the net per unit of the wager, ``insurance_max`` and
    ``surrender_refund`` the fractions of the wager; ``R_SPLIT`` is 1
    when a pair may be split once.
    """
    values = (
        rules.blackjack_payout,
        rules.win_payout,
        rules.twenty_one_payout,
        rules.second_chance_21_payout,
        rules.second_chance_win_payout,
        rules.insurance_payout,
        rules.insurance_max,
        rules.insurance,
        rules.surrender,
        rules.surrender_refund,
        rules.double_after_split,
        rules.max_split_hands >= 2,
        rules.split_aces_may_draw,
        rules.second_chance_on_doubled,
        rules.second_chance_on_split,
        rules.collect_busts_at_once,
        rules.rounding is Rounding.HALF_UP,
    )
    return tuple(_exact(value) for value in values)


def float_parameters(rules: DoubleBackJackRules) -> npt.NDArray[np.float64]:
    """The rule vector as floats (the solver's ``par``)."""
    return np.array([float(v) for v in rule_vector(rules)], np.float64)


def integer_parameters(rules: DoubleBackJackRules) -> npt.NDArray[np.int64]:
    """The rule vector as numerator, denominator pairs (``ipar``)."""
    pairs = [(v.numerator, v.denominator) for v in rule_vector(rules)]
    return np.array(pairs, dtype=np.int64).reshape(-1)


C_BJ, C_DEALER_BJ, C_SURRENDER, C_SPLIT = 0, 1, 2, 3
C_PAID, C_WIN, C_PUSH, C_LOSE, C_PUSH22 = 4, 5, 6, 7, 8
C_DECLINED, C_DECLINED22, C_SC_OVER, C_SC21 = 9, 10, 11, 12
C_SC_WIN, C_SC_PUSH, C_SC_LOSE, C_SC_PUSH22 = 13, 14, 15, 16
C_VOID = 17
"""A round void because the shoe ran out in it (D69)."""
C_DOUBLED, C_INSURED = 32, 64
N_CATEGORIES = 128
"""Outcome categories (bit 5 doubled, bit 6 insured)."""

STAND, HIT, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
PLAYING, STANDING, SETTLED = 0, 1, 2


@jit
def _on(ipar: np.ndarray, entry: int) -> bool:
    """Whether the flag ``entry`` of the rule vector is set."""
    return bool(ipar[2 * entry] != 0)


@jit
def _share(amount: int, ipar: np.ndarray, entry: int) -> int:
    """``amount`` times the fraction ``entry``, rounded down."""
    return int(amount * ipar[2 * entry] // ipar[2 * entry + 1])


@jit
def _winnings(amount: int, ipar: np.ndarray, entry: int) -> int:
    num = amount * ipar[2 * entry]
    den = ipar[2 * entry + 1]
    whole = num // den
    if _on(ipar, R_HALFUP) and 2 * (num - whole * den) >= den:
        whole += 1
    return int(whole)


@jit
def _draw(shoe: np.ndarray, st: np.ndarray) -> int:
    """The next card's value; past the end ``st[1]`` is set (and 10)."""
    pos = st[0]
    if pos >= shoe.shape[0]:
        st[1] = 1
        return 10
    st[0] = pos + 1
    return int(shoe[pos])


@jit
def _decide(
    default: int, forced: np.ndarray, dlog: np.ndarray, out: np.ndarray
) -> int:
    k = out[O_DECISIONS]
    code = forced[k] if k < forced.shape[0] else default
    if k < dlog.shape[0]:
        dlog[k] = code
    out[O_DECISIONS] = k + 1
    return int(code)


@jit
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
    ``O_*`` indices). A round the shoe runs out in is void (D69), as
    the engine has it: it stops at the draw that found the shoe empty,
    what it settled before stands (a Blackjack paid at once, a bust
    collected, insurance lost at the peek), every other wager nets 0,
    the category is :data:`C_VOID`, and it returns -1 (the shoe is
    done). Otherwise it returns the position after the round.
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
    if st[1]:
        return _void(out)
    if (a == 1 and b == 10) or (a == 10 and b == 1):
        out[O_MAIN] = _winnings(unit, ipar, R_BJ)
        out[O_CATEGORY] = C_BJ
        return int(st[0])
    insured = 0
    if up == 1 and _on(ipar, R_INS):
        amount = _share(unit, ipar, R_INSMAX)
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
                out[O_INS] = _winnings(insured, ipar, R_INSPAY)
            out[O_CATEGORY] = C_DEALER_BJ + cat_ins
            return int(st[0])
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
            if st[1]:
                return _void(out)
            hard[h] += v
            ace[h] = 1 if (ace[h] == 1 or v == 1) else 0
            t = soft_total(hard[h], ace[h])
            if t == 21:
                out[O_MAIN + h] = _winnings(stake[h], ipar, R_21)
                status[h] = SETTLED
            elif a == 1 and not _on(ipar, R_ACES):
                status[h] = STANDING
                total[h] = t
        first = True
        while status[h] == PLAYING:
            t = soft_total(hard[h], ace[h])
            if first and not split:
                code = _decide(fd[a, b, up], forced, dlog, out)
            elif first:
                code = _decide(spd[a, up, hard[h] - a], forced, dlog, out)
            else:
                hit = hs[a, b, up, 1 if split else 0, hard[h], ace[h]]
                code = _decide(HIT if hit == 1 else STAND, forced, dlog, out)
            first = False
            if code == SURRENDER:
                refund = _share(stake[h], ipar, R_REFUND)
                out[O_MAIN] = refund - stake[h]
                out[O_CATEGORY] = C_SURRENDER + cat_ins
                return int(st[0])
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
                if st[1]:
                    return _void(out)
                hard[0] += v
                ace[0] = 1 if (ace[0] == 1 or v == 1) else 0
                t0 = soft_total(hard[0], ace[0])
                if t0 == 21:
                    out[O_MAIN] = _winnings(stake[0], ipar, R_21)
                    status[0] = SETTLED
                elif a == 1 and not _on(ipar, R_ACES):
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
            if st[1]:
                return _void(out)
            hard[h] += v
            ace[h] = 1 if (ace[h] == 1 or v == 1) else 0
            t = soft_total(hard[h], ace[h])
            if t == 21:
                out[O_MAIN + h] = _winnings(stake[h], ipar, R_21)
                status[h] = SETTLED
            elif hard[h] > 21:
                offered = not (
                    doubled[h] == 1 and not _on(ipar, R_SCDBL)
                ) and not (split and not _on(ipar, R_SCSPLIT))
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
                    if st[1]:
                        return _void(out)
                    total[h] = x
                    if x > 21:
                        out[O_MAIN + h] = -stake[h]
                        out[O_SC + h] = -sc[h]
                        status[h] = SETTLED
                    elif x == 21:
                        out[O_SC + h] = _winnings(sc[h], ipar, R_SC21)
                        status[h] = SETTLED
                    else:
                        status[h] = STANDING
                elif _on(ipar, R_COLLECT):
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
        while not dealer_stands(dh, dace):
            v = _draw(shoe, st)
            if st[1]:
                return _void(out)
            dh += v
            dace = dace or v == 1
        dealer = soft_total(dh, dace)
    for i in range(nhands):
        if status[i] != STANDING or dealer == 22:
            continue
        p = total[i]
        if p > 21:
            out[O_MAIN + i] = -stake[i]
        elif dealer > 21 or p > dealer:
            if sc[i] > 0:
                out[O_SC + i] = _winnings(sc[i], ipar, R_SCWIN)
            else:
                out[O_MAIN + i] = _winnings(stake[i], ipar, R_WIN)
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
    return int(st[0])


@jit
def _void(out: np.ndarray) -> int:
    """End a round the shoe ran out in: void (D69); ``-1``.

    ``out`` holds what was settled and decided before the draw that
    found the shoe empty; that stands, the category says void.
    """
    out[O_CATEGORY] = C_VOID + (C_INSURED if out[O_FLAGS] & 8 else 0)
    return -1


@jit
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


@jit
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


@jit
def play_shoe(
    shoe: np.ndarray,
    pos: int,
    cut: int,
    rounds: int,
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
    trace: np.ndarray,
) -> int:
    """Play rounds from ``shoe[pos:]`` until the cover card comes out.

    The cover card lies above ``shoe[cut]``: the round that takes that
    card is the shoe's last (591.7(d)). At most ``rounds`` rounds, by
    the strategy tables. ``sums`` receives (count, total, total of
    squares) of the box's net per round (all its wagers, minor units of
    an initial ``unit``); ``cat_count``/``cat_net`` count rounds and sum
    nets per category. Row ``r`` of ``trace`` (while there are rows)
    receives round ``r``'s ``out`` and the position after it. A round
    the shoe runs out in is void (D69) and the shoe's last. Returns the
    rounds played.
    """
    forced = np.empty(0, dtype=np.int8)
    dlog = np.empty(0, dtype=np.int8)
    out = np.zeros(N_OUT, dtype=np.int64)
    work = np.zeros(N_WORK, dtype=np.int64)
    total = 0
    total_sq = 0
    played = 0
    while played < rounds:
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
        net = out[0] + out[1] + out[2] + out[3] + out[4]
        total += net
        total_sq += net * net
        cat = out[O_CATEGORY]
        cat_count[cat] += 1
        cat_net[cat] += net
        if new < 0:  # void for want of cards (D69): every card is out
            new = shoe.shape[0]
        if played < trace.shape[0]:
            trace[played, :N_OUT] = out
            trace[played, N_OUT] = new
        played += 1
        if new > cut:  # the cover card came out during this round (d)
            break
        pos = new
    sums[0] += played
    sums[1] += total
    sums[2] += total_sq
    return played


@jit
def simulate_shoes(
    rng: np.random.Generator,
    rounds: int,
    batch: np.ndarray,
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
    """Play ``rounds`` rounds through shoes; return the shoes played.

    ``batch`` is the shoe's cards as value indices (shuffled in place):
    each shoe is shuffled, its first card burnt (591.7(c)), and played
    by :func:`play_shoe` (which fills ``sums``, ``cat_count`` and
    ``cat_net``) until the cover card ``cut`` cards from the top comes
    out, or a round runs out of cards (void, D69).
    """
    trace = np.zeros((0, N_TRACE), dtype=np.int64)
    done = 0
    shoes = 0
    while done < rounds:
        shuffle(batch, rng)
        played = play_shoe(
            batch,
            1,  # 591.7(c): the first card of the batch is burnt
            cut,
            rounds - done,
            unit,
            ipar,
            fd,
            ins,
            hs,
            spd,
            scd,
            sums,
            cat_count,
            cat_net,
            trace,
        )
        done += played
        shoes += 1
    return shoes
