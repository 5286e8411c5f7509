"""Pair two trainings of one recipe: the first network reads every cell, the second joins it in
reading the terrain of the cells the first is unsure of (``vision.model.CellModel``'s second
look).

    python -m lab.second_opinion --first RUN_A --second RUN_B --out RUN

RUN_A and RUN_B are the folders of two ``lab.train`` runs with different ``--seed`` (each run
with ``--oof RUN_X/out_of_fold.npz --out RUN_X/model``); they hold out the same folds, since
``lab.train`` always splits with its SEED. Nothing is trained here. Writes to RUN:

- ``out_of_fold.npz``: the held-out predictions as the pair reads them: the first look is A's,
  the second look (four turns) A's crowns and the mean of A's and B's terrain, so
  ``lab.evaluate --oof`` measures what ships;
- ``folds/fold_K.onnx`` and ``folds/fold_K_second.onnx``: each fold's pair, for the blocks of
  ``lab.evaluate --oof`` that read photos again (far halves, other light);
- ``model/``: both final networks and a JSON naming the second, its crown weights and uncertainty
  threshold chosen again on the pair's held-out predictions. Copy ``model/*`` into
  ``vision/models/`` to ship it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np

from lab.train import OutOfFold, recalibrate
from vision.model import META_FILE, MODEL_FILE

SECOND_MODEL_FILE = "cell_model_second.onnx"


def paired(first: OutOfFold, second: OutOfFold) -> OutOfFold:
    """Held-out predictions of the pair: ``first``'s first look and second-look crowns, both runs'
    second-look terrain averaged (each a mean over four turns, so this is the mean over all
    eight, as ``CellModel`` takes it)."""
    for name in ("board_names", "board_folds", "crop_terrain", "crop_crowns"):
        if not np.array_equal(getattr(first, name), getattr(second, name)):
            raise ValueError(f"the two runs differ in {name}: not two trainings on the same folds")
    if first.board_terrain_probs_turned is None or second.board_terrain_probs_turned is None:
        raise ValueError("both runs need their second-look predictions (lab.train saves them)")
    turned = {
        name: (getattr(first, name) + getattr(second, name)) / 2
        for name in ("board_terrain_probs_turned", "crop_terrain_probs_turned")
    }
    return dataclasses.replace(first, **turned)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=Path, required=True, help="folder of the first run")
    parser.add_argument("--second", type=Path, required=True, help="folder of the second run")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    first = OutOfFold.load(args.first / "out_of_fold.npz")
    second = OutOfFold.load(args.second / "out_of_fold.npz")
    args.out.mkdir(parents=True, exist_ok=True)
    paired(first, second).save(args.out / "out_of_fold.npz")

    folds = args.out / "folds"
    folds.mkdir(exist_ok=True)
    for k in sorted(set(first.board_folds.tolist())):
        shutil.copyfile(args.first / "folds" / f"fold_{k}.onnx", folds / f"fold_{k}.onnx")
        shutil.copyfile(args.second / "folds" / f"fold_{k}.onnx", folds / f"fold_{k}_second.onnx")

    model = args.out / "model"
    model.mkdir(exist_ok=True)
    shutil.copyfile(args.first / "model" / MODEL_FILE, model / MODEL_FILE)
    shutil.copyfile(args.second / "model" / MODEL_FILE, model / SECOND_MODEL_FILE)
    meta = json.loads((args.first / "model" / META_FILE).read_text())
    second_meta = json.loads((args.second / "model" / META_FILE).read_text())
    if second_meta.get("recipe") != meta.get("recipe"):
        print("note: the two runs were trained with different recipes")
    meta["second_opinion"] = {
        "file": SECOND_MODEL_FILE,
        "seed": second_meta.get("seed"),
        "recipe": second_meta.get("recipe"),
    }
    (model / META_FILE).write_text(json.dumps(meta, indent=2) + "\n")
    recalibrate(args.out / "out_of_fold.npz", model / META_FILE)
    print(f"wrote {args.out / 'out_of_fold.npz'}, {folds}, {model}")


if __name__ == "__main__":
    main()
