"""Everything the user entered, kept in ``st.session_state`` so that nothing is lost.

Kingdoms are kept per player *slot* (0–3, the order in setup) and per board size, not per name:
renaming a player, switching the variant and back, or opening another page keeps every board.
A board changes only by the user's own action (a tap, the text box, a photo of that player, a
reset), and a photo that replaces a board keeps the old one for "undo". Each slot's latest photo
is kept once, whatever the size; its reading is kept per size, so a photo is read again when the
game's size changes.

Streamlit forgets a widget's value when the widget is not drawn in a run (another page is
shown, a player removed); ``keep_widget_values`` re-stores those values at the top of every run
to prevent that. The board-text boxes are left out: a value written back makes the browser
replace the box's content, which would drop what the user was typing while a run was under way;
a box Streamlit forgot is filled again from its board (``board``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from games.editing import blank_board
from games.model import Game, GameSetup
from scoring import Board, Terrain

if TYPE_CHECKING:  # the reader's own type, without importing vision on the first page
    from vision.cells import CellReadings

# Widget keys that hold user input which must survive page switches (see the module docstring).
_KEPT_PREFIXES = ("setup_", "source_", "sample_", "kingdom_shown")


def keep_widget_values() -> None:
    """Top of every run: hand the kept widget values to Streamlit again, as the user's own."""
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(_KEPT_PREFIXES):
            st.session_state[key] = st.session_state[key]


@dataclass(frozen=True)
class SlotPhoto:
    """A player's latest photo, decoded once; read again whenever the game's size changes."""

    id: str  # new for every photo taken, uploaded or chosen
    name: str  # the file name, or "camera photo"
    image: np.ndarray | None  # BGR (about 1600 px); None if the file was not an image
    # The kingdom's corners when the photo is of the whole table (read inside them); else None.
    corners: tuple[tuple[float, float], ...] | None = None


@dataclass
class PhotoReading:
    """What the app keeps of a photo it read for one player's kingdom (at one size)."""

    name: str  # the file name, or "camera photo"
    photo: np.ndarray | None  # BGR, decoded once (about 1600 px); None if it was not an image
    straightened: np.ndarray | None  # BGR, the kingdom filling the frame (None: not found)
    overlay: np.ndarray | None  # BGR preview of the photo with the grid drawn (if any)
    uncertain: set[tuple[int, int]] = field(default_factory=set)
    warnings: tuple[str, ...] = ()
    error: str | None = None  # why the photo could not be read, in words for the user
    corners: list[tuple[float, float]] = field(default_factory=list)  # taps for the fallback
    last_tap: int | None = None  # time of the last corner tap taken, so none is taken twice
    photo_id: str = ""  # the SlotPhoto it was read from
    corrected: set[tuple[int, int]] = field(default_factory=set)  # changed by joint decoding
    decoding: str = ""  # one sentence on what joint decoding did
    # The reader's probabilities (vision.cells.CellReadings), so that the kingdoms of one game
    # can be decoded together; not kept in the draft (a reload decodes no more).
    cells: CellReadings | None = None
    board: Board | None = None  # the board as read (and decoded); a different one was edited
    # Cells the reader read as holes that the user has not checked yet: a hole costs Harmony
    # (and a tile read as a hole changes the regions), so each is framed and keeps the result
    # provisional until the user paints or confirms it, as a flagged cell does.
    holes: set[tuple[int, int]] = field(default_factory=set)

    @property
    def to_check(self) -> set[tuple[int, int]]:
        """Cells to look at: those the reader was unsure of or that its decoding changed."""
        return self.uncertain | self.corrected

    @property
    def framed(self) -> set[tuple[int, int]]:
        """Every cell the editor frames for a look: the flagged ones and the holes read."""
        return self.to_check | self.holes

    def checked(self, cells) -> None:
        """The user fixed or confirmed these cells: they are no longer flagged."""
        self.uncertain.difference_update(cells)
        self.corrected.difference_update(cells)
        self.holes.difference_update(cells)


def _key(what: str, slot: int, size: int) -> str:
    return f"{what}_{size}_{slot}"


