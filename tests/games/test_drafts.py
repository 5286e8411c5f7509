"""Drafts of the game in progress, in the history's database file."""

import pytest

from games.drafts import DraftStore, is_draft_id
from games.history import GameHistory


def test_a_draft_round_trips_with_its_images(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
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
    assert store.load(store.new_id()) is None
    assert store.load("../etc/passwd") is None and not is_draft_id("x" * 100)


def test_drafts_share_the_file_with_the_history_and_can_be_deleted(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    store.save(draft_id, {"images": []})
    assert GameHistory(tmp_path / "games.db").list() == []  # the history is untouched
    store.delete(draft_id)
    assert store.load(draft_id) is None


def test_only_ids_this_file_issued_can_hold_a_draft(tmp_path):
    """A made-up id of the right shape (a planted address) is refused; an issued one is ours."""
    store = DraftStore(tmp_path / "games.db")
    made_up = "ChosenByMe" + "x" * 22
    assert is_draft_id(made_up) and not store.issued(made_up)
    with pytest.raises(ValueError, match="not a draft id this file issued"):
        store.save(made_up, {"images": []})
    assert store.load(made_up) is None
    issued = store.new_id()
    assert store.issued(issued) and DraftStore(tmp_path / "games.db").issued(issued)
    assert not DraftStore(tmp_path / "other.db").issued(issued)  # another server's secret
    tampered = issued[:-1] + ("A" if issued[-1] != "A" else "B")
    assert not store.issued(tampered)
