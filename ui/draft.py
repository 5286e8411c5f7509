"""The game in progress survives a reload: the page's session state as a draft (``games.drafts``).

The draft's id is in the URL (``?draft=...``). At the top of the score page ``restore`` fills an
empty session from the draft named there; at the end of every run ``save`` writes what changed.
Photos are stored as JPEG once each (keyed by their content); the rest is plain JSON.

Every phone at a table may have the same draft open (docs/multiplayer.md). So a session writes
only the parts of the draft it changed (``games.draft_parts``), and ``pull`` takes in, at the top
of a run, the parts another session wrote since: the kingdoms entered on other phones show here.
When a part this session had written is replaced elsewhere, what it held is kept for the user to
put back (``conflicts``, ``put_back``): the last change wins, and nothing entered here is lost
without a message.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import sqlite3
from dataclasses import dataclass

import numpy as np
import streamlit as st

from games.draft_parts import (
    GAME,
    PREVIOUS,
    VIEW,
    Change,
    changes_since,
    join_parts,
    kingdom_slot,
    split_parts,
)
from games.drafts import DraftStore, Guest, SavedParts, is_draft_id
from games.editing import blank_board
from games.history import HistoryError, default_db_path
from games.new_game import NEW_GAME, GameSwap
from games.new_game import put_back as put_back_kept
from games.new_game import start as start_game
from games.removals import REMOVED
from games.seats import SeatError, Seats, new_seat_key
from scoring import Terrain, parse_board
from scoring.words import from_data, to_data
from ui import state
from ui.language import CHOSEN, N_, _, say
from ui.text import escape_markdown

DRAFT_PARAM = "draft"
HOST_PARAM = "host"  # the host's key (games.drafts.DraftStore.host_key), in the host's address
# Widget values that are plain JSON (names, toggles, choices, board text, whose kingdom is open),
# and the brush each player last painted with.
_WIDGET_PREFIXES = ("setup_", "source_", "text_", "brush_crowns_", "kingdom_shown")
# The game's flags (in its part of the draft): REMOVED tells every screen of players taken out,
# NEW_GAME of a new game started (or the previous one put back) with the other game kept.
_FLAGS = ("size_by_hand", "size_notice", "size_question", "saved_code", REMOVED, NEW_GAME)
_SIZES = (5, 7)
_SLOTS = range(4)


def keep_in_address(shared_view: bool) -> None:
    """On every page: the draft's id (and the host's key, on the host's page) stays in the
    address; a new session opened on another page notes them, for the score page to restore.
    Not in a shared game's view: a link passed on must not carry the sender's game in progress."""
    if shared_view:
        return
    if st.session_state.get("draft_id") is not None:
        _address_keys()
    elif "draft_id" not in st.session_state and is_draft_id(st.query_params.get(DRAFT_PARAM)):
        st.session_state["draft_wanted"] = st.query_params[DRAFT_PARAM]
        st.session_state["draft_host_wanted"] = st.query_params.get(HOST_PARAM)


def _address_keys() -> None:
    """The draft's id in the address, and the host's key on the host's page (a reload then
    finds the host again; a phone never has it)."""
    session = st.session_state
    if st.query_params.get(DRAFT_PARAM) != session["draft_id"]:
        st.query_params[DRAFT_PARAM] = session["draft_id"]
    host_key = session.get("draft_host")
    if host_key and st.query_params.get(HOST_PARAM) != host_key:
        st.query_params[HOST_PARAM] = host_key


def is_host() -> bool:
    """Whether this page is the host of its game (it started it, or holds the host's key)."""
    return bool(st.session_state.get("draft_host"))


def restore() -> None:
    """Once per browser session: take the draft named in the URL, or start a new one.

    A page that starts a game is its host, and gets the host's key in its address; a page that
    opens a game without that key (the invite, or any copy of the address) joins the table as a
    phone, whatever else its address says: it leaves the host's view (what is open) out, and
    what it may change is checked where the draft is written (``games.seats``)."""
    if "draft_id" in st.session_state:
        if st.session_state["draft_id"] is not None:  # else the file cannot hold drafts
            _address_keys()  # after another page
        return
    # The address names the draft; after a page switch it may not, but the session noted it.
    wanted = st.query_params.get(DRAFT_PARAM) or st.session_state.pop("draft_wanted", None)
    host_key = st.query_params.get(HOST_PARAM) or st.session_state.pop("draft_host_wanted", None)
    try:
        store = DraftStore()
        # Only a stored draft is opened: a made-up id, or one issued but never used, is never
        # taken over, so nothing can be planted at an address (games.drafts).
        found = store.load_parts(wanted) if is_draft_id(wanted) else None
        version = store.version(wanted) if found is not None else 0
        draft_id = wanted if found is not None else store.new_id()
        made_up = wanted is not None and found is None and not store.issued(wanted)
        hosting = found is None or store.is_host(draft_id, host_key)
        host_key = store.host_key(draft_id) if hosting else None
    except (HistoryError, sqlite3.Error) as err:
        _unavailable(err)
        return
    joining = not hosting
    st.session_state["draft_id"] = draft_id
    st.session_state["draft_writer"] = secrets.token_urlsafe(9)  # this browser session
    st.session_state["draft_known"] = {}  # part → the version this session last wrote or took
    st.session_state["draft_own"] = {}  # part → the version this session wrote itself
    st.session_state["draft_base"] = {}  # part → its content as last written or taken
    st.session_state["draft_version"] = version
    st.session_state["draft_joined"] = joining
    st.session_state["draft_host"] = host_key
    st.session_state["draft_seats"] = found.seats if found is not None else Seats()
    if joining:
        st.query_params.pop(HOST_PARAM, None)  # a key that is not this game's host's
    _address_keys()
    if made_up:
        st.info(
            _(
                "That address held no game in progress of this app, so a new game was started "
                "at a new address."
            ),
            icon=":material/info:",
        )
    if found is not None:
        language = st.session_state.get(CHOSEN)
        # A phone joining the table takes the game, not what the host's screen has open.
        parts = {name: part for name, part in found.parts.items() if name != VIEW or not joining}
        try:
            _apply(join_parts(parts), found.images)
        except (KeyError, TypeError, ValueError):
            st.warning(
                _(
                    "The game in progress could not be restored from its draft; start it again "
                    "(saved games are still in History)."
                )
            )
        st.session_state["draft_known"] = {n: v.version for n, v in found.versions.items()}
        st.session_state["draft_base"] = split_parts(_snapshot()[0])
        st.session_state["draft_written"] = True
        if st.session_state.get(CHOSEN) != language:
            st.rerun()  # the draft's language: the page so far (its menu too) is in another


def _worth_keeping(snapshot: dict) -> bool:
    """Whether a new page holds anything of the user's yet (an untouched page writes nothing)."""
    from ui.setup import defaults

    changed_setup = any(
        snapshot["widgets"].get(key, value) != value for key, value in defaults().items()
    )
    entered = any(
        parse_board(text) != blank_board(parse_board(text).size)
        for text in snapshot["boards"].values()
    )
    return bool(changed_setup or entered or snapshot["readings"] or snapshot["finished_rounds"])


def _unavailable(err: Exception) -> None:
    """The history file cannot hold the draft: say so once; the game goes on without it."""
    st.session_state["draft_id"] = None
    reason = say(err).rstrip(".")
    st.warning(
        escape_markdown(
            _(
                "This game will not survive a reload: {reason}.",
                reason=f"{reason[:1].lower()}{reason[1:]}",
            )
        ),
        icon=":material/cloud_off:",
    )


def save() -> None:
    """Write the parts of the draft that changed here since they were last written or taken."""
    draft_id = st.session_state.get("draft_id")
    if draft_id is None:
        return
    snapshot, arrays = _snapshot()
    changed = _changed_parts(split_parts(snapshot))
    if st.session_state.get("draft_joined"):
        changed.pop(VIEW, None)  # a joined phone's screen is its own: the host's view stays
    if not changed:
        return
    if not st.session_state.get("draft_written") and not _worth_keeping(snapshot):
        return
    from vision.annotate import jpeg_bytes

    session = st.session_state
    try:
        store = DraftStore()
        if not store.can_hold(draft_id):  # the file was replaced (a damaged one set aside)
            if session.get("draft_joined"):
                return  # the host's game is gone: a phone does not start one of its own here
            draft_id = store.new_id()
            session["draft_id"] = st.query_params[DRAFT_PARAM] = draft_id
            session["draft_host"] = st.query_params[HOST_PARAM] = store.host_key(draft_id)
            session["draft_known"], session["draft_own"] = {}, {}
            changed = split_parts(snapshot)
        stored = store.stored_images(draft_id)
        wanted = {key for part in changed.values() for key in part["images"]}
        new = {k: jpeg_bytes(arrays[k], quality=90) for k in wanted - stored if k in arrays}
        guest = None
        if session.get("draft_joined"):  # what a phone may change is checked as it is written
            guest = Guest(session.get(SEAT), session.get(SEAT_KEY))
        saved = store.save_parts(
            draft_id, changed, session["draft_known"], _writer(), new, guest=guest
        )
    except (HistoryError, sqlite3.Error) as err:
        _unavailable(err)
        return
    _note_saved(changed, saved)
    if guest is not None and (saved.refused or GAME in changed):
        # What the phone could not change (or what the game part became once merged with the
        # host's) is taken from the draft again at the next look.
        for name in (*saved.refused, GAME):
            if name in changed:
                session["draft_base"][name] = changed[name]
                session["draft_known"][name] = 0
                session["draft_own"].pop(name, None)
        session["draft_version"] = None
    if GAME in saved.refused:
        st.toast(_(_HOSTS_ONLY), icon=":material/lock:")
    if saved.replaced:
        st.toast(_(_REPLACED_HERE), icon=":material/sync_problem:")


def _writer() -> str:
    return st.session_state.setdefault("draft_writer", secrets.token_urlsafe(9))


_EMPTY_PART: dict = {"images": []}
_REPLACED_HERE = N_("Your change replaced one just made on another phone; that phone was told.")
_HOSTS_ONLY = N_("Only the host can change the players or the rules; ask the host.")
SEAT = "seat"  # this browser session's player slot (never in the shared draft)
SEAT_KEY = "seat_key"  # ... and its key to that seat (games.seats), also in its tab's address


def seats() -> Seats:
    """The seats the phones hold, as this session last read them from the draft (every change
    of a seat moves the draft's version, so ``pull`` reads them again)."""
    return st.session_state.get("draft_seats") or Seats()


def take_seat(slot: int | None, name: str | None = None) -> int:
    """This phone sits at ``slot`` (or joins as the new player ``name``), checked and written
    at once in the draft; the slot it holds. Raises ``SeatError`` with what to do."""
    session = st.session_state
    draft_id = session.get("draft_id")
    if draft_id is None:
        raise SeatError(_("This game is not kept on this computer; ask the host for a new invite."))
    key = session.setdefault(SEAT_KEY, new_seat_key())
    try:
        store = DraftStore()
        taken = store.take_seat(draft_id, slot, key, _writer(), name)
        session["draft_seats"] = store.seats(draft_id)
    except (HistoryError, sqlite3.Error) as err:
        raise SeatError(say(err)) from err
    session["draft_version"] = None  # look again: the game may have a new player
    return taken


def release_seat(slot: int) -> None:
    """A callback: the host gives a seat free; a phone leaves its own."""
    draft_id = st.session_state.get("draft_id")
    if draft_id is None:
        return
    try:
        store = DraftStore()
        store.release_seat(draft_id, slot, None if is_host() else st.session_state.get(SEAT_KEY))
        st.session_state["draft_seats"] = store.seats(draft_id)
    except (HistoryError, sqlite3.Error, SeatError) as err:
        st.session_state["seat_problem"] = say(getattr(err, "message", err))


def _changed_parts(parts: dict[str, dict]) -> dict[str, dict]:
    """The parts that differ from what this session last wrote or took (a kingdom cleared here
    is an empty part)."""
    base = st.session_state.get("draft_base", {})
    return {
        name: parts.get(name, _EMPTY_PART)
        for name in sorted(parts.keys() | base.keys())
        if parts.get(name, _EMPTY_PART) != base.get(name, _EMPTY_PART)
    }


def _note_saved(changed: dict[str, dict], saved: SavedParts) -> None:
    session = st.session_state
    base = session.setdefault("draft_base", {})
    for name, part in changed.items():
        base[name] = part
        if name in saved.versions:
            session["draft_known"][name] = saved.versions[name]
            session["draft_own"][name] = saved.versions[name]
    if saved.before == session.get("draft_version"):
        # Nothing came from elsewhere in between; else the next look takes that in (``pull``).
        session["draft_version"] = saved.version
    session["draft_written"] = True


@dataclass(frozen=True)
class Kept:
    """What this session held of a part another phone replaced: to put back if the user asks."""

    part: dict
    images: dict[str, np.ndarray]
    unseen: bool  # the other phone changed it without having seen this version


def conflicts() -> dict[str, Kept]:
    """Part → what this session had, for each part of its own replaced on another phone."""
    return st.session_state.setdefault("draft_conflicts", {})


def pull() -> list[Change]:
    """Top of a run, before any widget: take in the parts other sessions wrote since this one
    last looked (one small read when nothing changed). A part with a change of this session's
    own not yet written stays as it is here (this newer change will win when it is written)."""
    session = st.session_state
    draft_id = session.get("draft_id")
    if draft_id is None or "draft_base" not in session:
        return []
    try:
        store = DraftStore()
        version = store.version(draft_id)
        if version is None or version == session.get("draft_version"):
            return []
        stored = store.load_parts(draft_id)
    except (HistoryError, sqlite3.Error):
        return []  # the next run looks again; saving says what is wrong
    if stored is None:
        return []
    session["draft_seats"] = stored.seats
    snapshot, arrays = _snapshot()
    current = split_parts(snapshot)
    pending = set(_changed_parts(current)) - {VIEW}
    changes = changes_since(stored.versions, session["draft_known"], session["draft_own"], pending)
    swap = GameSwap.from_data(stored.parts.get(GAME, {}).get("flags", {}).get(NEW_GAME))
    for change in changes:
        name = change.part
        # The parts a new game (or the previous game put back) replaced are told by its own
        # notice, with the way back (ui.live.new_game_notice), not as another phone's change.
        swapped = swap is not None and stored.versions[name].version == swap.version
        # The setup is told only when this session's change there was lost (a phone adding its
        # player on top of the host's names is the table filling up, not a conflict).
        if change.replaced_own and not swapped and (name != GAME or change.unseen):
            mine = current.get(name, _EMPTY_PART)
            kept = {key: arrays[key] for key in mine["images"] if key in arrays}
            conflicts()[name] = Kept(mine, kept, change.unseen)
        _take_part(name, stored.parts.get(name, _EMPTY_PART), stored.images)
        session["draft_known"][name] = stored.versions[name].version
        session["draft_own"].pop(name, None)
    after = split_parts(_snapshot()[0])
    for change in changes:
        session["draft_base"][change.part] = after.get(change.part, _EMPTY_PART)
    session["draft_version"] = version
    return changes


def changed_elsewhere() -> bool:
    """Whether another session changed the draft since this one last wrote or took it: one
    small read (``DraftStore.version``), for a screen that looks every few seconds."""
    draft_id = st.session_state.get("draft_id")
    if draft_id is None or "draft_base" not in st.session_state:
        return False
    try:
        version = _watching(str(default_db_path())).version(draft_id)
    except (HistoryError, sqlite3.Error):
        return False
    return version is not None and version != st.session_state.get("draft_version")


@functools.lru_cache(maxsize=4)
def _watching(path: str) -> DraftStore:
    """One store per file for the version reads (opening one checks the file's tables)."""
    return DraftStore(path)


def put_back(name: str) -> None:
    """A callback: this session's version of a part replaces the one from another phone (it is
    written at the end of the run, and that phone is told in turn)."""
    kept = conflicts().pop(name, None)
    if kept is not None:
        _take_part(name, kept.part, {}, kept.images)


def keep_theirs(name: str) -> None:
    conflicts().pop(name, None)


def start_new_game() -> None:
    """A callback, the host's: a new game (the same players and rules, no kingdoms) on every
    screen, the game it clears kept in the draft and told on every screen with the way back
    (``games.new_game``). This page takes it in at the top of its next run (``pull``)."""
    draft_id = st.session_state.get("draft_id")
    if draft_id is None:
        _swap_here(lambda parts: start_game(parts, secrets.token_urlsafe(6), _writer(), 0))
        return
    try:
        done = DraftStore().new_game(draft_id, _writer(), st.session_state.get("draft_host"))
    except (HistoryError, sqlite3.Error) as err:
        st.toast(escape_markdown(say(err)), icon=":material/error:")
        return
    if not done:  # no game stored under this page's draft yet: this page alone
        _swap_here(lambda parts: start_game(parts, secrets.token_urlsafe(6), _writer(), 0))
    st.session_state["draft_version"] = None  # look again at once


def put_back_game(asked: str) -> None:
    """A callback, any screen's: the game the notice ``asked`` told of is put back on every
    screen (the game it replaces kept in turn when anything was entered there)."""
    draft_id = st.session_state.get("draft_id")
    if draft_id is None:
        new_id = secrets.token_urlsafe(6)
        _swap_here(lambda parts: put_back_kept(parts, new_id, _writer(), 0, asked))
        return
    try:
        done = DraftStore().put_back_game(draft_id, _writer(), asked)
    except (HistoryError, sqlite3.Error) as err:
        st.toast(escape_markdown(say(err)), icon=":material/error:")
        return
    if not done:
        st.toast(_(_NOT_PUT_BACK), icon=":material/sync_problem:")
    st.session_state["draft_version"] = None


_NOT_PUT_BACK = N_("That game can no longer be put back: it was changed on another screen.")
_KEPT_HERE = "previous_game_here"  # the kept game of a page without a draft: (part, images)


def _swap_here(change) -> None:
    """Without a draft (the file cannot hold one): the same new game or put-back on this
    page alone, the other game kept in this session."""
    session = st.session_state
    snapshot, arrays = _snapshot()
    parts = {n: p for n, p in split_parts(snapshot).items() if n != VIEW}
    kept = session.get(_KEPT_HERE)
    if kept is not None:
        parts[PREVIOUS] = kept[0]
        arrays = {**kept[1], **arrays}
    changed = change(parts)
    if changed is None:
        return
    for name, part in changed.items():
        if name == PREVIOUS:
            session[_KEPT_HERE] = (part, {k: arrays[k] for k in part["images"] if k in arrays})
        else:
            _take_part(name, part, {}, arrays)


def _take_part(name: str, part: dict, images: dict[str, bytes], decoded=None) -> None:
    """Replace a part of the session with ``part`` (before its widgets are drawn)."""
    slot = kingdom_slot(name)
    session = st.session_state
    typing = {}  # size → text typed in its box and not applied yet: it stays the user's
    if slot is not None:
        for size in _SIZES:
            typed = session.get(state.text_key(slot, size))
            if typed and typed != state.board_text(state.board(slot, size)):
                typing[size] = typed
            state.clear_kingdom(slot, size)
    elif name == GAME:
        for key in _FLAGS:
            session.pop(key, None)
        state.finished_rounds().clear()
        state.finished_photos().clear()
    _apply(join_parts({name: part}), images, decoded)
    if slot is not None:
        for size in _SIZES:  # the text box shows the board taken, unless the user is typing
            state.set_board(slot, size, state.board(slot, size))
            if size in typing:
                session[state.text_key(slot, size)] = typing[size]
                state.note_typed(slot, size, typing[size])


def _image_key(image: np.ndarray | None, arrays: dict[str, np.ndarray]) -> str | None:
    """A key for an image, from its content, computed once per array object."""
    if image is None:
        return None
    cache = st.session_state.setdefault("draft_image_keys", {})
    known = cache.get(id(image))
    if known is None or known[1] is not image:
        digest = hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=12)
        known = (digest.hexdigest(), image)
        cache[id(image)] = known
    arrays[known[0]] = image
    return known[0]


