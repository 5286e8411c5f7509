"""Measure the app's speed targets in a real browser: ``python -m tests.e2e.measure_speed``.

Five times, on a fresh server each time:

1. First page ready: from starting ``streamlit run app.py`` to the board editor drawn in the browser
   (target ≤ 2.5 s on an idle machine). The browser is launched before the server so its
   start-up is not counted.
2. Photo → total: the shared real photo of a 7×7 kingdom (``../shared/datasets/photos/game1.jpg``,
   worth 136) uploaded in the default setup (two players, 5×5) until 136 shows, with no other
   input: the app reads the size from the photo and switches to Mighty Duel by itself (target
   ≤ 1.5 s). Timed on the fresh server (the first photo) and again on a new page of the same
   server.

Each moment is taken inside the page, every 16 ms (``tests.e2e.timing``), not with ``expect``'s
growing retry intervals, which added up to half a second to the figures before. Prints each
run, the medians, and the machine's load average before and after (other work on
this shared machine slows every figure).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, REPO, AppServer, board_cell, total_of
from tests.e2e.timing import when_editor_drawn, when_total_shown, when_visible

RUNS = 5
SHARED = Path(os.environ.get("KINGDOMINO_SHARED", REPO.parent / "shared"))
PHOTO = SHARED / "datasets" / "photos" / "game1.jpg"
EXPECTED_TOTAL = "136"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} (1 / 5 / 15 min, 2 cores)"


def upload_to_total(page) -> float:
    before = time.monotonic()
    page.locator(".st-key-upload_0 input[type=file]").set_input_files(PHOTO)
    when_total_shown(page, "Player 1", EXPECTED_TOTAL)
    seconds = time.monotonic() - before
    expect(total_of(page, "Player 1")).to_contain_text(EXPECTED_TOTAL)
    return seconds


def measure(runs: int = RUNS) -> list[tuple[str, list[float], str]]:
    """(what, the seconds of each run, target) for the first page and photo → total."""
    if not PHOTO.exists():
        raise SystemExit(f"{PHOTO} not found (set KINGDOMINO_SHARED to the shared folder)")
    folder = Path(tempfile.mkdtemp())
    # As on a user's machine, the server caches its compiled modules (this machine's environment
    # sets PYTHONDONTWRITEBYTECODE, which would compile ui, vision and scoring on every start).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"photo: {PHOTO} ({PHOTO.stat().st_size / 1e6:.1f} MB); before: {load()}")
    first_page, first_photo, again = [], [], []
    server = AppServer(folder / "games.db")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        # One browser profile for all runs and the same port each time: the first run loads
        # Streamlit's scripts into an empty cache, later runs are a returning visitor.
        context = browser.new_context(viewport={"width": 1000, "height": 1400})
        for run in range(runs):
            started = time.monotonic()
            server.start()
            page = context.new_page()
            page.goto(server.url)
            when_visible(page, ".st-key-text_5_0 textarea")
            when_editor_drawn(page)
            first_page.append(time.monotonic() - started)
            expect(page.locator(".st-key-text_5_0 textarea")).to_be_visible()
            expect(board_cell(page, 1, 1)).to_be_visible()
            first_photo.append(upload_to_total(page))
            # A new page (a new session, the default setup again) on the same server.
            page.goto(server.url)
            when_visible(page, ".st-key-text_5_0 textarea")
            expect(page.locator(".st-key-text_5_0 textarea")).to_be_visible()
            again.append(upload_to_total(page))
            cache = "empty browser cache" if run == 0 else "cached scripts"
            print(
                f"run {run + 1}: server healthy {server.ready_after_s:.2f} s, first page ready "
                f"{first_page[-1]:.2f} s ({cache}); photo to {EXPECTED_TOTAL}: fresh server "
                f"{first_photo[-1]:.2f} s, new page {again[-1]:.2f} s"
            )
            page.close()
            server.stop()
        browser.close()
    print(f"after: {load()}")
    return [
        ("first page ready (fresh server)", first_page, "≤ 2.5 s"),
        ("photo → total, first photo of a fresh server", first_photo, "≤ 1.5 s"),
        ("photo → total, new page", again, "≤ 1.5 s"),
    ]


def main() -> None:
    figures = measure()
    print(f"{'what':44} {'median':>8} {'min':>8} {'max':>8}  target")
    for label, values, target in figures:
        print(
            f"{label:44} {statistics.median(values):7.2f}s {min(values):7.2f}s "
            f"{max(values):7.2f}s  {target}"
        )


if __name__ == "__main__":
    main()
