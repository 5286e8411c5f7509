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
    finer = _photo_px_per_cell(location) / px_per_cell
    board = warp_at_scale(image, to_pixels, (side, side), finer)
    assert board.shape == (side, side, 3)
    return board


# A view is made from the photo as it is while the photo is at most this much finer than it;
# past that, the part of the photo the view needs is first shrunk to the view's own scale.
WARP_FINER_MAX = 1.25


def warp_at_scale(
    image: np.ndarray,
    to_view: np.ndarray,
    view_size: tuple[int, int],
    finer: float,
    flags: int = cv2.INTER_LINEAR,
    border: int = cv2.BORDER_CONSTANT,
) -> np.ndarray:
    """``cv2.warpPerspective(image, to_view, view_size)`` made at the view's own scale.

    ``finer``: photo pixels per view pixel (about; a tilted kingdom's near side is finer than
    its far side). Warping samples, it does not average: from a photo several times finer than
    the view it aliases, the more the finer the photo, so one kingdom would look different in a
    12 MP photo, the same photo halved, and a video frame. So, past ``WARP_FINER_MAX``, the part
    of the photo the view covers is shrunk (``INTER_AREA``) to the view's scale first: each
    view then depends on the kingdom, not on how many pixels the phone took.
    """
    source = _view_source(image.shape[:2], to_view, view_size, finer)
    if source is None:
        return cv2.warpPerspective(image, to_view, view_size, flags=flags, borderMode=border)
    (x0, y0, x1, y1), shrunk_size, from_shrunk = source
    shrunk = cv2.resize(image[y0:y1, x0:x1], shrunk_size, interpolation=cv2.INTER_AREA)
    return cv2.warpPerspective(
        shrunk, to_view @ from_shrunk, view_size, flags=flags, borderMode=border
    )


def photo_in_view(
    image_shape: tuple[int, ...], to_view: np.ndarray, view_size: tuple[int, int], finer: float
) -> np.ndarray:
    """(H, W) uint8 of the view ``warp_at_scale`` makes: 255 where it shows the photo, 0 past
    its edge. The same as warping an all-255 image, without shrinking one the photo's size."""
    source = _view_source(image_shape[:2], to_view, view_size, finer)
    if source is None:
        ones, transform = np.full(image_shape[:2], 255, np.uint8), to_view
    else:
        _, (width, height), from_shrunk = source
        ones, transform = np.full((height, width), 255, np.uint8), to_view @ from_shrunk
    return cv2.warpPerspective(
        ones, transform, view_size, flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT
    )


def _view_source(
    image_shape: tuple[int, int], to_view: np.ndarray, view_size: tuple[int, int], finer: float
) -> tuple[tuple[int, int, int, int], tuple[int, int], np.ndarray] | None:
    """What ``warp_at_scale`` shrinks: the box (x0, y0, x1, y1) of the photo the view covers,
    the (width, height) it is shrunk to and the map from shrunk to photo pixels; None when the
    photo is warped as it is."""
    if finer <= WARP_FINER_MAX:
        return None
    w, h = view_size
    outline = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    photo = cv2.perspectiveTransform(outline, np.linalg.inv(to_view))[0]
    height, width = image_shape
    x0, y0 = np.clip(np.floor(photo.min(axis=0)).astype(int) - 2, 0, [width, height])
    x1, y1 = np.clip(np.ceil(photo.max(axis=0)).astype(int) + 3, 0, [width, height])
    if x1 - x0 < 2 or y1 - y0 < 2:  # the view lies outside the photo
        return None
    shrunk_size = (max(1, round((x1 - x0) / finer)), max(1, round((y1 - y0) / finer)))
    sx, sy = shrunk_size[0] / (x1 - x0), shrunk_size[1] / (y1 - y0)
    from_shrunk = np.array([[1 / sx, 0, x0], [0, 1 / sy, y0], [0, 0, 1.0]])
    return (int(x0), int(y0), int(x1), int(y1)), shrunk_size, from_shrunk


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
    return photo_px_per_cell(location.homography, location.size)


def photo_px_per_cell(homography: np.ndarray, size: int) -> float:
    """The kingdom's mean cell side in photo pixels; ``homography`` maps photo pixels to cells."""
    square = np.array([[[0, 0], [size, 0], [size, size], [0, size]]], np.float64)
    corners = cv2.perspectiveTransform(square, np.linalg.inv(homography))[0]
    sides = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
    return float(np.mean(sides)) / size