def text_key(slot: int, size: int) -> str:
    return _key("text", slot, size)


def board(slot: int, size: int) -> Board:
    key = _key("board", slot, size)
    if key not in st.session_state:
        st.session_state[key] = blank_board(size)
    text = text_key(slot, size)
    # The box shows what was last typed or read (both noted under typed_key). Streamlit forgets
    # a box it did not draw, or hands it back empty (a closed kingdom tab, a removed player):
    # then it is filled again. Text in the box is never replaced here: it is the user's.
    shown = st.session_state.get(typed_key(slot, size), board_text(st.session_state[key]))
    if text not in st.session_state or (shown and not st.session_state[text]):
        st.session_state[text] = shown
    return st.session_state[key]


def typed_key(slot: int, size: int) -> str:
    """Where the text box's content is noted (Streamlit forgets a box it did not draw)."""
    return _key("typed", slot, size)


def note_typed(slot: int, size: int, text: str) -> None:
    st.session_state[typed_key(slot, size)] = text


def board_text(shown: Board) -> str:
    """What the text box shows for a board: nothing for an untouched one (so typing starts on an
    empty box, with the placeholder showing the format), else its board text."""
    return "" if shown == blank_board(shown.size) else shown.to_text()


def set_board(slot: int, size: int, new_board: Board, update_text: bool = True) -> None:
    """Store a board and show it in the text box (unless the text box is where it came from).

    Call from callbacks or before the text box is drawn: Streamlit refuses to change a widget's
    value after the widget is on the page.
    """
    st.session_state[_key("board", slot, size)] = new_board
    if update_text:
        st.session_state[text_key(slot, size)] = board_text(new_board)
        note_typed(slot, size, board_text(new_board))
    st.session_state.pop(_key("board_error", slot, size), None)


def board_error(slot: int, size: int) -> str | None:
    return st.session_state.get(_key("board_error", slot, size))


def set_board_error(slot: int, size: int, message: str | None) -> None:
    st.session_state[_key("board_error", slot, size)] = message


def photo(slot: int) -> SlotPhoto | None:
    return st.session_state.get(f"photo_{slot}")


def set_photo(slot: int, new_photo: SlotPhoto | None) -> None:
    st.session_state[f"photo_{slot}"] = new_photo


def needs_reading(slot: int, size: int) -> bool:
    """Whether the slot's photo has not been read at this size yet (the size was switched)."""
    current = photo(slot)
    if current is None or current.image is None:
        return False
    found = reading(slot, size)
    return found is None or found.photo_id != current.id


def to_check(setup: GameSetup) -> dict[str, set[tuple[int, int]]]:
    """Player name → the cells of their current kingdom still flagged for a look."""
    flagged = {}
    for slot, name in enumerate(setup.players):
        found = reading(slot, setup.size)
        if found is not None and found.to_check:
            flagged[name] = set(found.to_check)
    return flagged


def holes_to_check(setup: GameSetup) -> dict[str, set[tuple[int, int]]]:
    """Player name → the cells of their current kingdom read as holes and not checked yet."""
    found_holes = {}
    for slot, name in enumerate(setup.players):
        found = reading(slot, setup.size)
        if found is not None and found.holes:
            found_holes[name] = set(found.holes)
    return found_holes


def read_holes(board: Board) -> set[tuple[int, int]]:
    """The cells of a board read from a photo that hold no tile (nor the castle)."""
    return {(r, c) for r, c, cell in board.iter_cells() if cell.terrain is Terrain.EMPTY}


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
    """Start this player's kingdom afresh (their own explicit action: a reset or a new game).

    The photo goes too: it would otherwise be read again at the other size.
    """
    set_board(slot, size, blank_board(size))
    set_reading(slot, size, None)
    set_photo(slot, None)
    forget_undo(slot, size)


def has_entry(slot: int) -> bool:
    """Whether anything of this player's kingdom was entered: a tile at either size, or a photo
    (looked up without drawing anything)."""
    boards = (st.session_state.get(_key("board", slot, size)) for size in (5, 7))
    entered = any(b is not None and b != blank_board(b.size) for b in boards)
    return entered or photo(slot) is not None


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
