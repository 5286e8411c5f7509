"""The kingdom decision: nothing is read as a kingdom unless a lattice of real tiles is seen."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.synth import _background, make_scene
from vision.find import NoBoardFound, find_board
from vision.find.decision import (
    FOUND_MIN_CELL_SPREAD,
    FOUND_MIN_EDGE_SHARE,
    PX,
    lattice_evidence,
    lies_against_whole_kingdom,
    runs_on_to_edge,
    seams_verdict,
    straightened_view,
    tiles_seen,
)


def _full(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def _noise(shape, seed=0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)


@pytest.mark.parametrize(
    "image",
    [
        np.full((800, 800, 3), 255, np.uint8),  # blank white, square: looks "straightened"
        np.zeros((600, 600, 3), np.uint8),
        np.full((3000, 3000, 3), (40, 120, 200), np.uint8),  # one colour
        np.full((900, 1600, 3), 90, np.uint8),
        _noise((800, 800, 3)),
        _noise((900, 1200, 3), 1),
        np.dstack([np.tile(np.linspace(0, 255, 700), (700, 1))] * 3).astype(np.uint8),
    ],
    ids=["white", "black", "one-colour", "grey-wide", "noise-square", "noise", "gradient"],
)
def test_images_without_tiles_are_refused(image):
    with pytest.raises(NoBoardFound, match="^no kingdom found: "):
        find_board(image)


def test_a_huge_one_colour_image_is_refused_through_the_pipeline():
    from vision.pipeline import read_image

    ok, png = cv2.imencode(".png", np.full((7000, 7000, 3), (200, 180, 40), np.uint8))
    assert ok
    with pytest.raises(NoBoardFound, match="^no kingdom found: "):
        read_image(png.tobytes())


def test_corners_enclosing_no_tiles_are_refused():
    table = _background(np.random.default_rng(3), "wood", 900, 1200).clip(0, 255)
    table = table.astype(np.uint8)
    corners = [[100, 100], [700, 120], [690, 720], [90, 700]]
    with pytest.raises(NoBoardFound, match="enclose no grid of tiles"):
        find_board(table, corners=corners)
    with pytest.raises(NoBoardFound, match="enclose no grid of tiles"):
        find_board(table, size=5, corners=corners)


@pytest.mark.parametrize(
    "corners",
    [
        [[0, 0], [0, 0], [0, 0], [0, 0]],
        [[10, 10], [500, 10], [900, 10], [300, 10]],  # all on one line
        [[np.nan, 0], [500, 0], [500, 500], [0, 500]],
        [[0, 0], [500, 0], [500, 500]],
    ],
    ids=["one-point", "collinear", "nan", "three"],
)
def test_degenerate_corners_are_refused(corners, shared_dir):
    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg"))
    with pytest.raises(NoBoardFound, match="^no kingdom found: "):
        find_board(board, corners=np.array(corners, dtype=np.float64))


def test_corners_around_a_real_kingdom_are_accepted(shared_dir):
    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "20.jpg"))
    table = _background(np.random.default_rng(1), "carpet", 900, 1200).clip(0, 255)
    table = table.astype(np.uint8)
    table[200:700, 300:800] = board
    # Tapped a little off (10 px of a 100 px cell): still the kingdom.
    location = find_board(table, corners=[[308, 195], [795, 210], [790, 705], [296, 690]])
    assert location.size == 5


def test_a_mat_grid_matching_the_lattice_is_not_tiles():
    """Edges exactly on the lattice but every cell the same: a cutting mat, not a kingdom."""
    mat = np.full((700, 700, 3), (60, 140, 80), np.uint8)
    for i in range(0, 701, 100):
        cv2.line(mat, (i, 0), (i, 700), (230, 230, 230), 2)
        cv2.line(mat, (0, i), (700, i), (230, 230, 230), 2)
    share, spread = lattice_evidence(straightened_view(mat, _full(mat), 7), 7)
    assert share > 0.9 and spread < 5
    assert not tiles_seen(mat, _full(mat), 7)


def test_real_and_synthetic_kingdoms_show_tiles(shared_dir):
    images = shared_dir / "datasets" / "aau-boards" / "images"
    for name in ("1.jpg", "33.jpg", "61.jpg"):
        board = cv2.imread(str(images / name))
        assert tiles_seen(board, _full(board), 5), name
    for seed in (1, 2, 4):
        scene = make_scene(seed, photo_long_side=1000)
        assert tiles_seen(scene.image, scene.corners, scene.size), seed


def test_real_kingdoms_pass_the_stricter_check_of_a_found_kingdom(shared_dir):
    images = shared_dir / "datasets" / "aau-boards" / "images"
    for name in ("1.jpg", "48.jpg", "61.jpg"):  # 48: the lowest edge share of the aau boards
        board = cv2.imread(str(images / name))
        assert tiles_seen(board, _full(board), 5, FOUND_MIN_EDGE_SHARE, FOUND_MIN_CELL_SPREAD)


def test_the_view_of_a_frame_in_a_big_photo_is_the_frame_warped_from_the_whole_photo():
    # The view is warped from the frame's bounding box only; it must be the same view.
    rng = np.random.default_rng(3)
    photo = rng.integers(0, 256, (600, 900, 3), dtype=np.uint8)
    corners = np.array([[300.4, 200.7], [440.2, 210.1], [430.5, 350.9], [290.8, 340.3]])
    side = 5 * PX
    target = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    whole = cv2.warpPerspective(photo, warp, (side, side), flags=cv2.INTER_LINEAR)
    view = straightened_view(photo, corners, 5)
    assert np.abs(view.astype(int) - whole.astype(int)).max() <= 1
    # A frame partly past the photo's edge still gets its view, the outside black.
    past = corners - (320, 0)
    view = straightened_view(photo, past, 5)
    assert view.shape == (side, side, 3) and (view[:, :10] == 0).all()


def test_a_big_frame_lying_almost_wholly_past_the_photo_gets_a_view_not_an_error():
    """A lattice fitted in a blob at the photo's edge can give a frame many times the photo with
    a sliver of it inside; shrunk to the view's scale, that sliver rounded to no pixels and
    OpenCV refused the resize (a traceback on development scene 9369 of lab.synth grid_mat)."""
    photo = np.random.default_rng(4).integers(0, 256, (200, 200, 3), dtype=np.uint8)
    corners = np.array([[199.6, 0.0], [3000.0, 0.0], [3000.0, 2800.0], [199.6, 2800.0]])
    view = straightened_view(photo, corners, 5)
    assert view.shape == (5 * PX, 5 * PX, 3)
    assert not tiles_seen(photo, corners, 5)


def test_the_view_size_is_checked():
    with pytest.raises(ValueError, match="view must be"):
        lattice_evidence(np.zeros((100, 100, 3), np.uint8), 5)


def _location(corners, size=5, span=None, shape=(1000, 1600)):
    from vision.find import location_from_corners

    return location_from_corners(np.array(corners, float), size, image_shape=shape, tile_span=span)


def test_cut_off_needs_the_border_and_missing_cells_or_a_frame_outside():
    from vision.find.decision import cut_off_sentence

    inside = [[100, 100], [600, 100], [600, 600], [100, 600]]
    assert cut_off_sentence(_location(inside, span=(0, 5, 0, 5)), touches=True) is None
    assert cut_off_sentence(_location(inside, span=(0, 5, 0, 3)), touches=False) is None
    # Tiles short of the frame by two columns, the frame half a cell from the left edge.
    half = [[50, 100], [550, 100], [550, 600], [50, 600]]
    short = cut_off_sentence(_location(half, span=(0, 5, 0, 3)), touches=True)
    assert short == "a kingdom at the left is cut by the photo's edge"
    # A cell of table or more between the frame and every edge: the missing tiles cannot lie
    # beyond the photo (the blob touched the edge through a neighbour), unless the frame sits
    # poorly on the tiles, as a frame guessed over a fragment does.
    assert cut_off_sentence(_location(inside, span=(0, 5, 0, 3)), touches=True) is None
    poorly = cut_off_sentence(_location(inside, span=(0, 5, 0, 3)), touches=True, support=0.5)
    assert poorly == "a kingdom at the left is cut by the photo's edge"
    # Whole span, but the frame reaches 40 px (0.4 cell) past the right edge.
    out = [[1140, 300], [1640, 300], [1640, 800], [1140, 800]]
    assert "at the right" in cut_off_sentence(_location(out, span=(0, 5, 0, 5)), touches=True)
    # A frame within a tenth of a cell of the edge that sits well on its tiles is a kingdom laid
    # right at the edge; one that sits poorly was squeezed into the photo from a cut kingdom.
    edge = [[1095, 300], [1595, 300], [1595, 800], [1095, 800]]
    assert cut_off_sentence(_location(edge, span=(0, 5, 0, 5)), touches=True) is None
    squeezed = cut_off_sentence(_location(edge, span=(0, 5, 0, 5)), touches=True, support=0.5)
    assert squeezed == "a kingdom at the right reaches the photo's edge and may be cut by it"
    # Between squeezed frames (0.40-0.64 on development scenes) and complete kingdoms (0.70 up):
    # a complete kingdom a seam short of 0.70 (game2.jpg turned half round: 0.69) is complete.
    assert cut_off_sentence(_location(edge, span=(0, 5, 0, 5)), touches=True, support=0.69) is None
    assert cut_off_sentence(_location(edge, span=(0, 5, 0, 5)), touches=True, support=0.64)
    # Its lines on their seams (``seams_verdict`` "on"), the seams merely faint: a soft photo of
    # a kingdom laid right at the edge.
    faint = cut_off_sentence(_location(edge, span=(0, 5, 0, 5)), True, support=0.5, seams="on")
    assert faint is None
    # A fifth of a cell short of the edge: squeezed only when its seams drift off its lines
    # (development scene 7497 blurred); a third of a cell of table: not flush, whatever the fit.
    fifth = _location([[1080, 300], [1580, 300], [1580, 800], [1080, 800]], span=(0, 5, 0, 5))
    assert cut_off_sentence(fifth, touches=True, support=0.5) is None
    assert cut_off_sentence(fifth, touches=True, support=0.5, seams="off")
    near = _location([[1070, 300], [1570, 300], [1570, 800], [1070, 800]], span=(0, 5, 0, 5))
    assert cut_off_sentence(near, touches=True, support=0.5, seams="off") is None
    # Tile seams seen running on past the frame into the edge (extent.tiles_past_edge).
    assert "at the right" in cut_off_sentence(near, touches=True, past_edge=True)


def _lines(inner_offsets, inner_strengths, sides=(0.0, 3.0)):
    """``edges.line_seams``' answer for a 5×5 frame: inner lines 1-4 of each way as given
    (vertical then horizontal), every side (lines 0 and 5) finding an edge at ``sides``."""
    vertical = np.repeat([True, False], 6)
    line = np.tile(np.arange(6), 2)
    offsets, strengths = np.full(12, sides[0]), np.full(12, sides[1])
    inner = (line > 0) & (line < 5)
    offsets[inner], strengths[inner] = inner_offsets, inner_strengths
    return vertical, line, offsets, strengths


def test_a_frame_lies_on_its_seams_unless_a_seam_shows_off_its_line_or_few_show():
    none_open = np.zeros(12, bool)
    # Faint seams, every one within a tenth of a cell of its line (a soft photo), the sides on
    # the kingdom's outline.
    on = [0.0, 0.05, -0.1, 0.025, 0.0, -0.05, 0.075, 0.0]
    faint = [1.6, 1.5, 2.0, 1.7, 1.9, 1.5, 1.6, 2.2]
    assert seams_verdict(*_lines(on, faint), none_open) == "on"
    # A weak peak elsewhere (under SEAM_MIN_STRENGTH: the tiles' pictures) says nothing.
    stray, weak = list(on), list(faint)
    stray[2], weak[2] = 0.5, 1.4
    assert seams_verdict(*_lines(stray, weak), none_open) == "on"
    # Seams drifting off the lines toward the cut: a frame squeezed into the photo
    # (development scene 7497: 0.03, 0.23, 0.35, 0.5 of a cell). One clear seam off is enough.
    drift = [0.025, 0.225, 0.35, 0.5, 0.0, -0.05, 0.0, 0.025]
    assert seams_verdict(*_lines(drift, [4.0] * 8), none_open) == "off"
    assert seams_verdict(*_lines(stray, faint), none_open) == "off"
    # Fewer than half the lines of a way find their seam: nothing says the frame is on them.
    few = list(faint)
    few[0] = few[1] = few[2] = 1.3
    assert seams_verdict(*_lines(on, few), none_open) is None
    # No outline on the sides (a frame over parts of a cut kingdom and the table, development
    # scene 7871), unless the side lies at the photo's edge, where none can show; but an edge
    # there well inside the side (a cut kingdom's tiles, development scene 7120) is no outline.
    no_outline = _lines(on, faint, sides=(0.0, 1.3))
    assert seams_verdict(*no_outline, none_open) is None
    assert seams_verdict(*no_outline, ~((no_outline[1] > 0) & (no_outline[1] < 5))) == "on"
    open_right = (_lines(on, faint)[0]) & (_lines(on, faint)[1] == 5)
    vertical, line, offsets, strengths = _lines(on, faint)
    offsets[open_right] = -0.225
    assert seams_verdict(vertical, line, offsets, strengths, open_right) is None


def test_a_frame_with_a_cell_past_the_photo_reaches_past_it():
    from vision.find.decision import reaches_past_photo

    # 100-px cells in a 1000×1600 photo: the last row's centres at y = 1050.
    below = [[300, 600], [800, 600], [800, 1100], [300, 1100]]
    assert reaches_past_photo(_location(below))
    # Corners a little past the edge, every cell's centre inside: not.
    edge = [[300, 520], [800, 520], [800, 1020], [300, 1020]]
    assert not reaches_past_photo(_location(edge))


def _tiles_mask(rows: range, columns: range, pitch: int = 40, shape=(400, 600)) -> np.ndarray:
    """A table model's mask: square tiles at ``pitch``, gaps of 4 px between them."""
    mask = np.zeros(shape, np.uint8)
    for r in rows:
        for c in columns:
            y, x = r * pitch, c * pitch
            mask[max(0, y + 2) : y + pitch - 2, max(0, x + 2) : x + pitch - 2] = 255
    return mask


