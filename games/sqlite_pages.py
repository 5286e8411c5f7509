"""Rows read straight from the pages of an SQLite file, in pure Python, for a damaged history.

SQLite's own recovery (``.recover`` in the ``sqlite3`` shell, the ``sqlite_dbpage`` table) is not
reachable from Python's ``sqlite3`` module. When the way to a table's rows is damaged (its root or
another interior page overwritten, page 1 and so the schema overwritten, the file cut short),
every row on a leaf page that is still intact can nevertheless be read from the leaf itself:
this module reads just enough of the file format for that
(https://www.sqlite.org/fileformat2.html):

- the page size from the file's header (bytes 16-17), or, when page 1 is destroyed, the one of
  the sizes SQLite allows under which the most cells read as sound records;
- the pages as SQLite would see them: a committed page in the ``-wal`` file replaces the page
  of the main file;
- every table leaf page (type ``0x0D``), except pages on the free list (whose rows were deleted):
  its cell pointer array, each cell's payload length and rowid (varints), the record header
  (a varint length, then one varint serial type per column) and the values it describes;
- overflow pages, for rows longer than a page: the chain must account for the row's length
  exactly and end where it should, or the row is dropped rather than read with another page's
  bytes.

Which table a row belongs to is not written on a leaf page; ``games.salvage`` tells it by the
row's shape (number of columns and the type of each).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR = 0x0D, 0x05, 0x0A, 0x02
# Every page size SQLite allows, most common first (the first wins a tie).
PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
_HEADER = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)


@dataclass(frozen=True)
class LeafRow:
    """One row found on a table leaf page: its rowid and its values, in column order."""

    page: int
    rowid: int
    values: tuple


class SqliteFile:
    """The pages of one database file (and its write-ahead log), read from bytes."""

    def __init__(self, data: bytes, wal: bytes = b""):
        """``data``: the database file's bytes; ``wal``: its ``-wal`` file's, if there is one."""
        self.header_intact = data[:16] == _HEADER
        size = int.from_bytes(data[16:18], "big") if self.header_intact else 0
        size = 65536 if size == 1 else size
        self.reserved = data[20] if self.header_intact and len(data) > 20 else 0
        self.size = size if size in PAGE_SIZES else _likely_page_size(data)
        view = memoryview(data)  # the pages share the file's bytes: a history may be large
        self._pages = {
            number: view[(number - 1) * self.size : number * self.size]
            for number in range(1, len(data) // self.size + 1)
        }
        self._pages.update(_committed_wal_pages(wal, self.size))
        # The file is shorter than its header says (cut short), or not a whole number of pages.
        stated = int.from_bytes(data[28:32], "big") if self.header_intact else 0
        self.cut_short = len(data) % self.size != 0 or len(self._pages) < stated
        self._free = self._free_pages() if self.header_intact else set()

    @property
    def usable(self) -> int:
        return self.size - self.reserved

    def page(self, number: int) -> tuple[bytes, int] | None:
        """The page's bytes and where its b-tree header starts (after the file header on 1)."""
        page = self._pages.get(number)
        if page is None or len(page) != self.size:
            return None
        return page, 100 if number == 1 else 0

    # ---- the trees ----------------------------------------------------------------------------

    def table_leaves(self, root: int) -> set[int]:
        """The leaf pages reachable from a table's root page (damaged branches are skipped)."""
        leaves, todo, seen = set(), [root], set()
        while todo:
            number = todo.pop()
            found = self.page(number)
            if found is None or number in seen:
                continue
            seen.add(number)
            page, at = found
            if page[at] == TABLE_LEAF:
                leaves.add(number)
            elif page[at] == TABLE_INTERIOR:
                todo.append(int.from_bytes(page[at + 8 : at + 12], "big"))
                for pointer in self._cell_pointers(page, at) or ():
                    todo.append(int.from_bytes(page[pointer : pointer + 4], "big"))
        return leaves

    def rowid(self, number: int, cell: int) -> int | None:
        """The rowid of cell ``cell`` of table leaf page ``number``."""
        found = self.page(number)
        if found is None or found[0][found[1]] != TABLE_LEAF:
            return None
        page, at = found
        pointers = self._cell_pointers(page, at) or []
        if not 0 <= cell < len(pointers):
            return None
        _, after_size = _varint(page, pointers[cell])  # the payload's length, then the rowid
        return _varint(page, after_size)[0]

    def rows(self) -> Iterator[LeafRow]:
        """Every row that reads soundly from a table leaf page of the file (free pages skipped)."""
        for number in sorted(self._pages):
            if number in self._free:
                continue
            found = self.page(number)
            if found is None or found[0][found[1]] != TABLE_LEAF:
                continue
            page, at = found
            for pointer in self._cell_pointers(page, at) or ():
                row = self._row(number, page, pointer)
                if row is not None:
                    yield row

    def _cell_pointers(self, page: bytes, at: int) -> list[int] | None:
        """The cells' offsets on a b-tree page; None when the header cannot be right (the page
        is not a b-tree page, or is damaged)."""
        kind = page[at]
        header = 12 if kind in (TABLE_INTERIOR, INDEX_INTERIOR) else 8
        count = int.from_bytes(page[at + 3 : at + 5], "big")
        first = at + header
        if first + 2 * count > self.usable:
            return None
        pointers = [
            int.from_bytes(page[first + 2 * i : first + 2 * i + 2], "big") for i in range(count)
        ]
        if any(not first + 2 * count <= p < self.usable - 3 for p in pointers):
            return None
        return pointers

    def _row(self, number: int, page: bytes, at: int) -> LeafRow | None:
        """The row in the table leaf cell at ``at``: payload length, rowid, then the record (its
        first part on the page, the rest on overflow pages); None if any part does not add up."""
        length, at = _varint(page, at)
        rowid, at = _varint(page, at)
        if rowid >= 1 << 63:
            rowid -= 1 << 64
        local = self._local_bytes(length)
        if at + local > self.usable:
            return None
        payload = bytes(page[at : at + local])
        if local < length:
            rest = self._overflow(int.from_bytes(page[at + local : at + local + 4], "big"))
            if rest is None or len(rest) < length - local:
                return None
            payload += rest[: length - local]
        values = _record(payload)
        return None if values is None else LeafRow(number, rowid, values)

    def _local_bytes(self, length: int) -> int:
        """How much of a table leaf cell's payload is on the page itself (the file format's
        rule for rows that spill onto overflow pages)."""
        most = self.usable - 35
        if length <= most:
            return length
        least = (self.usable - 12) * 32 // 255 - 23
        local = least + (length - least) % (self.usable - 4)
        return local if local <= most else least

    def _overflow(self, first: int) -> bytes | None:
        """The bytes of an overflow chain: each page is the next page's number, then content.
        None when the chain leaves the file or loops."""
        parts, seen, number = [], set(), first
        while number:
            found = self.page(number)
            if found is None or number in seen or number in self._free:
                return None
            seen.add(number)
            page = found[0]
            parts.append(page[4 : self.usable])
            number = int.from_bytes(page[:4], "big")
        return b"".join(parts)

    def _free_pages(self) -> set[int]:
        """The pages on the free list (trunk pages and the leaves they list): their rows were
        deleted, and must not come back."""
        free, trunk = set(), int.from_bytes(self._pages.get(1, b"\0" * 40)[32:36], "big")
        while trunk and trunk not in free:
            page = self._pages.get(trunk)
            if page is None or len(page) != self.size:
                break
            free.add(trunk)
            count = int.from_bytes(page[4:8], "big")
            if 8 + 4 * count > self.usable:
                break
            free.update(int.from_bytes(page[8 + 4 * i : 12 + 4 * i], "big") for i in range(count))
            trunk = int.from_bytes(page[:4], "big")
        return free


