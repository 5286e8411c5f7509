"""Stage 1: find the N×N kingdom in a photo and the homography that straightens it.

Stages, one line each (``find_board`` runs them in this order):
    straightened already? → table model from the border → tile blobs → candidate quadrilaterals
    → lattice score per candidate, best kept → homography refit on tile edges → N×N frame.

How it works, in the order the code runs:

1. **Straightened already?** If the image is about square and its gradients show a 5×5 or 7×7
   lattice with lines at exact fractions of the width and height, it *is* the board (the
   ``aau-boards`` case): corners = image corners, no flag needed.
2. **Segment tiles from the table.** The table is what touches the image border: we model its
   colours from a band along the border (a few clusters, each with its covariance, so wood grain
   and carpet noise are "table" too) and call every pixel far from all of them "tile". Colours
   are compared as log-brightness and chromaticity, with extra tolerance on brightness, because
   shadows and light gradients scale a table's colour rather than change it. An opening removes
   thin things (the printed lines and numbers of a cutting mat), a closing bridges the gaps
   between dominoes, and the largest blob is the kingdom. A second pass re-learns the table from
   everything outside that blob (a kingdom touching the border leaks tile colours into the first
   model). A second blob of similar size means a second kingdom: we keep the larger and warn.
3. **Candidate quadrilaterals.** The blob's convex hull simplified to four corners (right for
   complete kingdoms under any perspective), its minimum-area rectangle (right for ragged
   outlines, whose hull cuts corners), each side re-fitted to the outline points along it, and
   the straightest run of outline along each side (RANSAC; right for ragged kingdoms at a slant).
4. **Snap to the tile lattice.** We straighten each candidate and count the cells along each side
   from the tile edges: the gradient profile must peak at the cell boundaries and not at the cell
   centres. The candidate with the clearest lattice wins; none clear enough means no kingdom.
   Then we fit a homography to the observed tile edges themselves: every visible edge between
   two cells is a line of the lattice, which gives linear equations for the homography. This
   fixes perspective and corners even when the outline is ragged or a corner tile is missing.
5. **The frame.** Tiles spanning fewer than N cells in a direction leave the N×N frame's placement
   ambiguous; we centre the frame on the tiles (an odd leftover cell goes to the bottom/right in
   the photo's orientation) and record where the tiles are (``tile_span``). Once the castle is
   read, ``centre_on_castle`` moves the frame to put it in the middle if the tiles allow
   (``vision.pipeline.read_image`` does this); only the Middle Kingdom bonus depends on it.

Board orientation: row 0 is the side nearest the top of the photo, so cell labels are "as seen".
The homography maps photo pixels to board units (one unit = one cell, origin at the frame's
top-left corner).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.find.decision import tiles_seen
from vision.load_image import ImageError

SIZES = (5, 7)
# Working resolution for the search: enough for 0.05-cell accuracy on a kingdom that fills a
# third of the frame, small enough for a few tens of milliseconds per stage.
WORK_LONG_SIDE = 800
# Pixels per cell of the internal straightened views used to find and fit the lattice.
LATTICE_PX = 40


class NoBoardFound(ImageError):
    """No kingdom in the photo; the message says what was seen and what to try.

    An ``ImageError`` (so a ``ValueError``): for a caller, a photo without a kingdom is an image
    it cannot read, and one ``except ImageError`` handles both.
    """


@dataclass(frozen=True)
class BoardLocation:
    """Where the N×N frame of the kingdom is in the photo.

    ``corners`` is (4, 2) float, photo pixels (x, y), in the order top-left, top-right,
    bottom-right, bottom-left of the board as seen in the photo. ``homography`` (3, 3) maps photo
    pixels to board units (cells). ``straightened`` is True when the image was already the board.
    ``image_shape`` is (height, width) of the image the corners refer to. ``tile_span``: see
    ``centre_on_castle``.
    """

    corners: np.ndarray
    size: int
    homography: np.ndarray
    warnings: tuple[str, ...] = ()
    straightened: bool = False
    image_shape: tuple[int, int] = field(default=(0, 0))
    # Rows [r0, r1) and columns [c0, c1) of the frame that hold tiles, when the finder saw them;
    # None when the frame came from the caller's corners or is the whole (straightened) image.
    tile_span: tuple[int, int, int, int] | None = None

    def __post_init__(self) -> None:
        corners = np.array(self.corners, dtype=np.float64).reshape(4, 2)
        homography = np.array(self.homography, dtype=np.float64)
        if homography.shape != (3, 3):
            raise ValueError(f"homography must be 3×3, got {homography.shape}")
        if self.size not in SIZES:
            raise ValueError(f"size must be 5 or 7, got {self.size}")
        corners.flags.writeable = False
        homography.flags.writeable = False
        object.__setattr__(self, "corners", corners)
        object.__setattr__(self, "homography", homography)
        object.__setattr__(self, "warnings", tuple(self.warnings))


def location_from_corners(
    corners: np.ndarray, size: int, warnings: tuple[str, ...] = (), **extra
) -> BoardLocation:
    """The location for a frame with these photo corners (TL, TR, BR, BL) and size."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    board = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float64)
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), board.astype(np.float32))
    return BoardLocation(corners, size, homography, warnings, **extra)


