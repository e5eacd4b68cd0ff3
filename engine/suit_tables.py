"""Per-suit lookup tables: the fast core of the win check and of decomposition.

A suit (characters, dots, bamboo: 9 ranks; honours: 7 kinds, no chows) is keyed by its
tile-count vector as ``bytes``. For each key two tables are built once and cached:

* :func:`suit_need` — the fewest wild tiles that turn the suit's natural tiles into complete
  sets (pungs/chows) without a pair, and with exactly one pair. ``INF`` when impossible.
  A winning hand exists iff the needs of the four suits, with the pair in one of them, add up
  to at most the number of wilds held (the rest of the wilds form pungs of their own).
* :func:`suit_arrangements` — every arrangement of the suit's natural tiles into sets and at
  most one pair, with the wilds each arrangement uses and what each wild stands for.

Both respect the copy cap: natural tiles plus wilds standing for a kind never exceed ``cap``
copies of that kind (4 by default, lowered by copies already in declared melds). Every group
an arrangement lists holds at least one natural tile; groups made only of wilds are added by
the caller.
"""

from __future__ import annotations

from functools import cache

INF = 99

# A group inside one suit: (kind, first index, wild indices) — kind 'chow' | 'pung' | 'pair',
# indices relative to the suit (0-8, or 0-6 for honours), wild indices sorted.
SuitGroup = tuple[str, int, tuple[int, ...]]
# An arrangement: (wilds used, has pair, groups)
Arrangement = tuple[int, bool, tuple[SuitGroup, ...]]


def _first(rem: tuple[int, ...]) -> int:
    for i, c in enumerate(rem):
        if c:
            return i
    return -1


def _options(
    rem: tuple[int, ...],
    wa: tuple[int, ...],
    caps: tuple[int, ...],
    orig: tuple[int, ...],
    i: int,
    chows: bool,
    pair_open: bool,
):
    """Every group that uses at least one natural tile at index ``i`` (the lowest one left).

    Yields (group, new_rem, new_wa, wilds_used, pair_taken). Natural tiles above ``i`` are used
    where present; wilds fill the rest. Indices below ``i`` hold no natural tiles any more.
    """
    n = len(rem)
    c = rem[i]

    def room(j: int, extra: int) -> bool:
        return orig[j] + wa[j] + extra <= caps[j]

    for nat in range(min(c, 3), 0, -1):
        w = 3 - nat
        if w == 0 or room(i, w):
            r = list(rem)
            r[i] -= nat
            a = list(wa)
            a[i] += w
            yield ("pung", i, (i,) * w), tuple(r), tuple(a), w, False
    if pair_open:
        for nat in range(min(c, 2), 0, -1):
            w = 2 - nat
            if w == 0 or room(i, w):
                r = list(rem)
                r[i] -= nat
                a = list(wa)
                a[i] += w
                yield ("pair", i, (i,) * w), tuple(r), tuple(a), w, True
    if chows:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 >= n:
                continue
            r = list(rem)
            a = list(wa)
            wild_at: list[int] = []
            ok = True
            for j in (start, start + 1, start + 2):
                if j >= i and r[j] > 0:
                    r[j] -= 1
                elif j == i:
                    ok = False
                    break
                else:
                    if not room(j, 1):
                        ok = False
                        break
                    a[j] += 1
                    wild_at.append(j)
            if ok:
                yield ("chow", start, tuple(wild_at)), tuple(r), tuple(a), len(wild_at), False


def suit_complete(key: bytes, chows: bool, with_pair: bool) -> bool:
    """Can the natural tiles ``key`` be split into sets (and one pair if ``with_pair``), no wilds?

    The no-wild fast path of the win check: cached, and a plain backtrack over the lowest tile.
    """
    hit = _COMPLETE_CACHE.get((key, chows, with_pair))
    if hit is None:
        hit = _complete(list(key), chows, with_pair)
        _COMPLETE_CACHE[(key, chows, with_pair)] = hit
    return hit


_COMPLETE_CACHE: dict[tuple[bytes, bool, bool], bool] = {}


