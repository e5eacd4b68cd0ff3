"""The learned tile finder (:mod:`vision.finders.learned`): turning face/core maps into tiles, and, when
the model ships, finding tiles in synthetic photos the network never saw (other seeds, the
placeholder face renderer it was not trained on, standing hands, face-down tiles)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.seat_views import needs_artwork
from training import scenes
from training.evaluate import match_quads
from vision import photo, recognize
from vision.finders import find_candidates, learned

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
LEARNED = (MODELS / "tile_segmenter.onnx").exists()
needs_model = pytest.mark.skipif(not LEARNED, reason="learned tile finder not trained yet")


def _maps_from_tiles(tiles, shape, stride=2):
    """Ideal network output for ``tiles`` (ground truth quads), at 1/stride resolution."""
    h, w = shape[0] // stride, shape[1] // stride
    face = np.zeros((h, w), np.float32)
    core = np.zeros((h, w), np.float32)
    for t in tiles:
        q = np.asarray(t["quad"], np.float64) / stride
        c = q.mean(0)
        cv2.fillPoly(face, [np.round(q).astype(np.int32)], 1.0)
        cv2.fillPoly(core, [np.round(c + (q - c) * learned.CORE_SHRINK).astype(np.int32)], 1.0)
    return face, core


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ideal_maps_give_every_tile_once(seed):
    sc = scenes.make_scene(seed, size=(1000, 750), face_fn=scenes._placeholder_face)
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    found = learned.instances_from_maps(face, core, scale=2.0)
    pairs = match_quads([t["quad"] for t in sc.tiles], [f.quad for f in found], thr=0.6)
    assert len(found) == len(sc.tiles) == len(pairs)
    # lying tiles come out lying, upright ones upright (the classifier only settles squarish ones)
    for g, p, _ in pairs:
        if not found[p].ambiguous:
            assert found[p].lying == sc.tiles[g]["rotated"]


def test_touching_tiles_share_a_group():
    sc = scenes.make_scene(
        7, size=(1000, 750), face_fn=scenes._placeholder_face, n_rows=1, with_rotated=False, n_indicators=2
    )
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    # close the seams in the face map: touching faces form one region
    face = cv2.dilate(face, np.ones((3, 3), np.uint8))
    found = learned.instances_from_maps(face, core, scale=2.0)
    sizes = sorted({f.group: f.group_size for f in found}.values())
    assert sizes[0] == 1 and sum(sizes) == len(found)  # an indicator apart, rows together


def test_each_whole_core_carries_the_spread_of_its_pixels():
    """The last look's cores carry their pixels' second moments (:func:`learned.core_spreads`), in
    the quads' pixels: a sheared face's keep its shear. A core cut into several tiles (a kong's
    merged backs) gives its pieces none, nor do the looks that only measure the tiles' width."""
    face = np.zeros((120, 200), np.float32)
    core = np.zeros((120, 200), np.float32)
    singles = [np.array([[20 + 16 * i, 20], [29 + 16 * i, 20], [29 + 16 * i, 33], [20 + 16 * i, 33]]) for i in range(4)]
    sheared = np.array([[100, 20], [109, 20], [114, 33], [105, 33]])  # leaning right as it goes down
    merged = np.array([[20, 70], [62, 70], [62, 83], [20, 83]])  # three tiles' cores run together
    for q in [*singles, sheared, merged]:
        cv2.fillPoly(core, [q.astype(np.int32)], 1.0)
        c = q.mean(0)
        cv2.fillPoly(face, [np.round(c + (q - c) / learned.CORE_SHRINK).astype(np.int32)], 1.0)
    edges = np.zeros((3, *core.shape), np.float32)
    found = learned.instances_from_maps(face, core, scale=2.0, min_support=0.0, edges=edges)
    regions = learned._core_regions(core)
    for pts, _rect in regions:
        if np.ptp(pts[:, 0]) > 30:
            continue  # the merged core: its pieces carry nothing
        expected = (np.cov(pts.T.astype(np.float64), bias=True) + np.eye(2) / 12) * 4.0
        centre = pts.mean(0) * 2.0
        tile = min(found, key=lambda t: float(np.hypot(*(t.quad.mean(0) - centre))))
        assert tile.spread == pytest.approx(expected, rel=1e-6, abs=1e-6)
    leaning = min(found, key=lambda t: float(np.hypot(*(t.quad.mean(0) - sheared.mean(0) * 2.0))))
    assert leaning.spread[0, 1] > 0.2 * np.sqrt(leaning.spread[0, 0] * leaning.spread[1, 1])  # x grows with y
    pieces = [t for t in found if t.quad.mean(0)[1] > 2.0 * 60]
    assert len(pieces) >= 2 and len(found) == 5 + len(pieces) and all(t.spread is None for t in pieces)
    assert all(t.cut_into == len(pieces) for t in pieces)  # (each piece says how many its core made)
    assert all(t.cut_into == 1 for t in found if t not in pieces)
    assert all(t.spread is None for t in learned.instances_from_maps(face, core, scale=2.0, min_support=0.0))


def test_empty_maps_give_nothing():
    z = np.zeros((100, 120), np.float32)
    assert learned.instances_from_maps(z, z, 2.0) == []


def test_unknown_finder_is_refused():
    img = np.full((200, 300, 3), 90, np.uint8)
    with pytest.raises(ValueError, match="unknown tile finder"):
        find_candidates(img, finder="magic")


# ----------------------------------------------------------------------------------------------
# the shipped model


