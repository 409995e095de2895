"""A call of a user function, seen as a pure function of the arrays it differentiates.

Every differentiation API (grad, value_and_grad, GradOperation, vjp, jvp,
jacfwd, jacrev) starts from a :class:`CallPlan`: the user's function, the
call's arguments, which argument positions and which Parameters are
differentiated. ``plan.function`` is ``f(*primals) -> (outputs, aux)`` over
jax arrays, ready for ``jax.vjp`` / ``jax.jvp`` / ``jax.jacfwd``:

- differentiated plain Tensors are replaced by fresh Tensors around the
  primal arrays; differentiated Parameters keep their identity and get their
  primal value from a :class:`StateFrame`, so reads through closures,
  attributes and ``self.weight`` all see it;
- Parameters that are not differentiated read through the frame to the
  enclosing frame (an outer grad, a jit capture) or to their stored value;
- Parameters written inside the function (``ops.assign``, moving statistics)
  come back as aux outputs, and ``plan.write_back`` stores each one exactly
  once, with its primal value, in the enclosing frame or the Parameter;
- integer and bool Tensors and Parameters that ``grad`` differentiates
  (``int_inputs``) go through a float copy, as MindSpore differentiates them;
- Python values in the outputs (None, numbers, strings) travel in a side
  channel filled while jax traces ``f``, which happens exactly once (the
  output dtypes of a call on integer inputs are found by one more abstract
  trace).

Nothing here calls ``asnumpy`` or ``bool`` on a value, so a plan also works
when the arguments' arrays are tracers (inside jit, or an outer grad).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.tree_util import tree_flatten, tree_unflatten

from msxla.autodiff.tensor_hooks import apply_input_hooks
from msxla.common.parameter import Parameter
from msxla.common.state import StateFrame, detach_written
from msxla.common.tensor import Tensor, wrap
from msxla.errors import user_error
from msxla.options import MUTABLE_CONTAINERS


def is_tensor(value):
    return isinstance(value, Tensor)


def is_diff_dtype(dtype):
    """Float and complex arrays are differentiated; integer and bool ones get zeros
    (except integer inputs of ``grad``, see ``CallPlan``)."""
    return jnp.issubdtype(dtype, jnp.inexact)


def is_int_dtype(dtype):
    """Integer and bool: differentiated through a float copy by ``grad`` (``int_inputs``)."""
    return jnp.issubdtype(dtype, jnp.integer) or jnp.dtype(dtype) == jnp.bool_


def float_for(dtype):
    """The float dtype an integer input is differentiated in (exact for its values up to
    2**24 (float32) / 2**53 (float64))."""
    return jnp.float64 if jnp.dtype(dtype).itemsize >= 8 else jnp.float32


class Zeros:
    """The gradient of something not differentiated: zeros of its shape and dtype."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype

    def array(self, prefix=()):
        return jnp.zeros(tuple(prefix) + self.shape, self.dtype)


def _builtin_containers(value):
    """The gradients of a ``mutable`` container come back in the builtin container it
    extends (MindSpore's graph gives a list for a mutable list)."""
    cls = type(value)
    if cls is dict or cls in MUTABLE_CONTAINERS and issubclass(cls, dict):
        return {k: _builtin_containers(v) for k, v in value.items()}
    if cls in (tuple, list) or cls in MUTABLE_CONTAINERS:
        items = [_builtin_containers(v) for v in value]
        return list(items) if isinstance(value, list) else tuple(items)
    return value


def _conj(x):
    return jnp.conj(x) if jnp.iscomplexobj(x) else x


class _Substitute:
    """Marks an argument leaf replaced by the Tensor around primal ``index`` (``tensor``
    is the user's Tensor, whose gradient hooks the substitute carries)."""

    __slots__ = ("index", "tensor")

    def __init__(self, index, tensor):
        self.index, self.tensor = index, tensor


