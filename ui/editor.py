"""The one board editor, for entry by hand and for correcting a photo's reading.

The board is drawn as a picture; the user picks a brush (terrain and crowns) and taps a cell to
paint it. Tapping the castle picks it up and the next tap puts it down, so a castle the photo
reader placed wrongly moves the way the app says. A text box takes the same board as board text
(applied when it loses focus or on "Apply"). Both edit the board kept in ``ui.state``; the cells
a photo reading flagged stay marked until the user paints or confirms them.
"""

from __future__ import annotations

from functools import partial

import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from games.editing import move_castle, paint
from games.results import cells_text
from scoring import BoardError, Cell, Terrain, parse_board
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
# The text box applies on blur and on the Apply button; Streamlit's "Press Ctrl+Enter to apply"
# hint is wrong on a phone (no Ctrl key), so it is hidden for the board-text boxes.
_HIDE_CTRL_ENTER_HINT = (
    "<style>[class*='st-key-text_'] [data-testid='InputInstructions']{display:none}</style>"
)


def placeholder(size: int) -> str:
    """An example in the text box while it is empty: the format, row by row."""
    rows = [[". "] * size for _ in range(size)]
    rows[size // 2][size // 2] = "C "
    rows[0][:3] = ["W1 ", "W0 ", "F0 "]
    rows[1][:2] = ["L1 ", "L0 "]
    example = "\n".join("".join(row).strip() for row in rows)
    return f"Type the kingdom row by row, for example:\n{example}"


def board_editor(slot: int, name: str, size: int) -> None:
    board = state.board(slot, size)
    reading = state.reading(slot, size)
    flagged = reading.to_check if reading is not None else set()
    st.html(_HIDE_CTRL_ENTER_HINT)

    # The brush comes first: on a phone the columns stack, and the brush should not be below
    # the picture it paints. A radio wraps onto a second line on narrow screens.
    terrain = Terrain(
        st.radio(
            "Brush: terrain",
            list(Terrain),
            format_func=TERRAIN_LABELS.get,
            horizontal=True,
            key=f"brush_terrain_{slot}",
        )
    )
    picture, controls = st.columns([3, 2], gap="medium")
    with controls:
        _crowns_brush(slot, terrain)
        moving = st.session_state.get(_moving_key(slot, size))
        if moving:
            st.info(
                "Now tap the cell where the castle belongs; its old cell gets the brush "
                f"({_brush_words(slot, terrain)}).",
                icon=":material/castle:",
            )
        else:
            st.caption("Tap a cell to paint it with the brush; tap the castle to move it.")
        error = state.board_error(slot, size)
        if error:  # beside the board, where the tap or the text was
            st.error(escape_markdown(error))
        if flagged:
            one = len(flagged) == 1
            st.warning(
                f"Check {cells_text(flagged)}, framed in magenta: "
                + (
                    "tap it to paint it with the brush, or confirm it below."
                    if one
                    else "tap one to paint it with the brush, or confirm them below."
                )
            )
            st.button(
                "This cell is right" if one else "These cells are right",
                key=f"accept_{slot}",
                icon=":material/done_all:",
                on_click=_accept_flags,
                args=(slot, size),
                help="The photo was read right here: stop flagging these cells",
            )
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
        rgb = render_board(board, uncertain=flagged)[:, :, ::-1].copy()
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
        placeholder=placeholder(size),
        help=BOARD_TEXT_HELP,
    )
    st.button(
        "Apply the text",
        key=f"apply_{slot}",
        on_click=_on_text,
        args=(slot, size),
        help="The text also applies when you leave the box",
    )


