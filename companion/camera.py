"""The table camera (``mjc serve --camera SOURCE``): a camera above the table, read by the server.

:class:`CameraFeed` opens an OpenCV ``VideoCapture`` (a device index such as ``0``, a video file,
or a stream URL) and reads frames in a background thread, keeping only the latest one: the page
polls it (:mod:`companion.api.camera`) as a preview JPEG of at most :data:`PREVIEW_SIDE` pixels,
asks for that frame's reading, and takes the full frame when the hand is captured. A file
stands in for a device (tests, demos): it is played at its own frame rate and starts again at
its end. A device that stops giving frames is opened again every :data:`REOPEN_S` seconds.
``stop()`` ends the thread and releases the camera (the server calls it when it stops).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

CAMERA_KEY = "mjc_camera"
PREVIEW_SIDE = 960
"""The long side of a preview frame (what the page shows and what is read for the boxes)."""
PREVIEW_QUALITY = 80
FULL_QUALITY = 92
OPEN_TIMEOUT_S = 10.0
"""How long start() waits for a first frame."""
REOPEN_S = 2.0
"""How long the thread waits before opening a device that stopped giving frames again."""
FILE_FPS = 10.0
"""The frame rate of a file that does not say its own."""


class CameraError(Exception):
    """The camera cannot be opened or gives no frame; the message says which and what to try."""


@dataclass(frozen=True)
class Frame:
    """A frame from the camera: its number (counting from 1), pixels (BGR) and when it came."""

    seq: int
    image: np.ndarray
    at: float


def parse_source(source: str) -> int | str:
    """``"0"`` → device 0; anything else is a file path or URL as it is."""
    text = source.strip()
    return int(text) if text.isdigit() else text


class CameraFeed:
    """Frames from ``source`` read in a background thread (:meth:`start`, :meth:`stop`)."""

    def __init__(self, source: str) -> None:
        self.source = parse_source(source)
        self._is_file = isinstance(self.source, str) and "://" not in self.source
        self._capture: Any = None
        self._latest: Frame | None = None
        self._lock = threading.Lock()
        self._got_frame = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._encoded: dict[tuple[int, bool], bytes] = {}
        self._period = 0.0

    def start(self) -> CameraFeed:
        """Open the camera and start reading; :class:`CameraError` when it gives no frame."""
        self._capture = self._open()
        if self._is_file:
            fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
            self._period = 1.0 / (fps if 1.0 <= fps <= 120.0 else FILE_FPS)
        self._thread = threading.Thread(target=self._run, name="mjc-camera", daemon=True)
        self._thread.start()
        if not self._got_frame.wait(OPEN_TIMEOUT_S):
            self.stop()
            raise CameraError(f"the camera {self.source!r} opened but gave no frame in {OPEN_TIMEOUT_S:.0f} s")
        return self

    def stop(self) -> None:
        """End the reading thread and release the camera (safe to call twice)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5.0)
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def latest(self) -> Frame | None:
        with self._lock:
            return self._latest

    def jpeg(self, full: bool = False) -> tuple[int, bytes] | None:
        """The latest frame as JPEG (the preview size, or ``full`` size) with its number; None
        before the first frame. Each frame is encoded once per size."""
        frame = self.latest()
        if frame is None:
            return None
        key = (frame.seq, full)
        with self._lock:
            cached = self._encoded.get(key)
        if cached is None:
            image = frame.image if full else shrink(frame.image, PREVIEW_SIDE)
            ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, FULL_QUALITY if full else PREVIEW_QUALITY])
            if not ok:
                return None
            cached = buf.tobytes()
            with self._lock:
                self._encoded = {k: v for k, v in self._encoded.items() if k[0] == frame.seq}
                self._encoded[key] = cached
        return frame.seq, cached

    def describe(self) -> str:
        frame = self.latest()
        size = f", {frame.image.shape[1]}×{frame.image.shape[0]}" if frame is not None else ""
        kind = "device" if isinstance(self.source, int) else ("file" if self._is_file else "stream")
        return f"{kind} {self.source}{size}"

    def _open(self) -> Any:
        quiet = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # the error below says it once
        try:
            capture = cv2.VideoCapture(self.source)
        finally:
            cv2.utils.logging.setLogLevel(quiet)
        if not capture.isOpened():
            capture.release()
            hint = (
                "check the device number (0 is the first camera) and that no other program uses it"
                if isinstance(self.source, int)
                else "check the path or address"
            )
            raise CameraError(f"cannot open the camera {self.source!r}: {hint}")
        return capture

    def _run(self) -> None:
        seq = 0
        while not self._stop.is_set():
            started = time.monotonic()
            ok, image = self._capture.read() if self._capture is not None else (False, None)
            if ok and image is not None:
                seq += 1
                with self._lock:
                    self._latest = Frame(seq, image, time.time())
                self._got_frame.set()
                self._stop.wait(max(0.0, self._period - (time.monotonic() - started)))
            elif self._is_file and seq:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)  # the end of the file: play it again
            else:
                self._reopen()

    def _reopen(self) -> None:
        """A device or stream gave no frame: wait, then open it again (until stopped)."""
        if self._stop.wait(REOPEN_S):
            return
        old, self._capture = self._capture, None
        if old is not None:
            old.release()
        try:
            self._capture = self._open()
        except CameraError:
            pass


def shrink(image: np.ndarray, side: int) -> np.ndarray:
    """``image`` scaled down so its long side is at most ``side`` pixels."""
    h, w = image.shape[:2]
    k = side / max(h, w)
    if k >= 1:
        return image
    return cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
