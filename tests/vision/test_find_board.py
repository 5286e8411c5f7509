"""find_board and rectify: real photos, straightened boards, synthetic scenes, given corners, and
the photos that must be refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.synth import _background, make_scene
from vision.find import BoardLocation, NoBoardFound, find_board, location_from_corners
from vision.load_image import ImageError, load_image
from vision.rectify import cell_grid, draw_overlay, straighten


def _labels(path) -> list[str]:
    return [" ".join(line.split()) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def game_photos(shared_dir):
    photos = shared_dir / "datasets" / "photos"
    return {name: load_image(photos / f"{name}.jpg") for name in ("game1", "game2")}


@pytest.mark.parametrize("name", ["game1", "game2"])
def test_real_photo_is_found_as_7x7(game_photos, name):
    image = game_photos[name]
    location = find_board(image)
    assert location.size == 7 and not location.straightened and location.warnings == ()
    h, w = image.shape[:2]
    corners = location.corners
    # The kingdom fills the photo's width, in its middle third or so, upright (TL top-left).
    assert (corners[:, 0] > -0.05 * w).all() and (corners[:, 0] < 1.05 * w).all()
    assert corners[0, 0] < corners[1, 0] and corners[0, 1] < corners[3, 1]
    side = np.linalg.norm(corners[1] - corners[0])
    assert 0.8 * w < side < 1.0 * w


@pytest.mark.parametrize("name", ["game1", "game2"])
def test_real_photo_reads_end_to_end(shared_dir, name):
    from vision.pipeline import read_image

    path = shared_dir / "datasets" / "photos" / f"{name}.jpg"
    reading = read_image(path)
    assert reading.board.rows_text() == _labels(path.with_suffix(".txt"))


def test_straightened_boards_are_recognised(shared_dir):
    images = shared_dir / "datasets" / "aau-boards" / "images"
    for name in ("1.jpg", "20.jpg", "44.jpg", "61.jpg"):
        image = cv2.imread(str(images / name))
        location = find_board(image)
        assert location.straightened and location.size == 5, name
        np.testing.assert_allclose(location.corners, [[0, 0], [500, 0], [500, 500], [0, 500]])


@pytest.mark.parametrize(
    ("name", "size", "degrees"),
    [("1", 5, 2.5), ("13", 5, 2.5), ("40", 5, 2.5), ("1", 7, 5.0), ("44", 7, -5.0)],
)
def test_a_tight_crop_is_framed_on_its_tiles(shared_dir, name, size, degrees):
    """A photo cropped tight round a kingdom lying a few degrees askew on a patterned cloth is
    taken as the board (no table to speak of), but framed on its tiles, not on the crop's edges:
    the whole crop is 0.3 (5×5, 2.5 degrees) to 0.7 cell (7×7, 5 degrees) off the kingdom's
    corners, and cells cut that far off read half of the next tile."""
    from lab.synth import _printed_cloth

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / f"{name}.jpg"))
    board = cv2.resize(board, (500, 500), interpolation=cv2.INTER_AREA)
    side = 100 * size
    if size == 7:  # the 5×5 board's cells laid out 7×7, row and column wrapping round
        board = np.tile(board, (2, 2, 1))[:side, :side]
    cloth = _printed_cloth(np.random.default_rng(1), 1100, 1100, 40).clip(0, 255).astype(np.uint8)
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), degrees, 1.0)
    turn[:, 2] += (1100 - side) / 2
    laid = cv2.warpAffine(board, turn, (1100, 1100))
    alpha = cv2.warpAffine(np.ones((side, side), np.float32), turn, (1100, 1100))[..., None]
    photo = (cloth * (1 - alpha) + laid * alpha).astype(np.uint8)
    square = np.array([[[0, 0], [side, 0], [side, side], [0, side]]], np.float64)
    corners = cv2.transform(square, turn)[0]
    low = np.floor(corners.min(axis=0) - 8).astype(int)  # 0.08 cell of cloth beyond it
    high = np.ceil(corners.max(axis=0) + 8).astype(int)
    crop = np.ascontiguousarray(photo[low[1] : high[1], low[0] : high[0]])
    location = find_board(crop, size)
    assert location.straightened and location.size == size
    assert np.abs(location.corners - (corners - low)).max() < 0.1 * 100


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13])
def test_synthetic_scenes(seed, shared_dir):  # the scenes are made of aau-boards images
    scene = make_scene(seed, photo_long_side=1200)
    location = find_board(scene.image)
    assert location.size == scene.size
    cell = np.linalg.norm(scene.corners[1] - scene.corners[0]) / scene.size
    errors = [
        np.linalg.norm(np.roll(location.corners, k, axis=0) - scene.corners, axis=1).mean()
        for k in range(4)
    ]
    assert min(errors) / cell < 0.2


def test_given_corners_skip_the_search(game_photos):
    image = game_photos["game1"]
    found = find_board(image)
    shuffled = found.corners[[2, 0, 3, 1]]  # any order: they are put in TL, TR, BR, BL order
    given = find_board(image, corners=shuffled)
    np.testing.assert_allclose(given.corners, found.corners)
    assert given.size == 7  # found from the lattice inside the corners
    assert find_board(image, size=5, corners=shuffled).size == 5


def test_size_override(game_photos):
    assert find_board(game_photos["game2"], size=7).size == 7
    scene = make_scene(1, photo_long_side=1200)
    assert scene.size == 5  # seed 1 makes a 5×5 kingdom
    location = find_board(scene.image, size=7)
    assert location.size == 7  # the frame grows around the tiles
    with pytest.raises(ValueError, match="5 or 7"):
        find_board(scene.image, size=6)


@pytest.mark.parametrize("kind", ["plain", "wood", "carpet", "cloth", "cutting_mat"])
def test_a_table_without_kingdom_is_refused(kind):
    table = _background(np.random.default_rng(7), kind, 900, 1200).clip(0, 255).astype(np.uint8)
    with pytest.raises(NoBoardFound, match="no kingdom found"):
        find_board(table)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_colourful_blob_without_tiles_is_refused(seed):
    from lab.synth import _smooth_noise

    rng = np.random.default_rng(seed)
    table = _background(rng, "carpet", 900, 1200).clip(0, 255).astype(np.uint8)
    blob = np.stack([_smooth_noise(rng, 400, 400, 40, 60) + 128 for _ in range(3)], axis=-1)
    y, x = np.mgrid[0:400, 0:400]
    shape = [np.ones((400, 400), bool), (y - 200) ** 2 + (x - 200) ** 2 < 190**2][seed % 2]
    table[250:650, 400:800][shape] = blob.clip(0, 255).astype(np.uint8)[shape]
    with pytest.raises(NoBoardFound, match="no kingdom found"):
        find_board(table)


def _aau_board_path():
    from lab.data import shared_dir

    return shared_dir() / "datasets" / "aau-boards" / "images" / "1.jpg"


def test_empty_and_tiny_images_are_refused():
    with pytest.raises(NoBoardFound, match="no kingdom found"):
        find_board(np.full((600, 800, 3), 128, np.uint8))
    with pytest.raises(ImageError, match="too small"):
        find_board(np.zeros((20, 20, 3), np.uint8))
    with pytest.raises(TypeError):
        find_board(np.zeros((100, 100, 3), np.float32))


def test_two_kingdoms_give_the_larger_and_a_warning():
    table = _background(np.random.default_rng(3), "carpet", 1200, 1600).clip(0, 255)
    table = table.astype(np.uint8)
    board = cv2.imread(str(_aau_board_path()))
    if board is None:
        pytest.skip("shared data not available")
    table[200:700, 100:600] = board
    table[300:700, 900:1300] = cv2.resize(board, (400, 400))
    location = find_board(table)
    assert any("two kingdoms" in w for w in location.warnings)
    assert location.corners[:, 0].max() < 650  # the larger, left one


def test_board_location_is_frozen_and_checked():
    location = location_from_corners([[0, 0], [500, 0], [500, 500], [0, 500]], 5)
    with pytest.raises(ValueError):
        location.corners[0, 0] = 3  # read-only array
    with pytest.raises(AttributeError):
        location.size = 7  # frozen dataclass
    with pytest.raises(ValueError, match="5 or 7"):
        BoardLocation(np.zeros((4, 2)), 6, np.eye(3))
    with pytest.raises(ValueError, match="3×3"):
        BoardLocation(np.zeros((4, 2)), 5, np.eye(2))


def test_straighten_grid_and_overlay(game_photos):
    image = game_photos["game1"]
    location = find_board(image)
    board = straighten(image, location, px_per_cell=64)
    assert board.shape == (7 * 64, 7 * 64, 3) and board.dtype == np.uint8
    grid = cell_grid(location)
    assert grid.shape == (7, 7, 4, 2)
    np.testing.assert_allclose(grid[0, 0, 0], location.corners[0], atol=1e-6)
    np.testing.assert_allclose(grid[6, 6, 2], location.corners[2], atol=1e-6)
    overlay = draw_overlay(image, location)
    assert overlay.shape == image.shape and (overlay != image).any()


def test_a_short_kingdom_gets_its_castle_centred(shared_dir):
    """Four rows of a 5×5 board with the castle in the second: the empty row goes on top."""
    from vision.pipeline import read_image

    board = cv2.imread(str(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg"))
    table = _background(np.random.default_rng(1), "wood", 1200, 1600).clip(0, 255)
    table = table.astype(np.uint8)
    table[300:700, 500:1000] = board[100:]  # rows 1-4: the castle (row 2) is now in row 1
    found = find_board(table)
    assert found.size == 5 and found.tile_span == (0, 4, 0, 5)  # centred on the tiles: row on top
    reading = read_image(table)
    assert reading.board.castle == (2, 2)
    assert reading.location.tile_span == (1, 5, 0, 5)
    # The frame's top row lies on the table: each of its cells reads empty, or, where the table's
    # wood grain looks like a tile to the model, is flagged for the user to check.
    top_row = reading.board.cells[0]
    assert all(
        cell.terrain.value == "empty" or reading.cells.uncertain[0, c]
        for c, cell in enumerate(top_row)
    )


def test_centre_on_castle_only_moves_when_the_tiles_fit():
    from vision.find import centre_on_castle

    square = [[0, 0], [500, 0], [500, 500], [0, 500]]
    short = location_from_corners(square, 5, tile_span=(0, 4, 0, 5))
    moved = centre_on_castle(short, (1, 2))
    assert moved.tile_span == (1, 5, 0, 5)
    np.testing.assert_allclose(moved.corners, np.array(square) + [0, -100])
    assert centre_on_castle(short, (0, 2)) is short  # would push the bottom row out
    full = location_from_corners(square, 5, tile_span=(0, 5, 0, 5))
    assert centre_on_castle(full, (1, 1)) is full
    assert centre_on_castle(location_from_corners(square, 5), (1, 1)).tile_span is None


def test_a_frame_moves_over_the_strip_past_its_far_side():
    from vision.find import over_strip_beyond, strip_cells

    square = [[100, 100], [600, 100], [600, 600], [100, 600]]
    location = location_from_corners(square, 5, tile_span=(0, 5, 0, 4), image_shape=(800, 800))
    left = over_strip_beyond(location, (0, -1))  # the right column dropped
    np.testing.assert_allclose(left.corners, np.array(square) + [-100, 0], atol=1e-6)
    assert left.tile_span == (0, 5, 0, 5)
    down = over_strip_beyond(location, (1, 0))  # the top row dropped
    np.testing.assert_allclose(down.corners, np.array(square) + [0, 100], atol=1e-6)
    assert down.tile_span == (0, 5, 0, 4)
    # The strip a move takes in, as an index into the moved frame's cells.
    grid = np.arange(25).reshape(5, 5)
    assert grid[strip_cells(5, (0, -1))].ravel().tolist() == [0, 5, 10, 15, 20]
    assert grid[strip_cells(5, (0, 1))].ravel().tolist() == [4, 9, 14, 19, 24]
    assert grid[strip_cells(5, (1, 0))].ravel().tolist() == [20, 21, 22, 23, 24]
    assert grid[strip_cells(5, (-1, 0))].ravel().tolist() == [0, 1, 2, 3, 4]
    # Not when the user gave the corners, nor past the photo's edge.
    assert over_strip_beyond(location_from_corners(square, 5), (0, -1)) is None
    # Nor over another kingdom found in the same photo.
    neighbour = location_from_corners([[-420, 100], [80, 100], [80, 600], [-420, 600]], 5)
    assert over_strip_beyond(location, (0, -1), [neighbour]) is None
    assert over_strip_beyond(location, (0, 1), [neighbour]) is not None
    edge = location_from_corners(square, 5, tile_span=(0, 5, 0, 4), image_shape=(640, 800))
    assert over_strip_beyond(edge, (1, 0)) is None  # the strip below ends past the photo
    assert over_strip_beyond(edge, (-1, 0)) is not None
