"""The bounded recognition queue: at most :data:`RECOGNITION_SLOTS` photos are read at once and
:data:`RECOGNITION_WAITING` more wait their turn; a photo beyond that answers 503 with
``Retry-After`` at once, so recognitions never hold every server thread and a burst of uploads
cannot pile up decoded images in memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import ApiError

QUEUE_KEY = "mjc_recognition_queue"

RECOGNITION_SLOTS = 1
"""Photos read at the same time (recognition uses the CPU's cores by itself)."""
RECOGNITION_WAITING = 2
"""Photos that may wait for a slot; with the slots, fewer than the server's threads."""
RETRY_AFTER_S = 3
"""What a refused upload is told to wait (about one recognition)."""


class RecognitionQueue:
    """Admission to the recogniser (``app.extensions["mjc_recognition_queue"]``)."""

    def __init__(self, slots: int = RECOGNITION_SLOTS, waiting: int = RECOGNITION_WAITING) -> None:
        self.capacity = slots + waiting
        self._slots = threading.BoundedSemaphore(slots)
        self._lock = threading.Lock()
        self.admitted = 0

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Wait for a slot and hold it; 503 ``busy`` with ``Retry-After`` when the queue is full."""
        with self._lock:
            if self.admitted >= self.capacity:
                err = ApiError(
                    503,
                    "busy",
                    "the server is reading other photos right now; try again in a few seconds, "
                    "or enter the tiles by hand",
                    "photo",
                )
                err.headers["Retry-After"] = str(RETRY_AFTER_S)
                raise err
            self.admitted += 1
        try:
            with self._slots:
                yield
        finally:
            with self._lock:
                self.admitted -= 1
