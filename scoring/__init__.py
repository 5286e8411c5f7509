"""Kingdomino rules: boards, regions, scores, the real tile set, rankings and Dynasty.

Pure Python: no image code and no I/O beyond this package's own data.
"""

from scoring.board import (
    CASTLE,
    EMPTY,
    LAND,
    SIZES,
    Board,
    BoardError,
    Cell,
    Terrain,
    board_from_json,
    format_board,
    parse_board,
)

__all__ = [
    "CASTLE",
    "EMPTY",
    "LAND",
    "SIZES",
    "Board",
    "BoardError",
    "Cell",
    "Terrain",
    "board_from_json",
    "format_board",
    "parse_board",
]
