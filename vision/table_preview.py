"""The whole table's photo with each kingdom found outlined and numbered (1, 2, ...), so that the
players can say which kingdom is whose."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

OUTLINE_BGR = (255, 0, 255)  # magenta: stands out on wood, cloth and tiles alike


def number_kingdoms(
    image: np.ndarray, corners: Sequence[np.ndarray], long_side: int = 1200
) -> np.ndarray:
    """A copy of ``image`` (BGR), reduced to ``long_side``, with kingdom ``i + 1`` outlined by
    ``corners[i]`` ((4, 2) photo pixels, x then y) and its number written in the middle."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected an HxWx3 BGR image, got shape {image.shape}")
    scale = min(1.0, long_side / max(image.shape[:2]))
    out = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    thickness = max(2, round(max(out.shape[:2]) / 300))
    for number, quad in enumerate(corners, start=1):
        points = np.asarray(quad, dtype=np.float64).reshape(4, 2) * scale
        cv2.polylines(out, [np.round(points).astype(np.int32)], True, OUTLINE_BGR, thickness)
        side = float(np.linalg.norm(points[1] - points[0]))
        font_scale = max(0.8, side / 90)
        text = str(number)
        (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 3)
        centre = points.mean(axis=0)
        origin = (int(centre[0] - width / 2), int(centre[1] + height / 2))
        # A dark halo under the white number keeps it readable on any tile.
        cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), 3 * 4)
        cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, (255, 255, 255), 3)
    return out
