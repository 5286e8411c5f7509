"""Find the kingdoms in a photo: the stages of ``vision.find`` run in order.

    straightened already? → table model → blobs → candidate quadrilaterals per blob → lattice
    fit, best kept → homography refit on tile edges → N×N frame, placed over the tiles (not
    the table, not past the photo's edge) → kingdom decision (real tiles? complete or cut by
    the photo's edge? mostly table?) → kingdoms in reading order. Blobs that held no kingdom
    get a second look: the table model by the pixel network, the kingdoms found taken off it.

``find_kingdoms`` returns every complete kingdom; ``find_board`` the largest one.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from scoring.words import Joined, msg, nmsg
from vision.find.decision import (
    FLUSH_MIN_SUPPORT,
    FOUND_MIN_CELL_SPREAD,
    FOUND_MIN_EDGE_SHARE,
    SQUEEZE_ZONE,
    corners_past_photo,
    cut_off_sentence,
    lies_against_whole_kingdom,
    reaches_past_photo,
    reading_order,
    runs_on_to_edge,
    seams_verdict,
    stands_out_at_edge,
    tiles_seen,
    touches_border,
)
from vision.find.edges import frame_edge_support, gradient_images, line_seams
from vision.find.extent import tiles_past_edge, without_size_doubt
from vision.find.lattice import (
    NOT_A_GRID,
    SNAPPED_MIN_SUPPORT,
    fit_lattice,
    fit_straightened,
    size_inside,
    straightened_size,
)
from vision.find.location import (
    SIZES,
    BoardLocation,
    NoBoardFound,
    cells_in_photo,
    check_image,
    is_quad,
    location_from_corners,
    order_corners,
    shift_frame,
)
from vision.find.regions import (
    BRIDGE_PX,
    candidate_blobs,
    initial_quads,
    largest_part,
    open_necks,
    split_blob,
)
from vision.find.table import TableModel, TableModels

# Working resolution for the search: enough for 0.05-cell accuracy on a kingdom that fills a
# third of the frame, small enough for a few tens of milliseconds per stage.
WORK_LONG_SIDE = 800
# A fitted kingdom's frame must hold this share of its blob; less means the blob is more than
# one kingdom (neighbours joined), and it is split along the table between them.
MIN_BLOB_IN_FRAME = 0.75
# A fitted frame this many times the blob's area is a lattice of the wrong pitch: two kingdoms
# joined into one blob, counted as a few big cells (a kingdom with a missing row is ~1.25).
MAX_FRAME_OVER_BLOB = 1.6
# Whatever the blob, a frame this many times its area is no kingdom: a kingdom whose tiles fill
# 3×4 of its 5×5 cells is ~2.1; beyond, the lattice is of big cells over a box's print.
MAX_FRAME_OVER_TILES = 2.5
MAX_PER_BLOB = 4  # kingdoms peeled off one blob
PEEL_GROWN = 1.1  # a kingdom's frame, grown by this, is taken off its blob (its tiles may overhang)
# Joins (pixels of the table model's masks) a part that holds no kingdom is opened at, and the
# necks of a blob the table does not split: a cloth's dot between a kingdom and a score pad
# (development scene 8007, 8-14 px), a kingdom's neck to a sleeve (7661).
SECOND_BRIDGE_PX = 2 * BRIDGE_PX + 1
# Kingdoms smaller than this (long side, working pixels) are fitted in a crop of the photo
# enlarged to it, when the photo has the pixels (at least MIN_ZOOM times more).
FIT_LONG_SIDE = 360
MIN_ZOOM = 1.25
# A finished kingdom (a dozen dominoes or more) spans at least this many cells each way; fewer
# is a piece of one (a fragment split off a blob) or clutter, not a kingdom.
MIN_TILE_SPAN = 3
# A frame moves over tiles the table model missed when that puts at least this many more cells
# that look like tiles (table likeness under TILE_LIKENESS; the table itself is about 1) among
# its spare cells. Counted, not averaged: the missed row of a kingdom may hold holes.
TILE_LIKENESS = 0.2
UNSEEN_TILES_MIN = 2
# Else, when the spare cells' mean likeness is this much lower than where the frame is.
UNSEEN_TILES_MEAN_GAP = 0.25
# A 7×7 frame is a 5×5 kingdom's when every one of the 24 cells outside one 5×5 window of it
# looks at least this much like the table. Holes and tiles reach 0.6 about equally often, but
# only 1.5 % of tiles do (lab.synth hard development scenes), so no 7×7 kingdom has 24 such
# cells round its edge; on a cloth printed in checks about a tile wide, the lattice of a 5×5
# kingdom ran on over them into a 7×7 frame (lab.tables development scenes 9296, 9389, 9903).
# 0.55, not 0.6, since the likeness is measured at its own scale (``rectify.warp_at_scale``):
# scene 9296's ring, no longer aliased, measures 0.57 (0.62 before); 24 tiles that high are
# still out of reach of a 7×7 kingdom.
RING_TABLE_LIKENESS = 0.55
# A frame whose cells look this much like the table at least this often is no kingdom: on fresh
# lab.tables development scenes (9000-9999) the 1,934 frames of real kingdoms had at most 0.49
# of their cells so (a 5×5 kingdom framed 7×7: 24 of 49), the next 0.40; frames found where no
# kingdom is, 0.6 and 1.0 (and 0, 0.43, 0.48: those are not told apart by this).
TABLE_LIKE = 0.6
MAX_TABLE_LIKE_SHARE = 0.55
# The second look, by the pixel network: the kingdoms already found are taken off its masks with
# this much of a margin (their frames grown about their centres), and a kingdom found again that
# shares this much of a known one's frame is that one.
KNOWN_GROWN = 1.15
# A blob that keeps a part this big (of the smallest frame found in it) outside its kingdoms
# gets the second look too: what is left may be kingdoms whose holes show the cloth.
LEFT_IN_BLOB = 0.5
FRAMES_SHARED = 0.2
# A part of a blob (split along the table) this much inside a frame is held by it.
PART_IN_FRAME = 0.5
FRAME_PAST_EDGE = msg(
    "no kingdom found: the grid fitted to the tiles reaches past the photo's edge; take the photo"
    " from straight above with some table all round the kingdom, or tap its four corners"
)
NOT_TILES = msg(
    "no kingdom found: something stands out from the table, but it does not look like different"
    " tiles on a grid; take the photo from above, or tap the kingdom's corners"
)
MOSTLY_TABLE = msg(
    "no kingdom found: the only grid seen is mostly table, no tiles on it; take the photo from"
    " above with the whole kingdom in the frame, or tap the kingdom's four corners"
)


@dataclass(frozen=True)
class KingdomsFound:
    """Every complete kingdom in a photo, and the kingdoms cut by its edge.

    ``kingdoms``: in reading order (left to right, then top to bottom), corners in the photo's
    pixels. ``cut_off``: one sentence per kingdom cut by the photo's edge (not read).
    """

    kingdoms: tuple[BoardLocation, ...]
    cut_off: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def find_board(
    image: np.ndarray, size: int | None = None, corners: np.ndarray | None = None
) -> BoardLocation:
    """Locate the kingdom in a BGR photo. ``size`` forces 5 or 7; ``corners`` skips the search.

    With several kingdoms in the photo, the largest complete one, with a warning naming the
    others. Raises ``NoBoardFound`` when there is no complete kingdom to be seen.
    """
    if corners is not None:
        check_image(image)
        return _given_corners(image, size, corners)
    found = find_kingdoms(image, size)
    largest = max(found.kingdoms, key=lambda k: abs(cv2.contourArea(k.corners.astype(np.float32))))
    notes = list(found.warnings)
    others = len(found.kingdoms) - 1
    if others:
        notes.append(
            msg(
                "two kingdoms in the photo: reading the largest; photograph one at a time, or "
                "read them all at once (--kingdoms all)"
            )
            if others == 1
            else nmsg(
                "{n} kingdom in the photo: reading the largest; photograph one at a time, or "
                "read them all at once (--kingdoms all)",
                "{n} kingdoms in the photo: reading the largest; photograph one at a time, or "
                "read them all at once (--kingdoms all)",
                others + 1,
                n=others + 1,
            )
        )
    notes += found.cut_off
    if not notes:
        return largest
    return location_from_corners(
        largest.corners,
        largest.size,
        largest.warnings + tuple(notes),
        straightened=largest.straightened,
        image_shape=largest.image_shape,
        tile_span=largest.tile_span,
        table_likeness=largest.table_likeness,
    )


def _straightened(small: np.ndarray, scale: float, size: int, shape) -> BoardLocation:
    """The location of an image taken as a straightened board: the whole image, or the frame
    its tile edges sit on when it is a tight crop with a strip of table round an askew kingdom
    (``fit_straightened``)."""
    corners = fit_straightened(small, size) / scale
    return location_from_corners(corners, size, straightened=True, image_shape=shape)


def find_kingdoms(
    image: np.ndarray,
    size: int | None = None,
    on_found: Callable[[BoardLocation], None] | None = None,
) -> KingdomsFound:
    """Every complete kingdom in a BGR photo, each its own 5×5/7×7 unless ``size`` is given.

    ``on_found`` is called with each kingdom of the answer as soon as the search has found it,
    while it goes on with the rest of the photo (the very objects the answer holds); not for a
    board that fills the image. A caller can begin reading a kingdom then.
    Raises ``NoBoardFound`` when no complete kingdom is seen (the message names cut-off ones).
    """
    check_image(image)
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size}")
    shape = image.shape[:2]
    h, w = shape
    full = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    scale = min(1.0, WORK_LONG_SIDE / max(shape))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)

    straight_size = straightened_size(gradient_images(small))
    if straight_size is not None and tiles_seen(small, full * scale, size or straight_size):
        return KingdomsFound((_straightened(small, scale, size or straight_size, shape),))

    looks = TableModels(small)
    model = looks.by_colour
    blobs = candidate_blobs(model, small.shape[:2])
    about_square = 0.8 <= w / h <= 1.25
    if about_square and (not blobs or blobs[0].mean() > 0.8 * 255):
        # No table to be seen around it: a tightly cropped, already straightened board, if the
        # whole image shows a lattice of tiles (a blank or noisy image does not).
        found = size or size_inside(small, full * scale)
        if tiles_seen(small, full * scale, found):
            return KingdomsFound((_straightened(small, scale, found, shape),))
        raise NoBoardFound(
            msg(
                "no kingdom found: the image shows no grid of tiles; take a photo of the whole "
                "kingdom from above"
            )
        )
    if not blobs:
        raise NoBoardFound(
            msg(
                "no kingdom found: nothing stands out from the table; take the photo from above "
                "with the whole kingdom in the frame, or tap its four corners"
            )
        )

    # One helper thread (none when the reader keeps to one thread) fits the blobs ahead of the
    # search, and then makes the pixel network's table model, which is asked for whenever a
    # blob holds no kingdom by colour: begun from the first such blob on.
    helper = _helper_thread()
    photo = _Photo(image, small, scale)
    try:
        photo.fit_ahead(blobs[1:], size, helper)
        found = _search_blobs(
            photo, looks, model, blobs, size, lambda: looks.begin_by_texture(helper), on_found
        )
        photo.searched = True  # what is left to fit ahead is not asked for
        if found.failed_blobs:
            found = _again_by_texture(photo, looks, found, size, on_found)
    finally:
        photo.searched = True
        if helper is not None:
            helper.shutdown(wait=False, cancel_futures=True)
    cut_off = [sentence for _, sentence in found.cut]
    if not found.complete:
        if cut_off:
            raise NoBoardFound(
                msg(
                    "no kingdom found whole in the photo: {cut_off}. Take the photo with the "
                    "whole kingdom and some table all round it in the frame, or tap the "
                    "kingdom's four corners",
                    cut_off=Joined(tuple(cut_off)),
                )
            )
        raise found.first_error or NoBoardFound(
            msg(
                "no kingdom found: nothing on the table shows a grid of tiles; take the photo "
                "from above, or tap the kingdom's four corners"
            )
        )
    return KingdomsFound(tuple(reading_order(found.complete)), tuple(cut_off))


class _Search(NamedTuple):
    """What the blobs of one table model held: complete kingdoms, kingdoms cut by the photo's
    edge (with the sentence naming each), how many blobs held neither or kept a part the size
    of a kingdom outside the kingdoms they held, and why the first failed."""

    complete: list[BoardLocation]
    cut: list[tuple[BoardLocation, str]]
    failed_blobs: int
    first_error: NoBoardFound | None


def _search_blobs(
    photo: _Photo,
    looks: TableModels,
    model: TableModel,
    blobs,
    size: int | None,
    on_failed_blob: Callable[[], None] | None = None,
    on_found: Callable[[BoardLocation], None] | None = None,
) -> _Search:
    """The kingdom decision for everything ``model`` shows in each blob, largest blob first.
    ``on_failed_blob`` is called whenever a blob is counted in ``failed_blobs``, ``on_found``
    with each complete kingdom as it is found."""
    image, scale = photo.image, photo.scale
    shape = image.shape[:2]
    complete: list[BoardLocation] = []
    cut: list[tuple[BoardLocation, str]] = []
    errors: list[NoBoardFound] = []
    failed_blobs = 0
    for blob in blobs:
        if any(_inside(location, blob, scale) for location in complete):
            continue  # a piece of a kingdom already found
        try:
            kingdoms = _kingdoms_in_blob(photo, model, blob, size)
        except NoBoardFound as err:
            failed_blobs += 1
            if on_failed_blob is not None:
                on_failed_blob()
            errors.append(err)
            continue
        if _keeps_more(blob, [frame for frame, *_ in kingdoms]):
            failed_blobs += 1  # two kingdoms with holes, joined, are left when two are peeled
            if on_failed_blob is not None:
                on_failed_blob()
        for frame, n, span, warnings, touches in kingdoms:
            location = location_from_corners(
                frame / scale, n, warnings, image_shape=shape, tile_span=span
            )
            if not (touches and reaches_past_photo(location)):
                # Tiles at the photo's edge in a frame that reaches past it are a kingdom cut
                # by the edge, not one whose spare row is table: moved inwards, a cut
                # neighbour's frame took in a column of the kingdom beside it.
                location = _onto_unseen_tiles(image, location)
            if size is None:
                location = _five_inside_seven(image, location)
            past_edge, sentence = False, None
            if touches:
                past_edge, sentence = _cut_by_edge(photo, looks, model, location, frame, n, span)
            if sentence and size is None and n == 7 and not past_edge:
                # A 5×5 kingdom framed 7×7 (its tiles spanning six cells: glare or a drifted
                # domino beside it) in a blob that reaches the edge through something else:
                # the 7×7 frame past the photo does not make it cut; its 5×5 frame decides.
                location, sentence = _five_not_cut(photo, looks, model, location, sentence)
            if sentence:
                cut.append((location, sentence))
                continue
            if reaches_past_photo(location) and size is None:
                location = _five_inside(image, location, PAST_PHOTO) or location
            if reaches_past_photo(location):
                errors.append(NoBoardFound(FRAME_PAST_EDGE))
                continue
            location, why_not = _final_checks(photo, location, size)
            if why_not is NOT_TILES:
                # Or a 5×5 kingdom framed 7×7, its rim mostly table (as past the photo's edge).
                five = _five_inside(image, location, NO_TILES_ROUND)
                if five is not None:
                    five, five_why_not = _final_checks(photo, five, size)
                    if five_why_not is None:
                        location, why_not = five, None
            if why_not is not None:
                errors.append(NoBoardFound(why_not))
                continue
            complete.append(location)
            if on_found is not None:
                on_found(location)
    return _Search(complete, cut, failed_blobs, errors[0] if errors else None)


def _five_not_cut(
    photo: _Photo, looks: TableModels, model: TableModel, location: BoardLocation, sentence: str
) -> tuple[BoardLocation, str | None]:
    """For a 7×7 frame past the photo's edge, named cut (``cut_off_sentence``): the 5×5 frame
    inside it (``_five_inside``) with no sentence when that one, judged as any frame in a blob
    at the edge is, is not cut; else ``location`` and its ``sentence``.

    A blob touching the photo's edge through clutter (a score pad lying on the edge, parted
    from the kingdom by the table: lab.synth camera development scene 7627) carries its touch
    to the kingdom; a 7×7 frame round a 5×5 kingdom whose tiles span six cells then reaches past
    the photo and was named cut. A cut kingdom's own tiles reach the edge: so may the 5×5
    window's (``stands_out_at_edge``), or they run on past it into the edge, or fall short of
    it; then its sentence stays.
    """
    if not corners_past_photo(location):
        return location, sentence
    five = _five_inside(photo.image, location, PAST_PHOTO)
    if five is None or reaches_past_photo(five):
        return location, sentence
    frame = five.corners * photo.scale
    if stands_out_at_edge(model.not_table, frame * _mask_scale(model, photo.small), 5):
        return location, sentence  # its own tiles reach the edge: what touches it is not clutter
    if _cut_by_edge(photo, looks, model, five, frame, 5, five.tile_span)[1] is not None:
        return location, sentence
    return five, None


def _cut_by_edge(
    photo: _Photo,
    looks: TableModels,
    model: TableModel,
    location: BoardLocation,
    frame: np.ndarray,
    n: int,
    span,
) -> tuple[bool, str | None]:
    """For a kingdom in a blob that touches the photo's edge, framed by the N×N ``frame``
    (``photo.small`` pixels, tiles ``span``) and placed at ``location``: whether tiles run on
    past the frame into the edge, and ``cut_off_sentence`` (None: not cut)."""
    small = photo.small
    past_edge = tiles_past_edge(small, frame, n, looks.stands_out) or _cut_rows_run_on(
        model, small, frame, n, span
    )
    support = frame_edge_support(small, frame, n)
    seams = _seams(small, frame, n, support)
    return past_edge, cut_off_sentence(location, True, past_edge, support, seams)


def _seams(small: np.ndarray, frame: np.ndarray, n: int, support: float) -> str | None:
    """``seams_verdict`` for the N×N ``frame`` (``small`` pixels) whose edge ``support`` is
    under FLUSH_MIN_SUPPORT (a squeezed frame, or a soft photo's faint seams); None, not
    measured, for one the support already passes. Its sides within SQUEEZE_ZONE of the photo's
    edge, or past it, are open: no outline shows there."""
    if support >= FLUSH_MIN_SUPPORT:
        return None
    vertical, line, offsets, strengths = line_seams(small, frame, n)
    frame = np.asarray(frame, dtype=np.float64).reshape(4, 2)
    cell = np.sqrt(abs(cv2.contourArea(frame.astype(np.float32)))) / n
    h, w = small.shape[:2]
    # The frame's corners TL, TR, BR, BL are the lattice's (0, 0), (N, 0), (N, N), (0, N): its
    # vertical lines 0 and N are the sides TL-BL and TR-BR, its horizontal ones TL-TR, BL-BR.
    sides = {(True, 0): (0, 3), (True, n): (1, 2), (False, 0): (0, 1), (False, n): (3, 2)}
    open_sides = np.zeros(len(line), bool)
    for k, key in enumerate(zip(vertical.tolist(), line.tolist(), strict=True)):
        if key in sides:
            x, y = frame[list(sides[key])].mean(axis=0)
            open_sides[k] = min(x, y, w - x, h - y) < SQUEEZE_ZONE * cell
    return seams_verdict(vertical, line, offsets, strengths, open_sides)


def _final_checks(
    photo: _Photo, location: BoardLocation, size: int | None
) -> tuple[BoardLocation, str | None]:
    """The frame after the last checks (moved off the table if a line of it is), and why it is
    no kingdom: ``MOSTLY_TABLE``, ``NOT_TILES``, or None when it is one."""
    image = photo.image
    location = _off_the_table(image, _with_table_likeness(photo, location))
    if _mostly_table(location, size_given=size is not None):
        return location, MOSTLY_TABLE
    # A size given may frame a 5×5 kingdom 7×7: a ring of table, few edges.
    if size is None and not tiles_seen(
        image, location.corners, location.size, FOUND_MIN_EDGE_SHARE, FOUND_MIN_CELL_SPREAD
    ):
        return location, NOT_TILES
    return location, None


def _again_by_texture(
    photo: _Photo,
    looks: TableModels,
    first: _Search,
    size: int | None,
    on_found: Callable[[BoardLocation], None] | None = None,
) -> _Search:
    """``first`` and the kingdoms the pixel network's table model shows where colour found none.

    Blobs that held no kingdom by colour may be a kingdom in pieces: lake tiles on a blue cloth
    are the cloth's colour, so the kingdom falls apart into fragments too small to fit. The
    network (``table_model(by_texture=True)``) keeps those tiles, but its wider view also sees
    tiles in a checked cloth beside a kingdom and grows a halo round it; so it is asked only
    here, with the kingdoms already found (complete or cut) taken off its masks. Its blobs are
    all searched again: one it sees as colour did may still fit now (development scene 9737, a
    kingdom with holes and lake tiles on a blue cloth). ``on_found`` is called with each
    kingdom it adds.
    """
    model = looks.by_texture
    known = first.complete + [location for location, _ in first.cut]
    k = _mask_scale(model, photo.small) * photo.scale  # mask pixels per photo pixel
    not_table, joined = model.not_table.copy(), model.joined.copy()
    for location in known:
        grown = np.round(_grown(location.corners, KNOWN_GROWN) * k).astype(np.int32)
        for mask in (not_table, joined):
            cv2.fillConvexPoly(mask, grown, 0)
    model = TableModel(not_table, joined)
    again = _search_blobs(photo, looks, model, candidate_blobs(model, photo.small.shape[:2]), size)
    new = [
        location
        for location in again.complete
        if not any(_frames_overlap(location, other) for other in known)
    ]
    if on_found is not None:
        for location in new:
            on_found(location)
    cut = [
        (location, sentence)
        for location, sentence in again.cut
        if not any(_frames_overlap(location, other) for other in known)
    ]
    return _Search(
        first.complete + new,
        first.cut + cut,
        again.failed_blobs,
        first.first_error or again.first_error,
    )


def _grown(frame: np.ndarray, factor: float) -> np.ndarray:
    """``frame``'s corners moved away from its centre: ``factor`` times as wide and high."""
    centre = frame.mean(axis=0)
    return centre + (frame - centre) * factor


def _keeps_more(blob: np.ndarray, frames: list[np.ndarray]) -> bool:
    """Whether ``blob`` keeps a part at least LEFT_IN_BLOB of the smallest of ``frames`` (in
    its pixels) outside them, each grown as ``_peel`` grows them."""
    rest = blob.copy()
    for frame in frames:
        cv2.fillConvexPoly(rest, np.round(_grown(frame, PEEL_GROWN)).astype(np.int32), 0)
    smallest = min(cv2.contourArea(frame.astype(np.float32)) for frame in frames)
    return largest_part(rest, LEFT_IN_BLOB * smallest) is not None


def _frames_overlap(a: BoardLocation, b: BoardLocation) -> bool:
    """Whether two kingdoms' frames share more than FRAMES_SHARED of the smaller one."""
    fa, fb = a.corners.astype(np.float32), b.corners.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(fa, fb)
    smaller = min(abs(cv2.contourArea(fa)), abs(cv2.contourArea(fb)))
    return smaller > 0 and shared > FRAMES_SHARED * smaller


def _given_corners(image: np.ndarray, size: int | None, corners) -> BoardLocation:
    """The location for corners the user gave, if they enclose a lattice of tiles."""
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size}")
    corners = np.asarray(corners, dtype=np.float64)
    if corners.shape not in ((4, 2), (8,)) or not np.isfinite(corners).all():
        raise NoBoardFound(
            msg(
                "no kingdom found: the corners given are not four points (x, y) in the photo; "
                "tap the kingdom's four corners again"
            )
        )
    corners = order_corners(corners.reshape(4, 2))
    if size is None and is_quad(corners):
        size = size_inside(image, corners)
    if not is_quad(corners) or not tiles_seen(image, corners, size):
        raise NoBoardFound(
            msg(
                "no kingdom found: the corners given enclose no grid of tiles; tap the four outer "
                "corners of the kingdom"
            )
        )
    return location_from_corners(corners, size, image_shape=image.shape[:2])


