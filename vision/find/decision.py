"""Kingdom decision: is there a lattice of real tiles inside these corners?

Every kingdom the finder returns, every straightened image it accepts and every set of corners a
user taps must pass this check, so a blank, one-colour, noisy or table-only image is never read
as a board. Two things must both hold in the N×N view straightened from the corners:

- **Tile edges on the lattice.** Between two neighbouring tiles there is always an edge (a gap or
  a change of picture). For each inner lattice line and each cell along it we look for the
  strongest edge within ±``EDGE_TOLERANCE`` of a cell; most segments must show one that stands
  out from its surroundings and is strong in absolute terms (JPEG noise on a plain image is not).
- **Different tiles.** Kingdoms mix terrains, so the cells' mean colours differ; a cutting mat
  whose printed grid happens to match the lattice has edges but identical cells.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.words import Message, msg
from vision.find.edges import gradient_images, opponent_colour
from vision.find.location import cells_in_photo
from vision.stats import median

PX = 32  # pixels per cell of the straightened view the check looks at
EDGE_TOLERANCE = 0.2  # of a cell: how far a tapped or fitted line may be from the real edge
# Measured (``python -m lab.evaluate_tables`` prints them for scenes and negatives):
MIN_EDGE_SHARE = 0.6  # inner segments with an edge: kingdoms 0.88-1; blank 0, noise ~0.1
MIN_EDGE_GRADIENT = 6.0  # mean |colour gradient| along an edge segment, per pixel
# Std of the cells' mean colours (summed over opponent channels): aau boards, synthetic kingdoms
# 60-200, tables (wood grain, mats, cloth, with pieces) 0-16, a one-colour image 0.
MIN_CELL_SPREAD = 30.0
# A kingdom the search accepts is checked once more, on the photo's own pixels at its final
# corners, where a real kingdom's lattice is plain: on lab.tables development scenes (9000-9999,
# 1,872 kingdoms found) and the hard lab.synth scenes (5000-5799, 794) kingdoms showed an edge
# share of at least 0.79 and a spread of at least 50, the aau boards and shared photos 0.875 and
# 60; the search's own, looser check (above) passed a hand (share 0.69, spread 22) and a score
# pad with its grid (0.71, 60) as kingdoms.
FOUND_MIN_EDGE_SHARE = 0.75
FOUND_MIN_CELL_SPREAD = 40.0


def straightened_view(image: np.ndarray, corners: np.ndarray, size: int) -> np.ndarray:
    """The N×N frame inside ``corners`` (TL, TR, BR, BL) at PX pixels per cell, BGR."""
    side = size * PX
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    # Only the frame's bounding box is needed: a kingdom is often a small part of a big photo.
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int) - 2, 0, [w, h])
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + 3, 0, [w, h])
    if x1 > x0 and y1 > y0:
        image, corners = image[y0:y1, x0:x1], corners - (x0, y0)
    # Warping samples, it does not average: shrink a much finer photo first so cells don't alias.
    longest = max(np.linalg.norm(corners[i] - corners[i - 1]) for i in range(4))
    scale = min(1.0, 2.0 * side / max(longest, 1.0))
    if scale < 0.5:
        # At least a pixel each way: a frame lying mostly past the photo leaves a sliver of it,
        # which a plain fx/fy shrink would round to nothing (OpenCV then refuses the resize).
        h, w = image.shape[:2]
        dsize = (max(1, round(w * scale)), max(1, round(h * scale)))
        image = cv2.resize(image, dsize, interpolation=cv2.INTER_AREA)
        corners = corners * (dsize[0] / w, dsize[1] / h)
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(image, warp, (side, side), flags=cv2.INTER_LINEAR)


def lattice_evidence(view: np.ndarray, size: int) -> tuple[float, float]:
    """(share of inner cell boundaries showing a tile edge, spread of cell colours) of a view
    straightened to ``size`` cells of PX pixels."""
    if view.shape[:2] != (size * PX, size * PX):
        raise ValueError(f"view must be {size * PX}×{size * PX}, got {view.shape[:2]}")
    gx, gy = gradient_images(view)
    colour = opponent_colour(view)
    reach = int(round(EDGE_TOLERANCE * PX))
    window = int(round(0.45 * PX))  # the edge must stand out within this window
    trim = int(round(0.2 * PX))  # a segment's ends, where four tiles meet, are left out
    hits = total = 0
    # Every segment at once: the mean across each cell's band of every column (row by row, as
    # the mean of one band's strip adds them), then each inner line's window of it. The window
    # (±0.45 cell) never reaches past the view: lines run from one cell in to one cell short.
    lines = np.arange(1, size) * PX
    for grad in (gx, gy.T):
        bands = grad.reshape(size, PX, -1)[:, trim : PX - trim].mean(axis=1)  # (cells, across)
        strips = bands[:, lines[:, None] + np.arange(-window, window + 1)]  # (cells, lines, 29)
        near = strips[..., window - reach : window + reach + 1]
        peak = near.max(axis=-1)
        middle = median(strips, axis=-1).astype(np.float64)
        hits += int(((peak >= MIN_EDGE_GRADIENT) & (peak >= 1.6 * middle + 1e-6)).sum())
        total += peak.size
    inner = colour.reshape(size, PX, size, PX, 3)[:, PX // 5 : -PX // 5, :, PX // 5 : -PX // 5]
    means = inner.mean(axis=(1, 3)).reshape(-1, 3)
    spread = float(means.std(axis=0).sum())
    return hits / max(total, 1), spread


def tiles_seen(
    image: np.ndarray,
    corners: np.ndarray,
    size: int,
    min_edge_share: float = MIN_EDGE_SHARE,
    min_cell_spread: float = MIN_CELL_SPREAD,
) -> bool:
    """True when the N×N frame inside ``corners`` shows a lattice of real, different tiles."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    if not np.isfinite(corners).all():
        return False
    if cv2.contourArea(corners.astype(np.float32)) < (size * 4) ** 2:
        return False  # degenerate: a line, a point, or a few pixels
    share, spread = lattice_evidence(straightened_view(image, corners, size), size)
    return share >= min_edge_share and spread >= min_cell_spread


