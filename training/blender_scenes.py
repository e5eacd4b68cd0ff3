"""Photos of tiles rendered with a physically based renderer (Blender's Cycles, from PyPI's ``bpy``).

The other synthetic photos paste flat faces onto a photo of a table and draw the tile's body as a
band below it. A real tile is a solid: bevelled edges that catch the light, a glossy face that
reflects the lamp, a thick body whose sides show from a seat, two layers (an ivory face over a
coloured back), shadows it casts on the table and on its neighbours. Here each tile is such a solid
(:mod:`training.blender_render`), its face a real crop of one of the two sets no model learned from
(:func:`training.real_tile_scenes.heldout_faces`), on a table that carries one of the held-out
background photos (:func:`training.negatives.is_heldout_background`), under a ceiling lamp and a
window, photographed by a phone-like camera (26 mm, the main camera's focal length) from straight
above or from a seat.

Kinds (:data:`KINDS`): ``hand``, a winning hand lying face up in a row, its melds set apart, with
the wall (face-down tiles, two high) and discards beyond it; ``standing``, a concealed hand standing
on the table facing the camera, melds lying in front; ``diagonal``, a hand whose row lies at 20-45
degrees to the photo's axes.

Blender's module is large (about 500 MB) and only the benchmark needs it, so it lives in a virtual
environment of its own (:func:`ensure_blender`: ``training/.cache/blender-venv``, made on first use
from PyPI). The renders are cached by their spec (``training/.cache/blender``): the same seed
renders once. ``python -m training.blender_scenes OUT_DIR [--kind K] [--n N]`` writes photos and
their labels for a look by eye.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from training.scenes import Scene

CACHE = Path(__file__).resolve().parent / ".cache"
VENV = CACHE / "blender-venv"
RENDERS = CACHE / "blender"
#: Blender's Python module: the version whose wheel runs on this project's Python (3.11)
BPY = "bpy==4.2.0"
RENDER_SCRIPT = Path(__file__).resolve().parent / "blender_render.py"
#: what a render of a spec looks like: a change to :mod:`training.blender_render` that changes the
#: picture takes a new version, and the cached renders are made again
RENDER_VERSION = "2"
KINDS = ("hand", "standing", "diagonal")
#: a Chinese set's tile, metres: 25 x 33 x 18 mm (a face 1.32 times as high as wide)
TILE = (0.025, 0.033, 0.018)
#: the set's back colours (linear RGB): green, blue, yellow, pink, orange, ivory
BACKS = [
    (0.02, 0.25, 0.06),
    (0.02, 0.08, 0.35),
    (0.6, 0.45, 0.03),
    (0.6, 0.15, 0.2),
    (0.7, 0.22, 0.02),
    (0.75, 0.7, 0.55),
]
SAMPLES = 24
#: a set's copies of a playing face, and of a flower
COPIES, COPIES_OF_A_FLOWER = 4, 1
SIZES = [(1600, 1200), (1200, 1600), (2000, 1500)]


def ensure_blender(venv: Path = VENV) -> Path:
    """The Python interpreter of a virtual environment with Blender's module, made on first use."""
    py = venv / "bin" / "python"
    if py.is_file() and subprocess.run([str(py), "-c", "import bpy"], capture_output=True).returncode == 0:
        return py
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", BPY], check=True)
    return py


def _linear(bgr: np.ndarray) -> tuple[float, float, float]:
    """An sRGB colour (BGR, 0-255) in linear RGB, as Blender's materials take it."""
    c = np.asarray(bgr, np.float64)[::-1] / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin[0]), float(lin[1]), float(lin[2])


