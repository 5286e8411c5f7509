"""The one board editor, for entry by hand and for correcting a photo's reading.

The board is drawn as a picture; the user picks a brush (terrain and crowns) and taps a cell to
paint it. A text box holds the same board as board text, for those who prefer typing. Both edit
the board kept in ``ui.state``; the cells a photo reading was unsure of stay marked until the
user paints them.
"""

from __future__ import annotations

from functools import partial

import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from games.editing import paint
from scoring import BoardError, Terrain, parse_board
from ui import state
from ui.text import escape_markdown
from vision.render import cell_at, render_board

# Words, not emoji: a phone or a headless browser without an emoji font shows boxes instead.
TERRAIN_LABELS = {
    Terrain.WHEAT: "Wheat",
    Terrain.FOREST: "Forest",
    Terrain.LAKE: "Lake",
    Terrain.GRASSLAND: "Grass",
    Terrain.SWAMP: "Swamp",
    Terrain.MINE: "Mine",
    Terrain.CASTLE: "Castle",
    Terrain.EMPTY: "Hole",
}
BOARD_TEXT_HELP = (
    "One row per line, cells separated by spaces: W wheat, F forest, L lake, G grassland, "
    "S swamp, M mine, each followed by its crowns (W0, M2); C the castle; . a hole."
)


def board_editor(slot: int, name: str, size: int) -> None:
    board = state.board(slot, size)
    reading = state.reading(slot, size)
    uncertain = reading.uncertain if reading is not None else set()

    # The brush comes first: on a phone the columns stack, and the brush should not be below
    # the picture it paints. A radio wraps onto a second line on narrow screens.
    st.radio(
        "Brush: terrain",
        list(Terrain),
        format_func=TERRAIN_LABELS.get,
        horizontal=True,
        key=f"brush_terrain_{slot}",
    )
    picture, controls = st.columns([3, 2], gap="medium")
    with controls:
        st.session_state.setdefault(f"brush_crowns_{slot}", 0)
        st.segmented_control("Brush: crowns", [0, 1, 2, 3], key=f"brush_crowns_{slot}")
        st.caption("Tap a cell to paint it with the brush.")
        if uncertain:
            cells = ", ".join(f"row {r + 1} col {c + 1}" for r, c in sorted(uncertain))
            st.warning(f"Check the cells framed in magenta ({cells}): tap one to fix it.")
        if state.undo_board(slot, size) is not None:
            st.button(
                "Undo the photo",
                key=f"undo_{slot}",
                on_click=_undo_photo,
                args=(slot, size),
                help="Back to the board as it was before this photo was read",
            )
        st.button(
            f"Clear {escape_markdown(name)}'s kingdom",
            key=f"clear_{slot}",
            on_click=state.clear_kingdom,
            args=(slot, size),
            help="Start this kingdom again from an empty board with only the castle",
        )
    with picture:
        rgb = render_board(board, uncertain=uncertain)[:, :, ::-1].copy()
        streamlit_image_coordinates(
            rgb,
            key=f"tap_{size}_{slot}",
            width="stretch",
            png_compression_level=3,
            cursor="pointer",
            on_click=partial(_on_tap, slot, size),
        )
    st.text_area(
        f"{escape_markdown(name)}'s kingdom as board text",
        key=state.text_key(slot, size),
        on_change=_on_text,
        args=(slot, size),
        height=68 + 24 * size,
        help=BOARD_TEXT_HELP,
    )
    error = state.board_error(slot, size)
    if error:
        st.error(escape_markdown(error))


def _on_tap(slot: int, size: int) -> None:
    tap = st.session_state.get(f"tap_{size}_{slot}")
    if not tap:
        return
    cell = cell_at(tap["x"], tap["y"], tap["width"], tap["height"], size)
    terrain = st.session_state.get(f"brush_terrain_{slot}", Terrain.WHEAT)
    if cell is None:
        return
    crowns = st.session_state.get(f"brush_crowns_{slot}") or 0
    try:
        new_board = paint(state.board(slot, size), *cell, Terrain(terrain), crowns)
    except BoardError as err:  # a tap on the castle: it says how to move it instead
        text = str(err)
        state.set_board_error(slot, size, f"{text[:1].upper()}{text[1:]}.")
        return
    state.set_board(slot, size, new_board)
    reading = state.reading(slot, size)
    if reading is not None:
        reading.uncertain.discard(cell)


def _on_text(slot: int, size: int) -> None:
    text = st.session_state[state.text_key(slot, size)]
    try:
        new_board = parse_board(text)
        if new_board.size != size:
            raise BoardError(
                f"this game is played {size}×{size}, the text has {new_board.size} rows"
            )
    except BoardError as err:
        message = f"{err}. The kingdom above is unchanged until the text is fixed."
        state.set_board_error(slot, size, message)
        return
    # Keep the user's own formatting in the box; only the board itself is replaced.
    old_board = state.board(slot, size)
    state.set_board(slot, size, new_board, update_text=False)
    reading = state.reading(slot, size)
    if reading is not None:  # a cell fixed by typing is checked, as one fixed by a tap
        changed = {(r, c) for r, c, cell in new_board.iter_cells() if cell != old_board[r, c]}
        reading.uncertain -= changed


def _undo_photo(slot: int, size: int) -> None:
    previous = state.undo_board(slot, size)
    if previous is not None:
        state.set_board(slot, size, previous)
        state.set_reading(slot, size, None)
        state.forget_undo(slot, size)
