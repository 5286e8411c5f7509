"""Holes judged against this photo's own table: a cell that looks like the table is a hole.

The cell model knows "empty" from a few tables only; a hole on a blue cloth looks like lake to
it. But the photo shows the table right around the kingdom. So:

1. Straighten the frame with a margin of one cell all round; the 4N + 4 cells of that margin
   are table (or, on a crowded table, sometimes another kingdom or a box).
2. Describe each margin cell and each frame cell by a colour histogram (Lab, coarse bins,
   the cell's middle only; each pixel shared between the two nearest bins of each channel, so
   that a hole a shade darker than the open table, as the tiles round it shade it, moves part
   of its histogram into the next bin, not all of it) and a texture histogram (how steep the
   brightness changes are).
3. A frame cell's *table likeness* is, for colour and texture each, its K-th best histogram
   intersection with the margin cells, relative to what margin cells reach with each other;
   the two multiplied. Colour alone took lake tiles on a blue cloth for table; their artwork
   is finer than a cloth's pattern. A cell washed out by a lamp's reflection (paler and
   brighter than the table) is also compared by hue, which mixing with white keeps, and by its
   texture with the brightness steps the reflection flattened scaled back up.
   Matching single margin cells (not their average) keeps a textured table whole: a hole on a
   light band of dark wood matches the light margin cells; taking the K-th best, not the best,
   means one margin cell showing something else (a neighbour's tile, a box) cannot make a tile
   look like table.
4. The likeness moves the cell model's "empty" probability (a likelihood ratio) before joint
   decoding, which also insists that the remaining tiles still split into real dominoes. A
   cell the model reads as a hole and that looks like the table (``SURE_LIKENESS``) is a sure
   hole: decoding flags it, and its would-be partner, rather than filling it.

No table visible (a tight crop, or the image is a straightened board): each cell's own art
judges it instead (``judge_holes_by_art``). A tile carries the printed art and edges of one of
the 96 real halves, which the cell model has learnt; a logistic regression on the model's pooled
features (``lab.hole_art``, ``models/hole_art.npz``) tells that art from a cloth even where the
terrain head reads the cloth as lake, and (twice) its log odds move "empty" the same way.
"""

from __future__ import annotations

import dataclasses
import threading
from functools import lru_cache

import cv2
import numpy as np

from scoring.board import Board, Terrain
from scoring.words import msg
from vision.cells import CROP, CellReadings
from vision.labels import TERRAINS
from vision.model import MODEL_FILE, MODELS_DIR
from vision.rectify import photo_in_view, photo_px_per_cell, warp_at_scale
from vision.stats import median

