"""The synthetic scene generator: deterministic, truthful, and usable from the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lab import synth
from lab.synth import make_scene


@pytest.fixture(autouse=True)
def _needs_shared(shared_dir):
    """Scenes are built from the shared aau boards."""


def test_same_seed_same_scene():
    a, b = make_scene(11, 800), make_scene(11, 800)
    assert np.array_equal(a.image, b.image)
    np.testing.assert_array_equal(a.corners, b.corners)
    assert a.labels == b.labels
    assert not np.array_equal(a.image, make_scene(12, 800).image)


def test_truth_is_consistent():
    for seed in range(12):
        scene = make_scene(seed, 800)
        h, w = scene.image.shape[:2]
        assert scene.image.dtype == np.uint8 and scene.image.shape[2] == 3
        assert scene.size in (5, 7)
        assert len(scene.labels) == scene.size and all(len(r) == scene.size for r in scene.labels)
        assert sum(token == "C" for row in scene.labels for token in row) == 1
        # The whole kingdom is in the photo.
        assert (scene.corners >= -1).all()
        assert (scene.corners[:, 0] <= w + 1).all() and (scene.corners[:, 1] <= h + 1).all()
        if scene.kind == "photo":
            assert max(h, w) == 800


def test_seven_by_seven_and_holes_occur():
    scenes = [make_scene(seed, 600) for seed in range(30)]
    assert any(s.size == 7 for s in scenes) and any(s.size == 5 for s in scenes)
    assert any("." in row for s in scenes for row in s.labels)
    assert {s.background for s in scenes} >= {"plain", "wood", "carpet", "cloth", "cutting_mat"}


def test_command_line_writes_images_and_truth(tmp_path):
    synth.main(["--n", "2", "--seed", "4", "--out", str(tmp_path), "--long-side", "600"])
    truth = json.loads((tmp_path / "scene0004.json").read_text())
    assert (tmp_path / "scene0004.jpg").stat().st_size > 1000
    assert truth["size"] in (5, 7) and len(truth["corners"]) == 4
    assert len(truth["labels"]) == truth["size"]
