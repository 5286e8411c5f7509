"""The 3D castle figure drawn onto training crops (lab.figure)."""

from __future__ import annotations

import numpy as np

from lab.figure import draw_figure, with_figure
from vision.cells import CROP


def _changed(part: str, seed: int) -> np.ndarray:
    """Share of draws in which each pixel of a plain cell changed, over 30 figures."""
    rng = np.random.default_rng(seed)
    cell = np.full((CROP, CROP, 3), 128, np.uint8)
    changed = [
        np.abs(with_figure(cell, rng, part).astype(int) - 128).max(2) > 12 for _ in range(30)
    ]
    return np.mean(changed, axis=0)


def test_the_figure_covers_much_of_its_start_tile():
    changed = _changed("tile", 0)
    assert changed.shape == (CROP, CROP)
    assert 0.2 < changed.mean() < 0.9


def test_the_figure_leans_into_the_cell_behind_from_the_side_of_its_tile():
    # The start tile lies below the cell behind in the figure's drawing: its top comes in there.
    changed = _changed("behind", 1)
    assert changed[CROP // 2 :].mean() > 2 * changed[: CROP // 4].mean()
    assert changed[CROP // 2 :].mean() > 0.3


def test_figures_differ_in_colour_and_height():
    rng = np.random.default_rng(2)
    drawn = [draw_figure(rng) for _ in range(20)]
    for picture, coverage in drawn:
        assert picture.shape == (3 * CROP, CROP, 3) and coverage.shape == (3 * CROP, CROP)
        assert coverage.min() >= 0.0 and coverage.max() <= 1.0
    tops = [np.flatnonzero(coverage.max(1) > 0.5)[0] for _, coverage in drawn]
    colours = [picture[coverage > 0.5].mean(0) for picture, coverage in drawn]
    assert np.ptp(tops) > CROP // 2
    assert np.ptp(np.array(colours), axis=0).max() > 80