PX = 32  # pixels per cell of the straightened view used here
MIN_TABLE_CELLS = 6  # margin cells needed inside the photo to trust the table's look
# A margin cell counts when the photo shows at least this share of its middle (``_inner``):
# about a third of a cell of table along the kingdom's side.
MIN_MARGIN_SHOWN = 0.15
K_BEST = 3  # a cell's table likeness is its K-th best match among the margin cells
_BINS = (4, 8, 8)  # L, a, b
_EMPTY = TERRAINS.index(Terrain.EMPTY)
_CASTLE = TERRAINS.index(Terrain.CASTLE)
_TEXTURE_BINS = 8  # log(1 + |brightness gradient|), 0-6
_HUE_BINS = 18
# A reflection mixes the table's colour with white: the hue stays, the Lab histogram does not.
# A cell is taken as washed out when it is brighter than the table and its saturation is below
# this share of the table's; a tile paler but darker than the table (a beige swamp on a yellow
# cloth) is not. Chosen on hard synthetic scenes 5000-5199 (holes missed 8 → 4, tiles taken for
# holes 2 → 2; comparing every cell by hue took 10 tiles for holes).
WASHED_OUT = 0.75
MIN_CHROMA = 8.0  # mean channel spread (of 255) below which a cell has no hue worth comparing
# Likelihood ratio for "empty" = exp(SLOPE * (likeness - MIDPOINT)), clipped to [1/CAP, CAP]:
# a cell as table-like as the margin itself (likeness ≈ 1) gains, one that shares little of
# the table's colours and texture (a tile) loses. Fitted to how often holes and tiles reach each
# likeness on hard synthetic development scenes (lab.synth 5000-5799, 1,006 holes and 27,098
# tiles; the evaluation's scenes not used): the log of that ratio rises about linearly from -2
# at likeness 0.45 to +6 at 1.0, and no more than 3 holes in 1,000 fall below 0.3. The earlier
# (40, 0.75) was three times as steep: a hole at likeness 0.6 (a green cloth beside grassland)
# was ruled out at odds of 3,000 to 1 where holes and tiles there are about as common. On those
# scenes, after decoding: holes missed 20 → 6 cells, tiles read as holes 20 → 12.
SLOPE = 15.0
MIDPOINT = 0.6
CAP = 1e4
# A cell unlike the table is weaker evidence of a tile than one like it is of a hole: a hole can
# show something other than the open table (the castle figure's shadow across it, an old photo's
# own table under a board pasted in), so unlikeness alone never counts more than 20 to 1 against
# a hole, and a hole the model itself sees at odds of 20 or more is weighed, not overruled.
# Refitted with the colour bins shared (1,246 holes, 16,178 tiles on soft-wood 11200-11419,
# camera 7200-7399 and hard 5100-5299 development scenes), the line itself came out at slope
# 15.4, midpoint 0.57: kept. The floor kept a shadowed pair of holes the model read at 0.95 and
# 0.92 (soft wood 11201) and made no tile a hole on those 489 scenes.
MIN_RATIO = 1 / 20
# A cell at least this table-like (odds of e**3 ≈ 20 to 1 for a hole) that the model reads as a
# hole too is a sure hole: joint decoding keeps it a hole and flags, rather than making it a
# tile to complete a domino (``vision.decode``).
SURE_LIKENESS = 0.8
ART_FILE = "hole_art.npz"  # the hole-or-tile check on the cell model's features (lab.hole_art)
# The art's log odds count twice: the cell model's own "empty" for a cloth it has never seen is
# as low as 0.0001, and holes the art gave odds of 3-5 stayed swamp. On tight-cloth development
# seeds 9300-9339, after decoding: totals 85 → 92.5 %, holes 90 → 93 %, tiles read as holes 0 → 1
# of 1,548 (flagged). Chosen again for the fit at ridge L2 10 (lab.hole_art) on seeds 9300-9999
# (700 scenes): weights 1.5 / 2 / 2.5 / 3 read totals 93.1 / 93.9 / 93.9 / 93.9 %, holes 97.1 /
# 98.0 / 98.3 / 98.2 %, tiles read as holes 10 / 11 / 16 / 18 of 23,968.
ART_WEIGHT = 2.0
# A tile's art and a cloth's print have no up, but the network's features of one quarter turn
# are not another's. A cell whose art gives odds under 20 to 1 either way (3 % of the cells on
# tight-cloth development seeds 9300-9999) is read in all four turns and their features
# averaged: there holes below log odds 1 went 3.0 -> 1.9 %, tiles above 0 0.28 -> 0.13 %, and
# after decoding totals 93.7 -> 94.1 %, holes 97.6 -> 98.6 %, tiles read as holes 11 -> 7 of
# 23,968 (every cell averaged: 93.9 %, 98.4 %, 7, at four times the art check's passes).
ART_DOUBT = 3.0


# sRGB (D65) to XYZ, and the white point, as OpenCV's Lab conversion uses them.
_RGB_TO_XYZ = np.array(
    [
        [0.412453, 0.357580, 0.180423],
        [0.212671, 0.715160, 0.072169],
        [0.019334, 0.119193, 0.950227],
    ],
    np.float32,
)
_WHITE = np.array([0.950456, 1.0, 1.088754], np.float32)


