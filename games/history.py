"""Finished games kept in a local SQLite file, so that the history survives an app restart.

The file is ``$KINGDOMINO_DB`` when set, else ``games.db`` in the user's data folder
(``$XDG_DATA_HOME/kingdomino`` or ``~/.local/share/kingdomino``). Each game is stored as the JSON
of ``games.model.game_to_dict`` plus a one-line summary for the list, and the straightened photos
of its kingdoms (JPEG) when they came from photos; its scores are recomputed when it is opened,
from the same boards and rules, so it shows exactly as it was.

The history is an extra: anything wrong with its file (a folder, unwritable, read-only, locked,
another program's database) raises ``HistoryError`` with a sentence saying what is wrong and what
to do, so the app says so and keeps scoring. A damaged file is never written to: it is renamed
aside (``games.db.damaged-<time>``), every game that can still be read (by SQLite, or from the
file's pages) is carried into a new file (``games.salvage``) and ``notice`` says how many,
naming the games that were lost. In a folder that
cannot be written to (SQLite keeps its journal beside the file) the games are listed and opened
read-only, and ``notice`` says that saving needs the folder writable. docs/reliability.md has
the details.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from games.model import Game, GameError, game_from_dict, game_to_dict
from games.salvage import Salvaged, salvage
from scoring.words import Joined, Message, joined, msg, nmsg

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
# The files SQLite keeps beside the history file (write-ahead log, its index, rollback journal).
COMPANIONS = ("-wal", "-shm", "-journal")
# The tables a history file holds (``games.drafts`` adds its own with ``register_tables``): a
# damaged file whose own list of tables is lost is salvaged into these.
_TABLES: list[str] = [_SCHEMA]
# SQLite waits this long for a lock itself; a save still locked out then is retried after these
# pauses (several app sessions may save at once).
BUSY_TIMEOUT_S = 5.0
RETRY_PAUSES_S = (0.1, 0.3, 0.9)
_CORRUPT = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
# Files checked for damage in this process (the check reads the whole file, so once per file).
_checked: set[Path] = set()
# What happened to a damaged file, told by every GameHistory of that path in this process (the
# damage may be found by a draft's save, which shows no notice).
_notices: dict[Path, str] = {}
_OURS = {"id", "saved_at", "summary", "game_json"}  # the columns that make a file a history

T = TypeVar("T")
log = logging.getLogger(__name__)  # the server's console: the details the user is spared


class _Gate:
    """Any number of connections at once, or one salvage alone (in this process).

    While a damaged file is renamed aside and its games copied, no other session may use the
    path: it would create an empty history there, and a game saved into it would be replaced by
    the salvaged file. A second session that found the same damage waits, then sees the new file.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._connections = 0
        self._salvaging = False

    @contextmanager
    def connection(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: not self._salvaging)
            self._connections += 1
        try:
            yield
        finally:
            with self._changed:
                self._connections -= 1
                self._changed.notify_all()

    @contextmanager
    def salvage(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: not self._salvaging)
            self._salvaging = True
            self._changed.wait_for(lambda: self._connections == 0)
        try:
            yield
        finally:
            with self._changed:
                self._salvaging = False
                self._changed.notify_all()


_gate = _Gate()


