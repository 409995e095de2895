"""Op rows: the box Primitives of MindSpore's detection models (``CheckValid``,
``IOU``, ``BoundingBoxEncode``, ``BoundingBoxDecode``, ``NMSWithMask``,
``ROIAlign``, ``CropAndResize`` / ``crop_and_resize``) and
the block rearrangements ``DepthToSpace`` / ``SpaceToDepth``.

Boxes are ``(x1, y1, x2, y2)`` in pixels. As in MindSpore's kernels, ``IOU``
and the box codecs count a box's width as ``x2 - x1 + 1`` (pixel corners
inclusive), while ``NMSWithMask`` uses ``x2 - x1``. ``IOU(mode)(anchors, gts)``
is ``(len(gts), len(anchors))``; ``'iof'`` divides by the ground-truth box's
area. ``CheckValid`` keeps a box inside ``(height, width) * ratio``.
``NMSWithMask`` sorts by score (column 4), keeps a box unless a kept
higher-scored box overlaps it by more than ``iou_threshold``, and runs as one
``lax.fori_loop`` so it compiles inside a graph; its ``output_idx`` is
``0..N-1``, the positions in the sorted output, as MindSpore 2.10 returns.
``DepthToSpace`` / ``SpaceToDepth`` work on NCHW with MindSpore's
depth-column-row channel order.
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._shape_util import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports

_FLOAT = (mstype.float16, mstype.float32)


@op(prim="CheckValid", public=False, differentiable=False, dtypes=_FLOAT,
    primitive=PrimDef(call=lambda p, bboxes, img_metas: check_valid(bboxes, img_metas)))
def check_valid(bboxes, img_metas):
    """Whether each box lies inside the image ``img_metas = (height, width, ratio)``."""
    height = img_metas[0] * img_metas[2] - 1
    width = img_metas[1] * img_metas[2] - 1
    return ((bboxes[:, 0] >= 0) & (bboxes[:, 1] >= 0)
            & (bboxes[:, 2] <= width) & (bboxes[:, 3] <= height))


def _area(b):
    return (b[..., 2] - b[..., 0] + 1) * (b[..., 3] - b[..., 1] + 1)


@op(static=("mode",), prim="IOU", public=False, differentiable=False, dtypes=_FLOAT,
    primitive=PrimDef(init=(("mode", "iou"),),
                      call=lambda p, anchor, gt: iou(anchor, gt, p.mode)))
def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Overlap of every ground-truth box with every anchor: ``(M, N)``."""
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
    a, g = anchor_boxes[None, :, :4], gt_boxes[:, None, :4]
    w = jnp.maximum(jnp.minimum(a[..., 2], g[..., 2]) - jnp.maximum(a[..., 0], g[..., 0]) + 1, 0)
    h = jnp.maximum(jnp.minimum(a[..., 3], g[..., 3]) - jnp.maximum(a[..., 1], g[..., 1]) + 1, 0)
    inter = w * h
    if mode == "iof":
        return inter / _area(g)
    return inter / (_area(a) + _area(g) - inter)


def _centre(b):
    w, h = b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1
    return (b[:, 0] + b[:, 2]) * 0.5, (b[:, 1] + b[:, 3]) * 0.5, w, h


@op(static=("means", "stds"), prim="BoundingBoxEncode", public=False, dtypes=_FLOAT,
    primitive=PrimDef(init=(("means", (0.0, 0.0, 0.0, 0.0)), ("stds", (1.0, 1.0, 1.0, 1.0))),
                      call=lambda p, anchor, gt: bounding_box_encode(anchor, gt, tuple(p.means),
                                                                     tuple(p.stds))))
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """The deltas ``(dx, dy, dw, dh)`` that move each anchor onto its ground truth,
    normalised by ``means`` and ``stds``."""
    px, py, pw, ph = _centre(anchor_box)
    gx, gy, gw, gh = _centre(groundtruth_box)
    d = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], -1)
    return (d - jnp.asarray(means, d.dtype)) / jnp.asarray(stds, d.dtype)


@op(static=("max_shape", "means", "stds", "wh_ratio_clip"), prim="BoundingBoxDecode",
    public=False, dtypes=_FLOAT,
    primitive=PrimDef(init=(("max_shape", None), ("means", (0.0, 0.0, 0.0, 0.0)),
                            ("stds", (1.0, 1.0, 1.0, 1.0)), ("wh_ratio_clip", 0.016)),
                      call=lambda p, anchor, deltas: bounding_box_decode(
                          anchor, deltas, tuple(p.max_shape), tuple(p.means), tuple(p.stds),
                          p.wh_ratio_clip)))
