"""The shipped ONNX models, opened one way: files from the ``models`` package, one session each.

The models (the tile finder ``tile_segmenter``, the classifier ``tile_classifier`` and its fallback
for featureless crops ``tile_fallback``) ship as
package data of the top-level ``models`` package: ``<name>.onnx`` and its metadata
``<name>.json``. They are looked up in ``$MJC_MODEL_DIR`` when that is set (a folder holding
retrained models), else in the installed ``models`` package (a source checkout and a wheel install
alike, through :func:`importlib.resources.files`).

A network trained and exported in float32 may also ship an int8 copy for the CPU (made by
``python3 run.py quantize``, see :mod:`training.quantize`), named in its metadata as
``runtime.file``: :func:`runtime_file` picks it, unless ``$MJC_FLOAT_MODELS`` is set (to compare
the two). The float file stays the training artefact (training continues from it).

:func:`session` creates an onnxruntime session lazily, once per model file, under a lock (two
requests arriving together share one session); onnxruntime's ``run`` is itself thread-safe.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

ENV_DIR = "MJC_MODEL_DIR"
#: set (to anything but empty) to run the float networks even where an int8 copy ships
ENV_FLOAT = "MJC_FLOAT_MODELS"
#: onnxruntime threads per session (the table's machine may be a 2-core box)
INTRA_OP_THREADS = 2

_sessions: dict[str, Any] = {}
#: the session of each (name, folder, float asked) already opened: the networks run several times
#: a photo, and finding the file again (the folder, the metadata's ``runtime.file``) cost more
#: than a small network's run
_opened: dict[tuple[str, str, bool], Any] = {}
_lock = threading.Lock()


def model_dir() -> Traversable:
    """Where the models are looked up: ``$MJC_MODEL_DIR`` if set, else the ``models`` package."""
    env = os.environ.get(ENV_DIR)
    return Path(env) if env else _package_dir()


@functools.lru_cache(maxsize=1)
def _package_dir() -> Traversable:
    """The installed ``models`` package's folder (looked up once)."""
    return files("models")


def model_file(name: str, suffix: str = ".onnx", directory: Traversable | None = None) -> Traversable:
    """The file ``<name><suffix>`` in ``directory`` (default :func:`model_dir`)."""
    return (directory if directory is not None else model_dir()) / f"{name}{suffix}"


def available(name: str, directory: Traversable | None = None) -> bool:
    """Whether the model ``name`` ships (its ``.onnx`` file exists)."""
    return model_file(name, ".onnx", directory).is_file()


def metadata(name: str, directory: Traversable | None = None) -> dict:
    """The model's metadata (``<name>.json``: classes, input format, training record), or ``{}``
    when the file is missing."""
    path = model_file(name, ".json", directory)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def runtime_file(name: str, directory: Traversable | None = None) -> Traversable:
    """The network file that runs for ``name``: the int8 copy its metadata names as
    ``runtime.file`` where it ships (and ``$MJC_FLOAT_MODELS`` is not set), else ``<name>.onnx``."""
    directory = directory if directory is not None else model_dir()
    copy = (metadata(name, directory).get("runtime") or {}).get("file")
    if copy and not os.environ.get(ENV_FLOAT) and (directory / copy).is_file():
        return directory / copy
    return model_file(name, ".onnx", directory)


def session(name: str, directory: Traversable | None = None) -> Any:
    """The process-wide onnxruntime session of ``name``'s :func:`runtime_file` in ``directory``
    (default :func:`model_dir`), created on first use: CPU only, :data:`INTRA_OP_THREADS` threads
    that sleep as soon as a run ends, all graph optimisations."""
    directory = directory if directory is not None else model_dir()
    asked = (name, str(directory), bool(os.environ.get(ENV_FLOAT)))
    sess = _opened.get(asked)
    if sess is not None:
        return sess
    path = runtime_file(name, directory)
    key = str(path)
    with _lock:
        sess = _sessions.get(key)
        if sess is None:
            import onnxruntime as ort

            so = ort.SessionOptions()
            so.intra_op_num_threads = INTRA_OP_THREADS
            so.inter_op_num_threads = 1
            # threads that spin-wait after a run took a core from the Python work between the
            # networks (and from whatever ran next): on 2 cores, a tray photo took 88 ms, 51 without
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            sess = _sessions[key] = ort.InferenceSession(
                path.read_bytes(), sess_options=so, providers=["CPUExecutionProvider"]
            )
        _opened[asked] = sess
        return sess