# --- complete or cut off, and in which order -----------------------------------------------------

BORDER_MARGIN = 0.01  # of the short side: a blob this close to the photo's edge touches it
OUTSIDE_TOLERANCE = 0.1  # of a cell: a frame corner further out than this is not in the photo
# A frame this close to the photo's edge (of a cell, either side) is flush with it: a kingdom laid
# or framed right at the edge, or one cut half a cell short whose frame the fit squeezed into the
# photo. The squeezed frame's lines miss the tile edges near the cut: its edge support (each way)
# measured 0.25-0.65 on development scenes, complete kingdoms 0.70-1 when sharp. But the support
# also falls when the seams are merely faint: real kingdoms (aau boards laid flush with the edge
# on synthetic tables, sharp, blurred σ 1-3 px or made video frames: ``lab.flush_edge``)
# measured 0.40-0.65 with the frame right on their tiles, and game2.jpg (a 7×7 filling the
# photo's width) 0.64-0.74 resized and blurred. So a flush frame under FLUSH_MIN_SUPPORT is
# taken as squeezed unless it shows it lies on its tiles (``seams_verdict`` "on"): summing each
# line's gradient along its whole length (``edges.line_seams``), where a faint seam still stands
# out, no inner line finds a seam (at least SEAM_MIN_STRENGTH) more than SEAM_OFF cells off it,
# at least half the inner lines each way find theirs within SEAM_OFF, and so does each side of
# the frame away from the photo's edge (the kingdom's outline against the table: a frame
# wrongly placed over parts of a cut kingdom and the table, lab.tables development scene 7871,
# support 0.6, had its inner lines on seams but no outline on its sides, 1.3-1.4), while no side
# at the photo's edge finds an edge off it (a cut kingdom's tiles: scene 7120 as a video frame,
# cut a quarter cell short, its frame's lines all on seams, found one 0.23 cell in). A squeezed
# frame's seams drift off its lines toward the cut (0.12-0.5 of a cell at the last line); a
# frame on its tiles, however soft, kept every showing seam within 0.1 (1/40-cell steps).
FLUSH_ZONE = 0.1
FLUSH_MIN_SUPPORT = 0.67
SEAM_OFF = 0.1
SEAM_MIN_STRENGTH = 1.5
# Blurred, the fit may squeeze a frame a little short of the edge: development scene 7497 at
# σ 2 px, 0.15 cell short, support 0.35, was read whole. Up to SQUEEZE_ZONE cells from the edge
# (where lab.evaluate_tables counts neither answer for the tiles), a frame under
# FLUSH_MIN_SUPPORT whose seams drift off its lines (``seams_verdict`` "off") is squeezed too.
SQUEEZE_ZONE = 0.25
# Tiles spanning fewer cells than the frame mean a cut kingdom only when the frame comes this
# close (cells) to the photo's edge, where the missing rows would lie beyond it, or sits poorly
# on the tiles (under FLUSH_MIN_SUPPORT). A blob may touch the edge only through a cut
# neighbour, whose frame, peeled first, took a column of this kingdom's tiles with it.
SHORT_NEAR_EDGE = 1.0
# Things that stand out from the table run on from a frame's side to the photo's edge: at least
# RUN_ON_MIN_CELLS cells' worth of them, lying along the frame over RUN_ON_MIN_CONTACT cells² of
# the thin ring from 0.15 to RUN_ON_GAP cells outside it (the gap between two dominoes is about
# a tenth of a cell). A kingdom cut by the edge whose inner 5×5 was framed whole leaves its cut
# rows so: on development scenes 0.22-0.6 cells² of contact; a cut neighbour whose corner came
# within a third of a cell of a complete kingdom 0.01, cards laid against one 0.05.
RUN_ON_GAP = 0.2
RUN_ON_MIN_CELLS = 1.0
RUN_ON_MIN_CONTACT = 0.15
# What runs on is a neighbour lying against a whole kingdom, not the kingdom's own cut rows,
# when the frame's tiles fill it with no line of table across it (one kingdom, not parts of
# two with the table between) and three of the four lines of cells just past its sides are
# table: a cut 7×7 kingdom whose inner 5×5 was framed goes on past that frame on both axes
# (or past the photo), and a Mighty Duel kingdom at a game's end never lies within five rows.
# A line is table when at least LINE_TABLE_SHARE of its cells in the photo (LINE_MIN_SEEN of
# them or more) are, their middles under CELL_MIN_TILES not table. On lab.synth grid_mat
# development scenes 9378 and 9492 (a neighbour cut by the photo's edge pushed against the
# kingdom) the three lines were table in every cell; on lab.tables development scenes 7009,
# 8268 and 9889 (inner 5×5 frames of cut 7×7 kingdoms) at most two were, and so in a frame
# over one kingdom's last column, the table beside it and three columns of a cut one.
LINE_TABLE_SHARE = 2 / 3
LINE_MIN_SEEN = 3
CELL_MIN_TILES = 0.5


