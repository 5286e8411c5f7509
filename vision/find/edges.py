"""Tile edges: colour gradients, their peaks on the lines of a lattice, and how many of a
lattice's lines they support.

Between two tiles there is always an edge (a gap, or a change of picture), so a fitted lattice
is judged by the edges on its lines. ``lattice`` fits lattices with these measurements and
``extent`` finds how far a kingdom's tiles reach along one; ``decision`` checks a frame with
``gradient_images`` too.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.stats import median

# Pixels per cell of the internal straightened views used to find and fit the lattice.
LATTICE_PX = 40


def lattice_to_image(cells: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    """Points (k, 2) given in cells of a straightened lattice view (cell (c, r) spans c..c+1,
    r..r+1, after a half-cell margin) in image pixels, through ``to_image``: the inverse of the
    homography that made the view."""
    points = np.asarray(cells, dtype=np.float64) * LATTICE_PX + LATTICE_PX // 2
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), to_image).reshape(-1, 2)


# BGR to (brightness, red-green, yellow-blue): a linear stand-in for Lab. OpenCV's 8-bit Lab
# conversion builds lookup tables on first use (about 0.3 s), more than the whole search.
_OPPONENT = np.array(
    [[1 / 3, 1 / 3, 1 / 3], [0.0, -0.5, 0.5], [-0.5, 0.25, 0.25]], dtype=np.float32
)


_SUM = np.ones((1, 3), np.float32)  # cv2.transform sums channels far faster than numpy


def opponent_colour(bgr: np.ndarray) -> np.ndarray:
    """(H, W, 3) float32 brightness, red-green and yellow-blue of a BGR uint8 image."""
    return cv2.transform(bgr.astype(np.float32), _OPPONENT)


def gradient_images(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Absolute x and y colour gradients (summed over opponent channels), float32."""
    colour = opponent_colour(bgr)
    gx = cv2.transform(np.abs(cv2.Sobel(colour, cv2.CV_32F, 1, 0, ksize=3)), _SUM)
    gy = cv2.transform(np.abs(cv2.Sobel(colour, cv2.CV_32F, 0, 1, ksize=3)), _SUM)
    return gx.reshape(bgr.shape[:2]), gy.reshape(bgr.shape[:2])


def edge_profiles(
    image: np.ndarray, quad: np.ndarray, width: int, height: int
) -> tuple[np.ndarray, np.ndarray]:
    """Vertical-edge strength per column and horizontal-edge strength per row of the view
    inside ``quad`` (TL, TR, BR, BL) straightened to ``width``×``height``, lightly smoothed:
    tile boundaries show as evenly spaced peaks.

    A quadrilateral with no area (its corners on one line) shows nothing: flat profiles. Its
    homography is singular, and OpenCV 5.1's ``warpPerspective`` crashes the process on one
    (a soft-wood scene's outline collapsed to a line).
    """
    if abs(cv2.contourArea(quad.astype(np.float32))) < 1.0:
        return np.zeros(width, np.float32), np.zeros(height, np.float32)
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    view = cv2.warpPerspective(image, warp, (width, height), flags=cv2.INTER_LINEAR)
    gx, gy = gradient_images(view)
    col_profile = cv2.GaussianBlur(gx.mean(axis=0).reshape(1, -1), (0, 0), 1.0).ravel()
    row_profile = cv2.GaussianBlur(gy.mean(axis=1).reshape(1, -1), (0, 0), 1.0).ravel()
    return col_profile, row_profile


