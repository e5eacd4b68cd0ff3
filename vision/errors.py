"""Errors raised by the photo pipeline on input that is not a usable photo.

Every error has a stable ``code`` (for the JSON/HTTP contract) and a human ``message``.
An empty table (a valid photo with no tiles in it) is *not* an error: :func:`vision.recognize`
returns an empty :class:`~vision.recognize.Recognition` whose ``reason`` says why.
"""

from __future__ import annotations

#: code -> short description, for documentation and the API.
ERROR_CODES = {
    "empty_file": "the upload is empty",
    "not_an_image": "the bytes are not a JPEG, PNG, WebP or BMP image",
    "unsupported_format": "an image format the recogniser does not read (use JPEG or PNG)",
    "truncated": "the image file is cut short or corrupt and cannot be decoded",
    "too_large": "the image dimensions are absurd (decompression-bomb guard)",
    "too_small": "the image is too small to contain readable tiles",
}


class ImageError(Exception):
    """The input bytes are not a photo the pipeline can read."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"ImageError({self.code!r}, {self.message!r})"
