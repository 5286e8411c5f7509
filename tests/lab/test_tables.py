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


def test_real_domino_kingdoms_split_into_real_dominoes_and_their_holes_show_the_table():
    """The reading evaluation's kingdoms (``real_dominoes``): every truth a board the real set
    builds, and every hole a place no tile was drawn, showing the table it lies on (the aau
    boards' own holes show their photographer's wooden table: pasted in, they read as tiles)."""
    import cv2

    from lab.tables import _place_kingdom
    from scoring.board import parse_board
    from scoring.tileset import Outcome, cover_kingdom

    magenta = np.array([255.0, 0.0, 255.0])
    to_photo = np.array([[100.0, 0, 100], [0, 100, 100], [0, 0, 1]])  # 100 px per cell
    square = np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float)
    holes_seen = tiles_seen = 0
    for seed in range(12):
        photo = np.full((700, 700, 3), magenta, np.float32)
        rng = np.random.default_rng(seed)
        truth = _place_kingdom(rng, None, 5, square, to_photo, photo, np.array([1.0, 0.0]), True)
        board = parse_board("\n".join(" ".join(row) for row in truth.labels))
        assert cover_kingdom(board).outcome is Outcome.SPLITS
        to_cells = cv2.getPerspectiveTransform(np.float32(square), np.float32(truth.corners))
        for r in range(5):
            for c in range(5):
                centre = cv2.perspectiveTransform(np.float32([[[c + 0.5, r + 0.5]]]), to_cells)
                x, y = np.round(centre[0, 0]).astype(int)
                shows_table = np.abs(photo[y, x] - magenta).max() < 30
                assert shows_table == (truth.labels[r][c] == ".")
                holes_seen += truth.labels[r][c] == "."
                tiles_seen += truth.labels[r][c] != "."
    assert holes_seen >= 4 and tiles_seen > 200
