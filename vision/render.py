"""Draw a board as a picture.

The result shows a kingdom entered by hand (with no photo to annotate) as this drawing: one flat
terrain colour per cell, small crown icons, a letter for those who cannot tell the colours apart,
and a marked frame around the cells the reader was unsure of (the browser's board editor draws
the same colours, from ``vision.palette``). Images are BGR
``uint8`` arrays like the rest of ``vision`` (OpenCV's order); ``cv2.imencode`` and
``st.image(..., channels="BGR")`` take them as they are.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import cv2
import numpy as np

from scoring import Board, Terrain
from vision.palette import (
    CROWN_EDGE,
    CROWN_FILL,
    DARK_TERRAINS,
    GRID_LINE,
    TERRAIN_COLOURS,
    UNCERTAIN_MARK,
)

DEFAULT_CELL_PX = 96


def render_board(
    board: Board,
    cell_px: int = DEFAULT_CELL_PX,
    uncertain: Collection[tuple[int, int]] = (),
) -> np.ndarray:
    """The board as an image of ``size * cell_px`` pixels square; ``uncertain`` cells framed."""
    size = board.size
    image = np.empty((size * cell_px, size * cell_px, 3), np.uint8)
    for row, col, cell in board.iter_cells():
        top, left = row * cell_px, col * cell_px
        tile = image[top : top + cell_px, left : left + cell_px]
        tile[:] = TERRAIN_COLOURS[cell.terrain]
        if cell.terrain is Terrain.EMPTY:
            _hatch(tile)
        elif cell.terrain is Terrain.CASTLE:
            _castle(tile)
        for index in range(cell.crowns):
            _crown(tile, index)
        if cell.terrain.is_land:
            _letter(tile, cell.terrain.letter, dark_background=cell.terrain in DARK_TERRAINS)
    for i in range(size + 1):
        edge = min(i * cell_px, size * cell_px - 1)
        cv2.line(image, (edge, 0), (edge, size * cell_px - 1), GRID_LINE, 2)
        cv2.line(image, (0, edge), (size * cell_px - 1, edge), GRID_LINE, 2)
    for row, col in uncertain:
        _mark_uncertain(image, row, col, cell_px)
    return image


def _crown(tile: np.ndarray, index: int) -> None:
    """The index-th crown icon along the top edge of a cell: a three-pointed band."""
    px = tile.shape[0]
    w = px // 5
    h = int(w * 0.8)
    left = px // 12 + index * (w + px // 20)
    top = px // 12
    points = np.array(
        [
            (left, top + h),
            (left, top),
            (left + w // 4, top + h // 2),
            (left + w // 2, top),
            (left + 3 * w // 4, top + h // 2),
            (left + w, top),
            (left + w, top + h),
        ],
        np.int32,
    )
    cv2.fillPoly(tile, [points], CROWN_FILL, lineType=cv2.LINE_AA)
    cv2.polylines(tile, [points], True, CROWN_EDGE, max(1, px // 48), lineType=cv2.LINE_AA)


def _letter(tile: np.ndarray, letter: str, dark_background: bool) -> None:
    px = tile.shape[0]
    scale = px / 110
    colour = (235, 235, 235) if dark_background else (40, 40, 40)
    (w, h), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    origin = (px - w - px // 10, px - px // 10)
    cv2.putText(
        tile, letter, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2, lineType=cv2.LINE_AA
    )


def _castle(tile: np.ndarray) -> None:
    """A simple keep with battlements, so the start tile reads as a castle at a glance."""
    px = tile.shape[0]
    left, right = px * 3 // 10, px * 7 // 10
    top, bottom = px * 3 // 10, px * 8 // 10
    cv2.rectangle(tile, (left, top), (right, bottom), (150, 140, 130), -1)
    step = (right - left) // 5
    for i in (0, 2, 4):
        x = left + i * step
        cv2.rectangle(tile, (x, top - step), (x + step, top), (150, 140, 130), -1)
    door = step // 2 + 1
    mid = (left + right) // 2
    cv2.rectangle(tile, (mid - door, bottom - 2 * step), (mid + door, bottom), (90, 80, 70), -1)


def _hatch(tile: np.ndarray) -> None:
    """Thin diagonal lines: a hole shows the table, not a terrain."""
    px = tile.shape[0]
    for offset in range(-px, px, max(6, px // 8)):
        cv2.line(tile, (offset, px), (offset + px, 0), (200, 205, 210), 1, lineType=cv2.LINE_AA)


def _mark_uncertain(image: np.ndarray, row: int, col: int, cell_px: int) -> None:
    inset = max(3, cell_px // 16)
    thickness = max(3, cell_px // 20)
    top_left = (col * cell_px + inset, row * cell_px + inset)
    bottom_right = ((col + 1) * cell_px - inset, (row + 1) * cell_px - inset)
    cv2.rectangle(image, top_left, bottom_right, UNCERTAIN_MARK, thickness)
    scale = cell_px / 80
    origin = (col * cell_px + cell_px // 2 - int(10 * scale), row * cell_px + cell_px * 2 // 3)
    cv2.putText(image, "?", origin, cv2.FONT_HERSHEY_DUPLEX, scale, UNCERTAIN_MARK, 2, cv2.LINE_AA)


def mark_points(image: np.ndarray, points: Sequence[tuple[float, float]]) -> np.ndarray:
    """A copy of a photo with numbered dots at ``points`` (x, y): the corners tapped so far."""
    out = image.copy()
    radius = max(6, max(image.shape[:2]) // 80)
    for number, (x, y) in enumerate(points, start=1):
        centre = (round(x), round(y))
        cv2.circle(out, centre, radius, (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(out, centre, radius, UNCERTAIN_MARK, max(2, radius // 3), cv2.LINE_AA)
        cv2.putText(
            out,
            str(number),
            (centre[0] + radius + 2, centre[1] - radius),
            cv2.FONT_HERSHEY_DUPLEX,
            radius / 12,
            UNCERTAIN_MARK,
            max(1, radius // 6),
            cv2.LINE_AA,
        )
    return out
