"""How well the whole photo pipeline does: finding the kingdom, its grid, and reading its cells.

    python -m lab.evaluate_photos            # 200 synthetic scenes + the shared real photos
    python -m lab.evaluate_photos --n 400
    python -m lab.evaluate_photos --quick    # 20 scenes, for CI

For each photo (JPEG bytes, so decoding is timed too): load → find_board → straighten →
classify_cells. Prints one table per data set: kingdoms found, grid size right, mean and worst
corner error in cell widths (synthetic only: the real photos have no corner truth), cell
accuracy, board totals exactly right, milliseconds per photo and peak memory. Cells and totals
need part 1's packaged cell model; without it those rows say so.

The board finder puts row 0 at the top of the photo; a synthetic board can be rotated any way,
so corners (and labels with them) are compared under the quarter turn that fits best.
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from lab.data import shared_dir
from lab.synth import empty_table, make_scene
from vision.find import NoBoardFound, find_board, location_from_corners
from vision.load_image import load_image
from vision.rectify import straighten

TARGETS = {"found": 0.99, "corner_error": 0.1, "cells_real": 0.98, "ms": 500, "peak_mb": 1024}


@dataclass
class Tally:
    name: str
    photos: int = 0
    found: int = 0
    size_right: int = 0
    corner_errors: list[float] = field(default_factory=list)
    cells: int = 0
    cells_right: int = 0
    reference_cells: int = 0
    reference_right: int = 0
    boards_scored: int = 0
    totals_right: int = 0
    milliseconds: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def _cell_reader():
    """part 1's ``classify_cells`` and ``board_total``, or (None, reason) if not available."""
    try:
        from scoring.score import score_board
        from vision.cells import classify_cells
        from vision.model import load_model

        load_model()
    except Exception as err:  # noqa: BLE001 - any failure means "no cell model yet"
        return None, None, f"cell model not available ({type(err).__name__}: {err})"

    def total(tokens) -> int | None:
        from scoring.board import parse_board

        try:
            return score_board(
                parse_board("\n".join(" ".join(r) for r in tokens)), check_tiles=False
            ).total
        except ValueError:
            return None

    return classify_cells, total, ""


def _evaluate_one(tally, data, truth_size, truth_labels, truth_corners, classify, total, name):
    tally.photos += 1
    start = time.perf_counter()
    try:
        image = load_image(data)
        location = find_board(image)
    except NoBoardFound as err:
        tally.milliseconds.append((time.perf_counter() - start) * 1000)
        tally.failures.append(f"{name}: not found ({err})")
        return
    tokens = None
    if classify is not None:
        board_image = straighten(image, location, 100)
        readings = classify(board_image, location.size)
        tokens = [row.split() for row in readings.board.rows_text()]
    tally.milliseconds.append((time.perf_counter() - start) * 1000)
    tally.found += 1
    if location.size != truth_size:
        tally.failures.append(f"{name}: size {location.size}, truth {truth_size}")
        return
    tally.size_right += 1
    turns = 0
    if truth_corners is not None:
        scale = image.shape[0] / truth_corners[1]
        truth = truth_corners[0] * scale
        cell = (
            np.mean([np.linalg.norm(truth[i] - truth[(i + 1) % 4]) for i in range(4)]) / truth_size
        )
        errors = []
        for shift in range(4):
            moved = np.roll(location.corners, shift, axis=0)
            errors.append(np.linalg.norm(moved - truth, axis=1).mean() / cell)
        turns = int(np.argmin(errors))
        tally.corner_errors.append(float(errors[turns]))
        if errors[turns] > 0.25:
            tally.failures.append(f"{name}: corner error {errors[turns]:.2f} cells")
    if tokens is not None and truth_corners is not None:
        # The same board read through the true corners: part 1's accuracy with perfect geometry,
        # the yardstick for what finding the board costs.
        true_location = location_from_corners(truth_corners[0] * scale, truth_size)
        reference = classify(straighten(image, true_location, 100), truth_size)
        truth = np.array(truth_labels, dtype=object)
        read = np.array([row.split() for row in reference.board.rows_text()], dtype=object)
        tally.reference_cells += truth.size
        tally.reference_right += int((read == truth).sum())
    if tokens is not None:
        # np.roll by `turns` matched found corner (i - turns) to true corner i: the true top-left
        # is where the found board has corner -turns, i.e. the found board is the true one
        # turned `turns` quarter turns anticlockwise (np.rot90's sense); undo it.
        found = np.rot90(np.array(tokens, dtype=object), -turns)
        truth = np.array(truth_labels, dtype=object)
        tally.cells += truth.size
        right = int((found == truth).sum())
        tally.cells_right += right
        if right < truth.size:
            tally.failures.append(f"{name}: {truth.size - right} cells wrong")
        expected = total(truth.tolist())
        if expected is not None:
            tally.boards_scored += 1
            tally.totals_right += int(total(found.tolist()) == expected)


