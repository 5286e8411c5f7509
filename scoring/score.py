"""Regions, bonuses and the total of one kingdom."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.board import Board, Terrain


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

    name: str  # "Middle Kingdom" or "Harmony"
    points: int
    reason: str


@dataclass(frozen=True)
class Score:
    board: Board
    rules: Rules
    regions: tuple[Region, ...]  # every region, crowned or not, largest points first
    middle_kingdom: Bonus
    harmony: Bonus
    warnings: tuple[str, ...]  # tile-set warnings for this kingdom alone

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

    def points_by_terrain(self) -> dict[Terrain, int]:
        ...


def find_regions(board: Board) -> tuple[Region, ...]:
    ...


def score_board(board: Board, rules: Rules = Rules()) -> Score:
    ...
