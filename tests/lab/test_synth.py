"""The synthetic scene generator: deterministic, truthful, and usable from the command line."""

from __future__ import annotations

import json

import cv2
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


@pytest.mark.parametrize("seed", range(12))
def test_the_reader_sees_a_camera_scenes_figure_lean_the_way_the_scene_leans_it(seed):
    """The frame of a camera scene is that camera's view: from the frame alone the reader
    (vision.castle.figure_tops) puts a figure's top on the side the scene puts it, about as far."""
    from vision.castle import figure_tops
    from vision.find import BoardLocation

    rng = np.random.default_rng(seed)
    width, height = (1600, 1200) if seed % 2 else (900, 1600)
    plane, corners, foot, over = synth._camera_view(rng, 5, 100, width, height)
    assert (corners >= 0).all() and (corners <= [width, height]).all()
    cells = (plane - 100) / synth.SOURCE_PX
    to_board = cv2.getPerspectiveTransform(corners.astype(np.float32), cells.astype(np.float32))
    tops = figure_tops(BoardLocation(corners, 5, to_board, image_shape=(height, width)), 1.2)
    y, x = np.mgrid[0:5, 0:5] + 0.5
    truth = (np.stack([x, y], axis=-1) - foot) * 1.2 / (over - 1.2)
    leaning = np.linalg.norm(truth, axis=-1) >= 0.3
    cosine = np.sum(tops * truth, axis=-1) / (
        np.linalg.norm(tops, axis=-1) * np.linalg.norm(truth, axis=-1) + 1e-9
    )
    assert np.all(cosine[leaning] > np.cos(np.radians(30)))
    ratio = np.linalg.norm(tops, axis=-1)[leaning] / np.linalg.norm(truth, axis=-1)[leaning]
    assert np.all((ratio > 0.4) & (ratio < 2.5))


@pytest.mark.parametrize("shift, beyond", [((0, -0.6), "above"), ((0.6, 0.0), "right")])
def test_a_leaning_figure_covers_the_neighbour_its_top_falls_in(shift, beyond):
    tiles = np.zeros((700, 700, 3), np.uint8)
    alpha = np.zeros((700, 700), np.float32)
    rng = np.random.default_rng(0)
    mask = synth._leaning_castle_figure(rng, (2, 2), 100, tiles, alpha, shift)
    cell = lambda r, c: mask[100 + r * 100 : 200 + r * 100, 100 + c * 100 : 200 + c * 100]  # noqa: E731
    assert cell(2, 2).mean() > 0.5  # the figure stands on its tile
    above, right, below, left = (
        cell(1, 2).mean(),
        cell(2, 3).mean(),
        cell(3, 2).mean(),
        cell(2, 1).mean(),
    )
    assert below == 0 and left == 0
    assert (above > 0.2 and right == 0) if beyond == "above" else (right > 0.2 and above == 0)


def test_camera_scenes_leave_the_default_scenes_as_they_were():
    camera = synth.make_hard_scene(7000, 800, camera=True)
    assert sum(t == "C" for row in camera.labels for t in row) == 1
    assert not np.array_equal(camera.image, synth.make_hard_scene(7000, 800).image)


def test_command_line_writes_camera_scenes(tmp_path):
    synth.main(["--hard", "--camera", "--n", "1", "--seed", "7000", "--out", str(tmp_path)])
    truth = json.loads((tmp_path / "scene7000.json").read_text())
    assert truth["size"] in (5, 7) and len(truth["corners"]) == 4
    with pytest.raises(SystemExit):
        synth.main(["--camera", "--n", "1", "--out", str(tmp_path)])


def test_soft_wood_scenes_have_holes_the_figure_and_warm_wood():
    scene = synth.make_hard_scene(11100, 800, soft_wood=True)
    holes = sum(t == "." for row in scene.labels for t in row)
    assert scene.background == "warm_wood" and holes >= 4  # two dominoes or more missing
    # Warm: the table (the photo's corners) is redder than it is blue.
    corner = scene.image[:40, :40].reshape(-1, 3).astype(float).mean(axis=0)
    assert corner[2] > corner[0] + 30
    # The default scenes keep their draws: soft wood only changes its own scenes.
    plain = synth.make_hard_scene(11100, 800)
    assert plain.background != "warm_wood"


