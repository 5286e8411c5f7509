"""The history file going wrong: every fault is a ``HistoryError`` sentence saying what to do, a
damaged file is moved aside untouched and a new history started, and saves wait out locks."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import games.history as history_module
from games.drafts import DraftStore
from games.editing import blank_board
from games.history import GameHistory, HistoryError
from games.model import Game, GameSetup

GAME = Game(GameSetup(("Anna", "Ben")), ((blank_board(5),) * 2,))


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` (a file or a folder) cannot be changed, even by root (``chattr +i``)."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("cannot make a file immutable here (chattr +i)")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)


def _saved_history(path: Path, games: int = 3) -> GameHistory:
    history = GameHistory(path)
    for _ in range(games):
        history.save(GAME, "Anna 10 · Ben 10", [{"Anna": os.urandom(20_000)}])
    return history


def test_a_garbage_file_is_moved_aside_untouched_and_a_new_history_started(tmp_path):
    path = tmp_path / "games.db"
    garbage = b"this is not a database at all " * 100
    path.write_bytes(garbage)
    history = GameHistory(path)
    assert history.notice and "damaged" in history.notice and "new, empty history" in history.notice
    (aside,) = tmp_path.glob("games.db.damaged-*")
    assert aside.read_bytes() == garbage
    assert history.list() == []
    game_id = history.save(GAME, "after the damage")
    assert GameHistory(path).load(game_id) == GAME


def test_overwritten_pages_are_found_before_anything_is_written(tmp_path):
    path = tmp_path / "games.db"
    _saved_history(path)
    history_module._checked.clear()  # as in a new app process
    data = bytearray(path.read_bytes())
    page = 4096
    data[page : 6 * page] = os.urandom(5 * page)  # the header stays: SQLite opens it happily
    path.write_bytes(bytes(data))
    history = GameHistory(path)
    assert history.notice
    (aside,) = tmp_path.glob("games.db.damaged-*")
    assert aside.read_bytes() == bytes(data)  # never written to
    history.save(GAME, "new")
    assert [g.summary for g in history.list()] == ["new"]
    assert aside.read_bytes() == bytes(data)


def test_damage_appearing_while_the_app_runs_is_handled_on_the_next_save(tmp_path):
    path = tmp_path / "games.db"
    history = _saved_history(path)
    path.write_bytes(b"\0garbage" * 4096)  # after the open-time check
    history.save(GAME, "saved anyway")
    assert history.notice
    assert [g.summary for g in history.list()] == ["saved anyway"]


def test_a_read_only_file_lists_but_saving_says_why_not(tmp_path):
    path = tmp_path / "games.db"
    _saved_history(path, games=1)
    history_module._checked.clear()
    with unwritable(path):
        history = GameHistory(path)
        assert len(history.list()) == 1
        with pytest.raises(HistoryError, match=r"Could not save the game: .* is read-only"):
            history.save(GAME, "no")
        with pytest.raises(HistoryError, match="read-only"):
            history.delete(history.list()[0].id)
    assert len(GameHistory(path).list()) == 1


def test_an_unwritable_folder_says_so(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    with unwritable(folder), pytest.raises(HistoryError) as err:
        GameHistory(folder / "games.db")
    assert "cannot be opened or created" in str(err.value)
    assert "KINGDOMINO_DB" in str(err.value)


def test_an_unwritable_folder_around_a_writable_file_lists_read_only(tmp_path):
    """SQLite writes its journal beside the file: the games are listed and opened, and saving
    says that the folder is what must be writable."""
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "games.db"
    saved = _saved_history(path, games=2)
    first = saved.list()[-1].id
    history_module._checked.clear()
    with unwritable(folder):
        history = GameHistory(path)
        assert [g.id for g in history.list()] == [first + 1, first]
        assert history.load(first) == GAME
        assert history.notice and "read-only" in history.notice and str(folder) in history.notice
        with pytest.raises(HistoryError) as err:
            history.save(GAME, "no")
        assert f"saving needs the folder {folder} to be writable" in str(err.value)
        assert "history file" not in str(err.value).split("(")[0]  # not blamed on the file
    assert len(GameHistory(path).list()) == 2


NOBODY = 65534  # the unprivileged user of Debian and most Linux systems


def _in_a_read_only_folder(folder: Path, check: Callable[[], dict]) -> dict:
    """``check()`` run with ``folder`` made read-only (``chmod 0555``), its result.

    Root passes over file modes (and ``chattr +i`` changes what SQLite reports), so as root the
    check runs in a child process that becomes the unprivileged user first: forked, so it needs
    to import nothing from root's home."""
    if os.geteuid() == 0:
        for part in (folder, *folder.iterdir()):
            os.chown(part, NOBODY, NOBODY)
    folder.chmod(0o555)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the child: never back into pytest, whatever happens
        try:
            os.close(reading)
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            try:
                result = check()
            except Exception as err:  # reported to the parent, which fails the test with it
                result = {"error": repr(err)}
            os.write(writing, json.dumps(result).encode())
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as pipe:
        result = json.loads(pipe.read() or b'{"error": "the check printed nothing"}')
    os.waitpid(child, 0)
    return result


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's own temporary folder is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="kingdomino-read-only-"))
    folder.chmod(0o755)
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.parametrize("drafts_kept_before", [False, True])
def test_a_read_only_folder_lists_the_games_when_the_drafts_open_first(
    open_folder, drafts_kept_before
):
    """The score page opens the draft store before the history page lists the games: the games
    are still listed and opened, and the drafts say in our words why they cannot be saved."""
    path = open_folder / "games.db"
    first = _saved_history(path, games=2).list()[-1].id
    if drafts_kept_before:
        DraftStore(path)
    history_module._checked.clear()  # as in a new app process

    def check() -> dict:
        try:
            drafts = DraftStore(path)
            drafts.save(drafts.new_id(), {"images": []})
            said = "saved"
        except Exception as err:  # SQLite's own error too: the assertions below name it
            said = f"{type(err).__name__}: {err}"
        history = GameHistory(path)
        return {
            "drafts": said,
            "games": [game.id for game in history.list()],
            "opened": history.load(first) == GAME,
            "notice": str(history.notice),
        }

    result = _in_a_read_only_folder(open_folder, check)
    assert "error" not in result, result["error"]
    assert result["games"] == [first + 1, first] and result["opened"]
    assert "read-only" in result["notice"]
    assert result["drafts"].startswith(
        "HistoryError: Could not save the game in progress: saving needs the folder "
    )


