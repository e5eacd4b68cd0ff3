"""Benchmark of the photo pipeline: thin wrapper around :mod:`training.evaluate`.

.venv/bin/python bench/bench_vision.py [--data ../shared/vision-data] [--scenes 40] [--json out.json]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.evaluate import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
