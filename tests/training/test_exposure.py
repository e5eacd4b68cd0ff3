"""(c4) the labelled real photos overexposed (:mod:`training.exposure`): the levels scaled and
clipped at white, the labels kept; the gains read from ``--exposures``."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.exposure import exposures, overexpose, overexposed


@pytest.mark.parametrize(("spec", "gains"), [("1.3,1.5", [1.3, 1.5]), (" 1.25 ", [1.25]), ("", [])])
def test_gains_are_read_from_the_option(spec, gains):
    assert exposures(spec) == gains


@pytest.mark.parametrize("spec", ["1.0", "0.8,1.3"])
def test_a_gain_that_does_not_brighten_is_an_error(spec):
    with pytest.raises(ValueError, match="over 1"):
        exposures(spec)


def test_an_ivory_face_burns_out_and_its_light_ink_loses_a_channel():
    img = np.full((40, 30, 3), (200, 228, 236), np.uint8)  # an ivory face (BGR)
    img[10:30, 12:18] = (90, 170, 60)  # a light green stroke
    out = overexpose(img, 1.5)
    assert out.dtype == np.uint8 and (out[0, 0] == 255).all()
    assert tuple(out[20, 15]) == (135, 255, 90)  # green clipped: the stroke paler and bluer
    assert tuple(overexpose(img, 1.1)[20, 15]) == (99, 187, 66)


def test_each_photo_comes_once_per_gain_with_its_labels():
    photo = np.full((60, 80, 3), 120, np.uint8)
    raw = cv2.imencode(".png", photo)[1].tobytes()
    out = list(overexposed([("a.jpg", raw, ["1m", "2m"]), ("b.jpg", raw, ["5z"])], [1.3, 1.5]))
    assert [(g, n, labels) for g, n, _, labels in out] == [
        (1.3, "a.jpg", ["1m", "2m"]),
        (1.3, "b.jpg", ["5z"]),
        (1.5, "a.jpg", ["1m", "2m"]),
        (1.5, "b.jpg", ["5z"]),
    ]
    levels = [float(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).mean()) for _, _, jpeg, _ in out]
    assert levels[0] == pytest.approx(156, abs=2) and levels[2] == pytest.approx(180, abs=2)


def test_a_photo_that_cannot_be_decoded_is_named():
    with pytest.raises(ValueError, match="x.jpg"):
        list(overexposed([("x.jpg", b"not a photo", [])], [1.3]))
