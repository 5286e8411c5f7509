"""The hole-or-tile fit on the cell model's features (lab.hole_art)."""

from __future__ import annotations

import numpy as np

from lab.hole_art import fit, log_odds


def test_the_fit_sets_holes_apart_and_weighs_them_as_much_as_the_many_tiles():
    rng = np.random.default_rng(0)
    tiles = rng.normal(0.0, 1.0, (2000, 6))
    holes = rng.normal(0.0, 1.0, (60, 6))
    holes[:, 0] += 4.0  # one feature tells them apart; the rest are noise
    features = np.vstack([tiles, holes])
    is_hole = np.r_[np.zeros(2000, bool), np.ones(60, bool)]
    model = fit(features, is_hole, l2=1.0)
    odds = log_odds(model, features)
    assert np.median(odds[is_hole]) > 3 and np.median(odds[~is_hole]) < -3
    # Classes weighed equally: the point halfway between the two means is even odds, however
    # rare holes are.
    middle = np.zeros((1, 6))
    middle[0, 0] = 2.0
    assert abs(log_odds(model, middle)[0]) < 1.0
    assert abs(model["weights"][0]) > 5 * np.abs(model["weights"][1:]).max()


def test_the_training_scenes_keep_clear_of_the_kinds_evaluation_and_development_seeds():
    from lab.hole_art import TRAIN_SEEDS

    assert len(set(TRAIN_SEEDS)) == len(TRAIN_SEEDS) == 480
    assert not any(9000 <= s < 9060 or 9300 <= s < 10000 or s >= 30000 for s in TRAIN_SEEDS)


def test_the_scene_cache_is_read_only_for_the_training_seeds(tmp_path):
    from lab.hole_art import TRAIN_SEEDS, cached_scene_features

    path = tmp_path / "scenes.npz"
    assert cached_scene_features(path) is None  # nothing saved yet
    features, holes, groups = np.ones((3, 4)), np.array([True, False, False]), np.arange(3)
    np.savez(path, features=features, holes=holes, groups=groups, seeds=np.array(TRAIN_SEEDS))
    read = cached_scene_features(path)
    assert read is not None and np.array_equal(read[0], features)
    assert np.array_equal(read[1], holes) and np.array_equal(read[2], groups)
    # Features of other scenes (the first fit's 160 seeds) are not taken for these.
    np.savez(path, features=features, holes=holes, groups=groups, seeds=np.arange(9100, 9260))
    assert cached_scene_features(path) is None