def touches_border(blob: np.ndarray) -> bool:
    """Whether the blob (a mask) reaches the photo's edge."""
    m = _border_px(blob.shape[:2])
    return bool(blob[:m].any() or blob[-m:].any() or blob[:, :m].any() or blob[:, -m:].any())


def _border_px(shape: tuple[int, int]) -> int:
    """How close to the photo's edge (pixels of an image of ``shape``) a thing touches it."""
    return max(1, int(round(BORDER_MARGIN * min(shape))))


def cut_off_sentence(
    location,
    touches: bool,
    past_edge: bool = False,
    support: float = 1.0,
    seams: str | None = None,
) -> str | None:
    """None for a complete kingdom; for one cut by the photo's edge, a sentence saying where.

    Cut off: its tiles reach the photo's edge and either span fewer cells than its frame (rows
    or columns beyond the edge; the frame within SHORT_NEAR_EDGE of it, or sitting poorly on
    the tiles), or its frame reaches beyond the photo, or (``past_edge``, from
    ``extent.tiles_past_edge``) tile seams run on past its frame into the photo's edge, or its
    frame is flush with the edge and sits poorly on the tiles (``support``, from
    ``edges.frame_edge_support``, under FLUSH_MIN_SUPPORT) unless its lines lie on their seams
    (``seams`` "on", from ``seams_verdict``: a soft photo's faint seams), or within SQUEEZE_ZONE
    of the edge, sits poorly and has its seams drifting off its lines (``seams`` "off").
    """
    if not touches:
        return None
    n = location.size
    short = False
    h, w = location.image_shape
    corners = location.corners
    cell = _cell_px(location)
    gap = min(corners[:, 0].min(), corners[:, 1].min(), w - corners[:, 0].max())
    gap = min(gap, h - corners[:, 1].max())
    near_edge = gap < SHORT_NEAR_EDGE * cell or support < FLUSH_MIN_SUPPORT
    if location.tile_span is not None and near_edge:
        row0, row1, col0, col1 = location.tile_span
        short = row1 - row0 < n or col1 - col0 < n
    beyond = corners_past_photo(location)
    squeezed = support < FLUSH_MIN_SUPPORT and (
        (gap < FLUSH_ZONE * cell and seams != "on")
        or (gap < SQUEEZE_ZONE * cell and seams == "off")
    )
    if not (short or beyond or past_edge or squeezed):
        return None
    where = where_in_photo(corners.mean(axis=0), (h, w))
    if not (short or beyond or past_edge):
        # Only the fit says so: a complete kingdom flush with the edge in a soft photo, its
        # seams faint, also sits poorly on its frame. Say what was seen, not more.
        return msg("a kingdom {where} reaches the photo's edge and may be cut by it", where=where)
    return msg("a kingdom {where} is cut by the photo's edge", where=where)


