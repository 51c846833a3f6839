"""Student's t distribution, for the paired tests of ``trickbook compare`` (no SciPy needed): the two-sided
p-value of a t statistic and the quantile of a two-sided interval. At hundreds of games it is the normal
distribution's to the second decimal; at a few games it is wider, as a mean of few values needs."""

from __future__ import annotations

import math
from functools import lru_cache

_EPS = 1e-15
_TINY = 1e-300


def two_sided_p(t: float, df: float) -> float:
    """The chance that a t statistic with ``df`` degrees of freedom lies at least ``|t|`` from 0."""
    if math.isinf(t):
        return 0.0
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


@lru_cache(maxsize=256)
def quantile(level: float, df: float) -> float:
    """The t with ``two_sided_p(t, df) == 1 - level``: the half-width, in standard errors, of a two-sided
    interval at ``level`` (0.95 -> 1.96 at many degrees of freedom, 12.71 at one)."""
    low, high = 0.0, 1.0
    while two_sided_p(high, df) > 1 - level:
        high *= 2
    for _ in range(200):  # bisection to the last bit of a float
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if two_sided_p(mid, df) > 1 - level:
            low = mid
        else:
            high = mid
    return high


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (its continued fraction, by Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _fraction(a, b, x) / a
    return 1.0 - front * _fraction(b, a, 1 - x) / b


def _fraction(a: float, b: float, x: float) -> float:
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    out = d
    for m in range(1, 1000):
        for step in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + step * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + step / c
            c = c if abs(c) > _TINY else _TINY
            out *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return out
