"""Compiled kernels of the protection analyses (issue 16 points 1-3).

- :func:`count_shoes`: real shoes of Midibaccarat (``game`` 0, shuffle,
  cut and burn of 629a.5 by :func:`croupier.odds.baccarat.kernels.
  shoe_start`) or 21 Baccarat (``game`` 1, shuffle and one burned card
  of 681a.7(c)), coups by the simulators' own ``coup`` and
  ``round_cells``, and any number of counts kept side by side. Before
  each coup every count's true count is bucketed; the coup's net of the
  count's wager is added to its bucket, so one run answers every
  trigger at once.
- :func:`pair_ev`, :func:`bonus21_ev`: the exact EV of a Perfect Pairs
  wager and of a 21 Baccarat Bonus wager from any composition of the 52
  card kinds; :func:`perfect_shoes` plays real shoes and bets a wager
  exactly when that EV is positive.
- :func:`fortune_containing`: for each card of the 53-card pai gow
  deck, the category counts of the six-card hands that hold it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.hands.paigow_fast import five_values
from croupier.jit import jit
from croupier.odds.baccarat.kernels import coup, shoe_start
from croupier.odds.baccarat.shoe import shuffle
from croupier.odds.baccarat21.kernels import bonus_mask, round_cells
from croupier.odds.leaf import BACCARAT21_DRAW_BELOW, soft_total

__all__ = [
    "BUCKETS",
    "LOW",
    "bonus21_ev",
    "bonus21_weights",
    "count_shoes",
    "fortune_containing",
    "pair_ev",
    "pair_weights",
    "perfect_shoes",
]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

LOW = -30
"""The lowest true-count bucket (every lower count falls in it)."""
BUCKETS = 61
"""True-count buckets ``LOW .. LOW + BUCKETS - 1`` (floor of the TC)."""
_DRAW_BELOW = BACCARAT21_DRAW_BELOW


@jit
def _bucket(rc: int, left: int) -> int:
    """The bucket of ``floor(52 rc / left)``, clipped."""
    if left <= 0:
        left = 1
    b = (52 * rc) // left - LOW
    if b < 0:
        return 0
    if b >= BUCKETS:
        return BUCKETS - 1
    return b


@jit
def count_shoes(
    game: int,
    codes: I64,
    work: I64,
    raw: npt.NDArray[np.uint32],
    shoes: int,
    cover: int,
    tables: tuple[I64, I64, I64, I64, I64, I64, I64],
    tags: I64,
    start: I64,
    wager_of: I64,
    kinds: I64,
    nets: I64,
    hands: I64,
    sums: I64,
    squares: I64,
    shoe_sums: I64,
    shoe_squares: I64,
    record: I64,
    record_from: int,
    recorded: int,
) -> tuple[int, int]:
    """Play up to ``shoes`` shoes; returns (shoes played, rows recorded).

    ``tags[k, code]`` are count ``k``'s tags, ``start[k]`` its running
    count at the start of a shoe (0 for a balanced count); it bets wager
    ``wager_of[k]``, whose outcome is ``out[kinds[w]]`` and whose net
    (in stake units) is ``nets[w, outcome]``. Before a coup the true
    count is ``52 RC / cards left in the shoe`` (floored, bucketed);
    ``hands``, ``sums``, ``squares`` ``[k, bucket]`` add the coup, and
    at the end of a shoe ``shoe_sums[k, t]`` / ``shoe_squares`` add the
    shoe's total (and its square) of the coups at buckets ``>= t``.
    In Midibaccarat the exposed first card is seen (629a.5(f)), the
    burned ones are not; in 21 Baccarat the burned card is not seen.
    The coup that takes card ``cover`` is the shoe's last. While
    ``recorded < record.shape[0]``, every coup at which count 0's bucket
    is at least ``record_from`` stores the 52 unseen card counts and the
    net in a row of ``record``.
    """
    size = codes.shape[0]
    budget = size + 64
    counts = tags.shape[0]
    point, pair, player, stood, after, burn, value = tables
    rc = np.zeros(counts, dtype=np.int64)
    bucket = np.zeros(counts, dtype=np.int64)
    acc = np.zeros((counts, BUCKETS), dtype=np.int64)
    unseen = np.zeros(52, dtype=np.int64)
    track = recorded < record.shape[0]
    done = 0
    while done < shoes:
        if raw.shape[0] < budget:
            break
        if game == 0:
            pos, _ = shoe_start(codes, work, raw[:budget], 0, burn)
        else:
            shuffle(codes, raw[:budget], 0)
            pos = 1
        raw = raw[budget:]
        if track:
            unseen[:] = 0
            for i in range(size):
                unseen[codes[i]] += 1
        acc[:, :] = 0
        rc[:] = start
        if game == 0:  # the exposed first card of the burn
            first = codes[0]
            unseen[first] -= 1
            for k in range(counts):
                rc[k] += tags[k, first]
        while pos + 6 <= size:
            left = size - pos
            for k in range(counts):
                bucket[k] = _bucket(rc[k], left)
            if game == 0:
                pc, bc, dp, db, o1, o2, used = coup(
                    codes, pos, point, pair, player, stood, after
                )
                o0 = ((pc * 10 + bc) * 2 + dp) * 2 + db
            else:
                pt, bt, o1, o2, used = round_cells(codes, pos, True, value)
                o0 = pt * 32 + bt
            for k in range(counts):
                w = wager_of[k]
                kind = kinds[w]
                outcome = o0 if kind == 0 else (o1 if kind == 1 else o2)
                net = nets[w, outcome]
                b = bucket[k]
                hands[k, b] += 1
                sums[k, b] += net
                squares[k, b] += net * net
                acc[k, b] += net
                if k == 0 and track and b >= record_from:
                    for c in range(52):
                        record[recorded, c] = unseen[c]
                    record[recorded, 52] = net
                    recorded += 1
                    track = recorded < record.shape[0]
            for i in range(pos, pos + used):
                c = codes[i]
                if track:
                    unseen[c] -= 1
                for k in range(counts):
                    rc[k] += tags[k, c]
            pos += used
            if pos > cover:
                break
        for k in range(counts):
            run = 0
            for b in range(BUCKETS - 1, -1, -1):
                run += acc[k, b]
                shoe_sums[k, b] += run
                shoe_squares[k, b] += run * run
        done += 1
    return done, recorded


@jit
def pair_weights(unseen: I64) -> tuple[int, int, int, int]:
    """Ordered two-card weights of no pair, perfect, colored and mixed.

    From the counts of the 52 card kinds (code = 4 rank + suit; suits
    1 and 2 are red). They sum to ``N (N - 1)``.
    """
    n = 0
    perfect = 0
    colored = 0
    mixed = 0
    for c in range(52):
        n += unseen[c]
        perfect += unseen[c] * (unseen[c] - 1)
    for r in range(13):
        clubs = unseen[4 * r]
        diamonds = unseen[4 * r + 1]
        hearts = unseen[4 * r + 2]
        spades = unseen[4 * r + 3]
        colored += 2 * (clubs * spades + diamonds * hearts)
        mixed += 2 * (clubs + spades) * (diamonds + hearts)
    none = n * (n - 1) - perfect - colored - mixed
    return none, perfect, colored, mixed


@jit
def pair_ev(unseen: I64, pays: I64, unit: int) -> float:
    """A Perfect Pairs wager's EV per unit; ``pays[kind]`` in stake units."""
    w0, w1, w2, w3 = pair_weights(unseen)
    total_w = w0 + w1 + w2 + w3
    if total_w == 0:
        return 0.0
    num = w0 * pays[0] + w1 * pays[1] + w2 * pays[2] + w3 * pays[3]
    return float(num / (total_w * unit))


