"""A draft address cannot be planted (issue 42): a made-up ``?draft=`` id opens a new game under a
new id, and what a visitor enters there is never shown to the next one to open the address."""

import re

from tests.app_boards import BOARD_51
from tests.e2e.conftest import (
    enter_board_text,
    expect,
    open_app,
    set_name,
    total_of,
    wait_for_app_run,
)

PLANTED = "ChosenByMe" + "x" * 22  # the right shape for a draft id, never issued by the server


def _new_visitor(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 1400})
    context.set_default_timeout(10_000)
    return context, context.new_page()


def test_a_made_up_draft_address_opens_a_new_game_and_keeps_nothing_for_the_next_visitor(
    browser, app_server
):
    planted = f"{app_server.url}?draft={PLANTED}"
    first, page = _new_visitor(browser)
    try:
        open_app(page, planted)
        notice = page.get_by_test_id("stAlertContentInfo").filter(has_text="new address")
        expect(notice).to_be_visible()
        expect(page).not_to_have_url(re.compile(PLANTED))
        # A new game's address: its id, and the host's key (docs/multiplayer.md).
        expect(page).to_have_url(re.compile(r"\?draft=[A-Za-z0-9_-]{32}&host=[A-Za-z0-9_-]{16}$"))
        set_name(page, 0, "Secret Anna")
        enter_board_text(page, 0, BOARD_51)
        expect(total_of(page, "Secret Anna")).to_contain_text("51")
        wait_for_app_run(page)
        own_address = page.url
    finally:
        first.close()

    second, page = _new_visitor(browser)
    try:
        open_app(page, planted)
        expect(
            page.get_by_test_id("stAlertContentInfo").filter(has_text="new address")
        ).to_be_visible()
        expect(page.locator(".st-key-setup_name_0 input")).to_have_value("Player 1")
        expect(page.get_by_text("Secret Anna")).to_have_count(0)
        expect(page).not_to_have_url(own_address)
        # The first visitor's own (issued) address still brings their game back.
        page.goto(own_address)
        expect(page.locator(".st-key-setup_name_0 input")).to_have_value(
            "Secret Anna", timeout=20_000
        )
    finally:
        second.close()