def test_tiles_running_on_from_the_frame_to_the_photo_edge_mean_it_is_cut():
    """A 5×5 frame over rows 1-5 of tiles (40 px cells, the photo's top edge at y = 0)."""
    frame = np.array([[80, 40], [280, 40], [280, 240], [80, 240]], float)
    # A sixth row, between the frame and the photo's top edge: a 7×7 cut by the edge.
    assert runs_on_to_edge(_tiles_mask(range(0, 6), range(2, 7)), frame, 5)
    # The kingdom alone, table between it and the edge: complete.
    assert not runs_on_to_edge(_tiles_mask(range(1, 6), range(2, 7)), frame, 5)
    # A box along the edge, more than half a cell from the frame, is not the kingdom's.
    box = _tiles_mask(range(1, 6), range(2, 7))
    box[:16, 60:300] = 255
    assert not runs_on_to_edge(box, frame, 5)
    # Nor a cup under a cell's size touching both.
    cup = _tiles_mask(range(1, 6), range(2, 7))
    cup[0:42, 150:170] = 255
    assert not runs_on_to_edge(cup, frame, 5)
    # Nor a box as big as two cells that comes near the frame only at its corner: a cut
    # neighbour, not rows of this kingdom, which lie along a whole side.
    corner = _tiles_mask(range(1, 6), range(2, 7))
    corner[:36, :82] = 255
    assert not runs_on_to_edge(corner, frame, 5)
    # Nor cards laid along a side a fifth of a cell off it (development scene 9679): the
    # next row of a kingdom lies a domino's gap away.
    cards = _tiles_mask(range(1, 6), range(2, 7))
    cards[:31, 60:220] = 255
    assert not runs_on_to_edge(cards, frame, 5)


