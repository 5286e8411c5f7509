"""The 3D castle figure: in a photo taken at a slant, its top shows over the cell beyond it.

The castle figure stands on the start tile about a tile high. Seen from a player's seat, its
top covers part of the neighbouring cell on the far side from the camera, and the cell model
then finds "castle" in two cells: the start tile (the figure's base, its own tile hidden) and
the neighbour (the figure's towers over a forest, say). Read alone, the neighbour can win,
placing the castle one cell too far from the camera.

Where the top covers a neighbour, that neighbour's terrain is read again from its far half
alone (``read_far_halves``): the half away from the figure, mirrored into a whole cell. The
figure's towers are drawn in the castle's colours, so the whole cell reads as castle, lake or
grassland; its far half shows the tile's own ground. The start tile is read the same way (its
half away from the neighbour), since without a camera which of the two the figure stands on is
not known. Its crowns are weighed from both readings (``_crowns_seen_twice``): whether it has
any from the whole cell and the far half together (the figure may hide the crowns from the one,
the cut leave them out of the other), how many from the whole cell alone (the mirrored half
shows each of its crowns twice).

Which neighbour the top covers is a matter of geometry, not of pixels: the photo's homography
(table plane to photo) and a phone camera's optics give the camera's position over the table,
and a point one figure-height above a cell's centre, seen from there, falls on the table a known
distance beyond it (``figure_tops``). ``behind_figure_warnings`` names that cell when it is
flagged, so the user knows what to check.

Camera: principal point at the photo's centre; the focal length from the homography itself
(the table's two axes are perpendicular and equally long), or, when the view is too straight
on to tell, a phone's usual wide lens. A straightened image has no camera: the cells behind
the figure are then the pairs its reading shows (``figure_pairs``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from scoring.board import Terrain
from scoring.words import msg, where
from vision.cells import CROP, CellReadings, cut_cells
from vision.find import BoardLocation
from vision.labels import TERRAINS

# The figure's towers stand about 1.2 tiles high.
FIGURE_HEIGHT = 1.2  # cells
# A phone's main camera: about 26 mm (35 mm equivalent), 0.75 of the long side on a 4:3 sensor.
DEFAULT_FOCAL = 0.75  # of the photo's long side
FOCAL_RANGE = (0.4, 2.0)  # focal lengths estimated outside this (of the long side) are not used
# Below this tilt from straight down the focal length is not measured (the homography hardly
# depends on it) and the default lens is assumed; the lean's direction does not depend on it.
MEASURABLE_TILT = 15.0  # degrees
# The top must reach this far into a neighbour (cells, along one axis, from the base's centre)
# for that neighbour to be behind the figure: the figure covers most of its tile, so a top
# moved 0.3 cells shows over the neighbour's edge.
MIN_LEAN = 0.3
# A neighbour the top falls in is behind the figure only if it reads at least this castle-like
# itself (a figure stands there; a bare start tile casts nothing).
MIN_OWN = 0.05

_CASTLE = TERRAINS.index(Terrain.CASTLE)
_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclasses.dataclass(frozen=True)
class Camera:
    """Where the camera is over the table, in board units (cells; x right, y down the board):
    ``foot`` (x, y) is the point of the table under it, ``height`` its height above the table."""

    foot: tuple[float, float]
    height: float
    focal: float  # pixels
    focal_estimated: bool  # False: the default lens was assumed


def camera_of(location: BoardLocation) -> Camera | None:
    """The camera over the table of ``location``'s photo; None for a straightened image."""
    if location.straightened or min(location.image_shape) <= 0:
        return None
    height_px, width_px = location.image_shape
    to_photo = np.linalg.inv(location.homography)  # board units → photo pixels
    centre = np.array([[1, 0, -width_px / 2], [0, 1, -height_px / 2], [0, 0, 1]])
    g = centre @ to_photo  # the principal point at the origin
    g = g / np.linalg.norm(g[:, 0])
    long_side = max(height_px, width_px)
    focal, estimated = DEFAULT_FOCAL * long_side, False
    if _tilt(g, focal) >= MEASURABLE_TILT:
        measured = _focal_from(g)
        if measured is not None and FOCAL_RANGE[0] <= measured / long_side <= FOCAL_RANGE[1]:
            focal, estimated = measured, True
    rotation, translation = _pose(g, focal)
    position = -rotation.T @ translation  # the camera's centre in table coordinates
    return Camera(
        (float(position[0]), float(position[1])), abs(float(position[2])), focal, estimated
    )


