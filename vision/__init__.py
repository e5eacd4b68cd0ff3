"""Photo recognition of mahjong tiles.

``recognize(image_bytes, *, classifier=None, finder=None) -> Recognition`` finds every tile in a
photo of a table (tile finder, rectification, classification, grouping into rows and melds).
Bad input raises :class:`ImageError` (``.code``: empty_file, not_an_image, unsupported_format,
truncated, too_large, too_small).
"""

from .errors import ImageError
from .recognize import Recognition, RecognizedTile, recognize

__all__ = ["recognize", "Recognition", "RecognizedTile", "ImageError"]
