"""Small statistics used wherever win rates and timings are reported."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval: honest near 0% and 100%, unlike the normal approximation."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between the closest ranks (numpy's default
    method, to its last bit or so), used for every reported timing; nan for no values.

    Written out rather than numpy's: the simulator reports two of them, and importing numpy for them took a
    third of its start.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50), percentile([1.0, 2.0], 99), percentile([], 50)
    (2.5, 1.99, nan)
    """
    if not len(values):
        return math.nan
    ordered = sorted(values)
    at = q / 100 * (len(ordered) - 1)
    lo = min(math.floor(at), len(ordered) - 1)
    hi = min(lo + 1, len(ordered) - 1)
    t = at - lo
    a, b = ordered[lo], ordered[hi]
    return a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)


def median_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free interval for the median: the order statistics the binomial(n, 1/2) puts outside
    with at most ``1 - confidence`` between them (exact, so it stays honest for a handful of repeats).

    With too few values for the confidence asked, the whole range (the best there is).

    >>> median_interval([5.0, 1.0, 4.0, 2.0, 3.0, 7.0, 6.0])
    (1.0, 7.0)
    >>> median_interval(range(20))
    (5, 14)
    """
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return (math.nan, math.nan)
    tail = (1 - confidence) / 2
    # [ordered[k], ordered[n-1-k]] misses the median with probability 2 * P(Binomial(n, 1/2) <= k)
    k = 0
    below = 1 / 2**n  # P(Binomial(n, 1/2) <= 0)
    while k + 1 < (n + 1) // 2:
        below += math.comb(n, k + 1) / 2**n
        if below > tail:
            break
        k += 1
    return ordered[k], ordered[n - 1 - k]