def _pose(g: np.ndarray, focal: float) -> tuple[np.ndarray, np.ndarray]:
    """Rotation (table → camera axes) and translation of the camera whose view of the table is
    ``g`` (principal point at the origin), for a given focal length."""
    m = np.diag([1 / focal, 1 / focal, 1.0]) @ g  # λ [r1 r2 t]
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] < 0:  # the table in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    return np.column_stack([r1, r2, np.cross(r1, r2)]), t


def _tilt(g: np.ndarray, focal: float) -> float:
    """Degrees between the camera's axis and the table's normal."""
    rotation, _ = _pose(g, focal)
    return float(np.degrees(np.arccos(min(1.0, abs(rotation[2, 2])))))


def _focal_from(g: np.ndarray) -> float | None:
    """The focal length (px) that makes the table's two axes perpendicular and equally long in
    3D, from the homography ``g`` with the principal point at the origin; None if not measurable.

    With ``u``, ``v`` the first two columns of ``g`` and ``w`` = 1 / focal², the axes in 3D are
    (u_x, u_y, u_z / √w) and (v_x, v_y, v_z / √w) up to scale, so perpendicular gives
    w (u_x v_x + u_y v_y) + u_z v_z = 0 and equally long w (|u_xy|² - |v_xy|²) + u_z² - v_z² = 0;
    ``w`` is their least-squares solution. (A camera facing one of the board's sides leaves the
    first without content, a camera facing a corner the second.)
    """
    u, v = g[:, 0], g[:, 1]
    a = np.array([u[0] * v[0] + u[1] * v[1], u[0] ** 2 + u[1] ** 2 - v[0] ** 2 - v[1] ** 2])
    b = np.array([u[2] * v[2], u[2] ** 2 - v[2] ** 2])
    if not np.any(a):
        return None
    w = -float(a @ b) / float(a @ a)
    return float(1 / np.sqrt(w)) if w > 0 else None


def figure_tops(location: BoardLocation, height: float = FIGURE_HEIGHT) -> np.ndarray | None:
    """(N, N, 2): where the top of a figure ``height`` cells high standing on each cell's
    centre shows on the table, as (dx, dy) cells from that centre; None without a camera."""
    camera = camera_of(location)
    if camera is None or camera.height <= height:
        return None  # no camera, or one lower than the figure: no photo of a kingdom
    n = location.size
    y, x = np.mgrid[0:n, 0:n] + 0.5
    # Seen from the camera, the top lies on the table where the line from the camera through it
    # meets the table: beyond the base, away from the foot, by height / (camera − height).
    beyond = height / (camera.height - height)
    return np.stack([x - camera.foot[0], y - camera.foot[1]], axis=-1) * beyond


def behind_figure(readings: CellReadings, tops: np.ndarray | None) -> list[tuple[int, int]]:
    """The cells the castle figure's top covers in this photo: the neighbours of the board's
    castle that its top falls in (``figure_tops``) and that read castle-like themselves
    (``MIN_OWN``: a figure stands there; a bare start tile casts nothing), or that were read
    from their far half for it (``read_far_halves``: they read castle-like before). Without a
    camera (``tops`` None: a straightened image), which way the figure leans is not known: the
    cells of ``figure_pairs`` and of ``far_half_cells`` other than the board's castle."""
    if tops is None:
        paired = {cell for pair in figure_pairs(readings) for cell in pair}
        return sorted((paired | set(readings.far_half_cells)) - {readings.board.castle})
    castle = readings.terrain_probs[..., _CASTLE]
    return [
        cell
        for cell in _covered(tops, *readings.board.castle)
        if castle[cell] >= MIN_OWN or cell in readings.far_half_cells
    ]


def _covered(tops: np.ndarray, r: int, c: int) -> list[tuple[int, int]]:
    """The board's 4-neighbours of (r, c) that the top of a figure on it falls in: one per axis
    along which it falls ``MIN_LEAN`` cells or more."""
    n = tops.shape[0]
    dx, dy = tops[r, c]
    cells = []
    for reach, (down, right) in ((dx, (0, 1)), (dy, (1, 0))):
        if abs(reach) >= MIN_LEAN:
            side = int(np.sign(reach))
            nr, nc = r + down * side, c + right * side
            if 0 <= nr < n and 0 <= nc < n:
                cells.append((nr, nc))
    return cells


