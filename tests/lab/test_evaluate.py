"""The evaluation command runs end to end on a small split (the shipped model, no training)."""

from __future__ import annotations

import numpy as np

from lab.evaluate import main


def test_quick_evaluation_prints_the_table(shared_dir, capsys):
    figures = main(["--quick"])
    out = capsys.readouterr().out
    for line in (
        "terrain confusion",
        "terrain accuracy",
        "crown-count accuracy",
        "board totals right",
        "ms per 500×500 board",
        "model load ms",
    ):
        assert line in out
    assert figures["terrain"] > 0.95 and figures["crowns"] > 0.95
    assert figures["load_ms"] > 0  # measured and printed; its target is read off the table


def test_compare_decoding_counts_boards_turned_right_and_wrong(capsys):
    import numpy as np

    from lab.evaluate import compare_decoding, random_kingdom
    from scoring.tileset import dominoes
    from vision.labels import CROWN_CLASSES, TERRAINS

    board = random_kingdom(5, np.random.default_rng(3), dominoes())
    terrain = np.array([[TERRAINS.index(cell.terrain) for cell in row] for row in board.cells])
    crowns = np.array([[cell.crowns for cell in row] for row in board.cells])
    t_probs = np.full((2, 5, 5, len(TERRAINS)), 0.01)
    c_probs = np.full((2, 5, 5, CROWN_CLASSES), 0.01)
    for i in range(2):
        for r in range(5):
            for c in range(5):
                t_probs[i, r, c, terrain[r, c]] = 0.9
                c_probs[i, r, c, crowns[r, c]] = 0.9
    # Board 1: the castle looks a little more like a castle one cell up (the 3D figure).
    castle = TERRAINS.index(board[2, 2].terrain)
    t_probs[1, 1, 2, castle] = 0.95
    t_probs[1, 2, 2, castle] = 0.5
    t_probs[1, 2, 2, TERRAINS.index(board[1, 2].terrain)] = 0.3
    truth = np.stack([terrain, terrain]), np.stack([crowns, crowns])
    figures = compare_decoding(np.array(["a", "b"]), *truth, t_probs, c_probs, "test")
    out = capsys.readouterr().out
    assert "boards decoding turned right: 1 ['b']" in out
    assert figures["turned_wrong"] == 0 and figures["boards_alone"] == 0.5
    assert figures["boards_decoded"] == 1.0


def test_hard_scenes_evaluation_runs(shared_dir, capsys):
    from lab.evaluate import evaluate_scenes

    figures = evaluate_scenes(1, seed=1001)
    out = capsys.readouterr().out
    assert "+ decoding" in out and "castle cell right" in out
    assert 0.0 <= figures["cells"] <= 1.0
    assert "boards wrong with no cell marked" in out and figures["silent_boards"] in (0, 1)


def test_marked_mistakes_tell_caught_from_silent_errors():
    from lab.evaluate import marked_mistakes

    truth = np.array([["W0", "C"], ["L1", "."]], object)
    read = np.array([["W1", "C"], ["L1", "L0"]], object)
    none = np.zeros((2, 2), bool)
    assert marked_mistakes(truth, truth, none) == (0, 0, False)
    assert marked_mistakes(read, truth, none) == (2, 0, True)
    one_mark = none.copy()
    one_mark[0, 0] = True  # one of the two wrong cells marked: the board is not silent
    assert marked_mistakes(read, truth, one_mark) == (2, 1, False)
    elsewhere = none.copy()
    elsewhere[0, 1] = True  # a right cell marked: the user looks at the board, no error caught
    assert marked_mistakes(read, truth, elsewhere) == (2, 0, False)


def test_crop_centring_measures_a_frame_off_by_a_third_of_a_cell(shared_dir):
    """Read through the true corners, crops sit near the drifted tiles; a frame moved by a third
    of a cell puts them about a third of a cell off."""
    import dataclasses

    from lab.evaluate import crop_centring
    from lab.synth import make_hard_scene
    from vision.pipeline import read_image

    scene = make_hard_scene(1000)
    assert scene.tile_shifts is not None and np.abs(scene.tile_shifts).max() < 0.3
    reading = read_image(scene.image, size=scene.size, corners=scene.corners.tolist())
    close = np.array([off for off, _ in crop_centring(scene, reading)])
    assert len(close) > 10 and np.median(close) < 0.1
    # The same reading, its frame said to lie a third of a cell to the right.
    moved = dataclasses.replace(
        scene, corners=scene.corners + (scene.corners[1] - scene.corners[0]) / scene.size / 3
    )
    far = np.array([off for off, _ in crop_centring(moved, reading)])
    assert np.median(far) > 0.25


