"""Table model: which pixels are table and which are something on it (tiles, boxes, hands).

The table is what touches the image border: we model its colours from a band along the border (a
few clusters, each with its covariance, so wood grain and carpet noise are "table" too) and call
every pixel far from all of them "not table". Colours are compared as log-brightness and
chromaticity, with extra tolerance on brightness, because shadows and light gradients scale a
table's colour rather than change it. An opening removes thin things (the printed lines and
numbers of a cutting mat). A second pass re-learns the table from everything outside the first
pass's blobs (a kingdom touching the border leaks tile colours into the first model).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.find.location import NoBoardFound

# --- 2. segment tiles from the table ----------------------------------------------------------

BORDER_BAND = 0.04  # fraction of the short side sampled as "table"
TABLE_CLUSTERS = 4
MIN_CLUSTER_SHARE = 0.08  # a border colour this common is table, not a tile poking in
TABLE_DISTANCE = 4.0  # Mahalanobis distance beyond which a pixel is not table
MIN_KINGDOM_SHARE = 0.01  # of the image area
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


def kingdom_mask(small: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    """Binary mask (uint8 0/255) of the kingdom's tiles at working resolution, and warnings.

    Two passes: the first models the table from a band along the image border; a kingdom that
    touches the border leaks tile colours into that model, so the second pass re-models the
    table from everything outside the first pass's kingdom (grown by a margin).
    """
    h, w = small.shape[:2]
    # The mask only needs to be right to a fraction of a cell: half the working size is plenty.
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    blurred = cv2.GaussianBlur(half, (0, 0), 1.0)
    lab = _shading_free_colour(blurred)
    hh, hw = lab.shape[:2]
    band = max(3, int(BORDER_BAND * min(hh, hw)))
    # A kingdom is square and photos are not: the two short sides of the photo are the ones
    # least likely to touch the kingdom, so the first table model only uses those (all four
    # sides when the photo is about square).
    border = np.zeros((hh, hw), bool)
    if hh >= 1.15 * hw or 1.15 * hh > hw:
        border[:band] = border[-band:] = True
    if hw >= 1.15 * hh or 1.15 * hw > hh:
        border[:, :band] = border[:, -band:] = True
    mask, warnings = _largest_blob(lab, border)

    # Well clear of the first blob: part of the kingdom it missed (in a shadow, say) must not
    # be learnt as table.
    reach = 2 * max(2, int(SECOND_PASS_MARGIN * max(hh, hw))) + 1
    grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    outside = grown == 0
    if outside.sum() > 0.05 * hh * hw:
        mask, warnings = _largest_blob(lab, outside)
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.where(mask > 127, 255, 0).astype(np.uint8), warnings


def _largest_blob(lab: np.ndarray, table_area: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    """The largest blob of pixels unlike those in ``table_area`` (bool mask), holes filled."""
    h, w = lab.shape[:2]
    table_pixels = lab[table_area]
    rng = np.random.default_rng(0)
    samples = table_pixels[rng.choice(len(table_pixels), min(len(table_pixels), 6000), False)]
    distance = _table_distance(lab, np.ascontiguousarray(samples))
    tiles = (distance > TABLE_DISTANCE).astype(np.uint8) * 255

    # Thin things (printed grid lines, digits, wood-grain streaks) go; gaps between dominoes close.
    unit = max(3, int(round(0.012 * max(h, w))))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (unit, unit))
    tiles = cv2.morphologyEx(tiles, cv2.MORPH_OPEN, kernel)
    tiles = cv2.morphologyEx(tiles, cv2.MORPH_CLOSE, kernel, iterations=2)

    count, labels, stats, _ = cv2.connectedComponentsWithStats(tiles, connectivity=8)
    if count <= 1:
        raise NoBoardFound(
            "no kingdom found: nothing stands out from the table; take the photo from above with"
            " the whole kingdom in the frame, or tap its four corners"
        )
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = np.argsort(areas)[::-1]
    largest = order[0] + 1
    if areas[order[0]] < MIN_KINGDOM_SHARE * h * w:
        raise NoBoardFound(
            "no kingdom found: the largest thing that is not table covers only"
            f" {100 * areas[order[0]] / (h * w):.1f} % of the photo; move closer so the kingdom"
            " fills most of the frame"
        )
    warnings: tuple[str, ...] = ()
    second_is_kingdom = len(order) > 1 and _looks_like_kingdom(stats[order[1] + 1])
    if second_is_kingdom and areas[order[1]] > 0.4 * areas[order[0]]:
        warnings = ("two kingdoms in the photo: reading the larger one; photograph one at a time",)
    mask = np.where(labels == largest, 255, 0).astype(np.uint8)
    # Holes inside the kingdom (missing tiles) belong to it for the outline.
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, contours, -1, 255, thickness=cv2.FILLED)
    return mask, warnings


def _looks_like_kingdom(stats_row: np.ndarray) -> bool:
    """A blob whose bounding box it fills well and which is not a thin strip (a box edge)."""
    w, h, area = stats_row[cv2.CC_STAT_WIDTH], stats_row[cv2.CC_STAT_HEIGHT], stats_row[4]
    return min(w, h) > 0.4 * max(w, h) and area > 0.4 * w * h


def _table_distance(lab: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """Per-pixel Mahalanobis distance to the nearest common table colour cluster."""
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(samples, TABLE_CLUSTERS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    best = np.full(lab.shape[:2], np.inf, np.float32)
    for k in range(TABLE_CLUSTERS):
        members = samples[labels == k]
        if len(members) < MIN_CLUSTER_SHARE * len(samples):
            continue
        mean = members.mean(axis=0)
        # Regularised so a perfectly flat background does not make every speck "not table".
        extra = np.diag([EXTRA_BRIGHTNESS_SD**2, EXTRA_CHROMA_SD**2, EXTRA_CHROMA_SD**2])
        cov = np.cov(members.T) + extra
        # Whitening (x - mean) with the inverse Cholesky factor makes the Mahalanobis distance a
        # plain Euclidean one; cv2.transform applies the affine map to every pixel at once.
        whiten = np.linalg.inv(np.linalg.cholesky(cov))
        affine = np.hstack([whiten, -(whiten @ mean)[:, None]]).astype(np.float32)
        white = cv2.transform(lab, affine)
        d2 = cv2.multiply(white, white).sum(axis=2)
        np.minimum(best, d2, out=best)
    return np.sqrt(best)