def shift_frame(location: BoardLocation, down: int, right: int) -> BoardLocation:
    """The same lattice with the N×N frame moved ``down`` rows and ``right`` columns."""
    n = location.size
    board = np.array(
        [[right, down], [right + n, down], [right + n, down + n], [right, down + n]], float
    )
    to_photo = np.linalg.inv(location.homography)
    corners = cv2.perspectiveTransform(board.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    span = location.tile_span
    if span is not None:
        span = (span[0] - down, span[1] - down, span[2] - right, span[3] - right)
    return location_from_corners(
        corners,
        n,
        location.warnings,
        straightened=location.straightened,
        image_shape=location.image_shape,
        tile_span=span,
    )


def centre_on_castle(location: BoardLocation, castle: tuple[int, int]) -> BoardLocation:
    """The frame moved so the castle (row, col) is in its centre, if the tiles still fit in it.

    When the tiles span fewer than N cells in a direction, where the N×N frame goes is a choice;
    the finder centres it on the tiles. Once the castle is read, this puts it in the middle where
    the tiles allow (any frame holding every tile is a valid kingdom, and the Middle Kingdom bonus
    asks for one with the castle in the centre). Unchanged when unknown or impossible.
    """
    span = location.tile_span
    if span is None:
        return location
    centre = location.size // 2
    down, right = castle[0] - centre, castle[1] - centre  # move the frame by this much
    row0, row1, col0, col1 = span
    fits = row0 - down >= 0 and row1 - down <= location.size
    fits = fits and col0 - right >= 0 and col1 - right <= location.size
    if (down, right) == (0, 0) or not fits:
        return location
    return shift_frame(location, down, right)


def find_board(
    image: np.ndarray, size: int | None = None, corners: np.ndarray | None = None
) -> BoardLocation:
    """Locate the kingdom in a BGR photo. ``size`` forces 5 or 7; ``corners`` skips the search.

    Raises ``NoBoardFound`` when there is no kingdom to be seen.
    """
    _check_image(image)
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size}")
    shape = image.shape[:2]
    if corners is not None:
        corners = np.asarray(corners, dtype=np.float64)
        if corners.shape not in ((4, 2), (8,)) or not np.isfinite(corners).all():
            raise NoBoardFound(
                "no kingdom found: the corners given are not four points (x, y) in the photo;"
                " tap the kingdom's four corners again"
            )
        corners = _order_corners(corners.reshape(4, 2))
        if size is None and _is_quad(corners):
            size = _size_inside(image, corners)
        if not _is_quad(corners) or not tiles_seen(image, corners, size):
            raise NoBoardFound(
                "no kingdom found: the corners given enclose no grid of tiles; tap the four outer"
                " corners of the kingdom"
            )
        return location_from_corners(corners, size, image_shape=shape)

    scale = min(1.0, WORK_LONG_SIDE / max(shape))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gradients = _gradient_images(small)

    straight_size = _straightened_size(gradients)
    h, w = shape
    full = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    if straight_size is not None and tiles_seen(small, full * scale, size or straight_size):
        return location_from_corners(
            full, size or straight_size, straightened=True, image_shape=shape
        )

    mask, warnings, not_found = None, (), None
    try:
        mask, warnings = _kingdom_mask(small)
    except NoBoardFound as err:
        not_found = err
    about_square = 0.8 <= w / h <= 1.25
    if about_square and (mask is None or mask.mean() > 0.8 * 255):
        # No table to be seen around it: a tightly cropped, already straightened board, if the
        # whole image shows a lattice of tiles (a blank or noisy image does not).
        found = size or _size_inside(small, full * scale)
        if tiles_seen(small, full * scale, found):
            return location_from_corners(full, found, straightened=True, image_shape=shape)
        raise NoBoardFound(
            "no kingdom found: the image shows no grid of tiles; take a photo of the whole"
            " kingdom from above"
        )
    if not_found is not None:
        raise not_found
    frame, size, tile_span, lattice_warnings = _fit_lattice(small, mask, _initial_quads(mask), size)
    if not tiles_seen(small, frame, size):
        raise NoBoardFound(
            "no kingdom found: something stands out from the table, but it does not look like"
            " different tiles on a grid; take the photo from above, or tap the kingdom's corners"
        )
    return location_from_corners(
        frame / scale, size, warnings + lattice_warnings, image_shape=shape, tile_span=tile_span
    )


