"""How long ``kingdomino score --json PHOTO`` takes, as a ratio to merely decoding the photo.

    python -m lab.benchmark_photo                      # game1.jpg upscaled to 12 MP
    python -m lab.benchmark_photo --megapixels 9       # ... to 9 MP
    python -m lab.benchmark_photo --photo my.jpg --pairs 9
    python -m lab.benchmark_photo --kingdoms all --photo table.jpg
    python -m lab.benchmark_photo --table              # --kingdoms all on lab.table_photo's
                                                       # four-kingdom 12 MP table

The machine is shared and noisy, so both commands run as fresh processes in alternating pairs:
(a) ``python -c "import numpy, cv2; cv2.imread(PHOTO)"`` (import and decode, nothing else) and
(b) ``python -m kingdomino score --json PHOTO``. Prints the median wall time of each, the median
of the per-pair ratios b/a (target ≤ 2.0 for one kingdom, ≤ 3.0 with ``--kingdoms all``) and
the peak resident memory of (b) (target ≤ 600 MB for a 12 MP photo).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from lab.data import shared_dir

DECODE_ONLY = "import sys, numpy, cv2; assert cv2.imread(sys.argv[1]) is not None"


def phone_photo(out: Path, source: Path | None = None, megapixels: float = 12.0) -> Path:
    """A 3:4 JPEG of ``megapixels`` (3024×4032 at 12 MP) made from ``source`` (default: the
    shared game1.jpg), so that a figure names a photo anyone can make again."""
    source = source or shared_dir() / "datasets" / "photos" / "game1.jpg"
    image = cv2.imread(str(source))
    if image is None:
        raise SystemExit(f"cannot read {source}")
    portrait = image.shape[0] >= image.shape[1]
    short = int(round((megapixels * 1e6 * 3 / 4) ** 0.5))
    long = int(round(short * 4 / 3))
    size = (short, long) if portrait else (long, short)
    image = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


def user_environment() -> dict[str, str]:
    """This environment as a user's shell has it: Python caches compiled modules.

    This machine sets ``PYTHONDONTWRITEBYTECODE``, which makes every run compile the project's
    modules again (~40 ms for ``score``), while numpy and OpenCV come with theirs compiled.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed_run(command: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one fresh process; exits on failure."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=user_environment()
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {error.strip()}")
    return elapsed, usage.ru_maxrss / 1024  # Linux reports kB


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", type=Path, help="a JPEG (default: game1.jpg made 12 MP)")
    parser.add_argument(
        "--megapixels", type=float, default=12.0, help="size of the made photo (without --photo)"
    )
    parser.add_argument("--pairs", type=int, default=7, help="alternating pairs (at least 5)")
    parser.add_argument("--kingdoms", choices=("one", "all"), default="one")
    parser.add_argument(
        "--table",
        action="store_true",
        help="the four-kingdom 12 MP table of lab.table_photo, read with --kingdoms all",
    )
    args = parser.parse_args(argv)
    if args.table:
        args.kingdoms = "all"
    with tempfile.TemporaryDirectory() as tmp:
        if args.table:
            from lab.table_photo import TABLE_SEED

            photo = Path(tmp) / "table.jpg"
            # Drawn in a process of its own: drawing takes a gigabyte, and a child forked from
            # this process would report this process's peak as its own (Linux keeps the
            # high-water mark of the memory it forked with across exec).
            draw = ["-m", "lab.table_photo", "--out", str(photo), "--photo-only"]
            subprocess.run([sys.executable, *draw], check=True)
            made = f"lab.table_photo (lab.tables scene {TABLE_SEED}, four kingdoms)"
        else:
            photo = args.photo or phone_photo(Path(tmp) / "phone.jpg", megapixels=args.megapixels)
            made = f"game1.jpg at {args.megapixels:g} MP"
        height, width = cv2.imread(str(photo)).shape[:2]
        score = [sys.executable, "-m", "kingdomino", "score", "--json", str(photo)]
        if args.kingdoms == "all":
            score += ["--kingdoms", "all"]
        decode = [sys.executable, "-c", DECODE_ONLY, str(photo)]
        timed_run(score)  # warm the file cache and compiled bytecode once
        decode_s, score_s, ratios, peaks = [], [], [], []
        for _ in range(max(5, args.pairs)):
            a, _ = timed_run(decode)
            b, peak = timed_run(score)
            decode_s.append(a)
            score_s.append(b)
            ratios.append(b / a)
            peaks.append(peak)
    print(f"photo: {photo.name if args.photo else made} ({width}×{height})")
    print(f"{'what':<44}{'median':>10}")
    print(f"{'import numpy+cv2 and decode (s)':<44}{np.median(decode_s):>10.3f}")
    print(f"{'kingdomino score --json, ' + args.kingdoms + ' (s)':<44}{np.median(score_s):>10.3f}")
    target = 2.0 if args.kingdoms == "one" else 3.0
    print(
        f"{'ratio, median of ' + str(len(ratios)) + ' pairs':<44}{np.median(ratios):>10.2f}"
        f"   (target ≤ {target})"
    )
    print(f"{'peak memory of score (MB)':<44}{max(peaks):>10.0f}   (target ≤ 600)")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