def _mask_scale(model, small: np.ndarray) -> float:
    """The table model's masks' pixels per ``small`` pixel."""
    return model.not_table.shape[1] / small.shape[1]


def _kingdoms_in_blob(small: _Photo, model, blob, size):
    """[(frame, size, tile_span, warnings, touches_border)] for the kingdom(s) in one blob."""
    try:
        fitted = small.fit(blob, size)
    except NoBoardFound:
        fitted = None
    if (
        fitted is not None
        and not fitted[5]
        and _blob_in_frame(blob, fitted[0]) >= MIN_BLOB_IN_FRAME
        and (
            size is not None  # a frame bigger than the tiles was asked for
            or _frame_over_blob(fitted[0], blob) <= MAX_FRAME_OVER_BLOB
        )
    ):
        # One frame over the whole blob, a kingdom cut by the photo's edge (not read), and the
        # table runs through the blob: a kingdom and a neighbour cut by the edge, or a sleeve,
        # laid a little apart, one lattice fitted over both at about their pitch (on a printed
        # grid mat). The parts' own kingdoms, when they hold any, are those. A complete frame
        # is kept: the table also parts one kingdom's tiles where its holes and lakes show it,
        # and a window of its lattice then fits one part (development scene 9684 of grid_mat).
        parts = split_blob(model, blob) if _cut_as_fitted(small, fitted) else []
        if sum(_blob_in_frame(part, fitted[0]) > PART_IN_FRAME for part in parts) >= 2:
            apart = _kingdoms_in_parts(small, model, parts, size, touches_border(blob))
            if apart:
                return apart
        return [fitted[:5]]
    # Less than the blob fits one kingdom: neighbours joined into one blob. Take them apart
    # along the table between them, and peel each kingdom found off what is left. A part of a
    # blob at the photo's edge may be the inner piece of a kingdom cut by it.
    touches = touches_border(blob)
    found = _kingdoms_in_parts(small, model, split_blob(model, blob), size, touches)
    if not found:
        # Nothing the table separates: a kingdom in pieces itself (lake tiles on a blue cloth)
        # joined to a sleeve by a neck of the blob. The table does not run between the parts,
        # so a part away from the photo's edge is no inner piece of a kingdom cut by it; but the
        # opening may shave a row off it, so only tiles filling their frame count.
        for part in open_necks(model, blob, SECOND_BRIDGE_PX):
            kingdoms = _kingdoms_in_parts(
                small, model, [part], size, touches_border(part), again=False
            )
            found += [
                (frame, n, span, warnings, cut)
                for frame, n, span, warnings, cut in kingdoms
                if span == (0, n, 0, n)
            ]
    return found or _peel(small, blob, size, fitted)


