"""Exact composition-dependent analysis of one blackjack box (issue 14).

The analyzer solves one box against the dealer from a finite shoe under
:class:`~.carules.CARules`, which spans Double Back Jack (591.7, now
673a.7) and ordinary blackjack. Every figure it reports is exact (up to
binary floating point, about 1e-13) for the strategy it names:

**CDZ-** (the combinatorial-analyzer literature's name, as in Eric
Farmer's and MGP's analyzers): every decision depends on the cards of
the hand being played (its composition) and the up card, never on the
cards of other hands, and a split hand plays the *pre-split* strategy:
a split hand holding ``H`` does what an unsplit hand ``H`` would do
(under the split hands' rules), while its value is computed from the
real shoe (the other pair card out). Insurance, surrender, double,
split, stand and hit are chosen to maximise the expectation. Only one
split (``max_split_hands`` 1 or 2) is computed here; resplits of one
hand are exact by :func:`.brute.resplit_value` (``croupier ev``).

How exactness is obtained
-------------------------

* *Every draw from the actual remaining shoe.* A hand's state is its
  composition ``H``; the player's next card and the dealer's cards come
  from the shoe less the up card and ``H`` (less the other pair card
  after a split). By exchangeability the cards a stopping rule draws
  for one split hand do not change the distribution of the other
  hand's cards and the dealer's, so a split is twice the expectation of
  one split hand played from the shoe less both pair cards.
* *Dealer probabilities.* For each up card the dealer's possible draws
  are listed once as multisets ``D`` (hole card and hits) with the
  number ``k`` of orders in which the dealer really draws them. From a
  shoe ``R`` of ``N`` cards, ``P(D) = k * prod_v ff(R_v, D_v) /
  ff(N, |D|)`` (falling factorials). Multisets are far fewer than
  ordered draws (9,114 over the ten up cards).
* *Peek.* With a card reader, later decisions know the dealer has no
  Blackjack. Every value is computed as the expectation *jointly* with
  "no dealer Blackjack": a stand sums only the dealer outcomes that are
  not a Blackjack (their joint probabilities, exact because the hole
  card is exchangeable with the later cards), and a settled result (a
  21 paid at once, a bust) is weighted by ``P(no Blackjack | shoe left
  at that moment)``. Comparing joint expectations at one state compares
  the conditional ones (same denominator), so every decision is the
  conditional optimum; the round adds ``-P(dealer Blackjack)`` for the
  original wager lost to the card reader.
* *Second Chance.* A bust of hard total ``h`` may buy a card ``c``
  subtracted from ``h``. Its value sums the joint law of ``(c, dealer's
  cards)``: by exchangeability ``P(D, c) = P(D) (R_c - D_c) /
  (N - |D|)``, so one pass over the dealer multisets per bust
  composition gives it exactly (the card is removed from the dealer's
  shoe).
* *One dealer cache per up card.* These laws depend only on the cards
  removed from the shoe, so the first pass fills a cache for every
  hand and bust (:func:`_prefill`: each hand's multiset probabilities
  its parent's rescaled, each bust's laws from its parent's sums) and
  the later passes read it; this reorders floating-point sums only
  (the figures move by about 1e-15).
* *No hole card.* ``enhc_obo`` loses only the original wager to a
  dealer Blackjack, whatever the play: its expectation equals the peek
  game's (the card reader's information costs nothing when doubles and
  splits are returned). ``enhc_all`` counts the dealer Blackjack among
  the dealer outcomes of every standing hand (each hand loses its
  stake); busts are lost anyway.

The kernels run with numba; with ``NUMBA_DISABLE_JIT=1`` the very same
source runs as plain Python (the baseline of the benchmark).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from croupier.jit import jit, jit_inline

__all__ = [
    "DEALER_OUTCOMES",
    "dealer_multisets",
    "hand_index",
    "hand_pass",
    "player_hands",
]

DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "22", "23+", "blackjack")
"""Dealer outcome indices 0-7."""

# rule parameter vector ``par``
Q_WIN, Q_21, Q_SC21, Q_SCWIN = 0, 1, 2, 3
Q_PAID21, Q_PUSH22, Q_SC_HIT, Q_SC_DBL = 4, 5, 6, 7
Q_COLLECT, Q_PEEK, Q_BJ_LOSES = 8, 9, 10
N_Q = 11

NEG = -1e9
"""Value of an action that is not allowed."""
NO_SLOT = -(10**9)
"""Cache slot of a removed composition that is not cached."""


# ---------------------------------------------------------------------------
# deck-independent tables (built once, in Python)


@lru_cache(maxsize=1)
def player_hands() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every player hand composition with hard total 21 or less.

    Returns ``(counts[n, 11], hard[n], child[n, 11], bust[m, 11])``,
    sorted by hard total, highest first (so a hand's children come
    before it). ``child[i, v]`` is the index of the hand plus a card of
    value ``v``, or ``-1 - j`` where ``j`` indexes ``bust`` (hard total
    over 21).
    """
    hands: list[tuple[int, ...]] = []

    def walk(value: int, counts: list[int], total: int) -> None:
        if value > 10:
            if sum(counts) >= 1:
                hands.append((0, *counts))
            return
        n = 0
        while total + n * value <= 21:
            counts.append(n)
            walk(value + 1, counts, total + n * value)
            counts.pop()
            n += 1

    walk(1, [], 0)

    def hard_of(h: tuple[int, ...]) -> int:
        return sum(v * h[v] for v in range(1, 11))

    hands.sort(key=lambda h: (-hard_of(h), h))
    index = {h: i for i, h in enumerate(hands)}
    busts: dict[tuple[int, ...], int] = {}
    child = np.full((len(hands), 11), -(10**9), dtype=np.int64)
    for i, h in enumerate(hands):
        for v in range(1, 11):
            nxt = list(h)
            nxt[v] += 1
            key = tuple(nxt)
            if key in index:
                child[i, v] = index[key]
            else:
                child[i, v] = -1 - busts.setdefault(key, len(busts))
    counts = np.array(hands, dtype=np.int64)
    hard = counts @ np.arange(11, dtype=np.int64)
    bust = np.zeros((len(busts), 11), dtype=np.int64)
    for key, j in busts.items():
        bust[j] = key
    return counts, hard, child, bust


@lru_cache(maxsize=1)
def _hand_lookup() -> dict[tuple[int, ...], int]:
    counts = player_hands()[0]
    return {tuple(int(x) for x in row): i for i, row in enumerate(counts)}


