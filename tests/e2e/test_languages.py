"""The app in the players' languages (issue 40): a browser set to Polish, Vietnamese or Italian
gets the whole page in its language with no other choice made, and the language picker
overrides the browser's and survives a reload (it is kept in the game's draft)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.app_boards import BOARD_51
from tests.e2e.conftest import (
    click_when_idle,
    enter_board_text,
    expect,
    open_app,
    wait_for_app_run,
)

# English a translated page must not show: the words and the app's own labels.
ENGLISH = [
    "Harmony",
    "Middle Kingdom",
    "Provisional",
    "not entered",
    "Result",
    "Player",
    "Total",
    "Largest region",
    "Crowns",
    "Points by terrain",
    "Game setup",
    "Whose kingdom",
    "Apply the text",
    "Share link",
    "Save to history",
    "Start a new game",
    "Score a game",
    "History",
    "Dynasty",
    "Kingdom size",
    "board text",
    "Regions",
    "crown",
    "row ",
    "column",
    "Wheat",
    "Grassland",
    "Swamp",
    "Castle",
    "Hole",
    "Right as read",
    "Download",
    "Invite the table",
]
LANGUAGES = {
    "pl-PL": {
        "title": "Kingdomino – liczenie punktów",
        "total": "razem",
        "words": ["Zamek centralny", "Harmonia", "Wynik tymczasowy", "Gracz 2"],
        "wheat": "Pszenica",
        "cell": "wiersz 2, kolumna 4: las, 1 korona",
    },
    "vi-VN": {
        "title": "Kingdomino – tính điểm",
        "total": "Tổng điểm của",
        "words": ["Vương quốc trung tâm", "Hài hòa", "Kết quả tạm thời", "Người chơi 2"],
        "wheat": "Đồng lúa",
        "cell": "hàng 2, cột 4: rừng, 1 vương miện",
    },
    "it-IT": {
        "title": "Kingdomino – segnapunti",
        "total": "Totale di",
        "words": ["Regno di Mezzo", "Armonia", "Risultato provvisorio", "Giocatore 2"],
        "wheat": "Grano",
        "cell": "riga 2, colonna 4: foresta, 1 corona",
    },
}


@contextmanager
def _page_in(browser, locale: str) -> Iterator:
    """A page of a browser whose language is ``locale``, closed after the test."""
    context = browser.new_context(viewport={"width": 1000, "height": 1400}, locale=locale)
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def _visible_text(page) -> str:
    """What the page shows, less the share link's address (random letters of a code)."""
    return re.sub(r"https?://\S+", "", page.locator("body").inner_text())


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_a_browser_in_another_language_gets_the_whole_page_in_it(browser, app_server, locale):
    language = LANGUAGES[locale]
    with _page_in(browser, locale) as page:
        open_app(page, app_server.url, title=language["title"])
        enter_board_text(page, 0, BOARD_51)
        total = page.get_by_test_id("stMetric").filter(has_text=language["total"]).first
        expect(total).to_contain_text("51")
        # The kingdom not yet entered keeps the result provisional: its notice is translated too.
        expect(page.get_by_test_id("stAlertContentWarning").first).to_contain_text(
            language["words"][2]
        )
        wait_for_app_run(page)
        text = _visible_text(page)
        # Whole words: Italian "Totale" is not English "Total".
        assert [word for word in ENGLISH if re.search(rf"\b{word}\b", text)] == []
        assert [word for word in language["words"] if word not in text] == []
        # The board editor (its words come from Python): brush and cells' names.
        expect(page.get_by_role("button", name=language["wheat"], exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=language["cell"], exact=True)).to_be_visible()
        english_cells = page.get_by_role("button", name=re.compile(r"^row \d, column \d"))
        expect(english_cells).to_have_count(0)
        for english in ("Wheat", "Right as read", "1 crown"):
            expect(page.get_by_role("button", name=english, exact=True)).to_have_count(0)


def test_the_picker_overrides_the_browser_and_survives_a_reload(browser, app_server):
    with _page_in(browser, "pl-PL") as page:
        open_app(page, app_server.url, title=LANGUAGES["pl-PL"]["title"])
        wait_for_app_run(page)
        page.locator(".st-key-language_picker").get_by_role("combobox").click()
        page.get_by_role("option", name="Tiếng Việt").click()
        expect(page.get_by_role("heading", name=LANGUAGES["vi-VN"]["title"])).to_be_visible()
        expect(page.get_by_text("Thiết lập ván chơi")).to_be_visible()  # "Game setup"
        wait_for_app_run(page)
        expect(page).to_have_url(re.compile(r"\?draft="))
        page.reload()
        # The Polish browser reopens its draft in the language chosen in it.
        expect(page.get_by_role("heading", name=LANGUAGES["vi-VN"]["title"])).to_be_visible(
            timeout=20_000
        )
        expect(page.get_by_text("Ustawienia gry")).to_have_count(0)
        picker = page.locator(".st-key-language_picker").get_by_role("combobox")
        expect(picker).to_have_accessible_name("Ngôn ngữ")  # "Language", itself in Vietnamese


def test_a_sample_photos_reading_notes_are_in_the_browsers_language(browser, app_server):
    """The photo reader's own sentences (its decoding note) come from the catalogs too."""
    with _page_in(browser, "pl-PL") as page:
        open_app(page, app_server.url, title=LANGUAGES["pl-PL"]["title"])
        wait_for_app_run(page)
        click_when_idle(page, page.get_by_role("button", name="Wypróbuj ten przykład"))
        total = page.get_by_test_id("stMetric").filter(has_text="razem").first
        expect(total).to_contain_text("51", timeout=20_000)  # aau-board-1.jpg, the first sample
        click_when_idle(page, page.get_by_text("Co aplikacja zobaczyła w aau-board-1.jpg"))
        saw = page.get_by_test_id("stExpanderDetails").filter(has_text="Odczytane królestwo")
        # "As read, the kingdom splits into distinct real dominoes; nothing changed."
        expect(saw).to_contain_text("królestwo dzieli się na różne prawdziwe kafelki domino")
        expect(saw).not_to_contain_text("real dominoes")
