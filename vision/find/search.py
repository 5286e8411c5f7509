"""Find the kingdom in a photo: the stages of ``vision.find`` run in order.

straightened already? → table model → tile blobs → candidate quadrilaterals → lattice fit per
candidate, best kept → homography refit on tile edges → N×N frame → kingdom decision.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.find.decision import tiles_seen
from vision.find.lattice import fit_lattice, gradient_images, size_inside, straightened_size
from vision.find.location import (
    SIZES,
    BoardLocation,
    NoBoardFound,
    check_image,
    is_quad,
    location_from_corners,
    order_corners,
)
from vision.find.regions import initial_quads
from vision.find.table import kingdom_mask

# Working resolution for the search: enough for 0.05-cell accuracy on a kingdom that fills a
# third of the frame, small enough for a few tens of milliseconds per stage.
WORK_LONG_SIDE = 800


def find_board(
    image: np.ndarray, size: int | None = None, corners: np.ndarray | None = None
) -> BoardLocation:
    """Locate the kingdom in a BGR photo. ``size`` forces 5 or 7; ``corners`` skips the search.

    Raises ``NoBoardFound`` when there is no kingdom to be seen.
    """
    check_image(image)
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
        corners = order_corners(corners.reshape(4, 2))
        if size is None and is_quad(corners):
            size = size_inside(image, corners)
        if not is_quad(corners) or not tiles_seen(image, corners, size):
            raise NoBoardFound(
                "no kingdom found: the corners given enclose no grid of tiles; tap the four outer"
                " corners of the kingdom"
            )
        return location_from_corners(corners, size, image_shape=shape)

    scale = min(1.0, WORK_LONG_SIDE / max(shape))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gradients = gradient_images(small)

    straight_size = straightened_size(gradients)
    h, w = shape
    full = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    if straight_size is not None and tiles_seen(small, full * scale, size or straight_size):
        return location_from_corners(
            full, size or straight_size, straightened=True, image_shape=shape
        )

    mask, warnings, not_found = None, (), None
    try:
        mask, warnings = kingdom_mask(small)
    except NoBoardFound as err:
        not_found = err
    about_square = 0.8 <= w / h <= 1.25
    if about_square and (mask is None or mask.mean() > 0.8 * 255):
        # No table to be seen around it: a tightly cropped, already straightened board, if the
        # whole image shows a lattice of tiles (a blank or noisy image does not).
        found = size or size_inside(small, full * scale)
        if tiles_seen(small, full * scale, found):
            return location_from_corners(full, found, straightened=True, image_shape=shape)
        raise NoBoardFound(
            "no kingdom found: the image shows no grid of tiles; take a photo of the whole"
            " kingdom from above"
        )
    if not_found is not None:
        raise not_found
    frame, size, tile_span, lattice_warnings = fit_lattice(small, mask, initial_quads(mask), size)
    if not tiles_seen(small, frame, size):
        raise NoBoardFound(
            "no kingdom found: something stands out from the table, but it does not look like"
            " different tiles on a grid; take the photo from above, or tap the kingdom's corners"
        )
    return location_from_corners(
        frame / scale, size, warnings + lattice_warnings, image_shape=shape, tile_span=tile_span
    )