def seams_verdict(
    vertical: np.ndarray,
    line: np.ndarray,
    offsets: np.ndarray,
    strengths: np.ndarray,
    open_sides: np.ndarray,
) -> str | None:
    """Whether a frame lies on its tiles' seams, from where each of its lines finds its seam
    (``edges.line_seams``: per line, vertical or not, its number 0..N, offset in cells,
    strength). "off": an inner line finds a seam (at least SEAM_MIN_STRENGTH) more than SEAM_OFF
    off it, the drift of a frame squeezed into the photo from a cut kingdom, or a period off.
    "on": none does, at least half the inner lines each way find theirs within SEAM_OFF, and so
    does each side (lines 0 and N; the kingdom's outline) not in ``open_sides`` (bool per line:
    a side at the photo's edge, where no outline can show), while no open side finds an edge off
    it (the tiles of a kingdom the edge cuts; lab.tables development scene 7120 made a video
    frame, cut a quarter cell short, 0.23 cell inside). None: neither is shown."""
    size = int(line.max())
    inner = (line > 0) & (line < size)
    shows = strengths >= SEAM_MIN_STRENGTH
    on = shows & (np.abs(offsets) <= SEAM_OFF + 1e-9)
    if (inner & shows & ~on).any():
        return "off"
    half = all(
        2 * (on & inner & (vertical == way)).sum() >= (inner & (vertical == way)).sum()
        for way in (True, False)
    )
    if (open_sides & shows & ~on).any():
        return None  # an edge beside a side at the photo's edge: a cut kingdom's tiles there
    return "on" if half and on[~inner & ~open_sides].all() else None


