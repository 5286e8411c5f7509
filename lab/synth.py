"""Synthetic phone photos of kingdoms, with their ground truth, to test the board finder.

Each scene takes real straightened boards from ``aau-boards`` (a 5×5 board as it is, or a 7×7
kingdom tiled from cells of several boards), knocks out a few cells (holes show the table),
cuts the kingdom into cells with small gaps and jitter (dominoes never sit perfectly), and lays
it on a synthetic table: plain, wood grain, carpet, cloth, or a cutting mat with printed grid
lines and numbers. A random perspective (rotation, scale, up to ~35° of camera tilt) takes it
into the photo, followed by what phones and rooms do: light gradients, a shadow, other game
pieces at the edge, blur, noise and JPEG. A few scenes are plain straightened boards.

    python -m lab.synth --n 8 --out /tmp/scenes      # writes sceneNNN.jpg + sceneNNN.json

Everything is deterministic given the seed.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from lab.data import load_aau_boards, shared_dir
from scoring.board import Cell
from vision.labels import TERRAINS

SOURCE_PX = 100  # pixels per cell in aau-boards images
BACKGROUNDS = ("plain", "wood", "carpet", "cloth", "cutting_mat")


@dataclass(frozen=True)
class Scene:
    """A synthetic photo and its truth.

    ``corners`` (4, 2): the N×N frame's corners in photo pixels, in the board's own order
    TL, TR, BR, BL (the board may be rotated any way in the photo). ``labels``: board-text
    tokens, ``labels[row][col]`` in that same board orientation ('.' for a hole).
    """

    image: np.ndarray
    corners: np.ndarray
    size: int
    labels: tuple[tuple[str, ...], ...]
    kind: str  # "photo" or "straightened"
    background: str
    seed: int
    # Hard scenes: where each tile's centre really lies, (N, N, 2) (x, y) in cells from its
    # lattice centre (dominoes drift and turn); None for scenes laid on the lattice.
    tile_shifts: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.image.ndim != 3 or self.image.shape[2] != 3 or self.image.dtype != np.uint8:
            raise ValueError(f"scene image must be H×W×3 uint8, got {self.image.shape}")
        if np.asarray(self.corners).shape != (4, 2):
            raise ValueError("corners must be (4, 2)")
        if len(self.labels) != self.size or any(len(r) != self.size for r in self.labels):
            raise ValueError("labels must be size × size")

    def truth_json(self) -> dict:
        return {
            "size": self.size,
            "corners": np.round(self.corners, 2).tolist(),
            "labels": [" ".join(row) for row in self.labels],
            "kind": self.kind,
            "background": self.background,
            "seed": self.seed,
        }


@lru_cache(maxsize=1)
def _aau_boards() -> tuple[tuple[np.ndarray, tuple[tuple[str, ...], ...]], ...]:
    """Every aau board as (500×500 BGR image, 5×5 tokens), labels as ``lab.data`` has them."""
    boards = []
    for board in load_aau_boards(shared_dir()):
        image = cv2.resize(
            board.image, (5 * SOURCE_PX, 5 * SOURCE_PX), interpolation=cv2.INTER_AREA
        )
        tokens = tuple(
            tuple(Cell(TERRAINS[t], int(c)).token for t, c in zip(t_row, c_row, strict=True))
            for t_row, c_row in zip(board.terrain, board.crowns, strict=True)
        )
        boards.append((image, tokens))
    if not boards:
        raise FileNotFoundError(f"no aau boards under {shared_dir()}")
    return tuple(boards)


def _frame_in_photo(
    rng: np.random.Generator,
    size: int,
    margin: int,
    width: int,
    height: int,
    smallest: float,
    fill: float,
    spread: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Where the kingdom's frame lies on the tile plane and in the photo, (4, 2) each: turned,
    scaled to ``smallest``–0.9 of the photo's short side, tilted, and placed wholly inside the
    photo (at most ``fill`` of it) between ``spread`` and 1 − ``spread`` of the free room."""
    frame_plane = (
        np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float64) * SOURCE_PX
        + margin
    )
    kingdom_px = rng.uniform(smallest, 0.9) * min(height, width)
    angle = rng.uniform(0, 2 * np.pi)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centred = (frame_plane - frame_plane.mean(axis=0)) / (size * SOURCE_PX) * kingdom_px
    placed = centred @ rotation.T
    tilt = rng.uniform(0, 0.16)  # far edge up to ~30 % shorter than the near one: ~35° of tilt
    direction = rng.uniform(0, 2 * np.pi)
    towards = np.array([np.cos(direction), np.sin(direction)])
    # Corners on the far side of the tilt shrink toward the centre: a keystone.
    placed = placed * (1 - tilt * (placed @ towards / (kingdom_px / 2)))[:, None]
    placed += rng.normal(0, 0.01 * kingdom_px, placed.shape)
    extent = placed.max(axis=0) - placed.min(axis=0)
    # The whole kingdom in the frame (players are told to), with a small border.
    shrink = min(1.0, fill * min(width / extent[0], height / extent[1]))
    placed, extent = placed * shrink, extent * shrink
    free = np.array([width, height]) - extent
    offset = -placed.min(axis=0) + rng.uniform(spread, 1 - spread, 2) * np.maximum(free, 0)
    return frame_plane, placed + offset


def make_scene(seed: int, photo_long_side: int = 1600) -> Scene:
    """One synthetic scene, fully determined by ``seed``."""
    rng = np.random.default_rng(seed)
    boards = _aau_boards()
    if rng.random() < 0.05:
        return _straightened_scene(rng, boards, seed)
    size = 7 if rng.random() < 0.4 else 5
    cells, labels = _kingdom_cells(rng, boards, size)
    holes = _knock_out(rng, labels, size)
    for r, c in holes:
        labels[r][c] = "."

    short = int(photo_long_side * rng.choice([0.75, 0.5625]))
    height, width = (photo_long_side, short) if rng.random() < 0.6 else (short, photo_long_side)
    background_kind = str(rng.choice(BACKGROUNDS))
    photo = _background(rng, background_kind, height, width)

    # The kingdom on a flat plane, one cell per SOURCE_PX with a margin, with gaps and jitter.
    margin = SOURCE_PX
    plane_side = size * SOURCE_PX + 2 * margin
    tiles = np.zeros((plane_side, plane_side, 3), np.uint8)
    alpha = np.zeros((plane_side, plane_side), np.float32)
    _lay_tiles(rng, cells, holes, size, margin, tiles, alpha)

    # Plane → photo: rotate, scale, place, then move each corner a little (camera tilt).
    frame_plane, corners = _frame_in_photo(rng, size, margin, width, height, 0.45, 0.96, 0.1)
    to_photo = cv2.getPerspectiveTransform(
        frame_plane.astype(np.float32), corners.astype(np.float32)
    )
    warped = cv2.warpPerspective(tiles, to_photo, (width, height), flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, to_photo, (width, height), flags=cv2.INTER_LINEAR)[
        ..., None
    ]
    photo = (photo * (1 - weight) + warped * weight).astype(np.float32)

    # A soft shadow under the tiles (they are 4 mm thick), offset a little.
    photo = _tile_shadow(rng, photo, weight[..., 0])
    _other_pieces(rng, photo, corners)
    photo = _lighting(rng, photo)
    image = _camera(rng, np.clip(photo, 0, 255).astype(np.uint8))
    return Scene(
        image, corners, size, tuple(tuple(r) for r in labels), "photo", background_kind, seed
    )


