"""lab.evaluate_tables: the finder's figures on softened photos (``--soft``)."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from lab.evaluate_tables import _soft, softened


def _detail(image: np.ndarray) -> float:
    return float(np.abs(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F)).mean())


def test_a_photo_is_softened_as_asked_and_left_as_drawn_without():
    image = np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    assert softened(image, None, 1) is image
    for soft in ("video", "2"):
        made = softened(image, soft, 1)
        assert made.shape == image.shape and made.dtype == np.uint8
        assert _detail(made) < 0.5 * _detail(image)
    # The same seed makes the same video frame.
    assert np.array_equal(softened(image, "video", 1), softened(image, "video", 1))


@pytest.mark.parametrize("text", ["x", "0", "-1"])
def test_soft_is_video_or_a_positive_sigma(text):
    assert _soft("video") == "video" and _soft("1.5") == "1.5"
    with pytest.raises(argparse.ArgumentTypeError):
        _soft(text)
