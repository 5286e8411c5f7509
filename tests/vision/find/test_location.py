"""BoardLocation helpers: which of a frame's cells the photo shows."""

from __future__ import annotations

import numpy as np

from vision.find.location import cells_in_photo, location_from_corners


def test_cells_in_photo_are_those_whose_centres_it_shows():
    # A 5×5 frame of 100-px cells in a 1000×450 photo: its last row's centres (y = 450) and
    # last column's (x = 1050) lie on or past the edge.
    corners = np.array([[600, 0], [1100, 0], [1100, 500], [600, 500]], float)
    location = location_from_corners(corners, 5, image_shape=(450, 1000))
    expected = np.ones((5, 5), bool)
    expected[4, :] = False
    expected[:, 4] = False
    np.testing.assert_array_equal(cells_in_photo(location), expected)
    tilted = location_from_corners(corners, 5, image_shape=(2000, 2000))
    assert cells_in_photo(tilted).all()
