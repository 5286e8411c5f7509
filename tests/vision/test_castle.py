"""Where the castle figure's top shows, from the photo's geometry (vision.castle)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.castle import (
    DEFAULT_FOCAL,
    behind_figure,
    behind_figure_warnings,
    camera_of,
    far_half,
    figure_pairs,
    figure_tops,
    read_far_halves,
)
from vision.cells import CROP, CellReadings
from vision.decode import Decoded
from vision.find import BoardLocation
from vision.labels import CROWN_CLASSES, TERRAINS, terrain_index

CASTLE = terrain_index("castle")
FOREST = terrain_index("forest")
WIDTH, HEIGHT = 1600, 1200


def photographed(foot, height, focal=0.75 * WIDTH, size=5) -> BoardLocation:
    """The location of a size×size board seen by a pinhole camera ``height`` cells above the
    table point ``foot`` (x, y cells), looking at the board's centre, its image upright."""
    camera = np.array([foot[0], foot[1], -height], float)  # the table is z = 0, the camera z < 0
    target = np.array([size / 2, size / 2, 0.0])
    forward = (target - camera) / np.linalg.norm(target - camera)
    # The photo's "down" points along the table's +y where it can: the board upright in view.
    down = np.array([0.0, 1.0, 0.0]) - forward * forward[1]
    if np.linalg.norm(down) < 1e-6:
        down = np.array([0.0, 1.0, 0.0])
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    rotation = np.stack([right, down, forward])  # table → camera axes
    translation = -rotation @ camera
    k = np.array([[focal, 0, WIDTH / 2], [0, focal, HEIGHT / 2], [0, 0, 1]])
    to_photo = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    corners = np.array([[0, 0, 1], [size, 0, 1], [size, size, 1], [0, size, 1]], float)
    in_photo = (to_photo @ corners.T).T
    in_photo = in_photo[:, :2] / in_photo[:, 2:]
    return BoardLocation(in_photo, size, np.linalg.inv(to_photo), image_shape=(HEIGHT, WIDTH))


@pytest.mark.parametrize(
    "foot, height",
    [((2.5, 12.0), 8.0), ((-6.0, 4.0), 10.0), ((9.0, -3.0), 7.0), ((2.0, 9.0), 9.0)],
)
def test_the_camera_is_found_where_it_stood(foot, height):
    camera = camera_of(photographed(foot, height))
    assert camera is not None and camera.focal_estimated
    assert camera.focal == pytest.approx(0.75 * WIDTH, rel=0.02)
    assert camera.foot == pytest.approx(foot, abs=0.05)
    assert camera.height == pytest.approx(height, rel=0.02)


def test_looking_straight_down_the_lens_is_assumed_and_the_foot_still_found():
    camera = camera_of(photographed((2.5, 2.5), 10.0, focal=DEFAULT_FOCAL * WIDTH))
    assert camera is not None and not camera.focal_estimated
    assert camera.foot == pytest.approx((2.5, 2.5), abs=0.05)
    assert camera.height == pytest.approx(10.0, rel=0.02)


def test_a_top_shows_beyond_its_base_away_from_the_camera():
    # The camera in front of the board's bottom edge: tops fall towards the board's top.
    tops = figure_tops(photographed((2.5, 10.0), 8.0), height=1.2)
    assert tops.shape == (5, 5, 2)
    assert np.all(tops[..., 1] < 0)
    # The farther a cell from the camera's foot, the farther its top falls: 1.2 / (8 - 1.2).
    assert tops[0, 2, 1] == pytest.approx((0.5 - 10.0) * 1.2 / 6.8, rel=0.03)
    assert tops[0, 2, 1] < tops[4, 2, 1]
    assert abs(tops[2, 2, 0]) < 0.05
    # Seen from the left, they fall to the right.
    assert np.all(figure_tops(photographed((-8.0, 2.5), 8.0))[..., 0] > 0)


def test_a_straightened_image_has_no_camera():
    location = BoardLocation(
        np.array([[0, 0], [500, 0], [500, 500], [0, 500]], float),
        5,
        np.diag([0.01, 0.01, 1.0]),
        straightened=True,
        image_shape=(500, 500),
    )
    assert camera_of(location) is None and figure_tops(location) is None


def readings(castle: dict[tuple[int, int], float]) -> CellReadings:
    """A 5×5 reading of forests, with the given castle probabilities."""
    terrain = np.zeros((5, 5, len(TERRAINS)))
    terrain[..., FOREST] = 1.0
    for (r, c), p in castle.items():
        terrain[r, c, FOREST], terrain[r, c, CASTLE] = 1 - p, p
    crowns = np.zeros((5, 5, CROWN_CLASSES))
    crowns[..., 0] = 1.0
    return CellReadings(terrain, crowns, uncertain_below=0.5, joint_decoding=False)


