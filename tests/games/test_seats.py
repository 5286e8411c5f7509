"""Seats at a table of phones, checked where the draft is written (issue 55, item 6): a phone
edits its own kingdom; names, rules and the number of players are the host's; a seat another
phone holds cannot be taken, and the host gives it free."""

import pytest

from games.draft_parts import GAME, kingdom_part
from games.drafts import DraftStore, Guest
from games.removals import REMOVED, Removal
from games.seats import SeatError, Seats, guest_parts, new_seat_key, sit


def _game(*names: str, **flags) -> dict:
    widgets = {"setup_count": len(names), "setup_middle_kingdom": True}
    widgets |= {f"setup_name_{slot}": name for slot, name in enumerate(names)}
    return {"widgets": widgets, "flags": dict(flags), "images": []}


def _kingdom(text: str = "C") -> dict:
    return {"boards": {"5_0": text}, "images": []}


@pytest.fixture
def table(tmp_path):
    """A stored game of Anna and Ben, with the host's parts written."""
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    store.save_parts(draft_id, {GAME: _game("Anna", "Ben")}, {}, "host")
    return store, draft_id


def test_the_hosts_key_is_signed_and_cannot_be_made_from_the_address(table):
    store, draft_id = table
    key = store.host_key(draft_id)
    assert store.is_host(draft_id, key)
    assert not store.is_host(draft_id, None) and not store.is_host(draft_id, "")
    assert not store.is_host(draft_id, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert not store.is_host(store.new_id(), key)  # another game's host
    assert not DraftStore(store._history.path.parent / "other.db").is_host(draft_id, key)


def test_a_seat_another_phone_holds_cannot_be_taken_until_the_host_gives_it_free(table):
    store, draft_id = table
    anna, intruder = new_seat_key(), new_seat_key()
    assert store.take_seat(draft_id, 0, anna, "anna") == 0
    assert store.seats(draft_id).holds(0, anna)
    with pytest.raises(SeatError, match="Anna's seat is taken by another phone"):
        store.take_seat(draft_id, 0, intruder, "intruder")
    assert store.take_seat(draft_id, 0, anna, "anna") == 0  # a reload of Anna's own phone
    before = store.version(draft_id)
    store.release_seat(draft_id, 0, key=intruder)  # not the intruder's to give
    assert store.seats(draft_id).holds(0, anna)
    store.release_seat(draft_id, 0)  # the host
    assert store.version(draft_id) > before  # every screen redraws its seats
    assert store.take_seat(draft_id, 0, intruder, "intruder") == 0
    assert not store.seats(draft_id).holds(0, anna)


def test_a_phone_holds_one_seat_and_a_seat_outside_the_game_is_refused(table):
    store, draft_id = table
    key = new_seat_key()
    store.take_seat(draft_id, 0, key, "phone")
    store.take_seat(draft_id, 1, key, "phone")
    seats = store.seats(draft_id)
    assert seats.holds(1, key) and not seats.taken(0)
    with pytest.raises(SeatError, match="no longer in the game"):
        store.take_seat(draft_id, 3, new_seat_key(), "other")


def test_a_phone_adds_itself_as_a_new_player_and_holds_that_seat(table):
    store, draft_id = table
    key = new_seat_key()
    assert store.take_seat(draft_id, None, key, "carla", name="Carla") == 2
    game = store.load_parts(draft_id).parts[GAME]["widgets"]
    assert game["setup_count"] == 3 and game["setup_name_2"] == "Carla"
    assert game["setup_middle_kingdom"] is True  # the host's rules as they were
    assert store.seats(draft_id).holds(2, key)
    with pytest.raises(SeatError, match="names must be different|Anna"):
        store.take_seat(draft_id, None, new_seat_key(), "x", name="Anna")


def test_a_phone_writes_only_its_own_kingdom_never_the_hosts_setup(table):
    store, draft_id = table
    key = new_seat_key()
    store.take_seat(draft_id, 1, key, "ben")
    renamed = _game("Anna", "Benjamin")
    renamed["widgets"]["setup_middle_kingdom"] = False
    saved = store.save_parts(
        draft_id,
        {kingdom_part(1): _kingdom("L1"), kingdom_part(0): _kingdom("W1"), GAME: renamed},
        {},
        "ben",
        guest=Guest(1, key),
    )
    assert set(saved.refused) == {kingdom_part(0), GAME}
    parts = store.load_parts(draft_id).parts
    assert parts[kingdom_part(1)] == _kingdom("L1")
    assert kingdom_part(0) not in parts
    assert parts[GAME] == _game("Anna", "Ben")

    # A phone that claims a seat it does not hold (an address edited by hand) writes nothing.
    saved = store.save_parts(
        draft_id, {kingdom_part(0): _kingdom("W1")}, {}, "x", guest=Guest(0, new_seat_key())
    )
    assert saved.refused == (kingdom_part(0),)
    assert kingdom_part(0) not in store.load_parts(draft_id).parts


def test_a_phone_may_put_back_players_the_host_took_out_and_nothing_else():
    removal = Removal("r1", 3, ((2, "Carla"),)).to_data()
    stored = _game("Anna", "Ben", **{REMOVED: removal})
    stored["widgets"]["setup_name_2"] = "Carla"
    put_back = _game("Anna", "Ben")
    put_back["widgets"] |= {"setup_count": 3, "setup_name_2": "Carla"}
    allowed, refused = guest_parts({GAME: put_back}, stored, Seats(), None, None)
    assert refused == () and allowed[GAME]["widgets"]["setup_count"] == 3
    assert REMOVED not in allowed[GAME]["flags"]

    renamed = put_back | {"widgets": put_back["widgets"] | {"setup_count": 4}}
    assert guest_parts({GAME: renamed}, stored, Seats(), None, None)[1] == (GAME,)
    # With no removal to put back, the count is the host's.
    assert guest_parts({GAME: put_back}, _game("Anna", "Ben"), Seats(), None, None)[1] == (GAME,)


def test_a_player_cannot_be_added_where_a_removed_kingdom_is_kept():
    removal = Removal("r1", 3, ((2, "Carla"),)).to_data()
    with pytest.raises(SeatError, match="Carla was taken out of the game"):
        sit(_game("Anna", "Ben", **{REMOVED: removal}), Seats(), None, "k", name="Dora")
