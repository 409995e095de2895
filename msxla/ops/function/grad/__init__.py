"""``mindspore.ops.function.grad``: the gradient functions (``grad_func``)."""
