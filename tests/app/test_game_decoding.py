"""The kingdoms of one game come from one set: the app decodes the photos' readings together.

The reader is replaced by one that returns prepared probabilities (``game_sharing_a_domino``
from the decoder's tests): the second kingdom's model leans towards a domino that the first
kingdom surely holds and the set has only once.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from scoring import Board, Cell, Terrain, check_game, parse_board
from tests.app.kingdom_choice import show_kingdom, text_box
from tests.vision.test_decode import game_sharing_a_domino
from vision.cells import CellReadings
from vision.pipeline import Reading

COLOURS = {"first.png": (0, 0, 255), "second.png": (255, 0, 0)}  # BGR: red, blue


def _photo(name: str) -> bytes:
    image = np.zeros((120, 120, 3), np.uint8)
    image[:] = COLOURS[name]
    return cv2.imencode(".png", image)[1].tobytes()


@pytest.fixture
def game(tmp_path, monkeypatch):
    first_probs, second_probs, first, borrowed = game_sharing_a_domino()
    readings = {
        COLOURS["first.png"]: CellReadings(*first_probs, 0.5),
        COLOURS["second.png"]: CellReadings(*second_probs, 0.5),
    }

    def read(image, size=None, corners=None):
        cells = readings[tuple(int(v) for v in image[0, 0])]
        return Reading("photo", np.full((500, 500, 3), 128, np.uint8), cells)

    import ui.photo

    monkeypatch.setattr(ui.photo, "_photo_reader", lambda: read)
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file("../../app.py", default_timeout=30).run()
    return at, readings, first, borrowed


def _upload(at: AppTest, slot: int, name: str) -> None:
    show_kingdom(at, slot).file_uploader(key=f"upload_{slot}").upload(
        name, _photo(name), "image/png"
    ).run()
    assert not at.exception


def _first_change(board: Board) -> Board:
    """``board`` with its first land cell without crowns turned into another terrain."""
    for r, c, cell in board.iter_cells():
        if cell.terrain.is_land and cell.crowns == 0:
            other = Terrain.FOREST if cell.terrain is not Terrain.FOREST else Terrain.LAKE
            return board.replace(r, c, Cell(other, 0))
    raise AssertionError("no plain land cell")


def test_no_domino_is_read_into_two_kingdoms(game):
    at, readings, first, borrowed = game
    alone = readings[COLOURS["second.png"]].board
    assert check_game({"a": first, "b": alone}) != ()  # read alone, a domino is used twice
    _upload(at, 0, "first.png")
    _upload(at, 1, "second.png")
    assert parse_board(text_box(at, 0).value) == first
    second = parse_board(text_box(at, 1).value)
    assert second != alone and check_game({"a": first, "b": second}) == ()
    # The cells decoding changed are flagged: the result waits for a look at them.
    assert any("Player 2's kingdom to check" in w.value for w in at.warning)
    at.session_state["saw_5_1"] = True  # open "What the app saw"
    at.run()
    assert any("others of the game" in c.value for c in at.caption)


def test_a_kingdom_the_user_changed_stays_as_they_left_it(game):
    at, readings, first, borrowed = game
    _upload(at, 1, "second.png")
    typed = _first_change(readings[COLOURS["second.png"]].board)
    text_box(at, 1).input(typed.to_text())
    at.run()
    _upload(at, 0, "first.png")
    assert parse_board(text_box(at, 1).value) == typed
