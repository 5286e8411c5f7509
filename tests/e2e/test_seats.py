"""Trust at the table, round three (issue 55): who may change what is checked on the server, and
a kingdom taken out of the game is told on every screen, with "Put back".

The host plays on the desktop, the phones on 390×844 touch screens, each its own browser
context (its own session), all on the shared test server; a phone opens the game's address as
the invite gives it (``?draft=...&join=1``), or without ``&join=1``.
"""

from __future__ import annotations

import re

from tests.app_boards import BOARD_51
from tests.e2e.conftest import (
    DEVICES,
    click_when_idle,
    enter_board_text,
    expect,
    open_app,
    set_name,
    tap,
    total_of,
    wait_for_app_run,
)

# A change on one screen shows on another within the refresh period and a run of the page
# (ui.live.REFRESH_S); as tests/e2e/test_table.py holds it, with room for a busy machine.
FOLLOWS_WITHIN_MS = 6000


def _screen(browser, device: str, opened: list):
    context = browser.new_context(**DEVICES[device])
    context.set_default_timeout(10_000)
    opened.append(context)
    return context.new_page()


def _host(page, url: str, players: tuple[str, ...] = ("Anna", "Ben")) -> str:
    """The host names the players and invites the table; the game's address (without the
    host's key), as the invite gives it."""
    open_app(page, url)
    if len(players) > 2:
        click_when_idle(
            page, page.locator(".st-key-setup_count").get_by_text(str(len(players)), exact=True)
        )
        wait_for_app_run(page)
    for slot, name in enumerate(players):
        set_name(page, slot, name)
    click_when_idle(page, page.get_by_text("Invite the table"))
    expect(page.locator(".st-key-invite_address code")).to_contain_text("join=1")
    wait_for_app_run(page)
    draft_id = re.search(r"draft=([A-Za-z0-9_-]+)", page.url).group(1)
    return f"{url}?draft={draft_id}"


def _seat(page, name: str):
    return page.locator(".st-key-seats").get_by_role("button", name=name, exact=True)


def _join_as(page, address: str, name: str) -> None:
    open_app(page, address)
    expect(page.get_by_text("Which player are you?")).to_be_visible()
    tap(page, _seat(page, name))
    expect(page.get_by_text(f"You are {name}")).to_be_visible()


# 4. A kingdom does not vanish without a word ------------------------------------------------------


def test_a_player_taken_out_on_one_screen_is_told_on_every_screen_with_put_back(
    browser, app_server
):
    opened: list = []
    try:
        host = _screen(browser, "desktop", opened)
        address = _host(host, app_server.url, ("Anna", "Ben", "Carla"))
        carla = _screen(browser, "phone", opened)
        _join_as(carla, f"{address}&join=1", "Carla")
        enter_board_text(carla, 2, BOARD_51)
        expect(total_of(host, "Carla")).to_contain_text("51", timeout=FOLLOWS_WITHIN_MS)

        # The host sets Players to 2: Carla's kingdom is no longer ranked, and every screen
        # says so, with the way back.
        click_when_idle(host, host.locator(".st-key-setup_count").get_by_text("2", exact=True))
        told = "Carla was taken out of the game (the players were set to 2)"
        for page in (host, carla):
            notice = page.locator(".st-key-removal_notice")
            expect(notice).to_contain_text(told, timeout=FOLLOWS_WITHIN_MS)
            expect(notice.get_by_role("button", name="Put back")).to_be_visible()
            expect(total_of(page, "Carla")).to_have_count(0)

        # Carla's phone puts her back: her kingdom is ranked again on every screen.
        tap(carla, carla.locator(".st-key-removal_notice").get_by_role("button", name="Put back"))
        for page in (carla, host):
            expect(total_of(page, "Carla")).to_contain_text("51", timeout=FOLLOWS_WITHIN_MS)
            expect(page.locator(".st-key-removal_notice")).to_have_count(0)
        expect(carla.get_by_text("You are Carla")).to_be_visible()
        expect(carla.locator(".st-key-text_5_2 textarea")).to_have_value(BOARD_51)
    finally:
        for context in opened:
            context.close()


