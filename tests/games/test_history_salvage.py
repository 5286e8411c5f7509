"""A damaged history still opens: the damaged file is kept untouched beside the new one, every
game SQLite can still read is carried over (with its photos), and the lost ones are named."""

from __future__ import annotations

import os
import random
import sqlite3
import threading
from pathlib import Path

import pytest

import games.history as history_module
from games.drafts import DraftStore
from games.editing import blank_board
from games.history import GameHistory
from games.model import Game, GameSetup
from scoring import parse_board

GAMES = 300
PAGE = 4096
BOARD = "L1 L0 L0 L0 L0\nF0 S1 G0 F0 L1\nM2 S0 C  F0 L1\nM1 M0 G0 G2 L1\nW0 W1 W0 W0 W0\n"


def _game(number: int) -> Game:
    names = (f"Anna {number}", "Ben")
    return Game(GameSetup(names), ((parse_board(BOARD), blank_board(5)),))


def _photo(number: int) -> bytes:
    return random.Random(number).randbytes(6_000)  # longer than a page: overflow pages


@pytest.fixture
def saved(tmp_path) -> Path:
    """A history of 300 games, each with a photo (and a game in progress), as a new process
    finds it: not yet checked."""
    path = tmp_path / "games.db"
    history = GameHistory(path)
    for number in range(1, GAMES + 1):
        history.save(_game(number), f"game {number}", [{f"Anna {number}": _photo(number)}])
    drafts = DraftStore(path)
    drafts.save(drafts.new_id(), {"images": ["k"], "x": 1}, {"k": b"jpeg"})
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _forget(path)
    return path


def _forget(path: Path) -> None:
    """As in a new app process: the file is checked again and no notice is remembered."""
    history_module._checked.discard(path)
    getattr(history_module, "_notices", {}).pop(path, None)


def _pages(path: Path, name: str, pagetype: str) -> list[int]:
    """The page numbers of a table's or index's pages of one type (SQLite's dbstat table)."""
    with sqlite3.connect(path) as db:
        try:
            rows = db.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
                (name, pagetype),
            ).fetchall()
        except sqlite3.OperationalError:
            pytest.skip("this SQLite has no dbstat table to find pages with")
    return [pageno for (pageno,) in rows]


def _overwrite(path: Path, pageno: int) -> bytes:
    """Page ``pageno`` (1-based) overwritten with random bytes; the whole damaged file."""
    data = bytearray(path.read_bytes())
    data[(pageno - 1) * PAGE : pageno * PAGE] = random.Random(pageno).randbytes(PAGE)
    path.write_bytes(bytes(data))
    return bytes(data)


