"""The history file holds the players' names and photos and the secret that signs draft
addresses: it and the files SQLite keeps beside it are readable by their owner only."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

import games.history as history_module
from games.drafts import DraftStore
from games.editing import blank_board
from games.history import GameHistory
from games.model import Game, GameSetup

GAME = Game(GameSetup(("Anna", "Ben")), ((blank_board(5),) * 2,))


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The usual umask, under which new files are readable by everyone (0644)."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_a_new_history_and_its_folder_are_the_owners_alone(tmp_path):
    path = tmp_path / "kingdomino" / "games.db"
    drafts = DraftStore(path)  # as the score page opens it first: the secret is written
    drafts.save(drafts.new_id(), {"images": []})
    reader = sqlite3.connect(path)  # while a reader is open, the -wal and -shm files stay
    reader.execute("SELECT count(*) FROM drafts").fetchone()
    GameHistory(path).save(GAME, "Anna 10 · Ben 10")
    try:
        assert _mode(path.parent) == 0o700
        assert _mode(path) == 0o600
        assert _mode(f"{path}-wal") == 0o600 and _mode(f"{path}-shm") == 0o600
    finally:
        reader.close()


def test_an_existing_folder_is_left_as_it_is(tmp_path):
    tmp_path.chmod(0o755)
    GameHistory(tmp_path / "games.db")
    assert _mode(tmp_path) == 0o755 and _mode(tmp_path / "games.db") == 0o600


def test_files_readable_by_others_are_tightened_when_opened(tmp_path):
    """A file made before this rule (0644), with its -wal and -shm files."""
    path = tmp_path / "games.db"
    GameHistory(path).save(GAME, "Anna 10 · Ben 10")
    reader = sqlite3.connect(path)  # while a reader is open, the -wal and -shm files stay
    reader.execute("SELECT count(*) FROM games").fetchone()
    parts = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    try:
        for part in parts:
            part.chmod(0o644)
        history_module._checked.clear()
        assert len(GameHistory(path).list()) == 1
        assert [_mode(part) for part in parts] == [0o600] * 3
    finally:
        reader.close()


def test_a_read_only_file_stays_read_only_and_private(tmp_path):
    path = tmp_path / "games.db"
    GameHistory(path).save(GAME, "Anna 10 · Ben 10")
    path.chmod(0o444)
    history_module._checked.clear()
    assert len(GameHistory(path).list()) == 1
    assert _mode(path) == 0o400


def test_a_salvaged_history_is_the_owners_alone(tmp_path):
    path = tmp_path / "games.db"
    GameHistory(path).save(GAME, "Anna 10 · Ben 10")
    history_module._checked.clear()
    path.write_bytes(b"this is not a database at all " * 100)
    path.chmod(0o644)
    history = GameHistory(path)
    assert history.notice and _mode(path) == 0o600
    (aside,) = tmp_path.glob("games.db.damaged-*")
    assert _mode(aside) == 0o600  # tightened when opened, before it was moved aside
