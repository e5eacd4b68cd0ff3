"""The shipped classifier's calibration is what ``python -m training.calibrate`` fits: the
temperature, the sure threshold and the tighter views' share, from the held-out real crops read in
the views the runtime reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")

from training import artwork  # noqa: E402
from training.calibrate import calibrate  # noqa: E402
from vision.classifier import INSET_SHARE  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"


@pytest.mark.skipif(
    not artwork.DEFAULT_DATA.exists(), reason="../shared/vision-data (held-out real crops) not available"
)
def test_the_shipped_calibration_is_fitted_again_as_it_stands(tmp_path):
    for f in MODELS.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    shipped = json.loads((MODELS / "tile_classifier.json").read_text())["calibration"]
    fitted = calibrate(tmp_path, artwork.DEFAULT_DATA)
    assert shipped["inset"] == INSET_SHARE  # the share the runtime's docs give
    for key in ("temperature", "sure_threshold", "inset", "unsure_suits", "sure_crops_heldout", "network"):
        assert fitted[key] == shipped[key], key
    without = calibrate(tmp_path, artwork.DEFAULT_DATA, share=0.0)  # the crop and its half-turn alone
    assert without["inset"] == 0.0 and without["temperature"] != shipped["temperature"]
