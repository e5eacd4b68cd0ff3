"""Real background photos (rooms, desks, tables, wood, cloth, paper, stones, plants) for synthetic scenes.

Synthetic table photos drawn only on procedural surfaces teach a model that everything that is not
felt or wood grain is a tile. Real photos behind and around the tiles teach it what a desk, a
keyboard, a sheet of paper, a cup or a patterned cloth looks like. The photos come from packages the
registries carry, fetched by the training code itself and never committed:

* Debian wallpaper packages (``apt-get download`` + ``dpkg -x``): only the files listed in
  :data:`CATALOGUE`, each a photo or texture whose licence (read from the package's
  ``debian/copyright``) is free; the copyright file is kept next to the images.
* scikit-image's bundled sample images (``skimage.data``; the ``[train]`` extra installs it).

:func:`ensure_backgrounds` builds the cache ``training/.cache/backgrounds/`` once (images scaled to at
most :data:`MAX_SIDE` pixels, JPEG, with ``manifest.json`` naming each image's package, file, version
and licence) and afterwards only reads it, but for a source it lacks, which it fetches then. :func:`iter_backgrounds` yields random crops of them (BGR
uint8), each with its :class:`Background`, deterministically for a seed. :func:`sources_metadata`
lists the sources and licences for a model's metadata.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

CACHE_DIR = Path(__file__).resolve().parent / ".cache" / "backgrounds"
MANIFEST = "manifest.json"
CACHE_VERSION = 1
MAX_SIDE = 1600

#: licences under which an image may be used to train a model we ship
FREE_LICENCES = frozenset(
    {"GPL-2+", "CC-BY-SA-3.0", "CC-BY-SA-4.0", "CC-BY-4.0", "CC-BY-2.0", "CC0-1.0", "public-domain", "BSD-3-Clause"}
)

_PLASMA = "usr/share/wallpapers/{}/contents/images/*.jpg"

#: Debian package -> [(path or glob inside the package, licence per its debian/copyright, what it shows)]
CATALOGUE: dict[str, list[tuple[str, str, str]]] = {
    "plasma-workspace-wallpapers": [
        (_PLASMA.format(name), "GPL-2+", what)
        for name, what in [
            ("ColorfulCups", "cups on a table"),
            ("Autumn", "leaves"),
            ("BytheWater", "lake shore"),
            ("ColdRipple", "water"),
            ("DarkestHour", "dark landscape"),
            ("EveningGlow", "evening sky"),
            ("FallenLeaf", "leaf on ground"),
            ("Grey", "grey texture"),
            ("Kite", "kite in the sky"),
            ("OneStandsOut", "plants"),
            ("PastelHills", "hills"),
            ("Path", "forest path"),
            ("SafeLanding", "landscape"),
        ]
    ],
    "mate-backgrounds": [
        (f"usr/share/backgrounds/mate/{path}", "GPL-2+", what)
        for path, what in [
            ("nature/Wood.jpg", "wood"),
            ("nature/Blinds.jpg", "window blinds"),
            ("nature/RainDrops.jpg", "rain drops"),
            ("nature/Aqua.jpg", "water"),
            ("nature/Dune.jpg", "sand"),
            ("nature/Storm.jpg", "sky"),
            ("nature/GreenMeadow.jpg", "grass"),
            ("nature/FreshFlower.jpg", "flower"),
            ("nature/TwoWings.jpg", "insect"),
            ("nature/LadyBird.jpg", "ladybird on a leaf"),
            ("nature/Garden.jpg", "garden"),
            ("nature/YellowFlower.jpg", "flower"),
            ("abstract/Elephants.jpg", "painting"),
            ("desktop/GreenTraditional.jpg", "green texture"),
        ]
    ],
    "gnome-backgrounds": [
        # debian/copyright licenses the package's artwork under GPL-2+ (images by Jakub Steiner et al.)
        ("usr/share/backgrounds/gnome/wood-l.webp", "GPL-2+", "wood"),
        ("usr/share/backgrounds/gnome/wood-d.webp", "GPL-2+", "dark wood"),
    ],
    "ukui-wallpapers": [
        (f"usr/share/backgrounds/{name}", "CC-BY-SA-3.0", what)
        for name, what in [
            ("the-mouse.jpg", "computer mouse"),
            ("rhythm.jpg", "photo"),
            ("string.jpg", "photo"),
            ("firstgeneration.jpg", "photo"),
            ("2004default.jpg", "photo"),
            ("calla.png", "flower"),
            ("city.png", "city"),
            ("desert.png", "desert"),
            ("goldfish.png", "goldfish"),
            ("rollpaper.png", "paper"),
        ]
    ],
    "lomiri-wallpapers": [("usr/share/backgrounds/warty-final-ubuntu.png", "CC-BY-SA-3.0", "texture")],
}

#: scikit-image sample images (``skimage.data.<name>()``): licences as skimage/data/README.txt states
SKIMAGE: list[tuple[str, str, str]] = [
    ("brick", "CC0-1.0", "brick wall"),
    ("grass", "CC0-1.0", "grass"),
    ("gravel", "CC0-1.0", "gravel"),
    ("coffee", "CC0-1.0", "coffee cup on a table"),
    ("chelsea", "CC0-1.0", "cat"),
    ("astronaut", "public-domain", "person"),
    ("rocket", "public-domain", "rocket"),
    ("camera", "CC0-1.0", "man with a camera"),
    ("page", "BSD-3-Clause", "printed page"),
    ("text", "public-domain", "text"),
    ("coins", "public-domain", "coins"),
]


@dataclass(frozen=True)
class Background:
    """One cached background image: ``file`` (relative to the cache), the ``package`` it came from
    (Debian package or ``scikit-image``) and its ``version``, its ``source`` path or name there, its
    ``licence`` and what it shows."""

    file: str
    package: str
    version: str
    source: str
    licence: str
    shows: str


def _warn(msg: str) -> None:
    print(f"[backgrounds] {msg}", file=sys.stderr)


def load_manifest(folder: Path = CACHE_DIR) -> list[Background]:
    """The backgrounds listed in ``folder``'s manifest whose image exists and whose licence is free,
    sorted by file name; empty when there is no manifest (or it is from another cache version)."""
    path = Path(folder) / MANIFEST
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    if data.get("version") != CACHE_VERSION:
        return []
    out = [Background(**e) for e in data.get("images", [])]
    return sorted(
        (b for b in out if b.licence in FREE_LICENCES and (Path(folder) / b.file).exists()), key=lambda b: b.file
    )


def _save(img: np.ndarray, folder: Path, name: str) -> str:
    """``img`` scaled to at most :data:`MAX_SIDE` and written as JPEG under ``folder/images``."""
    s = MAX_SIDE / max(img.shape[:2])
    if s < 1:
        img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    rel = f"images/{name}.jpg"
    (folder / "images").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / rel), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return rel


def _pick(root: Path, pattern: str) -> Path | None:
    """The file ``pattern`` names under ``root``; for a glob, the largest image at most 2560 px wide."""
    if "*" not in pattern:
        p = root / pattern
        return p if p.exists() else None
    found = sorted(root.glob(pattern))
    widths = [(int(p.stem.split("x")[0]) if p.stem.split("x")[0].isdigit() else 0, p) for p in found]
    fitting = [wp for wp in widths if wp[0] <= 2560] or widths
    return max(fitting, key=lambda wp: wp[0])[1] if fitting else None


def _fetch_debian(package: str, entries: list[tuple[str, str, str]], folder: Path) -> list[Background]:
    """Download ``package`` (apt-get download), unpack it (dpkg -x) and cache the ``entries``."""
    out: list[Background] = []
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["apt-get", "download", package], cwd=tmp, capture_output=True, text=True)
        debs = list(Path(tmp).glob(f"{package}_*.deb"))
        if r.returncode != 0 or not debs:
            _warn(f"cannot download {package}: {r.stderr.strip()[-200:]}")
            return out
        version = debs[0].stem.split("_")[1].replace("%3a", ":")
        root = Path(tmp) / "x"
        subprocess.run(["dpkg", "-x", str(debs[0]), str(root)], check=True)
        copyright_file = root / "usr/share/doc" / package / "copyright"
        if copyright_file.exists():
            (folder / "licences").mkdir(parents=True, exist_ok=True)
            shutil.copy(copyright_file, folder / "licences" / f"{package}.copyright")
        for pattern, licence, shows in entries:
            src = _pick(root, pattern)
            img = cv2.imread(str(src), cv2.IMREAD_COLOR) if src else None
            if img is None:
                _warn(f"{package}: {pattern} missing or unreadable")
                continue
            rel_src = str(src.relative_to(root)) if src else pattern
            name = f"{package}__{Path(rel_src).parent.parent.parent.name if '*' in pattern else Path(rel_src).stem}"
            out.append(Background(_save(img, folder, name), package, version, rel_src, licence, shows))
    return out


def _fetch_skimage(folder: Path) -> list[Background]:
    """Cache scikit-image's sample images listed in :data:`SKIMAGE`."""
    try:
        import skimage
        from skimage import data
    except ImportError:
        _warn("scikit-image is not installed (pip install scikit-image); its sample images are skipped")
        return []
    out = []
    for name, licence, shows in SKIMAGE:
        img = np.asarray(getattr(data, name)())
        if img.dtype != np.uint8:
            img = (img * 255).astype(np.uint8) if img.max() <= 1 else img.astype(np.uint8)
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR) if img.ndim == 2 else cv2.cvtColor(img[:, :, :3], cv2.COLOR_RGB2BGR)
        rel = _save(img, folder, f"scikit-image__{name}")
        out.append(
            Background(
                rel, SKIMAGE_SOURCE, str(getattr(skimage, "__version__", "")), f"skimage.data.{name}", licence, shows
            )
        )
    return out