def _snapshot() -> tuple[dict, dict[str, np.ndarray]]:
    """The session as JSON-ready data, and the images it refers to by key."""
    session = st.session_state
    arrays: dict[str, np.ndarray] = {}
    widgets = {
        key: session[key]
        for key in session
        if isinstance(key, str)
        and key.startswith(_WIDGET_PREFIXES)
        and isinstance(session[key], str | int | bool)
    }
    for slot in _SLOTS:
        terrain = session.get(f"brush_terrain_{slot}")
        if terrain is not None:
            widgets[f"brush_terrain_{slot}"] = Terrain(terrain).value
    boards, undo, readings, photos = {}, {}, {}, {}
    for size in _SIZES:
        for slot in _SLOTS:
            where = f"{size}_{slot}"
            if f"board_{where}" in session:
                boards[where] = session[f"board_{where}"].to_text()
            if session.get(f"undo_{where}") is not None:
                undo[where] = session[f"undo_{where}"].to_text()
            found = session.get(f"reading_{where}")
            if found is not None:
                readings[where] = {
                    "name": found.name,
                    "photo_id": found.photo_id,
                    "photo": _image_key(found.photo, arrays),
                    "straightened": _image_key(found.straightened, arrays),
                    "overlay": _image_key(found.overlay, arrays),
                    "uncertain": sorted(found.uncertain),
                    "corrected": sorted(found.corrected),
                    "holes": sorted(found.holes),
                    # Messages as their parts: said again in the page's language when shown.
                    "decoding": to_data(found.decoding),
                    "warnings": [to_data(warning) for warning in found.warnings],
                    "error": to_data(found.error),
                    "corners": [list(point) for point in found.corners],
                }
    for slot in _SLOTS:
        current = state.photo(slot)
        if current is not None:
            photos[slot] = {
                "id": current.id,
                "name": current.name,
                "image": _image_key(current.image, arrays),
                "corners": None if current.corners is None else [list(p) for p in current.corners],
            }
    snapshot = {
        "widgets": widgets,
        "flags": {key: session[key] for key in _FLAGS if session.get(key) is not None},
        "boards": boards,
        "undo": undo,
        "readings": readings,
        "photos": photos,
        "finished_rounds": [[b.to_text() for b in r] for r in state.finished_rounds()],
        "finished_photos": [
            {name: _image_key(image, arrays) for name, image in by_player.items()}
            for by_player in state.finished_photos()
        ],
    }
    snapshot["images"] = sorted(arrays)
    return snapshot, arrays


