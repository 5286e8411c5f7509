"""A kingdom's extent on its fitted lattice: which cells its tiles cover, grown along the lattice
where tile edges show beyond them, the N×N frame placed over them (``place_frame``), and
whether tile seams run on past a frame into the photo's edge (``tiles_past_edge``: a kingdom cut
by it).

Tiles spanning fewer than N cells in a direction leave the N×N frame's placement ambiguous; the
frame is centred on the tiles (an odd spare cell goes to the side showing more tile edges, else
the bottom/right) and the tiles' place in it is recorded (``tile_span``).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from scoring.words import msg
from vision.find.edges import (
    LATTICE_PX,
    gradient_images,
    lattice_to_image,
    line_hits,
    strongest_peaks,
)
from vision.find.location import NoBoardFound

SIZE_DOUBT = "may be a 5×5 kingdom"  # in the warning of a 7×7 frame round six cells of tiles


def without_size_doubt(warnings: tuple[str, ...]) -> tuple[str, ...]:
    """``warnings`` without ``place_frame``'s doubt about a 7×7 frame, once it is answered."""
    return tuple(warning for warning in warnings if SIZE_DOUBT not in warning)


def place_frame(
    small: np.ndarray,
    mask: np.ndarray,
    to_lattice: np.ndarray,
    cells_x: int,
    cells_y: int,
    size: int | None,
    grow: bool = True,
) -> tuple[np.ndarray, int, tuple[int, int, int, int], tuple[str, ...], bool]:
    """The N×N frame over the tiles of a fitted lattice (``to_lattice``: ``small`` pixels to
    lattice pixels, ``cells_x``×``cells_y`` cells): its corners in ``small`` pixels, N, the
    tiles' span in it, warnings, and whether the tiles overflow it (``fit_lattice``'s answer).

    The cells the blob (``mask``) covers, grown along the lattice where tile edges show beyond
    them (not when ``grow`` is False: past a trimmed side lies what was cut off), decide N
    unless ``size`` is given, and the frame is centred on them.
    """
    tiles = _tile_cells(mask, to_lattice, cells_x, cells_y, grow=grow)
    rows, cols = np.nonzero(tiles)
    if len(rows) == 0:
        raise NoBoardFound(
            msg(
                "no kingdom found: no tiles line up on a grid; take the photo from above, or tap "
                "the kingdom's four corners"
            )
        )
    pad = 2  # _tile_cells looks this many cells beyond the first estimate
    col0, col1 = cols.min() - pad, cols.max() - pad + 1
    row0, row1 = rows.min() - pad, rows.max() - pad + 1
    wanted = size or (7 if max(col1 - col0, row1 - row0) > 5 else 5)
    (col0, col1, row0, row1), lean = _grow_along_lattice(
        small, to_lattice, (col0, col1, row0, row1), wanted
    )
    span = max(col1 - col0, row1 - row0)
    warnings: tuple[str, ...] = ()
    if size is None:
        size = 7 if span > 5 else 5
        if span == 6 and min(col1 - col0, row1 - row0) <= 5:
            # Tiles six cells long one way and five or fewer the other: on development
            # scenes this was a 5×5 kingdom whose lattice lies half a cell off its tiles
            # (a beige row on a beige table), so each end row is half covered. Say so.
            warnings = (
                msg(
                    "the tiles fill only {span} cells of this 7×7 frame: it may be a 5×5 kingdom "
                    "framed half a cell off; check the grid, or give the size",
                    span=f"{col1 - col0}×{row1 - row0}",
                ),
            )
    if span > size:
        warnings = (
            msg(
                "the tiles span {span} cells, more than a {size} kingdom: check the grid, or give "
                "the size",
                span=f"{col1 - col0}×{row1 - row0}",
                size=f"{size}×{size}",
            ),
        )
    # Centre the frame on the tiles; an odd spare cell goes to the side that shows more tile
    # edges, else after (right / bottom). Tiles longer than the frame: the frame goes where
    # most of them are.
    left = col0 - _spare_before(size - (col1 - col0), lean[0])
    top = row0 - _spare_before(size - (row1 - row0), lean[1])
    left = _fullest_window(tiles.sum(axis=0), pad, col0, col1, size, left)
    top = _fullest_window(tiles.sum(axis=1), pad, row0, row1, size, top)
    frame_cells = np.array(
        [[left, top], [left + size, top], [left + size, top + size], [left, top + size]],
        dtype=np.float64,
    )
    frame = lattice_to_image(frame_cells, np.linalg.inv(to_lattice))
    tile_span = tuple(
        int(np.clip(v, 0, size)) for v in (row0 - top, row1 - top, col0 - left, col1 - left)
    )
    return frame, size, tile_span, warnings, span > size


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _tile_cells(
    mask: np.ndarray, to_lattice: np.ndarray, cells_x: int, cells_y: int, grow: bool = True
) -> np.ndarray:
    """Which cells (with a 2-cell border around the estimate) are mostly covered by tiles;
    outside the estimate only if ``grow``."""
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
    for _ in range(pad if grow else 0):
        touching = cv2.dilate(tiles.astype(np.uint8), _CROSS).astype(bool)
        tiles |= touching & ~inside & (coverage > 0.85)
    return tiles


