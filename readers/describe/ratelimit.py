"""A per-visitor limit on calls: public mode's cap on each visitor's vision calls per minute."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class RateLimit:
    """At most ``calls`` in any ``window`` seconds for each visitor (a sliding window), shared by
    every thread of the process. Visitors idle for a whole window are forgotten."""

    def __init__(self, calls: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic):
        self.calls, self.window, self._clock = calls, window, clock
        self._lock = threading.Lock()
        self._made: dict[str, deque[float]] = {}

    def take(self, visitor: str) -> float:
        """Count one call for ``visitor`` and return 0; or, when its calls in the last window are
        used up, count nothing and return the seconds until one is free again."""
        now = self._clock()
        with self._lock:
            for idle in [key for key, times in self._made.items() if times[-1] <= now - self.window]:
                del self._made[idle]
            times = self._made.setdefault(visitor, deque())
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.calls:
                return times[0] + self.window - now
            times.append(now)
            return 0.0
