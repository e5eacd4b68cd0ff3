"""Photo uploads: the multipart field ``photo``, read by the tile recogniser.

The recogniser is :func:`vision.recognize` unless the app was made with another one (tests);
a file it cannot read answers 400 with the recogniser's code and ``field: "photo"``; a missing
recogniser answers 503, and so does a full recognition queue (:mod:`.recognition_queue`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, request

from ..errors import ApiError, bad
from .recognition_queue import QUEUE_KEY, RecognitionQueue

RECOGNIZER_KEY = "mjc_recognizer"

Recognizer = Callable[[bytes], Any]


def read_photo() -> bytes:
    """The bytes of the multipart field ``photo`` (400 when absent, misnamed or empty)."""
    upload = request.files.get("photo")
    if upload is None:
        if request.files:
            name = next(iter(request.files))
            raise bad(f"the photo must be sent in the multipart field 'photo', not '{name}'", field="photo")
        raise bad("send the photo as multipart/form-data in the field 'photo'", field="photo")
    data = upload.read()
    if not data:
        raise ApiError(400, "empty_file", "the uploaded photo is empty; take the photo again", "photo")
    return data


def recognize(data: bytes) -> dict[str, Any]:
    """The recogniser's reading of ``data`` as the ``mjc recognize --json`` object."""
    from vision.errors import ImageError

    queue: RecognitionQueue = current_app.extensions[QUEUE_KEY]
    try:
        with queue.turn():
            rec = _recognizer()(data)
    except ImageError as err:
        message = f"{err.message}. Take the photo again, or enter the tiles by hand."
        raise ApiError(400, err.code, message, "photo") from None
    return rec.to_dict() if hasattr(rec, "to_dict") else dict(rec)


def _recognizer() -> Recognizer:
    given: Recognizer | None = current_app.extensions.get(RECOGNIZER_KEY)
    if given is not None:
        return given
    try:
        from vision import recognize as vision_recognize
    except ImportError as err:
        raise ApiError(
            503, "recognizer_unavailable", f"the tile recogniser is not installed ({err}); enter the tiles by hand"
        ) from None
    return vision_recognize
