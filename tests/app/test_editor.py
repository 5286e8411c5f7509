"""The board editor's Python half, headless: what it hands the browser, and what it does with the
board the browser sends back (ui.editor, ui.board_component). Taps themselves are in the browser
tests (tests/e2e/test_editor.py).
"""

from __future__ import annotations

import json

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from games.editing import blank_board
from scoring import BoardError, Cell, Terrain, parse_board
from tests.app.kingdom_choice import show_kingdom, text_box
from tests.app.test_app import metric_values
from tests.app_boards import BOARD_51
from ui.board_component import TERRAIN_LABELS, editor_data, parse_edit
from ui.state import PhotoReading

HOLE_TOP_LEFT = ". . . . .\n. . . . .\n. . C . .\n. . . . .\n. . . . .\n"


def editor(at: AppTest, slot: int = 0, size: int = 5):
    """The player's board editor as AppTest sees it (an element it cannot click)."""
    (found,) = [e for e in at.get("bidi_component") if e.key == f"board_editor_{size}_{slot}"]
    return found


def send_edit(at: AppTest, edit: dict, slot: int = 0, size: int = 5) -> AppTest:
    """Run the page as the browser does when the editor sends a board: the component's state
    changed. AppTest has no way to set a custom component's value, so the widget state the
    browser would send is added to the page's own (AppTest's private ``_tree`` and ``_run``)."""
    component_id = editor(at, slot, size).proto.id
    states = WidgetStates()
    states.CopyFrom(at._tree.get_widget_states())
    state = states.widgets.add()
    state.id = component_id
    state.json_value = json.dumps({"edit": edit})
    at._run(states)
    assert not at.exception
    return at


def edit(board: str, touched, number: int = 1, brush=("W", 0)) -> dict:
    return {
        "id": f"test-{number}",
        "board": board,
        "touched": [list(cell) for cell in touched],
        "brush": {"letter": brush[0], "crowns": brush[1]},
    }


def data(at: AppTest, slot: int = 0) -> dict:
    """What the editor was given in the last run (a JSON string, sent as JSON)."""
    given = json.loads(editor(at, slot).proto.json)
    assert isinstance(given, str), "the editor's data goes as a string: a dict imports pandas"
    return json.loads(given)


# What the browser is given ----------------------------------------------------------------------


def test_the_browser_is_given_the_board_the_flags_and_the_crowns_each_terrain_can_carry():
    board = parse_board(BOARD_51)
    given = editor_data(board, {(3, 1)}, Cell(Terrain.MINE, 2), ack=None)
    assert given["size"] == 5
    assert given["cells"][:5] == board.rows_text()[0].split()
    assert given["flagged"] == [[3, 1]]
    crowns = {t["label"]: t["max_crowns"] for t in given["terrains"]}
    assert crowns == {TERRAIN_LABELS[terrain]: terrain.max_crowns for terrain in Terrain}
    assert crowns["Wheat"] == 1 and crowns["Swamp"] == 2 and crowns["Mine"] == 3
    assert crowns["Castle"] == 0 and crowns["Hole"] == 0
    names = {t["letter"]: t["name"] for t in given["terrains"]}
    assert names["."] == "hole" and names["C"] == "castle" and names["L"] == "lake"
    assert given["brush"] == {"letter": "M", "crowns": 2}


def test_the_page_hands_the_editor_its_players_board(app):
    assert data(app)["cells"] == [cell.token for _, _, cell in blank_board(5).iter_cells()]
    assert data(app)["flagged"] == []


# What the browser sends back ---------------------------------------------------------------------


def test_a_board_sent_by_the_editor_is_the_board_the_text_box_and_the_result_show(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    send_edit(app, edit(BOARD_51, [(0, 0), (0, 1)], brush=("M", 2)))
    assert metric_values(app)["Anna's total"] == "51"
    assert text_box(app, 0).value == BOARD_51
    given = data(app)
    assert given["ack"] == "test-1"  # the browser may show Python's board again
    assert given["brush"] == {"letter": "M", "crowns": 2}  # kept for the next time it is drawn


def test_painting_one_cell_unflags_that_cell_only_not_the_castle(app):
    """The bug of the picture editor: painting row 1, column 1 also unflagged the castle."""
    app.session_state["board_5_0"] = blank_board(5)
    app.session_state["reading_5_0"] = PhotoReading(
        "photo.jpg", None, None, None, uncertain={(0, 0), (2, 2)}, corrected={(4, 4)}
    )
    app.run()
    assert data(app)["flagged"] == [[0, 0], [2, 2], [4, 4]]
    send_edit(app, edit(HOLE_TOP_LEFT, [(0, 0)]))
    assert data(app)["flagged"] == [[2, 2], [4, 4]]
    # Painted with what it already held: confirmed, so unflagged too.
    send_edit(app, edit(HOLE_TOP_LEFT, [(4, 4)], number=2))
    assert data(app)["flagged"] == [[2, 2]]
    (warning,) = [w.value for w in app.warning if w.value.startswith("Check ")]
    assert "row 3, column 3" in warning


def test_a_malformed_board_from_the_editor_is_refused_in_words_and_changes_nothing(app):
    send_edit(app, edit(BOARD_51, []))
    send_edit(app, edit(BOARD_51.replace("S2", "C", 1), [(3, 1)], number=2))  # two castles
    assert metric_values(app)["Player 1's total"] == "51"
    (error,) = [e.value.replace("\\", "") for e in app.error]  # as read: Markdown unescaped
    assert error.startswith("The board was not changed: row 4, column 2: two castles")
    assert data(app)["ack"] == "test-2"  # answered, so the browser shows the board kept


def test_an_edit_for_another_size_is_refused():
    with pytest.raises(BoardError, match="7×7 board for a 5×5"):
        parse_edit(edit(blank_board(7).to_text(), []), 5)


def test_touched_cells_outside_the_board_are_ignored():
    found = parse_edit(edit(HOLE_TOP_LEFT, [(0, 0), (5, 0), (-1, 2), ("a", 1)]), 5)
    assert found.touched == {(0, 0)}


def test_the_open_player_is_the_one_whose_editor_is_drawn(app):
    show_kingdom(app, 1)
    assert [e.key for e in app.get("bidi_component")] == ["board_editor_5_1"]
