"""Reading cells by identity, measured against the classifier: python -m lab.identity --oof PATH

An experiment, not part of the product. The 48 dominoes have 96 halves, many with their own
artwork, so a cell could be read by matching it to the half it shows (turned any way): the half
gives terrain and crowns at once. This measures that on the aau boards, held out by kingdom
exactly as the classifier's out-of-fold predictions were (``--oof``, saved by ``lab.train``).

- **Which half a labelled cell is.** No data set names the halves, but a kingdom's labels split
  into distinct real dominoes; where every split agrees, each cell is a known half: a domino
  *kind* (identical dominoes cannot be told apart) and which of its two halves. Castle and empty
  cells are classes of their own.
- **Matching.** A cell is compared, under four turns, with every identified cell of the kingdoms
  in the other folds (small colour images, nearest neighbour); the nearest gives its half, and so
  its terrain and crowns.
- **Mix.** The classifier's reading as the product makes it (one castle, real crown counts,
  joint decoding), except where it is flagged unsure and the match is clear (the nearest half
  much nearer than the nearest with other terrain or crowns).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from lab.data import LabelledBoard, load_aau_boards
from lab.evaluate import _grid
from scoring.board import Cell, Terrain
from scoring.tileset import _domino_kind, kinds_in_set
from vision.cells import CellReadings
from vision.labels import TERRAINS

SPLIT_LIMIT = 200  # splits enumerated per kingdom; real kingdoms have a few
# A cell is matched as an 8×8 image of its inner part: Lab colour and gradient magnitude. Of
# 8, 16, 24 and 32 px, with colour alone, colour normalised per cell, or colour and gradient,
# this matched best (1,397 of 1,425 held-out cells against 1,286-1,396).
FEATURE_SIDE = 8
GRADIENT_WEIGHT = 0.5  # of the gradient channel, against Lab units
CLEAR_MATCH = 0.8  # nearest distance over the nearest with another reading: "clear" below this
CASTLE, EMPTY = -2, -3  # identity classes of the castle and an empty cell; -1: unknown


def _cell(terrain: int, crowns: int) -> Cell:
    return Cell(TERRAINS[terrain], int(crowns))


def _half_classes() -> dict[tuple[tuple[Cell, Cell], int], int]:
    """(domino kind, which half) → class number; a kind with two equal halves has one class."""
    classes = {}
    for kind in sorted(kinds_in_set(), key=str):
        for half in (0, 1) if kind[0] != kind[1] else (0,):
            classes[(kind, half)] = len(classes)
    return classes


HALVES = _half_classes()
HALF_READING = {number: key[0][key[1]] for key, number in HALVES.items()}


def domino_splits(terrain: np.ndarray, crowns: np.ndarray, limit: int = SPLIT_LIMIT) -> list:
    """Splits of a labelled kingdom's tiles into distinct real dominoes (at most ``limit``).

    Each split is a list of ((r, c), (r, c), kind): the two cells and the domino kind they form.
    ``scoring.tileset.find_cover`` answers whether one split exists, fast; a cell's half is known
    only where every split agrees, so this lists them (labelled kingdoms have a few).
    """
    n = terrain.shape[0]
    land = [
        [TERRAINS[terrain[r, c]].is_land for c in range(n)] for r in range(n)
    ]  # castle and empty cells belong to no domino
    available = Counter(kinds_in_set())
    covered = np.zeros((n, n), bool)
    found: list = []
    chosen: list = []

    def extend() -> None:
        if len(found) >= limit:
            return
        free = [(r, c) for r in range(n) for c in range(n) if land[r][c] and not covered[r, c]]
        if not free:
            found.append(list(chosen))
            return
        r, c = free[0]  # every cell before it is covered: its partner is right or below
        for r2, c2 in ((r, c + 1), (r + 1, c)):
            if r2 >= n or c2 >= n or not land[r2][c2] or covered[r2, c2]:
                continue
            kind = _domino_kind(
                _cell(terrain[r, c], crowns[r, c]), _cell(terrain[r2, c2], crowns[r2, c2])
            )
            if available[kind] == 0:
                continue
            available[kind] -= 1
            covered[r, c] = covered[r2, c2] = True
            chosen.append(((r, c), (r2, c2), kind))
            extend()
            chosen.pop()
            covered[r, c] = covered[r2, c2] = False
            available[kind] += 1

    extend()
    return found


def identity_labels(terrain: np.ndarray, crowns: np.ndarray) -> np.ndarray:
    """(N, N) half class of each cell where every split agrees; CASTLE, EMPTY, or -1 unknown."""
    n = terrain.shape[0]
    labels = np.full((n, n), -1)
    labels[terrain == TERRAINS.index(Terrain.CASTLE)] = CASTLE
    labels[terrain == TERRAINS.index(Terrain.EMPTY)] = EMPTY
    votes: dict[tuple[int, int], set] = {}
    splits = domino_splits(terrain, crowns)
    for split in splits:
        for a, b, kind in split:
            for cell in (a, b):
                # Which half of its kind the cell is; a kind with equal halves has one class.
                half = 0 if kind[0] == _cell(terrain[cell], crowns[cell]) else 1
                votes.setdefault(cell, set()).add(HALVES[(kind, half)])
    for cell, classes in votes.items():
        if len(classes) == 1 and len(splits) < SPLIT_LIMIT:
            labels[cell] = classes.pop()
    return labels


def cell_features(board_image: np.ndarray, size: int) -> np.ndarray:
    """(N, N, 4, D) float32: each cell's inner part as a small image, under four turns."""
    side = board_image.shape[0] // size
    out = []
    for r in range(size):
        row = []
        for c in range(size):
            cell = board_image[r * side : (r + 1) * side, c * side : (c + 1) * side]
            inner = cell[side // 10 : side - side // 10, side // 10 : side - side // 10]
            shape = (FEATURE_SIDE, FEATURE_SIDE)
            small = cv2.resize(inner, shape, interpolation=cv2.INTER_AREA)
            lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
            grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY).astype(np.float32)
            gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
            gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
            steep = cv2.resize(np.sqrt(gx * gx + gy * gy), shape, interpolation=cv2.INTER_AREA)
            image = np.dstack([lab, GRADIENT_WEIGHT * steep])
            row.append([np.rot90(image, k).ravel() for k in range(4)])
        out.append(row)
    return np.array(out, np.float32)