# --- shared helpers ---------------------------------------------------------------------------


def _check_image(image: np.ndarray) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise TypeError("image must be a uint8 numpy array (BGR)")
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be H×W×3 BGR, got shape {image.shape}")
    if min(image.shape[:2]) < 32:
        raise NoBoardFound(
            f"no kingdom found: the image is too small ({image.shape[1]}×{image.shape[0]}"
            " pixels); take a photo of the whole kingdom from above"
        )


def _is_quad(corners: np.ndarray) -> bool:
    """Four finite corners enclosing a convex area of at least 16×16 pixels."""
    if not np.isfinite(corners).all():
        return False
    quad = corners.astype(np.float32).reshape(4, 1, 2)
    return bool(cv2.contourArea(quad) >= 256 and cv2.isContourConvex(quad))


def _order_corners(corners: np.ndarray) -> np.ndarray:
    """Order four points TL, TR, BR, BL as seen in the photo (clockwise, TL nearest the top-left).

    Of the four clockwise starts, TL is the corner whose top edge (TL→TR) is the most horizontal
    and on top, i.e. the board's "up" is the photo's up as far as it can be.
    """
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    clockwise = corners[np.argsort(angles)]  # image y points down, so increasing angle = clockwise
    best, best_score = clockwise, -np.inf
    for shift in range(4):
        candidate = np.roll(clockwise, -shift, axis=0)
        top_mid = (candidate[0] + candidate[1]) / 2
        up = centre - top_mid
        score = up[1] / (np.linalg.norm(up) + 1e-9)  # 1 when the top edge is straight above
        if score > best_score:
            best, best_score = candidate, score
    return best


def _gradient_images(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Absolute x and y colour gradients (summed over Lab channels), float32."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = np.zeros(bgr.shape[:2], np.float32)
    gy = np.zeros(bgr.shape[:2], np.float32)
    for channel in cv2.split(lab):
        gx += np.abs(cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3))
        gy += np.abs(cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3))
    return gx, gy


def _lattice_contrast(profile: np.ndarray, cells: int) -> float:
    """Profile strength at the inner cell boundaries over its strength at the cell centres.

    Unlike ``_comb_score`` this punishes a lattice whose cell centres fall on real edges, such as
    3 cells where there are 6 (every centre of the coarse lattice is a real boundary).
    """
    length = len(profile)
    pitch = length / cells
    radius = max(1, int(round(0.03 * length)))
    peaks, centres = [], []
    for i in range(cells):
        for offset, bucket in ((0.0, peaks), (0.5, centres)):
            if offset == 0.0 and i == 0:
                continue
            centre = int(round((i + offset) * pitch))
            lo, hi = max(0, centre - radius), min(length, centre + radius + 1)
            if hi > lo:
                bucket.append(profile[lo:hi].max())
    if not peaks or not centres:
        return 0.0
    return float(np.mean(peaks)) / (float(np.mean(centres)) + 1e-6)


