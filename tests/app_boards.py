"""Kingdoms the app's tests (tests/app, tests/e2e) enter by hand, with the totals they score."""

from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"

# aau-boards 1 (sample_images/aau-board-1.jpg): regions 36 + Middle Kingdom 10 + Harmony 5 = 51.
BOARD_51 = (SAMPLES / "aau-board-1.txt").read_text()

# Both 39 (24 points of regions + 15 of bonuses): one wheat region of 24 cells against 22 + 2,
# so the tie on totals is settled by the largest region.
WHEAT_24 = "W1 W0 W0 W0 W0\nW0 W0 W0 W0 W0\nW0 W0 C W0 W0\nW0 W0 W0 W0 W0\nW0 W0 W0 W0 W0\n"
WHEAT_22 = "W1 W0 W0 W0 W0\nW0 W0 W0 W0 W0\nW0 W0 C W0 W0\nW0 W0 W0 W0 W0\nW0 W0 W0 F0 F1\n"
