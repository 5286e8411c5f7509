"""lab.frame_faults: frames moved the way the finder fails, read by the rest of the pipeline."""

from __future__ import annotations

import numpy as np
import pytest

from lab import frame_faults
from vision.find.location import location_from_corners


def square_frame(size: int = 5, cell: float = 100.0, at: float = 300.0, photo: int = 1400):
    corners = np.array([[0, 0], [size, 0], [size, size], [0, size]], float) * cell + at
    return location_from_corners(corners, size, image_shape=(photo, photo), tile_span=None)


def test_half_a_cell_right_moves_every_corner_half_a_cell_and_claims_the_whole_frame():
    moved = frame_faults.faulty_frame(square_frame(), "half a cell right")
    assert moved.size == 5 and moved.tile_span == (0, 5, 0, 5)
    assert np.allclose(moved.corners - square_frame().corners, [[50, 0]] * 4)


def test_a_five_framed_seven_is_one_cell_larger_all_round():
    grown = frame_faults.faulty_frame(square_frame(), "5×5 framed 7×7")
    assert grown.size == 7
    assert np.allclose(grown.corners[0], [200, 200]) and np.allclose(grown.corners[2], [900, 900])


def test_a_pitch_off_keeps_the_centre_and_scales_the_cells():
    short = frame_faults.faulty_frame(square_frame(), "pitch 8 % short")
    assert np.allclose(short.corners.mean(axis=0), [550, 550])
    assert np.isclose(short.corners[1, 0] - short.corners[0, 0], 500 * 0.92)


def test_a_fault_that_cannot_happen_does_not_apply():
    # A 7×7 kingdom is not framed 9×9; a frame pushed past the photo's edge is never found.
    assert frame_faults.faulty_frame(square_frame(7), "5×5 framed 7×7") is None
    assert frame_faults.faulty_frame(square_frame(at=10.0), "5×5 framed 7×7") is None


def test_every_fault_is_named_once_and_the_control_comes_first():
    assert next(iter(frame_faults.FAULTS)) == "as found"
    cases = frame_faults.fault_cases(scales=(0.5,), faults=("as found", "a cell down"))
    assert {c.fault for c in cases} == {"as found", "a cell down"}
    assert len({c.key for c in cases}) == len(cases)


@pytest.mark.parametrize("fault", ["as found", "half a cell down"])
def test_a_real_photo_from_a_faulty_frame_is_judged_as_the_gate_judges(shared_dir, fault):
    from lab.real_gate import Case

    case = frame_faults.FaultCase(Case("photos", "kd_czech_02", 0.35), fault)
    outcome = frame_faults.read_fault(case, *frame_faults.photo_and_truth(case.photo))
    assert outcome.found and outcome.caught
    if fault == "as found":
        assert not outcome.wrong  # the control reads as the gate does
    else:
        # Read across the seams: cells go wrong, and every one of them is marked for a look.
        assert outcome.wrong and all(flagged for *_, flagged in outcome.wrong)