def _comb_score(profile: np.ndarray, cells: int) -> float:
    """How much stronger ``profile`` is at the cell boundaries ``i * len / cells`` than elsewhere.

    Each boundary takes the best value within ±3 % of the length (tiles are never perfectly
    placed); the score is the mean at boundaries over the median of the whole profile.
    """
    length = len(profile)
    pitch = length / cells
    radius = max(1, int(round(0.03 * length)))
    peaks = []
    for i in range(1, cells):  # the inner boundaries: the outer ones are the image's edges
        centre = int(round(i * pitch))
        lo, hi = max(0, centre - radius), min(length, centre + radius + 1)
        if hi > lo:
            peaks.append(profile[lo:hi].max())
    baseline = float(np.median(profile)) + 1e-6
    return float(np.mean(peaks)) / baseline if peaks else 0.0


def _edge_profiles(
    image: np.ndarray, quad: np.ndarray, width: int, height: int
) -> tuple[np.ndarray, np.ndarray]:
    """Vertical-edge strength per column and horizontal-edge strength per row of the view
    inside ``quad`` (TL, TR, BR, BL) straightened to ``width``×``height``, lightly smoothed:
    tile boundaries show as evenly spaced peaks."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    view = cv2.warpPerspective(image, warp, (width, height), flags=cv2.INTER_LINEAR)
    gx, gy = _gradient_images(view)
    col_profile = cv2.GaussianBlur(gx.mean(axis=0).reshape(1, -1), (0, 0), 1.0).ravel()
    row_profile = cv2.GaussianBlur(gy.mean(axis=1).reshape(1, -1), (0, 0), 1.0).ravel()
    return col_profile, row_profile


def _size_inside(image: np.ndarray, corners: np.ndarray) -> int:
    """5 or 7: which lattice the straightened view inside ``corners`` shows more strongly."""
    side = 7 * 5 * 8  # divisible by both sizes
    col_profile, row_profile = _edge_profiles(image, corners, side, side)
    scores = {n: _comb_score(col_profile, n) + _comb_score(row_profile, n) for n in SIZES}
    return max(scores, key=scores.get)


# --- 1. already straightened? -----------------------------------------------------------------

# Measured on the aau boards (mean of the row and column scores): the true size scores 2.5-6,
# the wrong one 1.2-2.5, so we also ask the winner to beat the other size clearly.
STRAIGHT_MIN_SCORE = 2.0
STRAIGHT_MIN_RATIO = 1.3


def _straightened_size(gradients: tuple[np.ndarray, np.ndarray]) -> int | None:
    """5 or 7 if the whole image is a straightened board, else None."""
    gx, gy = gradients
    h, w = gx.shape
    if not 0.85 <= w / h <= 1.18:
        return None
    # Column profile of x-gradients (vertical lines) and row profile of y-gradients.
    col_profile = cv2.GaussianBlur(gx.mean(axis=0).reshape(1, -1), (0, 0), 1.0).ravel()
    row_profile = cv2.GaussianBlur(gy.mean(axis=1).reshape(1, -1), (0, 0), 1.0).ravel()
    scores = {n: (_comb_score(col_profile, n) + _comb_score(row_profile, n)) / 2 for n in SIZES}
    best = max(scores, key=scores.get)
    other = scores[12 - best]
    if scores[best] < STRAIGHT_MIN_SCORE or scores[best] < STRAIGHT_MIN_RATIO * other:
        return None
    # A 7×7 lattice does not put peaks at fifths, nor a 5×5 at sevenths: no multiple to worry about.
    return best


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


def _kingdom_mask(small: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
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


# --- 3. a first quadrilateral -----------------------------------------------------------------


def _initial_quads(mask: np.ndarray) -> list[np.ndarray]:
    """Candidate corners (TL, TR, BR, BL) around the kingdom blob, sides fitted to its outline.

    Two candidates: the convex hull simplified to four corners (right for complete kingdoms,
    whatever the perspective) and the minimum-area rectangle (right for ragged outlines, whose
    hull cuts corners diagonally). The lattice decides between them.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    candidates = [cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)]
    for fraction in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            candidates.append(approx.reshape(4, 2).astype(np.float64))
            break
        if len(approx) < 4:
            break
    quads = []
    for quad in candidates:
        quad = _order_corners(quad)
        for tolerance in (0.03, 0.015, 0.008):
            quad = _refit_sides(quad, contour, tolerance=tolerance * perimeter)
        quads.append(_order_corners(quad))
    straightest = _straightest_sides(quads[0], contour)
    if straightest is not None:
        quads.append(straightest)
    return quads


