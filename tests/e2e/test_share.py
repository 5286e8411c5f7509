"""A share link opened in a new page shows the same result."""

import re

from games.model import Game, GameSetup
from games.share import MAX_CODE_LENGTH, encode_game
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
    upload_photo,
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


def test_a_link_made_while_cells_are_flagged_opens_provisional(page, browser, blurred_photo):
    """Issue 55, 2: the shared view says provisional, and what is left, as the host's page."""
    set_name(page, 0, "Anna")
    upload_photo(page, 0, blurred_photo)
    hosts = page.get_by_test_id("stAlertContentWarning").filter(has_text="Provisional:").first
    expect(hosts).to_contain_text("of Anna's kingdom to check", timeout=30_000)
    show_kingdom(page, "Player 2")
    enter_board_text(page, 1, FOREST_16)
    expect(total_of(page, "Player 2")).to_contain_text("39")
    expect(hosts).not_to_contain_text("not entered")
    said = hosts.get_by_role("paragraph").inner_text()  # the sentence, without the icon's name
    click_when_idle(page, page.get_by_role("button", name="Share link"))
    url = page.get_by_test_id("stCode").filter(has_text="?game=").inner_text().strip()

    other = browser.new_context(viewport={"width": 1000, "height": 1800}).new_page()
    try:
        open_app(other, url)
        expect(other.get_by_text("A shared game: Anna, Player 2")).to_be_visible()
        shared = other.get_by_test_id("stAlertContentWarning").filter(has_text="Provisional:")
        expect(shared.get_by_role("paragraph")).to_have_text(said)
        expect(other.get_by_role("heading", name="Standing so far")).to_be_visible()
        expect(other.get_by_text(re.compile("wins this game|share first place"))).to_have_count(0)
    finally:
        other.context.close()


def test_an_over_long_or_malformed_link_opens_a_sentence(page, app_server):
    """Issue 55, 9: a link longer than any the app makes (still short enough for the server to
    take) opens a sentence saying so, and a malformed one a sentence too: never a blank game."""
    too_long = encode_game(Game(GameSetup(("Anna", "Ben")), ((parse_board(BOARD_51),) * 2,)))
    too_long += "A" * (MAX_CODE_LENGTH + 1 - len(too_long))
    open_app(page, f"{app_server.url}?game={too_long}")
    said = page.get_by_test_id("stAlertContentError")
    expect(said).to_contain_text(
        f"longer than any this app makes ({MAX_CODE_LENGTH + 1:,} characters; a link carries "
        f"at most {MAX_CODE_LENGTH:,})"
    )
    expect(said).to_contain_text("ask for the link again")
    expect(page.get_by_role("button", name="Start a game of my own")).to_be_visible()
    expect(page.get_by_test_id("stMetric")).to_have_count(0)

    open_app(page, f"{app_server.url}?game=eyJ2IjoxLCJwIjpbIkFubmEi")  # cut short
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text(
        "This share link is damaged or incomplete; ask for the link again"
    )
