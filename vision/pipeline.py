"""From an image file (or bytes, or an array) to a read kingdom: the one entry point for images.

    reading = read_image("kingdom.jpg")            # size 5 or 7 found automatically
    reading = read_image(data, size=7)             # bytes from an upload
    reading = read_image(photo, corners=[...])     # the user tapped the four corners

Stages, one per module:
    decode (``load_image`` here) → straighten (``straighten`` here; finding the board in a raw
    photo is ``vision.find_board``, part 2) → read cells (``vision.cells``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scoring.board import SIZES, Board
from vision.cells import CellReadings, read_board_image

# Straightened boards from given corners get this many pixels per cell (the aau-boards scale).
STRAIGHT_CELL_PX = 100

ImageSource = str | Path | bytes | np.ndarray


class ImageError(ValueError):
    """The input is not an image we can read; the message names it and says why."""


@dataclass(frozen=True)
class Reading:
    """A read kingdom: the straightened board image, the cell readings and the board."""

    source: str  # file name, or "<bytes>" / "<array>"
    board_image: np.ndarray  # (H, W, 3) BGR uint8, the kingdom filling the frame
    cells: CellReadings
    warnings: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.cells.size

    @property
    def board(self) -> Board:
        return self.cells.board

    def to_json(self) -> dict:
        """``file``, ``size``, ``grid`` (board-text rows) and ``cells``, as the CLI prints them."""
        return {
            "file": self.source,
            "size": self.size,
            "grid": self.board.rows_text(),
            "cells": self.cells.cells_json(),
            "warnings": list(self.warnings),
        }


def load_image(source: ImageSource) -> np.ndarray:
    """Decode a file, bytes or an array into an HxWx3 BGR uint8 image, or raise ``ImageError``."""
    if isinstance(source, np.ndarray):
        image = source
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.ndim == 3 and image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ImageError(f"<array>: expected an HxWx3 uint8 image, got {source.shape}")
        return image
    name = describe(source)
    if isinstance(source, bytes):
        data = source
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as err:
            raise ImageError(f"{name}: cannot open ({err.strerror or err})") from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if image is None:
        raise ImageError(f"{name}: not a readable image")
    return image


def describe(source: ImageSource) -> str:
    if isinstance(source, bytes):
        return "<bytes>"
    if isinstance(source, np.ndarray):
        return "<array>"
    return str(source)


def straighten(
    image: np.ndarray, size: int | None, corners: Sequence[Sequence[float]] | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """The kingdom as a top-down image that it fills, and any warnings.

    With ``corners`` (top-left, top-right, bottom-right, bottom-left, (x, y) in image pixels) the
    quadrilateral is warped flat. Without them the image is taken to be straightened already.
    Part 2 plugs in here: ``vision.find_board`` searches raw photos for the kingdom (and
    recognises an already-straightened board) before falling back to the whole image.
    """
    if corners is not None:
        quad = np.asarray(corners, dtype=np.float32)
        if quad.shape != (4, 2):
            raise ValueError(f"corners must be four (x, y) points, got shape {quad.shape}")
        side = (size or max(SIZES)) * STRAIGHT_CELL_PX
        target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
        homography = cv2.getPerspectiveTransform(quad, target)
        return cv2.warpPerspective(image, homography, (side, side), flags=cv2.INTER_AREA), ()
    # Part 2: board finding in raw photos is called here, e.g.
    #     found = find_board(image, size); return found.board_image, found.warnings
    return image, ()


def read_image(
    source: ImageSource,
    size: int | None = None,
    corners: Sequence[Sequence[float]] | None = None,
) -> Reading:
    """Read a kingdom from an image. ``size`` 5 or 7 (found when None); ``corners`` skip search.

    Raises ``ImageError`` for anything that is not a readable image.
    """
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size!r}")
    image = load_image(source)
    board_image, warnings = straighten(image, size, corners)
    try:
        cells = read_board_image(board_image, size)
    except ValueError as err:
        raise ImageError(f"{describe(source)}: {err}") from None
    return Reading(describe(source), board_image, cells, warnings)