def test_tiles_running_on_past_one_side_of_a_frame_with_table_along_three_are_a_neighbours():
    """A 5×5 frame over rows 1-5, columns 2-6 of tiles (40 px cells). A neighbour pushed
    against its right side, half a cell lower, runs on to the photo's right edge: with table
    above, below and left of the frame no 7×7 kingdom holds it, so the run is not its cut rows."""
    frame = np.array([[80, 40], [280, 40], [280, 240], [80, 240]], float)
    neighbour = _tiles_mask(range(1, 6), range(2, 7), shape=(400, 370))
    neighbour[62:, 284:] = 255  # its tiles joined in the mask, to the photo's edge
    assert runs_on_to_edge(neighbour, frame, 5)
    assert lies_against_whole_kingdom(neighbour, frame, 5)
    # The kingdom's own sixth row below the frame: a 7×7 cut by the right edge may hold it.
    sixth = neighbour.copy()
    sixth[240:280, :284] = _tiles_mask(range(6, 7), range(0, 10), shape=(400, 370))[240:280, :284]
    assert not lies_against_whole_kingdom(sixth, frame, 5)
    # The frame's top row at the photo's top edge: the row above it is past the photo, where
    # a cut kingdom's rows may lie.
    at_top = np.zeros_like(neighbour)
    at_top[:360] = neighbour[40:400]
    assert not lies_against_whole_kingdom(at_top, frame - [0, 40], 5)