def hand_index(cards: list[int] | tuple[int, ...]) -> int:
    """Index in :func:`player_hands` of the hand of these value indices."""
    key = [0] * 11
    for card in cards:
        key[card] += 1
    try:
        return _hand_lookup()[tuple(key)]
    except KeyError:
        msg = f"hand {list(cards)} is over 21"
        raise ValueError(msg) from None


@lru_cache(maxsize=20)
def dealer_multisets(
    up: int, hits_soft_17: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The dealer's final draws for an up card, as multisets.

    Returns ``(values[n, 8], counts[n, 8], size[n], orders[n],
    outcome[n])``: the distinct values of each multiset (hole card and
    hits) with their counts (padded with value 0), the number of cards,
    the number of orders in which the dealer draws exactly those cards
    (standing only at the last) and the outcome index of
    :data:`DEALER_OUTCOMES` (7 = Blackjack: hole card completing 21).
    """
    final: dict[tuple[int, ...], int] = {}
    outcome: dict[tuple[int, ...], int] = {}
    front: dict[tuple[int, ...], int] = {(): 1}
    while front:
        nxt: dict[tuple[int, ...], int] = {}
        for drawn, orders in front.items():
            for v in range(1, 11):
                cards = tuple(sorted((*drawn, v)))
                hard = up + sum(cards)
                soft = (up == 1 or 1 in cards) and hard + 10 <= 21
                total = hard + 10 if soft else hard
                stands = total >= 17 and not (
                    hits_soft_17 and soft and total == 17
                )
                if stands:
                    final[cards] = final.get(cards, 0) + orders
                    if len(cards) == 1 and total == 21:
                        outcome[cards] = 7
                    else:
                        outcome[cards] = min(total, 23) - 17
                else:
                    nxt[cards] = nxt.get(cards, 0) + orders
        front = nxt
    keys = sorted(final)
    n = len(keys)
    values = np.zeros((n, 8), dtype=np.int64)
    counts = np.zeros((n, 8), dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    ways = np.zeros(n)
    out = np.zeros(n, dtype=np.int64)
    for i, key in enumerate(keys):
        distinct = sorted(set(key))
        for j, v in enumerate(distinct):
            values[i, j] = v
            counts[i, j] = key.count(v)
        size[i] = len(key)
        ways[i] = final[key]
        out[i] = outcome[key]
    return values, counts, size, ways, out


# ---------------------------------------------------------------------------
# kernels


@jit
def _mass(r: np.ndarray, n: int, up: int, par: np.ndarray) -> float:
    """P(no dealer Blackjack | shoe ``r``) where the peek conditions."""
    if par[Q_PEEK] == 0.0 or n == 0:
        return 1.0
    if up == 1:
        return float(1.0 - r[10] / n)
    if up == 10:
        return float(1.0 - r[1] / n)
    return 1.0


@jit
def _mass_less(
    r: np.ndarray, n: int, v: int, up: int, par: np.ndarray
) -> float:
    """:func:`_mass` of shoe ``r`` less one card ``v``."""
    if par[Q_PEEK] == 0.0 or n <= 1:
        return 1.0
    if up == 1:
        return float(1.0 - (r[10] - (v == 10)) / (n - 1))
    if up == 10:
        return float(1.0 - (r[1] - (v == 1)) / (n - 1))
    return 1.0


@jit
def _dealer(
    r: np.ndarray,
    n: int,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    dd: np.ndarray,
    want_w: bool,
    w0: np.ndarray,
    w: np.ndarray,
) -> None:
    """Dealer outcome probabilities ``dd[8]`` from shoe ``r`` (N cards).

    With ``want_w``: ``w0[o] = sum P(D) / (N - |D|)`` and ``w[o, v] =
    sum P(D) D_v / (N - |D|)`` over the multisets of outcome ``o`` (the
    joint law of the dealer's cards and one more card).
    """
    jmax = ff.shape[1]
    for v in range(1, 11):
        ff[v, 0] = 1.0
        for j in range(1, jmax):
            k = r[v] - j + 1
            ff[v, j] = ff[v, j - 1] * k if k > 0 else 0.0
    den[0] = 1.0
    for j in range(1, den.shape[0]):
        k = n - j + 1
        den[j] = den[j - 1] * k if k > 0 else 0.0
    dd[:] = 0.0
    if want_w:
        w0[:] = 0.0
        w[:, :] = 0.0
    for i in range(d_size.shape[0]):
        s = d_size[i]
        if den[s] == 0.0:
            continue
        p = d_ord[i]
        for j in range(8):
            v = d_val[i, j]
            if v == 0:
                break
            p *= ff[v, d_cnt[i, j]]
        if p == 0.0:
            continue
        p /= den[s]
        o = d_out[i]
        dd[o] += p
        if want_w and n - s > 0:
            q = p / (n - s)
            w0[o] += q
            for j in range(8):
                v = d_val[i, j]
                if v == 0:
                    break
                w[o, v] += q * d_cnt[i, j]


@jit
def _stand_pay(t: int, o: int, par: np.ndarray) -> float:
    """Net per unit of a hand standing on ``t`` against outcome ``o``."""
    if o == 7:
        return float(-par[Q_BJ_LOSES])
    if o == 6:
        return float(par[Q_WIN])
    if o == 5:
        return 0.0 if par[Q_PUSH22] > 0 else float(par[Q_WIN])
    dt = 17 + o
    if t > dt:
        return float(par[Q_WIN])
    if t == dt:
        return 0.0
    return -1.0


@jit
def _sc_pay(x: int, o: int, par: np.ndarray) -> float:
    """Net (both wagers) per unit of a Second Chance hand of total x."""
    if x > 21:
        return -2.0
    if x == 21:
        return float(par[Q_SC21])
    if o == 6:
        return float(par[Q_SCWIN])
    if o == 5:
        return 0.0 if par[Q_PUSH22] > 0 else float(par[Q_SCWIN])
    dt = 17 + o
    if x > dt:
        return float(par[Q_SCWIN])
    if x == dt:
        return 0.0
    return -2.0


@jit
def _dealer_at(
    slot: int,
    want_w: bool,
    r: np.ndarray,
    n: int,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    dd: np.ndarray,
    w0: np.ndarray,
    w: np.ndarray,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
) -> None:
    """:func:`_dealer` through the cache of one up card.

    The dealer's law depends only on the cards removed from the shoe,
    whatever hand they belong to: ``slot`` names that removed
    composition as a hand index (``>= 0``), a bust index (``-1 - j``)
    or nothing cached (:data:`NO_SLOT`).
    """
    if slot >= 0:
        if c_hok[slot] == 0:
            _dealer(r, n, d_val, d_cnt, d_size, d_ord, d_out, ff, den, dd,
                    False, w0, w)  # fmt: skip
            c_hdd[slot, :] = dd
            c_hok[slot] = 1
        else:
            dd[:] = c_hdd[slot, :]
        if want_w:
            _dealer(r, n, d_val, d_cnt, d_size, d_ord, d_out, ff, den, dd,
                    True, w0, w)  # fmt: skip
        return
    if slot == NO_SLOT:
        _dealer(r, n, d_val, d_cnt, d_size, d_ord, d_out, ff, den, dd,
                want_w, w0, w)  # fmt: skip
        return
    j = -1 - slot
    need = 2 if want_w else 1
    if c_bok[j] >= need:
        dd[:] = c_bdd[j, :]
        if want_w:
            w0[:] = c_bw0[j, :]
            w[:, :] = c_bw[j, :, :]
        return
    _dealer(r, n, d_val, d_cnt, d_size, d_ord, d_out, ff, den, dd,
            want_w, w0, w)  # fmt: skip
    c_bdd[j, :] = dd
    if want_w:
        c_bw0[j, :] = w0
        c_bw[j, :, :] = w
    c_bok[j] = need


@jit
def _pvec(
    r: np.ndarray,
    n: int,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    pvec: np.ndarray,
) -> None:
    """``pvec[i] = P(dealer multiset i)`` from shoe ``r`` (``n`` cards)."""
    jmax = ff.shape[1]
    for v in range(1, 11):
        ff[v, 0] = 1.0
        for j in range(1, jmax):
            k = r[v] - j + 1
            ff[v, j] = ff[v, j - 1] * k if k > 0 else 0.0
    den[0] = 1.0
    for j in range(1, den.shape[0]):
        k = n - j + 1
        den[j] = den[j - 1] * k if k > 0 else 0.0
    for i in range(d_size.shape[0]):
        s = d_size[i]
        if den[s] == 0.0:
            pvec[i] = 0.0
            continue
        p = d_ord[i]
        for j in range(8):
            v = d_val[i, j]
            if v == 0:
                break
            p *= ff[v, d_cnt[i, j]]
            if p == 0.0:
                break
        pvec[i] = p / den[s]


@jit
def _stand_pvec(
    slot: int,
    r: np.ndarray,
    n: int,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    pvec: np.ndarray,
    dd: np.ndarray,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    fast: np.ndarray,
) -> None:
    """The dealer's law ``dd`` of a hand, through ``pvec``.

    ``pvec`` is kept for the hand's busts (``fast[0] = 2``); ``dd`` is
    cached at ``slot``.
    """
    _pvec(r, n, d_val, d_cnt, d_size, d_ord, ff, den, pvec)
    fast[0] = 2
    dd[:] = 0.0
    for m in range(d_size.shape[0]):
        dd[d_out[m]] += pvec[m]
    c_hdd[slot, :] = dd
    c_hok[slot] = 1


@jit
def _parent_stats(
    n: int,
    vmin: int,
    pvec: np.ndarray,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_out: np.ndarray,
    xp: np.ndarray,
    yp: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    z2: np.ndarray,
) -> None:
    """Sums over the dealer multisets of a parent hand's shoe.

    Every bust child's laws follow from them (see :func:`_bust`). Over
    the multisets ``m`` (outcome ``o``) of the shoe (``n`` cards,
    ``pvec``), with ``a = p / (n - |D|)`` and
    ``b = a / (n - 1 - |D|)``, ``xp[o] = sum a``, ``yp[o, c] = sum a
    D_c``, ``x2[o] = sum b``, ``y2[o, c] = sum b D_c`` and ``z2[o, c,
    v] = sum b D_c D_v``, the last for the bust cards ``v >= vmin``
    only.
    """
    xp[:] = 0.0
    yp[:, :] = 0.0
    x2[:] = 0.0
    y2[:, :] = 0.0
    z2[:, :, vmin:] = 0.0
    for m in range(d_size.shape[0]):
        p = pvec[m]
        if p == 0.0:
            continue
        left = n - d_size[m]
        if left <= 0:
            continue
        o = d_out[m]
        a = p / left
        xp[o] += a
        b = a / (left - 1) if left > 1 else 0.0
        x2[o] += b
        last = 7
        while last > 0 and d_val[m, last] == 0:
            last -= 1
        for j in range(8):
            c = d_val[m, j]
            if c == 0:
                break
            dc = d_cnt[m, j]
            yp[o, c] += a * dc
            if b == 0.0:
                continue
            y2[o, c] += b * dc
            # values are sorted: the bust cards v >= vmin come last
            for jj in range(last, -1, -1):
                v = d_val[m, jj]
                if v < vmin:
                    break
                z2[o, c, v] += b * dc * d_cnt[m, jj]


@jit_inline
def _sc_value(
    w0: np.ndarray, w: np.ndarray, rb: np.ndarray, hb: int, sc_g: np.ndarray
) -> tuple[float, float]:
    """A bust's Second Chance: (value, second moment), joint with no BJ.

    ``w0``/``w`` are the joint laws of the dealer's cards and one more
    card (:func:`_dealer`) from the bust's shoe ``rb``; ``hb`` is the
    bust's hard total and ``sc_g`` the table of :func:`_sc_pay`.
    """
    sc = 0.0
    sc2 = 0.0
    for o in range(7):
        if w0[o] == 0.0:
            continue
        a_o = 0.0
        corr = 0.0
        a2 = 0.0
        corr2 = 0.0
        for c in range(1, 11):
            g = sc_g[hb - c, o]
            a_o += rb[c] * g
            corr += w[o, c] * g
            a2 += rb[c] * g * g
            corr2 += w[o, c] * g * g
        sc += w0[o] * a_o - corr
        sc2 += w0[o] * a2 - corr2
    return sc, sc2


@jit_inline
def _bust_laws(
    v: int,
    j: int,
    r: np.ndarray,
    n: int,
    want_w: bool,
    xp: np.ndarray,
    yp: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    z2: np.ndarray,
    dd: np.ndarray,
    w0: np.ndarray,
    w: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
) -> None:
    """The dealer's laws of a parent's bust child (card ``v``).

    From the parent's sums (:func:`_parent_stats`, shoe ``r`` of ``n``
    cards): removing ``v`` rescales ``P(D)`` by ``(R_v - D_v) n / (R_v
    (n - |D|))``, so ``dd``, ``w0`` and ``w`` of the bust are linear in
    the sums. Cached at bust index ``j`` (``j < 0``: not cached);
    without ``want_w`` only ``dd``.
    """
    rv = r[v]
    k = n / rv
    for o in range(8):
        dd[o] = k * (rv * xp[o] - yp[o, v])
        if want_w:
            w0[o] = k * (rv * x2[o] - y2[o, v])
            for c in range(1, 11):
                w[o, c] = k * (rv * y2[o, c] - z2[o, c, v])
    if j < 0:
        return
    for o in range(8):
        c_bdd[j, o] = dd[o]
    if want_w:
        for o in range(8):
            c_bw0[j, o] = w0[o]
            for c in range(11):
                c_bw[j, o, c] = w[o, c]
        c_bok[j] = 2
    elif c_bok[j] < 1:
        c_bok[j] = 1


@jit
def _prefill(
    shoe: np.ndarray,
    par: np.ndarray,
    h_cnt: np.ndarray,
    h_hard: np.ndarray,
    h_child: np.ndarray,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    want_w: bool,
    busts: bool,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
) -> None:
    """Fill the dealer cache for every hand the shoe can deal.

    The hands are walked depth first from the empty hand, adding cards
    in non-decreasing order (each composition once), so a hand's
    dealer probabilities per multiset are its parent's rescaled:
    adding a card ``c`` to a hand of shoe ``R`` (``n`` cards)
    multiplies ``P(D)`` by ``(R_c - D_c) n / (R_c (n - |D|))`` (one
    product per multiset instead of the falling factorials). With
    ``busts`` the bust children of every hand that may hit (total
    below 21, cards left) get their laws too (:func:`_bust_laws`, with
    ``want_w`` the Second Chance's joint laws), each bust from the
    first of its parents in the tables' order.
    """
    nm = d_size.shape[0]
    nh = h_cnt.shape[0]
    dense = np.zeros((11, nm), dtype=np.int64)
    for m in range(nm):
        for j in range(8):
            v = d_val[m, j]
            if v == 0:
                break
            dense[v, m] = d_cnt[m, j]
    one = np.full(11, -1, dtype=np.int64)
    for i in range(nh):
        ncards = 0
        for v in range(1, 11):
            ncards += h_cnt[i, v]
        if ncards == 1:
            for v in range(1, 11):
                if h_cnt[i, v] == 1:
                    one[v] = i
    total = 0
    for v in range(1, 11):
        total += shoe[v]
    # which parent values which bust: the first in the tables' order
    # (hard totals from 21 down), so a bust goes to a parent with many
    # bust children and few parents pay for the sums of _parent_stats
    need = 2 if want_w else 1
    mask = np.zeros(nh, dtype=np.int64)
    given = np.zeros(c_bok.shape[0], dtype=np.int8)
    r = np.zeros(11, dtype=np.int64)
    for i in range(nh if busts else 0):
        hard = h_hard[i]
        if hard < 12:
            continue
        n = 0
        ok = True
        for v in range(1, 11):
            r[v] = shoe[v] - h_cnt[i, v]
            if r[v] < 0:
                ok = False
            n += r[v]
        t = hard + 10 if (h_cnt[i, 1] > 0 and hard + 10 <= 21) else hard
        if not ok or n == 0 or t >= 21:
            continue
        for v in range(22 - hard, 11):
            j = -1 - h_child[i, v]
            if r[v] > 0 and given[j] == 0 and c_bok[j] < need:
                given[j] = 1
                mask[i] |= 1 << v
    depth_max = min(total, 21) + 2
    pv = np.zeros((depth_max, nm))
    rs = np.zeros((depth_max, 11), dtype=np.int64)
    node = np.zeros(depth_max, dtype=np.int64)
    nxt = np.zeros(depth_max, dtype=np.int64)
    smax = den.shape[0]
    g = np.zeros(smax)
    dd = np.zeros(8)
    w0 = np.zeros(8)
    w = np.zeros((8, 11))
    xp = np.zeros(8)
    yp = np.zeros((8, 11))
    x2 = np.zeros(8)
    y2 = np.zeros((8, 11))
    z2 = np.zeros((8, 11, 11))
    _pvec(shoe, total, d_val, d_cnt, d_size, d_ord, ff, den, pv[0])
    for v in range(1, 11):
        rs[0, v] = shoe[v]
    node[0] = -1
    nxt[0] = 1
    d = 0
    while d >= 0:
        c = nxt[d]
        if c > 10:
            d -= 1
            continue
        nxt[d] = c + 1
        rc = rs[d, c]
        if rc == 0:
            continue
        ch = one[c] if d == 0 else h_child[node[d], c]
        if ch < 0:
            continue
        n = total - d
        for s in range(smax):
            left = n - s
            g[s] = n / (rc * left) if left > 0 else 0.0
        src = pv[d]
        dst = pv[d + 1]
        for o in range(8):
            dd[o] = 0.0
        for m in range(nm):
            q = src[m] * (rc - dense[c, m]) * g[d_size[m]]
            dst[m] = q
            dd[d_out[m]] += q
        for o in range(8):
            c_hdd[ch, o] = dd[o]
        c_hok[ch] = 1
        for v in range(1, 11):
            rs[d + 1, v] = rs[d, v]
        rs[d + 1, c] -= 1
        nc = n - 1
        if mask[ch] != 0:
            vmin = 22 - h_hard[ch]
            _parent_stats(
                nc, vmin, dst, d_val, d_cnt, d_size, d_out, xp, yp, x2, y2,
                z2,
            )  # fmt: skip
            for v in range(vmin, 11):
                if mask[ch] & (1 << v):
                    _bust_laws(
                        v, -1 - h_child[ch, v], rs[d + 1], nc, want_w, xp, yp,
                        x2, y2, z2, dd, w0, w, c_bdd, c_bw0, c_bw, c_bok,
                    )  # fmt: skip
        node[d + 1] = ch
        nxt[d + 1] = c
        d += 1


@jit_inline
def _bust_slot(b: int, i: int, v: int, extra: int, h_child: np.ndarray) -> int:
    """Cache slot of bust ``b`` (hand ``i`` + ``v``; ``-1 - j`` or none).

    Its dealer's law is that of the removed composition: the bust
    itself, or with ``extra`` (the other pair card) the bust of hand
    ``i`` + ``extra`` by ``v``, :data:`NO_SLOT` when that is no bust of
    the tables.
    """
    if extra == 0:
        return -1 - b
    k = h_child[i, extra]
    return h_child[k, v] if k >= 0 else NO_SLOT


@jit_inline
def _cached(slot: int, c_bok: np.ndarray) -> bool:
    """Whether a bust slot's Second Chance laws are in the cache."""
    return slot != NO_SLOT and c_bok[-1 - slot] >= 2


@jit_inline
def _bust_cached(
    b: int,
    v: int,
    r: np.ndarray,
    n: int,
    hard: int,
    up: int,
    par: np.ndarray,
    j: int,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    rb: np.ndarray,
    sc_g: np.ndarray,
    bust_done: np.ndarray,
    bust_dec: np.ndarray,
    bust_sc: np.ndarray,
    b2: np.ndarray,
) -> None:
    """:func:`_bust` where its laws are cached (at bust index ``j``).

    Read where they are, not copied: most busts of a pass take this
    path once the cache is filled (:func:`_prefill`).
    """
    bust_done[b] = 1
    nb = n - 1
    for x in range(1, 11):
        rb[x] = r[x]
    rb[v] -= 1
    mb = _mass(rb, nb, up, par)
    dec = -mb
    if par[Q_COLLECT] == 0 and par[Q_PUSH22] > 0:
        dec = -(mb - c_bdd[j, 5])
    sc = NEG
    sc2 = 0.0
    if nb > 0:
        sc, sc2 = _sc_value(c_bw0[j], c_bw[j], rb, hard + v, sc_g)
    bust_dec[b] = dec
    bust_sc[b] = sc
    b2[b, 0] = -dec  # a declined bust loses 1 (or pushes on a 22)
    b2[b, 1] = sc2


@jit
def _bust(
    b: int,
    i: int,
    v: int,
    r: np.ndarray,
    n: int,
    hard: int,
    extra: int,
    up: int,
    par: np.ndarray,
    h_child: np.ndarray,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    dd: np.ndarray,
    w0: np.ndarray,
    w: np.ndarray,
    rb: np.ndarray,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
    bust_done: np.ndarray,
    bust_dec: np.ndarray,
    bust_sc: np.ndarray,
    fast: np.ndarray,
    pvec: np.ndarray,
    st_xp: np.ndarray,
    st_yp: np.ndarray,
    st_x2: np.ndarray,
    st_y2: np.ndarray,
    st_z2: np.ndarray,
    b2: np.ndarray,
    sc_g: np.ndarray,
) -> None:
    """Value bust ``b``: hand ``i`` (shoe left ``r``, ``n`` cards) + ``v``.

    ``bust_dec[b]`` is the declined bust, ``bust_sc[b]`` the Second
    Chance taken (both per unit, joint with no dealer Blackjack).
    ``sc_g[x, o]`` is :func:`_sc_pay` of ``x`` and ``o`` (a table).

    The Second Chance needs the joint law of (its card, the dealer's
    cards) from the bust's shoe: ``w0``/``w`` of :func:`_dealer`. Its
    dealer probabilities are the parent hand's (``pvec``, one product
    pass per parent hand, shared with its stand: ``fast[0]`` is 2 once
    ``pvec`` is the parent's, 1 once its sums are made too) rescaled:
    removing one card ``v`` multiplies ``P(D)`` by ``(R_v - D_v) N /
    (R_v (N - |D|))``, so every bust child's ``dd``, ``w0`` and ``w``
    are linear in the parent's sums of :func:`_parent_stats` (one pass
    over the multisets per parent, not per bust). The law is cached per
    removed composition across the passes of one up card.
    """
    want = par[Q_SC_HIT] > 0 or par[Q_SC_DBL] > 0
    slot = _bust_slot(b, i, v, extra, h_child)
    j = -1 - slot
    if want and slot != NO_SLOT and c_bok[j] >= 2:
        _bust_cached(
            b, v, r, n, hard, up, par, j, c_bdd, c_bw0, c_bw, rb, sc_g,
            bust_done, bust_dec, bust_sc, b2,
        )  # fmt: skip
        return
    bust_done[b] = 1
    nb = n - 1
    for x in range(1, 11):
        rb[x] = r[x]
    rb[v] -= 1
    mb = _mass(rb, nb, up, par)
    sc = NEG
    sc2 = 0.0
    dec = -mb
    if want:
        if fast[0] != 1:
            if fast[0] == 0:
                _pvec(r, n, d_val, d_cnt, d_size, d_ord, ff, den, pvec)
            _parent_stats(
                n, max(1, 22 - hard), pvec, d_val, d_cnt, d_size,
                d_out, st_xp, st_yp, st_x2, st_y2, st_z2,
            )  # fmt: skip
            fast[0] = 1
        _bust_laws(
            v, j if slot != NO_SLOT else -1, r, n, True, st_xp, st_yp,
            st_x2, st_y2, st_z2, dd, w0, w, c_bdd, c_bw0, c_bw, c_bok,
        )  # fmt: skip
        if par[Q_COLLECT] == 0 and par[Q_PUSH22] > 0:
            dec = -(mb - dd[5])
        if nb > 0:
            sc, sc2 = _sc_value(w0, w, rb, hard + v, sc_g)
    elif par[Q_COLLECT] == 0 and par[Q_PUSH22] > 0:
        _dealer_at(
            slot, False, rb, nb, d_val, d_cnt, d_size, d_ord,
            d_out, ff, den, dd, w0, w, c_hdd, c_hok, c_bdd,
            c_bw0, c_bw, c_bok,
        )  # fmt: skip
        dec = -(mb - dd[5])
    bust_dec[b] = dec
    bust_sc[b] = sc
    b2[b, 0] = -dec  # a declined bust loses 1 (or pushes on a 22)
    b2[b, 1] = sc2


@jit
def hand_pass(
    shoe: np.ndarray,
    extra: int,
    up: int,
    par: np.ndarray,
    h_cnt: np.ndarray,
    h_hard: np.ndarray,
    h_child: np.ndarray,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    stand: np.ndarray,
    hit: np.ndarray,
    best: np.ndarray,
    dbl: np.ndarray,
    live: np.ndarray,
    bust_done: np.ndarray,
    bust_dec: np.ndarray,
    bust_sc: np.ndarray,
    follow: bool,
    f_hit: np.ndarray,
    f_sc: np.ndarray,
    reach: np.ndarray,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
    td: bool,
    td_key: np.ndarray,
    td_w: np.ndarray,
    td_hit: np.ndarray,
    td_bkey: np.ndarray,
    td_bw: np.ndarray,
    td_sc: np.ndarray,
    m2: np.ndarray,
    b2: np.ndarray,
) -> None:
    """Value every hand composition against ``up`` (joint with no BJ).

    ``shoe`` is the shoe less the up card; a hand ``H`` draws from
    ``shoe - H`` less one card of value ``extra`` (the other pair card
    of a split; 0 = none), and only hands holding ``extra`` are valued
    then. Filled per hand: ``stand`` (a 21 paid at once: its payment),
    ``hit`` and ``dbl`` (per unit of the hand's wager; ``dbl`` counts
    the doubled wager), ``best`` = max(stand, hit), ``live`` = 1 where
    the hand can occur. Busts are valued in ``bust_dec`` (declined) and
    ``bust_sc`` (Second Chance taken), per unit.

    With ``follow`` the hands do not choose: a hand hits where
    ``f_hit`` is 1 and a bust takes the Second Chance where ``f_sc`` is
    1 (the pre-split strategy a split hand follows under CDZ-), and
    only the hands marked in ``reach`` (:func:`mark_reach`) are valued;
    the stand of a hand of four or more cards that hits is not needed,
    nor the hit (and the busts it reaches) of a hand of three or more
    cards that stands: ``hit`` and ``dbl`` are then left at ``NEG``.
    The ``c_*`` arrays cache the dealer's law per removed composition
    across the passes of one up card (see :func:`_dealer_at`).

    With ``td`` (total-dependent play, not with ``follow``) the hands
    of one decision point ``td_key[i] >= 0`` (:mod:`.td`: total and
    softness of a hand of three or more cards) all make the one choice
    that maximises their values summed with the weights ``td_w`` (the
    probabilities of reaching them): ``td_hit[key]`` = 1 where they
    hit. Every point's hands have the same hard total and their
    children a higher one, so deciding each hard total in turn, from
    21 down, is exact backward induction. The busts are all valued
    first and take the Second Chance by their point ``td_bkey[b]``
    (the hard total) with weights ``td_bw``: ``td_sc[key]``.

    Second moments (of the hand's net, per unit squared, joint with no
    dealer Blackjack) of the same plays: ``m2[i]`` = (stand, hit, best,
    double) and ``b2[b]`` = (declined, Second Chance taken).
    """
    jmax = 1
    for i in range(d_cnt.shape[0]):
        for j in range(8):
            if d_cnt[i, j] + 1 > jmax:
                jmax = d_cnt[i, j] + 1
    smax = 1
    for i in range(d_size.shape[0]):
        if d_size[i] + 1 > smax:
            smax = d_size[i] + 1
    ff = np.zeros((11, jmax))
    den = np.zeros(smax)
    dd = np.zeros(8)
    w0 = np.zeros(8)
    w = np.zeros((8, 11))
    r = np.zeros(11, dtype=np.int64)
    rb = np.zeros(11, dtype=np.int64)
    want_sc = par[Q_SC_HIT] > 0 or par[Q_SC_DBL] > 0
    plain_bust = not want_sc and not (
        par[Q_COLLECT] == 0 and par[Q_PUSH22] > 0
    )
    fast = np.zeros(1, dtype=np.int64)
    pvec = np.zeros(d_size.shape[0])
    st_xp = np.zeros(8)
    st_yp = np.zeros((8, 11))
    st_x2 = np.zeros(8)
    st_y2 = np.zeros((8, 11))
    st_z2 = np.zeros((8, 11, 11))
    # a Second Chance hand's net by total (up to 31 - 1) and outcome
    sc_g = np.zeros((32, 8))
    for x in range(32):
        for o in range(7):
            sc_g[x, o] = _sc_pay(x, o, par)
    bust_done[:] = 0
    nh = h_cnt.shape[0]
    if extra == 0 and not follow and c_hok.shape[0] > nh and c_hok[nh] == 0:
        # every hand's dealer law at once, each from its parent's
        _prefill(
            shoe, par, h_cnt, h_hard, h_child, d_val, d_cnt, d_size, d_ord,
            d_out, ff, den, want_sc, not plain_bust, c_hdd, c_hok, c_bdd,
            c_bw0, c_bw, c_bok,
        )  # fmt: skip
        c_hok[nh] = 1
    nk = td_hit.shape[0]
    sum_s = np.zeros(nk)
    sum_h = np.zeros(nk)
    raw_s = np.zeros(nk)
    raw_h = np.zeros(nk)
    if td:
        _td_busts(
            shoe, up, par, h_cnt, h_hard, h_child, d_val, d_cnt, d_size,
            d_ord, d_out, ff, den, dd, w0, w, r, rb, c_hdd, c_hok, c_bdd,
            c_bw0, c_bw, c_bok, bust_done, bust_dec, bust_sc, td_bkey,
            td_bw, td_sc, fast, pvec, st_xp, st_yp, st_x2, st_y2, st_z2,
            b2, sc_g,
        )  # fmt: skip
    lev_start = 0
    lev_hard = h_hard[0] if nh > 0 else 0
    for i in range(nh):
        if td and h_hard[i] != lev_hard:
            _td_level(
                lev_start, i, td_key, stand, hit, best, sum_s, sum_h,
                raw_s, raw_h, td_hit, m2,
            )  # fmt: skip
            lev_start = i
            lev_hard = h_hard[i]
        live[i] = 0
        stand[i] = NEG
        hit[i] = NEG
        best[i] = NEG
        dbl[i] = NEG
        m2[i, :] = 0.0
        if extra > 0 and h_cnt[i, extra] == 0:
            continue
        if follow and reach[i] == 0:
            continue
        n = 0
        ok = True
        for v in range(1, 11):
            r[v] = shoe[v] - h_cnt[i, v]
            if v == extra:
                r[v] -= 1
            if r[v] < 0:
                ok = False
            n += r[v]
        if not ok:
            continue
        live[i] = 1
        hard = h_hard[i]
        t = hard + 10 if (h_cnt[i, 1] > 0 and hard + 10 <= 21) else hard
        m = _mass(r, n, up, par)
        if t == 21 and par[Q_PAID21] > 0:
            stand[i] = par[Q_21] * m
            best[i] = stand[i]
            m2[i, 0] = par[Q_21] * par[Q_21] * m
            m2[i, 2] = m2[i, 0]
            continue
        ncards = 0
        for v in range(1, 11):
            ncards += h_cnt[i, v]
        s = NEG
        fast[0] = 0
        if not (follow and f_hit[i] == 1 and ncards >= 4 and t < 21):
            slot = i if extra == 0 else h_child[i, extra]
            if slot >= 0 and c_hok[slot] == 1:
                # cached: copied here, not through a call of many arrays
                for o in range(8):
                    dd[o] = c_hdd[slot, o]
            elif slot != NO_SLOT and slot < 0 and c_bok[-1 - slot] >= 1:
                for o in range(8):
                    dd[o] = c_bdd[-1 - slot, o]
            elif slot >= 0 and c_hok[slot] == 0 and want_sc:
                # one product pass serves the stand and the busts
                _stand_pvec(
                    slot, r, n, d_val, d_cnt, d_size, d_ord, d_out, ff, den,
                    pvec, dd, c_hdd, c_hok, fast,
                )  # fmt: skip
            else:
                _dealer_at(
                    slot, False, r, n, d_val, d_cnt, d_size, d_ord, d_out,
                    ff, den, dd, w0, w, c_hdd, c_hok, c_bdd, c_bw0, c_bw,
                    c_bok,
                )  # fmt: skip
            s = 0.0
            for o in range(8):
                if dd[o] != 0.0 and (o < 7 or par[Q_BJ_LOSES] > 0):
                    pay = _stand_pay(t, o, par)
                    s += dd[o] * pay
                    m2[i, 0] += dd[o] * pay * pay
        stand[i] = s
        if t == 21 or n == 0 or (follow and f_hit[i] == 0 and ncards >= 3):
            # a followed hand of three or more cards that stands: its
            # hit (and the busts it would reach) is never used
            best[i] = s
            m2[i, 2] = m2[i, 0]
            continue
        e_hit = 0.0
        e_dbl = 0.0
        e2_hit = 0.0
        e2_dbl = 0.0
        for v in range(1, 11):
            if r[v] == 0:
                continue
            pv = r[v] / n
            j = h_child[i, v]
            if j >= 0:
                e_hit += pv * best[j]
                e_dbl += pv * stand[j]
                e2_hit += pv * m2[j, 2]
                e2_dbl += pv * m2[j, 0]
                continue
            b = -1 - j
            if bust_done[b] == 0 and plain_bust:
                # no Second Chance, a bust collected at once: lost
                # unless the dealer has a Blackjack (the card reader)
                bust_done[b] = 1
                bust_sc[b] = NEG
                bust_dec[b] = -_mass_less(r, n, v, up, par)
                b2[b, 0] = -bust_dec[b]
                b2[b, 1] = 0.0
            elif (
                bust_done[b] == 0
                and want_sc
                and _cached(_bust_slot(b, i, v, extra, h_child), c_bok)
            ):
                # the common case, through a call with few arguments
                _bust_cached(
                    b, v, r, n, hard, up, par,
                    -1 - _bust_slot(b, i, v, extra, h_child), c_bdd, c_bw0,
                    c_bw, rb, sc_g, bust_done, bust_dec, bust_sc, b2,
                )  # fmt: skip
            elif bust_done[b] == 0:
                _bust(
                    b, i, v, r, n, hard, extra, up, par, h_child, d_val,
                    d_cnt, d_size, d_ord, d_out, ff, den, dd, w0, w, rb,
                    c_hdd, c_hok, c_bdd, c_bw0, c_bw, c_bok, bust_done,
                    bust_dec, bust_sc, fast, pvec, st_xp, st_yp, st_x2,
                    st_y2, st_z2, b2, sc_g,
                )  # fmt: skip
            dec = bust_dec[b]
            sc = bust_sc[b]
            took = sc > dec
            if follow:
                took = f_sc[b] == 1
            elif td and td_bkey[b] >= 0:
                took = td_sc[td_bkey[b]] == 1
            take = sc if took else dec
            take2 = b2[b, 1] if took else b2[b, 0]
            e_hit += pv * (take if par[Q_SC_HIT] > 0 else dec)
            e_dbl += pv * (take if par[Q_SC_DBL] > 0 else dec)
            e2_hit += pv * (take2 if par[Q_SC_HIT] > 0 else b2[b, 0])
            e2_dbl += pv * (take2 if par[Q_SC_DBL] > 0 else b2[b, 0])
        hit[i] = e_hit
        dbl[i] = 2.0 * e_dbl
        m2[i, 1] = e2_hit
        m2[i, 3] = 4.0 * e2_dbl
        go = f_hit[i] == 1 if follow else e_hit > s
        best[i] = e_hit if go else s
        m2[i, 2] = e2_hit if go else m2[i, 0]
        k = td_key[i] if td else -1
        if k >= 0:
            sum_s[k] += td_w[i] * s
            sum_h[k] += td_w[i] * e_hit
            raw_s[k] += s
            raw_h[k] += e_hit
    if td:
        _td_level(
            lev_start, nh, td_key, stand, hit, best, sum_s, sum_h, raw_s,
            raw_h, td_hit, m2,
        )  # fmt: skip


@jit
def _td_level(
    start: int,
    stop: int,
    td_key: np.ndarray,
    stand: np.ndarray,
    hit: np.ndarray,
    best: np.ndarray,
    sum_s: np.ndarray,
    sum_h: np.ndarray,
    raw_s: np.ndarray,
    raw_h: np.ndarray,
    td_hit: np.ndarray,
    m2: np.ndarray,
) -> None:
    """Decide the points of hands ``start:stop`` (one hard total).

    A point no hand reaches (all weights 0) is decided on its values
    summed without weights (it changes no expectation).
    """
    for i in range(start, stop):
        k = td_key[i]
        if k < 0 or hit[i] <= NEG / 2:
            continue
        if sum_s[k] != 0.0 or sum_h[k] != 0.0:
            go = sum_h[k] > sum_s[k]
        else:
            go = raw_h[k] > raw_s[k]
        td_hit[k] = 1 if go else 0
        best[i] = hit[i] if go else stand[i]
        m2[i, 2] = m2[i, 1] if go else m2[i, 0]


@jit
def _td_busts(
    shoe: np.ndarray,
    up: int,
    par: np.ndarray,
    h_cnt: np.ndarray,
    h_hard: np.ndarray,
    h_child: np.ndarray,
    d_val: np.ndarray,
    d_cnt: np.ndarray,
    d_size: np.ndarray,
    d_ord: np.ndarray,
    d_out: np.ndarray,
    ff: np.ndarray,
    den: np.ndarray,
    dd: np.ndarray,
    w0: np.ndarray,
    w: np.ndarray,
    r: np.ndarray,
    rb: np.ndarray,
    c_hdd: np.ndarray,
    c_hok: np.ndarray,
    c_bdd: np.ndarray,
    c_bw0: np.ndarray,
    c_bw: np.ndarray,
    c_bok: np.ndarray,
    bust_done: np.ndarray,
    bust_dec: np.ndarray,
    bust_sc: np.ndarray,
    td_bkey: np.ndarray,
    td_bw: np.ndarray,
    td_sc: np.ndarray,
    fast: np.ndarray,
    pvec: np.ndarray,
    st_xp: np.ndarray,
    st_yp: np.ndarray,
    st_x2: np.ndarray,
    st_y2: np.ndarray,
    st_z2: np.ndarray,
    b2: np.ndarray,
    sc_g: np.ndarray,
) -> None:
    """Value every bust of a plain hand, then decide each bust point."""
    want = par[Q_SC_HIT] > 0 or par[Q_SC_DBL] > 0
    for i in range(h_cnt.shape[0]):
        n = 0
        ok = True
        for v in range(1, 11):
            r[v] = shoe[v] - h_cnt[i, v]
            if r[v] < 0:
                ok = False
            n += r[v]
        if not ok or n == 0:
            continue
        hard = h_hard[i]
        t = hard + 10 if (h_cnt[i, 1] > 0 and hard + 10 <= 21) else hard
        if t == 21:
            continue
        fast[0] = 0
        for v in range(1, 11):
            j = h_child[i, v]
            if j >= 0 or r[v] == 0:
                continue
            b = -1 - j
            if bust_done[b] == 0 and want and c_bok[b] >= 2:
                _bust_cached(
                    b, v, r, n, hard, up, par, b, c_bdd, c_bw0, c_bw, rb,
                    sc_g, bust_done, bust_dec, bust_sc, b2,
                )  # fmt: skip
            elif bust_done[b] == 0:
                _bust(
                    b, i, v, r, n, hard, 0, up, par, h_child, d_val,
                    d_cnt, d_size, d_ord, d_out, ff, den, dd, w0, w, rb,
                    c_hdd, c_hok, c_bdd, c_bw0, c_bw, c_bok, bust_done,
                    bust_dec, bust_sc, fast, pvec, st_xp, st_yp, st_x2,
                    st_y2, st_z2, b2, sc_g,
                )  # fmt: skip
    nk = td_sc.shape[0]
    s_sc = np.zeros(nk)
    s_dec = np.zeros(nk)
    u_sc = np.zeros(nk)
    u_dec = np.zeros(nk)
    for b in range(bust_dec.shape[0]):
        k = td_bkey[b]
        if k < 0 or bust_done[b] == 0 or bust_sc[b] <= NEG / 2:
            continue
        s_sc[k] += td_bw[b] * bust_sc[b]
        s_dec[k] += td_bw[b] * bust_dec[b]
        u_sc[k] += bust_sc[b]
        u_dec[k] += bust_dec[b]
    for k in range(nk):
        if s_sc[k] != 0.0 or s_dec[k] != 0.0:
            td_sc[k] = 1 if s_sc[k] > s_dec[k] else 0
        else:
            td_sc[k] = 1 if u_sc[k] > u_dec[k] else 0


@jit
def reach_weights(
    shoe: np.ndarray,
    h_cnt: np.ndarray,
    h_child: np.ndarray,
    act2: np.ndarray,
    f_hit: np.ndarray,
    w: np.ndarray,
    bw: np.ndarray,
) -> None:
    """Probabilities of reaching each hand and bust (unsplit hands).

    ``shoe`` is the shoe less the up card; a two-card hand is dealt
    with its probability and then hits (``act2[i]`` = 1) or doubles
    (2, its busts weighted by the doubled stake); a later hand hits
    where ``f_hit[i]`` is 1. ``w`` and ``bw`` are filled.
    """
    w[:] = 0.0
    bw[:] = 0.0
    nh = h_cnt.shape[0]
    total = 0
    for v in range(1, 11):
        total += shoe[v]
    if total < 3:
        return
    pairs = total * (total - 1.0)
    for i in range(nh):
        nc = 0
        a = 0
        b = 0
        for v in range(1, 11):
            c = h_cnt[i, v]
            nc += c
            if c > 0:
                if a == 0:
                    a = v
                b = v
        if nc != 2:
            continue
        if a == b:
            w[i] = shoe[a] * (shoe[a] - 1.0) / pairs
        else:
            w[i] = 2.0 * shoe[a] * shoe[b] / pairs
    for i in range(nh - 1, -1, -1):
        if w[i] == 0.0:
            continue
        nc = 0
        for v in range(1, 11):
            nc += h_cnt[i, v]
        go = act2[i] if nc == 2 else f_hit[i]
        if nc < 2 or go == 0:
            continue
        stake = 2.0 if go == 2 else 1.0
        n = total - nc
        if n <= 0:
            continue
        for v in range(1, 11):
            rv = shoe[v] - h_cnt[i, v]
            if rv <= 0:
                continue
            p = w[i] * rv / n
            j = h_child[i, v]
            if j >= 0:
                if go == 1:
                    w[j] += p
            else:
                bw[-1 - j] += stake * p


@jit
def mark_reach(
    h_cnt: np.ndarray,
    h_child: np.ndarray,
    f_hit: np.ndarray,
    one: int,
    reach: np.ndarray,
) -> None:
    """Mark the hands a split hand can become (``reach``).

    ``one`` is the index of the one-card hand (the pair card); two-card
    hands are all reachable and may hit or double, later hands only
    where the strategy ``f_hit`` hits.
    """
    reach[:] = 0
    for v in range(1, 11):
        j = h_child[one, v]
        if j >= 0:
            reach[j] = 1
    for i in range(h_cnt.shape[0] - 1, -1, -1):
        if reach[i] == 0:
            continue
        ncards = 0
        for v in range(1, 11):
            ncards += h_cnt[i, v]
        if ncards == 2 or f_hit[i] == 1:
            for v in range(1, 11):
                j = h_child[i, v]
                if j >= 0:
                    reach[j] = 1