def _complete(counts: list[int], chows: bool, with_pair: bool) -> bool:
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return not with_pair
    if with_pair and counts[i] >= 2:
        counts[i] -= 2
        ok = _complete(counts, chows, False)
        counts[i] += 2
        if ok:
            return True
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _complete(counts, chows, with_pair)
        counts[i] += 3
        if ok:
            return True
    if chows and i + 2 < len(counts) and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        ok = _complete(counts, chows, with_pair)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return ok
    return False


def _components(key: bytes, caps: bytes, chows: bool) -> list[tuple[bytes, bytes]]:
    """Split a suit into independent stretches: with chows, tiles two or more empty ranks apart
    can never share a group (a chow spans three ranks), so each stretch of tiles is solved
    alone — padded with up to two empty ranks on each side, where chows may put wilds. Without
    chows every kind stands alone. Each stretch keeps its caps."""
    n = len(key)
    spans: list[list[int]] = []
    for i, c in enumerate(key):
        if not c:
            continue
        if spans and chows and i - spans[-1][1] <= 2:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    pad = 2 if chows else 0
    out = []
    for lo, hi in spans:
        a, b = max(0, lo - pad), min(n, hi + pad + 1)
        out.append((key[a:b], caps[a:b]))
    return out


def suit_need(key: bytes, chows: bool = True, caps: bytes = b"") -> tuple[int, int]:
    """(wilds needed without a pair, wilds needed with one pair) for the counts ``key``.

    A pair made only of wilds costs 2 (it can stand for any kind with room). The suit is split
    into independent stretches (:func:`_components`) whose needs are cached and added up.
    """
    cached = _NEED_CACHE.get((key, chows, caps))
    if cached is not None:
        return cached
    cap_bytes = caps or bytes([4]) * len(key)
    no_pair = 0
    pair_extra = 2  # a pair of wilds alone
    for comp, comp_caps in _components(key, cap_bytes, chows):
        a, b = _stretch_need(comp, chows, comp_caps)
        no_pair += a
        if b - a < pair_extra:
            pair_extra = b - a
    result = (min(no_pair, INF), min(no_pair + pair_extra, INF))
    _NEED_CACHE[(key, chows, caps)] = result
    return result


_NEED_CACHE: dict[tuple[bytes, bool, bytes], tuple[int, int]] = {}


@cache
def _stretch_need(key: bytes, chows: bool, caps: bytes) -> tuple[int, int]:
    orig = tuple(key)
    cap = tuple(caps)

    @cache
    def go(rem: tuple[int, ...], wa: tuple[int, ...], pair_open: bool) -> int:
        i = _first(rem)
        if i < 0:
            return 2 if pair_open else 0
        best = INF
        for _g, r, a, w, took in _options(rem, wa, cap, orig, i, chows, pair_open):
            if w >= best:
                continue
            sub = go(r, a, pair_open and not took)
            if sub + w < best:
                best = sub + w
        return best

    zero = (0,) * len(orig)
    return go(orig, zero, False), go(orig, zero, True)


@cache
def suit_arrangements(key: bytes, chows: bool, caps: bytes, max_wilds: int) -> tuple[Arrangement, ...]:
    """Every arrangement of the natural tiles ``key`` into groups, using at most ``max_wilds``.

    Arrangements that differ only in the order groups were found are listed once.
    """
    orig = tuple(key)
    cap = tuple(caps)
    results: set[tuple[int, bool, tuple[SuitGroup, ...]]] = set()

    def go(rem, wa, pair_open, wilds_left, groups):
        i = _first(rem)
        if i < 0:
            results.add((max_wilds - wilds_left, not pair_open, tuple(sorted(groups))))
            return
        for g, r, a, w, took in _options(rem, wa, cap, orig, i, chows, pair_open):
            if w <= wilds_left:
                go(r, a, pair_open and not took, wilds_left - w, groups + [g])

    go(orig, (0,) * len(orig), True, max_wilds, [])
    return tuple(sorted(results))