# A row (or column) of cells next to the tiles found is tiles too when the lattice's lines show
# edges there: the seams between its cells and its outer side. Tiles whose colours match the
# table (beige swamp on cork) are missing from the mask, but not their outlines.
GROW_MIN_SHARE = 0.7
# Where neither side passes, the frame still reaches further on the side with this much more
# evidence (seams + outer side, 0-2): a row of tiles seen faintly beats plain table.
LEAN_MIN_DIFFERENCE = 0.4
GROW_CLEARANCE = 0.3  # of a cell: how far a row grown over stays from the photo's edge


def _grow_along_lattice(
    small: np.ndarray, to_lattice: np.ndarray, bounds: tuple[int, int, int, int], wanted: int
) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    """``bounds`` (col0, col1, row0, row1, lattice cells) grown one row or column at a time,
    up to ``wanted`` cells, where the photo shows tile edges on the lattice beyond them.

    Also (x, y): on which side a frame wider than the tiles should reach further, -1 (left,
    top), +1 (right, bottom) or 0 (no clue): the side whose lattice shows more tile edges.
    """
    col0, col1, row0, row1 = bounds
    h, w = small.shape[:2]
    to_photo = np.linalg.inv(to_lattice)
    P, margin = LATTICE_PX, LATTICE_PX // 2
    while col1 - col0 < wanted or row1 - row0 < wanted:
        # The view: the tiles found and one cell more all round, half a cell of margin.
        cmin, rmin = col0 - 1, row0 - 1
        shift = np.array([[1, 0, -cmin * P], [0, 1, -rmin * P], [0, 0, 1]], float)
        width, height = (col1 + 1 - cmin) * P + 2 * margin, (row1 + 1 - rmin) * P + 2 * margin
        view = cv2.warpPerspective(small, shift @ to_lattice, (width, height))
        gx, gy = gradient_images(view)
        candidates = []  # (evidence, new bounds)
        lean = [0, 0]
        if row1 - row0 < wanted:
            scores = []
            for row, outer in ((row0 - 1, row0 - 1), (row1, row1 + 1)):
                cells = (col0, col1, row, row + 1)
                seams = side = 0.0
                if _inside_photo(cells, to_photo, (h, w)):
                    seams = line_hits(gx, range(col0, col1 + 1), row, cmin, rmin)
                    side = line_hits(gy.T, [outer], None, rmin, cmin, span=(col0, col1))
                    grown = (col0, col1, min(row0, row), max(row1, row + 1))
                    candidates.append((min(seams, side), grown))
                scores.append(seams + side)
            lean[1] = _lean(*scores)
        if col1 - col0 < wanted:
            scores = []
            for col, outer in ((col0 - 1, col0 - 1), (col1, col1 + 1)):
                cells = (col, col + 1, row0, row1)
                seams = side = 0.0
                if _inside_photo(cells, to_photo, (h, w)):
                    seams = line_hits(gy.T, range(row0, row1 + 1), col, rmin, cmin)
                    side = line_hits(gx, [outer], None, cmin, rmin, span=(row0, row1))
                    grown = (min(col0, col), max(col1, col + 1), row0, row1)
                    candidates.append((min(seams, side), grown))
                scores.append(seams + side)
            lean[0] = _lean(*scores)
        passing = [c for c in candidates if c[0] >= GROW_MIN_SHARE]
        if not passing:
            return (col0, col1, row0, row1), (lean[0], lean[1])
        col0, col1, row0, row1 = max(passing, key=lambda c: c[0])[1]
    return (col0, col1, row0, row1), (0, 0)