class CallPlan:
    """One call ``fn(*args, **kwargs)`` with the inputs to differentiate marked.

    Args:
        positions: indices into ``args + tuple(kwargs.values())`` (already
            checked to be in range). An argument that holds no Tensor (a
            Python number, None) is not an input of the graph and has no
            gradient: it is left out of ``position_specs``.
        weights: Tensors (normally Parameters) whose gradients are wanted.
        has_aux: only the first output is differentiated; the others are aux.
        int_inputs: integer and bool Tensors at the positions, and such Parameters among
            the weights, are differentiated as MindSpore's grad does: the call runs on
            them as float (``float_for``), the output keeps the dtypes the call has on
            the integers and each gradient is cast back to its input's dtype (truncated;
            a bool is True where it is not zero). If the call needs them as integers (an
            index, a bitwise op) it runs again with them as constants, and they get zeros.
    """

    def __init__(self, fn, args, kwargs, positions=(), weights=(), has_aux=False, api="grad",
                 int_inputs=False):
        self.fn, self.api, self.has_aux = fn, api, has_aux
        self.args, self.kwargs = tuple(args), dict(kwargs)
        self._positions, self._weights = tuple(positions), tuple(weights)
        self._mark_inputs(int_inputs)

    def _mark_inputs(self, int_inputs):
        """Choose the primals: what ``positions`` and ``weights`` differentiate."""
        self.int_inputs = int_inputs
        self.primals = []  # the arrays jax differentiates
        self.int_dtypes = {}  # primal index -> the integer/bool dtype of the user's Tensor
        self._param_leaf = {}  # Parameter -> primal index (given to the frame)
        self._subst = {}  # argument slot -> (treedef, [leaf substitutes]) for plain Tensors
        self._side = None  # filled while f is traced
        slots = list(range(len(self.args))) + list(self.kwargs)
        # Each kept position: (position, spec) where spec is a pytree of primal
        # indices / Zeros shaped like the argument (a bare leaf for a Tensor).
        self.position_specs = []
        for p in self._positions:
            spec = self._mark_argument(slots[p], self._slot_value(slots[p]))
            if spec is not None:
                self.position_specs.append((p, spec))
        self.weight_specs = [self._weight_leaf(w) for w in self._weights]

    # ----------------------------------------------------------- inputs
    def _slot_value(self, slot):
        return self.args[slot] if isinstance(slot, int) else self.kwargs[slot]

    def _mark_argument(self, slot, value):
        leaves, tree = tree_flatten(value, is_leaf=is_tensor)
        if not any(isinstance(v, Tensor) and v._data is not None for v in leaves):
            return None
        specs, substitutes, replaced = [], list(leaves), False
        for i, v in enumerate(leaves):
            if not isinstance(v, Tensor) or v._data is None:
                specs.append(None)
                continue
            if isinstance(v, Parameter):
                specs.append(self._param_index(v))
                continue
            data = v._data
            if self.int_inputs and is_int_dtype(data.dtype):
                specs.append(self._new_primal(data.astype(float_for(data.dtype))))
                self.int_dtypes[specs[-1]] = data.dtype
            elif not is_diff_dtype(data.dtype):
                specs.append(Zeros(data.shape, data.dtype))
                continue
            else:
                specs.append(self._new_primal(data))
            substitutes[i] = _Substitute(specs[-1], v)
            replaced = True
        if replaced:
            self._subst[slot] = (tree, substitutes)
        if isinstance(value, Tensor):
            return specs[0]
        return tree_unflatten(tree, specs)

    def _new_primal(self, data):
        self.primals.append(data)
        return len(self.primals) - 1

    def _param_index(self, param):
        data = param._data
        as_float = self.int_inputs and is_int_dtype(data.dtype)
        if not (as_float or is_diff_dtype(data.dtype)):
            return Zeros(data.shape, data.dtype)
        if param not in self._param_leaf:
            if as_float:
                self._param_leaf[param] = self._new_primal(data.astype(float_for(data.dtype)))
                self.int_dtypes[self._param_leaf[param]] = data.dtype
            else:
                self._param_leaf[param] = self._new_primal(data)
        return self._param_leaf[param]

    def _weight_leaf(self, w):
        data = w._data
        if isinstance(w, Parameter) and w.requires_grad:
            return self._param_index(w)
        return Zeros(data.shape, data.dtype)

    def _call_arguments(self, primals):
        args, kwargs = list(self.args), dict(self.kwargs)
        for slot, (tree, substitutes) in self._subst.items():
            leaves = [wrap(apply_input_hooks(s.tensor, primals[s.index]))
                      if isinstance(s, _Substitute) else s for s in substitutes]
            value = tree_unflatten(tree, leaves)
            if isinstance(slot, int):
                args[slot] = value
            else:
                kwargs[slot] = value
        return args, kwargs

    # ---------------------------------------------------------- function
    def function(self):
        """``f(*primals) -> (diff_outputs, (aux_arrays, written_values))``."""

        def f(*primals):
            # hooks registered on a Parameter (register_hook) see its gradient
            frame = GradFrame({p: apply_input_hooks(p, primals[k])
                               for p, k in self._param_leaf.items()})
            args, kwargs = self._call_arguments(primals)
            with frame:
                out = self.fn(*args, **kwargs)
                # inside the frame: a Parameter returned as it is reads its primal
                diff, aux = self._split_output(out)
            params, written = frame.written_values()
            self._side["params"] = params
            return diff, (aux, written)

        self._side = {}
        return f

    def _split_output(self, out):
        n_first = None
        if self.has_aux:
            if not isinstance(out, tuple) or len(out) < 2:
                raise user_error(ValueError, f"For '{self.api}', when has_aux is True, origin fn "
                                 "requires more than one outputs.",
                                 hint="return (loss, aux1, ...) from the function, or drop "
                                      "has_aux=True.")
            n_first = len(tree_flatten(out[0], is_leaf=is_tensor)[0])
        leaves, tree = tree_flatten(out, is_leaf=is_tensor)
        kinds, diff, aux = [], [], []
        for i, v in enumerate(leaves):
            in_first = n_first is None or i < n_first
            if isinstance(v, Tensor) and v._data is not None:
                if in_first and is_diff_dtype(v._data.dtype):
                    kinds.append(("diff", len(diff)))
                    diff.append(v._data)
                else:
                    kinds.append(("aux", len(aux)))
                    aux.append(v._data)
            else:
                kinds.append(("const", v))
        self._side.update(tree=tree, kinds=kinds, n_first=n_first,
                          first_tensors=[k for k, (kind, _) in enumerate(kinds)
                                         if kind != "const" and (n_first is None or k < n_first)])
        return diff, aux

    # ----------------------------------------------------------- results
    def write_back(self, aux):
        """Store the Parameters written inside the call (primal values), once each."""
        _, written = aux
        for p, v in zip(self._side["params"], written):
            dtype = self.int_dtypes.get(self._param_leaf.get(p))
            p._data = v if dtype is None or v.dtype == dtype else v.astype(dtype)

    def output(self, diff, aux):
        """The call's output, rebuilt with Tensors around the primal arrays."""
        aux_arrays, _ = aux
        leaves = []
        dtypes = self._integer_call_dtypes() if self.int_dtypes else None
        for i, (kind, k) in enumerate(self._side["kinds"]):
            if kind == "diff":
                value = diff[k]
                if dtypes is not None and dtypes[i] is not None and dtypes[i] != value.dtype:
                    value = value.astype(dtypes[i])
                leaves.append(wrap(value))
            elif kind == "aux":
                leaves.append(wrap(aux_arrays[k]))
            else:
                leaves.append(k)
        return tree_unflatten(self._side["tree"], leaves)

    def _integer_call_dtypes(self):
        """The dtype of every output leaf of the call on the user's integer Tensors (what
        the output is, while its gradient is taken in float), or None when the call cannot
        be traced abstractly."""
        def run():
            with _RecordingFrame():
                out = self.fn(*self.args, **self.kwargs)
                return [v._data if isinstance(v, Tensor) and v._data is not None else None
                        for v in tree_flatten(out, is_leaf=is_tensor)[0]]
        try:
            shapes = jax.eval_shape(run)
        except Exception:  # noqa: BLE001 - value-dependent Python: keep the float outputs
            return None
        if len(shapes) != len(self._side["kinds"]):
            return None
        return [None if s is None else s.dtype for s in shapes]

    def cotangents(self, diff, sens=None):
        """Ones for every differentiated output, or the user's ``sens`` leaves."""
        if sens is None:
            return [jnp.ones(d.shape, d.dtype) for d in diff]
        leaves = [s for s in tree_flatten(sens, is_leaf=is_tensor)[0]]
        tensor_slots = self._side["first_tensors"]
        if not tensor_slots:  # no Tensor output (a shape, a number): sens reaches nothing
            return []
        if len(leaves) != len(tensor_slots):
            raise user_error(ValueError, f"For '{self.api}', the sens (gradient of the output) "
                             f"must have one Tensor per output Tensor: the output has "
                             f"{len(tensor_slots)}, but sens has {len(leaves)}.")
        out = []
        for slot, s in zip(tensor_slots, leaves):
            kind, k = self._side["kinds"][slot]
            if kind != "diff":
                continue
            ref = diff[k]
            arr = s._data if isinstance(s, Tensor) else jnp.asarray(s)
            if tuple(arr.shape) != tuple(ref.shape):
                raise user_error(ValueError, f"For '{self.api}', the shape of sens "
                                 f"{tuple(arr.shape)} must equal the shape of the output "
                                 f"{tuple(ref.shape)}.")
            out.append(arr.astype(ref.dtype) if arr.dtype != ref.dtype else arr)
        return out

    def gradients(self, primal_grads, spec):
        """Tensors for one position or weight spec, from the per-primal gradients."""
        def one(s):
            if s is None:
                return None
            if isinstance(s, Zeros):
                return wrap(s.array())
            g = primal_grads[s]
            dtype = self.int_dtypes.get(s, self.primals[s].dtype)
            if g.dtype != dtype:
                g = g.astype(dtype)
            return wrap(g)
        if isinstance(spec, (int, Zeros)) or spec is None:
            return one(spec)
        leaves, tree = tree_flatten(spec, is_leaf=lambda s: isinstance(s, Zeros) or s is None)
        out = tree_unflatten(tree, [one(s) for s in leaves])
        if type(out) is list:
            return tuple(out)
        return _builtin_containers(out)

    def vjp(self, sens=None):
        """Run the forward pass under ``jax.vjp``; returns ``(output, pullback)``.

        ``pullback(sens)`` returns the gradient of every primal; Parameter
        writes are stored before this returns."""
        f = self.function()
        try:
            diff, vjp_fn, aux = jax.vjp(f, *self.primals, has_aux=True)
        except Exception:  # noqa: BLE001 - retried below, or raised as it is
            if not self.int_dtypes:
                raise
            # an integer input used as an integer (an index, a bitwise op): it gets zeros
            self._mark_inputs(int_inputs=False)
            return self.vjp(sens)
        self.write_back(aux)
        out = self.output(diff, aux)

        def pullback(sens=None):
            # MindSpore's complex gradient is the conjugate of jax's (for a real loss,
            # d/dx + i d/dy): conjugate the cotangents in and the gradients out
            grads = vjp_fn([_conj(c) for c in self.cotangents(diff, sens)])
            return tuple(_conj(g) for g in grads)

        return out, pullback