def _cut_as_fitted(photo: _Photo, fitted) -> bool:
    """Whether the kingdom ``fitted`` (as ``_Photo.fit`` gives it) would be named cut by the
    photo's edge from its frame and tiles alone (``cut_off_sentence``, without the costlier
    look past its sides): a kingdom that is not read."""
    frame, n, span, _, touches, _ = fitted
    if not touches:
        return False
    location = location_from_corners(
        frame / photo.scale, n, image_shape=photo.image.shape[:2], tile_span=span
    )
    support = frame_edge_support(photo.small, frame, n)
    seams = _seams(photo.small, frame, n, support)
    return cut_off_sentence(location, True, False, support, seams) is not None


def _kingdoms_in_parts(small: _Photo, model, parts, size, touches, again=True):
    """The kingdoms in the parts of a blob, as ``_kingdoms_in_blob`` gives them."""
    found = []
    for part in parts:
        try:
            kingdoms = _peel(small, part, size)
        except NoBoardFound:
            # Clutter, or a fragment of a kingdom: the other parts may be kingdoms. Or a
            # kingdom still joined to a score pad by a cloth's dot wider than the split's
            # bridges: such a part is split once more, at about twice their width.
            if again:
                pieces = split_blob(model, part, SECOND_BRIDGE_PX)
                found += _kingdoms_in_parts(small, model, pieces, size, touches, again=False)
            continue
        # A part whose tiles fall short of its frame by two rows or more is a fragment of a
        # kingdom (lake tiles on a blue cloth split it): where its frame lies would be a guess.
        # In a part split off a second time (a hand's palm off its fingers' cards), a kingdom
        # must also show tile edges clearly both ways, as one snapped inside a blob must: the
        # stripes of fingers show them one way.
        found += [
            (frame, n, span, warnings, cut or touches)
            for frame, n, span, warnings, cut in kingdoms
            if min(span[1] - span[0], span[3] - span[2]) >= n - 1
            and (again or frame_edge_support(small.small, frame, n) >= SNAPPED_MIN_SUPPORT)
        ]
    return found