def _straightest_sides(quad: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    """A third candidate for ragged kingdoms seen at a slant: along each side of ``quad``, the
    straight line that most outline points follow (RANSAC), which is a row of tile edges even
    when that row is short or set back; the lattice fit adds any row outside it later."""
    rng = np.random.default_rng(0)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = np.linalg.norm(b - a)
        direction = (b - a) / (length + 1e-9)
        normal = np.array([-direction[1], direction[0]])
        depth = (contour - a) @ normal  # >0 towards the inside for a clockwise quad
        near = contour[np.abs(depth) < 0.3 * length]
        if len(near) < 20:
            return None
        best_inliers, best_count = None, 0
        for _ in range(150):
            p, q = near[rng.choice(len(near), 2, replace=False)]
            chord = q - p
            if np.linalg.norm(chord) < 0.1 * length:
                continue
            chord /= np.linalg.norm(chord)
            if abs(chord @ direction) < np.cos(np.radians(25)):
                continue
            across = np.abs((near - p) @ np.array([-chord[1], chord[0]]))
            inliers = across < 1.5
            if inliers.sum() > best_count:
                best_inliers, best_count = inliers, int(inliers.sum())
        if best_inliers is None or best_count < 0.1 * length:
            return None
        vx, vy, x0, y0 = cv2.fitLine(near[best_inliers], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = [_intersect(*lines[i - 1], *lines[i], fallback=quad[i]) for i in range(4)]
    return _order_corners(np.array(corners))


def _refit_sides(quad: np.ndarray, contour: np.ndarray, tolerance: float) -> np.ndarray:
    """Re-fit each side of ``quad`` as a line through the outline points lying along it."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        direction = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        normal = np.array([-direction[1], direction[0]])
        rel = contour - a
        along = rel @ direction
        across = np.abs(rel @ normal)
        length = np.linalg.norm(b - a)
        near = (across < tolerance) & (along > 0.05 * length) & (along < 0.95 * length)
        points = contour[near]
        if len(points) >= 10:
            vx, vy, x0, y0 = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0]), np.array([vx, vy])))
        else:
            lines.append((a, direction))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        corners.append(_intersect(p1, d1, p2, d2, fallback=quad[i]))
    return np.array(corners)


def _intersect(p1, d1, p2, d2, fallback):
    matrix = np.array([d1, -d2]).T
    if abs(np.linalg.det(matrix)) < 1e-6:
        return fallback
    t = np.linalg.solve(matrix, p2 - p1)
    return p1 + t[0] * d1


# --- 4. snap to the tile lattice --------------------------------------------------------------

MAX_SPAN = 8  # cells along one side we consider (7 and one for tolerance)
# Sum of the row and column lattice contrasts of the best cell count: synthetic kingdoms score
# 2.5-12 (median 7.6), a smooth blurred blob about 2.2; below this it is not a tile lattice.
MIN_LATTICE_CLARITY = 2.0
# Share of the inner cell boundaries (one per row or column of cells) that show an edge right on
# the fitted lattice: synthetic kingdoms 0.72-1 (median 0.93), the real photos 0.83 and 0.94,
# colourful blobs that are not kingdoms 0-0.5.
MIN_EDGE_SUPPORT = 0.6
SEARCH_LONG_SIDE = 256  # size of the straightened view used to count cells


def _fit_lattice(
    small: np.ndarray, mask: np.ndarray, quads: list[np.ndarray], size: int | None
) -> tuple[np.ndarray, int, tuple[int, int, int, int], tuple[str, ...]]:
    """The N×N frame's corners in ``small`` pixels, N, the tiles' span in it, and warnings.

    Of the candidate quadrilaterals, the one whose straightened view shows the clearest lattice
    of tile edges wins, unless the fitted lattice's edges do not hold up (then the next).
    """
    counted = sorted(
        ((_count_cells(small, quad), quad) for quad in quads),
        key=lambda item: item[0][2],
        reverse=True,
    )
    if counted[0][0][2] < MIN_LATTICE_CLARITY:
        raise NoBoardFound(
            "no kingdom found: something stands out from the table but shows no grid of square"
            " tiles; take the photo from straight above in good light, or tap the kingdom's four"
            " corners"
        )
    margin = LATTICE_PX // 2
    # The clearest lattice first; if its tile edges do not hold up once fitted, the next.
    for (cells_x, cells_y, clarity), quad in counted:
        if clarity < MIN_LATTICE_CLARITY:
            continue
        # to_lattice maps small-image pixels to lattice pixels: cell (c, r) spans
        # [margin + c*P, margin + (c+1)*P] in x, same in y, P = LATTICE_PX.
        target = (
            np.array([[0, 0], [cells_x, 0], [cells_x, cells_y], [0, cells_y]], dtype=np.float64)
            * LATTICE_PX
            + margin
        )
        to_lattice = cv2.getPerspectiveTransform(quad.astype(np.float32), target.astype(np.float32))
        for window in (0.3, 0.2, 0.12):
            to_lattice = _refine_on_edges(small, to_lattice, cells_x, cells_y, window)
        if _edge_support(small, to_lattice, cells_x, cells_y) >= MIN_EDGE_SUPPORT:
            break
    else:
        raise NoBoardFound(
            "no kingdom found: something stands out from the table, but its edges do not form a"
            " grid of square tiles; take the photo from straight above, or tap the kingdom's"
            " four corners"
        )

    tiles = _tile_cells(mask, to_lattice, cells_x, cells_y)
    rows, cols = np.nonzero(tiles)
    if len(rows) == 0:
        raise NoBoardFound(
            "no kingdom found: no tiles line up on a grid; take the photo from above, or tap"
            " the kingdom's four corners"
        )
    pad = 2  # _tile_cells looks this many cells beyond the first estimate
    col0, col1 = cols.min() - pad, cols.max() - pad + 1
    row0, row1 = rows.min() - pad, rows.max() - pad + 1
    span = max(col1 - col0, row1 - row0)
    warnings: tuple[str, ...] = ()
    if size is None:
        size = 7 if span > 5 else 5
    if span > size:
        warnings = (
            f"the tiles span {col1 - col0}×{row1 - row0} cells, more than a {size}×{size}"
            " kingdom: check the grid, or give the size",
        )
    # Centre the frame on the tiles; an odd spare cell goes after (right / bottom).
    left = col0 - (size - (col1 - col0)) // 2
    top = row0 - (size - (row1 - row0)) // 2
    frame_cells = np.array(
        [[left, top], [left + size, top], [left + size, top + size], [left, top + size]],
        dtype=np.float64,
    )
    frame_lattice = frame_cells * LATTICE_PX + margin
    frame = cv2.perspectiveTransform(
        frame_lattice.reshape(-1, 1, 2), np.linalg.inv(to_lattice)
    ).reshape(4, 2)
    tile_span = tuple(
        int(np.clip(v, 0, size)) for v in (row0 - top, row1 - top, col0 - left, col1 - left)
    )
    return frame, size, tile_span, warnings


def _count_cells(small: np.ndarray, quad: np.ndarray) -> tuple[int, int, float]:
    """How many cells the quadrilateral spans along x (TL→TR) and y (TL→BL), and how clearly."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    scale = SEARCH_LONG_SIDE / max(width, height)
    w, h = max(16, int(round(width * scale))), max(16, int(round(height * scale)))
    col_profile, row_profile = _edge_profiles(small, quad, w, h)
    score_x = {k: _lattice_contrast(col_profile, k) for k in range(2, MAX_SPAN + 1)}
    score_y = {k: _lattice_contrast(row_profile, k) for k in range(2, MAX_SPAN + 1)}
    candidates = []
    for kx, sx in score_x.items():
        for ky, sy in score_y.items():
            # Cells are square; the quadrilateral's side lengths already undo most perspective.
            if abs(np.log((w / kx) / (h / ky))) < 0.3:
                candidates.append((sx + sy, kx, ky))
    if not candidates:
        raise NoBoardFound(
            "no kingdom found: the shape found is too long and thin for a kingdom; take the photo"
            " from above, or tap the kingdom's four corners"
        )
    score, kx, ky = max(candidates)
    return kx, ky, score


def _refine_on_edges(
    small: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int, window: float
) -> np.ndarray:
    """Improve ``to_lattice`` so the tile edges seen in the photo fall on lattice lines.

    In the current straightened view, each lattice line is searched near its expected place,
    separately in every row (for vertical lines) or column (horizontal ones) of cells. An edge
    found at straightened point (x, y) for the vertical line X gives one linear equation for a
    correcting homography C: (c1 x + c2 y + c3) - X (c7 x + c8 y) = X; horizontal lines likewise.
    Outliers (a shifted domino, the castle's shadow) are dropped and the fit repeated.
    """
    P = LATTICE_PX
    margin = P // 2
    equations, targets, weights, kinds = [], [], [], []
    half = int(round(window * P))
    edges = _lattice_edges(small, to_lattice, cells_x, cells_y, half, inner_only=False)
    for vertical, centre, along, found in edges:
        if found is None:
            continue
        offset, strength = found
        across = centre - half + offset
        x, y = (across, along) if vertical else (along, across)
        target = float(centre)
        if vertical:
            equations.append([x, y, 1, 0, 0, 0, -target * x, -target * y])
        else:
            equations.append([0, 0, 0, x, y, 1, -target * x, -target * y])
        targets.append(target)
        weights.append(strength)
        kinds.append(vertical)
    kinds = np.array(kinds)
    if len(targets) < 10 or kinds.sum() < 4 or (~kinds).sum() < 4:
        return to_lattice
    a = np.array(equations)
    b = np.array(targets)
    w = np.array(weights)
    keep = np.ones(len(b), bool)
    correction = None
    for _ in range(3):
        sqrt_w = np.sqrt(w[keep])[:, None]
        solution, *_ = np.linalg.lstsq(a[keep] * sqrt_w, b[keep] * sqrt_w[:, 0], rcond=None)
        correction = np.append(solution, 1.0).reshape(3, 3)
        residual = np.abs(a @ solution - b)
        limit = max(0.06 * P, 2.5 * np.median(residual[keep]))
        new_keep = residual < limit
        if new_keep.sum() < 10 or (new_keep == keep).all():
            break
        keep = new_keep
    if correction is None or abs(np.linalg.det(correction)) < 1e-6:
        return to_lattice
    # A step that moves a frame corner further than the search window is a fit to something
    # else (a printed line, a shadow): keep the previous estimate.
    frame = np.array([[0, 0], [cells_x, 0], [cells_x, cells_y], [0, cells_y]], float) * P + margin
    moved = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), correction).reshape(4, 2)
    if np.abs(moved - frame).max() > 1.5 * half:
        return to_lattice
    return correction @ to_lattice


