"""Region outlines and labels on a scored kingdom, and its PNG for download."""

import cv2
import numpy as np

from scoring import parse_board
from scoring.score import score_board
from vision.annotate import REGION_COLOURS, annotate_regions, grid_preview, label_cell, png_bytes
from vision.render import render_board

BOARD = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")


def test_every_region_gets_its_own_outline_colour():
    score = score_board(BOARD)
    out = annotate_regions(render_board(BOARD, cell_px=50), score, cell_px=80)
    assert out.shape == (400, 400, 3)
    for index in range(min(len(score.regions), len(REGION_COLOURS))):
        colour = REGION_COLOURS[index]
        assert np.any(np.all(out == colour, axis=-1)), f"region {index} has no outline"


def test_outline_stays_inside_its_region():
    score = score_board(BOARD)
    out = annotate_regions(render_board(BOARD, cell_px=80), score, cell_px=80)
    largest = score.regions[0]  # the grassland worth 20 (largest points first)
    colour = REGION_COLOURS[0]
    rows, cols = np.nonzero(np.all(out == colour, axis=-1))
    cells = {(r // 80, c // 80) for r, c in zip(rows, cols, strict=True)}
    assert cells <= set(largest.cells)


def test_label_sits_on_a_cell_of_the_region_near_its_middle():
    score = score_board(BOARD)
    for region in score.regions:
        assert label_cell(region) in region.cells
    grass = score.regions[0]
    assert label_cell(grass) == (3, 4)


def test_png_bytes_decode_back_to_the_image():
    score = score_board(BOARD)
    out = annotate_regions(render_board(BOARD), score)
    data = png_bytes(out)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, out)


def test_grid_preview_draws_on_a_shrunk_copy_of_the_photo():
    from vision.find import location_from_corners

    photo = np.full((2000, 1500, 3), 128, np.uint8)
    corners = np.array([[300, 400], [1200, 420], [1180, 1300], [320, 1280]], float)
    preview = grid_preview(photo, location_from_corners(corners, 5))
    assert max(preview.shape[:2]) == 900
    assert np.any(preview != 128)  # the grid is drawn
    assert np.all(photo == 128)  # on a copy
