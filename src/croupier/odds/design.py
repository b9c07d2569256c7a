"""Paytable designer: integer paytables whose exact hold is in a range.

A *designable wager* is one whose outcome, for a given deck count, is a
set of paytable categories the hand qualifies for, counted exactly by
croupier's enumerations (21 Baccarat Bonus, Midibaccarat Perfect Pairs,
Dragon 7 and Panda 8, the Fortune Bonus). A hand is paid once, at its
best listed category (the engines' rule). With odds that do not rise
against rank (a higher-ranked category never pays less), that is the
highest-ranked listed category the hand qualifies for, so the return is
linear in the odds::

    return_d = sum_c  w_c,d (o_c + 1) / T_d          (hold = 1 - return)

where ``w_c,d`` counts the combinations whose best category is ``c``
at ``d`` decks and ``T_d`` all of them. The weights are computed once
per deck count; the search then runs over integer odds ``o_c:1`` only,
in integer arithmetic (no rounding), lowest rank first, pruning each
branch with the least and the most the remaining categories can add.

>>> space = find_space("midibaccarat-commission-free", "dragon7")
>>> table = {"dragon7": Fraction(40)}
>>> f"{100 * float(space.evaluate(table, 8).hold):.4f}"
'7.6113'
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache

from croupier.errors import CroupierError
from croupier.jsontypes import JsonObject
from croupier.money import Odds

__all__ = [
    "DEFAULT_MAX_NODES",
    "Candidate",
    "DesignError",
    "DesignResult",
    "Evaluation",
    "Outcomes",
    "WagerSpace",
    "design",
    "find_space",
    "space_for_rules",
    "spaces",
    "with_base",
]

DEFAULT_MAX_NODES = 500_000
"""Search nodes visited before the designer gives up (narrow the
search with ``categories`` or ``max_odds``)."""
RANKINGS = ("target", "sigma", "changes")
"""The ranking keys, in their default tie-break order."""


class DesignError(CroupierError):
    """A design request that cannot be met (unknown wager, bad range)."""


@dataclass(frozen=True, slots=True)
class Outcomes:
    """Exact outcome counts of one wager at one deck count.

    ``sets`` maps each combination of categories a hand can qualify for
    (highest rank first; empty: none) to its number of combinations.
    """

    total: int
    """All equally likely combinations (``T``)."""
    sets: tuple[tuple[tuple[str, ...], int], ...]
    """(categories qualified for, combinations) pairs."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The exact figures of one paytable at one deck count."""

    decks: int
    """The deck count."""
    hold: Fraction
    """House edge per unit wagered (exact)."""
    variance: Fraction
    """Variance of the net per unit wagered (exact)."""

    @property
    def sigma(self) -> float:
        """Standard deviation per unit wagered."""
        return math.sqrt(self.variance)


