"""Safe photo decoding: header sniffing, decompression-bomb guard, EXIF orientation, fast reduced decode.

:func:`probe` reads the format and the stored pixel size from the header alone (JPEG SOF, PNG IHDR,
WebP VP8/VP8L/VP8X, BMP) so absurd sizes are refused before any pixel is decoded.
:func:`load` decodes to a *working* image (long side about 1000-1400 px) and says how working
pixels map back to the photo as the user sees it (EXIF orientation applied; OpenCV's ``imdecode``
applies the EXIF orientation tag for full and ``IMREAD_REDUCED_*`` decoding alike, which the tests check).
It also keeps a *detail* image, the same framing at up to twice the working size where the photo
has the pixels (:data:`DETAIL_MAX`): tiles are found in the working image and read from the detail
one, so a small tile in a photo of a full tray keeps the strokes that tell 5 pips from 6. Decoding a
JPEG one reduction step finer costs little (the entropy decoding, the same at every reduction, is
most of the time), so the working image is the detail one shrunk. A photo taken underexposed (a dim
room, an evening table) is brightened (:func:`exposed`): the networks learned tiles whose faces
are bright. A photo whose grain is strong, as a dim photo brightened (by the phone or by
:func:`exposed`) or one shot at a high ISO is, is smoothed a little (:func:`smoothed`): the
networks learned clean faces, and grain that survives the working size breaks them up.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from .errors import ImageError

MAX_PIXELS = 50_000_000
MAX_DECODE_BYTES = 160_000_000
"""The decode budget: pixels x bytes per pixel (at least the 3 of the BGR result); a 50-megapixel
8-bit photo fits (150 MB), a 16-bit RGB PNG of 7070x7070 (300 MB) does not."""
MAX_SIDE = 20_000
MIN_SIDE = 24
WORK_MIN = 1000  # reduced JPEG decoding keeps the long side at least this big
WORK_MAX = 1400  # the working image's long side is at most this
DETAIL_MAX = 2 * WORK_MAX  # the detail image's long side is at most this (tiles are read from it)

#: a photo whose brightest parts (the :data:`BRIGHT_PERCENTILE` of its grey levels; the tile faces,
#: ivory or white, are mostly the brightest things in a photo of tiles) come to less than this was
#: taken underexposed ...
DIM_BELOW = 140
BRIGHT_PERCENTILE = 99.5
#: ... and its levels are scaled so that they come to this, by at most :data:`MAX_GAIN`. Measured on
#: the 24 labelled real photos darkened to 0.5, 0.35 and 0.25 of their levels: read 99.6, 98.8 and
#: 92.2 % of the tiles, 21, 12 and 4 photos exact; brightened, 99.8 % and 21-22, as the photos
#: themselves (whose brightest parts come to 204-255; the benchmark's synthetic photos, 151 and up)
BRIGHT_TARGET = 230
#: ... (a photo of the dark, or of a black cloth, is not made up of noise brightened many times)
MAX_GAIN = 4.0

#: a photo's grain is measured (:func:`noise_level`) on its flattest pixels: those whose local
#: gradient (after a 7 x 7 box blur) is under this percentile of the photo's. Edges, artwork and
#: texture lie elsewhere, and JPEG's blocks flatten such parts, so what is left there is the
#: sensor's noise
FLAT_PERCENTILE = 30
#: ... in this many patches of :data:`NOISE_PATCH` pixels (rows, columns) spread over the image in a
#: grid (the grain is the same all over: measuring a few per cent of the pixels costs about a
#: millisecond)
NOISE_PATCHES = (3, 3)
NOISE_PATCH = (40, 256)
#: a photo whose working image's grain (the noise's standard deviation, grey levels) comes to more
#: than this is smoothed (:func:`smoothed`). On the working images of the real-tile A/B sets, as
#: built and saved again as JPEG 85 (818 photos), the grain measured 0.0-2.0; on the synthetic
#: benchmark photos up to 3.2 (one synthetic test scene, 6.4: smoothed, it reads no worse); on the
#: 57 photos without tiles up to 4.0 (gravel, and the Hubble deep field: textures with no flat
#: part), but for a lawn's fine grass, 7.7 (smoothed, its one false tile went). The labelled real
#: photos given Gaussian noise of 12, 17 and 24 grey levels measured 2-8, 2.7-11 and 3.7-14 (where
#: a photo was shrunk to its working size, the noise averaged out with it, and did no harm). At 4,
#: 5 and 6 the noisy photos read alike
NOISY_ABOVE = 5.0
#: ... by a Gaussian blur of this standard deviation (pixels of the image smoothed)
SMOOTH_SIGMA = 1.0
#: the discrete Laplacian difference whose response to pure noise of deviation s has deviation 6 s
#: (J. Immerkaer, "Fast noise variance estimation", Computer Vision and Image Understanding, 1996)
_NOISE_KERNEL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)

_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # IHDR colour type -> decoded channels (palette as RGB)
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass
class HeaderInfo:
    format: str  # "jpeg" | "png" | "webp" | "bmp"
    width: int  # as stored (before EXIF orientation)
    height: int
    complete: bool  # the end marker is present (JPEG EOI after the scan, PNG IEND)
    bytes_per_pixel: int = 3  # decoded size of one stored pixel (PNG: channels x 1 or 2 bytes)


@dataclass
class Photo:
    image: np.ndarray  # working BGR uint8 image, EXIF orientation applied
    width: int  # size of the photo as displayed (oriented, full resolution)
    height: int
    scale_x: float  # original x = working x * scale_x
    scale_y: float
    format: str
    detail: np.ndarray | None = None  # the same framing, larger (or None: the working image is all)


def turned(ph: Photo, quarters: int) -> Photo:
    """The photo ``ph`` turned ``quarters`` quarter turns counter-clockwise (as :func:`numpy.rot90`
    turns an image), its working and detail images and its size alike."""
    quarters %= 4
    odd = quarters % 2 == 1

    def turn(img: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.rot90(img, quarters))

    return Photo(
        turn(ph.image),
        ph.height if odd else ph.width,
        ph.width if odd else ph.height,
        ph.scale_y if odd else ph.scale_x,
        ph.scale_x if odd else ph.scale_y,
        ph.format,
        None if ph.detail is None else turn(ph.detail),
    )


def turned_back(points: np.ndarray, quarters: int, width: int, height: int) -> np.ndarray:
    """``points`` (n x 2, pixels of a photo :func:`turned` ``quarters`` quarter turns, ``width`` x
    ``height`` as turned) in the pixels of the photo as it was."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    for _ in range(quarters % 4):  # one quarter back: (x, y) was (height - y, x) before it
        p = np.column_stack([height - p[:, 1], p[:, 0]])
        width, height = height, width
    return p