def _cut_rows_run_on(model, small: np.ndarray, frame: np.ndarray, n: int, span) -> bool:
    """Whether what stands out runs on from the N×N ``frame`` (``small`` pixels) to the photo's
    edge (``runs_on_to_edge``) as the cut rows of a kingdom whose inner part was framed.

    Not when the tiles fill the frame (``span``, their rows and columns in it), the frame sits
    on their seams (``frame_edge_support`` at least FLUSH_MIN_SUPPORT) and what runs on can only
    be a neighbour lying against it (``lies_against_whole_kingdom``: lab.synth grid_mat
    development scenes 9378 and 9492, support 0.75 and 0.9). Tiles short of their frame may be
    a kingdom of its size framed a row off, its last row running on, and so may a frame off
    its seams (lab.tables development scene 7673, a kingdom cut by the edge, support 0.6): that
    run counts as it is.
    """
    mask_frame = frame * _mask_scale(model, small)
    if not runs_on_to_edge(model.not_table, mask_frame, n):
        return False
    whole = tuple(span) == (0, n, 0, n)
    whole = whole and frame_edge_support(small, frame, n) >= FLUSH_MIN_SUPPORT
    return not (whole and lies_against_whole_kingdom(model.not_table, mask_frame, n))


def _peel(small: _Photo, blob, size, fitted=None):
    """Kingdoms in ``blob`` one at a time: fit one, remove its frame, fit what is left."""
    found, blob = [], blob.copy()
    for _ in range(MAX_PER_BLOB):
        try:
            if fitted is None:
                fitted = small.fit(blob, size)
            if size is None and _frame_over_blob(fitted[0], blob) > MAX_FRAME_OVER_TILES:
                raise NoBoardFound(NOT_A_GRID)  # a lattice of big cells over a box's print
        except NoBoardFound:
            if not found:
                raise
            break
        found.append(fitted[:5])
        frame = fitted[0]
        cv2.fillConvexPoly(blob, np.round(_grown(frame, PEEL_GROWN)).astype(np.int32), 0)
        remaining = largest_part(blob, min_area=0.3 * cv2.contourArea(frame.astype(np.float32)))
        if remaining is None:
            break
        blob, fitted = remaining, None
    return found


