"""Game night under load: one Chromium with N tabs, each uploading a different photo at once.

    python -m tests.e2e.load_test [--tabs 10] [--timeout 180]

Starts the app (its own port and games database), opens N tabs (sessions) in ONE headless
Debian chromium, uploads a different kingdom photo in each at the same moment and waits for
each tab's own total (checked inside the page every 16 ms, ``tests.e2e.timing``). Then it
prints, per tab and in all: the time from upload to total (p50, p95, max), whether the total
and the board read are that tab's own (no session shows another's kingdom), the server's peak
resident memory (VmHWM) and CPU seconds per photo, and how many times the server process
loaded the cell model (must be 1).

The photos are the 5×5 ``sample_images`` and turned copies of them (written to a temporary
folder); their board text files give the expected totals and boards.

Not a pytest test (pytest collects ``*_test.py``): nothing here is named ``test_*``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.timing import when_total_shown_async

# Each tab stands for a player's phone, where the app is the page in front: chromium must not
# slow the tabs it considers in the background (timers, rendering) as it would for a person.
FOREGROUND_TABS = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]

__test__ = False  # for pytest: a script, not a test module

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_images"
# (sample, quarter turns clockwise): the six 5×5 samples, then turned copies, all different files.
VARIANTS = [
    ("aau-board-1", 0),
    ("aau-board-2", 0),
    ("aau-board-20", 0),
    ("synthetic-scene-12", 0),
    ("synthetic-scene-19", 0),
    ("synthetic-scene-20", 0),
    ("aau-board-1", 1),
    ("aau-board-2", 2),
    ("synthetic-scene-12", 3),
    ("synthetic-scene-20", 2),
    ("aau-board-20", 1),
    ("synthetic-scene-19", 2),
]
UPLOAD = ".st-key-upload_0 input[type=file], .st-key-upload_5_0 input[type=file]"
BOARD_TEXT = ".st-key-text_5_0 textarea"


@dataclass(frozen=True)
class Photo:
    path: Path
    total: int
    rows: tuple[tuple[str, ...], ...]  # the expected board, in the sample's own orientation


@dataclass(frozen=True)
class TabResult:
    photo: Photo
    seconds: float | None  # upload to total; None if the total never came
    total_right: bool
    own_board: bool  # the board shown is this photo's (turned any way)
    detail: str = ""
    shown: tuple[tuple[str, ...], ...] = ()  # the board the tab shows


def another_tabs_board(result: TabResult, photos: list[Photo]) -> bool:
    """The tab shows the board of another tab's photo: one session leaking into another (a
    board that is nobody's is a misreading, not a leak)."""
    others = [p for p in photos if set(_turns(p.rows)) != set(_turns(result.photo.rows))]
    return any(result.shown in _turns(p.rows) for p in others)


def make_photos(folder: Path, count: int) -> list[Photo]:
    """``count`` different photo files with their expected totals and boards."""
    import cv2

    from scoring import Rules, parse_board, score_board

    if count > len(VARIANTS):
        raise SystemExit(f"at most {len(VARIANTS)} tabs: there are that many different photos")
    turns = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
    photos = []
    for name, quarter in VARIANTS[:count]:
        image = cv2.imread(str(SAMPLES / f"{name}.jpg"))
        if quarter:
            image = cv2.rotate(image, turns[quarter])
        path = folder / f"{name}-turned-{quarter * 90}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        board = parse_board((SAMPLES / f"{name}.txt").read_text())
        total = score_board(board, Rules(), check_tiles=False).total
        rows = tuple(tuple(row.split()) for row in board.rows_text())
        photos.append(Photo(path, total, rows))
    return photos


def _turns(rows: tuple[tuple[str, ...], ...]) -> list[tuple[tuple[str, ...], ...]]:
    out = [rows]
    for _ in range(3):
        rows = tuple(zip(*rows[::-1], strict=True))
        out.append(rows)
    return out


# ---- the server ----------------------------------------------------------------------------


def serve(arguments: list[str]) -> None:
    """The app's server, counting cell-model loads in ``$KINGDOMINO_MODEL_LOG`` (one line each)."""
    import vision.model as model

    log = Path(os.environ["KINGDOMINO_MODEL_LOG"])
    original = model.CellModel.__init__

    def counting_init(self, *args, **kwargs):
        with log.open("a") as file:
            file.write(f"pid {os.getpid()} thread {threading.current_thread().name}\n")
        original(self, *args, **kwargs)

    model.CellModel.__init__ = counting_init
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(REPO / "app.py"), *arguments]
    cli.main()


