"""Two players tied on points, and the sentence that settles it, in a real browser."""

from tests.app_boards import FOREST_16, MINES_7
from tests.e2e.conftest import enter_board_text, expect, screenshot, set_name, show_kingdom


def test_tied_totals_are_settled_by_the_largest_region_in_a_sentence(page):
    set_name(page, 0, "Anna")
    set_name(page, 1, "Ben")
    enter_board_text(page, 0, MINES_7)
    show_kingdom(page, "Ben")
    enter_board_text(page, 1, FOREST_16)
    expect(page.get_by_text("Ben wins this game")).to_be_visible()
    sentence = page.get_by_test_id("stAlertContentInfo").filter(has_text="39")
    expect(sentence).to_contain_text("16 cells")
    expect(sentence).to_contain_text("7")
    screenshot(page, "tie-break", top=page.get_by_role("heading", name="Result"))


def test_a_kingdoms_picture_downloads_as_a_png(page, tmp_path):
    enter_board_text(page, 0, FOREST_16)
    button = page.get_by_role("button", name="Download this picture (PNG)").first
    expect(button).to_be_visible()
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value
    assert download.suggested_filename == "kingdom-Player 1.png"
    saved = tmp_path / "kingdom.png"
    download.save_as(saved)
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
