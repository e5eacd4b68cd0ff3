"""Rate limits per client address, kept in the server's memory (one process serves the tables, so
that is all it needs; a restart forgets them, and behind a proxy every client has the proxy's
address).

Two token buckets per address: the public endpoints that need no table (scoring, waits, notation,
recognition, a new table) take one token per request from a bucket of :data:`PUBLIC_BURST` that
refills at :data:`PUBLIC_PER_S`; a token that names no table takes one from a bucket of
:data:`GUESS_BURST` that refills at :data:`GUESS_PER_S`, and while that one is empty every request
with a token from that address answers 429 (right tokens too: guessing stops). A 429 says in
``Retry-After`` how many seconds until the next request would pass.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import ApiError

LIMITER_KEY = "mjc_limiter"

PUBLIC_BURST = 120
"""Requests to the public endpoints an address may send at once."""
PUBLIC_PER_S = 20.0
"""Their sustained rate per address (requests per second)."""
GUESS_BURST = 20
"""Wrong table tokens an address may send before it is slowed down."""
GUESS_PER_S = 0.2
"""Wrong tokens per second an address may send after that (12 a minute)."""
MAX_ADDRESSES = 10_000
"""Addresses remembered per bucket; full buckets are forgotten first when there are more."""


@dataclass
class Bucket:
    """A token bucket: ``level`` tokens at time ``at``."""

    level: float
    at: float


class Buckets:
    """Token buckets by address, ``burst`` deep, refilled at ``per_s`` tokens a second."""

    def __init__(self, burst: int, per_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_s = per_s
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, Bucket] = {}

    def take(self, address: str, *, spend: bool = True) -> float:
        """Take one token for ``address`` (only look when not ``spend``); 0 when it was there, else
        the seconds until one will be."""
        with self._lock:
            now = self.clock()
            bucket = self._buckets.get(address) or Bucket(float(self.burst), now)
            bucket.level = min(float(self.burst), bucket.level + (now - bucket.at) * self.per_s)
            bucket.at = now
            if bucket.level < 1.0:
                return (1.0 - bucket.level) / self.per_s
            if spend:
                bucket.level -= 1.0
                self._buckets[address] = bucket
                self._forget_full(now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        if len(self._buckets) <= MAX_ADDRESSES:
            return
        for address, b in list(self._buckets.items()):
            if b.level + (now - b.at) * self.per_s >= self.burst:
                del self._buckets[address]


class Limiter:
    """The app's two rate limits (``app.extensions["mjc_limiter"]``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.public_buckets = Buckets(PUBLIC_BURST, PUBLIC_PER_S, clock)
        self.guess_buckets = Buckets(GUESS_BURST, GUESS_PER_S, clock)

    def public(self, address: str) -> None:
        """Count a request to a public endpoint; 429 when the address is over its limit."""
        wait = self.public_buckets.take(address)
        if wait:
            raise too_many(wait, "too many requests from your address; wait a moment and try again")

    def guesses_allowed(self, address: str) -> None:
        """429 while the address has used up its wrong-token allowance."""
        wait = self.guess_buckets.take(address, spend=False)
        if wait:
            raise too_many(wait, "too many wrong table links from your address; check the link and try again later")

    def guessed_wrong(self, address: str) -> None:
        """Count a token that named no table."""
        self.guess_buckets.take(address)


def too_many(wait_s: float, message: str) -> ApiError:
    """429 with ``Retry-After`` in whole seconds."""
    err = ApiError(429, "rate_limited", message)
    err.headers["Retry-After"] = str(max(1, math.ceil(wait_s)))
    return err