def empty_table(seed: int, photo_long_side: int = 1600) -> np.ndarray:
    """A photo of a table with no kingdom on it (maybe a box or pieces at the edge), BGR uint8."""
    rng = np.random.default_rng(seed)
    short = int(photo_long_side * 0.75)
    height, width = (photo_long_side, short) if rng.random() < 0.6 else (short, photo_long_side)
    photo = _background(rng, str(rng.choice(BACKGROUNDS)), height, width)
    far_away = np.array([[-1e4, -1e4], [-1e4 + 1, -1e4], [-1e4 + 1, -1e4 + 1], [-1e4, -1e4 + 1]])
    _other_pieces(rng, photo, far_away)
    photo = _lighting(rng, photo)
    return _camera(rng, np.clip(photo, 0, 255).astype(np.uint8))


def scenes(count: int, seed: int = 0, photo_long_side: int = 1600):
    """``count`` scenes, seeds ``seed``, ``seed + 1``, ... (a generator: one image at a time)."""
    for i in range(count):
        yield make_scene(seed + i, photo_long_side)


# --- the kingdom ------------------------------------------------------------------------------


def _kingdom_cells(rng, boards, size):
    """N×N cell images (SOURCE_PX square) and their tokens."""
    if size == 5:
        image, tokens = boards[rng.integers(len(boards))]
        k = int(rng.integers(4))
        image = np.rot90(image, k)
        tokens = np.rot90(np.array(tokens, dtype=object), k)
        cells = [
            [
                image[r * SOURCE_PX : (r + 1) * SOURCE_PX, c * SOURCE_PX : (c + 1) * SOURCE_PX]
                for c in range(5)
            ]
            for r in range(5)
        ]
        return cells, [list(row) for row in tokens]
    # 7×7: cells from random boards, no castle except one in the centre; keep real holes out.
    pool, castles = [], []
    for image, tokens in boards:
        for r in range(5):
            for c in range(5):
                crop = image[
                    r * SOURCE_PX : (r + 1) * SOURCE_PX, c * SOURCE_PX : (c + 1) * SOURCE_PX
                ]
                if tokens[r][c] == "C":
                    castles.append(crop)
                elif tokens[r][c] != ".":
                    pool.append((crop, tokens[r][c]))
    chosen = rng.choice(len(pool), size=size * size, replace=False)
    cells = [[pool[chosen[r * size + c]][0] for c in range(size)] for r in range(size)]
    labels = [[pool[chosen[r * size + c]][1] for c in range(size)] for r in range(size)]
    castle_at = (int(rng.integers(2, 5)), int(rng.integers(2, 5)))
    cells[castle_at[0]][castle_at[1]] = castles[rng.integers(len(castles))]
    labels[castle_at[0]][castle_at[1]] = "C"
    return cells, labels


def _knock_out(rng, labels, size) -> set[tuple[int, int]]:
    """Cells to remove: mostly none or a few on the outline (ragged), sometimes one inside."""
    holes: set[tuple[int, int]] = set()
    outline = [
        (r, c) for r in range(size) for c in range(size) if r in (0, size - 1) or c in (0, size - 1)
    ]
    count = int(rng.choice([0, 0, 1, 2, 3, 4]))
    for index in rng.choice(len(outline), size=count, replace=False):
        holes.add(outline[index])
    if rng.random() < 0.2:
        holes.add((int(rng.integers(1, size - 1)), int(rng.integers(1, size - 1))))
    # Never the castle, and never a whole outer row or column (the frame would be ambiguous).
    holes = {(r, c) for r, c in holes if labels[r][c] != "C"}
    for line in range(size):
        for edge in (0, size - 1):
            if all((edge, c) in holes or labels[edge][c] == "." for c in range(size)):
                holes.discard((edge, line))
            if all((r, edge) in holes or labels[r][edge] == "." for r in range(size)):
                holes.discard((line, edge))
    return holes


def _lay_tiles(rng, cells, holes, size, margin, tiles, alpha) -> None:
    """Paste cells on the plane with a small gap and a jitter shared by each domino's halves."""
    gap = int(rng.integers(1, 5))  # pixels (of 100 per cell) trimmed off each cell's edge
    jitter = rng.uniform(0, 2.5)
    shifts: dict[tuple[int, int], np.ndarray] = {}
    # Pair cells into dominoes greedily (horizontal or vertical), so halves move together.
    for r in range(size):
        for c in range(size):
            if (r, c) in shifts:
                continue
            shift = rng.normal(0, jitter, 2)
            shifts[(r, c)] = shift
            partner = (r, c + 1) if rng.random() < 0.5 else (r + 1, c)
            if partner[0] < size and partner[1] < size and partner not in shifts:
                shifts[partner] = shift
    for r in range(size):
        for c in range(size):
            if (r, c) in holes:
                continue
            crop = cells[r][c][gap : SOURCE_PX - gap, gap : SOURCE_PX - gap]
            dx, dy = np.round(shifts[(r, c)]).astype(int)
            y0 = margin + r * SOURCE_PX + gap + dy
            x0 = margin + c * SOURCE_PX + gap + dx
            tiles[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = crop
            alpha[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = 1.0


def _straightened_scene(rng, boards, seed) -> Scene:
    """A board as in aau-boards: the image is the kingdom (resized, re-compressed)."""
    image, tokens = boards[rng.integers(len(boards))]
    side = int(rng.integers(300, 900))
    image = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
    image = _camera(rng, image)
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float64)
    return Scene(image, corners, 5, tokens, "straightened", "none", seed)


# --- the table --------------------------------------------------------------------------------


def _background(rng, kind: str, height: int, width: int) -> np.ndarray:
    """A float32 BGR table texture."""
    base = rng.uniform(60, 200, 3)
    if kind == "plain":
        colour = base * rng.uniform(0.6, 1.0, 3)
        table = np.ones((height, width, 3), np.float32) * colour
        table += _smooth_noise(rng, height, width, 64, 6)[..., None]
    elif kind == "wood":
        colour = np.array([rng.uniform(60, 120), rng.uniform(110, 170), rng.uniform(160, 220)])
        grain = _grain(rng, height, width, 128, 30, (4, 12))
        table = colour * (0.75 + 0.3 * grain[..., None])
        table += _smooth_noise(rng, height, width, 8, 5)[..., None]
    elif kind == "carpet":
        grey = rng.uniform(90, 190)
        table = np.ones((height, width, 3), np.float32) * (grey + rng.normal(0, 4, 3))
        table += rng.normal(0, 18, (height, width, 1)).astype(np.float32)
        table = cv2.GaussianBlur(table, (0, 0), 0.8)
        table += _smooth_noise(rng, height, width, 32, 10)[..., None]
    elif kind == "cloth":
        colour = base
        table = np.ones((height, width, 3), np.float32) * colour
        table += _smooth_noise(rng, height, width, 16, 10)[..., None]
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        table += (4 * np.sin(x / 2.0) * np.sin(y / 2.0))[..., None]
    else:  # cutting mat: green or blue-grey with a printed grid and numbers
        colour = rng.choice(
            [np.array([80, 140, 60]), np.array([120, 100, 60]), np.array([60, 60, 60])]
        )
        table = np.ones((height, width, 3), np.float32) * colour.astype(np.float32)
        table += _smooth_noise(rng, height, width, 64, 5)[..., None]
        pitch = int(rng.integers(25, 70))
        line = np.array(rng.choice([[230, 230, 230], [120, 220, 230]]), np.float32)
        printed = np.zeros((height, width), np.uint8)  # putText draws on 8-bit images only
        for i in range(0, max(height, width), pitch):
            thickness = 2 if (i // pitch) % 5 == 0 else 1
            cv2.line(printed, (i, 0), (i, height), 255, thickness)
            cv2.line(printed, (0, i), (width, i), 255, thickness)
            for j in range(0, max(height, width), 5 * pitch):  # numbers every fifth square
                cv2.putText(
                    printed, str(i // pitch), (i + 3, j + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 255, 1
                )
        ink = cv2.GaussianBlur(printed, (0, 0), 0.7).astype(np.float32)[..., None] / 255
        table = table * (1 - ink) + line * ink
        angle = rng.uniform(-30, 30)
        rot = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.3)
        table = cv2.warpAffine(table, rot, (width, height), borderMode=cv2.BORDER_REFLECT)
    return table.astype(np.float32)


def _smooth_noise(rng, height: int, width: int, cell: int, amplitude: float) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, height // cell), max(2, width // cell))).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC) * amplitude


# --- light and camera -------------------------------------------------------------------------


def _tile_shadow(rng, photo: np.ndarray, weight: np.ndarray) -> np.ndarray:
    dx, dy = rng.integers(-4, 5, 2)
    shifted = np.roll(weight, (int(dy), int(dx)), axis=(0, 1))
    shade = cv2.GaussianBlur(shifted, (0, 0), 3) * (1 - weight)
    return photo * (1 - 0.35 * shade[..., None])


def _other_pieces(rng, photo: np.ndarray, corners: np.ndarray) -> None:
    """Sometimes a box edge or a few meeples at the border of the frame, away from the kingdom."""
    height, width = photo.shape[:2]
    if rng.random() < 0.3:
        colour = tuple(float(v) for v in rng.uniform(30, 230, 3))
        depth = int(rng.uniform(0.03, 0.08) * min(height, width))
        side = int(rng.integers(4))
        box = {
            0: ((0, 0), (width, depth)),
            1: ((0, height - depth), (width, height)),
            2: ((0, 0), (depth, height)),
            3: ((width - depth, 0), (width, height)),
        }[side]
        start = int(rng.uniform(0, 0.6) * (width if side < 2 else height))
        (x0, y0), (x1, y1) = box
        if side < 2:
            x0, x1 = start, start + (x1 - x0) // 3
        else:
            y0, y1 = start, start + (y1 - y0) // 3
        near_kingdom = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(near_kingdom, corners.astype(np.int32), 1)
        near_kingdom = cv2.dilate(near_kingdom, np.ones((41, 41), np.uint8))
        if not near_kingdom[y0:y1, x0:x1].any():
            cv2.rectangle(photo, (x0, y0), (x1, y1), colour, -1)
    if rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 4))):
            colour = tuple(float(v) for v in rng.uniform(30, 230, 3))
            radius = int(0.015 * min(height, width)) + 2
            x = int(rng.choice([rng.uniform(0, 0.1), rng.uniform(0.9, 1.0)]) * width)
            y = int(rng.uniform(0, 1) * height)
            if cv2.pointPolygonTest(corners.astype(np.float32), (x, y), True) < -3 * radius:
                cv2.circle(photo, (x, y), radius, colour, -1)


