"""A kingdom's extent on its lattice: the frame grows along it over tiles the table model
missed, not over plain table, is placed over the tiles, and a kingdom whose seams run on into
the photo's edge is cut."""

from __future__ import annotations

import cv2
import numpy as np

from lab.tables import _table
from tests.vision.find.conftest import draw_tiles, lay
from vision.find.extent import (
    _fullest_window,
    _lean,
    _spare_before,
    place_frame,
    tiles_past_edge,
)
from vision.find.search import find_kingdoms


def _beige_top_row(board: np.ndarray, colour: np.ndarray) -> None:
    """The board's top row recoloured to ``colour`` (its picture's detail kept), with dark seams
    between the tiles and along its outer side: tiles that look like the table."""
    cell = board.shape[1] // 5
    row = board[:cell].astype(np.float32)
    grey = row.mean(axis=2, keepdims=True)
    beige = colour + 0.8 * (grey - grey.mean())
    for x in range(0, board.shape[1] + 1, cell):
        beige[:, max(0, x - 2) : x + 2] = 0.45 * colour
    beige[:2] = 0.45 * colour
    board[:cell] = np.clip(beige, 0, 255).astype(np.uint8)


def test_a_row_of_table_coloured_tiles_is_in_the_frame(aau_board):
    cork = _table(np.random.default_rng(3), "cork", 900, 1200).clip(0, 255).astype(np.uint8)
    board = cv2.resize(aau_board(4), (400, 400), interpolation=cv2.INTER_AREA)
    _beige_top_row(board, cork[:100, :100].reshape(-1, 3).mean(axis=0))
    lay(cork, board, 400, 250)
    (kingdom,) = find_kingdoms(cork).kingdoms
    truth = np.array([[400, 250], [800, 250], [800, 650], [400, 650]], float)
    # A frame a row short is placed a whole cell (80 px) off.
    assert np.abs(kingdom.corners - truth).max() < 16
    assert kingdom.tile_span == (0, 5, 0, 5)


def test_tile_seams_running_on_into_the_photo_edge_mean_a_cut_kingdom():
    """A 5×5 frame 0.4 cell short of the photo's right edge: a column of tiles beyond it that
    the edge cuts is more kingdom (cut off); plain table there is not."""
    frame = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    cut = np.full((500, 424, 3), 200, np.uint8)
    draw_tiles(cut, 6, 5, 100, 100, 60)  # the sixth column runs 24 px (0.4 cell) into the edge
    assert tiles_past_edge(cut, frame, 5)
    clear = np.full((500, 424, 3), 200, np.uint8)
    draw_tiles(clear, 5, 5, 100, 100, 60)
    assert not tiles_past_edge(clear, frame, 5)


def test_a_last_column_laid_unevenly_is_not_a_cut_one():
    """Dominoes never lie perfectly on a lattice: the last column's tiles ending a fifth of a
    cell apart put edges on the seams' lines just past the frame (kd_czech_04 in ../shared,
    tilted), but the strip beyond them is table; a column cut by the edge carries its seams
    across the strip."""
    frame = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    uneven = np.full((500, 440, 3), 200, np.uint8)
    draw_tiles(uneven, 5, 5, 100, 100, 60)
    for r in (0, 2, 4):  # these rows' last tiles lie 12 px (0.2 cell) further right
        uneven[100 + 60 * r + 2 : 100 + 60 * (r + 1) - 2, 398:410] = uneven[100 + 60 * r + 30, 390]
    assert not tiles_past_edge(uneven, frame, 5)
    cut = np.full((500, 440, 3), 200, np.uint8)
    draw_tiles(cut, 6, 5, 100, 100, 60)  # a sixth column, 40 px (0.67 cell) of it in the photo
    assert tiles_past_edge(cut, frame, 5)


def test_seams_past_the_frame_count_only_where_something_stands_out_from_the_table():
    """A cloth's checks can line up with the seams: the strip must not be table, when the
    caller can tell (``stands_out``, asked only once seams are seen)."""
    frame = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    cut = np.full((500, 424, 3), 200, np.uint8)
    draw_tiles(cut, 6, 5, 100, 100, 60)
    asked = []

    def table_only() -> np.ndarray:
        asked.append(True)
        return np.zeros(cut.shape[:2], np.uint8)

    def tiles() -> np.ndarray:
        mask = np.zeros(cut.shape[:2], np.uint8)
        mask[100:400, 100:] = 255
        return mask

    assert not tiles_past_edge(cut, frame, 5, table_only)
    assert asked
    assert tiles_past_edge(cut, frame, 5, tiles)
    clear = np.full((500, 424, 3), 200, np.uint8)
    draw_tiles(clear, 5, 5, 100, 100, 60)
    asked.clear()
    assert not tiles_past_edge(clear, frame, 5, table_only)
    assert not asked  # no seams there: no second table model to pay for


