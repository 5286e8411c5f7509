"""Tile edges: a peak is found where it is and not in a flat strip; a frame on the tiles' lattice
has an edge on every line, one half a cell off on few."""

from __future__ import annotations

import numpy as np

from tests.vision.find.conftest import draw_tiles
from vision.find.edges import (
    _strongest_peaks_of_each,
    edge_profiles,
    frame_edge_support,
    strongest_peaks,
)


def test_a_strip_s_strongest_peak_is_found_between_pixels_and_a_flat_strip_has_none():
    strips = np.array([[1, 1, 1, 4, 8, 4, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1]], np.float32)
    strips[0, 5] = 6  # leaning right of pixel 4
    peak, flat = strongest_peaks(strips)
    assert flat is None
    assert peak is not None and 4.0 < peak[0] < 4.5 and peak[1] > 1.4


def test_a_frame_on_the_tiles_has_edges_on_its_lines_and_one_half_a_cell_off_does_not():
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=1)
    on_tiles = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    assert frame_edge_support(image, on_tiles, 5) == 1.0
    assert frame_edge_support(image, on_tiles + 30, 5) < 0.5


def test_peaks_of_many_windows_at_once_are_those_of_each_alone():
    """The lattice search asks for all its windows in one call per width: the answers must be
    exactly those of one call per window (each row is judged on its own)."""
    rng = np.random.default_rng(3)
    windows = [rng.random((rows, width)) * 10 for rows, width in ((5, 21), (5, 21), (3, 20))]
    windows[1][:, 9] += 40  # a clear peak in every row of one window
    together = _strongest_peaks_of_each(windows)
    assert together == [strongest_peaks(window) for window in windows]
    assert all(found is not None for found in together[1])


def test_an_outline_collapsed_to_a_line_shows_no_edges_and_does_not_crash():
    # The corners a soft-wood scene's outline gave (development seed 11101): all on one row.
    # OpenCV 5.1 crashed the process warping by the singular homography they make.
    line = np.array(
        [
            [414.9200134277344, 88.99447631835938],
            [414.9200134277344, 88.99447631835938],
            [56.311092376708984, 88.99447631835938],
            [56.31108093261719, 88.99447631835938],
        ],
        np.float32,
    )
    columns, rows = edge_profiles(np.zeros((90, 471, 3), np.uint8), line, 16, 256)
    assert columns.shape == (16,) and rows.shape == (256,)
    assert not columns.any() and not rows.any()
