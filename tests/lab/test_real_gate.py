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


def test_soft_copies_are_as_soft_as_the_real_soft_frame_and_the_same_every_time(shared_dir):
    from vision.pipeline import read_image

    soft = Case("photos soft", "game1 soft", 0.35)
    assert soft in real_gate.cases(["photos soft"], (0.35,))
    data, truth = real_gate.image_and_truth(soft)
    assert real_gate.image_and_truth(soft)[0] == data  # the baseline can hold it
    sharp, sharp_truth = real_gate.image_and_truth(Case("photos", "game1", 0.35))
    assert truth == sharp_truth

    def decoded(jpeg: bytes) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)

    # Measured on the same tiles: the sharp photo's are sharper than the target, the soft
    # frame's at it (the search stops within a few thousandths).
    location = read_image(decoded(sharp)).location
    assert real_gate.soft_tiles_sharpness(decoded(sharp), location) > real_gate.SOFT_TARGET + 0.01
    measured = real_gate.soft_tiles_sharpness(decoded(data), location)
    assert abs(measured - real_gate.SOFT_TARGET) < 0.006


def test_writing_the_baseline_for_some_sources_keeps_the_others(tmp_path, monkeypatch):
    import json

    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"aau boards/1@1": {"found": True, "wrong": []}}))
    read = Outcome(Case("photos soft", "game1 soft", 0.5), 49, problem="not read (test)")
    monkeypatch.setattr(real_gate, "read_all", lambda cases, jobs: [read])
    real_gate.main(["--sources", "photos soft", "--baseline", str(baseline), "--write-baseline"])
    written = json.loads(baseline.read_text())
    assert written["aau boards/1@1"] == {"found": True, "wrong": []}
    assert written["photos soft/game1 soft@0.5"] == {"found": False, "wrong": []}


def test_a_kingdom_is_caught_when_its_total_is_right_or_every_miss_is_marked():
    case = Case("photos", "game1", 1.0)
    marked = Outcome(case, 49, ((0, 0, "L0", ".", True),), total_right=False, flags=3)
    unmarked = Outcome(case, 49, ((0, 0, "L0", ".", False),), total_right=False, flags=1)
    same_total = Outcome(case, 49, ((0, 0, "L0", "F0", False),), total_right=True, flags=0)
    lost = Outcome(case, 49, problem="not read")
    assert marked.caught and same_total.caught
    assert not unmarked.caught and not lost.caught
    text = real_gate.table([marked, unmarked, same_total, lost])
    assert "2/4 (50.0 %)" in text  # caught
    assert "1.33 (most 3)" in text  # flags per kingdom read
