"""Training and evaluation of the photo pipeline (not shipped; needs the shared data set).

Synthetic table photos and tile crops (:mod:`training.artwork`, :mod:`training.render`,
:mod:`training.scenes`), CPU training of the two models with ONNX export
(:mod:`training.train_classifier`, :mod:`training.train_segmenter`), and the benchmark
(:mod:`training.evaluate`, :mod:`training.evaluate_crops`; labelled real photos in ``labels/``).
It imports :mod:`vision`; :mod:`vision` never imports it. Caches (the artwork, PyTorch weights) go
to ``training/.cache/``.
"""
