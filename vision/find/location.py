"""Where a kingdom is: ``BoardLocation`` (corners, size, homography) and moving its frame.

Board orientation: row 0 is the side nearest the top of the photo, so cell labels are "as seen".
The homography maps photo pixels to board units (one unit = one cell, origin at the frame's
top-left corner).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from scoring.words import msg
from vision.load_image import ImageError

SIZES = (5, 7)


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
    # (N, N) how much each cell looks like the table around the frame
    # (``vision.holes.table_likeness``), when the finder measured it for this very frame; the
    # reader judges holes with it instead of measuring again. None: not measured.
    table_likeness: np.ndarray | None = field(default=None, compare=False, repr=False)

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
        if self.table_likeness is not None:
            likeness = np.array(self.table_likeness, dtype=np.float64)
            if likeness.shape != (self.size, self.size):
                raise ValueError(f"table_likeness must be {self.size}×{self.size}")
            likeness.flags.writeable = False
            object.__setattr__(self, "table_likeness", likeness)


def location_from_corners(
    corners: np.ndarray, size: int, warnings: tuple[str, ...] = (), **extra
) -> BoardLocation:
    """The location for a frame with these photo corners (TL, TR, BR, BL) and size."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    board = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float64)
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), board.astype(np.float32))
    return BoardLocation(corners, size, homography, warnings, **extra)


def cell_centres(location: BoardLocation) -> np.ndarray:
    """(N, N, 2): each cell's centre in photo pixels (x, y)."""
    n = location.size
    centres = np.array([[c + 0.5, r + 0.5] for r in range(n) for c in range(n)], np.float64)
    to_photo = np.linalg.inv(location.homography)
    return cv2.perspectiveTransform(centres.reshape(-1, 1, 2), to_photo).reshape(n, n, 2)


def cells_in_photo(location: BoardLocation) -> np.ndarray:
    """(N, N) bool: whether each cell's centre lies in the photo (``location.image_shape``)."""
    x, y = np.moveaxis(cell_centres(location), -1, 0)
    h, w = location.image_shape
    return (x >= 0) & (x < w) & (y >= 0) & (y < h)


def inside_frame(points: np.ndarray, location: BoardLocation) -> np.ndarray:
    """(...) bool: whether each photo point (..., 2) lies inside ``location``'s frame."""
    board = cv2.perspectiveTransform(
        np.asarray(points, np.float64).reshape(-1, 1, 2), location.homography
    ).reshape(*np.shape(points))
    n = location.size
    return ((board >= 0) & (board <= n)).all(axis=-1)


def shift_frame(
    location: BoardLocation, down: int, right: int, size: int | None = None
) -> BoardLocation:
    """The same lattice with its frame moved ``down`` rows and ``right`` columns, and made
    ``size``×``size`` (by default the frame's own size); the tile span is clipped to it."""
    n = location.size if size is None else size
    board = np.array(
        [[right, down], [right + n, down], [right + n, down + n], [right, down + n]], float
    )
    to_photo = np.linalg.inv(location.homography)
    corners = cv2.perspectiveTransform(board.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    span = location.tile_span
    if span is not None:
        row0, row1, col0, col1 = span
        span = (
            max(row0 - down, 0),
            min(row1 - down, n),
            max(col0 - right, 0),
            min(col1 - right, n),
        )
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


def over_strip_beyond(
    location: BoardLocation, move: tuple[int, int], others: Sequence[BoardLocation] = ()
) -> BoardLocation | None:
    """The frame moved one cell by ``move`` (rows down, columns right; one of them ±1) over the
    strip of cells just past its far side, or None when that cannot hold left-out tiles.

    For a frame with a side that reads as table (``vision.holes.open_sides``): tiles that look
    like the table may lie past the other side, left out by the finder (which may even have
    taken the table's stripes for tile edges on the dropped side). The moved frame takes the
    strip in its span, for the reader to say whether it holds tiles. None when the span is
    unknown (the caller's corners: the user said where the kingdom is), or the strip is not in
    the photo or lies in another kingdom's frame (``others``, found in the same photo).
    """
    span = location.tile_span
    down, right = move
    if span is None or abs(down) + abs(right) != 1:
        return None
    n = location.size
    moved = shift_frame(location, down, right)
    row0, row1, col0, col1 = moved.tile_span
    strip = {(1, 0): (row0, n, col0, col1), (-1, 0): (0, row1, col0, col1)}
    strip |= {(0, 1): (row0, row1, col0, n), (0, -1): (row0, row1, 0, col1)}
    moved = replace(moved, tile_span=strip[move])
    strip = strip_cells(moved.size, move)
    if not cells_in_photo(moved)[strip].all():
        return None
    centres = cell_centres(moved)[strip]
    if any(inside_frame(centres, other).any() for other in others):
        return None
    return moved


def strip_cells(size: int, move: tuple[int, int]) -> tuple[slice, slice]:
    """Index of the strip a frame moved by ``move`` (see ``over_strip_beyond``) newly covers."""
    edge = {(1, 0): (-1, None), (-1, 0): (0, 1), (0, 1): (-1, None), (0, -1): (0, 1)}[move]
    whole = slice(None)
    return (slice(*edge), whole) if move[1] == 0 else (whole, slice(*edge))


def check_image(image: np.ndarray) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise TypeError("image must be a uint8 numpy array (BGR)")
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be H×W×3 BGR, got shape {image.shape}")
    if min(image.shape[:2]) < 32:
        raise NoBoardFound(
            msg(
                "no kingdom found: the image is too small ({size} pixels); take a photo of the "
                "whole kingdom from above",
                size=f"{image.shape[1]}×{image.shape[0]}",
            )
        )


def is_quad(corners: np.ndarray) -> bool:
    """Four finite corners enclosing a convex area of at least 16×16 pixels."""
    if not np.isfinite(corners).all():
        return False
    quad = corners.astype(np.float32).reshape(4, 1, 2)
    return bool(cv2.contourArea(quad) >= 256 and cv2.isContourConvex(quad))


def order_corners(corners: np.ndarray) -> np.ndarray:
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