def _edge_support(small: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int) -> float:
    """The share of inner cell-boundary segments with a clear edge within 0.1 cell of the lattice.

    Between two tiles there is always an edge (a gap, or a change of picture); a colourful blob
    that merely got a lattice fitted to it has edges here and there, not along every line.
    """
    P = LATTICE_PX
    half = int(0.25 * P)
    hits = total = 0
    for _, _, _, found in _lattice_edges(small, to_lattice, cells_x, cells_y, half, True):
        total += 1
        if found and abs(found[0] - half) <= 0.1 * P and found[1] >= 1.5:
            hits += 1
    return hits / total if total >= 4 else 1.0


def _lattice_edges(
    small: np.ndarray,
    to_lattice: np.ndarray,
    cells_x: int,
    cells_y: int,
    half: int,
    inner_only: bool,
):
    """The strongest edge near each lattice line, one search per cell it borders.

    Straightens ``small`` with ``to_lattice`` (LATTICE_PX per cell, half a cell of margin) and,
    for every vertical and horizontal lattice line (only those between cells if ``inner_only``)
    and every row or column of cells along it, sums the gradient across a window of ±``half``
    px. Yields ``(vertical, centre, along, found)``: the line's position, the middle of the
    searched segment along it, and ``_peak``'s (offset in the window, strength) or None.
    """
    P = LATTICE_PX
    margin = P // 2
    width, height = cells_x * P + 2 * margin, cells_y * P + 2 * margin
    view = cv2.warpPerspective(small, to_lattice, (width, height), flags=cv2.INTER_LINEAR)
    gx, gy = _gradient_images(view)
    trim = int(round(0.2 * P))  # the segment's ends: corners where four tiles meet are noisy
    for vertical, grad, lines, bands in (
        (True, gx, cells_x, cells_y),
        (False, gy, cells_y, cells_x),
    ):
        for i in range(1, lines) if inner_only else range(lines + 1):
            centre = margin + i * P
            for j in range(bands):
                lo, hi = margin + j * P + trim, margin + (j + 1) * P - trim
                if vertical:
                    strip = grad[lo:hi, centre - half : centre + half + 1].sum(axis=0)
                else:
                    strip = grad[centre - half : centre + half + 1, lo:hi].sum(axis=1)
                yield vertical, centre, (lo + hi) / 2, _peak(strip)


