"""``mindspore.nn.GraphCell``: a Cell that runs a graph loaded from MindIR.

    graph = mindspore.load("net.mindir")
    net = nn.GraphCell(graph, params_init={"fc.weight": new_weight})
    out = net(x)

The graph's Parameters become the Cell's Parameters, under their names in
the file (``net.parameters_dict()``, ``load_checkpoint`` and optimizers see
them). As in MindSpore, a GraphCell always runs compiled: called on its own
it is jitted (trace capture: the graph has no Python control flow), and
inside a jitted function or under ``grad`` its ops join the caller's graph.
Inputs must have the shapes and dtypes the graph was exported with.
"""
from __future__ import annotations

from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn.cell import Cell


class GraphCell(Cell):
    """Runs a ``FuncGraph`` loaded by ``mindspore.load``.

    Args:
        graph (FuncGraph): the graph ``mindspore.load`` returned.
        params_init (dict): ``{name: Tensor}`` replacing the values of the graph's
            Parameters of those names; other names are ignored. Default: None.
        obf_random_seed: not supported (dynamic obfuscation), must be None.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=True)
        from msxla.mindir.graph import FuncGraph
        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        if not isinstance(graph, FuncGraph):
            raise TypeError("For 'GraphCell', the argument 'graph' must be a FuncGraph loaded from "
                            f"MindIR, but got type {type(graph)}.")
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError("For 'GraphCell', the argument 'params_init' must be a dict, but got "
                            f"{type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise TypeError("For 'GraphCell', the key of the 'params_init' must be str, and the "
                                "value must be Tensor or Parameter, but got the key type: "
                                f"{type(name)}, and the value type: {type(value)}")
        self.__dict__["graph"] = graph
        by_node = {}
        for node_name, (name, value) in graph.parameters.items():
            init = params_init.get(name)
            data = init.asnumpy() if init is not None else value
            param = Parameter(Tensor(data), name=name)
            self._params[name] = param
            by_node[node_name] = param
        self.__dict__["_by_node"] = by_node
        self.__dict__["_jitted"] = None

    def construct(self, *inputs):
        from msxla.mindir.interpret import run
        graph = self.graph
        if len(inputs) != len(graph.inputs):
            raise TypeError(f"For 'GraphCell', the graph takes {len(graph.inputs)} inputs, but "
                            f"got {len(inputs)}.")
        for i, (spec, x) in enumerate(zip(graph.inputs, inputs)):
            shape = tuple(getattr(x, "shape", ()))
            if shape != tuple(spec.shape):
                raise ValueError(f"For 'GraphCell', input {i} must have the shape {spec.shape} "
                                 f"the graph was exported with, but got {shape}.")
        return run(graph, inputs, self._by_node)

    def __call__(self, *args, **kwargs):
        from msxla.common.state import is_capturing
        if kwargs:
            raise TypeError("For 'GraphCell', inputs are positional only.")
        if is_capturing():
            return self.construct(*args)
        if self._jitted is None:
            from msxla.jit.api import jit
            self.__dict__["_jitted"] = jit(self.construct, capture_mode="trace")
        return self._jitted(*args)
