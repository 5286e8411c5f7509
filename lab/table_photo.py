"""A four-kingdom game-night table at 12 MP, for the ``--kingdoms all`` speed target, and each of
its kingdoms read in the table and alone.

    python -m lab.table_photo                        # reads it: a line per kingdom
    python -m lab.table_photo --out table.jpg        # also keeps the photo
    python -m lab.table_photo --out table.jpg --photo-only
    python -m lab.benchmark_photo --table            # kingdomino score --kingdoms all on it

The photo is ``lab.tables`` development scene 7205 drawn at 4032×3024: four complete 5×5
kingdoms about 800-950 px across, a cm or so apart on dark wood, with clutter round them, saved
as a phone would (JPEG quality 92). "In the table" is ``vision.pipeline.read_table`` on the
whole photo (what ``kingdomino score --kingdoms all`` calls); "alone" is ``read_image`` on the
photo cut to the kingdom and 3/4 of a cell of table round it, the same pixels, as a player who
photographs one kingdom gets. Each reading is compared with the truth under the quarter turn
that fits best (the reader puts row 0 at the photo's top).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from lab.tables import KingdomTruth, TableScene, make_table_scene

TABLE_SEED = 7205  # development seeds (lab/README.md): four complete kingdoms, not a video frame
LONG_SIDE = 4032  # 12 MP at 4:3
JPEG_QUALITY = 92
ALONE_MARGIN = 0.75  # cells of table kept round a kingdom photographed alone


def table_scene(seed: int = TABLE_SEED) -> TableScene:
    """The scene, checked to be what the target names: four complete kingdoms, 12 MP."""
    scene = make_table_scene(seed, LONG_SIDE)
    if scene.video or len(scene.complete) != 4:
        raise SystemExit(f"lab.tables scene {seed} is not four complete kingdoms in a 12 MP photo")
    return scene


def table_photo(out: Path, seed: int = TABLE_SEED) -> TableScene:
    """Writes the scene's photo to ``out`` (JPEG) and returns the scene with its truth."""
    scene = table_scene(seed)
    cv2.imwrite(str(out), scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return scene


def alone_photo(scene: TableScene, truth: KingdomTruth) -> tuple[bytes, np.ndarray]:
    """The photo cut round one kingdom (JPEG bytes) and the kingdom's corners in the cut."""
    cell = np.linalg.norm(truth.corners[1] - truth.corners[0]) / truth.size
    h, w = scene.image.shape[:2]
    x0, y0 = np.maximum(truth.corners.min(axis=0) - ALONE_MARGIN * cell, 0).astype(int)
    x1, y1 = np.minimum(truth.corners.max(axis=0) + ALONE_MARGIN * cell, [w, h]).astype(int)
    cut = scene.image[y0:y1, x0:x1]
    ok, jpeg = cv2.imencode(".jpg", cut, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    assert ok
    return jpeg.tobytes(), truth.corners - (x0, y0)


def cells_right(reading, truth: KingdomTruth) -> int:
    """Cells ``reading`` has as the truth has them, under the quarter turn that fits best."""
    labels = np.array(truth.labels, dtype=object)
    read = np.array([row.split() for row in reading.board.rows_text()], dtype=object)
    if read.shape != labels.shape:
        return 0
    return max(int((np.rot90(read, turn) == labels).sum()) for turn in range(4))


def matching(readings, corners: np.ndarray, size: int, photo_scale: float = 1.0):
    """The reading whose frame's centre is within a cell of ``corners``' (in the file's pixels),
    or None."""
    cell = np.linalg.norm(corners[1] - corners[0]) / size
    for reading in readings:
        if reading.location is None:
            continue
        centre = reading.location.corners.mean(axis=0) * photo_scale
        if np.linalg.norm(centre - corners.mean(axis=0)) < cell:
            return reading
    return None


def compare(scene: TableScene) -> list[dict]:
    """Per complete kingdom: its size in px, and cells right in the table and alone (None: not
    found there)."""
    from vision.find import NoBoardFound
    from vision.pipeline import read_image, read_table

    ok, jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    assert ok
    try:
        table = read_table(jpeg.tobytes())
        in_table, photo_scale = table.kingdoms, table.photo_scale
    except (NoBoardFound, ValueError):
        in_table, photo_scale = (), 1.0
    rows = []
    for number, truth in enumerate(scene.complete, 1):
        found = matching(in_table, truth.corners, truth.size, photo_scale)
        data, corners = alone_photo(scene, truth)
        try:
            alone = matching([read_image(data)], corners, truth.size)
        except (NoBoardFound, ValueError):
            alone = None
        rows.append(
            {
                "kingdom": number,
                "px": float(np.linalg.norm(truth.corners[1] - truth.corners[0])),
                "cells": truth.size * truth.size,
                "table": None if found is None else cells_right(found, truth),
                "alone": None if alone is None else cells_right(alone, truth),
            }
        )
    return rows


def print_comparison(scene: TableScene, rows: list[dict]) -> None:
    h, w = scene.image.shape[:2]
    print(f"lab.tables scene {scene.seed} at {w}×{h} ({scene.table}): cells right per kingdom")
    print(f"{'kingdom':<9}{'px across':>10}{'in the table':>14}{'alone':>8}")
    for row in rows:
        table = "not found" if row["table"] is None else f"{row['table']}/{row['cells']}"
        alone = "not found" if row["alone"] is None else f"{row['alone']}/{row['cells']}"
        print(f"{row['kingdom']:<9}{row['px']:>10.0f}{table:>14}{alone:>8}")
    worse = [r["kingdom"] for r in rows if (r["table"] or 0) < (r["alone"] or 0)]
    print("every kingdom read as well in the table as alone" if not worse else f"worse: {worse}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=TABLE_SEED, help="a lab.tables scene")
    parser.add_argument("--out", type=Path, help="write the photo here (JPEG)")
    parser.add_argument("--photo-only", action="store_true", help="only write --out, read nothing")
    args = parser.parse_args(argv)
    if args.photo_only and not args.out:
        parser.error("--photo-only needs --out")
    scene = table_photo(args.out, args.seed) if args.out else table_scene(args.seed)
    if not args.photo_only:
        print_comparison(scene, compare(scene))


if __name__ == "__main__":
    main()