def _lighting(rng, photo: np.ndarray) -> np.ndarray:
    height, width = photo.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (x * np.cos(angle) + y * np.sin(angle)) / max(height, width)
    gain = 1 + rng.uniform(0, 0.35) * (ramp - ramp.mean())
    photo = photo * gain[..., None]
    if rng.random() < 0.4:  # the photographer's shadow: a big soft dark blob
        shade = np.zeros((height, width), np.float32)
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        axes = (int(rng.uniform(0.2, 0.5) * width), int(rng.uniform(0.2, 0.5) * height))
        cv2.ellipse(shade, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        shade = cv2.GaussianBlur(shade, (0, 0), 0.05 * max(height, width))
        photo = photo * (1 - rng.uniform(0.2, 0.45) * shade[..., None])
    cast = rng.uniform(0.9, 1.1, 3).astype(np.float32)  # white balance
    return photo * cast


def _camera(rng, image: np.ndarray, most_defocus: float = 1.3) -> np.ndarray:
    sigma = rng.uniform(0, most_defocus)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    noise = rng.normal(0, rng.uniform(0, 6), image.shape).astype(np.float32)
    image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    quality = int(rng.integers(60, 96))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


# --- harder scenes: real dominoes, any light, drift, cloths, holes, the 3D castle -----------

CLOTHS = ("cloth_lake", "cloth_wheat", "cloth_grass")  # tablecloths the colour of a terrain
_CLOTH_BGR = {
    "cloth_lake": (165, 110, 45),
    "cloth_wheat": (70, 190, 225),
    "cloth_grass": (70, 165, 95),
}


def make_hard_scene(
    seed: int,
    photo_long_side: int = 1600,
    kingdoms: frozenset[int] | None = None,
    castle_figure: bool = True,
    camera: bool = False,
    soft_wood: bool = False,
) -> Scene:
    """A scene built to fail a reader that only knows clean photos, fully determined by ``seed``.

    A kingdom of distinct real dominoes (so its truth is one the real set can build), some
    outer dominoes missing (holes showing the table), dominoes drifting off the lattice (gaps,
    small turns, rows not straight), a 3D castle figure on the start tile leaning into the cell
    above with its shadow, on any table including lake-blue, wheat-yellow and grass-green
    patterned cloths; warm or cold light (2,700–6,500 K), glare, and sometimes the softness of
    a video frame. Perspective up to ~35° as in ``make_scene``.

    Training scenes (``lab.scene_cells``) pass ``kingdoms``, the aau kingdoms whose cells the
    kingdom may show, and ``castle_figure=False``: this figure stays one the model never saw.

    ``camera``: the photo is taken by a pinhole camera placed somewhere over the table
    (``_camera_view``: any side, 0-35° from straight down, a phone's range of lenses) instead
    of a keystone laid on the photo, and the figure's top falls where that camera sees it: away
    from the camera, by its height over the camera's (the default figure always leans into the
    cell above, wherever the camera is).

    ``soft_wood``: the kind of photo the reader once lost a hole in: warm light wood, two or
    three dominoes missing, the castle figure standing, and a soft frame (defocus, then a
    phone video's motion blur and compression).
    """
    from lab.augment import light_gains

    rng = np.random.default_rng(seed)
    size = 7 if rng.random() < 0.4 else 5
    cells, labels, partner = _real_kingdom_cells(rng, size, kingdoms)
    missing = int(rng.integers(2, 4)) if soft_wood else None
    holes = _hole_dominoes(rng, labels, partner, size, missing)
    for r, c in holes:
        labels[r][c] = "."
    short = int(photo_long_side * rng.choice([0.75, 0.5625]))
    height, width = (photo_long_side, short) if rng.random() < 0.6 else (short, photo_long_side)
    background_kind = "warm_wood" if soft_wood else str(rng.choice(BACKGROUNDS + CLOTHS + CLOTHS))
    if soft_wood:
        photo = _warm_wood(rng, height, width)
    elif background_kind in CLOTHS:
        photo = _patterned_cloth(rng, background_kind, height, width)
    else:
        photo = _background(rng, background_kind, height, width)
    margin = SOURCE_PX
    plane_side = size * SOURCE_PX + 2 * margin
    tiles = np.zeros((plane_side, plane_side, 3), np.uint8)
    alpha = np.zeros((plane_side, plane_side), np.float32)
    shifts = _lay_drifting_dominoes(rng, cells, holes, partner, size, margin, tiles, alpha)
    castle = next((r, c) for r in range(size) for c in range(size) if labels[r][c] == "C")
    with_figure = (rng.random() < 0.7 or soft_wood) and castle_figure
    if camera:
        frame_plane, corners, foot, over = _camera_view(rng, size, margin, width, height)
        figure = None
        if with_figure:
            base = np.array([castle[1] + 0.5, castle[0] + 0.5])
            top = rng.uniform(1.0, 1.4)  # the towers' height, cells
            shift = (base - foot) * top / (over - top)
            figure = _leaning_castle_figure(rng, castle, margin, tiles, alpha, shift)
    else:
        figure = _castle_figure(rng, castle, margin, tiles, alpha) if with_figure else None
        frame_plane, corners = _frame_in_photo(rng, size, margin, width, height, 0.5, 0.92, 0.2)
    to_photo = cv2.getPerspectiveTransform(
        frame_plane.astype(np.float32), corners.astype(np.float32)
    )
    warped = cv2.warpPerspective(tiles, to_photo, (width, height), flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, to_photo, (width, height), flags=cv2.INTER_LINEAR)
    photo = photo * (1 - weight[..., None]) + warped * weight[..., None]
    photo = _tile_shadow(rng, photo.astype(np.float32), weight)
    if figure is not None:  # the figure's shadow falls on the tiles and table beside it
        shadow = cv2.warpPerspective(figure, to_photo, (width, height), flags=cv2.INTER_LINEAR)
        dx, dy = rng.integers(-25, 26, 2)
        shadow = np.roll(shadow, (int(dy), int(dx)), axis=(0, 1))
        shadow = cv2.GaussianBlur(shadow, (0, 0), 6) * (
            1 - cv2.warpPerspective(figure, to_photo, (width, height), flags=cv2.INTER_LINEAR)
        )
        photo = photo * (1 - 0.45 * shadow[..., None])
    _other_pieces(rng, photo, corners)
    photo = _lighting(rng, photo)
    coldest = 4500 if soft_wood else 6500  # soft wood: an evening at home, lamp light
    kelvin = 1e6 / rng.uniform(1e6 / coldest, 1e6 / 2700)
    photo = photo * light_gains(kelvin, rng.uniform(0.3, 1.0)).astype(np.float32)
    if rng.random() < 0.3:
        photo = _glare(rng, photo)
    image = np.clip(photo, 0, 255).astype(np.uint8)
    if soft_wood:  # a little out of focus, then a video frame
        sigma = rng.uniform(0, HARD_DEFOCUS)
        image = cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0.05 else image
        image = phone_video_frame(rng, image)
    elif rng.random() < 0.3:
        image = phone_video_frame(rng, image)
    else:
        image = _camera(rng, image, HARD_DEFOCUS)
    labels = tuple(tuple(r) for r in labels)
    return Scene(image, corners, size, labels, "hard", background_kind, seed, shifts)


def hard_scenes(
    count: int,
    seed: int = 0,
    photo_long_side: int = 1600,
    camera: bool = False,
    soft_wood: bool = False,
):
    for i in range(count):
        yield make_hard_scene(seed + i, photo_long_side, camera=camera, soft_wood=soft_wood)


@lru_cache(maxsize=1)
def _aau_kingdoms() -> tuple[int, ...]:
    """The kingdom of each of ``_aau_boards()`` (re-shots of one kingdom share it)."""
    return tuple(board.kingdom for board in load_aau_boards(shared_dir()))


@lru_cache(maxsize=8)
def _cells_by_token(kingdoms: frozenset[int] | None = None) -> dict[str, list[np.ndarray]]:
    """Every aau cell image (SOURCE_PX square), grouped by its token; with ``kingdoms``, only
    those boards' cells (a training scene must not show a held-out kingdom's cells)."""
    pool: dict[str, list[np.ndarray]] = {}
    for (image, tokens), kingdom in zip(_aau_boards(), _aau_kingdoms(), strict=True):
        if kingdoms is not None and kingdom not in kingdoms:
            continue
        for r in range(5):
            for c in range(5):
                crop = image[
                    r * SOURCE_PX : (r + 1) * SOURCE_PX, c * SOURCE_PX : (c + 1) * SOURCE_PX
                ]
                pool.setdefault(tokens[r][c], []).append(crop)
    return pool


def random_real_kingdom(rng, size: int, tokens: frozenset[str] | None = None):
    """Tokens of a kingdom of distinct real dominoes (castle near the middle, random tiling) and
    each cell's domino partner: (labels[r][c], partner[(r, c)] = (r2, c2)). With ``tokens``,
    only dominoes whose two halves are among them."""
    from scoring.tileset import dominoes

    middle = size // 2
    castle = (middle, middle) if size == 5 else (int(rng.integers(2, 5)), int(rng.integers(2, 5)))
    if (castle[0] + castle[1]) % 2:  # a domino covers one cell of each checkerboard colour
        castle = (middle, middle)
    labels: list[list[str | None]] = [[None] * size for _ in range(size)]
    labels[castle[0]][castle[1]] = "C"
    partner: dict[tuple[int, int], tuple[int, int]] = {}
    tiles = [d for d in dominoes() if tokens is None or {d.first.token, d.second.token} <= tokens]
    order = rng.permutation(len(tiles))
    tiles = [tiles[i] for i in order]

    def tile(pos: int) -> bool:
        while pos < size * size and labels[pos // size][pos % size] is not None:
            pos += 1
        if pos == size * size:
            return True
        r, c = divmod(pos, size)
        moves = [(r, c + 1), (r + 1, c)][:: 1 if rng.random() < 0.5 else -1]
        for r2, c2 in moves:
            if r2 < size and c2 < size and labels[r2][c2] is None:
                domino = tiles.pop()
                a, b = (domino.first, domino.second)[:: 1 if rng.random() < 0.5 else -1]
                labels[r][c], labels[r2][c2] = a.token, b.token
                partner[(r, c)], partner[(r2, c2)] = (r2, c2), (r, c)
                if tile(pos + 1):
                    return True
                labels[r][c] = labels[r2][c2] = None
                tiles.append(domino)
        return False

    if not tile(0):
        raise RuntimeError("no tiling found")  # cannot happen for a balanced board
    return labels, partner


def _real_kingdom_cells(rng, size, kingdoms: frozenset[int] | None = None):
    pool = _cells_by_token(kingdoms)
    labels, partner = random_real_kingdom(rng, size, None if kingdoms is None else frozenset(pool))
    cells = []
    for r in range(size):
        row = []
        for c in range(size):
            images = pool[labels[r][c]]
            row.append(np.rot90(images[int(rng.integers(len(images)))], int(rng.integers(4))))
        cells.append(row)
    return cells, labels, partner


def _hole_dominoes(rng, labels, partner, size, count: int | None = None) -> set[tuple[int, int]]:
    """Whole dominoes missing on the outline (an incomplete kingdom): ``count``, or none in half
    the scenes and up to two."""
    holes: set[tuple[int, int]] = set()
    outline = [
        (r, c) for r in range(size) for c in range(size) if r in (0, size - 1) or c in (0, size - 1)
    ]
    order = rng.permutation(len(outline))
    count = int(rng.choice([0, 0, 0, 1, 1, 2])) if count is None else count
    for index in order[:count]:
        cell = outline[index]
        if cell in partner:
            holes |= {cell, partner[cell]}
    for edge in (0, size - 1):  # never a whole outer row or column (the frame is ambiguous)
        if all((edge, c) in holes for c in range(size)) or all(
            (r, edge) in holes for r in range(size)
        ):
            return set()
    return holes


def _lay_drifting_dominoes(rng, cells, holes, partner, size, margin, tiles, alpha) -> np.ndarray:
    """Each domino pasted as one piece, moved and turned a little; rows a little crooked.

    Returns where each tile's centre went, (size, size, 2) (x, y) in cells (0 for holes).
    """
    shifts = np.zeros((size, size, 2))
    drift = rng.uniform(0.5, 5.0)  # px of 100 per cell
    turn = rng.uniform(0, 3.0)  # degrees
    row_wave = rng.normal(0, drift / 2, size)
    gap = int(rng.integers(1, 5))
    done: set[tuple[int, int]] = set()
    for r in range(size):
        for c in range(size):
            if (r, c) in done or (r, c) in holes:
                continue
            pieces = [(r, c)] + ([partner[(r, c)]] if (r, c) in partner else [])
            done |= set(pieces)
            centre = np.mean(
                [
                    [margin + (pc + 0.5) * SOURCE_PX, margin + (pr + 0.5) * SOURCE_PX]
                    for pr, pc in pieces
                ],
                axis=0,
            )
            shift = rng.normal(0, drift, 2) + (0, row_wave[r])
            matrix = cv2.getRotationMatrix2D(tuple(centre), rng.uniform(-turn, turn), 1.0)
            matrix[:, 2] += shift
            for pr, pc in pieces:
                at = np.array([margin + (pc + 0.5) * SOURCE_PX, margin + (pr + 0.5) * SOURCE_PX])
                shifts[pr, pc] = (matrix[:, :2] @ at + matrix[:, 2] - at) / SOURCE_PX
            layer = np.zeros_like(tiles)
            mask = np.zeros(alpha.shape, np.float32)
            for pr, pc in pieces:
                crop = cells[pr][pc][gap : SOURCE_PX - gap, gap : SOURCE_PX - gap]
                y0, x0 = margin + pr * SOURCE_PX + gap, margin + pc * SOURCE_PX + gap
                layer[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = crop
                mask[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = 1.0
            side = tiles.shape[1::-1]
            layer = cv2.warpAffine(layer, matrix, side, flags=cv2.INTER_LINEAR)
            mask = cv2.warpAffine(mask, matrix, side, flags=cv2.INTER_LINEAR)
            tiles[:] = (tiles * (1 - mask[..., None]) + layer * mask[..., None]).astype(np.uint8)
            alpha[:] = np.maximum(alpha, mask)
    return shifts


def _castle_figure(rng, castle, margin, tiles, alpha) -> np.ndarray:
    """A 3D castle (keep and towers) standing on the start tile, seen obliquely: it covers most
    of the tile and leans into the cell above. Returns its mask on the plane (for the shadow)."""
    r, c = castle
    x0 = margin + c * SOURCE_PX
    y0 = margin + r * SOURCE_PX
    lean = rng.uniform(0.2, 0.7) * SOURCE_PX  # how far the top reaches into the cell above
    stone = np.array(rng.choice([[150, 150, 150], [110, 120, 135], [200, 205, 210], [70, 90, 160]]))
    figure = np.zeros(alpha.shape, np.uint8)
    base_y = y0 + rng.uniform(0.75, 0.95) * SOURCE_PX
    body = np.array(
        [
            [x0 + 0.15 * SOURCE_PX, base_y],
            [x0 + 0.85 * SOURCE_PX, base_y],
            [x0 + 0.85 * SOURCE_PX, y0 + 0.2 * SOURCE_PX - lean],
            [x0 + 0.15 * SOURCE_PX, y0 + 0.2 * SOURCE_PX - lean],
        ]
    )
    cv2.fillConvexPoly(figure, body.astype(np.int32), 1)
    for tower_x in (0.1, 0.7):  # two towers higher than the keep
        tower = np.array(
            [
                [x0 + tower_x * SOURCE_PX, base_y],
                [x0 + (tower_x + 0.2) * SOURCE_PX, base_y],
                [x0 + (tower_x + 0.2) * SOURCE_PX, y0 - lean],
                [x0 + tower_x * SOURCE_PX, y0 - lean],
            ]
        )
        cv2.fillConvexPoly(figure, tower.astype(np.int32), 1)
    _paint_stone(rng, figure, stone, tiles, alpha)
    # Battlements and a door: dark details the model might take for a tile's artwork.
    door = (int(x0 + 0.42 * SOURCE_PX), int(base_y - 0.3 * SOURCE_PX))
    cv2.rectangle(tiles, door, (door[0] + int(0.16 * SOURCE_PX), int(base_y)), (40, 40, 50), -1)
    return figure.astype(np.float32)


def _paint_stone(rng, figure: np.ndarray, stone: np.ndarray, tiles, alpha) -> None:
    """Paint the figure's mask onto the tile plane in ``stone``, lit from one side, opaque."""
    mask = figure.astype(bool)
    shade = np.linspace(0.7, 1.15, tiles.shape[1])[None, :, None]  # light from one side
    painted = np.clip(stone * shade + rng.normal(0, 8, tiles.shape), 0, 255).astype(np.uint8)
    tiles[mask] = painted[mask]
    alpha[mask] = 1.0


def _camera_view(rng, size, margin, width, height):
    """A phone held over the table: standing on any side of the kingdom, 0-35° from looking
    straight down, a focal length of 0.6-1.1 of the long side, its principal point near the
    photo's centre, turned a little about its axis; far enough that the kingdom fills 50-90 % of
    the short side and lies wholly inside the photo.

    Returns the frame on the tile plane and in the photo ((4, 2) each, as ``_frame_in_photo``),
    and the camera's foot (x, y) on the table and height over it, in cells.
    """
    focal = rng.uniform(0.6, 1.1) * max(width, height)
    principal = np.array([width, height]) / 2 + rng.normal(0, 0.01 * width, 2)
    k = np.array([[focal, 0, principal[0]], [0, focal, principal[1]], [0, 0, 1]])
    tilt = np.radians(rng.uniform(0, 35))
    side = rng.uniform(0, 2 * np.pi)
    towards_camera = np.array([np.cos(side), np.sin(side), 0.0])
    target = np.array([size / 2, size / 2, 0.0]) + np.append(rng.normal(0, 0.08 * size, 2), 0)
    roll = np.radians(rng.normal(0, 5))
    distance = focal * size / (rng.uniform(0.5, 0.9) * min(width, height))
    cells = np.array([[0, 0, 1], [size, 0, 1], [size, size, 1], [0, size, 1]], float)
    for _ in range(30):
        # The table is z = 0; the camera above it at z < 0 (camera y down the photo, z forward).
        position = target + distance * (np.sin(tilt) * towards_camera - [0, 0, np.cos(tilt)])
        forward = (target - position) / np.linalg.norm(target - position)
        down = towards_camera - forward * (forward @ towards_camera)  # the near side at the bottom
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        right, down = (
            np.cos(roll) * right + np.sin(roll) * down,
            np.cos(roll) * down - np.sin(roll) * right,
        )
        rotation = np.stack([right, down, forward])
        to_photo = k @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ position])
        projected = (to_photo @ cells.T).T
        corners = projected[:, :2] / projected[:, 2:]
        low, high = corners.min(axis=0), corners.max(axis=0)
        border = 0.04 * np.array([width, height])
        if np.all(low >= border) and np.all(high <= np.array([width, height]) - border):
            break
        distance *= 1.1
    frame_plane = cells[:, :2] * SOURCE_PX + margin
    return frame_plane, corners, position[:2], float(-position[2])


def _leaning_castle_figure(rng, castle, margin, tiles, alpha, shift) -> np.ndarray:
    """The 3D castle of ``_castle_figure`` standing on the start tile, its towers' top falling
    ``shift`` (dx, dy) cells from where they stand, as a camera sees it: each part drawn as the
    hull of its footprint and its top. Returns its mask on the plane (for the shadow)."""
    r, c = castle
    corner = np.array([margin + c * SOURCE_PX, margin + r * SOURCE_PX], float)
    shift = np.asarray(shift, float) * SOURCE_PX
    stone = np.array(rng.choice([[150, 150, 150], [110, 120, 135], [200, 205, 210], [70, 90, 160]]))
    figure = np.zeros(alpha.shape, np.uint8)

    def part(x0, x1, y0, y1, rise):  # footprint in cell fractions, top at rise × shift
        foot = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * SOURCE_PX + corner
        hull = cv2.convexHull(np.vstack([foot, foot + rise * shift]).astype(np.float32))
        cv2.fillConvexPoly(figure, hull.astype(np.int32), 1)

    part(0.15, 0.85, 0.2, 0.85, rng.uniform(0.7, 0.85))  # the keep
    for tower_x in (0.1, 0.7):  # two towers higher than the keep
        part(tower_x, tower_x + 0.2, 0.15, 0.9, 1.0)
    _paint_stone(rng, figure, stone, tiles, alpha)
    door = (corner + np.array([0.42, 0.55]) * SOURCE_PX).astype(int)
    cv2.rectangle(
        tiles,
        tuple(door),
        tuple(door + (int(0.16 * SOURCE_PX), int(0.3 * SOURCE_PX))),
        (40, 40, 50),
        -1,
    )
    return figure.astype(np.float32)


def _warm_wood(rng, height: int, width: int) -> np.ndarray:
    """A light, warm wooden table (pine, beech, oak veneer): pale yellow-orange with soft grain
    (float32 BGR). Its colour lies between wheat's and a pale swamp's."""
    colour = np.array([rng.uniform(110, 160), rng.uniform(165, 205), rng.uniform(205, 245)])
    grain = _grain(rng, height, width, 256, 15, (3, 10))
    table = colour * (0.9 + rng.uniform(0.04, 0.12) * grain[..., None])
    table += _smooth_noise(rng, height, width, 8, 4)[..., None]
    return table.astype(np.float32)


def _grain(rng, height: int, width: int, wobble_cell: int, wobble: float, period) -> np.ndarray:
    """Wood grain, 0-1: parallel waves at a random angle and ``period`` (px, low-high), bent by
    smooth noise of ``wobble`` px over ``wobble_cell`` px."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = x * np.cos(angle) + y * np.sin(angle)
    bend = _smooth_noise(rng, height, width, wobble_cell, wobble)
    return np.sin((u + bend) / rng.uniform(*period)) * 0.5 + 0.5


def _patterned_cloth(rng, kind: str, height: int, width: int) -> np.ndarray:
    """A tablecloth in a terrain's colour with checks, stripes or dots (float32 BGR)."""
    colour = np.array(_CLOTH_BGR[kind], np.float32) * rng.uniform(0.75, 1.15)
    table = np.ones((height, width, 3), np.float32) * colour
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = x * np.cos(angle) + y * np.sin(angle)
    v = -x * np.sin(angle) + y * np.cos(angle)
    pitch = rng.uniform(12, 60)
    pattern = str(rng.choice(["checks", "stripes", "dots"]))
    if pattern == "checks":
        ink = ((np.floor(u / pitch) + np.floor(v / pitch)) % 2).astype(np.float32)
    elif pattern == "stripes":
        ink = (np.mod(u, pitch) < pitch / 3).astype(np.float32)
    else:
        ink = (
            (np.mod(u, pitch) - pitch / 2) ** 2 + (np.mod(v, pitch) - pitch / 2) ** 2
            < (pitch / 5) ** 2
        ).astype(np.float32)
    accent = np.array(rng.choice([[245, 245, 245], [40, 40, 60], colour * 0.6]), np.float32)
    ink = cv2.GaussianBlur(ink, (0, 0), 1.0)[..., None] * rng.uniform(0.4, 0.9)
    table = table * (1 - ink) + accent * ink
    table += _smooth_noise(rng, height, width, 24, 8)[..., None]  # folds
    return table


def _glare(rng, photo: np.ndarray) -> np.ndarray:
    """A soft bright reflection of a lamp or window on the glossy tiles."""
    height, width = photo.shape[:2]
    spot = np.zeros((height, width), np.float32)
    centre = (int(rng.uniform(0.2, 0.8) * width), int(rng.uniform(0.2, 0.8) * height))
    axes = (int(rng.uniform(0.03, 0.12) * width), int(rng.uniform(0.02, 0.08) * height))
    cv2.ellipse(spot, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), 0.02 * max(height, width))[..., None]
    return photo * (1 - 0.7 * spot) + 255 * 0.7 * spot


# How soft the hard lines' photos are (hard, camera and soft-wood scenes), calibrated to the
# real photos' tiles (``lab.sharpness``): the real photos measure medians 0.217-0.308, a real
# soft video frame 0.230 (p10 0.205). Drawn with ``video_frame`` (half the resolution, a 3-8 px
# motion blur) and up to 1.3 px of defocus (2.5 in soft wood), the lines measured 0.193 (hard),
# 0.184 (camera) and 0.123 (soft wood): twice as soft as any real photo in soft wood, softer
# than all of them in the others. With up to 0.6 px of defocus and ``phone_video_frame``, on
# development seeds (15 scenes each): hard 0.232 (p10 0.167), camera 0.211 (0.155), soft wood
# 0.204 (0.153). The drawing itself (source art warped into the photo) measures about 0.21-0.23:
# a frame can be no sharper than that.
HARD_DEFOCUS = 0.6


def phone_video_frame(rng, image: np.ndarray) -> np.ndarray:
    """A frame from a phone's video as sharp as the real soft frame: full resolution, a 1-2 px
    motion blur, heavy compression (JPEG 35-70)."""
    length = int(rng.integers(1, 3))
    turn = rng.uniform(0, 180)
    if length > 1:
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), turn, 1)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    quality = int(rng.integers(35, 70))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def video_frame(rng, image: np.ndarray) -> np.ndarray:
    """A frame from a phone video: lower resolution, motion blur, heavy compression."""
    height, width = image.shape[:2]
    small = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    length = int(rng.integers(3, 9))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    small = cv2.filter2D(small, -1, kernel / max(kernel.sum(), 1e-6))
    quality = int(rng.integers(35, 70))
    ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    small = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def soft_wood_cell_px(rng: np.random.Generator, photo_long_side: int = 1600) -> float:
    """Pixels per cell of a soft-wood scene's kingdom in its photo, drawn as ``make_hard_scene``
    lays it out (5×5 or 7×7, the photo's shape, ``_frame_in_photo``'s size and tilt)."""
    size = 7 if rng.random() < 0.4 else 5
    short = int(photo_long_side * rng.choice([0.75, 0.5625]))
    height, width = (photo_long_side, short) if rng.random() < 0.6 else (short, photo_long_side)
    _, corners = _frame_in_photo(rng, size, SOURCE_PX, width, height, 0.5, 0.92, 0.2)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(sides.mean() / size)