def _jpeg_header(data: bytes) -> HeaderInfo:
    n = len(data)
    i = 2
    width = height = None
    sos = None
    while i + 4 <= n:
        if data[i] != 0xFF:
            if width is not None:
                break  # garbage after the frame header: let the size check speak first
            raise ImageError("truncated", "corrupt JPEG: marker expected")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker == 0xD9:
            break
        seglen = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if seglen < 2:
            raise ImageError("truncated", "corrupt JPEG: bad segment length")
        if marker in _JPEG_SOF:
            if i + 9 > n:
                break
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
        if marker == 0xDA:
            sos = i
            break
        i += 2 + seglen
    if width is None or height is None:
        raise ImageError("truncated", "JPEG without a frame header (cut short or corrupt)")
    complete = sos is not None and data.find(b"\xff\xd9", sos) >= 0
    return HeaderInfo("jpeg", int(width), int(height), complete)


def _png_header(data: bytes) -> HeaderInfo:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise ImageError("truncated", "PNG without an IHDR header")
    width, height = struct.unpack(">II", data[16:24])
    bit_depth, colour_type = data[24], data[25]
    channels = _PNG_CHANNELS.get(colour_type, 4)
    per_pixel = channels * (2 if bit_depth == 16 else 1)
    return HeaderInfo("png", int(width), int(height), b"IEND" in data[-64:], per_pixel)


def _webp_header(data: bytes) -> HeaderInfo:
    if len(data) < 30:
        raise ImageError("truncated", "WebP header cut short")
    chunk = data[12:16]
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        w, h = w & 0x3FFF, h & 0x3FFF
    elif chunk == b"VP8L":
        b = data[21:25]
        bits = int.from_bytes(b, "little")
        w = (bits & 0x3FFF) + 1
        h = ((bits >> 14) & 0x3FFF) + 1
    elif chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
    else:
        raise ImageError("unsupported_format", "unknown WebP variant")
    riff_len = struct.unpack("<I", data[4:8])[0]
    return HeaderInfo("webp", w, h, len(data) >= riff_len + 8)


def _bmp_header(data: bytes) -> HeaderInfo:
    if len(data) < 26:
        raise ImageError("truncated", "BMP header cut short")
    hsize = struct.unpack("<I", data[14:18])[0]
    if hsize == 12:
        w, h = struct.unpack("<HH", data[18:22])
    else:
        w, h = struct.unpack("<ii", data[18:26])
    size = struct.unpack("<I", data[2:6])[0]
    return HeaderInfo("bmp", abs(int(w)), abs(int(h)), len(data) >= size)


