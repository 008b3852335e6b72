"""Exact dice distributions (convolutions, never sampling) and an injectable roller.

A distribution is a ``dict[int, float]`` from total to probability. Everything
here is cached: the same request twice costs a dict lookup.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

Dist = dict[int, float]


def die(sides: int) -> Dist:
    p = 1.0 / sides
    return {face: p for face in range(1, sides + 1)}


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, 0.0) + px * py
    return out


def shift(d: Dist, k: int) -> Dist:
    return {x + k: p for x, p in d.items()}


@lru_cache(maxsize=512)
def _sum_dice(n: int, sides: int) -> tuple[tuple[int, float], ...]:
    dist: Dist = {0: 1.0}
    single = die(sides)
    for _ in range(n):
        dist = convolve(dist, single)
    return tuple(sorted(dist.items()))


def sum_dice(n: int, sides: int) -> Dist:
    """Distribution of the total of ``n`` d``sides`` (n = 0 → always 0)."""
    return dict(_sum_dice(n, sides))


def binomial(n: int, p: float) -> list[float]:
    """P(k successes) for k = 0..n."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def keep_highest(d: Dist, count: int = 2) -> Dist:
    """Roll ``count`` independent copies of ``d`` and keep the highest."""
    return _keep(d, count, highest=True)


def keep_lowest(d: Dist, count: int = 2) -> Dist:
    return _keep(d, count, highest=False)


def _keep(d: Dist, count: int, *, highest: bool) -> Dist:
    values = sorted(d)
    cdf = 0.0
    out: Dist = {}
    if highest:
        prev = 0.0
        for v in values:
            cdf += d[v]
            out[v] = cdf**count - prev**count
            prev = cdf
    else:
        prev = 0.0  # survival from the top
        for v in reversed(values):
            cdf += d[v]
            out[v] = cdf**count - prev**count
            prev = cdf
    return out


@lru_cache(maxsize=64)
def _exploding(sides: int, eps: float) -> tuple[tuple[int, float], ...]:
    """A d``sides`` that is rolled again and added while it shows its highest face."""
    out: Dist = {}
    mass = 1.0  # probability of reaching this depth
    base = 0
    p = 1.0 / sides
    while mass > eps:
        for face in range(1, sides):
            out[base + face] = out.get(base + face, 0.0) + mass * p
        mass *= p
        base += sides
    # Whatever mass is left (< eps) goes on the last reachable total so the sum stays 1.
    out[base + 1] = out.get(base + 1, 0.0) + mass
    return tuple(sorted(out.items()))


def exploding(sides: int, eps: float = 1e-15) -> Dist:
    return dict(_exploding(sides, eps))


def prob_at_least(d: Dist, target: int) -> float:
    return sum(p for x, p in d.items() if x >= target)


def total(d: Dist) -> float:
    return sum(d.values())


class Roller:
    """The random source of every server-side roll. Tests inject ``FixedRoller``."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.SystemRandom()

    def d(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def roll(self, n: int, sides: int) -> list[int]:
        return [self.d(sides) for _ in range(n)]


class FixedRoller(Roller):
    """Returns the given faces in order (for tests and replays); raises when it runs out."""

    def __init__(self, faces: Iterable[int]):
        super().__init__(random.Random(0))
        self.faces: list[int] = list(faces)
        self.used: list[int] = []

    def d(self, sides: int) -> int:
        if not self.faces:
            raise RuntimeError("FixedRoller ran out of faces")
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise ValueError(f"fixed face {face} is not on a d{sides}")
        self.used.append(face)
        return face


def as_str_keys(d: Dist | Sequence[float]) -> dict[str, float]:
    """Distributions leave the service with string keys (CONTRACT.md)."""
    if isinstance(d, dict):
        return {str(k): v for k, v in sorted(d.items())}
    return {str(i): v for i, v in enumerate(d)}
