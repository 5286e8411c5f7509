"""Pairing two trainings' held-out predictions (lab.second_opinion.paired)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.data import LabelledBoard, LabelledCrop
from lab.second_opinion import paired
from lab.train import OutOfFold


def _held_out(seed: int, folds=(0, 1)) -> OutOfFold:
    rng = np.random.default_rng(seed)
    blank = np.zeros((10, 10, 3), np.uint8)
    boards = [
        LabelledBoard(f"b{k}", blank, np.zeros((5, 5), int), np.zeros((5, 5), int), k)
        for k in range(2)
    ]
    crops = [LabelledCrop(f"c{k}", blank, k, 0, "g") for k in range(3)]

    def probs(*shape):
        return rng.dirichlet(np.ones(shape[-1]), shape[:-1])

    first = (probs(2, 5, 5, 8), probs(2, 5, 5, 4), probs(3, 8), probs(3, 4))
    turned = (probs(2, 5, 5, 8), probs(2, 5, 5, 4), probs(3, 8), probs(3, 4))
    return OutOfFold.from_predictions(boards, np.array(folds), crops, first, turned=turned)


def test_the_pair_keeps_the_first_look_and_crowns_and_averages_the_second_terrain():
    a, b = _held_out(1), _held_out(2)
    pair = paired(a, b)
    np.testing.assert_array_equal(pair.board_terrain_probs, a.board_terrain_probs)
    np.testing.assert_array_equal(pair.crop_crown_probs, a.crop_crown_probs)
    np.testing.assert_allclose(
        pair.board_terrain_probs_turned,
        (a.board_terrain_probs_turned + b.board_terrain_probs_turned) / 2,
    )
    np.testing.assert_allclose(
        pair.crop_terrain_probs_turned,
        (a.crop_terrain_probs_turned + b.crop_terrain_probs_turned) / 2,
    )
    np.testing.assert_array_equal(pair.board_crown_probs_turned, a.board_crown_probs_turned)
    np.testing.assert_array_equal(pair.crop_crown_probs_turned, a.crop_crown_probs_turned)


def test_runs_on_other_folds_are_not_paired():
    with pytest.raises(ValueError, match="board_folds"):
        paired(_held_out(1), _held_out(2, folds=(1, 0)))