def soft_frame_cell(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A cell crop (one cell across) as a soft-wood scene's frame shows it: put back at the
    pixels per cell such a photo has (``soft_wood_cell_px``), defocused (σ 1-2.5 px) and made a
    video frame (``video_frame``: half size, a 3-8 px motion blur, JPEG 35-70) there, then
    brought back to the crop's size. The blur is the scenes' own, relative to the cell, so a
    training crop is as soft as the cells the reader straightens out of such frames."""
    side = crop.shape[0]
    photo_side = max(16, int(round(soft_wood_cell_px(rng))))
    grow = cv2.INTER_AREA if photo_side < side else cv2.INTER_CUBIC
    photo = cv2.resize(crop, (photo_side, photo_side), interpolation=grow)
    photo = video_frame(rng, cv2.GaussianBlur(photo, (0, 0), rng.uniform(1.0, 2.5)))
    shrink = cv2.INTER_AREA if photo_side > side else cv2.INTER_LINEAR
    return cv2.resize(photo, (side, side), interpolation=shrink)


# --- the real photos' kinds: a printed-grid cutting mat, a tight crop on a patterned cloth -----

# Scenes built from the kinds of real photo the reader got wrong (issue 44): each its own line in
# ``lab.evaluate --kinds``. A kind's scenes are the hard scenes' kingdoms (real dominoes, drift,
# holes, light) on the table that fooled the reader.
KINDS = ("grid_mat", "tight_cloth")
MAT_BGR = ((105, 62, 28), (70, 45, 20), (55, 95, 40), (45, 70, 30))  # dark blue, dark green
MAT_INK_BGR = ((235, 235, 235), (60, 210, 235))  # white or yellow lines
CLOTH_PATTERNS = ("swirls", "flowers", "stripes")
# Light blue first (the real photo's), then pink, mint, beige and a lake blue.
LIGHT_CLOTH_BGR = ((235, 205, 160), (200, 185, 240), (195, 225, 185), (190, 215, 230))
LIGHT_CLOTH_BGR += ((170, 120, 60),)
CLOTH_INK_BGR = ((40, 205, 240), (250, 250, 250), (60, 60, 170), (90, 60, 40))


def make_kind_scene(seed: int, kind: str, photo_long_side: int = 1600) -> Scene:
    """A scene of one of ``KINDS``, fully determined by ``seed`` and ``kind``.

    ``grid_mat``: the kingdom, tilted, on a dark blue or green cutting mat printed with white or
    yellow lines at a pitch finer (0.45-0.85) or coarser (1.15-1.6) than the tiles', at any angle
    to them, every fifth line thicker; a second kingdom cut by the photo's edge and a knitted
    sleeve beside it when they fit.
    ``tight_cloth``: a photo cropped to the kingdom (at most a tenth of a cell of table beyond
    it), taken nearly square-on, its holes (at least one domino) showing a light cloth printed
    with swirls, flowers or stripes: no table shows around the kingdom to compare holes with.
    """
    from lab.augment import light_gains

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    size = 7 if rng.random() < 0.5 else 5
    cells, labels, partner = _real_kingdom_cells(rng, size)
    holes = _hole_dominoes(rng, labels, partner, size)
    if kind == "tight_cloth":
        while not holes:
            holes = _hole_dominoes(rng, labels, partner, size)
    for r, c in holes:
        labels[r][c] = "."
    short = int(photo_long_side * rng.choice([0.75, 0.5625]))
    height, width = (photo_long_side, short) if rng.random() < 0.6 else (short, photo_long_side)
    margin = SOURCE_PX
    plane_side = size * SOURCE_PX + 2 * margin
    tiles = np.zeros((plane_side, plane_side, 3), np.uint8)
    alpha = np.zeros((plane_side, plane_side), np.float32)
    shifts = _lay_drifting_dominoes(rng, cells, holes, partner, size, margin, tiles, alpha)
    if kind == "grid_mat":
        frame_plane, corners = _frame_in_photo(rng, size, margin, width, height, 0.4, 0.7, 0.1)
    else:
        frame_plane, corners = _square_on_frame(rng, size, margin, width, height)
    to_photo = cv2.getPerspectiveTransform(
        frame_plane.astype(np.float32), corners.astype(np.float32)
    )
    if kind == "grid_mat":
        photo = _printed_grid_mat(rng, to_photo, height, width)
    else:
        photo = _printed_cloth(rng, height, width, 0.25 * np.linalg.norm(to_photo[:2, :2]) * 100)
    warped = cv2.warpPerspective(tiles, to_photo, (width, height), flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, to_photo, (width, height), flags=cv2.INTER_LINEAR)
    if kind == "grid_mat":
        other, other_weight = _kingdom_cut_by_edge(rng, to_photo, size, margin, width, height)
        weight = np.maximum(weight, other_weight)
        warped = np.where(other_weight[..., None] > 0, other, warped)
    photo = photo * (1 - weight[..., None]) + warped * weight[..., None]
    photo = _tile_shadow(rng, photo.astype(np.float32), weight)
    if kind == "grid_mat":
        from lab.tables import _clutter

        cell_px = float(np.linalg.norm(corners[1] - corners[0])) / size
        occupied = cv2.dilate((weight > 0.05).astype(np.uint8), np.ones((31, 31), np.uint8))
        _clutter(rng, photo, occupied, cell_px, np.array([1.0, 1.0]), things=["sweater"])
    photo = _lighting(rng, photo)
    kelvin = 1e6 / rng.uniform(1e6 / 6500, 1e6 / 2700)
    photo = photo * light_gains(kelvin, rng.uniform(0.3, 1.0)).astype(np.float32)
    image = np.clip(photo, 0, 255).astype(np.uint8)
    if kind == "tight_cloth":
        cell = float(np.linalg.norm(corners[1] - corners[0])) / size
        low = np.floor(corners.min(axis=0) - rng.uniform(0, 0.1, 2) * cell).astype(int)
        high = np.ceil(corners.max(axis=0) + rng.uniform(0, 0.1, 2) * cell).astype(int)
        low, high = np.maximum(low, 0), np.minimum(high, [width, height])
        image = np.ascontiguousarray(image[low[1] : high[1], low[0] : high[0]])
        corners = corners - low
    image = _camera(rng, image)
    labels = tuple(tuple(r) for r in labels)
    return Scene(image, corners, size, labels, kind, kind, seed, shifts)


def kind_scenes(kind: str, count: int, seed: int, photo_long_side: int = 1600):
    for i in range(count):
        yield make_kind_scene(seed + i, kind, photo_long_side)


def _square_on_frame(rng, size, margin, width, height) -> tuple[np.ndarray, np.ndarray]:
    """The frame taken nearly square-on (a quarter turn and a few degrees, a slight keystone),
    60-85 % of the photo's short side, somewhere inside it (as ``_frame_in_photo``)."""
    frame_plane = (
        np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float64) * SOURCE_PX
        + margin
    )
    kingdom_px = rng.uniform(0.6, 0.85) * min(height, width)
    angle = int(rng.integers(4)) * np.pi / 2 + np.radians(rng.normal(0, 1.5))
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = (frame_plane - frame_plane.mean(axis=0)) / (size * SOURCE_PX) * kingdom_px
    placed = placed @ rotation.T
    towards = rng.normal(0, 1, 2)
    towards /= np.linalg.norm(towards)
    placed = placed * (1 - rng.uniform(0, 0.04) * (placed @ towards / (kingdom_px / 2)))[:, None]
    placed += rng.normal(0, 0.004 * kingdom_px, placed.shape)
    free = np.array([width, height]) - (placed.max(axis=0) - placed.min(axis=0))
    offset = -placed.min(axis=0) + rng.uniform(0.2, 0.8, 2) * np.maximum(free, 0)
    return frame_plane, placed + offset


