"""``read_image``: files, bytes and arrays in; a Reading out; clear errors for non-images."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.board import Terrain, parse_board
from vision.pipeline import ImageError, read_image

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "synthetic-scene-20.jpg"


def test_reads_a_straightened_board_file(shared_dir):
    path = shared_dir / "datasets/aau-boards/images/1.jpg"
    expected = parse_board((shared_dir / "datasets/aau-boards/boards/1.txt").read_text())
    reading = read_image(path, size=5)
    assert reading.board == expected
    assert read_image(path.read_bytes()).board == expected  # bytes, size found
    data = reading.to_json()
    assert data["size"] == 5 and data["grid"] == expected.rows_text()
    assert len(data["cells"]) == 25


def test_corners_straighten_a_tilted_board(shared_dir):
    board = cv2.imread(str(shared_dir / "datasets/aau-boards/images/1.jpg"))
    expected = parse_board((shared_dir / "datasets/aau-boards/boards/1.txt").read_text())
    # Put the board into a larger grey scene with some perspective, then give its corners back.
    corners = np.float32([[120, 80], [640, 110], [610, 620], [90, 590]])
    source = np.float32([[0, 0], [500, 0], [500, 500], [0, 500]])
    homography = cv2.getPerspectiveTransform(source, corners)
    scene = cv2.warpPerspective(
        board, homography, (760, 720), borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 90, 90)
    )
    reading = read_image(scene, size=5, corners=corners.tolist())
    assert reading.board == expected


def test_unreadable_input_names_the_file(tmp_path):
    bogus = tmp_path / "notes.jpg"
    bogus.write_text("not an image")
    with pytest.raises(ImageError, match="notes.jpg"):
        read_image(bogus)
    with pytest.raises(ImageError, match="missing.png"):
        read_image(tmp_path / "missing.png")


def test_tiny_image_is_an_image_error():
    with pytest.raises(ImageError, match="too small"):
        read_image(np.zeros((30, 30, 3), np.uint8))


CELL, OFFSET = 100, 250  # as the photos of tests/vision/test_holes.py


def _frame(left: int, top: int) -> np.ndarray:
    """Photo corners of a 5×5 frame of CELL-pixel cells with its top-left corner at (left, top)."""
    return np.array(
        [
            [left, top],
            [left + 5 * CELL, top],
            [left + 5 * CELL, top + 5 * CELL],
            [left, top + 5 * CELL],
        ],
        np.float64,
    )


def test_the_frame_moves_over_tiles_left_out_past_a_side_of_table(shared_dir):
    """A frame one column right of the kingdom: its last column is cloth, the kingdom's first
    column lies past its left side. The reader moves it there and says so. (aau board 11 has
    its castle in the last column, so centring the frame on the castle cannot do it.)"""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import _read_at

    photo = photo_with_holes(shared_dir, [], number=11)
    # (Its own holes show another table, so the reading at the right frame is the reference.)
    expected = read_image(photo, size=5, corners=_frame(OFFSET, OFFSET).tolist()).board
    frame = _frame(OFFSET + CELL, OFFSET)
    off = location_from_corners(frame, 5, tile_span=(0, 5, 0, 4), image_shape=photo.shape[:2])
    reading = _read_at(photo, photo, off, None)
    assert reading.board == expected
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=1e-6)
    assert any("moved one column left" in warning for warning in reading.warnings)


def test_the_frame_moves_off_a_side_of_table_and_clutter_onto_a_strip_of_tiles(shared_dir):
    """The same frame a column right of the kingdom, two cells of its last column holding
    things that read as tiles (two loose tiles beside the kingdom): that side has more holes
    than tiles, the strip past the other side has none, so the frame with fewer holes is
    taken (camera scene 7038, a 7×7 framed a row off with two cells of clutter past it, kept 41
    wrong cells unflagged while only sides of table nearly all along were moved off)."""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import _read_at

    photo = photo_with_holes(shared_dir, [], number=11)
    expected = read_image(photo, size=5, corners=_frame(OFFSET, OFFSET).tolist()).board
    right = OFFSET + 5 * CELL  # the column of cloth past the kingdom's right side
    for row in (1, 3):  # two loose tiles there: the kingdom's own first cells, copied
        top = OFFSET + row * CELL
        photo[top : top + CELL, right : right + CELL] = photo[
            OFFSET : OFFSET + CELL, OFFSET : OFFSET + CELL
        ]
    off = location_from_corners(
        _frame(OFFSET + CELL, OFFSET), 5, tile_span=(0, 5, 0, 5), image_shape=photo.shape[:2]
    )
    reading = _read_at(photo, photo, off, None)
    assert reading.board == expected
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=1e-6)
    assert any("moved one column left" in warning for warning in reading.warnings)


def test_the_frame_stays_when_past_the_other_side_is_table_too(shared_dir):
    """An incomplete kingdom (its last column missing, the cloth shows): the frame's side of
    table is a real edge, nothing lies past the other side, so the frame stays and the reading
    says what to check."""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import _read_at

    photo = photo_with_holes(shared_dir, [(r, 4) for r in range(5)])
    frame = _frame(OFFSET, OFFSET)
    location = location_from_corners(frame, 5, tile_span=(0, 5, 0, 4), image_shape=photo.shape[:2])
    reading = _read_at(photo, photo, location, None)
    assert all(reading.board[r, 4].terrain.value == "empty" for r in range(5))
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=1e-6)
    assert not any("moved" in warning for warning in reading.warnings)
    assert any(warning.startswith("Column 5 of the grid") for warning in reading.warnings)
    # Nor is it fitted again (the tiles do not fill a 5×5 frame), and the column of table,
    # which may be the kingdom's left-out column, is flagged rather than read as sure holes.
    assert not any("fitted again" in warning for warning in reading.warnings)
    assert reading.cells.uncertain[:, 4].all()
    assert reading.cells.uncertain[:, :4].sum() <= 2


def test_a_kingdom_smaller_than_its_frame_is_framed_with_its_castle_in_the_middle(shared_dir):
    """An incomplete kingdom (its last column discarded) framed a column left of its tiles, as
    the finder may place a frame its tiles do not fill: the castle reads a column right of the
    middle. The rules give the Middle Kingdom bonus to any frame holding every tile with the
    castle in its centre, so the reader moves the frame there and the bonus is scored."""
    from scoring.score import score_board
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import _read_at

    photo = photo_with_holes(shared_dir, [(r, 4) for r in range(5)])  # castle at (2, 2)
    left = location_from_corners(
        _frame(OFFSET - CELL, OFFSET), 5, tile_span=(0, 5, 1, 5), image_shape=photo.shape[:2]
    )
    reading = _read_at(photo, photo, left, None)
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=1e-6)
    assert reading.board.castle == (2, 2)
    assert score_board(reading.board).middle_kingdom.points == 10


@pytest.mark.parametrize("number", [1, 11])
def test_a_frame_of_the_wrong_pitch_is_fitted_again_to_the_tiles(shared_dir, number):
    """A frame whose cells are a fifth too wide, its left side a column out on the cloth: its
    first column reads as table and its last cuts the kingdom's last column, so moving it a
    column brings in cloth, not tiles (camera scene 7529: a checked cloth's squares carried the
    finder's lattice so). The reader fits the lattice again to the tiles inside it, reads the
    kingdom right, and says so."""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import REFITTED, _read_at

    photo = photo_with_holes(shared_dir, [], number=number)
    expected = read_image(photo, size=5, corners=_frame(OFFSET, OFFSET).tolist()).board
    wide = _frame(OFFSET - CELL, OFFSET)
    wide[1:3, 0] += CELL  # five cells of 1.2 CELL across, from a cell left of the kingdom
    off = location_from_corners(wide, 5, tile_span=(0, 5, 0, 5), image_shape=photo.shape[:2])
    reading = _read_at(photo, photo, off, None)
    assert reading.board == expected
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=5)
    assert REFITTED in reading.warnings
    assert reading.cells.in_doubt is None  # no side of table left to flag


def test_a_seven_by_seven_frame_with_a_ring_of_table_is_read_as_five_by_five(shared_dir):
    """The finder took a 5×5 kingdom for a 7×7 one (camera scene 7858 did so): every cell of
    the outer ring reads as table, so the reader keeps the inner 5×5 and says so; not when the
    user asked for 7×7."""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import RING_OF_TABLE, _read_at

    photo = photo_with_holes(shared_dir, [])
    expected = read_image(photo, size=5, corners=_frame(OFFSET, OFFSET).tolist()).board
    ring = np.array(
        [[OFFSET - CELL, OFFSET - CELL], [OFFSET + 6 * CELL, OFFSET - CELL]]
        + [[OFFSET + 6 * CELL, OFFSET + 6 * CELL], [OFFSET - CELL, OFFSET + 6 * CELL]],
        np.float64,
    )
    doubt = "the tiles fill only 6×5 cells of this 7×7 frame: it may be a 5×5 kingdom framed"
    seven = location_from_corners(
        ring, 7, (doubt,), tile_span=(1, 6, 1, 7), image_shape=photo.shape[:2]
    )
    reading = _read_at(photo, photo, seven, None)
    assert reading.size == 5 and reading.board == expected
    np.testing.assert_allclose(reading.location.corners, _frame(OFFSET, OFFSET), atol=1e-6)
    assert RING_OF_TABLE in reading.warnings and doubt not in reading.warnings
    asked = _read_at(photo, photo, seven, 7)
    assert asked.size == 7 and RING_OF_TABLE not in asked.warnings


def test_a_black_and_white_photo_is_told_it_has_no_colour():
    photo = cv2.imread(str(SAMPLE))
    grey = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    ok, jpeg = cv2.imencode(".jpg", grey)
    for source in (grey, jpeg.tobytes()):
        with pytest.raises(ImageError, match="has no colour"):
            read_image(source)
    assert read_image(photo).size == 5  # the same photo in colour is read
    blank = np.full((600, 800, 3), 128, np.uint8)
    with pytest.raises(ValueError, match="nothing stands out"):  # no picture: not "no colour"
        read_image(blank)


@pytest.mark.parametrize("size", [5, 7])
def test_a_side_of_table_puts_a_seven_by_seven_frame_in_doubt_whole(size):
    """A line of table along a side is flagged; on a 7×7 frame, which a kingdom at a game's
    end fills but for a few discarded dominoes, every cell is: the lattice is off the tiles
    (camera scene 8796, half a cell off: 18 wrong cells unmarked). A 5×5 frame may hold a
    smaller kingdom round its castle, so there only the line is."""
    from tests.vision.test_decode import probabilities, random_kingdom
    from vision.cells import CellReadings
    from vision.labels import TERRAINS
    from vision.pipeline import _open_sides_in_doubt

    terrain, crowns = probabilities(random_kingdom(size, 3))
    terrain[:, 0] = 0.01
    terrain[:, 0, TERRAINS.index(Terrain.EMPTY)] = 0.93  # the left column reads as table
    table = np.zeros((size, size), bool)
    table[:, 0] = True  # and looks like it: holes the table confirms, no look asked for them
    cells = CellReadings(terrain, crowns, 0.5, joint_decoding=False, sure_holes=table)
    assert not cells.uncertain.any()
    flagged = _open_sides_in_doubt(cells).uncertain
    assert flagged[:, 0].all()
    assert flagged[:, 1:].all() if size == 7 else not flagged[:, 1:].any()


def test_a_frame_off_the_tiles_seams_is_flagged_whole(shared_dir):
    """A frame the finder chose that lies across the tiles' seams (the lattice sheared off
    them, as on camera scene 7812's cutting mat) has every cell flagged, saying why; on the
    tiles, nothing is."""
    from tests.vision.test_holes import photo_with_holes
    from vision.find import location_from_corners
    from vision.pipeline import OFF_THE_SEAMS, _read_at

    photo = photo_with_holes(shared_dir, [])
    on = location_from_corners(
        _frame(OFFSET, OFFSET), 5, tile_span=(0, 5, 0, 5), image_shape=photo.shape[:2]
    )
    reading = _read_at(photo, photo, on, None)
    assert OFF_THE_SEAMS not in reading.warnings and reading.cells.in_doubt is None
    sheared = _frame(OFFSET, OFFSET)
    sheared[2:, 0] += CELL // 2  # the bottom edge half a cell right: the lower rows across seams
    off = location_from_corners(sheared, 5, tile_span=(0, 5, 0, 5), image_shape=photo.shape[:2])
    reading = _read_at(photo, photo, off, None)
    assert OFF_THE_SEAMS in reading.warnings
    assert reading.cells.uncertain.all()
