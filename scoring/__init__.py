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
from scoring.ranking import (
    DynastyResult,
    Ranking,
    Standing,
    rank_dynasty,
    rank_players,
)
from scoring.score import Bonus, Region, Rules, Score, find_regions, score_board
from scoring.tileset import check_game, check_kingdom

__all__ = [
    "CASTLE",
    "EMPTY",
    "LAND",
    "SIZES",
    "Board",
    "BoardError",
    "Bonus",
    "Cell",
    "DynastyResult",
    "Ranking",
    "Region",
    "Rules",
    "Score",
    "Standing",
    "Terrain",
    "board_from_json",
    "check_game",
    "check_kingdom",
    "find_regions",
    "format_board",
    "parse_board",
    "rank_dynasty",
    "rank_players",
    "score_board",
]
