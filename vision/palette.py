"""The colours a board is drawn in, shared by the drawn picture (``vision.render``) and the
app's board editor in the browser, so both show a kingdom alike. BGR, OpenCV's order.

No OpenCV here: the app's first page takes these colours without loading the image libraries.
"""

from __future__ import annotations

from scoring import Terrain

# Flat colours close to the tiles' art, light enough for dark crowns and letters on top.
TERRAIN_COLOURS: dict[Terrain, tuple[int, int, int]] = {
    Terrain.WHEAT: (70, 200, 235),
    Terrain.FOREST: (60, 120, 40),
    Terrain.LAKE: (200, 130, 50),
    Terrain.GRASSLAND: (100, 205, 140),
    Terrain.SWAMP: (110, 140, 150),
    Terrain.MINE: (60, 60, 70),
    Terrain.CASTLE: (215, 210, 205),
    Terrain.EMPTY: (235, 240, 245),
}
CROWN_FILL = (40, 205, 250)
CROWN_EDGE = (20, 40, 60)
GRID_LINE = (50, 50, 50)
UNCERTAIN_MARK = (200, 30, 220)  # magenta: stands out on every terrain colour
# Terrains dark enough that their letter is drawn light.
DARK_TERRAINS = frozenset({Terrain.FOREST, Terrain.MINE, Terrain.LAKE})
