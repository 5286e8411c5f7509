"""Getting a kingdom in from a photo: upload, camera or a sample, and the tap-the-corners fallback.

The reading itself is ``vision.pipeline.read_image``; its board lands in the editor (with the
cells it was unsure of marked), and what it saw is shown next to it.
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path

import streamlit as st

from games.editing import blank_board, photo_size_choice
from games.model import GameSetup
from scoring.words import msg
from ui import state
from ui.language import N_, _, say
from ui.language import sentence as _sentence
from ui.text import escape_markdown

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "sample_images"
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
# Stored values (session and draft), the same in every language; ``_source_label`` shows them.
UPLOAD, CAMERA, HAND = (
    ":material/upload: Photo",
    ":material/photo_camera: Camera",
    ":material/edit: By hand",
)
_SOURCE_LABELS = {UPLOAD: N_("Photo"), CAMERA: N_("Camera"), HAND: N_("By hand")}
CORNER_NAMES = (N_("top-left"), N_("top-right"), N_("bottom-right"), N_("bottom-left"))


def _source_label(source: str) -> str:
    icon = source.split(" ", 1)[0]
    return f"{icon} {_(_SOURCE_LABELS[source])}"


def _photo_reader():
    """The pipeline with its model loaded once per server, on first use (not at page load),
    with a spinner in the page's language while it loads (``st.cache_resource``'s own spinner
    text is fixed when the module is imported, before any language is known)."""
    with st.spinner(_("Loading the cell reader…")):  # shown only if it takes over half a second
        return _loaded_photo_reader()


@st.cache_resource(show_spinner=False)
def _loaded_photo_reader():
    from vision.model import load_model
    from vision.pipeline import read_image

    load_model()
    return read_image


@st.cache_resource(show_spinner=False)
def warm_up_in_background() -> threading.Thread:
    """Once per server, after the first page is out: load the cell model and the library the
    result's tables need (pandas) in a background thread, so neither the first page nor the
    first photo waits for them."""

    def work() -> None:
        import pandas  # noqa: F401 - imported for its side effect: Python caches the module

        import vision.pipeline  # noqa: F401
        from vision.model import load_model

        load_model()  # cached per process (lru_cache): _photo_reader finds it loaded

    thread = threading.Thread(target=work, name="kingdomino-warm-up", daemon=True)
    thread.start()
    return thread


def sample_photos() -> list[Path]:
    return sorted(p for p in SAMPLES_DIR.glob("*") if p.suffix.lower() in {".jpg", ".png"})


def kingdom_input(slot: int, name: str, setup: GameSetup) -> None:
    """Upload / camera / by hand; reads a new photo once, then shows what it saw.

    The uploader belongs to the player, not to the size: when the game's size changes, the photo
    stays and is read again at the new size.
    """
    size = setup.size
    # Defaults go through session state, not ``default=``: ui.state re-stores these values on
    # every run, and Streamlit warns when a widget has both.
    st.session_state.setdefault(f"source_{slot}", UPLOAD)
    mode = st.segmented_control(
        _("How to enter {player}'s kingdom", player=escape_markdown(name)),
        [UPLOAD, CAMERA, HAND],
        format_func=_source_label,
        key=f"source_{slot}",
        required=True,  # tapping the chosen option again must not hide the uploader
    )
    new_photo: tuple[str, bytes] | None = None  # (name, file contents) to read in this run
    if mode == UPLOAD:
        upload = st.file_uploader(
            _("Photo of {player}'s kingdom, taken from above", player=escape_markdown(name)),
            type=PHOTO_TYPES,
            key=f"upload_{slot}",
        )
        # Filled once this run's photo is known: Streamlit empties an uploader it did not draw
        # (another tab was open), and a sample never was in it, yet the photo is still there.
        read_from = st.empty()
        st.caption(
            ":material/smartphone: "
            + _(
                "On a phone, this button can open the phone's own camera: take the photo "
                "straight from above, the whole kingdom in view."
            )
        )
        new_photo = _new_file(upload, slot)
        samples = sample_photos()
        if samples:
            left, right = st.columns([3, 2], vertical_alignment="bottom")
            sample = left.selectbox(
                _("No photo at hand? Try a sample"),
                samples,
                format_func=lambda p: p.name,
                key=f"sample_{slot}",
            )
            tried = right.button(_("Try this sample"), key=f"try_sample_{slot}")
            if tried and sample is not None:
                new_photo = (sample.name, sample.read_bytes())
        kept = state.photo(slot)
        shown = new_photo[0] if new_photo is not None else kept.name if kept else None
        if upload is None and shown is not None:
            read_from.caption(
                ":material/photo: "
                + _(
                    "Read from {file}; upload another photo to replace it.",
                    file=escape_markdown(shown),
                )
            )
    elif mode == CAMERA:
        shot = st.camera_input(
            _("Photo of {player}'s kingdom", player=escape_markdown(name)), key=f"camera_{slot}"
        )
        st.caption(
            _(
                "The in-page camera needs this computer (localhost) or an HTTPS address; on a "
                "phone, Upload opens the phone's camera at full resolution instead."
            )
        )
        new_photo = _new_file(shot, slot, _("camera photo"))

    if new_photo is not None:
        st.session_state[_source_key(slot)] = mode
        read_photo(slot, setup, name, *new_photo)
    elif state.needs_reading(slot, size):
        current = state.photo(slot)
        words = _(
            "Reading {player}'s kingdom from {file} again…",
            player=escape_markdown(name),
            file=escape_markdown(current.name),
        )
        with st.status(words) as status:
            _read_slot_photo(slot, setup, name, status)
    if mode != HAND:
        _show_reading(slot, size, mode)


def _source_key(slot: int) -> str:
    """Where the slot's latest photo came from (Photo or Camera), to keep its error there."""
    return f"photo_from_{slot}"


