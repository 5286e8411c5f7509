"""Everything the user entered, kept in ``st.session_state`` so that nothing is lost.

Kingdoms are kept per player *slot* (0–3, the order in setup) and per board size, not per name:
renaming a player, switching the variant and back, or opening another page keeps every board.
A board changes only by the user's own action (a tap, the text box, a photo of that player, a
reset), and a photo that replaces a board keeps the old one for "undo".

Streamlit forgets a widget's value when the widget is not drawn in a run (another page is
shown); ``keep_widget_values`` re-stores those values at the top of every run to prevent that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from games.editing import blank_board
from games.model import Game, GameSetup
from scoring import Board

# Widget keys that hold user input which must survive page switches (see the module docstring).
_KEPT_PREFIXES = ("setup_", "brush_", "source_", "text_", "sample_")


def keep_widget_values() -> None:
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(_KEPT_PREFIXES):
            st.session_state[key] = st.session_state[key]


@dataclass
class PhotoReading:
    """What the app keeps of a photo it read for one player's kingdom."""

    name: str  # the file name, or "camera photo"
    photo: np.ndarray | None  # BGR, decoded once (about 1600 px); None if it was not an image
    straightened: np.ndarray | None  # BGR, the kingdom filling the frame (None: not found)
    overlay: np.ndarray | None  # BGR preview of the photo with the grid drawn (if any)
    uncertain: set[tuple[int, int]] = field(default_factory=set)
    warnings: tuple[str, ...] = ()
    error: str | None = None  # why the photo could not be read, in words for the user
    corners: list[tuple[float, float]] = field(default_factory=list)  # taps for the fallback
    last_tap: int | None = None  # time of the last corner tap taken, so none is taken twice


def _key(what: str, slot: int, size: int) -> str:
    return f"{what}_{size}_{slot}"


def text_key(slot: int, size: int) -> str:
    return _key("text", slot, size)


def board(slot: int, size: int) -> Board:
    key = _key("board", slot, size)
    if key not in st.session_state:
        st.session_state[key] = blank_board(size)
    text = text_key(slot, size)
    if text not in st.session_state:
        st.session_state[text] = st.session_state[key].to_text()
    return st.session_state[key]


def set_board(slot: int, size: int, new_board: Board, update_text: bool = True) -> None:
    """Store a board and show it in the text box (unless the text box is where it came from).

    Call from callbacks or before the text box is drawn: Streamlit refuses to change a widget's
    value after the widget is on the page.
    """
    st.session_state[_key("board", slot, size)] = new_board
    if update_text:
        st.session_state[text_key(slot, size)] = new_board.to_text()
    st.session_state.pop(_key("board_error", slot, size), None)


def board_error(slot: int, size: int) -> str | None:
    return st.session_state.get(_key("board_error", slot, size))


def set_board_error(slot: int, size: int, message: str | None) -> None:
    st.session_state[_key("board_error", slot, size)] = message


def reading(slot: int, size: int) -> PhotoReading | None:
    return st.session_state.get(_key("reading", slot, size))


def set_reading(slot: int, size: int, new_reading: PhotoReading | None) -> None:
    st.session_state[_key("reading", slot, size)] = new_reading


def remember_undo(slot: int, size: int) -> None:
    """Keep the current board before a photo replaces it."""
    st.session_state[_key("undo", slot, size)] = board(slot, size)


def undo_board(slot: int, size: int) -> Board | None:
    return st.session_state.get(_key("undo", slot, size))


def forget_undo(slot: int, size: int) -> None:
    st.session_state.pop(_key("undo", slot, size), None)


def clear_kingdom(slot: int, size: int) -> None:
    """Start this player's kingdom afresh (their own explicit action: a reset or a new game)."""
    set_board(slot, size, blank_board(size))
    set_reading(slot, size, None)
    forget_undo(slot, size)


def finished_rounds() -> list[tuple[Board, ...]]:
    """The boards of the Dynasty games already over (0–2 of them; empty for a single game).

    The game being entered is never in this list: in a Dynasty the third game stays the current
    one, and the winner shows as soon as its kingdoms are in.
    """
    return st.session_state.setdefault("finished_rounds", [])


def finished_photos() -> list[dict[str, np.ndarray]]:
    """Straightened photos of the finished games' kingdoms, by player (parallel to the rounds)."""
    return st.session_state.setdefault("finished_photos", [])


def photos_by_game(setup: GameSetup) -> list[dict[str, np.ndarray]]:
    """For each game of ``current_game``: player name → straightened photo, if there was one."""
    current = {}
    for slot, name in enumerate(setup.players):
        found = reading(slot, setup.size)
        if found is not None and found.straightened is not None:
            current[name] = found.straightened
    return [*finished_photos(), current]


def current_game(setup: GameSetup) -> Game:
    """The setup with the finished games and the boards being entered now."""
    current = tuple(board(slot, setup.size) for slot in range(len(setup.players)))
    return Game(setup, (*finished_rounds(), current))
