"""Regions, bonuses and the total of one kingdom."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import LAND, Board, Terrain
from scoring.tileset import check_kingdom
from scoring.words import Joined, Message, msg, nmsg, where


@dataclass(frozen=True)
class Rules:
    """The optional rules; both are on by default, as in the rulebook."""

    middle_kingdom: bool = True
    harmony: bool = True


@dataclass(frozen=True)
class Region:
    """A 4-connected group of cells of one terrain. ``cells`` are (row, col), sorted."""

    terrain: Terrain
    cells: tuple[tuple[int, int], ...]
    crowns: int

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def points(self) -> int:
        return self.size * self.crowns


@dataclass(frozen=True)
class Bonus:
    """An optional-rule bonus: its points (0 when not earned or switched off) and why."""

    name: str  # "Middle Kingdom" or "Harmony" (an identifier; the app says it in each language)
    points: int
    reason: Message


@dataclass(frozen=True)
class Score:
    board: Board
    rules: Rules
    regions: tuple[Region, ...]  # every region, crowned or not, largest points first
    middle_kingdom: Bonus
    harmony: Bonus
    warnings: tuple[Message, ...]  # tile-set warnings for this kingdom alone

    @property
    def base(self) -> int:
        return sum(region.points for region in self.regions)

    @property
    def total(self) -> int:
        return self.base + self.middle_kingdom.points + self.harmony.points

    @property
    def largest_region(self) -> int:
        """Cells in the largest region, crowned or not (the first tie-break)."""
        return max((region.size for region in self.regions), default=0)

    @property
    def crowns(self) -> int:
        """All crowns in the kingdom (the second tie-break)."""
        return sum(region.crowns for region in self.regions)

    def to_dict(self) -> dict:
        """Plain data for JSON, as the CLI prints it (``kingdomino score --json``)."""
        return {
            "size": self.board.size,
            "grid": self.board.rows_text(),
            "regions": [
                {
                    "terrain": region.terrain.value,
                    "cells": [list(cell) for cell in region.cells],
                    "crowns": region.crowns,
                    "points": region.points,
                }
                for region in self.regions
            ],
            "base": self.base,
            "middle_kingdom": self.middle_kingdom.points,
            "middle_kingdom_reason": self.middle_kingdom.reason,
            "harmony": self.harmony.points,
            "harmony_reason": self.harmony.reason,
            "total": self.total,
            "largest_region": self.largest_region,
            "crowns": self.crowns,
            "warnings": list(self.warnings),
        }

    def points_by_terrain(self) -> dict[Terrain, int]:
        """Points per land terrain, all six present (0 when a terrain scores nothing)."""
        points = dict.fromkeys(LAND, 0)
        for region in self.regions:
            points[region.terrain] += region.points
        return points


def find_regions(board: Board) -> tuple[Region, ...]:
    """Every region of ``board``: most points first, then largest, then by terrain and position."""
    size = board.size
    seen = [[False] * size for _ in range(size)]
    regions = []
    for r, c, cell in board.iter_cells():
        if seen[r][c] or not cell.terrain.is_land:
            continue
        # Flood fill from (r, c) over 4-neighbours of the same terrain.
        terrain = cell.terrain
        seen[r][c] = True
        stack = [(r, c)]
        cells = []
        crowns = 0
        while stack:
            y, x = stack.pop()
            cells.append((y, x))
            crowns += board.cells[y][x].crowns
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if (
                    0 <= ny < size
                    and 0 <= nx < size
                    and not seen[ny][nx]
                    and board.cells[ny][nx].terrain is terrain
                ):
                    seen[ny][nx] = True
                    stack.append((ny, nx))
        cells.sort()
        regions.append(Region(terrain, tuple(cells), crowns))
    # Flood fill visits regions in reading order of their first cell, and sort() is stable, so
    # regions equal in points and size keep that order: the result is deterministic.
    regions.sort(key=lambda region: (-region.points, -region.size))
    return tuple(regions)


def middle_kingdom_bonus(board: Board, enabled: bool = True) -> Bonus:
    """+10 when the castle is at the centre of the kingdom's N×N frame.

    An incomplete kingdom (holes at its edge) has no fixed frame: its castle counts as centred
    when some N×N frame that holds every tile has the castle at its centre. That frame is the one
    centred on the castle, so the test is that no tile lies more than N // 2 rows or columns away
    from the castle. For a complete kingdom this is exactly "the castle is the centre cell".
    """
    name = "Middle Kingdom"
    if not enabled:
        return Bonus(name, 0, msg("Middle Kingdom is switched off (an optional rule)."))
    size = board.size
    half = size // 2
    row, col = board.castle
    castle = where(row, col)
    tiles = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain is not Terrain.EMPTY]
    reach = {
        "above": max(row - r for r, _ in tiles),
        "below": max(r - row for r, _ in tiles),
        "left": max(col - c for _, c in tiles),
        "right": max(c - col for _, c in tiles),
    }
    too_far = [(side, n) for side, n in reach.items() if n > half]
    if too_far:
        side, n = too_far[0]
        return Bonus(name, 0, _off_centre(side, castle=castle, n=n, half=half, size=size))
    if (row, col) == (half, half) and all(n == half for n in reach.values()):
        return Bonus(
            name,
            10,
            msg(
                "The castle ({castle}) is the centre cell of the {size}×{size} kingdom.",
                castle=castle,
                size=size,
            ),
        )
    return Bonus(
        name,
        10,
        msg(
            "The kingdom is incomplete, and the {size}×{size} frame centred on the castle "
            "({castle}) holds every tile, so the castle counts as centred.",
            castle=castle,
            size=size,
        ),
    )


def _off_centre(side: str, **values) -> Message:
    """Why the castle is not centred; one sentence per side, as each language words "above it"
    and "left of it" its own way."""
    n = values["n"]
    if side == "above":
        return nmsg(
            "The castle ({castle}) is not at the centre: tiles reach {n} cell above it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            "The castle ({castle}) is not at the centre: tiles reach {n} cells above it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            n,
            **values,
        )
    if side == "below":
        return nmsg(
            "The castle ({castle}) is not at the centre: tiles reach {n} cell below it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            "The castle ({castle}) is not at the centre: tiles reach {n} cells below it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            n,
            **values,
        )
    if side == "left":
        return nmsg(
            "The castle ({castle}) is not at the centre: tiles reach {n} cell left of it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            "The castle ({castle}) is not at the centre: tiles reach {n} cells left of it, more "
            "than the {half} a centred castle allows in a {size}×{size} kingdom.",
            n,
            **values,
        )
    return nmsg(
        "The castle ({castle}) is not at the centre: tiles reach {n} cell right of it, more "
        "than the {half} a centred castle allows in a {size}×{size} kingdom.",
        "The castle ({castle}) is not at the centre: tiles reach {n} cells right of it, more "
        "than the {half} a centred castle allows in a {size}×{size} kingdom.",
        n,
        **values,
    )


def harmony_bonus(board: Board, enabled: bool = True) -> Bonus:
    """+5 when every cell of the N×N frame holds a tile (no hole left by a discarded domino)."""
    name = "Harmony"
    if not enabled:
        return Bonus(name, 0, msg("Harmony is switched off (an optional rule)."))
    cells = board.size * board.size
    holes = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain is Terrain.EMPTY]
    if not holes:
        return Bonus(name, 5, msg("All {cells} cells hold a tile.", cells=cells))
    shown: Joined | Message = Joined(tuple(where(r, c) for r, c in holes[:4]))
    if len(holes) > 4:
        shown = msg("{cells} and {n} more", cells=shown, n=len(holes) - 4)
    return Bonus(
        name,
        0,
        nmsg(
            "{n} cell is empty ({cells_named}); Harmony needs all {cells} filled.",
            "{n} cells are empty ({cells_named}); Harmony needs all {cells} filled.",
            len(holes),
            n=len(holes),
            cells_named=shown,
            cells=cells,
        ),
    )


def score_board(board: Board, rules: Rules = Rules(), *, check_tiles: bool = True) -> Score:
    """Score one kingdom. ``check_tiles=False`` skips the (slower) real-tile-set warnings."""
    return Score(
        board=board,
        rules=rules,
        regions=find_regions(board),
        middle_kingdom=middle_kingdom_bonus(board, rules.middle_kingdom),
        harmony=harmony_bonus(board, rules.harmony),
        warnings=check_kingdom(board) if check_tiles else (),
    )
