"""The shipped models and the page are package data: a wheel install serves as a checkout does.

Every file in ``models/`` and ``web/`` must match a ``package-data`` pattern in pyproject.toml
(else a wheel would silently leave it out), and the code reads them through
``importlib.resources``, never through paths relative to the source tree.
"""

from __future__ import annotations

import fnmatch
from importlib.resources import files
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DATA = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]


@pytest.mark.parametrize("package", ["models", "web"])
def test_every_shipped_file_is_declared_package_data(package: str) -> None:
    patterns = PACKAGE_DATA[package]
    shipped = [p for p in (ROOT / package).iterdir() if p.is_file() and p.suffix != ".py"]
    assert shipped, f"{package}/ holds no data files"
    left_out = [p.name for p in shipped if not any(fnmatch.fnmatch(p.name, pat) for pat in patterns)]
    assert not left_out, f"a wheel would leave these out of {package}/: {left_out}"


@pytest.mark.parametrize(
    "package, name", [("models", "tile_classifier.onnx"), ("models", "tile_segmenter.json"), ("web", "main.js")]
)
def test_package_data_is_read_through_importlib_resources(package: str, name: str) -> None:
    assert (files(package) / name).is_file()


def test_no_code_finds_models_or_page_through_the_source_tree() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for pkg in ("engine", "vision", "companion")
        for path in (ROOT / pkg).rglob("*.py")
        if "__file__" in path.read_text(encoding="utf-8")
    ]
    assert not offenders, f"use importlib.resources for models/ and web/: {offenders}"