@dataclass(frozen=True, slots=True)
class WagerSpace:
    """A designable wager: its categories and exact outcome counts."""

    game: str
    """Registry name of the game."""
    wager: str
    """The wager, as the engine names it."""
    option: str
    """The Rules Submission option that carries the paytable."""
    categories: tuple[str, ...]
    """Every category the wager can pay, highest rank first."""
    base: Mapping[str, Fraction]
    """The default paytable (category to odds as a fraction)."""
    counts: Callable[[int], Outcomes] = field(repr=False)
    """Exact outcome counts for a deck count."""
    exclusive: bool = False
    """Whether a hand qualifies for one category at most."""
    fixed_decks: int | None = None
    """The only deck count the game has (pai gow: one 53-card deck)."""
    default_decks: tuple[int, ...] = ()
    """Deck counts searched when none are given."""

    def outcomes(self, decks: int) -> Outcomes:
        """The exact outcome counts at ``decks`` (cached)."""
        if self.fixed_decks is not None and decks != self.fixed_decks:
            msg = (
                f"{self.game} {self.wager} is dealt from one fixed deck; "
                f"--decks {decks} does not apply"
            )
            raise DesignError(msg)
        if decks < 1:
            msg = f"decks must be at least 1, not {decks}"
            raise DesignError(msg)
        return self.counts(decks)

    def evaluate(
        self, table: Mapping[str, Fraction], decks: int
    ) -> Evaluation:
        """Exact hold and variance of ``table`` (any order of odds).

        A hand is paid at the best listed category it qualifies for; a
        hand with none loses its wager.
        """
        out = self.outcomes(decks)
        mean = Fraction(0)
        square = Fraction(0)
        for cats, weight in out.sets:
            paid = [table[c] for c in cats if c in table]
            net = max(paid) if paid else Fraction(-1)
            mean += net * weight
            square += net * net * weight
        mean /= out.total
        square /= out.total
        return Evaluation(decks, -mean, square - mean * mean)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A paytable the designer found, with its exact figures."""

    odds: Mapping[str, int]
    """Category to ``N`` of ``N:1``, highest rank first."""
    evaluations: tuple[Evaluation, ...]
    """Its figures at each deck count searched."""
    changes: int
    """Categories whose odds differ from the base table."""

    def to_dict(self) -> JsonObject:
        """JSON form: odds strings, holds exact and as floats."""
        return {
            "paytable": {c: f"{n}:1" for c, n in self.odds.items()},
            "changes": self.changes,
            "decks": {
                str(e.decks): {
                    "hold": float(e.hold),
                    "hold_exact": str(e.hold),
                    "sigma": e.sigma,
                }
                for e in self.evaluations
            },
        }


@dataclass(frozen=True, slots=True)
class DesignResult:
    """What a search found."""

    space: WagerSpace
    """The wager searched."""
    decks: tuple[int, ...]
    """The deck counts every table satisfies."""
    low: Fraction
    """Lowest hold accepted."""
    high: Fraction
    """Highest hold accepted."""
    target: Fraction
    """The hold aimed at (ranking ``target``)."""
    rank: str
    """The primary ranking key."""
    found: int
    """Tables found in range (all, not only those kept)."""
    nodes: int
    """Search nodes visited."""
    candidates: tuple[Candidate, ...]
    """The best tables, best first."""

    def to_dict(self) -> JsonObject:
        """JSON form of the search and its results."""
        return {
            "game": self.space.game,
            "wager": self.space.wager,
            "option": self.space.option,
            "decks": list(self.decks),
            "target_hold": [float(self.low), float(self.high)],
            "target": float(self.target),
            "rank": self.rank,
            "found": self.found,
            "nodes": self.nodes,
            "base": {c: f"{o}:1" for c, o in self.space.base.items()},
            "candidates": [c.to_dict() for c in self.candidates],
        }


# ---------------------------------------------------------------- spaces


def _b21_counts(decks: int) -> Outcomes:
    from croupier.hands.bonus21 import CATEGORY_ORDER
    from croupier.odds.baccarat21.model import bonus_weights

    weights = bonus_weights(decks)
    sets = []
    for mask in range(len(weights)):
        weight = int(weights[mask])
        if weight:
            cats = tuple(
                c.value
                for bit, c in enumerate(CATEGORY_ORDER)
                if mask >> bit & 1
            )
            sets.append((cats, weight))
    return Outcomes(int(weights.sum()), tuple(sets))


def _pairs_counts(decks: int) -> Outcomes:
    from croupier.odds.baccarat.model import PAIR_KINDS, pair_weights

    weights = pair_weights(decks)
    sets = tuple(
        ((PAIR_KINDS[kind],) if kind else (), weight)
        for kind, weight in enumerate(weights)
    )
    return Outcomes(sum(weights), sets)


def _coup_counts(category: str) -> Callable[[int], Outcomes]:
    def counts(decks: int) -> Outcomes:
        from croupier.odds.baccarat.model import cell_weights, cells

        weights = cell_weights(decks)
        hits = 0
        for pc, bc, drew_p, drew_b in cells():
            dragon7 = drew_b == 1 and bc == 7 and pc < 7
            panda8 = drew_p == 1 and pc == 8 and bc < 8
            if dragon7 if category == "dragon7" else panda8:
                hits += int(weights[pc, bc, drew_p, drew_b])
        total = int(weights.sum())
        return Outcomes(total, (((category,), hits), ((), total - hits)))

    return counts


def _fortune_counts(decks: int) -> Outcomes:
    del decks  # one 53-card deck
    from croupier.hands.paigow import CATEGORY_KEYS
    from croupier.odds.paigow.exact import HANDS, category_counts

    counts = category_counts()
    sets = tuple(
        ((key,), count)
        for key, count in zip(CATEGORY_KEYS, counts, strict=True)
    )
    return Outcomes(HANDS, sets)


def _odds_map(table: Iterable[tuple[str, Odds]]) -> dict[str, Fraction]:
    return {name: odds.fraction for name, odds in table}


@cache
def spaces() -> dict[tuple[str, str], WagerSpace]:
    """Every designable wager, by (game, wager)."""
    from croupier.games.baccarat21 import Baccarat21Rules
    from croupier.games.midibaccarat.rules import (
        CommissionFreeRules,
        MidibaccaratRules,
    )
    from croupier.games.six_card_fortune_pai_gow.rules import SixCardRules
    from croupier.hands.bonus21 import CATEGORY_ORDER
    from croupier.hands.paigow import CATEGORY_KEYS

    b21 = Baccarat21Rules()
    bonus = WagerSpace(
        game="21-baccarat",
        wager="bonus",
        option="bonus_paytable",
        categories=tuple(c.value for c in CATEGORY_ORDER),
        base=_odds_map(b21.bonus_paytable),
        counts=cache(_b21_counts),
        default_decks=(2, 3),
    )
    out: dict[tuple[str, str], WagerSpace] = {}
    for wager in ("bonus", "bonus_player", "bonus_banker"):
        out["21-baccarat", wager] = bonus
    free = CommissionFreeRules()
    for game, rules in (
        ("midibaccarat", MidibaccaratRules()),
        ("midibaccarat-commission-free", free),
    ):
        pairs = WagerSpace(
            game=game,
            wager="perfect_pairs",
            option="perfect_pairs",
            categories=("perfect", "colored", "mixed"),
            base=_odds_map(rules.perfect_pairs),
            counts=cache(_pairs_counts),
            exclusive=True,
            default_decks=(rules.decks,),
        )
        for wager in (
            "perfect_pairs",
            "perfect_pairs_player",
            "perfect_pairs_banker",
        ):
            out[game, wager] = pairs
    for category, odds in (
        ("dragon7", free.dragon7_payout),
        ("panda8", free.panda8_payout),
    ):
        out["midibaccarat-commission-free", category] = WagerSpace(
            game="midibaccarat-commission-free",
            wager=category,
            option=f"{category}_payout",
            categories=(category,),
            base={category: odds.fraction},
            counts=cache(_coup_counts(category)),
            exclusive=True,
            default_decks=(free.decks,),
        )
    six = SixCardRules()
    out["six-card-fortune-pai-gow", "fortune_bonus"] = WagerSpace(
        game="six-card-fortune-pai-gow",
        wager="fortune_bonus",
        option="fortune_bonus_paytable",
        categories=tuple(reversed(CATEGORY_KEYS)),
        base=_odds_map(six.fortune_bonus_paytable),
        counts=cache(_fortune_counts),
        exclusive=True,
        fixed_decks=1,
        default_decks=(1,),
    )
    return out


def find_space(game: str, wager: str) -> WagerSpace:
    """The designable wager ``wager`` of ``game``, or a clear error."""
    table = spaces()
    try:
        return table[game, wager]
    except KeyError:
        known = sorted({f"{g} {w}" for g, w in table})
        msg = (
            f"no designable wager {wager!r} in {game!r}; designable: "
            + ", ".join(known)
        )
        raise DesignError(msg) from None


def space_for_rules(space: WagerSpace, rules: object) -> WagerSpace:
    """``space`` with its base table and deck count taken from ``rules``.

    The base table is the wager's option; the deck counts searched when
    none are given are the rules' ``decks`` unless the space's own
    defaults include it (D133: 21 Baccarat's Bonus is held to its range
    at 2 and at 3 decks, D16). Before (2026-12-06) a Rules Submission of
    6 decks was priced at the default 8.
    """
    value = getattr(rules, space.option, None)
    if value is None:
        msg = f"{type(rules).__name__} has no option {space.option}"
        raise DesignError(msg)
    if isinstance(value, Odds):
        base = {space.categories[0]: value.fraction}
    else:
        base = _odds_map(value)
    default_decks = space.default_decks
    decks = getattr(rules, "decks", None)
    if (
        space.fixed_decks is None
        and isinstance(decks, int)
        and decks not in default_decks
    ):
        default_decks = (decks,)
    return replace(space, base=base, default_decks=default_decks)


def with_base(
    space: WagerSpace, changes: Mapping[str, Fraction]
) -> WagerSpace:
    """``space`` with some base odds replaced (0 or less: not paid)."""
    unknown = [c for c in changes if c not in space.categories]
    if unknown:
        msg = (
            f"unknown categories {unknown} for {space.wager}; its "
            f"categories are {list(space.categories)}"
        )
        raise DesignError(msg)
    base = dict(space.base)
    for category, odds in changes.items():
        if odds > 0:
            base[category] = odds
        else:
            base.pop(category, None)
    ordered = {c: base[c] for c in space.categories if c in base}
    return replace(space, base=ordered)


# ---------------------------------------------------------------- search


@dataclass(slots=True)
class _Search:
    """State of one depth-first search (integer arithmetic only)."""

    order: list[str]
    """Categories lowest rank first."""
    top: list[list[int]]
    """``top[i][d]``: combinations whose best paid category is i."""
    lo: list[int]
    """Bounds per category (inclusive)."""
    hi: list[int]
    need_lo: list[Fraction]
    """Per deck count, the least ``sum w (o + 1)`` accepted."""
    need_hi: list[Fraction]
    """Per deck count, the most ``sum w (o + 1)`` accepted."""
    monotone: bool
    max_nodes: int
    nodes: int = 0
    odds: list[int] = field(default_factory=list)

    def _give_up(self) -> None:
        msg = (
            f"the search passed {self.max_nodes:,} nodes (tables and "
            "branches); narrow it with --categories, --max-odds or a "
            "tighter --target-hold"
        )
        raise DesignError(msg)

    def rest_min(self, i: int, floor: int, d: int) -> int:
        """Least the categories after ``i`` add at deck index ``d``."""
        total = 0
        for j in range(i + 1, len(self.order)):
            low = max(self.lo[j], floor) if self.monotone else self.lo[j]
            total += self.top[j][d] * (low + 1)
        return total

    def rest_max(self, i: int, d: int) -> int:
        """Most the categories after ``i`` add at deck index ``d``."""
        return sum(
            self.top[j][d] * (self.hi[j] + 1)
            for j in range(i + 1, len(self.order))
        )

    def run(self, sums: list[int], i: int) -> Iterator[list[int]]:
        """Yield every feasible odds vector (lowest rank first)."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self._give_up()
        decks = range(len(sums))
        start = self.lo[i]
        if self.monotone and i > 0:
            start = max(start, self.odds[i - 1])
        stop = self.hi[i]
        if start > stop:
            return
        rest_max = [self.rest_max(i, d) for d in decks]
        if i == len(self.order) - 1:
            lo, hi = start, stop
            for d in decks:
                w = self.top[i][d]
                if w == 0:
                    if not self.need_lo[d] <= sums[d] <= self.need_hi[d]:
                        return
                    continue
                # need_lo <= sums + w (o + 1) <= need_hi
                lo = max(lo, math.ceil((self.need_lo[d] - sums[d]) / w) - 1)
                hi = min(hi, math.floor((self.need_hi[d] - sums[d]) / w) - 1)
            self.nodes += max(0, hi - lo + 1)
            if self.nodes > self.max_nodes:
                self._give_up()
            for o in range(lo, hi + 1):
                yield [*self.odds, o]
            return
        for o in range(start, stop + 1):
            new = [sums[d] + self.top[i][d] * (o + 1) for d in decks]
            low_rest = [self.rest_min(i, o, d) for d in decks]
            if any(new[d] + low_rest[d] > self.need_hi[d] for d in decks):
                break  # larger odds only add more
            if any(new[d] + rest_max[d] < self.need_lo[d] for d in decks):
                continue
            self.odds.append(o)
            yield from self.run(new, i + 1)
            self.odds.pop()