@jit
def bonus21_weights(unseen: I64, value: I64) -> I64:
    """Ordered weights of one hand's Bonus masks from 52 card counts.

    The hand's two cards, and a third exactly when their total is under
    17 (a Bonus Wager on the layout: 681a.7(f)(2) or (g)), drawn without
    replacement; extended to three cards, they sum to
    ``N (N - 1) (N - 2)``.
    """
    out = np.zeros(64, dtype=np.int64)
    n = 0
    for c in range(52):
        n += unseen[c]
    for a in range(52):
        na = unseen[a]
        if na == 0:
            continue
        for b in range(a, 52):
            w2 = na * (na - 1) if a == b else 2 * na * unseen[b]
            if w2 == 0:
                continue
            hard = value[a] + value[b]
            aces = (value[a] == 1) + (value[b] == 1)
            if soft_total(hard, aces) >= _DRAW_BELOW:
                out[bonus_mask(a, b, -1)] += w2 * (n - 2)
                continue
            for c in range(52):
                w3 = w2 * (unseen[c] - (a == c) - (b == c))
                if w3 > 0:
                    out[bonus_mask(a, b, c)] += w3
    return out


@jit
def bonus21_ev(unseen: I64, value: I64, pays: I64, unit: int) -> float:
    """A 21 Baccarat Bonus wager's EV per unit; ``pays[mask]`` in units."""
    weights = bonus21_weights(unseen, value)
    num = 0
    den = 0
    for m in range(64):
        num += weights[m] * pays[m]
        den += weights[m]
    if den == 0:
        return 0.0
    return num / (den * unit)