def _new_file(file, slot: int, name: str | None = None) -> tuple[str, bytes] | None:
    """(name, contents) of an uploaded file or camera shot the first time it is seen, else None.

    A file widget keeps returning its file on every rerun; it is read only once.
    """
    if file is None or file.file_id == st.session_state.get(f"read_id_{slot}"):
        return None
    st.session_state[f"read_id_{slot}"] = file.file_id
    return name or file.name, file.getvalue()


def read_new_uploads(setup: GameSetup) -> None:
    """Before the setup is drawn: read each player's newly uploaded photo or camera shot, so that
    a 7×7 photo switches the game's size in this same run (no second run before the total).

    The reading's progress shows at the top while it runs and goes once it is done; its outcome
    shows in the player's tab as usual.
    """
    for slot, name in enumerate(setup.players):
        mode = st.session_state.get(f"source_{slot}", UPLOAD)
        new = _new_file(
            _file_widget(slot, mode), slot, None if mode == UPLOAD else _("camera photo")
        )
        if new is not None:
            st.session_state[_source_key(slot)] = mode
            progress = st.empty()
            with progress.container():
                read_photo(slot, setup, name, *new, rerun_on_switch=False)
            progress.empty()


def _file_widget(slot: int, mode: str):
    """The file the player's uploader or camera holds now (None: none, or entered by hand)."""
    if mode not in (UPLOAD, CAMERA):
        return None
    return st.session_state.get(f"upload_{slot}" if mode == UPLOAD else f"camera_{slot}")


def has_new_file(players: int) -> bool:
    """Whether an uploader or camera holds a file not read yet (``read_new_uploads`` reads it)."""
    for slot in range(players):
        file = _file_widget(slot, st.session_state.get(f"source_{slot}", UPLOAD))
        if file is not None and file.file_id != st.session_state.get(f"read_id_{slot}"):
            return True
    return False


