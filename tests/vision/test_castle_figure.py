"""The start tile under a 3D castle figure, drawn the way the hard scenes draw it (lab.synth),
which is not the way training drew figures (lab.figure): the model must generalise to it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.synth import make_hard_scene
from vision.labels import terrain_index
from vision.pipeline import read_image

CASTLE = terrain_index("castle")


@pytest.mark.parametrize("seed", [5026, 5067])  # 5×5 kingdoms with a figure; castle in the middle
def test_the_start_tile_under_a_figure_is_the_most_castle_like_cell(seed):
    scene = make_hard_scene(seed)
    assert scene.size == 5 and scene.labels[2][2] == "C"
    ok, jpg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    castle = read_image(jpg.tobytes()).cells.terrain_probs[..., CASTLE]
    # The model of before (never shown a figure) gave this cell 0.05-0.06, below a neighbour's.
    assert castle[2, 2] > 0.25
    assert np.unravel_index(castle.argmax(), castle.shape) == (2, 2)