def _found(sc, **kw):
    ph = photo.load(sc.jpeg(90))
    cands = find_candidates(ph.image, finder="learned", crops=False, **kw)
    quads = [c.quad * [ph.scale_x, ph.scale_y] for c in cands]
    return cands, match_quads([t["quad"] for t in sc.tiles], quads)


@needs_model
@pytest.mark.parametrize("seed", [101, 102, 103, 104, 105, 106])
def test_learned_finder_on_unseen_scenes(seed):
    sc = scenes.make_scene(seed, size=(1200, 900), face_fn=scenes._placeholder_face)
    cands, pairs = _found(sc)
    assert len(pairs) >= len(sc.tiles) - 1, f"{len(pairs)} of {len(sc.tiles)}"
    assert len(cands) <= len(sc.tiles) + 1


@needs_model
@pytest.mark.parametrize("seed", [201, 202, 203])
def test_learned_finder_on_standing_hands(seed):
    sc = scenes.make_scene(seed, size=(1200, 900), standing=True, n_rows=1, n_indicators=0)
    cands, pairs = _found(sc)
    assert len(pairs) >= len(sc.tiles) - 1 and len(cands) <= len(sc.tiles) + 1


@needs_model
def test_learned_finder_reads_concealed_kong_backs():
    """The backs of a concealed kong are read, and never shown as sure: the table confirms them
    (their readings on sets the classifier never saw were never measured; training.calibration)."""
    found = total = wrong = 0
    for seed in (301, 302, 303):
        sc = scenes.make_scene(seed, size=(1200, 900), n_rows=1, n_indicators=0, n_kongs=1)
        rec = recognize(sc.jpeg(90), finder="learned")
        pairs = match_quads([t["quad"] for t in sc.tiles], [t.quad for t in rec.tiles])
        for g, p, _ in pairs:
            if sc.tiles[g]["code"] == "back":
                found += rec.tiles[p].code == "back"
            elif rec.tiles[p].code == "back":
                wrong += 1
        total += sc.codes.count("back")
        assert not any(t.sure for t in rec.tiles if t.code == "back")
    assert found >= total - 1 and wrong == 0, f"{found} of {total} backs read, {wrong} faces read as back"


@needs_model
def test_small_tiles_are_looked_at_again_larger():
    sc = scenes.make_scene(11, size=(1400, 1050), grid=(4, 16), fill=0.9, face_fn=scenes._placeholder_face)
    cands, pairs = _found(sc)
    assert len(pairs) >= 0.97 * len(sc.tiles), f"{len(pairs)} of {len(sc.tiles)}"


