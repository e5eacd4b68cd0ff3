"""``--pale-share``: the finder's table photos drawn on pale plain tables (white, light grey, cream:
:func:`training.scenes._pale`), as light as ivory faces or lighter, where the finder trained only on
felt, wood, cloth, plastic and dark tables lost tiles (white desks, white tablecloths)."""

from __future__ import annotations

import numpy as np
import pytest

import training.scenes as scenes
import training.train_segmenter as ts


@pytest.mark.parametrize("seed", range(12))
def test_a_pale_table_is_as_light_as_ivory_faces_or_lighter(seed):
    surface = scenes.make_surface(np.random.default_rng(seed), 160, 120, "pale")
    assert surface.shape == (120, 160, 3) and surface.dtype == np.float32
    assert 0 <= surface.min() and surface.max() <= 255
    assert np.median(surface) >= 175  # (the darkest colour, beige, at 0.9: 180 less its texture)


def test_a_table_of_no_named_kind_is_never_pale():
    """The benchmark's scenes draw their tables at random among the other kinds: a pale one only
    where asked for, so their photos stay the same."""
    for seed in range(30):
        surface = scenes.make_surface(np.random.default_rng(seed), 64, 48)
        assert np.median(surface) < 215


def _surfaces(monkeypatch, share: float, seeds: range) -> list[str | None]:
    """The ``surface`` asked of :func:`training.scenes.make_scene` by each table photo of ``seeds``
    (phone-like photos draw no table of their own), with ``--pale-share`` at ``share``."""
    asked: list[str | None] = []

    def make_scene(rng, **kw):
        asked.append(kw.get("surface"))
        raise StopIteration

    monkeypatch.setattr(ts._scenes, "make_scene", make_scene)
    monkeypatch.setitem(ts.PHONE_SHARE, "value", 0.0)
    monkeypatch.setitem(ts.PALE_SHARE, "value", share)
    for seed in seeds:
        with pytest.raises(StopIteration):
            ts.make_sample(seed)
    return asked


def test_without_the_option_no_table_photo_asks_for_a_pale_table(monkeypatch):
    assert _surfaces(monkeypatch, 0.0, range(20)) == [None] * 20


def test_with_the_option_about_that_share_of_the_table_photos_is_pale(monkeypatch):
    asked = _surfaces(monkeypatch, 0.35, range(200))
    assert set(asked) == {None, "pale"}
    assert 0.25 <= asked.count("pale") / len(asked) <= 0.45
    assert _surfaces(monkeypatch, 1.0, range(10))[-10:] == ["pale"] * 10


def test_the_option_is_read_from_the_command_line():
    assert ts._arguments(["--pale-share", "0.35"]).pale_share == 0.35
    assert ts._arguments([]).pale_share == 0.0
