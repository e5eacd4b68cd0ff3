"""``--neighbours``: the classifier's training crops of touching tiles. A tile in a hand's row or a
tray touches the next, and the finder's box of it often strays a few percent onto the next face
(a stroke of that face then reads as one more stroke: ``2m`` as ``3m``). So a share of the crops is
rendered (:func:`training.render.render_tile`) or cut from real crops
(:func:`training.train_classifier.augment_real`) with tiles laid against the face and the box
straying onto one of them."""

from __future__ import annotations

import numpy as np
import pytest

from training import render
from training.train_classifier import CLASSES, _beside, _neighbours, augment_real

BLACK = np.zeros((128, 96, 3), np.uint8)  # an opaque face of its own ground: all ink


def _strips(img: np.ndarray, side: str, share: float = 0.12) -> tuple[float, float]:
    """The crop's mean brightness on ``side``'s edge and on the opposite edge."""
    h, w = img.shape[:2]
    n = max(1, round((w if side in ("left", "right") else h) * share))
    strips = {"left": img[:, :n], "right": img[:, -n:], "above": img[:n], "below": img[-n:]}
    opposite = {"left": "right", "right": "left", "above": "below", "below": "above"}[side]
    return float(strips[side].mean()), float(strips[opposite].mean())


@pytest.mark.parametrize("side", render.SIDES)
def test_a_rendered_crop_strays_onto_the_tile_laid_against_it(side):
    """A blank face with a black-faced tile laid against it: the crop's edge on that side shows the
    black face, the opposite edge does not, on most draws (the box strays 2-10 % towards it)."""
    darker = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        crop = render.render_tile(
            None, rng, (48, 64), face_color=np.full(3, 235, np.float32), neighbours=[(side, BLACK)]
        )
        near, far = _strips(crop, side)
        darker += near < far - 15
    assert darker >= 15


def test_a_tile_alone_renders_as_without_neighbours():
    """No neighbours: the same crop as a call that names none (the draws are render_tile_body's, in
    its order, so earlier training sets render as they did)."""
    a = render.render_tile(None, np.random.default_rng(4), (48, 64))
    b = render.render_tile(None, np.random.default_rng(4), (48, 64), neighbours=())
    assert np.array_equal(a, b)


@pytest.mark.parametrize("side", render.SIDES)
def test_a_neighbour_lies_against_the_face_without_covering_it(side):
    """``_laid_beside``: the neighbour's face starts past the face's edge by the bodies' thickness
    that way and a gap under :data:`training.render.NEIGHBOUR_GAP` of the side across; the face's
    own pixels stay as they were."""
    bg = np.full((400, 400, 3), 128.0, np.float32)
    quad = np.array([[150, 130], [246, 130], [246, 258], [150, 258]], np.float32)
    thickness = (0.05, 0.08, 0.5)
    rng = np.random.default_rng(1)
    other = render.render_tile_body(BLACK, rng, 128, aspect=0.75, light=False, thickness=thickness)
    before = bg[130:258, 150:246].copy()
    render._laid_beside(bg, quad, side, other, thickness, rng)
    assert np.array_equal(bg[130:258, 150:246], before)
    dark = bg.mean(2) < 40
    ys, xs = np.nonzero(dark)
    fw, fh = 96, 128
    body_x, body_y = thickness[0] * fh, thickness[1] * fh
    if side == "right":
        gap = xs.min() - 246
        assert body_x - 1 <= gap <= body_x + render.NEIGHBOUR_GAP[1] * fw + 1
    elif side == "left":
        gap = 150 - xs.max() - 1
        assert 0 <= gap <= body_x + render.NEIGHBOUR_GAP[1] * fw + 1
    elif side == "below":
        gap = ys.min() - 258
        assert body_y - 1 <= gap <= body_y + render.NEIGHBOUR_GAP[1] * fh + 1
    else:
        gap = 130 - ys.max() - 1
        assert 0 <= gap <= body_y + render.NEIGHBOUR_GAP[1] * fh + 1


@pytest.mark.parametrize("side", render.SIDES)
def test_a_real_crop_beside_another_keeps_its_place_and_a_seam(side):
    rng = np.random.default_rng(2)
    img = np.full((128, 96, 3), 230, np.uint8)
    out, at = _beside(img, side, BLACK, rng)
    x, y = int(at[0]), int(at[1])
    assert np.array_equal(out[y : y + 128, x : x + 96], img)
    across = 1 if side in ("left", "right") else 0
    assert out.shape[across] > 2 * img.shape[across] and out.shape[1 - across] == img.shape[1 - across]


@pytest.mark.parametrize("side", render.SIDES)
def test_an_augmented_real_crop_strays_onto_its_neighbour(side):
    darker = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        crop = augment_real(np.full((128, 96, 3), 230, np.uint8), rng, (48, 64), neighbour=(side, BLACK))
        near, far = _strips(crop, side)
        darker += near < far - 15
    assert darker >= 15


def test_neighbours_lie_on_distinct_sides_of_one_row_or_column():
    faces = {code: {"style": [BLACK]} for code in CLASSES}
    seen = set()
    for seed in range(60):
        got = _neighbours(faces, np.random.default_rng(seed))
        sides = [s for s, _ in got]
        assert 1 <= len(sides) <= 2 and len(set(sides)) == len(sides)
        assert set(sides) <= {"left", "right"} or set(sides) <= {"above", "below"}
        seen.update(sides)
    assert seen == set(render.SIDES)
