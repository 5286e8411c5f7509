"""Corners given by the user (taps in the app, ``--corners`` in the CLI), checked before use.

``check_corners`` is the one entry point: four finite points inside the image (with a small
margin for a tap on the very edge), in convex position (a real quadrilateral, in any order) and
covering a reasonable part of the image. Anything else raises ``CornersError`` saying what to do,
so a NaN, four equal points or a one-pixel square never reach the homography.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring.words import msg
from vision.load_image import ImageError

# A tap may land a little outside the photo (on its border, or a finger's width off).
MARGIN = 0.02  # of the image's longer side
MIN_AREA = 0.01  # of the image's area: a 5×5 kingdom smaller than this has cells of a few pixels


class CornersError(ImageError):
    """Corners that cannot outline a kingdom; the message says why and what to do."""


_NOT_FOUR_PAIRS = msg(
    "the corners must be four x,y pairs of numbers; give the kingdom's four outer corners again"
)


def check_corners(corners: object, image_shape: Sequence[int]) -> np.ndarray:
    """``corners`` as a (4, 2) float64 array of (x, y) pixels, or ``CornersError``."""
    height, width = int(image_shape[0]), int(image_shape[1])
    try:
        points = np.array(corners, dtype=np.float64)
    except (TypeError, ValueError):
        raise CornersError(_NOT_FOUR_PAIRS) from None
    if points.shape != (4, 2):
        raise CornersError(_NOT_FOUR_PAIRS)
    if not np.isfinite(points).all():
        raise CornersError(
            msg(
                "a corner is not a finite number (NaN or infinity); give the kingdom's four "
                "outer corners again"
            )
        )
    margin = MARGIN * max(width, height)
    for x, y in points:
        if not (-margin <= x <= width + margin and -margin <= y <= height + margin):
            raise CornersError(
                msg(
                    "the corner ({x}, {y}) lies outside the {size} image; give corners inside it, "
                    "in the image's own pixels",
                    x=f"{x:g}",
                    y=f"{y:g}",
                    size=f"{width}×{height}",
                )
            )
    polygon = _around_centre(points)
    edges = np.roll(polygon, -1, axis=0) - polygon
    turns = edges[:, 0] * np.roll(edges[:, 1], -1) - edges[:, 1] * np.roll(edges[:, 0], -1)
    area = (
        abs(
            float(
                np.sum(
                    polygon[:, 0] * np.roll(polygon[:, 1], -1)
                    - polygon[:, 1] * np.roll(polygon[:, 0], -1)
                )
            )
        )
        / 2
    )
    if area < MIN_AREA * width * height:
        raise CornersError(
            msg(
                "the corners enclose {share} of the image, too little for a kingdom; give the "
                "kingdom's four outer corners again",
                share=f"{area / (width * height):.2%}",
            )
        )
    # All turns the same way: a convex quadrilateral. Tiny turns are three points on a line.
    scale = max(float(np.abs(edges).max()), 1.0) ** 2
    if not (np.all(turns > 1e-3 * scale) or np.all(turns < -1e-3 * scale)):
        raise CornersError(
            msg(
                "the corners do not outline a four-sided shape (one lies inside the others or "
                "three are on a line); give the kingdom's four outer corners again"
            )
        )
    return points


def _around_centre(points: np.ndarray) -> np.ndarray:
    """The points in the order of their angle around their centre (any given order works)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    return points[np.argsort(angles, kind="stable")]