def probe(data: bytes) -> HeaderInfo:
    """Format and stored size from the header; raises :class:`ImageError` for non-images."""
    if not data:
        raise ImageError("empty_file", "the file is empty")
    if data[:3] == b"\xff\xd8\xff":
        info = _jpeg_header(data)
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        info = _png_header(data)
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        info = _webp_header(data)
    elif data[:2] == b"BM":
        info = _bmp_header(data)
    elif (
        data[:6] in (b"GIF87a", b"GIF89a")
        or data[:4] in (b"II*\x00", b"MM\x00*")
        or data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypavif")
    ):
        raise ImageError("unsupported_format", "GIF/TIFF/HEIC/AVIF are not read; send a JPEG or PNG photo")
    else:
        raise ImageError("not_an_image", "the data is not a JPEG, PNG, WebP or BMP image")
    check_size(info.width, info.height, info.bytes_per_pixel)
    return info


def check_size(width: int, height: int, bytes_per_pixel: int = 3) -> None:
    """Refuse a size no photo has, or one whose decoding would pass :data:`MAX_DECODE_BYTES`."""
    if width <= 0 or height <= 0:
        raise ImageError("truncated", f"invalid image size {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise ImageError(
            "too_large",
            f"image is {width}x{height} pixels; the limit is {MAX_PIXELS // 1_000_000} megapixels "
            f"and {MAX_SIDE} pixels a side",
        )
    decoded = width * height * max(3, bytes_per_pixel)
    if decoded > MAX_DECODE_BYTES:
        raise ImageError(
            "too_large",
            f"image is {width}x{height} pixels of {bytes_per_pixel} bytes: decoding it takes {decoded // 1_000_000} MB, "
            f"over the {MAX_DECODE_BYTES // 1_000_000} MB limit; send an ordinary 8-bit JPEG or PNG photo",
        )
    if min(width, height) < MIN_SIDE:
        raise ImageError("too_small", f"image is only {width}x{height} pixels")