def _apply(
    snapshot: dict, images: dict[str, bytes], arrays: dict[str, np.ndarray] | None = None
) -> None:
    """Put a draft (or parts of one) into the session, before any widget is drawn. Images come
    from ``arrays`` (decoded already) or are decoded from ``images``."""
    from vision.load_image import load_image

    decoded: dict[str, np.ndarray] = dict(arrays or {})
    cache = st.session_state.setdefault("draft_image_keys", {})
    for key, array in decoded.items():
        cache[id(array)] = (key, array)

    def image(key: str | None) -> np.ndarray | None:
        if key is None or (key not in images and key not in decoded):
            return None
        if key not in decoded:
            decoded[key] = load_image(images[key], long_side=None)
            # Known under its stored key: decoding a JPEG does not give the same pixels back.
            cache[id(decoded[key])] = (key, decoded[key])
        return decoded[key]

    session = st.session_state
    for key, value in snapshot["widgets"].items():
        if key.startswith("brush_terrain_"):
            session[key] = Terrain(value)
        elif key.startswith(_WIDGET_PREFIXES):
            session[key] = value
    for key, value in snapshot["flags"].items():
        if key in _FLAGS:
            session[key] = value
    for where, text in snapshot["boards"].items():
        session[f"board_{_where(where)}"] = parse_board(text)
    for where, text in snapshot["undo"].items():
        session[f"undo_{_where(where)}"] = parse_board(text)
    for where, found in snapshot["readings"].items():
        session[f"reading_{_where(where)}"] = state.PhotoReading(
            name=str(found["name"]),
            photo=image(found["photo"]),
            straightened=image(found["straightened"]),
            overlay=image(found["overlay"]),
            uncertain={(int(r), int(c)) for r, c in found["uncertain"]},
            corrected={(int(r), int(c)) for r, c in found["corrected"]},
            holes={(int(r), int(c)) for r, c in found.get("holes", ())},
            decoding=_message(found.get("decoding", "")),
            warnings=tuple(_message(w) for w in found["warnings"]),
            error=None if found["error"] is None else _message(found["error"]),
            corners=[(float(x), float(y)) for x, y in found["corners"]],
            photo_id=str(found["photo_id"]),
        )
    for slot, found in snapshot["photos"].items():
        corners = found.get("corners")
        if corners is not None:
            corners = tuple((float(x), float(y)) for x, y in corners)
        state.set_photo(
            int(slot),
            state.SlotPhoto(str(found["id"]), str(found["name"]), image(found["image"]), corners),
        )
    if "finished_rounds" in snapshot:  # a game part (a kingdom taken alone has none)
        state.finished_rounds()[:] = [
            tuple(parse_board(text) for text in boards) for boards in snapshot["finished_rounds"]
        ]
    if "finished_photos" in snapshot:
        state.finished_photos()[:] = [
            {name: image(key) for name, key in by_player.items() if image(key) is not None}
            for by_player in snapshot["finished_photos"]
        ]


def _message(data: object) -> str:
    """A message saved by ``_snapshot`` (``scoring.words.to_data``), or its text as saved by an
    older draft; one that no longer fits its template comes back empty rather than failing."""
    try:
        message = from_data(data)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return ""
    return message if isinstance(message, str) else ""


def _where(text: str) -> str:
    """A ``"<size>_<slot>"`` key from a draft, checked before it becomes a session key."""
    size, slot = (int(part) for part in text.split("_"))
    if size not in _SIZES or slot not in _SLOTS:
        raise ValueError(f"not a kingdom of the draft: {text}")
    return f"{size}_{slot}"