class GradFrame(StateFrame):
    """The frame of a function being differentiated: writes are detached.

    As in MindSpore, a value written to a Parameter (``ops.assign``,
    ``set_data``) carries no gradient back to what it was computed from; a
    later read of that Parameter still differentiates with respect to the
    Parameter itself when it is one of the differentiated weights.
    """

    __slots__ = ("leaves",)

    def __init__(self, values=None):
        super().__init__(values)
        self.leaves = dict(self.values)

    def write(self, param, value):
        super().write(param, detach_written(value, self.leaves.get(param)))

    def hook_leaf(self, param, wrap_value):
        """Pass the differentiated Parameter ``param``'s value through ``wrap_value`` (a
        gradient hook registered during the forward pass); False if it is not one."""
        if param not in self.leaves or param in self.written:
            return False
        self.values[param] = wrap_value(self.values[param])
        return True


def discover_parameters(fn, args, kwargs):
    """The Parameters ``fn(*args, **kwargs)`` reads, in first-read order.

    ``fn`` is traced abstractly (nothing runs, effects are staged); if it
    needs concrete values (Python control flow on Tensors) it runs eagerly,
    its Parameter writes kept inside the recording frame."""
    frame = _RecordingFrame()

    def run():
        with frame:
            out = fn(*args, **kwargs)
            for v in tree_flatten(out, is_leaf=is_tensor)[0]:
                if isinstance(v, Parameter):  # returned as it is: read by the output
                    frame.seen.setdefault(v, None)

    try:
        jax.eval_shape(run)
    except Exception:  # noqa: BLE001 - value-dependent Python: run it for real
        frame = _RecordingFrame(capturing=False)
        run()
    return [p for p in frame.seen if p.requires_grad]


class _RecordingFrame(StateFrame):
    """A frame that notes every Parameter read; writes stay inside it."""

    __slots__ = ("seen", "capturing")

    def __init__(self, capturing=True):
        super().__init__()
        self.seen = {}
        self.capturing = capturing  # effects (print) are staged, never run, while tracing

    def read_missing(self, param):
        self.seen[param] = None
        return super().read_missing(param)
