"""The moment something shows in the page, for the speed and load scripts.

Playwright's ``expect`` retries at growing intervals (0, 20, 50, 100, 100 ms, then every 500 ms),
which is right for tests but adds up to half a second to a timing. These checks run inside the
page every 16 ms (about one frame), so a figure is when the user could first see the thing.
Each is followed by the ``expect`` assertion that the tests use, which then passes at once.
"""

from __future__ import annotations

POLL_MS = 16

VISIBLE = """selector => {
    const element = document.querySelector(selector);
    return !!element && element.getClientRects().length > 0;
}"""

# The board editor (ui/board_editor.js): its cells drawn inside the component's shadow root.
EDITOR_DRAWN = """() => {
    const host = document.querySelector('[data-testid="stBidiComponentIsolated"]');
    const cells = host && host.shadowRoot && host.shadowRoot.querySelectorAll(".kd-cell");
    return !!cells && cells.length > 0 && cells[0].getClientRects().length > 0;
}"""

TOTAL_SHOWN = """([name, total]) => Array.from(
    document.querySelectorAll('[data-testid="stMetric"]')
).some(metric => metric.innerText.includes(`${name}'s total`) &&
    metric.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === total)"""


def when_visible(page, selector: str, timeout_ms: float = 30_000) -> None:
    page.wait_for_function(VISIBLE, arg=selector, polling=POLL_MS, timeout=timeout_ms)


def when_editor_drawn(page, timeout_ms: float = 30_000) -> None:
    page.wait_for_function(EDITOR_DRAWN, polling=POLL_MS, timeout=timeout_ms)


def when_total_shown(page, name: str, total: str, timeout_ms: float = 60_000) -> None:
    page.wait_for_function(TOTAL_SHOWN, arg=[name, total], polling=POLL_MS, timeout=timeout_ms)


async def when_total_shown_async(page, name: str, total: str, timeout_ms: float) -> None:
    await page.wait_for_function(
        TOTAL_SHOWN, arg=[name, total], polling=POLL_MS, timeout=timeout_ms
    )
