"""Lattice fit: outlines snapped to the tile edges, cells counted along a snapped lattice."""

from __future__ import annotations

import numpy as np

from tests.vision.find.conftest import draw_tiles
from vision.find.lattice import _snapped_quad


def test_an_outline_half_a_cell_off_snaps_to_the_lattice():
    """Tile edges every 60 px: a quad whose sides cut cells in half moves onto the lines."""
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=1)
    quad = np.array([[130, 130], [370, 130], [370, 370], [130, 370]], float)
    snapped = _snapped_quad(image, quad)
    assert snapped is not None
    # The lines at 100 and 400 lie outside the quad by half a cell: the snapped quad runs from
    # the first line inside it (160) to the last (340).
    truth = np.array([[160, 160], [340, 160], [340, 340], [160, 340]], float)
    assert np.abs(snapped - truth).max() < 3


def test_a_snapped_lattice_of_six_cells_with_one_strong_middle_line_is_six_not_two():
    """Development scene 9903: a kingdom of lake tiles on a blue checked cloth, whose lattice
    snapped six cells wide, had only its middle line strong (a check's edge under it); counted
    by contrast at lines over centres, two cells won (their centres are cells' centres too).
    A lattice snapped to tile edges is counted from three cells up."""
    from vision.find.lattice import SNAPPED_MIN_COUNT, _count_cells

    image = np.full((300, 300, 3), 120, np.uint8)
    for k in range(1, 6):
        strength = 120 if k == 3 else 35
        image[:, 50 * k - 1 : 50 * k + 1] = 120 + strength
        image[50 * k - 1 : 50 * k + 1, :] = 120 + strength
    quad = np.array([[0, 0], [300, 0], [300, 300], [0, 300]], float)
    assert _count_cells(image, quad)[:2] == (2, 2)  # an outline may be two rows of tiles
    assert _count_cells(image, quad, SNAPPED_MIN_COUNT)[:2] == (6, 6)
