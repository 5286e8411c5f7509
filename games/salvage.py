"""Carry what can still be read out of a damaged history file into a new one.

A damaged page takes with it only the rows stored on it (a leaf) or reached through it (an
interior page of a table's tree). Every table is therefore copied row by row, by rowid: a row
that cannot be read is skipped and remembered, and the copy goes on with the next one. Indexes
are never read (the new file builds its own), so a damaged index loses nothing.

Rows SQLite cannot reach (their tree's root or another interior page overwritten, the schema on
page 1 overwritten, the file cut short) are then looked for on the table leaf pages themselves
(``games.sqlite_pages``): a row found there is put in the table whose columns it fits, and only
in that one. So a damaged interior page or page 1 loses nothing, and a file cut in half keeps
the rows in the half that is left.

The damaged file itself is only read, from a copy: opening a file in write-ahead-log mode may
write to it (SQLite replays and checkpoints the log), and the original is kept untouched.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from games.sqlite_pages import LeafRow, SqliteFile

# With every seek into a damaged part failing, rowids are tried one at a time; when the table's
# largest rowid is unknown, this many tried in a row without a readable row end the search.
MAX_BLIND_PROBES = 10_000


@dataclass
class Salvaged:
    """What was carried into the new file, and what could not be read."""

    games: int = 0
    lost_games: list[int] = field(default_factory=list)  # ids of games that could not be read
    lost_photos: list[tuple[int, str] | None] = field(default_factory=list)  # (game, player)
    lost_rows: int = 0  # rows of other tables (games in progress, their photos)
    # Tables whose end could not be found (the right edge of their tree is damaged, or the file
    # is cut short): rows after the last readable one may be lost, uncounted.
    cut_short: list[str] = field(default_factory=list)
    saved_at: dict[int, str] = field(default_factory=dict)  # id → saved_at of each game carried
    readable: bool = True  # False: neither the list of tables nor any row could be read


def salvage(damaged: Path, into: Path, known_tables: Iterable[str] = ()) -> Salvaged:
    """Copy every readable row of every table of ``damaged`` (with its ``-wal``) into the new
    database file ``into`` (which must not exist). ``known_tables``: the ``CREATE TABLE``
    scripts of the tables a history file holds, used when the file's own schema is lost."""
    wal = Path(f"{damaged}-wal")

    @functools.cache
    def pages() -> SqliteFile:  # read only when SQLite cannot reach some rows
        return SqliteFile(damaged.read_bytes(), wal.read_bytes() if wal.exists() else b"")

    with tempfile.TemporaryDirectory(prefix="kingdomino-salvage-", dir=into.parent) as folder:
        copy = Path(folder) / "damaged.db"
        shutil.copyfile(damaged, copy)
        if wal.exists():
            shutil.copyfile(wal, f"{copy}-wal")
        # The new file is its owner's alone from the start, like the history file it replaces.
        os.close(os.open(into, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        source = sqlite3.connect(copy)
        target = sqlite3.connect(into)
        try:
            suspects = _garbled_rows(source, pages)
            return _copy_tables(source, target, pages, suspects, known_tables)
        finally:
            source.close()
            target.close()


def _copy_tables(
    source: sqlite3.Connection,
    target: sqlite3.Connection,
    pages: Callable[[], SqliteFile],
    suspects: set[tuple[str, int]],
    known_tables: Iterable[str],
) -> Salvaged:
    result = Salvaged()
    # Rowids SQLite could not read, per table (a row may or may not have been there).
    missing: dict[str, list[int]] = {}
    try:
        tables = source.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL"
            " AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        columns = {name: _columns(source, name) for name, _ in tables}
        schema_read = True
    except sqlite3.DatabaseError:
        tables, schema_read = _tables_of(known_tables), False
    with target:
        for _, sql in tables:
            target.execute(sql)
        if schema_read:
            for name, _ in tables:
                garbled = {rowid for table, rowid in suspects if table == name}
                missing[name] = _copy_rows(source, target, name, columns[name], garbled, result)
        # The rows SQLite could not reach, read from the leaf pages themselves.
        wanted = [n for n, _ in tables if not schema_read or missing[n] or n in result.cut_short]
        found = _copy_leaf_rows(target, pages(), wanted, suspects, result) if wanted else _Found()
        if not schema_read:
            _count_missing(pages(), [n for n, _ in tables], found, missing, result)
        _report_missing(source if schema_read else None, missing, found, result)
        if not schema_read and not any(found.rowids.values()):
            result.readable = False
            return result
        _carry_sequence(source, target, result, found.sequence.get("games", 0))
    return result


def _tables_of(scripts: Iterable[str]) -> list[tuple[str, str]]:
    """(name, CREATE TABLE statement) of each table the scripts make."""
    db = sqlite3.connect(":memory:")
    try:
        for script in scripts:
            db.executescript(script)
        return db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    finally:
        db.close()


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({_quoted(table)})")]


def _copy_rows(
    source: sqlite3.Connection,
    target: sqlite3.Connection,
    table: str,
    columns: list[str],
    garbled: set[int],
    result: Salvaged,
) -> list[int]:
    """Copy the rows SQLite can read; the rowids it could not read."""
    listed = ", ".join(_quoted(c) for c in columns)
    insert = (
        f"INSERT INTO {_quoted(table)} (rowid, {listed}) "
        f"VALUES ({', '.join('?' * (len(columns) + 1))})"
    )
    read = f"SELECT rowid, {listed} FROM {_quoted(table)}"
    last = _last_rowid(source, table)
    if last is None:
        result.cut_short.append(table)
    missing = []
    for rowid, row in _rows(source, read, last):
        if rowid in garbled:
            row = None  # readable, but part of it is another page's bytes
        if row is None:
            missing.append(rowid)
            continue
        target.execute(insert, row)
        if table == "games":
            result.games += 1
            result.saved_at[rowid] = str(row[columns.index("saved_at") + 1])
    return missing


@dataclass
class _Found:
    """What the leaf pages gave: rowids carried per table, and the AUTOINCREMENT counters."""

    rowids: dict[str, set[int]] = field(default_factory=dict)
    sequence: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _Column:
    name: str
    kind: type | None  # the Python type its values have (None: any)
    required: bool  # NOT NULL
    rowid: bool  # INTEGER PRIMARY KEY: stored as NULL in the record, the rowid is the value
    has_default: bool

    def fits(self, value: object) -> bool:
        if self.rowid:
            return value is None
        if value is None:
            return not self.required
        if self.kind is None:
            return True
        return type(value) is self.kind or (self.kind is float and type(value) is int)


def _shape(db: sqlite3.Connection, table: str) -> list[_Column]:
    """The columns of a table as a row on a leaf page must fill them."""
    info = db.execute(f"PRAGMA table_info({_quoted(table)})").fetchall()
    keys = [row for row in info if row[5]]
    shape = []
    for _, name, declared, notnull, default, key in info:
        declared = declared.upper()
        # SQLite's affinity rules (https://www.sqlite.org/datatype3.html), as the values of
        # our tables are stored.
        if "INT" in declared:
            kind = int
        elif any(word in declared for word in ("CHAR", "CLOB", "TEXT")):
            kind = str
        elif "BLOB" in declared or not declared:
            kind = bytes
        else:
            kind = float
        is_rowid = bool(key) and len(keys) == 1 and declared == "INTEGER"
        shape.append(_Column(name, kind, bool(notnull), is_rowid, default is not None))
    return shape


def _fits(shape: list[_Column], values: tuple) -> bool:
    """Whether a row's values fit a table's columns: as many (or fewer, when the rest have
    defaults: a column added later), each of the column's type."""
    if not values or len(values) > len(shape):
        return False
    if any(not column.has_default for column in shape[len(values) :]):
        return False
    return all(column.fits(value) for column, value in zip(shape, values, strict=False))


def _copy_leaf_rows(
    target: sqlite3.Connection,
    pages: SqliteFile,
    wanted: list[str],
    suspects: set[tuple[str, int]],
    result: Salvaged,
) -> _Found:
    """Put each row of the leaf pages into the one wanted table it fits, unless a row with its
    rowid is there already. A row that fits two tables, or none, is left out: its table cannot
    be told."""
    names = [
        name
        for (name,) in target.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    shapes = {name: _shape(target, name) for name in names}
    found = _Found(rowids={name: set() for name in wanted})
    for row in pages.rows():
        if _is_sequence_row(row):
            name, seq = row.values
            found.sequence[name] = max(found.sequence.get(name, 0), seq)
            continue
        tables = [name for name, shape in shapes.items() if _fits(shape, row.values)]
        if len(tables) != 1 or tables[0] not in found.rowids or (tables[0], row.rowid) in suspects:
            continue
        table, shape = tables[0], shapes[tables[0]]
        values = [row.rowid if c.rowid else v for c, v in zip(shape, row.values, strict=False)]
        listed = ", ".join(_quoted(c.name) for c in shape[: len(values)])
        cursor = target.execute(
            f"INSERT OR IGNORE INTO {_quoted(table)} (rowid, {listed}) "
            f"VALUES ({', '.join('?' * (len(values) + 1))})",
            (row.rowid, *values),
        )
        if cursor.rowcount == 1:
            found.rowids[table].add(row.rowid)
            if table == "games":
                result.games += 1
                result.saved_at[row.rowid] = str(values[[c.name for c in shape].index("saved_at")])
    return found


def _is_sequence_row(row: LeafRow) -> bool:
    """A row of ``sqlite_sequence`` (name, largest id given): no table of ours has that shape."""
    return len(row.values) == 2 and type(row.values[0]) is str and type(row.values[1]) is int


def _count_missing(
    pages: SqliteFile,
    tables: list[str],
    found: _Found,
    missing: dict[str, list[int]],
    result: Salvaged,
) -> None:
    """With the schema lost, what is missing is known only from the AUTOINCREMENT counter (the
    games' ids up to it); other tables are reported as possibly cut short when the file is."""
    for table in tables:
        seq = found.sequence.get(table)
        if seq is not None:
            missing[table] = [i for i in range(1, seq + 1) if i not in found.rowids[table]]
        else:
            missing[table] = []
            if pages.cut_short:
                result.cut_short.append(table)


def _report_missing(
    source: sqlite3.Connection | None,
    missing: dict[str, list[int]],
    found: _Found,
    result: Salvaged,
) -> None:
    """The rows that neither SQLite nor the leaf pages gave, counted where the user reads."""
    for table, rowids in missing.items():
        lost = [rowid for rowid in rowids if rowid not in found.rowids.get(table, ())]
        if table == "games":
            result.lost_games.extend(lost)
        elif table == "photos":
            result.lost_photos.extend(
                _whose_photo(source, rowid) if source else None for rowid in lost
            )
        else:
            result.lost_rows += len(lost)


def _rows(
    db: sqlite3.Connection, read: str, last: int | None
) -> Iterator[tuple[int, tuple | None]]:
    """(rowid, row) of every readable row in rowid order, and (rowid, None) for rowids that could
    not be read (a row may or may not have been there). ``last``: the largest rowid, if known;
    without it, unreadable rowids after the last readable row are not reported (nothing says
    whether any row was ever there)."""
    after, unreadable, probed = 0, [], 0  # probed: rowids tried one by one since the last row
    while last is None or after < last:
        try:
            row = db.execute(f"{read} WHERE rowid > ? ORDER BY rowid LIMIT 1", (after,)).fetchone()
        except sqlite3.DatabaseError:  # the way to the next row is damaged: try them one by one
            after += 1
            probed += 1
            if last is None and probed > MAX_BLIND_PROBES:
                return
            try:
                row = db.execute(f"{read} WHERE rowid = ?", (after,)).fetchone()
            except sqlite3.DatabaseError:
                unreadable.append(after)
                continue
            if row is None:
                continue
        if row is None:
            break
        yield from ((rowid, None) for rowid in unreadable)
        after, unreadable, probed = row[0], [], 0
        yield after, row
    if last is not None:
        yield from ((rowid, None) for rowid in unreadable)


def _garbled_rows(db: sqlite3.Connection, pages: Callable[[], SqliteFile]) -> set[tuple[str, int]]:
    """(table, rowid) of rows that read without an error but are not what was stored.

    A row longer than a page continues on overflow pages; when the last of them is overwritten,
    SQLite reads its bytes without noticing (it stops at the row's length). The file check does
    notice, as "On tree page P cell C: ..." (a broken overflow chain, ...): P is the leaf page
    holding the row, and C its place on that page, where its rowid is written.
    """
    try:
        problems = [str(row[0]) for row in db.execute("PRAGMA quick_check(1000)")]
        roots = db.execute(
            "SELECT name, rootpage FROM sqlite_master WHERE type = 'table' AND rootpage > 0"
        ).fetchall()
    except sqlite3.DatabaseError:
        return set()
    cells = {(int(m[1]), int(m[2])) for p in problems for m in _TREE_CELL.finditer(p)}
    if not cells:
        return set()
    owner = {leaf: name for name, root in roots for leaf in pages().table_leaves(root)}
    found = set()
    for page, cell in cells:
        rowid = pages().rowid(page, cell) if page in owner else None
        if rowid is not None:
            found.add((owner[page], rowid))
    return found


_TREE_CELL = re.compile(r"On tree page (\d+) cell (\d+)")


def _last_rowid(db: sqlite3.Connection, table: str) -> int | None:
    """The table's largest rowid: from its tree's right edge, or the AUTOINCREMENT counter."""
    try:
        (last,) = db.execute(f"SELECT max(rowid) FROM {_quoted(table)}").fetchone()
        return last or 0
    except sqlite3.DatabaseError:
        pass
    try:
        row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None else int(row[0])


def _whose_photo(db: sqlite3.Connection, rowid: int) -> tuple[int, str] | None:
    """The game and player of a photo whose image cannot be read, if those still can."""
    try:
        row = db.execute("SELECT game_id, player FROM photos WHERE rowid = ?", (rowid,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None else (int(row[0]), str(row[1]))


def _carry_sequence(
    source: sqlite3.Connection, target: sqlite3.Connection, result: Salvaged, from_pages: int
):
    """Keep the games' id counter above every id ever given, lost ones too: a new game must
    never take the number of a lost one. ``from_pages``: the counter as found on a leaf page."""
    highest = max([*result.saved_at, *result.lost_games, from_pages], default=0)
    try:
        row = source.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        highest = max(highest, int(row[0]) if row else 0)
    except (sqlite3.DatabaseError, TypeError, ValueError):
        pass
    if highest and _has_table(target, "sqlite_sequence"):
        target.execute("DELETE FROM sqlite_sequence WHERE name = 'games'")
        target.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)", (highest,))


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