def behind_figure_warnings(readings: CellReadings, tops: np.ndarray | None) -> tuple[str, ...]:
    """One sentence per flagged cell behind the castle figure, saying why it is flagged."""
    return tuple(
        msg(
            "The castle figure hides part of {cell} in this photo: check that cell's terrain "
            "and crowns.",
            cell=where(r, c),
        )
        for r, c in behind_figure(readings, tops)
        if readings.uncertain[r, c]
    )


def figure_pairs(readings: CellReadings) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(castle, neighbour) for each 4-neighbour of the board's castle that reads castle-like
    itself (``MIN_OWN``): where a figure stands, it and the cell its top covers.

    The castle is where the board's decoding puts it (one castle, real dominoes around it), not
    merely the most castle-like cell: a figure unlike the printed castle (another edition's, a
    pale one) can read as a hole on its tile while its top reads castle-like over the cell
    behind, which is then the most castle-like cell; anchored there, the pair was missed.
    Needs no camera: a plain tile beside a castle reads far below ``MIN_OWN`` as castle
    (a figure's top over it does not), so this works on straightened images too.
    """
    castle = readings.terrain_probs[..., _CASTLE]
    n = readings.size
    r, c = readings.board.castle
    pairs = []
    for dr, dc in _NEIGHBOURS:
        nr, nc = r + dr, c + dc
        if 0 <= nr < n and 0 <= nc < n and castle[nr, nc] >= MIN_OWN:
            pairs.append(((r, c), (nr, nc)))
    return pairs


def far_half(crop: np.ndarray, neighbour_at: tuple[int, int]) -> np.ndarray:
    """The half of a (CROP, CROP, 3) cell crop away from its neighbour, which lies in direction
    ``neighbour_at`` (dr, dc), mirrored into a whole (CROP, CROP, 3) cell."""
    if crop.shape != (CROP, CROP, 3):
        raise ValueError(f"crop must be ({CROP}, {CROP}, 3), got {crop.shape}")
    # Turned (anticlockwise) until the neighbour's side is at the top; its bottom half is kept.
    turns = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}[neighbour_at]
    turned = np.rot90(crop, turns)
    half = turned[CROP // 2 :]
    return np.ascontiguousarray(np.concatenate([half[::-1], half]))


def read_far_halves(board_image: np.ndarray, readings: CellReadings, model=None) -> CellReadings:
    """The readings with the terrain of both cells of each ``figure_pairs`` pair read from its
    far half (``far_half``, four turns averaged) by ``model`` (the packaged one when None), and
    their crowns weighed from both readings (``_crowns_seen_twice``); ``far_half_cells`` names
    them."""
    pairs = figure_pairs(readings)
    if not pairs:
        return readings
    from vision.model import load_model

    model = model or load_model()
    crops = cut_cells(board_image, readings.size)
    halves, cells = [], []
    for castle, neighbour in pairs:
        for cell, other in ((neighbour, castle), (castle, neighbour)):
            if cell in cells:
                continue
            towards = (other[0] - cell[0], other[1] - cell[1])
            halves.append(far_half(crops[cell[0] * readings.size + cell[1]], towards))
            cells.append(cell)
    terrain_probs, crown_probs = model.predict(np.stack(halves), all_turns=True)
    terrain = readings.terrain_probs.copy()
    crowns = readings.crown_probs.copy()
    for cell, probs, counts in zip(cells, terrain_probs, crown_probs, strict=True):
        terrain[cell] = probs
        crowns[cell] = _crowns_seen_twice(crowns[cell], counts)
    return dataclasses.replace(
        readings, terrain_probs=terrain, crown_probs=crowns, far_half_cells=tuple(cells)
    )


def _crowns_seen_twice(whole: np.ndarray, far: np.ndarray) -> np.ndarray:
    """Crown-count probabilities (4,) of a cell under the figure's top, from the whole cell's
    and its far half's: whether it has crowns is the mean of the two; how many, given that it
    has some, is the whole cell's. The mirrored far half shows each crown it holds twice, so it
    is a witness to crowns being there but counts them high (model v8 on hard development scene
    7370: a two-crown mine's far half read three crowns 0.60)."""
    crowned = (whole[1:].sum() + far[1:].sum()) / 2
    split = whole[1:] + 1e-6  # a whole cell that saw no crown at all: an even split
    return np.concatenate([[1.0 - crowned], crowned * split / split.sum()])