def _srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0-1, float32) to linear light, float32."""
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


# Each 8-bit level's linear light, made once: a view's pixels take only these 256 values, and
# the power per pixel was a third of ``_lab`` (of a 12 MP table's four kingdoms' likeness, 2 ms
# a kingdom, twice: ``_lightness`` too).
_LINEAR = _srgb_to_linear(np.arange(256, dtype=np.float32) / 255.0)


def _linear_rgb(bgr: np.ndarray) -> np.ndarray:
    """(H, W, 3) float32 linear-light RGB of an 8-bit BGR image."""
    if bgr.dtype != np.uint8:
        raise TypeError(f"an 8-bit BGR image is needed, got {bgr.dtype}")
    return _LINEAR[bgr[..., ::-1]]


def _lab(bgr: np.ndarray) -> np.ndarray:
    """(H, W, 3) Lab on OpenCV's 8-bit scale (L 0-255, a and b offset by 128), as float32.

    Computed here rather than by ``cv2.cvtColor``: OpenCV builds its Lab tables on first use,
    about 0.09 s per process, more than this whole step takes; on a few thousand pixels numpy
    is as quick.
    """
    linear = _linear_rgb(bgr)
    xyz = (linear @ _RGB_TO_XYZ.T) / _WHITE
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    lightness = np.where(xyz[..., 1] > 0.008856, 116 * f[..., 1] - 16, 903.3 * xyz[..., 1])
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([lightness * 255 / 100, a + 128, b + 128], axis=-1).astype(np.float32)


def _lightness(bgr: np.ndarray) -> np.ndarray:
    """(H, W) ``_lab(bgr)[..., 0]``, the same numbers, without a and b (only the texture of
    lightness is wanted of the unblurred view)."""
    linear = _linear_rgb(bgr)
    y = np.ascontiguousarray((linear @ _RGB_TO_XYZ.T)[..., 1]) / _WHITE[1]
    f = np.where(y > 0.008856, np.cbrt(y), 7.787 * y + 16 / 116)
    lightness = np.where(y > 0.008856, 116 * f - 16, 903.3 * y)
    return (lightness * 255 / 100).astype(np.float32)


_TEXTURE_EDGES = np.linspace(0, 6, _TEXTURE_BINS + 1)


def _bin_index(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Each value's bin among ``edges``, as ``np.histogram`` bins it (the last edge included);
    -1 outside them."""
    index = np.searchsorted(edges, values, side="right") - 1
    index[values == edges[-1]] = len(edges) - 2
    index[(values < edges[0]) | (values > edges[-1])] = -1
    return index


