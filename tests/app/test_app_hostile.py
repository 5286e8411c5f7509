"""The app under hostile input, headless (AppTest): names that are Markdown, damaged share links,
a broken history file, and errors that must never show a traceback."""

from __future__ import annotations

import base64
import json
import re
import tomllib
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from tests.app.kingdom_choice import text_box
from tests.app_boards import BOARD_51, FOREST_16
from ui.text import escape_markdown

REPO = Path(__file__).resolve().parents[2]
APP = str(REPO / "app.py")
IMAGE_NAME = "![x](http://127.0.0.1:9/t)"
LINK_NAME = "[Ben](https://evil.example)"
# Element types whose text is not Markdown (chart data, the widgets' own typed values).
NOT_MARKDOWN = {
    "arrow_vega_lite_chart",
    "vega_lite_chart",
    "text_input",
    "text_area",
    "code",
    "json",
}


def _app(tmp_path, monkeypatch, db: Path | None = None) -> AppTest:
    monkeypatch.setenv("KINGDOMINO_DB", str(db or tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def _enter(at: AppTest, slot: int, text: str) -> None:
    text_box(at, slot).input(text)
    at.run()
    assert not at.exception


def _name_players(at: AppTest, *names: str) -> None:
    for slot, name in enumerate(names):
        at.text_input(key=f"setup_name_{slot}").input(name).run()
    assert not at.exception


def _rendered_texts(node) -> list[str]:
    """Every text the page renders as Markdown: labels, alerts, captions, table cells ..."""
    texts = []
    if getattr(node, "type", None) not in NOT_MARKDOWN and hasattr(node, "proto"):
        texts.append(str(node.proto))
    for child in getattr(node, "children", {}).values():
        texts += _rendered_texts(child)
    return texts


def test_names_that_are_markdown_show_literally_everywhere(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch)
    _name_players(at, IMAGE_NAME, LINK_NAME)
    _enter(at, 0, BOARD_51)
    _enter(at, 1, FOREST_16)
    texts = _rendered_texts(at._tree)
    # The names are on the page, escaped: no image and no link can come out of them.
    assert not [t for t in texts if "](" in t], "an unescaped Markdown link or image"
    # Everywhere the names appear, they appear escaped (ui.text's own tests show that renders
    # literally): tab labels, metric labels, the winner's heading, the ranking table.
    shown_image, shown_link = escape_markdown(IMAGE_NAME), escape_markdown(LINK_NAME)
    tab_labels = [t.label for t in at.tabs]
    assert shown_image in tab_labels and shown_link in tab_labels
    assert {f"{shown_image}'s total", f"{shown_link}'s total"} <= {m.label for m in at.metric}
    winner = [m.value for m in at.markdown if "wins this game" in m.value]
    assert winner == [f"### :material/emoji_events: {shown_image} wins this game"]
    (ranking, *_) = at.table
    assert set(ranking.value["Player"]) == {shown_image, shown_link}


def test_a_shared_game_with_markdown_names_shows_them_literally(tmp_path, monkeypatch):
    from games.model import Game, GameSetup
    from games.share import encode_game
    from scoring import parse_board

    board = parse_board(BOARD_51)
    code = encode_game(Game(GameSetup((IMAGE_NAME, LINK_NAME)), ((board, board),)))
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["game"] = code
    at.run()
    assert not at.exception
    assert not [t for t in _rendered_texts(at._tree) if "](" in t]
    assert any(escape_markdown(LINK_NAME) in i.value for i in at.info)


@pytest.mark.parametrize(
    "payload",
    [
        "[" * 1000,
        '{"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": ' + "[" * 1400 + "}",
        '{"v": 1, "p": ["[x](https://evil.example)", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, '
        '"b": [["' + "G0" * 25 + '", "' + "G0" * 25 + '"]]}',
    ],
)
def test_hostile_share_links_are_a_sentence_not_a_traceback(tmp_path, monkeypatch, payload):
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["game"] = base64.urlsafe_b64encode(payload.encode()).decode()
    at.run()
    assert not at.exception
    (error,) = at.error
    assert "share link" in error.value
    assert "](" not in error.value


def test_the_app_config_hides_error_details_from_users():
    settings = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert settings["server"]["address"] == "localhost"  # only this computer, unless asked
    value = settings["client"]["showErrorDetails"]

    def broken_page():
        raise RuntimeError("secret detail at /srv/kingdomino/ui/pages.py")

    previous = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", value)
    try:
        at = AppTest.from_function(broken_page).run()
    finally:
        config.set_option("client.showErrorDetails", previous)
    (shown,) = at.exception
    assert "secret detail" not in shown.message and "/srv/" not in shown.message
    assert shown.stack_trace == []


# ---- the history file going wrong ----------------------------------------------------------


def _finished_game(at: AppTest) -> None:
    _name_players(at, "Anna", "Ben")
    _enter(at, 0, BOARD_51)
    _enter(at, 1, FOREST_16)


def test_a_history_path_that_is_a_folder_is_a_sentence_and_scoring_goes_on(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch, db=tmp_path)
    _finished_game(at)
    at.button(key="save_game").click().run()
    assert not at.exception
    assert any("is a folder, not a file" in e.value for e in at.error)
    assert {m.label: m.value for m in at.metric}["Anna's total"] == "51"  # still scored
    at.switch_page("ui/history_page.py").run()
    assert not at.exception
    assert any("is a folder, not a file" in e.value for e in at.error)
    assert any("Scoring works without the history" in c.value for c in at.caption)


def test_a_garbage_history_file_is_kept_aside_and_the_page_says_so(tmp_path, monkeypatch):
    db = tmp_path / "games.db"
    db.write_bytes(b"garbage, not SQLite" * 200)
    at = _app(tmp_path, monkeypatch, db=db)
    at.switch_page("ui/history_page.py").run()
    assert not at.exception
    assert any("damaged" in w.value and "new, empty history" in w.value for w in at.warning)
    assert len(list(tmp_path.glob("games.db.damaged-*"))) == 1


def test_delete_asks_to_confirm(tmp_path, monkeypatch):
    at = _app(tmp_path, monkeypatch)
    _finished_game(at)
    at.button(key="save_game").click().run()
    at.switch_page("ui/history_page.py").run()
    delete = next(b for b in at.button if b.key.startswith("delete_"))
    assert delete.label == "Yes, delete it"
    assert _inside_popover(at, delete.key), "the delete button must sit behind a confirmation"
    opener = next(b for b in at.button if b.key.startswith("open_"))
    assert not _inside_popover(at, opener.key)
    delete.click().run()
    assert any("No saved games yet" in i.value for i in at.info)


def _inside_popover(at: AppTest, key: str) -> bool:
    def walk(node, in_popover: bool) -> bool:
        proto = getattr(node, "proto", None)
        here = in_popover or (proto is not None and "popover" in str(proto)[:200])
        if getattr(node, "key", None) == key:
            return here
        return any(walk(child, here) for child in getattr(node, "children", {}).values())

    return walk(at._tree, False)


def test_a_history_entry_that_cannot_be_opened_says_so(tmp_path, monkeypatch):
    import sqlite3

    at = _app(tmp_path, monkeypatch)
    _finished_game(at)
    at.button(key="save_game").click().run()
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE games SET game_json = ?", (json.dumps({"players": 3}),))
    at.switch_page("ui/history_page.py").run()
    next(b for b in at.button if b.key.startswith("open_")).click().run()
    assert not at.exception
    assert any(re.search(r"Saved game \d+ cannot be opened", e.value) for e in at.error)


# ---- photos without a kingdom: a message, never a board --------------------------------------


def _no_kingdom_photos() -> dict[str, bytes]:
    import cv2
    import numpy as np

    rng = np.random.default_rng(5)
    wood = np.zeros((1200, 1600, 3), np.uint8)
    wood[:] = (60, 110, 170)
    wood = np.clip(wood + (np.sin(np.arange(1600) / 7) * 12)[None, :, None], 0, 255)
    images = {
        "blank.png": np.full((1200, 1600, 3), 255, np.uint8),
        "one-colour.jpg": np.full((3000, 3000, 3), (40, 160, 90), np.uint8),
        "noise.png": rng.integers(0, 256, (900, 1200, 3), dtype=np.uint8),
        "plain-wood.jpg": wood.astype(np.uint8),
    }
    return {name: cv2.imencode(name[-4:], image)[1].tobytes() for name, image in images.items()}


@pytest.mark.parametrize("name", sorted(_no_kingdom_photos()))
def test_a_photo_without_a_kingdom_is_a_message_not_a_board(tmp_path, monkeypatch, name):
    at = _app(tmp_path, monkeypatch)
    (uploader, *_) = at.get("file_uploader")
    uploader.upload(name, _no_kingdom_photos()[name], "image/jpeg").run()
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any(f"Could not read {name}: no kingdom found" in e for e in errors), errors
    assert not at.metric  # no total: not even a castle-only kingdom


def test_saving_into_a_damaged_history_keeps_it_aside_and_says_so(tmp_path, monkeypatch):
    db = tmp_path / "games.db"
    at = _app(tmp_path, monkeypatch, db=db)
    _finished_game(at)
    db.write_bytes(b"overwritten by something else " * 500)  # damaged after the app opened it
    at.button(key="save_game").click().run()
    assert not at.exception
    assert any("Saved in the history" in s.value for s in at.success)
    assert any("damaged" in w.value and "new, empty history" in w.value for w in at.warning)
    (aside,) = tmp_path.glob("games.db.damaged-*")
    assert aside.read_bytes() == b"overwritten by something else " * 500
