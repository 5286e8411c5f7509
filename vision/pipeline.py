"""From an image file (or bytes, or an array) to a read kingdom: the one entry point for images.

    reading = read_image("kingdom.jpg")            # size 5 or 7 found automatically
    reading = read_image(data, size=7)             # bytes from an upload
    reading = read_image(photo, corners=[...])     # the user tapped the four corners
    table = read_table("table.jpg")                # every complete kingdom in one photo

Stages, one per module:
    decode (``vision.load_image``) → locate the kingdom(s) (``vision.find``) → straighten
    (``vision.rectify``) → read the cells (``vision.cells``), judging holes against the table
    (``vision.holes``) and the castle figure by the camera's view (``vision.castle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from scoring.board import SIZES, Board
from scoring.words import Message, msg
from vision.castle import (
    behind_figure_warnings,
    figure_tops,
    read_far_halves,
)
from vision.cells import CellReadings, read_board_image
from vision.cells import decode_together as decode_cells_together
from vision.corners import check_corners
from vision.find import (
    BoardLocation,
    NoBoardFound,
    centre_on_castle,
    find_board,
    over_strip_beyond,
    shift_frame,
    strip_cells,
)
from vision.find.edges import seam_support
from vision.find.extent import without_size_doubt
from vision.find.location import cell_centres, inside_frame
from vision.find.search import find_kingdoms, reading_threads, refit_without_side
from vision.holes import (
    hole_grid,
    judge_holes,
    judge_holes_by_art,
    open_side_cells,
    open_side_warnings,
    open_sides,
    table_likeness,
)
from vision.load_image import ImageError, LoadingImage, load_image, long_side
from vision.model import load_model_in_background
from vision.rectify import straighten
from vision.stats import percentile

# Below this difference between a pixel's channels (in 99% of the picture) a photo is grey.
GREY_CHROMA = 12
# A LoadingImage is a file or bytes already decoding (``vision.load_image``).
ImageSource = str | Path | bytes | bytearray | np.ndarray | LoadingImage

__all__ = [
    "ImageError",
    "NoBoardFound",
    "Reading",
    "TableReading",
    "decode_together",
    "read_image",
    "read_table",
]


@dataclass(frozen=True)
class Reading:
    """A read kingdom: the straightened board image, the cell readings and the board."""

    source: str  # the file name, "the uploaded file" for bytes, "<array>" for an array
    board_image: np.ndarray  # (H, W, 3) BGR uint8, the kingdom filling the frame
    cells: CellReadings
    warnings: tuple[str, ...] = ()
    location: BoardLocation | None = None  # where the board is in the photo; None if given flat

    @property
    def size(self) -> int:
        return self.cells.size

    @property
    def board(self) -> Board:
        return self.cells.board

    def to_json(self) -> dict:
        """``file``, ``size``, ``grid`` (board-text rows), ``cells`` and the ``decoding`` note, as
        the CLI prints them."""
        return {
            "file": self.source,
            "size": self.size,
            "grid": self.board.rows_text(),
            "cells": self.cells.cells_json(),
            "decoding": self.cells.decoding,
            "warnings": list(self.warnings),
        }


def describe(source: ImageSource) -> str:
    if isinstance(source, LoadingImage):
        return describe(source.source)
    if isinstance(source, bytes | bytearray):
        return msg("the uploaded file")
    if isinstance(source, np.ndarray):
        return "<array>"
    return str(source)


def decode(source: ImageSource, full_resolution: bool = False) -> np.ndarray:
    """An HxWx3 BGR uint8 image from a path, bytes or an array; ``ImageError`` if impossible.

    Files and bytes are decoded reduced (long side about 1600-2000 px, plenty for the finder and
    the cell reader) unless ``full_resolution``.
    """
    if isinstance(source, LoadingImage):
        if not full_resolution:
            return source.image()
        source = source.source  # it decodes reduced: decode the file again
    if not isinstance(source, np.ndarray):
        return load_image(source, long_side=None) if full_resolution else load_image(source)
    image = source
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ImageError(f"<array>: expected an HxWx3 uint8 image, got {source.shape}")
    return image


def check_colour(image: np.ndarray, name: str) -> None:
    """Refuse a black-and-white photo (``ImageError``): terrains are told apart by colour.

    A grey picture's channels differ by a few levels at most (JPEG's rounding); a colour photo
    of a kingdom has parts differing by well over a hundred. A blank frame (no picture at all)
    is left to the board finder, which says that nothing stands out.
    """
    small = cv2.resize(image, (160, max(1, 160 * image.shape[0] // image.shape[1])))
    chroma = small.max(axis=2).astype(np.int16) - small.min(axis=2)
    if percentile(chroma, 99) < GREY_CHROMA and small.std() > 4:
        raise ImageError(
            msg(
                "{file} has no colour (it is black and white): the terrains are told apart by "
                "their colours, so take the photo in colour",
                file=name,
            )
        )


def locate(
    image: np.ndarray, size: int | None, corners: Sequence[Sequence[float]] | None
) -> BoardLocation | None:
    """Where the kingdom is in ``image``; None when the image is taken as straightened already.

    Given ``corners`` (top-left, top-right, bottom-right, bottom-left, (x, y) in image pixels),
    no search is made.
    """
    if corners is not None:
        return find_board(image, size, check_corners(corners, image.shape))
    # Searches a raw photo for the kingdom; an already straightened board (the kingdom fills the
    # image, as in aau-boards) is recognised and comes back with the image's own corners.
    # Raises ``NoBoardFound`` (a ValueError) with a "no kingdom found: ..." message.
    return find_board(image, size)


def read_image(
    source: ImageSource,
    size: int | None = None,
    corners: Sequence[Sequence[float]] | None = None,
) -> Reading:
    """Read a kingdom from an image. ``size`` 5 or 7 (found when None); ``corners`` skip search.

    Raises ``ImageError`` for anything that is not a readable image.
    """
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size!r}")
    # Given corners are in the pixels of the image as given (a file's own upright pixels, as a
    # user reads them off the photo), so that image is not reduced.
    image = decode(source, full_resolution=corners is not None)
    check_colour(image, describe(source))
    load_model_in_background()  # while the kingdom is found
    location = locate(image, size, corners)
    return _read_at(source, image, location, size)


def _read_at(
    source: ImageSource,
    image: np.ndarray,
    location: BoardLocation | None,
    size: int | None,
    others: Sequence[BoardLocation] = (),
    ahead: _ReadAhead | None = None,
) -> Reading:
    """Straighten ``image`` at ``location`` (None: it is the board) and read its cells.
    ``others``: the frames of the other kingdoms found in the photo; ``ahead``: the reading
    begun of ``location`` as found, if any.

    Three steps: read the cells in the frame found; choose the frame those cells support
    (``_choose_frame``); flag what the frame leaves in doubt (``_flag_doubts``)."""
    try:
        if location is None:  # the image is the board, straightened already
            cells = _read_cells(image, image, None, size)
            framed = _Framed(None, image, cells)
        else:
            read = ahead.take(location) if ahead is not None else None
            read = read if read is not None else _read_frame(image, location)
            framed = _Framed(location, *read, location.warnings)
            framed = _choose_frame(image, framed, size, others)
        framed = _flag_doubts(framed)
    except ValueError as err:
        said = err.args[0] if err.args and isinstance(err.args[0], Message) else str(err)
        raise ImageError(msg("{file}: {error}", file=describe(source), error=said)) from None
    return Reading(
        describe(source), framed.board_image, framed.cells, framed.warnings, framed.location
    )


@dataclass(frozen=True)
class _Framed:
    """A frame (None: the image is the board), the board straightened out of it, the cells read
    there and what the reading says about them."""

    location: BoardLocation | None
    board_image: np.ndarray
    cells: CellReadings
    warnings: tuple[str, ...] = ()


def _choose_frame(
    image: np.ndarray, framed: _Framed, size_given: int | None, others: Sequence[BoardLocation]
) -> _Framed:
    """The frame the cells read in ``framed`` support (docs/vision.md, "How the frame is
    chosen"), read: its inner 5×5 when its ring is table (not when the user gave the size),
    moved or refitted off a side of table, then with the castle in the middle if the tiles
    allow."""
    location = framed.location
    if size_given is None and _ring_of_table(location, framed.cells):
        inner = _inner_five(location)
        framed = _Framed(inner, *_read_frame(image, inner), (*inner.warnings, RING_OF_TABLE))
    if framed.location.tile_span is not None:
        framed = _over_left_out_tiles(image, framed, others)
    # A kingdom smaller than its frame: put the castle in the middle if the tiles allow.
    moved = centre_on_castle(framed.location, framed.cells.board.castle)
    if moved is not framed.location:
        framed = _Framed(moved, *_read_frame(image, moved), framed.warnings)
    return framed


def _flag_doubts(framed: _Framed) -> _Framed:
    """``framed`` with the cells its frame leaves in doubt flagged, each with its sentence: the
    cell behind the castle figure; and, in a frame the finder chose (not the caller's corners),
    the lines along a side of table and, when the grid misses the tiles' seams, every cell."""
    location, cells = framed.location, framed.cells
    # Say why the cell behind the figure is flagged: what hides it is not on the tile.
    tops = figure_tops(location) if location is not None else None
    warnings = (*framed.warnings, *behind_figure_warnings(cells, tops))
    if location is not None and location.tile_span is not None:
        warnings = (*warnings, *open_side_warnings(cells.board))
        cells = _open_sides_in_doubt(cells)
        if off_the_seams(framed.board_image, cells.board):
            warnings = (*warnings, OFF_THE_SEAMS)
            cells = replace(cells, in_doubt=np.ones((cells.size, cells.size), bool))
    return replace(framed, cells=cells, warnings=warnings)


def _open_sides_in_doubt(cells: CellReadings) -> CellReadings:
    """``cells`` with the lines of cells along each side that reads as table (``open_sides``)
    flagged: what the reader could not move or refit the frame away from.

    Such a line is a kingdom smaller than its frame, or a frame a line off whose other side
    leaves the kingdom's last line out (``open_side_warnings`` says so); read as holes, its
    cells would be a guess presented as fact, so the user is asked to check them.

    A 7×7 frame with such a side is in doubt whole. The finder frames a 5×5 kingdom's smaller
    part round its castle, but a Mighty Duel kingdom fills its 7×7 but for a few discarded
    dominoes: a line of table left there is a lattice off the tiles' pitch or phase, and every
    cell is read across seams, most of them confidently wrong (camera development scenes 8459,
    8474 and 8796: 21 wrong cells unmarked, off by half a cell and more).
    """
    open_cells = open_side_cells(cells.board)
    if not open_cells.any():
        return cells
    if cells.size == 7:
        open_cells = np.ones_like(open_cells)
    in_doubt = open_cells if cells.in_doubt is None else cells.in_doubt | open_cells
    return replace(cells, in_doubt=in_doubt)


# A frame whose inner lines show a tile's edge on fewer than this share of their segments
# between two tiles (the smaller share, of the lines across and the lines down) lies off the
# tiles' seams. On camera development scenes 7100-7499 frames on their tiles had 0.5 at the
# least (a 7×7 whose figure hides seams); the frames a line off or sheared 0.37-0.58 (7812,
# 8459, 8474, 8796), all but 7812 also left with a side of table (``_open_sides_in_doubt``).
SEAM_MIN_SUPPORT = 0.45
OFF_THE_SEAMS = msg(
    "The grid does not lie along the tiles' edges everywhere: check every cell, or give the"
    " kingdom's four corners."
)


def off_the_seams(board_image: np.ndarray, board: Board) -> bool:
    """Whether the straightened kingdom's inner cell lines miss the tiles' edges between the
    cells ``board`` reads as tiles: a lattice off the tiles' pitch, phase or slant, every cell
    read across seams."""
    return seam_support(board_image, ~hole_grid(board)) < SEAM_MIN_SUPPORT


RING_OF_TABLE = msg(
    "Read as a 5×5 kingdom: the outer ring of the 7×7 grid first found reads as table all"
    " round. If it is a 7×7 kingdom, give the size."
)


def _ring_of_table(location: BoardLocation, cells: CellReadings) -> bool:
    """A 7×7 frame the finder chose whose whole outer ring reads as table: the kingdom is 5×5.

    The finder decides 5×5 or 7×7 from how many cells the tiles span; a strip of table the
    tiles' edges reach into (a 5×5 kingdom framed half a cell off, see ``extent.place_frame``)
    can tip it to 7×7. A Mighty Duel kingdom at the end of a game never has all its tiles in
    the inner 5×5.
    """
    if location.size != 7 or location.tile_span is None:
        return False
    ring = hole_grid(cells.board)
    ring[1:-1, 1:-1] = True
    return bool(ring.all())


def _inner_five(location: BoardLocation) -> BoardLocation:
    """The 5×5 frame inside a 7×7 one, without the finder's doubt about the size (answered)."""
    inner = shift_frame(location, 1, 1, size=5)
    return replace(inner, warnings=without_size_doubt(inner.warnings))


def _over_left_out_tiles(
    image: np.ndarray, framed: _Framed, others: Sequence[BoardLocation]
) -> _Framed:
    """``framed`` moved one cell over tiles the finder left out, when a side of it reads more
    holes than tiles and the strip past the other side reads fewer holes than that side; else
    refitted (``_refitted``), or as it was.

    Edge tiles that look like the table (wheat on a yellow cloth, lake on a blue one) can be
    left out of the blob the finder frames, which then takes in a strip of table on the other
    side: every cell reads a column off. Reading the strip is the evidence the finder lacked.
    The strip may hold discarded dominoes' holes (camera scene 8447: two holes and three lake
    tiles on a teal cloth; camera scene 7003 framed a row off, in the forced frame faults of
    ``lab.frame_faults``: three holes and two tiles), and the side dropped may hold clutter past
    the kingdom that reads as tiles (camera scene 7038, a 7×7 framed a row off: two of seven), so
    the frame is moved when the strip reads fewer holes than the side it drops: holes are rare,
    and the frame with fewer is the likelier (an incomplete kingdom's frame, with table past
    both sides, stays). The moved reading says so, for the user to check.
    """
    location = framed.location
    holes = hole_grid(framed.cells.board)
    # Any side more holes than tiles may be a line of table the frame took in instead of tiles.
    for move in open_sides(framed.cells.board, least=location.size // 2 + 1):
        moved = over_strip_beyond(location, move, others)
        if moved is None:
            continue
        moved_image, moved_cells = _read_frame(image, moved)
        strip = strip_cells(moved.size, move)
        dropped = strip_cells(location.size, (-move[0], -move[1]))
        if hole_grid(moved_cells.board)[strip].sum() < holes[dropped].sum():
            return _Framed(moved, moved_image, moved_cells, (*framed.warnings, _MOVED[move]))
    return _refitted(image, framed, others)


def _refitted(image: np.ndarray, framed: _Framed, others: Sequence[BoardLocation]) -> _Framed:
    """``framed`` fitted again to the tiles without a side that reads as table
    (``vision.find.search.refit_without_side``), when the frame could not be moved over tiles:
    taken when it reads no side as table and fewer holes; else ``framed`` as it was.

    A lattice of the wrong pitch or slant (a checked cloth's squares about a tile wide) takes in
    a line of table on one side and cuts the kingdom's last line on the other, so moving it a
    cell brings in more table; fitted to the tiles alone, the lattice finds their own pitch.
    """
    location = framed.location
    holes = int(hole_grid(framed.cells.board).sum())
    for move in open_sides(framed.cells.board):
        refitted = refit_without_side(image, location, move)
        if refitted is None or any(
            inside_frame(cell_centres(refitted), other).any() for other in others
        ):
            continue
        refitted_image, refitted_cells = _read_frame(image, refitted)
        if not open_sides(refitted_cells.board) and hole_grid(refitted_cells.board).sum() < holes:
            return _Framed(refitted, refitted_image, refitted_cells, (*framed.warnings, REFITTED))
    return framed


REFITTED = msg(
    "The grid was fitted again to the tiles, as one side of the grid first found read as table:"
    " check that the grid lies on the kingdom."
)


# One whole sentence per way the grid moves, for the translators.
_MOVED = {
    (1, 0): msg(
        "The grid was moved one row down over tiles that look like the table around them: "
        "check that the grid lies on the kingdom."
    ),
    (-1, 0): msg(
        "The grid was moved one row up over tiles that look like the table around them: "
        "check that the grid lies on the kingdom."
    ),
    (0, 1): msg(
        "The grid was moved one column right over tiles that look like the table around them: "
        "check that the grid lies on the kingdom."
    ),
    (0, -1): msg(
        "The grid was moved one column left over tiles that look like the table around them: "
        "check that the grid lies on the kingdom."
    ),
}


def _read_frame(image: np.ndarray, location: BoardLocation) -> tuple[np.ndarray, CellReadings]:
    """``location`` straightened out of ``image``, and its cells (``_read_cells``)."""
    board_image = straighten(image, location)
    return board_image, _read_cells(image, board_image, location, location.size)


def _read_cells(
    image: np.ndarray, board_image: np.ndarray, location: BoardLocation | None, size: int | None
) -> CellReadings:
    """The cells of ``board_image``, the cells a castle figure covers read from their far half
    (``vision.castle``) and the holes judged against the photo's table.

    Both are applied before anything asks for the board, so that the joint decoding (which
    places the castle) runs once, on the final probabilities.
    """
    cells = read_far_halves(board_image, read_board_image(board_image, size))
    likeness = None
    if location is not None and not location.straightened:
        # A cell that looks like this photo's table around the kingdom is likely a hole.
        likeness = location.table_likeness  # measured by the finder for this frame
        if likeness is None:
            likeness = table_likeness(image, location.homography, location.size)
    if likeness is None:
        # No table in view (a tight crop, a straightened board): the cells' own art says.
        cells = judge_holes_by_art(cells, board_image)
    else:
        cells = judge_holes(cells, likeness)
    return cells


@dataclass(frozen=True)
class TableReading:
    """Every complete kingdom in one photo of the table, each read on its own.

    ``image`` is the decoded photo (BGR) that every kingdom's ``location.corners`` refer to.
    ``kingdoms`` are numbered 1, 2, ... in this order: left to right, then top to bottom.
    ``cut_off``: one sentence per kingdom cut by the photo's edge (not read, not scored).
    ``photo_scale``: the photo file's own pixels per pixel of ``image`` (files are decoded
    reduced); multiply corners by it to point into the file.
    """

    source: str
    image: np.ndarray
    kingdoms: tuple[Reading, ...]
    cut_off: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    photo_scale: float = 1.0


def read_table(source: ImageSource, size: int | None = None) -> TableReading:
    """Read every complete kingdom in a photo. ``size`` forces 5 or 7 on all of them (otherwise
    each kingdom gets its own 5×5/7×7 decision).

    Raises ``NoBoardFound`` ("no kingdom found: ...") when no complete kingdom is seen, and
    ``ImageError`` for anything that is not a readable image.
    """
    if size is not None and size not in SIZES:
        raise ValueError(f"size must be 5 or 7, got {size!r}")
    image = decode(source)
    check_colour(image, describe(source))
    photo_scale = 1.0
    file = source.source if isinstance(source, LoadingImage) else source
    if not isinstance(file, np.ndarray):
        photo_scale = long_side(file) / max(image.shape[:2])
    load_model_in_background()  # while the kingdoms are found
    ahead = _ReadAhead(image) if reading_threads() >= 2 else None
    try:
        found = find_kingdoms(image, size, ahead.begin if ahead is not None else None)
        kingdoms = tuple(
            _read_at(
                source,
                image,
                location,
                size,
                [o for o in found.kingdoms if o is not location],
                ahead,
            )
            for location in found.kingdoms
        )
    finally:
        if ahead is not None:
            ahead.close()
    return TableReading(
        describe(source), image, kingdoms, found.cut_off, found.warnings, photo_scale
    )


class _ReadAhead:
    """Each kingdom's cells read at the frame the finder found it at, in a thread of its own,
    begun as soon as the finder has found it (``find_kingdoms``' ``on_found``), while the
    finder goes on with the rest of the photo.

    The cell model's passes run without Python's lock, so they fill the second core while the
    finder's Python work waits for the lock (its helper thread's fits share it) or for the
    helper (the texture model). A reading depends only on the photo and the frame, so the one
    read ahead is the one ``_read_at`` would make: it takes it instead (the same frame, the
    very object), and reads as before anything else (a frame moved or refitted).
    """

    def __init__(self, image: np.ndarray) -> None:
        self._image = image
        self._pool = ThreadPoolExecutor(1, "read_ahead")
        # By id: a frame's arrays make it unhashable; the frame kept alive keeps its id its own.
        self._reads: dict[int, tuple[BoardLocation, Future]] = {}

    def begin(self, location: BoardLocation) -> None:
        self._reads[id(location)] = (location, self._pool.submit(self._read, location))

    def _read(self, location: BoardLocation) -> tuple[np.ndarray, CellReadings]:
        return _read_frame(self._image, location)

    def take(self, location: BoardLocation) -> tuple[np.ndarray, CellReadings] | None:
        """(board image, cells) of ``location`` read ahead; None when it was not begun or
        failed (the caller reads it, and says why it fails)."""
        begun = self._reads.pop(id(location), None)
        if begun is None or begun[0] is not location:
            return None
        try:
            return begun[1].result()
        except ValueError:
            return None

    def close(self) -> None:
        """No more reading ahead: readings not begun are dropped."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def decode_together(readings: Sequence[Reading]) -> tuple[Reading, ...]:
    """The kingdoms of one game read from photos, decoded together so that no domino is used
    more often than the one set has it (``vision.cells.decode_together``)."""
    cells = decode_cells_together([reading.cells for reading in readings])
    return tuple(replace(reading, cells=new) for reading, new in zip(readings, cells, strict=True))
