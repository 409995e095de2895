"""``mindspore.ops.auto_generate``: MindSpore's generated op classes. msxla defines here
the in-place Primitives scripts construct directly (``InplaceAddExt()(x, y, alpha)``);
the module's other MindSpore names are found where msxla defines them (path index)."""
from msxla.ops.auto_generate.inplace_prims import (InplaceAddExt, InplaceSubExt,
                                                   inplace_add_ext_op, inplace_sub_ext_op)
from msxla.ops.auto_generate.generated_prims import AddExt, SplitWithSize

__all__ = ["InplaceAddExt", "InplaceSubExt", "inplace_add_ext_op", "inplace_sub_ext_op", "AddExt",
           "SplitWithSize"]
