"""Trust at the table, round three: the smaller points (issue 55, item 10), in a real browser on
a desktop and a 390×844 phone (``device_page``)."""

from __future__ import annotations

import pytest

from games.history import GameHistory
from games.model import Game, GameSetup
from scoring import parse_board
from scoring.score import Rules
from tests.app_boards import BOARD_51, FOREST_16
from tests.e2e.conftest import (
    DEVICES,
    board_cell,
    cell_named,
    click_when_idle,
    enter_board_text,
    expect,
    open_app,
    show_kingdom,
    total_of,
    upload_photo,
    wait_for_app_run,
)

DUEL = "7×7 Mighty Duel (2 players)"
CLASSIC = "5×5 classic"


def _alert(page, kind: str, text: str):
    return page.get_by_test_id(f"stAlertContent{kind}").filter(has_text=text).first


@pytest.fixture
def game1(shared_dir):
    return shared_dir / "datasets/photos/game1.jpg"


def test_a_second_players_7x7_photo_after_a_5x5_kingdom_asks_before_switching(device_page, game1):
    page = device_page
    enter_board_text(page, 0, BOARD_51)
    expect(total_of(page, "Player 1")).to_contain_text("51")
    show_kingdom(page, "Player 2")
    upload_photo(page, 1, game1)
    question = page.locator(".st-key-size_question")
    expect(question).to_contain_text("Player 2's photo shows a 7×7 kingdom", timeout=30_000)
    # Nothing switched yet: Player 1's 5×5 kingdom is still ranked, not reported missing.
    expect(page.get_by_role("radio", name=CLASSIC, checked=True).first).to_be_visible()
    expect(total_of(page, "Player 1")).to_contain_text("51")
    expect(_alert(page, "Warning", "Player 1's kingdom not entered")).to_have_count(0)

    click_when_idle(page, question.get_by_role("button", name="Switch to 7×7"))
    expect(page.get_by_role("radio", name=DUEL, checked=True).first).to_be_visible()
    expect(total_of(page, "Player 2")).to_contain_text("136", timeout=30_000)
    expect(question).to_have_count(0)


def test_board_text_with_commas_or_no_spaces_gets_a_hint_about_separators(device_page):
    page = device_page
    enter_board_text(page, 0, BOARD_51.replace(" ", ","))
    expect(_alert(page, "Error", "Separate the cells with spaces, not commas")).to_be_visible()
    enter_board_text(page, 0, BOARD_51.replace(" ", ""))
    expect(_alert(page, "Error", "Put a space between the cells")).to_be_visible()
    wait_for_app_run(page)
    expect(total_of(page, "Player 1")).to_have_count(0)  # the kingdom stays as it was


def test_a_refused_key_is_said_at_that_key_not_the_next(device_page):
    page = device_page
    cell = board_cell(page, 2, 2)
    cell.focus()
    cell.press("G")
    expect(cell_named(page, "row 2, column 2: grassland")).to_be_visible()
    expect(total_of(page, "Player 1")).to_be_visible()  # the edit was sent and the page drawn
    wait_for_app_run(page)
    status = page.get_by_role("status").filter(has_text="carries at most")
    board_cell(page, 2, 2).press("3")  # no grassland half carries three crowns
    expect(status).to_contain_text("Grassland carries at most 2 crowns", timeout=2000)
    expect(cell_named(page, "row 2, column 2: grassland")).to_be_visible()  # unchanged
    board_cell(page, 3, 3).press("w")  # a letter on the castle: refused, said at once
    expect(page.get_by_role("status").filter(has_text="That is the castle")).to_be_visible(
        timeout=2000
    )


# Nothing cut at a phone's width, held upright or sideways ---------------------------------------

PHONES = {"upright": (390, 844), "sideways": (844, 390)}
# The right edge of an element and of everything in it, and how far its content scrolls.
EDGES = """element => {
  let right = 0;
  for (const child of element.querySelectorAll("*")) {
    right = Math.max(right, child.getBoundingClientRect().right);
  }
  return {box: element.getBoundingClientRect().right, content: right,
          scrolls: element.scrollWidth - element.clientWidth};
}"""


@pytest.fixture(params=list(PHONES))
def phone(request, browser, app_server):
    width, height = PHONES[request.param]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    open_app(page, app_server.url)
    yield page
    context.close()


