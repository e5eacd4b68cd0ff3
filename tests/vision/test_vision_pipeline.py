"""Photo pipeline: decoding guards, segmentation geometry, grouping, end-to-end recognition.

Fast (a few seconds), and independent of the shared data set: scenes are generated on the fly with
the placeholder face renderer, plus three committed synthetic JPEG fixtures
(``tests/fixtures/photos``, written by ``python -m training.scenes --fixtures tests/fixtures/photos``).
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from training import scenes
from vision import ImageError, grouping, photo, recognize, slant
from vision.finders import find_candidates

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "photos"
MODELS = Path(__file__).resolve().parent.parent.parent / "models"


# ----------------------------------------------------------------------------------------------
# helpers


def _iou(a, b) -> float:
    a = np.asarray(a, np.float32).reshape(4, 2)
    b = np.asarray(b, np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter + 1e-9))


def _match(gt_quads, pred_quads, thr=0.6):
    used, pairs = set(), []
    for gi, g in enumerate(gt_quads):
        best, bi = 0.0, None
        for pi, p in enumerate(pred_quads):
            if pi in used:
                continue
            v = _iou(g, p)
            if v > best:
                best, bi = v, pi
        if bi is not None and best >= thr:
            used.add(bi)
            pairs.append((gi, bi, best))
    return pairs


def _scene(seed, **kw):
    kw.setdefault("size", (900, 675))
    kw.setdefault("face_fn", scenes._placeholder_face)
    kw.setdefault("perspective", 0.04)
    return scenes.make_scene(seed, **kw)


def _segment_scene(sc, method=None):
    data = sc.jpeg(92)
    ph = photo.load(data)
    cands = find_candidates(ph.image, finder=method)
    quads = [c.quad * [ph.scale_x, ph.scale_y] for c in cands]
    return cands, quads


def _jpeg(img, quality=90) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    tiff = (
        b"MM\x00\x2a"
        + struct.pack(">I", 8)
        + struct.pack(">H", 1)
        + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
        + struct.pack(">I", 0)
    )
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


#: the faces a fake classifier answers, crop after crop (never five of one face: a set holds four,
#: and recognize drops or doubts a fifth)
FAKE_FACES = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)]


class _FakeClassifier:
    """Stands in for the trained model: reads nothing, answers the suited faces in turn."""

    def classify(self, crops):
        return [[(FAKE_FACES[i % 27], 0.9), ("6p", 0.05), ("4p", 0.02)] for i in range(len(crops))]


# ----------------------------------------------------------------------------------------------
# segmentation geometry (both tile finders: the learned one when its model ships, and the classical)

_LEARNED = (MODELS / "tile_segmenter.onnx").exists()


@pytest.fixture(
    params=[
        "classical",
        pytest.param("learned", marks=pytest.mark.skipif(not _LEARNED, reason="learned tile finder not trained yet")),
    ]
)
def finder(request):
    return request.param


def test_single_row_count_and_quads(finder):
    sc = _scene(3, n_rows=1, with_rotated=False, n_indicators=0)
    cands, quads = _segment_scene(sc, finder)
    pairs = _match([t["quad"] for t in sc.tiles], quads)
    assert len(cands) == len(sc.tiles)
    assert len(pairs) == len(sc.tiles), f"matched {len(pairs)} of {len(sc.tiles)}"
    assert np.mean([p[2] for p in pairs]) > 0.75


def test_two_rows_and_indicators(finder):
    sc = _scene(21, n_rows=2, with_rotated=False, n_indicators=2)
    cands, quads = _segment_scene(sc, finder)
    pairs = _match([t["quad"] for t in sc.tiles], quads)
    assert len(pairs) >= len(sc.tiles) - 1
    assert len(cands) <= len(sc.tiles) + 1


def _scene_with_rotated(start, surface=None):
    for seed in range(start, start + 40):
        sc = _scene(seed, n_rows=1, with_rotated=True, n_indicators=0, surface=surface)
        if any(t["rotated"] for t in sc.tiles):
            return sc
    pytest.skip("no scene with a lying tile generated")


def test_rotated_tile_found_as_lying(finder):
    sc = _scene_with_rotated(40)
    cands, quads = _segment_scene(sc, finder)
    pairs = _match([t["quad"] for t in sc.tiles], quads, thr=0.5)
    rot_gt = [i for i, t in enumerate(sc.tiles) if t["rotated"]]
    found = {g: p for g, p, _ in pairs}
    assert len(pairs) >= len(sc.tiles) - 1
    assert all(g in found and cands[found[g]].lying for g in rot_gt)


def test_crops_are_upright_portrait(finder):
    sc = _scene(5, n_rows=1, with_rotated=False, n_indicators=0)
    cands, _ = _segment_scene(sc, finder)
    for c in cands:
        for _, crop in c.crops:
            assert crop.shape[0] > crop.shape[1]


# ----------------------------------------------------------------------------------------------
# grouping


def _box(x, y, w=30, h=40):
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def test_grouping_reading_order_rows_and_gaps():
    quads = []
    # row 0: 4 touching tiles, gap, 3 touching tiles (given out of order)
    row0 = [_box(10 + 30 * i, 10) for i in range(4)] + [_box(160 + 30 * i, 12) for i in range(3)]
    # row 1: a lying tile then two upright tiles, then an indicator far away
    row1 = [_box(10, 70, 40, 30), _box(50, 60), _box(80, 60), _box(250, 62)]
    quads = row1[::-1] + row0[::-1]
    order, rows, groups = grouping.arrange(quads)
    as_xy = [tuple(np.round(np.mean(quads[i], axis=0))) for i in order]
    expected = [tuple(np.round(np.mean(q, axis=0))) for q in row0 + row1]
    assert as_xy == expected
    assert [rows[i] for i in order] == [0] * 7 + [1] * 4
    assert [groups[i] for i in order] == [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]


def test_grouping_rotated_photo():
    base = [_box(30 * i, 0) for i in range(5)] + [_box(200 + 30 * i, 0) for i in range(3)]
    ang = np.deg2rad(25)
    R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    quads = [(np.asarray(q, float) @ R.T + 300).tolist() for q in base]
    order, rows, groups = grouping.arrange(quads[::-1])
    assert [7 - i for i in order] == list(range(8))
    assert sorted(set(groups)) == [0, 1]
    assert set(rows) == {0}


def _turned_box(cx: float, cy: float, degrees: float, w: float = 30, h: float = 40) -> list:
    t = np.deg2rad(degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (corners @ rot.T + [cx, cy]).tolist()


def test_rows_seen_from_above_run_along_the_nearest_neighbours():
    """Four rows of twelve faces running at 7 degrees, seen from straight above again, each face's
    rectangle turned 13 degrees (a face still a little sheared): along the rectangles' top edges
    the rows run into each other; along the nearest neighbours each row is read whole, in order."""
    t = np.deg2rad(7)
    quads = [
        _turned_box(100 + 32 * c * np.cos(t) - 44 * r * np.sin(t), 100 + 32 * c * np.sin(t) + 44 * r * np.cos(t), 13)
        for r in range(4)
        for c in range(12)
    ]
    assert np.degrees(grouping.along_neighbours(quads)) == pytest.approx(7.0, abs=0.5)
    order, rows, _ = grouping.arrange(quads, rows_run=grouping.along_neighbours(quads))
    assert order == list(range(48)) and [rows[i] for i in order] == [i // 12 for i in range(48)]
    order, _, _ = grouping.arrange(quads)
    assert order != list(range(48))


def test_tiles_whose_neighbours_disagree_keep_the_rows_of_their_edges():
    """A pile (tiles at every turn, no line through them): the neighbours say nothing, and the
    rows are measured as for any photo (:func:`vision.grouping.row_angle`)."""
    rng = np.random.default_rng(5)
    quads = [_turned_box(*rng.uniform(0, 400, 2), rng.uniform(0, 180)) for _ in range(12)]
    assert grouping.along_neighbours(quads) == grouping.row_angle(quads)


# ----------------------------------------------------------------------------------------------
# bad input


def _png_header(w, h) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00" * 64


def _jpeg_header(w, h) -> bytes:
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, h, w, 1) + b"\x01\x11\x00"
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + sof + b"\x00" * 100


@pytest.mark.parametrize(
    "data,code",
    [
        (b"", "empty_file"),
        (b"hello, this is not an image at all", "not_an_image"),
        (b"GIF89a" + b"\x00" * 100, "unsupported_format"),
        (_png_header(100_000, 100_000), "too_large"),
        (_png_header(30_000, 100), "too_large"),
        (_jpeg_header(9000, 9000), "too_large"),
        (_png_header(10, 10), "too_small"),
    ],
)
def test_bad_input_errors(data, code):
    with pytest.raises(ImageError) as ei:
        recognize(data)
    assert ei.value.code == code
    d = ei.value.to_dict()
    assert d["code"] == code and d["message"]


def test_truncated_jpeg_is_an_error():
    img = np.full((200, 300, 3), 120, np.uint8)
    cv2.circle(img, (150, 100), 50, (255, 255, 255), -1)
    data = _jpeg(img)
    for cut in (len(data) // 2, len(data) - 10, 40):
        with pytest.raises(ImageError) as ei:
            recognize(data[:cut])
        assert ei.value.code == "truncated"


def test_bomb_header_refused_before_decoding(monkeypatch):
    called = []
    monkeypatch.setattr(cv2, "imdecode", lambda *a, **k: called.append(1))
    with pytest.raises(ImageError) as ei:
        photo.load(_png_header(20_000, 20_000))
    assert ei.value.code == "too_large" and not called


def test_fuzz_never_crashes():
    rng = np.random.default_rng(7)
    sc = _scene(8, n_rows=1, n_indicators=0, size=(320, 240))
    good = sc.jpeg(80)
    samples = [bytes(rng.integers(0, 256, int(n), dtype=np.uint8)) for n in rng.integers(1, 3000, 25)]
    samples += [good[: int(n)] for n in rng.integers(1, len(good), 25)]
    for _ in range(25):
        b = bytearray(good)
        for pos in rng.integers(2, len(b), 8):
            b[int(pos)] = int(rng.integers(0, 256))
        samples.append(bytes(b))
    samples += [b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"BM" + b"\x00" * 30]
    for data in samples:
        try:
            rec = recognize(data, classifier=_FakeClassifier())
        except ImageError as e:
            assert e.code in vision.errors.ERROR_CODES
        else:
            assert isinstance(rec, vision.Recognition)
            json.dumps(rec.to_dict())


def test_empty_table_gives_reason():
    img = scenes.empty_table(3, size=(640, 480))
    rec = recognize(_jpeg(img), classifier=_FakeClassifier())
    assert rec.tiles == [] and rec.groups == []
    assert rec.reason and rec.reason.startswith("no tiles found")
    assert (rec.width, rec.height) == (640, 480)
    assert "no tiles" in rec.to_text()


# ----------------------------------------------------------------------------------------------
# EXIF orientation


@pytest.mark.parametrize(
    "orientation,rotate",
    [
        (6, cv2.ROTATE_90_COUNTERCLOCKWISE),  # stored rotated; viewer turns it 90 cw
        (8, cv2.ROTATE_90_CLOCKWISE),
        (3, cv2.ROTATE_180),
    ],
)
def test_exif_orientation_respected(orientation, rotate):
    sc = _scene(3, n_rows=1, with_rotated=False, n_indicators=0)
    stored = cv2.rotate(sc.image, rotate)
    data = _with_exif_orientation(_jpeg(stored, 92), orientation)
    ph = photo.load(data)
    assert (ph.width, ph.height) == (sc.image.shape[1], sc.image.shape[0])
    rec = recognize(data, classifier=_FakeClassifier())
    pairs = _match([t["quad"] for t in sc.tiles], [t.quad for t in rec.tiles])
    assert len(pairs) == len(sc.tiles)


def test_reduced_decode_maps_to_original_pixels():
    # a 2400x1800 photo is decoded at half size; quads must still be in full-size pixels
    sc = _scene(3, n_rows=1, with_rotated=False, n_indicators=0, size=(2400, 1800))
    data = sc.jpeg(85)
    ph = photo.load(data)
    assert ph.image.shape[1] < 2400 and (ph.width, ph.height) == (2400, 1800)
    rec = recognize(data, classifier=_FakeClassifier())
    pairs = _match([t["quad"] for t in sc.tiles], [t.quad for t in rec.tiles])
    assert len(pairs) == len(sc.tiles)


def _noise_photo(w: int, h: int) -> np.ndarray:
    rng = np.random.default_rng(w)
    return cv2.resize((rng.random((h // 8, w // 8, 3)) * 255).astype(np.uint8), (w, h))


@pytest.mark.parametrize(
    "size,fmt,work_long,detail_long",
    [
        ((1200, 900), ".jpg", 1200, None),  # nothing finer than the working image
        ((2000, 1500), ".jpg", 1000, 2000),  # working at half size, read at full size
        ((4000, 3000), ".jpg", 1000, 2000),  # working at a quarter, read at half (a 12 MP photo)
        ((3600, 2700), ".jpg", 1400, 1800),  # the half-size decode is already larger than working
        ((12000, 3000), ".jpg", 1400, 1500),  # so is the eighth-size decode of a panorama
        ((3000, 2250), ".png", 1400, 2800),  # no reduced decode: shrunk to DETAIL_MAX
    ],
)
def test_detail_image_is_the_working_image_larger(size, fmt, work_long, detail_long):
    img = _noise_photo(*size)
    ok, enc = cv2.imencode(fmt, img)
    ph = photo.load(enc.tobytes())
    assert max(ph.image.shape[:2]) == work_long and (ph.width, ph.height) == size
    if detail_long is None:
        assert ph.detail is None
        return
    assert ph.detail is not None and max(ph.detail.shape[:2]) == detail_long
    h, w = ph.image.shape[:2]
    assert abs(ph.detail.shape[1] / ph.detail.shape[0] - w / h) < 0.01  # the same framing
    shrunk = cv2.resize(ph.detail, (w, h), interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - ph.image.astype(int)).mean() < 3


def _bright(img: np.ndarray) -> float:
    return float(np.percentile(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), photo.BRIGHT_PERCENTILE))


@pytest.mark.parametrize(("level", "brightened_to"), [(1.0, None), (0.5, 230), (0.25, 230), (0.04, 36)])
def test_an_underexposed_photo_is_brightened(level, brightened_to):
    """A photo taken in a dim room is brightened until its brightest parts (the tile faces) are
    bright, the detail image alike; a photo exposed well enough is left as it is, and a photo of
    the dark is brightened at most :data:`vision.photo.MAX_GAIN` times."""
    img = np.full((2250, 3000, 3), 90, np.uint8)  # a table with a row of twelve ivory faces
    for i in range(12):
        img[900:1160, 300 + 200 * i : 480 + 200 * i] = (200, 228, 236)
    dim = (img * level).astype(np.uint8)
    ph = photo.load(_jpeg(dim, 92))
    if brightened_to is None:
        assert photo.exposed(ph.image) is None and _bright(ph.image) == pytest.approx(_bright(dim[::2, ::2]), abs=3)
        return
    assert _bright(ph.image) == pytest.approx(brightened_to, abs=6)
    assert ph.detail is not None and _bright(ph.detail) == pytest.approx(_bright(ph.image), abs=3)


LABELLED = Path(__file__).resolve().parents[2].parent / "shared" / "vision-data" / "camerash-mahjong-dataset"


@pytest.mark.skipif(not LABELLED.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize("name", ["2-1.jpg", "1-6.jpg"])
def test_a_hand_photographed_in_a_dim_room_is_read(name, monkeypatch):
    """Real hands (a row of nine, and sixteen tiles in rows) with their levels at a quarter, as a
    phone left to its exposure in a dim room might take them: read whole, as the photos are; left
    dark, the networks, which learned bright faces, read under half of their tiles (the face
    regions the finder found nothing in, read on their own, session 50, not read: they find some
    of the dark tiles too; nor, session 54, the first look's finds a smaller look lost, nor the
    photo lifted where part of it seems shaded)."""
    from collections import Counter

    from training.evaluate import load_labels

    labels = Counter(load_labels()[name])
    dark = _jpeg((cv2.imread(str(LABELLED / "raw-images" / name)) * 0.25).astype(np.uint8))
    assert Counter(recognize(dark).codes) == labels
    monkeypatch.setattr(photo, "DIM_BELOW", 0)
    monkeypatch.setattr(sys.modules["vision.recognize"], "_unfound_faces_read", lambda *args: [])
    monkeypatch.setattr(sys.modules["vision.finders.learned"], "_with_tiles_lost_smaller", lambda found, *args: found)
    monkeypatch.setattr(
        sys.modules["vision.recognize"], "_search_lifted", lambda ph, cands, fm, _finder: (ph, cands, fm)
    )
    assert sum((Counter(recognize(dark).codes) & labels).values()) < labels.total() / 2


def _reading_on(table: tuple[int, int, int], face: tuple[int, int, int], sure: bool = True):
    """A 200 x 200 photo of ``table`` with one 60 x 80 ``face`` in the middle, and a reading of
    that face (sure or not)."""
    from vision.finders import Candidate
    from vision.readings import Reading

    img = np.full((200, 200, 3), table, np.uint8)
    img[60:140, 70:130] = face
    quad = np.array([[70, 60], [130, 60], [130, 140], [70, 140]], np.float32)
    return img, Reading(Candidate(quad), quad, 0, [("5p", 0.99)], sure)


@pytest.mark.parametrize(
    ("table", "face", "sure", "why"),
    [
        ((255, 255, 255), (255, 255, 255), False, "a burnt-out face on a burnt-out table: the box cannot be checked"),
        ((60, 90, 40), (255, 255, 255), True, "a burnt-out face on a dark mat: its edges show"),
        ((255, 255, 255), (200, 228, 236), True, "an ivory face on a burnt-out table: its edges show"),
        ((250, 252, 251), (252, 250, 255), False, "every channel at 250 or more is burnt out"),
        ((249, 255, 255), (255, 255, 255), True, "a channel under 250 still shows the table"),
    ],
)
def test_a_reading_in_a_burnt_out_patch_is_not_sure(table, face, sure, why):
    from vision.layout_rules import _burnt_out

    img, reading = _reading_on(table, face)
    readings, burnt = _burnt_out([reading], img)
    assert readings[0].sure is sure and burnt == (not sure), why


def test_a_reading_that_was_not_sure_stays_so_in_any_light():
    from vision.layout_rules import _burnt_out

    img, reading = _reading_on((60, 90, 40), (200, 228, 236), sure=False)
    assert _burnt_out([reading], img) == ([reading], 0)


@pytest.mark.skipif(not LABELLED.exists(), reason="../shared/vision-data (Camerash photos) not available")
@pytest.mark.parametrize(("name", "gain", "wrong"), [("13.jpg", 1.5, 1), ("3.png", 1.3, 0)])
def test_a_grid_photographed_overexposed_shows_no_wrong_tile_as_sure(name, gain, wrong, monkeypatch):
    """Catalogue grids of touching tiles on white, their levels 1.3 or 1.5 times as high and
    clipped (a phone that metered a dark table): the seams burn out and some boxes straddle two
    faces or part of one, read surely as another tile. Their readings are not sure; tiles whose
    edges still show stay sure. Left: on 13.jpg a box over the top two thirds of a 9p at the
    photo's top edge, whose band runs across the 9p's dots, reads as an 8p surely (at 0.97 in
    session 32 too, where the photo saved at JPEG quality 92 showed it so; session 33's tighter
    views read it so at quality 90 as well)."""
    import sys

    from training.evaluate import load_labels, sure_wrong_bounds
    from training.exposure import overexpose

    labels = load_labels()[name]
    photo_ = _jpeg(overexpose(cv2.imread(str(LABELLED / "raw-images" / name)), gain))
    rec = recognize(photo_)
    assert sure_wrong_bounds(labels, rec.tiles)[1] <= wrong and sum(t.sure for t in rec.tiles) >= 20
    assert rec.reason is not None and rec.reason.startswith("overexposed photo: ")  # the page offers a retake
    assert recognize(_jpeg(cv2.imread(str(LABELLED / "raw-images" / name)))).reason is None  # as it was taken
    monkeypatch.setattr(sys.modules["vision.layout_rules"], "BURNT_FACE_MIN", 2.0)  # the rule off
    assert sure_wrong_bounds(labels, recognize(photo_).tiles)[1] > wrong


def test_crops_are_cut_from_the_detail_image():
    # a 2400x1800 photo: tiles are found in the 1200-px working image and cut from the 2400-px one,
    # so each crop has twice the pixels and shows the same tile
    sc = _scene(3, n_rows=2, with_rotated=False, n_indicators=0)
    ph = photo.load(_jpeg(cv2.resize(sc.image, (2400, 1800), interpolation=cv2.INTER_CUBIC), 92))
    assert ph.detail is not None and ph.detail.shape[1] == 2 * ph.image.shape[1]
    coarse = find_candidates(ph.image)
    fine = find_candidates(ph.image, detail=ph.detail)
    assert len(coarse) == len(fine) >= len(sc.tiles) - 1
    for a, b in zip(coarse, fine):
        np.testing.assert_array_equal(a.quad, b.quad)  # quads stay in working pixels
        (_, small), (_, large) = a.crops[0], b.crops[0]
        assert large.shape[0] >= min(160, 1.8 * small.shape[0])
        down = cv2.resize(large, small.shape[1::-1], interpolation=cv2.INTER_AREA).astype(np.float32)
        assert np.corrcoef(down.ravel(), small.astype(np.float32).ravel())[0, 1] > 0.9


# ----------------------------------------------------------------------------------------------
# recognition result


def test_recognition_structure_with_fake_classifier():
    sc = _scene_with_rotated(60, surface="felt")
    rec = recognize(sc.jpeg(90), classifier=_FakeClassifier())
    d = rec.to_dict()
    json.dumps(d)
    assert set(d) == {"tiles", "groups", "width", "height", "timings_ms", "reason", "rejected"}
    assert d["rejected"] == 0 and all(t["sure"] is False for t in d["tiles"])  # a fake classifier is never sure
    assert set(rec.timings_ms) == {"decode", "segment", "classify", "slant", "group", "total"}
    assert rec.tiles and all(t.code in FAKE_FACES for t in rec.tiles)
    t0 = rec.tiles[0]
    assert len(t0.quad) == 4 and len(t0.alternatives) == 3 and t0.alternatives[0][0] == t0.code
    # groups cover every tile exactly once, in reading order
    flat = [i for g in rec.groups for i in g["tiles"]]
    assert flat == list(range(len(rec.tiles)))
    assert all(g["codes"][-1] in "mps" for g in rec.groups)
    # the quad of an upright tile starts at its top-left corner and runs clockwise
    q = np.asarray(next(t.quad for t in rec.tiles if not t.rotated))
    a, b = q[1] - q[0], q[2] - q[1]
    cross = a[0] * b[1] - a[1] * b[0]
    assert cross > 0 and q[0][1] < q[3][1]
    assert "row 0" in rec.to_text()


def _fixture_cases():
    return sorted(FIXTURES.glob("scene_*.json")) if FIXTURES.exists() else []


@pytest.mark.parametrize("gt_path", _fixture_cases(), ids=lambda p: p.stem)
def test_fixture_photos_geometry(gt_path):
    gt = json.loads(gt_path.read_text())
    rec = recognize((FIXTURES / gt["image"]).read_bytes(), classifier=_FakeClassifier())
    pairs = _match([t["quad"] for t in gt["tiles"]], [t.quad for t in rec.tiles], thr=0.5)
    assert len(pairs) >= len(gt["tiles"]) - 1
    assert len(rec.tiles) <= len(gt["tiles"]) + 1


@pytest.mark.skipif(not (MODELS / "tile_classifier.onnx").exists(), reason="classifier model not trained yet")
@pytest.mark.parametrize("gt_path", _fixture_cases(), ids=lambda p: p.stem)
def test_fixture_photos_codes(gt_path):
    gt = json.loads(gt_path.read_text())
    rec = recognize((FIXTURES / gt["image"]).read_bytes())
    pairs = _match([t["quad"] for t in gt["tiles"]], [t.quad for t in rec.tiles], thr=0.5)
    correct = sum(gt["tiles"][g]["code"] == rec.tiles[p].code for g, p, _ in pairs)
    assert correct >= 0.8 * len(gt["tiles"]), rec.to_text()


# ----------------------------------------------------------------------------------------------
# face-down tiles (concealed kong)


def _kong_scene(seed):
    return _scene(seed, n_rows=1, with_rotated=False, n_indicators=0, n_kongs=1)


def test_scene_renders_concealed_kong():
    sc = _kong_scene(4)
    codes = sc.codes
    assert codes.count("back") in (2, 4)
    i = codes.index("back")
    kong = codes[i : i + 4]
    assert len(kong) == 4 and kong[0] == "back" and kong[3] == "back"
    # a normal scene (the benchmark's) has no backs
    assert "back" not in _scene(4, n_rows=1, with_rotated=False, n_indicators=0).codes


def test_back_probes_at_face_down_tiles():
    hits = total = 0
    for seed in (5, 6, 7):
        sc = _kong_scene(seed)
        cands, quads = _segment_scene(sc, method="classical")
        probes = [q for c, q in zip(cands, quads) if c.source == "back_probe"]
        backs = [t["quad"] for t in sc.tiles if t["code"] == "back"]
        total += len(backs)
        hits += len(_match(backs, probes, thr=0.5))
        # probes never sit on face-up tiles
        faces = [t["quad"] for t in sc.tiles if t["code"] != "back"]
        assert not _match(faces, probes, thr=0.3)
    assert hits >= total - 1, f"{hits} of {total} backs probed"


def test_back_probes_dropped_unless_read_as_back(monkeypatch):
    # the stand-in classifier answers faces whatever the crop, so its faces have no up to measure a
    # slant on: the photo, taken from straight above, is read as taken
    monkeypatch.setattr(slant, "view_of", lambda faces, box, spreads=None: slant.View())
    sc = _kong_scene(5)
    rec = recognize(sc.jpeg(90), classifier=_FakeClassifier(), finder="classical")  # reads no crop as back
    faces = [t for t in sc.tiles if t["code"] != "back"]
    assert len(rec.tiles) <= len(faces) + 1


@pytest.mark.skipif(not (MODELS / "tile_classifier.onnx").exists(), reason="classifier model not trained yet")
def test_concealed_kong_backs_recognised():
    """The shipped models read the backs of a concealed kong laid out with the hand, on scenes drawn
    with tile artwork: the classifier reads the placeholder faces' coloured letters, which are no
    tile face, as not a tile (since the classifier of session 15), and a back beyond two faces it
    drops is rightly linked to no tile."""
    faces = scenes.artwork_face_fn()
    if faces is None:
        pytest.skip("no tile artwork (../shared/vision-data) to draw the faces with")
    found = total = wrong = 0
    for seed in (5, 6, 7):
        sc = _scene(seed, n_rows=1, with_rotated=False, n_indicators=0, n_kongs=1, face_fn=faces)
        rec = recognize(sc.jpeg(90))
        pairs = _match([t["quad"] for t in sc.tiles], [t.quad for t in rec.tiles], thr=0.5)
        for g, p, _ in pairs:
            if sc.tiles[g]["code"] == "back":
                found += rec.tiles[p].code == "back"
            elif rec.tiles[p].code == "back":
                wrong += 1
        total += sum(t["code"] == "back" for t in sc.tiles)
        assert len(rec.tiles) <= len(sc.tiles) + 1
    assert found >= total - 1 and wrong == 0, f"{found} of {total} backs read, {wrong} faces read as back"


# ----------------------------------------------------------------------------------------------
# frame-filling close-ups


def _closeup(seed, rows=3, cols=5, th=240):
    """Tiles filling the whole frame (no table visible), rows slightly staggered, seams soft."""
    rng = np.random.default_rng(seed)
    tw = int(th * 0.75)
    W, H = cols * tw, rows * th
    img = np.full((H, W, 3), 200, np.float32)
    gt = []
    for r in range(rows):
        off = int(rng.uniform(-0.08, 0.08) * tw) if r % 2 else 0
        for c in range(-1, cols + 1):
            x0, y0 = c * tw + off, r * th
            face = cv2.resize(
                scenes._placeholder_face(str(rng.choice(scenes.PLAY_CODES)), rng), (tw - 6, th - 6)
            ).astype(np.float32)
            m = np.zeros((th - 6, tw - 6), np.uint8)
            m[1:-1, 1:-1] = 1
            dist = cv2.distanceTransform(m, cv2.DIST_L2, 3)
            face *= (0.85 + 0.15 * np.clip(dist / (0.1 * tw), 0, 1))[:, :, None]
            xa, xb = max(0, x0 + 3), min(W, x0 + tw - 3)
            if xb <= xa:
                continue
            img[y0 + 3 : y0 + th - 3, xa:xb] = face[:, xa - (x0 + 3) : xb - (x0 + 3)]
            if x0 >= 0 and x0 + tw <= W:
                gt.append([[x0 + 3, y0 + 3], [x0 + tw - 3, y0 + 3], [x0 + tw - 3, y0 + th - 3], [x0 + 3, y0 + th - 3]])
    img = cv2.GaussianBlur(img, (0, 0), 2.0)
    return np.clip(img, 0, 255).astype(np.uint8), gt


def test_frame_filling_closeup_split_into_tiles(finder):
    for seed in (1, 2):
        img, gt = _closeup(seed)
        ph = photo.load(_jpeg(img, 92))
        cands = find_candidates(ph.image, finder=finder, crops=False)
        quads = [c.quad * [ph.scale_x, ph.scale_y] for c in cands]
        pairs = _match(gt, quads, thr=0.5)
        assert len(pairs) >= len(gt) - 2, f"seed {seed}: {len(pairs)} of {len(gt)} tiles, {len(cands)} candidates"
        assert len(cands) <= len(gt) + 3