def corners_past_photo(location) -> bool:
    """Whether a corner of the frame lies past the photo's edge by more than OUTSIDE_TOLERANCE
    of a cell."""
    h, w = location.image_shape
    corners = location.corners
    slack = OUTSIDE_TOLERANCE * _cell_px(location)
    beyond = (corners < -slack).any() or (corners[:, 0] > w + slack).any()
    return bool(beyond or (corners[:, 1] > h + slack).any())


def _cell_px(location) -> float:
    """A cell's side in the photo's pixels: the frame's mean side over its size."""
    corners = location.corners
    return np.mean([np.linalg.norm(corners[i] - corners[i - 1]) for i in range(4)]) / location.size


def runs_on_to_edge(not_table: np.ndarray, frame: np.ndarray, size: int) -> bool:
    """Whether what stands out from the table (``not_table``, the table model's uint8 mask)
    runs on from just outside the N×N ``frame`` (in the mask's pixels) to the photo's edge.

    The other cut-off signs look at the frame's own tiles and lattice; this one at what lies
    beyond it. A cut 7×7 kingdom whose inner 5×5 fits the lattice and fills its frame shows
    its tiles running on past that frame into the edge.
    """
    frame = np.asarray(frame, dtype=np.float64).reshape(4, 2)
    cell = np.sqrt(cv2.contourArea(frame.astype(np.float32))) / size
    # The narrow gaps between dominoes closed, as ``regions.split_blob`` does.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    outside = cv2.morphologyEx(not_table, cv2.MORPH_CLOSE, kernel)
    # The frame's own tiles, a little over.
    cv2.fillConvexPoly(outside, _grown(frame, size, 0.15), 0)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(outside, connectivity=8)
    near = np.zeros(outside.shape, np.uint8)
    cv2.fillConvexPoly(near, _grown(frame, size, RUN_ON_GAP), 1)
    edge = _edge_band(outside.shape)
    candidates = np.intersect1d(np.unique(labels[near > 0]), np.unique(labels[edge]))
    candidates = candidates[candidates > 0]
    # Summed: the tiles of a cut row may stand apart, each a little under a cell.
    area = stats[candidates, cv2.CC_STAT_AREA].sum()
    contact = np.count_nonzero(np.isin(labels, candidates) & (near > 0))
    return bool(
        area >= RUN_ON_MIN_CELLS * cell * cell and contact >= RUN_ON_MIN_CONTACT * cell * cell
    )


def stands_out_at_edge(not_table: np.ndarray, frame: np.ndarray, size: int) -> bool:
    """Whether what stands out from the table (``not_table``, the table model's uint8 mask)
    inside the N×N ``frame`` (in the mask's pixels), grown by RUN_ON_GAP cells each way, reaches
    the photo's edge: the frame's own tiles touch it (a kingdom cut by it does)."""
    frame = np.asarray(frame, dtype=np.float64).reshape(4, 2)
    inside = np.zeros(not_table.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, _grown(frame, size, RUN_ON_GAP), 1)
    return bool(((not_table > 0) & (inside > 0) & _edge_band(not_table.shape[:2])).any())


def _grown(frame: np.ndarray, size: int, cells: float) -> np.ndarray:
    """The N×N ``frame`` (4, 2) grown by ``cells`` cells each way about its centre, as whole
    pixels for ``cv2.fillConvexPoly``."""
    centre = frame.mean(axis=0)
    return np.round(centre + (frame - centre) * (1 + 2 * cells / size)).astype(np.int32)


def _edge_band(shape: tuple[int, int]) -> np.ndarray:
    """(H, W) bool: the band along the photo's edge that counts as touching it (``_border_px``)."""
    m = _border_px(shape)
    edge = np.ones(shape, bool)
    edge[m:-m, m:-m] = False
    return edge


