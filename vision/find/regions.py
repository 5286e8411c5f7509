"""Candidate regions: blobs of things on the table, and each blob's outline as a few quadrilaterals.

Blobs come from the table model's joined mask, largest first. Kingdoms a few centimetres apart
can join into one blob there; ``split_blob`` takes them apart again along the table showing
between them (the unjoined mask, with only the narrow gaps between dominoes closed).

The blob's convex hull simplified to four corners (right for complete kingdoms under any
perspective), its minimum-area rectangle (right for ragged outlines, whose hull cuts corners),
each side re-fitted to the outline points along it, and the straightest run of outline along each
side (RANSAC; right for ragged kingdoms at a slant). The lattice decides between them.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.find.location import order_corners
from vision.find.table import MIN_KINGDOM_SHARE, TableModel

MAX_BLOBS = 8  # the largest blobs looked at: 4 kingdoms, cut-off ones, and some clutter

# Joins between kingdoms thinner than this (pixels of the table model's masks, 400 on the long
# side) give way when the table alone does not split a blob: a cloth's dot touching both.
BRIDGE_PX = 7

# Outline points a side's line is fitted to, at most (about; taken evenly along the side).
FIT_POINTS = 80


def candidate_blobs(model: TableModel, shape: tuple[int, int]) -> list[np.ndarray]:
    """Filled masks (uint8 0/255, ``shape``) of the blobs large enough to be a kingdom."""
    return _blobs(model.joined, shape)


def split_blob(model: TableModel, blob: np.ndarray, bridge_px: int = BRIDGE_PX) -> list[np.ndarray]:
    """The parts of ``blob`` (at ``blob``'s shape) that the table separates: kingdoms that the
    joined mask merged, or that touch through joins narrower than ``bridge_px``. Empty when it
    is one piece."""
    inside = _at_model_size(model, blob)
    # Close only gaps narrower than the gaps between dominoes (about a tenth of a cell).
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    pieces = cv2.morphologyEx(model.not_table, cv2.MORPH_CLOSE, kernel) & inside
    parts = _parts(pieces, blob.shape[:2])
    # Still one piece: kingdoms may touch through a speck of the table's pattern (a dot of a
    # cloth between them) or a thin thing. Thin joins give way to an opening.
    return parts or _parts(_opened(pieces, bridge_px), blob.shape[:2])


def open_necks(model: TableModel, blob: np.ndarray, neck_px: int) -> list[np.ndarray]:
    """The parts of ``blob`` joined by necks narrower than ``neck_px`` (pixels of the table
    model's masks), or empty. Unlike ``split_blob`` this opens the blob itself: a kingdom whose
    lake tiles fade into a blue cloth is in pieces in the table model, each too small to count,
    while the blob holds it whole."""
    return _parts(_opened(_at_model_size(model, blob), neck_px), blob.shape[:2])


def _at_model_size(model: TableModel, blob: np.ndarray) -> np.ndarray:
    h, w = model.not_table.shape
    return cv2.resize(blob, (w, h), interpolation=cv2.INTER_NEAREST)


def _opened(mask: np.ndarray, width_px: int) -> np.ndarray:
    """``mask`` without its joins narrower than ``width_px``."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width_px, width_px))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)


def _parts(mask: np.ndarray, shape: tuple[int, int]) -> list[np.ndarray]:
    """``mask``'s blobs big enough to be half a kingdom, at ``shape``, if there are two or more."""
    parts = _blobs(mask, shape, min_share=MIN_KINGDOM_SHARE / 2)
    return parts if len(parts) >= 2 else []


def largest_part(mask: np.ndarray, min_area: float) -> np.ndarray | None:
    """The largest connected part of ``mask`` (a new filled mask), None if under ``min_area``."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return None
    label = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[label, cv2.CC_STAT_AREA] < min_area:
        return None
    part = np.where(labels == label, 255, 0).astype(np.uint8)
    contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(part, contours, -1, 255, thickness=cv2.FILLED)
    return part


def _blobs(mask: np.ndarray, shape: tuple[int, int], min_share=MIN_KINGDOM_SHARE) -> list:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = [i + 1 for i in np.argsort(areas)[::-1] if areas[i] >= min_share * mask.size]
    blobs = []
    for label in order[:MAX_BLOBS]:
        blob = np.where(labels == label, 255, 0).astype(np.uint8)
        # Holes inside a kingdom (missing tiles) belong to it for the outline.
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(blob, contours, -1, 255, thickness=cv2.FILLED)
        blob = cv2.resize(blob, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
        blobs.append(np.where(blob > 127, 255, 0).astype(np.uint8))
    return blobs


def initial_quads(mask: np.ndarray) -> list[np.ndarray]:
    """Candidate corners (TL, TR, BR, BL) around the kingdom blob, sides fitted to its outline.

    Two candidates: the convex hull simplified to four corners (right for complete kingdoms,
    whatever the perspective) and the minimum-area rectangle (right for ragged outlines, whose
    hull cuts corners diagonally). The lattice decides between them.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    candidates = [cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)]
    for fraction in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            candidates.append(approx.reshape(4, 2).astype(np.float64))
            break
        if len(approx) < 4:
            break
    quads = []
    for quad in candidates:
        quad = order_corners(quad)
        for tolerance in (0.03, 0.015, 0.008):
            quad = _refit_sides(quad, contour, tolerance=tolerance * perimeter)
        quads.append(order_corners(quad))
    straightest = _straightest_sides(quads[0], contour)
    if straightest is not None:
        quads.append(straightest)
    return quads


def _straightest_sides(quad: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    """A third candidate for ragged kingdoms seen at a slant: along each side of ``quad``, the
    straight line that most outline points follow (RANSAC), which is a row of tile edges even
    when that row is short or set back; the lattice fit adds any row outside it later."""
    draws = _scattered(150 * 2 * 4).reshape(4, 150, 2)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = np.linalg.norm(b - a)
        direction = (b - a) / (length + 1e-9)
        normal = np.array([-direction[1], direction[0]])
        depth = (contour - a) @ normal  # >0 towards the inside for a clockwise quad
        near = contour[np.abs(depth) < 0.3 * length]
        if len(near) < 20:
            return None
        # 150 chords between scattered outline points, all at once (a pair of one point is
        # zero-length and dropped below).
        pairs = (draws[i] * len(near)).astype(int)
        p, q = near[pairs[:, 0]], near[pairs[:, 1]]
        chord = q - p
        norm = np.linalg.norm(chord, axis=1)
        chord = chord / np.maximum(norm, 1e-9)[:, None]
        usable = (norm >= 0.1 * length) & (np.abs(chord @ direction) >= np.cos(np.radians(25)))
        best_inliers, best_count = None, 0
        if usable.any():
            p, chord = p[usable], chord[usable]
            normals = np.stack([-chord[:, 1], chord[:, 0]], axis=1)  # (k, 2)
            across = np.abs(near @ normals.T - (p * normals).sum(axis=1))  # (points, k)
            counts = (across < 1.5).sum(axis=0)
            best = int(np.argmax(counts))  # the first of equals, as the loop kept
            best_inliers, best_count = across[:, best] < 1.5, int(counts[best])
        if best_inliers is None or best_count < 0.1 * length:
            return None
        vx, vy, x0, y0 = cv2.fitLine(near[best_inliers], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = [_intersect(*lines[i - 1], *lines[i], fallback=quad[i]) for i in range(4)]
    return order_corners(np.array(corners))


def _scattered(count: int) -> np.ndarray:
    """``count`` fixed numbers in [0, 1) that look random (a hash of their index): RANSAC's
    draws without numpy.random, whose import costs more than the search."""
    values = np.sin(np.arange(1, count + 1) * 12.9898) * 43758.5453
    return values - np.floor(values)


def _refit_sides(quad: np.ndarray, contour: np.ndarray, tolerance: float) -> np.ndarray:
    """Re-fit each side of ``quad`` as a line through the outline points lying along it."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        direction = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        normal = np.array([-direction[1], direction[0]])
        rel = contour - a
        along = rel @ direction
        across = np.abs(rel @ normal)
        length = np.linalg.norm(b - a)
        near = (across < tolerance) & (along > 0.05 * length) & (along < 0.95 * length)
        # Every few outline points along the side are plenty for the line; OpenCV's robust fit
        # costs in proportion to the points (a third of the finder's time with all of them).
        points = contour[near][:: max(1, int(near.sum()) // FIT_POINTS)]
        if len(points) >= 10:
            vx, vy, x0, y0 = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0]), np.array([vx, vy])))
        else:
            lines.append((a, direction))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        corners.append(_intersect(p1, d1, p2, d2, fallback=quad[i]))
    return np.array(corners)


def _intersect(p1, d1, p2, d2, fallback):
    matrix = np.array([d1, -d2]).T
    if abs(np.linalg.det(matrix)) < 1e-6:
        return fallback
    t = np.linalg.solve(matrix, p2 - p1)
    return p1 + t[0] * d1