def test_another_programs_database_is_left_untouched(tmp_path):
    path = tmp_path / "games.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        db.execute("INSERT INTO contacts VALUES ('Anna', '123')")
    before = path.read_bytes()
    with pytest.raises(HistoryError) as err:
        GameHistory(path)
    assert "is not a Kingdomino history" in str(err.value) and "contacts" in str(err.value)
    assert "Try again" not in str(err.value)
    assert path.read_bytes() == before and list(tmp_path.iterdir()) == [path]


def test_a_folder_path_through_a_file_says_so(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(HistoryError, match="is a file, not a folder"):
        GameHistory(tmp_path / "afile" / "games.db")


def test_a_path_that_is_a_folder_says_so(tmp_path):
    with pytest.raises(HistoryError, match="is a folder, not a file"):
        GameHistory(tmp_path)


def test_the_history_uses_write_ahead_logging(tmp_path):
    GameHistory(tmp_path / "games.db")
    with sqlite3.connect(tmp_path / "games.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.fixture
def held_lock(tmp_path, monkeypatch) -> Iterator[tuple[GameHistory, sqlite3.Connection]]:
    """A history whose file another connection is writing to (a write lock held)."""
    monkeypatch.setattr(history_module, "BUSY_TIMEOUT_S", 0.01)
    history = GameHistory(tmp_path / "games.db")
    other = sqlite3.connect(tmp_path / "games.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield history, other
    other.close()


def test_a_save_waits_for_a_lock_and_retries(held_lock, monkeypatch):
    history, other = held_lock
    pauses = []

    def other_session_finishes(seconds):  # instead of sleeping, the lock holder commits
        pauses.append(seconds)
        other.execute("COMMIT")

    monkeypatch.setattr(history_module.time, "sleep", other_session_finishes)
    game_id = history.save(GAME, "after the lock")
    assert pauses == [history_module.RETRY_PAUSES_S[0]]
    assert history.load(game_id) == GAME


def test_a_lock_that_stays_is_could_not_save_try_again(held_lock, monkeypatch):
    history, _ = held_lock
    pauses = []
    monkeypatch.setattr(history_module.time, "sleep", pauses.append)
    with pytest.raises(HistoryError, match="Could not save the game: .*busy.* Try again"):
        history.save(GAME, "locked out")
    assert pauses == list(history_module.RETRY_PAUSES_S)  # backing off: each pause longer


def test_concurrent_saves_from_many_sessions_all_land(tmp_path):
    path = tmp_path / "games.db"
    GameHistory(path)
    errors = []

    def session(number: int) -> None:
        try:
            for _ in range(15):
                GameHistory(path).save(GAME, f"session {number}")
        except Exception as err:  # collected: the test reports them all
            errors.append(err)

    threads = [threading.Thread(target=session, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(GameHistory(path).list()) == 8 * 15


def test_rows_edited_by_hand_do_not_break_the_list_and_say_so_when_opened(tmp_path):
    path = tmp_path / "games.db"
    history = GameHistory(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO games (saved_at, summary, game_json) VALUES ('yesterday', 7, '{')")
    (saved,) = history.list()
    assert saved.summary == "7"
    with pytest.raises(HistoryError, match=f"Saved game {saved.id} cannot be opened"):
        history.load(saved.id)
