"""What a training recipe adds to an epoch (lab.train.sample_epoch); the last test needs torch."""

from __future__ import annotations

import numpy as np
import pytest

from lab.data import LabelledBoard, LabelledCrop
from lab.train import CASTLE, EMPTY, LAKE, Recipe, make_training_set, sample_epoch
from vision.cells import CROP


def _tiny_training_set():
    rng = np.random.default_rng(0)
    terrain = rng.integers(0, 6, (5, 5))
    terrain[2, 2] = CASTLE
    board = LabelledBoard(
        "b",
        rng.integers(0, 255, (5 * CROP, 5 * CROP, 3), np.uint8),
        terrain,
        np.zeros((5, 5), int),
        0,
    )
    crops = [
        LabelledCrop(f"c{k}", rng.integers(0, 255, (60, 60, 3), np.uint8), k % 6, 0, "g")
        for k in range(12)
    ]
    return make_training_set([board], crops)


class _Untrained:
    """A stand-in fold model that answers every crop alike: only the split is looked at."""

    def __init__(self, *args):
        pass

    def predict(self, crops, all_turns=False):
        return np.full((len(crops), 8), 1 / 8), np.full((len(crops), 4), 1 / 4)


def _eight_kingdoms() -> tuple[list[LabelledBoard], list[LabelledCrop]]:
    """Eight one-board kingdoms and eight crops from eight sessions, for fold splits."""
    board = _tiny_training_set().boards[0]
    boards = [LabelledBoard(f"b{k}", board.image, board.terrain, board.crowns, k) for k in range(8)]
    crops = [
        LabelledCrop(f"c{k}", np.zeros((60, 60, 3), np.uint8), k % 6, 0, f"g{k}") for k in range(8)
    ]
    return boards, crops


def test_figure_crops_add_castles_under_figures_and_cells_behind_them():
    data = _tiny_training_set()
    plain = sample_epoch(data, np.random.default_rng(1), 10, recipe=Recipe(0, 0, 0, 0))
    figures = sample_epoch(data, np.random.default_rng(1), 10, recipe=Recipe(0, 30, 0, 0))
    assert len(figures[0]) == len(plain[0]) + 60
    extra_castles = np.sum(figures[1] == CASTLE) - np.sum(plain[1] == CASTLE)
    assert extra_castles == 30  # the other 30 keep the terrain of the cell behind the figure
    assert np.sum(figures[1] == EMPTY) == np.sum(plain[1] == EMPTY)


def test_a_cell_mostly_hidden_by_the_figure_is_trained_with_unknown_crowns():
    data = _tiny_training_set()

    def unknown_crowns(recipe: Recipe) -> int:
        # The blurred cells (HEAVY_BLUR_SHARE) are unknown too: count them alike in both runs.
        return int(np.sum(sample_epoch(data, np.random.default_rng(4), 0, recipe=recipe)[2] < 0))

    never = unknown_crowns(Recipe(0, 200, 0, 0, 1.8, 1.0))
    over_half = unknown_crowns(Recipe(0, 200, 0, 0, 1.8, 0.5))
    over_none = unknown_crowns(Recipe(0, 200, 0, 0, 1.8, -1.0))
    assert over_none - never >= 180  # every cell behind (a few already blurred past reading)
    assert 10 <= over_half - never <= 150  # only the cells covered more than half


def test_cloth_share_is_the_share_of_empty_cells_drawn_as_printed_cloths(monkeypatch):
    # A black "cloth" marks which empty cells came from printed_cloth.
    monkeypatch.setattr(
        "lab.train.printed_cloth", lambda rng, size: np.zeros((size, size, 3), np.uint8)
    )
    data = _tiny_training_set()

    def black_empties(share: float) -> int:
        images, terrains, _ = sample_epoch(
            data, np.random.default_rng(2), 200, recipe=Recipe(0, 0, share, 0)
        )
        return int(sum(np.median(image) < 30 for image in images[terrains == EMPTY]))

    assert black_empties(0.0) < 40  # a few synthetic tables are black where a frame left the photo
    assert 70 < black_empties(0.5) < 150
    assert black_empties(1.0) > 190


