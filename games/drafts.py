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
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

from games.history import GameHistory

KEEP_DAYS = 30
_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS drafts (
    id TEXT PRIMARY KEY,
    updated_at TEXT NOT NULL,
    state_json TEXT NOT NULL
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
_RANDOM_CHARS = 16  # secrets.token_urlsafe(12): 96 random bits
_MAC_BYTES = 12  # 16 characters of base64


def is_draft_id(text: object) -> bool:
    """Whether ``text`` can be a draft id (anything else in a URL is ignored, never looked up)."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


class DraftStore:
    """Save, load and delete drafts in the history's database file."""

    def __init__(self, path: Path | str | None = None):
        self._history = GameHistory(path)
        with self._history._connect() as db:
            db.executescript(_SCHEMA)
            row = db.execute("SELECT secret FROM draft_secret").fetchone()
            if row is None:
                db.execute("INSERT OR IGNORE INTO draft_secret VALUES (1, ?)", (os.urandom(32),))
                row = db.execute("SELECT secret FROM draft_secret").fetchone()
        self._secret = bytes(row[0])

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
        with self._history._connect() as db:
            row = db.execute("SELECT 1 FROM drafts WHERE id = ?", (draft_id,)).fetchone()
        return row is not None

    def _mac(self, random_part: str) -> str:
        digest = hmac.new(self._secret, random_part.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:_MAC_BYTES]).decode()

    def stored_images(self, draft_id: str) -> set[str]:
        """The image keys already stored for a draft."""
        with self._history._connect() as db:
            rows = db.execute("SELECT key FROM draft_images WHERE draft_id = ?", (draft_id,))
            return {key for (key,) in rows.fetchall()}

    def save(self, draft_id: str, state: Mapping, images: Mapping[str, bytes] = ()) -> None:
        """Store ``state`` (JSON-ready) and the new ``images``; images whose keys are not listed
        in ``state["images"]`` are dropped. Old drafts are pruned on the way."""
        if not self.can_hold(draft_id):
            raise ValueError(f"not a draft id this file issued: {draft_id!r}")
        now = datetime.now(UTC)
        keep = set(state.get("images", ()))
        with self._history._connect() as db:
            db.execute(
                "INSERT INTO drafts (id, updated_at, state_json) VALUES (?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at, "
                "state_json = excluded.state_json",
                (draft_id, now.isoformat(timespec="seconds"), json.dumps(state)),
            )
            db.executemany(
                "INSERT OR IGNORE INTO draft_images (draft_id, key, image) VALUES (?, ?, ?)",
                [(draft_id, key, data) for key, data in dict(images).items() if key in keep],
            )
            stored = db.execute(
                "SELECT key FROM draft_images WHERE draft_id = ?", (draft_id,)
            ).fetchall()
            db.executemany(
                "DELETE FROM draft_images WHERE draft_id = ? AND key = ?",
                [(draft_id, key) for (key,) in stored if key not in keep],
            )
            cutoff = (now - timedelta(days=KEEP_DAYS)).isoformat(timespec="seconds")
            old = [
                i for (i,) in db.execute("SELECT id FROM drafts WHERE updated_at < ?", (cutoff,))
            ]
            db.executemany("DELETE FROM draft_images WHERE draft_id = ?", [(i,) for i in old])
            db.executemany("DELETE FROM drafts WHERE id = ?", [(i,) for i in old])

    def load(self, draft_id: str) -> tuple[dict, dict[str, bytes]] | None:
        """The state and images of a draft; None when there is none (or the id is not one)."""
        if not is_draft_id(draft_id):
            return None
        with self._history._connect() as db:
            row = db.execute("SELECT state_json FROM drafts WHERE id = ?", (draft_id,)).fetchone()
            if row is None:
                return None
            images = db.execute(
                "SELECT key, image FROM draft_images WHERE draft_id = ?", (draft_id,)
            ).fetchall()
        try:
            state = json.loads(row[0])
        except ValueError:
            return None
        if not isinstance(state, dict):
            return None
        return state, {key: bytes(image) for key, image in images}

    def delete(self, draft_id: str) -> None:
        with self._history._connect() as db:
            db.execute("DELETE FROM draft_images WHERE draft_id = ?", (draft_id,))
            db.execute("DELETE FROM drafts WHERE id = ?", (draft_id,))
