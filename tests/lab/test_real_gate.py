"""The real-photo gate's plumbing: one aau board read at two sizes, judged against a baseline."""

from __future__ import annotations

import cv2
import numpy as np

from lab import real_gate
from lab.real_gate import Case, Outcome


def test_one_board_at_two_sizes_is_read_and_tabled(shared_dir):
    first = real_gate.cases(["aau boards"], (1.0, 0.35))[:2]
    assert [c.scale for c in first] == [1.0, 0.35] and first[0].name == first[1].name
    data, truth = real_gate.image_and_truth(first[1])
    small = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert small.shape[:2] == (175, 175)  # 500 px × 0.35
    assert len(truth) == 5 and all(len(row) == 5 for row in truth)

    outcomes = real_gate.read_all(first)
    assert all(o.found and o.cells == 25 for o in outcomes)
    text = real_gate.table(outcomes)
    assert "aau boards" in text and "0.35" in text and "/25" in text
    # The reading is its own baseline: nothing gained, nothing lost.
    assert real_gate.compare(outcomes, real_gate.as_baseline(outcomes)) == ([], [])


def test_a_cell_turned_wrong_or_a_kingdom_lost_fails_the_gate():
    right = Case("aau boards", "1", 0.5)
    cell_wrong = Case("aau boards", "2", 0.5)
    lost = Case("photos", "game1", 1.0)
    baseline = real_gate.as_baseline(
        [
            Outcome(right, 25, ((0, 0, "L0", "G0", False),)),
            Outcome(cell_wrong, 25),
            Outcome(lost, 49),
        ]
    )
    now = [
        Outcome(right, 25),  # the miss is now right
        Outcome(cell_wrong, 25, ((3, 4, "W1", "W0", True),)),
        Outcome(lost, 49, problem="not read"),
    ]
    regressions, gains = real_gate.compare(now, baseline)
    assert regressions == [
        "aau boards/2@0.5: cells now wrong ['3,4']",
        "photos/game1@1: kingdom no longer read",
    ]
    assert gains == ["aau boards/1@0.5: cells now right ['0,0']"]
    assert "cell (3, 4) truth W1, read W0 (flagged)" in "\n".join(real_gate.misses(now))
