"""The median interval the speed benchmarks report: exact binomial order statistics."""

from __future__ import annotations

import random
from math import comb

from autoplay.sim.stats import median_interval


def coverage(n: int, k: int) -> float:
    """Chance that [k-th, (n-1-k)-th smallest] of n draws holds the true median."""
    return 1 - 2 * sum(comb(n, i) for i in range(k + 1)) / 2**n


def test_the_widest_cut_that_keeps_95_percent():
    for n in range(6, 60):  # five values or fewer cannot reach 95%: the whole range is all there is
        lo, hi = median_interval(list(range(n)))
        k = lo
        assert hi == n - 1 - k
        assert coverage(n, k) >= 0.95
        assert coverage(n, k + 1) < 0.95
    assert median_interval([2.0, 1.0, 3.0]) == (1.0, 3.0)


def test_it_covers_the_median_about_as_often_as_it_says():
    rng = random.Random(3)
    hits = 0
    trials = 4000
    for _ in range(trials):
        lo, hi = median_interval([rng.random() for _ in range(9)])
        hits += lo <= 0.5 <= hi
    assert 0.95 <= hits / trials <= 0.995  # 9 values: the exact coverage is 96.1%


def test_order_does_not_matter_and_nothing_gives_nan():
    assert median_interval([5.0, 1.0, 4.0, 2.0, 3.0, 7.0, 6.0]) == (1.0, 7.0)
    lo, hi = median_interval([])
    assert lo != lo and hi != hi
