"""Engine speed benchmark: win check and decomposition against the ``mahjong`` package.

Builds 20,000 realistic winning hands (four random sets and a pair, a share of them concealed
kongs/seven pairs shapes excluded so both libraries see the same 14-tile hands), then in the same
run times, per hand:

1. this engine's win check (``is_winning_counts``) against ``mahjong.agari.Agari.is_agari``;
2. the same check with 2, 4 and 7 of the hand's tiles replaced by wilds;
3. full decomposition with all arrangements (``decompose``).

The lookup tables are built on first use and cached; a warm-up pass over the same hands builds
them before timing (its cost is printed as "table build"). Prints a table of microseconds per
hand (median and mean) and the ratio to ``mahjong``'s median. Run: ``python3 run.py bench engine``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from engine.decompose import decompose, is_winning_counts

N_HANDS = 20_000


def random_winning_counts(rng: random.Random) -> list[int]:
    """Four random sets (chow or pung, suited or honour) and a pair, at most four of a kind."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                base = rng.choice((0, 9, 18)) + rng.randrange(7)
                for k in (base, base + 1, base + 2):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def with_wilds(counts: Sequence[int], k: int, rng: random.Random) -> list[int]:
    """Remove ``k`` random tiles (they become wilds)."""
    tiles = [t for t in range(34) for _ in range(counts[t])]
    out = list(counts)
    for t in rng.sample(tiles, k):
        out[t] -= 1
    return out


def time_each(fn: Callable, items: Sequence) -> list[float]:
    """Microseconds per call, one measurement per item."""
    clock = time.perf_counter_ns
    out = []
    for item in items:
        start = clock()
        fn(item)
        out.append((clock() - start) / 1000)
    return out


def main() -> None:
    from mahjong.agari import Agari

    rng = random.Random(20261122)
    hands = [random_winning_counts(rng) for _ in range(N_HANDS)]
    agari = Agari()
    wild_sets = {k: [with_wilds(h, k, rng) for h in hands] for k in (2, 4, 7)}
    tile_lists = [[t for t in range(34) for _ in range(h[t])] for h in hands]

    start = time.perf_counter()
    for h in hands:
        is_winning_counts(h)
    for k, data in wild_sets.items():
        for h in data:
            is_winning_counts(h, k)
    for tiles in tile_lists:
        decompose(tiles)
    build_s = time.perf_counter() - start

    rows: list[tuple[str, list[float]]] = []
    base = time_each(agari.is_agari, hands)
    rows.append(("mahjong Agari.is_agari (baseline)", base))
    ours = time_each(is_winning_counts, hands)
    assert all(is_winning_counts(h) for h in hands)
    rows.append(("engine win check, no wilds", ours))
    for k, data in wild_sets.items():
        rows.append((f"engine win check, {k} wilds", time_each(lambda h, k=k: is_winning_counts(h, k), data)))
        assert all(is_winning_counts(h, k) for h in data)
    rows.append(("engine full decomposition (all arrangements)", time_each(decompose, tile_lists)))

    base_median = statistics.median(base)
    print(f"engine benchmark: {N_HANDS} winning hands; first-use table build {build_s:.2f} s (cached after)")
    print(f"{'case':<46} {'median µs':>10} {'mean µs':>9} {'ratio to mahjong':>17}")
    print("-" * 85)
    for name, samples in rows:
        med = statistics.median(samples)
        print(f"{name:<46} {med:>10.2f} {statistics.fmean(samples):>9.2f} {med / base_median:>16.2f}x")
    print("-" * 85)
    print("targets: no wilds ≤ 1.00x; 7 wilds ≤ 2.00x; full decomposition median < 50 µs")


if __name__ == "__main__":
    main()
