"""The 3D castle figure drawn onto training crops: on the start tile, and leaning into the next.

The game's castle is two printed cardboard facades slotted into a cross, in the player's colour
(pink, yellow, green, blue), standing on the start tile. Seen from above it is a thin cross and
most of the tile shows; in an oblique phone photo its front facade hides much of the tile and its
top reaches into the cell behind it. The cell model must call the covered start tile "castle"
and a neighbour with the figure's top over it by its own terrain.

This generator is separate from ``lab.synth._castle_figure`` (a plain pale block) on purpose: the
hard scenes that measure the reader draw the figure their own way, so what they report is how
well a figure the model was not trained on is recognised, not how well it learnt our drawing.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cells import CROP

# Player colours as printed on the figures (BGR), and a few for other editions and light.
FIGURE_COLOURS = (
    (150, 110, 230),  # pink
    (50, 190, 235),  # yellow
    (70, 160, 80),  # green
    (190, 110, 40),  # blue
    (140, 140, 150),  # grey stone
    (210, 215, 220),  # white
)
SCALE = 4  # drawn at 4× the crop and reduced: soft edges like a photo's


def draw_figure(
    rng: np.random.Generator, rise_cells: tuple[float, float] = (0.1, 1.4)
) -> tuple[np.ndarray, np.ndarray]:
    """A figure on a canvas three cells high and one wide, the start tile being the bottom cell.

    Returns the picture (3·CROP, CROP, 3) float32 BGR and its coverage (3·CROP, CROP) float32 in
    0–1. How far it rises above the tile's middle depends on the camera's tilt: from nearly
    nothing (seen from above) to more than a cell.
    """
    side = CROP * SCALE
    height = 3 * side
    mask = np.zeros((height, side), np.uint8)
    colour = np.array(FIGURE_COLOURS[int(rng.integers(len(FIGURE_COLOURS)))], np.float32)
    colour *= rng.uniform(0.8, 1.15)
    rise = rng.uniform(*rise_cells) * side  # height of the facade in the photo
    base = height - side * rng.uniform(0.3, 0.55)  # the facade stands across the tile's middle
    left, right = side * rng.uniform(0.03, 0.2), side * rng.uniform(0.8, 0.97)

    def fill(x0, y0, x1, y1):  # every part of the figure is an upright rectangle
        points = [(x0, y1), (x1, y1), (x1, y0), (x0, y0)]
        cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1)

    # The wall, and towers higher than it, with battlements (merlons).
    wall_top = base - rise * rng.uniform(0.5, 0.75)
    fill(left, wall_top, right, base)
    notch = (right - left) / (2 * int(rng.integers(4, 9)) + 1)
    for x in np.arange(left, right - notch, 2 * notch):
        fill(x, wall_top - notch, x + notch, wall_top)
    towers = int(rng.integers(2, 5))
    width = (right - left) * rng.uniform(0.15, 0.28)
    for x in np.linspace(left, right - width, towers):
        top = base - rise * rng.uniform(0.85, 1.0)
        fill(x, top, x + width, base)
        notch = width / 5
        for k in (0, 2, 4):
            fill(x + k * notch, top - notch, x + (k + 1) * notch, top)
    # The second facade, seen edge on: a narrow band from the tile's front to behind the wall.
    band = side * rng.uniform(0.04, 0.14)
    middle = side * rng.uniform(0.4, 0.6)
    front = height - side * rng.uniform(0.05, 0.2)
    fill(middle - band, wall_top, middle + band, front)
    coverage = mask.astype(np.float32)
    # Shading (light from one side), the print's dark outlines, windows and a gate.
    shade = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(0.9, 1.2), side, dtype=np.float32)
    picture = np.repeat(colour * shade[None, :, None], height, axis=0)
    detail = np.zeros((height, side), np.uint8)
    for _ in range(int(rng.integers(2, 7))):
        x = rng.uniform(left, right - side * 0.06)
        y = rng.uniform(min(wall_top, base - 1), base)
        w, h = side * rng.uniform(0.03, 0.07), side * rng.uniform(0.04, 0.1)
        cv2.rectangle(detail, (int(x), int(y)), (int(x + w), int(y + h)), 1, -1)
    for y in np.arange(base, base - rise, -side * rng.uniform(0.05, 0.1)):  # courses of stone
        cv2.line(detail, (int(left), int(y)), (int(right), int(y)), 1, 1)
    gate = (int((left + right) / 2), int(base))
    cv2.ellipse(
        detail, gate, (int(side * 0.08), int(min(rise * 0.4, side * 0.25))), 0, 180, 360, 1, -1
    )
    edges = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((5, 5), np.uint8))
    dark = np.maximum(detail, edges).astype(bool)
    picture[dark] *= rng.uniform(0.15, 0.5)
    picture += rng.normal(0, 6, picture.shape).astype(np.float32)
    small = (CROP, 3 * CROP)
    picture = cv2.resize(picture, small, interpolation=cv2.INTER_AREA)
    coverage = cv2.resize(coverage, small, interpolation=cv2.INTER_AREA)
    return picture, coverage


def with_figure(cell: np.ndarray, rng: np.random.Generator, part: str) -> np.ndarray:
    """``cell`` (CROP, CROP, 3) uint8 with a figure over it: ``"tile"`` as the start tile it
    stands on, ``"behind"`` as the cell behind it that its top leans into. Its shadow falls on
    the cell beside the figure. The figure faces up in the crop; training turns crops at random.
    """
    return figure_over(cell, rng, part)[0]


def figure_over(
    cell: np.ndarray,
    rng: np.random.Generator,
    part: str,
    behind_rise: float = 1.4,
) -> tuple[np.ndarray, float]:
    """``with_figure``, also returning the share of the cell the figure covers (0-1).

    ``behind_rise``: the highest the figure rises, in cells, when drawn over the cell behind it.
    """
    picture, coverage = draw_figure(rng, (0.1, 1.4) if part == "tile" else (0.6, behind_rise))
    rows = slice(2 * CROP, 3 * CROP) if part == "tile" else slice(CROP, 2 * CROP)
    picture, coverage = picture[rows], coverage[rows]
    shadow = np.roll(coverage, int(rng.integers(-CROP // 5, CROP // 5 + 1)), axis=1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 3) * (1 - coverage) * rng.uniform(0.2, 0.5)
    out = cell.astype(np.float32) * (1 - shadow[..., None])
    out = out * (1 - coverage[..., None]) + picture * coverage[..., None]
    return np.clip(out, 0, 255).astype(np.uint8), float(coverage.mean())