def _lean(before: float, after: float) -> int:
    """-1 if the side before shows clearly more tile edges (seams + outer side, 0-2), +1 if the
    side after does, else 0."""
    if abs(before - after) < LEAN_MIN_DIFFERENCE:
        return 0
    return -1 if before > after else 1


def _inside_photo(cells, to_photo: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether the cells (col0, col1, row0, row1) lie wholly inside the photo, GROW_CLEARANCE
    of a cell from its edge (a row cut by the edge is no row to grow over)."""
    c0, c1, r0, r1 = cells
    c0, r0, c1, r1 = (
        c0 - GROW_CLEARANCE,
        r0 - GROW_CLEARANCE,
        c1 + GROW_CLEARANCE,
        r1 + GROW_CLEARANCE,
    )
    photo = lattice_to_image(np.array([[c0, r0], [c1, r0], [c1, r1], [c0, r1]]), to_photo)
    h, w = shape
    return bool(
        (photo >= 1).all() and (photo[:, 0] <= w - 2).all() and (photo[:, 1] <= h - 2).all()
    )


def _spare_before(spare: int, lean: int) -> int:
    """Of ``spare`` cells of frame beyond the tiles, how many go before them (left / top): half,
    and an odd one before only if that side shows more tile edges (``lean`` -1)."""
    if spare > 0 and spare % 2 and lean < 0:
        return spare // 2 + 1
    return spare // 2


def _fullest_window(
    counts: np.ndarray, pad: int, start: int, stop: int, size: int, chosen: int
) -> int:
    """Where a ``size``-cell frame starts along lattice cells [start, stop) when that is longer
    than it: at the window holding the most tiles (``counts[i + pad]``: tiles in lattice row or
    column i), the one nearest ``chosen`` among equals. A glare spot or a box beside a kingdom
    can add a row of "tiles" to the mask; a whole row of real tiles outweighs it."""
    if stop - start <= size:
        return chosen

    def held(first: int) -> float:
        cells = np.arange(first, first + size) + pad
        return float(counts[cells[(cells >= 0) & (cells < len(counts))]].sum())

    starts = range(start, stop - size + 1)
    return max(starts, key=lambda first: (held(first), -abs(first - chosen)))


# A kingdom whose frame ends in front of the photo's edge, with its tile seams running on into
# the strip the edge cuts, has tiles beyond the frame: it is cut, however whole its frame looks.
PAST_EDGE_MIN_SHARE = 0.7
PAST_EDGE_MIN_VISIBLE = 0.25  # of a cell: the least of a cut strip that must show to judge it
# How far past the frame (in cells) an edge on a seam's line may come from the kingdom's own
# tiles (a last-row tile laid a little lower, a tile's side face), and how much of the strip
# beyond that must show for the seam to be asked to run on there.
PAST_EDGE_NEAR = 0.3
PAST_EDGE_FAR_VISIBLE = 0.1


def _seam_at(columns: np.ndarray, half: int, P: int) -> bool:
    """Whether the (rows, 2 * half + 1) gradient ``columns`` across a seam's line peak on it
    (within a tenth of a cell) clearly enough."""
    found = strongest_peaks(columns.sum(axis=0)[None, :])[0]
    return bool(found) and abs(found[0] - half) <= 0.1 * P and found[1] >= 1.5


# The seen part of such a strip must stand out from the table this much: a checked cloth's
# squares and dots can line up with the seams by chance (development scenes 9348, 9966).
PAST_EDGE_MIN_STANDING_OUT = 0.4


def tiles_past_edge(
    small: np.ndarray,
    frame: np.ndarray,
    size: int,
    stands_out: Callable[[], np.ndarray] | None = None,
) -> bool:
    """Whether tile seams continue past a side of the N×N ``frame`` (``small`` pixels) into the
    row or column beyond it that the photo's edge cuts.

    A kingdom cut by the photo's edge less than a cell beyond its tiles fits a whole N×N frame
    inside the photo (a 7×7 cut two rows short fits a 5×5 one); the cells past that frame's side
    are not whole in the photo, so the lattice growth never looks at them. Their seams (the
    lattice lines between them) still show in the part that is in the photo. ``stands_out``
    gives, when asked, a mask (uint8, ``small``'s shape) of what is not table: such a strip must
    then stand out from the table too.
    """
    P, margin = LATTICE_PX, LATTICE_PX // 2
    cells = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    # Lattice pixels with one more cell all round: cell (c, r) starts at margin + (c + 1) * P.
    target = (cells + 1) * P + margin
    to_view = cv2.getPerspectiveTransform(frame.astype(np.float32), target)
    side = (size + 2) * P + 2 * margin
    view = cv2.warpPerspective(
        small, to_view, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    photo = np.full(small.shape[:2], 255, np.uint8)
    seen = cv2.warpPerspective(photo, to_view, (side, side), flags=cv2.INTER_NEAREST) > 0
    gx, gy = gradient_images(view)
    half, trim = int(0.25 * P), int(round(0.1 * P))
    # Each side's strip: (gradient across the seams with rows along them, seen likewise, the
    # strip's first pixel along the seams).
    strips = (
        (gx, seen, margin, False),  # top: row -1, seams vertical
        (gx, seen, margin + (size + 1) * P, False),  # bottom: row N
        (gy.T, seen.T, margin, True),  # left: column -1, seams horizontal
        (gy.T, seen.T, margin + (size + 1) * P, True),  # right: column N
    )
    for grad, inside, start, transposed in strips:
        band = slice(start + trim, start + P - trim)
        along = inside[band, margin + P : margin + (size + 1) * P]
        if along.all() or not along.any():
            continue  # a whole strip is the lattice growth's to judge; none is nothing to see
        hits = total = 0
        for line in range(1, size):
            centre = margin + (line + 1) * P
            visible = inside[band, centre]
            if visible.sum() < PAST_EDGE_MIN_VISIBLE * P:
                continue
            columns = grad[band, centre - half : centre + half + 1]
            total += 1
            if not _seam_at(columns[visible], half, P):
                continue
            # Where the photo shows the strip deep enough, the seam must run on into its far
            # part too: a tile of the kingdom's own last row that ends a little lower than its
            # neighbours (dominoes laid off the lattice, kd_czech_04 in ../shared tilted) puts
            # an edge on the seam's line just past the frame, and so does a tile's side face
            # seen from a low camera; a row beyond the frame carries its seam across.
            far = visible & (np.arange(band.start, band.stop) >= start + PAST_EDGE_NEAR * P)
            if far.sum() >= PAST_EDGE_FAR_VISIBLE * P and not _seam_at(columns[far], half, P):
                continue
            hits += 1
        if total >= 2 and hits >= PAST_EDGE_MIN_SHARE * total:
            if stands_out is None:
                return True
            # Asked only here: the mask may cost a second table model.
            mask = cv2.warpPerspective(stands_out(), to_view, (side, side), flags=cv2.INTER_NEAREST)
            if transposed:
                mask = mask.T
            strip = mask[band, margin + P : margin + (size + 1) * P][along]
            if strip.mean() >= PAST_EDGE_MIN_STANDING_OUT * 255:
                return True
    return False
