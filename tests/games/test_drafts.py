"""Drafts of the game in progress, in the history's database file."""

from games.drafts import DraftStore, is_draft_id, new_draft_id
from games.history import GameHistory


def test_a_draft_round_trips_with_its_images(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = new_draft_id()
    assert is_draft_id(draft_id)
    store.save(draft_id, {"boards": {"5_0": "C"}, "images": ["a", "b"]}, {"a": b"A", "b": b"B"})
    state, images = store.load(draft_id)
    assert state["boards"] == {"5_0": "C"} and images == {"a": b"A", "b": b"B"}
    assert store.stored_images(draft_id) == {"a", "b"}

    # An image no longer referred to goes; one already stored need not be sent again.
    store.save(draft_id, {"images": ["b"]}, {})
    assert store.load(draft_id)[1] == {"b": b"B"}


def test_unknown_or_malformed_ids_load_nothing(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    assert store.load(new_draft_id()) is None
    assert store.load("../etc/passwd") is None and not is_draft_id("x" * 100)


def test_drafts_share_the_file_with_the_history_and_can_be_deleted(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = new_draft_id()
    store.save(draft_id, {"images": []})
    assert GameHistory(tmp_path / "games.db").list() == []  # the history is untouched
    store.delete(draft_id)
    assert store.load(draft_id) is None