def _jpeg_bytes(image: np.ndarray) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return encoded.tobytes()


def _table(tally: Tally, cells_note: str, peak_mb: float) -> str:
    def share(k, n):
        return f"{k}/{n} = {100 * k / n:.1f} %" if n else "n/a"

    errors = tally.corner_errors
    ms = tally.milliseconds
    rows = [
        ("photos", str(tally.photos)),
        ("kingdoms found", share(tally.found, tally.photos)),
        ("grid size right", share(tally.size_right, tally.photos)),
        (
            "corner error, mean (cells)",
            f"{np.mean(errors):.3f}" if errors else "n/a (no corner truth)",
        ),
        ("corner error, median (cells)", f"{np.median(errors):.3f}" if errors else "n/a"),
        ("corner error, worst (cells)", f"{np.max(errors):.3f}" if errors else "n/a"),
        (
            "cells right",
            share(tally.cells_right, tally.cells) if tally.cells else cells_note or "n/a",
        ),
        (
            "cells right, true corners",
            share(tally.reference_right, tally.reference_cells) if tally.reference_cells else "n/a",
        ),
        (
            "totals exactly right",
            share(tally.totals_right, tally.boards_scored) if tally.cells else "n/a",
        ),
        ("ms per photo, mean", f"{np.mean(ms):.0f}" if ms else "n/a"),
        ("ms per photo, worst", f"{np.max(ms):.0f}" if ms else "n/a"),
        ("peak memory (MB)", f"{peak_mb:.0f}"),
    ]
    width = max(len(r[0]) for r in rows)
    lines = [f"== {tally.name} =="] + [f"{k:<{width}}  {v}" for k, v in rows]
    return "\n".join(lines)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(n_scenes: int, seed: int, real: bool, show_failures: int, long_side: int) -> None:
    classify, total, cells_note = _cell_reader()
    if cells_note:
        print(f"note: {cells_note}; reporting geometry only")

    synthetic = Tally(f"synthetic scenes (n={n_scenes}, seed={seed}, {long_side} px)")
    tracemalloc.start()
    for i in range(n_scenes):
        scene = make_scene(seed + i, long_side)
        data = _jpeg_bytes(scene.image)
        truth_corners = (scene.corners, scene.image.shape[0])
        _evaluate_one(
            synthetic,
            data,
            scene.size,
            scene.labels,
            truth_corners,
            classify,
            total,
            f"scene {scene.seed} ({scene.background})",
        )
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(_table(synthetic, cells_note, max(traced / 2**20, _peak_rss_mb())))
    for failure in synthetic.failures[:show_failures]:
        print("  -", failure)
    # Tables with nothing on them must be refused, never read as a kingdom.
    empties = max(2, n_scenes // 10)
    refused = 0
    for i in range(empties):
        try:
            find_board(load_image(_jpeg_bytes(empty_table(seed + i, long_side))))
        except NoBoardFound:
            refused += 1
    print(f"{'empty tables refused':<28}  {refused}/{empties}")

    if real:
        photos = sorted((shared_dir() / "datasets" / "photos").glob("*.jpg"))
        tally = Tally(f"real photos ({len(photos)})")
        for path in photos:
            labels = photo_labels(path)
            _evaluate_one(
                tally, path.read_bytes(), len(labels), labels, None, classify, total, path.name
            )
        print(_table(tally, cells_note, _peak_rss_mb()))
        for failure in tally.failures[:show_failures]:
            print("  -", failure)
        variants = _real_variants(photos, classify, total)
        print(_table(variants, cells_note, _peak_rss_mb()))
        for failure in variants.failures[:show_failures]:
            print("  -", failure)
        _time_12mp(photos[0] if photos else None)


TURNS = (0, 20, 45, 90, 135, 200)  # degrees
TILTS = (0.0, 0.15)  # how much shorter the far edge gets (0.15: about 30° of camera tilt)


def _real_variants(photos: list[Path], classify, total) -> Tally:
    """The real photos turned and tilted: real tiles and carpet at other angles.

    The truth corners are the grid found in the untouched photo (whose cells are all read
    right), carried through the same transformation: the corner error says how consistently the
    grid is found, not how right it is.
    """
    tally = Tally(f"real photos turned {TURNS}° and tilted {TILTS} ({len(photos) * 12})")
    rng = np.random.default_rng(0)
    for path in photos:
        labels = photo_labels(path)
        image = load_image(path)
        base = find_board(image)
        for turn in TURNS:
            for tilt in TILTS:
                variant, warp = turn_and_tilt(image, turn, tilt, rng)
                corners = cv2.perspectiveTransform(base.corners.reshape(-1, 1, 2), warp).reshape(
                    4, 2
                )
                # The board's own top-left is the photo's: corners keep the board's order.
                truth = (corners, variant.shape[0])
                name = f"{path.name} turned {turn}°, tilt {tilt}"
                _evaluate_one(
                    tally, _jpeg_bytes(variant), len(labels), labels, truth, classify, total, name
                )
    return tally


def photo_labels(path: Path) -> list[list[str]]:
    """A shared photo's truth: the board-text rows in the ``.txt`` beside it."""
    text = path.with_suffix(".txt").read_text()
    return [line.split() for line in text.splitlines() if line.strip()]


def turn_and_tilt(
    image: np.ndarray, turn: float, tilt: float, rng, shrink: float = 0.55
) -> tuple[np.ndarray, np.ndarray]:
    """The photo shrunk, turned and keystoned onto a carpet-coloured canvas, and the warp."""
    h, w = image.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    rotation = cv2.getRotationMatrix2D((w / 2, h / 2), turn, shrink)
    dst = cv2.transform(src[None], rotation)[0]
    centre = dst.mean(axis=0)
    dst[:2] = centre + (dst[:2] - centre) * (1 - tilt)  # the photo's top edge moves away
    low, high = dst.min(axis=0), dst.max(axis=0)
    warp = cv2.getPerspectiveTransform(src, (dst - low).astype(np.float32))
    size = tuple(int(v) for v in np.ceil(high - low))
    out = cv2.warpPerspective(image, warp, size, flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.ones((h, w), np.uint8), warp, size)
    carpet = np.median(image[: h // 20].reshape(-1, 3), axis=0)
    fill = (carpet + rng.normal(0, 12, out.shape)).clip(0, 255).astype(np.uint8)
    out[inside == 0] = fill[inside == 0]
    return out, warp


def _time_12mp(photo: Path | None) -> None:
    """Time load + find + straighten on a 12-MP JPEG (a real photo scaled to 4032×3024)."""
    if photo is None:
        return
    image = cv2.imread(str(photo))
    if image.shape[0] > image.shape[1]:
        image = cv2.resize(image, (3024, 4032), interpolation=cv2.INTER_CUBIC)
    else:
        image = cv2.resize(image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    data = _jpeg_bytes(image)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        loaded = load_image(data)
        location = find_board(loaded)
        straighten(loaded, location, 100)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"12-MP photo ({photo.name} scaled to {image.shape[1]}×{image.shape[0]}):"
        f" load + find + straighten, median {np.median(times):.0f} ms of 5 runs"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Evaluate the photo pipeline (vision part 2).")
    parser.add_argument("--n", type=int, default=200, help="synthetic scenes (default 200)")
    parser.add_argument("--seed", type=int, default=1000, help="first scene seed")
    parser.add_argument("--quick", action="store_true", help="20 scenes, for CI")
    parser.add_argument("--no-real", action="store_true", help="skip the shared real photos")
    parser.add_argument("--failures", type=int, default=15, help="failures to list")
    parser.add_argument("--long-side", type=int, default=1600, help="synthetic photo size")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)  # the target is per core
    n = 20 if args.quick else args.n
    run(n, args.seed, not args.no_real, args.failures, args.long_side)


if __name__ == "__main__":
    main()