@pytest.mark.parametrize("finder", ["classical", pytest.param("learned", marks=needs_model)])
def test_mjc_recognize_can_pick_the_finder(finder, capsys):
    import json

    from companion.cli import main

    photos = Path(__file__).resolve().parent.parent / "fixtures" / "photos"
    gt = json.loads(sorted(photos.glob("scene_*.json"))[0].read_text())
    assert main(["recognize", str(photos / gt["image"]), "--json", "--finder", finder]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and abs(len(out["tiles"]) - len(gt["tiles"])) <= 1


def test_training_targets_one_core_per_tile_inside_its_face():
    from training.train_segmenter import target_masks

    sc = scenes.make_scene(5, size=(1000, 750), face_fn=scenes._placeholder_face, grid=(3, 12), fill=0.9)
    face, core = target_masks(sc.tiles, sc.image.shape[:2], 1.0)
    assert not (core & (1 - face)).any()  # every core pixel lies on a face
    n, _ = cv2.connectedComponents(core, connectivity=4)
    assert n - 1 == len(sc.tiles)  # touching tiles' cores stay apart


def test_core_without_face_support_is_dropped():
    sc = scenes.make_scene(
        3, size=(1000, 750), face_fn=scenes._placeholder_face, n_rows=1, with_rotated=False, n_indicators=0
    )
    face, core = _maps_from_tiles(sc.tiles, sc.image.shape[:2])
    q = np.asarray(sc.tiles[0]["quad"]) / 2
    cv2.fillPoly(face, [np.round(q).astype(np.int32)], 0.3)  # the network unsure it is a tile top
    found = learned.instances_from_maps(face, core, scale=2.0)
    assert len(found) == len(sc.tiles) - 1
    assert not match_quads([sc.tiles[0]["quad"]], [f.quad for f in found])


# ----------------------------------------------------------------------------------------------
# which looks the finder takes (a stand-in network: ideal maps at each look's size)


def _grid_tiles(cols: int, rows: int, tw: float, th: float) -> list[dict]:
    return [
        {
            "quad": [
                [c * tw, r * th],
                [(c + 1) * tw - 2, r * th],
                [(c + 1) * tw - 2, (r + 1) * th - 2],
                [c * tw, (r + 1) * th - 2],
            ]
        }
        for r in range(rows)
        for c in range(cols)
    ]


def _split(tiles: list[dict], k: int) -> list[dict]:
    """Each tile cut into k x k tile-shaped pieces, as a network shows a tile far larger than it learned."""
    out = []
    for t in tiles:
        q = np.asarray(t["quad"], np.float64)
        (x0, y0), (x1, y1) = q.min(0), q.max(0)
        dx, dy = (x1 - x0) / k, (y1 - y0) / k
        for i in range(k):
            for j in range(k):
                a, b = x0 + i * dx, y0 + j * dy
                out.append({"quad": [[a, b], [a + dx - 1, b], [a + dx - 1, b + dy - 1], [a, b + dy - 1]]})
    return out


def _stand_in(monkeypatch, photo_tiles, fragments_above: float | None = None, specks: bool = False):
    """Replace the network: ideal maps of ``photo_tiles`` (quads in photo pixels) at each look's
    size, cut into pieces where tiles are wider than ``fragments_above`` px; ``specks`` maps every
    tile at a tenth of its size. Returns the list of look sizes taken."""
    looks = []

    def predict(img, long_side=learned.INPUT_LONG, window=None):
        h, w = img.shape[:2]
        s = long_side / max(h, w)
        tiles = [{"quad": (np.asarray(t["quad"], np.float64) * s).tolist()} for t in photo_tiles]
        width = min(np.ptp(np.asarray(tiles[0]["quad"])[:, 0]), np.ptp(np.asarray(tiles[0]["quad"])[:, 1]))
        if specks:
            tiles = [
                {
                    "quad": (
                        np.asarray(t["quad"]).mean(0) + (np.asarray(t["quad"]) - np.asarray(t["quad"]).mean(0)) * 0.1
                    ).tolist()
                }
                for t in tiles
            ]
        elif fragments_above is not None and width > fragments_above:
            tiles = _split(tiles, 3)
        looks.append(long_side)
        face, core = _maps_from_tiles(tiles, (int(round(h * s)) + 2, int(round(w * s)) + 2))
        if window is not None:  # the network saw only the window
            x0, y0, x1, y1 = (int(round(v * s / 2)) for v in window)
            seen = np.zeros(face.shape, bool)
            seen[y0:y1, x0:x1] = True
            face, core = face * seen, core * seen
        return face, core, 2.0 / s

    monkeypatch.setattr(learned, "predict_maps", predict)
    return looks


def test_tiles_cut_into_pieces_at_the_first_look_are_caught_at_half_the_size(monkeypatch):
    """A close-up whose tiles are 128 px at the first look: a network that cuts tiles over 90 px into
    pieces shows 43 px tiles there, a plausible width; at half the size the tiles come out whole and
    measure 64 px, so the finder looks again at the size it wants and finds every tile whole."""
    img = np.zeros((720, 900, 3), np.uint8)
    truth = _grid_tiles(5, 3, 180, 240)
    looks = _stand_in(monkeypatch, truth, fragments_above=90)
    found, _ = learned.find_tiles(img)
    assert looks[:2] == [640, 320] and len(looks) == 3 and looks[2] < 320
    assert len(found) == 15 and len(match_quads([t["quad"] for t in truth], [f.quad for f in found])) == 15


def test_whole_tiles_pass_the_check_at_half_the_size(monkeypatch):
    """Tiles 48 px wide at the first look, found whole at every size: the check at half the size
    measures them half as wide, so the first look stands."""
    img = np.zeros((720, 960, 3), np.uint8)
    looks = _stand_in(monkeypatch, _grid_tiles(10, 2, 72, 96))
    found, _ = learned.find_tiles(img)
    assert looks == [640, 320] and len(found) == 20


def test_tiles_run_together_at_half_the_size_leave_the_first_look_standing(monkeypatch):
    """Two rows of nine tiles 48 px wide at the first look; a network that runs them together at
    half the size into three blocks of three by two, whose short side measures 1.3 times the
    first width (within the pieces' bounds), but which are far less tile-shaped than the tiles of
    the first look: not pieces made whole, and the first look stands (without the shape bound the
    finder looks on at 256 and 450 px)."""
    truth = _grid_tiles(9, 2, 72, 96)
    runs = [
        {"quad": [[c * 216, 0], [(c + 1) * 216 - 2, 0], [(c + 1) * 216 - 2, 190], [c * 216, 190]]} for c in range(3)
    ]
    looks = []

    def predict(img, long_side=learned.INPUT_LONG, window=None):
        h, w = img.shape[:2]
        s = long_side / max(h, w)
        tiles = [
            {"quad": (np.asarray(t["quad"], np.float64) * s).tolist()} for t in (runs if long_side == 320 else truth)
        ]
        looks.append(long_side)
        face, core = _maps_from_tiles(tiles, (int(round(h * s)) + 2, int(round(w * s)) + 2))
        return face, core, 2.0 / s

    monkeypatch.setattr(learned, "predict_maps", predict)
    found, _ = learned.find_tiles(np.zeros((720, 960, 3), np.uint8))
    assert looks == [640, 320] and len(found) == 18


def test_specks_of_texture_get_no_closer_look(monkeypatch):
    """Finds under 8 px at the first look (letters on keyboard keys, grain; or a hand far from the
    camera): the first look is taken again once twice as large (at most the photo's own 1200 px,
    :data:`vision.finders.learned.FAR_LOOK`); still specks there: no tiles, and no closer look."""
    img = np.zeros((900, 1200, 3), np.uint8)
    looks = _stand_in(monkeypatch, _grid_tiles(10, 5, 50, 60), specks=True)
    found, _ = learned.find_tiles(img)
    assert found == [] and looks == [640, 1200]


@pytest.mark.parametrize(
    ("w", "h", "across"),
    [
        (21, 28, 21),  # an upright tile seen from straight above: its width
        (28, 21, 21),  # the same tile lying
        (21, 6, 15.75),  # a tile squashed by a slant (a set far across the table, from a seat):
        (6, 21, 15.75),  # no speck, though its short side is under the 8 px of one
        (6, 6, 6),  # a speck of texture (a letter on a keyboard key)
    ],
)
def test_a_tile_squashed_by_a_slant_keeps_its_width_across(w, h, across):
    """The width a find would have seen from straight above, which the speck rule of
    :func:`find_tiles` measures: a slant squashes a tile along one axis only."""
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    tile = learned.LearnedTile(quad, lying=w > h, ambiguous=False, slanted=False, score=1.0, group=0)
    assert learned.across_width([tile] * 3) == pytest.approx(across)
    assert learned.tile_width([tile] * 3) == pytest.approx(min(w, h))


def test_a_half_size_look_that_runs_the_tiles_together_leaves_the_first_look(monkeypatch):
    """Tiles 48 px wide at the first look are checked at half the size; where that look runs them
    together with the cloth around them into one blob (light tiles on a light cloth) it measures
    them nearly three times as wide, which neither whole tiles (half as wide) nor pieces made whole
    (as wide) do: the first look stands."""
    img = np.zeros((720, 960, 3), np.uint8)
    truth = _grid_tiles(4, 2, 72, 96)
    looks = _stand_in(monkeypatch, truth)
    each = learned.predict_maps
    blob = [{"quad": [[0, 0], [500, 0], [500, 400], [0, 400]]}]

    def predict(img, long_side=learned.INPUT_LONG, window=None):
        if long_side == learned.INPUT_LONG // 2:
            _stand_in(monkeypatch, blob)
            maps = learned.predict_maps(img, long_side, window)
            monkeypatch.setattr(learned, "predict_maps", predict)
            looks.append(long_side)
            return maps
        return each(img, long_side, window)

    monkeypatch.setattr(learned, "predict_maps", predict)
    found, _ = learned.find_tiles(img)
    assert looks == [640, 320]
    assert len(match_quads([t["quad"] for t in truth], [f.quad for f in found])) == 8


@pytest.mark.parametrize(("cols", "rows", "found"), [(12, 12, 144), (18, 14, 0)])
def test_more_finds_than_a_set_has_tiles_are_a_texture(monkeypatch, cols, rows, found):
    """A look that finds more cores than a set has tiles (and half as many again: 216) sees a
    texture, not tiles; a full set of 144 is found."""
    img = np.zeros((900, 1200, 3), np.uint8)
    looks = _stand_in(monkeypatch, _grid_tiles(cols, rows, 1200 / 18, 900 / 14))
    tiles, _ = learned.find_tiles(img)
    assert len(tiles) == found and looks[0] == 640


def _moved(tiles: list[dict], dx: float, dy: float) -> list[dict]:
    return [{"quad": (np.asarray(t["quad"], np.float64) + [dx, dy]).tolist()} for t in tiles]


@pytest.mark.parametrize(("hand", "found"), [(9, 9), (3, 3), (2, 0)])
def test_tiles_beside_a_page_of_print_are_found(monkeypatch, hand, found):
    """A hand beside a printed page: the letters (240, 20 x 24 px) make the first look find more
    cores than a set has tiles, but the tiles' cores stand out, over four times a letter's area.
    At least three of them are found; two such cores among the letters are the texture's."""
    img = np.zeros((900, 1200, 3), np.uint8)
    tiles = _moved(_grid_tiles(hand, 1, 60, 78), 20, 500)
    letters = _moved(_grid_tiles(20, 12, 26, 32), 620, 60)
    for t in letters:  # (a letter is 20 x 24 px within its 26 x 32 px place)
        q = np.asarray(t["quad"])
        t["quad"] = [q[0].tolist(), [q[0][0] + 20, q[0][1]], [q[0][0] + 20, q[0][1] + 24], [q[0][0], q[0][1] + 24]]
    looks = _stand_in(monkeypatch, tiles + letters)
    found_tiles, _ = learned.find_tiles(img)
    assert looks[0] == 640
    assert len(match_quads([t["quad"] for t in tiles], [f.quad for f in found_tiles])) == found
    assert len(found_tiles) == found  # (no letter)


@pytest.mark.parametrize(
    ("areas", "kept"),
    [
        ([10] * 230 + [50] * 9, 9),  # tiles beside letters
        ([10] * 230 + [40] * 3, 3),  # four times a letter's area: three are enough
        ([10] * 230 + [39] * 9, 0),  # not that much larger: the texture's
        ([10] * 230 + [50] * 2, 0),  # too few to be tiles
        ([10] * 10 + [50] * 230, 0),  # the larger ones are the texture (the median is theirs)
    ],
)
def test_cores_beside_a_texture(areas, kept):
    """:func:`learned._beside_texture`: of a look with too many cores, those at least four times the
    median core's area, when three to 216 of them."""
    regions = [(np.zeros((a, 2), np.float32), ((0.0, 0.0), (1.0, 1.0), 0.0)) for a in areas]
    assert len(learned._beside_texture(regions)) == kept


def test_a_closer_look_that_sees_a_texture_leaves_the_look_before(monkeypatch):
    """Small tiles at the first look ask for a closer one; where that shows a texture (a cloth's
    dots, seen sharper: more cores than a set has tiles), the first look's tiles stand."""
    img = np.zeros((1500, 2000, 3), np.uint8)
    hand = _grid_tiles(10, 1, 60, 78)
    dots = _grid_tiles(125, 94, 16, 16)  # (a dot every 16 px)
    looks = _stand_in(monkeypatch, hand)
    closer = learned.predict_maps

    def predict(img, long_side=learned.INPUT_LONG, window=None):
        if long_side == learned.INPUT_LONG:
            return closer(img, long_side, window)
        _stand_in(monkeypatch, dots)
        return learned.predict_maps(img, long_side, window)

    monkeypatch.setattr(learned, "predict_maps", predict)
    found, _ = learned.find_tiles(img)
    assert looks == [640] and len(match_quads([t["quad"] for t in hand], [f.quad for f in found])) == 10


@needs_artwork
@needs_model
@pytest.mark.parametrize(("seed", "fill"), [(25, 0.15), (27, 0.15), (30, 0.2)])
def test_tiles_too_small_for_the_working_image_are_looked_at_in_the_detail_image(monkeypatch, seed, fill):
    """A hand far from a 12-megapixel camera: its tiles 11-15 px wide in the working image, 22-30
    px in the detail image. A closer look at the working image only enlarges its pixels and finds a
    third to two thirds of them; looking at the detail image finds every one. (The photos are read
    as they are: seed 27's grain, 6.4 grey levels in the working image, is smoothed when a photo is
    loaded, session 38, and its working image alone then finds 10 of the 12.)"""
    monkeypatch.setattr(photo, "NOISY_ABOVE", float("inf"))
    sc = scenes.make_scene(seed, size=(4000, 3000), fill=fill)
    ph = photo.load(sc.jpeg(90))
    assert ph.detail is not None
    gt = [t["quad"] for t in sc.tiles]

    def found(detail):
        cands = find_candidates(ph.image, finder="learned", crops=False, detail=detail)
        return len(match_quads(gt, [c.quad * [ph.scale_x, ph.scale_y] for c in cands]))

    assert found(ph.detail) == len(gt)
    assert found(None) <= 0.7 * len(gt)


@pytest.mark.parametrize(
    ("long_side", "tile_px", "look"),
    [
        (600, 48, 450),  # tiles 48 px wide: a look at three quarters the size shows them 36 px wide
        (600, 36, 600),  # already the width it wants: the part as it is
        (600, 20, 600),  # never enlarged beyond its own size
        (900, 300, None),  # never below the smallest look (the model's min_long)
    ],
)
def test_a_known_tile_width_sets_the_first_look(long_side, tile_px, look):
    assert learned.first_look(long_side, tile_px) == (learned.min_long() if look is None else look)


def test_a_part_made_for_the_finder_is_seen_once(monkeypatch):
    """A photo's part seen from straight above, its tiles known to be 48 px wide (as
    :func:`vision.slant.straightening` makes it): one look, at the size that shows them 36 px wide,
    finds every tile; the look at 640 would first enlarge the part, then check it at half that
    size."""
    img = np.zeros((300, 600, 3), np.uint8)
    truth = _grid_tiles(10, 2, 48, 64)
    looks = _stand_in(monkeypatch, truth)
    found, _ = learned.find_tiles(img, tile_px=48)
    assert looks == [450] and len(match_quads([t["quad"] for t in truth], [f.quad for f in found])) == 20
    looks.clear()
    learned.find_tiles(img)
    assert looks == [640, 320]


def test_post_processing_settings_come_with_the_model(tmp_path, monkeypatch):
    """A model's metadata can set the face support a tile needs and the smallest look; without
    them the finder's defaults hold."""
    import json

    from vision import onnx_model

    (tmp_path / "tile_segmenter.json").write_text(
        json.dumps({"postprocess": {"min_face_support": 0.4, "min_long": 300}})
    )
    monkeypatch.setenv(onnx_model.ENV_DIR, str(tmp_path))
    assert learned.min_face_support() == 0.4 and learned.min_long() == 300
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "tile_segmenter.json").write_text(json.dumps({"format": "mjc-tile-segmenter/1"}))
    monkeypatch.setenv(onnx_model.ENV_DIR, str(bare))
    assert learned.min_face_support() == learned.MIN_FACE_SUPPORT and learned.min_long() == learned.MIN_LONG


