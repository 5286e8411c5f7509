"""The model's class order: index ``i`` of the terrain head is ``TERRAINS[i]``; crowns are 0–3."""

from __future__ import annotations

from scoring.board import Terrain

# The order of scoring.Terrain: wheat, forest, lake, grassland, swamp, mine, castle, empty.
TERRAINS: tuple[Terrain, ...] = tuple(Terrain)
CROWN_CLASSES = 4  # 0, 1, 2 or 3 crowns


def terrain_index(name: str) -> int:
    return TERRAINS.index(Terrain(name))