def read_photo(
    slot: int,
    setup: GameSetup,
    player: str,
    photo_name: str,
    data: bytes,
    rerun_on_switch: bool = True,
) -> None:
    """Decode the file once, keep it as the player's photo, and read the kingdom from it.

    ``rerun_on_switch``: when the photo switches the game to 7×7, start a new run (the setup is
    already drawn); without it the caller draws the setup afterwards.
    """
    from vision.load_image import load_image

    with st.status(
        _(
            "Reading {player}'s kingdom from {file}…",
            player=escape_markdown(player),
            file=escape_markdown(photo_name),
        )
    ) as status:
        photo_id = secrets.token_hex(6)
        try:
            image = load_image(data)  # upright, refuses bombs; the pipeline's own decoding
        except ValueError as err:  # vision's errors say what went wrong and what to do
            state.set_photo(slot, state.SlotPhoto(photo_id, photo_name, None))
            failed = state.PhotoReading(
                photo_name, None, None, None, error=_said(err), photo_id=photo_id
            )
            state.set_reading(slot, setup.size, failed)
            status.update(label=_("Could not read the photo"), state="error")
            return
        state.set_photo(slot, state.SlotPhoto(photo_id, photo_name, image))
        _read_slot_photo(slot, setup, player, status, rerun_on_switch)


def _read_slot_photo(
    slot: int, setup: GameSetup, player: str, status, rerun_on_switch: bool = True
) -> None:
    """Read the player's photo at whatever size it shows, and put it where it belongs."""
    current = state.photo(slot)
    try:
        # A kingdom from the whole table's photo is read again inside its own corners.
        corners = None if current.corners is None else [list(p) for p in current.corners]
        reading = _photo_reader()(current.image, corners=corners)
    except Exception as err:  # noqa: BLE001 - the user gets a message, never a traceback
        # Every vision error is a ValueError that says what went wrong in words; anything
        # else is our bug, still reported as a message with a way forward.
        if isinstance(err, ValueError):
            message = _said(err)
        else:
            message = msg(
                "something unexpected went wrong ({error})", error=f"{type(err).__name__}: {err}"
            )
        status.update(label=_("Could not read the photo"), state="error")
        _failed(slot, setup.size, current, message)
        return
    switched = place_reading(slot, setup, player, current, reading)
    status.update(
        label=_(
            "Read {player}'s kingdom from {file}",
            player=escape_markdown(player),
            file=escape_markdown(current.name),
        ),
        state="complete",
    )
    if switched and rerun_on_switch:
        st.rerun()  # the setup above is already drawn: switch it at the top of the next run


def place_reading(
    slot: int, setup: GameSetup, player: str, current: state.SlotPhoto, reading
) -> bool:
    """Put a reading in the player's editor at the size the photo shows; True when the game is
    to switch to 7×7 (done by the setup at the top of the next run).

    A 7×7 kingdom in a two-player 5×5 game switches the game to Mighty Duel (with a notice and
    an undo) unless the user chose 5×5 themselves; otherwise a size that does not match the game
    is explained, and the corners can be tapped instead.
    """
    size = setup.size
    others = any(
        st.session_state.get(f"board_{size}_{other}", blank_board(size)) != blank_board(size)
        for other in range(len(setup.players))
        if other != slot
    )
    choice = photo_size_choice(
        size, reading.size, len(setup.players), size_can_follow(setup), others
    )
    if choice == "same":
        _accept(slot, size, current, reading)
    elif choice == "switch":
        _accept(slot, 7, current, reading)
        request_size_switch(7, {"player": player})
        return True
    elif choice == "ask":  # another kingdom is in at 5×5: a switch would leave it out
        _accept(slot, 7, current, reading)  # kept at 7×7 for the switch, if chosen
        st.session_state["size_question"] = {"player": player}
        _failed(
            slot,
            size,
            current,
            msg(
                "it shows a 7×7 kingdom, but this game is played 5×5; choose 7×7 above, or if "
                "the kingdom is 5×5, tap its four corners below"
            ),
        )
    elif reading.size == 7:
        if len(setup.players) != 2:
            why = msg(
                "it shows a 7×7 kingdom, but Mighty Duel (7×7) is for two players and this game "
                "has {n}; if the kingdom is 5×5, tap its four corners below",
                n=len(setup.players),
            )
        else:
            why = msg(
                "it shows a 7×7 kingdom, but this game is played 5×5; if the kingdom is 5×5, "
                "tap its four corners below"
            )
        _failed(slot, size, current, why)
    else:
        _failed(
            slot,
            size,
            current,
            msg(
                "it shows a 5×5 kingdom, but this game is 7×7 Mighty Duel; choose 5×5 in the game "
                "setup, or tap the 7×7 kingdom's four corners below"
            ),
        )
    return False


