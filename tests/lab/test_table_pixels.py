"""The table/not-table pixel network's training data and training (``lab.table_pixels``)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.table_pixels import PIXELS_PER_CLASS, logits, scene_pixels, train
from vision.find.table import PIXEL_FEATURES


@pytest.mark.parametrize("seed", [20000, -40000])  # a lab.tables scene, a hard lab.synth one
def test_each_scene_gives_tile_and_table_pixels(seed, shared_dir):
    features, is_tile, is_lake, _ = scene_pixels(seed)
    assert features.shape == (len(is_tile), len(PIXEL_FEATURES))
    assert np.isfinite(features).all()
    assert is_tile.sum() == PIXELS_PER_CLASS and (1 - is_tile).sum() == PIXELS_PER_CLASS
    assert not (is_lake & (is_tile == 0)).any()  # lake pixels are tile pixels


# A test-sized training stops before the optimiser settles; it must still tell them apart.
@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")
def test_the_network_learns_to_tell_tiles_from_table(shared_dir):
    pixels = [scene_pixels(seed) for seed in (20001, -40001)]
    features = np.concatenate([p[0] for p in pixels])
    is_tile = np.concatenate([p[1] for p in pixels])
    arrays = train(features, is_tile, samples=8000)
    assert arrays["w1"].shape == (len(PIXEL_FEATURES), arrays["b1"].shape[0])
    right = (logits(arrays, features) > 0) == (is_tile == 1)
    assert right.mean() > 0.9
