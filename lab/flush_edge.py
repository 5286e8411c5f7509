"""Kingdoms at the photo's edge, sharp and soft: laid flush with it (read them) or cut by it
less than a cell short (refuse them).

    python -m lab.flush_edge                        # the 57 aau boards, sharp, σ 1-3 px, video
    python -m lab.flush_edge --boards 1,2,4 --soft none,2

``lab.evaluate_tables`` counts neither answer for a kingdom whose tiles lie within a quarter cell
of the photo's edge; this line is about exactly those frames, which the finder judges by how well
the frame sits on the tiles' seams (``vision.find.decision.FLUSH_MIN_SUPPORT``, ``seams_verdict``).
Each aau board (a real kingdom's photo: its seams as faint as a real kingdom's, where same-terrain
halves of a domino meet) is laid at 90, 120 or 160 px a cell on a synthetic table
(``lab.synth._background``), drawn from the board's number: once with its side 0-0.08 cell inside
the photo's edge (flush), once cut 0.25-0.75 of a cell short by it; the table shows on two or
three sides, and the photo is turned a random quarter. Each photo is then read as drawn (JPEG 80),
blurred (Gaussian σ px, JPEG 80) or made a video frame (``lab.synth.video_frame``). Prints per
softening the flush kingdoms read and the cut ones refused.
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from lab.data import shared_dir
from lab.evaluate_tables import softened
from lab.synth import BACKGROUNDS, _background
from vision.find import NoBoardFound
from vision.find.search import find_kingdoms

SOFT = ("none", "1", "2", "3", "video")


def board_numbers() -> list[int]:
    images = shared_dir() / "datasets" / "aau-boards" / "images"
    return sorted(int(path.stem) for path in images.glob("*.jpg"))


def edge_photo(number: int, cut: bool) -> tuple[np.ndarray, float]:
    """aau board ``number`` on a table, flush with the photo's edge or (``cut``) cut by it, and
    how far its side lies inside that edge, in cells (negative: the part cut off)."""
    rng = np.random.default_rng([number, 4 if cut else 3])
    board = cv2.imread(str(shared_dir() / "datasets" / "aau-boards" / "images" / f"{number}.jpg"))
    cell = int(rng.choice([90, 120, 160]))
    side = 5 * cell
    board = cv2.resize(board, (side, side), interpolation=cv2.INTER_AREA)
    both = rng.random() < 0.5  # flush (or cut) on both sides across, or table on the far one
    above, below = (int(rng.uniform(0.4, 1.5) * cell) for _ in range(2))
    pad = 0 if both else int(rng.uniform(0.5, 1.5) * cell)
    if cut:
        x = -int(rng.uniform(0.25, 0.75) * cell)
        width = side + x + pad
    else:
        x = int(rng.uniform(0, 0.08) * cell)
        width = x + side + (int(rng.uniform(0, 0.08) * cell) if both else pad)
    height = above + side + below
    photo = _background(rng, str(rng.choice(BACKGROUNDS)), height, width)
    photo = photo.clip(0, 255).astype(np.uint8)
    x0 = max(0, x)
    photo[above : above + side, x0 : x + side] = board[:, x0 - x : min(side, width - x)]
    return np.ascontiguousarray(np.rot90(photo, int(rng.integers(4)))), x / cell


def is_read(image: np.ndarray) -> bool:
    try:
        return len(find_kingdoms(image).kingdoms) > 0
    except NoBoardFound:
        return False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", help="aau board numbers, comma-separated (default: all)")
    parser.add_argument("--soft", default=",".join(SOFT), help="none, a Gaussian σ, or video")
    args = parser.parse_args(argv)
    numbers = [int(n) for n in args.boards.split(",")] if args.boards else board_numbers()
    softs = args.soft.split(",")
    print(f"== aau boards at the photo's edge (n={len(numbers)}) ==")
    print(f"{'soft':<8}{'flush read':>14}{'cut refused':>14}   misses")
    for soft in softs:
        read, refused, misses = 0, 0, []
        for number in numbers:
            for cut in (False, True):
                image = edge_photo(number, cut)[0]
                image = softened(image, None if soft == "none" else soft, number)
                if soft == "none":  # as a phone saves it
                    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
                    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
                got = is_read(image)
                if cut:
                    refused += not got
                elif got:
                    read += 1
                if got == cut:
                    misses.append(f"{number}{' cut' if cut else ''}")
        n = len(numbers)
        print(f"{soft:<8}{f'{read}/{n}':>14}{f'{refused}/{n}':>14}   {' '.join(misses)}")


if __name__ == "__main__":
    main()