def _readable_by_plain_sqlite(path: Path) -> set[int]:
    """The games plain SQLite can read one by one from the damaged file (on a copy)."""
    copy = path.with_name("plain-copy.db")
    copy.write_bytes(path.read_bytes())
    found = set()
    with sqlite3.connect(copy) as db:
        for number in range(1, GAMES + 1):
            try:
                row = db.execute("SELECT game_json FROM games WHERE id = ?", (number,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None:
                found.add(number)
    copy.unlink()
    return found


def _check_salvaged(path: Path, damaged: bytes, readable: set[int]) -> GameHistory:
    history = GameHistory(path)
    (aside,) = path.parent.glob("games.db.damaged-*[0-9]")
    assert aside.read_bytes() == damaged  # kept, untouched
    listed = {saved.id for saved in history.list()}
    assert listed == readable
    for game_id in listed:
        assert history.load(game_id) == _game(game_id)
    assert history.notice is not None
    assert f"{len(readable)} saved games could still be read" in history.notice
    assert aside.name in history.notice
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    new_id = history.save(_game(1), "after the salvage")
    assert new_id > GAMES  # never the number of a lost game
    return history


def test_a_damaged_photo_page_loses_only_that_photo(saved):
    overflow = _pages(saved, "photos", "overflow")
    damaged = _overwrite(saved, overflow[len(overflow) // 2])
    history = _check_salvaged(saved, damaged, set(range(1, GAMES + 1)))
    photos = {i: history.photos(i) for i in range(1, GAMES + 1)}
    lost = [i for i, found in photos.items() if found != [{f"Anna {i}": _photo(i)}]]
    assert len(lost) == 1 and photos[lost[0]] == []
    assert f"1 photo could not be read (Anna {lost[0]}'s in game {lost[0]})" in history.notice
    assert "Lost:" not in history.notice
    with sqlite3.connect(saved) as db:  # the game in progress came through too
        (draft_id,) = db.execute("SELECT id FROM drafts").fetchone()
    drafts = DraftStore(saved)
    assert drafts.issued(draft_id) and drafts.load(draft_id)[1] == {"k": b"jpeg"}


def test_a_damaged_index_page_loses_nothing(saved):
    index = _pages(saved, "sqlite_autoindex_photos_1", "leaf")
    damaged = _overwrite(saved, index[len(index) // 2])
    history = _check_salvaged(saved, damaged, set(range(1, GAMES + 1)))
    assert all(history.photos(i) == [{f"Anna {i}": _photo(i)}] for i in range(1, GAMES + 1))
    assert "Lost" not in history.notice and "could not be read" not in history.notice


def test_a_damaged_page_of_games_names_the_lost_ones(saved):
    leaves = _pages(saved, "games", "leaf")
    damaged = _overwrite(saved, leaves[len(leaves) // 2])
    readable = _readable_by_plain_sqlite(saved)
    assert 0 < GAMES - len(readable) < 20  # the games on that one page
    history = _check_salvaged(saved, damaged, readable)
    lost = sorted(set(range(1, GAMES + 1)) - readable)
    assert f"Lost: games {lost[0]} to {lost[-1]} (saved after " in history.notice
    for game_id in readable:
        assert history.photos(game_id) == [{f"Anna {game_id}": _photo(game_id)}]


def test_the_issues_case_history_refused_to_open_is_now_salvaged(saved):
    """One page overwritten and quick_check failing: the history opens, and saving works."""
    overflow = _pages(saved, "photos", "overflow")
    _overwrite(saved, overflow[-1])
    history = GameHistory(saved)
    assert len(history.list()) == GAMES
    history.save(_game(1), "saved after the damage")
    _forget(saved)
    again = GameHistory(saved)  # the next process finds a sound file: no new salvage
    assert len(again.list()) == GAMES + 1 and again.notice is None
    assert len(list(saved.parent.glob("games.db.damaged-*[0-9]"))) == 1


def test_a_file_beyond_reading_starts_a_new_history_and_says_so(tmp_path):
    path = tmp_path / "games.db"
    garbage = os.urandom(20 * PAGE)
    path.write_bytes(garbage)
    history = GameHistory(path)
    assert "damaged beyond reading" in history.notice and "new, empty history" in history.notice
    (aside,) = tmp_path.glob("games.db.damaged-*[0-9]")
    assert aside.read_bytes() == garbage and history.list() == []


def test_a_damaged_root_page_of_the_photos_loses_no_photo(saved):
    """With the top of the photos' tree gone, SQLite reaches no photo: they are read from their
    leaf pages. The table's end is unknown, so the notice still says some may be lost."""
    with sqlite3.connect(saved) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'photos'").fetchone()
    assert root in _pages(saved, "photos", "internal")
    damaged = _overwrite(saved, root)
    history = _check_salvaged(saved, damaged, set(range(1, GAMES + 1)))
    assert all(history.photos(i) == [{f"Anna {i}": _photo(i)}] for i in range(1, GAMES + 1))
    assert "Lost:" not in history.notice
    assert "Some photos could not be reached and may be lost" in history.notice


def _draft_comes_through(path: Path) -> None:
    with sqlite3.connect(path) as db:
        (draft_id,) = db.execute("SELECT id FROM drafts").fetchone()
    drafts = DraftStore(path)
    assert drafts.issued(draft_id) and drafts.load(draft_id)[1] == {"k": b"jpeg"}


def test_an_overwritten_root_page_of_the_games_loses_no_game(saved):
    """Page 2 is the games' root (an interior page): SQLite reaches none of them, every leaf
    under it is intact, so every game is read from the leaves."""
    with sqlite3.connect(saved) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    assert root == 2 and 2 in _pages(saved, "games", "internal")
    damaged = _overwrite(saved, 2)
    history = _check_salvaged(saved, damaged, set(range(1, GAMES + 1)))
    assert "Lost:" not in history.notice and "may be lost" not in history.notice
    assert all(history.photos(i) == [{f"Anna {i}": _photo(i)}] for i in range(1, GAMES + 1))
    _draft_comes_through(saved)


def test_an_overwritten_first_page_loses_no_game(saved):
    """Page 1 holds the file's header (its page size) and the list of tables: SQLite refuses
    the file. The page size is found from the pages, the tables are the history's own, and
    every row is put back in the table it fits."""
    damaged = _overwrite(saved, 1)
    history = _check_salvaged(saved, damaged, set(range(1, GAMES + 1)))
    assert "Lost:" not in history.notice and "may be lost" not in history.notice
    assert all(history.photos(i) == [{f"Anna {i}": _photo(i)}] for i in range(1, GAMES + 1))
    _draft_comes_through(saved)


def _games_in_pages_up_to(path: Path, last_page: int) -> set[int]:
    """The ids of the games on leaf pages numbered up to ``last_page``, from SQLite's dbstat:
    the leaves in tree order (their path) hold ids 1, 2, ... in turn, ``ncell`` each."""
    with sqlite3.connect(path) as db:
        leaves = db.execute(
            "SELECT pageno, ncell FROM dbstat WHERE name = 'games' AND pagetype = 'leaf'"
            " ORDER BY path"
        ).fetchall()
    kept, first = set(), 1
    for pageno, cells in leaves:
        if pageno <= last_page:
            kept.update(range(first, first + cells))
        first += cells
    assert first == GAMES + 1
    return kept


def test_a_file_cut_in_half_keeps_the_games_in_the_half_left(saved):
    data = saved.read_bytes()
    pages = len(data) // PAGE
    kept = _games_in_pages_up_to(saved, pages // 2)
    assert GAMES / 3 < len(kept) < GAMES * 2 / 3  # about half: games and photos interleave
    damaged = data[: pages // 2 * PAGE]
    saved.write_bytes(damaged)
    history = _check_salvaged(saved, damaged, kept)
    lost = sorted(set(range(1, GAMES + 1)) - kept)
    assert f"Lost: games {lost[0]} to {lost[-1]} (saved after " in history.notice
    for game_id in kept:  # a photo is whole or missing, never another page's bytes
        assert history.photos(game_id) in ([{f"Anna {game_id}": _photo(game_id)}], [])
    assert "Some photos could not be reached and may be lost" in history.notice


def test_sessions_finding_the_damage_together_salvage_it_once(saved):
    leaves = _pages(saved, "games", "leaf")
    _overwrite(saved, leaves[len(leaves) // 2])
    readable = _readable_by_plain_sqlite(saved)
    results, errors = [], []

    def session() -> None:
        try:
            history = GameHistory(saved)
            results.append(({g.id for g in history.list()}, history.notice))
        except Exception as err:  # collected: the test reports them all
            errors.append(err)

    threads = [threading.Thread(target=session) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(list(saved.parent.glob("games.db.damaged-*[0-9]"))) == 1
    # Every session saw the salvaged games, none an empty file made while the salvage ran.
    assert all(ids == readable and "Lost: games" in notice for ids, notice in results)


def test_deleted_games_do_not_come_back_from_freed_pages(saved):
    """Deleting games frees their leaf pages with the rows still written on them (in SQLite
    builds without secure_delete, such as Python's own on Windows and macOS): the pages on the
    file's free list are not read."""
    db = sqlite3.connect(saved, isolation_level=None)
    db.execute("PRAGMA secure_delete = OFF")
    db.execute("DELETE FROM games WHERE id > 100 AND id <= 200")
    assert db.execute("PRAGMA freelist_count").fetchone()[0] > 0
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    damaged = _overwrite(saved, 2)
    assert b'"Anna 150"' in damaged  # a deleted game, still written in the file
    _check_salvaged(saved, damaged, set(range(1, 101)) | set(range(201, GAMES + 1)))