def load(data: bytes, *, work_max: int = WORK_MAX) -> Photo:
    """Decode ``data`` into a working-size :class:`Photo`. Raises :class:`ImageError`."""
    import cv2

    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ImageError("not_an_image", "image data must be bytes")
    info = probe(data)
    if info.format in ("jpeg", "png") and not info.complete:
        raise ImageError("truncated", f"the {info.format.upper()} file is cut short (no end marker)")
    long_side = max(info.width, info.height)
    # the working size: the largest JPEG reduction that keeps WORK_MIN (shrunk to work_max); the
    # decode is one step finer unless that reduction is already larger than the working size
    work_factor = 1
    if info.format == "jpeg":
        work_factor = next((f for f in (8, 4, 2) if long_side / f >= WORK_MIN), 1)
    decode_factor = work_factor if long_side / work_factor > work_max else max(1, work_factor // 2)
    flag = {
        1: cv2.IMREAD_COLOR,
        2: cv2.IMREAD_REDUCED_COLOR_2,
        4: cv2.IMREAD_REDUCED_COLOR_4,
        8: cv2.IMREAD_REDUCED_COLOR_8,
    }[decode_factor]
    buf = np.frombuffer(data, np.uint8)
    try:
        img = cv2.imdecode(buf, flag)
    except cv2.error as exc:  # pragma: no cover - depends on codec build
        raise ImageError("truncated", f"the image could not be decoded: {exc}") from None
    if img is None or img.size == 0:
        raise ImageError("truncated", f"the {info.format.upper()} image could not be decoded (corrupt data)")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.dtype != np.uint8:
        img = (img / 257).astype(np.uint8) if img.dtype == np.uint16 else img.astype(np.uint8)
    h, w = img.shape[:2]
    # Full-resolution oriented size: the stored size, swapped when EXIF rotated by 90 degrees.
    W, H = info.width, info.height
    if W != H and (abs(w / h - H / W) < abs(w / h - W / H)):
        W, H = H, W
    detail = _shrunk(img, DETAIL_MAX)
    work = _shrunk(detail, min(work_max, -(-max(h, w) * decode_factor // work_factor)))
    h, w = work.shape[:2]
    kept = detail if detail.shape[0] > h else None
    lut = exposed(work)
    if lut is not None:
        work = cv2.LUT(work, lut)
        kept = None if kept is None else cv2.LUT(kept, lut)
    if noise_level(work) > NOISY_ABOVE:  # (the detail image too: it is the same photo, larger)
        work, kept = smoothed(work), None if kept is None else smoothed(kept)
    return Photo(np.ascontiguousarray(work), W, H, W / w, H / h, info.format, kept)


def exposed(img: np.ndarray) -> np.ndarray | None:
    """The look-up table (256 levels) that brightens ``img`` (BGR uint8) when it was taken
    underexposed: its :data:`BRIGHT_PERCENTILE` grey level under :data:`DIM_BELOW`, scaled to
    :data:`BRIGHT_TARGET` (by at most :data:`MAX_GAIN`); ``None`` for a photo exposed well enough,
    which is left as it is."""
    import cv2

    step = max(1, max(img.shape[:2]) // 400)  # (every step-th pixel tells the levels as well)
    grey = cv2.cvtColor(np.ascontiguousarray(img[::step, ::step]), cv2.COLOR_BGR2GRAY)
    counts = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    bright = int(np.searchsorted(counts, BRIGHT_PERCENTILE / 100 * counts[-1]))
    if bright >= DIM_BELOW:
        return None
    gain = min(MAX_GAIN, BRIGHT_TARGET / max(bright, 1))
    return np.clip(np.arange(256) * gain + 0.5, 0, 255).astype(np.uint8)


def noise_level(img: np.ndarray) -> float:
    """How grainy ``img`` (BGR uint8) is: the standard deviation (grey levels) of its grey image's
    noise (noise of ``s`` added to each colour channel on its own comes to 0.67 ``s`` there), measured
    on its flattest pixels (:data:`FLAT_PERCENTILE`) in a grid of patches (:data:`NOISE_PATCHES`,
    stacked into one image, each patch's 4-pixel rim left out), as Immerkaer's Laplacian difference
    sees it (:data:`_NOISE_KERNEL`; the median of its size, which the few edges left among the flat
    pixels do not move)."""
    import cv2

    h, w = img.shape[:2]
    (rows, cols), (ph, pw) = NOISE_PATCHES, NOISE_PATCH
    ph, pw = min(ph, h), min(pw, w)
    if ph <= 8 or pw <= 8:
        return 0.0
    tops = sorted(set(np.linspace(0, h - ph, rows).astype(int).tolist()))
    lefts = sorted(set(np.linspace(0, w - pw, cols).astype(int).tolist()))
    stack = np.concatenate([img[t : t + ph, x : x + pw] for t in tops for x in lefts])
    g = cv2.cvtColor(stack, cv2.COLOR_BGR2GRAY).astype(np.float32)
    smooth = cv2.blur(g, (7, 7))
    sides = np.abs(cv2.Sobel(smooth, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(smooth, cv2.CV_32F, 0, 1))
    lap = np.abs(cv2.filter2D(g, -1, _NOISE_KERNEL))
    inner = np.zeros((ph, pw), bool)
    inner[4:-4, 4:-4] = True
    inner = np.tile(inner, (len(tops) * len(lefts), 1))
    responses, gradients = lap[inner], sides[inner]
    flat = gradients <= np.percentile(gradients[::3], FLAT_PERCENTILE)  # (a third tells the percentile)
    return float(np.median(responses[flat]) * 1.4826 / 6)  # (the median of |x| is 0.6745 s)


def smoothed(img: np.ndarray) -> np.ndarray:
    """``img`` blurred a little (:data:`SMOOTH_SIGMA`): :func:`load` does this to a photo whose
    working image's grain comes to more than :data:`NOISY_ABOVE` (:func:`noise_level`), and to its
    detail image with it.

    Measured on the 24 labelled real photos given Gaussian noise of 17 and 24 grey levels (before ->
    after, missed / extra tiles): 53 / 11 -> 2 / 2 and 122 / 10 -> 2 / 2 (the photos themselves: 3 /
    2); on the 7 photos of sets no model saw (their tiles a third as wide), noise of 17: 60 / 26 ->
    17 / 2 (themselves: 6 / 2; noise of 12, 17 / 6 -> 18 / 3). Blurring every photo alike would cost
    those 7 photos 8 tiles: small tiles need their sharp strokes, so a photo without grain is left
    as it is (the benchmark's table (c9))."""
    import cv2

    return np.ascontiguousarray(cv2.GaussianBlur(img, (0, 0), SMOOTH_SIGMA))


def _shrunk(img: np.ndarray, long_side: int) -> np.ndarray:
    """``img`` shrunk (area interpolation) so that its long side is at most ``long_side``."""
    import cv2

    h, w = img.shape[:2]
    if max(h, w) <= long_side:
        return img
    s = long_side / max(h, w)
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
