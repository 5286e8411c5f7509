"""The real-photo gate: every real photo and board we have, read at three sizes, against main.

    python -m lab.real_gate                    # the table, the misses, exit 1 on a regression
    python -m lab.real_gate --jobs 2           # the same on two processes
    python -m lab.real_gate --write-baseline   # record what this reader gets right

Sources: the eight shared raw photos (``datasets/photos``), the same turned a quarter, half and
three quarters (``cv2.rotate``, no resampling), the same tilted (keystoned as by a camera leaning
back, once upright and once turned 20°), the same as soft video frames (``soften``: as soft as
the real soft video frame's softer tiles, after the shrinking below), and the 57 aau boards
(``datasets/aau-boards``). Each is shrunk to 1.0, 0.5 and 0.35 of its size (``cv2.INTER_AREA``),
encoded as a JPEG (an untouched original goes in as its own file) and read by
``vision.pipeline.read_image``, the entry point of ``kingdomino score``. A reading is compared
with the truth under the quarter turn that fits it best (the reader puts row 0 at the top of the
photo).

The table also says how many kingdoms are *caught* (the total right, or every wrong cell marked
for a look: right once the user has fixed the marked cells) and how many cells each kingdom read
marks for a look.

``lab/real_gate_baseline.json`` holds, for every photo and size, whether the kingdom was found
with the right size and which cells were read wrong. The gate fails when a kingdom found before
is lost or a cell read right before is read wrong: a reader change may move misses to right,
never the other way. After a change that only gains, write the baseline again and commit it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.data import load_aau_boards, shared_dir
from lab.evaluate import _label_board, board_total
from lab.evaluate_photos import _jpeg_bytes, photo_labels, turn_and_tilt

SCALES = (1.0, 0.5, 0.35)
BASELINE = Path(__file__).with_name("real_gate_baseline.json")
SOURCES = ("photos", "photos turned", "photos tilted", "photos soft", "aau boards")
QUARTER_TURNS = {
    90: cv2.ROTATE_90_CLOCKWISE,
    180: cv2.ROTATE_180,
    270: cv2.ROTATE_90_COUNTERCLOCKWISE,
}
TILTS = ((0.0, 0.15), (20.0, 0.15))  # (turn in degrees, how much shorter the far edge gets)
# A soft frame's tiles measure (``lab.sharpness``, median over the kingdom's tiles) at the real
# soft video frame's 10th percentile: that frame (not in ../shared) measured median 0.230, p10
# 0.205, p1 0.201, the other real photos 0.217-0.308. The fixed recipe this replaces (σ 1.5 px,
# then half the resolution, a 3-8 px motion blur, JPEG 35-70) made tiles of 0.11-0.145, far
# softer than any real photo: kd_czech_04 at 0.35 lost every crown to it.
SOFT_TARGET = 0.205
SOFT_QUALITY = 50  # JPEG quality of the frame, as a phone's video encoder leaves it
SOFT_STEPS = 7  # halvings of the defocus search, 0-4 px: to within 0.03 px


def soften(image: np.ndarray) -> np.ndarray:
    """``image`` as a soft video frame of it, as soft as the real soft frame's softer tiles:
    defocused (Gaussian σ) and motion-blurred (a line of 2σ + 1 px at 30°), then JPEG
    ``SOFT_QUALITY``, σ chosen so that the kingdom's tiles measure ``SOFT_TARGET``
    (``soft_tiles_sharpness``). The tiles are where the reader finds them in ``image`` itself;
    a photo it cannot read keeps σ 1.5. The same every time, so that the baseline holds."""
    from vision.pipeline import read_image

    try:
        location = read_image(image).location
    except ValueError:
        location = None
    if location is None:
        return _soft_frame(image, 1.5)
    low, high = 0.0, 4.0
    if soft_tiles_sharpness(_soft_frame(image, low), location) <= SOFT_TARGET:
        return _soft_frame(image, low)
    for _ in range(SOFT_STEPS):
        sigma = (low + high) / 2
        if soft_tiles_sharpness(_soft_frame(image, sigma), location) > SOFT_TARGET:
            low = sigma
        else:
            high = sigma
    return _soft_frame(image, high)


def _soft_frame(image: np.ndarray, sigma: float) -> np.ndarray:
    """``image`` defocused by ``sigma`` px, blurred along a 30° line of 2σ + 1 px, as a JPEG."""
    if sigma > 0:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
        length = int(round(2 * sigma)) + 1
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), 30, 1)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, SOFT_QUALITY])
    assert ok
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def soft_tiles_sharpness(image: np.ndarray, location) -> float:
    """The median ``lab.sharpness`` of the cells of ``image`` in the frame ``location``."""
    from lab.sharpness import board_cells, cell_sharpness
    from vision.rectify import straighten

    board = straighten(image, location)
    keep = np.ones((location.size, location.size), bool)
    return float(np.median([cell_sharpness(c) for c in board_cells(board, location.size, keep)]))


@dataclass(frozen=True)
class Case:
    """One real image to read: which source, its name there, and the size to read it at."""

    source: str
    name: str
    scale: float

    @property
    def key(self) -> str:
        return f"{self.source}/{self.name}@{self.scale:g}"


@dataclass(frozen=True)
class Outcome:
    """What the reader made of one case. ``wrong``: (row, col, truth, read, flagged) per miss,
    in the truth's frame; ``problem``: why no board was compared (not found, wrong size)."""

    case: Case
    cells: int
    wrong: tuple[tuple[int, int, str, str, bool], ...] = ()
    total_right: bool = False
    problem: str = ""
    flags: int = 0  # cells the reading marks for a look (uncertain or changed by decoding)

    @property
    def found(self) -> bool:
        return not self.problem

    @property
    def caught(self) -> bool:
        """Read, and its total right or every wrong cell marked: once the user has fixed the
        marked cells, the total is right."""
        return self.found and (self.total_right or all(flagged for *_, flagged in self.wrong))


