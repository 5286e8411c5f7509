"""Finding kingdoms in a photo, one module per stage.

| stage | module |
|---|---|
| where a kingdom is (corners, size, homography) | ``vision.find.location`` |
| table model: what is table, what lies on it | ``vision.find.table`` |
| candidate regions: blobs of tiles and outlines | ``vision.find.regions`` |
| tile edges: gradients, and how many lattice lines they support | ``vision.find.edges`` |
| lattice fit and refinement | ``vision.find.lattice`` |
| the kingdom's extent on its lattice: N×N frame, tiles past it | ``vision.find.extent`` |
| kingdom decision: real tiles, complete or cut off | ``vision.find.decision`` |
| the stages in order | ``vision.find.search`` (``find_board``) |
"""

from vision.find.location import (
    SIZES,
    BoardLocation,
    NoBoardFound,
    centre_on_castle,
    location_from_corners,
    over_strip_beyond,
    shift_frame,
    strip_cells,
)
from vision.find.search import find_board

__all__ = [
    "SIZES",
    "BoardLocation",
    "NoBoardFound",
    "centre_on_castle",
    "find_board",
    "location_from_corners",
    "over_strip_beyond",
    "shift_frame",
    "strip_cells",
]