def reading_threads() -> int:
    """Threads the finder shares its work among: 2, or 1 on a one-core machine or when OpenCV
    is held to one thread (``cv2.setNumThreads(1)``, as the lab's evaluations do to measure per
    core)."""
    return 2 if cv2.getNumThreads() >= 2 and (os.cpu_count() or 1) >= 2 else 1


def _helper_thread() -> ThreadPoolExecutor | None:
    """The finder's one helper thread, or None when it keeps to one (``reading_threads``)."""
    return ThreadPoolExecutor(1, "find_helper") if reading_threads() >= 2 else None


class _Photo:
    """The decoded photo, its working-size copy ``small``, small's scale to the photo, and the
    fits (``_fit``) and table likenesses made in it so far.

    One search fits some blobs more than once: a blob that held no kingdom is split, its parts
    tried, and is then peeled, which fits it whole again; a second look may give a part again.
    A fit depends only on the blob's pixels and the size asked for, so each is made once; and
    so can be made ahead, in a helper thread (``fit_ahead``).
    """

    def __init__(self, image: np.ndarray, small: np.ndarray, scale: float) -> None:
        self.image, self.small, self.scale = image, small, scale
        # Each fit's answer (a tuple or the NoBoardFound raised), made by whichever thread
        # asked first: the search's, or the helper fitting blobs ahead (``fit_ahead``).
        self._fits: dict[tuple, Future] = {}
        self._fits_lock = threading.Lock()
        self.searched = False  # set when the search is over: no more fitting ahead
        self._likenesses: dict[tuple, Future] = {}  # table_likeness by size and homography

    def fit(self, blob: np.ndarray, size: int | None):
        """``_fit(self, blob, size)``, made once per blob and size; ``NoBoardFound`` as it."""
        fitted = self._made_once(blob, size).result()
        if isinstance(fitted, NoBoardFound):
            raise fitted
        frame, *rest = fitted
        return (frame.copy(), *rest)  # the caller's own frame, the one remembered untouched

    def fit_ahead(self, blobs, size: int | None, helper: Executor | None) -> None:
        """Fit ``blobs`` in the ``helper`` thread, last first, each one the search has not
        begun, while the search goes through them first to last; and measure the table
        likeness of each frame fitted, as the search's final checks will ask for it.

        A fit depends only on the blob's pixels and the size, so whichever thread makes it,
        the search gets the same answer at the same point, and decides as it would alone.
        """
        if helper is None:
            return
        try:
            for blob in reversed(blobs):
                helper.submit(self._fit_ahead, blob, size)
        except RuntimeError:  # the helper is gone: the search fits every blob itself
            return

    def _fit_ahead(self, blob: np.ndarray, size: int | None) -> None:
        if self.searched:
            return
        fitted = self._made_once(blob, size).result()
        if isinstance(fitted, NoBoardFound) or self.searched:
            return
        # The table likeness its frame is checked with when the fit is the blob's kingdom as
        # it stands (``_final_checks``).
        frame, n = fitted[:2]
        location = location_from_corners(frame / self.scale, n, image_shape=self.image.shape[:2])
        self.table_likeness(location.homography, n)

    def table_likeness(self, homography: np.ndarray, size: int) -> np.ndarray | None:
        """``vision.holes.table_likeness`` of the photo for this frame, made once (by the
        search, or ahead by the helper fitting blobs); the caller's own copy."""
        from vision.holes import table_likeness

        key = (size, homography.tobytes())
        likeness = self._once(self._likenesses, key, table_likeness, self.image, homography, size)
        likeness = likeness.result()
        return None if likeness is None else likeness.copy()

    def _once(self, made: dict[tuple, Future], key: tuple, make, *args) -> Future:
        """``make(*args)`` as a Future, made here unless another thread made or is making it;
        a NoBoardFound raised is its result."""
        with self._fits_lock:
            future = made.get(key)
            if future is not None:
                return future
            future = made[key] = Future()
        try:
            future.set_result(make(*args))
        except NoBoardFound as error:
            future.set_result(error)
        except BaseException as error:  # to whoever waits for it
            future.set_exception(error)
        return future

    def _made_once(self, blob: np.ndarray, size: int | None) -> Future:
        """The fit of ``blob``: made here unless another thread made or is making it."""
        x, y, w, h = cv2.boundingRect(blob)  # every pixel of the blob lies in it
        key = (size, blob.shape, x, y, w, h, blob[y : y + h, x : x + w].tobytes())
        return self._once(self._fits, key, _fit, self, blob, size)