#: the source of :data:`SKIMAGE`'s images, as a :class:`Background` names its package
SKIMAGE_SOURCE = "scikit-image"


def missing_sources(have: list[Background]) -> list[str]:
    """The sources (Debian packages of :data:`CATALOGUE`, and :data:`SKIMAGE_SOURCE`) none of whose
    images ``have`` holds."""
    held = {b.package for b in have}
    return [source for source in [*CATALOGUE, SKIMAGE_SOURCE] if source not in held]


def ensure_backgrounds(folder: Path = CACHE_DIR, fetch: bool = True) -> list[Background]:
    """The cached backgrounds; when ``fetch`` is true, the sources the cache lacks (all of them when
    it is empty) are fetched into it first (needs ``apt-get`` with network access and scikit-image).
    A source that cannot be fetched is skipped with a warning, so the list may be short or empty.

    A cache built where a source could not be fetched (scikit-image not installed yet, a package
    not reachable) would otherwise stay short for good, and the photos drawn on it (the benchmark's
    phone-like tables, the classifier's negatives) would differ from a full cache's on another
    machine: this checkout's lacked the scikit-image samples, and (c12) racks read 96.0 % on it and
    96.5 % on a full one, with the same code (``docs/vision.md``, session 57)."""
    folder = Path(folder)
    have = load_manifest(folder)
    missing = missing_sources(have) if fetch else []
    if not missing:
        return have
    folder.mkdir(parents=True, exist_ok=True)
    found: list[Background] = []
    for package, entries in CATALOGUE.items():
        if package in missing:
            found += _fetch_debian(package, entries, folder)
    if SKIMAGE_SOURCE in missing:
        found += _fetch_skimage(folder)
    if found or not have:
        (folder / MANIFEST).write_text(
            json.dumps({"version": CACHE_VERSION, "images": [asdict(b) for b in [*have, *found]]}, indent=1)
        )
    still = missing_sources([*have, *found])
    if still and have:
        _warn(f"the cache lacks {', '.join(still)}: photos drawn on it differ from a full cache's")
    return load_manifest(folder)


