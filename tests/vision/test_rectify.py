"""Straightening at the kingdom's own scale: the same kingdom, photographed with more or fewer
pixels, gives the same straightened board (vision.rectify)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.find import location_from_corners
from vision.rectify import photo_in_view, straighten, warp_at_scale


def _photo(side: int) -> tuple[np.ndarray, np.ndarray]:
    """A 5×5 'kingdom' of fine grain (a few pixels across at 2,000 px) filling a square photo
    drawn at ``side`` px (shrunk with INTER_AREA, as a phone's smaller setting would), and its
    corners."""
    rng = np.random.default_rng(0)
    fine = rng.integers(0, 256, (2000, 2000, 3), dtype=np.uint8)
    fine = cv2.GaussianBlur(fine, (0, 0), 1.5)
    photo = cv2.resize(fine, (side, side), interpolation=cv2.INTER_AREA)
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float64)
    return photo, corners


def test_one_kingdom_straightens_alike_at_every_photo_size():
    boards = {}
    for side in (2000, 1000, 700, 500):  # 400, 200, 140 and 100 photo px per cell
        photo, corners = _photo(side)
        boards[side] = straighten(photo, location_from_corners(corners, 5)).astype(np.float32)
    # Against the photo already at the board's 100 px per cell: the grain averages out alike
    # whatever the photo's size (sampling the 2,000 and 1,000 px photos left 5.9 levels).
    for side in (2000, 1000, 700):
        assert np.abs(boards[side] - boards[500]).mean() < 2.5, side


def test_a_photo_finer_than_the_view_is_shrunk_before_warping_not_sampled():
    photo, corners = _photo(1000)  # 200 px per cell; the view 100
    target = np.array([[0, 0], [500, 0], [500, 500], [0, 500]], np.float64)
    to_view = cv2.getPerspectiveTransform(corners.astype(np.float32), target.astype(np.float32))
    averaged = cv2.resize(photo, (500, 500), interpolation=cv2.INTER_AREA).astype(np.float32)
    at_scale = warp_at_scale(photo, to_view, (500, 500), 2.0).astype(np.float32)
    sampled = cv2.warpPerspective(photo, to_view, (500, 500)).astype(np.float32)
    assert np.abs(at_scale - averaged).mean() < 2
    assert np.abs(sampled - averaged).mean() > 3 * np.abs(at_scale - averaged).mean()


def test_parts_of_the_view_past_the_photo_stay_black():
    photo, _ = _photo(700)
    frame = np.array([[0, 0], [1400, 0], [1400, 1400], [0, 1400]], np.float64)  # 4× the photo
    board = straighten(photo, location_from_corners(frame, 5))
    assert board[:240, :240].mean() > 60  # the photo's grain, in the top-left quarter
    assert board[260:].max() == 0 and board[:, 260:].max() == 0  # beyond its edges


def test_the_photo_in_view_mask_is_an_all_white_photo_warped_alike():
    """``photo_in_view`` saves shrinking a photo-sized all-255 image: it must mark exactly the
    pixels that warping one would (tilted view, part of it past the photo, fine and coarse)."""
    shape = (900, 1200)
    corners = np.array([[-150, 100], [700, 40], [760, 980], [-90, 930]], np.float32)
    for side, view in ((100, 700), (400, 700), (700, 700)):  # finer 8.5, 2.1 and 1.2
        target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
        to_view = cv2.getPerspectiveTransform(corners, target).astype(np.float64)
        finer = view / side * 1.2
        white = np.full(shape, 255, np.uint8)
        warped = warp_at_scale(white, to_view, (side, side), finer, cv2.INTER_NEAREST)
        mask = photo_in_view(shape, to_view, (side, side), finer)
        assert 0 < (mask == 0).sum() < mask.size  # some of the view is past the photo's edge
        np.testing.assert_array_equal(mask, warped)