def _printed_grid_mat(rng, to_photo: np.ndarray, height: int, width: int) -> np.ndarray:
    """A cutting mat lying on the tile plane (under the same perspective as the kingdom): dark
    blue or green, lines at a pitch finer or coarser than the tiles', every fifth thicker."""
    colour = np.array(MAT_BGR[int(rng.integers(len(MAT_BGR)))], np.float32)
    colour = colour * rng.uniform(0.85, 1.2)
    ink = np.array(MAT_INK_BGR[int(rng.integers(len(MAT_INK_BGR)))], np.float32)
    ratio = rng.uniform(0.45, 0.85) if rng.random() < 0.5 else rng.uniform(1.15, 1.6)
    pitch = ratio * SOURCE_PX  # in plane pixels
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    to_plane = np.linalg.inv(to_photo)
    w = to_plane[2, 0] * x + to_plane[2, 1] * y + to_plane[2, 2]
    u = (to_plane[0, 0] * x + to_plane[0, 1] * y + to_plane[0, 2]) / w
    v = (to_plane[1, 0] * x + to_plane[1, 1] * y + to_plane[1, 2]) / w
    turn = np.radians(rng.choice([0.0, rng.uniform(-20, 20)]))
    u, v = u * np.cos(turn) - v * np.sin(turn), u * np.sin(turn) + v * np.cos(turn)
    # Plane pixels per photo pixel, so a line is about as wide everywhere in the photo.
    scale = np.sqrt(abs(np.linalg.det(to_plane[:2, :2])) / np.mean(w) ** 2)
    printed = np.zeros((height, width), np.float32)
    for coordinate in (u + rng.uniform(0, pitch), v + rng.uniform(0, pitch)):
        index = np.floor(coordinate / pitch)
        distance = np.abs(coordinate - (index + np.round(coordinate / pitch - index)) * pitch)
        half = np.where(np.mod(np.round(coordinate / pitch), 5) == 0, 1.3, 0.7) * scale
        printed = np.maximum(printed, np.clip(half + 0.5 * scale - distance, 0, scale) / scale)
    table = np.ones((height, width, 3), np.float32) * colour
    table += _smooth_noise(rng, height, width, 64, 5)[..., None]
    return table * (1 - printed[..., None]) + ink * printed[..., None]


