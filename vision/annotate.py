"""Outline every region of a scored kingdom in its own colour and label it with its points.

Works on any square picture of the kingdom whose cells form an even N×N grid: the straightened
photo from ``vision.pipeline`` or the drawing from ``vision.render``. BGR ``uint8`` in and out.
Also the preview of the grid found in a photo, for the user to check.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.score import Region, Score
from vision.find import BoardLocation
from vision.rectify import draw_overlay

# Distinct, saturated outline colours (BGR), used in turn; a dark under-stroke keeps each one
# visible on any terrain, photo or drawing.
REGION_COLOURS = (
    (0, 0, 230),
    (230, 120, 0),
    (0, 200, 255),
    (200, 0, 200),
    (0, 220, 0),
    (255, 255, 0),
    (0, 128, 255),
    (255, 0, 128),
    (128, 255, 128),
    (255, 128, 128),
    (128, 0, 0),
    (0, 128, 128),
)
OUTPUT_CELL_PX = 96


def annotate_regions(image: np.ndarray, score: Score, cell_px: int = OUTPUT_CELL_PX) -> np.ndarray:
    """A copy of ``image``, resized to ``cell_px`` per cell, with each region outlined and labelled.

    The outline runs a few pixels inside the region's edge, so two neighbouring regions show two
    separate lines; the label (its points) sits on the region's cell nearest its middle.
    """
    size = score.board.size
    side = size * cell_px
    out = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    inset = max(3, cell_px // 14)
    kernel = np.ones((2 * inset + 1, 2 * inset + 1), np.uint8)
    thickness = max(2, cell_px // 24)
    for index, region in enumerate(score.regions):
        colour = REGION_COLOURS[index % len(REGION_COLOURS)]
        mask = np.zeros((side, side), np.uint8)
        for row, col in region.cells:
            mask[row * cell_px : (row + 1) * cell_px, col * cell_px : (col + 1) * cell_px] = 255
        contours, _ = cv2.findContours(
            # A zero border so that regions on the kingdom's edge are inset from it too.
            cv2.erode(mask, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0),
            cv2.RETR_EXTERNAL,
            cv2.CHAIN_APPROX_SIMPLE,
        )
        cv2.drawContours(out, contours, -1, (20, 20, 20), thickness + 2, cv2.LINE_AA)
        cv2.drawContours(out, contours, -1, colour, thickness, cv2.LINE_AA)
        _label(out, region, colour, cell_px)
    return out


def label_cell(region: Region) -> tuple[int, int]:
    """The region's cell nearest its centre of mass (always a cell of the region)."""
    mean_row = sum(r for r, _ in region.cells) / region.size
    mean_col = sum(c for _, c in region.cells) / region.size
    return min(region.cells, key=lambda rc: (rc[0] - mean_row) ** 2 + (rc[1] - mean_col) ** 2)


def png_bytes(image: np.ndarray) -> bytes:
    """The image as a PNG file's bytes (for a download button)."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - only fails for malformed arrays
        raise ValueError("could not encode the image as PNG")
    return encoded.tobytes()


def jpeg_bytes(image: np.ndarray, quality: int = 85) -> bytes:
    """The image as a JPEG file's bytes (a straightened photo kept in the history)."""
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - only fails for malformed arrays
        raise ValueError("could not encode the image as JPEG")
    return encoded.tobytes()


def _label(out: np.ndarray, region: Region, colour: tuple[int, int, int], cell_px: int) -> None:
    row, col = label_cell(region)
    text = str(region.points)
    font, scale, weight = cv2.FONT_HERSHEY_DUPLEX, cell_px / 90, max(1, cell_px // 48)
    (w, h), baseline = cv2.getTextSize(text, font, scale, weight)
    centre_x, centre_y = col * cell_px + cell_px // 2, row * cell_px + cell_px // 2
    pad = max(3, cell_px // 20)
    top_left = (centre_x - w // 2 - pad, centre_y - h // 2 - pad)
    bottom_right = (centre_x + w // 2 + pad, centre_y + h // 2 + baseline + pad)
    cv2.rectangle(out, top_left, bottom_right, colour, -1)
    cv2.rectangle(out, top_left, bottom_right, (20, 20, 20), 1)
    text_colour = (0, 0, 0) if sum(colour) > 380 else (255, 255, 255)
    origin = (centre_x - w // 2, centre_y + h // 2)
    cv2.putText(out, text, origin, font, scale, text_colour, weight, cv2.LINE_AA)


def grid_preview(photo: np.ndarray, location: BoardLocation, long_side: int = 900) -> np.ndarray:
    """The photo with the grid the finder fitted drawn on it, shrunk to ``long_side`` to show."""
    overlay = draw_overlay(photo, location)
    scale = long_side / max(overlay.shape[:2])
    if scale >= 1:
        return overlay
    return cv2.resize(overlay, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