def test_training_close_ups_show_tiles_larger_than_the_other_photos():
    """``--zoom-share``: a close-up cut from a scene has tiles 24-150 px wide, and its masks hold one
    core per tile it shows whole."""
    from training.train_segmenter import _zoomed

    sizes = []
    for seed in range(6):
        rng = np.random.default_rng(seed)
        sc = scenes.make_scene(seed, size=(1000, 750), face_fn=scenes._placeholder_face, fill=0.95)
        img, face, core, quads, care, seam = _zoomed(sc, (1000, 750), rng)
        assert face.shape == core.shape == care.shape == seam.shape == img.shape[:2] and not (core & (1 - face)).any()
        sizes += [min(np.ptp(q[:, 0]), np.ptp(q[:, 1])) for q in quads]
    assert sizes and 24 <= np.median(sizes) <= 150 and max(sizes) > 60


def test_partly_shown_tiles_do_not_count_in_training():
    """A scene's partial tiles (``Scene.partial``) are left out of the loss (care 0), except where a
    whole tile's face lies: that always counts."""
    from training.train_segmenter import care_mask, target_masks

    whole = {"quad": [[10.0, 10.0], [40.0, 10.0], [40.0, 50.0], [10.0, 50.0]]}
    partial = [[[30.0, 20.0], [70.0, 20.0], [70.0, 60.0], [30.0, 60.0]]]
    face, _core = target_masks([whole], (80, 100), 0.5)
    care = care_mask(partial, face, 0.5)
    assert care.shape == face.shape and care.dtype == np.uint8
    assert care[20, 30] == 0 and care[5, 5] == 1  # on the partial tile / on the table
    assert care[face > 0].all()  # where it overlaps the whole tile, the whole tile counts