def _fit(photo: _Photo, blob, size):
    """(frame, size, tile_span, warnings, touches_border, overflow) of the kingdom in ``blob``;
    frame in ``photo.small`` pixels. Asked through ``photo.fit``, which makes each fit once.

    A kingdom small in the working image (four on a table) is fitted in a crop of the photo at
    FIT_LONG_SIDE pixels, as far as the photo's own resolution allows: more pixels per cell.
    """
    x, y, w, h = cv2.boundingRect(blob)
    zoom = min(FIT_LONG_SIDE / max(w, h), 1 / photo.scale)  # photo pixels cap it
    if zoom < MIN_ZOOM:
        view, view_blob, to_small = photo.small, blob, None
    else:
        # Wider crops (a cell of table all round, for the lattice to grow into) read more
        # kingdoms cut by the frame as whole on development scenes: kept narrow.
        pad = int(0.15 * max(w, h)) + 2
        sh, sw = blob.shape
        x0, y0, x1, y1 = (
            max(0, x - pad),
            max(0, y - pad),
            min(sw, x + w + pad),
            min(sh, y + h + pad),
        )
        fx0, fy0 = int(x0 / photo.scale), int(y0 / photo.scale)
        fx1, fy1 = int(np.ceil(x1 / photo.scale)), int(np.ceil(y1 / photo.scale))
        crop = photo.image[fy0:fy1, fx0:fx1]
        k = zoom * photo.scale  # view pixels per photo pixel
        size_px = (max(16, round((fx1 - fx0) * k)), max(16, round((fy1 - fy0) * k)))
        view = cv2.resize(
            crop, size_px, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
        )
        view_blob = cv2.resize(blob[y0:y1, x0:x1], size_px, interpolation=cv2.INTER_NEAREST)
        kx, ky = size_px[0] / (fx1 - fx0), size_px[1] / (fy1 - fy0)
        to_small = (np.array([kx, ky]), np.array([fx0, fy0]), photo.scale)
    # A blob whose enlarged crop shows no kingdom is not fitted again in the working image: on
    # lab.tables development scenes 9000-9099 and negatives 9100-9199 that retry found a
    # lattice for 6 blobs and never a kingdom the crop had missed, and on a table photo it was
    # the clutter's second failed lattice search.
    frame, n, span, warnings, overflow = _fit_in(view, view_blob, size)
    if to_small is not None:
        per_pixel, offset, scale = to_small
        frame = (frame / per_pixel + offset) * scale
    return frame, n, span, warnings, touches_border(blob), overflow


def _fit_in(view: np.ndarray, blob: np.ndarray, size: int | None):
    """``fit_lattice`` in ``view``, and the kingdom decision on its frame."""
    frame, n, span, warnings, overflow = fit_lattice(view, blob, initial_quads(blob), size)
    rows, cols = span[1] - span[0], span[3] - span[2]
    if min(rows, cols) < MIN_TILE_SPAN and not touches_border(blob):
        raise NoBoardFound(
            msg(
                "no kingdom found: what stands out holds too few tiles for a finished kingdom; "
                "take the photo from above with the whole kingdom in view, or tap its four corners"
            )
        )
    if not tiles_seen(view, frame, n):
        raise NoBoardFound(NOT_TILES)
    return frame, n, span, warnings, overflow


def _blob_in_frame(blob: np.ndarray, frame: np.ndarray) -> float:
    """The share of ``blob``'s pixels inside the frame (grown by a tenth each way)."""
    inside = np.zeros(blob.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(_grown(frame, 1.1)).astype(np.int32), 255)
    total = np.count_nonzero(blob)
    return np.count_nonzero(blob & inside) / total if total else 0.0


def _frame_over_blob(frame: np.ndarray, blob: np.ndarray) -> float:
    """The frame's area over the blob's (both in working pixels)."""
    return cv2.contourArea(frame.astype(np.float32)) / max(np.count_nonzero(blob), 1)


def _inside(location: BoardLocation, blob: np.ndarray, scale: float) -> bool:
    """Whether most of ``blob`` lies in the frame of a kingdom already found."""
    return _blob_in_frame(blob, location.corners * scale) > 0.6


