"""The SQLite history: saved games come back as they were, survive a reopen, and can be deleted."""

from games.editing import blank_board
from games.history import GameHistory, default_db_path
from games.model import Game, GameSetup


def _game(names=("Anna", "Ben")) -> Game:
    return Game(GameSetup(names), ((blank_board(5),) * len(names),))


def test_save_list_load_delete_and_survive_reopening(tmp_path):
    path = tmp_path / "sub" / "games.db"
    history = GameHistory(path)
    first = history.save(_game(), "Anna 0 · Ben 0")
    second = history.save(_game(("Cleo", "Dan", "Eve")), "Cleo 0 · Dan 0 · Eve 0")

    reopened = GameHistory(path)
    assert [g.id for g in reopened.list()] == [second, first]
    assert reopened.load(first) == _game()
    reopened.delete(first)
    assert [g.summary for g in GameHistory(path).list()] == ["Cleo 0 · Dan 0 · Eve 0"]


def test_database_path_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KINGDOMINO_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("KINGDOMINO_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "kingdomino" / "games.db"


def test_photos_are_kept_with_their_game_and_deleted_with_it(tmp_path):
    history = GameHistory(tmp_path / "games.db")
    game = Game(GameSetup(("Anna", "Ben"), dynasty=True), ((blank_board(5),) * 2,) * 2)
    photos = [{"Anna": b"jpeg of game 1"}, {"Anna": b"jpeg A2", "Ben": b"jpeg B2"}]
    kept = history.save(game, "Dynasty", photos)
    other = history.save(_game(), "no photos")
    assert GameHistory(tmp_path / "games.db").photos(kept) == photos
    assert history.photos(other) == []
    history.delete(kept)
    assert history.photos(kept) == []