def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """The boxes that ``deltas`` describe relative to the anchors, clipped to
    ``max_shape = (height, width)``."""
    d = deltas * jnp.asarray(stds, deltas.dtype) + jnp.asarray(means, deltas.dtype)
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = jnp.clip(d[:, 2], -limit, limit), jnp.clip(d[:, 3], -limit, limit)
    px, py, pw, ph = _centre(anchor_box)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    x1, x2 = gx - gw * 0.5 + 0.5, gx + gw * 0.5 - 0.5
    y1, y2 = gy - gh * 0.5 + 0.5, gy + gh * 0.5 - 0.5
    h, w = max_shape
    return jnp.stack([jnp.clip(x1, 0, w), jnp.clip(y1, 0, h), jnp.clip(x2, 0, w),
                      jnp.clip(y2, 0, h)], -1)


@op(static=("iou_threshold",), prim="NMSWithMask", public=False, differentiable=False,
    dtypes=_FLOAT,
    primitive=PrimDef(init=(("iou_threshold", 0.5),),
                      call=lambda p, bboxes: nms_with_mask(bboxes, p.iou_threshold)))
def nms_with_mask(bboxes, iou_threshold=0.5):
    """``(boxes sorted by score, their positions 0..N-1, which boxes are kept)``."""
    n = bboxes.shape[0]
    boxes = bboxes[jnp.argsort(-bboxes[:, 4], stable=True)]
    b = boxes[:, :4]
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    w = jnp.maximum(jnp.minimum(b[:, None, 2], b[None, :, 2])
                    - jnp.maximum(b[:, None, 0], b[None, :, 0]), 0)
    h = jnp.maximum(jnp.minimum(b[:, None, 3], b[None, :, 3])
                    - jnp.maximum(b[:, None, 1], b[None, :, 1]), 0)
    inter = w * h
    over = inter / (area[:, None] + area[None, :] - inter) > iou_threshold
    earlier = jnp.arange(n)[:, None] < jnp.arange(n)[None, :]

    def step(i, keep):
        suppressed = jnp.any(keep & over[:, i] & earlier[:, i])
        return keep.at[i].set(~suppressed)

    keep = jax.lax.fori_loop(0, n, step, jnp.zeros(n, jnp.bool_))
    return boxes, jnp.arange(n, dtype=jnp.int32), keep


def _bilinear_weights(pos, size):
    """Low/high indices and weights of bilinear sampling at ``pos`` along an axis of
    ``size`` (MindSpore's rule: outside ``[-1, size]`` gives nothing, the edge clamps)."""
    valid = (pos >= -1.0) & (pos <= size)
    pos = jnp.maximum(pos, 0.0)
    low = jnp.minimum(jnp.floor(pos).astype(jnp.int32), size - 1)
    at_edge = low >= size - 1
    high = jnp.where(at_edge, size - 1, low + 1)
    pos = jnp.where(at_edge, low.astype(pos.dtype), pos)
    frac = pos - low
    return low, high, 1.0 - frac, frac, valid


@op(static=("pooled_height", "pooled_width", "spatial_scale", "sample_num", "roi_end_mode"),
    prim="ROIAlign", public=False, dtypes=_FLOAT,
    primitive=PrimDef(init=(("pooled_height", None), ("pooled_width", None),
                            ("spatial_scale", None), ("sample_num", 2), ("roi_end_mode", 1)),
                      call=lambda p, features, rois: roi_align(
                          features, rois, p.pooled_height, p.pooled_width, p.spatial_scale,
                          p.sample_num, p.roi_end_mode)))
def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """Average of ``sample_num`` x ``sample_num`` bilinear samples per output bin of each
    region ``rois[r] = (batch, x1, y1, x2, y2)`` of the NCHW ``features``."""
    if sample_num <= 0:
        raise ValueError("For 'ROIAlign', msxla needs sample_num > 0 (a fixed sampling grid), "
                         f"but got {sample_num}.")
    _, _, height, width = features.shape
    g = sample_num
    batch = rois[:, 0].astype(jnp.int32)
    x1, y1 = rois[:, 1] * spatial_scale, rois[:, 2] * spatial_scale
    x2 = (rois[:, 3] + roi_end_mode) * spatial_scale
    y2 = (rois[:, 4] + roi_end_mode) * spatial_scale
    bin_h = (y2 - y1) / pooled_height
    bin_w = (x2 - x1) / pooled_width
    step = (jnp.arange(g) + 0.5) / g
    ys = y1[:, None, None] + (jnp.arange(pooled_height)[None, :, None] + step[None, None, :]) \
        * bin_h[:, None, None]
    xs = x1[:, None, None] + (jnp.arange(pooled_width)[None, :, None] + step[None, None, :]) \
        * bin_w[:, None, None]
    yl, yh, wyl, wyh, vy = _bilinear_weights(ys, height)   # (R, PH, G)
    xl, xh, wxl, wxh, vx = _bilinear_weights(xs, width)    # (R, PW, G)
    b = batch[:, None, None, None, None]

    def at(yi, xi):  # (R, PH, G, PW, G, C)
        return features[b, :, yi[:, :, :, None, None], xi[:, None, None, :, :]]

    def w(a, c):
        return (a[:, :, :, None, None] * c[:, None, None, :, :])[..., None]

    val = (w(wyl, wxl) * at(yl, xl) + w(wyl, wxh) * at(yl, xh)
           + w(wyh, wxl) * at(yh, xl) + w(wyh, wxh) * at(yh, xh))
    val = val * (vy[:, :, :, None, None] & vx[:, None, None, :, :])[..., None]
    return jnp.transpose(val.mean(axis=(2, 4)), (0, 3, 1, 2)).astype(features.dtype)


