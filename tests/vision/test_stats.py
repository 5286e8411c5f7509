"""vision.stats: numpy's median and percentile, to the last bit, without importing numpy.ma."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from vision.stats import median, percentile


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int64, np.uint8])
@pytest.mark.parametrize("shape", [(1,), (7,), (8,), (5, 21), (6, 40), (3, 4, 5)])
def test_median_is_numpys(dtype, shape):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    values = (rng.random(shape) * 200).astype(dtype)
    for axis in [None, *range(len(shape))]:
        ours, numpys = median(values, axis=axis), np.median(values, axis=axis)
        assert np.asarray(ours).dtype == np.asarray(numpys).dtype
        np.testing.assert_array_equal(ours, numpys)  # exactly, not nearly


def test_median_of_lists_and_with_nans_is_numpys():
    assert median([3, 1, 2]) == np.median([3, 1, 2])
    assert median([0.1, 0.7, 0.2, 0.4]) == np.median([0.1, 0.7, 0.2, 0.4])
    rows = np.arange(12, dtype=float).reshape(3, 4)
    rows[1, 2] = np.nan
    np.testing.assert_array_equal(median(rows, axis=1), np.median(rows, axis=1))
    assert np.isnan(median(rows))


@pytest.mark.parametrize("size", [1, 2, 99, 100, 101, 12800])
@pytest.mark.parametrize("q", [0, 50, 90, 99, 99.5, 100])
def test_percentile_is_numpys(size, q):
    rng = np.random.default_rng(size)
    chroma = rng.integers(0, 40, size).astype(np.int16)  # as check_colour has it
    assert percentile(chroma, q) == float(np.percentile(chroma, q))
    noise = rng.random(size)
    assert percentile(noise, q) == float(np.percentile(noise, q))


def test_reading_a_photo_never_imports_numpy_ma():
    """numpy.ma costs a fiftieth of a CLI run; no stage of the reader needs it."""
    code = (
        "import sys; from vision.pipeline import read_image;"
        " read_image(sys.argv[1]).board;"
        " sys.exit('numpy.ma' in sys.modules)"
    )
    from pathlib import Path

    photo = Path(__file__).resolve().parents[2] / "sample_images" / "synthetic-scene-20.jpg"
    assert subprocess.run([sys.executable, "-c", code, str(photo)], check=False).returncode == 0
