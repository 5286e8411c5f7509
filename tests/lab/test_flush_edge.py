"""lab.flush_edge: an aau board flush with the photo's edge, or cut by it."""

from __future__ import annotations

import numpy as np

from lab.flush_edge import edge_photo


def test_a_board_lies_flush_with_the_edge_or_is_cut_by_it_as_drawn_from_its_number(shared_dir):
    flush, inside = edge_photo(25, False)
    cut, short = edge_photo(25, True)
    assert 0 <= inside <= 0.08  # flush: at most 0.08 cell of table beside it
    assert -0.75 <= short <= -0.25  # cut a quarter to three quarters of a cell short
    for image in (flush, cut):
        assert image.dtype == np.uint8 and image.ndim == 3
        assert min(image.shape[:2]) >= 450  # a board of 90-160 px a cell, table beyond it
    assert np.array_equal(edge_photo(25, True)[0], cut)  # the same photo every time
    assert not np.array_equal(edge_photo(29, True)[0][:100, :100], cut[:100, :100])
