"""A new game started at a table keeps the game it cleared, for every screen to put back (issue
55, item 4): the pure rules (``games.new_game``) and the store's write transactions (the host
starts, any screen at the table puts back)."""

import pytest

from games.draft_parts import GAME, PREVIOUS, join_parts, kingdom_part
from games.drafts import DraftStore, Guest
from games.new_game import NEW_GAME, PUT_BACK, STARTED, GameSwap, entered, put_back, start
from tests.app_boards import BOARD_51, FOREST_16


def _game(*names: str, **extra) -> dict:
    widgets = {"setup_count": len(names), "setup_middle_kingdom": True}
    widgets |= {f"setup_name_{slot}": name for slot, name in enumerate(names)}
    return {"widgets": widgets, "flags": {"saved_code": "x"}, "images": []} | extra


def _kingdom(slot: int, text: str, image: str | None = None) -> dict:
    part: dict = {"boards": {f"5_{slot}": text}, "images": []}
    if image:
        part["photos"] = {str(slot): {"id": "p", "name": "a.jpg", "image": image}}
        part["images"] = [image]
    return part


def _table() -> dict[str, dict]:
    """Anna's kingdom read from a photo, Ben's typed, a Dynasty game over."""
    game = _game("Anna", "Ben", finished_rounds=[[BOARD_51, FOREST_16]], finished_photos=[])
    return {
        GAME: game,
        kingdom_part(0): _kingdom(0, BOARD_51, image="img-anna"),
        kingdom_part(1): _kingdom(1, FOREST_16),
    }


def _after(parts: dict, changed: dict | None) -> dict:
    assert changed is not None
    return {**parts, **changed}


def test_a_new_game_keeps_the_cleared_game_whole_and_says_so():
    table = _table()
    after = _after(table, start(table, "s1", "host", 7))
    assert not entered(after)
    assert after[GAME]["widgets"] == table[GAME]["widgets"]  # the same players and rules
    assert after[GAME]["finished_rounds"] == [] and "saved_code" not in after[GAME]["flags"]
    assert after[kingdom_part(0)] == after[kingdom_part(1)] == {"images": []}
    assert after[PREVIOUS]["parts"] == table  # setup, finished games, kingdoms, photo
    assert after[PREVIOUS]["images"] == ["img-anna"]  # kept in the draft with the game
    assert join_parts(after)["images"] == ["img-anna"]
    assert GameSwap.from_data(after[GAME]["flags"][NEW_GAME]) == GameSwap("s1", STARTED, "host", 7)


def test_putting_back_restores_the_previous_game_when_nothing_new_was_entered():
    table = _table()
    after = _after(table, start(table, "s1", "host", 7))
    assert put_back(after, "s2", "phone", 8, asked="other") is None  # not the game kept now
    back = _after(after, put_back(after, "s2", "phone", 8, asked="s1"))
    assert back[GAME] == table[GAME] and back[kingdom_part(0)] == table[kingdom_part(0)]
    assert back[kingdom_part(1)] == table[kingdom_part(1)]
    assert back[PREVIOUS] == {"images": []}  # the empty new game is not kept: nothing to tell
    assert put_back(back, "s3", "phone", 9, asked="s1") is None


def test_putting_back_over_new_entries_keeps_those_in_turn():
    table = _table()
    after = _after(table, start(table, "s1", "host", 7))
    after[kingdom_part(1)] = _kingdom(1, BOARD_51)  # Ben enters the new game's kingdom
    back = _after(after, put_back(after, "s2", "phone", 8, asked="s1"))
    assert back[kingdom_part(1)] == table[kingdom_part(1)]
    assert back[PREVIOUS]["parts"][kingdom_part(1)] == _kingdom(1, BOARD_51)
    swap = GameSwap.from_data(back[GAME]["flags"][NEW_GAME])
    assert swap == GameSwap("s2", PUT_BACK, "phone", 8)
    again = _after(back, put_back(back, "s3", "host", 9, asked="s2"))  # and back again
    assert again[kingdom_part(1)] == _kingdom(1, BOARD_51)
    assert again[kingdom_part(0)] == {"images": []}


def test_a_second_new_game_with_nothing_entered_keeps_the_first_game():
    table = _table()
    after = _after(table, start(table, "s1", "host", 7))
    twice = _after(after, start(after, "s2", "host", 8))
    assert twice[PREVIOUS]["parts"] == table
    assert GameSwap.from_data(twice[GAME]["flags"][NEW_GAME]).id == "s1"


@pytest.fixture
def table(tmp_path):
    """A stored game of Anna and Ben with both kingdoms entered, and a phone in Ben's seat."""
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    parts = _table()
    parts[kingdom_part(0)] = _kingdom(0, BOARD_51)  # no image: the store has none to keep
    store.save_parts(draft_id, parts, {}, "host")
    key = "ben-key"
    store.take_seat(draft_id, 1, key, "phone")
    return store, draft_id, parts, Guest(1, key)


def test_only_the_host_starts_a_new_game_and_any_screen_puts_it_back(table):
    store, draft_id, parts, guest = table
    assert not store.new_game(draft_id, "phone", None)  # a phone has no host's key
    assert not store.new_game(draft_id, "phone", "made-up")
    assert store.load_parts(draft_id).parts[kingdom_part(1)] == parts[kingdom_part(1)]
    # Nor can a phone clear the others' kingdoms or the finished games through its writes.
    saved = store.save_parts(
        draft_id, {GAME: _game("Anna", "Ben"), kingdom_part(0): {"images": []}}, {}, "phone",
        guest=guest,
    )  # fmt: skip
    assert set(saved.refused) == {GAME, kingdom_part(0)}

    before = store.version(draft_id)
    assert store.new_game(draft_id, "host", store.host_key(draft_id))
    stored = store.load_parts(draft_id)
    assert store.version(draft_id) == before + 1  # every screen looks again
    assert stored.parts[kingdom_part(1)] == {"images": []}
    assert stored.parts[PREVIOUS]["parts"][kingdom_part(1)] == parts[kingdom_part(1)]
    swap = GameSwap.from_data(stored.parts[GAME]["flags"][NEW_GAME])
    assert swap.by == "host" and swap.version == before + 1
    assert stored.versions[kingdom_part(1)].version == swap.version
    assert stored.seats.holds(1, guest.key)  # the phones keep their seats

    assert not store.put_back_game(draft_id, "phone", "not-this-one")
    assert store.put_back_game(draft_id, "phone", swap.id)
    stored = store.load_parts(draft_id)
    for name in (GAME, kingdom_part(0), kingdom_part(1)):
        assert stored.parts[name] == parts[name]
