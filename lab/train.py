"""Train the cell classifier and ship it: ``python -m lab.train`` (needs the ``train`` extra).

1. Load labelled cells: aau-boards (cut on the grid exactly as at run time), cell-crops, and
   synthetic table textures for the ``empty`` class.
2. Cross-validate by kingdom / photo session (``--folds``, default 4): train one model per fold,
   predict its held-out cells through the same ONNX/OpenCV path the product uses, and choose the
   ``uncertain`` threshold from those held-out predictions. Saved to ``--oof`` for
   ``lab.evaluate --oof``.
3. Train on everything and write ``vision/models/cell_model.onnx`` and ``cell_model.json``.

The network is small on purpose (≈ 0.1 M weights, ≈ 20 M multiply-adds per cell): a 5×5 board
must read in well under 30 ms on one core, and training runs on a shared 2-core CPU.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.augment import jittered_cell, phone_effects, random_symmetry
from lab.data import (
    LabelledBoard,
    LabelledCrop,
    assign_folds,
    load_aau_boards,
    load_cell_crops,
    printed_cloth,
    synthetic_table,
)
from lab.figure import figure_over
from lab.scene_cells import MARGIN, TRAINING_SEED, SceneCells, scene_cells
from lab.synth import soft_frame_cell
from vision.cells import CROP, resize_board
from vision.labels import CROWN_CLASSES, TERRAINS, terrain_index
from vision.model import META_FILE, MODEL_FILE, CellModel, ModelInfo, reweight_crowns

EMPTY = terrain_index("empty")
LAKE = terrain_index("lake")
SCENE_HOLES = ("all", "none", "unlike_lake")  # Recipe.scene_holes
CASTLE = terrain_index("castle")
MODELS_DIR = Path(__file__).resolve().parent.parent / "vision" / "models"
DEFAULT_OOF = Path("build/vision/out_of_fold.npz")
SEED = 20261129
UNKNOWN_CROWNS = -1  # crown label of a cell blurred past reading: trained towards "no idea"
HEAVY_BLUR_SHARE = 0.05
# aau-boards cells the held-out folds got wrong most (3-crown mines read as 2, the table read as
# wheat) are rare; these are drawn this many extra times per epoch.
RARE_EXTRA_REPEATS = 4


@dataclass(frozen=True)
class Recipe:
    """What a training run adds beyond the labelled cells; ``Recipe()`` is the shipped model's
    (v8, trained with ``--seed 20261202``); ``Recipe(lake_repeats=0, castle_neighbour_repeats=0)``
    v7's (seed 20261129); that with ``scene_cells=0`` v6's, and with ``glare_share=0`` too v5's
    (10 epochs); ``Recipe(0, 0, 0, 0, scene_cells=0, lake_repeats=0,
    castle_neighbour_repeats=0)`` v3's.

    ``scene_cells``: per epoch, this many cells cut from ``scenes`` hard synthetic photos per
    fold (``lab.scene_cells``: whole photos straightened as the product does, showing only the
    fold's training kingdoms). ``scene_holes``: which of their holes (the photo's table) are
    trained as ``empty``: "all", "none", or "unlike_lake", every hole but those whose colour is
    a lake tile's (``lake_coloured``): a lake-blue cloth taught as ``empty`` made plain lake tiles
    read as holes, and in a photo the table round the kingdom judges such holes (``vision.holes``).

    ``light_shifts``: share of crops given a warm or cold light (``lab.augment``
    .warm_or_cold_light; phones under tungsten or shade light turn grass yellow, mines golden).
    ``figure_crops``: per epoch, this many start tiles under a 3D castle figure and this many
    cells with its top leaning over them (``lab.figure``). ``cloth_share``: share of the
    synthetic ``empty`` cells that are printed tablecloths (checks, stripes, dots, flowers) in any
    colour, lake-blue and grass-green included (``lab.data.printed_cloth``). ``glare_share``:
    share of crops given a lamp's reflection (``lab.augment.glare``). ``behind_rise``: the
    highest the figure rises over the cell behind it, in cells. ``hidden_crowns_cover``: a cell
    behind the figure covered more than this share has its crown count trained towards "no
    idea" (as a blurred cell's), since what is under the figure cannot be seen.
    ``sheen_share``: share of crops (of those not given a lamp's glare) given a window's broad
    sheen that burns light colours out (``lab.augment.sheen``). ``lake_repeats``: cell-crops'
    lake tiles are drawn this many extra times per epoch (plain dark lakes were read as holes).
    ``castle_neighbour_repeats``: the aau boards' cells beside the castle (where a real 3D
    figure's top covers them: every aau board the model misreads is wrong there) are drawn this
    many extra times per epoch; the synthetic figure of ``figure_crops`` is not the real one.
    ``soft_share``: share of crops (after the phone's effects) given a soft video frame's blur
    as the soft-wood scenes have it, relative to the cell (``lab.synth.soft_frame_cell``:
    defocus, then a video frame's motion blur and compression); the photos' scene cells keep
    their own blur.
    """

    light_shifts: float = 0.5
    figure_crops: int = 300
    cloth_share: float = 0.4
    glare_share: float = 0.15
    behind_rise: float = 1.4
    hidden_crowns_cover: float = 1.0
    scene_cells: int = 3000
    scenes: int = 160
    scene_holes: str = "all"
    sheen_share: float = 0.0
    lake_repeats: int = 3
    castle_neighbour_repeats: int = 6
    soft_share: float = 0.0

    def __post_init__(self) -> None:
        if self.scene_holes not in SCENE_HOLES:
            raise ValueError(f"scene_holes must be one of {SCENE_HOLES}, got {self.scene_holes!r}")


# The command line's words for each Recipe setting (``python -m lab.train --help``).
RECIPE_HELP = {
    "light_shifts": "share of training crops lit warm or cold (2,700-7,500 K)",
    "figure_crops": (
        "per epoch, start tiles under a 3D castle figure (and as many cells behind one)"
    ),
    "cloth_share": "share of synthetic empty cells that are printed tablecloths",
    "glare_share": "share of training crops given a lamp's reflection",
    "behind_rise": "highest the castle figure rises over the cell behind it, in cells",
    "hidden_crowns_cover": (
        "a cell behind the figure covered more than this share: crowns trained as unknown"
    ),
    "scene_cells": "per epoch, cells cut from hard synthetic photos (0: none)",
    "scenes": "hard synthetic photos rendered per fold for --scene-cells",
    "scene_holes": (
        "which of the photos' holes are trained as empty: all, none, unlike_lake (all but "
        "those coloured like lake tiles)"
    ),
    "sheen_share": "share of training crops (not glared) given a window's broad sheen",
    "lake_repeats": "extra draws per epoch of the cell-crops' lake tiles",
    "castle_neighbour_repeats": "extra draws per epoch of the aau boards' cells beside the castle",
    "soft_share": "share of training crops given a soft video frame's defocus and motion blur",
}


@dataclass(frozen=True)
class TrainingSet:
    """Everything one training run draws from; boards are pre-scaled to CROP px per cell."""

    boards: list[LabelledBoard]
    scaled_boards: list[np.ndarray]
    crops: list[LabelledCrop]
    scaled_crops: list[np.ndarray]
    scene_cells: SceneCells | None = None


def make_training_set(
    boards: list[LabelledBoard], crops: list[LabelledCrop], scenes: SceneCells | None = None
) -> TrainingSet:
    scaled_boards = [resize_board(b.image, b.terrain.shape[0]) for b in boards]
    scaled_crops = [cv2.resize(c.image, (CROP, CROP), interpolation=cv2.INTER_AREA) for c in crops]
    return TrainingSet(boards, scaled_boards, crops, scaled_crops, scenes)


SCENE_CACHE = Path("build/vision/scene_cells")


def fold_scene_cells(
    boards: list[LabelledBoard], board_fold: np.ndarray, fold: int, count: int
) -> SceneCells:
    """Cells of ``count`` training photos showing only the kingdoms outside ``fold``, each fold
    from its own seeds; kept under SCENE_CACHE (rendering takes about a second a photo), whose
    files are named by count, seed and kingdoms only: delete them after changing lab.synth."""
    kingdoms = frozenset(b.kingdom for b, f in zip(boards, board_fold, strict=True) if f != fold)
    seed = TRAINING_SEED + 10_000 * fold
    path = SCENE_CACHE / f"fold{fold}_{count}_{seed}_{_kingdoms_key(kingdoms)}.npz"
    if path.exists():
        return SceneCells.load(path)
    cells = scene_cells(count, kingdoms, seed)
    cells.save(path)
    return cells


def _kingdoms_key(kingdoms: frozenset[int]) -> str:
    import hashlib

    return hashlib.sha1(",".join(map(str, sorted(kingdoms))).encode()).hexdigest()[:8]


def _table_with_neighbour_edge(
    rng: np.random.Generator, neighbours: list[np.ndarray], cloth_share: float = 0.0
) -> np.ndarray:
    """An ``empty`` cell: a table texture, often with a strip of a neighbouring tile at an edge."""
    if cloth_share and rng.random() < cloth_share:
        table = printed_cloth(rng, CROP)
    else:
        table = synthetic_table(rng, CROP)
    if neighbours and rng.random() < 0.6:
        tile = neighbours[int(rng.integers(len(neighbours)))]
        width = int(rng.integers(2, CROP // 6))
        side = int(rng.integers(4))
        table = np.rot90(table, side).copy()
        table[:, :width] = tile[:, -width:]
        table = np.rot90(table, -side)
    return np.ascontiguousarray(table)


def _figure_crops(
    data: TrainingSet, rng: np.random.Generator, recipe: Recipe
) -> tuple[list[np.ndarray], list[int], list[int]]:
    """``recipe.figure_crops`` start tiles under a 3D castle figure and as many cells its top
    leans into."""
    count = recipe.figure_crops
    castles, others = [], []
    for board, scaled in zip(data.boards, data.scaled_boards, strict=True):
        for r, c in np.ndindex(board.terrain.shape):
            terrain = board.terrain[r, c]
            source = (scaled, (c * CROP, r * CROP, CROP, CROP), terrain, board.crowns[r, c])
            if terrain == CASTLE:
                castles.append(source)
            elif terrain != EMPTY:  # a hole has no tile for a figure to lean over
                others.append(source)
    for crop, scaled in zip(data.crops, data.scaled_crops, strict=True):
        source = (scaled, (0, 0, CROP, CROP), crop.terrain, crop.crowns)
        (castles if crop.terrain == CASTLE else others).append(source)
    images, terrains, crowns = [], [], []
    for sources, part in ((castles, "tile"), (others, "behind")):
        for i in rng.integers(len(sources), size=count if sources else 0):
            scaled, box, terrain, crown = sources[i]
            cell = jittered_cell(scaled, box, rng)
            image, cover = figure_over(cell, rng, part, recipe.behind_rise)
            if part == "behind" and cover > recipe.hidden_crowns_cover:
                crown = UNKNOWN_CROWNS
            images.append(image)
            terrains.append(terrain)
            crowns.append(crown)
    return images, terrains, crowns


def lake_coloured(scenes: SceneCells, neighbours: int = 5) -> np.ndarray:
    """(N,) True for the holes among ``scenes`` whose colour is a lake tile's: most of the
    ``neighbours`` tile cells nearest in mean colour (CIELAB, the cell's middle) are lakes."""
    middle = slice(MARGIN + CROP // 4, MARGIN + 3 * CROP // 4)
    lab = cv2.cvtColor(
        np.ascontiguousarray(scenes.images[:, middle, middle]).reshape(-1, CROP // 2, 3),
        cv2.COLOR_BGR2LAB,
    )
    colour = lab.reshape(len(scenes), -1, 3).astype(np.float32).mean(axis=1)
    holes = np.flatnonzero(scenes.terrain == EMPTY)
    tiles = np.flatnonzero(scenes.terrain != EMPTY)
    coloured = np.zeros(len(scenes), bool)
    if not len(holes) or len(tiles) < neighbours:
        return coloured
    for hole in holes:
        distance = np.linalg.norm(colour[tiles] - colour[hole], axis=1)
        nearest = scenes.terrain[tiles[np.argpartition(distance, neighbours)[:neighbours]]]
        coloured[hole] = np.sum(nearest == LAKE) * 2 > neighbours
    return coloured


def _usable_scene_cells(scenes: SceneCells, holes: str) -> np.ndarray:
    tiles = scenes.terrain != EMPTY
    if holes == "all":
        return np.ones(len(scenes), bool)
    if holes == "none":
        return tiles
    return tiles | ~lake_coloured(scenes)


def sample_epoch(
    data: TrainingSet,
    rng: np.random.Generator,
    n_empty: int,
    board_repeats: int = 3,
    recipe: Recipe = Recipe(),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One epoch of augmented crops (B, CROP, CROP, 3) with terrain and crown labels.

    aau-boards cells are repeated ``board_repeats`` times: they are the target domain (whole
    straightened boards), while cell-crops are already tightly cut single cells. A few cells are
    blurred far past the point where a crown can be told from a sheep; their crown label becomes
    UNKNOWN_CROWNS so the model learns to say so (a flat crown distribution, hence a low
    confidence and an ``uncertain`` flag) instead of guessing confidently.
    """
    images, terrains, crowns = [], [], []

    def effects(cell: np.ndarray) -> np.ndarray:
        cell = phone_effects(cell, rng, recipe.light_shifts, recipe.glare_share, recipe.sheen_share)
        # Drawn only when asked for, so the random stream of earlier recipes stays the same.
        if recipe.soft_share and rng.random() < recipe.soft_share:
            cell = soft_frame_cell(cell, rng)
        return cell

    for repeat in range(board_repeats + RARE_EXTRA_REPEATS):
        for board, scaled in zip(data.boards, data.scaled_boards, strict=True):
            size = board.terrain.shape[0]
            for r in range(size):
                for c in range(size):
                    rare = board.crowns[r, c] >= 2 or board.terrain[r, c] == EMPTY
                    if repeat >= board_repeats and not rare:
                        continue
                    box = (c * CROP, r * CROP, CROP, CROP)
                    cell = jittered_cell(scaled, box, rng)
                    images.append(effects(cell))
                    terrains.append(board.terrain[r, c])
                    crowns.append(board.crowns[r, c])
    for board, scaled in zip(data.boards, data.scaled_boards, strict=True):
        if not recipe.castle_neighbour_repeats:
            break  # nothing drawn, so the random stream of earlier recipes stays the same
        for r, c in _beside_castle(board.terrain):
            for _ in range(recipe.castle_neighbour_repeats):
                cell = jittered_cell(scaled, (c * CROP, r * CROP, CROP, CROP), rng)
                images.append(effects(cell))
                terrains.append(board.terrain[r, c])
                crowns.append(board.crowns[r, c])
    for crop, scaled in zip(data.crops, data.scaled_crops, strict=True):
        draws = 1 + (recipe.lake_repeats if crop.terrain == LAKE else 0)
        for _ in range(draws):
            cell = jittered_cell(scaled, (0, 0, CROP, CROP), rng)
            images.append(effects(cell))
            terrains.append(crop.terrain)
            crowns.append(crop.crowns)
    scenes = data.scene_cells
    if scenes is not None and len(scenes) and recipe.scene_cells:
        # Already through a photo's light, blur and compression: only turned, not changed again.
        usable = np.flatnonzero(_usable_scene_cells(scenes, recipe.scene_holes))
        for i in usable[rng.integers(len(usable), size=recipe.scene_cells)]:
            cell = jittered_cell(scenes.images[i], (MARGIN, MARGIN, CROP, CROP), rng)
            images.append(random_symmetry(cell, rng))
            terrains.append(scenes.terrain[i])
            crowns.append(scenes.crowns[i])
    for _ in range(n_empty):
        table = _table_with_neighbour_edge(rng, data.scaled_crops, recipe.cloth_share)
        cell = jittered_cell(table, (0, 0, CROP, CROP), rng)
        images.append(effects(cell))
        terrains.append(EMPTY)
        crowns.append(0)
    if recipe.figure_crops:
        figures, figure_terrains, figure_crowns = _figure_crops(data, rng, recipe)
        images += [effects(cell) for cell in figures]
        terrains += figure_terrains
        crowns += figure_crowns
    crowns = np.array(crowns)
    for i in np.flatnonzero(rng.random(len(images)) < HEAVY_BLUR_SHARE):
        images[i] = cv2.GaussianBlur(images[i], (0, 0), rng.uniform(3.5, 9.0))
        crowns[i] = UNKNOWN_CROWNS
    return np.stack(images), np.array(terrains), crowns


def _beside_castle(terrain: np.ndarray) -> list[tuple[int, int]]:
    """The cells 4-adjacent to the castle of a labelled board."""
    size = terrain.shape[0]
    cells = []
    for r, c in np.argwhere(terrain == CASTLE):
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < size and 0 <= nc < size:
                cells.append((int(nr), int(nc)))
    return cells


def build_network():
    import torch
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
        )

    class CellNet(nn.Module):
        """Four stages of 3×3 convolutions; mean and max pooling feed two heads.

        Max pooling lets one small crown light up the crown features wherever it sits; mean
        pooling counts how much of it there is (one, two or three crowns).
        """

        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                block(3, 16),
                nn.MaxPool2d(2),  # 32×32
                block(16, 32),
                nn.MaxPool2d(2),  # 16×16
                block(32, 64),
                block(64, 64),
                nn.MaxPool2d(2),  # 8×8
                block(64, 128),
            )
            self.mean_pool = nn.AdaptiveAvgPool2d(1)
            self.max_pool = nn.AdaptiveMaxPool2d(1)
            self.dropout = nn.Dropout(0.2)
            self.terrain = nn.Linear(256, len(TERRAINS))
            self.crowns = nn.Linear(256, CROWN_CLASSES)

        def forward(self, x):  # x: (B, 3, CROP, CROP) BGR in 0–1
            f = self.features((x - 0.5) / 0.25)
            pooled = torch.cat([self.mean_pool(f), self.max_pool(f)], dim=1).flatten(1)
            pooled = self.dropout(pooled)
            return self.terrain(pooled), self.crowns(pooled)

    return CellNet()


def train_network(
    data: TrainingSet,
    epochs: int,
    seed: int,
    log=print,
    recipe: Recipe = Recipe(),
    threads: int = 2,
):
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(threads)  # two runs side by side want one each, not two each
    rng = np.random.default_rng(seed)
    net = build_network()
    n_empty = 600
    batch = 64
    # Every epoch has the same size; the schedule's length is taken from the first one drawn.
    epoch = sample_epoch(data, rng, n_empty, recipe=recipe)
    steps = epochs * ((len(epoch[0]) + batch - 1) // batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    for k in range(epochs):
        started = time.perf_counter()
        if k:
            epoch = sample_epoch(data, rng, n_empty, recipe=recipe)
        images, terrains, crowns = epoch
        order = rng.permutation(len(images))
        x_all = torch.from_numpy(images.transpose(0, 3, 1, 2).copy()).float().div_(255.0)
        t_all = torch.from_numpy(terrains).long()
        # Crown targets as distributions: one-hot, or uniform for UNKNOWN_CROWNS.
        c_all = torch.full((len(crowns), CROWN_CLASSES), 1.0 / CROWN_CLASSES)
        known = torch.from_numpy(crowns != UNKNOWN_CROWNS)
        c_all[known] = nn.functional.one_hot(
            torch.from_numpy(crowns[crowns != UNKNOWN_CROWNS]).long(), CROWN_CLASSES
        ).float()
        net.train()
        total, correct = 0.0, 0
        for start in range(0, len(order), batch):
            idx = torch.from_numpy(order[start : start + batch])
            terrain_logits, crown_logits = net(x_all[idx])
            loss = loss_fn(terrain_logits, t_all[idx]) + loss_fn(crown_logits, c_all[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
            correct += int((terrain_logits.argmax(1) == t_all[idx]).sum())
        log(
            f"  epoch {k + 1}/{epochs}: loss {total / len(order):.3f}, "
            f"train terrain acc {correct / len(order):.3f}, {time.perf_counter() - started:.0f} s"
        )
    net.eval()
    return net


def export_onnx(net) -> bytes:
    """The network as ONNX bytes that ``cv2.dnn.readNetFromONNX`` loads (checked by the caller)."""
    import torch

    buffer = io.BytesIO()
    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(
        net,
        (dummy,),
        buffer,
        input_names=["crops"],
        output_names=["terrain", "crowns"],
        dynamic_axes={"crops": {0: "batch"}, "terrain": {0: "batch"}, "crowns": {0: "batch"}},
        opset_version=13,
        dynamo=False,
    )
    return buffer.getvalue()


def board_cells(board: LabelledBoard, scaled: np.ndarray) -> np.ndarray:
    size = board.terrain.shape[0]
    crops = scaled.reshape(size, CROP, size, CROP, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(crops.reshape(size * size, CROP, CROP, 3))


@dataclass(frozen=True)
class OutOfFold:
    """Held-out predictions: every labelled cell predicted by the fold model that never saw it."""

    board_names: np.ndarray  # (B,) str, aau-boards image names
    board_folds: np.ndarray  # (B,)
    board_terrain: np.ndarray  # (B, 5, 5) labels
    board_crowns: np.ndarray  # (B, 5, 5)
    board_terrain_probs: np.ndarray  # (B, 5, 5, 8)
    board_crown_probs: np.ndarray  # (B, 5, 5, 4)
    crop_terrain: np.ndarray  # (C,) labels of cell-crops
    crop_crowns: np.ndarray  # (C,)
    crop_terrain_probs: np.ndarray  # (C, 8)
    crop_crown_probs: np.ndarray  # (C, 4)
    # The same, averaged over the four turns of each cell (CellModel.predict(all_turns=True)),
    # for the cells ``vision.cells`` gives a second look; None in files saved before them.
    board_terrain_probs_turned: np.ndarray | None = None
    board_crown_probs_turned: np.ndarray | None = None
    crop_terrain_probs_turned: np.ndarray | None = None
    crop_crown_probs_turned: np.ndarray | None = None

    @classmethod
    def from_predictions(
        cls,
        boards: list[LabelledBoard],
        board_folds: np.ndarray,
        crops: list[LabelledCrop],
        probs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        turned: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> OutOfFold:
        """Labels from ``boards`` and ``crops`` with held-out probabilities in field order:
        board terrain, board crowns, crop terrain, crop crowns (and the same for ``turned``)."""
        board_t, board_c, crop_t, crop_c = probs
        turned_t, turned_c, turned_crop_t, turned_crop_c = turned or (None,) * 4
        return cls(
            board_names=np.array([b.name for b in boards]),
            board_folds=board_folds,
            board_terrain=np.stack([b.terrain for b in boards]),
            board_crowns=np.stack([b.crowns for b in boards]),
            board_terrain_probs=board_t,
            board_crown_probs=board_c,
            crop_terrain=np.array([c.terrain for c in crops]),
            crop_crowns=np.array([c.crowns for c in crops]),
            crop_terrain_probs=crop_t,
            crop_crown_probs=crop_c,
            board_terrain_probs_turned=turned_t,
            board_crown_probs_turned=turned_c,
            crop_terrain_probs_turned=turned_crop_t,
            crop_crown_probs_turned=turned_crop_c,
        )

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: v for k, v in self.__dict__.items() if v is not None}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> OutOfFold:
        with np.load(path, allow_pickle=False) as data:
            return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data.files})

    def with_second_look(self) -> OutOfFold:
        """Predictions as ``classify_cells`` makes them: unsure cells read in all four turns."""
        if self.board_terrain_probs_turned is None:
            return self
        from vision.cells import needs_second_look

        def mixed(first, turned, unsure):
            return np.where(unsure[..., None], turned, first)

        board_unsure = needs_second_look(self.board_terrain_probs, self.board_crown_probs)
        crop_unsure = needs_second_look(self.crop_terrain_probs, self.crop_crown_probs)
        return dataclasses.replace(
            self,
            board_terrain_probs=mixed(
                self.board_terrain_probs, self.board_terrain_probs_turned, board_unsure
            ),
            board_crown_probs=mixed(
                self.board_crown_probs, self.board_crown_probs_turned, board_unsure
            ),
            crop_terrain_probs=mixed(
                self.crop_terrain_probs, self.crop_terrain_probs_turned, crop_unsure
            ),
            crop_crown_probs=mixed(
                self.crop_crown_probs, self.crop_crown_probs_turned, crop_unsure
            ),
        )

    def with_labels_of(self, boards: list[LabelledBoard]) -> OutOfFold:
        """The same predictions judged against today's labels (``lab.data.LABEL_FIXES``)."""
        by_name = {b.name: b for b in boards}
        return dataclasses.replace(
            self,
            board_terrain=np.stack([by_name[n].terrain for n in self.board_names]),
            board_crowns=np.stack([by_name[n].crowns for n in self.board_names]),
        )

    def with_crop_labels_of(self, crops: list[LabelledCrop]) -> OutOfFold:
        """The same predictions judged against these labels of the same cell-crops, in the
        order they were saved (``load_cell_crops`` with or without ``CROP_LABEL_FIXES``)."""
        if len(crops) != len(self.crop_terrain):
            raise ValueError(f"{len(crops)} crops for {len(self.crop_terrain)} predictions")
        return dataclasses.replace(
            self,
            crop_terrain=np.array([c.terrain for c in crops]),
            crop_crowns=np.array([c.crowns for c in crops]),
        )

    def with_crown_weights(self, weights) -> OutOfFold:
        """The same predictions with the crown counts reweighted as the shipped model does."""
        fields = (
            "board_crown_probs",
            "crop_crown_probs",
            "board_crown_probs_turned",
            "crop_crown_probs_turned",
        )
        changes = {
            name: reweight_crowns(getattr(self, name), weights)
            for name in fields
            if getattr(self, name) is not None
        }
        return dataclasses.replace(self, **changes)


def cross_validate(
    boards: list[LabelledBoard],
    crops: list[LabelledCrop],
    folds: int,
    epochs: int,
    seed: int = SEED,
    log=print,
    recipe: Recipe = Recipe(),
    fold_models: Path | None = None,
    threads: int = 2,
) -> OutOfFold:
    """Held-out predictions from one model per fold; with ``fold_models`` (a folder) each
    fold's model is kept there as ``fold_K.onnx`` so that later evaluations (e.g. the boards
    under another light in ``lab.evaluate``) stay held-out too.

    ``seed`` starts the networks; the folds are always those of SEED, so that runs with other
    seeds hold out the same kingdoms and sessions: their held-out figures compare cell by cell,
    and their fold models can be averaged fold by fold."""
    board_fold = assign_folds([b.kingdom for b in boards], folds, SEED)
    crop_fold = assign_folds([c.group for c in crops], folds, SEED)
    size = boards[0].terrain.shape[0]
    t_probs = np.zeros((len(boards), size, size, len(TERRAINS)))
    c_probs = np.zeros((len(boards), size, size, CROWN_CLASSES))
    ct_probs = np.zeros((len(crops), len(TERRAINS)))
    cc_probs = np.zeros((len(crops), CROWN_CLASSES))
    t_turned, c_turned = np.zeros_like(t_probs), np.zeros_like(c_probs)
    ct_turned, cc_turned = np.zeros_like(ct_probs), np.zeros_like(cc_probs)
    everything = make_training_set(boards, crops)
    for k in range(folds):
        train_boards = [i for i in range(len(boards)) if board_fold[i] != k]
        train_crops = [i for i in range(len(crops)) if crop_fold[i] != k]
        log(
            f"fold {k + 1}/{folds}: training on {len(train_boards)} boards, "
            f"{len(train_crops)} crops"
        )
        scenes = (
            fold_scene_cells(boards, board_fold, k, recipe.scenes) if recipe.scene_cells else None
        )
        data = TrainingSet(
            [boards[i] for i in train_boards],
            [everything.scaled_boards[i] for i in train_boards],
            [crops[i] for i in train_crops],
            [everything.scaled_crops[i] for i in train_crops],
            scenes,
        )
        net = train_network(data, epochs, seed + k, log, recipe, threads)
        onnx_bytes = export_onnx(net)
        if fold_models is not None:
            fold_models.mkdir(parents=True, exist_ok=True)
            (fold_models / f"fold_{k}.onnx").write_bytes(onnx_bytes)
        model = CellModel(onnx_bytes, _info(0.0))
        for i in np.flatnonzero(board_fold == k):
            cells = board_cells(boards[i], everything.scaled_boards[i])
            tp, cp = model.predict(cells)
            t_probs[i] = tp.reshape(size, size, -1)
            c_probs[i] = cp.reshape(size, size, -1)
            tp, cp = model.predict(cells, all_turns=True)
            t_turned[i] = tp.reshape(size, size, -1)
            c_turned[i] = cp.reshape(size, size, -1)
        held = np.flatnonzero(crop_fold == k)
        if len(held):
            held_crops = np.stack([everything.scaled_crops[i] for i in held])
            ct_probs[held], cc_probs[held] = model.predict(held_crops)
            ct_turned[held], cc_turned[held] = model.predict(held_crops, all_turns=True)
    return OutOfFold.from_predictions(
        boards,
        board_fold,
        crops,
        (t_probs, c_probs, ct_probs, cc_probs),
        turned=(t_turned, c_turned, ct_turned, cc_turned),
    )


def choose_uncertain_threshold(oof: OutOfFold, flag_correct_share: float = 0.02) -> float:
    """Flag about ``flag_correct_share`` of correctly read held-out board cells.

    A fixed small share of extra checks for the user, rather than a fit to the handful of
    held-out errors (which would overfit); evaluate reports how many errors it catches.
    """
    from vision.cells import CellReadings

    confidences = []
    for i in range(len(oof.board_names)):
        readings = CellReadings(oof.board_terrain_probs[i], oof.board_crown_probs[i], 0.0)
        terrain = np.vectorize(lambda t: TERRAINS.index(t.terrain))(
            np.array(readings.board.cells, dtype=object)
        )
        crowns = np.vectorize(lambda t: t.crowns)(np.array(readings.board.cells, dtype=object))
        ok = (terrain == oof.board_terrain[i]) & (crowns == oof.board_crowns[i])
        confidences.append(readings.confidence[ok])
    return float(np.quantile(np.concatenate(confidences), flag_correct_share))


CROWN_WEIGHT_GRID = (0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


def choose_crown_weights(oof: OutOfFold) -> tuple[float, ...]:
    """Per-count weights on the crown probabilities that read the held-out cell-crops best.

    Chosen on the cell-crops only (other phones and tables), never on the aau boards, so the
    board figures ``lab.evaluate`` reports stay held-out. One pass of coordinate search over a
    coarse grid; on a tie the weight nearest 1 wins. Crowns a terrain cannot carry are excluded
    as ``CellReadings`` does.
    """
    max_crowns = np.array([t.max_crowns for t in TERRAINS])[oof.crop_terrain]
    allowed = np.arange(CROWN_CLASSES)[None, :] <= max_crowns[:, None]

    def accuracy(weights: np.ndarray) -> float:
        probs = np.where(allowed, oof.crop_crown_probs * weights, -1.0)
        return float(np.mean(probs.argmax(axis=1) == oof.crop_crowns))

    weights = np.ones(CROWN_CLASSES)
    for count in range(1, CROWN_CLASSES):

        def score(w: float, count: int = count) -> tuple[float, float]:
            trial = weights.copy()
            trial[count] = w
            return accuracy(trial), -abs(np.log(w))

        weights[count] = max(CROWN_WEIGHT_GRID, key=score)
    return tuple(float(w) for w in weights)


def _info(uncertain_below: float, crown_weights=(1.0,) * CROWN_CLASSES) -> ModelInfo:
    return ModelInfo(CROP, tuple(t.value for t in TERRAINS), uncertain_below, tuple(crown_weights))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=4, help="0 skips cross-validation")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--threads", type=int, default=2, help="torch threads (1 for two runs side by side)"
    )
    shipped = Recipe()
    for field in dataclasses.fields(Recipe):  # one option per recipe setting, shipped default
        default = getattr(shipped, field.name)
        parser.add_argument(
            "--" + field.name.replace("_", "-"),
            type=type(default),
            default=default,
            help=RECIPE_HELP[field.name],
        )
    parser.add_argument("--oof", type=Path, default=DEFAULT_OOF, help="held-out predictions")
    parser.add_argument("--out", type=Path, default=MODELS_DIR)
    parser.add_argument(
        "--recalibrate",
        action="store_true",
        help="no training: choose the crown weights and uncertainty threshold again from the "
        "held-out predictions in --oof and rewrite only the model's JSON in --out",
    )
    args = parser.parse_args(argv)
    if args.recalibrate:
        recalibrate(args.oof, args.out / META_FILE)
        return
    started = time.perf_counter()
    recipe = Recipe(
        **{field.name: getattr(args, field.name) for field in dataclasses.fields(Recipe)}
    )
    boards, crops = load_aau_boards(), load_cell_crops()
    print(f"{len(boards)} boards ({len({b.kingdom for b in boards})} kingdoms), {len(crops)} crops")
    threshold, crown_weights = 0.5, (1.0,) * CROWN_CLASSES
    if args.folds:
        oof = cross_validate(
            boards,
            crops,
            args.folds,
            args.epochs,
            args.seed,
            recipe=recipe,
            fold_models=args.oof.parent / "folds",
            threads=args.threads,
        )
        oof.save(args.oof)
        crown_weights = choose_crown_weights(oof)
        threshold = choose_uncertain_threshold(
            oof.with_crown_weights(crown_weights).with_second_look()
        )
        print(
            f"held-out predictions in {args.oof}; crown weights {crown_weights}; "
            f"uncertain below {threshold:.3f}"
        )
    print("final model on everything")
    scenes = None
    if recipe.scene_cells:  # every fold's photos: together they show every kingdom
        folds = max(args.folds, 4)
        board_fold = assign_folds([b.kingdom for b in boards], folds, SEED)
        scenes = SceneCells.joined(
            [fold_scene_cells(boards, board_fold, k, recipe.scenes) for k in range(folds)]
        )
    everything = make_training_set(boards, crops, scenes)
    net = train_network(everything, args.epochs, args.seed, recipe=recipe, threads=args.threads)
    onnx_bytes = export_onnx(net)
    CellModel(
        onnx_bytes, _info(threshold, crown_weights)
    )  # fails here, not at run time, if OpenCV can't load it
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / MODEL_FILE).write_bytes(onnx_bytes)
    meta = {
        "crop": CROP,
        "terrains": [t.value for t in TERRAINS],
        "uncertain_below": round(threshold, 4),
        "crown_weights": list(crown_weights),
        "trained_on": {"aau_boards": len(boards), "cell_crops": len(crops)},
        "epochs": args.epochs,
        "seed": args.seed,
        "recipe": dataclasses.asdict(recipe),
    }
    (args.out / META_FILE).write_text(json.dumps(meta, indent=2) + "\n")
    print(
        f"wrote {args.out / MODEL_FILE} ({len(onnx_bytes) / 1e6:.2f} MB) "
        f"in {(time.perf_counter() - started) / 60:.1f} min"
    )


def recalibrate(oof_path: Path, meta_path: Path) -> None:
    """Calibration from saved held-out predictions, for the model those folds stood for."""
    oof = OutOfFold.load(oof_path).with_labels_of(load_aau_boards())
    oof = oof.with_crop_labels_of(load_cell_crops())
    crown_weights = choose_crown_weights(oof)
    threshold = choose_uncertain_threshold(oof.with_crown_weights(crown_weights).with_second_look())
    meta = json.loads(meta_path.read_text())
    meta.update(uncertain_below=round(threshold, 4), crown_weights=list(crown_weights))
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{meta_path}: crown weights {crown_weights}, uncertain below {threshold:.3f}")


if __name__ == "__main__":
    main()