def test_training_batches_weigh_partly_shown_tiles_zero():
    from training.phone_scenes import make_phone_scene
    from training.train_segmenter import _scaled, make_batch

    for seed in range(40):
        sc = make_phone_scene(seed, "pile", size=(640, 480), face_fn=scenes._placeholder_face)
        if sc.partial:
            break
    assert sc.partial, "piles have tiles partly under others"
    sample = _scaled(sc, (640, 480), np.random.default_rng(0))
    assert (sample.care == 0).any() and sample.care[sample.face > 0].all()
    _x, y, w = make_batch([sample], np.random.default_rng(1), 4, 128)
    assert w.shape == (4, 2, 64, 64) and w.min() >= 0 and w.max() <= 1  # (no seam weight: the care mask)
    assert not ((w < 0.01) & (y > 0.99)).any()  # a whole tile's face is never ignored, nor its core


def test_training_can_overexpose_a_share_of_the_photos():
    """``--overexpose``: that share of the training photos is overexposed and clipped, as a phone
    that metered a dark mat burns out the ivory faces; without it a face at level 180 never clips
    (the colour jitter scales it by at most 1.25 and shifts it by at most 25)."""
    from training.train_segmenter import OVEREXPOSURE_GAIN, _augment

    img = np.full((32, 32, 3), 180, np.uint8)
    masks = [np.zeros((16, 16), np.float32)] * 3

    def clipped(share: float) -> float:
        """The share of 40 photos in which a colour channel burns out."""
        rng = np.random.default_rng(3)
        return float(np.mean([(_augment(img, *masks, rng, share)[0] >= 255).any() for _ in range(40)]))

    assert clipped(0.0) == 0.0
    assert clipped(1.0) >= 0.75 and OVEREXPOSURE_GAIN[0] > 1.0


