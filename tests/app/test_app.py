"""The app's state and flows, run headless with Streamlit's AppTest (no browser).

Boards are entered through the text box (the same path as typing them by hand), the sample
button and the upload widget; taps on the picture are covered by the browser tests in tests/e2e.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from games.share import encode_game
from tests.app.conftest import APP
from tests.app.kingdom_choice import show_kingdom, text_box
from tests.app_boards import BOARD_51, FOREST_16, MINES_7, SAMPLES
from ui.text import escape_markdown


def enter(at: AppTest, slot: int, text: str, size: int = 5) -> None:
    text_box(at, slot, size).input(text)
    at.run()
    assert not at.exception


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


def test_first_page_explains_what_to_do_and_has_two_players(app):
    assert "Set up the players" in app.markdown[0].value
    assert app.text_input(key="setup_name_0").value == "Player 1"
    assert app.button_group(key="kingdom_shown").options == ["Player 1", "Player 2"]
    # One kingdom is drawn at a time: the first player's.
    assert [t.label for t in app.text_area] == ["Player 1's kingdom as board text"]
    assert text_box(app, 1).label == "Player 2's kingdom as board text"


def test_hand_entry_by_text_scores_the_kingdom(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    enter(app, 0, BOARD_51)
    assert metric_values(app)["Anna's total"] == "51"
    enter(app, 1, FOREST_16)
    assert any("Anna wins this game" in m.value for m in app.markdown)


def test_points_by_terrain_are_a_table_of_every_players_regions(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    enter(app, 0, MINES_7)
    enter(app, 1, FOREST_16)
    tables = [t.value for t in app.table if "Anna" in t.value.columns]
    assert len(tables) == 1
    # A row per terrain, a column per player (so that it fits a phone's width).
    rows = tables[0].set_index("Terrain")
    # MINES_7: 7 points of wheat, 1 of forest; FOREST_16: 2 of wheat, 16 of forest.
    assert rows.loc["Wheat", "Anna"] == 7 and rows.loc["Forest", "Anna"] == 1
    assert rows.loc["Wheat", "Player 2"] == 2 and rows.loc["Forest", "Player 2"] == 16
    assert list(rows.index) == ["Wheat", "Forest", "Lake", "Grassland", "Swamp", "Mine"]
    assert list(rows.columns) == ["Anna", "Player 2"]


def test_bad_board_text_says_where_and_keeps_both_text_and_board(app):
    enter(app, 0, BOARD_51)
    enter(app, 0, BOARD_51.replace("S2", "X2"))
    (error,) = app.error
    assert "row 4, column 2" in error.value and "unknown token" in error.value
    assert "X2" in text_box(app, 0).value  # what the user typed stays
    assert metric_values(app)["Player 1's total"] == "51"  # the last good board still scores


def test_setup_errors_are_messages(app):
    app.text_input(key="setup_name_1").input("player 1").run()
    assert any("names must differ" in e.value for e in app.error)
    assert not app.exception


def test_a_tie_on_totals_is_settled_by_the_largest_region_in_a_sentence(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    app.text_input(key="setup_name_1").input("Ben").run()
    enter(app, 0, MINES_7)
    enter(app, 1, FOREST_16)
    totals = metric_values(app)
    assert totals["Anna's total"] == totals["Ben's total"] == "39"
    sentences = " ".join(infos(app))
    assert "Ben" in sentences and "16" in sentences and "7" in sentences
    assert any("Ben wins this game" in m.value for m in app.markdown)


def test_an_unbroken_tie_is_a_shared_place(app):
    enter(app, 0, FOREST_16)
    enter(app, 1, FOREST_16)
    assert any("share first place" in m.value for m in app.markdown)
    assert infos(app)  # the sentence saying why the place is shared


def test_dynasty_standings_after_each_game_and_the_winner_after_the_third(app):
    app.toggle(key="setup_dynasty").set_value(True).run()
    for game, (first, second) in enumerate(
        [(BOARD_51, FOREST_16), (FOREST_16, BOARD_51), (BOARD_51, FOREST_16)], start=1
    ):
        assert any(f"game {game} of 3" in s.value for s in app.subheader)
        enter(app, 0, first)
        enter(app, 1, second)
        assert any(f"after game {game} of 3" in s.value for s in app.subheader)
        if game < 3:
            app.button(key="next_game").click().run()
            # The next game starts from empty kingdoms; the finished game is kept.
            assert text_box(app, 0).value == ""
            assert any(f"after game {game} of 3" in s.value for s in app.subheader)
            assert not any("share first place" in m.value for m in app.markdown)
    assert any("Player 1 wins the Dynasty" in s.value for s in app.success)
    standings = app.table[0].value
    assert list(standings["Total of the games"]) == [51 + 39 + 51, 39 + 51 + 39]


def test_entries_survive_a_visit_to_the_history_page(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    enter(app, 0, BOARD_51)
    app.switch_page("ui/history_page.py").run()
    assert not app.exception
    app.switch_page("ui/score_page.py").run()
    assert app.text_input(key="setup_name_0").value == "Anna"
    assert metric_values(app)["Anna's total"] == "51"


def test_saved_game_is_listed_opened_and_deleted(app):
    app.text_input(key="setup_name_0").input("Anna").run()
    enter(app, 0, BOARD_51)
    enter(app, 1, FOREST_16)
    app.button(key="save_game").click().run()
    assert any("Saved" in s.value for s in app.success)

    app.switch_page("ui/history_page.py").run()
    (listed,) = [m.value for m in app.markdown if "Anna 51" in m.value]
    assert "Anna wins" in listed
    open_button = next(b for b in app.button if b.key.startswith("open_"))
    open_button.click().run()
    assert metric_values(app)["Anna's total"] == "51"

    next(b for b in app.button if b.key.startswith("delete_")).click().run()
    assert any("No saved games yet" in i.value for i in app.info)


def test_share_link_reopens_the_same_result(app, tmp_path, monkeypatch):
    app.text_input(key="setup_name_0").input("Anna").run()
    enter(app, 0, BOARD_51)
    link = app.code[0].value
    assert "?game=" in link
    code = link.split("?game=", 1)[1]

    other = AppTest.from_file(APP, default_timeout=30)
    other.query_params["game"] = code
    other.run()
    assert not other.exception
    assert metric_values(other)["Anna's total"] == "51"
    assert any("shared game" in i.value for i in other.info)


def test_a_shared_game_says_which_rules_it_was_played_by(app):
    app.toggle(key="setup_harmony").set_value(False).run()
    app.toggle(key="setup_middle_kingdom").set_value(False).run()
    enter(app, 0, BOARD_51)
    code = app.code[0].value.split("?game=", 1)[1]
    other = AppTest.from_file(APP, default_timeout=30)
    other.query_params["game"] = code
    other.run()
    (header,) = [i.value for i in other.info if "shared game" in i.value]
    assert "Classic (5×5), no bonuses" in header


def test_tile_set_warnings_are_one_line_with_the_details_folded_away(app):
    # Both kingdoms FOREST_16: together more forest halves than the real 48 dominoes have.
    enter(app, 0, FOREST_16)
    enter(app, 1, FOREST_16)
    (folded,) = [e for e in app.expander if "tile-set warning" in e.label]
    assert folded.label.split()[0].isdigit()
    assert folded.label.startswith(f"{len(folded.warning)} tile-set warning")
    assert not [w for w in app.warning if w not in folded.warning and "together have" in w.value]


def test_a_damaged_share_link_is_a_message(monkeypatch, tmp_path):
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "games.db"))
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["game"] = "not-a-game"
    at.run()
    assert not at.exception
    assert "damaged" in at.error[0].value


def test_shared_game_can_be_opened_in_the_editor(app):
    enter(app, 0, BOARD_51)
    code = app.code[0].value.split("?game=", 1)[1]
    fresh = AppTest.from_file(APP, default_timeout=30)
    fresh.query_params["game"] = code
    fresh.run()
    fresh.button(key="edit_shared").click().run()
    assert not fresh.exception
    assert text_box(fresh, 0).value.startswith("G0 L0 F0 F0 F0")


def test_seven_by_seven_duel(app):
    app.radio(key="setup_size").set_value("7×7 Mighty Duel (2 players)").run()
    board = ". . . . . . .\n" * 3
    board = board + ". . . C . . .\n" + ". . . . . . .\n" * 3
    enter(app, 0, board.replace(". . . C", "M3 M2 . C"), size=7)
    assert metric_values(app)["Player 1's total"] == str(2 * 5 + 10)


def test_the_result_waits_for_a_first_tile(app):
    assert any("first tile" in i.value for i in app.info)
    assert not app.metric


def test_encoded_game_from_the_model_matches_the_apps_link(app):
    # The link the page shows is exactly games.share's encoding of what was entered.
    from games.editing import blank_board
    from games.model import Game, GameSetup
    from scoring import parse_board

    enter(app, 0, BOARD_51)
    code = app.code[0].value.split("?game=", 1)[1]
    expected = Game(GameSetup(("Player 1", "Player 2")), ((parse_board(BOARD_51), blank_board(5)),))
    assert code == encode_game(expected)


def test_try_a_sample_reads_it_into_the_editor(app):
    app.button(key="try_sample_0").click().run()
    assert not app.exception
    assert text_box(app, 0).value == (SAMPLES / "aau-board-1.txt").read_text()
    assert metric_values(app)["Player 1's total"] == "51"


def test_a_new_photo_of_one_player_leaves_the_others_alone(app):
    enter(app, 1, BOARD_51)
    show_kingdom(app, 0).file_uploader(key="upload_0").upload(
        "scene.jpg", (SAMPLES / "synthetic-scene-19.jpg").read_bytes(), "image/jpeg"
    ).run()
    assert not app.exception
    totals = metric_values(app)
    assert totals["Player 1's total"] == "46"
    assert totals["Player 2's total"] == "51"


def test_a_photo_stays_named_when_its_tab_is_opened_again(app):
    read_from = f"Read from {escape_markdown('aau-board-1.jpg')};"
    app.button(key="try_sample_0").click().run()  # the uploader holds nothing: a sample
    assert any(read_from in c.value for c in app.caption)
    show_kingdom(app, 1)
    assert not any("Read from" in c.value for c in app.caption)  # Player 2 has no photo
    show_kingdom(app, 0)
    assert any(read_from in c.value for c in app.caption)
    assert metric_values(app)["Player 1's total"] == "51"


def test_a_photo_replacing_a_board_can_be_undone(app):
    enter(app, 0, FOREST_16)
    app.button(key="try_sample_0").click().run()
    assert metric_values(app)["Player 1's total"] == "51"
    app.button(key="undo_0").click().run()
    assert text_box(app, 0).value == FOREST_16
    assert metric_values(app)["Player 1's total"] == "39"


def test_a_corrupt_upload_is_a_message_not_a_traceback(app):
    app.file_uploader(key="upload_0").upload("broken.jpg", b"not a photo", "image/jpeg").run()
    assert not app.exception
    (error,) = [e.value.replace("\\", "") for e in app.error]  # shown escaped, as Markdown
    assert error.startswith("Could not read broken.jpg:") and "send a JPEG" in error


def _blurred_sample() -> bytes:
    import cv2

    image = cv2.imread(str(SAMPLES / "aau-board-1.jpg"))
    ok, encoded = cv2.imencode(".png", cv2.GaussianBlur(image, (0, 0), 7))
    return encoded.tobytes()


def test_uncertain_cells_of_a_blurred_photo_are_listed_for_checking(app):
    app.file_uploader(key="upload_0").upload("blurred.png", _blurred_sample(), "image/png").run()
    assert not app.exception
    (warning,) = [w.value for w in app.warning if "framed in magenta" in w.value]
    assert warning.startswith("Check ") and "(row " in warning
    # The text box corrects whatever the blur hid; the total is then the true one.
    enter(app, 0, BOARD_51)
    assert metric_values(app)["Player 1's total"] == "51"


def test_a_saved_game_keeps_its_photos_for_the_history(app, tmp_path):
    from games.history import GameHistory

    app.button(key="try_sample_0").click().run()
    enter(app, 1, FOREST_16)
    app.button(key="save_game").click().run()
    history = GameHistory(tmp_path / "games.db")
    (saved,) = history.list()
    (photos,) = history.photos(saved.id)
    assert list(photos) == ["Player 1"] and photos["Player 1"][:2] == b"\xff\xd8"  # a JPEG

    app.switch_page("ui/history_page.py").run()
    app.button(key=f"open_{saved.id}").click().run()
    assert not app.exception
    assert metric_values(app)["Player 1's total"] == "51"


def test_the_sample_button_reads_again_after_a_correction(app):
    app.button(key="try_sample_0").click().run()
    enter(app, 0, FOREST_16)
    app.button(key="try_sample_0").click().run()
    assert metric_values(app)["Player 1's total"] == "51"


def test_an_iphone_heic_photo_is_read(app):
    import io

    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    heic = io.BytesIO()
    Image.open(SAMPLES / "aau-board-1.jpg").save(heic, format="HEIF", quality=90)
    app.file_uploader(key="upload_0").upload("IMG_0001.HEIC", heic.getvalue(), "image/heic")
    app.run()
    assert not app.exception
    assert metric_values(app)["Player 1's total"] == "51"


def test_a_failed_uploads_error_stays_with_the_upload_not_the_camera(app):
    from ui.photo import CAMERA, UPLOAD

    app.file_uploader(key="upload_0").upload("notes.jpg", b"not a photo", "image/jpeg").run()
    assert any("Could not read notes.jpg" in e.value.replace("\\", "") for e in app.error)
    app.button_group(key="source_0").set_value(CAMERA).run()
    assert not app.error
    app.button_group(key="source_0").set_value(UPLOAD).run()
    assert any("Could not read notes.jpg" in e.value.replace("\\", "") for e in app.error)
