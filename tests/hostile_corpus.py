"""The hostile-input corpus: every kind of bad input we know of, through the CLI and the app.

    python -m tests.hostile_corpus

Each case is tried once and counts as *handled* when the user gets the project's own answer:
for the CLI exit status 2 with only ``kingdomino: ...`` lines on stderr, nothing on stdout (no
board made up), no traceback, no warning, no hang; for the app no exception element, an error or
warning sentence on the page and no unescaped Markdown from the input. Good inputs mixed in
(controls) must still be scored. Prints tried / handled / failed per group, the failures, the
slowest case and the peak memory. Exit status 1 if any case failed.

``tests/test_hostile_corpus.py`` runs it in the suite; ``tests/scoring/test_parser_fuzz.py``
and the ``*_hostile.py`` tests keep single cases of it as well.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import resource
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_images" / "synthetic-scene-20.jpg"
BOARD = "L1 L0 L0 L0 L0\nF0 S1 G0 F0 L1\nM2 S0 C  F0 L1\nM1 M0 G0 G2 L1\nW0 W1 W0 W0 W0\n"
HANG_LIMIT_S = 60


@dataclass
class Outcome:
    group: str
    name: str
    handled: bool
    seconds: float
    detail: str = ""


# ---- files ---------------------------------------------------------------------------------


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(side: int) -> bytes:
    """A small PNG that claims ``side``×``side`` pixels (decoding it would need gigabytes)."""
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\0" * (1 + 3 * 1000) * 100, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", rows)
        + _png_chunk(b"IEND", b"")
    )


def _encode(image: np.ndarray, suffix: str, *params: int) -> bytes:
    ok, data = cv2.imencode(suffix, image, list(params))
    assert ok
    return data.tobytes()


def board_files() -> dict[str, bytes]:
    """Board-text and JSON files that must each be one ``kingdomino:`` line."""
    rows = BOARD.splitlines()
    return {
        "empty.txt": b"",
        "spaces.txt": b"   \n\t\n",
        "over-1MB.txt": b"W0 " * 400_000,
        "binary.txt": os.urandom(5000),
        "nul-bytes.txt": BOARD.encode().replace(b"C ", b"\0 "),
        "utf16.txt": BOARD.encode("utf-16"),
        "deep-json.json": b"[" * 100_000,
        "deep-object.json": b'{"grid": ' * 50_000,
        "long-number.json": b"[1" + b"0" * 5000 + b"]",
        "superscript.txt": BOARD.replace("L1", "L²", 1).encode(),
        "arabic-digit.txt": BOARD.replace("L1", "L١", 1).encode(),
        "fullwidth-digit.txt": BOARD.replace("L1", "L１", 1).encode(),
        "long-s.txt": BOARD.replace("S1", "ſ1", 1).encode(),
        "json-null.json": b"null",
        "json-42.json": b"42",
        "json-string.json": b'"L1 L0"',
        "json-grid-number.json": b'{"grid": 5}',
        "json-rows-numbers.json": b"[[1, 2, 3, 4, 5]] ",
        "eight-rows.txt": (BOARD + rows[0] + "\n" + rows[0] + "\n" + rows[0] + "\n").encode(),
        "two-castles.txt": BOARD.replace("L1", "C", 1).encode(),
        "no-castle.txt": BOARD.replace("C ", "G0").encode(),
        "too-many-crowns.txt": BOARD.replace("W1", "W9").encode(),
        "huge-token.txt": BOARD.replace("L1", "L" * 500_000, 1).encode(),
        "escaped-quotes.json": b'["' + b'\\"' * 300_000,
        "unterminated.json": b'["L1 L0 L0',
    }


def image_files() -> dict[str, bytes]:
    """Image files (by name or by content) without a kingdom we may read."""
    rng = np.random.default_rng(11)
    wood = np.zeros((1200, 1600, 3), np.uint8)
    wood[:] = (60, 110, 170)
    wood = np.clip(wood + (np.sin(np.arange(1600) / 7) * 12)[None, :, None], 0, 255)
    white = np.full((1200, 1600, 3), 255, np.uint8)
    sample = SAMPLE.read_bytes()
    grey_sample = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2GRAY)
    return {
        "empty.jpg": b"",
        "truncated.jpg": sample[: len(sample) // 3],
        "header-only.jpg": sample[:200],
        "random.png": os.urandom(20_000),
        "text.jpg": BOARD.encode(),
        "bomb-30k.png": png_bomb(30_000),
        "bomb-60k.png": png_bomb(60_000),
        "blank-white.png": _encode(white, ".png"),
        "one-colour-3000.jpg": _encode(np.full((3000, 3000, 3), (40, 160, 90), np.uint8), ".jpg"),
        "noise.png": _encode(rng.integers(0, 256, (900, 1200, 3), dtype=np.uint8), ".png"),
        "plain-wood.jpg": _encode(wood.astype(np.uint8), ".jpg"),
        "white-16bit.png": _encode(np.full((600, 800, 3), 65535, np.uint16), ".png"),
        "white-rgba.png": _encode(np.full((600, 800, 4), 255, np.uint8), ".png"),
        "grey.bmp": _encode(np.full((600, 800), 128, np.uint8), ".bmp"),
        "black-and-white.jpg": _encode(grey_sample, ".jpg"),
        "noise.tiff": _encode(rng.integers(0, 256, (400, 400, 3), dtype=np.uint8), ".tiff"),
        "tiny-1x1.png": _encode(np.zeros((1, 1, 3), np.uint8), ".png"),
        "thin-1x5000.png": _encode(np.zeros((1, 5000, 3), np.uint8), ".png"),
    }


BAD_CORNERS = {
    "corners-nan": "nan,0,900,25,890,910,15,905",
    "corners-inf": "inf,0,900,25,890,910,15,905",
    "corners-zero": "0,0,0,0,0,0,0,0",
    "corners-1px": "10,10,11,10,11,11,10,11",
    "corners-outside": "10,10,1e300,10,900,900,10,900",
    "corners-on-a-line": "100,100,400,100,800,100,400,1000",
    "corners-seven-numbers": "1,2,3,4,5,6,7",
    "corners-words": "a,b,c,d,e,f,g,h",
}


# ---- the CLI -------------------------------------------------------------------------------


def run_cli(args: list[str], stdin: bytes = b"") -> tuple[int, str, str, list[str]]:
    """``kingdomino ARGS`` in this process: status, stdout, stderr, warnings raised."""
    from kingdomino.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with (
            warnings.catch_warnings(record=True) as caught,
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            warnings.simplefilter("always")
            try:
                status = main(args)
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue(), [str(w.message) for w in caught]


def refused(status: int, out: str, err: str, caught: list[str]) -> str:
    """'' when the CLI refused the input properly, else what went wrong."""
    problems = []
    if status != 2:
        problems.append(f"exit {status}")
    if out.strip():
        problems.append("printed a board")
    if not err.strip() or not all(line.startswith("kingdomino: ") for line in err.splitlines()):
        problems.append(f"stderr {err[:160]!r}")
    if "Traceback" in err or caught:
        problems.append(f"traceback/warnings {caught[:2]}")
    return "; ".join(problems)


def cli_cases(folder: Path) -> list[tuple[str, str, Callable[[], str]]]:
    """(group, name, check) where check() returns '' when handled."""
    good = folder / "good.txt"
    good.write_text(BOARD)
    cases: list[tuple[str, str, Callable[[], str]]] = []

    def file_case(group: str, name: str, data: bytes, command: str = "score") -> None:
        path = folder / name
        path.write_bytes(data)

        def check() -> str:
            problem = refused(*run_cli([command, str(path)]))
            if problem:
                return problem
            # The same bad file in a batch: the good one is still read.
            if command == "read":
                status, out, err, caught = run_cli(["read", str(path), str(SAMPLE)])
                done = f"{SAMPLE} (5×5)" in out
            else:
                status, out, err, caught = run_cli([command, str(path), str(good)])
                done = "Total: 67" in out
            return "" if status == 2 and done and not caught else "batch broken"

        cases.append((group, name, check))

    for name, data in board_files().items():
        file_case("CLI board files", name, data)
    for name, data in list(board_files().items())[:8]:
        cases.append(
            (
                "CLI board files",
                f"stdin:{name}",
                lambda data=data: refused(*run_cli(["score", "-"], stdin=data)),
            )
        )
    for name, data in image_files().items():
        file_case("CLI images", name, data)
        if name.endswith(".png") and "bomb" not in name:
            file_case("CLI images", f"read:{name}", data, command="read")
    for name, corners in BAD_CORNERS.items():
        cases.append(
            (
                "CLI corners",
                name,
                lambda c=corners: refused(*run_cli(["score", str(SAMPLE), f"--corners={c}"])),
            )
        )

    def rank_case(name: str, data: bytes) -> Callable[[], str]:
        def check() -> str:
            bad = folder / f"rank-{name}"
            bad.write_bytes(data)
            status, out, err, caught = run_cli(["rank", f"A={good}", f"B={bad}", f"C={good}"])
            ok = status == 2 and "1. A" in out and "1. C" in out and not caught
            return "" if ok and "Traceback" not in err else f"exit {status} {err[:120]!r}"

        return check

    for name in ("deep-json.json", "long-number.json", "superscript.txt", "binary.txt"):
        cases.append(("CLI rank", name, rank_case(name, board_files()[name])))
    cases.append(
        (
            "CLI rank",
            "one player left",
            lambda: refused(*run_cli(["rank", f"A={good}", f"B={folder / 'missing.txt'}"])),
        )
    )

    def special(name: str, make: Callable[[Path], None]) -> None:
        path = folder / name

        def check() -> str:
            make(path)
            try:  # a subprocess: a hang must end in a failure, not hang this run
                done = subprocess.run(
                    [sys.executable, "-m", "kingdomino", "score", str(path)],
                    capture_output=True,
                    timeout=HANG_LIMIT_S,
                    cwd=REPO,
                )
            except subprocess.TimeoutExpired:
                return "hung"
            return refused(done.returncode, done.stdout.decode(), done.stderr.decode(), [])

        cases.append(("CLI special files", name, check))

    def corrupt_jpeg(path: Path) -> None:  # lost scan data: libjpeg itself writes to stderr
        data = bytearray(SAMPLE.read_bytes())
        data[len(data) // 2 : len(data) // 2 + 4000] = bytes(4000)
        path.write_bytes(bytes(data))

    special("corrupt-scan.jpg", corrupt_jpeg)
    special("fifo", os.mkfifo)
    special("fifo.png", os.mkfifo)
    special("a-directory", lambda p: p.mkdir())
    special("missing.txt", lambda p: None)
    special("symlink-loop", lambda p: p.symlink_to(p))
    cases.append(
        ("CLI special files", "/dev/zero", lambda: refused(*run_cli(["score", "/dev/zero"])))
    )

    def read_folder() -> str:
        status, out, err, caught = run_cli(["read", str(folder)])
        problem = refused(status, out, err, caught)
        return problem or ("" if "is a folder" in err else f"said {err[:120]!r}")

    cases.append(("CLI special files", "read a folder", read_folder))

    def stdin_closed() -> str:
        done = subprocess.run(
            ["sh", "-c", 'exec "$0" -m kingdomino score - <&-', sys.executable],
            capture_output=True,
            timeout=HANG_LIMIT_S,
            cwd=REPO,
        )
        return refused(done.returncode, done.stdout.decode(), done.stderr.decode(), [])

    cases.append(("CLI stdin", "closed (<&-)", stdin_closed))

    def big_photo_on_stdin() -> str:  # a control: a phone-sized photo over 1 MB is scored
        image = cv2.resize(cv2.imread(str(SAMPLE)), None, fx=2.5, fy=2.5)
        data = _encode(image, ".jpg", cv2.IMWRITE_JPEG_QUALITY, 97)
        status, out, err, caught = run_cli(["score", "-"], stdin=data)
        if len(data) <= 1_000_000:
            return "the photo is not over 1 MB"
        return "" if status == 0 and "Total:" in out and not caught else f"exit {status} {err!r}"

    cases.append(("CLI stdin", "photo over 1 MB (control)", big_photo_on_stdin))
    return cases


# ---- the app -------------------------------------------------------------------------------


def app_cases(folder: Path) -> list[tuple[str, str, Callable[[], str]]]:
    import base64

    from streamlit.testing.v1 import AppTest

    from games.share import ShareError, decode_game
    from tests.app.kingdom_choice import text_box

    def new_app(db: Path | None = None) -> AppTest:
        os.environ["KINGDOMINO_DB"] = str(db or folder / f"games-{time.monotonic_ns()}.db")
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        at.run()
        return at

    def page_problem(at: AppTest, raw: str = "") -> str:
        if at.exception:
            return f"exception: {at.exception[0].message[:120]}"
        texts = [e.value for kind in (at.error, at.warning, at.info) for e in kind]
        if raw and any(raw in text for text in texts + [m.value for m in at.markdown]):
            return "input shown as Markdown, unescaped"
        return ""

    cases: list[tuple[str, str, Callable[[], str]]] = []

    def upload_case(name: str, data: bytes) -> Callable[[], str]:
        def check() -> str:
            at = new_app()
            uploaders = [u for u in at.get("file_uploader")]
            if not uploaders:
                return "no uploader"
            uploaders[0].upload(name, data, "image/jpeg").run()
            problem = page_problem(at)
            if problem:
                return problem
            if not at.error:
                return "no message"
            metrics = {m.label: m.value for m in at.metric}
            return "a board was made up" if metrics else ""

        return check

    for name, data in image_files().items():
        if name in ("bomb-60k.png", "one-colour-3000.jpg", "thin-1x5000.png", "tiny-1x1.png"):
            continue  # the CLI group has them; the app decodes with the same load_image
        if name.endswith((".bmp", ".tiff")):
            # The browser's file picker offers only the uploader's types (and Streamlit refuses
            # other extensions itself): such a file arrives under an allowed name.
            name = name.replace(".", "-") + ".png"
        cases.append(("app uploads", name, upload_case(name, data)))

    def name_case(name: str) -> Callable[[], str]:
        def check() -> str:
            at = new_app()
            at.text_input(key="setup_name_0").input(name).run()
            text_box(at, 0).input(BOARD).run()
            if at.exception:
                return "exception"
            shown = [m.value for m in at.markdown] + [t.label for t in at.tabs]
            shown += [m.label for m in at.metric] + [i.value for i in at.info]
            if any("](" in s for s in shown):
                return "unescaped"
            # Streamlit draws :smile: and :material/home: as emoji and icons, escaped or not.
            if any(re.search(r":[\w+/-]+\\?:", s.replace("\\", "")) for s in shown):
                return "a shortcode would be drawn as an icon"
            return page_problem(at)

        return check

    for name in (
        "![x](http://127.0.0.1:9/t)",
        "[Ben](https://evil.example)",
        "**Anna**",
        "<img src=x>",
        ":red[Anna]",
        "$x^2$",
        "# Anna",
        "https://evil.example",
        "ben@evil.example",
        "www.evil.example",
        "Anna\\",
        "Anna :material/home:",
        "Ben :smile:",
    ):
        cases.append(("app player names", name, name_case(name)))

    def share_case(name: str, code: str) -> Callable[[], str]:
        def check() -> str:
            try:
                decode_game(code)
            except ShareError:
                pass
            except Exception as err:  # noqa: BLE001 (the corpus reports it)
                return f"decode_game raised {type(err).__name__}"
            if len(code) > 100_000:
                return ""  # a URL this long never reaches the app; decode_game refused it above
            os.environ["KINGDOMINO_DB"] = str(folder / "share.db")
            at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
            at.query_params["game"] = code
            at.run()
            return page_problem(at) or ("" if at.error else "no message")

        return check

    def b64(text: str) -> str:
        return base64.urlsafe_b64encode(text.encode()).decode()

    nested = '{"v":1,"p":["A","B"],"n":5,"mk":1,"h":1,"d":0,"b":' + "[" * 1400 + "}"
    for name, code in {
        "brackets-1000": b64("[" * 1000),
        "nested-1400-in-board": b64(nested),
        "long-number": b64('{"v":1' + "0" * 5000 + "}"),
        "random": base64.urlsafe_b64encode(os.urandom(600)).decode(),
        "not-base64": "%%%###!!!",
        "50MB": "A" * 50_000_000,
    }.items():
        cases.append(("app share links", name, share_case(name, code)))

    def db_case(name: str, make: Callable[[Path], Path]) -> Callable[[], str]:
        def check() -> str:
            db = make(folder / f"db-{name}")
            at = new_app(db)
            text_box(at, 0).input(BOARD).run()
            text_box(at, 1).input(BOARD).run()
            if at.exception:
                return f"score page: {at.exception[0].message[:100]}"
            if not at.metric:
                return "scoring stopped"
            at.switch_page("ui/history_page.py").run()
            problem = page_problem(at)
            return problem or ("" if at.error or at.warning or at.info else "nothing said")

        return check

    def garbage(path: Path) -> Path:
        path.mkdir()
        (path / "games.db").write_bytes(b"not a database" * 300)
        return path / "games.db"

    def a_folder(path: Path) -> Path:
        path.mkdir()
        return path

    def parent_file(path: Path) -> Path:
        path.write_text("a file")
        return path / "games.db"

    def another_programs(path: Path) -> Path:
        path.mkdir()
        with sqlite3.connect(path / "games.db") as db:
            db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        return path / "games.db"

    for name, make in {
        "garbage": garbage,
        "folder": a_folder,
        "parent-is-a-file": parent_file,
        "another-programs-database": another_programs,
    }.items():
        cases.append(("app history faults", name, db_case(name, make)))

    def damaged_page() -> str:
        """30 saved games, a page of photos overwritten: the history opens with all 30."""
        from games.history import GameHistory

        path = folder / "damaged" / "games.db"
        history = GameHistory(path)
        for number in range(30):
            history.save(game_of(number), f"game {number}", [{"Anna": os.urandom(6000)}])
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            photo_pages = db.execute(
                "SELECT pageno FROM dbstat WHERE name = 'photos' AND pagetype = 'overflow'"
            ).fetchall()
        data = bytearray(path.read_bytes())
        page = photo_pages[len(photo_pages) // 2][0] - 1  # a page in the middle of a photo
        data[page * 4096 : (page + 1) * 4096] = os.urandom(4096)
        path.write_bytes(bytes(data))
        import games.history as history_module

        history_module._checked.discard(path)  # as a new app process finds it
        at = new_app(path)
        at.switch_page("ui/history_page.py").run()
        problem = page_problem(at)
        if problem:
            return problem
        saved = [m for m in at.markdown if " · game " in m.value]
        said = [w.value for w in at.warning if "recovered" in w.value]
        return "" if len(saved) == 30 and said else f"{len(saved)} games listed, said {said}"

    def game_of(number: int):
        from games.editing import blank_board
        from games.model import Game, GameSetup

        return Game(GameSetup((f"Anna {number}", "Ben")), ((blank_board(5),) * 2,))

    cases.append(("app history faults", "damaged-page", damaged_page))

    def unwritable_folder() -> str:
        """A writable history in a folder that is not: listed, and saving needs the folder."""
        from games.history import GameHistory
        from tests.games.test_history_faults import unwritable

        path = folder / "locked" / "games.db"
        GameHistory(path).save(game_of(1), "game 1")
        import games.history as history_module

        history_module._checked.discard(path)
        with unwritable(path.parent):
            at = new_app(path)
            at.switch_page("ui/history_page.py").run()
            problem = page_problem(at)
        listed = [m for m in at.markdown if " · game 1" in m.value]
        said = [w.value for w in at.warning if "saving needs the folder" in w.value]
        return problem or ("" if listed and said else f"listed {len(listed)}, said {said}")

    cases.append(("app history faults", "unwritable-folder", unwritable_folder))

    def planted_draft() -> str:
        os.environ["KINGDOMINO_DB"] = str(folder / "drafts.db")
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
        at.query_params["draft"] = "ChosenByMe" + "x" * 22
        at.run()
        if page_problem(at):
            return page_problem(at)
        said = any("new address" in i.value for i in at.info)
        text_box(at, 0).input(BOARD).run()
        kept = at.query_params["draft"]
        kept = kept if isinstance(kept, str) else kept[0]
        if kept == "ChosenByMe" + "x" * 22:
            return "the game was kept under the planted id"
        return "" if said else "no notice"

    cases.append(("app draft addresses", "made-up id", planted_draft))
    return cases


# ---- running -------------------------------------------------------------------------------


def main() -> int:
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="kingdomino-hostile-") as tmp:
        folder = Path(tmp)
        cases = cli_cases(folder) + app_cases(folder)
        for group, name, check in cases:
            started = time.perf_counter()
            try:
                problem = check()
            except Exception as err:  # noqa: BLE001 (a failure of the product, reported)
                problem = f"{type(err).__name__}: {str(err)[:160]}"
            outcomes.append(
                Outcome(group, name, not problem, time.perf_counter() - started, problem)
            )
    groups = list(dict.fromkeys(o.group for o in outcomes))
    print(f"{'group':<22} {'tried':>5} {'handled':>7} {'failed':>6}   slowest case")
    for group in groups:
        mine = [o for o in outcomes if o.group == group]
        slow = max(mine, key=lambda o: o.seconds)
        print(
            f"{group:<22} {len(mine):>5} {sum(o.handled for o in mine):>7} "
            f"{sum(not o.handled for o in mine):>6}   {slow.name} ({slow.seconds:.2f} s)"
        )
    failed = [o for o in outcomes if not o.handled]
    slowest = max(outcomes, key=lambda o: o.seconds)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"{'all':<22} {len(outcomes):>5} {len(outcomes) - len(failed):>7} {len(failed):>6}   "
        f"{slowest.group}: {slowest.name} ({slowest.seconds:.2f} s)"
    )
    print(f"peak memory: {own:.0f} MB in this process, {children:.0f} MB in a CLI subprocess")
    for outcome in failed:
        print(f"FAILED {outcome.group} / {outcome.name}: {outcome.detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