def lattice_gradients(
    small: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int
) -> tuple[np.ndarray, np.ndarray]:
    """``gradient_images`` of ``small`` straightened with ``to_lattice``: LATTICE_PX per cell,
    ``cells_x`` by ``cells_y`` cells and half a cell of margin all round."""
    margin = LATTICE_PX // 2
    width, height = cells_x * LATTICE_PX + 2 * margin, cells_y * LATTICE_PX + 2 * margin
    # Beyond the photo's edge the view repeats the edge's pixels instead of turning black: a
    # black border is an edge, and pulls a kingdom's outer line onto the photo's edge, so one
    # cut by it fits inside the photo and looks whole.
    view = cv2.warpPerspective(
        small,
        to_lattice,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return gradient_images(view)


def lattice_edges(
    small: np.ndarray,
    to_lattice: np.ndarray,
    cells_x: int,
    cells_y: int,
    half: int,
    inner_only: bool,
) -> tuple[np.ndarray, ...]:
    """The strongest edge near each lattice line, one search per cell it borders.

    Straightens ``small`` with ``to_lattice`` (LATTICE_PX per cell, half a cell of margin) and,
    for every vertical and horizontal lattice line (only those between cells if ``inner_only``)
    and every row or column of cells along it, sums the gradient across a window of ±``half``
    px. Returns one array per answer, a row per searched segment (vertical lines first, line by
    line, each cell along it in turn): ``vertical`` (bool), the line's position ``centre``
    (int), the middle of the segment along it ``along``, and ``strongest_peak_arrays``' offset
    in the window, strength and whether a peak was ``found``. Arrays, not a row at a time: the
    lattice search asks for thousands of segments.
    """
    P = LATTICE_PX
    margin = P // 2
    gx, gy = lattice_gradients(small, to_lattice, cells_x, cells_y)
    trim = int(round(0.2 * P))  # the segment's ends: corners where four tiles meet are noisy
    vertical, centre, along, windows = [], [], [], []
    for is_vertical, grad, lines, bands in (
        (True, gx, cells_x, cells_y),
        (False, gy.T, cells_y, cells_x),
    ):
        # Rows of ``grad`` run along the lines: sum each cell's stretch of every column at once.
        stretch = grad[margin : margin + bands * P].reshape(bands, P, -1)[:, trim : P - trim]
        sums = stretch.sum(axis=1)  # (bands, across)
        centres = [margin + i * P for i in (range(1, lines) if inner_only else range(lines + 1))]
        windows += [sums[:, c - half : c + half + 1] for c in centres]
        middles = margin + np.arange(bands) * P + P / 2  # (lo + hi) / 2 of each cell's segment
        vertical.append(np.full(len(centres) * bands, is_vertical))
        centre.append(np.repeat(centres, bands))
        along.append(np.tile(middles, len(centres)))
    offset, strength, found = _strongest_peaks_of_each(windows)
    return (
        np.concatenate(vertical),
        np.concatenate(centre),
        np.concatenate(along),
        offset,
        strength,
        found,
    )


def _strongest_peaks_of_each(windows: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """``strongest_peak_arrays`` of the windows' rows, in order, all windows of one width in a
    single call: the cost per call was most of the lattice search. Each row is judged on its
    own, so the answers are those of one call per window."""
    rows = np.cumsum([0] + [len(window) for window in windows])
    offset, strength = np.zeros(rows[-1]), np.zeros(rows[-1], np.float32)
    found = np.zeros(rows[-1], bool)
    by_width: dict[int, list[int]] = {}
    for n, window in enumerate(windows):
        by_width.setdefault(window.shape[1], []).append(n)
    for members in by_width.values():
        answers = strongest_peak_arrays(np.concatenate([windows[n] for n in members]))
        at = np.concatenate([np.arange(rows[n], rows[n + 1]) for n in members])
        for out, answer in zip((offset, strength, found), answers, strict=True):
            out[at] = answer
    return offset, strength, found


def strongest_peaks(strips: np.ndarray) -> list[tuple[float, float] | None]:
    """Per row of ``strips``: sub-pixel position of its strongest peak and how much it stands
    out (None when under 1.4 times the row's median)."""
    positions, strengths, clear = strongest_peak_arrays(strips)
    # Converted in whole arrays: a Python float per row and value was a tenth of a failed search.
    return [
        (position, peak) if keep else None
        for position, peak, keep in zip(
            positions.tolist(), strengths.tolist(), clear.tolist(), strict=True
        )
    ]


def strongest_peak_arrays(strips: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``strongest_peaks`` as arrays, a value per row: the position, the strength (capped at 4)
    and whether it is clear (at least 1.4 times the row's median); position and strength mean
    nothing where it is not."""
    count, length = strips.shape
    if length < 5:
        return np.zeros(count), np.zeros(count, np.float32), np.zeros(count, bool)
    smooth = 0.5 * strips
    smooth[:, 1:] += 0.25 * strips[:, :-1]
    smooth[:, :-1] += 0.25 * strips[:, 1:]
    k = np.argmax(smooth[:, 1:-1], axis=1) + 1
    rows = np.arange(count)
    base = median(smooth, axis=1) + 1e-6
    left, mid, right = smooth[rows, k - 1], smooth[rows, k], smooth[rows, k + 1]
    strength = mid / base
    denom = left - 2 * mid + right
    with np.errstate(divide="ignore", invalid="ignore"):
        shift = np.where(denom < 0, 0.5 * (left - right) / denom, 0.0)
    shift = np.clip(shift, -0.5, 0.5)
    return k + shift, np.minimum(strength, 4.0), strength >= 1.4


def edge_support(
    small: np.ndarray,
    to_lattice: np.ndarray,
    cells_x: int,
    cells_y: int,
    each_way: bool = False,
    counted: np.ndarray | None = None,
) -> float:
    """The share of inner cell-boundary segments with a clear edge within 0.1 cell of the lattice
    (with ``each_way``, the smaller of the shares on vertical and on horizontal lines; a way
    with no segment counts 1.0). ``counted``: only these segments (bool, in ``lattice_edges``'
    order), all when None.

    Between two tiles there is always an edge (a gap, or a change of picture); a colourful blob
    that merely got a lattice fitted to it has edges here and there, not along every line.
    """
    P = LATTICE_PX
    half = int(0.25 * P)
    vertical, _, _, offset, strength, found = lattice_edges(
        small, to_lattice, cells_x, cells_y, half, True
    )
    hit = found & (np.abs(offset - half) <= 0.1 * P) & (strength >= 1.5)
    if counted is not None:
        vertical, hit = vertical[counted], hit[counted]
    totals = {True: int(vertical.sum()), False: int((~vertical).sum())}
    hits = {True: int((hit & vertical).sum()), False: int((hit & ~vertical).sum())}
    if each_way:
        return min(hits[v] / totals[v] if totals[v] else 1.0 for v in (True, False))
    total = totals[True] + totals[False]
    return (hits[True] + hits[False]) / total if total >= 4 else 1.0


def line_hits(grad, lines, band, line_origin, band_origin, span=None) -> float:
    """Share of lattice-line segments with a clear edge on the line (within 0.1 cell).

    ``grad``: gradient across the lines, rows running along them (gx for vertical lines, gy.T
    for horizontal ones). ``lines``: line positions in cells; the segments are those of cell
    ``band`` along them, or of every cell in ``span`` (first, end) when ``band`` is None.
    """
    P, margin = LATTICE_PX, LATTICE_PX // 2
    half, trim = int(0.25 * P), int(round(0.2 * P))
    bands = [band] if band is not None else range(*span)
    hits = total = 0
    for line in lines:
        centre = margin + (line - line_origin) * P
        for b in bands:
            lo = margin + (b - band_origin) * P + trim
            strip = grad[lo : lo + P - 2 * trim, centre - half : centre + half + 1].sum(axis=0)
            found = strongest_peaks(strip[None, :])[0]
            total += 1
            if found and abs(found[0] - half) <= 0.1 * P and found[1] >= 1.5:
                hits += 1
    return hits / total if total else 0.0


def seam_support(board_image: np.ndarray, tiles: np.ndarray) -> float:
    """The smaller, of vertical and horizontal lines, share of the inner cell lines of a
    straightened N×N kingdom that show an edge where the lattice puts them, counting only the
    segments between two ``tiles`` ((N, N) bool): between two holes, or a hole and a tile of
    the table's colour, the table runs on with no edge. 1.0 when a way has no such segment."""
    size = tiles.shape[0]
    if tiles.shape != (size, size):
        raise ValueError(f"tiles must be N×N, got {tiles.shape}")
    h, w = board_image.shape[:2]
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    # Segments in lattice_edges' order: vertical line i (between columns i - 1 and i), row by
    # row; then horizontal line j (between rows j - 1 and j), column by column.
    between = np.concatenate(
        [(tiles[:, :-1] & tiles[:, 1:]).T.ravel(), (tiles[:-1, :] & tiles[1:, :]).ravel()]
    )
    return frame_edge_support(board_image, whole, size, counted=between)


def frame_to_lattice(frame: np.ndarray, size: int) -> np.ndarray:
    """The homography taking an N×N ``frame`` (TL, TR, BR, BL) to the lattice view
    ``lattice_edges`` reads: LATTICE_PX per cell, half a cell of margin."""
    P, margin = LATTICE_PX, LATTICE_PX // 2
    target = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32) * P + margin
    return cv2.getPerspectiveTransform(frame.astype(np.float32), target)


def frame_edge_support(
    small: np.ndarray, frame: np.ndarray, size: int, counted: np.ndarray | None = None
) -> float:
    """The smaller, of vertical and horizontal lines, share of the N×N ``frame``'s inner cell
    boundaries (only the ``counted`` ones, see ``edge_support``) that show a tile edge: how
    well the frame sits on the tiles."""
    return edge_support(small, frame_to_lattice(frame, size), size, size, True, counted)


def line_seams(small: np.ndarray, frame: np.ndarray, size: int) -> tuple[np.ndarray, ...]:
    """Where each line of the N×N ``frame``, its sides (lines 0 and N) included, finds its
    seam: per line (vertical ones first, then horizontal, each way in order 0..N), whether it is
    vertical, its number, the offset in cells (steps of 1/LATTICE_PX) from the line to the
    strongest edge within half a cell across it, and how much that edge stands out (its height
    over the median across that span).

    The gradient is summed along the whole line, not judged cell by cell as in
    ``edge_support``: a soft photo's faint seam, coherent along the line, still stands out of
    the tiles' pictures, which cancel; so the offsets say where the seams are even where few
    segments show a clear edge. At a side, the edge is the kingdom's outline against the table.
    """
    P, margin = LATTICE_PX, LATTICE_PX // 2
    gx, gy = lattice_gradients(small, frame_to_lattice(frame, size), size, size)
    vertical, number, offsets, strengths = [], [], [], []
    for is_vertical, grad in ((True, gx), (False, gy.T)):
        profile = grad[margin : margin + size * P].sum(axis=0)  # across the lines
        for line in range(size + 1):
            centre = margin + line * P
            low = centre - P // 2
            across = profile[low : centre + P // 2 + 1].astype(np.float32)
            across = cv2.GaussianBlur(across.reshape(1, -1), (0, 0), 1.0).ravel()
            peak = int(np.argmax(across))
            vertical.append(is_vertical)
            number.append(line)
            offsets.append((low + peak - centre) / P)
            strengths.append(float(across[peak] / (median(across) + 1e-6)))
    return np.array(vertical), np.array(number), np.array(offsets), np.array(strengths)