@jit
def perfect_shoes(
    game: int,
    codes: I64,
    work: I64,
    raw: npt.NDArray[np.uint32],
    shoes: int,
    cover: int,
    tables: tuple[I64, I64, I64, I64, I64, I64, I64],
    pays: I64,
    unit: int,
    stats: F64,
) -> int:
    """Play shoes betting the pair wager of each hand when its EV > 0.

    The exact EV of the next coup's Perfect Pairs (``game`` 0) or Bonus
    (``game`` 1) wager on one hand, from the unseen cards, before every
    coup; both hands' wagers have that EV. ``stats`` adds, per shoe:
    0 coups, 1 bets (per hand), 2 the sum of the positive EVs, 3 its
    square per shoe, 4 the realized net of the bets (units), 5 its
    square per shoe, 6 shoes, 7 the sum of every coup's EV.
    """
    size = codes.shape[0]
    budget = size + 64
    point, pair, player, stood, after, burn, value = tables
    unseen = np.zeros(52, dtype=np.int64)
    done = 0
    while done < shoes:
        if raw.shape[0] < budget:
            break
        if game == 0:
            pos, _ = shoe_start(codes, work, raw[:budget], 0, burn)
        else:
            shuffle(codes, raw[:budget], 0)
            pos = 1
        raw = raw[budget:]
        unseen[:] = 0
        for i in range(size):
            unseen[codes[i]] += 1
        if game == 0:
            unseen[codes[0]] -= 1
        gain = 0.0
        real = 0.0
        while pos + 6 <= size:
            if game == 0:
                ev = pair_ev(unseen, pays, unit)
                _, _, _, _, o1, o2, used = coup(
                    codes, pos, point, pair, player, stood, after
                )
            else:
                ev = bonus21_ev(unseen, value, pays, unit)
                _, _, o1, o2, used = round_cells(codes, pos, True, value)
            stats[0] += 1
            stats[7] += ev
            if ev > 0:
                stats[1] += 2
                gain += 2 * ev
                real += (pays[o1] + pays[o2]) / unit
            for i in range(pos, pos + used):
                unseen[codes[i]] -= 1
            pos += used
            if pos > cover:
                break
        stats[2] += gain
        stats[3] += gain * gain
        stats[4] += real
        stats[5] += real * real
        stats[6] += 1
        done += 1
    return done


@jit
def fortune_containing(
    table: npt.NDArray[np.int32], binom: I64, cards: int
) -> I64:
    """``[card, category]``: six-card hands from ``0..cards-1`` holding it.

    Walks every sorted six-card hand once (colex order, as
    :func:`croupier.hands.paigow_fast.count_categories`) and adds it to
    each of its six cards. The row sums are ``6`` times the hands.
    """
    out = np.zeros((cards, 11), dtype=np.int64)
    h = np.zeros(6, dtype=np.int64)
    vals = np.zeros(6, dtype=np.int64)
    for f in range(5, cards):
        h[5] = f
        for e in range(4, f):
            h[4] = e
            for d in range(3, e):
                h[3] = d
                for c in range(2, d):
                    h[2] = c
                    for b in range(1, c):
                        h[1] = b
                        for a in range(b):
                            h[0] = a
                            cat = five_values(table, binom, h, vals) >> 20
                            out[a, cat] += 1
                            out[b, cat] += 1
                            out[c, cat] += 1
                            out[d, cat] += 1
                            out[e, cat] += 1
                            out[f, cat] += 1
    return out