UP = np.tile(np.array([0.0, -0.6]), (5, 5, 1))  # every top falls 0.6 cells up the board


def test_the_cell_behind_the_figure_is_named_when_it_is_flagged():
    # The castle on (2, 3); its top falls 0.6 cells up, over (1, 3), which reads 0.55 castle
    # (its forest 0.45, under the 0.5 threshold: flagged).
    reading = readings({(2, 3): 0.95, (1, 3): 0.55})
    assert reading.uncertain[1, 3]
    assert behind_figure(reading, UP) == [(1, 3)]
    (warning,) = behind_figure_warnings(reading, UP)
    assert "row 2, column 4" in warning and "castle figure" in warning
    # Leaning the other way, the top falls over (3, 3), which shows no figure: nothing named.
    assert behind_figure(reading, -UP) == []
    assert behind_figure(reading, UP * 0.3) == []
    # Without a camera the lean is not known: the castle-like neighbour is named.
    assert behind_figure(reading, None) == [(1, 3)]
    assert behind_figure(readings({(2, 3): 0.95, (1, 3): 0.01}), None) == []


def test_a_cell_behind_the_figure_read_surely_gets_no_warning():
    reading = readings({(2, 3): 0.95, (1, 3): 0.06})  # the forest reads 0.94: not flagged
    assert behind_figure(reading, UP) == [(1, 3)]
    assert behind_figure_warnings(reading, UP) == ()


def test_a_photo_says_which_cell_its_castle_figure_hides(shared_dir):
    """Camera scene 7148 (lab.synth, a development seed): the figure's top covers a one-crown
    mine, read as plain wheat and flagged; the reading says the figure hides that cell."""
    import cv2

    from lab.synth import make_hard_scene
    from vision.pipeline import read_image

    scene = make_hard_scene(7148, camera=True)
    ok, jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    reading = read_image(jpeg.tobytes())
    named = [w for w in reading.warnings if "castle figure hides" in w]
    assert len(named) == 1
    r, c = reading.board.castle
    neighbours = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    flagged = [
        (y, x) for y, x in neighbours if 0 <= y < 5 and 0 <= x < 5 and reading.cells.uncertain[y, x]
    ]
    assert any(f"row {y + 1}, column {x + 1}" in named[0] for y, x in flagged)


