"""How well the cell reader does on boards it never saw: ``python -m lab.evaluate``.

Default: k-fold cross-validation by kingdom (aau-boards) and photo session (cell-crops), training
one model per fold with ``lab.train`` (needs the ``train`` extra, ~3 min per fold), then the
table. ``--oof FILE`` prints the table from held-out predictions ``lab.train`` saved instead.
``--quick`` skips training: it runs the *shipped* model on a few aau boards to check the
plumbing in CI (the shipped model was trained on them, so those figures are not held-out).
Speed and model-load time are always measured on the shipped model, one thread, after warm-up.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from scoring.board import Board
from vision.cells import CellReadings
from vision.labels import CROWN_CLASSES, TERRAINS

TARGETS = {"terrain": 0.995, "crowns": 0.99, "totals": 0.95, "ms_per_board": 30, "load_ms": 200}


def board_total(board: Board) -> int:
    """The kingdom's total with the default rules (scoring.score_board)."""
    from scoring.score import score_board

    return score_board(board, check_tiles=False).total


def _grid(board: Board) -> tuple[np.ndarray, np.ndarray]:
    terrain = np.array([[TERRAINS.index(cell.terrain) for cell in row] for row in board.cells])
    crowns = np.array([[cell.crowns for cell in row] for row in board.cells])
    return terrain, crowns


def _label_board(terrain: np.ndarray, crowns: np.ndarray) -> Board:
    from scoring.board import Cell

    return Board(
        tuple(
            tuple(Cell(TERRAINS[t], int(c)) for t, c in zip(tr, cr, strict=True))
            for tr, cr in zip(terrain, crowns, strict=True)
        )
    )


def precision_recall(truth: np.ndarray, predicted: np.ndarray, k: int) -> list[tuple]:
    rows = []
    for c in range(k):
        tp = int(np.sum((predicted == c) & (truth == c)))
        support = int(np.sum(truth == c))
        claimed = int(np.sum(predicted == c))
        precision = tp / claimed if claimed else float("nan")
        recall = tp / support if support else float("nan")
        rows.append((c, support, precision, recall))
    return rows


def report_boards(
    names: np.ndarray,
    truth_terrain: np.ndarray,
    truth_crowns: np.ndarray,
    terrain_probs: np.ndarray,
    crown_probs: np.ndarray,
    uncertain_below: float,
    title: str,
) -> dict:
    """Print the per-cell and per-board table for a set of labelled boards; return the figures."""
    pred_t, pred_c, uncertain = [], [], []
    boards_right = totals_right = 0
    wrong_boards = []
    for i in range(len(names)):
        readings = CellReadings(terrain_probs[i], crown_probs[i], uncertain_below)
        t, c = _grid(readings.board)
        pred_t.append(t)
        pred_c.append(c)
        uncertain.append(readings.uncertain)
        right = np.array_equal(t, truth_terrain[i]) and np.array_equal(c, truth_crowns[i])
        boards_right += right
        truth_total = board_total(_label_board(truth_terrain[i], truth_crowns[i]))
        read_total = board_total(readings.board)
        totals_right += read_total == truth_total
        if not right:
            wrong_boards.append(f"{names[i]} (total {read_total} vs {truth_total})")
    pred_t, pred_c = np.stack(pred_t).ravel(), np.stack(pred_c).ravel()
    uncertain = np.stack(uncertain).ravel()
    true_t, true_c = truth_terrain.ravel(), truth_crowns.ravel()
    figures = {
        "terrain": float(np.mean(pred_t == true_t)),
        "crowns": float(np.mean(pred_c == true_c)),
        "boards": boards_right / len(names),
        "totals": totals_right / len(names),
    }
    wrong = (pred_t != true_t) | (pred_c != true_c)
    print(f"\n== {title}: {len(names)} boards, {len(true_t)} cells ==")
    _print_class_table(true_t, pred_t, true_c, pred_c)
    _print_confusion(true_t, pred_t)
    print(f"terrain accuracy       {figures['terrain']:8.2%}   (target ≥ {TARGETS['terrain']:.1%})")
    print(f"crown-count accuracy   {figures['crowns']:8.2%}   (target ≥ {TARGETS['crowns']:.0%})")
    print(f"boards entirely right  {figures['boards']:8.2%}")
    print(f"board totals right     {figures['totals']:8.2%}   (target ≥ {TARGETS['totals']:.0%})")
    print(
        f"uncertain flags: {int(uncertain.sum())} cells ({np.mean(uncertain):.1%}), "
        f"catching {int((wrong & uncertain).sum())} of {int(wrong.sum())} wrong cells"
        f" (threshold {uncertain_below:.3f})"
    )
    if wrong_boards:
        print("boards with a wrong cell: " + ", ".join(wrong_boards))
    return figures