def _kingdom_cut_by_edge(rng, to_photo, size, margin, width, height):
    """Another 5×5 kingdom on the same plane beside this one, placed so the photo's edge cuts
    it (a tenth to two thirds of it in the photo); its (BGR, weight) in photo pixels, weight all
    zeros when no place beside the kingdom is cut so."""
    gap = rng.uniform(0.6, 2.0)
    places = [(size + gap, 0), (-5 - gap, 0), (0, size + gap), (0, -5 - gap)]
    photo_box = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    for index in rng.permutation(len(places)):
        dx, dy = places[index]
        dy += rng.uniform(-1, 1) if dx else 0.0
        dx += rng.uniform(-1, 1) if dy else 0.0
        square = (np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float) + [dx, dy]) * SOURCE_PX
        outline = cv2.perspectiveTransform(
            (square + margin).reshape(-1, 1, 2).astype(np.float32), to_photo
        ).reshape(4, 2)
        area = abs(cv2.contourArea(outline))
        inside, _ = cv2.intersectConvexConvex(outline, photo_box)
        if area > 0 and 0.1 < inside / area < 0.67:
            break
    else:
        return np.zeros((height, width, 3), np.float32), np.zeros((height, width), np.float32)
    cells, _, partner = _real_kingdom_cells(rng, 5)
    side = 5 * SOURCE_PX + 2 * margin
    tiles = np.zeros((side, side, 3), np.uint8)
    alpha = np.zeros((side, side), np.float32)
    _lay_drifting_dominoes(rng, cells, set(), partner, 5, margin, tiles, alpha)
    shift = np.array([[1, 0, dx * SOURCE_PX], [0, 1, dy * SOURCE_PX], [0, 0, 1]], float)
    to_photo_other = to_photo @ shift
    warped = cv2.warpPerspective(tiles, to_photo_other, (width, height), flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, to_photo_other, (width, height), flags=cv2.INTER_LINEAR)
    return warped.astype(np.float32), weight


