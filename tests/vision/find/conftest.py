"""Tables with aau boards laid on them, for the finder's tests."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.synth import _background


@pytest.fixture(scope="session")
def aau_board(shared_dir):
    """Straightened aau board images by number (500×500, 100 px per cell)."""
    images = shared_dir / "datasets" / "aau-boards" / "images"
    return lambda number: cv2.imread(str(images / f"{number}.jpg"))


def lay(table: np.ndarray, board: np.ndarray, x: int, y: int) -> None:
    """Put ``board`` on ``table`` with its top-left corner at (x, y), clipped at the edges."""
    h, w = board.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(table.shape[1], x + w), min(table.shape[0], y + h)
    table[y0:y1, x0:x1] = board[y0 - y : y1 - y, x0 - x : x1 - x]


def table(kind: str = "carpet", height: int = 1200, width: int = 1600, seed: int = 3):
    return (
        _background(np.random.default_rng(seed), kind, height, width).clip(0, 255).astype(np.uint8)
    )


def draw_tiles(
    image: np.ndarray, columns: int, rows: int, x: int, y: int, pitch: int, seed: int = 2
) -> None:
    """Tiles of random colours with seams of ``image``'s own colour, ``columns``×``rows`` from
    (x, y), ``pitch`` pixels apart."""
    colours = np.random.default_rng(seed).integers(0, 255, (rows, columns, 3))
    for r in range(rows):
        for c in range(columns):
            x0, y0 = x + pitch * c, y + pitch * r
            image[y0 + 2 : y0 + pitch - 2, x0 + 2 : x0 + pitch - 2] = colours[r, c]
