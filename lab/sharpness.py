"""How soft a photo's cells are, beside the real cells we have: ``python -m lab.sharpness``.

    python -m lab.sharpness                  # real crops, aau boards, 40 scenes of each kind
    python -m lab.sharpness --scenes 10
    python -m lab.sharpness --photo my.jpg   # and a real photo's tiles, as the reader finds them

A synthetic line can only be as hard as the photos it stands for. A cell's sharpness here is the
share of its detail at the finest scale: the mean absolute Laplacian over the mean gradient
magnitude, on the cell brought to 64 px with a 6 px border cut off (the tile's edge and its
neighbour stay out). The ratio does not depend on the cell's contrast or light, only on how much
of its detail survives blur, resampling and compression. Crowns are fine detail: the softer the
cell, the more of them a frame loses.

The table gives percentiles per source and the share of cells softer than the softest 1 % and
5 % of the real crops. Synthetic scenes' tiles are cut at their true corners (holes left out);
a photo's at the corners the reader finds, leaving out the cells it reads as holes.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from scoring.board import Terrain

CELL_PX = 64
BORDER_PX = 6
PERCENTILES = (1, 5, 10, 25, 50, 75)


def cell_sharpness(cell: np.ndarray) -> float:
    """The finest scale's share of a (H, W, 3) BGR cell's detail; lower is softer."""
    if cell.ndim != 3 or cell.shape[2] != 3:
        raise ValueError(f"a cell is (H, W, 3) BGR, not {cell.shape}")
    small = cv2.resize(cell, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray = gray[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX]
    gradient = np.hypot(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    laplacian = np.abs(cv2.Laplacian(gray, cv2.CV_32F))
    return float(laplacian.mean() / (gradient.mean() + 1e-6))


def board_cells(board: np.ndarray, size: int, keep: np.ndarray) -> list[np.ndarray]:
    """The cells of a straightened ``size``×``size`` board image where ``keep`` (size, size)."""
    if keep.shape != (size, size):
        raise ValueError(f"keep is {keep.shape}, not ({size}, {size})")
    height, width = board.shape[:2]
    return [
        board[
            r * height // size : (r + 1) * height // size,
            c * width // size : (c + 1) * width // size,
        ]
        for r in range(size)
        for c in range(size)
        if keep[r, c]
    ]


def aau_tiles() -> list[np.ndarray]:
    """The aau boards' cells that hold a tile (its holes left out)."""
    from lab.data import load_aau_boards
    from vision.labels import TERRAINS

    empty = TERRAINS.index(Terrain.EMPTY)
    return [
        cell
        for board in load_aau_boards()
        for cell in board_cells(board.image, len(board.terrain), board.terrain != empty)
    ]


def scene_tiles(scenes: Iterable) -> list[np.ndarray]:
    """The tiles (not holes) of ``lab.synth`` scenes, straightened at their true corners."""
    cells = []
    for scene in scenes:
        side = CELL_PX * scene.size
        square = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        to_board = cv2.getPerspectiveTransform(scene.corners.astype(np.float32), square)
        board = cv2.warpPerspective(scene.image, to_board, (side, side), flags=cv2.INTER_AREA)
        keep = np.array([[t != "." for t in row] for row in scene.labels])
        cells += board_cells(board, scene.size, keep)
    return cells


def photo_tiles(path: Path) -> list[np.ndarray]:
    """The tiles of a real photo as the product reads it (the cells it reads as holes left out)."""
    from vision.pipeline import read_image

    reading = read_image(str(path))
    rows = [row.split() for row in reading.board.rows_text()]
    keep = np.array([[token != "." for token in row] for row in rows])
    return board_cells(reading.board_image, reading.size, keep)


def print_table(sources: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """One line per source: percentiles, and shares below the real crops' 1st and 5th."""
    real = np.array(sources["real cell crops"])
    floor_1, floor_5 = np.percentile(real, 1), np.percentile(real, 5)
    heads = "".join(f"{f'p{k}':>7}" for k in PERCENTILES)
    print(f"{'source':<30}{'cells':>7}{heads}   below real p1 ({floor_1:.3f})  below real p5")
    figures = {}
    for name, values in sources.items():
        values = np.array(values)
        row = {f"p{k}": float(np.percentile(values, k)) for k in PERCENTILES}
        row["below_p1"] = float(np.mean(values < floor_1))
        row["below_p5"] = float(np.mean(values < floor_5))
        figures[name] = row
        cells = "".join(f"{row[f'p{k}']:>7.3f}" for k in PERCENTILES)
        below = f"{row['below_p1']:>24.1%}  {row['below_p5']:>12.1%}"
        print(f"{name:<30}{len(values):>7}{cells}   {below}")
    return figures


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    from lab.data import load_cell_crops
    from lab.synth import make_hard_scene, make_kind_scene

    parser = argparse.ArgumentParser(prog="python -m lab.sharpness", description=__doc__)
    parser.add_argument("--scenes", type=int, default=40, help="scenes of each synthetic kind")
    parser.add_argument("--photo", type=Path, action="append", default=[], help="a real photo")
    args = parser.parse_args(argv)
    n = args.scenes
    # Development seeds (lab/README.md): looking at them decides nothing about the evaluation.
    kinds = {
        "aau boards": aau_tiles(),
        "hard scenes": scene_tiles(make_hard_scene(5000 + k) for k in range(n)),
        "camera scenes": scene_tiles(make_hard_scene(7100 + k, camera=True) for k in range(n)),
        "soft frames, warm wood": scene_tiles(
            make_hard_scene(11100 + k, soft_wood=True) for k in range(n)
        ),
        "printed-grid mats": scene_tiles(make_kind_scene(9300 + k, "grid_mat") for k in range(n)),
    }
    for photo in args.photo:
        kinds[photo.name] = photo_tiles(photo)
    sources = {"real cell crops": [crop.image for crop in load_cell_crops()]} | kinds
    return print_table(
        {name: [cell_sharpness(c) for c in cells] for name, cells in sources.items()}
    )


if __name__ == "__main__":
    main()
