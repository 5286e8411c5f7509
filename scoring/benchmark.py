"""Timing of scoring and of the tile-set check: ``python -m scoring.benchmark``.

Targets (one core): scoring ≤ 200 µs per board; tile-set check ≤ 20 ms median and ≤ 200 ms in
the worst case. The tile-set boards are real-looking kingdoms (random placements of distinct
real dominoes), the same with one or two cells misread, and adversarial boards: all one kind,
stripes of the commonest squares, and boards found by a hill climb that maximised search steps.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable

from scoring.board import CASTLE, Board, parse_board
from scoring.score import score_board
from scoring.tileset import check_kingdom, cover_kingdom, dominoes, squares_in_set

# Found by hill climbing on the number of search steps (mutating cells of random kingdoms).
ADVERSARIAL = {
    "climbed A": """
        W0 S0 S0 F0 F0 F0 F0
        S0 G0 G0 W0 L1 G0 W1
        L0 W1 F0 L1 W0 F1 L0
        L0 F0 F0 C  F1 W0 G2
        W0 W0 G0 S2 W0 F1 W0
        G0 F1 W0 W0 M2 W0 F1
        S1 W0 M2 W0 W0 L0 L0""",
    "climbed B": """
        W0 G1 W0 L1 W0 F1 W0
        W0 L0 L1 W0 G2 L0 W0
        W0 F0 F0 G0 W0 F0 F0
        S1 W0 W0 C  W1 F0 F0
        F0 F0 F1 M0 L0 F0 G0
        W0 G0 G0 W1 W0 F1 G0
        S0 S0 W0 S2 W0 F1 W0""",
    "climbed C": """
        W0 S0 M2 F0 F0 G0 F0
        M1 G0 G0 W0 L1 G0 F0
        L0 W1 F0 W0 W0 L0 L0
        L0 L0 F0 C  L0 W0 G2
        W0 W0 F0 G0 F1 W0 W0
        S2 F1 W0 W0 G0 W0 F0
        W0 S0 M2 W0 W0 W0 F0""",
    "climbed D": """
        W0 S0 W1 F0 F0 G0 F0
        S1 G0 G0 W0 L1 G0 F0
        L0 W1 F0 W0 F0 L0 L0
        L0 L0 F0 C  L0 L0 G2
        W0 G1 F0 G0 F1 W0 W0
        L1 W0 W0 S2 W0 W0 W0
        W0 G0 F1 W0 W0 W0 W0""",
}


def random_kingdom(size: int, rng: random.Random) -> Board:
    """A complete kingdom of distinct real dominoes placed at random around a centred castle."""
    half = size // 2
    owner: list[list[int | None]] = [[None] * size for _ in range(size)]
    owner[half][half] = -1
    placed: list[tuple[tuple[int, int], tuple[int, int]]] = []

    def tile() -> bool:  # depth-first random domino tiling, first free cell in reading order
        free = next(((r, c) for r in range(size) for c in range(size) if owner[r][c] is None), None)
        if free is None:
            return True
        r, c = free
        ends = [(r, c + 1), (r + 1, c)]
        rng.shuffle(ends)
        for er, ec in ends:
            if er < size and ec < size and owner[er][ec] is None:
                owner[r][c] = owner[er][ec] = len(placed)
                placed.append(((r, c), (er, ec)))
                if tile():
                    return True
                placed.pop()
                owner[r][c] = owner[er][ec] = None
        return False

    tile()
    cells = [[CASTLE] * size for _ in range(size)]
    for (a, b), domino in zip(placed, rng.sample(dominoes(), len(placed)), strict=True):
        first, second = (domino.first, domino.second)
        if rng.random() < 0.5:
            first, second = second, first
        cells[a[0]][a[1]], cells[b[0]][b[1]] = first, second
    return Board(tuple(tuple(row) for row in cells))


def misread(board: Board, cells: int, rng: random.Random) -> Board:
    """``board`` with ``cells`` land cells replaced by a random square of the set."""
    squares = list(squares_in_set())
    land = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain.is_land]
    for r, c in rng.sample(land, cells):
        board = board.replace(r, c, rng.choice(squares))
    return board


def uniform(size: int, token: str) -> Board:
    half = size // 2
    rows = [[token] * size for _ in range(size)]
    rows[half][half] = "C"
    return parse_board("\n".join(" ".join(row) for row in rows))


def stripes() -> Board:
    """7×7 of W0, F0 and L0 in stripes: within the square counts, far beyond the domino counts."""
    tokens = ["W0"] * 21 + ["F0"] * 16 + ["L0"] * 11
    tokens.insert(24, "C")
    return parse_board("\n".join(" ".join(tokens[r * 7 : r * 7 + 7]) for r in range(7)))


def tile_check_boards(rng: random.Random) -> dict[str, list[Board]]:
    real = [random_kingdom(rng.choice((5, 7)), rng) for _ in range(60)]
    return {
        "real kingdoms": real,
        "one cell misread": [misread(b, 1, rng) for b in real],
        "two cells misread": [misread(b, 2, rng) for b in real],
        "adversarial": [
            uniform(7, "W0"),
            uniform(5, "W0"),
            stripes(),
            *(parse_board(text) for text in ADVERSARIAL.values()),
        ],
    }


def timings(function: Callable[[], object], repeat: int) -> list[float]:
    """Seconds per call, ``repeat`` times (garbage collection off while timing, as timeit does)."""
    result = []
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            function()
            result.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return result


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring.benchmark", description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000, help="timed calls per scoring row")
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    print(f"{'what':<44} {'median':>10} {'p95':>10} {'max':>10}")

    def row(what: str, seconds: list[float], unit: str) -> None:
        scale = {"µs": 1e6, "ms": 1e3}[unit]
        figures = [statistics.median(seconds), percentile(seconds, 0.95), max(seconds)]
        print(f"{what:<44}" + "".join(f" {x * scale:>7.1f} {unit}" for x in figures))

    for size in (5, 7):
        board = random_kingdom(size, rng)
        seconds = timings(lambda b=board: score_board(b, check_tiles=False), args.repeat)
        row(f"score a {size}×{size} board (regions + bonuses)", seconds, "µs")
    all_seconds: list[float] = []
    most_steps = 0
    for group, boards in tile_check_boards(rng).items():
        seconds = []
        for board in boards:
            # check_kingdom caches its answer per board: time the uncached function, best of 3
            # (the machine is shared, so one slow run says more about the neighbours than us).
            seconds.append(min(timings(lambda b=board: check_kingdom.__wrapped__(b), 3)))
            most_steps = max(most_steps, cover_kingdom(board).steps)
        all_seconds += seconds
        row(f"tile-set check: {group} ({len(boards)})", seconds, "ms")
    row(f"tile-set check: all ({len(all_seconds)})", all_seconds, "ms")
    print(f"most search steps on one board: {most_steps}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