@pytest.mark.parametrize(("share", "with_kongs"), [(0.0, (0, 0)), (0.5, (30, 70)), (1.0, (100, 100))])
def test_training_can_weigh_the_table_photos_with_kongs(monkeypatch, share, with_kongs):
    """``--kong-share``: that share of the table photos shows concealed kongs (0.5, the default,
    draws them as before: one kong in 30 % of the photos, two in 20 %)."""
    from training import scenes as scenes_module
    from training import train_segmenter

    kongs: list = []

    class _Drawn(Exception):
        pass

    def fake_scene(rng, **kw):
        kongs.append(kw.get("n_kongs", 0))
        raise _Drawn

    monkeypatch.setattr(scenes_module, "make_scene", fake_scene)
    monkeypatch.setitem(train_segmenter.PHONE_SHARE, "value", 0.0)
    monkeypatch.setitem(train_segmenter.KONG_SHARE, "value", share)
    for seed in range(100):
        with pytest.raises(_Drawn):
            train_segmenter.make_sample(seed)
    assert with_kongs[0] <= sum(k > 0 for k in kongs) <= with_kongs[1]
    assert set(kongs) <= {0, 1, 2}


def test_training_can_weigh_the_kinds_of_phone_like_photo(monkeypatch):
    """``--phone-kinds pile,pile,tray``: each phone-like photo is one of the kinds named, a kind named
    twice coming twice as often; an unknown kind is refused with the known ones."""
    from training import phone_scenes, train_segmenter

    assert train_segmenter._phone_kinds("pile, pile,tray") == ("pile", "pile", "tray")
    assert train_segmenter._phone_kinds(None) is None
    with pytest.raises(SystemExit, match="unknown kind.*piles.*use diagonal, tray"):
        train_segmenter._phone_kinds("piles")

    drawn: list = []

    class _Drawn(Exception):
        pass

    def fake_scene(rng, kind=None, **kw):
        drawn.append(kind)
        raise _Drawn

    monkeypatch.setattr(phone_scenes, "make_phone_scene", fake_scene)
    monkeypatch.setitem(train_segmenter.PHONE_SHARE, "value", 1.0)
    monkeypatch.setitem(train_segmenter.PHONE_KINDS, "value", ("pile", "pile", "tray"))
    for seed in range(60):
        with pytest.raises(_Drawn):
            train_segmenter.make_sample(seed)
    assert set(drawn) == {"pile", "tray"} and 30 <= drawn.count("pile") <= 50


def test_a_run_with_fresh_photos_renders_new_ones_from_seeds_of_its_own(monkeypatch):
    """``--fresh-workers``: each worker fills a pool, then renders one new photo before each batch,
    from a seed range of its own, apart from the fixed set's and the validation photos' seeds."""
    import argparse

    from training import train_segmenter as ts

    rendered: list[int] = []

    def tiny_sample(seed: int) -> ts.Sample:
        rendered.append(seed)
        img = np.full((64, 64, 3), seed % 255, np.uint8)
        face = np.zeros((64, 64), np.uint8)
        face[8:40, 8:32] = 1
        return ts.Sample(img, face, face.copy(), [], np.ones((64, 64), np.uint8))

    monkeypatch.setattr(ts, "make_sample", tiny_sample)
    monkeypatch.setattr(ts, "FRESH_POOL", 3)
    a = argparse.Namespace(seed=2, batch=4, patch=32, overexpose=0.0, seam_weight=0.0, shadow=0.0, distil=False)
    seeds_of = {}
    for worker in (0, 1):
        rendered.clear()
        batches = ts.fresh_batches(a, worker)
        x, y, w = next(batches)
        next(batches)
        assert x.shape == (4, 3, 32, 32) and y.shape == (4, 2, 16, 16) and w.shape == (4, 2, 16, 16)
        assert len(rendered) == 3 + 2 == len(set(rendered))  # the pool, then one new photo a batch
        seeds_of[worker] = set(rendered)
    assert not seeds_of[0] & seeds_of[1]
    assert min(min(s) for s in seeds_of.values()) >= ts.FRESH_SEED0 > 2_000_000 + 200