def _failed(slot: int, size: int, current: state.SlotPhoto, message: str) -> None:
    failed = state.PhotoReading(
        current.name, current.image, None, None, error=message, photo_id=current.id
    )
    state.set_reading(slot, size, failed)


def size_can_follow(setup: GameSetup) -> bool:
    """Whether a 7×7 photo may switch this game to Mighty Duel by itself."""
    return (
        setup.size == 5
        and len(setup.players) == 2
        and not st.session_state.get("size_by_hand")
        and not state.finished_rounds()
        and not st.session_state.get("draft_joined")  # the size is the host's (games.seats)
    )


def request_size_switch(size: int, why: dict) -> None:
    """Ask the setup (drawn at the top of the next run) to switch the game to ``size``."""
    st.session_state["switch_size_to"] = size
    st.session_state["size_notice"] = why


def _accept(slot: int, size: int, current: state.SlotPhoto, reading) -> None:
    """Put a successful reading into the editor, keeping a non-blank previous board for undo."""
    from vision.annotate import grid_preview

    if state.board(slot, size) != blank_board(size):
        state.remember_undo(slot, size)
    state.set_board(slot, size, reading.board)
    cells = reading.cells
    uncertain, corrected = _cells_of(cells.uncertain), _cells_of(cells.corrected)
    location = reading.location
    found_in_photo = location is not None and not location.straightened
    state.set_reading(
        slot,
        size,
        state.PhotoReading(
            name=current.name,
            photo=current.image,
            straightened=reading.board_image,
            overlay=grid_preview(current.image, location) if found_in_photo else None,
            uncertain=uncertain,
            corrected=corrected,
            decoding=cells.decoding,
            warnings=tuple(reading.warnings),
            photo_id=current.id,
            cells=cells,
            board=reading.board,
            holes=state.read_holes(reading.board),
        ),
    )
    decode_with_the_others(size)


def _cells_of(mask) -> set[tuple[int, int]]:
    """The (row, column) of each True cell of an (N, N) mask."""
    return {(int(r), int(c)) for r, c in zip(*mask.nonzero(), strict=True)}


def decode_with_the_others(size: int) -> None:
    """The kingdoms of one game come from one set of dominoes: decode the photos' readings
    together (``vision.cells.decode_together``), so that no domino is read into two kingdoms.

    Only kingdoms still as their photo gave them take part (a board the user changed is theirs);
    a kingdom whose board this changes gets the changed cells flagged and the sentence why.
    Call before the kingdoms' text boxes are drawn.
    """
    from ui.setup import current_setup
    from vision.cells import decode_together

    setup = current_setup()
    players = len(setup.players) if setup is not None else 0
    slots = [
        slot
        for slot in range(players)
        if (found := state.reading(slot, size)) is not None
        and found.cells is not None
        and state.board(slot, size) == found.board
    ]
    if len(slots) < 2:
        return
    together = decode_together([state.reading(slot, size).cells for slot in slots])
    for slot, cells in zip(slots, together, strict=True):
        found = state.reading(slot, size)
        if cells.board == found.board:
            continue
        state.set_board(slot, size, cells.board)
        # Holes the user already checked stay checked; a hole this decoding made is to check.
        checked = state.read_holes(found.board) - found.holes
        found.holes = state.read_holes(cells.board) - checked
        found.board = cells.board
        found.corrected = _cells_of(cells.corrected)
        found.uncertain = _cells_of(cells.uncertain)
        found.decoding = cells.decoding


def error_message(reading: state.PhotoReading) -> str:
    """``Could not read x.jpg: why; what to do.`` (the reason already carries one piece of
    advice, so none is added)."""
    reason = say(reading.error).rstrip(".")
    return _("Could not read {file}: {reason}.", file=reading.name, reason=reason)