def test_glare_share_washes_out_that_share_of_training_crops(monkeypatch):
    # A pure white "reflection" marks which crops were given glare.
    monkeypatch.setattr("lab.train.phone_effects", _marking_phone_effects)
    data = _tiny_training_set()

    def white_crops(share: float) -> float:
        images, _, _ = sample_epoch(
            data, np.random.default_rng(3), 200, recipe=Recipe(0, 0, 0, share)
        )
        return float(np.mean([image.min() == 255 for image in images]))

    assert white_crops(0.0) == 0.0
    assert 0.15 < white_crops(0.3) < 0.45
    assert white_crops(1.0) == 1.0


def _marking_phone_effects(crop, rng, light_shifts=0.0, glare_share=0.0, sheen_share=0.0):
    """``phone_effects`` reduced to its glare decision: a glared crop comes back all white."""
    if glare_share and rng.random() < glare_share:
        return np.full_like(crop, 255)
    return crop


def test_held_out_predictions_are_judged_against_the_labels_given():
    import pytest

    from lab.train import OutOfFold

    boards = [_tiny_training_set().boards[0]]
    crops = [LabelledCrop(f"c{k}", np.zeros((8, 8, 3), np.uint8), k % 6, 0, "g") for k in range(3)]
    probs = (np.zeros((1, 5, 5, 8)), np.zeros((1, 5, 5, 4)), np.zeros((3, 8)), np.zeros((3, 4)))
    oof = OutOfFold.from_predictions(boards, np.zeros(1, int), crops, probs)
    fixed = [LabelledCrop(c.name, c.image, 4, 2, c.group) for c in crops]

    judged = oof.with_crop_labels_of(fixed)
    assert judged.crop_terrain.tolist() == [4, 4, 4] and judged.crop_crowns.tolist() == [2, 2, 2]
    assert oof.crop_terrain.tolist() == [0, 1, 2]  # the predictions' own record is untouched
    with pytest.raises(ValueError, match="2 crops for 3 predictions"):
        oof.with_crop_labels_of(fixed[:2])


def test_runs_with_other_seeds_hold_out_the_same_kingdoms(monkeypatch):
    import lab.train as train

    seeds_trained = []
    monkeypatch.setattr(
        train, "train_network", lambda d, e, seed, *a, **k: seeds_trained.append(seed)
    )
    monkeypatch.setattr(train, "export_onnx", lambda net: b"")
    monkeypatch.setattr(train, "CellModel", _Untrained)
    boards, crops = _eight_kingdoms()
    no_scenes = train.Recipe(scene_cells=0)
    first = train.cross_validate(boards, crops, 4, 1, seed=1, log=lambda *_: None, recipe=no_scenes)
    second = train.cross_validate(
        boards, crops, 4, 1, seed=2, log=lambda *_: None, recipe=no_scenes
    )
    assert first.board_folds.tolist() == second.board_folds.tolist()
    assert len(set(first.board_folds.tolist())) == 4
    assert seeds_trained == [1, 2, 3, 4, 2, 3, 4, 5]  # the networks do start apart


def test_scene_cells_join_the_epoch_with_their_own_labels():
    from lab.scene_cells import MARGIN, SceneCells

    side = CROP + 2 * MARGIN
    # Scene cells are all swamp with two crowns, a label no other cell of the tiny set has.
    scenes = SceneCells(np.full((7, side, side, 3), 90, np.uint8), np.full(7, 4), np.full(7, 2))
    base = _tiny_training_set()
    data = make_training_set(base.boards, base.crops, scenes)
    without = sample_epoch(
        data, np.random.default_rng(2), 5, recipe=Recipe(0, 0, 0, 0, scene_cells=0)
    )
    with_scenes = sample_epoch(
        data, np.random.default_rng(2), 5, recipe=Recipe(0, 0, 0, 0, scene_cells=40)
    )
    assert len(with_scenes[0]) == len(without[0]) + 40
    swamp_two = (with_scenes[1] == 4) & (with_scenes[2] == 2)
    assert 34 <= swamp_two.sum() <= 40  # a few are blurred past reading: crowns unknown
    assert not ((without[1] == 4) & (without[2] == 2)).any()


