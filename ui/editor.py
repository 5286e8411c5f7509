"""The one board editor, for entry by hand and for correcting a photo's reading.

The board itself is edited in the browser (``ui.board_component``): the user picks a brush
(terrain and crowns) and taps cells, which are painted at once; tapping the castle picks it up
and the next tap puts it down. When the taps pause, the board comes back here (``_on_edit``) and
the result follows. A text box takes the same board as board text (applied when it loses focus
or on "Apply"). Both edit the board kept in ``ui.state``; the cells a photo reading flagged stay
marked until the user paints or confirms them, one by one (docs/editor.md).
"""

from __future__ import annotations

import streamlit as st

from games.editing import separator_hint
from games.results import cells_text
from scoring import BoardError, Cell, Terrain, parse_board
from scoring.words import joined, msg
from ui import board_component, state
from ui.language import _, ngettext, say
from ui.text import escape_markdown


def board_text_help() -> str:
    return _(
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
    rows = [[". "] * size for _row in range(size)]
    rows[size // 2][size // 2] = "C "
    rows[0][:3] = ["W1 ", "W0 ", "F0 "]
    rows[1][:2] = ["L1 ", "L0 "]
    example = "\n".join("".join(row).strip() for row in rows)
    return _("Type the kingdom row by row, for example:") + "\n" + example


def board_editor(slot: int, name: str, size: int) -> None:
    board = state.board(slot, size)
    reading = state.reading(slot, size)
    flagged = reading.framed if reading is not None else set()
    st.html(_HIDE_CTRL_ENTER_HINT)

    # On a phone the columns stack: the board (with its brush) comes first.
    editor, controls = st.columns([3, 2], gap="medium")
    with editor:
        board_component.board_editor(
            editor_key(slot, size),
            board,
            flagged,
            brush(slot),
            st.session_state.get(_ack_key(slot, size)),
            on_edit=lambda: _on_edit(slot, size),
        )
    with controls:
        error = state.board_error(slot, size)
        if error:  # beside the board, where the tap or the text was
            st.error(escape_markdown(say(error)))
        if flagged:
            one = len(flagged) == 1
            cells = say(cells_text(flagged))
            if one:
                check = _(
                    "Check {cells}, framed in magenta: paint it with the brush, or tap it with "
                    "**Right as read** if the photo was read right there.",
                    cells=cells,
                )
            else:
                check = _(
                    "Check {cells}, framed in magenta: paint each with the brush, or tap it with "
                    "**Right as read** if the photo was read right there; or confirm them all "
                    "below.",
                    cells=cells,
                )
            st.warning(check)
            st.button(
                ngettext("This cell is right", "These cells are right", len(flagged)),
                key=f"accept_{slot}",
                icon=":material/done_all:",
                on_click=_accept_flags,
                args=(slot, size),
                help=_("The photo was read right here: stop flagging these cells"),
            )
        if state.undo_board(slot, size) is not None:
            st.button(
                _("Undo the photo"),
                key=f"undo_{slot}",
                on_click=_undo_photo,
                args=(slot, size),
                help=_("Back to the board as it was before this photo was read"),
            )
        st.button(
            _("Clear {player}'s kingdom", player=escape_markdown(name)),
            key=f"clear_{slot}",
            on_click=state.clear_kingdom,
            args=(slot, size),
            help=_("Start this kingdom again from an empty board with only the castle"),
        )
    st.text_area(
        _("{player}'s kingdom as board text", player=escape_markdown(name)),
        key=state.text_key(slot, size),
        on_change=_on_text,
        args=(slot, size),
        height=68 + 24 * size,
        placeholder=placeholder(size),
        help=board_text_help(),
    )
    st.button(
        _("Apply the text"),
        key=f"apply_{slot}",
        on_click=_on_text,
        args=(slot, size),
        help=_("The text also applies when you leave the box"),
    )


def editor_key(slot: int, size: int) -> str:
    """The board component's key: one per player and size (each keeps its own state)."""
    return f"board_editor_{size}_{slot}"


def _ack_key(slot: int, size: int) -> str:
    return f"editor_ack_{size}_{slot}"


def brush(slot: int) -> Cell:
    """The brush the player last painted with (wheat, no crowns, at first)."""
    terrain = Terrain(st.session_state.get(f"brush_terrain_{slot}", Terrain.WHEAT))
    crowns = min(st.session_state.get(f"brush_crowns_{slot}") or 0, terrain.max_crowns)
    return Cell(terrain, crowns)


def _on_edit(slot: int, size: int) -> None:
    """The browser sent the board after a burst of taps: take it, and unflag only the cells the
    user painted or confirmed."""
    value = st.session_state[editor_key(slot, size)].get("edit")
    try:
        edit = board_component.parse_edit(value, size)
    except BoardError as err:  # not from our editor's own code: say so, keep the board
        state.set_board_error(
            slot, size, msg("The board was not changed: {problem}.", problem=err.message)
        )
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            st.session_state[_ack_key(slot, size)] = value["id"]
        return
    st.session_state[_ack_key(slot, size)] = edit.id  # the browser may show Python's board again
    st.session_state[f"brush_terrain_{slot}"] = edit.brush.terrain
    st.session_state[f"brush_crowns_{slot}"] = edit.brush.crowns
    if edit.board != state.board(slot, size):
        state.set_board(slot, size, edit.board)
    state.set_board_error(slot, size, None)
    reading = state.reading(slot, size)
    if reading is not None:
        reading.checked(edit.touched)


def _accept_flags(slot: int, size: int) -> None:
    reading = state.reading(slot, size)
    if reading is not None:
        reading.checked(set(reading.framed))


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
                msg(
                    "the text has {n} rows but this game is played {size}×{size}, so give "
                    "{size} rows of {size} cells",
                    n=new_board.size,
                    size=size,
                )
            )
    except BoardError as err:
        message = msg(
            "In the board text, {problem}. The kingdom stays as it was.", problem=err.message
        )
        hint = separator_hint(text)
        state.set_board_error(slot, size, message if hint is None else joined([message, hint]))
        return
    # Keep the user's own formatting in the box; only the board itself is replaced.
    old_board = state.board(slot, size)
    state.set_board(slot, size, new_board, update_text=False)
    reading = state.reading(slot, size)
    if reading is not None:  # a cell fixed by typing is checked, as one fixed by a tap
        reading.checked(
            {(r, c) for r, c, cell in new_board.iter_cells() if cell != old_board[r, c]}
        )


def _undo_photo(slot: int, size: int) -> None:
    previous = state.undo_board(slot, size)
    if previous is not None:
        state.set_board(slot, size, previous)
        state.set_reading(slot, size, None)
        state.set_photo(slot, None)  # else it would be read again
        state.forget_undo(slot, size)
