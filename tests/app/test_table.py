"""One photo of the whole table (issue 10): every kingdom read, numbered, and given to a player."""

from __future__ import annotations

import cv2
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.kingdom_choice import text_box
from tests.app.test_app import APP, metric_values


@pytest.fixture(scope="module")
def table_jpeg() -> bytes:
    """A synthetic game-night table with two complete kingdoms (lab.tables, seed 1)."""
    from lab.tables import make_table_scene

    scene = make_table_scene(1)
    assert sum(k.complete for k in scene.kingdoms) == 2
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return encoded.tobytes()


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    return at


def test_every_kingdom_goes_to_its_player_left_to_right_or_as_chosen(app, table_jpeg):
    from vision.pipeline import read_table

    expected = [k.board.to_text() for k in read_table(table_jpeg).kingdoms]
    app.text_input(key="setup_name_0").input("Anna").run()
    app.text_input(key="setup_name_1").input("Ben").run()
    app.file_uploader(key="table_upload").upload("table.jpg", table_jpeg, "image/jpeg").run()
    assert not app.exception
    owners = [s for s in app.selectbox if s.key.startswith("table_owner_")]
    assert [s.label for s in owners] == ["Kingdom 1 is", "Kingdom 2 is"]
    assert [s.value for s in owners] == ["Anna", "Ben"]  # left to right by default

    owners[0].set_value("Ben")
    owners[1].set_value("Anna")
    app.run()
    app.button(key="table_assign").click().run()
    assert not app.exception
    assert text_box(app, 0).value == expected[1]
    assert text_box(app, 1).value == expected[0]
    assert set(metric_values(app)) == {"Anna's total", "Ben's total"}


def test_one_kingdom_for_two_players_is_refused_in_words(app, table_jpeg):
    app.file_uploader(key="table_upload").upload("table.jpg", table_jpeg, "image/jpeg").run()
    owners = [s for s in app.selectbox if s.key.startswith("table_owner_")]
    owners[1].set_value("Player 1").run()
    assert any("same player" in e.value for e in app.error)
    assert "table_assign" not in [b.key for b in app.button]


def test_a_photo_without_kingdoms_is_a_message(app):
    import numpy as np

    ok, blank = cv2.imencode(".png", np.full((800, 1000, 3), 180, np.uint8))
    app.file_uploader(key="table_upload").upload("blank.png", blank.tobytes(), "image/png").run()
    assert not app.exception
    (error,) = [e.value.replace("\\", "") for e in app.error]
    assert error.startswith("Could not read blank.png: no kingdom found")
