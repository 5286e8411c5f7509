"""The game in progress, kept as a draft so that a reload or a phone locking its screen loses
nothing: setup, boards, photos and their readings, and the Dynasty games already over.

Drafts live in the history's SQLite file (tables of their own), keyed by an id that the app keeps
in the page's URL (``?draft=...``). The state is plain JSON written by the app; images are stored
once each, under a key the app derives from their content, so an unchanged photo is never written
twice. Drafts untouched for ``KEEP_DAYS`` days are removed.

An address must not be plantable: someone who sends a friend ``?draft=ChosenByMe`` must not find
there what the friend entered. So ids are issued by ``DraftStore.new_id`` (a random part and its
HMAC under a secret kept in the file), nothing is saved under an id this file did not issue, and
the app opens only ids that have a draft stored (docs/reliability.md).

Every phone at a table keeps the same draft open (docs/multiplayer.md): each writes only the
parts it changed (``save_parts``, ``games.draft_parts``) in one write transaction, so that two
writers never lose each other's other parts, and the draft's ``version`` (bumped by every change
of a shared part) tells a watching screen cheaply whether there is anything new to show.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from games.draft_parts import GAME, VIEW, PartVersion, join_parts, split_parts
from games.history import GameHistory, register_tables
from games.new_game import put_back, start
from games.seats import SEATS, SeatError, Seats, guest_parts, sit
from scoring.words import Message, msg

KEEP_DAYS = 30
_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS drafts (
    id TEXT PRIMARY KEY,
    updated_at TEXT NOT NULL,
    state_json TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS draft_images (
    draft_id TEXT NOT NULL,
    key TEXT NOT NULL,
    image BLOB NOT NULL,
    PRIMARY KEY (draft_id, key)
);
CREATE TABLE IF NOT EXISTS draft_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret BLOB NOT NULL
);
"""
register_tables(_SCHEMA)
_SAVING = msg("Could not save the game in progress")
_OPENING = msg("Could not open the game in progress")
_RANDOM_CHARS = 16  # secrets.token_urlsafe(12): 96 random bits
_MAC_BYTES = 12  # 16 characters of base64


