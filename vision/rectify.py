"""Stage 2: from a located kingdom to its straightened image, its cell grid and an overlay.

All three use ``BoardLocation.homography``, which maps photo pixels to board units (cells).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.find import BoardLocation

DEFAULT_PX_PER_CELL = 100


def straighten(
    image: np.ndarray, location: BoardLocation, px_per_cell: int = DEFAULT_PX_PER_CELL
) -> np.ndarray:
    """The N×N board seen from straight above: (N·px_per_cell)² × 3 BGR, row 0 on top.

    Parts of the frame outside the photo come out black (the cell reader sees them as empty).
    """
    side = location.size * px_per_cell
    to_pixels = np.diag([px_per_cell, px_per_cell, 1.0]) @ location.homography
    source, pre_scale = shrunk_for_warp(image, _photo_px_per_cell(location), px_per_cell)
    to_pixels = to_pixels @ np.diag([1 / pre_scale, 1 / pre_scale, 1.0])
    board = cv2.warpPerspective(
        source, to_pixels, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    assert board.shape == (side, side, 3)
    return board


def shrunk_for_warp(
    image: np.ndarray, photo_px_per_cell: float, px_per_cell: int
) -> tuple[np.ndarray, float]:
    """The photo to warp from and its scale: shrunk when it is much finer than the target.

    INTER_AREA is not supported by warpPerspective; shrinking first keeps the straightened
    cells from being aliased.
    """
    if photo_px_per_cell <= 2.5 * px_per_cell:
        return image, 1.0
    scale = 2.0 * px_per_cell / photo_px_per_cell
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def cell_grid(location: BoardLocation) -> np.ndarray:
    """Cell polygons in photo pixels: (N, N, 4, 2), corners TL, TR, BR, BL of cell [row, col]."""
    n = location.size
    lattice = np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1)), axis=-1).astype(np.float64)
    photo = _to_photo(location, lattice.reshape(-1, 2)).reshape(n + 1, n + 1, 2)
    cells = np.stack(
        [photo[:-1, :-1], photo[:-1, 1:], photo[1:, 1:], photo[1:, :-1]], axis=2
    )  # index [row, col, corner]
    assert cells.shape == (n, n, 4, 2)
    return cells


def draw_overlay(
    image: np.ndarray, location: BoardLocation, colour: tuple[int, int, int] = (0, 0, 255)
) -> np.ndarray:
    """A copy of the photo with the N×N grid drawn on it (frame thicker), for checking by eye."""
    overlay = image.copy()
    n = location.size
    thickness = max(1, round(max(image.shape[:2]) / 500))
    for i in range(n + 1):
        width = thickness * 2 if i in (0, n) else thickness
        for start, end in (((i, 0), (i, n)), ((0, i), (n, i))):
            # Draw as a polyline through every lattice point so lines stay on the photo.
            points = np.linspace(start, end, n + 1)
            photo = _to_photo(location, points)
            cv2.polylines(
                overlay, [np.round(photo).astype(np.int32)], False, colour, width, cv2.LINE_AA
            )
    corner = np.round(location.corners[0]).astype(int)
    cv2.circle(overlay, tuple(int(v) for v in corner), thickness * 5, (255, 255, 0), -1)
    return overlay


def _to_photo(location: BoardLocation, board_points: np.ndarray) -> np.ndarray:
    """Board units (x = column, y = row) to photo pixels."""
    to_photo = np.linalg.inv(location.homography)
    points = np.asarray(board_points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(points, to_photo).reshape(-1, 2)


def _photo_px_per_cell(location: BoardLocation) -> float:
    corners = location.corners
    sides = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
    return float(np.mean(sides)) / location.size
