"""User-given corners are checked before they reach the homography."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from vision.corners import CornersError, check_corners
from vision.load_image import ImageError

SHAPE = (1200, 1600, 3)  # height, width
GOOD = [(200, 150), (1300, 180), (1280, 1050), (220, 1000)]


def test_good_corners_come_back_as_a_float_array_in_any_order():
    for order in (GOOD, GOOD[::-1], [GOOD[2], GOOD[0], GOOD[3], GOOD[1]]):
        points = check_corners(order, SHAPE)
        assert points.shape == (4, 2) and points.dtype == np.float64
        assert sorted(map(tuple, points)) == sorted(order)


def test_a_tap_just_outside_the_border_is_accepted():
    check_corners([(-10, -5), (1605, 0), (1600, 1210), (0, 1200)], SHAPE)


@pytest.mark.parametrize(
    ("corners", "words"),
    [
        ([(np.nan, 0), *GOOD[1:]], "not a finite number"),
        ([(np.inf, 0), *GOOD[1:]], "not a finite number"),
        ([(0, 0)] * 4, "enclose 0.00% of the image"),
        ([(10, 10), (11, 10), (11, 11), (10, 11)], "too little for a kingdom"),
        ([(200, 150), (1e300, 180), (1280, 1050), (220, 1000)], "outside the 1600×1200 image"),
        ([(200, 150), (5000, 180), (1280, 1050), (220, 1000)], "outside"),
        ([(200, 150), (1300, 180), (1280, 1050), (700, 500)], "do not outline a four-sided"),
        ([(100, 100), (800, 100), (1500, 100), (800, 1000)], "do not outline a four-sided"),
        ([(1, 2, 3), (4, 5, 6)], "four x,y pairs"),
        ("corners", "four x,y pairs"),
        ([(1, 2), (3, 4), (5, 6)], "four x,y pairs"),
    ],
)
def test_bad_corners_say_what_to_do_without_numpy_warnings(corners, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning would fail the test
        with pytest.raises(CornersError, match=words) as err:
            check_corners(corners, SHAPE)
    assert isinstance(err.value, ImageError)
    assert "corners" in str(err.value)