@pytest.mark.parametrize("kind", synth.KINDS)
def test_kind_scenes_are_deterministic_and_truthful(kind):
    for seed in (9100, 9101, 9102):
        scene = synth.make_kind_scene(seed, kind, 800)
        assert np.array_equal(scene.image, synth.make_kind_scene(seed, kind, 800).image)
        assert sum(t == "C" for row in scene.labels for t in row) == 1
        h, w = scene.image.shape[:2]
        cell = np.linalg.norm(scene.corners[1] - scene.corners[0]) / scene.size
        # The whole kingdom is in the photo.
        assert (scene.corners >= -1).all()
        assert (scene.corners[:, 0] <= w + 1).all() and (scene.corners[:, 1] <= h + 1).all()
        if kind == "tight_cloth":
            # Cropped to the kingdom: at most a tenth of a cell of cloth beyond it, and holes.
            assert scene.corners.min(axis=0).max() <= 0.1 * cell + 2
            assert (np.array([w, h]) - scene.corners.max(axis=0)).max() <= 0.1 * cell + 2
            assert any(t == "." for row in scene.labels for t in row)
    with pytest.raises(ValueError):
        synth.make_kind_scene(9100, "no such kind")


def test_a_printed_grid_mat_is_finer_or_coarser_than_the_tiles():
    """The mat's lines (drawn on the tile plane, here the photo itself) repeat at a pitch that
    is not the tiles': the reader must not take them for the kingdom's lattice."""
    side = 512
    pitches = []
    for seed in range(8):
        mat = synth._printed_grid_mat(np.random.default_rng(seed), np.eye(3), side, side)
        grey = mat.mean(axis=2) - mat.mean()
        spectrum = np.abs(np.fft.fft2(grey))
        spectrum[0, 0] = 0
        ky, kx = np.unravel_index(int(np.argmax(spectrum)), spectrum.shape)
        frequency = np.hypot(min(kx, side - kx), min(ky, side - ky)) / side
        pitches.append(1 / frequency / synth.SOURCE_PX)
    assert all(p < 0.9 or p > 1.1 for p in pitches), pitches
    assert min(pitches) < 0.9 < 1.1 < max(pitches), pitches  # finer and coarser both occur


def test_command_line_writes_kind_scenes(tmp_path):
    synth.main(["--kind", "tight_cloth", "--n", "1", "--seed", "9100", "--out", str(tmp_path)])
    truth = json.loads((tmp_path / "scene9100.json").read_text())
    assert truth["background"] == "tight_cloth" and truth["size"] in (5, 7)


def _fine_over_coarse(image: np.ndarray) -> float:
    """Fine detail over coarse: mean |g − blur₁(g)| over mean |g − blur₃(g)| (lab/README.md)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine = np.abs(grey - cv2.GaussianBlur(grey, (0, 0), 1)).mean()
    return float(fine / np.abs(grey - cv2.GaussianBlur(grey, (0, 0), 3)).mean())


def test_soft_wood_cells_are_drawn_at_the_size_the_scenes_lay_them_out():
    rng = np.random.default_rng(0)
    drawn = [synth.soft_wood_cell_px(rng) for _ in range(300)]
    # 5×5 or 7×7 kingdoms of 0.5-0.9 of a 900 or 1200 px short side, a little smaller when tilted
    assert min(drawn) > 50 and max(drawn) < 220
    scene = synth.make_hard_scene(11100, soft_wood=True)
    corners = np.asarray(scene.corners)
    cell_px = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).mean() / scene.size
    assert min(drawn) < cell_px < max(drawn)


def test_a_soft_frame_cell_loses_fine_detail_as_the_soft_wood_frames_do():
    rng = np.random.default_rng(1)
    crop = cv2.resize(
        rng.integers(0, 255, (16, 16, 3), np.uint8), (64, 64), interpolation=cv2.INTER_NEAREST
    )  # sharp edges every 4 px, as a crown's outline
    softened = [synth.soft_frame_cell(crop, rng) for _ in range(20)]
    assert all(s.shape == crop.shape and s.dtype == np.uint8 for s in softened)
    assert _fine_over_coarse(crop) > 0.4
    assert np.median([_fine_over_coarse(s) for s in softened]) < 0.3