def _border_colour(face: np.ndarray) -> np.ndarray:
    """The median colour of a face crop's outer band: the tile's own ivory or white."""
    h, w = face.shape[:2]
    k = max(1, min(h, w) // 12)
    band = np.concatenate(
        [face[:k].reshape(-1, 3), face[-k:].reshape(-1, 3), face[:, :k].reshape(-1, 3), face[:, -k:].reshape(-1, 3)]
    )
    return np.median(band, axis=0)


def _hand_codes(rng: np.random.Generator, codes: list[str], left: Counter) -> list[str]:
    """14 faces for a hand, taken from ``left`` (the set's copies still unused, a code's count each):
    four melds, each a run of a suit or a pung, and a pair, none of a flower."""
    out: list[str] = []
    while len(out) < 12:
        if rng.random() < 0.6:
            s = "mps"[int(rng.integers(3))]
            n = int(rng.integers(1, 8))
            meld = [f"{n + k}{s}" for k in range(3)]
        else:
            pool = [c for c in codes if not c.endswith("f")]
            meld = [pool[int(rng.integers(len(pool)))]] * 3
        if all(left[c] >= meld.count(c) for c in meld):
            out += meld
            left.subtract(meld)
    pairs = [c for c in codes if not c.endswith("f") and left[c] >= 2]
    pair = pairs[int(rng.integers(len(pairs)))]
    left.subtract([pair, pair])
    return out + [pair, pair]


def _drawn(rng: np.random.Generator, codes: list[str], left: Counter) -> str:
    """One face drawn from the set's unused copies ``left`` (a discard)."""
    pool = [c for c in codes if left[c] > 0]
    c = pool[int(rng.integers(len(pool)))]
    left[c] -= 1
    return c


def _layout(rng: np.random.Generator, kind: str, codes: list[str]) -> tuple[list[dict], tuple[float, float]]:
    """The tiles of a scene of ``kind`` (code, x, y, turn in degrees, pose) and the hand's centre."""
    w, h, d = TILE
    gap = 0.0006
    left = Counter({c: COPIES_OF_A_FLOWER if c.endswith("f") else COPIES for c in codes})
    hand = _hand_codes(rng, codes, left)
    tiles: list[dict] = []
    if kind in ("hand", "diagonal"):
        turn = float(rng.uniform(-8, 8)) if kind == "hand" else float(rng.choice([-1, 1]) * rng.uniform(20, 45))
        # melds set apart: the first 3 or 6 tiles
        melds = int(rng.integers(0, 3))
        xs, x = [], 0.0
        for i in range(14):
            if i > 0 and melds and i % 3 == 0 and i <= 3 * melds:
                x += w * float(rng.uniform(0.4, 1.0))
            xs.append(x)
            x += w + gap
        along = np.array(xs) - (xs[-1] + w) / 2 + w / 2
        a = math.radians(turn)
        for c, xi in zip(hand, along):
            tiles.append(
                {"code": c, "x": float(xi * math.cos(a)), "y": float(xi * math.sin(a)), "turn": turn, "pose": "flat"}
            )
        if kind == "hand":
            # beyond the hand: discards in rows of six, then the wall (face down, two high)
            y0 = h * float(rng.uniform(1.6, 2.4))
            for i in range(int(rng.integers(4, 13))):
                c = _drawn(rng, codes, left)
                tiles.append(
                    {
                        "code": c,
                        "x": float((i % 6 - 2.5) * (w + gap) + rng.uniform(-0.002, 0.002)),
                        "y": float(y0 + (i // 6) * (h + gap)),
                        "turn": float(rng.uniform(-4, 4)),
                        "pose": "flat",
                    }
                )
            yw = y0 + 2 * (h + gap) + h * float(rng.uniform(0.8, 1.5))
            for i in range(int(rng.integers(6, 12))):
                for level in (0, 1):
                    tiles.append(
                        {
                            "code": "back",
                            "x": float((i - 5) * (w + gap)),
                            "y": float(yw),
                            "turn": 0.0,
                            "pose": "down",
                            "z": level * d,
                        }
                    )
        return tiles, (0.0, 0.0)
    # standing: the concealed part standing, facing the camera (-y); melds lying in front
    melds = int(rng.integers(0, 3))
    standing = hand[3 * melds :]
    n = len(standing)
    for i, c in enumerate(standing):
        tiles.append({"code": c, "x": float((i - (n - 1) / 2) * (w + gap)), "y": 0.0, "turn": 0.0, "pose": "standing"})
    for i, c in enumerate(hand[: 3 * melds]):
        tiles.append(
            {
                "code": c,
                "x": float((i - (3 * melds - 1) / 2) * (w + gap) + (i // 3) * w * 0.5),
                "y": float(-h * 1.3),
                "turn": 0.0,
                "pose": "flat",
            }
        )
    return tiles, (0.0, -h * 0.4)


#: the linear level a phone's exposure brings a white face to (before the view's tone curve)
FACE_LEVEL = 0.7


def _exposure(sky: float, lights: list[tuple[list[float], float]], albedo: float = 0.8) -> float:
    """The exposure (stops) that brings a white face lying at the table's centre to
    :data:`FACE_LEVEL`, as a phone's metering does: an even sky of ``sky`` gives a level of
    ``albedo * sky``, an area light of power P at distance r, seen at an angle a from straight
    above, ``albedo * P cos(a)**2 / (pi**2 r**2)`` (a small Lambertian emitter facing the centre)."""
    level = albedo * sky
    for loc, power in lights:
        r2 = float(np.dot(loc, loc))
        cos = loc[2] / math.sqrt(r2)
        level += albedo * power * cos * cos / (math.pi**2 * r2)
    return math.log2(FACE_LEVEL / level)


def scene_spec(
    rng: np.random.Generator,
    kind: str,
    faces: dict[str, list[str]],
    body_bgr: np.ndarray,
    table_image: str,
    size: tuple[int, int],
) -> dict:
    """A scene's spec for :mod:`training.blender_render`: ``faces`` maps each code to face image
    files (PNG) of one set, whose tiles' bodies take the colour ``body_bgr`` (:func:`_body_colour`)."""
    codes = sorted(faces)
    tiles, centre = _layout(rng, kind, codes)
    for t in tiles:
        if t["code"] != "back":
            files = faces[t["code"]]
            t["face"] = files[int(rng.integers(len(files)))]
    tilt = float(rng.uniform(0, 12)) if rng.random() < 0.4 else float(rng.uniform(30, 55))
    if kind == "standing":
        tilt = float(rng.uniform(35, 60))
    lens = float(rng.uniform(24, 30))
    half_fov = math.atan(18.0 / lens) if size[0] >= size[1] else math.atan(18.0 / lens * size[0] / size[1])
    span = 0.38  # the hand's length, metres
    fill = float(rng.uniform(0.5, 0.85))
    dist = span / (2 * math.tan(half_fov) * fill)
    side = float(rng.uniform(-0.15, 0.15))
    target = (centre[0] + float(rng.uniform(-0.02, 0.02)), centre[1] + float(rng.uniform(0.0, 0.04)), 0.0)
    off = math.radians(tilt)
    loc = (target[0] + dist * math.sin(off) * side, target[1] - dist * math.sin(off), dist * math.cos(off) + 0.01)
    lamp = [float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.4, 0.8)), float(rng.uniform(1.0, 2.0))]
    window = [
        float(rng.choice([-1, 1]) * rng.uniform(1.0, 2.0)),
        float(rng.uniform(-1, 1)),
        float(rng.uniform(0.5, 1.5)),
    ]
    sky = float(rng.uniform(0.1, 0.35))
    lamp_p = float(rng.uniform(3, 9)) * float(np.dot(lamp, lamp))
    window_p = float(rng.uniform(1, 8)) * float(np.dot(window, window))
    return {
        "size": list(size),
        "samples": SAMPLES,
        "exposure": _exposure(sky, [(lamp, lamp_p), (window, window_p)]) + float(rng.uniform(-0.5, 0.3)),
        "view_transform": "Standard",
        "world": {"colour": [float(x) for x in rng.uniform(0.7, 1.0, 3)], "strength": sky},
        "table": {"size": 1.6, "image": table_image, "roughness": float(rng.uniform(0.4, 0.9))},
        "style": {
            "w": TILE[0],
            "h": TILE[1],
            "d": TILE[2] * float(rng.uniform(0.8, 1.05)),
            "bevel": 0.1,
            "inset": 0.05,
            "back_share": float(rng.uniform(0.3, 0.5)),
            "roughness": float(rng.uniform(0.15, 0.4)),
            "coat": float(rng.uniform(0.2, 1.0)),
            "body": _linear(body_bgr),
            "back": BACKS[int(rng.integers(len(BACKS)))],
        },
        "tiles": tiles,
        "lights": [
            {
                "name": "lamp",
                "location": lamp,
                "size": float(rng.uniform(0.3, 1.2)),
                "energy": lamp_p,
                "colour": [1.0, float(rng.uniform(0.85, 1.0)), float(rng.uniform(0.7, 1.0))],
            },
            {
                "name": "window",
                "location": window,
                "size": float(rng.uniform(0.5, 1.5)),
                "energy": window_p,
                "colour": [float(rng.uniform(0.8, 1.0)), float(rng.uniform(0.9, 1.0)), 1.0],
            },
        ],
        "camera": {"lens": lens, "location": list(loc), "target": list(target), "roll": float(rng.uniform(-6, 6))},
    }


def _face_image(crop: np.ndarray) -> np.ndarray:
    """A face crop (float, as :func:`training.real_tile_scenes.heldout_faces` reads it) as an image."""
    return np.clip(crop, 0, 255).astype(np.uint8)


def _body_colour(faces: dict[str, list[np.ndarray]]) -> np.ndarray:
    """The colour a set's tile bodies take: the border of its first face crop (:func:`_border_colour`)."""
    return _border_colour(_face_image(faces[min(faces)][0]))


def _write_faces(folder: Path, faces: dict[str, list[np.ndarray]]) -> dict[str, list[str]]:
    """Each face crop as a PNG under ``folder`` (once): code -> files."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, list[str]] = {}
    for code, crops in sorted(faces.items()):
        for k, crop in enumerate(crops):
            f = folder / f"{code}-{k}.png"
            if not f.is_file():
                cv2.imwrite(str(f), _face_image(crop))
            out.setdefault(code, []).append(str(f))
    return out


def render_scene(spec: dict, python: Path, cache: Path = RENDERS) -> tuple[np.ndarray, dict]:
    """The rendered image (BGR) and labels of ``spec``, from the cache when it was rendered before."""
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode() + RENDER_VERSION.encode()).hexdigest()[:20]
    cache.mkdir(parents=True, exist_ok=True)
    png, labels = cache / f"{key}.png", cache / f"{key}.json"
    if not (png.is_file() and labels.is_file()):
        spec_file = cache / f"{key}.spec.json"
        spec_file.write_text(json.dumps(spec))
        subprocess.run(
            [str(python), str(RENDER_SCRIPT), str(spec_file), str(png), str(labels)], check=True, capture_output=True
        )
    img = cv2.imread(str(png), cv2.IMREAD_COLOR)
    if img is None:
        raise OSError(f"the render {png} could not be read; delete it to render again")
    return img, json.loads(labels.read_text())


def _phone(img: np.ndarray, rng: np.random.Generator) -> bytes:
    """The render as a phone saves it: a little sensor noise, JPEG 80-92."""
    noisy = img.astype(np.float32) + rng.normal(0, float(rng.uniform(0.5, 2.5)), img.shape).astype(np.float32)
    ok, buf = cv2.imencode(
        ".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 93))]
    )
    return buf.tobytes()


def _scene_of(img: np.ndarray, labels: dict) -> Scene:
    """The labelled :class:`Scene`: faces wholly in the frame are tiles (face-down tiles as ``back``),
        the others partly shown; a standing tile's face is as upright as a lying one's. The wall's
    face-down tiles count as partly shown: reading one is no false tile, missing one no miss (a
    photo of a hand is not asked to count the wall, mostly hidden under its upper tiles)."""
    tiles, partial = [], []
    for t in labels["tiles"]:
        q = [[float(x), float(y)] for x, y in t["quad"]]
        if t["in_frame"] and t["pose"] != "down":
            tiles.append({"code": t["code"], "quad": q, "rotated": False})
        else:
            partial.append(q)
    return Scene(img, tiles, partial)


def blender_scenes(
    kind: str, n: int, data: Path, seed0: int, python: Path | None = None
) -> list[tuple[str, bytes, Scene]]:
    """``n`` fixed rendered scenes of ``kind`` (name, JPEG, scene); none without the held-out crops
    or the background cache."""
    from training import backgrounds
    from training.negatives import background_name, is_heldout_background
    from training.real_tile_scenes import heldout_faces

    faces = heldout_faces(data)
    held = [b for b in backgrounds.load_manifest() if is_heldout_background(background_name(b))]
    if not faces or not held:
        return []
    python = python or ensure_blender()
    face_files = {s: _write_faces(RENDERS / "faces" / f"set{s}", f) for s, f in faces.items()}
    tables = RENDERS / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        one = sorted(face_files)[int(rng.integers(len(face_files)))]
        b = held[int(rng.integers(len(held)))]
        table = tables / f"{background_name(b)}.png"
        if not table.is_file():
            cv2.imwrite(str(table), backgrounds.read_background(b))
        size = SIZES[i % len(SIZES)]
        spec = scene_spec(rng, kind, face_files[one], _body_colour(faces[one]), str(table), size)
        img, labels = render_scene(spec, python)
        out.append((f"{kind}{seed0 + i} set {one}", _phone(img, rng), _scene_of(img, labels)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--kind", choices=KINDS, default="hand")
    p.add_argument("--n", type=int, default=4)
    p.add_argument("--seed", type=int, default=31000)
    p.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "vision-data"
    )
    a = p.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    for name, jpeg, sc in blender_scenes(a.kind, a.n, a.data, a.seed):
        stem = name.split()[0]
        (a.out / f"{stem}.jpg").write_bytes(jpeg)
        (a.out / f"{stem}.json").write_text(json.dumps({"tiles": sc.tiles, "partial": sc.partial}))
        print(stem, len(sc.tiles), "tiles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