@pytest.mark.parametrize("neighbour_at", [(-1, 0), (0, 1), (1, 0), (0, -1)])
def test_the_far_half_is_the_half_away_from_the_neighbour(neighbour_at):
    crop = np.zeros((CROP, CROP, 3), np.uint8)
    near = {
        (-1, 0): np.s_[: CROP // 2],
        (1, 0): np.s_[CROP // 2 :],
        (0, -1): np.s_[:, : CROP // 2],
        (0, 1): np.s_[:, CROP // 2 :],
    }[neighbour_at]
    crop[near] = 255  # the figure's side white, the far side black
    half = far_half(crop, neighbour_at)
    assert half.shape == crop.shape and half.max() == 0
    crop[..., 0] = np.arange(CROP)[:, None] * 2  # a gradient keeps its values, mirrored
    assert set(np.unique(far_half(crop, neighbour_at)[..., 0])) <= set(np.unique(crop[..., 0]))


def test_the_figure_pairs_are_the_castle_and_its_castle_like_neighbours():
    assert figure_pairs(readings({(2, 3): 0.95, (1, 3): 0.3})) == [((2, 3), (1, 3))]
    # The top over the neighbour may read more castle-like than the base: both are paired.
    assert figure_pairs(readings({(2, 3): 0.6, (1, 3): 0.9})) == [((1, 3), (2, 3))]
    # A bare start tile: its neighbours read plain, nothing to re-read.
    assert figure_pairs(readings({(2, 3): 0.95, (1, 3): 0.01})) == []


def test_the_figure_pairs_are_anchored_at_the_decoded_castle():
    # A pale figure on (2, 3) reads as a hole there (castle 0.04); its top over (1, 3) reads
    # castle 0.3, the most castle-like cell. The model's own choice puts the castle on the top,
    # whose start-tile neighbour is not castle-like: no pair.
    alone = readings({(2, 3): 0.04, (1, 3): 0.3})
    assert alone.board.castle == (1, 3) and figure_pairs(alone) == []
    # Decoding (given here as the game's, to fix where it puts the castle) places it on (2, 3):
    # the cell behind, castle-like, is paired with it.
    terrain = np.full((5, 5), FOREST)
    terrain[2, 3] = CASTLE
    zeros = np.zeros((5, 5), int)
    decoded = Decoded(terrain, zeros, zeros.astype(bool), "", "unchanged")
    placed = dataclasses.replace(alone, joint_decoding=True, game_decoding=decoded)
    assert figure_pairs(placed) == [((2, 3), (1, 3))]


class _ByBrightness:
    """A stand-in model: a dark crop reads forest, a light one castle; crowns always three
    (a mirrored far half shows the crowns it holds twice)."""

    def predict(self, crops, all_turns=False):
        light = crops.reshape(len(crops), -1).mean(axis=1) > 127
        terrain = np.zeros((len(crops), len(TERRAINS)))
        terrain[light, CASTLE] = 1.0
        terrain[~light, FOREST] = 1.0
        crowns = np.zeros((len(crops), CROWN_CLASSES))
        crowns[:, 3] = 1.0
        return terrain, crowns


def test_a_cell_under_the_figures_top_reads_its_far_half():
    # A dark (forest) board; the figure stands on (2, 3), white, its top over the near half of
    # (1, 3). Read whole, (1, 3) is castle-like; its far half (the top) is forest.
    image = np.zeros((5 * CROP, 5 * CROP, 3), np.uint8)
    image[2 * CROP : 3 * CROP, 3 * CROP : 4 * CROP] = 255
    image[CROP + CROP // 2 : 2 * CROP, 3 * CROP : 4 * CROP] = 255
    before = readings({(2, 3): 0.9, (1, 3): 0.7})
    # Read whole, (1, 3) is unsure whether it has crowns (the figure is over half of it); if
    # it has, most likely two.
    crown_probs = before.crown_probs.copy()
    crown_probs[1, 3] = [0.4, 0.1, 0.5, 0.0]
    before = dataclasses.replace(before, crown_probs=crown_probs)
    after = read_far_halves(image, before, model=_ByBrightness())
    assert after.terrain_probs[1, 3, FOREST] == 1.0
    assert after.terrain_probs[2, 3, CASTLE] == 1.0  # the start tile's far half: the figure
    # Only the pair is read again. Whether (1, 3) has crowns is the mean of the whole cell's
    # 0.6 and the far half's 1.0; how many, the whole cell's (1 : 2 as 0.1 : 0.5), not the
    # far half's three.
    changed = np.any(after.terrain_probs != before.terrain_probs, axis=-1)
    changed |= np.any(after.crown_probs != before.crown_probs, axis=-1)
    assert set(zip(*np.nonzero(changed), strict=True)) == {(1, 3), (2, 3)}
    assert after.crown_probs[1, 3] == pytest.approx([0.2, 0.8 / 6, 0.8 * 5 / 6, 0.0], abs=1e-5)
    # The start tile, read with no crown, now reads crowned half the time, split evenly:
    # a castle carries none, so this asks nothing of the decoding.
    assert after.crown_probs[2, 3, 0] == pytest.approx(0.5)
    # No castle-like neighbour: the readings come back as they were, the model not asked.
    bare = readings({(2, 3): 0.9})
    assert read_far_halves(image, bare, model=None) is bare


# Board 6 was here too with model v8 alone; with its second opinion the covered cell reads
# castle 0.047, under figure_pairs' 0.05, so it is only flagged, not named.
@pytest.mark.parametrize("board, hidden", [("61", (1, 4))])
def test_a_straightened_board_says_which_cell_its_castle_figure_hides(shared_dir, board, hidden):
    """aau boards (straightened, no camera): the figure's top covers the cell above the castle,
    which the whole cell reads castle-like; read from its far half it no longer does, but the
    reading still names it, and it is flagged (its crowns are under the figure)."""
    from vision.pipeline import read_image

    image = shared_dir / "datasets" / "aau-boards" / "images" / f"{board}.jpg"
    reading = read_image(image)
    assert hidden in reading.cells.far_half_cells and reading.cells.uncertain[hidden]
    (warning,) = [w for w in reading.warnings if "castle figure hides" in w]
    assert f"row {hidden[0] + 1}, column {hidden[1] + 1}" in warning
    # A bare start tile (board 1): nothing re-read, nothing said.
    plain = read_image(shared_dir / "datasets" / "aau-boards" / "images" / "1.jpg")
    assert plain.cells.far_half_cells == () and not any("castle" in w for w in plain.warnings)