def _colour_bins(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's place in the coarse Lab histogram (_BINS, flattened), shared between the two
    nearest bins of each channel: (8, H, W) bin indices and (8, H, W) weights summing to 1.

    Hard bins this coarse (a lightness bin is a quarter of the scale) broke at their edges: a
    hole a shade darker than the table around it (the tiles' shadow, the light falling off)
    fell wholly into the next lightness bin and shared nothing with the table (soft-wood
    development scene 11105: two holes at likeness 0.06, read as wheat).
    """
    index = np.zeros((1, *lab.shape[:2]), np.int64)
    weight = np.ones((1, *lab.shape[:2]), np.float32)
    for channel, bins in enumerate(_BINS):
        # Bin b's centre is at (b + 0.5) of its width; a value between two centres is shared
        # between them in proportion, one beyond the outer centres goes wholly to that bin.
        position = np.clip(lab[..., channel] * (bins / 256) - 0.5, 0, bins - 1)
        low = np.minimum(np.floor(position).astype(np.int64), bins - 2)
        upper = (position - low).astype(np.float32)
        index = np.concatenate([index * bins + low, index * bins + low + 1])
        weight = np.concatenate([weight * (1 - upper), weight * upper])
    return index, weight


def _hard_bins(bin_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``bin_of`` (-1: not counted) as (1, H, W) indices and weights, as ``_colour_bins``."""
    return np.maximum(bin_of, 0)[None], (bin_of >= 0).astype(np.float32)[None]


def _counts_by_box(index: np.ndarray, weight: np.ndarray, bins: int) -> np.ndarray:
    """(boxes, bins): each box's ``weight`` summed by its bin ``index`` (both (boxes, ...)).

    One ``np.bincount`` for all boxes, each box's bins offset past the last box's: every bin
    sums its box's pixels in the order a count of that box alone does, so the numbers are those
    of one count per cell, which was most of a table likeness."""
    boxes = len(index)
    offset = (np.arange(boxes) * bins).reshape((boxes,) + (1,) * (index.ndim - 1))
    counts = np.bincount((index + offset).ravel(), weight.ravel(), boxes * bins)
    return counts.reshape(boxes, bins)


def _histograms(
    binned: tuple[np.ndarray, np.ndarray], boxes: list, bins: int, shown: list | None = None
) -> np.ndarray:
    """(boxes, bins): the histogram of each box's middle, as shares of its pixels, the view
    binned once (``binned``: (K, H, W) bin indices and weights): ``np.histogramdd`` per cell cost
    most of this step. ``shown``: per box, (PX, PX) float32 1 where the box shows the photo, 0
    past its edge (``_shown``); only those pixels count. None: every pixel."""
    index, weight = binned
    inner_index = np.stack(
        [_inner(index[:, rows, cols].transpose(1, 2, 0)) for rows, cols in boxes]
    )
    inner_weight = np.stack(
        [_inner(weight[:, rows, cols].transpose(1, 2, 0)) for rows, cols in boxes]
    )
    if shown is None:
        pixels = inner_index.shape[1] * inner_index.shape[2]
        return _counts_by_box(inner_index, inner_weight, bins) / pixels
    inner_shown = np.stack([_inner(mask) for mask in shown])
    inner_weight = inner_weight * inner_shown[..., None]
    pixels = inner_shown.sum(axis=(1, 2))[:, None]
    return _counts_by_box(inner_index, inner_weight, bins) / pixels


def _inner(cell: np.ndarray) -> np.ndarray:
    """The cell's middle (a sixth cut off each side, where a neighbour's edge may show)."""
    return cell[PX // 6 : PX - PX // 6, PX // 6 : PX - PX // 6]


_HUE_EDGES = np.linspace(0, 2 * np.pi, _HUE_BINS + 1)  # as np.histogram makes them


def _middles(view: np.ndarray, boxes: list) -> np.ndarray:
    """(boxes, pixels, 3) float32: the middle (``_inner``) of each box of a colour ``view``."""
    inner = np.stack([_inner(view[box]) for box in boxes])
    return inner.reshape(len(boxes), -1, 3).astype(np.float32)


def _shown_middles(boxes: list, shown: list | None) -> np.ndarray:
    """(boxes, pixels) float32: 1 where each box's middle shows the photo (all of it when
    ``shown`` is None)."""
    if shown is None:
        return np.ones((len(boxes), (PX - 2 * (PX // 6)) ** 2), np.float32)
    return np.stack([_inner(mask) for mask in shown]).reshape(len(boxes), -1)


def _hue_histograms(bgr_view: np.ndarray, boxes: list, shown: list | None = None) -> list:
    """Each box's middle's hue, weighted by chroma, as shares (float32); all float64 zeros for a
    cell too grey to have a hue. All boxes at once, the numbers of one cell alone: one
    ``np.histogram`` per cell was most of a washed-out kingdom's table likeness. ``shown`` as
    ``_histograms`` takes it."""
    inner = _middles(bgr_view, boxes)
    weight = _shown_middles(boxes, shown)
    chroma = (inner.max(axis=2) - inner.min(axis=2)) * weight
    b, g, r = inner[..., 0], inner[..., 1], inner[..., 2]
    hue = np.arctan2(np.sqrt(3) * (g - b), 2 * r - g - b) % (2 * np.pi)
    # np.histogram adds float64 sums to a histogram of the weights' type (float32).
    counts = _counts_by_box(_bin_index(hue, _HUE_EDGES), chroma, _HUE_BINS).astype(np.float32)
    mean_chroma = chroma.sum(axis=1) / weight.sum(axis=1)
    histograms = []
    for grey, hist in zip(mean_chroma < MIN_CHROMA, counts, strict=True):
        histograms.append(np.zeros(_HUE_BINS) if grey else hist / max(float(hist.sum()), 1e-6))
    return histograms


def _texture_histograms(steepness_cells: np.ndarray) -> list[np.ndarray]:
    """The histogram of each of (cells, PX, PX) steepnesses' middle, as shares of its pixels, in
    one count."""
    inner = steepness_cells[:, PX // 6 : PX - PX // 6, PX // 6 : PX - PX // 6]
    bin_of = _bin_index(inner, _TEXTURE_EDGES).reshape(len(inner), -1)
    # Pixels outside the bins (-1) are counted with weight 0: whole numbers, as counted alone.
    counts = _counts_by_box(np.maximum(bin_of, 0), (bin_of >= 0).astype(np.float64), _TEXTURE_BINS)
    return list(counts / max(bin_of.shape[1], 1))


def _colourfulness(view: np.ndarray, boxes: list, shown: list | None = None) -> np.ndarray:
    """(boxes, 3) mean saturation, value (brightest channel) and chroma (channel spread) of each
    box's middle: all boxes at once (the numbers of one box measured alone, row by row).
    ``shown`` as ``_histograms`` takes it."""
    inner = _middles(view, boxes)
    weight = _shown_middles(boxes, shown)
    pixels = weight.sum(axis=1)
    value = inner.max(axis=2)
    chroma = value - inner.min(axis=2)
    saturation = (chroma / np.maximum(value, 1.0) * weight).sum(axis=1) / pixels
    value_mean = (value * weight).sum(axis=1) / pixels
    chroma_mean = (chroma * weight).sum(axis=1) / pixels
    return np.stack([saturation, value_mean, chroma_mean], axis=1).astype(float)


@dataclasses.dataclass(frozen=True)
class _Reflections:
    """Which cells look washed out by a reflection, and how much contrast each kept (1: none
    lost); mixing with white a share g of the light keeps hue and 1 - g of the chroma and of
    every brightness step."""

    washed_out: np.ndarray  # (cells,) bool
    contrast_kept: np.ndarray  # (cells,) in (0, 1]


def _reflections(
    view: np.ndarray, boxes: list, margin_boxes: list, shown: list | None = None
) -> _Reflections:
    table = _colourfulness(view, margin_boxes, shown)
    table_saturation, table_value, table_chroma = median(table, axis=0)
    cells = _colourfulness(view, boxes)
    washed_out = (cells[:, 0] < WASHED_OUT * table_saturation) & (cells[:, 1] >= table_value)
    kept = np.clip(cells[:, 2] / max(table_chroma, 1e-6), 0.2, 1.0)
    return _Reflections(washed_out, np.where(washed_out, kept, 1.0))


def _likeness(cells: list, margin: list) -> np.ndarray:
    """Each cell's K-th best histogram intersection with the margin cells, over what margin
    cells reach with each other (their median K-th best)."""
    cells, margin = np.array(cells), np.array(margin)
    # A textured table (wood grain, waves, a cloth's pattern) is not one mix: a cell is compared
    # with each margin cell, and its K-th best match counts, so that one margin cell showing
    # something else (a neighbour's tile, a box) cannot make a tile look like table.
    between = np.minimum(margin[:, None, :], margin[None, :, :]).sum(axis=2)
    np.fill_diagonal(between, 0.0)
    reference = max(float(median(np.sort(between, axis=1)[:, -K_BEST])), 0.05)
    matches = np.minimum(cells[:, None, :], margin[None, :, :]).sum(axis=2)
    return np.sort(matches, axis=1)[:, -K_BEST] / reference


def table_likeness(photo: np.ndarray, homography: np.ndarray, size: int) -> np.ndarray | None:
    """(size, size) in 0–1+: how much each cell looks like the table around the kingdom.

    ``homography`` maps photo pixels to board units (cells), as ``BoardLocation`` has it.
    None when too little table is in the photo to judge.
    """
    side = (size + 2) * PX
    to_view = np.array([[PX, 0, PX], [0, PX, PX], [0, 0, 1.0]]) @ homography
    # Made at PX per cell from the photo brought to that scale, so that colour and texture are
    # measured alike in a 12 MP photo and a video frame (``rectify.warp_at_scale``).
    finer = photo_px_per_cell(homography, size) / PX
    view = warp_at_scale(photo, to_view, (side, side), finer)
    inside = photo_in_view(photo.shape, to_view, (side, side), finer)
    blurred = cv2.GaussianBlur(view, (0, 0), 1.0)
    lab = _lab(blurred)
    brightness = _lightness(view)
    gx = cv2.Sobel(brightness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(brightness, cv2.CV_32F, 0, 1, ksize=3)
    gradient = np.sqrt(gx * gx + gy * gy)
    steepness = np.log1p(gradient)
    ring = [
        (slice(r * PX, (r + 1) * PX), slice(c * PX, (c + 1) * PX))
        for r in range(size + 2)
        for c in range(size + 2)
        if r in (0, size + 1) or c in (0, size + 1)
    ]
    # A margin cell counts by the part of it the photo shows: a kingdom photographed to within
    # a third of a cell of the photo's edge (a phone held close, kd_czech_01 and _04 in
    # ../shared) still shows its table in slivers, and without them no cell could be judged
    # against the table at all. The photo's edge is a step the texture would count: the part
    # shown is taken a few pixels in from it.
    shown_view = cv2.erode((inside > 0).astype(np.uint8), np.ones((5, 5), np.uint8))
    margin_boxes, shown = [], []
    for box in ring:
        mask = shown_view[box].astype(np.float32)
        if _inner(mask).mean() >= MIN_MARGIN_SHOWN:
            margin_boxes.append(box)
            shown.append(mask)
    if len(margin_boxes) < MIN_TABLE_CELLS:
        return None
    if all(mask.all() for mask in shown):
        shown = None  # every margin cell whole: counted as before, pixel for pixel
    colour_bins = _colour_bins(lab)
    texture_bins = _hard_bins(_bin_index(steepness, _TEXTURE_EDGES))
    colour_count, texture_count = int(np.prod(_BINS)), _TEXTURE_BINS
    margin_colour = _histograms(colour_bins, margin_boxes, colour_count, shown)
    margin_texture = _histograms(texture_bins, margin_boxes, texture_count, shown)
    boxes = [
        (slice((r + 1) * PX, (r + 2) * PX), slice((c + 1) * PX, (c + 2) * PX))
        for r in range(size)
        for c in range(size)
    ]
    colour = _likeness(_histograms(colour_bins, boxes, colour_count), margin_colour)
    texture = _likeness(_histograms(texture_bins, boxes, texture_count), margin_texture)
    reflections = _reflections(blurred, boxes, margin_boxes, shown)
    margin_hue = []
    if reflections.washed_out.any():
        margin_hue = [h for h in _hue_histograms(blurred, margin_boxes, shown) if h.any()]
    if len(margin_hue) >= MIN_TABLE_CELLS:
        # Compared as the table would look without the reflection: by hue, and with the
        # brightness steps it flattened scaled back up.
        hue = _likeness(_hue_histograms(blurred, boxes), margin_hue)
        cells = np.stack([gradient[box] for box in boxes])
        kept = reflections.contrast_kept[:, None, None]
        restored = _likeness(_texture_histograms(np.log1p(cells / kept)), margin_texture)
        washed_out = reflections.washed_out
        colour = np.where(washed_out, np.maximum(colour, hue), colour)
        texture = np.where(washed_out, np.maximum(texture, restored), texture)
    return (colour * texture).reshape(size, size)


def judge_holes(readings: CellReadings, likeness: np.ndarray | None) -> CellReadings:
    """The readings with each cell's "empty" probability weighed by its table likeness."""
    if likeness is None:
        return readings
    if likeness.shape != (readings.size, readings.size):
        raise ValueError(f"likeness must be {readings.size}×{readings.size}, got {likeness.shape}")
    ratio = np.clip(np.exp(SLOPE * (likeness - MIDPOINT)), MIN_RATIO, CAP)
    terrain = readings.terrain_probs.copy()
    land = terrain.copy()
    land[..., _CASTLE] = -1.0  # the model's own first choice is never a second castle
    sure_holes = (land.argmax(axis=-1) == _EMPTY) & (likeness >= SURE_LIKENESS)
    terrain[..., _EMPTY] *= ratio
    terrain /= terrain.sum(axis=-1, keepdims=True)
    return dataclasses.replace(readings, terrain_probs=terrain, sure_holes=sure_holes)


def judge_holes_by_art(readings: CellReadings, board_image: np.ndarray) -> CellReadings:
    """The readings with each cell's "empty" probability weighed by how little its art looks
    like a tile's (``art_hole_odds``): for a board with no table in view."""
    odds = art_hole_odds(board_image, readings.size)
    terrain = readings.terrain_probs.copy()
    terrain[..., _EMPTY] *= np.clip(np.exp(ART_WEIGHT * odds), 1 / CAP, CAP)
    terrain /= terrain.sum(axis=-1, keepdims=True)
    return dataclasses.replace(readings, terrain_probs=terrain)


def art_hole_odds(board_image: np.ndarray, size: int) -> np.ndarray:
    """(size, size) log likelihood ratio of hole against tile from each cell's art alone; a
    cell in doubt (``ART_DOUBT``) is read in its four quarter turns and their features averaged."""
    from vision.cells import cut_cells

    mean, scale, weights, bias = _art_fit()
    crops = cut_cells(board_image, size)
    features = art_features(crops)
    odds = ((features - mean) / scale) @ weights + bias
    doubt = np.flatnonzero(np.abs(odds) < ART_DOUBT)
    if len(doubt):
        turned = np.concatenate([np.rot90(crops[doubt], turn, axes=(1, 2)) for turn in (1, 2, 3)])
        others = art_features(turned).reshape(3, len(doubt), -1)
        features[doubt] = (features[doubt] + others.sum(axis=0)) / 4
        odds[doubt] = ((features[doubt] - mean) / scale) @ weights + bias
    return odds.reshape(size, size)


def art_features(crops: np.ndarray) -> np.ndarray:
    """(B, F) the cell model's pooled features (what its terrain and crown heads read) of
    (B, CROP, CROP, 3) uint8 BGR crops."""
    net, layer = _feature_network()
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
    with _FEATURE_LOCK:
        net.setInput(blob)
        return net.forward(layer).reshape(len(crops), -1)


@lru_cache(maxsize=1)
def _art_fit() -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(mean, scale, weights, bias) of ``lab.hole_art``'s regression, loaded once."""
    with np.load(MODELS_DIR / ART_FILE, allow_pickle=False) as fit:
        return fit["mean"], fit["scale"], fit["weights"], float(fit["bias"])


_FEATURE_LOCK = threading.Lock()  # cv2.dnn.Net is not safe to call from two threads at once


@lru_cache(maxsize=1)
def _feature_network() -> tuple[cv2.dnn.Net, str]:
    """The first cell network and the name under which it gives its pooled features: OpenCV 5's
    engine (5.0 and 5.1) answers for any tensor by the tensor's name, OpenCV 4's for a layer
    by the layer's name (``onnx_node!/Flatten``). Both give the same numbers (to 1e-5)."""
    net = cv2.dnn.readNetFromONNX(str(MODELS_DIR / MODEL_FILE))
    layers = [name for name in net.getLayerNames() if name.endswith("/Flatten")]
    probe = np.zeros((1, 3, CROP, CROP), np.float32)
    for name in ("/Flatten_output_0", *layers):
        try:
            net.setInput(probe)
            net.forward(name)
        except cv2.error:
            continue
        return net, name
    raise RuntimeError(f"{MODEL_FILE} gives no pooled features in OpenCV {cv2.__version__}")


def hole_grid(board: Board) -> np.ndarray:
    """(N, N) bool: which cells of ``board`` are holes."""
    return np.array([[cell.terrain is Terrain.EMPTY for cell in row] for row in board.cells])


# Each side of the frame, as the move that would drop it (``open_sides``), and its line of cells.
_SIDE_LINES = {
    (1, 0): np.s_[0, :],
    (-1, 0): np.s_[-1, :],
    (0, 1): np.s_[:, 0],
    (0, -1): np.s_[:, -1],
}


def open_sides(board: Board, least: int | None = None) -> tuple[tuple[int, int], ...]:
    """The sides of the frame that read as table nearly all along (every cell a hole but at most
    one; ``least``: at least that many holes instead), each as the move (rows down, columns
    right) that would drop it: (1, 0) for the top row, (-1, 0) the bottom row, (0, 1) the left
    column, (0, -1) the right column.

    Complete kingdoms never have such a side, and the finder places a smaller kingdom's frame
    round its castle; but tiles at the kingdom's edge that look like the table (wheat on a
    yellow cloth) can be left out of the frame, which then takes in a strip of table on the
    other side instead.
    """
    holes = hole_grid(board)
    least = board.size - 1 if least is None else least
    return tuple(move for move, line in _SIDE_LINES.items() if holes[line].sum() >= least)


def open_side_cells(board: Board) -> np.ndarray:
    """(N, N) bool: the cells of the lines along the open sides (``open_sides``)."""
    cells = np.zeros((board.size, board.size), bool)
    for move in open_sides(board):
        cells[_SIDE_LINES[move]] = True
    return cells


def open_side_warnings(board: Board) -> tuple[str, ...]:
    """One sentence per open side (``open_sides``) of the frame.

    The reading cannot tell a kingdom smaller than its frame from tiles left out past the other
    side (when the photo shows tiles there, the reader has moved the frame over them already), so
    it says what to check.
    """
    n = board.size
    sentences = {  # one whole sentence per side, for the translators
        (1, 0): msg(
            "Row 1 of the grid reads as table nearly all along: if the kingdom has tiles past "
            "row {n}, the grid is a row off; give the kingdom's four corners.",
            n=n,
        ),
        (-1, 0): msg(
            "Row {n} of the grid reads as table nearly all along: if the kingdom has tiles past "
            "row 1, the grid is a row off; give the kingdom's four corners.",
            n=n,
        ),
        (0, 1): msg(
            "Column 1 of the grid reads as table nearly all along: if the kingdom has tiles past "
            "column {n}, the grid is a column off; give the kingdom's four corners.",
            n=n,
        ),
        (0, -1): msg(
            "Column {n} of the grid reads as table nearly all along: if the kingdom has tiles "
            "past column 1, the grid is a column off; give the kingdom's four corners.",
            n=n,
        ),
    }
    return tuple(sentences[move] for move in open_sides(board))
