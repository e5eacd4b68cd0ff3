"""Learned tile finder: an ONNX network marks each tile's top surface and its *core*.

The photo (working image, see :mod:`vision.photo`) is scaled so that its tiles are 20-64 pixels
wide (a first look measures them, see :func:`find_tiles`) and run through ``tile_segmenter.onnx``
(opened by :mod:`vision.onnx_model`; trained by ``training.train_segmenter`` on synthetic table
photos). Its two output maps, at half the input resolution, are

* ``face``: probability that a pixel is the top surface of a tile (a face, or the back of a
  face-down tile);
* ``core``: probability that it lies in a tile's top surface shrunk about its centre to
  :data:`CORE_SHRINK` of its size.

Cores of touching tiles do not touch, so every connected region of the core map is one tile: this
replaces the seam analysis of the classical splitter, which fails where a surface pattern, a glare
spot or a tile's own artwork looks like a seam. Each core's rectangle, grown back by
``1 / CORE_SHRINK``, is the tile's quadrilateral; whether it stands upright or lies at 90 degrees
is read from its aspect (the classifier settles squarish ones; see :mod:`vision.finders.geometry`).
The rectangle is turned the way the photo's edges run over the tile (:func:`edge_orientation`):
a tile lying at 20-45 degrees in a pile often gets a rounded core whose minimum-area rectangle
is turned wrong by as much, and its crop then reads as no tile.

A core much longer than a tile is several touching tiles whose seams did not show (a kong
shown all backs): it is cut by the photo's typical tile width (:func:`instances_from_maps`). A
core whose tile the face map hardly supports (mean probability under :func:`min_face_support`
over the grown quad: a wood knot, a cloth pattern) is dropped.

:func:`available` says whether the model ships; :mod:`vision.finders.select` uses the classical
colour-and-seam finder when it does not (or when asked to). :func:`candidates` turns the tiles
found into :class:`~vision.finders.candidate.Candidate` objects.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .. import onnx_model
from .candidate import Candidate
from .geometry import (
    FACE_ASPECT,
    aspect_score,
    centred_in,
    is_ambiguous,
    may_be_slanted,
    order_quads,
    quad_ink,
    quads_holding,
)

MODEL_NAME = "tile_segmenter"
INPUT_LONG = 640  # the network's first view of a photo (long side); see find_tiles
CORE_SHRINK = 0.55  # a core is the tile's top surface scaled by this about its centre
CORE_THRESHOLD = 0.5
#: a map pixel is a tile's face where the network says so at least this surely (face regions, the
#: debug mask, what the recogniser counts as marked: vision.beyond._face_beyond)
FACE_THRESHOLD = 0.5
CORE_PAD = 0.0  # map pixels added to a core's measured extent before growing it back
MERGED_RATIO = 2.2  # a core this many times longer than wide holds several tiles
MIN_FACE_SUPPORT = 0.7  # a tile's quad must lie on the face map this surely (mean probability);
# a model's metadata can say otherwise (see min_face_support)
TILE_PX_RANGE = (20, 64)  # tiles this wide (at the size the network saw) need no second look
TARGET_TILE_PX = 32  # the tile width a second look aims at
#: the tile width the first look aims at where the tiles' width is known beforehand (find_tiles:
#: a photo's part seen from straight above). Measured on the labelled real photos seen 30, 55 and
#: 50 degrees (0.8 photo lengths) off straight above, 36 read 22, 20 and 13 of 24 photos exactly
#: against 20, 18 and 12 at 32, and the (c2) ones 93.0 % of their tiles at 55 degrees against
#: 92.0 %; the synthetic rows at a diagonal seen 55 degrees off (b12) 90.4 % against 92.9 %. From
#: CHECK_ABOVE_PX, a look checks the tiles at half the size as well.
KNOWN_TILE_PX = 36
MIN_TILE_PX = 8  # finds narrower than this across at a look (over 80 tiles across the photo) are not tiles
#: a photo whose first look finds nothing, or only specks, is looked at once more at this size
#: (from its detail image): a hand far from a 12-megapixel camera (see find_tiles)
FAR_LOOK = 2 * INPUT_LONG
#: the first look enlarges the finest pixels a photo has (its detail image's) at most this much
ENLARGE_MAX = 2
MIN_LONG = 128  # never look at a photo smaller than this (a model's metadata can say more: min_long)
MAX_LOOKS = 3
#: a look that finds more cores than this sees a texture, not tiles (a set has at most 144 tiles):
#: the dots of a polka-dot tablecloth, seen sharp in the detail image, came out as a thousand
MAX_CORES = 216
#: ... unless a few of its cores stand out from the rest by size: those at least this many times
#: the median core's area (twice as wide), when at least :data:`BESIDE_TEXTURE_MIN` and at most
#: :data:`MAX_CORES`, are taken for tiles beside the texture (a hand beside a page of print, whose
#: letters are the texture; see :func:`_beside_texture`)
BESIDE_TEXTURE_AREA = 4.0
BESIDE_TEXTURE_MIN = 3
#: a find centred in one an earlier look read as no tile, its box this share of that one's or
#: more, is that find seen again (:func:`_seen_again`; a tile of a find that took in two is 0.5)
SEEN_AGAIN_COVER = 0.6
#: a closer look this many times the working image's size or more runs on the detail image (where
#: the photo has one), and smaller ones at most at the working image's size, as before: a look a
#: little larger gains no detail, only another resampling (looks 1.13 and 1.01 times as large lost
#: a tile of a pile and a back of a kong that way)
DETAIL_LOOK_FROM = 1.25
LARGER_TILES_MIN = 3  # tiles too large for the last look are taken from the first when it saw this many (a meld)
WHOLE_AT_CLOSER = 0.6  # ... unless the last look found one this large (area share) centred in it: the tile, whole
PIECE_AT_CLOSER = 0.2  # ... or finds smaller than this covering this share of it in all: tiles inside
TILES_INSIDE_COVER = 0.5  # what the first look took for one (not a dot of its artwork)
LOST_WHOLE = 0.7  # a find of the first look a smaller last look lost is a whole tile at this share of its median width
LOST_SUPPORT = 0.7  # ... and a face at this face support or more (a pale table beside the tiles: 0.58)
CHECK_ABOVE_PX = 40  # tiles this wide at the first look are checked at half the size
FRAGMENT_RATIO = 0.75  # ... and were pieces when they measure over this share of the first width there
MERGED_AT_HALF = 2.0  # ... but not over this many times it: there the half-size look ran tiles together
#: ... nor when they are less tile-shaped there by more than this (median aspect score): runs of
#: two or three tiles together, whose short side is a tile's height
HALF_SHAPE_LOSS = 0.1
EDGE_COHERENCE_MIN = 0.25  # a tile's edges say its turn when they agree this well (see _turned_to_edges)
EDGE_TURN_MIN = 6.0  # ... and they overrule the core's rectangle when they differ by more (degrees)
ROW_NEIGHBOURS = 4  # a core is turned as the nearest this many cores of its face region lie (_turned_as_neighbours)
ROW_REACH = 3.0  # ... within this many typical core lengths (two tiles along a row: 2.8)
ROW_AGREEMENT = 0.95  # ... when their turns agree this well (length of their mean unit vector at 4x the angle)
ROW_TURN_MIN = 6.0  # ... and differ from its own by more than this (degrees)
ROW_FIT_MAX = 1.12  # ... and its pixels fit their turn's rectangle at most this much more loosely
ROW_SIDE_MAX = 12.0  # ... and two of them lie beside it along that turn or across it, within this (degrees)
CONTENT_FACE = 0.25  # a closer look runs over the pixels a look marks as face this surely (content_window)
CONTENT_PAD = 2.0  # ... grown by this many tile widths on every side
CONTENT_MAX_SHARE = 0.6  # ... unless that is more of the photo than this: then all of it


@dataclass(frozen=True, eq=False)
class LearnedTile:
    """One tile the network found: ``quad`` (4x2 float32, clockwise from the top-left, up = image up),
    ``lying`` (longer than high), ``ambiguous`` (too square to tell), ``slanted`` (lying by its shape,
    or an upright face seen at a slant: :func:`~vision.finders.geometry.may_be_slanted`), ``score``
    (:func:`vision.finders.geometry.aspect_score`), ``group`` (the connected face region it lies in:
    touching tiles share one; 0 outside any), ``group_size`` (tiles found in that region) and
    ``spread`` (:func:`core_spreads`; ``None`` for a piece of a core cut into several tiles) and
    ``cut_into`` (the tiles its core was cut into: 1 for a whole core)."""

    quad: np.ndarray
    lying: bool
    ambiguous: bool
    slanted: bool
    score: float
    group: int
    group_size: int = 1
    spread: np.ndarray | None = None
    cut_into: int = 1

    @functools.cached_property
    def sides(self) -> tuple[float, float]:
        """Its short and long side (pixels of its quad's frame), measured once: the looks measure a
        find's width several times."""
        a, b = float(np.linalg.norm(self.quad[1] - self.quad[0])), float(np.linalg.norm(self.quad[3] - self.quad[0]))
        return (a, b) if a <= b else (b, a)


def normalize(img_bgr: np.ndarray) -> np.ndarray:
    """HWC BGR (uint8 or float 0-255) -> HWC float32 in [-0.5, 0.5]."""
    return img_bgr.astype(np.float32) / 255.0 - 0.5


def available() -> bool:
    """Whether the learned finder's model ships."""
    return onnx_model.available(MODEL_NAME)


def min_face_support() -> float:
    """The face support a tile needs (:func:`instances_from_maps`): the shipped model's metadata
    ``postprocess.min_face_support`` where it gives one (a finder trained on crowded photos marks
    partly covered faces less surely), else :data:`MIN_FACE_SUPPORT`."""
    return float(_postprocess().get("min_face_support", MIN_FACE_SUPPORT))


def min_long() -> int:
    """The smallest size a look shrinks a photo to (:func:`find_tiles`): the shipped model's metadata
    ``postprocess.min_long`` where it gives one (a finder that learned from larger photos misses
    tiles in a whole photo shrunk much further), else :data:`MIN_LONG`."""
    return int(_postprocess().get("min_long", MIN_LONG))


def _postprocess() -> dict:
    """The ``postprocess`` settings in the shipped model's metadata (``{}`` when it has none)."""
    return _postprocess_in(str(onnx_model.model_file(MODEL_NAME, ".json")))


@functools.lru_cache(maxsize=8)
def _postprocess_in(json_path: str) -> dict:
    return dict(onnx_model.metadata(MODEL_NAME, Path(json_path).parent).get("postprocess", {}))


def network_input(img: np.ndarray, long_side: int = INPUT_LONG) -> tuple[np.ndarray, int, int, float]:
    """``(x, ih, iw, s)``: ``img`` (BGR uint8) scaled by ``s`` to ``long_side`` pixels (``ih`` x
    ``iw``), normalised and zero-padded to a multiple of 16 as the network's 1x3xHxW input."""
    h, w = img.shape[:2]
    s = long_side / max(h, w)
    iw, ih = max(16, int(round(w * s))), max(16, int(round(h * s)))
    small = cv2.resize(img, (iw, ih), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    H, W = (ih + 15) // 16 * 16, (iw + 15) // 16 * 16
    x = np.zeros((1, 3, H, W), np.float32)
    part = x[0, :, :ih, :iw]  # normalised in place: the same numbers as normalize(), without copies
    part[:] = small.transpose(2, 0, 1)
    part /= np.float32(255.0)
    part -= np.float32(0.5)
    return x, ih, iw, s


def predict_maps(
    img: np.ndarray, long_side: int = INPUT_LONG, window: tuple[int, int, int, int] | None = None
) -> tuple[np.ndarray, np.ndarray, float]:
    """(face, core, scale): probability maps for ``img`` (BGR uint8) seen at ``long_side`` pixels,
    and the factor that takes a map pixel's coordinates back to ``img`` pixels. ``window`` (``x0, y0,
    x1, y1`` in ``img`` pixels, from :func:`content_window`): only that part is run through the
    network, the maps are 0 elsewhere."""
    if window is None:
        x, ih, iw, s = network_input(img, long_side)
        return (*_probabilities(x, ih, iw), 2.0 / s)
    h, w = img.shape[:2]
    s = long_side / max(h, w)
    x0, y0, x1, y1 = window
    x, ih, iw, _ = network_input(img[y0:y1, x0:x1], max(16, int(round(max(x1 - x0, y1 - y0) * s))))
    shape = _map_shape(h, w, s)
    face, core = (_pasted(m, shape, x0, y0, s) for m in _probabilities(x, ih, iw))
    return face, core, 2.0 / s


def _probabilities(x: np.ndarray, ih: int, iw: int) -> tuple[np.ndarray, np.ndarray]:
    """The network's face and core probability maps for the input ``x`` of
    :func:`network_input` (``ih`` x ``iw`` of it the photo, the rest padding)."""
    logits = onnx_model.session(MODEL_NAME).run(None, {"image": x})[0][0]
    prob = 1.0 / (1.0 + np.exp(-logits[:, : (ih + 1) // 2, : (iw + 1) // 2]))
    # map pixel i covers input pixels [2i, 2i + 2); input -> img is 1 / s
    return prob[0], prob[1]


def _map_shape(h: int, w: int, s: float) -> tuple[int, int]:
    """The maps' shape for a ``h`` x ``w`` photo seen at scale ``s`` (:func:`network_input`)."""
    return (max(16, int(round(h * s))) + 1) // 2, (max(16, int(round(w * s))) + 1) // 2


def _pasted(part: np.ndarray, shape: tuple[int, ...], x0: int, y0: int, s: float) -> np.ndarray:
    """A map of a window whose top-left is ``(x0, y0)`` photo pixels (its maps' last two axes)
    placed in a zero map of the whole photo's ``shape``, seen at scale ``s``."""
    out = np.zeros(shape, part.dtype)
    oy, ox = int(round(y0 * s / 2)), int(round(x0 * s / 2))
    hh, ww = min(part.shape[-2], shape[-2] - oy), min(part.shape[-1], shape[-1] - ox)
    out[..., oy : oy + hh, ox : ox + ww] = part[..., :hh, :ww]
    return out


def content_window(
    face: np.ndarray, scale: float, shape: tuple[int, ...], tile_px: float, long_side: int
) -> tuple[int, int, int, int] | None:
    """Where a closer look needs to look: the box round every pixel that a look's ``face`` map
    (``scale``: map pixel to photo pixel) marks as possibly a tile (:data:`CONTENT_FACE`), grown by
    :data:`CONTENT_PAD` tile widths (``tile_px``, photo pixels) on every side, in photo pixels
    ``x0, y0, x1, y1``; ``None`` (the whole photo) when that box is over
    :data:`CONTENT_MAX_SHARE` of it, or nothing is marked.

    A closer look is taken because the tiles came out small: a hand far from the camera, a set in
    a tray in the middle of the table. The network then runs over the part of the photo where the
    tiles are, a quarter of it or less, instead of all of it. The window starts where the network
    at ``long_side`` sees it as it sees the whole photo (:func:`_aligned`), and its sides come to
    whole multiples of 16 input pixels (but where it ends at the photo's edge, as the whole photo
    does), so it is scaled as the whole photo is."""
    h, w = shape[:2]
    ys, xs = np.nonzero(face > CONTENT_FACE)
    if not len(xs):
        return None
    pad = CONTENT_PAD * tile_px
    x0, x1 = max(0.0, xs.min() * scale - pad), min(float(w), (xs.max() + 1) * scale + pad)
    y0, y1 = max(0.0, ys.min() * scale - pad), min(float(h), (ys.max() + 1) * scale + pad)
    if (x1 - x0) * (y1 - y0) > CONTENT_MAX_SHARE * w * h:
        return None
    s = long_side / max(h, w)
    x0, y0 = _aligned(int(x0), s), _aligned(int(y0), s)
    reach = int(math.ceil(64 / s))  # 64 input pixels, in photo pixels
    # its sides too come to multiples of 16 input pixels, so it is scaled as the whole photo is
    x1 = min(w, x0 + _on_grid(range(math.ceil(x1) - x0, math.ceil(x1) - x0 + reach + 1), s))
    y1 = min(h, y0 + _on_grid(range(math.ceil(y1) - y0, math.ceil(y1) - y0 + reach + 1), s))
    return x0, y0, x1, y1


def _aligned(x: int, s: float) -> int:
    """The coordinate at or a little before ``x`` (photo pixels, never below 0) that falls nearest
    a multiple of 16 of the network's input pixels at scale ``s`` (the network's deepest level sees
    the input in steps of 16, so a window that starts there sees what the whole photo's look sees);
    see :func:`_on_grid`."""
    return _on_grid(range(x, max(0, x - int(math.ceil(64 / s))) - 1, -1), s)


def _on_grid(lengths: range, s: float) -> int:
    """The first of ``lengths`` (photo pixels) that comes to a multiple of 16 input pixels at scale
    ``s`` within a tenth of one, else the nearest to one; 64 input pixels of candidates always hold
    one within ``s`` of it."""
    return min(lengths, key=lambda c: max(abs(c * s / 16 - round(c * s / 16)) * 16, 0.1))


def _tile(quad: np.ndarray, group: int, spread: np.ndarray | None = None, cut_into: int = 1) -> LearnedTile:
    """The tile of a quadrilateral ordered up = image up: lying when wider than high; ``cut_into``:
    the tiles its core was cut into."""
    (x0, y0), (x1, y1), _, (x3, y3) = quad.tolist()
    top, left = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
    ratio = max(top, 1e-3) / max(left, 1e-3)
    lying = ratio > 1.0
    return LearnedTile(
        quad.astype(np.float32),
        bool(lying),
        is_ambiguous(ratio),
        may_be_slanted(ratio),
        aspect_score(ratio, lying),
        group,
        spread=spread,
        cut_into=cut_into,
    )


def core_spreads(regions: list[tuple[np.ndarray, tuple]], scale: float) -> np.ndarray:
    """The second moments (2x2 covariance) of each core's pixels (``regions`` as
    :func:`_core_regions` gives them, map pixels), in the pixels ``scale`` times as large that the
    quads are given in: n x 2 x 2.

    A core is its tile's face shrunk about its centre, so its pixels spread as the face does: a
    face turned on a table seen from a seat is a parallelogram, and its moments keep the shear that
    the rectangle round it loses (:mod:`vision.slant` measures the slant on both). Each pixel
    counts as a unit square, so a row of ``n`` pixels spreads ``n^2 / 12``, as a segment ``n`` long."""
    if not regions:
        return np.zeros((0, 2, 2))
    counts = np.array([len(pts) for pts, _ in regions])
    pts = np.concatenate([pts for pts, _ in regions]).astype(np.float64)
    which = np.repeat(np.arange(len(regions)), counts)
    mean = np.stack([np.bincount(which, pts[:, i]) for i in (0, 1)], 1) / counts[:, None]
    d = pts - mean[which]
    xx, xy, yy = (np.bincount(which, d[:, i] * d[:, j]) / counts for i, j in ((0, 0), (0, 1), (1, 1)))
    out = np.stack([np.stack([xx + 1 / 12, xy], 1), np.stack([xy, yy + 1 / 12], 1)], 1)
    return out * (scale * scale)


def instances_from_maps(
    face: np.ndarray,
    core: np.ndarray,
    scale: float = 1.0,
    min_support: float | None = None,
    edges: np.ndarray | None = None,
) -> list[LearnedTile]:
    """Tiles from the two maps, one :class:`LearnedTile` per core, quads in map pixels times
    ``scale``; ``group`` numbers the connected face regions (touching tiles share one).

    A core far longer than a tile's (its rectangle over :data:`MERGED_RATIO` times as long as wide)
    is the merged cores of ``k`` touching tiles whose seams the network could not see (face-down
    tiles of one colour, a kong shown all backs): ``k`` follows from the photo's typical tile width
    ``W`` (the median short side of the single cores), since ``k`` merged cores span
    ``(k - 1 + CORE_SHRINK) * W``; the core is cut into ``k`` tiles along its length.

    A tile whose quad the face map supports less than ``min_support`` (mean probability; default
    :func:`min_face_support`) is left out. ``edges`` (:func:`edge_orientation` of the photo the
    maps came from) turns each core's rectangle the way the tile's edges run."""
    return _supported(face, scale, _cores(face, core, scale, edges), min_support)


def edge_orientation(img: np.ndarray, long_side: int, window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Which way the edges of ``img`` (BGR uint8) run, at the resolution of the maps
    :func:`predict_maps` gives for ``long_side``: a 3 x h x w array that holds, averaged over the
    input pixels each map pixel covers, ``g^2 cos 4a``, ``g^2 sin 4a`` and ``g^2`` (``g`` the
    gradient's magnitude, ``a`` its direction).

    A tile is a rectangle: its outline, and the strokes, sticks and characters of its artwork, run
    along its sides, so over a tile these vectors add up to one pointing at ``4 t``, ``t`` the
    tile's turn modulo 90 degrees (four times the angle, so that edges a quarter turn apart
    agree; circles such as dots add up to nothing). ``window`` (as for :func:`predict_maps`): only
    that part is measured, the fields are 0 elsewhere."""
    h, w = img.shape[:2]
    s = long_side / max(h, w)
    if window is not None:
        x0, y0, x1, y1 = window
        part = edge_orientation(img[y0:y1, x0:x1], max(16, int(round(max(x1 - x0, y1 - y0) * s))))
        return _pasted(part, (3, *_map_shape(h, w, s)), x0, y0, s)
    iw, ih = max(16, int(round(w * s))), max(16, int(round(h * s)))
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey, (iw, ih), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    c4, s4, m2 = _fourfold(gx, gy)
    size = ((iw + 1) // 2, (ih + 1) // 2)  # (map pixel i covers input pixels [2i, 2i + 2))
    return np.stack([cv2.resize(f, size, interpolation=cv2.INTER_AREA) for f in (c4, s4, m2)])


#: rows of the gradient :func:`_fourfold` works through at a time (its scratch rows stay in cache)
STRIP_ROWS = 32


def _fourfold(gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the gradient ``(gx, gy)`` (float32): ``g^2 cos 4a``, ``g^2 sin 4a`` and ``g^2`` per
    pixel, as ``(c2^2 - s2^2) / g^2`` and ``2 c2 s2 / g^2`` with ``(c2, s2) = g^2 (cos 2a, sin 2a) =
    (gx^2 - gy^2, 2 gx gy)``. Worked through :data:`STRIP_ROWS` rows at a time in scratch rows:
    the same numbers, bit for bit, as whole-array arithmetic, in a third of its time (3.5 ms, not
    9.9, for a look 1936 pixels long), since whole arrays that large pass through memory, not the
    cache, once per operation."""
    h, w = gx.shape
    c4, s4, m2 = np.empty_like(gx), np.empty_like(gx), np.empty_like(gx)
    c2, s2, inv = (np.empty((STRIP_ROWS, w), np.float32) for _ in range(3))
    for y in range(0, h, STRIP_ROWS):
        x_, y_ = gx[y : y + STRIP_ROWS], gy[y : y + STRIP_ROWS]
        n = len(x_)
        c, s, i = c2[:n], s2[:n], inv[:n]
        np.multiply(x_, x_, out=c)
        np.multiply(y_, y_, out=s)
        m = np.add(c, s, out=m2[y : y + n])
        np.subtract(c, s, out=c)
        np.multiply(x_, y_, out=s)
        s *= 2
        np.add(m, np.float32(1e-6), out=i)
        np.divide(np.float32(1.0), i, out=i)
        cos4, sin4 = c4[y : y + n], s4[y : y + n]
        np.multiply(c, c, out=cos4)
        np.multiply(s, s, out=sin4)
        cos4 -= sin4
        cos4 *= i
        np.multiply(c, 2, out=sin4)
        sin4 *= s
        sin4 *= i
    return c4, s4, m2


def _turned_to_edges(pts: np.ndarray, rect: tuple, edges: np.ndarray) -> tuple:
    """The rectangle ``rect`` (``cv2.minAreaRect`` of a core's pixel centres ``pts``, map pixels)
    turned the way the edges run over its tile (``edges`` from :func:`edge_orientation`, summed
    over the core's rectangle grown back to the tile), its sides re-measured as the extent of
    ``pts`` along that turn.

    Only where the edges agree (their summed vector at least :data:`EDGE_COHERENCE_MIN` of their
    total strength) and differ from the core's turn by more than :data:`EDGE_TURN_MIN` degrees: a
    crisp core's rectangle is the more precise (the edges of a tile seen in perspective, or of a
    bird or a flower on its face, run a little askew), and weakly agreeing edges (a blank face, a
    dot pattern, the outlines of overlapping tiles) say little. Measured on the benchmark's
    phone-like photos (b4, b7, b8, b10 pile and tray; 703 cores), cores turned more than 10
    degrees wrong went from 59 to 27 (6 of these 27 were within 10 degrees before)."""
    (cx, cy), (rw, rh), ang = rect
    box = cv2.boxPoints(((cx, cy), (rw / CORE_SHRINK, rh / CORE_SHRINK), ang))
    H, W = edges.shape[1:]
    xs, ys = box[:, 0].tolist(), box[:, 1].tolist()
    x0, y0 = max(math.floor(min(xs)), 0), max(math.floor(min(ys)), 0)
    x1, y1 = min(math.ceil(max(xs)) + 1, W), min(math.ceil(max(ys)) + 1, H)
    if x1 <= x0 or y1 <= y0:
        return rect
    inside = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(inside, [np.round(box - [x0, y0]).astype(np.int32)], 1.0)
    c4, s4, m2 = (edges[:, y0:y1, x0:x1] * inside).sum(axis=(1, 2)).tolist()
    if m2 <= 0 or np.hypot(c4, s4) < EDGE_COHERENCE_MIN * m2:
        return rect
    t = np.arctan2(s4, c4) / 4.0
    turn = abs(np.degrees(t) - ang) % 90
    if min(turn, 90 - turn) <= EDGE_TURN_MIN:
        return rect
    return (*_extent(pts, float(np.degrees(t))), float(np.degrees(t)))


def _core_regions(core: np.ndarray, not_tiles: np.ndarray | None = None) -> list[tuple[np.ndarray, tuple]]:
    """Each core of the core map (a connected region over :data:`CORE_THRESHOLD`, leaving out
    specks under a fifth of the typical core's area): its pixel centres and their minimum-area
    rectangle (``cv2.minAreaRect``), in map pixels. ``not_tiles`` (N x 4 x 2 quads in map pixels): finds of
    an earlier look read as no tile; their cores seen again (:func:`_seen_again`) do not count
    towards the typical core (a pattern's large finds beside a far hand's small tiles)."""
    cb = (core > CORE_THRESHOLD).astype(np.uint8)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(cb, connectivity=4)
    if n <= 1:
        return []
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    if not_tiles is not None and len(not_tiles):
        counted = [a for a, c in zip(areas, centres[1:]) if not _seen_again(c, a / CORE_SHRINK**2, not_tiles)]
        areas = np.array(counted) if counted else areas
    typical = float(np.percentile(areas, 75))
    # every core's pixel centres in one pass, row by row within each core
    ys, xs = np.nonzero(labels)
    # (a stable sort of 16-bit labels is a radix sort: the same order, in a fifth of the time)
    order = np.argsort(labels[ys, xs].astype(np.uint16) if n <= 1 << 16 else labels[ys, xs], kind="stable")
    pts_all = np.column_stack([xs[order] + 0.5, ys[order] + 0.5]).astype(np.float32)
    ends = np.cumsum(stats[1:, cv2.CC_STAT_AREA])
    out = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < max(4, 0.2 * typical):
            continue
        pts = pts_all[ends[i - 1] - stats[i, cv2.CC_STAT_AREA] : ends[i - 1]]
        out.append((pts, cv2.minAreaRect(pts)))
    return out


def _cores(
    face: np.ndarray,
    core: np.ndarray,
    scale: float,
    edges: np.ndarray | None = None,
    regions: list[tuple[np.ndarray, tuple]] | None = None,
) -> list[LearnedTile]:
    """Every core's tile (:func:`instances_from_maps`), before the face support is asked; each
    core's rectangle turned to ``edges`` (:func:`edge_orientation`) when given. ``regions``: the
    cores as :func:`_core_regions` gives them, when already measured."""
    regions = _core_regions(core) if regions is None else regions
    if not regions:
        return []
    fb = (face > FACE_THRESHOLD).astype(np.uint8)
    _, flabels = cv2.connectedComponents(fb, connectivity=8)
    rects = []
    # (the looks before the last only measure the tiles' width: no spreads)
    spreads = list(core_spreads(regions, scale)) if edges is not None else [None] * len(regions)
    for pts, rect in regions:
        (cx, cy), (rw, rh), ang = rect if edges is None else _turned_to_edges(pts, rect, edges)
        # (the thresholded core is about as large as the true one: pixel centres span one pixel
        # less than the region, and the blurred map crosses 0.5 about half a pixel outside it)
        rw, rh = rw + CORE_PAD, rh + CORE_PAD
        group = int(flabels[int(cy), int(cx)]) if 0 <= int(cy) < fb.shape[0] and 0 <= int(cx) < fb.shape[1] else 0
        rects.append(((cx, cy), (rw, rh), ang, group))
    if edges is not None:
        rects = _turned_as_neighbours(rects, regions)
    singles = [min(rw, rh) for _, (rw, rh), _, _ in rects if max(rw, rh) <= MERGED_RATIO * min(rw, rh)]
    width = float(np.median(singles)) / CORE_SHRINK if singles else 0.0
    boxes, owners = [], []  # (each tile's box, its face region, its core's spread and the tiles it was cut into)
    for ((cx, cy), (rw, rh), ang, group), spread in zip(rects, spreads):
        long_, short = max(rw, rh), min(rw, rh)
        k = int(round((long_ / width) + 1 - CORE_SHRINK)) if width > 0 and long_ > MERGED_RATIO * short else 1
        if k <= 1:
            boxes.append(cv2.boxPoints(((cx, cy), (rw / CORE_SHRINK, rh / CORE_SHRINK), ang)) * scale)
            owners.append((group, spread, 1))
            continue
        # unit vector along the long side, and the tile length along it
        t = np.deg2rad(ang)
        axis = np.array([np.cos(t), np.sin(t)]) if rw >= rh else np.array([-np.sin(t), np.cos(t)])
        full = long_ + (1 - CORE_SHRINK) * width  # the merged tiles' whole length
        step = full / k
        for m in range(k):
            c = np.array([cx, cy]) + axis * (-full / 2 + step * (m + 0.5))
            size = (step, short / CORE_SHRINK) if rw >= rh else (short / CORE_SHRINK, step)
            boxes.append(cv2.boxPoints(((float(c[0]), float(c[1])), size, ang)) * scale)
            owners.append((group, None, k))
    if not boxes:
        return []
    return [_tile(quad, *owner) for quad, owner in zip(order_quads(np.stack(boxes)), owners)]


def _extent(pts: np.ndarray, angle: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The centre and the sides of the rectangle turned by ``angle`` degrees round the points
    ``pts`` (map pixels)."""
    t = np.deg2rad(angle)
    c, s = np.cos(t), np.sin(t)
    u = pts[:, 0] * c + pts[:, 1] * s
    v = -pts[:, 0] * s + pts[:, 1] * c
    uc, vc = (u.max() + u.min()) / 2, (v.max() + v.min()) / 2
    return (float(uc * c - vc * s), float(uc * s + vc * c)), (float(u.max() - u.min()), float(v.max() - v.min()))


def _turned_as_neighbours(rects: list[tuple], regions: list[tuple[np.ndarray, tuple]]) -> list[tuple]:
    """``rects`` (``((cx, cy), (w, h), angle, face region)`` per core, map pixels; ``regions`` the
    cores as :func:`_core_regions` gives them) with a core turned as its neighbours lie where they
    agree and it does not.

    Tiles that touch lie side by side, turned alike: a hand's row, a meld, a tray. A small core (a
    tile some 20 pixels wide at the look, a row at a diagonal) comes out roundish, and its own
    rectangle can be turned 10-20 degrees off its row while its neighbours' agree. So where the
    :data:`ROW_NEIGHBOURS` nearest cores of its face region (at least two, within :data:`ROW_REACH`
    typical core lengths, two of them beside it along the turn or across it)
    agree on a turn (:data:`ROW_AGREEMENT`) that differs from its own by more than
    :data:`ROW_TURN_MIN` degrees, and its pixels fit a rectangle at that turn nearly as tightly as
    their tightest one (area at most :data:`ROW_FIT_MAX` times), the core takes that turn. Tiles in a pile
    lie at any turn: their neighbours do not agree, or the core's own pixels say otherwise."""
    if len(rects) < 3:
        return rects
    centres = np.array([r[0] for r in rects], np.float64)
    vec = np.array([[np.cos(np.deg2rad(4 * r[2])), np.sin(np.deg2rad(4 * r[2]))] for r in rects])
    typical = float(np.median([max(size) for _, size, _, _ in rects]))
    groups = np.array([r[3] for r in rects])
    # every core's nearest cores of its face region at once (the nearest first, at a tie the first)
    d = np.hypot(centres[None, :, 0] - centres[:, None, 0], centres[None, :, 1] - centres[:, None, 1])
    near_enough = (groups[None, :] == groups[:, None]) & (d <= ROW_REACH * typical)
    np.fill_diagonal(near_enough, False)
    nearest = np.argsort(np.where(near_enough, d, np.inf), axis=1, kind="stable")[:, :ROW_NEIGHBOURS]
    counts = np.minimum(near_enough.sum(1), ROW_NEIGHBOURS)
    taken = np.arange(nearest.shape[1])[None, :] < counts[:, None]
    means = np.where(taken[..., None], vec[nearest], 0.0).sum(1) / np.maximum(counts, 1)[:, None]
    agree = np.hypot(means[:, 0], means[:, 1]) >= ROW_AGREEMENT
    out = list(rects)
    for i in np.flatnonzero((groups != 0) & (counts >= 2) & agree):
        _, _, ang, group = rects[i]
        near = nearest[i, : counts[i]]
        turn = float(np.degrees(np.arctan2(means[i, 1], means[i, 0])) / 4)
        off = abs(turn - ang) % 90
        if min(off, 90 - off) <= ROW_TURN_MIN:
            continue
        # ... and lie side by side with it along that turn, as tiles in a row or a tray do
        ways = np.degrees(np.arctan2(*(centres[near] - centres[i])[:, ::-1].T)) - turn
        if int((np.minimum(ways % 90, 90 - ways % 90) <= ROW_SIDE_MAX).sum()) < 2:
            continue
        pts, (_, (tw, th), _) = regions[i]
        centre, (w, h) = _extent(pts, turn)
        if w * h > ROW_FIT_MAX * max(tw * th, 1e-6):
            continue
        out[i] = (centre, (w + CORE_PAD, h + CORE_PAD), turn, group)
    return out


def _supported(
    face: np.ndarray, scale: float, tiles: list[LearnedTile], min_support: float | None
) -> list[LearnedTile]:
    """``tiles`` that the face map supports at least ``min_support`` (default
    :func:`min_face_support`; 0 keeps all without measuring), with their regions' tile counts."""
    min_support = min_face_support() if min_support is None else min_support
    out = tiles if min_support <= 0 else [t for t in tiles if _face_support(face, t.quad / scale) >= min_support]
    sizes: dict[int, int] = {}
    for t in out:
        sizes[t.group] = sizes.get(t.group, 0) + 1
    return [dataclasses.replace(t, group_size=sizes[t.group] if t.group else 1) for t in out]


def _face_support(face: np.ndarray, quad: np.ndarray) -> float:
    """Mean face probability inside ``quad`` (map pixels)."""
    xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()
    x0, y0 = max(math.floor(min(xs)), 0), max(math.floor(min(ys)), 0)
    roi = face[y0 : math.ceil(max(ys)) + 1, x0 : math.ceil(max(xs)) + 1]
    if roi.size == 0:
        return 0.0
    m = np.zeros(roi.shape, np.uint8)
    cv2.fillPoly(m, [np.round(quad - [x0, y0]).astype(np.int32)], 1)
    return cv2.mean(roi, m)[0] if m.any() else 0.0


def _measured(instances: list[LearnedTile]) -> list[LearnedTile]:
    """The tiles a width is measured on: the tile-shaped ones that touch another (a row of a hand)
    when there are at least three; stray finds on a patterned surface stand alone and come in any
    size."""
    rowed = [t for t in instances if t.group_size >= 2 and t.score >= 0.6]
    return rowed if len(rowed) >= 3 else instances


def _tile_shaped(instances: list[LearnedTile]) -> float:
    """How tile-shaped the tiles found are (:func:`_measured`): the median of their aspect scores
    (:func:`vision.finders.geometry.aspect_score`)."""
    return float(np.median([t.score for t in _measured(instances)]))


def tile_width(instances: list[LearnedTile]) -> float:
    """Median short side of the tiles found (:func:`_measured`)."""
    if not instances:
        return 0.0
    return float(np.median([t.sides[0] for t in _measured(instances)]))


def across_width(instances: list[LearnedTile]) -> float:
    """Median width the tiles found (:func:`_measured`) would have seen from straight above, as far
    as their quads tell: the larger of a quad's short side and its long side times
    :data:`FACE_ASPECT`. A tile seen at a slant is squashed along one axis only, so this stays a
    tile's width where the short side (:func:`tile_width`) is only its squashed height; on specks
    of texture both are small."""
    if not instances:
        return 0.0
    return float(np.median([max(short, long * FACE_ASPECT) for short, long in (t.sides for t in _measured(instances))]))


#: a face region's finds are tiles of a second, smaller size when their median short side is at
#: most this share of the largest region's (:func:`_smaller_tiles`)
SMALLER_RATIO = 0.6
#: ... and there are at least this many of them
SMALLER_MIN = 3
#: ... counting only the regions whose finds are tile-shaped: their median aspect score
#: (:func:`vision.finders.geometry.aspect_score`) this or more, as :func:`_measured` takes a tile
SMALLER_SHAPE_MIN = 0.6


def _smaller_tiles(inst: list[LearnedTile], r: float) -> list[LearnedTile]:
    """The smaller of two sizes of tile among the finds ``inst`` of a look ``r`` times the image's
    size, measured by face region (touching tiles share one): the finds of the tile-shaped regions
    (median aspect score :data:`SMALLER_SHAPE_MIN` or more) whose median short side is at most
    :data:`SMALLER_RATIO` of the largest among the regions of :data:`LARGER_TILES_MIN` finds or
    more, less specks (under :data:`MIN_TILE_PX` across). Empty unless they are
    :data:`SMALLER_MIN` or more, two of them side by side in one region, and narrower than
    :data:`TILE_PX_RANGE` (:func:`tile_width`): too small for the look, as a photo's tiles are when
    a closer look is taken (smaller tiles the look sees in range, it finds well enough).

    Tiles beyond the hand (other players' discards and melds, seen from a seat) are two or three
    times narrower than the hand's; at a look sized for the hand most of them are too small to be
    found, and the few that are lie in face regions of their own, some side by side (discards and
    melds lie in rows; the keys of a keyboard and coins, each alone). Measured by region, not find
    by find: seen from a seat, the hand's own tiles narrow along the row. The lines of a printed
    page beside the hand come out as regions of narrow finds too, but long ones, not tile-shaped
    (median aspect scores 0.19-0.54 on the photo tests' pages; the far tiles' 0.61-0.99 on the
    composites seen from a seat)."""
    regions = _by_region(inst)
    size = {g: float(np.median([t.sides[0] for t in v])) for g, v in regions.items()}
    largest = max((size[g] for g, v in regions.items() if len(v) >= LARGER_TILES_MIN), default=0.0)
    shaped = {g for g, v in regions.items() if np.median([t.score for t in v]) >= SMALLER_SHAPE_MIN}
    small = [t for t in inst if t.group in shaped and size[t.group] <= SMALLER_RATIO * largest and not _speck(t, r)]
    side_by_side = any(len(regions[t.group]) >= 2 for t in small)
    return small if len(small) >= SMALLER_MIN and side_by_side and tile_width(small) * r < TILE_PX_RANGE[0] else []


def _by_region(inst: list[LearnedTile]) -> dict[int, list[LearnedTile]]:
    """The finds ``inst`` on a face region, by region (:attr:`LearnedTile.group`)."""
    regions: dict[int, list[LearnedTile]] = {}
    for t in inst:
        if t.group:
            regions.setdefault(t.group, []).append(t)
    return regions


def _holds_row(inst: list[LearnedTile], least: int, r: float) -> bool:
    """Whether the finds ``inst`` of a look ``r`` times the image's size hold a face region of at
    least ``least`` finds that are no specks (:func:`_specks`)."""
    regions = _by_region(inst)
    return any(len(v) >= least and not _specks(v, r) for v in regions.values())


def _specks(inst: list[LearnedTile], r: float) -> bool:
    """Whether the finds ``inst`` of a look ``r`` times the image's size measure under
    :data:`MIN_TILE_PX` across there (:func:`across_width`): specks, not tiles."""
    return bool(inst) and across_width(inst) * r < MIN_TILE_PX


def _speck(t: LearnedTile, r: float) -> bool:
    """:func:`_specks` of the one find ``t``: its own width across (:func:`across_width`)."""
    short, long_ = t.sides
    return max(short, long_ * FACE_ASPECT) * r < MIN_TILE_PX


def first_look(long_side: int, tile_px: float) -> int:
    """The long side at which a photo ``long_side`` pixels long, its tiles ``tile_px`` wide, shows
    them :data:`KNOWN_TILE_PX` wide: never above its own size, nor below :func:`min_long`."""
    return int(min(long_side, max(min_long(), round(long_side * KNOWN_TILE_PX / max(tile_px, 1.0)))))


def _finest(img: np.ndarray, detail: np.ndarray | None) -> int:
    """The long side of the largest look ``img`` or ``detail``, its larger copy, has pixels for."""
    return max(img.shape[:2]) if detail is None else max(max(detail.shape[:2]), max(img.shape[:2]))


def far_look(img: np.ndarray, detail: np.ndarray | None = None) -> int:
    """The long side of :func:`find_tiles`' far look at ``img`` (:data:`FAR_LOOK`, at most
    :func:`_finest`)."""
    return min(_finest(img, detail), FAR_LOOK)


def find_tiles(
    img: np.ndarray,
    tile_px: float | None = None,
    detail: np.ndarray | None = None,
    not_tiles: Sequence[np.ndarray] | None = None,
    least_row: int = 0,
    read_at: Sequence[np.ndarray] = (),
) -> tuple[list[LearnedTile], tuple[np.ndarray, np.ndarray, float]]:
    """Tiles in a BGR photo (:func:`instances_from_maps`, quads in ``img`` pixels), and the maps
    they came from ``(face, core, scale)``.

    Scale: the network learned tiles 10-90 pixels wide, and seams between touching tiles get too
    thin below about 20. The photo is first seen at :data:`INPUT_LONG` pixels (or at
    :data:`ENLARGE_MAX` times its finest pixels where that is less, but not under :func:`min_long`: a
    part of a photo read on its own is often that small); while its tiles come
    out narrower or wider than :data:`TILE_PX_RANGE` (a far-away hand, a whole set laid out; a
    close-up of a few large tiles) it is seen again at the size that makes them about
    :data:`TARGET_TILE_PX` wide (between :func:`min_long` pixels and its own size), at most
    :data:`MAX_LOOKS` times in all. A closer look (larger than the one before) runs only over the
    part of the photo where the look before saw tiles (:func:`content_window`).

    A tile far wider than 90 pixels (a close-up of a few tiles, seen at 640) can come out in
    pieces of a plausible width. So tiles measuring over :data:`CHECK_ABOVE_PX` are checked once
    with a look at half the size (a quarter of the cost): pieces measure about half as wide there,
    whole tiles that were cut measure nearly as wide as before (over :data:`FRAGMENT_RATIO`), and
    then the half-size look's width is the one the next look aims from. A half-size look that
    measures them over :data:`MERGED_AT_HALF` times as wide ran the tiles together (light tiles on
    a light cloth come out as one blob): neither whole tiles nor pieces made whole do that, and the
    first look stands. So it does where the half-size finds are less tile-shaped than the first
    look's by more than :data:`HALF_SHAPE_LOSS` (:func:`_tile_shaped`): a row of tiles run together
    in twos and threes, whose short side, a tile's height, measures within the pieces' bounds.

    Finds measuring under :data:`MIN_TILE_PX` across (:func:`across_width`: the network learned
    tiles from about 8 px; that would be over 80 tiles across the photo) are specks of texture,
    such as letters on keyboard keys: no tiles, and no closer look that would enlarge them into
    tile-sized finds. Across, not their short side: a set far across the table seen from a seat
    has tiles squashed to a few pixels high, yet as wide as ever.

    A photo from a seat shows tiles of two sizes: the hand near the camera and, beyond it, other
    players' discards and melds two or three times narrower, most of them too small to be found
    at a look sized for the hand. When a look within :data:`TILE_PX_RANGE` finds some of them in
    face regions of their own (:func:`_smaller_tiles`), one more look aims at their width, the
    last; the hand's tiles, too wide there, come from the first look (:func:`_with_larger_tiles`).

    A first look that finds nothing, or only specks, is taken again once at :data:`FAR_LOOK`
    (from ``detail`` where there is one): a hand far from the camera shows tiles 7-14 px wide at
    the first look, specks or nothing at all (ivory faces on a light table), and twice as large
    they are tiles the next looks measure as usual. Specks of texture seen twice as large may
    pass for tiles too (the letters of a keyboard, each on its key), so after that look only the
    finds that touch another find (a face region of two or more: :attr:`LearnedTile.group_size`)
    are tiles: a hand lies in rows, its tiles side by side.

    ``not_tiles``, the quads (``img`` pixels) of an earlier search's finds, most of them read as
    no tile (:func:`vision.finders.select.find_farther`): the looks start at the far look, whatever
    the first look would find, and those finds seen again (:func:`_seen_again`) are not measured:
    the tiles' size measured on a pattern beside a far hand aims the looks at the pattern, and
    tiles under a fifth of the pattern's cores are taken for specks. They are still returned, and
    read again.

    ``tile_px``, when the tiles' width in ``img`` is known beforehand (a photo's part seen from
    straight above, made for the finder at a known tile width: :func:`vision.slant.straightening`),
    makes the first look the one that sees them :data:`KNOWN_TILE_PX` wide (:func:`first_look`):
    the look at :data:`INPUT_LONG` would enlarge such a part only to shrink it again at the next.

    ``detail``, the same framing as ``img`` with more pixels (:attr:`vision.photo.Photo.detail`): a
    closer look than ``img`` has pixels for looks at it instead, so tiles too small for the
    working image (a hand far from a 12-megapixel camera) are seen as sharply as the photo has them.
    A look that finds more cores than a set has tiles (:data:`MAX_CORES`) sees a texture (a cloth's
    pattern, sharper in the detail image): at the first look there are no tiles, and a closer look
    leaves the look before standing.

    ``least_row``, where a part of a photo is searched only for rows of tiles (the table beyond a
    hand, :func:`vision.beyond._read_beyond`): unless the first look finds a face region of at
    least that many finds, no specks, centred in none of ``read_at`` (quads in ``img`` pixels:
    tiles read already), there is nothing, and no other look is taken (a far look would only
    enlarge the room's patterns).

    The last look's cores are turned the way their tiles' edges run (:func:`edge_orientation`)."""
    h, w = img.shape[:2]
    finest = _finest(img, detail)
    long_ = (
        max(min_long(), min(INPUT_LONG, ENLARGE_MAX * finest)) if tile_px is None else first_look(max(h, w), tile_px)
    )

    def look(long_side: int, part: tuple[int, int, int, int] | None) -> tuple[np.ndarray, np.ndarray, float]:
        src, r = _source(img, detail, long_side)
        face, core, scale = predict_maps(src, long_side, _scaled(part, r, src.shape))
        return face, core, scale / r

    seen = np.array(not_tiles if not_tiles is not None else [], np.float64).reshape(
        -1, 4, 2
    )  # (read as no tile before)

    def regions_of(maps: tuple[np.ndarray, np.ndarray, float]) -> list[tuple[np.ndarray, tuple]]:
        return _core_regions(maps[1], seen / maps[2])

    def measured(inst: list[LearnedTile]) -> list[LearnedTile]:  # (finds read as no tile before are not)
        if not len(seen):
            return inst
        return [
            t for t in inst if not _seen_again(t.quad.mean(0), float(_areas(t.quad[None].astype(np.float64))[0]), seen)
        ]

    far_long = far_look(img, detail) if tile_px is None and not least_row else 0
    from_far = not_tiles is not None and far_long > long_
    if not from_far:
        maps = look(long_, None)
        regions = regions_of(maps)
        cores = _cores(*maps, regions=regions) if far_long > long_ or least_row else None  # (measured below)
        if least_row:  # (rows only: of finds not read already)
            unread = [t for t in _supported(maps[0], maps[2], cores or [], 0.0) if not centred_in(t.quad, read_at)]
            if not _holds_row(unread, least_row, long_ / max(h, w)):
                return [], maps
        from_far = far_long > long_ and (
            not regions or _specks(measured(_supported(maps[0], maps[2], cores or [], 0.0)), long_ / max(h, w))
        )
    if from_far:  # a hand far from the camera: its tiles not seen, or seen as specks
        long_, maps, cores = far_long, look(far_long, None), None
        regions = regions_of(maps)
    if len(regions) > MAX_CORES:  # a texture, or tiles beside one
        regions, cores = _beside_texture(regions), None
        if not regions:
            return [], maps
    if cores is None:
        cores = _cores(*maps, regions=regions)
    window: tuple[int, int, int, int] | None = None  # the part of the photo the last look saw
    checked = False
    smaller: list[LearnedTile] = []  # (tiles of a second, smaller size: the last look aims at them)
    first = (long_, maps, regions, cores)  # (the look the tiles were measured at: larger ones come from it)
    for _ in range(MAX_LOOKS - 1):
        if smaller:  # (the look at the smaller tiles is the last)
            break
        # the size is measured on every core: at a wrong size the network finds tiles it is
        # unsure of (little face support), which still tell how large the tiles are
        inst = measured(_supported(maps[0], maps[2], cores, 0.0))
        width = tile_width(inst) * long_ / max(h, w)
        if not inst:
            break
        if _specks(inst, long_ / max(h, w)):  # specks of texture: a closer look would only
            return [], maps  # enlarge them (tiles squashed by a slant are no specks)
        if TILE_PX_RANGE[0] <= width <= TILE_PX_RANGE[1]:
            smaller = _smaller_tiles(inst, long_ / max(h, w)) if width < CHECK_ABOVE_PX else []
            if smaller:  # tiles of a second size beyond the hand: a look aimed at them
                width = tile_width(smaller) * long_ / max(h, w)
            else:
                if checked or width < CHECK_ABOVE_PX or long_ // 2 < MIN_LONG:  # (it only measures)
                    break
                # tiles far larger than the network learned come out in tile-sized pieces: at half
                # the size those pieces would measure half as wide, whole tiles measure wider
                checked = True
                half = look(long_ // 2, None)
                half_regions = regions_of(half)
                half_cores = _cores(*half, regions=half_regions)
                half_inst = measured(_supported(half[0], half[2], half_cores, 0.0))
                half_width = tile_width(half_inst) * (long_ // 2) / max(h, w)
                if (
                    not half_inst
                    or not FRAGMENT_RATIO * width <= half_width <= MERGED_AT_HALF * width
                    or _tile_shaped(half_inst) < _tile_shaped(inst) - HALF_SHAPE_LOSS
                ):
                    break
                long_, maps, regions, cores, window = long_ // 2, half, half_regions, half_cores, None
                first = (long_, maps, regions, cores)  # (the first look's finds were pieces)
                width = half_width  # and on to the size they want
        want = long_ * TARGET_TILE_PX / max(width, 1.0)
        new = int(min(finest if want >= DETAIL_LOOK_FROM * max(h, w) else max(h, w), max(min_long(), want)))
        if abs(new - long_) <= 0.15 * long_:
            break
        # a closer look at small tiles runs only where they are
        part = content_window(maps[0], maps[2], img.shape, tile_width(inst), new) if new > long_ else None
        closer = look(new, part)
        closer_regions = regions_of(closer)
        if len(closer_regions) > MAX_CORES:  # a texture, seen larger and sharper: the look before stands
            break
        long_, window, maps, regions = new, part, closer, closer_regions
        cores = _cores(*maps, regions=regions)
    # the last look's cores again, each turned the way its tile's edges run (the looks before
    # only measure the tiles' width, which the turn hardly changes)
    src, r = _source(img, detail, long_)
    cores = _cores(*maps, edges=edge_orientation(src, long_, _scaled(window, r, src.shape)), regions=regions)
    found = _supported(maps[0], maps[2], cores, None)
    if long_ > first[0]:  # tiles too large for the last look, seen in range at the first
        found = _with_larger_tiles(found, first, long_ / max(h, w), max(h, w), lambda n: _source(img, detail, n))
    elif long_ < first[0] and not from_far:  # tiles the smaller last look lost, seen whole at the first
        found = _with_tiles_lost_smaller(found, first, lambda n: _source(img, detail, n))
    if from_far:  # (lone finds twice as large: letters on keys, specks of texture)
        found = [t for t in found if t.group_size >= 2]
    return found, maps


def _with_larger_tiles(
    found: list[LearnedTile],
    first: tuple[int, tuple[np.ndarray, np.ndarray, float], list[tuple[np.ndarray, tuple]], list[LearnedTile]],
    r: float,
    image_long: int,
    source: Callable[[int], tuple[np.ndarray, float]],
) -> list[LearnedTile]:
    """``found``, the finds of a closer look ``r`` times the image's size (``image_long`` its long
    side), with the tiles that look saw too large taken from the look ``first`` (its long side,
    maps, core regions and their tiles as :func:`_cores` gives them unturned) instead: when at least :data:`LARGER_TILES_MIN` of the first look's finds
    measured within :data:`TILE_PX_RANGE` there and measure over its upper bound at the closer
    look, each of them that the closer look found only in pieces or not at all: no find centred in
    it covers :data:`WHOLE_AT_CLOSER` of its area, and those that cover under
    :data:`PIECE_AT_CLOSER` each (tiles inside it) cover under :data:`TILES_INSIDE_COVER` in all.
    Those pieces go.
    ``source(long_side)``: the image a look sees and its size over the image's (:func:`_source`),
    for the first look's edges.

    A photo can show tiles of two sizes: the hand near the camera and other tiles beyond it (a
    player's discards, another player's melds), two or three times narrower. The looks aim at
    the median tile, and when the farther tiles are the more, the closer look that makes them
    :data:`TARGET_TILE_PX` wide shows the hand's tiles 90 pixels wide or more, wider than the
    network learned, and they come out in pieces or not at all (on another player's labelled
    tiles laid out beside a hand three times their width, 3 of the hand's 9 tiles were read).
    Where the closer look found one whole it stands, its find sharper; and where it found smaller
    finds in one, the first look's find held several tiles: beside a hand far from a 12-megapixel
    camera, the first look took patches of a rippled wallpaper round the hand for tiles, and
    taking them lost 20 of the hand's 36 tiles, found at the closer look a sixth of their size.
    Tiles inside it cover most of it; a dot or two of a ``6p`` found in a hand near the camera,
    130 px wide at the closer look, cover little, and they once left the first look's finds unused
    (four tiles of a hand lost on a composed table seen 45 degrees off)."""
    long_, (face, core, scale), regions, unturned = first
    r_first = long_ / image_long

    def larger(t: LearnedTile) -> bool:
        width = t.sides[0]
        return TILE_PX_RANGE[0] <= width * r_first <= TILE_PX_RANGE[1] < width * r

    if sum(map(larger, _supported(face, scale, unturned, None))) < LARGER_TILES_MIN:
        return found
    edges = edge_orientation(source(long_)[0], long_)
    large = [t for t in _supported(face, scale, _cores(face, core, scale, edges, regions), None) if larger(t)]
    if len(large) < LARGER_TILES_MIN:
        return found
    quads = np.array([t.quad for t in large], np.float64)
    holds = np.array([quads_holding(f.quad.mean(0), quads) for f in found], bool).reshape(len(found), len(large))
    share = _areas(np.array([f.quad for f in found], np.float64).reshape(-1, 4, 2))[:, None] / _areas(quads)[None, :]
    whole = (holds & (share >= WHOLE_AT_CLOSER)).any(0)
    inside = np.where(holds & (share < PIECE_AT_CLOSER), share, 0.0).sum(0)
    missed = ~whole & (inside < TILES_INSIDE_COVER)  # (the closer look found them in pieces or not at all)
    if not missed.any():
        return found
    kept = [f for f, held in zip(found, holds) if not held[missed].any()]
    offset = max((t.group for t in kept), default=0)  # (face regions of another look)
    return kept + [dataclasses.replace(t, group=t.group + offset) if t.group else t for t, m in zip(large, missed) if m]


def _with_tiles_lost_smaller(
    found: list[LearnedTile],
    first: tuple[int, tuple[np.ndarray, np.ndarray, float], list[tuple[np.ndarray, tuple]], list[LearnedTile]],
    source: Callable[[int], tuple[np.ndarray, float]],
) -> list[LearnedTile]:
    """``found``, the finds of a last look smaller than the look ``first`` (its long side, maps, core
    regions and their tiles unturned), with the finds of ``first`` at places the last look left
    empty: no find of it centred in them, none of them centred in one; whole tiles (their short
    side :data:`LOST_WHOLE` of the first look's median or more), faces it marked surely (support
    :data:`LOST_SUPPORT` or more: a patch of a pale table beside the tiles, 0.58, read as a white
    dragon; the shaded tiles kept, 0.76-0.98 but for two), touching another (a row's, a grid's: a
    face region of two such finds or more). A last look that found
    nothing keeps nothing: a lone pattern the first look took for a large tile (a logo of rings on
    a wallpaper) is no hand. Not after the far look (:data:`FAR_LOOK`), which sees a pattern twice
    as large: that logo's rings came out there as eight finds side by side.

    The first look saw the tiles wider than the network learned (a close-up of a few tiles) and
    the last one aims at :data:`TARGET_TILE_PX`; seen that small, a tile in a shadow (a phone or an
    arm shading part of the hand) is a dim patch the network takes for the table, while at the
    first look its face and edges stand out. ``source(long_side)``: the image a look sees and its
    size over the image's (:func:`_source`), for the first look's edges."""
    long_, (face, core, scale), regions, unturned = first
    if not found:
        return found
    mine = np.array([f.quad for f in found], np.float64).reshape(-1, 4, 2)

    def at_empty_places(tiles: list[LearnedTile]) -> list[LearnedTile]:
        if not tiles:
            return []
        quads = np.array([t.quad for t in tiles], np.float64).reshape(-1, 4, 2)
        held = np.array([quads_holding(f.quad.mean(0), quads) for f in found], bool).reshape(len(found), len(tiles))
        holds = np.array([quads_holding(t.quad.mean(0), mine).any() for t in tiles], bool)
        return [t for t, empty in zip(tiles, ~held.any(0) & ~holds) if empty]

    def lost(tiles: list[LearnedTile]) -> list[LearnedTile]:
        seen = _supported(face, scale, tiles, LOST_SUPPORT)
        if not seen:
            return []
        width = tile_width(seen)
        return at_empty_places([t for t in seen if t.sides[0] >= LOST_WHOLE * width and t.group_size >= 2])

    # (the face support measured, and the first look's cores turned to their edges, only where
    # some of its cores lie at empty places, and some are lost as they are: the edges cost a look's
    # worth of filtering)
    if not at_empty_places(unturned) or not lost(unturned):
        return found
    whole = lost(_cores(face, core, scale, edge_orientation(source(long_)[0], long_), regions))
    if not whole:
        return found
    offset = max((t.group for t in found), default=0)  # (face regions of another look)
    return found + [dataclasses.replace(t, group=t.group + offset) if t.group else t for t in whole]


def _beside_texture(regions: list[tuple[np.ndarray, tuple]]) -> list[tuple[np.ndarray, tuple]]:
    """Of the cores (:func:`_core_regions`) of a look that found more than :data:`MAX_CORES`, those
    at least :data:`BESIDE_TEXTURE_AREA` times the median core's area, when there are at least
    :data:`BESIDE_TEXTURE_MIN` of them and at most :data:`MAX_CORES`; else none.

    So many cores are a texture: a cloth's pattern, gravel, the letters of a printed page. A
    texture's cores are alike in size, and most of the look's cores are the texture's, so the
    median core is one of them. Tiles lying beside a page of print (a score sheet, a rule book)
    are several times a letter's size, and come out as a few cores twice as wide as the median or
    more: without them the look found only texture. Before, the whole look was taken for a texture,
    and a hand beside a page was not read at all."""
    areas = np.array([len(pts) for pts, _ in regions], np.float64)
    large = areas >= BESIDE_TEXTURE_AREA * float(np.median(areas))
    if not BESIDE_TEXTURE_MIN <= int(large.sum()) <= MAX_CORES:
        return []
    return [r for r, keep in zip(regions, large) if keep]


def _seen_again(centre: np.ndarray, area: float, not_tiles: Sequence[np.ndarray] | np.ndarray) -> bool:
    """Whether a find centred at ``centre``, its tile's box ``area`` large, is one of ``not_tiles``
    (N x 4 x 2 convex quads, finds of an earlier look read as no tile; the same pixels as
    ``centre``) seen again: centred in one and covering at least :data:`SEEN_AGAIN_COVER` of its
    area. A tile of a far hand that the earlier look saw as one find with its neighbours covers
    less."""
    quads = np.asarray(not_tiles, np.float64).reshape(-1, 4, 2)
    return bool((quads_holding(centre, quads) & (area >= SEEN_AGAIN_COVER * _areas(quads))).any())


def _areas(quads: np.ndarray) -> np.ndarray:
    """The areas of quads (N x 4 x 2; the shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    return np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(1)) / 2


def _source(img: np.ndarray, detail: np.ndarray | None, long_side: int) -> tuple[np.ndarray, float]:
    """The image a look at ``long_side`` pixels sees (:func:`find_tiles`): ``detail`` where the look
    is :data:`DETAIL_LOOK_FROM` times ``img``'s size or more and ``detail`` larger, else ``img``;
    and its size over ``img``'s."""
    if (
        detail is None
        or long_side < DETAIL_LOOK_FROM * max(img.shape[:2])
        or max(detail.shape[:2]) <= max(img.shape[:2])
    ):
        return img, 1.0
    return detail, max(detail.shape[:2]) / max(img.shape[:2])


def _scaled(
    part: tuple[int, int, int, int] | None, r: float, shape: tuple[int, ...]
) -> tuple[int, int, int, int] | None:
    """``part`` (``x0, y0, x1, y1``) of an image, in the pixels of one ``r`` times as large, of
    ``shape``."""
    if part is None or r == 1.0:
        return part
    x0, y0, x1, y1 = part
    return int(x0 * r), int(y0 * r), min(shape[1], int(round(x1 * r))), min(shape[0], int(round(y1 * r)))


def candidates(
    img: np.ndarray,
    debug: dict | None = None,
    tile_px: float | None = None,
    detail: np.ndarray | None = None,
    not_tiles: Sequence[np.ndarray] | None = None,
    least_row: int = 0,
    read_at: Sequence[np.ndarray] = (),
    face_map: dict | None = None,
) -> list[Candidate]:
    """Tile candidates in ``img`` (BGR uint8, quads in its pixels): one per core, face-down tiles
    included (the classifier reads them as ``back``). ``debug``, when given, receives the face map
    as a ``mask`` at ``img``'s size and the ``core`` map; ``face_map``, when given, receives the last
    look's face probabilities as they are (``face``, 0 outside the part a closer look saw), the
    factor ``scale`` that takes a map pixel to ``img`` pixels and that look's long side ``look``
    (each candidate's :attr:`Candidate.look`; there where none was found); ``tile_px``,
    ``detail``, ``not_tiles``, ``least_row`` and ``read_at``: as for :func:`find_tiles`."""
    found, (face, core, scale) = find_tiles(img, tile_px, detail, not_tiles, least_row, read_at)
    look = int(round(2 * max(img.shape[:2]) / scale))  # (a map pixel is two of the look's)
    if face_map is not None:
        face_map.update(face=face, scale=scale, look=look)
    if debug is not None:
        h, w = img.shape[:2]
        debug["mask"] = (cv2.resize(face, (w, h), interpolation=cv2.INTER_LINEAR) > FACE_THRESHOLD).astype(
            np.uint8
        ) * 255
        debug["core"] = core
    cands = []
    for t in found:
        ink = quad_ink(img, t.quad)
        cands.append(
            Candidate(
                t.quad,
                lying=t.lying,
                score=t.score,
                source="learned",
                blob=t.group,
                blob_size=t.group_size,
                ink=ink,
                ambiguous=t.ambiguous,
                slanted=t.slanted,
                spread=t.spread,
                look=look,
                cut_into=t.cut_into,
            )
        )
    return cands