def _crowns_brush(slot: int, terrain: Terrain) -> None:
    """Crowns the terrain can carry, and no more: impossible counts are not offered."""
    key = f"brush_crowns_{slot}"
    most = terrain.max_crowns
    if most == 0:
        st.caption(f"{TERRAIN_LABELS[terrain]}: no crowns.")
        return
    # Before the widget is drawn, so that it shows what the brush will paint.
    st.session_state[key] = min(st.session_state.get(key) or 0, most)
    st.segmented_control("Brush: crowns", list(range(most + 1)), key=key, required=True)
    if most < 3:
        plural = "" if most == 1 else "s"
        st.caption(
            f"{TERRAIN_LABELS[terrain]} carries at most {most} crown{plural}: "
            "no real domino has more."
        )


def _brush(slot: int) -> Cell:
    terrain = Terrain(st.session_state.get(f"brush_terrain_{slot}", Terrain.WHEAT))
    crowns = min(st.session_state.get(f"brush_crowns_{slot}") or 0, terrain.max_crowns)
    return Cell(terrain, crowns)


def _brush_words(slot: int, terrain: Terrain) -> str:
    cell = _brush(slot)
    if not terrain.is_land:
        return "a hole"  # a castle brush cannot fill the castle's old cell
    return (
        f"{TERRAIN_LABELS[terrain].lower()}, {cell.crowns} crown{'' if cell.crowns == 1 else 's'}"
    )


def _moving_key(slot: int, size: int) -> str:
    return f"moving_castle_{size}_{slot}"


def _on_tap(slot: int, size: int) -> None:
    tap = st.session_state.get(f"tap_{size}_{slot}")
    if not tap:
        return
    cell = cell_at(tap["x"], tap["y"], tap["width"], tap["height"], size)
    if cell is None:
        return
    board = state.board(slot, size)
    brush = _brush(slot)
    state.set_board_error(slot, size, None)
    moving = _moving_key(slot, size)
    try:
        if st.session_state.pop(moving, False):
            # The castle was picked up: put it down here; its old cell takes the brush.
            old = board.castle
            fill = brush if brush.terrain is not Terrain.CASTLE else Cell(Terrain.EMPTY)
            new_board = move_castle(board, *cell, fill)
            changed = {cell, old}
        elif board[cell].terrain is Terrain.CASTLE and brush.terrain is not Terrain.CASTLE:
            st.session_state[moving] = True  # picked up; the next tap puts it down
            return
        else:
            new_board = paint(board, *cell, brush.terrain, brush.crowns)
            changed = {cell, board.castle}
    except BoardError as err:
        state.set_board_error(slot, size, f"{_sentence(str(err))}")
        return
    state.set_board(slot, size, new_board)
    reading = state.reading(slot, size)
    if reading is not None:
        reading.checked(changed)


def _accept_flags(slot: int, size: int) -> None:
    reading = state.reading(slot, size)
    if reading is not None:
        reading.checked(set(reading.to_check))


def _on_text(slot: int, size: int) -> None:
    text = st.session_state[state.text_key(slot, size)]
    state.note_typed(slot, size, text)
    if not text.strip():
        state.set_board_error(slot, size, None)
        return  # an empty box changes nothing (Clear starts the kingdom again)
    try:
        new_board = parse_board(text)
        if new_board.size != size:
            raise BoardError(
                f"the text has {new_board.size} rows but this game is played {size}×{size}, "
                f"so give {size} rows of {size} cells"
            )
    except BoardError as err:
        message = f"In the board text, {str(err).rstrip('.')}. The kingdom stays as it was."
        state.set_board_error(slot, size, message)
        return
    # Keep the user's own formatting in the box; only the board itself is replaced.
    old_board = state.board(slot, size)
    state.set_board(slot, size, new_board, update_text=False)
    reading = state.reading(slot, size)
    if reading is not None:  # a cell fixed by typing is checked, as one fixed by a tap
        reading.checked(
            {(r, c) for r, c, cell in new_board.iter_cells() if cell != old_board[r, c]}
        )


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


def _undo_photo(slot: int, size: int) -> None:
    previous = state.undo_board(slot, size)
    if previous is not None:
        state.set_board(slot, size, previous)
        state.set_reading(slot, size, None)
        state.set_photo(slot, None)  # else it would be read again
        state.forget_undo(slot, size)
