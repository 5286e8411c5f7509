"""The board finder's public names, kept for existing imports; the code is in ``vision.find``."""

from vision.find import (
    SIZES,
    BoardLocation,
    NoBoardFound,
    centre_on_castle,
    find_board,
    location_from_corners,
    shift_frame,
)

__all__ = [
    "SIZES",
    "BoardLocation",
    "NoBoardFound",
    "centre_on_castle",
    "find_board",
    "location_from_corners",
    "shift_frame",
]
