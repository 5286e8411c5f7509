"""Browser tests: a real Streamlit server and Debian's chromium driven by Playwright.

In the style of Streamlit's own e2e_playwright suite: each ``test_*.py`` here drives ``app.py``
through the page as a user would, locating elements by their labels and the ``st-key-<key>``
classes Streamlit gives keyed widgets, and waiting with ``expect`` (never sleeping).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS

REPO = Path(__file__).resolve().parents[2]
# Screenshots for the README are taken only by `python -m tests.e2e.screenshots`, which sets this;
# a plain test run writes nothing into the checkout.
SCREENSHOTS = os.environ.get("KINGDOMINO_SCREENSHOTS")
STARTUP_DEADLINE_S = 30

playwright_sync = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed (scripts/test.sh installs it)", allow_module_level=True
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AppServer:
    """One ``streamlit run app.py`` process on a free port, with its own games database."""

    db_path: Path
    port: int = 0
    process: subprocess.Popen | None = None
    ready_after_s: float = 0.0  # from process start to a healthy server
    # Where the server listens: this computer only, unless a test serves the network (the table).
    address: str = "127.0.0.1"

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.port}/"

    def start(self) -> AppServer:
        """Start (or restart, on the same port: the same address for the browser)."""
        self.port = self.port or _free_port()
        env = dict(os.environ, KINGDOMINO_DB=str(self.db_path))
        started = time.monotonic()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "app.py",
                "--server.headless",
                "true",
                "--server.port",
                str(self.port),
                "--server.address",
                self.address,
                "--server.fileWatcherType",
                "none",
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._wait_until_healthy(started)
        self.ready_after_s = time.monotonic() - started
        return self

    def _wait_until_healthy(self, started: float) -> None:
        """Poll /_stcore/health until it answers, the process dies, or the deadline passes."""
        health = f"{self.url}_stcore/health"
        while time.monotonic() - started < STARTUP_DEADLINE_S:
            try:
                with urllib.request.urlopen(health, timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            try:  # waits up to 0.1 s for the process to exit: the poll's pace, and a crash check
                self.process.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                continue
            raise RuntimeError(f"streamlit exited early:\n{self.process.stderr.read().decode()}")
        self.stop()
        raise RuntimeError(f"streamlit was not healthy within {STARTUP_DEADLINE_S} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def app_server(tmp_path_factory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("db") / "games.db").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    with playwright_sync.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# The two screens every issue-10 test runs on: a desktop window and a 390×844 phone.
# The app follows the browser's language: these speak English, as the tests read it.
DEVICES = {
    "desktop": {"viewport": {"width": 1000, "height": 1400}, "locale": "en-US"},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "locale": "en-US",
    },
}


@pytest.fixture(params=list(DEVICES))
def device_page(request, browser, app_server):
    """A fresh session on the app, once on a desktop and once on a phone viewport."""
    context = browser.new_context(**DEVICES[request.param])
    context.set_default_timeout(10_000)
    page = context.new_page()
    open_app(page, app_server.url)
    yield page
    context.close()


@pytest.fixture
def blurred_photo(tmp_path):
    """aau-board-1 blurred so that the reader flags some cells."""
    import cv2

    from tests.app_boards import SAMPLES

    image = cv2.GaussianBlur(cv2.imread(str(SAMPLES / "aau-board-1.jpg")), (0, 0), 7)
    path = tmp_path / "blurred.png"
    cv2.imwrite(str(path), image)
    return path


@pytest.fixture
def page(browser, app_server):
    """A fresh browser session (its own Streamlit session) on the app's first page, loaded."""
    context = browser.new_context(viewport={"width": 1000, "height": 1400}, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    open_app(page, app_server.url)
    yield page
    context.close()


def open_app(page, url: str, title: str = "Kingdomino Scorer") -> None:
    """Open the app and wait for its title (``title``: as the page's language says it)."""
    page.goto(url)
    playwright_sync.expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=20_000)


