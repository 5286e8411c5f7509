"""Kingdoms the app's tests (tests/app, tests/e2e) enter by hand, with the totals they score."""

from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"

# aau-boards 1 (sample_images/aau-board-1.jpg): regions 36 + Middle Kingdom 10 + Harmony 5 = 51.
BOARD_51 = (SAMPLES / "aau-board-1.txt").read_text()

# Both 39 (24 points of regions + 15 of bonuses), each possible with the real dominoes (a
# kingdom that is not names no winner): a forest region of 16 cells against a largest region of
# 7, so the tie on totals is settled by the largest region.
FOREST_16 = "F0 F0 F0 F0 L1\nL1 F0 F0 F0 F0\nL1 F0 C L0 F0\nG0 W1 W0 F0 F0\nF1 F0 F0 F0 L1\n"
MINES_7 = "M1 W0 M0 W0 M3\nW0 S0 W1 W0 F1\nM2 M2 C W0 G0\nG2 W0 L0 W0 G0\nL0 L0 G2 W0 W0\n"
