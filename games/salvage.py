"""Carry what SQLite can still read out of a damaged history file into a new one.

A damaged page takes with it only the rows stored on it (a leaf) or reached through it (an
interior page of a table's tree). Every table is therefore copied row by row, by rowid: a row
that cannot be read is skipped and remembered, and the copy goes on with the next one. Indexes
are never read (the new file builds its own), so a damaged index loses nothing.

The damaged file itself is only read, from a copy: opening a file in write-ahead-log mode may
write to it (SQLite replays and checkpoints the log), and the original is kept untouched.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

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
    # Tables whose end could not be found (the right edge of their tree is damaged): rows after
    # the last readable one may be lost, uncounted.
    cut_short: list[str] = field(default_factory=list)
    saved_at: dict[int, str] = field(default_factory=dict)  # id → saved_at of each game carried
    readable: bool = True  # False: not even the list of tables could be read


def salvage(damaged: Path, into: Path) -> Salvaged:
    """Copy every readable row of every table of ``damaged`` (with its ``-wal``) into the new
    database file ``into`` (which must not exist)."""
    with tempfile.TemporaryDirectory(prefix="kingdomino-salvage-", dir=into.parent) as folder:
        copy = Path(folder) / "damaged.db"
        shutil.copyfile(damaged, copy)
        if Path(f"{damaged}-wal").exists():
            shutil.copyfile(f"{damaged}-wal", f"{copy}-wal")
        source = sqlite3.connect(copy)
        target = sqlite3.connect(into)
        try:
            suspects = _garbled_rows(source, copy)
            return _copy_tables(source, target, suspects)
        finally:
            source.close()
            target.close()


def _copy_tables(
    source: sqlite3.Connection, target: sqlite3.Connection, suspects: set[tuple[str, int]]
) -> Salvaged:
    result = Salvaged()
    try:
        tables = source.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL"
            " AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        columns = {name: _columns(source, name) for name, _ in tables}
    except sqlite3.DatabaseError:
        result.readable = False
        return result
    with target:
        for _, sql in tables:
            target.execute(sql)
        for name, _ in tables:
            garbled = {rowid for table, rowid in suspects if table == name}
            _copy_rows(source, target, name, columns[name], garbled, result)
        _carry_sequence(source, target, result)
    return result


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({_quoted(table)})")]


def _copy_rows(
    source: sqlite3.Connection,
    target: sqlite3.Connection,
    table: str,
    columns: list[str],
    garbled: set[int],
    result: Salvaged,
) -> None:
    listed = ", ".join(_quoted(c) for c in columns)
    insert = (
        f"INSERT INTO {_quoted(table)} (rowid, {listed}) "
        f"VALUES ({', '.join('?' * (len(columns) + 1))})"
    )
    read = f"SELECT rowid, {listed} FROM {_quoted(table)}"
    last = _last_rowid(source, table)
    if last is None:
        result.cut_short.append(table)
    for rowid, row in _rows(source, read, last):
        if rowid in garbled:
            row = None  # readable, but part of it is another page's bytes
        if row is not None:
            target.execute(insert, row)
            if table == "games":
                result.games += 1
                result.saved_at[rowid] = str(row[columns.index("saved_at") + 1])
        elif table == "games":
            result.lost_games.append(rowid)
        elif table == "photos":
            result.lost_photos.append(_whose_photo(source, rowid))
        else:
            result.lost_rows += 1


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


def _garbled_rows(db: sqlite3.Connection, file: Path) -> set[tuple[str, int]]:
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
    pages = _Pages(file.read_bytes())
    owner = {leaf: name for name, root in roots for leaf in pages.table_leaves(root)}
    found = set()
    for page, cell in cells:
        rowid = pages.rowid(page, cell) if page in owner else None
        if rowid is not None:
            found.add((owner[page], rowid))
    return found


_TREE_CELL = re.compile(r"On tree page (\d+) cell (\d+)")
_TABLE_LEAF, _TABLE_INTERIOR = 0x0D, 0x05


class _Pages:
    """Just enough of SQLite's file format to find a table's leaf pages and a cell's rowid
    (https://www.sqlite.org/fileformat2.html, section "B-tree Pages")."""

    def __init__(self, data: bytes):
        self.data = data
        size = int.from_bytes(data[16:18], "big")
        self.size = 65536 if size == 1 else size

    def _page(self, number: int) -> tuple[bytes, int] | None:
        """The page's bytes and where its b-tree header starts (after the file header on 1)."""
        start = (number - 1) * self.size
        if number < 1 or start + self.size > len(self.data):
            return None
        return self.data[start : start + self.size], 100 if number == 1 else 0

    def table_leaves(self, root: int) -> set[int]:
        leaves, todo, seen = set(), [root], set()
        while todo and len(seen) < len(self.data) // self.size:
            number = todo.pop()
            found = self._page(number)
            if found is None or number in seen:
                continue
            seen.add(number)
            page, at = found
            if page[at] == _TABLE_LEAF:
                leaves.add(number)
            elif page[at] == _TABLE_INTERIOR:
                todo.append(int.from_bytes(page[at + 8 : at + 12], "big"))
                for pointer in self._cell_pointers(page, at, 12):
                    todo.append(int.from_bytes(page[pointer : pointer + 4], "big"))
        return leaves

    def rowid(self, number: int, cell: int) -> int | None:
        """The rowid of cell ``cell`` of table leaf page ``number``."""
        found = self._page(number)
        if found is None or found[0][found[1]] != _TABLE_LEAF:
            return None
        page, at = found
        pointers = self._cell_pointers(page, at, 8)
        if not 0 <= cell < len(pointers):
            return None
        _, after_size = _varint(page, pointers[cell])  # the payload's length, then the rowid
        return _varint(page, after_size)[0]

    def _cell_pointers(self, page: bytes, at: int, header: int) -> list[int]:
        count = int.from_bytes(page[at + 3 : at + 5], "big")
        first = at + header
        pointers = [
            int.from_bytes(page[first + 2 * i : first + 2 * i + 2], "big") for i in range(count)
        ]
        return [p for p in pointers if 0 < p < len(page) - 4]


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``: (value, where the next field starts)."""
    value = 0
    for i in range(9):
        if at + i >= len(data):
            break
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return value, at + 9


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


def _carry_sequence(source: sqlite3.Connection, target: sqlite3.Connection, result: Salvaged):
    """Keep the games' id counter above every id ever given, lost ones too: a new game must
    never take the number of a lost one."""
    highest = max([*result.saved_at, *result.lost_games], default=0)
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
