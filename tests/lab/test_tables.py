"""The game-night table generator, its evaluation and the photo benchmark's parts."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from lab import evaluate_tables
from lab.benchmark_photo import timed_run
from lab.tables import NEGATIVE_KINDS, make_table_scene, negative_image


@pytest.fixture(autouse=True)
def _needs_shared(shared_dir):
    """Scenes are built from the shared aau boards."""


def test_same_seed_same_table():
    a, b = make_table_scene(3, 800), make_table_scene(3, 800)
    assert np.array_equal(a.image, b.image)
    assert [k.to_json() for k in a.kingdoms] == [k.to_json() for k in b.kingdoms]
    assert not np.array_equal(a.image, make_table_scene(4, 800).image)


def test_truth_is_consistent():
    sizes, cut = set(), 0
    for seed in range(10):
        scene = make_table_scene(seed, 800)
        h, w = scene.image.shape[:2]
        assert 2 <= len(scene.kingdoms) <= 4 and scene.image.dtype == np.uint8
        for kingdom in scene.kingdoms:
            sizes.add(kingdom.size)
            assert len(kingdom.labels) == kingdom.size
            assert sum(token == "C" for row in kingdom.labels for token in row) == 1
            inside = (kingdom.corners >= -1).all() and (kingdom.corners[:, 0] <= w + 1).all()
            inside = inside and (kingdom.corners[:, 1] <= h + 1).all()
            if not kingdom.complete:
                cut += 1
                assert kingdom.margin < 0 and not inside  # some tile is outside the photo
            else:
                assert kingdom.margin >= 0 and kingdom.visible == 1.0
    assert sizes == {5, 7} and cut > 0  # both sizes, and kingdoms cut by the frame, occur


def test_negatives_have_every_kind():
    kinds = {negative_image(seed, 400)[0] for seed in range(8)}
    assert kinds == set(NEGATIVE_KINDS)


def test_evaluation_prints_the_table(capsys):
    evaluate_tables.main(["--n", "2", "--negatives", "2", "--long-side", "900"])
    out = capsys.readouterr().out
    assert "complete kingdoms found" in out and "partial kingdoms refused" in out
    assert "photos without a kingdom (n=2)" in out


def test_the_report_counts_frames_half_a_cell_off_among_those_found(capsys):
    from types import SimpleNamespace

    results = [
        evaluate_tables.SceneResult(1, "cork", complete=2, found=2, corner_errors=[0.04, 0.98]),
        evaluate_tables.SceneResult(2, "cork", complete=1, found=1, corner_errors=[0.49]),
    ]
    args = SimpleNamespace(seed=1, long_side=900)
    evaluate_tables.print_report(results, [("blank", 0)], args)
    out = capsys.readouterr().out
    assert "complete kingdoms found           3/3 = 100.0 %" in out
    assert "  of which framed ≥ ½ cell off    1   (target 0)" in out


def test_corner_error_is_in_cells_under_the_best_quarter_turn():
    truth = np.array([[0, 0], [500, 0], [500, 500], [0, 500]], float)
    turned = np.roll(truth, 1, axis=0) + [10, 0]
    assert evaluate_tables.corner_error(turned, truth, 5) == pytest.approx(0.1)


def test_timed_run_reports_time_and_memory():
    seconds, megabytes = timed_run([sys.executable, "-c", "x = bytearray(50_000_000)"])
    assert 0 < seconds < 30 and megabytes > 45
    with pytest.raises(SystemExit, match="failed"):
        timed_run([sys.executable, "-c", "raise SystemExit(3)"])


def test_a_12_mp_table_is_read_shrunk_kingdom_by_kingdom(shared_dir):
    from lab.evaluate_tables import read_shrunk_table

    counts = read_shrunk_table(30000)
    assert counts["kingdoms"] >= 1 and counts["found"] <= counts["kingdoms"]
    assert counts["cells"] == 25 * counts["found"]  # 5×5 kingdoms in this scene
    assert 0 <= counts["cells_right"] <= counts["cells"]
    # 0.35-0.5 of a 4032 px photo, decoded as read_table decodes it: a few hundred px each.
    assert all(150 < px < 700 for px in counts["px_per_kingdom"])