def screenshot(page, name: str, top=None) -> None:
    """Save what the browser shows for the README (docs/screenshots/<name>.png), when asked to.

    Streamlit scrolls inside its own container, so a full-page capture is only the viewport;
    ``top`` (a locator) is scrolled to the top of the view first to choose what is shown.
    """
    if not SCREENSHOTS:
        return
    if top is not None:
        top.evaluate("element => element.scrollIntoView({block: 'start'})")
    folder = Path(SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


# --- actions shared by the tests ---------------------------------------------------------------

expect = playwright_sync.expect
expect.set_options(timeout=10_000)


def is_phone(page) -> bool:
    """Whether the page is the phone profile (``DEVICES["phone"]``: touch, 390 px wide)."""
    return page.viewport_size["width"] < 500


def tap(page, target) -> None:
    """A tap as the device makes it: a touch tap on the phone, a mouse click on the desktop."""
    if is_phone(page):
        target.tap()
    else:
        target.click()


def board_cell(page, row: int, column: int):
    """A board editor cell, 1-based as its name says (``row 2, column 3: lake, 1 crown``)."""
    return page.get_by_role("button", name=re.compile(rf"^row {row}, column {column}: "))


def cell_named(page, name: str):
    """The cell whose accessible name is exactly ``name``: it shows what the name says."""
    return page.get_by_role("button", name=name, exact=True)


def choose_brush(page, terrain: str, crowns: int | None = None) -> None:
    """Pick the brush in the editor (``Mine``, ``2``): answered in the page, no run of the app."""
    button = page.get_by_role("button", name=terrain, exact=True)
    tap(page, button)
    expect(button).to_have_attribute("aria-pressed", "true")
    if crowns is not None:
        name = f"{crowns} crown{'' if crowns == 1 else 's'}"
        count = page.get_by_role("button", name=name, exact=True)
        tap(page, count)
        expect(count).to_have_attribute("aria-pressed", "true")


def total_of(page, name: str):
    """The metric showing ``name``'s total in the result.

    While a rerun replaces the page, the old element can briefly sit next to the new one; the
    first match is the one that stays, and ``expect`` retries until it shows the awaited value.
    """
    return page.get_by_test_id("stMetric").filter(has_text=f"{name}'s total").first


def set_name(page, slot: int, name: str) -> None:
    field = page.locator(f".st-key-setup_name_{slot} input")
    field.fill(name)
    field.press("Enter")
    # The rename's run is over once the name shows among whose kingdom to draw.
    expect(kingdom_choice(page, name)).to_be_visible()


def wait_for_app_run(page) -> None:
    """Wait until the script run that the last input started has finished.

    A click that lands while a rerun is still drawing can be undone by it (a tab switched back),
    so steps that follow an input wait for Streamlit's own "not running" state first.
    """
    expect(page.get_by_test_id("stApp")).to_have_attribute(
        "data-test-script-state", "notRunning", timeout=30_000
    )


def click_when_idle(page, target) -> None:
    """Click ``target`` once the run started by the previous input is over.

    A button pressed while the page is still being redrawn was once lost (CI, the whole-table
    test: the "put these kingdoms in the players' tabs" press did nothing), so every press that
    follows an input waits for the app to be idle first, as a player's second tap would.
    """
    wait_for_app_run(page)
    target.click()


def kingdom_choice(page, name: str):
    """The player's name in "Whose kingdom" (the app draws one kingdom at a time)."""
    return page.locator(".st-key-kingdom_shown").get_by_role("radio", name=name, exact=True)


def show_kingdom(page, name: str) -> None:
    """Show a player's kingdom: a tap on their name in "Whose kingdom"."""
    choice = kingdom_choice(page, name)
    click_when_idle(page, choice)
    expect(choice).to_be_checked()
    wait_for_app_run(page)  # the choice shows at once; their kingdom once the run is over


def enter_board_text(page, slot: int, text: str, size: int = 5) -> None:
    """Type a board into the text box and press the visible Apply button (as on a phone)."""
    wait_for_app_run(page)
    box = page.locator(f".st-key-text_{size}_{slot} textarea")
    box.fill(text)
    click_when_idle(page, page.locator(f".st-key-apply_{slot}").get_by_role("button"))
    wait_for_app_run(page)


def upload_photo(page, slot: int, path) -> None:
    wait_for_app_run(page)
    page.locator(f".st-key-upload_{slot} input[type=file]").set_input_files(path)