def _crop_positions(lo, hi, size, crop):
    """Sampling positions along one axis for each box (``(n, crop)``), TF's rule."""
    if crop > 1:
        step = (hi - lo)[:, None] * (size - 1) / (crop - 1)
        return lo[:, None] * (size - 1) + jnp.arange(crop)[None, :] * step
    return (0.5 * (lo + hi) * (size - 1))[:, None]


@op(static=("crop_size", "method", "extrapolation_value"), prim="CropAndResize",
    differentiable=False, dtype_args=(),
    primitive=PrimDef(init=(("method", "bilinear"), ("extrapolation_value", 0.0)),
                      call=lambda p, image, boxes, box_index, crop_size: crop_and_resize(
                          image, boxes, box_index, tuple(crop_size), p.method,
                          p.extrapolation_value)))
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Crops of the NHWC ``image`` at the normalised ``boxes`` (y1, x1, y2, x2) of the
    images ``box_indices``, resized to ``crop_size``; float32, ``extrapolation_value``
    outside the image."""
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"For 'CropAndResize', msxla supports method 'bilinear' and 'nearest', "
                         f"but got {method!r}.")
    _, height, width, _ = image.shape
    ch, cw = crop_size
    img = image.astype(jnp.float32)[box_indices.astype(jnp.int32)]  # (n, H, W, C)
    ys = _crop_positions(boxes[:, 0], boxes[:, 2], height, ch)        # (n, ch)
    xs = _crop_positions(boxes[:, 1], boxes[:, 3], width, cw)         # (n, cw)
    # a position computed as the last pixel may come out an ulp beyond it (XLA turns the
    # division by a constant into a multiplication); MindSpore's kernel gets it exactly
    slack = 4 * float(jnp.finfo(jnp.float32).eps)
    inside = ((ys >= 0) & (ys <= (height - 1) * (1 + slack)))[:, :, None] & \
        ((xs >= 0) & (xs <= (width - 1) * (1 + slack)))[:, None, :]
    n = jnp.arange(img.shape[0])[:, None, None]

    def at(yi, xi):
        yi = jnp.clip(yi, 0, height - 1).astype(jnp.int32)
        xi = jnp.clip(xi, 0, width - 1).astype(jnp.int32)
        return img[n, yi[:, :, None], xi[:, None, :]]                  # (n, ch, cw, C)

    if method == "nearest":
        out = at(jnp.sign(ys) * jnp.floor(jnp.abs(ys) + 0.5),
                 jnp.sign(xs) * jnp.floor(jnp.abs(xs) + 0.5))
    else:
        top, left = jnp.floor(ys), jnp.floor(xs)
        bottom, right = jnp.ceil(ys), jnp.ceil(xs)
        wy = (ys - top)[:, :, None, None]
        wx = (xs - left)[:, None, :, None]
        upper = at(top, left) + (at(top, right) - at(top, left)) * wx
        lower = at(bottom, left) + (at(bottom, right) - at(bottom, left)) * wx
        out = upper + (lower - upper) * wy
    return jnp.where(inside[..., None], out, jnp.float32(extrapolation_value))


@op(static=("block_size",), prim="DepthToSpace", public=False,
    primitive=PrimDef(init=(("block_size", 2),),
                      call=lambda p, x: depth_to_space(x, p.block_size)))
def depth_to_space(x, block_size):
    """NCHW ``(N, C*b*b, H, W)`` -> ``(N, C, H*b, W*b)``; channel ``(i*b + j)*C + c``
    goes to row offset ``i``, column offset ``j``."""
    n, ch, h, w = x.shape
    b = block_size
    if ch % (b * b):
        raise ValueError(f"For 'DepthToSpace', the channels {ch} must be divisible by "
                         f"block_size * block_size = {b * b}.")
    y = x.reshape(n, b, b, ch // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(n, ch // (b * b), h * b, w * b)


@op(static=("block_size",), prim="SpaceToDepth", public=False,
    primitive=PrimDef(init=(("block_size", 2),),
                      call=lambda p, x: space_to_depth(x, p.block_size)))
def space_to_depth(x, block_size):
    """NCHW ``(N, C, H*b, W*b)`` -> ``(N, C*b*b, H, W)``, the inverse of ``DepthToSpace``."""
    n, ch, h, w = x.shape
    b = block_size
    if h % b or w % b:
        raise ValueError(f"For 'SpaceToDepth', the height {h} and width {w} must be divisible "
                         f"by block_size {b}.")
    y = x.reshape(n, ch, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return y.reshape(n, b * b * ch, h // b, w // b)


__all__ = exports(__name__)
