"""One game, every phone at the table (issue 41): the host invites by QR code, each phone joins as
its player and enters its own kingdom, and every screen follows the same ranking."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import cv2
import numpy as np
import pytest

from games.invite import lan_ip
from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    DEVICES,
    AppServer,
    click_when_idle,
    enter_board_text,
    expect,
    kingdom_choice,
    open_app,
    set_name,
    show_kingdom,
    tap,
    total_of,
    upload_photo,
    wait_for_app_run,
)
from tests.e2e.test_languages import ENGLISH, LANGUAGES
from tests.qr import decode_qr

# Every screen shows a change made on another phone within this long (ui.live.REFRESH_S, then a
# run of the page).
FOLLOWS_WITHIN_MS = 3000
WINNER = re.compile("wins this game|share first place")
# English the invite, the join page and the conflict notice must not show in another language.
TABLE_ENGLISH = [
    "Invite",
    "Scan",
    "address",
    "Which player",
    "add yourself",
    "Add me",
    "You are",
    "Choose again",
    "another phone",
    "Put back",
    "Keep the new",
]


@pytest.fixture(scope="module")
def table_server(tmp_path_factory):
    """The app serving this computer's network address, as ``--server.address`` a host would
    use, so that the invite's address is one the phones can open as it is."""
    address = lan_ip()
    if address is None:
        pytest.skip("this computer has no network address for the phones to reach")
    server = AppServer(tmp_path_factory.mktemp("table") / "games.db", address=address).start()
    yield server
    server.stop()


@pytest.fixture
def screens(browser):
    """Open browser contexts (each its own session, as separate devices), closed afterwards."""
    opened = []

    def open_screen(device: str, locale: str | None = None):
        context = browser.new_context(**(DEVICES[device] | ({"locale": locale} if locale else {})))
        context.set_default_timeout(10_000)
        opened.append(context)
        return context.new_page()

    yield open_screen
    for context in opened:
        context.close()


def _host_invites(page, server: AppServer) -> str:
    """The host names the players and turns on the invite: the address shown, checked against
    the QR code beside it."""
    open_app(page, server.url)
    set_name(page, 0, "Anna")
    set_name(page, 1, "Ben")
    click_when_idle(page, page.get_by_text("Invite the table"))
    shown = page.locator(".st-key-invite_address code")
    expect(shown).to_contain_text("join=1")
    address = shown.inner_text().strip()
    draft_id = re.search(r"draft=([A-Za-z0-9_-]+)", page.url).group(1)
    assert address == f"http://{server.address}:{server.port}/?draft={draft_id}&join=1"
    qr = page.locator(".st-key-invite img").first
    expect(qr).to_be_visible()
    wait_for_app_run(page)  # the page is idle: the image is the one this run drew
    # The PNG as the page loaded it (a screenshot could catch Streamlit's dimming of a rerun).
    png = page.request.get(urljoin(page.url, qr.get_attribute("src"))).body()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    assert decode_qr(image) == address
    return address


def _join_as(page, address: str, name: str) -> None:
    open_app(page, address)
    expect(page.get_by_text("Which player are you?")).to_be_visible()
    tap(page, page.locator(".st-key-seats").get_by_role("button", name=name, exact=True))
    expect(page.get_by_text(f"You are {name}")).to_be_visible()
    # That player's kingdom only: no choice of whose kingdom, no setup.
    expect(page.locator(".st-key-kingdom_shown")).to_have_count(0)
    expect(page.locator(".st-key-setup_name_0")).to_have_count(0)


def _provisional(page):
    return page.get_by_test_id("stAlertContentWarning").filter(has_text="Provisional:").first


def test_every_phone_adds_its_kingdom_and_every_screen_shows_the_same_ranking(
    table_server, screens, blurred_photo
):
    host = screens("desktop")
    address = _host_invites(host, table_server)
    anna, ben = screens("phone"), screens("phone")
    _join_as(anna, address, "Anna")
    _join_as(ben, address, "Ben")

    # Anna's kingdom by photo (blurred: some cells to check), Ben's by hand.
    upload_photo(anna, 0, blurred_photo)
    expect(_provisional(anna)).to_contain_text("of Anna's kingdom to check", timeout=30_000)
    enter_board_text(ben, 1, FOREST_16)
    ben_total = total_of(ben, "Ben")
    expect(ben_total).to_contain_text("39")
    for page in (host, anna, ben):
        expect(_provisional(page)).to_contain_text("of Anna's kingdom to check")
        expect(_provisional(page)).not_to_contain_text("not entered")
        expect(total_of(page, "Ben")).to_have_text(ben_total.text_content())
        expect(page.get_by_text(WINNER)).to_have_count(0)  # a cell still to check: no winner

    # Anna confirms her cells: the last entry. Every screen shows the same final ranking.
    click_when_idle(anna, anna.locator(".st-key-accept_0").get_by_role("button"))
    for page in (host, anna, ben):
        expect(page.get_by_text(WINNER).first).to_be_visible(timeout=FOLLOWS_WITHIN_MS)
        expect(_provisional(page)).to_have_count(0, timeout=FOLLOWS_WITHIN_MS)
    anna_total = total_of(host, "Anna").text_content()
    winner = host.get_by_text(WINNER).first.text_content()
    for page in (anna, ben):
        expect(total_of(page, "Anna")).to_have_text(anna_total, timeout=FOLLOWS_WITHIN_MS)
        expect(total_of(page, "Ben")).to_have_text(ben_total.text_content())
        expect(page.get_by_text(WINNER).first).to_have_text(winner)