def test_every_kind_gets_one_line(shared_dir, capsys, monkeypatch):
    from lab import evaluate

    figures = dict(found=1.0, cells=0.99, boards=0.9, totals=0.95, holes=1.0, false_holes=0.0)
    figures.update(wrong_cells=2, wrong_cells_marked=2, totals_or_caught=0.985)
    counted = {**figures, "flags": 0.4}  # the tables' line counts no flags: "-"
    kinds = {"kind a": (lambda n, seed: counted, 1), "kind b": (lambda n, seed: figures, 2)}
    monkeypatch.setattr(evaluate, "SCENE_KINDS", kinds)
    evaluate.evaluate_kinds(3)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines if line.startswith("kind ")][1:] == [
        ["kind", "a"],
        ["kind", "b"],
    ]
    kind_a = [line for line in lines if line.startswith("kind a")]
    assert any("95.0%" in line and "98.5%" in line and "2 of 2" in line for line in kind_a)
    assert "0.40" in kind_a[-1].split()
    assert "-" in [line for line in lines if line.startswith("kind b")][-1].split()


def test_kinds_read_development_seeds_when_given_a_seed(shared_dir, capsys, monkeypatch):
    from lab import evaluate

    figures = dict(found=1.0, cells=1.0, boards=1.0, totals=1.0, holes=1.0, false_holes=0.0)
    figures.update(wrong_cells=0, wrong_cells_marked=0, totals_or_caught=1.0)
    seeds = []
    kinds = {"kind a": (lambda n, seed: seeds.append(seed) or figures, 1000)}
    monkeypatch.setattr(evaluate, "SCENE_KINDS", kinds)
    evaluate.main(["--kinds", "2"])
    evaluate.main(["--kinds", "2", "--seed", "9300"])
    assert seeds == [1000, 9300]
    assert "seeds 9300-9301" in capsys.readouterr().out


def test_soft_wood_scenes_are_evaluated(shared_dir, capsys):
    from lab.evaluate import evaluate_scenes

    figures = evaluate_scenes(1, seed=11100, soft_wood=True)
    assert "soft frames on warm wood" in capsys.readouterr().out
    assert 0.0 <= figures["holes"] <= 1.0
    assert 0.0 <= figures["flags"] <= 49  # cells marked per kingdom found


def test_the_real_photos_kinds_each_have_a_line(shared_dir, capsys):
    from lab.evaluate import SCENE_KINDS, evaluate_scenes
    from lab.synth import KINDS

    assert {"printed-grid mats", "tight crops, cloth in holes"} <= set(SCENE_KINDS)
    for kind in KINDS:
        figures = evaluate_scenes(1, seed=9100, kind=kind)
        assert f"lab.synth --kind {kind}" in capsys.readouterr().out
        assert figures["found"] in (0.0, 1.0) and 0.0 <= figures["holes"] <= 1.0


def test_a_photo_is_shrunk_until_its_kingdom_is_that_small_and_no_further():
    from lab.evaluate import shrunk_to_kingdom
    from lab.synth import Scene

    image = np.zeros((900, 1200, 3), np.uint8)
    frame = np.array([[100, 100], [700, 100], [700, 700], [100, 700]], float)  # 600 px across
    labels = (("W0",) * 5,) * 5
    scene = Scene(image, frame, 5, labels, "photo", "plain", 0)
    shrunk = shrunk_to_kingdom(scene, 300)
    assert shrunk.image.shape == (450, 600, 3)  # halved: the kingdom is 300 px across
    assert np.allclose(shrunk.corners, frame / 2) and shrunk.labels == labels
    assert shrunk_to_kingdom(scene, 800) is scene


def test_hard_scenes_are_read_with_their_kingdom_shrunk(shared_dir, capsys):
    from lab.evaluate import evaluate_scenes

    figures = evaluate_scenes(1, 5000, kingdom_px=300)
    assert "kingdoms at most 300 px across" in capsys.readouterr().out
    assert figures["found"] == 1.0


def test_a_wrong_total_is_caught_only_when_every_wrong_cell_is_marked():
    from lab.evaluate import right_or_caught

    wrong = np.zeros((5, 5), bool)
    wrong[0, 1] = wrong[2, 2] = True
    marked = np.zeros((5, 5), bool)
    marked[0, 1] = True
    assert not right_or_caught(False, wrong, marked)
    marked[2, 2] = True
    assert right_or_caught(False, wrong, marked)
    assert right_or_caught(True, wrong, np.zeros((5, 5), bool))