def random_crop(img: np.ndarray, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A ``size`` (width, height) view of ``img``: a random region (25-100% of the largest one with
    that aspect ratio), scaled, sometimes mirrored or turned by 90 degrees."""
    W, H = size
    if rng.random() < 0.5:
        img = np.ascontiguousarray(np.rot90(img, int(rng.integers(1, 4))))
    if rng.random() < 0.5:
        img = img[:, ::-1]
    h, w = img.shape[:2]
    k = min(w / W, h / H) * float(np.sqrt(rng.uniform(0.25, 1.0)))
    cw, ch = max(2, int(W * k)), max(2, int(H * k))
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    crop = np.ascontiguousarray(img[y0 : y0 + ch, x0 : x0 + cw])
    interp = cv2.INTER_AREA if cw > W else cv2.INTER_LINEAR
    return cv2.resize(crop, (W, H), interpolation=interp)


def iter_backgrounds(
    seed: int, size: tuple[int, int], backgrounds: list[Background] | None = None, folder: Path = CACHE_DIR
) -> Iterator[tuple[np.ndarray, Background]]:
    """Endless random crops (BGR uint8, ``size`` = (width, height)) of the cached backgrounds, each with
    its :class:`Background`; the same ``seed`` gives the same sequence. Yields nothing when there are no
    backgrounds (``backgrounds`` defaults to :func:`load_manifest` of ``folder``; nothing is fetched)."""
    items = load_manifest(folder) if backgrounds is None else list(backgrounds)
    if not items:
        return
    rng = np.random.default_rng(seed)
    while True:
        b = items[int(rng.integers(len(items)))]
        yield random_crop(read_background(b, folder), size, rng), b


_IMAGES: dict[str, np.ndarray] = {}


def read_background(b: Background, folder: Path = CACHE_DIR) -> np.ndarray:
    """The cached image of ``b`` (BGR uint8), kept in memory after the first read."""
    key = str(Path(folder) / b.file)
    if key not in _IMAGES:
        img = cv2.imread(key, cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"background image {key} is missing; delete {folder} to fetch again")
        _IMAGES[key] = img
    return _IMAGES[key]


def sources_metadata(backgrounds: list[Background]) -> list[dict]:
    """Each background's package, version, source file and licence, for a model's metadata."""
    return [{"package": b.package, "version": b.version, "source": b.source, "licence": b.licence} for b in backgrounds]


if __name__ == "__main__":  # pragma: no cover
    got = ensure_backgrounds()
    for b in got:
        print(f"{b.package:30} {b.licence:14} {b.source}")
    print(f"{len(got)} background images in {CACHE_DIR}")
