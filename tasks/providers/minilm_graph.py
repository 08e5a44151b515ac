"""A fused onnxruntime graph for the shipped int8 MiniLM, built from that model's own weights.

Why: the shipped ONNX file is an exported PyTorch graph, about 300 nodes once its int8 weights are
folded, and onnxruntime cannot fuse its attention (the SDPA export's NaN guards defeat the pattern).
For a query of ~10 tokens most of the run was per-node overhead, not arithmetic. This rebuilds the
same network from onnxruntime's fused CPU operators: one ``EmbedLayerNormalization``, then per layer
an ``Attention``, two ``SkipLayerNormalization`` and a ``BiasGelu`` around four ``MatMul`` nodes,
about 40 nodes in all. Weights are dequantised exactly as the original graph does (int8 times
per-column scale, in float32), so the network and its vectors stay the same model's; nothing is
downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper, numpy_helper

Matrix = npt.NDArray[np.float32]
_MS = "com.microsoft"
_PREFIX = "inner."


@dataclass(frozen=True)
class _Layer:
    qkv: Matrix  # [hidden, 3 * hidden], columns Q | K | V
    qkv_bias: Matrix
    out: Matrix
    out_bias: Matrix
    ln1: tuple[Matrix, Matrix]
    up: Matrix
    up_bias: Matrix
    down: Matrix
    down_bias: Matrix
    ln2: tuple[Matrix, Matrix]


@dataclass(frozen=True)
class MiniLMWeights:
    word: Matrix
    position: Matrix
    token_type: Matrix
    embed_ln: tuple[Matrix, Matrix]
    layers: tuple[_Layer, ...]
    heads: int
    epsilon: float


def weights_of(model: onnx.ModelProto, heads: int = 12) -> MiniLMWeights:
    """The network's float32 weights, read from the exported graph by their PyTorch names.

    Each quantised matrix (``<name>_q`` int8 and ``<name>_scale``) feeds one MatMul whose output
    gets a named bias added; that bias names the matrix (query, key, value, ...).
    """
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)

    def dequant(base: str) -> Matrix:
        out: Matrix = init[f"{base}_q"].astype(np.float32) * init[f"{base}_scale"].astype(np.float32)
        return out

    by_bias: dict[str, Matrix] = {}
    for name in init:
        if not name.endswith("_q") or name.startswith(_PREFIX + "embeddings"):
            continue
        (cast,) = consumers[name]
        (mul,) = consumers[cast.output[0]]
        (matmul,) = consumers[mul.output[0]]
        (add,) = consumers[matmul.output[0]]
        bias = next(i for i in add.input if i in init)
        by_bias[bias] = dequant(name[: -len("_q")])
    epsilon = next(
        float(helper.get_attribute_value(a))
        for n in model.graph.node
        if n.op_type == "LayerNormalization"
        for a in n.attribute
        if a.name == "epsilon"
    )

    def f(name: str) -> Matrix:
        out: Matrix = init[_PREFIX + name].astype(np.float32)
        return out

    layers = []
    for i in range(sum(1 for n in init if n.endswith("attention.self.query.bias"))):
        p = f"{_PREFIX}encoder.layer.{i}."
        q, k, v = (f"{p}attention.self.{x}.bias" for x in ("query", "key", "value"))
        layers.append(
            _Layer(
                qkv=np.concatenate([by_bias[q], by_bias[k], by_bias[v]], axis=1),
                qkv_bias=np.concatenate([init[q], init[k], init[v]]).astype(np.float32),
                out=by_bias[f"{p}attention.output.dense.bias"],
                out_bias=f(f"encoder.layer.{i}.attention.output.dense.bias"),
                ln1=(
                    f(f"encoder.layer.{i}.attention.output.LayerNorm.weight"),
                    f(f"encoder.layer.{i}.attention.output.LayerNorm.bias"),
                ),
                up=by_bias[f"{p}intermediate.dense.bias"],
                up_bias=f(f"encoder.layer.{i}.intermediate.dense.bias"),
                down=by_bias[f"{p}output.dense.bias"],
                down_bias=f(f"encoder.layer.{i}.output.dense.bias"),
                ln2=(f(f"encoder.layer.{i}.output.LayerNorm.weight"), f(f"encoder.layer.{i}.output.LayerNorm.bias")),
            )
        )
    return MiniLMWeights(
        word=dequant(_PREFIX + "embeddings.word_embeddings.weight"),
        position=dequant(_PREFIX + "embeddings.position_embeddings.weight"),
        token_type=f("embeddings.token_type_embeddings.weight"),
        embed_ln=(f("embeddings.LayerNorm.weight"), f("embeddings.LayerNorm.bias")),
        layers=tuple(layers),
        heads=heads,
        epsilon=epsilon,
    )


def fused_model(w: MiniLMWeights) -> onnx.ModelProto:
    """The encoder as onnxruntime contrib operators; same inputs and output as the exported model."""
    nodes: list[onnx.NodeProto] = []
    inits: list[TensorProto] = []

    def const(name: str, value: Matrix) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=np.float32), name))
        return name

    for name in ("input_ids", "token_type_ids", "attention_mask"):
        nodes.append(helper.make_node("Cast", [name], [f"{name}_i32"], to=TensorProto.INT32))
    nodes.append(
        helper.make_node(
            "EmbedLayerNormalization",
            [
                "input_ids_i32",
                "token_type_ids_i32",
                const("word", w.word),
                const("position", w.position),
                const("token_type", w.token_type),
                const("emb_g", w.embed_ln[0]),
                const("emb_b", w.embed_ln[1]),
            ],
            ["h0", "mask_index_unused"],
            domain=_MS,
            epsilon=w.epsilon,
        )
    )

    def residual_norm(name: str, x: str, skip: str, ln: tuple[Matrix, Matrix], bias: Matrix, out: str) -> None:
        """LayerNorm(x + bias + skip), the residual step that closes attention and the FFN."""
        norm = [const(f"{name}_g", ln[0]), const(f"{name}_b", ln[1]), const(f"{name}_bias", bias)]
        nodes.append(helper.make_node("SkipLayerNormalization", [x, skip, *norm], [out], domain=_MS, epsilon=w.epsilon))

    x = "h0"
    for i, layer in enumerate(w.layers):
        qkv = [const(f"qkv{i}", layer.qkv), const(f"qkv_b{i}", layer.qkv_bias)]
        nodes += [
            helper.make_node("Attention", [x, *qkv, "attention_mask_i32"], [f"att{i}"], domain=_MS, num_heads=w.heads),
            helper.make_node("MatMul", [f"att{i}", const(f"o{i}", layer.out)], [f"o{i}_mm"]),
        ]
        residual_norm(f"ln1_{i}", f"o{i}_mm", x, layer.ln1, layer.out_bias, f"a{i}")
        nodes += [
            helper.make_node("MatMul", [f"a{i}", const(f"up{i}", layer.up)], [f"up{i}_mm"]),
            helper.make_node("BiasGelu", [f"up{i}_mm", const(f"up_b{i}", layer.up_bias)], [f"gelu{i}"], domain=_MS),
            helper.make_node("MatMul", [f"gelu{i}", const(f"down{i}", layer.down)], [f"down{i}_mm"]),
        ]
        residual_norm(f"ln2_{i}", f"down{i}_mm", f"a{i}", layer.ln2, layer.down_bias, f"h{i + 1}")
        x = f"h{i + 1}"
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    ids = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
           for n in ("input_ids", "attention_mask", "token_type_ids")]  # fmt: skip
    hidden = w.word.shape[1]
    out = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden])
    graph = helper.make_graph(nodes, "minilm_fused", ids, [out], initializer=inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(_MS, 1)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="agent-memory-pipeline")
