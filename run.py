#!/usr/bin/env python3
"""One entry point that sets itself up: ``python3 run.py serve`` and ``python3 run.py test``.

Needs only python3. The first run creates ``.venv/`` beside this file and installs the
project with the extras the command needs; later runs skip the install unless
``pyproject.toml`` changed (a stamp file remembers its hash), so re-running is fast.

Commands:
  serve [ARGS...]   start the companion server (``mjc serve ARGS``)
  test [ARGS...]    run the whole test suite (``pytest ARGS``)
  mjc [ARGS...]     run the ``mjc`` command line (score, waits, recognize, serve)
  check             lint and format check (ruff) and type check (mypy) of the whole tree
  bench [NAME...] [--OPTIONS]
                    run the benchmarks in bench/ (engine, vision, ledger, http, server, writes); options after
                    the names go to each (``bench server --crash-rounds 20``); ``bench vision`` installs,
                    as root, the Debian tools and fonts that draw its synthetic photos (as ``train`` does)
  train [ARGS...]   retrain the tile classifier on the CPU (``python -m training.train_classifier ARGS``);
                    installs PyTorch and, as root, the Debian tools and fonts the artwork needs
  train-segmenter [ARGS...]
                    retrain the learned tile finder on the CPU (``python -m training.train_segmenter``;
                    ``--device cuda --fresh-workers N`` on a GPU machine)
  quantize [ARGS...]
                    write the int8 copies of the finder and the classifier that the recogniser runs, and
                    recalibrate the classifier (``python -m training.quantize``); after retraining either
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")

EXTRAS = {
    "serve": "",
    "mjc": "",
    "test": "[dev,e2e]",
    "bench": "[dev,bench]",
    "check": "[dev,check]",
    "train": "[train]",
    "train-segmenter": "[train]",
    "quantize": "[train]",
}

# rsvg-convert renders the SVG tilesets; the CJK fonts typeset extra tile faces for training
TRAIN_DEBS = [
    "librsvg2-bin",
    "fonts-dejavu-core",
    "fonts-arphic-ukai",
    "fonts-arphic-uming",
    "fonts-wqy-zenhei",
    "fonts-wqy-microhei",
]


def _stamp(extras: str) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest}{extras}"


def ensure_env(extras: str) -> None:
    """Create the virtual environment and install the project with ``extras`` if needed."""
    if not PY.exists():
        print(f"[run.py] creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp_file = VENV / f".installed{extras.replace(',', '-')}"
    want = _stamp(extras)
    if stamp_file.exists() and stamp_file.read_text() == want:
        return
    print(f"[run.py] installing the project{extras} into {VENV}", flush=True)
    subprocess.run(
        [str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}{extras}"],
        check=True,
    )
    stamp_file.write_text(want)


def apt_install(packages: list[str], reason: str) -> None:
    """Install Debian packages (root only); without root, say what is missing and go on."""
    if os.geteuid() != 0:
        print(f"[run.py] not root: install {' '.join(packages)} yourself for {reason}", flush=True)
        return
    print(f"[run.py] installing {' '.join(packages)} for {reason}", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=False, env=env)


def ensure_chromium() -> None:
    """End-to-end tests drive Debian's chromium; install it (and its driver) if missing."""
    fonts = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    if Path("/usr/bin/chromium").exists() and Path("/usr/bin/chromedriver").exists() and fonts.exists():
        return
    apt_install(["chromium", "chromium-driver", "fonts-wqy-microhei"], "the end-to-end browser tests")


def ensure_postgres() -> None:
    """The storage tests run against a throwaway PostgreSQL server too (``bench/pgcluster.py``):
    install Debian's ``postgresql`` if ``initdb`` is nowhere to be found."""
    if shutil.which("initdb") or list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        return
    apt_install(["postgresql"], "the PostgreSQL storage tests")


def ensure_artwork_renderers() -> None:
    """The vision tests that draw synthetic photos from the tile artwork in ``../shared/vision-data``
    draw them from every face training renders, SVG sets included: install ``rsvg-convert`` and the
    CJK fonts where that artwork is at hand. Without them those tests are skipped (they would draw
    other faces, and their counts were measured on these), never failed."""
    if (ROOT.parent / "shared" / "vision-data").exists():
        ensure_renderers("the vision tests' synthetic photos (tile artwork)")


def ensure_renderers(reason: str) -> None:
    """Install ``rsvg-convert`` and the CJK fonts the tile artwork is drawn with (:data:`TRAIN_DEBS`)
    if ``rsvg-convert`` is missing."""
    if not shutil.which("rsvg-convert"):
        apt_install(TRAIN_DEBS, reason)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in EXTRAS:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env(EXTRAS[command])
    if command == "serve":
        args = [str(PY), "-m", "companion", "serve", *rest]
    elif command == "mjc":
        args = [str(PY), "-m", "companion", *rest]
    elif command == "test":
        if os.environ.get("MJC_SKIP_E2E") != "1":
            ensure_chromium()
        ensure_postgres()
        ensure_artwork_renderers()
        args = [str(PY), "-m", "pytest", *rest]
    elif command == "check":
        steps = [["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy"]]
        code = 0
        for step in steps:
            print(f"[run.py] {' '.join(step)}", flush=True)
            code |= subprocess.call([str(BIN / step[0]), *step[1:]], cwd=ROOT)
        return code
    elif command in ("train", "train-segmenter", "quantize"):
        ensure_renderers("training (artwork rendering)")
        module = {"train": "training.train_classifier", "train-segmenter": "training.train_segmenter"}.get(
            command, "training.quantize"
        )
        args = [str(PY), "-m", module, *rest]
    else:  # bench
        split = next((i for i, arg in enumerate(rest) if arg.startswith("-")), len(rest))
        names, options = rest[:split] or ["engine"], rest[split:]
        if "vision" in names:
            # the synthetic photos use every tile artwork training renders; without the renderers
            # they would be drawn from fewer faces, and the figures would not compare across machines
            ensure_renderers("the vision benchmark's synthetic photos")
        code = 0
        for name in names:
            code |= subprocess.call([str(PY), str(ROOT / "bench" / f"bench_{name}.py"), *options], cwd=ROOT)
        return code
    return subprocess.call(args, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
