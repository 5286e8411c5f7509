"""lab.table_photo: the four-kingdom table of the --kingdoms all speed target, and its
comparison of each kingdom read in the table and alone."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from lab.table_photo import TABLE_SEED, alone_photo, cells_right, matching
from lab.tables import make_table_scene


@pytest.fixture(autouse=True)
def _needs_shared(shared_dir):
    """Scenes are built from the shared aau boards."""


@pytest.fixture(scope="module")
def small_scene():
    # The scene's layout does not depend on its pixel size: drawn small, it is quick.
    return make_table_scene(TABLE_SEED, 800)


def test_the_benchmark_scene_is_four_complete_kingdoms(small_scene):
    """If lab.tables draws differently, the seed must be chosen again (table_scene refuses)."""
    assert not small_scene.video and len(small_scene.complete) == 4


def test_a_kingdom_alone_is_the_same_pixels_cut_round_it(small_scene):
    truth = small_scene.complete[0]
    data, corners = alone_photo(small_scene, truth)
    cut = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h, w = cut.shape[:2]
    assert (corners >= 0).all() and (corners[:, 0] <= w).all() and (corners[:, 1] <= h).all()
    x0, y0 = np.round(truth.corners[0] - corners[0]).astype(int)
    same = small_scene.image[y0 : y0 + h, x0 : x0 + w].astype(int)
    assert np.abs(cut.astype(int) - same).mean() < 3  # only JPEG's rounding
    assert h < small_scene.image.shape[0] or w < small_scene.image.shape[1]


def _reading(text: str, corners=None):
    rows = text.split("\n")
    board = SimpleNamespace(rows_text=lambda: rows)  # what cells_right asks of a Board
    location = None if corners is None else SimpleNamespace(corners=np.asarray(corners, float))
    return SimpleNamespace(board=board, location=location)


def test_cells_right_counts_under_the_best_quarter_turn():
    truth = SimpleNamespace(labels=(("C", "W1"), ("F0", "L2")))
    turned = np.rot90(np.array(truth.labels, dtype=object), 1)  # as a reader may put it
    text = "\n".join(" ".join(row) for row in turned)
    assert cells_right(_reading(text), truth) == 4
    assert cells_right(_reading(text.replace("L2", "L1")), truth) == 3


def test_a_reading_matches_the_kingdom_whose_centre_is_within_a_cell():
    square = np.array([[0, 0], [500, 0], [500, 500], [0, 500]], float)
    near = _reading("C", square + 60)
    far = _reading("C", square + 300)
    assert matching([far, near], square, 5) is near
    assert matching([far], square, 5) is None
    assert matching([far], square * 2, 5, photo_scale=2.0) is None
    assert matching([_reading("C", square / 2)], square, 5, photo_scale=2.0) is not None
