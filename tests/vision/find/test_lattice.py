"""Lattice fit: outlines snapped to the tile edges, cells counted along a snapped lattice."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.find.conftest import draw_tiles
from vision.find.edges import LATTICE_PX, lattice_to_image
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


def _lattice_over(x: int, y: int, cells: int, pitch: int) -> np.ndarray:
    """to_lattice (image pixels → lattice pixels) for a square lattice of ``cells`` from (x, y)."""
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]) * cells
    quad = square * pitch + np.float32([x, y])
    return cv2.getPerspectiveTransform(quad, square * LATTICE_PX + LATTICE_PX // 2)


def test_a_snapped_lattice_a_row_and_a_column_past_the_tiles_gives_up_its_five_by_five():
    """Development scene 9940: a kingdom of drifting tiles on a cutting mat, its outline ragged
    where holes are, snapped to a lattice a cell wider and taller than its tiles; the whole
    lattice's edges do not hold up, its 5×5 window over the tiles does, and the row and column
    it leaves out show no tile edges."""
    from vision.find.lattice import _window_of_snapped

    image = np.full((600, 600, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 160, 160, 60, seed=3)
    window = _window_of_snapped(image, _lattice_over(100, 100, 6, 60), 6, 6)
    assert window is not None
    to_lattice, n = window
    assert n == 5
    in_image = lattice_to_image([[0, 0], [5, 0], [5, 5], [0, 5]], np.linalg.inv(to_lattice))
    truth = np.array([[160, 160], [460, 160], [460, 460], [160, 460]], float)
    assert np.abs(in_image - truth).max() < 4


def test_no_window_is_cut_out_of_a_lattice_of_tiles_all_over():
    """Six by six tiles: every 5×5 window leaves out a row and a column of tiles, so none is a
    kingdom on its own (the tiles may be two kingdoms side by side, or one cut by the edge)."""
    from vision.find.lattice import _window_of_snapped

    image = np.full((600, 600, 3), 200, np.uint8)
    draw_tiles(image, 6, 6, 100, 100, 60, seed=3)
    assert _window_of_snapped(image, _lattice_over(100, 100, 6, 60), 6, 6) is None


def test_a_window_of_cells_in_two_colours_is_no_kingdom():
    """Development scene 9270: a hand over cork, its fingers giving a row of edges, once passed
    as a 5×5 window of a snapped lattice. Its cells are skin or table: far less different than
    a kingdom's tiles, whatever edges they show."""
    from vision.find.decision import lattice_evidence, straightened_view
    from vision.find.lattice import WINDOW_MIN_CELL_SPREAD, _window_of_snapped

    image = np.full((600, 600, 3), 200, np.uint8)
    skin, cork = (150, 160, 215), (90, 150, 190)
    for r in range(5):
        for c in range(5):
            y0, x0 = 160 + 60 * r, 160 + 60 * c
            image[y0 + 2 : y0 + 58, x0 + 2 : x0 + 58] = skin if (r + c) % 2 else cork
    corners = np.array([[160, 160], [460, 160], [460, 460], [160, 460]], float)
    assert lattice_evidence(straightened_view(image, corners, 5), 5)[1] < WINDOW_MIN_CELL_SPREAD
    assert _window_of_snapped(image, _lattice_over(100, 100, 6, 60), 6, 6) is None


def test_equal_outlines_are_counted_and_fitted_once(monkeypatch):
    """A blob cut square by the photo's corner gives the same outline by two of its methods:
    the second copy is neither counted nor fitted again, and the fit is the same."""
    from vision.find import lattice

    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=1)
    mask = np.zeros((500, 500), np.uint8)
    mask[100:400, 100:400] = 255
    outline = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    other = outline + [[2, 1], [-1, 2], [1, -2], [-2, 1]]
    once = lattice.fit_lattice(image, mask, [outline, other], None)
    counted = []
    real_count = lattice._count_cells

    def counting(small, quad, *args):
        counted.append(quad.tolist())
        return real_count(small, quad, *args)

    monkeypatch.setattr(lattice, "_count_cells", counting)
    twice = lattice.fit_lattice(image, mask, [outline, outline.copy(), other], None)
    assert counted == [outline.tolist(), other.tolist()]
    assert np.array_equal(once[0], twice[0]) and once[1:] == twice[1:]


def test_a_lattice_a_fifth_of_a_cell_off_is_refined_onto_the_tile_edges():
    """``_refine_on_edges``: each edge found near a lattice line is one equation of the
    correcting homography, vertical and horizontal lines alike; a lattice shifted 12 px right
    and 8 px down of tiles 60 px apart comes back onto their lines."""
    from vision.find.lattice import _refine_on_edges

    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=2)
    P, margin = LATTICE_PX, LATTICE_PX // 2
    target = np.array([[0, 0], [5, 0], [5, 5], [0, 5]], np.float32) * P + margin
    shifted = np.array([[112, 108], [412, 108], [412, 408], [112, 408]], np.float32)
    to_lattice = cv2.getPerspectiveTransform(shifted, target)
    for window in (0.3, 0.2, 0.12):
        to_lattice = _refine_on_edges(image, to_lattice, 5, 5, window)
    corners = lattice_to_image(
        np.array([[0, 0], [5, 0], [5, 5], [0, 5]]), np.linalg.inv(to_lattice)
    )
    # The outer tiles end 2 px inside the seams' lines (100 and 400): within 3 px of them.
    truth = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    assert np.abs(corners - truth).max() < 3


def test_lattice_contrasts_take_each_points_best_within_three_percent():
    """Read off one running maximum, each count's contrast is the one of taking every boundary
    and centre window's own maximum."""
    from vision.find.lattice import _lattice_contrasts

    rng = np.random.default_rng(6)
    for length in (16, 37, 200, 256):
        profile = rng.random((1, length)).astype(np.float32) * 50
        profile = cv2.GaussianBlur(profile, (0, 0), 1.0).ravel()
        radius = max(1, round(0.03 * length))
        expected = {}
        for cells in range(2, 10):
            pitch = length / cells
            near = [
                profile[max(0, c - radius) : c + radius + 1].max()
                for c in (round(x * pitch) for x in np.arange(0.5, cells, 0.5))
            ]
            on, off = float(np.mean(near[1::2])), float(np.mean(near[0::2]))
            expected[cells] = on / (off + 1e-6)
        assert _lattice_contrasts(profile, range(2, 10)) == expected