class HistoryError(Exception):
    """The history cannot be used as asked; the message says what is wrong and what to do."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(str(message))
        self.message = message  # for a translator (``translations.Translator.say``)


class _Damaged(sqlite3.DatabaseError):
    """``PRAGMA quick_check`` found damage (SQLite raises no error of its own for that)."""


def register_tables(schema: str) -> None:
    """Name more tables kept in the history file (``CREATE TABLE IF NOT EXISTS`` statements), so
    that their rows are salvaged too when the file's own list of tables is lost."""
    if schema not in _TABLES:
        _TABLES.append(schema)


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
    """Save, list, open and delete games. Opens a short connection per call (thread-safe).

    Raises ``HistoryError`` (never ``sqlite3`` or ``OSError``) when the file cannot be used.
    """

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else default_db_path()
        self._prepare_folder()
        _keep_private(self.path)
        # The folder cannot be written to, though the file can be read: list and open only.
        self.read_only_folder = False
        try:
            self._run(self._create)
        except HistoryError:
            if not self._folder_unwritable():
                raise
            self.read_only_folder = True
            self._run(self._create)

    @property
    def notice(self) -> Message | None:
        """A sentence the user should read: what became of a damaged file, or why saving is off."""
        if self.read_only_folder:
            return msg(
                "The saved games are shown read-only: saving needs the folder {folder} to be "
                "writable (SQLite keeps a journal beside the history file).",
                folder=str(self.path.parent),
            )
        return _notices.get(self.path)

    # ---- the games ----------------------------------------------------------------------------

    def save(self, game: Game, summary: str, photos: Sequence[Mapping[str, bytes]] = ()) -> int:
        """Store a game; ``photos[i][name]``: an image file of that kingdom in game ``i + 1``."""
        saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        game_json = json.dumps(game_to_dict(game))
        rows = [
            (number, name, image)
            for number, by_player in enumerate(photos, start=1)
            for name, image in by_player.items()
        ]

        def insert(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (saved_at, summary, game_json) VALUES (?, ?, ?)",
                (saved_at, summary, game_json),
            )
            game_id = int(cursor.lastrowid)
            db.executemany(
                "INSERT INTO photos (game_id, game_number, player, image) VALUES (?, ?, ?, ?)",
                [(game_id, *row) for row in rows],
            )
            return game_id

        return self._run(insert, action=msg("Could not save the game"))

    def list(self) -> list[SavedGame]:
        """Every saved game, newest first (a row someone edited by hand shows as best it can)."""
        rows = self._run(
            lambda db: db.execute(
                "SELECT id, saved_at, summary FROM games ORDER BY id DESC"
            ).fetchall()
        )
        return [SavedGame(int(i), _when(at), str(summary)) for i, at, summary in rows]

    def load(self, game_id: int) -> Game:
        """The saved game; ``KeyError`` if there is none, ``HistoryError`` if it is unreadable."""
        row = self._run(
            lambda db: db.execute("SELECT game_json FROM games WHERE id = ?", (game_id,)).fetchone()
        )
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        try:
            return game_from_dict(json.loads(row[0]))
        except (GameError, ValueError, TypeError) as err:
            raise HistoryError(
                msg(
                    "Saved game {number} cannot be opened ({error}); you can delete it.",
                    number=str(game_id),
                    error=getattr(err, "message", None) or str(err),
                )
            ) from None

    def photos(self, game_id: int) -> list[dict[str, bytes]]:
        """The photos saved with a game: one dict per game played, player name → image file."""
        rows = self._run(
            lambda db: db.execute(
                "SELECT game_number, player, image FROM photos WHERE game_id = ?", (game_id,)
            ).fetchall()
        )
        rows = [r for r in rows if isinstance(r[0], int) and 1 <= r[0] <= 3]
        by_game: list[dict[str, bytes]] = [{} for _ in range(max((r[0] for r in rows), default=0))]
        for number, name, image in rows:
            if isinstance(image, bytes):
                by_game[number - 1][str(name)] = image
        return by_game

    def delete(self, game_id: int) -> None:
        def remove(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM photos WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

        self._run(remove, action=msg("Could not delete the game"))

    # ---- the file -----------------------------------------------------------------------------

    def _prepare_folder(self) -> None:
        if self.path.is_dir():
            raise HistoryError(
                msg(
                    "The history file {file} is a folder, not a file: remove the folder or set "
                    "KINGDOMINO_DB to another file (a path ending in .db).",
                    file=str(self.path),
                )
            )
        try:
            # A folder made here is the user's alone; one that exists is left as it is (it may
            # be shared on purpose, such as a KINGDOMINO_DB in /tmp).
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise HistoryError(
                msg(
                    "The history file {file} cannot be created: a part of its folder path is a "
                    "file, not a folder. Move that file away or set KINGDOMINO_DB to another file.",
                    file=str(self.path),
                )
            ) from None
        except OSError as err:
            raise HistoryError(
                msg(
                    "The folder {folder} for the history cannot be created ({reason}): create it "
                    "yourself or set KINGDOMINO_DB to another file.",
                    folder=str(self.path.parent),
                    reason=_reason(err),
                )
            ) from None

    def _folder_unwritable(self) -> bool:
        """Whether the history file exists but its folder refuses a new file (SQLite's journal)."""
        if not self.path.is_file():
            return False
        try:
            with tempfile.TemporaryFile(dir=self.path.parent):
                return False
        except OSError:
            return True

    def _create(self, db: sqlite3.Connection) -> None:
        """The tables, and write-ahead logging (readers never wait for a writer)."""
        if self.path not in _checked:
            self._check_ours(db)
            problems = db.execute("PRAGMA quick_check(5)").fetchall()
            if problems != [("ok",)]:
                raise _Damaged("; ".join(str(row[0]) for row in problems))
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
        except sqlite3.OperationalError as err:
            if _code(err) != sqlite3.SQLITE_READONLY:
                raise
            if not self.read_only_folder and self._folder_unwritable():
                # The folder, not the file: reading needs the read-only way too (a WAL file's
                # reader makes a -shm file beside it), which __init__ takes on this error.
                raise
            # A read-only file can still be listed and opened; saving says why it cannot.
        _checked.add(self.path)

    def _check_ours(self, db: sqlite3.Connection) -> None:
        """Refuse another program's SQLite file before anything is written to it."""
        tables = [
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        if not tables:
            return  # a new, empty file: ours from now on
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if not columns >= _OURS:
            shown = ", ".join(sorted(t for t in tables if not t.startswith("sqlite_"))[:5])
            raise HistoryError(
                msg(
                    "The file {file} is not a Kingdomino history: it is another program's "
                    "database (with tables {tables}), and it was left untouched. Set "
                    "KINGDOMINO_DB to another file (a path ending in .db).",
                    file=str(self.path),
                    tables=shown,
                )
            )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection that commits on success and is always closed (``with db`` only commits).

        Never opened inside another one: a salvage waiting for the first would wait forever."""
        with _gate.connection():
            db = self._open()
            try:
                with db:
                    yield db
            finally:
                db.close()

    def _open(self) -> sqlite3.Connection:
        if self.read_only_folder:  # no journal can be made: read the file as it is
            address = f"file:{quote(str(self.path.resolve()))}?immutable=1"
            return sqlite3.connect(address, uri=True, timeout=BUSY_TIMEOUT_S)
        return sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)

    def _run(self, work: Callable[[sqlite3.Connection], T], action: Message | None = None) -> T:
        """``work`` in a transaction; retried while locked, a damaged file salvaged once."""
        action = action or msg("Could not open the history")
        salvaged = False
        for pause in (*RETRY_PAUSES_S, None):
            try:
                with self._connect() as db:
                    return work(db)
            except sqlite3.DatabaseError as err:
                code = _code(err)
                if code in _BUSY and pause is not None:
                    time.sleep(pause)  # another session is writing: give it a moment
                    continue
                damaged = isinstance(err, _Damaged) or code in _CORRUPT
                if damaged and not salvaged and not self.read_only_folder:
                    self._salvage(err)
                    salvaged = True
                    self._run(self._create)  # the new file, then ``work`` again
                    continue
                log.warning("history %s: %s failed: %r", self.path, action, err)
                raise self._error(err, action) from None
            except OSError as err:
                log.warning("history %s: %s failed: %r", self.path, action, err)
                raise self._error(err, action) from None
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _salvage(self, err: sqlite3.DatabaseError) -> None:
        """Carry every game SQLite can still read into a new file, then rename the damaged file
        (and its WAL files) aside, so that it is never written to again, and put the new one in
        its place. Salvaging first keeps the time without a file at the path short."""
        with _gate.salvage():
            if not self._still_damaged():
                return  # another session salvaged it while this one waited
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            new = self.path.with_name(f"{self.path.name}.salvaging-{stamp}")
            try:
                result = salvage(self.path, new, _TABLES)
            except (sqlite3.Error, OSError) as salvage_err:
                log.warning("history %s: salvage failed: %r", self.path, salvage_err)
                new.unlink(missing_ok=True)
                result = Salvaged(readable=False)
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            try:
                for suffix in ("", "-wal", "-shm"):
                    part = Path(f"{self.path}{suffix}")
                    if part.exists():
                        part.rename(f"{aside}{suffix}")
                if new.exists():
                    new.replace(self.path)
            except OSError as move_err:
                new.unlink(missing_ok=True)
                raise HistoryError(
                    msg(
                        "The history file {file} is damaged and cannot be moved aside ({reason}): "
                        "move or delete it yourself or set KINGDOMINO_DB to another file.",
                        file=str(self.path),
                        reason=_reason(move_err),
                    )
                ) from None
            _checked.discard(self.path)
            _notices[self.path] = _salvage_notice(aside.name, result)
            log.warning("history %s was damaged (%s): %s", self.path, err, _notices[self.path])

    def _still_damaged(self) -> bool:
        """Whether the file at the path is (still) damaged; inside the salvage, so not gated."""
        db = self._open()
        try:
            return db.execute("PRAGMA quick_check(1)").fetchone() != ("ok",)
        except sqlite3.DatabaseError:
            return True
        finally:
            db.close()

    def _error(self, err: Exception, action: Message) -> HistoryError:
        """``action``: the clause saying what failed ("Could not save the game"), a whole clause
        so that no translator has to fit a verb into someone else's sentence."""
        code = _code(err) if isinstance(err, sqlite3.Error) else None
        file, folder = str(self.path), str(self.path.parent)
        if self.read_only_folder:
            return HistoryError(
                msg(
                    "{failed}: saving needs the folder {folder} to be writable (SQLite keeps a "
                    "journal beside the history file). Make it writable or set KINGDOMINO_DB to "
                    "another file; the saved games can still be opened.",
                    failed=action,
                    folder=folder,
                )
            )
        if code == sqlite3.SQLITE_READONLY:
            return HistoryError(
                msg(
                    "{failed}: the history file {file} is read-only. Make it writable or set "
                    "KINGDOMINO_DB to another file, then try again.",
                    failed=action,
                    file=file,
                )
            )
        if code in _BUSY:
            return HistoryError(
                msg("{failed}: the history is busy with another save. Try again.", failed=action)
            )
        if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH) or (
            isinstance(err, PermissionError)
        ):
            return HistoryError(
                msg(
                    "{failed}: the history file {file} cannot be opened or created ({reason}). "
                    "Check that you may write to its folder or set KINGDOMINO_DB to another file.",
                    failed=action,
                    file=file,
                    reason=_reason(err),
                )
            )
        if code == sqlite3.SQLITE_FULL:
            return HistoryError(
                msg("{failed}: the disk is full. Free some space and retry.", failed=action)
            )
        if code in _CORRUPT:
            return HistoryError(
                msg(
                    "{failed}: the history file {file} is damaged. Move it away or set "
                    "KINGDOMINO_DB to another file.",
                    failed=action,
                    file=file,
                )
            )
        return HistoryError(
            msg(
                "{failed} in the history file {file} ({reason}). Try again.",
                failed=action,
                file=file,
                reason=_reason(err),
            )
        )


def _keep_private(path: Path) -> None:
    """The history file holds the players' names and photos, and the secret that signs draft
    addresses (``games.drafts``): only its owner may read it. A new file is made so before
    SQLite opens it (SQLite gives its -wal, -shm and -journal files the file's own mode), and
    a file or companion readable by others is tightened to its owner's part of the mode."""
    with suppress(OSError):  # there already, or the folder refuses it: opening says why
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for suffix in ("", *COMPANIONS):
        part = Path(f"{path}{suffix}")
        try:
            mode = stat.S_IMODE(part.stat().st_mode)
            if mode & 0o077 and part.is_file():
                part.chmod(mode & 0o700)
        except OSError:
            pass  # not there, or not ours to change (another user's, immutable): left as it is


def _salvage_notice(aside: str, result: Salvaged) -> Message:
    """What the user is told about a salvaged file: how many games came through, which did not."""
    if not result.readable:
        return msg(
            "The history file was damaged beyond reading, so it was kept aside as {file} "
            "(never written to again) and a new, empty history was started.",
            file=aside,
        )
    parts = [
        nmsg(
            "The history file was damaged: {n} saved game could still be read and was recovered "
            "into a new file; the damaged one is kept aside as {file} (never written to again).",
            "The history file was damaged: {n} saved games could still be read and were "
            "recovered into a new file; the damaged one is kept aside as {file} (never written "
            "to again).",
            result.games,
            n=result.games,
            file=aside,
        )
    ]
    if result.lost_games:
        parts.append(msg("Lost: {games}.", games=_lost_games_text(result)))
    photos = [photo for photo in result.lost_photos if photo is None or photo[0] in result.saved_at]
    if photos:
        named = [
            msg("{player}'s in game {number}", player=player, number=str(game))
            for game, player in filter(None, photos)
        ][:5]
        if named:
            parts.append(
                nmsg(
                    "{n} photo could not be read ({photos}); those games open without them.",
                    "{n} photos could not be read ({photos}); those games open without them.",
                    len(photos),
                    n=len(photos),
                    photos=Joined(tuple(named), ", "),
                )
            )
        else:
            parts.append(
                nmsg(
                    "{n} photo could not be read; those games open without them.",
                    "{n} photos could not be read; those games open without them.",
                    len(photos),
                    n=len(photos),
                )
            )
    if "games" in result.cut_short:
        parts.append(msg("Games saved after the last one recovered may be lost too."))
    if "photos" in result.cut_short:
        parts.append(
            msg("Some photos could not be reached and may be lost; games open without them.")
        )
    if result.lost_rows or set(result.cut_short) - {"games", "photos"}:
        parts.append(msg("Part of the games in progress could not be read either."))
    return joined(parts)


def _lost_games_text(result: Salvaged) -> Joined:
    """The lost games by number, each run with when it was saved (between its readable
    neighbours), e.g. 'games 41 to 47 (saved between 2026-03-02 10:04 and 2026-03-03 18:30)'."""
    runs: list[list[int]] = []
    for game_id in sorted(result.lost_games):
        if runs and game_id == runs[-1][-1] + 1:
            runs[-1].append(game_id)
        else:
            runs.append([game_id])
    texts = []
    for run in runs[:5]:
        before = [result.saved_at[i] for i in result.saved_at if i < run[0]]
        after = [result.saved_at[i] for i in result.saved_at if i > run[-1]]
        numbers = (
            msg("game {number}", number=str(run[0]))
            if len(run) == 1
            else msg("games {first} to {last}", first=str(run[0]), last=str(run[-1]))
        )
        if before and after:
            texts.append(
                msg(
                    "{games} (saved after {after} and before {before})",
                    games=numbers,
                    after=_short_time(max(before)),
                    before=_short_time(min(after)),
                )
            )
        elif before:
            texts.append(
                msg("{games} (saved after {after})", games=numbers, after=_short_time(max(before)))
            )
        elif after:
            texts.append(
                msg(
                    "{games} (saved before {before})", games=numbers, before=_short_time(min(after))
                )
            )
        else:
            texts.append(numbers)
    if len(runs) > 5:
        more = sum(map(len, runs[5:]))
        texts.append(nmsg("{n} more game", "{n} more games", more, n=more))
    return Joined(tuple(texts), ", ")


def _short_time(saved_at: str) -> str:
    return _when(saved_at).strftime("%Y-%m-%d %H:%M")


def _code(err: sqlite3.Error) -> int | None:
    """SQLite's primary result code (``SQLITE_BUSY`` ...), without the extended bits."""
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _reason(err: Exception) -> str:
    if isinstance(err, OSError) and err.strerror:
        return err.strerror.lower()
    return str(err) or type(err).__name__


def _when(text: object) -> datetime:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return datetime.fromtimestamp(0, UTC)