def _print_class_table(true_t, pred_t, true_c, pred_c) -> None:
    print(f"{'class':<12}{'cells':>7}{'precision':>11}{'recall':>9}")
    for c, support, p, r in precision_recall(true_t, pred_t, len(TERRAINS)):
        print(f"{TERRAINS[c].value:<12}{support:>7}{p:>11.2%}{r:>9.2%}")
    for c, support, p, r in precision_recall(true_c, pred_c, CROWN_CLASSES):
        print(f"{f'{c} crowns':<12}{support:>7}{p:>11.2%}{r:>9.2%}")


def _print_confusion(true_t, pred_t) -> None:
    letters = [t.letter for t in TERRAINS]
    print("terrain confusion (rows: truth, columns: read)")
    print("      " + "".join(f"{letter:>6}" for letter in letters))
    for a in range(len(TERRAINS)):
        counts = [int(np.sum((true_t == a) & (pred_t == b))) for b in range(len(TERRAINS))]
        print(f"{letters[a]:>6}" + "".join(f"{n:>6}" for n in counts))


def report_crops(oof) -> None:
    """Cell-level figures on held-out cell-crops photos (single cells, no board)."""
    terrain_probs = oof.crop_terrain_probs.copy()
    pred_t = terrain_probs.argmax(1)
    max_crowns = np.array([t.max_crowns for t in TERRAINS])[pred_t]
    allowed = np.arange(CROWN_CLASSES)[None, :] <= max_crowns[:, None]
    pred_c = np.where(allowed, oof.crop_crown_probs, -1).argmax(1)
    print(f"\n== cell-crops, held-out photo sessions: {len(pred_t)} cells ==")
    print(f"terrain accuracy       {np.mean(pred_t == oof.crop_terrain):8.2%}")
    print(f"crown-count accuracy   {np.mean(pred_c == oof.crop_crowns):8.2%}")


def measure_speed(boards, repeats: int = 3) -> tuple[float, float]:
    """(model load ms in a fresh process, median ms per board on one thread after warm-up)."""
    code = (
        "import time; t=time.perf_counter(); from vision.model import load_model; load_model();"
        " print((time.perf_counter()-t)*1000)"
    )
    load_ms = float(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    from vision.cells import classify_cells

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        for board in boards[:3]:
            classify_cells(board.image, board.terrain.shape[0])
        times = []
        for _ in range(repeats):
            for board in boards:
                started = time.perf_counter()
                classify_cells(board.image, board.terrain.shape[0])
                times.append((time.perf_counter() - started) * 1000)
    finally:
        cv2.setNumThreads(threads)
    return load_ms, float(np.median(times))


def quick(boards) -> dict:
    from vision.cells import classify_cells
    from vision.model import load_model

    readings = [classify_cells(b.image, b.terrain.shape[0]) for b in boards]
    return report_boards(
        np.array([b.name for b in boards]),
        np.stack([b.terrain for b in boards]),
        np.stack([b.crowns for b in boards]),
        np.stack([r.terrain_probs for r in readings]),
        np.stack([r.crown_probs for r in readings]),
        load_model().info.uncertain_below,
        "shipped model on training boards (plumbing check, NOT held-out)",
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shipped model, 4 boards, no training")
    parser.add_argument("--oof", type=Path, help="held-out predictions saved by lab.train")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args(argv)

    from lab.data import load_aau_boards

    boards = load_aau_boards()
    if args.quick:
        sample = boards[::15]
        figures = quick(sample)
    else:
        from lab.train import OutOfFold

        if args.oof:
            oof = OutOfFold.load(args.oof)
            oof = oof.with_labels_of(boards)
        else:
            from lab.data import load_cell_crops
            from lab.train import cross_validate

            oof = cross_validate(boards, load_cell_crops(), args.folds, args.epochs)
        from lab.train import choose_crown_weights, choose_uncertain_threshold

        crown_weights = choose_crown_weights(oof)  # from the cell-crops alone, as training does
        print(f"crown weights chosen on held-out cell-crops: {crown_weights}")
        oof = oof.with_crown_weights(crown_weights).with_second_look()
        folds = len(set(oof.board_folds.tolist()))
        figures = report_boards(
            oof.board_names,
            oof.board_terrain,
            oof.board_crowns,
            oof.board_terrain_probs,
            oof.board_crown_probs,
            choose_uncertain_threshold(oof),
            f"aau-boards, {folds}-fold cross-validation by kingdom (held-out)",
        )
        report_crops(oof)
        sample = boards
    load_ms, ms_per_board = measure_speed(sample)
    print(f"\nms per 500×500 board   {ms_per_board:8.1f}   (1 thread, after warm-up; target ≤ 30)")
    print(f"model load ms          {load_ms:8.1f}   (fresh process; target ≤ 200)")
    figures.update(ms_per_board=ms_per_board, load_ms=load_ms)
    return figures


if __name__ == "__main__":
    main()