class Server:
    """``streamlit run app.py`` in its own process, on a free port, with its own database."""

    def __init__(self, folder: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.model_log = folder / "model-loads.log"
        self.model_log.write_text("")
        env = dict(
            os.environ,
            KINGDOMINO_DB=str(folder / "games.db"),
            KINGDOMINO_MODEL_LOG=str(self.model_log),
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.e2e.load_test",
                "--serve",
                "--server.headless=true",
                f"--server.port={self.port}",
                "--server.address=127.0.0.1",
                "--server.fileWatcherType=none",
                "--browser.gatherUsageStats=false",
            ],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(folder / "server.log", "wb"),  # noqa: SIM115 (lives with the process)
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}_stcore/health", timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"the server exited; see {folder / 'server.log'}") from None
                time.sleep(0.2)  # a script polling a server, not a test
        raise SystemExit("the server was not healthy within 60 s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.process.pid)

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024

    def model_loads(self) -> int:
        return len(self.model_log.read_text().splitlines())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---- the browser ---------------------------------------------------------------------------


async def _open(page, url: str, timeout_ms: int) -> None:
    from playwright.async_api import expect

    await page.goto(url, timeout=timeout_ms)
    await expect(page.get_by_role("heading", name="Kingdomino Scorer")).to_be_visible(
        timeout=timeout_ms
    )
    await expect(page.locator(UPLOAD).first).to_be_attached(timeout=timeout_ms)


async def _upload_and_wait(page, photo: Photo, start: asyncio.Event, timeout_ms: int):
    from playwright.async_api import TimeoutError as PlaywrightTimeout
    from playwright.async_api import expect

    await start.wait()  # every tab uploads at the same moment
    began = time.perf_counter()
    await page.locator(UPLOAD).first.set_input_files(str(photo.path))
    metric = page.get_by_test_id("stMetric").filter(has_text="Player 1's total").first
    try:
        await when_total_shown_async(page, "Player 1", str(photo.total), timeout_ms)
        seconds = time.perf_counter() - began
        await expect(metric.get_by_test_id("stMetricValue")).to_have_text(str(photo.total))
    except (AssertionError, PlaywrightTimeout):
        seconds = None
    shown = await page.locator(BOARD_TEXT).input_value()
    rows = tuple(tuple(line.split()) for line in shown.splitlines() if line.split())
    shown_total = await metric.text_content() if await metric.count() else "no total"
    own = rows in _turns(photo.rows)
    return TabResult(photo, seconds, seconds is not None, own, f"{shown_total!r}", rows)


async def run(tabs: int, timeout_s: float) -> list[TabResult]:
    from playwright.async_api import async_playwright

    timeout_ms = int(timeout_s * 1000)
    with tempfile.TemporaryDirectory(prefix="kingdomino-load-") as tmp:
        folder = Path(tmp)
        photos = make_photos(folder, tabs)
        server = Server(folder)
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS + FOREGROUND_TABS
                )
                context = await browser.new_context(viewport={"width": 1000, "height": 1400})
                pages = [await context.new_page() for _ in photos]
                await asyncio.gather(*(_open(page, server.url, timeout_ms) for page in pages))
                cpu_before, browser_before = server.cpu_seconds(), browser_cpu_seconds()
                start = asyncio.Event()
                waits = [
                    asyncio.create_task(_upload_and_wait(page, photo, start, timeout_ms))
                    for page, photo in zip(pages, photos, strict=True)
                ]
                started = time.perf_counter()
                start.set()
                results = await asyncio.gather(*waits)
                wall = time.perf_counter() - started
                cpu = server.cpu_seconds() - cpu_before
                browser_cpu = browser_cpu_seconds() - browser_before
                await browser.close()
            report(
                results, photos, wall, cpu, browser_cpu, server.peak_rss_mb(), server.model_loads()
            )
            return results
        finally:
            server.stop()


def browser_cpu_seconds() -> float:
    """CPU seconds of every chromium process now running (the tabs share this machine's cores
    with the server, so their work is part of every tab's wait)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, seconds = _process_cpu(stat.read_text())
        except OSError:  # the process ended while we looked
            continue
        if name == "chromium":
            total += seconds
    return total


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    return _process_cpu(Path(f"/proc/{pid}/stat").read_text())[1]


def _process_cpu(stat: str) -> tuple[str, float]:
    """(command name, user + system CPU seconds) from the text of a ``/proc/PID/stat``."""
    head, fields = stat.rsplit(")", 1)
    values = fields.split()
    return head.split("(", 1)[1], (int(values[11]) + int(values[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(
    results: list[TabResult],
    photos: list[Photo],
    wall: float,
    cpu: float,
    browser_cpu: float,
    rss_mb: float,
    model_loads: int,
) -> None:
    print(f"{'tab':>3}  {'photo':<34} {'expected':>8}  {'seconds':>7}  total  own board")
    for number, result in enumerate(results, start=1):
        seconds = f"{result.seconds:7.1f}" if result.seconds is not None else "  never"
        print(
            f"{number:>3}  {result.photo.path.name:<34} {result.photo.total:>8}  {seconds}  "
            f"{'right' if result.total_right else 'WRONG'}  {'yes' if result.own_board else 'NO'}"
            + ("" if result.total_right and result.own_board else f"   shown: {result.detail}")
        )
    times = [r.seconds for r in results if r.seconds is not None]
    right = sum(r.total_right and r.own_board for r in results)
    print()
    print(f"sessions at once                 {len(results)}")
    print(f"totals right, own board          {right} of {len(results)}")
    leaks = sum(another_tabs_board(r, photos) for r in results)
    print(f"sessions showing another's board {leaks}")
    print(f"boards misread (nobody's board)  {sum(not r.own_board for r in results) - leaks}")
    if times:
        print(
            f"time to total p50 / p95 / max    {_percentile(times, 0.5):.1f} / "
            f"{_percentile(times, 0.95):.1f} / {max(times):.1f} s"
        )
    print(f"all {len(results)} done after               {wall:.1f} s")
    print(f"server peak RSS                  {rss_mb:.0f} MB")
    print(f"server CPU per photo             {cpu / len(results):.2f} s ({cpu:.1f} s in all)")
    print(
        f"browser CPU per tab              {browser_cpu / len(results):.2f} s (the tabs' own work)"
    )
    print(f"cell model loads in the server   {model_loads}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        serve(argv[1:])
        return 0
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.load_test", description=__doc__)
    parser.add_argument("--tabs", type=int, default=10, help="sessions at once (default 10)")
    parser.add_argument("--timeout", type=float, default=180, help="seconds per tab at most")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        raise SystemExit("Debian's chromium is needed at /usr/bin/chromium")
    asyncio.run(run(args.tabs, args.timeout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
