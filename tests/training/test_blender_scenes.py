"""The rendered photos of (c15) (:mod:`training.blender_scenes`): what a scene holds, how it is lit
and photographed, and how its render's labels become a scored scene. Rendering itself needs
Blender's module (``bpy``), which the benchmark installs on first use; the one test that renders is
skipped without it."""

from __future__ import annotations

import math
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from training import blender_scenes as bs

CODES = (
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)] + [f"{n}f" for n in range(1, 9)]
)


@pytest.mark.parametrize("kind", bs.KINDS)
@pytest.mark.parametrize("seed", range(40))
def test_a_scene_holds_no_more_copies_of_a_face_than_a_set(kind, seed):
    tiles, _ = bs._layout(np.random.default_rng(seed), kind, CODES)
    counts = Counter(t["code"] for t in tiles if t["code"] != "back")
    assert all(n <= (bs.COPIES_OF_A_FLOWER if c.endswith("f") else bs.COPIES) for c, n in counts.items())


@pytest.mark.parametrize("seed", range(10))
def test_each_kind_lays_a_whole_hand(seed):
    """A hand of 14: lying face up (with discards and the wall of face-down tiles beyond it), at a
    diagonal of 20-45 degrees, or standing with its melds lying in front."""
    hand, _ = bs._layout(np.random.default_rng(seed), "hand", CODES)
    lying = [t for t in hand if t["pose"] == "flat"]
    assert len(lying) >= 14 + 4 and all(t["pose"] == "down" for t in hand if t["code"] == "back")
    assert max(t["y"] for t in lying[:14]) < min(t["y"] for t in lying[14:])  # (the discards beyond)
    diagonal, _ = bs._layout(np.random.default_rng(seed), "diagonal", CODES)
    assert len(diagonal) == 14 and all(20 <= abs(t["turn"]) <= 45 for t in diagonal)
    standing, _ = bs._layout(np.random.default_rng(seed), "standing", CODES)
    up = [t for t in standing if t["pose"] == "standing"]
    assert len(standing) == 14 and len(up) in (14, 11, 8)
    assert all(t["y"] < 0 for t in standing if t["pose"] == "flat")  # (melds in front, nearer the camera)


def test_the_exposure_brings_a_white_face_to_a_phones_level():
    """An even sky alone, and a lamp straight above (a Lambertian emitter's irradiance P / (pi r^2)):
    the exposure scales a white face's level to :data:`training.blender_scenes.FACE_LEVEL`; a lamp
    off to one side lights the table less than one straight above."""
    assert bs._exposure(0.5, []) == pytest.approx(math.log2(bs.FACE_LEVEL / 0.4))
    above = bs._exposure(0.0, [([0.0, 0.0, 2.0], 40.0)])
    assert above == pytest.approx(math.log2(bs.FACE_LEVEL / (0.8 * 40.0 / (math.pi**2 * 4.0))))
    assert bs._exposure(0.0, [([2.0, 0.0, 2.0], 80.0)]) > above


def test_a_scene_is_photographed_from_above_the_table_looking_at_the_hand(tmp_path):
    face = tmp_path / "1m-0.png"
    faces = {c: [str(face)] for c in CODES}
    body = np.array([200.0, 210.0, 215.0])
    for seed in range(20):
        spec = bs.scene_spec(np.random.default_rng(seed), bs.KINDS[seed % 3], faces, body, "table.png", (1600, 1200))
        cam = spec["camera"]
        tilt = math.degrees(
            math.atan2(math.hypot(*np.subtract(cam["location"][:2], cam["target"][:2])), cam["location"][2])
        )
        assert cam["location"][2] > 0.1 and 0 <= tilt <= 61
        assert all(light["location"][2] > 0.4 for light in spec["lights"])
        assert all(t.get("face") == str(face) for t in spec["tiles"] if t["code"] != "back")
        assert np.isfinite(spec["exposure"]) and 0 < spec["style"]["body"][0] < 1


def test_a_renders_labels_become_a_scored_scene():
    """Faces in the frame are the tiles; a face cut by the frame and the wall's face-down tiles are
    partly shown (neither reading one is a false tile nor missing one a miss)."""
    quad = [[10.0, 10.0], [40.0, 10.0], [40.0, 50.0], [10.0, 50.0]]
    labels = {
        "tiles": [
            {"code": "1m", "quad": quad, "pose": "flat", "in_frame": True},
            {"code": "2p", "quad": quad, "pose": "standing", "in_frame": True},
            {"code": "3s", "quad": quad, "pose": "flat", "in_frame": False},
            {"code": "back", "quad": quad, "pose": "down", "in_frame": True},
        ]
    }
    sc = bs._scene_of(np.zeros((60, 60, 3), np.uint8), labels)
    assert sc.codes == ["1m", "2p"] and len(sc.partial) == 2
    assert not any(t["rotated"] for t in sc.tiles)


def _has_bpy() -> bool:
    py = bs.VENV / "bin" / "python"
    return py.is_file() and subprocess.run([str(py), "-c", "import bpy"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _has_bpy(), reason="Blender's module (bpy) is not installed in training/.cache/blender-venv")
def test_a_small_scene_renders_with_its_faces_where_the_labels_say(tmp_path):
    """Three tiles lying face up, rendered small: each face's quad lies on a bright patch (the face)
    on a dark table, in the frame."""
    import cv2

    white = tmp_path / "face.png"
    cv2.imwrite(str(white), np.full((40, 30, 3), 240, np.uint8))
    spec = {
        "size": [320, 240],
        "samples": 4,
        "exposure": 0.0,
        "view_transform": "Standard",
        "world": {"colour": [1.0, 1.0, 1.0], "strength": 0.8},
        "table": {"size": 1.0, "colour": [0.02, 0.02, 0.02], "roughness": 0.9},
        "style": {
            "w": 0.025,
            "h": 0.033,
            "d": 0.018,
            "bevel": 0.1,
            "inset": 0.05,
            "back_share": 0.4,
            "roughness": 0.3,
            "coat": 0.5,
            "body": [0.8, 0.8, 0.75],
            "back": [0.02, 0.25, 0.06],
        },
        "tiles": [
            {"code": "1m", "x": 0.03 * (i - 1), "y": 0.0, "turn": 0.0, "pose": "flat", "face": str(white)}
            for i in range(3)
        ],
        "lights": [],
        "camera": {"lens": 26.0, "location": [0.0, 0.0, 0.25], "target": [0.0, 0.0, 0.0], "roll": 0.0},
    }
    img, labels = bs.render_scene(spec, bs.VENV / "bin" / "python", tmp_path / "renders")
    assert img.shape == (240, 320, 3) and len(labels["tiles"]) == 3
    for t in labels["tiles"]:
        q = np.array(t["quad"])
        assert t["in_frame"]
        cx, cy = q.mean(0).astype(int)
        assert img[cy, cx].mean() > 150 > img[5, 5].mean()
    assert sorted(Path(tmp_path / "renders").glob("*.png"))