def _printed_cloth(rng, height: int, width: int, motif_px: float) -> np.ndarray:
    """A light cloth (light blue first among its colours) printed with swirls, flowers or
    stripes about ``motif_px`` across, in yellow, white, red or brown (float32 BGR)."""
    colour = np.array(LIGHT_CLOTH_BGR[int(rng.integers(len(LIGHT_CLOTH_BGR)))], np.float32)
    colour = colour * rng.uniform(0.85, 1.05)
    accent = np.array(CLOTH_INK_BGR[int(rng.integers(len(CLOTH_INK_BGR)))], np.float32)
    pattern = CLOTH_PATTERNS[int(rng.integers(len(CLOTH_PATTERNS)))]
    motif = max(8.0, motif_px * rng.uniform(0.6, 2.0))
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    ink = np.zeros((height, width), np.float32)
    if pattern == "stripes":
        angle = rng.uniform(0, np.pi)
        u = x * np.cos(angle) + y * np.sin(angle)
        ink = (np.mod(u, motif) < motif * rng.uniform(0.15, 0.45)).astype(np.float32)
    else:
        spacing = motif * rng.uniform(1.2, 2.0)
        for cy in np.arange(-spacing, height + spacing, spacing):
            for cx in np.arange(-spacing, width + spacing, spacing):
                centre = np.array([cx, cy]) + rng.normal(0, 0.2 * spacing, 2)
                y0, y1 = int(max(0, centre[1] - motif)), int(min(height, centre[1] + motif))
                x0, x1 = int(max(0, centre[0] - motif)), int(min(width, centre[0] + motif))
                if y1 <= y0 or x1 <= x0:
                    continue
                dx, dy = x[y0:y1, x0:x1] - centre[0], y[y0:y1, x0:x1] - centre[1]
                r = np.hypot(dx, dy) / (motif / 2)
                theta = np.arctan2(dy, dx) + rng.uniform(0, 2 * np.pi)
                if pattern == "swirls":  # a spiral arm winding out from the centre
                    mark = (np.cos(theta - 2.5 * np.pi * r) > 0.55) & (r < 1.0)
                else:  # five petals and a heart
                    mark = (r < 0.55 + 0.45 * np.cos(5 * theta) ** 2) & (r < 1.0)
                ink[y0:y1, x0:x1] = np.maximum(ink[y0:y1, x0:x1], mark.astype(np.float32))
    ink = cv2.GaussianBlur(ink, (0, 0), 0.8)[..., None] * rng.uniform(0.6, 1.0)
    table = np.ones((height, width, 3), np.float32) * colour
    table = table * (1 - ink) + accent * ink
    return table + _smooth_noise(rng, height, width, 24, 6)[..., None]