def _record(payload: bytes) -> tuple | None:
    """The values of a record (https://www.sqlite.org/fileformat2.html#record_format): a header
    of varints (its own length, then each column's serial type), then the values. None when the
    header and the values do not fill the payload exactly."""
    header_length, at = _varint(payload, 0)
    if not 1 <= header_length <= len(payload):
        return None
    types = []
    while at < header_length:
        serial, at = _varint(payload, at)
        types.append(serial)
    if at != header_length:
        return None
    values, at = [], header_length
    for serial in types:
        size = _serial_size(serial)
        if size is None or at + size > len(payload):
            return None
        values.append(_value(serial, payload[at : at + size]))
        at += size
    if at != len(payload):
        return None
    return tuple(values)


def _serial_size(serial: int) -> int | None:
    if serial >= 12:
        return (serial - 12) // 2
    return {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}.get(serial)


def _value(serial: int, data: bytes) -> object:
    if serial == 0:
        return None
    if 1 <= serial <= 6:
        return int.from_bytes(data, "big", signed=True)
    if serial == 7:
        return struct.unpack(">d", data)[0]
    if serial in (8, 9):
        return serial - 8
    if serial % 2 == 0:
        return bytes(data)
    try:
        return data.decode("utf-8")  # the history's files are UTF-8 (SQLite's default)
    except UnicodeDecodeError:
        return _NOT_TEXT


