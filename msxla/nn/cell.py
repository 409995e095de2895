"""``mindspore.nn.Cell``: the base class of networks.

A Cell registers Parameters and sub-Cells assigned as attributes (renaming
Parameters to their attribute path, as MindSpore does), runs ``construct``
when called, and in GRAPH_MODE compiles ``construct`` through jit instead.

Every attribute write bumps a global *attribute epoch*. A compiled graph that
read Cell attributes guards on the epoch first: while nothing changed
anywhere the guard costs one integer compare, and after any change the full
attribute guards decide whether the graph is still valid.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from msxla.common.cell_base import ATTR_EPOCH, CellBase, bump_epoch  # noqa: F401
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.common.tensor import Tensor
from msxla.context import CONTEXT, GRAPH_MODE
from msxla.nn import _buffers, _hooks

class Cell(CellBase):
    """Base class for all networks and layers (``mindspore.nn.Cell``)."""

    def __init__(self, auto_prefix=True, flags=None):
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_auto_prefix"] = auto_prefix
        d["training"] = False
        d["requires_grad"] = False
        d["_phase"] = "train"
        d["_hooks"] = _hooks.HookSet()
        d["_jit_config_dict"] = {}
        d["_mixed_precision_type"] = None
        d["_dynamic_inputs"] = None
        d["_graph_runner"] = None
        d["_scope"] = None
        _buffers.init(d)
        if flags:
            d.update(flags)
        bump_epoch()

    # ------------------------------------------------------- registration
    def __setattr__(self, name, value):
        d = self.__dict__
        if "_params" not in d:
            raise AttributeError(f"For '{type(self).__name__}', call super().__init__() before "
                                 f"setting attribute '{name}'.")
        params, cells = d["_params"], d["_cells"]
        if isinstance(value, Parameter):
            if value._auto_named:
                value.name = name
                value._auto_named = False
            params[name] = value
            d.pop(name, None)
            cells.pop(name, None)
        elif isinstance(value, ParameterTuple):
            self._register_parameter_tuple(value)
            object.__setattr__(self, name, value)
        elif isinstance(value, Cell):
            if d["_auto_prefix"]:
                value.update_parameters_name(name + ".")
            cells[name] = value
            d.pop(name, None)
            params.pop(name, None)
        elif "_buffers" in d and _buffers.is_buffer_write(self, name, value):
            _buffers.store(self, name, value)
        elif value is None and name in params:
            params[name] = None
        elif value is None and name in cells:
            cells[name] = None
        else:
            if name in params:
                if isinstance(value, Tensor):
                    params[name].set_data(value)
                    bump_epoch()
                    return
                raise TypeError(f"For '{type(self).__name__}', the attribute '{name}' holds a "
                                f"Parameter; assign a Parameter or Tensor, not "
                                f"{type(value).__name__}.")
            cells.pop(name, None)
            object.__setattr__(self, name, value)
        bump_epoch()

    def __getattr__(self, name):
        d = self.__dict__
        if "_params" in d:
            if name in d["_params"]:
                param = d["_params"][name]
                if d["_mixed_precision_type"] is not None and id(self) in _AMP.active:
                    return _mixed_precision_read(param, d["_mixed_precision_type"])
                return param
            if name in d["_cells"]:
                return d["_cells"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        d = self.__dict__
        if name in d["_params"]:
            del d["_params"][name]
        elif name in d["_cells"]:
            del d["_cells"][name]
        else:
            _buffers.forget(self, name)
            object.__delattr__(self, name)
        bump_epoch()

    def __dir__(self):
        return list(super().__dir__()) + list(self._params) + list(self._cells)

    def _register_parameter_tuple(self, value):
        """A ParameterTuple attribute registers each Parameter under its own name (the
        RNN layers' ``weight_ih_l0``, ...), as MindSpore does; names must be unique."""
        seen_ids, seen_names = set(), set()
        for item in value:
            if id(item) in seen_ids:
                continue
            seen_ids.add(id(item))
            if item._auto_named:  # an unnamed Parameter: Parameter$1, Parameter$2, ...
                serial = self.__dict__.get("_tuple_param_id", 1)
                item.name, item._auto_named = f"Parameter${serial}", False
                self.__dict__["_tuple_param_id"] = serial + 1
            if item.name in seen_names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. "
                                 "Please set a unique name for the parameter.")
            seen_names.add(item.name)
            self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' should not "
                           f"contain '.', but got {param_name}.")
        if not isinstance(param, Parameter) and param is not None:
            raise TypeError("For 'insert_param_to_cell', the argument 'param' must be a "
                            f"Parameter, but got {type(param).__name__}.")
        if param is not None and param._auto_named:
            param.name, param._auto_named = param_name, False
        self._params[param_name] = param
        bump_epoch()

    def insert_child_to_cell(self, child_name, child_cell):
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError("For 'insert_child_to_cell', the argument 'child_cell' must be a "
                            f"Cell, but got {type(child_cell).__name__}.")
        if child_cell is not None and self._auto_prefix:
            child_cell.update_parameters_name(child_name + ".")
        self._cells[child_name] = child_cell
        bump_epoch()

    def update_parameters_name(self, prefix="", recurse=True):
        """Rename every Parameter to ``prefix`` + its attribute path."""
        for path, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + path
            param._auto_named = False

    # ------------------------------------------------------------ walking
    def parameters_and_names(self, name_prefix="", expand=True):
        """``(path, Parameter)`` pairs, each Parameter once, own ones first."""
        seen = set()
        for prefix, cell in (self.cells_and_names(name_prefix=name_prefix) if expand
                             else [(name_prefix, self)]):
            for name, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{prefix}.{name}" if prefix else name), param

    def register_buffer(self, name, tensor, persistent=True):
        """Keep ``tensor`` (or None) as the buffer ``name``: state that is not trained."""
        _buffers.register(self, name, tensor, persistent)

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return _buffers.named(self, prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, value in _buffers.named(self, recurse=recurse):
            yield value

    def get_buffer(self, target):
        return _buffers.get(self, target)

    def get_parameters(self, expand=True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def cells_and_names(self, cells=None, name_prefix=""):
        """``(path, Cell)`` pairs of this Cell and every sub-Cell, each once."""
        seen = set() if cells is None else cells
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None:
                continue
            path = f"{name_prefix}.{name}" if name_prefix else name
            yield from cell.cells_and_names(seen, path)

    def cells(self):
        return [c for c in self._cells.values() if c is not None]

    def name_cells(self):
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def apply(self, fn):
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------- modes
    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
            cell.__dict__["_phase"] = "train" if mode else "predict"
        bump_epoch()
        return self

    @property
    def phase(self):
        return self._phase

    @phase.setter
    def phase(self, value):
        self.__dict__["_phase"] = value
        bump_epoch()

    def set_grad(self, requires_grad=True):
        self.__dict__["requires_grad"] = requires_grad
        return self

    def to_float(self, dst_type):
        """Run this Cell (and sub-Cells) in ``dst_type``: float inputs are cast to it, and
        so are the trainable float Parameters its ``construct`` reads."""
        from msxla.common import dtype as mstype
        dst = mstype.to_ms(dst_type)
        if dst not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' should be float32, "
                             f"float16 or bfloat16, but got {dst_type}.")
        for _, cell in self.cells_and_names():
            cell.__dict__["_mixed_precision_type"] = dst
        bump_epoch()
        return self

    @property
    def cls_name(self):
        return type(self).__name__

    def set_jit_config(self, jit_config):
        """Options used when this Cell compiles (GRAPH_MODE or jit); set once."""
        if self._jit_config_dict:
            import logging
            logging.getLogger("msxla").warning(
                "For Cell '%s', set_jit_config can be called only once; this call is ignored.",
                type(self).__name__)
            return
        self.__dict__["_jit_config_dict"] = dict(jit_config.jit_config_dict)
        self.__dict__["_graph_runner"] = None
        bump_epoch()

    @property
    def jit_config_dict(self):
        return self._jit_config_dict

    def set_inputs(self, *inputs, **kwargs):
        """Declare input signatures (Tensors with ``None`` dims are dynamic)."""
        self.__dict__["_dynamic_inputs"] = inputs
        self.__dict__["_graph_runner"] = None
        bump_epoch()

    def get_inputs(self):
        return self._dynamic_inputs

    @property
    def _dynamic_shape_inputs(self):
        """MindSpore's name for what ``set_inputs`` declared (None until it is called);
        test helpers read it and pass it on with ``set_inputs(*cell._dynamic_shape_inputs)``."""
        return self.__dict__.get("_dynamic_inputs")

    @_dynamic_shape_inputs.setter
    def _dynamic_shape_inputs(self, inputs):
        self.__dict__["_dynamic_inputs"] = None if inputs is None else tuple(inputs)
        self.__dict__["_graph_runner"] = None
        bump_epoch()

    # --------------------------------------------------------------- call
    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"For Cell '{type(self).__name__}', construct() is not "
                                  "implemented.")

    def _call(self, args, kwargs):  # Cell.__call__ (CellBase)
        if self._shard_plan is not None:
            from msxla.parallel.shard import call_sharded
            return call_sharded(self, Cell._call_unsharded, args, kwargs)
        return self._call_unsharded(args, kwargs)

    def _call_unsharded(self, args, kwargs):
        if CONTEXT.mode == GRAPH_MODE:
            from msxla.jit.graph_mode import run_cell_in_graph_mode
            out = run_cell_in_graph_mode(self, args, kwargs)
            if out is not NotImplemented:
                return out
        return self._run_construct(args, kwargs)

    def _run_construct(self, args, kwargs):
        if self._mixed_precision_type is not None:
            return run_mixed_precision(self, Cell._run_plain, args, kwargs)
        return self._run_plain(args, kwargs)

    def _run_mixed_precision(self, body, args, kwargs):
        """``body(self, args, kwargs)`` in the Cell's mixed precision (``to_float``)."""
        return run_mixed_precision(self, body, args, kwargs)

    def _run_plain(self, args, kwargs):
        hooks = self._hooks
        if hooks.active:
            return hooks.run(self, args, kwargs)
        if getattr(type(self), "bprop", None) is not None:
            return _run_with_bprop(self, args, kwargs)
        return self.construct(*args, **kwargs)

    # ------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        return self._hooks.add("forward_pre", hook_fn, prepend, with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False,
                              always_call=False):
        return self._hooks.add("forward", hook_fn, prepend, with_kwargs)

    def register_backward_hook(self, hook_fn):
        return self._hooks.add("backward", hook_fn, False, False)

    def register_backward_pre_hook(self, hook_fn):
        return self._hooks.add("backward_pre", hook_fn, False, False)

    # -------------------------------------------------------------- misc
    def extend_repr(self):
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        children = [(n, c) for n, c in self._cells.items() if c is not None]
        if not children:
            return f"{type(self).__name__}({extra})" if extra else f"{type(self).__name__}()"
        lines = [f"{type(self).__name__}("]
        if extra:
            lines.append("  " + extra)
        for name, cell in children:
            body = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {body}")
        lines.append(")")
        return "\n".join(lines)

    def recompute(self, **kwargs):
        return self

    _shard_plan = None

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Input and output strategies of this Cell (and Parameter layouts) for semi-auto
        parallelism; XLA propagates the shardings in between (``msxla.parallel.shard``)."""
        from msxla.parallel.shard import _check
        _check(in_strategy, out_strategy, parameter_plan)
        self.__dict__["_shard_plan"] = (in_strategy, out_strategy, parameter_plan)
        self.__dict__["_in_strategy"], self.__dict__["_out_strategy"] = in_strategy, out_strategy
        return self

    def set_boost(self, boost_type):
        return self

    def init_parameters_data(self, auto_parallel_mode=False):
        return {p: p for p in self.get_parameters()}

    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, state):
        self.__dict__.update(state)


class _AmpScope(threading.local):
    active: set

    def __init__(self):
        self.active = set()


_AMP = _AmpScope()  # ids of the Cells whose construct runs in their mixed precision now


def run_mixed_precision(cell, body, args, kwargs):
    """``body(cell, args, kwargs)`` with the float inputs cast to the Cell's
    ``to_float`` dtype and its trainable float Parameters read in that dtype (float
    outputs are cast to ``_amp_output_type`` when automatic mixed precision set one)."""
    args = _cast_float_inputs(args, cell._mixed_precision_type)
    key = id(cell)
    outer = key in _AMP.active
    _AMP.active.add(key)
    try:
        out = body(cell, args, kwargs)
    finally:
        if not outer:
            _AMP.active.discard(key)
    out_type = cell.__dict__.get("_amp_output_type")
    if out_type is not None:
        out = _cast_float_outputs(out, out_type)
    return out


def _mixed_precision_read(param, dst):
    from msxla.common import dtype as mstype
    if param is None or not param.requires_grad or not mstype.is_float(param.dtype) or \
            param.dtype == dst:
        return param
    return param.astype(dst)


def _cast_float_inputs(args, dst):
    from msxla.common import dtype as mstype
    out = []
    for a in args:
        if isinstance(a, Tensor) and not isinstance(a, Parameter) and mstype.is_float(a.dtype):
            a = a.astype(dst)
        out.append(a)
    return tuple(out)


def _cast_float_outputs(out, dst):
    if isinstance(out, (tuple, list)):
        return type(out)(_cast_float_outputs(o, dst) for o in out)
    return _cast_float_inputs((out,), dst)[0]


def _run_with_bprop(cell, args, kwargs):
    """A Cell with a user ``bprop(*inputs, out, dout)``: its gradient is that function."""
    try:
        from msxla.autodiff.custom_bprop import call_with_bprop
    except ImportError:
        return cell.construct(*args, **kwargs)
    return call_with_bprop(cell.construct, cell.bprop, args, kwargs)


__all__ = ["Cell", "ParameterTuple"]
