"""Synthetic game-night tables: two to four kingdoms in one photo, clutter, and their truth.

Each scene lays 2-4 kingdoms (5×5, or 7×7 for two players, made as in ``lab.synth``) on a table
a few centimetres apart, each turned a little, with a box lid, a score pad, cards, cups, a hand
and a sweater around them. A phone camera (perspective up to ~35° of tilt, light from one side,
JPEG or a soft video frame) takes the photo; some kingdoms end up cut by the frame. Tables:
plain, light and dark wood, cork, carpet, gridded cutting mats with numbers, blue patterned
cloth, white paper. ``negative_image`` makes photos with no kingdom at all: table and clutter
only, blank, one colour, noise.

    python -m lab.tables --n 6 --out /tmp/tables     # writes tableNNNN.jpg + tableNNNN.json

Everything is deterministic given the seed.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.synth import (
    SOURCE_PX,
    _aau_boards,
    _background,
    _hole_dominoes,
    _kingdom_cells,
    _knock_out,
    _lay_drifting_dominoes,
    _lay_tiles,
    _real_kingdom_cells,
    _smooth_noise,
)

TABLES = (
    "plain",
    "light_wood",
    "dark_wood",
    "cork",
    "carpet",
    "cutting_mat",
    "patterned_cloth",
    "white_paper",
)
NEGATIVE_KINDS = ("table", "blank", "one_colour", "noise")


@dataclass(frozen=True)
class KingdomTruth:
    """One kingdom in a table scene: its N×N frame's corners in photo pixels (board order TL,
    TR, BR, BL), its tokens, and whether all its tiles are inside the photo."""

    corners: np.ndarray
    size: int
    labels: tuple[tuple[str, ...], ...]
    complete: bool
    visible: float  # share of the kingdom's tiles inside the photo (0-1)
    # Distance in cells from the tiles to the photo's edge (negative: some tile is cut by it).
    margin: float = 0.0

    def to_json(self) -> dict:
        return {
            "corners": np.round(self.corners, 2).tolist(),
            "size": self.size,
            "labels": [" ".join(row) for row in self.labels],
            "complete": self.complete,
            "visible": round(self.visible, 3),
            "margin": round(self.margin, 3),
        }


@dataclass(frozen=True)
class TableScene:
    image: np.ndarray  # H×W×3 BGR uint8
    kingdoms: tuple[KingdomTruth, ...]
    table: str
    video: bool
    seed: int

    @property
    def complete(self) -> tuple[KingdomTruth, ...]:
        return tuple(k for k in self.kingdoms if k.complete)

    @property
    def partial(self) -> tuple[KingdomTruth, ...]:
        return tuple(k for k in self.kingdoms if not k.complete)

    def truth_json(self) -> dict:
        return {
            "table": self.table,
            "video": self.video,
            "seed": self.seed,
            "kingdoms": [k.to_json() for k in self.kingdoms],
        }


def make_table_scene(seed: int, long_side: int = 1600, real_dominoes: bool = False) -> TableScene:
    """One game-night table photo with 2-4 kingdoms, fully determined by ``seed``.

    ``real_dominoes``: every kingdom is one the real set can build (``lab.synth``'s real
    kingdoms, dominoes drifting as pieces), its holes whole dominoes missing that show this
    table: what an evaluation of the *cells* needs. Without it, the finder's scenes as its
    tests and figures know them: 5×5 aau boards (7×7 ones tiled from their cells) with single
    cells knocked out, which the real set often cannot build, and whose own holes (the aau
    photographer's wooden table) are pasted in as if they were tiles.
    """
    rng = np.random.default_rng(seed)
    boards = _aau_boards()
    count = int(rng.choice([2, 2, 3, 4]))
    size = 7 if count == 2 and rng.random() < 0.5 else 5  # Mighty Duel is for two players

    # The table plane, in cells: kingdoms in a row or a 2×2 block, a few cm (0.3-1.5 cells) apart,
    # each turned a little.
    gap = rng.uniform(0.3, 1.5)
    turns = np.radians(np.clip(rng.normal(0, 6, count), -15, 15))
    # A turned square reaches further: keep the gap between the kingdoms' outer corners.
    pitch = size * float(np.max(np.abs(np.cos(turns)) + np.abs(np.sin(turns)))) + gap
    if count <= 3 or rng.random() < 0.3:
        slots = [(i * pitch, rng.normal(0, 0.4)) for i in range(count)]
    else:
        slots = [((i % 2) * pitch, (i // 2) * pitch) for i in range(count)]
    plane_corners = []
    for (x, y), turn in zip(slots, turns, strict=True):
        centre = np.array([x + size / 2, y + size / 2])
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * size / 2
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        plane_corners.append(square @ rotation.T + centre)
    plane_corners = np.array(plane_corners)  # (count, 4, 2), cells
    everything = plane_corners.reshape(-1, 2)
    middle = (everything.min(axis=0) + everything.max(axis=0)) / 2

    # The camera: the arrangement turned, scaled to fill most of the frame (sometimes more, so
    # kingdoms are cut), moved off centre, and tilted (a keystone up to ~35°).
    short = int(long_side * rng.choice([0.75, 0.5625]))
    height, width = (long_side, short) if rng.random() < 0.5 else (short, long_side)
    video = rng.random() < 0.2
    if video:  # a video frame: 16:9, 1280 or 1920 wide
        width, height = (1920, 1080) if rng.random() < 0.5 else (1280, 720)
        if rng.random() < 0.4:
            width, height = height, width
    # The arrangement's long side along the photo's (players frame the table that way).
    spread = everything.max(axis=0) - everything.min(axis=0)
    across = (spread[0] > spread[1]) != (width > height)
    angle = (np.pi / 2 if across else 0.0) + rng.choice([0, np.pi]) + rng.normal(0, 0.2)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = (everything - middle) @ rotation.T
    extent = placed.max(axis=0) - placed.min(axis=0)
    fill = rng.uniform(0.7, 0.95) if rng.random() < 0.65 else rng.uniform(1.0, 1.4)
    px_per_cell = fill * min(width / extent[0], height / extent[1])
    placed = placed * px_per_cell
    tilt = rng.uniform(0, 0.16)
    towards = rng.normal(0, 1, 2)
    towards /= np.linalg.norm(towards)
    reach = np.abs(placed).max()
    placed = placed * (1 - tilt * (placed @ towards / reach))[:, None]
    shift = rng.normal(0, 0.06, 2) * [width, height]
    photo_points = placed + np.array([width / 2, height / 2]) + shift
    to_photo = cv2.findHomography(everything, photo_points)[0]

    table_kind = str(rng.choice(TABLES))
    photo = _table(rng, table_kind, height, width)
    light = rng.uniform(0, 2 * np.pi)  # light from one side: shadows fall away from it
    shadow_dir = -np.array([np.cos(light), np.sin(light)])

    occupied = np.zeros((height, width), np.uint8)  # kingdoms, grown: clutter keeps off
    truths = []
    for corners_cells in plane_corners:
        truth = _place_kingdom(
            rng, boards, size, corners_cells, to_photo, photo, shadow_dir, real_dominoes
        )
        truths.append(truth)
        cv2.fillConvexPoly(occupied, np.round(truth.corners).astype(np.int32), 1)
    cell_px = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) / size for t in truths]))
    occupied = cv2.dilate(occupied, np.ones((int(cell_px) | 1, int(cell_px) | 1), np.uint8))
    _clutter(rng, photo, occupied, cell_px, shadow_dir)
    photo = _side_light(rng, photo, light)
    image = _camera(rng, np.clip(photo, 0, 255).astype(np.uint8), video)
    return TableScene(image, tuple(truths), table_kind, video, seed)


def negative_image(seed: int, long_side: int = 1600) -> tuple[str, np.ndarray]:
    """A photo with no kingdom: ("table", table and clutter), "blank", "one_colour" or "noise"."""
    rng = np.random.default_rng(seed)
    # Half are tables with clutter; the rest cycle through blank, one colour and noise.
    kind = NEGATIVE_KINDS[1 + (seed // 2) % 3] if seed % 2 else "table"
    short = int(long_side * rng.choice([0.75, 0.5625, 1.0]))
    height, width = (long_side, short) if rng.random() < 0.5 else (short, long_side)
    if kind == "blank":
        grey = rng.uniform(200, 255)
        image = np.full((height, width, 3), grey, np.float32)
        image += _smooth_noise(rng, height, width, 256, 4)[..., None]
        return kind, _camera(rng, np.clip(image, 0, 255).astype(np.uint8), False)
    if kind == "one_colour":
        return kind, np.full((height, width, 3), rng.integers(0, 256, 3), np.uint8)
    if kind == "noise":
        return kind, rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    photo = _table(rng, str(rng.choice(TABLES)), height, width)
    cell_px = rng.uniform(0.04, 0.1) * long_side
    light = rng.uniform(0, 2 * np.pi)
    shadow_dir = -np.array([np.cos(light), np.sin(light)])
    _clutter(rng, photo, np.zeros((height, width), np.uint8), cell_px, shadow_dir, busy=True)
    photo = _side_light(rng, photo, light)
    return kind, _camera(rng, np.clip(photo, 0, 255).astype(np.uint8), rng.random() < 0.2)


def table_scenes(count: int, seed: int = 0, long_side: int = 1600):
    """``count`` scenes, seeds ``seed``, ``seed + 1``, ... (a generator: one image at a time)."""
    for i in range(count):
        yield make_table_scene(seed + i, long_side)


# --- kingdoms ---------------------------------------------------------------------------------


def _place_kingdom(
    rng, boards, size, corners_cells, to_photo, photo, shadow_dir, real_dominoes=False
):
    """Draw one kingdom (plane corners in cells) into ``photo``; return its truth."""
    height, width = photo.shape[:2]
    margin = SOURCE_PX
    side = size * SOURCE_PX + 2 * margin
    tiles = np.zeros((side, side, 3), np.uint8)
    alpha = np.zeros((side, side), np.float32)
    if real_dominoes:
        cells, labels, partner = _real_kingdom_cells(rng, size)
        # 0-2 dominoes missing (0.8 a kingdom): an end of game where some were discarded.
        holes = _hole_dominoes(rng, labels, partner, size, int(rng.choice([0, 0, 1, 1, 2])))
        _lay_drifting_dominoes(rng, cells, holes, partner, size, margin, tiles, alpha)
    else:
        cells, labels = _kingdom_cells(rng, boards, size)
        holes = _knock_out(rng, labels, size)
        _lay_tiles(rng, cells, holes, size, margin, tiles, alpha)
    for r, c in holes:
        labels[r][c] = "."
    # Which way the board is turned relative to the plane (any quarter turn).
    turn = int(rng.integers(4))
    frame_plane = np.array([[0, 0], [size, 0], [size, size], [0, size]], float) * SOURCE_PX + margin
    board_to_cells = cv2.getPerspectiveTransform(
        frame_plane.astype(np.float32), np.roll(corners_cells, turn, axis=0).astype(np.float32)
    )
    plane_to_photo = to_photo @ board_to_cells
    corners = cv2.perspectiveTransform(frame_plane.reshape(-1, 1, 2), plane_to_photo).reshape(4, 2)
    warped = cv2.warpPerspective(tiles, plane_to_photo, (width, height), flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, plane_to_photo, (width, height), flags=cv2.INTER_LINEAR)
    # Tiles are 4 mm thick: a soft shadow away from the light.
    cell_px = np.linalg.norm(corners[1] - corners[0]) / size
    offset = np.round(shadow_dir * 0.06 * cell_px).astype(int)
    shade = cv2.GaussianBlur(np.roll(weight, (offset[1], offset[0]), axis=(0, 1)), (0, 0), 2)
    photo *= 1 - 0.4 * (shade * (1 - weight))[..., None]
    photo[:] = photo * (1 - weight[..., None]) + warped * weight[..., None]
    cell_polys = _tile_polygons(size, holes, plane_to_photo, margin)
    centres = np.array([p.mean(axis=0) for p in cell_polys])
    inside = (centres[:, 0] >= 0) & (centres[:, 0] < width) & (centres[:, 1] >= 0)
    visible = float((inside & (centres[:, 1] < height)).mean())  # share of tiles in the photo
    points = np.concatenate(cell_polys)
    margin_px = min(
        points[:, 0].min(),
        points[:, 1].min(),
        width - points[:, 0].max(),
        height - points[:, 1].max(),
    )
    margin = float(margin_px / cell_px)
    labels = tuple(tuple(r) for r in labels)
    truth = KingdomTruth(corners, size, labels, margin >= 0, visible, margin)
    return truth


def _tile_polygons(size, holes, plane_to_photo, margin):
    polygons = []
    for r in range(size):
        for c in range(size):
            if (r, c) in holes:
                continue
            square = np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float)
            points = square * SOURCE_PX + margin
            polygons.append(
                cv2.perspectiveTransform(points.reshape(-1, 1, 2), plane_to_photo).reshape(4, 2)
            )
    return polygons


# --- tables -----------------------------------------------------------------------------------


def _table(rng, kind: str, height: int, width: int) -> np.ndarray:
    """A float32 BGR table texture of the given kind."""
    if kind in ("plain", "carpet", "cutting_mat"):
        return _background(rng, kind, height, width)
    if kind in ("light_wood", "dark_wood"):
        table = _background(rng, "wood", height, width)
        factor = rng.uniform(1.1, 1.35) if kind == "light_wood" else rng.uniform(0.35, 0.6)
        return np.clip(table * factor, 0, 255).astype(np.float32)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "cork":
        colour = np.array([rng.uniform(70, 100), rng.uniform(120, 150), rng.uniform(165, 200)])
        speckle = rng.normal(0, 22, (height, width)).astype(np.float32)
        speckle = cv2.GaussianBlur(speckle, (0, 0), 1.2)
        return (colour * (1 + speckle[..., None] / 100)).astype(np.float32)
    if kind == "patterned_cloth":
        colour = np.array([rng.uniform(120, 190), rng.uniform(60, 110), rng.uniform(20, 60)])
        pattern_px = rng.uniform(0.03, 0.08) * max(height, width)
        checks = (np.sin(x / pattern_px * np.pi) * np.sin(y / pattern_px * np.pi)) > 0
        table = np.ones((height, width, 3), np.float32) * colour
        table[checks] *= rng.uniform(0.6, 0.8)
        flowers = np.zeros((height, width), np.uint8)
        step = int(pattern_px)
        for cy in range(step // 2, height, step):
            for cx in range(step // 2 + (cy // step % 2) * step // 2, width, step):
                cv2.circle(flowers, (cx, cy), max(2, step // 6), 255, -1)
        ink = cv2.GaussianBlur(flowers, (0, 0), 1).astype(np.float32)[..., None] / 255
        table = table * (1 - ink) + np.array([235, 235, 240], np.float32) * ink
        table += _smooth_noise(rng, height, width, 64, 6)[..., None]
        return table.astype(np.float32)
    # white paper (a big sheet or a white table)
    table = np.ones((height, width, 3), np.float32) * rng.uniform(215, 250)
    table += _smooth_noise(rng, height, width, 128, 5)[..., None]
    return table.astype(np.float32)


# --- clutter ----------------------------------------------------------------------------------


def _clutter(rng, photo, occupied, cell_px, shadow_dir, busy=False, things=None) -> None:
    """Box lid, score pad, cards, cups, a hand, a sweater: where no kingdom lies. ``things``:
    exactly these (names as ``_thing`` knows them) instead of a random choice."""
    height, width = photo.shape[:2]
    every = ["box", "pad", "cards", "cup", "hand", "sweater", "meeples"]
    chosen = things or [t for t in every if rng.random() < (0.7 if busy else 0.45)]
    for thing in chosen:
        for _ in range(12):  # a few tries to find a free spot
            layer = np.zeros((height, width), np.uint8)
            colour_image = _thing(rng, thing, layer, height, width, cell_px)
            if layer.any() and not (layer.astype(bool) & occupied.astype(bool)).any():
                mask = layer.astype(np.float32)[..., None] / 255
                offset = np.round(shadow_dir * 0.1 * cell_px).astype(int)
                shade = cv2.GaussianBlur(
                    np.roll(mask[..., 0], (offset[1], offset[0]), axis=(0, 1)), (0, 0), 4
                )
                photo *= 1 - 0.35 * shade[..., None] * (1 - mask)
                photo[:] = photo * (1 - mask) + colour_image * mask
                break


def _thing(rng, thing, layer, height, width, cell_px) -> np.ndarray:
    """Draws ``thing``'s shape into ``layer`` (255 inside); returns its BGR float32 look."""
    centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
    look = np.zeros((height, width, 3), np.float32)
    if thing == "box":  # the box lid: a big square with colourful art and a title
        side = int(rng.uniform(5, 9) * cell_px)
        box = cv2.boxPoints((centre, (side, side), rng.uniform(0, 90))).astype(np.int32)
        cv2.fillConvexPoly(layer, box, 255)
        art = np.stack(
            [_smooth_noise(rng, height, width, 24, 70) + rng.uniform(60, 200) for _ in range(3)],
            axis=-1,
        )
        art = np.clip(art, 0, 255).astype(np.uint8)  # putText draws on 8-bit images only
        cv2.putText(
            art,
            "KINGDOMINO",
            (centre[0] - side // 3, centre[1]),
            cv2.FONT_HERSHEY_DUPLEX,
            max(0.5, side / 300),
            (240, 240, 250),
            3,
        )
        look[:] = art
    elif thing == "pad":  # a score pad: white with ruled lines and numbers
        w, h = int(rng.uniform(2.5, 4) * cell_px), int(rng.uniform(3.5, 5.5) * cell_px)
        pad = cv2.boxPoints((centre, (w, h), rng.uniform(0, 90))).astype(np.int32)
        cv2.fillConvexPoly(layer, pad, 255)
        paper = np.full((height, width, 3), (235, 240, 242), np.uint8)
        for row in range(centre[1] - h // 2, centre[1] + h // 2, max(8, int(0.35 * cell_px))):
            cv2.line(
                paper, (centre[0] - w // 2, row), (centre[0] + w // 2, row), (200, 150, 120), 1
            )
            cv2.putText(
                paper,
                str(int(rng.integers(10, 99))),
                (centre[0] - w // 4, row - 2),
                cv2.FONT_HERSHEY_SIMPLEX,
                max(0.3, cell_px / 120),
                (60, 40, 30),
                1,
            )
        look[:] = paper
    elif thing == "cards":  # a few cards fanned out
        colour = rng.uniform(40, 220, 3)
        for k in range(int(rng.integers(2, 6))):
            w, h = int(0.9 * cell_px), int(1.3 * cell_px)
            spot = (centre[0] + int(k * 0.4 * cell_px), centre[1] + int(rng.normal(0, 5)))
            card = cv2.boxPoints((spot, (w, h), rng.uniform(-30, 30))).astype(np.int32)
            cv2.fillConvexPoly(layer, card, 255)
            cv2.fillConvexPoly(look, card, tuple(float(v) for v in colour * rng.uniform(0.8, 1.2)))
            cv2.polylines(look, [card], True, (245, 245, 245), max(1, int(0.05 * cell_px)))
    elif thing == "cup":  # a cup seen from above: rim, darker drink
        radius = int(rng.uniform(0.8, 1.5) * cell_px)
        cv2.circle(layer, centre, radius, 255, -1)
        cv2.circle(look, centre, radius, tuple(float(v) for v in rng.uniform(150, 250, 3)), -1)
        cv2.circle(
            look, centre, int(0.8 * radius), tuple(float(v) for v in rng.uniform(20, 90, 3)), -1
        )
    elif thing == "hand":  # a palm and four fingers, skin coloured
        skin = np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 235)])
        palm = int(1.2 * cell_px)
        angle = rng.uniform(0, 360)
        cv2.ellipse(layer, centre, (palm, int(0.8 * palm)), angle, 0, 360, 255, -1)
        direction = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
        across = np.array([-direction[1], direction[0]])
        for f in range(4):
            base = np.array(centre) + direction * palm * 0.8 + across * (f - 1.5) * 0.35 * palm
            tip = base + direction * palm * rng.uniform(0.9, 1.3)
            cv2.line(
                layer,
                tuple(int(v) for v in base),
                tuple(int(v) for v in tip),
                255,
                max(3, int(0.25 * palm)),
            )
        look[:] = skin
        look += _smooth_noise(rng, height, width, 16, 8)[..., None]
    elif thing == "sweater":  # a knitted sleeve coming in from an edge of the frame
        side = int(rng.integers(4))
        thickness = int(rng.uniform(1.5, 3) * cell_px)
        start = {
            0: (centre[0], 0),
            1: (centre[0], height),
            2: (0, centre[1]),
            3: (width, centre[1]),
        }
        end = (int(centre[0] * 0.7 + width * 0.15), int(centre[1] * 0.7 + height * 0.15))
        cv2.line(layer, start[side], end, 255, thickness)
        colour = rng.uniform(30, 200, 3)
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        knit = np.sin(x / 3.0 + np.sin(y / 4.0) * 2) * 12
        look[:] = colour + knit[..., None]
    else:  # meeples and crowns of other games: small coloured blobs
        for _ in range(int(rng.integers(2, 6))):
            spot = (
                centre[0] + int(rng.normal(0, cell_px)),
                centre[1] + int(rng.normal(0, cell_px)),
            )
            radius = max(3, int(0.25 * cell_px))
            colour = tuple(float(v) for v in rng.uniform(20, 230, 3))
            cv2.circle(layer, spot, radius, 255, -1)
            cv2.circle(look, spot, radius, colour, -1)
    return look


# --- light and camera -------------------------------------------------------------------------


def _side_light(rng, photo: np.ndarray, light: float) -> np.ndarray:
    """Light from one side: a strong ramp toward the light, and a white-balance cast."""
    height, width = photo.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (x * np.cos(light) + y * np.sin(light)) / max(height, width)
    gain = 1 + rng.uniform(0.1, 0.6) * (ramp - ramp.mean())
    cast = rng.uniform(0.88, 1.12, 3).astype(np.float32)
    return photo * gain[..., None] * cast


def _camera(rng, image: np.ndarray, video: bool) -> np.ndarray:
    """Blur, noise and compression: a phone photo, or a soft, heavily compressed video frame."""
    sigma = rng.uniform(0.8, 1.8) if video else rng.uniform(0, 1.2)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if video and rng.random() < 0.5:  # a little motion blur
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rotation = cv2.getRotationMatrix2D(
            (length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1
        )
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    noise = rng.normal(0, rng.uniform(1, 6), image.shape).astype(np.float32)
    image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 70)) if video else int(rng.integers(60, 96))
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


# --- command line -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=6, help="number of scenes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("synthetic_tables"))
    parser.add_argument("--long-side", type=int, default=1600, help="photo size in pixels")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for scene in table_scenes(args.n, args.seed, args.long_side):
        stem = args.out / f"table{scene.seed:04d}"
        cv2.imwrite(str(stem.with_suffix(".jpg")), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        stem.with_suffix(".json").write_text(json.dumps(scene.truth_json(), indent=1) + "\n")
        complete = len(scene.complete)
        print(f"{stem}.jpg  {complete} complete, {len(scene.partial)} cut  {scene.table}")


if __name__ == "__main__":
    main()