class _NotText:
    """A text value whose bytes are not UTF-8: a damaged row, which no column's type accepts."""


_NOT_TEXT = _NotText()


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


def _likely_page_size(data: bytes) -> int:
    """With page 1 destroyed: the page size under which the most cells read as records (under a
    wrong size, most page starts fall in the middle of another page's bytes). The first 8 MB
    tell it as well as the whole file."""
    sample = memoryview(data)[: 8 << 20]

    def sound_cells(size: int) -> int:
        probe = SqliteFile.__new__(SqliteFile)
        probe.size, probe.reserved, probe._free = size, 0, set()
        count = len(sample) // size
        probe._pages = {n: sample[(n - 1) * size : n * size] for n in range(2, count + 1)}
        return sum(1 for _ in probe.rows())

    counts = {size: sound_cells(size) for size in PAGE_SIZES}
    return max(PAGE_SIZES, key=lambda size: counts[size])  # max keeps the first of equals


def _committed_wal_pages(wal: bytes, size: int) -> dict[int, bytes]:
    """The pages a write-ahead log holds for the database, up to its last committed
    transaction, as SQLite reads it (https://www.sqlite.org/fileformat2.html#walformat): frames
    count only while their salt matches the log's header and their running checksum holds (a
    frame torn by a crash ends the log), and only up to the last commit frame."""
    if len(wal) < 32 or int.from_bytes(wal[:4], "big") not in _WAL_MAGIC:
        return {}
    if int.from_bytes(wal[8:12], "big") != size:
        return {}
    # The magic's last bit: the checksums add big-endian words (else little-endian); they are
    # stored big-endian either way.
    order = ">" if wal[3] & 1 else "<"
    sums = _wal_checksum(wal[:24], (0, 0), order)
    if wal[24:32] != struct.pack(">2I", *sums):
        return {}
    salts = wal[16:24]
    committed: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    at = 32
    while at + 24 + size <= len(wal):
        frame, page = wal[at : at + 24], wal[at + 24 : at + 24 + size]
        sums = _wal_checksum(page, _wal_checksum(frame[:8], sums, order), order)
        if frame[8:16] != salts or frame[16:24] != struct.pack(">2I", *sums):
            break
        pending[int.from_bytes(frame[:4], "big")] = page
        if int.from_bytes(frame[4:8], "big"):  # a commit frame: the database's size after it
            committed.update(pending)
            pending.clear()
        at += 24 + size
    return committed


def _wal_checksum(data: bytes, sums: tuple[int, int], order: str) -> tuple[int, int]:
    """SQLite's running checksum of the log, over ``data`` in 32-bit words."""
    first, second = sums
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        first = (first + words[i] + second) & 0xFFFFFFFF
        second = (second + words[i + 1] + first) & 0xFFFFFFFF
    return first, second