def _show_reading(slot: int, size: int, mode: str) -> None:
    reading = state.reading(slot, size)
    if reading is None:
        return
    if reading.error and st.session_state.get(_source_key(slot), mode) != mode:
        return  # an upload that failed is not the camera's business (nor the other way round)
    if reading.error:
        st.error(escape_markdown(error_message(reading)))
        if reading.photo is not None:
            _corner_fallback(slot, size, reading)
        return
    if reading.straightened is None:
        return  # cells to check that came with a share link: no photo to show
    for warning in reading.warnings:
        st.warning(escape_markdown(sentence(warning)))
    # Drawn only while open (a tap reruns the page): its pictures would otherwise be encoded by
    # the server and decoded by the phone on every run, mostly unseen.
    saw = st.expander(
        _("What the app saw in {file}", file=escape_markdown(reading.name)),
        key=f"saw_{size}_{slot}",
        on_change="rerun",
    )
    if saw.open:
        with saw:
            _what_the_app_saw(reading)
    # Outside the expander: its content is redrawn on every tap, and it should stay in view.
    if st.toggle(_("The grid is wrong: let me tap the corners"), key=f"fix_grid_{size}_{slot}"):
        _corner_fallback(slot, size, reading)


def _what_the_app_saw(reading: state.PhotoReading) -> None:
    if reading.overlay is not None:
        found, straight = st.columns(2)
        found.image(reading.overlay, channels="BGR", caption=_("The grid found in the photo"))
        straight.image(reading.straightened, channels="BGR", caption=_("Straightened"))
    else:  # the photo was the kingdom already: one picture, not an empty column beside it
        st.image(reading.straightened, channels="BGR", caption=_("The kingdom as read"))
    if reading.decoding:
        st.caption(say(reading.decoding))


def _said(err: Exception) -> str:
    """An error's message as vision or the games gave it (a ``Message``, said in the page's
    language when shown), else its text."""
    return getattr(err, "message", None) or str(err)


def sentence(text: str) -> str:
    """A message from the pipeline as a sentence: capital first letter, full stop at the end."""
    return _sentence(text)


def _corner_fallback(slot: int, size: int, reading: state.PhotoReading) -> None:
    """Tap the kingdom's four corners on the photo; the reading runs again from them."""
    from streamlit_image_coordinates import streamlit_image_coordinates

    from vision.render import mark_points

    photo = reading.photo
    taps = reading.corners
    height, width = photo.shape[:2]
    key = f"corners_{size}_{slot}"
    # A tap is taken before the photo is drawn, in the run the tap started: the photo is then
    # drawn once, with its new mark, in the same frame. (Taken after it, with a second run, the
    # phone's page was drawn anew and the photo jumped off the screen after the first tap.)
    tap = st.session_state.get(key)
    if tap and tap.get("unix_time") != reading.last_tap and len(taps) < 4:
        reading.last_tap = tap["unix_time"]
        taps.append((tap["x"] * width / tap["width"], tap["y"] * height / tap["height"]))
    if len(taps) < 4:
        st.info(
            _(
                "Tap the kingdom's {corner} corner on the photo ({number} of 4: top-left, "
                "top-right, bottom-right, bottom-left).",
                corner=_(CORNER_NAMES[len(taps)]),
                number=len(taps) + 1,
            )
        )
    streamlit_image_coordinates(
        mark_points(photo, taps)[:, :, ::-1].copy(),
        key=key,
        width="stretch",
        image_format="JPEG",
        cursor="crosshair",
    )
    left, right = st.columns(2)
    if left.button(_("Start the corners again"), key=f"corners_reset_{size}_{slot}"):
        taps.clear()
        st.rerun()
    if len(taps) == 4 and right.button(
        _("Read again from these corners"), type="primary", key=f"corners_read_{size}_{slot}"
    ):
        with st.spinner(_("Reading the kingdom inside your corners…")):
            try:
                new = _photo_reader()(photo, size=size, corners=list(taps))
            except ValueError as err:
                reason = escape_markdown(say(err).split(";")[0].rstrip("."))
                st.error(
                    _(
                        "Still could not read it: {reason}. Check the four corners and read again.",
                        reason=reason,
                    )
                )
                return
        current = state.SlotPhoto(reading.photo_id, reading.name, photo)
        _accept(slot, size, current, new)
        st.rerun()
