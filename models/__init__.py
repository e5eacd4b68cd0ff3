"""The trained models the companion ships (ONNX files with their JSON metadata), as package data.

Nothing here is code: :mod:`vision` opens these files through :func:`importlib.resources.files`
(``MJC_MODEL_DIR`` points it elsewhere), so an installed wheel serves as well as a checkout.
Training (``python3 run.py train``, ``train-segmenter``) writes them; ``tile_fallback`` is the
classifier shipped before ``tile_classifier`` had ``none`` (see :mod:`vision.classifier`).
"""
