"""Tile edges: a peak is found where it is and not in a flat strip; a frame on the tiles' lattice
has an edge on every line, one half a cell off on few."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.find.conftest import draw_tiles
from vision.find.edges import (
    LATTICE_PX,
    _strongest_peaks_of_each,
    edge_profiles,
    frame_edge_support,
    gradient_images,
    lattice_edges,
    line_seams,
    seam_support,
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


def test_each_line_finds_its_seam_where_it_is_however_faint():
    """Summed along the whole line, a seam blurred until fewer than 0.67 of the segments show a
    clear edge is still found on the line, and the sides on the kingdom's outline; a frame a
    tenth too small (squeezed) finds the seams drifting off its lines."""
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=1)
    soft = cv2.GaussianBlur(image, (0, 0), 8)
    on_tiles = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    assert frame_edge_support(soft, on_tiles, 5) < 0.67
    vertical, line, offsets, strengths = line_seams(soft, on_tiles, 5)
    assert vertical.tolist() == [True] * 6 + [False] * 6
    assert line.tolist() == list(range(6)) * 2
    assert np.abs(offsets).max() <= 0.05 and strengths.min() > 1.5
    squeezed = np.array([[100, 100], [370, 100], [370, 400], [100, 400]], float)
    vertical, line, offsets, strengths = line_seams(soft, squeezed, 5)
    inner = (line > 0) & (line < 5)
    drift = offsets[vertical & inner]  # lines at 0.9 of the tiles' pitch: about 0.11 cell more each
    assert np.all(np.diff(drift) > 0) and drift[0] > 0.1 and drift[-1] > 0.3
    assert np.abs(offsets[~vertical & inner]).max() <= 0.05


def test_peaks_of_many_windows_at_once_are_those_of_each_alone():
    """The lattice search asks for all its windows in one call per width: the answers must be
    exactly those of one call per window (each row is judged on its own)."""
    rng = np.random.default_rng(3)
    windows = [
        (rng.random((rows, width)) * 10).astype(np.float32)
        for rows, width in ((5, 21), (5, 21), (3, 20), (2, 4))
    ]
    windows[1][:, 9] += 40  # a clear peak in every row of one window
    offset, strength, found = _strongest_peaks_of_each(windows)
    alone = [found for window in windows for found in strongest_peaks(window)]
    assert found.tolist() == [peak is not None for peak in alone]
    pairs = zip(offset.tolist(), strength.tolist(), found, strict=True)
    together = [(o, s) for o, s, f in pairs if f]
    assert together == [peak for peak in alone if peak is not None]
    assert found[5:10].all() and not found[-2:].any()  # too narrow a window finds nothing


def test_lattice_edges_are_each_segments_strongest_peak_in_order():
    """Every segment of every line, vertical lines first, line by line, each cell along it in
    turn, with the peak a search of that segment's window alone finds."""
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 100, 100, 60, seed=2)
    corners = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], np.float32)
    target = np.array([[0, 0], [5, 0], [5, 5], [0, 5]], np.float32) * LATTICE_PX + 20
    to_lattice = cv2.getPerspectiveTransform(corners + 3, target)
    half = 8
    vertical, centre, along, offset, strength, found = lattice_edges(
        image, to_lattice, 5, 5, half, inner_only=False
    )
    assert vertical.tolist() == [True] * 30 + [False] * 30
    assert centre.tolist() == [20 + 40 * (i // 5) for i in range(30)] * 2
    assert along.tolist() == [40.0 + 40 * (i % 5) for i in range(30)] * 2
    view = cv2.warpPerspective(image, to_lattice, (240, 240), borderMode=cv2.BORDER_REPLICATE)
    gx, gy = gradient_images(view)
    for n in range(60):
        grad = gx if vertical[n] else gy.T
        band = int(along[n] - 20)  # the segment: its cell's 40 px less 8 at each end
        strip = grad[band + 8 : band + 32].sum(axis=0)[centre[n] - half : centre[n] + half + 1]
        alone = strongest_peaks(strip[None, :])[0]
        assert (alone is not None) == found[n]
        if alone is not None:
            assert (offset[n], strength[n]) == alone
    assert found.mean() > 0.8


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


def test_a_straightened_kingdom_off_its_seams_shows_few_edges_between_its_tiles():
    """Cut on its tiles, every line between two tiles has an edge; cut half a cell off, few."""
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 0, 0, 100, seed=1)
    tiles = np.ones((5, 5), bool)
    assert seam_support(image, tiles) == 1.0
    shifted = np.full((500, 500, 3), 200, np.uint8)
    shifted[:, 50:] = image[:, :450]
    assert seam_support(shifted, tiles) < 0.5


def test_only_the_lines_between_two_tiles_count():
    """A column of holes (the table showing, no edge between them or beside a tile of the
    table's colour) counts against the seams only if it is taken for tiles."""
    image = np.full((500, 500, 3), 200, np.uint8)
    draw_tiles(image, 5, 5, 0, 0, 100, seed=1)
    image[:, :200] = 200  # the two left columns show the table
    tiles = np.ones((5, 5), bool)
    assert seam_support(image, tiles) < 0.8
    tiles[:, :2] = False
    assert seam_support(image, tiles) == 1.0
