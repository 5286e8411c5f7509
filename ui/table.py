"""One photo of the whole table: every kingdom in it read at once, shown numbered on the photo,
and each given to a player (left to right by default). The kingdoms then land in the players'
editors like any photo, corrected per kingdom as usual.

The reading is ``vision.pipeline.read_table``; the numbered picture is ``vision.table_preview``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import numpy as np
import streamlit as st

from games.model import GameSetup
from ui import state
from ui.language import N_, _, say
from ui.photo import PHOTO_TYPES, place_reading, sentence
from ui.text import escape_markdown

NOBODY = N_("nobody (not in this game)")  # a stored choice; shown as ``_(NOBODY)``


@dataclass(frozen=True)
class TablePhoto:
    """The whole table's photo and what was read from it (kept until another is chosen)."""

    id: str
    name: str
    image: np.ndarray | None
    kingdoms: tuple = ()  # vision Readings, numbered 1.. left to right then top to bottom
    cut_off: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    error: str | None = None


def table_photo(setup: GameSetup) -> None:
    """The "One photo of the whole table" section, above the players' tabs."""
    found: TablePhoto | None = st.session_state.get("table_photo")
    with st.expander(_("One photo of the whole table"), expanded=found is not None):
        upload = st.file_uploader(
            _("Photo of the whole table from above, every kingdom in view"),
            type=PHOTO_TYPES,
            key="table_upload",
        )
        if upload is not None and upload.file_id != st.session_state.get("table_read_id"):
            st.session_state["table_read_id"] = upload.file_id
            found = _read_table(upload.name, upload.getvalue())
            st.session_state["table_photo"] = found
        if found is None:
            st.caption(
                _("Every kingdom in the photo is read and numbered; then say whose is which.")
            )
            return
        _show_table(found, setup)


def _read_table(name: str, data: bytes) -> TablePhoto:
    from vision.load_image import load_image
    from vision.pipeline import read_table

    table_id = secrets.token_hex(6)
    with st.status(_("Reading every kingdom in {file}…", file=escape_markdown(name))) as status:
        image = None
        try:
            image = load_image(data)
            reading = read_table(image)
        except ValueError as err:  # vision says what went wrong and what to do
            status.update(label=_("Could not read the table"), state="error")
            return TablePhoto(
                table_id, name, image, error=getattr(err, "message", None) or str(err)
            )
        status.update(label=_("Read {n} kingdoms", n=len(reading.kingdoms)), state="complete")
    return TablePhoto(
        table_id,
        name,
        reading.image,
        tuple(reading.kingdoms),
        tuple(reading.cut_off),
        tuple(reading.warnings),
    )


def _show_table(found: TablePhoto, setup: GameSetup) -> None:
    from vision.table_preview import number_kingdoms

    if found.error is not None:
        reason = say(found.error).rstrip(".")
        st.error(
            escape_markdown(_("Could not read {file}: {reason}.", file=found.name, reason=reason))
        )
        return
    for message in (*found.cut_off, *found.warnings):
        st.warning(escape_markdown(sentence(message)))
    corners = [kingdom.location.corners for kingdom in found.kingdoms]
    st.image(
        number_kingdoms(found.image, corners),
        channels="BGR",
        caption=_("{n} kingdoms found, numbered left to right", n=len(found.kingdoms)),
    )
    choices = [NOBODY, *setup.players]
    columns = st.columns(min(4, max(1, len(found.kingdoms))))
    for index in range(len(found.kingdoms)):
        key = f"table_owner_{found.id}_{index}"
        default = setup.players[index] if index < len(setup.players) else NOBODY
        st.session_state.setdefault(key, default)
        if st.session_state[key] not in choices:  # a player renamed or removed since
            st.session_state[key] = default
        columns[index % len(columns)].selectbox(
            _("Kingdom {number} is", number=index + 1),
            choices,
            key=key,
            format_func=lambda choice: _(NOBODY) if choice == NOBODY else escape_markdown(choice),
        )
    owners = [st.session_state[f"table_owner_{found.id}_{i}"] for i in range(len(found.kingdoms))]
    taken = [name for name in owners if name != NOBODY]
    if len(taken) != len(set(taken)):
        st.error(_("Two kingdoms have the same player; give each player one kingdom."))
        return
    st.button(
        _("Put these kingdoms in the players' tabs"),
        key="table_assign",
        type="primary",
        on_click=_assign,
        args=(found, setup, owners),
        help=_("Each player's kingdom replaces the one in their tab (undo is offered there)"),
    )


def _assign(found: TablePhoto, setup: GameSetup, owners: list[str]) -> None:
    """Give each numbered kingdom to its player, as if it were that player's own photo."""
    for number, (kingdom, owner) in enumerate(zip(found.kingdoms, owners, strict=True), start=1):
        if owner == NOBODY:
            continue
        slot = setup.players.index(owner)
        photo = state.SlotPhoto(
            id=f"{found.id}-{number}",
            name=_("{file} (kingdom {number})", file=found.name, number=number),
            image=found.image,
            corners=tuple(tuple(float(v) for v in point) for point in kingdom.location.corners),
        )
        state.set_photo(slot, photo)
        place_reading(slot, setup, owner, photo, kingdom)
    st.toast(_("The kingdoms are in the players' tabs: check the framed cells there."))