def _peak(strip: np.ndarray) -> tuple[float, float] | None:
    """Sub-pixel position of the strongest peak in ``strip`` and how much it stands out."""
    if len(strip) < 5:
        return None
    strip = np.convolve(strip, [0.25, 0.5, 0.25], mode="same")
    k = int(np.argmax(strip[1:-1])) + 1
    base = float(np.median(strip)) + 1e-6
    strength = strip[k] / base
    if strength < 1.4:
        return None
    left, mid, right = strip[k - 1], strip[k], strip[k + 1]
    denom = left - 2 * mid + right
    shift = 0.5 * (left - right) / denom if denom < 0 else 0.0
    return k + float(np.clip(shift, -0.5, 0.5)), min(float(strength), 4.0)


def _tile_cells(mask: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int) -> np.ndarray:
    """Which cells (with a 2-cell border around the estimate) are mostly covered by tiles."""
    pad = 2
    P = 8  # coarse: we only need coverage per cell
    shift = np.array(
        [[P / LATTICE_PX, 0, (pad - 0.5) * P], [0, P / LATTICE_PX, (pad - 0.5) * P], [0, 0, 1]]
    )
    # Lattice pixels (with their half-cell margin) to coarse pixels with a `pad`-cell border.
    coarse = shift @ to_lattice
    width, height = (cells_x + 2 * pad) * P, (cells_y + 2 * pad) * P
    view = cv2.warpPerspective(mask, coarse, (width, height), flags=cv2.INTER_LINEAR)
    coverage = view.reshape(cells_y + 2 * pad, P, cells_x + 2 * pad, P).mean(axis=(1, 3)) / 255
    # Inside the quadrilateral a half-covered cell is a tile (a small one, or in shadow); outside
    # it, where the first estimate saw no tiles, only a cell covered almost whole is, so that a
    # box or a hand touching the kingdom does not add a row.
    inside = np.zeros(coverage.shape, bool)
    inside[pad : pad + cells_y, pad : pad + cells_x] = True
    tiles = inside & (coverage > 0.5)
    # One ring outward at a time, and only next to a tile already found.
    for _ in range(pad):
        touching = cv2.dilate(tiles.astype(np.uint8), _CROSS).astype(bool)
        tiles |= touching & ~inside & (coverage > 0.85)
    return tiles


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