def test_a_closer_look_runs_only_where_the_tiles_are():
    """``content_window``: the box round what a look marks as face, grown by two tile widths, its
    top-left on a whole map pixel of the closer look; the whole photo (``None``) when that box is
    most of it, or nothing is marked."""
    face = np.zeros((240, 320), np.float32)  # a look at 640 px of a 4000x3000 photo
    sc, pad = 12.5, 2 * 40.0  # map pixel to photo pixel; two tile widths of 40 px
    face[100:120, 150:200] = 0.9
    win = learned.content_window(face, sc, (3000, 4000, 3), 40.0, 1600)
    assert win is not None
    x0, y0, x1, y1 = win
    assert 150 * sc - pad - 64 / 0.4 <= x0 <= 150 * sc - pad and 200 * sc + pad <= x1 <= 200 * sc + pad + 64 / 0.4 + 1
    assert 100 * sc - pad - 64 / 0.4 <= y0 <= 100 * sc - pad and 120 * sc + pad <= y1 <= 120 * sc + pad + 64 / 0.4 + 1
    s = 1600 / 4000  # the window starts on a multiple of 16 of the closer look's input pixels
    for v in (x0, y0):
        assert abs(v * s / 16 - round(v * s / 16)) * 16 <= 0.1
    face[10:230, 10:310] = 0.9
    assert learned.content_window(face, sc, (3000, 4000, 3), 40.0, 1600) is None
    assert learned.content_window(np.zeros_like(face), sc, (3000, 4000, 3), 40.0, 1600) is None


@needs_model
def test_a_windowed_look_sees_what_the_whole_look_sees_there():
    """The maps of a look run over a window match the whole look's inside the window (the window's
    map pixels line up with the whole photo's), and are 0 outside it."""
    sc = scenes.make_scene(5, size=(1600, 1200), fill=0.3, face_fn=scenes._placeholder_face)
    whole = learned.predict_maps(sc.image, 1200)
    first = learned.predict_maps(sc.image)
    win = learned.content_window(first[0], first[2], sc.image.shape, 60.0, 1200)
    assert win is not None
    # on the closer look's grid of 16, but for a side on the photo's edge (the whole look ends there too)
    for start, end, edge in ((win[0], win[2], 1600), (win[1], win[3], 1200)):
        assert abs(start * 0.75 / 16 - round(start * 0.75 / 16)) * 16 <= 0.1
        assert end == edge or abs((end - start) * 0.75 / 16 - round((end - start) * 0.75 / 16)) * 16 <= 0.1
    part = learned.predict_maps(sc.image, 1200, win)
    assert part[2] == whole[2] and part[0].shape == whole[0].shape
    s = 1200 / 1600 / 2  # photo pixels to map pixels
    inner = (
        slice(int((win[1] + 90) * s), int((win[3] - 90) * s)),
        slice(int((win[0] + 90) * s), int((win[2] - 90) * s)),
    )
    for a, b in zip(part[:2], whole[:2]):
        assert np.abs(a[inner] - b[inner]).mean() < 0.005
        assert ((a[inner] > 0.5) != (b[inner] > 0.5)).mean() < 0.01
    above, right = part[0][: max(0, int(win[1] * s) - 1)], part[0][:, int(win[2] * s) + 2 :]
    assert above.max(initial=0) == 0 and right.max(initial=0) == 0  # (empty where the window meets the edge)
    edges, edges_win = learned.edge_orientation(sc.image, 1200), learned.edge_orientation(sc.image, 1200, win)
    assert edges.shape == edges_win.shape
    a, b = edges_win[(slice(None), *inner)], edges[(slice(None), *inner)]
    assert np.abs(a - b).mean() < 0.01 * np.abs(b).mean()


def _looks(monkeypatch, what) -> list:
    """What ``what(long_side, window)`` says of each look the learned finder takes, in order
    (:func:`vision.finders.learned.predict_maps` spied on)."""
    seen: list = []
    real = learned.predict_maps

    def spy(img, long_side=learned.INPUT_LONG, window=None):
        seen.append(what(long_side, window))
        return real(img, long_side, window)

    monkeypatch.setattr(learned, "predict_maps", spy)
    return seen


@needs_model
def test_far_away_tiles_are_found_alike_with_and_without_the_window(monkeypatch):
    """A hand far from the camera gets a closer look over its window only; it finds the same tiles
    as a closer look over the whole photo."""
    sc = scenes.make_scene(21, size=(4000, 3000), fill=0.15, face_fn=scenes._placeholder_face)
    seen = _looks(monkeypatch, lambda long_side, window: window)
    windowed, _ = learned.find_tiles(sc.image)
    assert seen[0] is None and seen[-1] is not None, seen
    x0, y0, x1, y1 = seen[-1]
    assert (x1 - x0) * (y1 - y0) < 0.3 * 4000 * 3000
    monkeypatch.setattr(learned, "CONTENT_MAX_SHARE", 0.0)  # every look over the whole photo
    seen.clear()
    whole, _ = learned.find_tiles(sc.image)
    assert all(w is None for w in seen)
    gt = [np.asarray(t["quad"]) for t in sc.tiles]
    a = match_quads(gt, [t.quad for t in windowed])
    b = match_quads(gt, [t.quad for t in whole])
    assert len(a) == len(b) >= 0.95 * len(gt)


def _tiles_at(x0: float, y0: float, cols: int, tw: float, th: float, gap: float) -> list[dict]:
    """A row of ``cols`` tiles ``tw`` x ``th``, ``gap`` apart, its top-left at ``(x0, y0)``."""
    return [
        {"quad": [[x, y0], [x + tw, y0], [x + tw, y0 + th], [x, y0 + th]]}
        for x in (x0 + c * (tw + gap) for c in range(cols))
    ]