def test_the_frame_does_not_grow_over_plain_table(aau_board):
    """A kingdom of four rows stays four rows: cork next to it shows no tile edges."""
    cork = _table(np.random.default_rng(3), "cork", 900, 1200).clip(0, 255).astype(np.uint8)
    board = cv2.resize(aau_board(4), (400, 400), interpolation=cv2.INTER_AREA)
    lay(cork, board[80:], 400, 330)
    (kingdom,) = find_kingdoms(cork).kingdoms
    assert kingdom.tile_span is not None
    row0, row1, col0, col1 = kingdom.tile_span
    assert (row1 - row0, col1 - col0) == (4, 5)


def test_an_odd_spare_cell_goes_to_the_side_with_more_tile_edges():
    """Tiles spanning 4 of 5 columns: the fifth is placed where the lattice shows more edges
    (a column of tiles too faint to grow over), and after the tiles when neither side does."""
    assert _lean(1.3, 0.2) == -1 and _lean(0.2, 1.3) == 1 and _lean(1.0, 0.8) == 0
    assert _spare_before(1, lean=-1) == 1
    assert _spare_before(1, lean=0) == 0 and _spare_before(1, lean=1) == 0
    assert _spare_before(2, lean=-1) == 1  # an even spare is shared whatever the lean
    assert _spare_before(3, lean=-1) == 2 and _spare_before(3, lean=0) == 1


def test_tiles_longer_than_the_frame_put_it_where_most_of_them_are():
    """Tiles over lattice rows 0-7 for a 7-row frame (pad 2: counts[i + 2] is row i): a glare
    spot made row 7 look like two tiles, row 0 holds seven real ones, so the frame starts at 0;
    with the spare row the fuller one, at 1. Equal windows keep the frame as first placed."""
    counts = np.array([0, 0, 7, 7, 7, 7, 7, 7, 7, 2, 0, 0])
    assert _fullest_window(counts, 2, 0, 8, 7, chosen=1) == 0
    assert _fullest_window(counts[::-1].copy(), 2, 0, 8, 7, chosen=0) == 1
    assert _fullest_window(np.full(12, 7), 2, 0, 8, 7, chosen=1) == 1
    assert _fullest_window(counts, 2, 0, 7, 7, chosen=0) == 0  # no longer than the frame


def test_a_glare_spot_beside_a_kingdom_does_not_push_its_frame_off_the_tiles():
    """Development hard scene 5227 (lab.synth): a 7×7 kingdom on a green checked cloth with a
    lamp's reflection against one side; the reflection stands out from the cloth as an eighth
    row of "tiles", and the frame was placed over it, a whole row off the kingdom."""
    from lab.evaluate_tables import corner_error
    from lab.synth import make_hard_scene
    from vision.find.search import find_board

    scene = make_hard_scene(5227)
    location = find_board(scene.image)
    assert location.size == 7
    assert corner_error(location.corners, scene.corners, 7) < 0.2


def test_tiles_six_cells_long_one_way_and_five_the_other_are_framed_seven_with_a_warning():
    """A lattice of 40 px cells from (100, 80): tiles over 6×5 of its cells. Six cells is more
    than a 5×5 kingdom, so the frame is 7×7, but on development scenes that was a 5×5 kingdom
    whose lattice lies half a cell off its tiles: the user is told to check it."""
    small = np.full((500, 600, 3), 128, np.uint8)  # no edges: the frame grows over nothing
    to_lattice = np.array([[1, 0, 20 - 100], [0, 1, 20 - 80], [0, 0, 1]], float)
    mask = np.zeros((500, 600), np.uint8)
    mask[80 : 80 + 5 * 40, 100 : 100 + 6 * 40] = 255
    _, size, span, warnings, _ = place_frame(small, mask, to_lattice, 6, 5, None)
    assert size == 7 and (span[1] - span[0], span[3] - span[2]) == (5, 6)
    assert any("may be a 5×5 kingdom" in warning for warning in warnings)
    mask[80 : 80 + 6 * 40, 100 : 100 + 6 * 40] = 255  # six rows too: a 7×7 short of one
    _, size, _, warnings, _ = place_frame(small, mask, to_lattice, 6, 6, None)
    assert size == 7 and not any("may be a 5×5 kingdom" in warning for warning in warnings)
