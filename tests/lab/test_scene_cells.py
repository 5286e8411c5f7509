"""Training cells cut from synthetic photos (lab.scene_cells) and the scenes they come from."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.data import load_aau_boards, shared_dir
from lab.scene_cells import MARGIN, SceneCells, cut_scene
from vision.cells import CROP
from vision.labels import TERRAINS

needs_shared = pytest.mark.skipif(
    not (shared_dir() / "datasets" / "aau-boards").exists(), reason="needs ../shared"
)


def _coloured_board(size: int, px: int = 100) -> tuple[np.ndarray, list[list[str]]]:
    """A board whose every cell is one flat colour of its own, and board-text labels."""
    board = np.zeros((size * px, size * px, 3), np.uint8)
    for r in range(size):
        for c in range(size):
            board[r * px : (r + 1) * px, c * px : (c + 1) * px] = (30 * r + 20, 30 * c + 20, 200)
    labels = [["W1" if (r + c) % 2 else "." for c in range(size)] for r in range(size)]
    labels[size // 2][size // 2] = "C"
    return board, labels


@pytest.mark.parametrize("size", [5, 7])
def test_each_cell_is_cut_centred_on_its_own_cell_of_a_tilted_photo(size):
    board, labels = _coloured_board(size)
    side = board.shape[0]
    corners = np.float32([[420, 180], [1300, 260], [1180, 1050], [350, 900]])
    to_photo = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [side, 0], [side, side], [0, side]]), corners
    )
    photo = cv2.warpPerspective(board, to_photo, (1600, 1200))
    cells = cut_scene(photo, corners, labels)
    assert cells.images.shape == (size * size, CROP + 2 * MARGIN, CROP + 2 * MARGIN, 3)
    middle = MARGIN + CROP // 2
    for r in range(size):
        for c in range(size):
            centre = cells.images[r * size + c, middle - 8 : middle + 8, middle - 8 : middle + 8]
            assert (
                np.abs(centre.reshape(-1, 3).mean(0) - board[r * 100 + 50, c * 100 + 50]).max() < 4
            )
    assert TERRAINS[cells.terrain[size // 2 * size + size // 2]].value == "castle"
    assert TERRAINS[cells.terrain[0]].value == "empty" and cells.crowns[0] == 0
    assert TERRAINS[cells.terrain[1]].value == "wheat" and cells.crowns[1] == 1


def test_scene_cells_check_their_shapes_and_round_trip_through_npz(tmp_path):
    side = CROP + 2 * MARGIN
    cells = SceneCells(np.zeros((3, side, side, 3), np.uint8), np.arange(3), np.zeros(3, int))
    cells.save(tmp_path / "c.npz")
    again = SceneCells.load(tmp_path / "c.npz")
    assert (
        np.array_equal(again.terrain, cells.terrain) and len(SceneCells.joined([cells, again])) == 6
    )
    with pytest.raises(ValueError, match="images must be"):
        SceneCells(np.zeros((3, CROP, CROP, 3), np.uint8), np.arange(3), np.zeros(3, int))
    with pytest.raises(ValueError, match="one terrain"):
        SceneCells(np.zeros((3, side, side, 3), np.uint8), np.arange(2), np.zeros(3, int))


def test_a_scene_cells_save_cut_short_leaves_no_file_to_load(tmp_path, monkeypatch):
    # Two trainings side by side write the same cache file: a half-written one must never be
    # where the other looks for it.
    side = CROP + 2 * MARGIN
    cells = SceneCells(np.zeros((3, side, side, 3), np.uint8), np.arange(3), np.zeros(3, int))

    def savez_cut_short(file, **arrays):
        with open(file, "wb") as out:
            out.write(b"PK half a zip")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", savez_cut_short)
    with pytest.raises(OSError, match="disk full"):
        cells.save(tmp_path / "c.npz")
    assert list(tmp_path.iterdir()) == []


@needs_shared
def test_a_training_scene_shows_only_the_kingdoms_it_is_given():
    from lab.synth import _cells_by_token, make_hard_scene

    kingdoms = frozenset(sorted({b.kingdom for b in load_aau_boards()})[:5])
    allowed = _cells_by_token(kingdoms)
    everything = _cells_by_token()
    assert sum(map(len, allowed.values())) < sum(map(len, everything.values()))
    for seed in (200_000, 200_001, 200_002):
        scene = make_hard_scene(seed, kingdoms=kingdoms, castle_figure=False)
        tokens = {t for row in scene.labels for t in row} - {"."}
        assert tokens <= set(allowed), tokens - set(allowed)
