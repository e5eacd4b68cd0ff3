"""A tile found in two halves read whole (:func:`vision.placed_boxes._halves_read_whole`).

A face that shows two of one pattern side by side can be found in two halves, and each half reads
as surely as a tile as the tile of half its pattern: a ``4p`` at the far end of a row seen from a
seat, read as two sure ``2p`` (table (c13)). Two readings side by side, each half the area of the
tiles beside them, are read again as the box round the two, and where that reads a tile surely
it replaces them, never sure. Two whole tiles, and the halves of two tiles (a box round them
straddles their seam), stand.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.first_reading import boxed_as, reading_of
from training.evaluate import quad_iou
from vision import placed_boxes as placed_boxes_module


def _halves(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``q`` cut in two across its top edge: its left half and its right half."""
    q = q.astype(np.float64)
    top, bottom = (q[0] + q[1]) / 2, (q[3] + q[2]) / 2
    return np.array([q[0], top, bottom, q[3]]), np.array([top, q[1], q[2], bottom])


def test_a_tile_found_in_two_halves_reads_as_itself(scene_11):
    ph, readings, labelled = scene_11
    code, quad = labelled[13]
    assert code == "8p"
    r = reading_of(readings, quad)
    left, right = _halves(r.quad)
    others = [x for x in readings if x is not r]
    out = placed_boxes_module._halves_read_whole(ph, [*others, boxed_as(r, left, "4p"), boxed_as(r, right, "4p")], None)
    assert out[: len(others)] == others
    new = out[len(others) :]
    assert [x.top[0][0] for x in new] == ["8p"]
    assert quad_iou(new[0].quad, quad) > 0.8
    assert not new[0].sure


def test_two_whole_tiles_and_the_halves_of_two_tiles_stand(scene_11):
    ph, readings, labelled = scene_11
    a, b = reading_of(readings, labelled[13][1]), reading_of(readings, labelled[14][1])  # 8p, 7s
    assert placed_boxes_module._halves_read_whole(ph, readings, None) == readings
    others = [x for x in readings if x is not a and x is not b]
    straddling = [boxed_as(a, _halves(a.quad)[1], "4p"), boxed_as(b, _halves(b.quad)[0], "4s")]
    assert placed_boxes_module._halves_read_whole(ph, [*others, *straddling], None) == [*others, *straddling]


def test_a_4p_found_in_halves_at_a_rows_far_end_reads_whole():
    """Table (c13)'s diagonal 21007 seen 45 degrees off: 14 real tiles (held-out set 13) in rows at
    a diagonal. The finder finds the ``4p`` at the far end in two halves, each read as a sure
    ``2p``; now it is one ``4p``, unsure, and no ``2p`` is read."""
    from training.evaluate import DEFAULT_DATA
    from training.real_tile_scenes import real_tile_scenes
    from training.viewpoint import scene_seen_from
    from vision.recognize import recognize

    made = real_tile_scenes("diagonal", 8, DEFAULT_DATA, 21000)
    if not made:
        pytest.skip("../shared/vision-data (the held-out Camerash crops) or the background cache not available")
    scene = scene_seen_from(made[7][2], 45)
    assert scene.codes[-1] == "4p" and "2p" not in scene.codes
    rec = recognize(scene.jpeg(90))
    assert sorted(rec.codes) == sorted(scene.codes)
    last = max(rec.tiles, key=lambda t: quad_iou(np.asarray(t.quad), np.asarray(scene.tiles[-1]["quad"])))
    assert last.code == "4p" and not last.sure
    assert quad_iou(np.asarray(last.quad), np.asarray(scene.tiles[-1]["quad"])) > 0.6