def test_finds_read_as_no_tile_before_measure_nothing_at_the_far_look(monkeypatch):
    """A far hand (nine tiles 12 px wide in a 1200 px photo) beside a pattern of tile-sized
    patches (50 px): at the first look the hand's cores are under a fifth of the patches' and
    are taken for specks, and the patches' width stops the looks. Told that the patches read as
    no tile, the finder starts at its far look, where the patches neither set the typical core
    nor the width: the hand is found (the patches, each alone, are lone finds after a far look)."""
    img = np.zeros((900, 1200, 3), np.uint8)
    hand = _tiles_at(500, 600, 9, 12, 16, 1)
    pattern = _tiles_at(60, 80, 6, 50, 66, 90) + _tiles_at(60, 300, 6, 50, 66, 90)
    looks = _stand_in(monkeypatch, pattern + hand)
    found, _ = learned.find_tiles(img)
    assert looks == [640] and not match_quads([t["quad"] for t in hand], [f.quad for f in found])
    looks.clear()
    found, _ = learned.find_tiles(img, not_tiles=[np.asarray(t["quad"], np.float32) for t in pattern])
    assert looks == [1200] and len(found) == 9
    assert len(match_quads([t["quad"] for t in hand], [f.quad for f in found])) == 9


@pytest.mark.parametrize(
    ("centre", "area", "seen", "why"),
    [
        ((25, 33), 3300, True, "the same find again, its box as large"),
        ((25, 33), 2000, True, "the same find, its box 0.6 of the first"),
        ((25, 33), 1650, False, "one of two tiles the first find took in"),
        ((25, 33), 200, False, "a small tile inside the first find"),
        ((80, 33), 3300, False, "beside it"),
    ],
)
def test_a_find_seen_again(centre, area, seen, why):
    """:func:`vision.finders.learned._seen_again`: centred in a find read as no tile (50 x 66)
    and covering at least 0.6 of it."""
    quad = np.array([[0, 0], [50, 0], [50, 66], [0, 66]], np.float32)
    assert learned._seen_again(np.array(centre, np.float64), area, [quad]) is seen, why


@needs_model
@pytest.mark.parametrize(
    ("size", "detail", "first"), [((80, 100), None, 256), ((90, 100), 1.5, 300), ((800, 1000), None, 640)]
)
def test_the_first_look_enlarges_a_small_part_at_most_twice(monkeypatch, size, detail, first):
    """A part of a photo read on its own (a far grid's region, :func:`vision.looks_again._regions_read_again`)
    can be 60 px across: the first look enlarges its finest pixels (the detail image's, where there
    is one) at most :data:`~vision.finders.learned.ENLARGE_MAX` times, never below the model's
    smallest look; beyond that it adds no detail, only time (a part's search took 17 ms, 5 now)."""
    looks = _looks(monkeypatch, lambda long_side, window: long_side)
    img = np.full((*size, 3), 120, np.uint8)
    big = cv2.resize(img, None, fx=detail, fy=detail) if detail else None
    learned.find_tiles(img, detail=big)
    assert looks[0] == first


def _find(x: float, width: float, group: int, score: float = 1.0) -> learned.LearnedTile:
    """A find ``width`` wide and 1.3 times as high at ``(x, 0)``, in face region ``group``, its
    aspect score ``score``."""
    quad = np.array([[x, 0], [x + width, 0], [x + width, 1.3 * width], [x, 1.3 * width]], np.float32)
    return learned.LearnedTile(quad, False, False, False, score, group, 1)


@pytest.mark.parametrize(
    ("finds", "smaller", "why"),
    [
        ([(32, 1)] * 8 + [(14, 2)] * 2 + [(13, 3), (14, 4)], 4, "a hand, and far tiles in regions of their own"),
        ([(32, 1)] * 8 + [(14, 2)] * 2, 0, "two far tiles are too few to look for more"),
        ([(32, 1)] * 8 + [(14, 2), (14, 3), (14, 4), (14, 5)], 0, "lone small finds: keys, coins"),
        ([(32, 1)] * 8 + [(24, 2)] * 6, 0, "smaller tiles the look sees 20 px wide or more"),
        ([(32, 1)] * 3 + [(14, 1)] * 40, 0, "a page: its letters lie in the page's region"),
        ([(32, 1)] * 8 + [(22, 2)] * 5, 0, "a region 0.69 of the hand's width: one size, seen at a slant"),
        ([(32, 1)] * 8 + [(6, 2)] * 5, 0, "specks under 8 px across are no tiles"),
        ([(32, 1), (32, 2)] + [(14, 3)] * 5, 0, "no region of three finds to measure the larger size on"),
        ([(32, 1)] * 8 + [(14, 2, 0.3)] * 30, 0, "a page's lines beside the hand: narrow, but not tile-shaped"),
        ([(32, 1)] * 8 + [(14, 2, 0.3)] * 3 + [(14, 3)] * 3, 3, "of narrow finds, the tile-shaped ones"),
    ],
)
def test_tiles_of_a_second_smaller_size_are_told_by_their_face_regions(finds, smaller, why):
    """:func:`vision.finders.learned._smaller_tiles` (a look at the image's size, ``r`` 1)."""
    inst = [_find(40.0 * i, *f) for i, f in enumerate(finds)]
    assert len(learned._smaller_tiles(inst, 1.0)) == smaller, why