def test_two_screens_editing_one_kingdom_are_told_and_lose_nothing(table_server, screens):
    host = screens("desktop")
    address = _host_invites(host, table_server)
    phone = screens("phone")
    _join_as(phone, address, "Anna")

    # Both have Anna's kingdom open; the host enters it, then the phone enters another.
    enter_board_text(host, 0, BOARD_51)
    expect(total_of(host, "Anna")).to_contain_text("51")
    enter_board_text(phone, 0, FOREST_16)
    expect(total_of(phone, "Anna")).to_contain_text("39")

    # The last change wins on every screen, and the host is told, with its version kept.
    changed = host.locator(".st-key-conflict_kingdom_0")
    expect(total_of(host, "Anna")).to_contain_text("39")
    expect(changed).to_contain_text("Anna's kingdom was changed on another phone")
    expect(host.locator(".st-key-text_5_0 textarea")).to_have_value(FOREST_16)

    # The host puts its version back: now the phone is told in turn, and keeps its own.
    click_when_idle(host, changed.get_by_role("button", name="Put back this phone's version"))
    expect(total_of(host, "Anna")).to_contain_text("51")
    expect(changed).to_have_count(0)
    told = phone.locator(".st-key-conflict_kingdom_0")
    expect(told).to_contain_text("Anna's kingdom was changed on another phone")
    expect(total_of(phone, "Anna")).to_contain_text("51")
    tap(phone, told.get_by_role("button", name="Keep the new one"))
    expect(told).to_have_count(0)
    expect(total_of(phone, "Anna")).to_contain_text("51")


def _english_left(page) -> list[str]:
    wait_for_app_run(page)
    text = re.sub(r"https?://\S+", "", page.locator("body").inner_text())  # the address itself
    return [word for word in ENGLISH + TABLE_ENGLISH if re.search(rf"\b{word}\b", text)]


def test_a_polish_table_invites_joins_and_is_told_in_polish(table_server, screens):
    title = LANGUAGES["pl-PL"]["title"]
    host = screens("desktop", locale="pl-PL")
    open_app(host, table_server.url, title=title)
    set_name(host, 0, "Anna")
    set_name(host, 1, "Ben")
    click_when_idle(host, host.get_by_text("Zaproś graczy przy stole"))  # "Invite the table"
    invite = host.locator(".st-key-invite")
    expect(invite).to_contain_text("Adres jest kluczem do tej gry")
    address = invite.locator(".st-key-invite_address code").inner_text().strip()
    assert "join=1" in address
    assert _english_left(host) == []

    # A phone in a Polish browser joins in Polish, as a new player.
    phone = screens("phone", locale="pl-PL")
    open_app(phone, address, title=title)
    expect(phone.get_by_text("Którym graczem jesteś?")).to_be_visible()
    assert _english_left(phone) == []
    phone.locator(".st-key-new_player_name input").fill("Celina")
    tap(phone, phone.get_by_role("button", name="Dodaj mnie"))
    expect(phone.get_by_text(re.compile("^Grasz jako Celina:"))).to_be_visible()
    expect(
        phone.get_by_role("button", name="Nie grasz jako Celina? Wybierz ponownie")
    ).to_be_visible()
    enter_board_text(phone, 2, BOARD_51)

    # The host enters Celina's kingdom too: the phone is told, in Polish, and keeps its own.
    expect(kingdom_choice(host, "Celina")).to_be_visible(timeout=FOLLOWS_WITHIN_MS)
    show_kingdom(host, "Celina")
    enter_board_text(host, 2, FOREST_16)
    told = phone.locator(".st-key-conflict_kingdom_2")
    expect(told).to_contain_text("Królestwo gracza Celina zostało zmienione na innym telefonie")
    expect(told.get_by_role("button", name="Przywróć wersję z tego telefonu")).to_be_visible()
    assert _english_left(phone) == []
