"""lab.identity: which domino half a labelled cell shows, and matching cells by it."""

from __future__ import annotations

from collections import Counter

import numpy as np

from lab.identity import CASTLE, HALVES, domino_splits, evaluate, identity_labels, match
from scoring.board import Terrain, parse_board
from scoring.tileset import kinds_in_set
from vision.labels import TERRAINS


def _arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    board = parse_board(text)
    terrain = np.array([[TERRAINS.index(cell.terrain) for cell in row] for row in board.cells])
    crowns = np.array([[cell.crowns for cell in row] for row in board.cells])
    return terrain, crowns


def test_a_real_kingdom_splits_into_distinct_real_dominoes(shared_dir):
    terrain, crowns = _arrays((shared_dir / "datasets" / "photos" / "game1.txt").read_text())
    splits = domino_splits(terrain, crowns)
    assert splits
    for split in splits:
        cells = [cell for a, b, _ in split for cell in (a, b)]
        assert len(cells) == len(set(cells)) == 48  # every cell but the castle, once
        for a, b, _ in split:
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1  # neighbours
        used = Counter(kind for _, _, kind in split)
        assert all(used[kind] <= kinds_in_set()[kind] for kind in used)
    labels = identity_labels(terrain, crowns)
    assert labels[3, 3] == CASTLE
    assert (labels[terrain != TERRAINS.index("castle")] >= 0).mean() > 0.5


def test_cells_no_real_set_builds_have_no_identity():
    text = "W0 M3 L0 L0 .\nF0 F0 W0 W0 .\nW0 W0 C . .\n. . . . .\n. . . . ."
    # One split (W0-M3 is a real domino), so every half is known.
    terrain, crowns = _arrays(text)
    assert len(domino_splits(terrain, crowns)) == 1
    labels = identity_labels(terrain, crowns)
    assert (labels[:2, :4] >= 0).all() and (labels[2, :2] >= 0).all()
    assert labels[0, 0] != labels[0, 1]  # the two halves of one domino: two classes
    assert labels[1, 2] == labels[1, 3] == labels[2, 0]  # W0-W0 halves: one class
    assert labels[2, 2] == CASTLE
    # Two three-crown mines: the set has one, so no split, and no cell's half is known.
    terrain, crowns = _arrays(text.replace("W0 M3", "M3 M3", 1))
    assert domino_splits(terrain, crowns) == []
    labels = identity_labels(terrain, crowns)
    assert (labels[:2, :4] == -1).all() and (labels[2, :2] == -1).all()
    assert labels[2, 2] == CASTLE


def test_a_cell_matches_its_half_turned_any_way():
    rng = np.random.default_rng(0)
    gallery_images = rng.uniform(0, 255, (3, 8, 8, 4)).astype(np.float32)
    gallery = gallery_images.reshape(3, -1)
    kinds = list(HALVES)
    gallery_labels = np.array([HALVES[kinds[0]], HALVES[kinds[5]], CASTLE])
    query = np.rot90(gallery_images[1], 3) + rng.normal(0, 2, (8, 8, 4))
    turns = np.array([[np.rot90(query, k).ravel() for k in range(4)]], np.float32)
    identity, reading, clear = match(turns, gallery, gallery_labels)
    assert identity[0] == HALVES[kinds[5]]
    half = kinds[5][0][kinds[5][1]]
    assert tuple(reading[0]) == (TERRAINS.index(half.terrain), half.crowns)
    assert clear[0]


def test_evaluation_counts_a_perfect_classifier_as_all_right(shared_dir):
    from lab.data import load_aau_boards
    from lab.train import OutOfFold

    boards = [b for b in load_aau_boards() if b.kingdom in (0, 1, 2, 3)]
    terrain = np.stack([b.terrain for b in boards])
    crowns = np.stack([b.crowns for b in boards])
    folds = np.array([b.kingdom % 2 for b in boards])
    one_hot = (np.eye(8)[terrain], np.eye(4)[crowns])
    oof = OutOfFold.from_predictions(
        boards, folds, [], (*one_hot, np.zeros((0, 8)), np.zeros((0, 4)))
    )
    counts = evaluate(boards, oof, uncertain_below=0.5)
    assert counts["cells"] == 25 * len(boards)
    assert counts["model"] == counts["mix"] == counts["cells"]
    # A straightened board shows no table: its holes, which only the model saw, are marked for
    # a look (vision.cells), and nothing else is.
    holes = int((terrain == TERRAINS.index(Terrain.EMPTY)).sum())
    assert holes > 0
    assert counts["unsure"] == holes and counts["turned_wrong"] == 0
    assert 0 < counts["match"] <= counts["cells"]
