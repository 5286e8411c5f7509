"""Train the finder's table/not-table pixel network: ``python -m lab.table_pixels``.

Pixels of synthetic game-night tables (``lab.tables`` seeds TRAIN_SEEDS) and of hard single
kingdoms (``lab.synth`` seeds HARD_TRAIN_SEEDS: lake, wheat and grass cloths, drift, the castle
figure), apart from the development and evaluation seeds, at the table model's resolution, with
``vision.find.table.pixel_features``: per scene 3,000 pixels inside tiles (an eighth of a cell in
from their edges) and 3,000 of table, half of them within a cell of the tiles (holes, and the
cloth beside a kingdom, where the features' wider windows see tiles too) and half further off. A
small network (``PIXEL_FEATURES`` → 32 → 1, scikit-learn's MLP) learns which is which; its
arrays go to ``vision/models/table_pixels.npz``, which ``vision.find.table`` runs in numpy. It
then prints, on development seeds 9000-9199, how well it and the colour distance alone tell lake
tiles from a blue patterned cloth and tiles from every other table. Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from lab.train import MODELS_DIR

TRAIN_SEEDS = range(20000, 20240)
# Hard single-kingdom scenes (``lab.synth.make_hard_scene``): lake-blue, wheat-yellow and
# grass-green cloths, drifting dominoes, the castle figure; apart from its development seeds
# 5000-5799 and the evaluation's 1000-1059.
HARD_TRAIN_SEEDS = range(40000, 40160)
CHECK_SEEDS = range(9000, 9200)
PIXELS_PER_CLASS = 3000  # per scene, inside tiles and on the table
SAMPLES = 400_000  # of the pixels gathered, the network's training set
HIDDEN = 32


def _scene(seed: int) -> tuple[np.ndarray, list[tuple[np.ndarray, int, tuple]], bool]:
    """(image, [(corners, size, labels) per kingdom], on a patterned cloth?): a ``lab.tables``
    scene for a positive seed, a hard ``lab.synth`` scene for ``-seed``."""
    if seed < 0:
        from lab.synth import CLOTHS, make_hard_scene

        hard = make_hard_scene(-seed)
        kingdoms = [(np.asarray(hard.corners), hard.size, hard.labels)]
        return hard.image, kingdoms, hard.background in CLOTHS
    from lab.tables import make_table_scene

    scene = make_table_scene(seed)
    kingdoms = [(k.corners, k.size, k.labels) for k in scene.kingdoms]
    return scene.image, kingdoms, scene.table == "patterned_cloth"


def scene_pixels(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """(features (N, 12), is_tile (N,), is_lake (N,), patterned cloth?) for one scene (see
    ``_scene``): the features as the finder computes them in its second pass (the table learnt
    away from the first pass's blobs)."""
    from vision.find import table as table_module
    from vision.find.search import WORK_LONG_SIDE

    image, kingdoms, on_cloth = _scene(seed)
    scale = min(1.0, WORK_LONG_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    lab = table_module._shading_free_colour(cv2.GaussianBlur(half, (0, 0), 1.0))
    distances = []  # the distance of each pass, as the table model computes it
    measure = table_module._table_distance

    def keep(*args, **kwargs):
        distances.append(measure(*args, **kwargs))
        return distances[-1]

    table_module._table_distance = keep
    try:
        table_module.table_model(small, by_texture=True)
    finally:
        table_module._table_distance = measure
    luminance = table_module._shading_free_colour(half)[..., 0]
    features = table_module.pixel_features(lab, luminance, distances[-1])

    size = lab.shape[:2]
    # Inside tiles (an eighth of a cell in from their edges); tiles grown by an eighth of a cell
    # (their rims, the gaps between dominoes, drift: neither class); a cell's width round them.
    tile, lake, near, around = (np.zeros(size, np.uint8) for _ in range(4))
    for kingdom_corners, n, labels in kingdoms:
        corners = np.float32(kingdom_corners * scale / 2)
        square = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
        to_photo = cv2.getPerspectiveTransform(square, corners)
        for r in range(n):
            for c in range(n):
                label = labels[r][c]
                if label == ".":
                    continue  # a hole: the table shows
                for mask, grow in ((tile, -0.12), (near, 0.12), (around, 1.0)):
                    cv2.fillPoly(mask, [_cell_polygon(c, r, grow, to_photo)], 1)
                if label[0] == "L":
                    cv2.fillPoly(lake, [_cell_polygon(c, r, -0.12, to_photo)], 1)
    # Table pixels half from right round the tiles (the holes, the cloth beside them, where the
    # features' wider windows see tiles too) and half from the rest of the table.
    table = near == 0
    rng = np.random.default_rng(abs(seed))
    picked = [
        rng.choice(np.flatnonzero(tile), min(int(tile.sum()), PIXELS_PER_CLASS), replace=False)
    ]
    share = PIXELS_PER_CLASS // 2
    for where in (table & (around > 0), table & (around == 0)):
        where = np.flatnonzero(where)
        picked.append(rng.choice(where, min(len(where), share), replace=False))
    index = np.concatenate(picked)
    is_tile = np.concatenate([np.ones(len(picked[0])), np.zeros(len(picked[1]) + len(picked[2]))])
    rows = features.reshape(-1, features.shape[-1])[index]
    return rows, is_tile, lake.ravel()[index].astype(bool), on_cloth


def _cell_polygon(column: int, row: int, grow: float, to_photo: np.ndarray) -> np.ndarray:
    """Cell (column, row) of a kingdom grown by ``grow`` cells each side (inset if negative),
    as an int32 polygon through ``to_photo`` (cells to mask pixels)."""
    a, b = -grow, 1 + grow
    square = np.float32([[[column + a, row + a], [column + b, row + a], [column + b, row + b]]])
    square = np.concatenate([square, np.float32([[[column + a, row + b]]])], axis=1)
    return np.int32(cv2.perspectiveTransform(square, to_photo)[0])


def gather(seeds, jobs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every scene's pixels stacked: features, is_tile, is_lake, on a patterned cloth."""
    with ProcessPoolExecutor(jobs) as pool:
        scenes = list(pool.map(scene_pixels, seeds, chunksize=4))
    features = np.concatenate([scene[0] for scene in scenes])
    tiles = np.concatenate([scene[1] for scene in scenes])
    lakes = np.concatenate([scene[2] for scene in scenes])
    cloth = np.concatenate([np.full(len(scene[1]), scene[3]) for scene in scenes])
    return features, tiles, lakes, cloth


def train(
    features: np.ndarray, is_tile: np.ndarray, samples: int = SAMPLES
) -> dict[str, np.ndarray]:
    """The network's arrays, as ``vision.find.table`` loads them, learnt from ``samples`` of
    the pixels."""
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler

    rows = np.random.default_rng(0).choice(len(is_tile), min(samples, len(is_tile)), replace=False)
    scaler = StandardScaler().fit(features[rows])
    network = MLPClassifier(
        hidden_layer_sizes=(HIDDEN,), max_iter=30, random_state=0, early_stopping=True
    ).fit(scaler.transform(features[rows]), is_tile[rows])
    return {
        "mean": scaler.mean_.astype(np.float32),
        "scale": scaler.scale_.astype(np.float32),
        "w1": network.coefs_[0].astype(np.float32),
        "b1": network.intercepts_[0].astype(np.float32),
        "w2": network.coefs_[1].astype(np.float32),
        "b2": network.intercepts_[1].astype(np.float32),
    }


def logits(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    standard = (features - arrays["mean"]) / arrays["scale"]
    hidden = np.maximum(standard @ arrays["w1"] + arrays["b1"], 0)
    return (hidden @ arrays["w2"] + arrays["b2"]).ravel()


def report(arrays: dict[str, np.ndarray], jobs: int) -> None:
    """Tiles marked and table marked on the check seeds, by the network and by the colour
    distance alone (beyond 4, the rule before the network)."""
    from vision.find.table import DISTANCE_FEATURE

    features, is_tile, is_lake, cloth = gather(CHECK_SEEDS, jobs)
    network = logits(arrays, features) > 0
    by_colour = features[:, DISTANCE_FEATURE] * 10 > 4
    print(f"development seeds {CHECK_SEEDS.start}-{CHECK_SEEDS.stop - 1}: share marked not table")
    print(f"{'':36s}{'colour distance > 4':>22s}{'network':>10s}")
    groups = (
        ("lake tiles on the patterned cloth", (is_tile == 1) & is_lake & cloth),
        ("the patterned cloth", (is_tile == 0) & cloth),
        ("tiles on every other table", (is_tile == 1) & ~cloth),
        ("every other table", (is_tile == 0) & ~cloth),
    )
    for name, where in groups:
        print(f"{name:36s}{by_colour[where].mean():>22.3f}{network[where].mean():>10.3f}")


def main(argv: list[str] | None = None) -> None:
    from vision.find.table import PIXEL_MODEL_FILE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODELS_DIR / PIXEL_MODEL_FILE)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    seeds = [*TRAIN_SEEDS, *(-seed for seed in HARD_TRAIN_SEEDS)]
    features, is_tile, _, _ = gather(seeds, args.jobs)
    arrays = train(features, is_tile)
    np.savez(args.out, **arrays)
    print(f"wrote {args.out} from {len(is_tile):,} pixels of {len(seeds)} scenes")
    report(arrays, args.jobs)


if __name__ == "__main__":
    main()
