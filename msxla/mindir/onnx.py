"""``export(..., file_format="ONNX")``: why msxla does not write ONNX files.

msxla's graphs are jax programs, so an ONNX file would come from a jax to
ONNX converter. The maintained one, jax2onnx (0.17), pulls in flax, equinox,
optax, orbax, onnxruntime and huggingface-hub, and on jax 0.10 it writes
models that ONNX Runtime rejects for graphs as plain as LeNet's max pooling
(a 4-D ``MaxPool`` kernel over NCHW). tf2onnx needs TensorFlow and jax2tf.
Until a converter fits, ``export`` says so and names the formats that work.
"""
from __future__ import annotations


def onnx_unavailable() -> NotImplementedError:
    return NotImplementedError(
        "For 'export', msxla cannot write ONNX files: no jax-to-ONNX converter available here "
        "produces models ONNX Runtime runs for msxla's graphs (jax2onnx 0.17 mis-converts max "
        "pooling). Use file_format='MINDIR' (MindSpore loads it, and MindSpore's own "
        "mindspore.onnx.export can convert it), 'AIR' or 'STABLEHLO'.")
