"""Training cells cut from hard synthetic photos (``lab.synth.make_hard_scene``) as the product
cuts them: the frame straightened at 100 px per cell, then scaled to CROP px per cell.

The other training cells are clean straightened boards and single-cell photos, changed one
crop at a time (``lab.augment``). A cell of a whole photo has been through what no crop-level
change reproduces together: the perspective's resampling, a neighbour's edge and the gap
between dominoes drifting into it, a shadow or a reflection across several cells, a video
frame's softness. The hard evaluation scenes read crowns low mostly for such reasons.

Scenes are drawn from their own seeds (``TRAINING_SEED`` onward: evaluation uses 1000-1059,
development 5000-9999), show only the kingdoms a fold trains on, and never the castle figure
of ``lab.synth``, which stays unseen so the hard scenes still measure a figure the model does
not know. Each cell is kept with ``MARGIN`` px of its surroundings so that training can move it
as ``lab.augment.jittered_cell`` does.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.synth import make_hard_scene
from scoring.board import Cell
from vision.cells import CROP
from vision.labels import TERRAINS
from vision.rectify import DEFAULT_PX_PER_CELL, warp_at_scale

TRAINING_SEED = 200_000
MARGIN = 16  # px at CROP px per cell kept round each cell


@dataclass(frozen=True)
class SceneCells:
    """Cells of synthetic photos: ``images`` (N, CROP + 2·MARGIN, CROP + 2·MARGIN, 3) BGR,
    ``terrain`` and ``crowns`` (N,) labels."""

    images: np.ndarray
    terrain: np.ndarray
    crowns: np.ndarray

    def __post_init__(self) -> None:
        side = CROP + 2 * MARGIN
        if self.images.shape[1:] != (side, side, 3) or self.images.dtype != np.uint8:
            raise ValueError(f"images must be (N, {side}, {side}, 3) uint8")
        if not len(self.images) == len(self.terrain) == len(self.crowns):
            raise ValueError("one terrain and one crown count per image")

    def __len__(self) -> int:
        return len(self.images)

    @classmethod
    def joined(cls, parts: list[SceneCells]) -> SceneCells:
        return cls(
            np.concatenate([p.images for p in parts]),
            np.concatenate([p.terrain for p in parts]),
            np.concatenate([p.crowns for p in parts]),
        )

    def save(self, path: Path) -> None:
        # Written under a name of its own, then renamed: two trainings side by side render the
        # same cache file, and neither may load the other's half-written one.
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.stem}.{os.getpid()}.partial.npz")
        try:
            np.savez(partial, images=self.images, terrain=self.terrain, crowns=self.crowns)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path) -> SceneCells:
        with np.load(path, allow_pickle=False) as data:
            return cls(data["images"], data["terrain"], data["crowns"])


def cut_scene(image: np.ndarray, corners: np.ndarray, labels) -> SceneCells:
    """The labelled cells of one photo whose N×N frame has ``corners`` (TL, TR, BR, BL)."""
    size = len(labels)
    px = DEFAULT_PX_PER_CELL
    margin = MARGIN * px / CROP
    frame = np.float32([[0, 0], [size, 0], [size, size], [0, size]]) * px + margin
    corners = np.asarray(corners, np.float32)
    photo_px = np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)])
    side = int(round(size * px + 2 * margin))
    to_board = cv2.getPerspectiveTransform(corners, frame)
    board = warp_at_scale(image, to_board, (side, side), photo_px / size / px)  # as straighten
    scaled_side = size * CROP + 2 * MARGIN
    board = cv2.resize(board, (scaled_side, scaled_side), interpolation=cv2.INTER_AREA)
    images, terrain, crowns = [], [], []
    for r in range(size):
        for c in range(size):
            y, x = r * CROP, c * CROP
            images.append(board[y : y + CROP + 2 * MARGIN, x : x + CROP + 2 * MARGIN])
            cell = Cell.from_token(labels[r][c])  # "." is a hole: empty, no crowns
            terrain.append(TERRAINS.index(cell.terrain))
            crowns.append(cell.crowns)
    return SceneCells(np.stack(images), np.array(terrain), np.array(crowns))


def _one_scene(job: tuple[int, frozenset[int] | None]) -> SceneCells:
    seed, kingdoms = job
    scene = make_hard_scene(seed, kingdoms=kingdoms, castle_figure=False)
    return cut_scene(scene.image, scene.corners, scene.labels)


def scene_cells(
    count: int, kingdoms: frozenset[int] | None, seed: int = TRAINING_SEED, jobs: int = 2
) -> SceneCells:
    """The cells of ``count`` training scenes showing only ``kingdoms`` (None: every one)."""
    work = [(seed + k, kingdoms) for k in range(count)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_one_scene, work, chunksize=4))
    else:
        parts = [_one_scene(job) for job in work]
    return SceneCells.joined(parts)