def _onto_unseen_tiles(image: np.ndarray, location: BoardLocation) -> BoardLocation:
    """A frame bigger than the tiles seen, moved over tiles the table model missed.

    Tiles the colour of the table (beige swamps on cork, lake on a blue cloth) are missing from
    the blob, and the lattice's growth may not find them either; the frame's spare rows then go
    to one side by rule. The placement with the most spare cells unlike the table around the
    kingdom (``vision.holes.table_likeness``) covers them, when it has clearly more; failing
    that, the one whose spare cells look clearly least like the table. A kingdom really smaller
    than its frame shows table on every side, and keeps its frame.
    """
    from vision.holes import table_likeness

    span, n = location.tile_span, location.size
    if span is None or (span[1] - span[0], span[3] - span[2]) == (n, n):
        return location
    row0, row1, col0, col1 = span
    placements, here = [], None
    for down in range(row1 - n, row0 + 1):
        for right in range(col1 - n, col0 + 1):
            moved = shift_frame(location, down, right) if (down, right) != (0, 0) else location
            likeness = table_likeness(image, moved.homography, n)
            if likeness is None:
                return location
            r0, r1, c0, c1 = moved.tile_span
            spare = np.ones((n, n), bool)
            spare[r0:r1, c0:c1] = False
            # A cell beyond the photo's edge shows no tile (the warp fills it black, unlike any
            # table); the kingdom's tiles stopped short of the edge, so it counts as table.
            seen = np.where(cells_in_photo(moved), likeness, 1.0)
            placement = _Placement(
                dataclasses.replace(moved, table_likeness=likeness),  # measured: not again
                likeness,
                tile_like=int((seen[spare] < TILE_LIKENESS).sum()),
                mean_likeness=float(seen[spare].mean()),
                one_way=down == 0 or right == 0,
            )
            placements.append(placement)
            if (down, right) == (0, 0):
                here = placement
    best = max(placements, key=lambda p: p.tile_like)
    if best.tile_like - here.tile_like >= UNSEEN_TILES_MIN:
        grown = _grown_over_tiles(best.location.tile_span, best.likeness)
        return dataclasses.replace(best.location, tile_span=grown)
    # Tiles much like the table (lake on a blue cloth) fall under TILE_LIKENESS nowhere, but
    # spare cells over them still look clearly less like the table than plain table does. Only
    # a move one way, and the tile span is not grown: if the kingdom is really smaller than its
    # frame, the castle may still move it.
    least = min((p for p in placements if p.one_way), key=lambda p: p.mean_likeness)
    if here.mean_likeness - least.mean_likeness >= UNSEEN_TILES_MEAN_GAP:
        return least.location
    return here.location


def refit_without_side(
    image: np.ndarray, location: BoardLocation, move: tuple[int, int]
) -> BoardLocation | None:
    """The lattice fitted again to the tiles of ``location``'s frame less its line of cells on
    the side ``move`` drops (``vision.holes.open_sides``: a side that reads as table), the frame
    kept N×N; None when that gives no frame the tiles fill, or one past the photo's edge.

    A frame can sit on a lattice of the wrong pitch or slant: a checked cloth's squares about a
    tile wide carried its edge a column out over the table, and its cells, a seventh too wide,
    left the kingdom's last column out on the other side (lab.synth camera development scene
    7529). Moving it a cell brings in table, not tiles; fitted to the tiles alone, the lattice
    finds their own pitch. A kingdom really a line short of its frame is left as it is: its
    tiles do not fill a frame of its size.
    """
    n = location.size
    down, right = move
    if location.tile_span is None or abs(down) + abs(right) != 1:
        return None
    # The frame's cells less the dropped line, in photo pixels.
    top, bottom = (1, n) if down == 1 else (0, n - 1) if down == -1 else (0, n)
    left, far = (1, n) if right == 1 else (0, n - 1) if right == -1 else (0, n)
    cells = np.array([[left, top], [far, top], [far, bottom], [left, bottom]], np.float64)
    to_photo = np.linalg.inv(location.homography)
    inner = cv2.perspectiveTransform(cells.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    # A crop of the photo round the frame, at the finder's own scale or FIT_LONG_SIDE pixels
    # across the frame, whichever is finer (no finer than the photo).
    corners = location.corners
    h, w = image.shape[:2]
    long_px = max(np.ptp(corners[:, 0]), np.ptp(corners[:, 1]), 1.0)
    pad = 0.15 * long_px + 2
    x0, y0 = (max(0, int(v - pad)) for v in corners.min(axis=0))
    x1, y1 = min(w, int(corners[:, 0].max() + pad) + 1), min(h, int(corners[:, 1].max() + pad) + 1)
    if x1 - x0 < 32 or y1 - y0 < 32:
        return None
    k = min(1.0, max(FIT_LONG_SIDE / long_px, WORK_LONG_SIDE / max(h, w)))
    size_px = (max(16, round((x1 - x0) * k)), max(16, round((y1 - y0) * k)))
    view = cv2.resize(
        image[y0:y1, x0:x1], size_px, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    )
    to_view = np.array([size_px[0] / (x1 - x0), size_px[1] / (y1 - y0)])
    inner_view = (inner - [x0, y0]) * to_view
    mask = np.zeros(view.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner_view).astype(np.int32), 255)
    try:
        frame, size, span, _, overflow = fit_lattice(view, mask, [inner_view], n)
    except NoBoardFound:
        return None
    if overflow or tuple(span) != (0, n, 0, n):
        return None
    refitted = location_from_corners(
        frame / to_view + [x0, y0],
        size,
        location.warnings,
        image_shape=location.image_shape,
        tile_span=span,
    )
    return None if reaches_past_photo(refitted) else refitted


def _five_inside_seven(image: np.ndarray, location: BoardLocation) -> BoardLocation:
    """A 7×7 frame round a 5×5 kingdom and table, reframed to the kingdom's 5×5."""
    from vision.holes import table_likeness

    if location.size != 7 or location.tile_span in (None, (0, 7, 0, 7)):
        return location  # tiles seen in every row and column: a 7×7 kingdom
    likeness = location.table_likeness  # measured already if placed over unseen tiles
    if likeness is None:
        likeness = table_likeness(image, location.homography, 7)
    if likeness is None:
        return location
    windows = []
    for down in range(3):
        for right in range(3):
            outside = np.ones((7, 7), bool)
            outside[down : down + 5, right : right + 5] = False
            windows.append((float(likeness[outside].min()), down, right))
    least, down, right = max(windows)
    if least < RING_TABLE_LIKENESS:
        if location.table_likeness is None:  # measured here: carried on, not measured again
            location = dataclasses.replace(location, table_likeness=likeness)
        return location
    return shift_frame(location, down, right, size=5)


PAST_PHOTO = "a 7×7 frame round them would reach past the photo's edge"
NO_TILES_ROUND = "a 7×7 frame round them shows too few tile edges for a kingdom"


