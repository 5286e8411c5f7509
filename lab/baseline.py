"""The cheap baseline the CNN was measured against: ``python -m lab.baseline`` (train extra).

Colour and texture features per cell (HSV histograms, uniform LBP on grey, share of crown-yellow
pixels per quadrant) with logistic regression for terrain and for crowns, trained on one
augmented copy of each cell and scored on the same kingdom-grouped folds as ``lab.train``.
Not shipped: it is here so the comparison in the notes can be re-run.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
from skimage.feature import local_binary_pattern

from lab.data import assign_folds, load_aau_boards, load_cell_crops
from lab.evaluate import report_boards
from lab.train import SEED, OutOfFold, board_cells, make_training_set, sample_epoch
from vision.labels import CROWN_CLASSES, TERRAINS


def features(crops: np.ndarray) -> np.ndarray:
    """(B, CROP, CROP, 3) uint8 → (B, F) float features."""
    out = []
    for crop in crops:
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
        hs = cv2.calcHist([hsv], [0, 1], None, [18, 4], [0, 180, 0, 256]).ravel()
        v = cv2.calcHist([hsv], [2], None, [8], [0, 256]).ravel()
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        lbp = local_binary_pattern(grey, 8, 1, method="uniform")
        lbp_hist = np.bincount(lbp.astype(int).ravel(), minlength=10)[:10]
        # Crowns: saturated yellow with a bright outline, counted per quadrant.
        yellow = (hsv[..., 0] > 18) & (hsv[..., 0] < 35) & (hsv[..., 1] > 120) & (hsv[..., 2] > 170)
        half = crop.shape[0] // 2
        quads = [yellow[:half, :half], yellow[:half, half:], yellow[half:, :half]]
        quads.append(yellow[half:, half:])
        out.append(
            np.concatenate(
                [
                    hs / hs.sum(),
                    v / v.sum(),
                    lbp_hist / lbp_hist.sum(),
                    np.sort([q.mean() for q in quads]),
                ]
            )
        )
    return np.array(out)


def cross_validate_baseline(folds: int = 4, seed: int = SEED) -> OutOfFold:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    boards, crops = load_aau_boards(), load_cell_crops()
    everything = make_training_set(boards, crops)
    board_fold = assign_folds([b.kingdom for b in boards], folds, seed)
    crop_fold = assign_folds([c.group for c in crops], folds, seed)
    size = boards[0].terrain.shape[0]
    t_probs = np.zeros((len(boards), size, size, len(TERRAINS)))
    c_probs = np.zeros((len(boards), size, size, CROWN_CLASSES))
    ct_probs = np.zeros((len(crops), len(TERRAINS)))
    cc_probs = np.zeros((len(crops), CROWN_CLASSES))
    scaled_boards = everything.scaled_boards
    board_x = [features(board_cells(b, s)) for b, s in zip(boards, scaled_boards, strict=True)]
    crop_x = features(np.stack(everything.scaled_crops))
    for k in range(folds):
        from lab.train import TrainingSet

        tb = [i for i in range(len(boards)) if board_fold[i] != k]
        tc = [i for i in range(len(crops)) if crop_fold[i] != k]
        data = TrainingSet(
            [boards[i] for i in tb],
            [everything.scaled_boards[i] for i in tb],
            [crops[i] for i in tc],
            [everything.scaled_crops[i] for i in tc],
        )
        images, terrains, crowns = sample_epoch(data, np.random.default_rng(seed + k), 300, 1)
        x = features(images)
        terrain_model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
        crown_model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
        terrain_model.fit(x, terrains)
        crown_model.fit(x, crowns)

        def predict(model, feats, classes):
            probs = np.zeros((len(feats), classes))
            probs[:, model.classes_] = model.predict_proba(feats)
            return probs

        for i in np.flatnonzero(board_fold == k):
            t_probs[i] = predict(terrain_model, board_x[i], len(TERRAINS)).reshape(size, size, -1)
            c_probs[i] = predict(crown_model, board_x[i], CROWN_CLASSES).reshape(size, size, -1)
        held = np.flatnonzero(crop_fold == k)
        ct_probs[held] = predict(terrain_model, crop_x[held], len(TERRAINS))
        cc_probs[held] = predict(crown_model, crop_x[held], CROWN_CLASSES)
        print(f"fold {k + 1}/{folds} done")
    return OutOfFold.from_predictions(
        boards, board_fold, crops, (t_probs, c_probs, ct_probs, cc_probs)
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--oof", type=Path, help="also save the held-out predictions here")
    args = parser.parse_args(argv)
    from lab.evaluate import compare_decoding, report_crops

    oof = cross_validate_baseline(args.folds)
    if args.oof:
        oof.save(args.oof)
    report_boards(
        oof.board_names,
        oof.board_terrain,
        oof.board_crowns,
        oof.board_terrain_probs,
        oof.board_crown_probs,
        0.5,
        f"BASELINE (HSV + LBP + logistic regression), {args.folds}-fold by kingdom",
    )
    report_crops(oof)
    compare_decoding(
        oof.board_names,
        oof.board_terrain,
        oof.board_crowns,
        oof.board_terrain_probs,
        oof.board_crown_probs,
        "BASELINE held out",
    )


if __name__ == "__main__":
    main()