# --- command line -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=8, help="number of scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("synthetic_scenes"))
    parser.add_argument("--long-side", type=int, default=1600, help="photo size in pixels")
    parser.add_argument(
        "--hard",
        action="store_true",
        help="real-domino kingdoms under warm/cold light, drift, cloths, holes, the 3D castle",
    )
    parser.add_argument(
        "--camera",
        action="store_true",
        help="with --hard: taken by a pinhole camera, the castle figure leaning away from it",
    )
    parser.add_argument(
        "--soft-wood",
        action="store_true",
        help="with --hard: warm light wood, several holes, the figure, a soft video frame",
    )
    parser.add_argument(
        "--kind", choices=KINDS, help="scenes of one kind of real photo the reader got wrong"
    )
    args = parser.parse_args(argv)
    if (args.camera or args.soft_wood) and not args.hard:
        parser.error("--camera and --soft-wood go with --hard")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.kind:
        made = kind_scenes(args.kind, args.n, args.seed, args.long_side)
    elif args.hard:
        made = hard_scenes(args.n, args.seed, args.long_side, args.camera, args.soft_wood)
    else:
        made = scenes(args.n, args.seed, args.long_side)
    for scene in made:
        stem = args.out / f"scene{scene.seed:04d}"
        cv2.imwrite(str(stem.with_suffix(".jpg")), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        stem.with_suffix(".json").write_text(json.dumps(scene.truth_json(), indent=1) + "\n")
        print(f"{stem}.jpg  {scene.size}×{scene.size}  {scene.background}")


if __name__ == "__main__":
    main()