def test_scene_holes_none_leaves_the_photos_holes_out():
    from lab.scene_cells import MARGIN, SceneCells

    side = CROP + 2 * MARGIN
    # Half the scene cells are holes (empty), half swamp with two crowns.
    terrain = np.array([EMPTY, 4] * 10)
    scenes = SceneCells(np.full((20, side, side, 3), 90, np.uint8), terrain, (terrain == 4) * 2)
    base = _tiny_training_set()
    data = make_training_set(base.boards, base.crops, scenes)

    def empties(holes: str) -> int:
        recipe = Recipe(0, 0, 0, 0, scene_cells=200, scene_holes=holes)
        return int(
            np.sum(sample_epoch(data, np.random.default_rng(3), 5, recipe=recipe)[1] == EMPTY)
        )

    assert empties("none") == 5  # only the synthetic table cells of the epoch
    assert 60 <= empties("all") - 5 <= 140  # about half of the 200 scene cells


def test_unlike_lake_leaves_out_only_the_holes_coloured_like_lake_tiles():
    from lab.scene_cells import MARGIN, SceneCells
    from lab.train import LAKE, lake_coloured

    side = CROP + 2 * MARGIN
    blue, yellow, green = (160, 90, 30), (40, 200, 230), (60, 170, 80)
    # Tiles: six lakes (blue), six wheat (yellow); holes: one blue cloth, one green, one yellow.
    colours = [blue] * 6 + [yellow] * 6 + [blue, green, yellow]
    terrain = np.array([LAKE] * 6 + [0] * 6 + [EMPTY] * 3)
    images = np.stack([np.full((side, side, 3), c, np.uint8) for c in colours])
    scenes = SceneCells(images, terrain, np.zeros(15, int))
    assert lake_coloured(scenes).tolist() == [False] * 12 + [True, False, False]

    base = _tiny_training_set()
    data = make_training_set(base.boards, base.crops, scenes)
    recipe = Recipe(0, 0, 0, 0, scene_cells=300, scene_holes="unlike_lake")
    images_out, terrains, _ = sample_epoch(data, np.random.default_rng(4), 0, recipe=recipe)
    holes = images_out[terrains == EMPTY]
    # Every scene hole trained is the green or the yellow one; the blue one never.
    assert len(holes) > 20
    assert not np.any(np.all(holes[:, CROP // 2, CROP // 2] == blue, axis=-1))


def test_a_recipe_names_its_scene_holes_from_the_known_choices():
    with pytest.raises(ValueError, match="scene_holes"):
        Recipe(scene_holes="some")


def test_each_fold_trains_on_photos_of_its_own_training_kingdoms_only(monkeypatch, tmp_path):
    import lab.train as train
    from lab.scene_cells import MARGIN, SceneCells

    side = CROP + 2 * MARGIN
    shown, trained_with = [], []

    def fake_scene_cells(count, kingdoms, seed):
        shown.append((kingdoms, seed))
        return SceneCells(
            np.zeros((2, side, side, 3), np.uint8), np.zeros(2, int), np.zeros(2, int)
        )

    monkeypatch.setattr(train, "scene_cells", fake_scene_cells)
    monkeypatch.setattr(train, "SCENE_CACHE", tmp_path)
    monkeypatch.setattr(
        train, "train_network", lambda d, *a, **k: trained_with.append(d.scene_cells)
    )
    monkeypatch.setattr(train, "export_onnx", lambda net: b"")

    monkeypatch.setattr(train, "CellModel", _Untrained)
    boards, crops = _eight_kingdoms()
    oof = train.cross_validate(boards, crops, 4, 1, log=lambda *_: None)
    assert len(shown) == 4 and all(cells is not None for cells in trained_with)
    for k, (kingdoms, _) in enumerate(shown):
        held_out = {b.kingdom for b, fold in zip(boards, oof.board_folds, strict=True) if fold == k}
        assert held_out and not kingdoms & held_out
        assert kingdoms | held_out == set(range(8))
    assert len({seed for _, seed in shown}) == 4  # every fold's photos are other photos
    # A second run finds the photos rendered by the first.
    train.cross_validate(boards, crops, 4, 1, log=lambda *_: None)
    assert len(shown) == 4


def test_lake_repeats_draw_the_cell_crops_lakes_that_many_extra_times():
    data = _tiny_training_set()
    lakes = sum(crop.terrain == LAKE for crop in data.crops)
    assert lakes >= 1

    def lake_cells(repeats: int) -> int:
        recipe = Recipe(0, 0, 0, 0, scene_cells=0, lake_repeats=repeats)
        _, terrains, _ = sample_epoch(data, np.random.default_rng(8), 0, recipe=recipe)
        return int(np.sum(terrains == LAKE))

    assert lake_cells(2) - lake_cells(0) == 2 * lakes


def test_training_runs_its_schedule_to_the_end_whatever_the_recipe_adds():
    # The learning-rate schedule is as long as the epochs drawn: a recipe that draws more cells
    # (here extra lakes) must not run past its end.
    torch = pytest.importorskip("torch")
    from lab.train import train_network

    recipe = Recipe(0, 0, 0, 0, scene_cells=0, lake_repeats=40)
    before = torch.get_num_threads()
    try:
        net = train_network(
            _tiny_training_set(), 2, seed=1, log=lambda line: None, recipe=recipe, threads=1
        )
        assert torch.get_num_threads() == 1  # two runs side by side: one core each
    finally:
        torch.set_num_threads(before)
    assert not net.training


def test_castle_neighbour_repeats_draw_the_cells_beside_the_castle_that_many_extra_times():
    data = _tiny_training_set()  # one board, its castle in the middle: four cells beside it
    beside = [(1, 2), (3, 2), (2, 1), (2, 3)]
    board = data.boards[0]

    def epoch(repeats: int) -> tuple[np.ndarray, np.ndarray]:
        recipe = Recipe(0, 0, 0, 0, scene_cells=0, castle_neighbour_repeats=repeats)
        _, terrains, crowns = sample_epoch(data, np.random.default_rng(8), 0, recipe=recipe)
        return terrains, crowns

    plain, _ = epoch(0)
    more, _ = epoch(3)
    assert len(more) - len(plain) == 3 * len(beside)
    for terrain in range(6):
        extra = 3 * sum(board.terrain[cell] == terrain for cell in beside)
        assert np.sum(more == terrain) - np.sum(plain == terrain) == extra


def test_soft_share_zero_leaves_every_crop_as_the_shipped_recipe_draws_it():
    data = _tiny_training_set()
    shipped = sample_epoch(data, np.random.default_rng(5), 10, recipe=Recipe())
    off = sample_epoch(data, np.random.default_rng(5), 10, recipe=Recipe(soft_share=0.0))
    for a, b in zip(shipped, off, strict=True):
        np.testing.assert_array_equal(a, b)


def test_soft_share_gives_that_share_of_crops_a_soft_frames_blur(monkeypatch):
    # A black "soft frame" marks which crops were softened.
    monkeypatch.setattr("lab.train.phone_effects", _marking_phone_effects)
    monkeypatch.setattr("lab.train.soft_frame_cell", lambda crop, rng: np.zeros_like(crop))
    data = _tiny_training_set()

    def black_crops(share: float) -> float:
        images, _, _ = sample_epoch(
            data, np.random.default_rng(6), 200, recipe=Recipe(0, 0, 0, 0, soft_share=share)
        )
        return float(np.mean([image.max() == 0 for image in images]))

    assert black_crops(0.0) == 0.0
    assert 0.15 < black_crops(0.3) < 0.45
    assert black_crops(1.0) > 0.9  # all but the few blurred past reading (HEAVY_BLUR_SHARE)


def test_soft_share_changes_the_crops_it_softens():
    data = _tiny_training_set()
    plain = sample_epoch(data, np.random.default_rng(7), 10, recipe=Recipe(0, 0, 0, 0))
    soft = sample_epoch(data, np.random.default_rng(7), 10, recipe=Recipe(0, 0, 0, 0, soft_share=1))
    assert plain[0].shape == soft[0].shape
    np.testing.assert_array_equal(plain[1], soft[1])  # the same cells, labels kept
    assert np.mean(np.abs(plain[0].astype(int) - soft[0].astype(int))) > 10
