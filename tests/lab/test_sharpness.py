"""The softness measure that compares synthetic lines with real cells (``lab.sharpness``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.sharpness import board_cells, cell_sharpness, print_table


def _tile_art(seed: int = 0) -> np.ndarray:
    """A cell with fine printed detail: small bright marks on a textured ground."""
    rng = np.random.default_rng(seed)
    cell = np.full((100, 100, 3), (40, 120, 60), np.uint8)
    cell = cv2.add(cell, rng.integers(0, 40, cell.shape, dtype=np.uint8))
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(10, 90, 2))
        cv2.circle(cell, (x, y), 3, (60, 220, 240), -1)
    return cell


def test_blur_makes_a_cell_softer_and_more_blur_softer_still():
    cell = _tile_art()
    sharp = cell_sharpness(cell)
    soft = cell_sharpness(cv2.GaussianBlur(cell, (0, 0), 1.5))
    softer = cell_sharpness(cv2.GaussianBlur(cell, (0, 0), 3.0))
    assert sharp > soft > softer


def test_light_and_contrast_do_not_change_it():
    cell = _tile_art(1)
    dim = cv2.convertScaleAbs(cell, alpha=0.5, beta=30)
    assert cell_sharpness(dim) == pytest.approx(cell_sharpness(cell), rel=0.1)


def test_board_cells_cuts_the_kept_cells_and_checks_the_mask():
    board = np.zeros((70, 70, 3), np.uint8)
    board[10:20, 0:10] = 255  # row 1, column 0 of a 7×7
    keep = np.zeros((7, 7), bool)
    keep[1, 0] = True
    (cell,) = board_cells(board, 7, keep)
    assert cell.shape == (10, 10, 3) and cell.min() == 255
    with pytest.raises(ValueError):
        board_cells(board, 5, keep)


def test_the_table_puts_each_source_against_the_real_cells_floor(capsys):
    real = list(np.linspace(0.1, 0.3, 101))
    figures = print_table({"real cell crops": real, "soft": [0.05] * 9 + [0.3]})
    assert figures["soft"]["below_p1"] == pytest.approx(0.9)
    assert figures["real cell crops"]["below_p5"] == pytest.approx(0.05, abs=0.011)
    assert "soft" in capsys.readouterr().out
