"""Background photos for synthetic scenes (:mod:`training.backgrounds`): the cache's selection rules and
the deterministic crops, on a small cache written to a tmp folder (no network, no packages)."""

from __future__ import annotations

import json
from dataclasses import asdict

import cv2
import numpy as np
import pytest

from training import backgrounds as bg


def _cache(tmp_path, entries):
    """A cache folder holding ``entries`` (Background, write_image) and their manifest."""
    (tmp_path / "images").mkdir()
    for b, write in entries:
        if write:
            img = np.random.default_rng(len(b.file)).integers(0, 255, (90, 120, 3), np.uint8)
            cv2.imwrite(str(tmp_path / b.file), img)
    manifest = {"version": bg.CACHE_VERSION, "images": [asdict(b) for b, _ in entries]}
    (tmp_path / bg.MANIFEST).write_text(json.dumps(manifest))
    return tmp_path


def _bg(name, licence="GPL-2+"):
    return bg.Background(f"images/{name}.jpg", "pkg", "1.0", f"usr/share/{name}.jpg", licence, "wood")


@pytest.mark.parametrize(
    "entries, expected",
    [
        ([(_bg("b"), True), (_bg("a"), True)], ["images/a.jpg", "images/b.jpg"]),  # sorted by file
        ([(_bg("a"), True), (_bg("gone"), False)], ["images/a.jpg"]),  # image missing: left out
        ([(_bg("a"), True), (_bg("nc", "CC-BY-NC-4.0"), True)], ["images/a.jpg"]),  # licence not free
        ([], []),
    ],
)
def test_manifest_selection(tmp_path, entries, expected):
    assert [b.file for b in bg.load_manifest(_cache(tmp_path, entries))] == expected


def test_no_manifest_or_old_version_gives_nothing(tmp_path):
    assert bg.load_manifest(tmp_path) == []
    assert bg.ensure_backgrounds(tmp_path, fetch=False) == []
    (tmp_path / bg.MANIFEST).write_text(json.dumps({"version": bg.CACHE_VERSION - 1, "images": []}))
    assert bg.load_manifest(tmp_path) == []


def test_crops_are_deterministic_and_sized(tmp_path):
    folder = _cache(tmp_path, [(_bg("a"), True), (_bg("b"), True)])
    take = lambda seed: [next(it) for it in [bg.iter_backgrounds(seed, (64, 48), folder=folder)] for _ in range(6)]
    first, again, other = take(3), take(3), take(4)
    for (img, b), (img2, b2) in zip(first, again):
        assert img.shape == (48, 64, 3) and img.dtype == np.uint8
        assert b == b2 and np.array_equal(img, img2)
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(first, other))


def test_no_backgrounds_yields_nothing(tmp_path):
    assert list(bg.iter_backgrounds(0, (64, 48), folder=tmp_path)) == []


def test_sources_metadata_names_licence():
    meta = bg.sources_metadata([_bg("a", "CC0-1.0")])
    assert meta == [{"package": "pkg", "version": "1.0", "source": "usr/share/a.jpg", "licence": "CC0-1.0"}]


def test_catalogue_licences_are_free():
    for entries in bg.CATALOGUE.values():
        assert all(licence in bg.FREE_LICENCES for _, licence, _ in entries)
    assert all(licence in bg.FREE_LICENCES for _, licence, _ in bg.SKIMAGE)


def test_a_cache_short_of_a_source_fetches_it_once_and_keeps_what_it_holds(tmp_path, monkeypatch):
    """A cache built where scikit-image was not installed gains its samples when it is; a full cache
    fetches nothing. (No network: the fetches write small images of their own.)"""
    asked: list[str] = []

    def fetched(source: str, name: str) -> list[bg.Background]:
        asked.append(source)
        (tmp_path / "images").mkdir(exist_ok=True)
        rel = f"images/{source}__{name}.jpg"
        cv2.imwrite(str(tmp_path / rel), np.zeros((40, 60, 3), np.uint8))
        return [bg.Background(rel, source, "1", name, "GPL-2+", "test")]

    skimage_installed = False
    monkeypatch.setattr(bg, "_fetch_debian", lambda package, entries, folder: fetched(package, "x"))
    monkeypatch.setattr(
        bg, "_fetch_skimage", lambda folder: fetched(bg.SKIMAGE_SOURCE, "brick") if skimage_installed else []
    )
    first = bg.ensure_backgrounds(tmp_path)
    assert sorted(asked) == sorted(bg.CATALOGUE) and bg.missing_sources(first) == [bg.SKIMAGE_SOURCE]
    asked.clear()
    skimage_installed = True
    second = bg.ensure_backgrounds(tmp_path)
    assert asked == [bg.SKIMAGE_SOURCE] and bg.missing_sources(second) == []
    assert set(first) < set(second) and bg.load_manifest(tmp_path) == second
    asked.clear()
    assert bg.ensure_backgrounds(tmp_path) == second and asked == []
    assert bg.ensure_backgrounds(tmp_path, fetch=False) == second
