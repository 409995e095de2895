"""``mindspore.ops.GradOperation``: the higher-order gradient API of MindSpore 1.x.

``GradOperation(get_all, get_by_list, sens_param)(fn, weights)`` returns a
function of the same arguments as ``fn`` (plus the output's gradient last
when ``sens_param``) that returns:

- default: the gradient of the first input (``()`` when there is none);
- ``get_all``: a tuple with the gradient of every input that holds a Tensor;
- ``get_by_list``: the gradients of ``weights`` (a tuple for a list, a bare
  Tensor for one Parameter; every Parameter ``fn`` reads when None);
- ``get_all`` and ``get_by_list``: ``(input_grads, weight_grads)``.
"""
from __future__ import annotations

from msxla.autodiff._args import check_bool, normalize_weights, split_sens
from msxla.autodiff._functionalize import discover_parameters
from msxla.autodiff.grad import compute_grads

__all__ = ["GradOperation"]

_API = "GradOperation"


class GradOperation:
    """Builds gradient functions (``mindspore.ops.GradOperation``)."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        check_bool(_API, "get_all", get_all)
        check_bool(_API, "get_by_list", get_by_list)
        check_bool(_API, "sens_param", sens_param)
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.name = "grad"

    def __repr__(self):
        return (f"GradOperation(get_all={self.get_all}, get_by_list={self.get_by_list}, "
                f"sens_param={self.sens_param})")

    def __call__(self, fn, weights=None):
        weight_list, single = (None, False)
        if self.get_by_list and weights is not None:
            weight_list, single = normalize_weights(_API, weights)

        def after_grad(*args, **kwargs):
            return self._run(fn, weight_list, single, args, kwargs)

        return after_grad

    def _run(self, fn, weight_list, single, args, kwargs):
        call_args, call_kwargs = args, kwargs
        if self.sens_param:
            call_args, call_kwargs, _ = split_sens(args, kwargs)
        n_inputs = len(call_args) + len(call_kwargs)
        positions = tuple(range(n_inputs)) if self.get_all else tuple(range(min(1, n_inputs)))
        if self.get_by_list and weight_list is None:
            weight_list = discover_parameters(fn, call_args, call_kwargs)
        _, pos, ws = compute_grads(_API, fn, args, kwargs, positions, weight_list or (),
                                   sens_param=self.sens_param)
        if self.get_all:
            inputs = tuple(g for _, g in pos)
        else:
            inputs = pos[0][1] if pos else ()
        if not self.get_by_list:
            return inputs
        w_part = ws[0] if single else tuple(ws)
        if self.get_all:
            return (inputs, w_part)
        return w_part