def _not_cut(element) -> None:
    expect(element).to_be_visible()
    edges = element.evaluate(EDGES)
    assert edges["content"] <= edges["box"] + 0.5 and edges["scrolls"] <= 0, edges


def test_on_a_phone_the_points_by_terrain_table_shows_every_terrain(phone):
    enter_board_text(phone, 0, FOREST_16)
    expect(total_of(phone, "Player 1")).to_contain_text("39")
    wait_for_app_run(phone)
    # The regions table names this kingdom's grassland too; only points by terrain has a swamp.
    table = phone.get_by_test_id("stTable").filter(has_text="Grassland").filter(has_text="Swamp")
    expect(table).to_contain_text("Mine")
    _not_cut(table)


def test_on_a_phone_the_invites_command_is_not_cut(phone):
    click_when_idle(phone, phone.get_by_text("Invite the table"))
    command = phone.locator(".st-key-invite pre").filter(has_text="--server.address 0.0.0.0")
    expect(command).to_be_visible()
    wait_for_app_run(phone)
    for block in phone.locator(".st-key-invite pre").all():
        _not_cut(block)


def test_on_a_phone_a_saved_games_delete_button_is_not_cut(phone, app_server):
    setup = GameSetup(players=("Anna", "Ben"), size=5, rules=Rules(), dynasty=False)
    board = parse_board(BOARD_51)
    GameHistory(app_server.db_path).save(Game(setup, ((board, board),)), "Anna and Ben", [{}])
    phone.goto(f"{app_server.url}history")
    delete = phone.get_by_role("button", name="Delete").first
    expect(delete).to_be_visible(timeout=20_000)
    _not_cut(delete)
    _not_cut(phone.get_by_role("button", name="Open").first)


# The uploader's own words, as a screen reader reads them ------------------------------------------


@pytest.mark.parametrize("locale", ["pl-PL", "vi-VN", "it-IT"])
def test_the_uploader_says_its_words_in_the_pages_language_to_a_screen_reader(
    browser, app_server, locale
):
    from tests.e2e.test_languages import LANGUAGES
    from translations import translator

    words = translator(locale[:2])
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        open_app(page, app_server.url, title=LANGUAGES[locale]["title"])
        uploader = page.locator(".st-key-upload_0")
        button = uploader.get_by_test_id("stBaseButton-secondary")
        expect(button).to_contain_text(words.gettext("Upload"))  # in the page, not only drawn
        wait_for_app_run(page)
        read = uploader.aria_snapshot()  # what assistive technology is given
        for english in ("Upload", "60MB per file", "file upload", "Drag and drop"):
            assert english not in read, read
        assert words.gettext("{size} MB per file", size=60) in read
    finally:
        context.close()


# The corner tool on a phone ---------------------------------------------------------------------


def test_on_a_phone_the_corner_tool_keeps_the_photo_in_view_as_it_is_tapped(browser, app_server):
    from tests.app_boards import SAMPLES

    context = browser.new_context(**DEVICES["phone"])
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        open_app(page, app_server.url)
        upload_photo(page, 0, SAMPLES / "aau-board-1.jpg")
        expect(total_of(page, "Player 1")).to_be_visible(timeout=30_000)
        wait_for_app_run(page)
        fix = page.get_by_text("The grid is wrong: let me tap the corners")
        fix.scroll_into_view_if_needed()
        fix.tap()
        photo = page.locator("iframe[title*='streamlit_image_coordinates']").last
        expect(photo).to_be_visible()
        wait_for_app_run(page)
        photo.scroll_into_view_if_needed()
        image = photo.content_frame.locator("img")
        for number, corner in ((2, "top-right"), (3, "bottom-right")):
            expect(photo).to_be_in_viewport(ratio=0.9)
            unmarked = image.get_attribute("src")
            box = photo.bounding_box()
            page.touchscreen.tap(box["x"] + 20 * number, box["y"] + 20 * number)
            expect(page.get_by_text(f"Tap the kingdom's {corner} corner")).to_be_visible()
            expect(image).not_to_have_attribute("src", unmarked)  # drawn with the new mark
            wait_for_app_run(page)
            expect(photo).to_be_in_viewport(ratio=0.9)  # where the player's finger is
    finally:
        context.close()
