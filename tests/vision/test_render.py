"""The drawn board: one flat colour per cell, crowns and uncertain marks, and taps back to cells."""

import numpy as np
import pytest

from games.editing import blank_board, paint
from scoring import Terrain
from vision.render import TERRAIN_COLOURS, UNCERTAIN_MARK, render_board


def _centre_colour(image, row, col, cell_px):
    # A pixel left of the middle and below the crown row: away from icons and letters.
    return tuple(image[row * cell_px + cell_px * 3 // 5, col * cell_px + cell_px // 5])


def test_each_cell_is_drawn_in_its_terrain_colour():
    board = paint(paint(blank_board(5), 0, 0, Terrain.LAKE, 1), 4, 4, Terrain.MINE, 3)
    image = render_board(board, cell_px=60)
    assert image.shape == (300, 300, 3) and image.dtype == np.uint8
    assert _centre_colour(image, 0, 0, 60) == TERRAIN_COLOURS[Terrain.LAKE]
    assert _centre_colour(image, 4, 4, 60) == TERRAIN_COLOURS[Terrain.MINE]


def test_crowns_are_drawn_one_icon_each():
    def crown_pixels(crowns):
        board = paint(blank_board(5), 0, 0, Terrain.MINE, crowns)
        tile = render_board(board, cell_px=80)[:40, :80]
        return int(np.count_nonzero(np.all(tile == (40, 205, 250), axis=-1)))

    counts = [crown_pixels(n) for n in range(4)]
    assert counts[0] == 0
    assert counts[1] > 0
    assert counts[2] == pytest.approx(2 * counts[1], rel=0.1)
    assert counts[3] == pytest.approx(3 * counts[1], rel=0.1)


def test_uncertain_cells_are_framed_and_others_are_not():
    image = render_board(blank_board(5), cell_px=80, uncertain={(1, 3)})
    marked = np.all(image == UNCERTAIN_MARK, axis=-1)
    rows, cols = np.nonzero(marked)
    assert rows.min() >= 80 and rows.max() < 160
    assert cols.min() >= 240 and cols.max() < 320


def test_tapped_corners_are_marked_on_a_copy_of_the_photo():
    from vision.render import mark_points

    photo = np.zeros((400, 300, 3), np.uint8)
    marked = mark_points(photo, [(50, 60), (250, 340)])
    assert not photo.any()
    assert tuple(marked[60, 50]) == (255, 255, 255)  # the dot's white centre
    assert tuple(marked[340, 250]) == (255, 255, 255)
    assert not marked[200, 150].any()
