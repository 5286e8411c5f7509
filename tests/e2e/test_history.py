"""A saved game is still in the history after the server restarts (same database file)."""

import pytest

from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    AppServer,
    click_when_idle,
    enter_board_text,
    expect,
    open_app,
    screenshot,
    set_name,
    show_kingdom,
    total_of,
)


@pytest.fixture
def own_server(tmp_path):
    """A server of this test's own, so restarting it leaves the shared one alone."""
    server = AppServer(tmp_path / "games.db").start()
    yield server
    server.stop()


def test_saved_game_survives_a_server_restart(browser, own_server):
    context = browser.new_context(viewport={"width": 1000, "height": 1400})
    page = context.new_page()
    open_app(page, own_server.url)
    set_name(page, 0, "Anna")
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, "Anna")).to_contain_text("51")
    show_kingdom(page, "Player 2")
    enter_board_text(page, 1, FOREST_16)
    click_when_idle(page, page.locator(".st-key-save_game button"))
    expect(page.get_by_text("Saved in the history.")).to_be_visible()

    own_server.stop()
    own_server.start()

    page.goto(f"{own_server.url}history")
    entry = page.get_by_text("Anna 51 · Player 2 39 — Anna wins")
    expect(entry).to_be_visible(timeout=20_000)
    # The saved game's own Open (the language picker's list has an "Open" button too).
    page.locator("[class*='st-key-open_']").get_by_role("button", name="Open").first.click()
    expect(total_of(page, "Anna")).to_contain_text("51")
    screenshot(page, "history")
    context.close()