def _five_inside(image: np.ndarray, location: BoardLocation, why: str) -> BoardLocation | None:
    """For a 7×7 frame the finder refuses (``why``: it reaches past the photo, or its rim shows
    no tiles) round tiles that span six cells or fewer each way, or five or fewer one way (no
    complete 7×7 kingdom), the 5×5 frame inside it that lies in the photo with the cells least
    like the table; None when there is none.

    Dominoes drifting off the lattice (a tile half a cell out of line, rows not straight) make
    a 5×5 kingdom's tiles span six cells on the fitted lattice; the finder then frames it 7×7,
    centred, and the frame's spare ring can reach past a tilted photo's edge (lab.synth camera
    scenes 7491, 7638, 7690) or show too few tile edges to pass as a kingdom (7576), so the
    kingdom was not found at all. The span the frame keeps is clipped to it, so the long way may
    read seven. The 5×5 frame goes through the same checks as any other.
    """
    from vision.holes import table_likeness

    if location.size != 7 or location.tile_span is None:
        return None
    row0, row1, col0, col1 = location.tile_span
    if min(row1 - row0, col1 - col0) >= 6 and max(row1 - row0, col1 - col0) == 7:
        return None  # most of a 7×7 kingdom's tiles
    likeness = table_likeness(image, location.homography, 7)
    in_photo = []
    for down in range(3):
        for right in range(3):
            five = shift_frame(location, down, right, size=5)
            if not reaches_past_photo(five):
                table_like = (
                    0.0 if likeness is None else likeness[down : down + 5, right : right + 5].sum()
                )
                in_photo.append((float(table_like), down, right, five))
    if not in_photo:
        return None
    five = min(in_photo, key=lambda window: window[:3])[3]
    span = f"{col1 - col0}×{row1 - row0}"
    said = (  # whole sentences, one per reason, for the translators
        msg(
            "read as a 5×5 kingdom: its tiles span {span} cells (some out of line), and a 7×7 "
            "frame round them would reach past the photo's edge; check the grid, or give the size",
            span=span,
        )
        if why == PAST_PHOTO
        else msg(
            "read as a 5×5 kingdom: its tiles span {span} cells (some out of line), and a 7×7 "
            "frame round them shows too few tile edges for a kingdom; check the grid, or give the "
            "size",
            span=span,
        )
    )
    return dataclasses.replace(five, warnings=(*without_size_doubt(five.warnings), said))


def _with_table_likeness(photo: _Photo, location: BoardLocation) -> BoardLocation:
    """``location`` carrying its cells' table likeness (the reader's holes use it too),
    measured unless a step before (placing the frame over unseen tiles) measured it already."""
    if location.table_likeness is not None:
        return location
    likeness = photo.table_likeness(location.homography, location.size)
    return dataclasses.replace(location, table_likeness=likeness)


def _off_the_table(image: np.ndarray, location: BoardLocation) -> BoardLocation:
    """A frame with a whole edge row or column on the table, moved one cell the other way when
    that brings in a line of tiles.

    A cloth printed in checks about a tile wide can carry the lattice one line past the
    kingdom's edge and leave its last line of tiles out (lab.synth development scene 5664): the
    frame then reads table as tiles and misses real ones. A kingdom really missing a whole line
    shows table beyond its other side too, and keeps its frame.
    """
    from vision.holes import table_likeness

    likeness = location.table_likeness
    if likeness is None:
        return location
    n = location.size
    # Each side's line of cells, the move away from it, and where the line brought in lies
    # after the move (the opposite side).
    sides = (
        (np.s_[0, :], (1, 0), np.s_[-1, :]),
        (np.s_[-1, :], (-1, 0), np.s_[0, :]),
        (np.s_[:, 0], (0, 1), np.s_[:, -1]),
        (np.s_[:, -1], (0, -1), np.s_[:, 0]),
    )
    for line, (down, right), opposite in sides:
        if likeness[line].min() < TABLE_LIKE:
            continue
        moved = shift_frame(location, down, right)
        if reaches_past_photo(moved):
            continue
        moved_likeness = table_likeness(image, moved.homography, n)
        if moved_likeness is None:
            continue
        brought_in = moved_likeness[opposite]
        unlike_table = int((brought_in < TABLE_LIKE).sum())
        tile_like = int((brought_in < TILE_LIKENESS).sum())
        if unlike_table >= n - 1 and tile_like >= UNSEEN_TILES_MIN:
            row0, row1, col0, col1 = moved.tile_span or (0, n, 0, n)
            span = (  # grown over the line of tiles brought in
                0 if down == -1 else row0,
                n if down == 1 else row1,
                0 if right == -1 else col0,
                n if right == 1 else col1,
            )
            return dataclasses.replace(moved, tile_span=span, table_likeness=moved_likeness)
    return location


def _mostly_table(location: BoardLocation, size_given: bool = False) -> bool:
    """Whether so many of the frame's cells look like the table that it holds no kingdom.

    With the size given by the caller, only the cells where the lattice saw tiles count: a
    frame made bigger than its tiles (a 7×7 asked for round a 5×5 kingdom) has table round them
    by design.
    """
    likeness = location.table_likeness
    if likeness is None:  # too little table in view to tell
        return False
    if size_given and location.tile_span is not None:
        row0, row1, col0, col1 = location.tile_span
        likeness = likeness[row0:row1, col0:col1]
    return float((likeness >= TABLE_LIKE).mean()) >= MAX_TABLE_LIKE_SHARE


class _Placement(NamedTuple):
    """One place for a frame bigger than its tiles, and how its spare cells look."""

    location: BoardLocation
    likeness: np.ndarray  # (N, N) table likeness of its cells
    tile_like: int  # spare cells under TILE_LIKENESS
    mean_likeness: float  # of its spare cells
    one_way: bool  # moved along one axis (or not at all) from where the finder put it


def _grown_over_tiles(span, likeness: np.ndarray) -> tuple[int, int, int, int]:
    """``span`` grown over each spare row or column next to it with tiles in it."""
    row0, row1, col0, col1 = span
    n = len(likeness)
    grown = True
    while grown:
        grown = False
        for r in (row0 - 1, row1):
            if 0 <= r < n and (likeness[r, col0:col1] < TILE_LIKENESS).sum() >= UNSEEN_TILES_MIN:
                row0, row1, grown = min(row0, r), max(row1, r + 1), True
        for c in (col0 - 1, col1):
            if 0 <= c < n and (likeness[row0:row1, c] < TILE_LIKENESS).sum() >= UNSEEN_TILES_MIN:
                col0, col1, grown = min(col0, c), max(col1, c + 1), True
    return row0, row1, col0, col1
