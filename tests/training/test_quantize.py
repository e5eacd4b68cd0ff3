"""``python3 run.py quantize`` (:mod:`training.quantize`): the int8 copy keeps the first and the
last weighted layer float, quantizes the rest, and computes what the float network computes."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from training.quantize import float_layers, quantize  # noqa: E402


def _three_convs(path) -> None:
    """image (1x3xHxW) -> conv 3->8, relu -> conv 8->8, relu -> conv 8->2 = out."""
    rng = np.random.default_rng(0)
    weights = [rng.normal(0, 0.3, (8, 3, 3, 3)), rng.normal(0, 0.2, (8, 8, 3, 3)), rng.normal(0, 0.2, (2, 8, 1, 1))]
    inits = [numpy_helper.from_array(w.astype(np.float32), f"w{i}") for i, w in enumerate(weights)]
    nodes = [
        helper.make_node("Conv", ["image", "w0"], ["c0"], name="first", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("Conv", ["r0", "w1"], ["c1"], name="middle", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["out"], name="last"),
    ]
    graph = helper.make_graph(
        nodes,
        "three_convs",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 2, 32, 32])],
        inits,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def test_the_int8_copy_keeps_the_end_layers_float_and_computes_the_same(tmp_path):
    src, dst = tmp_path / "net.onnx", tmp_path / "net.int8.onnx"
    _three_convs(src)
    assert float_layers(src) == ["first", "last"]
    rng = np.random.default_rng(1)
    feeds = [{"image": rng.uniform(-0.5, 0.5, (1, 3, 32, 32)).astype(np.float32)} for _ in range(8)]
    assert quantize(src, dst, iter(feeds[:6])) == ["first", "last"]

    graph = onnx.load(str(dst)).graph
    dequantized = {n.output[0] for n in graph.node if n.op_type == "DequantizeLinear"}
    convs = {n.name: n for n in graph.node if n.op_type == "Conv"}
    assert convs["middle"].input[0] in dequantized  # quantized: reads int8 activations
    assert convs["first"].input[0] == "image" and convs["last"].input[1] == "w2"  # float
    a = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"])
    for feed in feeds[6:]:
        ya, yb = a.run(None, feed)[0], b.run(None, feed)[0]
        assert np.abs(ya - yb).max() <= 0.05 * np.abs(ya).max()


def test_the_finder_alone_is_quantized_when_asked(monkeypatch):
    """``python3 run.py quantize --finder-only``: after the finder alone was retrained, the
    classifiers' int8 copies and calibration stay as they are."""
    import training.quantize as q

    asked = []
    monkeypatch.setattr(q, "run", lambda models, data, scenes, finder_only: asked.append(finder_only) or {})
    q.main(["--finder-only"])
    q.main([])
    assert asked == [True, False]
