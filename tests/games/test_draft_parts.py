"""A draft shared by every phone at a table: parts, versions, and two writers at once."""

import threading

from games.draft_parts import (
    GAME,
    VIEW,
    PartVersion,
    changes_since,
    join_parts,
    kingdom_part,
    split_parts,
)
from games.drafts import DraftStore
from tests.app_boards import BOARD_51

BLANK = "\n".join([". . . . ."] * 2 + [". . C . ."] + [". . . . ."] * 2)


def _snapshot(**boards):
    return {
        "widgets": {
            "setup_count": 2,
            "setup_name_0": "Anna",
            "setup_language": "pl",
            "kingdom_shown": 1,
            "text_5_0": "",
        },
        "flags": {},
        "boards": boards,
        "undo": {},
        "readings": {},
        "photos": {0: {"id": "p", "name": "a.jpg", "image": "img0", "corners": None}},
        "finished_rounds": [],
        "finished_photos": [],
        "images": ["img0"],
    }


def test_a_snapshot_splits_into_the_game_the_view_and_each_kingdom_and_joins_back():
    parts = split_parts(_snapshot(**{"5_0": BOARD_51, "5_1": BLANK}))
    assert parts[GAME]["widgets"] == {"setup_count": 2, "setup_name_0": "Anna"}
    # The language picked is one screen's: a phone at the table keeps its player's own.
    assert parts[VIEW]["widgets"] == {"setup_language": "pl", "kingdom_shown": 1, "text_5_0": ""}
    assert parts[kingdom_part(0)]["boards"] == {"5_0": BOARD_51}
    assert parts[kingdom_part(0)]["images"] == ["img0"]
    assert kingdom_part(1) not in parts  # a blank kingdom has nothing to share
    joined = join_parts(parts)
    assert joined["boards"] == {"5_0": BOARD_51} and joined["photos"]["0"]["image"] == "img0"
    assert joined["images"] == ["img0"] and joined["widgets"]["setup_name_0"] == "Anna"
    assert "finished_rounds" not in join_parts({kingdom_part(0): parts[kingdom_part(0)]})


def _kingdom(text, slot=0):
    return {"boards": {f"5_{slot}": text}, "images": []}


def test_two_writers_of_one_kingdom_the_last_wins_and_the_first_learns_it(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    anna = kingdom_part(0)
    first = store.save_parts(draft_id, {anna: _kingdom(BLANK)}, {}, "phone-a")
    assert first.replaced == () and first.versions[anna] == first.version == 1

    # Phone B, which saw version 1, changes the kingdom; then phone A, which saw version 1 too.
    second = store.save_parts(draft_id, {anna: _kingdom(BOARD_51)}, {anna: 1}, "phone-b")
    assert second.replaced == () and second.version == 2
    third = store.save_parts(draft_id, {anna: _kingdom("C")}, {anna: 1}, "phone-a")
    assert third.replaced == (anna,)  # A is told it replaced B's change unseen
    assert third.before == 2  # ... and that the draft changed since it last looked
    stored = store.load_parts(draft_id)
    assert stored.parts[anna]["boards"]["5_0"] == "C"  # the last change wins
    assert stored.versions[anna] == PartVersion(3, "phone-a", 1)

    # B learns its kingdom changed elsewhere, and that its own change was lost there.
    [change] = changes_since(stored.versions, known={anna: 2}, own={anna: 2})
    assert change.part == anna and change.replaced_own and change.unseen
    # A, which wrote it last, has nothing to take; a watcher that wrote nothing takes it quietly.
    assert changes_since(stored.versions, known={anna: 3}, own={anna: 3}) == []
    [quiet] = changes_since(stored.versions, known={anna: 2}, own={})
    assert not quiet.replaced_own


def test_a_change_made_on_top_of_mine_is_told_but_was_not_unseen(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    anna = kingdom_part(0)
    store.save_parts(draft_id, {anna: _kingdom(BOARD_51)}, {}, "phone-a")
    store.save_parts(draft_id, {anna: _kingdom("C")}, {anna: 1}, "phone-b")
    [change] = changes_since(store.load_parts(draft_id).versions, {anna: 1}, {anna: 1})
    assert change.replaced_own and not change.unseen


def test_a_pending_change_here_is_not_overwritten_by_the_stored_one():
    versions = {GAME: PartVersion(4, "phone-b", 3)}
    assert changes_since(versions, {GAME: 3}, {GAME: 3}, pending={GAME}) == []


def test_writers_of_different_parts_keep_each_others_parts_and_the_view_bumps_nothing(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    store.save_parts(draft_id, {GAME: {"widgets": {"setup_count": 2}, "images": []}}, {}, "host")
    store.save_parts(draft_id, {kingdom_part(1): _kingdom(BOARD_51, 1)}, {}, "phone")
    assert store.version(draft_id) == 2
    store.save_parts(draft_id, {VIEW: {"widgets": {"kingdom_shown": 1}, "images": []}}, {}, "host")
    assert store.version(draft_id) == 2  # nothing another screen must draw again
    state, _ = store.load(draft_id)
    assert state["widgets"] == {"setup_count": 2, "kingdom_shown": 1}
    assert state["boards"] == {"5_1": BOARD_51}


def test_images_stay_while_a_part_refers_to_them(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    with_photo = {"photos": {"0": {"image": "img0"}}, "images": ["img0"]}
    store.save_parts(draft_id, {kingdom_part(0): with_photo}, {}, "a", {"img0": b"JPEG"})
    store.save_parts(draft_id, {kingdom_part(1): _kingdom(BOARD_51, 1)}, {}, "b")
    assert store.load_parts(draft_id).images == {"img0": b"JPEG"}
    store.save_parts(draft_id, {kingdom_part(0): {"images": []}}, {kingdom_part(0): 1}, "a")
    assert store.load_parts(draft_id).images == {}


def test_a_draft_saved_whole_reads_as_parts_at_version_zero(tmp_path):
    store = DraftStore(tmp_path / "games.db")
    draft_id = store.new_id()
    store.save(draft_id, _snapshot(**{"5_0": BOARD_51}))
    stored = store.load_parts(draft_id)
    assert stored.versions == {} and stored.parts[kingdom_part(0)]["boards"] == {"5_0": BOARD_51}


def test_many_writers_at_once_lose_no_part(tmp_path):
    """Sessions are threads of one process (and processes): each read-and-write is one
    transaction, so every writer's part is in the draft afterwards."""
    path = tmp_path / "games.db"
    draft_id = DraftStore(path).new_id()
    DraftStore(path).save_parts(draft_id, {GAME: {"widgets": {}, "images": []}}, {}, "host")

    def write(slot):
        store = DraftStore(path)
        for round_ in range(5):
            part = {"boards": {f"5_{slot}": f"C{round_}"}, "images": []}
            store.save_parts(draft_id, {kingdom_part(slot): part}, {}, f"phone-{slot}")

    threads = [threading.Thread(target=write, args=(slot,)) for slot in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store = DraftStore(path)
    stored = store.load_parts(draft_id)
    assert {name for name in stored.parts if name.startswith("kingdom_")} == {
        kingdom_part(slot) for slot in range(4)
    }
    assert store.version(draft_id) == 1 + 4 * 5  # every write counted once