def lies_against_whole_kingdom(not_table: np.ndarray, frame: np.ndarray, size: int) -> bool:
    """Whether what stands out past the N×N ``frame`` (in the pixels of ``not_table``, the
    table model's uint8 mask) can only be a neighbour lying against a whole kingdom: no row or
    column of the frame is table, and three of the four lines of cells just past its sides are.

    Tiles running on from a frame to the photo's edge (``runs_on_to_edge``) are the cut rows
    of a bigger kingdom only when there is room for it past the frame on both axes; a frame
    with table along three sides is a whole kingdom, and what runs on past the fourth is a
    neighbour's, however close it lies (pushed against it, or joined to it by a printed mat's
    lines). A line of table across the frame says it holds parts of two kingdoms instead.
    """
    px = 16  # per cell of the view: a cell's middle is its middle 8×8
    frame = np.asarray(frame, dtype=np.float32).reshape(4, 2)
    grown = size + 2
    cells = np.array([[1, 1], [size + 1, 1], [size + 1, size + 1], [1, size + 1]], np.float32)
    to_view = cv2.getPerspectiveTransform(frame, cells * px)
    view = (grown * px, grown * px)
    tiles = cv2.warpPerspective(not_table, to_view, view, flags=cv2.INTER_NEAREST)
    photo = np.full(not_table.shape[:2], 255, np.uint8)
    seen = cv2.warpPerspective(photo, to_view, view, flags=cv2.INTER_NEAREST)
    middle = slice(px // 4, px - px // 4)

    def per_cell(image: np.ndarray) -> np.ndarray:
        return image.reshape(grown, px, grown, px)[:, middle, :, middle].mean(axis=(1, 3)) / 255

    table, seen = per_cell(tiles) < CELL_MIN_TILES, per_cell(seen) > 0.9

    def is_table(line: np.ndarray, in_photo: np.ndarray) -> bool:
        return bool(in_photo.sum() >= LINE_MIN_SEEN and line[in_photo].mean() >= LINE_TABLE_SHARE)

    inside = slice(1, size + 1)
    for k in range(1, size + 1):
        if is_table(table[k, inside], seen[k, inside]) or is_table(
            table[inside, k], seen[inside, k]
        ):
            return False
    sides = (
        (table[0, inside], seen[0, inside]),
        (table[-1, inside], seen[-1, inside]),
        (table[inside, 0], seen[inside, 0]),
        (table[inside, -1], seen[inside, -1]),
    )
    return sum(is_table(line, in_photo) for line, in_photo in sides) >= 3


def reaches_past_photo(location) -> bool:
    """Whether a cell of the frame lies outside the photo (its centre past the edge).

    For a kingdom whose tiles touch the edge that is a cut kingdom (``cut_off_sentence``); for
    one whose tiles stop short of it, a lattice of the wrong pitch or place. Either way no
    reading can see that cell.
    """
    return not cells_in_photo(location).all()


def where_in_photo(point: np.ndarray, shape: tuple[int, int]) -> Message:
    """'at the top left', 'at the right', 'in the middle', ... for a point in the photo."""
    h, w = shape
    across = min(2, max(0, int(3 * point[0] / w)))
    down = min(2, max(0, int(3 * point[1] / h)))
    return _PLACES[down][across]


# Where a kingdom lies in the photo, by thirds (top to bottom, left to right): whole phrases.
_PLACES = (
    (msg("at the top left"), msg("at the top"), msg("at the top right")),
    (msg("at the left"), msg("in the middle"), msg("at the right")),
    (msg("at the bottom left"), msg("at the bottom"), msg("at the bottom right")),
)


def reading_order(locations: list) -> list:
    """Kingdoms left to right, then top to bottom: rows of kingdoms whose centres are less than
    half a kingdom apart vertically, each row sorted by x."""
    if not locations:
        return []
    centres = [loc.corners.mean(axis=0) for loc in locations]
    heights = [np.ptp(loc.corners[:, 1]) for loc in locations]
    tolerance = 0.5 * float(median(heights))
    order = sorted(range(len(locations)), key=lambda i: centres[i][1])
    rows: list[list[int]] = []
    for i in order:
        if rows and centres[i][1] - centres[rows[-1][0]][1] < tolerance:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [locations[i] for row in rows for i in sorted(row, key=lambda i: centres[i][0])]
