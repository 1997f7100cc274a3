"""The services a reading may need, built from settings once and shared, or injected by tests; and
public mode's per-visitor limit on vision calls (``RateLimit``).

``Services`` stands below the engines (``readers.job`` holds one), so it imports none of them: the
vision client and the transcriber are built on first use by ``readers.describe``, imported then.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from functools import cached_property

from .settings import Settings
from .storage.files import Store


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


class Services:
    """One disk store, description cache, vision client and transcriber, built lazily.

    Pass ``vision``, ``cache`` or ``transcriber`` to use your own (tests, the app); otherwise
    each is built from ``settings`` on first use.
    """

    def __init__(self, settings: Settings | None = None, *, vision=None, cache=None, transcriber=None):
        self.settings = settings or Settings.from_env()
        self._lock = threading.Lock()
        self._vision, self._cache, self._transcriber = vision, cache, transcriber

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.cache_dir)

    @cached_property
    def vision_limit(self) -> RateLimit | None:
        """Public mode's limit on each visitor's calls to a vision API (None outside public mode)."""
        return RateLimit(self.settings.vision_calls_per_minute) if self.settings.public else None

    def _build(self, attribute: str, factory):
        """The service in ``attribute``, built once (an empty cache is falsy, so test for None)."""
        if getattr(self, attribute) is None:
            with self._lock:
                if getattr(self, attribute) is None:
                    setattr(self, attribute, factory())
        return getattr(self, attribute)

    @property
    def cache(self):
        from .storage.descriptions import DescriptionCache

        return self._build("_cache", lambda: DescriptionCache(self.settings.cache_dir))

    @property
    def vision(self):
        from .describe.vision import build_vision

        return self._build("_vision", lambda: build_vision(self.settings))

    @property
    def transcriber(self):
        from .describe.transcribe import build_transcriber

        return self._build("_transcriber", lambda: build_transcriber(self.settings))


_shared: dict[Settings, Services] = {}
_shared_lock = threading.Lock()


def shared_services(settings: Settings) -> Services:
    """The process-wide services for these settings (one model load, one cache per process)."""
    with _shared_lock:
        if settings not in _shared:
            _shared[settings] = Services(settings)
        return _shared[settings]
