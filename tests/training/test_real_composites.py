"""Table (c2)'s composites (:mod:`training.real_composites`): a labelled photo turned and pasted whole
into a background photo, deterministically (no network: synthetic photo and background)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training import real_composites


def _photo() -> np.ndarray:
    """A 300 x 200 'photo': mid grey with a white border, so its outline can be found."""
    img = np.full((200, 300, 3), 128, np.uint8)
    img[:4], img[-4:], img[:, :4], img[:, -4:] = 255, 255, 255, 255
    return img


@pytest.mark.parametrize("seed", range(12))
def test_the_pasted_photo_lies_whole_inside_the_frame_at_its_share(seed):
    background = np.zeros((1500, 2000, 3), np.uint8)
    out = real_composites.paste(_photo(), background, np.random.default_rng(seed))
    assert out.shape == background.shape
    mask = (out.max(axis=2) > 0).astype(np.uint8)
    ys, xs = np.nonzero(mask)
    # whole: nothing of it touches the frame's border
    assert ys.min() > 0 and xs.min() > 0 and ys.max() < 1499 and xs.max() < 1999
    # turned by at most MAX_TURN, its long side 35-65 % of the frame's (the turned box's, at most)
    (_, (w, h), angle) = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    long_ = max(w, h)
    assert 0.3 * 2000 <= long_ <= 0.66 * 2000
    turn = min(abs(angle) % 90, 90 - abs(angle) % 90)
    assert turn <= real_composites.MAX_TURN + 1


def test_composites_are_the_same_on_every_run_and_keep_the_labels(tmp_path, monkeypatch):
    from training import backgrounds

    wall = np.random.default_rng(0).integers(0, 255, (600, 800, 3), np.uint8)
    b = backgrounds.Background("images/wall.jpg", "pkg", "1.0", "usr/share/wall.jpg", "GPL-2+", "wall")
    monkeypatch.setattr(backgrounds, "load_manifest", lambda *a, **k: [b])
    monkeypatch.setattr(backgrounds, "read_background", lambda *a, **k: wall)
    monkeypatch.setattr(real_composites, "is_heldout_background", lambda name: True)
    cv2.imwrite(str(tmp_path / "hand.png"), _photo())
    cv2.imwrite(str(tmp_path / "grid.png"), _photo())
    labelled = [("hand.png", tmp_path / "hand.png", ["1m", "2m"]), ("grid.png", tmp_path / "grid.png", ["1p"] * 144)]
    first = real_composites.composites(iter(labelled), 3)
    again = real_composites.composites(iter(labelled), 3)
    assert [c.jpeg for c in first] == [c.jpeg for c in again]
    # the 144-tile grid is left out; each composite carries its photo's labels
    assert [c.photo for c in first] == ["hand.png"] * 3
    assert all(c.labels == ["1m", "2m"] for c in first)
    assert len({c.jpeg for c in first}) == 3


@pytest.mark.parametrize(("seed", "share"), [(0, 0.12), (1, 0.15), (2, 0.2)])
def test_a_photo_pasted_far_from_the_camera_takes_its_share_of_a_12_megapixel_frame(seed, share):
    """Table (c6): the pasted photo's long side (its turned box's) is ``share`` of the frame's."""
    background = np.zeros((3000, 4000, 3), np.uint8)
    out = real_composites.paste(_photo(), background, np.random.default_rng(seed), (share, share))
    ys, xs = np.nonzero(out.max(axis=2) > 0)
    box = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
    assert box == pytest.approx(share * 4000, rel=0.02)


def test_a_table_pastes_the_hand_large_below_and_other_photos_above_with_every_label(tmp_path, monkeypatch):
    """Table (c7): the hand (at most TABLE_HAND_MAX tiles) in the lower band, two or three other
    photos above it, their labels added; a composite names a photo the classifier trained on where
    one was pasted; the same JPEGs on every run."""
    from training import backgrounds

    wall = np.zeros((1600, 2100, 3), np.uint8)
    b = backgrounds.Background("images/wall.jpg", "pkg", "1.0", "usr/share/wall.jpg", "GPL-2+", "wall")
    monkeypatch.setattr(backgrounds, "load_manifest", lambda *a, **k: [b])
    monkeypatch.setattr(backgrounds, "read_background", lambda *a, **k: wall)
    monkeypatch.setattr(real_composites, "is_heldout_background", lambda name: True)
    labelled = []
    for name, labels in (("a.png", ["1m"] * 8), ("b.png", ["2p"] * 36), ("c.png", ["3s"] * 9), ("d.png", ["4z"] * 144)):
        cv2.imwrite(str(tmp_path / name), _photo())
        labelled.append((name, tmp_path / name, labels))
    first = real_composites.table_composites(iter(labelled), 4, frozenset({"b.png"}))
    assert [c.jpeg for c in first] == [
        c.jpeg for c in real_composites.table_composites(iter(labelled), 4, frozenset({"b.png"}))
    ]
    for c in first:
        hand = c.name.split(" + ")[0]
        assert hand in ("a.png", "c.png")  # (b has 36 tiles, d 144: no hands)
        assert "d.png" not in c.name  # (over MAX_TILES: never pasted)
        img = cv2.imdecode(np.frombuffer(c.jpeg, np.uint8), cv2.IMREAD_COLOR)
        x0, y0, x1, y1 = real_composites.TABLE_HAND_BAND
        assert img[y0:y1, x0:x1].max() > 200 and img[:y0, :].max() > 200  # (the hand below, others above)
        others = c.name.split(" + ")[1].split(" on ")[0].split(", ")
        assert 1 <= len(others) <= 3
        assert len(c.labels) == sum({"a.png": 8, "b.png": 36, "c.png": 9}[n] for n in [hand, *others])
        assert c.photo == ("b.png" if "b.png" in others else hand)


@pytest.mark.parametrize("seed", range(8))
def test_a_pale_table_is_plain_and_as_light_as_ivory_faces_or_lighter(seed):
    table = real_composites.pale_table(np.random.default_rng(seed))
    assert table.shape == (1200, 1600, 3) and table.dtype == np.uint8
    assert np.median(table) >= 200 and table.std(axis=(0, 1)).max() < 8  # (no texture: noise and shading)


def test_pale_composites_are_the_same_on_every_run_keep_the_labels_and_leave_grids_out(tmp_path):
    """(c10)'s photos need no background cache: a labelled photo pasted on a pale table, two per
    photo; a 144-tile grid is not pasted."""
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), _photo())
    labelled = [("hand.png", path, ["1m", "2m"]), ("grid.png", path, ["1m"] * 144)]
    made = real_composites.pale_composites(iter(labelled), 2)
    again = real_composites.pale_composites(iter(labelled), 2)
    assert [c.jpeg for c in made] == [c.jpeg for c in again]
    assert [(c.name, c.photo, c.labels) for c in made] == [("hand.png on a pale table", "hand.png", ["1m", "2m"])] * 2
    frame = cv2.imdecode(np.frombuffer(made[0].jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert frame.shape == (1200, 1600, 3)
    assert np.median(frame[:40]) >= 200  # (the table round the pasted photo)