def is_draft_id(text: object) -> bool:
    """Whether ``text`` can be a draft id (anything else in a URL is ignored, never looked up)."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


class DraftStore:
    """Save, load and delete drafts in the history's database file.

    Raises ``HistoryError`` (never ``sqlite3`` or ``OSError``) when the file cannot be used: in
    a folder that cannot be written to, drafts already stored open, and saving says why not."""

    def __init__(self, path: Path | str | None = None):
        self._history = GameHistory(path)
        with self._connect(_SAVING) as db:
            db.executescript(_SCHEMA)
            columns = {column[1] for column in db.execute("PRAGMA table_info(drafts)")}
            if "version" not in columns:  # a file from before drafts were shared
                db.execute("ALTER TABLE drafts ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
            row = db.execute("SELECT secret FROM draft_secret").fetchone()
            if row is None:
                db.execute("INSERT OR IGNORE INTO draft_secret VALUES (1, ?)", (os.urandom(32),))
                row = db.execute("SELECT secret FROM draft_secret").fetchone()
        self._secret = bytes(row[0])

    @contextmanager
    def _connect(self, action: Message) -> Iterator[sqlite3.Connection]:
        """The history's connection, with SQLite's and the system's errors said as the history
        says them (``action``: the clause saying what failed), never in SQLite's words."""
        try:
            with self._history._connect() as db:
                yield db
        except (sqlite3.Error, OSError) as err:
            raise self._history._error(err, action) from None

    def new_id(self) -> str:
        """A new draft id: random, and signed so that ``issued`` knows it for one of ours."""
        random_part = secrets.token_urlsafe(12)
        return random_part + self._mac(random_part)

    def issued(self, draft_id: object) -> bool:
        """Whether ``draft_id`` was made by ``new_id`` with this file's secret."""
        if not is_draft_id(draft_id) or len(draft_id) != _RANDOM_CHARS + 16:
            return False
        random_part, mac = draft_id[:_RANDOM_CHARS], draft_id[_RANDOM_CHARS:]
        return hmac.compare_digest(mac, self._mac(random_part))

    def can_hold(self, draft_id: object) -> bool:
        """Whether a draft may be saved under ``draft_id``: issued here, or holding one already."""
        if self.issued(draft_id):
            return True
        if not is_draft_id(draft_id):
            return False
        with self._connect(_OPENING) as db:
            row = db.execute("SELECT 1 FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        return row is not None

    def host_key(self, draft_id: str) -> str:
        """The key that makes a page the host of ``draft_id`` (kept in the host's address):
        signed with this file's secret, so a phone that has only the game's address cannot make
        it (games.seats)."""
        return self._mac(f"host:{draft_id}")

    def is_host(self, draft_id: object, key: object) -> bool:
        """Whether ``key`` is the host's key of ``draft_id``."""
        if not is_draft_id(draft_id) or not isinstance(key, str):
            return False
        return hmac.compare_digest(key, self.host_key(draft_id))

    def _mac(self, random_part: str) -> str:
        digest = hmac.new(self._secret, random_part.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:_MAC_BYTES]).decode()

    def stored_images(self, draft_id: str) -> set[str]:
        """The image keys already stored for a draft."""
        with self._connect(_OPENING) as db:
            rows = db.execute("SELECT key FROM draft_images WHERE draft_id = ?", (draft_id,))
            return {key for (key,) in rows.fetchall()}

    def save(self, draft_id: str, state: Mapping, images: Mapping[str, bytes] = ()) -> None:
        """Store ``state`` (JSON-ready) and the new ``images``; images whose keys are not listed
        in ``state["images"]`` are dropped. Old drafts are pruned on the way."""
        if not self.can_hold(draft_id):
            raise ValueError(f"not a draft id this file issued: {draft_id!r}")
        with self._connect(_SAVING) as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT version FROM drafts WHERE id = ?", (draft_id,)).fetchone()
            self._write(db, draft_id, state, (row[0] if row else 0) + 1, images)

    def save_parts(
        self,
        draft_id: str,
        changed: Mapping[str, Mapping],
        seen: Mapping[str, int],
        writer: str,
        images: Mapping[str, bytes] = (),
        guest: Guest | None = None,
    ) -> SavedParts:
        """Store the ``changed`` parts of a draft (``games.draft_parts``) written by ``writer`` (a
        browser session), who had seen each at the version in ``seen``; the other parts stay as
        stored. Read and written in one write transaction (SQLite's ``BEGIN IMMEDIATE``), so
        writers in other threads or processes come one after the other and none undoes another's
        parts. A shared part's change bumps the draft's version; a change of the view alone does
        not (no other screen needs to redraw for it).

        ``guest``: the writer is a phone that joined the table, not the host; only the parts
        that phone may change are written (``games.seats.guest_parts``), the others are
        returned as ``refused``."""
        if not self.can_hold(draft_id):
            raise ValueError(f"not a draft id this file issued: {draft_id!r}")
        with self._connect(_SAVING) as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT state_json, version FROM drafts WHERE id = ?", (draft_id,)
            ).fetchone()
            stored = (_json(row[0]) if row else None) or {}
            parts, versions = _parts_of(stored)
            seats = Seats.from_data(stored.get(SEATS))
            refused: tuple[str, ...] = ()
            if guest is not None:
                changed, refused = guest_parts(
                    changed, parts.get(GAME), seats, guest.seat, guest.key
                )
            version = before_write = row[1] if row else 0
            shared = [name for name in changed if name != VIEW]
            if shared:
                version += 1
            replaced = []
            for name, part in changed.items():
                parts[name] = dict(part)
                if name == VIEW:
                    continue
                before = versions.get(name)
                unseen = before is not None and before.version != seen.get(name, 0)
                if unseen and before.writer != writer:
                    replaced.append(name)
                versions[name] = PartVersion(version, writer, seen.get(name, 0))
            state = _state(parts, versions, seats)
            self._write(db, draft_id, state, version, images)
        part_versions = {n: e.version for n, e in versions.items()}
        return SavedParts(version, before_write, part_versions, tuple(replaced), refused)

    def take_seat(
        self, draft_id: str, slot: int | None, key: str, writer: str, name: str | None = None
    ) -> int:
        """A joined phone (``key``) sits at ``slot``, or joins as the new player ``name``; the
        slot it holds now. Checked and written in one write transaction, so two phones never
        hold one seat; raises ``games.seats.SeatError`` (its message says why) when the seat
        is another phone's, the game is full, or the draft is gone."""

        def change(parts, versions, seats, version):
            seating = sit(parts.get(GAME), seats, slot, key, name)
            if seating.game is not None:
                before = versions.get(GAME)
                parts[GAME] = seating.game
                versions[GAME] = PartVersion(version, writer, before.version if before else 0)
            return seating.seats, seating.slot

        return self._change_seats(draft_id, change)

    def release_seat(self, draft_id: str, slot: int, key: str | None = None) -> None:
        """The host gives a seat free: another phone may take it. With ``key``: a phone leaves
        its own seat (only when that key holds it)."""

        def change(parts, versions, seats, version):
            if key is not None and not seats.holds(slot, key):
                return seats, None
            return seats.release(slot), None

        self._change_seats(draft_id, change)

    def new_game(self, draft_id: str, writer: str, host_key: object) -> bool:
        """The host starts a new game (same players and rules, no kingdoms), the cleared game
        kept in the draft to put back and told on every screen (``games.new_game.start``), in
        one write transaction. Only the host's key may (``games.seats``: the setup is the
        host's); False when refused or there is no such draft."""
        if not self.is_host(draft_id, host_key):
            return False

        def change(parts, version):
            return start(parts, secrets.token_urlsafe(6), writer, version)

        return self._rewrite(draft_id, writer, change)

    def put_back_game(self, draft_id: str, writer: str, asked: str) -> bool:
        """Any screen at the table puts back the game the swap ``asked`` kept (the game on the
        table kept in its turn when anything was entered there: ``games.new_game.put_back``),
        in one write transaction. False when that game is no longer the one kept."""

        def change(parts, version):
            return put_back(parts, secrets.token_urlsafe(6), writer, version, asked)

        return self._rewrite(draft_id, writer, change)

    def _rewrite(self, draft_id: str, writer: str, change) -> bool:
        """Read the draft's parts, write the parts ``change(parts, version)`` gives (None:
        nothing) at a new version, as ``writer``, in one write transaction."""
        if not is_draft_id(draft_id):
            return False
        with self._connect(_SAVING) as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT state_json, version FROM drafts WHERE id = ?", (draft_id,)
            ).fetchone()
            stored = _json(row[0]) if row else None
            if stored is None:
                return False
            parts, versions = _parts_of(stored)
            version = row[1] + 1
            changed = change(parts, version)
            if changed is None:
                return False
            for name, part in changed.items():
                before = versions.get(name)
                parts[name] = part
                versions[name] = PartVersion(version, writer, before.version if before else 0)
            seats = Seats.from_data(stored.get(SEATS))
            self._write(db, draft_id, _state(parts, versions, seats), version, {})
        return True

    def seats(self, draft_id: str) -> Seats:
        found = self.load(draft_id, whole=False)
        return Seats.from_data(found[0].get(SEATS)) if found else Seats()

    def _change_seats(self, draft_id: str, change):
        """Read the draft, ``change`` its parts and seats, write it (a new version: every
        screen redraws its seats), in one write transaction."""
        with self._history._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT state_json, version FROM drafts WHERE id = ?", (draft_id,)
            ).fetchone()
            stored = _json(row[0]) if row else None
            if stored is None:
                raise SeatError(
                    msg("This game is no longer kept here; ask the host for a new invite.")
                )
            parts, versions = _parts_of(stored)
            version = row[1] + 1
            seats, result = change(parts, versions, Seats.from_data(stored.get(SEATS)), version)
            self._write(db, draft_id, _state(parts, versions, seats), version, {})
        return result

    def version(self, draft_id: str) -> int | None:
        """The draft's version (bumped by every change another screen must show); one small
        read, for screens that look every few seconds; None when there is no such draft."""
        if not is_draft_id(draft_id):
            return None
        with self._connect(_OPENING) as db:
            row = db.execute("SELECT version FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        return None if row is None else int(row[0])

    def load_parts(self, draft_id: str) -> StoredDraft | None:
        """The draft as parts with their versions (a draft saved whole is one writer's parts at
        version 0); None when there is none."""
        found = self.load(draft_id, whole=False)
        if found is None:
            return None
        state, images = found
        parts, versions = _parts_of(state)
        return StoredDraft(parts, versions, images, Seats.from_data(state.get(SEATS)))

    def _write(
        self,
        db,
        draft_id: str,
        state: Mapping,
        version: int,
        images: Mapping[str, bytes],
    ) -> None:
        now = datetime.now(UTC)
        keep = set(state.get("images", ()))
        db.execute(
            "INSERT INTO drafts (id, updated_at, state_json, version) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at, "
            "state_json = excluded.state_json, version = excluded.version",
            (draft_id, now.isoformat(timespec="seconds"), json.dumps(state), version),
        )
        db.executemany(
            "INSERT OR IGNORE INTO draft_images (draft_id, key, image) VALUES (?, ?, ?)",
            [(draft_id, key, data) for key, data in dict(images).items() if key in keep],
        )
        stored = db.execute("SELECT key FROM draft_images WHERE draft_id = ?", (draft_id,))
        db.executemany(
            "DELETE FROM draft_images WHERE draft_id = ? AND key = ?",
            [(draft_id, key) for (key,) in stored.fetchall() if key not in keep],
        )
        cutoff = (now - timedelta(days=KEEP_DAYS)).isoformat(timespec="seconds")
        old = [i for (i,) in db.execute("SELECT id FROM drafts WHERE updated_at < ?", (cutoff,))]
        db.executemany("DELETE FROM draft_images WHERE draft_id = ?", [(i,) for i in old])
        db.executemany("DELETE FROM drafts WHERE id = ?", [(i,) for i in old])

    def load(self, draft_id: str, whole: bool = True) -> tuple[dict, dict[str, bytes]] | None:
        """The state and images of a draft; None when there is none (or the id is not one).
        A draft kept as parts comes back as one snapshot unless ``whole`` is False."""
        if not is_draft_id(draft_id):
            return None
        with self._connect(_OPENING) as db:
            row = db.execute("SELECT state_json FROM drafts WHERE id = ?", (draft_id,)).fetchone()
            if row is None:
                return None
            images = db.execute(
                "SELECT key, image FROM draft_images WHERE draft_id = ?", (draft_id,)
            ).fetchall()
        state = _json(row[0])
        if state is None:
            return None
        if whole and "parts" in state:
            state = join_parts(_parts_of(state)[0])
        return state, {key: bytes(image) for key, image in images}

    def delete(self, draft_id: str) -> None:
        with self._connect(_SAVING) as db:
            db.execute("DELETE FROM draft_images WHERE draft_id = ?", (draft_id,))
            db.execute("DELETE FROM drafts WHERE id = ?", (draft_id,))


@dataclass(frozen=True)
class Guest:
    """A writer that joined the table: the seat it claims and its key to that seat."""

    seat: int | None
    key: str | None


@dataclass(frozen=True)
class SavedParts:
    """What ``save_parts`` did: the draft's version now and just before the write (another
    writer may have changed it since this one last looked), each shared part's version, and the
    parts whose change by another writer this one replaced without having seen it."""

    version: int
    before: int
    versions: dict[str, int]
    replaced: tuple[str, ...]
    refused: tuple[str, ...] = ()  # parts a guest may not change (games.seats), not written


@dataclass(frozen=True)
class StoredDraft:
    parts: dict[str, dict]
    versions: dict[str, PartVersion]
    images: dict[str, bytes]
    seats: Seats = Seats()


def _state(parts: dict, versions: Mapping[str, PartVersion], seats: Seats) -> dict:
    return {
        "parts": parts,
        "versions": {name: entry.to_dict() for name, entry in versions.items()},
        "images": join_parts(parts)["images"],
        SEATS: seats.to_data(),
    }


def _json(text: str) -> dict | None:
    try:
        state = json.loads(text)
    except ValueError:
        return None
    return state if isinstance(state, dict) else None


def _parts_of(state: Mapping | None) -> tuple[dict[str, dict], dict[str, PartVersion]]:
    """The parts and versions of a stored state; a state saved whole is split, at version 0."""
    if not state:
        return {}, {}
    if "parts" not in state:
        return split_parts(state), {}
    versions = {name: PartVersion.from_dict(v) for name, v in state.get("versions", {}).items()}
    return dict(state["parts"]), versions