def test_a_new_game_on_the_host_is_told_on_a_phone_whose_put_back_restores_every_screen(
    browser, app_server
):
    opened: list = []
    try:
        host = _screen(browser, "desktop", opened)
        address = _host(host, app_server.url)
        ben = _screen(browser, "phone", opened)
        _join_as(ben, f"{address}&join=1", "Ben")
        enter_board_text(ben, 1, BOARD_51)
        expect(total_of(host, "Ben")).to_contain_text("51", timeout=FOLLOWS_WITHIN_MS)

        # The host starts a new game: Ben's kingdom is cleared on both screens, and each is
        # told where, with the way back.
        # The popover opens below its button; near the page's foot its button was once left
        # outside the viewport for good (1 run in 3 on a slow machine): open it mid-screen.
        start = host.get_by_role("button", name="Start a new game")
        wait_for_app_run(host)
        start.evaluate("button => button.scrollIntoView({block: 'center'})")
        click_when_idle(host, start)
        click_when_idle(host, host.get_by_role("button", name="Yes, clear everything"))
        for page, where in ((host, "here"), (ben, "on another screen")):
            notice = page.locator(".st-key-new_game_notice")
            expect(notice).to_contain_text(
                f"A new game was started {where}", timeout=FOLLOWS_WITHIN_MS
            )
            expect(notice.get_by_role("button", name="Put back the previous game")).to_be_visible()
            expect(total_of(page, "Ben")).to_have_count(0)

        # Ben's phone puts the previous game back: his kingdom is ranked again everywhere.
        put_back = ben.locator(".st-key-new_game_notice").get_by_role(
            "button", name="Put back the previous game"
        )
        wait_for_app_run(ben)
        tap(ben, put_back)
        for page in (ben, host):
            expect(total_of(page, "Ben")).to_contain_text("51", timeout=FOLLOWS_WITHIN_MS)
            expect(page.locator(".st-key-new_game_notice")).to_have_count(0)
        expect(ben.locator(".st-key-text_5_1 textarea")).to_have_value(BOARD_51)
    finally:
        for context in opened:
            context.close()


# 6. Seats checked on the server ------------------------------------------------------------------


def test_a_seat_one_phone_holds_cannot_be_taken_by_another_until_the_host_frees_it(
    browser, app_server
):
    opened: list = []
    try:
        host = _screen(browser, "desktop", opened)
        address = _host(host, app_server.url) + "&join=1"
        first = _screen(browser, "phone", opened)
        _join_as(first, address, "Anna")

        # A second phone finds Anna's seat taken, and an address edited to Anna's seat gives it
        # only the choice of a free one.
        second = _screen(browser, "phone", opened)
        open_app(second, address)
        expect(_seat(second, "Anna")).to_be_disabled()
        expect(_seat(second, "Ben")).to_be_enabled()
        open_app(second, f"{address}&player=1")
        expect(second.get_by_text("Which player are you?")).to_be_visible()
        expect(second.get_by_text("You are Anna")).to_have_count(0)
        expect(_seat(second, "Anna")).to_be_disabled()

        # The host gives Anna's seat free: the second phone takes it, the first is told.
        freed = host.locator(".st-key-release_seat_0").get_by_role("button")
        expect(freed).to_be_visible(timeout=FOLLOWS_WITHIN_MS)
        click_when_idle(host, freed)
        expect(_seat(second, "Anna")).to_be_enabled(timeout=FOLLOWS_WITHIN_MS)
        tap(second, _seat(second, "Anna"))
        expect(second.get_by_text("You are Anna")).to_be_visible()
        expect(first.get_by_text("Your seat was given free by the host")).to_be_visible(
            timeout=FOLLOWS_WITHIN_MS
        )
        expect(_seat(first, "Anna")).to_be_disabled()
    finally:
        for context in opened:
            context.close()


def test_the_games_address_without_join_gives_a_phone_no_editor_of_the_hosts(browser, app_server):
    opened: list = []
    try:
        host = _screen(browser, "desktop", opened)
        address = _host(host, app_server.url)  # "&join=1" left out by hand
        phone = _screen(browser, "phone", opened)
        open_app(phone, address)
        expect(phone.get_by_text("Which player are you?")).to_be_visible()
        wait_for_app_run(phone)
        for editor in ("setup_name_0", "setup_count", "kingdom_shown", "invite_table"):
            expect(phone.locator(f".st-key-{editor}")).to_have_count(0)

        # The host's own reload keeps the host's editor (its address holds the host's key).
        host.reload()
        expect(host.locator(".st-key-setup_name_0 input")).to_have_value("Anna", timeout=20_000)
        expect(host.locator(".st-key-kingdom_shown")).to_be_visible()
    finally:
        for context in opened:
            context.close()