def test_a_frame_over_parts_of_two_kingdoms_is_not_a_whole_one_a_neighbour_lies_against():
    """Tiles run on past the frame's right side to the photo's edge (40 px cells): a kingdom
    cut by the edge, framed with a column of table and the last column of the kingdom on its
    left inside the frame (the frame's columns 2-6 over tiles in columns 0-2 and 4-6, and
    past them)."""
    frame = np.array([[80, 40], [280, 40], [280, 240], [80, 240]], float)
    two = _tiles_mask(range(1, 6), [*range(0, 3), *range(4, 7)], shape=(400, 350))
    two[42:238, 284:] = 255  # the cut kingdom's tiles joined in the mask, to the photo's edge
    assert runs_on_to_edge(two, frame, 5)
    assert not lies_against_whole_kingdom(two, frame, 5)
    # Table on three sides, but the column of table across the frame still parts two kingdoms.
    parted = two.copy()
    parted[:, :80] = 0
    assert not lies_against_whole_kingdom(parted, frame, 5)
    # That column filled: one kingdom with table on three sides, what runs on a neighbour's.
    filled = parted | _tiles_mask(range(1, 6), [3], shape=(400, 350))
    assert lies_against_whole_kingdom(filled, frame, 5)


def test_touches_border():
    from vision.find.decision import touches_border

    blob = np.zeros((400, 600), np.uint8)
    blob[100:200, 100:200] = 255
    assert not touches_border(blob)
    blob[100:200, 598:] = 255
    assert touches_border(blob)


