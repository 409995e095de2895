"""``mindspore.ops.function``: MindSpore's functional op modules. Names at their other
paths resolve through the path index (``msxla._paths``); ``grad.grad_func`` holds what
is only here (``custom_vjp``). As in MindSpore, the name ``grad`` here is the function
``grad``, not the subpackage (loaded first, then rebound)."""
from msxla.ops.function import grad as _grad_package  # noqa: F401
from msxla.autodiff.grad import grad  # noqa: E402,F401
