"""Editing a kingdom one cell at a time, always keeping a valid board: the rules the app's board
editor follows in the browser (ui/board_editor.js), and its browser tests check against."""

from __future__ import annotations

import re

from scoring import CASTLE, EMPTY, Board, BoardError, Cell, Terrain
from scoring.board import terrain_name
from scoring.words import Message, msg, nmsg


def blank_board(size: int) -> Board:
    """Every cell empty except the castle in the centre: where a hand-entered kingdom starts."""
    middle = size // 2
    return Board(
        tuple(
            tuple(CASTLE if (r, c) == (middle, middle) else EMPTY for c in range(size))
            for r in range(size)
        )
    )


def paint(board: Board, row: int, col: int, terrain: Terrain, crowns: int = 0) -> Board:
    """``board`` with one cell painted.

    Crowns beyond what the terrain can carry are refused (no real domino has them), never
    silently changed. Painting the castle moves it: the old castle cell becomes empty. Painting
    over the castle with anything else is refused, since a kingdom always has one: use
    ``move_castle``.
    """
    if crowns > terrain.max_crowns:
        raise BoardError(
            nmsg(
                "{terrain} carries at most {n} crown: no real domino has more",
                "{terrain} carries at most {n} crowns: no real domino has more",
                terrain.max_crowns,
                terrain=terrain_name(terrain),
                n=terrain.max_crowns,
            ),
            row,
            col,
        )
    if terrain is Terrain.CASTLE:
        # Both cells change at once: a board with no castle in between would not be valid.
        cells = [list(cells_row) for cells_row in board.cells]
        old_row, old_col = board.castle
        cells[old_row][old_col] = EMPTY
        cells[row][col] = CASTLE
        return Board(tuple(tuple(cells_row) for cells_row in cells))
    if board[row, col].terrain is Terrain.CASTLE:
        raise BoardError(
            msg("that is the castle: to move it, paint the castle on another cell first"), row, col
        )
    return board.replace(row, col, Cell(terrain, crowns))


def move_castle(board: Board, row: int, col: int, old_cell: Cell) -> Board:
    """The castle moved to (row, col); its old cell becomes ``old_cell`` (say, the terrain the
    photo reader mistook for the castle)."""
    if old_cell.terrain is Terrain.CASTLE or old_cell.crowns > old_cell.terrain.max_crowns:
        raise BoardError(msg("the castle's old cell needs a terrain or a hole"), *board.castle)
    moved = paint(board, row, col, Terrain.CASTLE)
    old_row, old_col = board.castle
    if (old_row, old_col) == (row, col):
        return board
    return moved.replace(old_row, old_col, old_cell)


_GLUED = re.compile(r"(?:[WFLGSM][0-9]|C|\.){2,}", re.IGNORECASE)


def separator_hint(text: str) -> Message | None:
    """A hint for board text whose cells are not separated by spaces (commas, semicolons, or
    cells written together), added to the error it gives; None when the separators are fine."""
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    if any(mark in line for line in lines for mark in ",;"):
        return msg(
            "Separate the cells with spaces, not commas or semicolons: L1 L0 F0, not L1,L0,F0."
        )
    if any(_GLUED.fullmatch(token) for line in lines for token in line.split()):
        return msg("Put a space between the cells: L1 L0 F0, not L1L0F0.")
    return None


def photo_size_choice(
    game_size: int,
    photo_size: int,
    players: int,
    may_follow: bool,
    others_entered: bool,
) -> str:
    """What a photo of a ``photo_size`` kingdom does to a game played ``game_size``:

    - ``"same"``: the sizes match; the reading goes in.
    - ``"switch"``: a 7×7 kingdom in a two-player 5×5 game whose size may follow photos
      (``may_follow``: not chosen by hand, no Dynasty game over, the host's page): the game
      switches to Mighty Duel, with a notice and an undo.
    - ``"ask"``: as for a switch, but another player's kingdom is entered at 5×5 already; a
      switch would leave it out, so the player is asked first.
    - ``"mismatch"``: the sizes differ and the game cannot follow; the photo is explained.
    """
    if photo_size == game_size:
        return "same"
    if photo_size == 7 and game_size == 5 and players == 2 and may_follow:
        return "ask" if others_entered else "switch"
    return "mismatch"
