"""Editing a kingdom one cell at a time, as the app's brush does, always keeping a valid board."""

from __future__ import annotations

from scoring import CASTLE, EMPTY, Board, BoardError, Cell, Terrain


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

    Crowns beyond what the terrain can carry are dropped to its maximum (the brush keeps its
    crown count while the user switches terrain). Painting the castle moves it: the old castle
    cell becomes empty. Painting over the castle with anything else is refused, since a kingdom
    always has one: the message says to move the castle first.
    """
    if terrain is Terrain.CASTLE:
        # Both cells change at once: a board with no castle in between would not be valid.
        cells = [list(cells_row) for cells_row in board.cells]
        old_row, old_col = board.castle
        cells[old_row][old_col] = EMPTY
        cells[row][col] = CASTLE
        return Board(tuple(tuple(cells_row) for cells_row in cells))
    if board[row, col].terrain is Terrain.CASTLE:
        raise BoardError(
            "that is the castle: to move it, paint the castle on another cell first", row, col
        )
    return board.replace(row, col, Cell(terrain, min(crowns, terrain.max_crowns)))
