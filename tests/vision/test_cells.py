"""The cell reader on shared boards, its constraints, its shape checks and its uncertainty flags."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.board import Terrain, parse_board
from vision.cells import CellReadings, classify_cells, cut_cells, read_board_image
from vision.labels import TERRAINS

# Spread over the data set: different kingdoms, lighting, and boards with holes (9, 33).
BOARDS = ("1", "9", "20", "33", "45", "64")


def aau_image(shared_dir, name: str) -> np.ndarray:
    image = cv2.imread(str(shared_dir / "datasets/aau-boards/images" / f"{name}.jpg"))
    assert image is not None
    return image


def aau_board(shared_dir, name: str):
    return parse_board((shared_dir / "datasets/aau-boards/boards" / f"{name}.txt").read_text())


@pytest.mark.parametrize("name", BOARDS)
def test_reads_shared_boards_as_labelled(shared_dir, name):
    readings = classify_cells(aau_image(shared_dir, name), 5)
    assert readings.board == aau_board(shared_dir, name)
    assert readings.terrain_probs.shape == (5, 5, 8)
    assert readings.crown_probs.shape == (5, 5, 4)
    np.testing.assert_allclose(readings.terrain_probs.sum(axis=2), 1, atol=1e-4)


def test_reads_any_scale_and_finds_the_size(shared_dir):
    image = aau_image(shared_dir, "1")
    small = cv2.resize(image, (250, 250), interpolation=cv2.INTER_AREA)  # 50 px per cell
    assert classify_cells(small, 5).board == aau_board(shared_dir, "1")
    assert read_board_image(image).size == 5


def test_heavy_blur_is_flagged_uncertain(shared_dir):
    image = aau_image(shared_dir, "20")
    sharp = classify_cells(image, 5)
    blurred = classify_cells(cv2.GaussianBlur(image, (0, 0), 12), 5)
    assert blurred.uncertain.sum() >= 5
    assert blurred.uncertain.sum() > sharp.uncertain.sum()


def test_shape_and_type_checks_say_what_is_wrong():
    grey = np.zeros((500, 500), np.uint8)
    with pytest.raises(ValueError, match="HxWx3"):
        classify_cells(grey, 5)
    with pytest.raises(ValueError, match="uint8"):
        classify_cells(np.zeros((500, 500, 3), np.float32), 5)
    with pytest.raises(ValueError, match="5 or 7"):
        classify_cells(np.zeros((500, 500, 3), np.uint8), 6)
    with pytest.raises(ValueError, match="too small"):
        classify_cells(np.zeros((50, 50, 3), np.uint8), 7)
    with pytest.raises(ValueError, match=r"\(N, N, 8\)"):
        CellReadings(np.zeros((5, 5, 7)), np.zeros((5, 5, 4)), 0.5)


def test_cut_cells_is_row_major():
    image = np.zeros((500, 500, 3), np.uint8)
    image[100:200, 300:400] = 255  # row 1, column 3
    crops = cut_cells(image, 5)
    assert crops.shape == (25, 64, 64, 3)
    assert crops[1 * 5 + 3].min() == 255 and crops[1 * 5 + 2].max() == 0


def one_hot(size: int, width: int, index: int) -> np.ndarray:
    probs = np.full((size, size, width), 0.01)
    probs[..., index] = 1.0
    return probs / probs.sum(axis=2, keepdims=True)


def test_board_has_exactly_one_castle_and_legal_crowns():
    wheat, castle = TERRAINS.index(Terrain.WHEAT), TERRAINS.index(Terrain.CASTLE)
    terrain = one_hot(5, 8, wheat)
    terrain[0, 0] = terrain[4, 4] = one_hot(1, 8, castle)[0, 0]
    terrain[4, 4, castle] -= 0.2  # the less castle-like of the two
    terrain[4, 4, wheat] += 0.2
    crowns = one_hot(5, 4, 3)  # "three crowns" everywhere: wheat carries at most one
    readings = CellReadings(terrain, crowns, 0.5, joint_decoding=False)
    board = readings.board
    assert board.castle == (0, 0)
    assert board[4, 4].terrain is Terrain.WHEAT
    assert all(cell.crowns <= 1 for _, _, cell in board.iter_cells())
    # No cell is confidently "wheat with one crown", so all land cells are flagged; the castle
    # is sure of itself (its crowns do not count against a cell that carries none).
    assert readings.uncertain.sum() == 24 and not readings.uncertain[0, 0]


def test_a_hole_read_as_the_castle_leaves_the_start_tile_flagged_and_one_fix_mends_it():
    """A hole whose cloth reads castle 1.00 takes the castle from its start tile (0.92): the
    start tile, read as land, makes the tiles one more than real dominoes can, so decoding
    flags it. Painting the castle back there (as a player fixing that cell does) makes the
    old castle cell the hole it was: the board is right once the flagged cells are."""
    from games.editing import paint
    from tests.vision.test_decode import probabilities

    truth = parse_board(
        ". . F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0"
    )
    terrain, crowns = probabilities(truth, sure=0.99)
    castle, grassland = TERRAINS.index(Terrain.CASTLE), TERRAINS.index(Terrain.GRASSLAND)
    terrain[0, 0] = one_hot(1, 8, castle)[0, 0]  # the hole's cloth
    terrain[2, 2] = 0.0
    terrain[2, 2, castle], terrain[2, 2, grassland] = 0.92, 0.08
    readings = CellReadings(terrain, crowns, 0.5)
    board = readings.board
    assert board.castle == (0, 0) and readings.uncertain[2, 2]
    fixed = board
    for r, c in np.argwhere(readings.uncertain).tolist():
        right = truth[r, c]
        if fixed[r, c] != right:
            fixed = paint(fixed, r, c, right.terrain, right.crowns)
    assert fixed == truth


def test_cells_json_lists_every_cell(shared_dir):
    cells = classify_cells(aau_image(shared_dir, "1"), 5).cells_json()
    assert len(cells) == 25
    assert set(cells[0]) == {
        "row",
        "col",
        "terrain",
        "crowns",
        "confidence",
        "uncertain",
        "corrected",
        "model_terrain",
        "model_crowns",
    }
    assert (cells[7]["row"], cells[7]["col"]) == (1, 2)
