"""A share link opened in a new page shows the same result."""

from games.model import Game, GameSetup
from games.share import encode_game
from scoring import parse_board
from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    click_when_idle,
    enter_board_text,
    expect,
    open_app,
    screenshot,
    set_name,
    show_kingdom,
    total_of,
)


def test_share_link_reopens_the_same_result_in_a_new_page(page, browser):
    set_name(page, 0, "Anna")
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, "Anna")).to_contain_text("51")
    show_kingdom(page, "Player 2")
    enter_board_text(page, 1, FOREST_16)
    # Pressing Apply can start its run after the wait for an idle app has already returned, and
    # that run redraws the "Share link" popover shut (CI, once): wait for what it draws.
    expect(total_of(page, "Player 2")).to_contain_text("39")  # 24 of regions, 15 of bonuses
    # The link is on the page before Player 2's kingdom: wait until it holds both kingdoms.
    both = Game(GameSetup(("Anna", "Player 2")), ((parse_board(BOARD_51), parse_board(FOREST_16)),))
    click_when_idle(page, page.get_by_role("button", name="Share link"))
    link = page.get_by_test_id("stCode").filter(has_text="?game=")
    expect(link).to_contain_text(f"?game={encode_game(both)}")
    url = link.inner_text().strip()

    other = browser.new_context(viewport={"width": 1000, "height": 1800}).new_page()
    try:
        open_app(other, url)
        expect(other.get_by_text("A shared game: Anna, Player 2 · Classic (5×5)")).to_be_visible()
        expect(total_of(other, "Anna")).to_contain_text("51")
        expect(other.get_by_text("Anna wins this game")).to_be_visible()
        screenshot(other, "shared-link")
    finally:
        other.context.close()
