"""``mindspore.dataset.vision``: image transforms (``transforms``), enums and helpers
(``utils``), and the 1.x modules ``c_transforms`` / ``py_transforms`` as deprecated aliases."""
from msxla.dataset.vision import transforms, utils  # noqa: F401
from msxla.dataset.vision.transforms import *  # noqa: F401,F403
from msxla.dataset.vision.utils import (  # noqa: F401
    AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode, Inter, SliceMode,
    encode_jpeg, encode_png, get_image_num_channels, get_image_size, read_file, read_image,
    write_file, write_jpeg, write_png)
