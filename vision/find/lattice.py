"""Lattice fit and refinement: count the cells inside a candidate outline, snap the outline to the
tile edges, and recognise an image that is already a straightened board.

We straighten each candidate and count the cells along each side from the tile edges: the
gradient profile must peak at the cell boundaries and not at the cell centres. The candidate with
the clearest lattice wins; none clear enough means no kingdom. Then we fit a homography to the
observed tile edges themselves: every visible edge between two cells is a line of the lattice,
which gives linear equations for the homography. This fixes perspective and corners even when
the outline is ragged or a corner tile is missing. Where on the fitted lattice the kingdom's
N×N frame goes is ``extent``'s to say.

When no outline of the blob gives a lattice (lake tiles on a blue cloth split it, a cloth's dots
stick to it), the outlines, and a rectangle along the tile edges' own direction, are snapped to
the lattice the tile edges inside them show, and fitted again under stricter checks.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.words import msg
from vision.find.decision import lattice_evidence, straightened_view
from vision.find.edges import (
    LATTICE_PX,
    edge_profiles,
    edge_support,
    frame_edge_support,
    frame_to_lattice,
    lattice_edges,
    lattice_to_image,
)
from vision.find.extent import place_frame
from vision.find.location import SIZES, NoBoardFound, order_corners
from vision.stats import median


def _lattice_contrasts(profile: np.ndarray, counts) -> dict[int, float]:
    """For each number of cells in ``counts``: the profile's strength at the inner cell
    boundaries over its strength at the cell centres.

    Unlike ``_comb_score`` this punishes a lattice whose cell centres fall on real edges, such as
    3 cells where there are 6 (every centre of the coarse lattice is a real boundary). Each point
    takes the best value within ±3 % of the length, read off one running maximum of the profile
    for all counts (the same values as each window's own maximum).
    """
    length = len(profile)
    radius = max(1, int(round(0.03 * length)))
    row = profile.reshape(1, -1).astype(np.float32)
    nearby = cv2.dilate(row, np.ones((1, 2 * radius + 1), np.uint8)).ravel()
    contrasts = {}
    for cells in counts:
        pitch = length / cells
        peaks = [int(round(i * pitch)) for i in range(1, cells)]
        centres = [int(round((i + 0.5) * pitch)) for i in range(cells)]
        if not peaks or not centres:
            contrasts[cells] = 0.0
            continue
        on, off = float(np.mean(nearby[peaks])), float(np.mean(nearby[centres]))
        contrasts[cells] = on / (off + 1e-6)
    return contrasts


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
    baseline = float(median(profile)) + 1e-6
    return float(np.mean(peaks)) / baseline if peaks else 0.0


def size_inside(image: np.ndarray, corners: np.ndarray) -> int:
    """5 or 7: which lattice the straightened view inside ``corners`` shows more strongly."""
    side = 7 * 5 * 8  # divisible by both sizes
    col_profile, row_profile = edge_profiles(image, corners, side, side)
    scores = {n: _comb_score(col_profile, n) + _comb_score(row_profile, n) for n in SIZES}
    return max(scores, key=scores.get)


# --- 1. already straightened? -----------------------------------------------------------------

# Measured on the aau boards (mean of the row and column scores): the true size scores 2.5-6,
# the wrong one 1.2-2.5, so we also ask the winner to beat the other size clearly.
STRAIGHT_MIN_SCORE = 2.0
STRAIGHT_MIN_RATIO = 1.3


def straightened_size(gradients: tuple[np.ndarray, np.ndarray]) -> int | None:
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


# A photo cropped tight to the kingdom is taken as the board, but its edges are not the
# kingdom's: the crop leaves a strip of table (up to a tenth of a cell) and the kingdom lies a
# degree or two askew in it, so the whole image's frame cut the cells of tight-cloth
# development scenes (lab.synth 9300-9329) up to 0.67 cell off their tiles, and the cells read
# half one tile, half the next. The frame is fitted to the tile edges inside instead, in steps
# from a window of 0.45 cell (the widest that stays clear of the next line) down to 0.12.
STRAIGHT_REFIT_WINDOWS = (0.45, 0.3, 0.2, 0.12)
# Askew by a few degrees, a 7×7 kingdom's corners lie further from the crop's than the widest
# window reaches (0.6-0.83 cell in development scenes 9313, 9554, 9615, 9812): the fit also
# starts from the largest square inside the crop turned by these angles, and the start whose
# fitted frame has the most tile edges on its lines wins (there to 0.03-0.08 cell).
STRAIGHT_REFIT_TURNS = (0.0, -2.0, 2.0, -4.0, 4.0)  # degrees
# The fitted frame is taken only where the tile edges clearly say so: its share of inner cell
# boundaries with an edge on them (``frame_edge_support``, the smaller of the two ways) gains
# this much on the whole image's, or the smaller gain and nearly every line on an edge. The aau
# boards (cut exactly to the kingdom, tiles packed tight) gain at most 0.2, to at most 0.95 from
# 0.85: they stay as they are. Tight-cloth scenes went from 0.29-0.8 to 0.81-1.0.
STRAIGHT_REFIT_GAIN = 0.25
STRAIGHT_REFIT_CLEAR = (0.15, 0.9)  # (smaller gain, support reached)


def fit_straightened(small: np.ndarray, size: int) -> np.ndarray:
    """The frame (TL, TR, BR, BL, in ``small``'s pixels) of an image taken as a straightened
    N×N board: fitted to its tile edges (``_refine_on_edges``) when they clearly sit better on
    that than on the whole image, else the whole image."""
    h, w = small.shape[:2]
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    square = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float64)
    centre = whole.mean(axis=0)
    after, fitted = -1.0, whole
    for degrees in STRAIGHT_REFIT_TURNS:
        turn = np.radians(degrees)
        cos, sin = np.cos(turn), np.sin(turn)
        start = (whole - centre) @ np.array([[cos, sin], [-sin, cos]]) / (cos + abs(sin)) + centre
        to_lattice = frame_to_lattice(start, size)
        for window in STRAIGHT_REFIT_WINDOWS:
            to_lattice = _refine_on_edges(small, to_lattice, size, size, window)
        frame = lattice_to_image(square, np.linalg.inv(to_lattice))
        support = frame_edge_support(small, frame, size)
        if support > after:
            after, fitted = support, frame
    before = frame_edge_support(small, whole, size)
    gain, reached = STRAIGHT_REFIT_CLEAR
    if after >= before + STRAIGHT_REFIT_GAIN or (after >= before + gain and after >= reached):
        return fitted
    return whole


# --- 4. snap to the tile lattice --------------------------------------------------------------

MAX_SPAN = 8  # cells along one side we consider (7 and one for tolerance)
# Fewest cells counted along one side of a lattice snapped to tile edges (outlines may count
# two: a strip of two rows is then refused as too few tiles). Two cells' one inner line can be
# any strong edge, and their centres are cells' centres of a lattice three times as fine, so
# the lattice contrast can favour two over six real cells (development scene 9903: lake tiles
# beside a blue cloth's check).
SNAPPED_MIN_COUNT = 3
# Sum of the row and column lattice contrasts of the best cell count: synthetic kingdoms score
# 2.5-12 (median 7.6), a smooth blurred blob about 2.2; below this it is not a tile lattice.
MIN_LATTICE_CLARITY = 2.0
# Share of the inner cell boundaries (one per row or column of cells) that show an edge right on
# the fitted lattice: synthetic kingdoms 0.72-1 (median 0.93), the real photos 0.83 and 0.94,
# colourful blobs that are not kingdoms 0-0.5.
MIN_EDGE_SUPPORT = 0.6
SEARCH_LONG_SIDE = 256  # size of the straightened view used to count cells
NOT_A_GRID = msg(
    "no kingdom found: something stands out from the table, but its edges do not form a grid of"
    " square tiles; take the photo from straight above, or tap the kingdom's four corners"
)
MIN_WINDOW_CELLS = 5  # a square window of a longer lattice: a whole 5×5 or 7×7 kingdom
# The strips a square window leaves out may show tile edges on at most this share of their lattice
# lines (tiles 0.6-1, as MIN_EDGE_SUPPORT; the knit sleeve of development scene 7661, 0.31).
MAX_LEFT_OUT_SUPPORT = 0.4
# A square window of a lattice snapped inside a blob: a strip beside it one cell wide shares
# the window's side, and on a cloth printed at about the tiles' pitch that alone reaches 0.5.
SNAPPED_MAX_LEFT_OUT = 0.55
# Spread of cell colours (``decision.lattice_evidence``) a window of a failed snapped lattice
# needs: complete kingdoms of development scenes 52 or more (646 of lab.tables and lab.synth's
# hard scenes), a hand with its fingers over cork 31 (decision.MIN_CELL_SPREAD, for any frame,
# is 30).
WINDOW_MIN_CELL_SPREAD = 45.0


def fit_lattice(
    small: np.ndarray, mask: np.ndarray, quads: list[np.ndarray], size: int | None
) -> tuple[np.ndarray, int, tuple[int, int, int, int], tuple[str, ...], bool]:
    """The N×N frame's corners in ``small`` pixels, N, the tiles' span in it, warnings, and
    whether the tiles overflow the frame (more than N cells in a row: more than one kingdom?).

    Of the candidate quadrilaterals, the one whose straightened view shows the clearest lattice
    of tile edges wins, unless the fitted lattice's edges do not hold up (then the next).
    """
    counted, too_thin = [], None
    # The outline's candidates often coincide (a blob cut square by the photo's corner): an
    # equal quad would be counted and fitted again to the same end.
    for quad in _distinct(quads):
        try:
            counted.append((_count_cells(small, quad), quad))
        except NoBoardFound as error:
            # One outline long and thin (a kingdom and the sleeve touching it): the others,
            # and the rectangle along the tile edges, may still frame the kingdom.
            too_thin = error
    if not counted:
        raise too_thin
    counted.sort(key=lambda item: item[0][2], reverse=True)
    if counted[0][0][2] < MIN_LATTICE_CLARITY:
        raise NoBoardFound(
            msg(
                "no kingdom found: something stands out from the table but shows no grid of "
                "square tiles; take the photo from straight above in good light, or tap the "
                "kingdom's four corners"
            )
        )
    margin = LATTICE_PX // 2
    # The clearest lattice first; if its tile edges do not hold up once fitted, the next; last,
    # the same outlines snapped to the lattice their tile edges show.
    # A snapped lattice whose edges do not hold up may hold a square window that does
    # (``_window_of_snapped``): the first such, taken only when nothing else fits.
    oblong = last_resort = None
    for (cells_x, cells_y, clarity), quad, snapped in _with_snapped(small, mask, counted):
        if clarity < MIN_LATTICE_CLARITY:
            continue
        oblong_snap = snapped and abs(cells_x - cells_y) > 1
        if oblong is not None and (not snapped or cells_x != cells_y):
            continue  # after an oblong lattice, only a square one snapped to the tiles
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
        if oblong_snap:
            # Snapped inside a blob, not given by its outline: a kingdom is square. The tile
            # edges can run on over a cloth printed at about the tiles' pitch; a square window
            # of them that shows tiles clearly both ways, beside strips that show none, is one.
            window = _square_window(
                small, to_lattice, cells_x, cells_y, SNAPPED_MIN_SUPPORT, SNAPPED_MAX_LEFT_OUT
            )
            if window is None:
                continue
            to_lattice, cells_x = window
            cells_y, trimmed = cells_x, True
            break
        if snapped:
            # It must show tile edges clearly both ways: a comb also fits a score pad's ruled
            # lines, or a cloth's printed checks beside a kingdom.
            whole = (
                edge_support(small, to_lattice, cells_x, cells_y, each_way=True)
                >= SNAPPED_MIN_SUPPORT
            )
            if not whole:
                if last_resort is None:
                    last_resort = _window_of_snapped(small, to_lattice, cells_x, cells_y)
                continue
        else:
            whole = edge_support(small, to_lattice, cells_x, cells_y) >= MIN_EDGE_SUPPORT
        # A kingdom with something stuck to one side (a sleeve, a box): the lattice spans both
        # and is longer one way. Kingdoms are square, so a square window of it whose tile edges
        # hold up, beside strips that show none, is the kingdom.
        window = _square_window(small, to_lattice, cells_x, cells_y)
        if window is not None:
            to_lattice, cells_x = window
            cells_y, trimmed = cells_x, True
            break
        if whole and cells_x != cells_y and oblong is None:
            # An outline that lost a row of tiles to the table (beige swamps on a beige
            # table) gives an oblong lattice that can lie half a cell off the tiles; the
            # tile edges inside, snapped to, may show the square kingdom. Else this one.
            oblong = (to_lattice, cells_x, cells_y)
            continue
        if whole:
            trimmed = False
            break
    else:
        if oblong is not None:
            (to_lattice, cells_x, cells_y), trimmed = oblong, False
        elif last_resort is not None:
            (to_lattice, cells_x), trimmed = last_resort, True
            cells_y = cells_x
        else:
            raise NoBoardFound(NOT_A_GRID)

    # Past a trimmed side lies the thing that was cut off, not more tiles.
    return place_frame(small, mask, to_lattice, cells_x, cells_y, size, grow=not trimmed)


def _distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` without those equal to one before them."""
    kept: list[np.ndarray] = []
    for quad in quads:
        if not any(np.array_equal(quad, other) for other in kept):
            kept.append(quad)
    return kept


def _with_snapped(small: np.ndarray, mask: np.ndarray, counted: list):
    """``counted`` ((cells_x, cells_y, clarity), quad) in order, then each quad snapped to the
    lattice its tile edges show (``_snapped_quad``): the edge-aligned rectangle and the clearest
    outline, counted afresh; with each, whether it is snapped. Snapped ones are only made when
    every outline failed."""
    for count, quad in counted:
        yield count, quad, False
    # The blob's outline may cut corners where it lost tiles (its quads then carry a false
    # perspective); a rectangle along the tile edges' own direction does not. The clearest
    # outline second; the others rarely add a kingdom for their cost (a pitch search each).
    for quad in (_edge_aligned_rectangle(small, mask), counted[0][1]):
        if quad is None:
            continue
        snapped = _snapped_quad(small, quad)
        if snapped is not None:
            try:
                yield _count_cells(small, snapped, SNAPPED_MIN_COUNT), snapped, True
            except NoBoardFound:
                continue


def _edge_aligned_rectangle(small: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The rectangle (TL, TR, BR, BL) around ``mask`` with its sides along the strongest edge
    direction inside it (tile edges run two ways a right angle apart, so folded to 0-90°)."""
    points = cv2.findNonZero(mask)
    if points is None or len(points) < 50:
        return None
    x, y, w, h = cv2.boundingRect(points)
    gray = cv2.cvtColor(small[y : y + h, x : x + w], cv2.COLOR_BGR2GRAY).astype(np.float32)
    dx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    dy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.hypot(dx, dy) * (mask[y : y + h, x : x + w] > 0)
    folded = np.degrees(np.arctan2(dy, dx)) % 90.0
    histogram = np.bincount(
        folded.astype(int).ravel() % 90, weights=magnitude.ravel(), minlength=90
    )
    # Smoothed around the circle of directions (89° is next to 0°).
    smooth = np.convolve(np.concatenate([histogram[-3:], histogram, histogram[:3]]), np.ones(7))
    angle = np.radians(float(np.argmax(smooth[6:96])) + 0.5)
    along = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-along[1], along[0]])
    flat = points.reshape(-1, 2).astype(np.float64)
    u, v = flat @ along, flat @ across
    u0, u1, v0, v1 = u.min(), u.max(), v.min(), v.max()
    corners = [u0 * along + v0 * across, u1 * along + v0 * across]
    corners += [u1 * along + v1 * across, u0 * along + v1 * across]
    return order_corners(np.array(corners))


# Each-way edge support a snapped lattice needs (synthetic kingdoms on cloth whose outlines
# failed 0.79-1.0; a score pad's ruled lines 0.60).
SNAPPED_MIN_SUPPORT = 0.7
# Pitches tried for a lattice inside an outline, in pixels of its SEARCH_LONG_SIDE view.
SNAP_PITCH_STEP = 0.5
# Lattice lines this far (of a pitch) outside the outline still count: its side may cut a row.
SNAP_REACH = 0.3


def _snapped_quad(small: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """``quad`` moved onto the tile lattice seen inside it, or None when none shows.

    A blob that lost tiles to the table (lake tiles on a blue cloth) or gained a few of the
    table's specks has an outline whose sides cut through cells, and no whole number of cells
    fits it. The tile edges inside still form an even lattice: straightened, they peak every
    pitch along both axes (one pitch: the cells are square). The quad from the first lattice line
    to the last, each way, is an outline on tile boundaries for the fit to start from.
    """
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    scale = SEARCH_LONG_SIDE / max(width, height, 1e-6)
    w, h = max(16, int(round(width * scale))), max(16, int(round(height * scale)))
    col_profile, row_profile = edge_profiles(small, quad, w, h)
    # A finished kingdom spans at most MAX_SPAN cells and at least three (MIN_TILE_SPAN).
    pitches = np.arange(max(w, h) / (MAX_SPAN + 0.5), min(w, h) / 2.5, SNAP_PITCH_STEP)
    if len(pitches) == 0:
        return None
    phases_x, contrasts_x = _best_phases(col_profile, pitches)
    phases_y, contrasts_y = _best_phases(row_profile, pitches)
    best = int(np.argmax(contrasts_x + contrasts_y))  # the first of equals: the finest pitch
    pitch, phase_x, phase_y = float(pitches[best]), phases_x[best], phases_y[best]
    xs = _lines_within(*_fitted_comb(col_profile, phase_x, pitch), w)
    ys = _lines_within(*_fitted_comb(row_profile, phase_y, pitch), h)
    if len(xs) < 3 or len(ys) < 3:  # two cells or fewer: no kingdom to start from
        return None
    view_corners = np.array(
        [[xs[0], ys[0]], [xs[-1], ys[0]], [xs[-1], ys[-1]], [xs[0], ys[-1]]], np.float32
    )
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    to_view = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    snapped = cv2.perspectiveTransform(view_corners.reshape(-1, 1, 2), np.linalg.inv(to_view))
    return snapped.reshape(4, 2).astype(np.float64)


def _best_phases(profile: np.ndarray, pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pitch, (phase, contrast) of the comb of that period that best fits ``profile``'s
    peaks: the mean profile on its lines over the mean half-way between them. Half-way points
    punish a comb of twice the pitch (they fall on real boundaries), as ``_lattice_contrasts``
    does. All pitches and whole-pixel phases at once: (pitches, phases, lines) arrays."""
    length = len(profile)
    # Each point's best value within ±a tenth of the pitch: tiles are never laid perfectly.
    radii = np.maximum(1, np.round(0.1 * pitches)).astype(int)
    row = profile.reshape(1, -1).astype(np.float32)
    peaks = {r: cv2.dilate(row, np.ones((1, 2 * r + 1), np.uint8)).ravel() for r in set(radii)}
    peak = np.stack([peaks[r] for r in radii])  # (pitches, length)
    phases = np.arange(float(np.ceil(pitches.max())))
    steps = np.arange(int(length / pitches.min()) + 2)
    lines = phases[None, :, None] + pitches[:, None, None] * steps[None, None, :]
    on = _mean_at(peak, lines)
    between = _mean_at(peak, lines + pitches[:, None, None] / 2)
    contrast = on / (between + 1e-6)
    contrast[phases[None, :] >= pitches[:, None]] = -np.inf  # a phase is less than its pitch
    best = np.argmax(contrast, axis=1)
    every = np.arange(len(pitches))
    return phases[best], contrast[every, best]


def _mean_at(values: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """``values`` (pitches, length) averaged at ``positions`` (pitches, phases, lines) in range,
    over the lines: (pitches, phases)."""
    index = np.round(positions).astype(int)
    valid = (index >= 0) & (index < values.shape[1])
    rows = np.arange(values.shape[0])[:, None, None]
    taken = np.where(valid, values[rows, np.clip(index, 0, values.shape[1] - 1)], 0.0)
    return taken.sum(axis=2) / np.maximum(valid.sum(axis=2), 1)


def _fitted_comb(profile: np.ndarray, phase: float, pitch: float) -> tuple[float, float]:
    """(phase, pitch) least-squares fitted to the profile's peaks near the comb's lines: the
    search's steps are coarse (a pixel of phase, SNAP_PITCH_STEP of pitch)."""
    radius = max(1, int(round(0.15 * pitch)))
    numbers, peaks = [], []
    for k in range(int(len(profile) / pitch) + 2):
        centre = int(round(phase + k * pitch))
        lo, hi = max(0, centre - radius), min(len(profile), centre + radius + 1)
        if hi - lo > radius:  # a line at the profile's end has half a window: left out
            numbers.append(k)
            peaks.append(lo + float(np.argmax(profile[lo:hi])))
    if len(peaks) < 3:
        return phase, pitch
    slope, intercept = np.polyfit(numbers, peaks, 1)
    return float(intercept), float(slope)


def _lines_within(phase: float, pitch: float, length: int) -> np.ndarray:
    """The comb's lines from SNAP_REACH pitch before 0 to SNAP_REACH pitch after ``length``."""
    first = phase - pitch * np.floor((phase + SNAP_REACH * pitch) / pitch)
    lines = np.arange(first, length + SNAP_REACH * pitch + 1e-6, pitch)
    return lines


def _count_cells(small: np.ndarray, quad: np.ndarray, fewest: int = 2) -> tuple[int, int, float]:
    """How many cells (``fewest`` or more) the quadrilateral spans along x (TL→TR) and y
    (TL→BL), and how clearly."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    scale = SEARCH_LONG_SIDE / max(width, height)
    w, h = max(16, int(round(width * scale))), max(16, int(round(height * scale)))
    col_profile, row_profile = edge_profiles(small, quad, w, h)
    score_x = _lattice_contrasts(col_profile, range(fewest, MAX_SPAN + 1))
    score_y = _lattice_contrasts(row_profile, range(fewest, MAX_SPAN + 1))
    candidates = []
    for kx, sx in score_x.items():
        for ky, sy in score_y.items():
            # Cells are square; the quadrilateral's side lengths already undo most perspective.
            if abs(np.log((w / kx) / (h / ky))) < 0.3:
                candidates.append((sx + sy, kx, ky))
    if not candidates:
        raise NoBoardFound(
            msg(
                "no kingdom found: the shape found is too long and thin for a kingdom; take the "
                "photo from above, or tap the kingdom's four corners"
            )
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
    half = int(round(window * P))
    *answers, found = lattice_edges(small, to_lattice, cells_x, cells_y, half, inner_only=False)
    if found.sum() < 10:
        return to_lattice
    # One row per edge found, in whole arrays (this runs for every candidate lattice).
    vertical, centre, along, offset, strength = (answer[found] for answer in answers)
    if vertical.sum() < 4 or (~vertical).sum() < 4:
        return to_lattice
    across = (centre - half) + offset
    x, y = np.where(vertical, across, along), np.where(vertical, along, across)
    b = centre.astype(np.float64)
    ones = np.ones_like(x)
    # An edge at straightened (x, y) on vertical line X: c1 x + c2 y + c3 - X (c7 x + c8 y) = X;
    # on horizontal line Y the same with c4, c5, c6.
    line_terms = np.stack([x, y, ones], axis=1)
    a = np.concatenate(
        [
            np.where(vertical[:, None], line_terms, 0.0),
            np.where(vertical[:, None], 0.0, line_terms),
            np.stack([-b * x, -b * y], axis=1),
        ],
        axis=1,
    )
    w = strength.astype(np.float64)
    keep = np.ones(len(b), bool)
    correction = None
    for _ in range(3):
        sqrt_w = np.sqrt(w[keep])[:, None]
        solution, *_ = np.linalg.lstsq(a[keep] * sqrt_w, b[keep] * sqrt_w[:, 0], rcond=None)
        correction = np.append(solution, 1.0).reshape(3, 3)
        residual = np.abs(a @ solution - b)
        limit = max(0.06 * P, 2.5 * median(residual[keep]))
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


def _square_window(
    small: np.ndarray,
    to_lattice: np.ndarray,
    cells_x: int,
    cells_y: int,
    min_support: float = MIN_EDGE_SUPPORT,
    max_left_out: float = MAX_LEFT_OUT_SUPPORT,
    n: int | None = None,
) -> tuple[np.ndarray, int] | None:
    """(to_lattice, n) of the square n×n window of a lattice (by default as wide as its shorter
    side) that shows tile edges both ways while the strips it leaves out show none, or None.

    Left-out strips with tile edges would be tiles: a kingdom cut by the photo's edge, or two
    kingdoms side by side, must not lose a row and look whole. Of the windows that pass, the one
    whose edges stand out most from what it leaves out.
    """
    best = None
    for window_lattice, cells, left_out in _square_windows(to_lattice, cells_x, cells_y, n):
        for window in (0.3, 0.2, 0.12):
            window_lattice = _refine_on_edges(small, window_lattice, cells, cells, window)
        # Both ways: the stripes of a hand's fingers show edges one way only.
        support = edge_support(small, window_lattice, cells, cells, each_way=True)
        if support < min_support:
            continue
        beside = max(
            edge_support(small, to_strip @ window_lattice, across, down)
            for to_strip, across, down in left_out
        )
        if beside <= max_left_out and (best is None or support - beside > best[0]):
            best = (support - beside, window_lattice, cells)
    return None if best is None else best[1:]


def _window_of_snapped(
    small: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int
) -> tuple[np.ndarray, int] | None:
    """A whole 7×7 or 5×5 window of a snapped lattice bigger than the tiles (its outline took
    in table specks, or the gaps of drifted tiles), as ``_square_window`` picks it with a
    snapped lattice's thresholds, whose cells differ as a kingdom's do; or None.

    The lattice as a whole failed, so its window must show more than edges: a hand's fingers
    give a row of them, but its cells are two colours, skin and table."""
    for n in SIZES[::-1]:
        window = _square_window(
            small, to_lattice, cells_x, cells_y, SNAPPED_MIN_SUPPORT, SNAPPED_MAX_LEFT_OUT, n
        )
        if window is None:
            continue
        square = np.array([[0, 0], [n, 0], [n, n], [0, n]])
        corners = lattice_to_image(square, np.linalg.inv(window[0]))
        _, spread = lattice_evidence(straightened_view(small, corners, n), n)
        if spread >= WINDOW_MIN_CELL_SPREAD:
            return window
    return None


def _square_windows(
    to_lattice: np.ndarray, cells_x: int, cells_y: int, n: int | None = None
) -> list:
    """Each n×n window of a lattice bigger than it (n: by default its shorter side):
    (to_lattice, n, left_out), where left_out lists the blocks of the lattice beside the window
    as (shift from the window's lattice to the block's, cells across, cells down)."""
    n = min(cells_x, cells_y) if n is None else n
    if n < MIN_WINDOW_CELLS or n > min(cells_x, cells_y) or n == max(cells_x, cells_y):
        return []
    P = LATTICE_PX

    def shift(dx: int, dy: int) -> np.ndarray:
        return np.array([[1, 0, -dx * P], [0, 1, -dy * P], [0, 0, 1]], float)

    windows = []
    for oy in range(cells_y - n + 1):
        for ox in range(cells_x - n + 1):
            # Whole columns left and right of the window, then the rows above and below it.
            blocks = [
                (-ox, -oy, ox, cells_y),
                (n, -oy, cells_x - ox - n, cells_y),
                (0, -oy, n, oy),
                (0, n, n, cells_y - oy - n),
            ]
            left_out = [(shift(x, y), a, d) for x, y, a, d in blocks if a and d]
            windows.append((shift(ox, oy) @ to_lattice, n, left_out))
    return windows
