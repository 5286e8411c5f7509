"""What following the table costs: N phones joined to one game, idle, then one kingdom entered.

    python -m tests.e2e.measure_table [--phones 10] [--seconds 30]

Starts the app (its own port and games database), a host tab that turns on the invite and N
phone tabs (each its own browser context, a session of its own) that open the invited address,
choose Player 1 and watch. Then it measures the server's CPU seconds over ``--seconds`` with
nothing happening (only the refresh fragments, ``ui.live.REFRESH_S``), and the time from the
host's entry of a kingdom to its total on every phone. Prints a table; take the figures on an
idle machine (docs/multiplayer.md).

Not a pytest test (pytest collects ``test_*.py``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.app_boards import BOARD_51
from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.conftest import DEVICES, AppServer, enter_board_text, open_app, total_of
from tests.e2e.load_test import FOREGROUND_TABS, process_cpu_seconds

__test__ = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = AppServer(Path(folder) / "games.db").start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *FOREGROUND_TABS]
                )
                _measure(browser, server, args.phones, args.seconds)
                browser.close()
        finally:
            server.stop()


def _measure(browser, server: AppServer, phones: int, seconds: float) -> None:
    host = browser.new_context(**DEVICES["desktop"]).new_page()
    open_app(host, server.url)
    host.get_by_text("Invite the table").click()
    shown = host.locator(".st-key-invite_address code")
    expect(shown).to_contain_text("join=1")
    # The invite names this computer's network address; the server here listens on loopback.
    address = server.url + "?" + shown.inner_text().strip().split("?", 1)[1]
    watchers = []
    for _ in range(phones):
        page = browser.new_context(**DEVICES["phone"]).new_page()
        open_app(page, address)
        page.locator(".st-key-seats").get_by_role("button", name="Player 1").click()
        expect(page.get_by_text("You are Player 1")).to_be_visible()
        watchers.append(page)

    before, started = process_cpu_seconds(server.process.pid), time.monotonic()
    deadline = started + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)  # a script measuring an idle server, not a test
    idle_cpu = process_cpu_seconds(server.process.pid) - before
    idle_wall = time.monotonic() - started

    entered = time.monotonic()
    enter_board_text(host, 0, BOARD_51)
    shown_after = []
    for page in watchers:
        expect(total_of(page, "Player 1")).to_contain_text("51", timeout=60_000)
        shown_after.append(time.monotonic() - entered)

    print(f"| phones watching | {phones} |")
    print("|---|---|")
    print(f"| idle: server CPU seconds per second | {idle_cpu / idle_wall:.3f} |")
    per_refresh = _per_refresh(idle_cpu, idle_wall, phones)
    print(f"| idle: server CPU ms per phone per refresh | {per_refresh:.1f} |")
    print(f"| entry on the host → total on the last phone (s) | {max(shown_after):.2f} |")
    median = sorted(shown_after)[phones // 2]
    print(f"| entry on the host → total, median phone (s) | {median:.2f} |")


def _per_refresh(cpu: float, wall: float, phones: int) -> float:
    from ui.live import REFRESH_S

    refreshes = phones * wall / REFRESH_S
    return 1000 * cpu / refreshes if refreshes else 0.0


if __name__ == "__main__":
    main()