def test_reading_order_is_rows_then_left_to_right():
    from vision.find.decision import reading_order, where_in_photo

    def square(x, y):
        return _location([[x, y], [x + 300, y], [x + 300, y + 300], [x, y + 300]])

    a, b, c, d = square(900, 80), square(100, 120), square(500, 600), square(1200, 560)
    assert reading_order([a, b, c, d]) == [b, a, c, d]
    assert reading_order([]) == []
    assert where_in_photo(np.array([800, 500]), (1000, 1600)) == "in the middle"
    assert where_in_photo(np.array([1500, 950]), (1000, 1600)) == "at the bottom right"


def test_lattice_evidence_counts_each_segment_as_measuring_it_alone_does(shared_dir):
    """The segments, measured all at once, give the share of a segment-by-segment count."""
    from vision.find.decision import (
        EDGE_TOLERANCE,
        MIN_EDGE_GRADIENT,
        PX,
        lattice_evidence,
        straightened_view,
    )
    from vision.find.edges import gradient_images
    from vision.stats import median

    photo = cv2.imread(str(shared_dir / "datasets" / "photos" / "game2.jpg"))
    h, w = photo.shape[:2]
    rng = np.random.default_rng(3)
    for size in (5, 7, 7):
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) * rng.uniform(0.6, 1.0)
        view = straightened_view(photo, corners + rng.uniform(0, 40, (4, 2)), size)
        reach, window, trim = round(EDGE_TOLERANCE * PX), round(0.45 * PX), round(0.2 * PX)
        hits = total = 0
        for g in gradient_images(view)[0], gradient_images(view)[1].T:
            for centre in range(PX, size * PX, PX):
                for j in range(size):
                    band = g[j * PX + trim : (j + 1) * PX - trim]
                    strip = band[:, centre - window : centre + window + 1].mean(axis=0)
                    peak = float(strip[window - reach : window + reach + 1].max())
                    total += 1
                    hits += peak >= MIN_EDGE_GRADIENT and peak >= 1.6 * float(median(strip)) + 1e-6
        assert lattice_evidence(view, size)[0] == hits / total


def test_what_stands_out_in_a_frame_reaches_the_edge_only_when_its_own_tiles_do():
    from vision.find.decision import stands_out_at_edge

    # A 5×5 frame of 40 px cells over rows 0-4 of tiles, flush with the photo's top edge.
    flush = np.array([[80, 0], [280, 0], [280, 200], [80, 200]], float)
    assert stands_out_at_edge(_tiles_mask(range(0, 5), range(2, 7)), flush, 5)
    # The same kingdom half a cell below the edge, a score pad on the edge above it (apart
    # by table): its own tiles do not reach the edge.
    apart = np.array([[80, 20], [280, 20], [280, 220], [80, 220]], float)
    mask = np.zeros((400, 600), np.uint8)
    mask[22:218, 82:278] = 255
    mask[:4, 60:300] = 255  # the pad, 16 px from the frame
    assert not stands_out_at_edge(mask, apart, 5)
