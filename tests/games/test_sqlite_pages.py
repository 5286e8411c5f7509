"""Rows read from an SQLite file's leaf pages in pure Python: what SQLite stored, whatever the
page size, with rows spilling onto overflow pages, and with the write-ahead log's pages."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from games.sqlite_pages import SqliteFile

ROWS = 60


def _row(number: int) -> tuple:
    """A row of every storage class; every third one longer than a page (overflow pages)."""
    blob = random.Random(number).randbytes(9_000 if number % 3 == 0 else 50)
    return (number, f"name {number} ✓", blob, number / 4, None)


def _database(path: Path, page_size: int) -> Path:
    db = sqlite3.connect(path)
    with db:
        db.execute(f"PRAGMA page_size = {page_size}")
        db.execute("CREATE TABLE t (n INTEGER, name TEXT, data BLOB, share REAL, empty)")
        db.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [_row(n) for n in range(1, ROWS)])
    db.close()
    return path


def _rows(pages: SqliteFile) -> dict[int, tuple]:
    return {row.rowid: row.values for row in pages.rows() if len(row.values) == 5}


@pytest.mark.parametrize("page_size", [1024, 4096, 8192])
def test_every_row_reads_as_stored(tmp_path, page_size):
    pages = SqliteFile(_database(tmp_path / "t.db", page_size).read_bytes())
    assert pages.size == page_size and not pages.cut_short
    assert _rows(pages) == {n: _row(n) for n in range(1, ROWS)}


@pytest.mark.parametrize("page_size", [1024, 4096, 8192])
def test_the_page_size_is_found_without_page_1(tmp_path, page_size):
    data = bytearray(_database(tmp_path / "t.db", page_size).read_bytes())
    data[:page_size] = random.Random(1).randbytes(page_size)
    pages = SqliteFile(bytes(data))
    assert pages.size == page_size
    assert _rows(pages) == {n: _row(n) for n in range(1, ROWS)}


def test_a_row_whose_overflow_page_is_overwritten_is_left_out(tmp_path):
    path = _database(tmp_path / "t.db", 1024)
    with sqlite3.connect(path) as db:
        overflow = [
            page
            for (page,) in db.execute(
                "SELECT pageno FROM dbstat WHERE name = 't' AND pagetype = 'overflow'"
            )
        ]
    data = bytearray(path.read_bytes())
    for page in overflow:  # every overflow page but the rows' first one of each chain
        data[(page - 1) * 1024 : page * 1024] = random.Random(page).randbytes(1024)
    rows = _rows(SqliteFile(bytes(data)))
    assert rows == {n: _row(n) for n in range(1, ROWS) if n % 3 != 0}


def test_a_file_cut_short_says_so_and_keeps_the_rows_before_the_cut(tmp_path):
    data = _database(tmp_path / "t.db", 1024).read_bytes()
    pages = SqliteFile(data[: len(data) // 2 + 100])
    assert pages.cut_short
    rows = _rows(pages)
    assert 0 < len(rows) < ROWS - 1 and all(rows[n] == _row(n) for n in rows)


def test_committed_pages_of_the_write_ahead_log_are_read(tmp_path):
    path = _database(tmp_path / "t.db", 4096)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.close()
    hold = sqlite3.connect(path)  # while a reader is open, the log is not folded back
    hold.execute("SELECT count(*) FROM t").fetchone()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", _row(ROWS))
    db.close()
    main, wal = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    hold.close()
    assert ROWS not in _rows(SqliteFile(main))
    assert _rows(SqliteFile(main, wal))[ROWS] == _row(ROWS)
    torn = wal[:-10] + b"\xff" * 10  # the last frame half written: its checksum fails
    assert ROWS not in _rows(SqliteFile(main, torn))