def _reading_of(identity: int) -> tuple[int, int]:
    if identity == CASTLE:
        return TERRAINS.index(Terrain.CASTLE), 0
    if identity == EMPTY:
        return TERRAINS.index(Terrain.EMPTY), 0
    half = HALF_READING[identity]
    return TERRAINS.index(half.terrain), half.crowns


def match(features: np.ndarray, gallery: np.ndarray, gallery_labels: np.ndarray):
    """Nearest gallery half for each query cell (any turn of the query), the reading it gives,
    and whether the match is clear (CLEAR_MATCH).

    ``features``: (Q, 4, D); ``gallery``: (G, D) upright; ``gallery_labels``: (G,) classes.
    """
    readings = np.array([_reading_of(int(x)) for x in gallery_labels])  # (G, 2)
    q = features.reshape(-1, features.shape[-1])
    distance = ((q**2).sum(1)[:, None] - 2 * q @ gallery.T + (gallery**2).sum(1)[None, :]).reshape(
        len(features), 4, len(gallery)
    )
    distance = np.sqrt(np.maximum(distance.min(axis=1), 0))  # best turn, (Q, G)
    nearest = distance.argmin(axis=1)
    reading = readings[nearest]
    other = (readings[None, :, :] != reading[:, None, :]).any(axis=2)
    nearest_other = np.where(other, distance, np.inf).min(axis=1)
    clear = distance[np.arange(len(q) // 4), nearest] < CLEAR_MATCH * nearest_other
    return gallery_labels[nearest], reading, clear


def evaluate(boards: list[LabelledBoard], oof, uncertain_below: float) -> dict:
    """Cells right on the held-out boards: classifier, identity match, and the mix."""
    by_name = {b.name: b for b in boards}
    names = [str(n) for n in oof.board_names]
    labels = {n: identity_labels(by_name[n].terrain, by_name[n].crowns) for n in names}
    features = {n: cell_features(by_name[n].image, 5) for n in names}
    halves_seen = {int(x) for n in names for x in labels[n].ravel() if x >= 0}
    counts = Counter()
    for k, name in enumerate(names):
        fold = oof.board_folds[k]
        others = [m for j, m in enumerate(names) if oof.board_folds[j] != fold]
        gallery = np.concatenate([features[m][labels[m] != -1][:, 0] for m in others])
        gallery_labels = np.concatenate([labels[m][labels[m] != -1] for m in others])
        truth = np.stack([oof.board_terrain[k], oof.board_crowns[k]], axis=-1).reshape(-1, 2)
        # The classifier as the product reads: one castle, real crown counts, joint decoding.
        readings = CellReadings(
            oof.board_terrain_probs[k], oof.board_crown_probs[k], uncertain_below
        )
        model = np.stack(_grid(readings.board), axis=-1).reshape(-1, 2)
        unsure = readings.uncertain.ravel()
        _, matched, clear = match(
            features[name].reshape(-1, 4, features[name].shape[-1]), gallery, gallery_labels
        )
        right_model = (model == truth).all(1)
        right_match = (matched == truth).all(1)
        mixed = np.where((unsure & clear)[:, None], matched, model)
        right_mix = (mixed == truth).all(1)
        in_gallery = np.isin(labels[name].ravel(), gallery_labels) & (labels[name].ravel() != -1)
        counts.update(
            cells=len(truth),
            model=int(right_model.sum()),
            match=int(right_match.sum()),
            mix=int(right_mix.sum()),
            known=int((labels[name] != -1).sum()),
            in_gallery=int(in_gallery.sum()),
            match_in_gallery=int((right_match & in_gallery).sum()),
            unsure=int(unsure.sum()),
            mix_changed=int((unsure & clear & (matched != model).any(1)).sum()),
            turned_right=int((right_mix & ~right_model).sum()),
            turned_wrong=int((~right_mix & right_model).sum()),
            model_wrong=int((~right_model).sum()),
            match_right_where_model_wrong=int((right_match & ~right_model).sum()),
            boards_model=int(right_model.all()),
            boards_mix=int(right_mix.all()),
        )
    counts["boards"] = len(names)
    counts["halves_seen"] = len(halves_seen)
    return dict(counts)


def print_report(c: dict) -> None:
    def pct(a, b):
        return f"{a}/{b} = {100 * a / max(b, 1):.2f} %"

    rows = [
        ("classifier (as the product reads)", pct(c["model"], c["cells"])),
        ("identity match (nearest half)", pct(c["match"], c["cells"])),
        ("  where the labels settle the half", pct(c["match_in_gallery"], c["in_gallery"])),
        ("mix (match where classifier unsure)", pct(c["mix"], c["cells"])),
    ]
    print(f"aau boards held out by kingdom: {c['boards']} boards, {c['cells']} cells")
    print(f"cells whose half the labels settle: {pct(c['known'], c['cells'])}")
    print(f"half classes seen: {c['halves_seen']} of {len(HALVES)}")
    print()
    print(f"{'cells right':40s}")
    for name, value in rows:
        print(f"{name:40s} {value:>24s}")
    print(
        f"  classifier unsure {c['unsure']}, changed by the match {c['mix_changed']},"
        f" turned right {c['turned_right']}, turned wrong {c['turned_wrong']}"
    )
    print(
        f"  of the classifier's {c['model_wrong']} wrong cells, the match reads"
        f" {c['match_right_where_model_wrong']} right"
    )
    print(f"boards entirely right: classifier {c['boards_model']}, mix {c['boards_mix']}")


def main(argv: list[str] | None = None) -> dict:
    from lab.train import OutOfFold

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oof", type=Path, required=True, help="saved by lab.train --folds")
    args = parser.parse_args(argv)
    boards = load_aau_boards()
    meta = json.loads(resources.files("vision").joinpath("models/cell_model.json").read_text())
    oof = OutOfFold.load(args.oof).with_labels_of(boards)
    oof = oof.with_crown_weights(meta["crown_weights"]).with_second_look()
    counts = evaluate(boards, oof, meta["uncertain_below"])
    print_report(counts)
    return counts


if __name__ == "__main__":
    main()
