"""Finished games kept in a local SQLite file, so that the history survives an app restart.

The file is ``$KINGDOMINO_DB`` when set, else ``games.db`` in the user's data folder
(``$XDG_DATA_HOME/kingdomino`` or ``~/.local/share/kingdomino``). Each game is stored as the JSON
of ``games.model.game_to_dict`` plus a one-line summary for the list, and the straightened photos
of its kingdoms (JPEG) when they came from photos; its scores are recomputed when it is opened,
from the same boards and rules, so it shows exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from games.model import Game, game_from_dict, game_to_dict

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    saved_at TEXT NOT NULL,
    summary TEXT NOT NULL,
    game_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS photos (
    game_id INTEGER NOT NULL,
    game_number INTEGER NOT NULL,
    player TEXT NOT NULL,
    image BLOB NOT NULL,
    PRIMARY KEY (game_id, game_number, player)
);
"""


def default_db_path() -> Path:
    if os.environ.get("KINGDOMINO_DB"):
        return Path(os.environ["KINGDOMINO_DB"]).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "kingdomino" / "games.db"


@dataclass(frozen=True)
class SavedGame:
    id: int
    saved_at: datetime  # UTC
    summary: str  # e.g. "Anna 54 · Ben 48: Anna wins"


class GameHistory:
    """Save, list, open and delete games. Opens a short connection per call (thread-safe)."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else default_db_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection that commits on success and is always closed (``with db`` only commits)."""
        db = sqlite3.connect(self.path, timeout=5)
        try:
            with db:
                yield db
        finally:
            db.close()

    def save(self, game: Game, summary: str, photos: Sequence[Mapping[str, bytes]] = ()) -> int:
        """Store a game; ``photos[i][name]``: an image file of that kingdom in game ``i + 1``."""
        saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as db:
            cursor = db.execute(
                "INSERT INTO games (saved_at, summary, game_json) VALUES (?, ?, ?)",
                (saved_at, summary, json.dumps(game_to_dict(game))),
            )
            game_id = int(cursor.lastrowid)
            db.executemany(
                "INSERT INTO photos (game_id, game_number, player, image) VALUES (?, ?, ?, ?)",
                [
                    (game_id, number, name, image)
                    for number, by_player in enumerate(photos, start=1)
                    for name, image in by_player.items()
                ],
            )
            return game_id

    def list(self) -> list[SavedGame]:
        """Every saved game, newest first."""
        with self._connect() as db:
            rows = db.execute("SELECT id, saved_at, summary FROM games ORDER BY id DESC").fetchall()
        return [SavedGame(i, datetime.fromisoformat(at), summary) for i, at, summary in rows]

    def load(self, game_id: int) -> Game:
        with self._connect() as db:
            row = db.execute("SELECT game_json FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        return game_from_dict(json.loads(row[0]))

    def photos(self, game_id: int) -> list[dict[str, bytes]]:
        """The photos saved with a game: one dict per game played, player name → image file."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT game_number, player, image FROM photos WHERE game_id = ?", (game_id,)
            ).fetchall()
        by_game: list[dict[str, bytes]] = [{} for _ in range(max((r[0] for r in rows), default=0))]
        for number, name, image in rows:
            by_game[number - 1][name] = bytes(image)
        return by_game

    def delete(self, game_id: int) -> None:
        with self._connect() as db:
            db.execute("DELETE FROM photos WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