def cases(sources: Iterable[str] = SOURCES, scales: Iterable[float] = SCALES) -> list[Case]:
    """Every (source, image, scale) the gate reads, in a stable order."""
    photos = [p.stem for p in _photo_paths()]
    names = {
        "photos": photos,
        "photos turned": [f"{p} turned {t}" for p in photos for t in QUARTER_TURNS],
        "photos tilted": [f"{p} turned {t:g}, tilt {k:g}" for p in photos for t, k in TILTS],
        "photos soft": [f"{p} soft" for p in photos],
        "aau boards": [board.name for board in _aau_boards()],
    }
    scales = tuple(scales)
    return [Case(s, name, scale) for s in sources for name in names[s] for scale in scales]


def _photo_paths() -> list[Path]:
    return sorted((shared_dir() / "datasets" / "photos").glob("*.jpg"))


_AAU_CACHE: list = []


def _aau_boards() -> list:
    if not _AAU_CACHE:
        _AAU_CACHE.extend(load_aau_boards())
    return _AAU_CACHE


def image_and_truth(case: Case) -> tuple[bytes, list[list[str]]]:
    """The JPEG bytes the gate hands the reader for ``case``, and the board's truth rows."""
    if case.source == "aau boards":
        board = next(b for b in _aau_boards() if b.name == case.name)
        path = shared_dir() / "datasets" / "aau-boards" / "images" / f"{board.name}.jpg"
        truth = [row.split() for row in _label_board(board.terrain, board.crowns).rows_text()]
        original, image = path.read_bytes(), board.image
    else:
        stem = case.name.split()[0]
        path = shared_dir() / "datasets" / "photos" / f"{stem}.jpg"
        truth = photo_labels(path)
        original, image = path.read_bytes(), cv2.imread(str(path), cv2.IMREAD_COLOR)
        if case.source == "photos turned":
            turn = int(case.name.split()[-1])
            original, image = None, cv2.rotate(image, QUARTER_TURNS[turn])
        elif case.source == "photos tilted":
            turn, tilt = next(t for t in TILTS if case.name.endswith(f"{t[0]:g}, tilt {t[1]:g}"))
            rng = np.random.default_rng(0)
            original, image = None, turn_and_tilt(image, turn, tilt, rng, shrink=1.0)[0]
        elif case.source == "photos soft":
            original = None
    if case.scale == 1.0 and original is not None:
        return original, truth
    if case.scale != 1.0:
        h, w = image.shape[:2]
        size = (max(1, round(w * case.scale)), max(1, round(h * case.scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if case.source == "photos soft":
        image = soften(image)
    return _jpeg_bytes(image), truth


def read_case(case: Case) -> Outcome:
    """Read one case through ``read_image`` and compare it with the truth."""
    from vision.pipeline import read_image

    data, truth_rows = image_and_truth(case)
    try:
        reading = read_image(data)
    except ValueError as err:  # ImageError and NoBoardFound are ValueErrors
        return Outcome(case, len(truth_rows) ** 2, problem=f"not read ({str(err)[:120]})")
    return judge(case, reading, truth_rows)


def judge(case: Case, reading, truth_rows: list[list[str]]) -> Outcome:
    """``reading`` (a ``vision.pipeline.Reading``) compared with the truth rows of ``case``."""
    from scoring.board import parse_board

    truth = np.array(truth_rows, dtype=object)
    if reading.size != truth.shape[0]:
        return Outcome(case, truth.size, problem=f"size {reading.size}, truth {truth.shape[0]}")
    read = np.array([row.split() for row in reading.board.rows_text()], dtype=object)
    turns = max(range(4), key=lambda t: int((np.rot90(read, t) == truth).sum()))
    read = np.rot90(read, turns)
    flagged = np.rot90(reading.cells.uncertain | reading.cells.corrected, turns)
    wrong = tuple(
        (int(r), int(c), str(truth[r, c]), str(read[r, c]), bool(flagged[r, c]))
        for r, c in zip(*np.nonzero(read != truth), strict=True)
    )
    truth_board = parse_board("\n".join(" ".join(r) for r in truth_rows))
    total_right = board_total(reading.board) == board_total(truth_board)
    return Outcome(case, truth.size, wrong, total_right, flags=int(flagged.sum()))


def read_all(all_cases: list[Case], jobs: int = 1) -> list[Outcome]:
    if jobs <= 1:
        return [read_case(case) for case in all_cases]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(read_case, all_cases, chunksize=4))


def as_baseline(outcomes: Iterable[Outcome]) -> dict:
    """What a reader gets right, as the baseline file holds it."""
    return {
        o.case.key: {"found": o.found, "wrong": sorted(f"{r},{c}" for r, c, *_ in o.wrong)}
        for o in outcomes
    }


def compare(outcomes: Iterable[Outcome], baseline: dict) -> tuple[list[str], list[str]]:
    """(regressions, gains) of ``outcomes`` against ``baseline``: a kingdom lost or a cell turned
    wrong that the baseline had right; a kingdom found or a cell turned right."""
    regressions, gains = [], []
    for key, now in as_baseline(outcomes).items():
        before = baseline.get(key)
        if before is None:
            continue
        if before["found"] and not now["found"]:
            regressions.append(f"{key}: kingdom no longer read")
            continue
        if not before["found"]:
            if now["found"]:
                gains.append(f"{key}: kingdom now read")
            continue
        lost = sorted(set(now["wrong"]) - set(before["wrong"]))
        won = sorted(set(before["wrong"]) - set(now["wrong"]))
        if lost:
            regressions.append(f"{key}: cells now wrong {lost}")
        if won:
            gains.append(f"{key}: cells now right {won}")
    return regressions, gains


def table(outcomes: list[Outcome]) -> str:
    """One row per source and scale: kingdoms read, cells, totals and boards right."""

    def share(k: int, n: int) -> str:
        return f"{k}/{n} ({100 * k / n:.1f} %)" if n else "n/a"

    header = (
        f"{'source':<15}{'scale':>6}  {'kingdoms read':<16}{'cells right':<20}"
        f"{'totals right':<16}{'boards right':<16}{'misses flagged':<16}{'caught':<16}"
        f"{'flags per kingdom'}"
    )
    lines = [header, "-" * len(header)]
    for source in dict.fromkeys(o.case.source for o in outcomes):
        for scale in dict.fromkeys(o.case.scale for o in outcomes):
            group = [o for o in outcomes if o.case.source == source and o.case.scale == scale]
            if not group:
                continue
            found = [o for o in group if o.found]
            cells = sum(o.cells for o in group)  # a kingdom not read counts as all cells missed
            wrong = sum(len(o.wrong) for o in found) + sum(o.cells for o in group if not o.found)
            misses = sum(len(o.wrong) for o in found)
            flagged = sum(f for o in found for *_, f in o.wrong)
            lines.append(
                f"{source:<15}{scale:>6g}  {share(len(found), len(group)):<16}"
                f"{share(cells - wrong, cells):<20}"
                f"{share(sum(o.total_right for o in found), len(group)):<16}"
                f"{share(sum(not o.wrong for o in found), len(group)):<16}"
                f"{f'{flagged}/{misses}':<16}"
                f"{share(sum(o.caught for o in group), len(group)):<16}"
                f"{_flags(found)}"
            )
    return "\n".join(lines)


def _flags(found: list[Outcome]) -> str:
    """Cells marked for a look per kingdom read: mean and most."""
    if not found:
        return "n/a"
    flags = [o.flags for o in found]
    return f"{sum(flags) / len(flags):.2f} (most {max(flags)})"


def misses(outcomes: Iterable[Outcome]) -> list[str]:
    """One line per kingdom not read and per cell read wrong."""
    lines = []
    for o in outcomes:
        if not o.found:
            lines.append(f"{o.case.key}: {o.problem}")
        for r, c, truth, read, flagged in o.wrong:
            mark = " (flagged)" if flagged else ""
            lines.append(f"{o.case.key}: cell ({r}, {c}) truth {truth}, read {read}{mark}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--sources", nargs="+", choices=SOURCES, default=list(SOURCES))
    parser.add_argument("--scales", nargs="+", type=float, default=list(SCALES))
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument(
        "--write-baseline", action="store_true", help="record this reading as the baseline"
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    outcomes = read_all(cases(args.sources, args.scales), args.jobs)
    print(table(outcomes))
    missed = misses(outcomes)
    print(f"\nmisses ({len(missed)}):" if missed else "\nno misses")
    for line in missed:
        print("  " + line)
    if args.write_baseline:  # the cases read replace theirs; the others' entries stay
        kept = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
        written = kept | as_baseline(outcomes)
        args.baseline.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n")
        print(f"\nbaseline written: {args.baseline}")
        return 0
    baseline = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
    regressions, gains = compare(outcomes, baseline)
    for title, found in (("gains over the baseline", gains), ("REGRESSIONS", regressions)):
        if found:
            print(f"\n{title} ({len(found)}):")
            for line in found:
                print("  " + line)
    unknown = [o.case.key for o in outcomes if o.case.key not in baseline]
    if unknown:
        print(f"\nnot in the baseline ({len(unknown)}), not judged: {', '.join(unknown[:5])} ...")
    print("\ngate: " + ("FAILED" if regressions else "passed"))
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
