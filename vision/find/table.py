"""Table model: which pixels are table and which are something on it (tiles, boxes, hands).

The table is what touches the image border: we model its colours from a band along the border (a
few clusters, each with its covariance, so wood grain and carpet noise are "table" too) and call
every pixel far from all of them "not table". Colours are compared as log-brightness and
chromaticity, with extra tolerance on brightness, because shadows and light gradients scale a
table's colour rather than change it. An opening removes thin things (the printed lines and
numbers of a cutting mat). A second pass re-learns the table from everything outside the first
pass's blobs (a kingdom touching the border leaks tile colours into the first model).

A pixel is table when its colour is close to the table's colours. ``by_texture`` asks a small
network instead (``pixel_features`` → 32 → 1, run in numpy, trained by ``lab.table_pixels`` on
synthetic game-night tables), which reads what colour alone cannot tell: the texture around the
pixel and the colours of its surroundings. Lake tiles on a blue cloth are as close to the cloth's
colour as its own shading is, but they are painted and it is not. Its wider view also sees tiles
in a checked cloth beside a kingdom, so the finder asks it only where colour found no kingdom
(``vision.find.search``).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from vision.model import MODELS_DIR
from vision.stats import median

BORDER_BAND = 0.04  # fraction of the short side sampled as "table"
TABLE_CLUSTERS = 6
# Chromaticity spread (0-255 scale) of one table colour: measured 2-5 on plain, wood, carpet and
# mats; clusters mixing clutter and tiles 11-30.
MAX_TABLE_CHROMA_SD = 8.0
# When no tight colour shows on three sides, a colour covering this share of the border band on
# three or four sides is the table even when its chromaticity spreads up to WIDE_TABLE_CHROMA_SD:
# on a dark, saturated cloth (deep blue) the sensor's noise moves the chromaticity of every pixel
# far more than on light wood (measured 9-12 on the synthetic blue cloth, whose clusters were then
# all refused and its white dots taken for the table; a mottled teal cloth 8-10, whose fourth side
# kingdoms cut by the frame covered).
WIDE_TABLE_SHARE = 0.15
WIDE_TABLE_CHROMA_SD = 16.0
MIN_SIDE_SHARE = 0.05  # a table colour covers at least this much of a side's band
MIN_CLUSTER_SHARE = 0.08  # a border colour this common is table, not a tile poking in
# The network deciding table or not per pixel (vision/models), and what it reads, in order.
PIXEL_MODEL_FILE = "table_pixels.npz"
PIXEL_FEATURES = (
    "log brightness",
    "blue share",
    "red share",
    "distance to the table's colours",
    "texture, 3 px",
    "texture, 7 px",
    "texture, 15 px",
    "edges, 5 px",
    "edges, 11 px",
    "log brightness around, 9 px",
    "blue share around, 9 px",
    "red share around, 9 px",
)
DISTANCE_FEATURE = 3  # the only one that changes between the two passes
TABLE_DISTANCE = 4.0  # by colour alone: Mahalanobis distance beyond which a pixel is not table
MIN_KINGDOM_SHARE = 0.01  # of the image area
# A table pattern: at least this many specks reaching into the area learnt as table, each under
# PATTERN_MAX_SPECK of the image (a cell of a kingdom filling a quarter of the photo is ~1 %);
# specks up to PATTERN_SPECK_FACTOR times their median size are the pattern's.
PATTERN_MIN_SPECKS = 12
PATTERN_MAX_SPECK = 0.002
PATTERN_SPECK_FACTOR = 2.5
SECOND_PASS_MARGIN = 0.1  # of the long side: how far from the first blob the table is re-learnt
# Light and shadow multiply a table's colour: they change its brightness across the photo far
# more than its chromaticity (the share of red, green and blue), and the border band does not see
# all of it. So colours are compared as (log brightness, two chromaticities), and every table
# colour gets this much extra spread: log brightness ±0.25 (a shadow of 0.55× is 2.4 spreads),
# chromaticity (scaled to 0-255) ±2.
EXTRA_BRIGHTNESS_SD = 0.25 * 100
EXTRA_CHROMA_SD = 2.0


def _shading_free_colour(bgr: np.ndarray) -> np.ndarray:
    """Per pixel (100·log brightness, 255·blue share, 255·red share), float32."""
    pixels = bgr.astype(np.float32) + 4.0  # keeps near-black pixels from exploding
    total = pixels.sum(axis=2)
    features = np.empty(bgr.shape, np.float32)
    features[..., 0] = 100 * np.log(total)
    features[..., 1] = 255 * pixels[..., 0] / total
    features[..., 2] = 255 * pixels[..., 2] / total
    return features


@dataclass(frozen=True)
class TableModel:
    """What stands out from the table, at half the working resolution (uint8 0/255 masks).

    ``not_table``: every pixel unlike the table, thin things removed; ``joined``: the same with
    the gaps between dominoes closed (a kingdom is one blob; kingdoms a few centimetres apart may
    join too, which ``vision.find.regions`` undoes with ``not_table``).
    """

    not_table: np.ndarray
    joined: np.ndarray


def table_model(small: np.ndarray, by_texture: bool = False) -> TableModel:
    """Model the table from the photo's border and mark everything that is not table, by
    colour alone or, ``by_texture``, by the pixel network (``TableModels`` makes both).
    """
    models = TableModels(small)
    return models.by_texture if by_texture else models.by_colour


class TableModels:
    """The two table models of one photo, each made when first asked.

    Two passes each: the first models the table from a band along the image border; a kingdom
    that touches the border leaks tile colours into that model, so the second pass re-models
    the table from everything outside the first pass's blobs (grown by a margin). The first
    pass's distance to the border's colours is the same for both models (only how it is judged
    differs), so it is measured once.
    """

    def __init__(self, small: np.ndarray) -> None:
        h, w = small.shape[:2]
        self._shape = (h, w)
        # The masks only need to be right to a fraction of a cell: half the working size is
        # plenty.
        self._half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        self._lab = _shading_free_colour(cv2.GaussianBlur(self._half, (0, 0), 1.0))
        self._texture: Future | None = None  # by_texture being made in a thread

    @cached_property
    def by_colour(self) -> TableModel:
        return self._model(None)

    @cached_property
    def by_texture(self) -> TableModel:
        if self._texture is not None:
            return self._texture.result()
        return self._texture_model()

    def begin_by_texture(self, helper: Executor | None) -> None:
        """Begin making ``by_texture`` in the ``helper`` thread, for a caller that will surely
        ask for it but has other work first (the finder, once a blob held no kingdom by
        colour). Nothing when it is made or begun already, or there is no helper.

        The model is the same array for array: a pure function of the photo, its large array
        operations, k-means included, run without Python's lock (k-means seeds the calling
        thread's own OpenCV random numbers).
        """
        if helper is None or "by_texture" in self.__dict__ or self._texture is not None:
            return
        self.by_colour  # noqa: B018 (the first pass both share, made here and not in two threads)
        with contextlib.suppress(RuntimeError):  # the helper is gone: made when asked
            self._texture = helper.submit(self._texture_model)

    def _texture_model(self) -> TableModel:
        return self._model(_PixelJudge(self._lab, _shading_free_colour(self._half)[..., 0]))

    def stands_out(self) -> np.ndarray:
        """What either model takes for not table (uint8 0/255, ``small``'s shape)."""
        h, w = self._shape
        either = self.by_colour.not_table | self.by_texture.not_table
        return cv2.resize(either, (w, h), interpolation=cv2.INTER_NEAREST)

    @cached_property
    def _border(self) -> tuple[np.ndarray, np.ndarray]:
        """(bool mask of the border band, Mahalanobis distance to its table colours)."""
        hh, hw = self._lab.shape[:2]
        band = max(3, int(BORDER_BAND * min(hh, hw)))
        # Each side of the photo separately: the table surrounds everything, so its colours show
        # on at least three sides; a kingdom, a box or a sleeve cut by the frame touches one or
        # two.
        sides = np.full((hh, hw), -1, np.int8)
        sides[:, :band], sides[:, -band:] = 2, 3
        sides[:band], sides[-band:] = 0, 1
        return sides >= 0, _distance_to(self._lab, sides >= 0, sides, keep_wide=False)

    def _model(self, judge: _PixelJudge | None) -> TableModel:
        lab = self._lab
        hh, hw = lab.shape[:2]
        border, distance = self._border
        model = _mark(distance, judge, border)
        # Well clear of the first blobs: parts of a kingdom it missed (in a shadow, say) must
        # not be learnt as table.
        blobs = _big_blobs(model.joined)
        if blobs is not None:
            reach = 2 * max(2, int(SECOND_PASS_MARGIN * max(hh, hw))) + 1
            grown = cv2.dilate(blobs, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
            outside = grown == 0
            if outside.sum() > 0.05 * hh * hw:
                distance = _distance_to(lab, outside, keep_wide=judge is not None)
                model = _mark(distance, judge, outside)
        return model


def _distance_to(
    lab: np.ndarray,
    table_area: np.ndarray,
    sides: np.ndarray | None = None,
    keep_wide: bool = False,
) -> np.ndarray:
    """Each pixel's distance to the colours of ``table_area`` (bool mask), as
    ``_table_distance`` measures it from an even spread of that area's pixels.

    ``sides`` (int per pixel, 0-3 for the photo's four sides) asks table colours to show on at
    least three of them."""
    where = np.flatnonzero(table_area)
    # An even spread of 8000 table pixels (no random numbers: importing numpy.random costs more
    # than this whole stage).
    where = where[np.linspace(0, len(where) - 1, min(len(where), 8000)).astype(int)]
    samples = lab.reshape(-1, 3)[where]
    side_of = sides.reshape(-1)[where] if sides is not None else None
    return _table_distance(lab, np.ascontiguousarray(samples), side_of, keep_wide)


def _mark(distance: np.ndarray, judge: _PixelJudge | None, table_area: np.ndarray) -> TableModel:
    """Pixels unlike the table (``distance`` to its colours, or the network given it): thin
    things removed, then joined."""
    h, w = distance.shape[:2]
    unlike = distance > TABLE_DISTANCE if judge is None else judge.unlike_table(distance)
    tiles = unlike.astype(np.uint8) * 255
    # Thin things (printed grid lines, digits, wood-grain streaks) go; gaps between dominoes close.
    unit = max(3, int(round(0.012 * max(h, w))))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (unit, unit))
    tiles = cv2.morphologyEx(tiles, cv2.MORPH_OPEN, kernel)
    tiles = _without_pattern_specks(tiles, table_area)
    joined = cv2.morphologyEx(tiles, cv2.MORPH_CLOSE, kernel, iterations=2)
    return TableModel(tiles, joined)


def _without_pattern_specks(tiles: np.ndarray, table_area: np.ndarray) -> np.ndarray:
    """``tiles`` without the specks of the table's own pattern (a cloth's dots or flowers).

    A printed pattern mixes its colours at every speck's rim, so k-means learns no tight colour
    for it and each speck stands out. Where the area learnt as table holds many such specks of
    one size, every speck in the photo up to a few times that size is table: joining them would
    bridge neighbouring kingdoms. Specks fused to a kingdom are one part with it and stay.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(tiles, connectivity=8)
    if count <= PATTERN_MIN_SPECKS:
        return tiles
    areas = stats[1:, cv2.CC_STAT_AREA]
    inside = np.bincount(labels[table_area], minlength=count)[1:]
    specks = areas[(inside > 0) & (areas < PATTERN_MAX_SPECK * tiles.size)]
    if len(specks) < PATTERN_MIN_SPECKS:
        return tiles
    limit = PATTERN_SPECK_FACTOR * float(median(specks))
    keep = np.concatenate([[False], areas > limit])
    return np.where(keep[labels], 255, 0).astype(np.uint8)


def pixel_features(lab: np.ndarray, luminance: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """(H, W, 12) float32 per pixel, in PIXEL_FEATURES order, each about 0-1: ``lab`` the
    shading-free colour of the lightly blurred image, ``luminance`` the unblurred image's log
    brightness (its texture), ``distance`` the Mahalanobis distance to the table's colours."""
    features = [lab[..., 0] / 100, lab[..., 1] / 255, lab[..., 2] / 255, _scaled(distance)]
    for size in (3, 7, 15):
        mean = cv2.blur(luminance, (size, size))
        spread = np.sqrt(np.maximum(cv2.blur(luminance * luminance, (size, size)) - mean**2, 0))
        features.append(spread / 20)
    gx = cv2.Sobel(luminance, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(luminance, cv2.CV_32F, 0, 1)
    magnitude = np.sqrt(gx * gx + gy * gy)
    for size in (5, 11):
        features.append(cv2.blur(magnitude, (size, size)) / 50)
    for channel, unit in ((0, 100), (1, 255), (2, 255)):
        features.append(cv2.blur(lab[..., channel], (9, 9)) / unit)
    return np.stack(features, axis=-1).astype(np.float32)


def _scaled(distance: np.ndarray) -> np.ndarray:
    return np.minimum(distance, 30) / 10


@dataclass(frozen=True)
class _PixelNetwork:
    """Standardisation and the two layers of the table/not-table network (``lab.table_pixels``)."""

    mean: np.ndarray  # (12,)
    scale: np.ndarray  # (12,)
    hidden_weights: np.ndarray  # (12, H)
    hidden_bias: np.ndarray  # (H,)
    out_weights: np.ndarray  # (H, 1)
    out_bias: np.ndarray  # (1,)

    def __post_init__(self) -> None:
        n = len(PIXEL_FEATURES)
        if self.mean.shape != (n,) or self.hidden_weights.shape[0] != n:
            raise ValueError(f"{PIXEL_MODEL_FILE} must read {n} features")


@lru_cache(maxsize=1)
def _pixel_network() -> _PixelNetwork:
    """The packaged network, loaded once per process (plain arrays: no pickle)."""
    with np.load(MODELS_DIR / PIXEL_MODEL_FILE, allow_pickle=False) as arrays:
        return _PixelNetwork(
            arrays["mean"], arrays["scale"], arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"]
        )


class _PixelJudge:
    """Table or not, per pixel of one photo. Everything but the distance to the table's colours
    is the same in both passes, so its share of the hidden layer is computed once."""

    def __init__(self, lab: np.ndarray, luminance: np.ndarray) -> None:
        net = _pixel_network()
        self._net, self._shape = net, lab.shape[:2]
        features = pixel_features(lab, luminance, np.zeros(self._shape, np.float32))
        standard = features.reshape(-1, len(PIXEL_FEATURES)) - net.mean
        standard /= net.scale  # in place, as in ``unlike_table``
        others = np.arange(len(PIXEL_FEATURES)) != DISTANCE_FEATURE
        self._hidden = standard[:, others] @ net.hidden_weights[others]
        self._hidden += net.hidden_bias

    def unlike_table(self, distance: np.ndarray) -> np.ndarray:
        """(H, W) bool: pixels the network takes for something on the table."""
        net, k = self._net, DISTANCE_FEATURE
        standard = (_scaled(distance).reshape(-1, 1) - net.mean[k]) / net.scale[k]
        # In place: each temporary is as big as the hidden layer (pixels × 32 floats), and
        # fresh memory costs its page faults. (a + b is b + a, bit for bit.)
        hidden = standard * net.hidden_weights[k]
        hidden += self._hidden
        np.maximum(hidden, 0, out=hidden)
        return (hidden @ net.out_weights + net.out_bias).reshape(self._shape) > 0


def _big_blobs(mask: np.ndarray) -> np.ndarray | None:
    """The blobs of ``mask`` covering at least MIN_KINGDOM_SHARE of it, or None."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = np.nonzero(stats[1:, cv2.CC_STAT_AREA] >= MIN_KINGDOM_SHARE * mask.size)[0] + 1
    if len(big) == 0:
        return None
    return np.isin(labels, big).astype(np.uint8) * 255


def _table_distance(
    lab: np.ndarray,
    samples: np.ndarray,
    side_of: np.ndarray | None = None,
    keep_wide: bool = False,
) -> np.ndarray:
    """Per-pixel Mahalanobis distance to the nearest common table colour cluster.

    ``keep_wide``: in the second pass (no ``side_of``), a common wide colour is table too."""
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(samples, TABLE_CLUSTERS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    shares = np.bincount(labels, minlength=TABLE_CLUSTERS) / len(labels)
    # A table colour is one colour (wood grain and shadows vary its brightness, not its hue); a
    # cluster mixing the hues of a box lid, a sleeve and tiles at the border is no table.
    spread = [
        samples[labels == k][:, 1:].std(axis=0).max() if shares[k] > 0 else np.inf
        for k in range(TABLE_CLUSTERS)
    ]
    tight = [k for k in range(TABLE_CLUSTERS) if spread[k] <= MAX_TABLE_CHROMA_SD]
    common = [k for k in tight if shares[k] >= MIN_CLUSTER_SHARE]
    if side_of is not None:
        sides = [_sides_showing(labels == k, side_of) for k in range(TABLE_CLUSTERS)]
        wide = [
            k
            for k in range(TABLE_CLUSTERS)
            if sides[k] >= 3 and shares[k] >= WIDE_TABLE_SHARE and spread[k] <= WIDE_TABLE_CHROMA_SD
        ]
        around = [k for k in tight if sides[k] >= 3]
        # A wide colour takes in tile colours, so it joins only when the tight ones surrounding
        # the photo cover less of the border than it does: a deep blue cloth's white dots are
        # tight and on every side, but the cloth is the blue.
        if sum(shares[k] for k in around) < max((shares[k] for k in wide), default=0):
            around = sorted(set(around) | set(wide))
        common = [k for k in around if shares[k] >= MIN_CLUSTER_SHARE / 2] or common
    elif keep_wide:
        # The second pass learns from table well clear of every blob, so a common wide colour
        # needs no sides to show it is table; else, with the network's larger first blobs, a
        # deep blue cloth is again left to its dots (development scene 9029: 72 % of it stood
        # out).
        wide = [
            k
            for k in range(TABLE_CLUSTERS)
            if shares[k] >= WIDE_TABLE_SHARE and spread[k] <= WIDE_TABLE_CHROMA_SD
        ]
        # (The cloth's colour may split into several wide clusters here: their sum counts.)
        if sum(shares[k] for k in common) < sum(shares[k] for k in wide):
            common = sorted(set(common) | set(wide))
    if not common:
        common = [int(np.argmax(shares))]
    best = np.full(lab.shape[:2], np.inf, np.float32)
    for k in common:
        members = samples[labels == k]
        mean = members.mean(axis=0)
        # Regularised so a perfectly flat background does not make every speck "not table".
        extra = np.diag([EXTRA_BRIGHTNESS_SD**2, EXTRA_CHROMA_SD**2, EXTRA_CHROMA_SD**2])
        cov = np.cov(members.T) + extra
        # Whitening (x - mean) with the inverse Cholesky factor makes the Mahalanobis distance a
        # plain Euclidean one; cv2.transform applies the affine map to every pixel at once.
        whiten = np.linalg.inv(np.linalg.cholesky(cov))
        affine = np.hstack([whiten, -(whiten @ mean)[:, None]]).astype(np.float32)
        white = cv2.transform(lab, affine)
        d2 = cv2.transform(cv2.multiply(white, white), _SUM).reshape(lab.shape[:2])
        np.minimum(best, d2, out=best)
    return np.sqrt(best)


_SUM = np.ones((1, 3), np.float32)  # cv2.transform sums channels far faster than numpy


def _sides_showing(members: np.ndarray, side_of: np.ndarray) -> int:
    """On how many of the photo's four sides a colour cluster covers MIN_SIDE_SHARE of the band."""
    count = 0
    for side in range(4):
        on_side = side_of == side
        if on_side.any() and members[on_side].mean() >= MIN_SIDE_SHARE:
            count += 1
    return count
