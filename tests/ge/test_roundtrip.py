"""GE model serialisation: serialise -> parse gives the identical model, the
bytes decode with the protobuf schema alone (GE's field conventions), and the
AIR file round-trips."""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from jax import lax

from msxla import ge
from msxla.ge.graph import AttrDtype, GeGraph, GeModel, GeNode, ListListInt, TensorDesc
from msxla.ge.schema import pb

A = np.arange(6, dtype=np.float32).reshape(2, 3)

FUNCTIONS = {
    "abc": (lambda a, b, c: a * b + c, (A, A, A)),
    "while": (lambda x: lax.fori_loop(0, 3, lambda i, v: v * 2 + i, x), (A,)),
    "cond": (lambda x, p: lax.cond(p > 0, lambda v: v + 1, lambda v: v * 3, x),
             (A, np.float32(1))),
    "conv": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME"),
             (np.ones((1, 2, 4, 4), np.float32), np.ones((3, 2, 3, 3), np.float32))),
    "sort_cast": (lambda x: (jnp.sort(x, 1), jnp.argmax(x, 1).astype(jnp.int32),
                             x.astype(jnp.bfloat16)), (A,)),
}


def _model(name):
    fn, args = FUNCTIONS[name]
    return ge.convert(jax.jit(fn).lower(*args), name)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_serialise_parse_gives_the_identical_model(name):
    model = _model(name)
    data = model.to_bytes()
    parsed = ge.from_bytes(data)
    assert parsed == model
    assert parsed.to_bytes() == data
    assert parsed.dump() == model.dump()


def test_every_attribute_kind_round_trips():
    values = {
        "b": True, "i": -7, "f": 0.25, "s": "NCHW", "li": [1, 2, 3], "lf": [0.5, -1.5],
        "lb": [True, False], "ls": ["x", "y"], "empty": [], "dt": AttrDtype(np.int64),
        "ldt": [AttrDtype(np.float16), AttrDtype(np.bool_)], "lli": ListListInt([[0, 1], [2, 3]]),
        "t_f32": np.arange(4, dtype=np.float32).reshape(2, 2),
        "t_bf16": np.array([1.5, -2.0], ml_dtypes.bfloat16), "t_bool": np.array([True, False]),
        "t_c64": np.array([1 + 2j], np.complex64), "t_scalar": np.array(3, np.int8),
    }
    desc = TensorDesc(np.float32, (2, 3), "NCHW", "x", {"_parent_node_index": 1})
    node = GeNode("n", "Custom", ["a:0", ""], [desc, desc.renamed("y")], [desc.renamed("z")],
                  values, ["sub"], ["c"])
    model = GeModel("m", [GeGraph("g", [node], ["a:0"], ["n:0"], {"ga": 1}),
                          GeGraph("sub")], {"ma": "v"}, version=2, custom_version="c")
    parsed = ge.from_bytes(model.to_bytes())
    assert parsed == model
    got = parsed.main.nodes[0].attrs
    assert got["t_bf16"].dtype == ml_dtypes.bfloat16 and got["f"] == 0.25
    assert got["dt"] == AttrDtype(np.int64) and got["lli"] == ((0, 1), (2, 3))


def test_float_attributes_are_held_at_float32():
    node = GeNode("n", "Dilation", attrs={"padding_value": 0.1})
    assert node.attrs["padding_value"] == float(np.float32(0.1))


def test_bytes_decode_with_the_schema_alone():
    fn = lambda x, p: (lax.fori_loop(0, 2, lambda i, v: v + p, x).astype(jnp.float16),  # noqa
                       jnp.argmax(x, 0).astype(jnp.int32))
    data = ge.convert(jax.jit(fn).lower(A, np.float32(2))).to_bytes()
    msg = pb.ModelDef.FromString(data)
    main = msg.graph[0]
    ops = {o.name: o for o in main.op}
    data_nodes = [o for o in main.op if o.type == "Data"]
    assert [o.attr["index"].i for o in data_nodes] == [0, 1]
    assert list(main.input) == [f"{o.name}:0" for o in data_nodes]
    assert data_nodes[0].output_desc[0].dtype == pb.DT_FLOAT
    assert list(data_nodes[0].output_desc[0].shape.dim) == [2, 3]
    assert data_nodes[0].input_desc[0].name == "x" and data_nodes[0].output_desc[0].name == "y"
    # dtype-valued attributes use the C++ ge::DataType numbering (float16 = 1, int32 = 3)
    casts = {o.output_desc[0].dtype: o.attr["dst_type"].i for o in main.op if o.type == "Cast"}
    assert casts == {pb.DT_FLOAT16: 1, pb.DT_INT32: 3}
    (while_op,) = [o for o in main.op if o.type == "While"]
    assert list(while_op.subgraph_name) == [g.name for g in msg.graph[1:]]
    assert all(":" in ref and ref.split(":")[0] in ops for ref in while_op.input)
    body = msg.graph[2]
    assert [o.attr["_parent_node_index"].i for o in body.op if o.type == "Data"] == [0, 1, 2]
    out = [o for o in body.op if o.type == "NetOutput"][0]
    assert [d.attr["_parent_node_index"].i for d in out.input_desc] == [0, 1, 2]
    assert list(out.attr["_input_name_key"].list.s) == [b"input0", b"input1", b"input2"]
    consts = [o for o in main.op if o.type == "Const"]
    value = consts[0].attr["value"].t
    assert np.frombuffer(value.data, np.int32 if value.desc.dtype == pb.DT_INT32 else np.int64)\
        .size == max(1, int(np.prod(value.desc.shape.dim)))
    (net_output,) = [o for o in main.op if o.type == "NetOutput"]
    assert list(main.output) == list(net_output.input)


def test_assign_control_edges_are_written_as_minus_one():
    node_out = GeNode("out", "NetOutput", ["v:0"], [TensorDesc(np.float32, (), name="input0")],
                      control_inputs=["assign"])
    model = GeModel("m", [GeGraph("g", [node_out])])
    msg = pb.ModelDef.FromString(model.to_bytes())
    assert list(msg.graph[0].op[0].input) == ["v:0", "assign:-1"]


def test_air_file_round_trip(tmp_path):
    model = _model("while")
    path = str(tmp_path / "loop.air")
    ge.save_air(model, path)
    assert ge.load_air(path) == model
    with open(path, "rb") as f:
        assert pb.ModelDef.FromString(f.read()).graph[0].name == "while"
