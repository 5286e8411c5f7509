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
