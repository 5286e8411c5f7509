"""Getting a kingdom in from a photo: upload, camera or a sample, and the tap-the-corners fallback.

The reading itself is ``vision.pipeline.read_image``; its board lands in the editor (with the
cells it was unsure of marked), and what it saw is shown next to it.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from games.editing import blank_board
from ui import state
from ui.text import escape_markdown

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "sample_images"
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
UPLOAD, CAMERA, HAND = (
    ":material/upload: Photo",
    ":material/photo_camera: Camera",
    ":material/edit: By hand",
)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


@st.cache_resource(show_spinner="Loading the cell reader…")
def _photo_reader():
    """The pipeline with its model loaded once per server, on first use (not at page load)."""
    from vision.model import load_model
    from vision.pipeline import read_image

    load_model()
    return read_image


@st.cache_resource(show_spinner=False)
def warm_up_in_background() -> threading.Thread:
    """Once per server, after the first page is out: load the cell model and the libraries the
    result needs (pandas, altair) in a background thread, so neither the first page nor the
    first photo waits for them."""

    def work() -> None:
        import altair  # noqa: F401 - imported for its side effect: Python caches the module
        import pandas  # noqa: F401

        import vision.pipeline  # noqa: F401
        from vision.model import load_model

        load_model()  # cached per process (lru_cache): _photo_reader finds it loaded

    thread = threading.Thread(target=work, name="kingdomino-warm-up", daemon=True)
    thread.start()
    return thread


def sample_photos() -> list[Path]:
    return sorted(p for p in SAMPLES_DIR.glob("*") if p.suffix.lower() in {".jpg", ".png"})


def kingdom_input(slot: int, name: str, size: int) -> None:
    """Upload / camera / by hand; reads a new photo once, then shows what it saw."""
    # Defaults go through session state, not ``default=``: ui.state re-stores these values on
    # every run, and Streamlit warns when a widget has both.
    st.session_state.setdefault(f"source_{slot}", UPLOAD)
    mode = st.segmented_control(
        f"How to enter {escape_markdown(name)}'s kingdom",
        [UPLOAD, CAMERA, HAND],
        key=f"source_{slot}",
    )
    new_photo: tuple[str, bytes] | None = None  # (name, file contents) to read in this run
    if mode == UPLOAD:
        upload = st.file_uploader(
            f"Photo of {escape_markdown(name)}'s kingdom, taken from above",
            type=PHOTO_TYPES,
            key=f"upload_{size}_{slot}",
        )
        st.caption(
            ":material/smartphone: On a phone, this button can open the phone's own camera: "
            "take the photo straight from above, the whole kingdom in view."
        )
        new_photo = _new_file(upload, slot, size)
        samples = sample_photos()
        if samples:
            left, right = st.columns([3, 2], vertical_alignment="bottom")
            sample = left.selectbox(
                "No photo at hand? Try a sample",
                samples,
                format_func=lambda p: p.name,
                key=f"sample_{slot}",
            )
            if right.button("Try this sample", key=f"try_sample_{slot}") and sample is not None:
                new_photo = (sample.name, sample.read_bytes())
    elif mode == CAMERA:
        shot = st.camera_input(
            f"Photo of {escape_markdown(name)}'s kingdom", key=f"camera_{size}_{slot}"
        )
        st.caption(
            "The in-page camera needs this computer (localhost) or an HTTPS address; on a phone, "
            "Upload opens the phone's camera at full resolution instead."
        )
        new_photo = _new_file(shot, slot, size, "camera photo")

    if new_photo is not None:
        read_photo(slot, size, name, *new_photo)
    if mode != HAND:
        _show_reading(slot, size)


def _new_file(file, slot: int, size: int, name: str | None = None) -> tuple[str, bytes] | None:
    """(name, contents) of an uploaded file or camera shot the first time it is seen, else None.

    A file widget keeps returning its file on every rerun; it is read only once.
    """
    if file is None or file.file_id == st.session_state.get(f"read_id_{size}_{slot}"):
        return None
    st.session_state[f"read_id_{size}_{slot}"] = file.file_id
    return name or file.name, file.getvalue()


def read_photo(slot: int, size: int, player: str, photo_name: str, data: bytes) -> None:
    """Decode the file once, read the kingdom from it, and put the result in the editor."""
    from vision.load_image import load_image

    photo = None
    with st.status(
        f"Reading {escape_markdown(player)}'s kingdom from {escape_markdown(photo_name)}…"
    ) as status:
        try:
            photo = load_image(data)  # upright, refuses bombs; the pipeline's own decoding
            reading = _photo_reader()(photo, size=size)
        except Exception as err:  # noqa: BLE001 - the user gets a message, never a traceback
            # Every vision error is a ValueError that says what went wrong in words; anything
            # else is our bug, still reported as a message with a way forward.
            if isinstance(err, ValueError):
                message = str(err)
            else:
                message = f"something unexpected went wrong ({type(err).__name__}: {err})"
            status.update(label="Could not read the photo", state="error")
            failed = state.PhotoReading(photo_name, photo, None, None, error=message)
            state.set_reading(slot, size, failed)
            return
        _accept(slot, size, photo_name, photo, reading)
        status.update(label=f"Read {player}'s kingdom from {photo_name}", state="complete")


def _accept(slot: int, size: int, photo_name: str, photo: np.ndarray, reading) -> None:
    """Put a successful reading into the editor, keeping a non-blank previous board for undo."""
    from vision.annotate import grid_preview

    if state.board(slot, size) != blank_board(size):
        state.remember_undo(slot, size)
    state.set_board(slot, size, reading.board)
    uncertain = {(int(r), int(c)) for r, c in zip(*reading.cells.uncertain.nonzero(), strict=True)}
    location = reading.location
    found_in_photo = location is not None and not location.straightened
    state.set_reading(
        slot,
        size,
        state.PhotoReading(
            name=photo_name,
            photo=photo,
            straightened=reading.board_image,
            overlay=grid_preview(photo, location) if found_in_photo else None,
            uncertain=uncertain,
            warnings=tuple(reading.warnings),
        ),
    )


def _show_reading(slot: int, size: int) -> None:
    reading = state.reading(slot, size)
    if reading is None:
        return
    if reading.error:
        if reading.photo is None:
            advice = "Choose the photo again (or another one), or enter the kingdom by hand."
        else:
            advice = (
                "Take the photo again from straight above with the whole kingdom in view, tap "
                "its four corners below, or enter it by hand."
            )
        st.error(f"Could not read {reading.name}: {reading.error.rstrip('.')}. {advice}")
        if reading.photo is not None:
            _corner_fallback(slot, size, reading)
        return
    for warning in reading.warnings:
        st.warning(warning)
    with st.expander(f"What the app saw in {escape_markdown(reading.name)}"):
        found, straight = st.columns(2)
        if reading.overlay is not None:
            found.image(reading.overlay, channels="BGR", caption="The grid found in the photo")
        straight.image(reading.straightened, channels="BGR", caption="Straightened")
    # Outside the expander: its content is redrawn on every tap, and it should stay in view.
    if st.toggle("The grid is wrong: let me tap the corners", key=f"fix_grid_{size}_{slot}"):
        _corner_fallback(slot, size, reading)


def _corner_fallback(slot: int, size: int, reading: state.PhotoReading) -> None:
    """Tap the kingdom's four corners on the photo; the reading runs again from them."""
    from vision.render import mark_points

    photo = reading.photo
    taps = reading.corners
    if len(taps) < 4:
        st.info(
            f"Tap the kingdom's {CORNER_NAMES[len(taps)]} corner on the photo "
            f"({len(taps) + 1} of 4: top-left, top-right, bottom-right, bottom-left)."
        )
    height, width = photo.shape[:2]
    tap = streamlit_image_coordinates(
        mark_points(photo, taps)[:, :, ::-1].copy(),
        key=f"corners_{size}_{slot}",
        width="stretch",
        image_format="JPEG",
        cursor="crosshair",
    )
    if tap and tap.get("unix_time") != reading.last_tap and len(taps) < 4:
        reading.last_tap = tap["unix_time"]
        taps.append((tap["x"] * width / tap["width"], tap["y"] * height / tap["height"]))
        st.rerun()
    left, right = st.columns(2)
    if left.button("Start the corners again", key=f"corners_reset_{size}_{slot}"):
        taps.clear()
        st.rerun()
    if len(taps) == 4 and right.button(
        "Read again from these corners", type="primary", key=f"corners_read_{size}_{slot}"
    ):
        with st.spinner("Reading the kingdom inside your corners…"):
            try:
                new = _photo_reader()(photo, size=size, corners=list(taps))
            except ValueError as err:
                st.error(f"Still could not read it: {err}. Check the corners or enter it by hand.")
                return
        _accept(slot, size, reading.name, photo, new)
        st.rerun()
