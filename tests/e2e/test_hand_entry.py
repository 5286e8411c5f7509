"""Entering a kingdom by hand in a real browser: typing it (tapping it in: test_editor.py)."""

from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    board_cell,
    enter_board_text,
    expect,
    open_app,
    screenshot,
    set_name,
    show_kingdom,
    total_of,
)


def test_type_the_board_as_text(page):
    set_name(page, 0, "Anna")
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, "Anna")).to_contain_text("51")
    expect(page.get_by_text("Player 2's kingdom not entered")).to_be_visible()
    show_kingdom(page, "Player 2")
    enter_board_text(page, 1, FOREST_16)
    expect(page.get_by_text("Anna wins this game")).to_be_visible()
    screenshot(page, "hand-entry", top=page.get_by_role("heading", name="Kingdoms"))


def test_a_typo_is_answered_with_where_and_how_to_fix_it(page):
    enter_board_text(page, 0, BOARD_51.replace("S2", "X2"))
    expect(page.get_by_text("row 4, column 2: unknown token 'X2'")).to_be_visible()


def test_on_a_phone_the_upload_button_and_its_camera_hint_come_first(browser, app_server):
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = phone.new_page()
    try:
        open_app(page, app_server.url)
        upload = page.locator(".st-key-upload_0")
        expect(upload.get_by_role("button", name="Upload", exact=True)).to_be_visible()
        hint = page.get_by_text("On a phone, this button can open the phone's own camera")
        expect(hint.first).to_be_visible()  # one per player tab; the first tab is shown
        expect(board_cell(page, 5, 5)).to_be_visible()
        screenshot(page, "phone", top=page.get_by_role("heading", name="Kingdoms"))
    finally:
        phone.close()