def _top_weights(
    space: WagerSpace, paid: Sequence[str], decks: int
) -> tuple[list[int], int]:
    """Combinations per best paid category (rank order) and the total."""
    out = space.outcomes(decks)
    weights = dict.fromkeys(paid, 0)
    for cats, weight in out.sets:
        best = next((c for c in cats if c in weights), None)
        if best is not None:
            weights[best] += weight
    return [weights[c] for c in paid], out.total


def design(
    space: WagerSpace,
    *,
    low: Fraction,
    high: Fraction,
    decks: Sequence[int] = (),
    categories: Sequence[str] | None = None,
    target: Fraction | None = None,
    rank: str = "target",
    monotone: bool = True,
    min_odds: int = 1,
    max_odds: int | None = None,
    top: int = 10,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> DesignResult:
    """Search integer ``N:1`` paytables whose hold is in [low, high].

    ``categories`` are searched (default: every category of the base
    table); the base table's other categories keep their odds, and
    categories in neither do not pay. ``max_odds`` bounds each searched
    category (default: twice the category's base odds, at least 50).
    Tables are ranked by ``rank`` (``target``: the largest distance of a
    deck count's hold from ``target``; ``sigma``: the largest
    standard deviation; ``changes``: categories changed from the base),
    then by the other two keys in that order.
    """
    if not Fraction(0) <= low <= high < 1:
        msg = f"the target hold range {low}..{high} is not within 0..1"
        raise DesignError(msg)
    if rank not in RANKINGS:
        msg = f"rank must be one of {list(RANKINGS)}, not {rank!r}"
        raise DesignError(msg)
    if top < 1:
        msg = f"top must be at least 1, not {top}"
        raise DesignError(msg)
    deck_counts = tuple(decks) or space.default_decks
    searched = list(space.base) if categories is None else list(categories)
    unknown = [c for c in searched if c not in space.categories]
    if unknown or not searched:
        msg = (
            f"unknown categories {unknown} for {space.wager}; its "
            f"categories are {list(space.categories)}"
            if unknown
            else "no category to search"
        )
        raise DesignError(msg)
    if not monotone and not space.exclusive:
        msg = (
            f"{space.wager}'s categories overlap (a hand may qualify for "
            "several and is paid at the best), so its hold is linear in "
            "the odds only for tables monotone in rank; drop --any-order"
        )
        raise DesignError(msg)
    fixed = {c: o for c, o in space.base.items() if c not in searched}
    bad = [c for c, o in fixed.items() if o.denominator != 1]
    if bad:
        msg = f"base odds of {bad} are not N:1; search them too"
        raise DesignError(msg)
    paid = [c for c in space.categories if c in searched or c in fixed]
    order = list(reversed(paid))  # lowest rank first
    ceilings = _ceilings(space, paid, max_odds)
    if any(not 0 <= min_odds <= ceilings[c] for c in searched):
        msg = f"odds bounds {min_odds}..{max_odds} are empty"
        raise DesignError(msg)
    lo = [int(fixed[c]) if c in fixed else min_odds for c in order]
    hi = [int(fixed[c]) if c in fixed else ceilings[c] for c in order]
    tops: list[list[int]] = [[] for _ in order]
    need_lo: list[Fraction] = []
    need_hi: list[Fraction] = []
    totals: list[int] = []
    for d in deck_counts:
        weights, total = _top_weights(space, list(reversed(order)), d)
        for i, w in enumerate(reversed(weights)):
            tops[i].append(w)
        # return = sum w (o + 1) / T - ... : a losing hand nets -1, a
        # paid one o, so E[net] = sum w (o + 1) / T - 1 = -hold.
        totals.append(total)
        need_lo.append((1 - high) * total)
        need_hi.append((1 - low) * total)
    search = _Search(
        order=order,
        top=tops,
        lo=lo,
        hi=hi,
        need_lo=need_lo,
        need_hi=need_hi,
        monotone=monotone,
        max_nodes=max_nodes,
    )
    aim = (low + high) / 2 if target is None else target
    heap: list[tuple[tuple[Fraction | int, ...], int, list[int]]] = []
    found = 0
    for vector in search.run([0] * len(deck_counts), 0):
        found += 1
        key = _key(space, search, totals, vector, aim, rank)
        item = (tuple(-k for k in key), found, vector)
        if len(heap) < top:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)
    best = sorted(heap, key=lambda item: tuple(-k for k in item[0]))
    candidates = tuple(
        _candidate(space, order, vector, deck_counts) for _, _, vector in best
    )
    return DesignResult(
        space=space,
        decks=deck_counts,
        low=low,
        high=high,
        target=aim,
        rank=rank,
        found=found,
        nodes=search.nodes,
        candidates=candidates,
    )


def _ceilings(
    space: WagerSpace, paid: Sequence[str], max_odds: int | None
) -> dict[str, int]:
    """Largest odds tried per category.

    ``max_odds``, or by default twice the base odds of the category (of
    the nearest higher-ranked one in the base table if it has none), at
    least 50.
    """
    out: dict[str, int] = {}
    above = 0
    for category in paid:  # highest rank first
        base = space.base.get(category)
        if base is not None:
            above = math.ceil(base)
        out[category] = max(50, 2 * above) if max_odds is None else max_odds
    return out


def _table(order: Sequence[str], vector: Sequence[int]) -> dict[str, int]:
    return {c: vector[i] for i, c in reversed(list(enumerate(order)))}


def _key(
    space: WagerSpace,
    search: _Search,
    totals: Sequence[int],
    vector: Sequence[int],
    aim: Fraction,
    rank: str,
) -> tuple[Fraction | int, ...]:
    """Ranking key from the linear form (integers, exact)."""
    far = Fraction(0)
    spread = Fraction(0)
    for d, total in enumerate(totals):
        paid = 0
        ret = 0
        square = 0
        for i, o in enumerate(vector):
            w = search.top[i][d]
            paid += w
            ret += w * o
            square += w * o * o
        ret -= total - paid  # the losing combinations
        square += total - paid
        mean = Fraction(ret, total)
        far = max(far, abs(-mean - aim))
        spread = max(spread, Fraction(square, total) - mean * mean)
    table = {c: Fraction(o) for c, o in _table(search.order, vector).items()}
    keys: dict[str, Fraction | int] = {
        "target": far,
        "sigma": spread,
        "changes": _changes(space, table),
    }
    ordered = [rank, *(k for k in RANKINGS if k != rank)]
    return (*(keys[k] for k in ordered), *(-o for o in vector))


def _changes(space: WagerSpace, table: Mapping[str, Fraction]) -> int:
    names = set(table) | set(space.base)
    return sum(1 for c in names if table.get(c) != space.base.get(c))


def _candidate(
    space: WagerSpace,
    order: Sequence[str],
    vector: Sequence[int],
    decks: Sequence[int],
) -> Candidate:
    odds = _table(order, vector)
    table = {c: Fraction(o) for c, o in odds.items()}
    return Candidate(
        odds=odds,
        evaluations=tuple(space.evaluate(table, d) for d in decks),
        changes=_changes(space, table),
    )
