"""The 48 real dominoes, and the checks that a kingdom (or a game) could be built from them.

Two kinds of warning, never errors (a photo may be misread; the user decides):

- counts: a kingdom (or a game's kingdoms together) holds more cells of a kind than the set has
  squares, e.g. 7 mine cells (the set has 6) or two 3-crown mines (it has one);
- exact cover: the filled cells other than the castle cannot be split into adjacent pairs that
  are distinct real dominoes. Many dominoes are identical, so the search counts domino *types*
  (an unordered pair of halves) instead of numbering dominoes.

The cover search is a depth-first search that always extends the most constrained cell (fewest
possible partners). It drops any state where a connected group of uncovered cells cannot be
tiled by dominoes (odd size, or unequal black and white cells of the checkerboard: a domino
always covers one of each) or where the cells of one kind cannot all find a partner, remembers
states that failed, and gives up after a fixed number of steps with a "could not verify" warning
rather than hang.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path

from scoring.board import Board, Cell, Terrain, terrain_name
from scoring.words import Joined, Message, msg, nmsg, where

# Search steps before giving up: at most about 130 ms on this machine (a step costs 25-45 µs
# on a 7×7 board); real kingdoms need a few dozen steps, the worst adversarial board we found
# about 2,250 (see python -m scoring.benchmark).
SEARCH_BUDGET = 3000
_SHOWN_CELLS = 6  # cells named in one warning before "and N more"


@dataclass(frozen=True)
class Domino:
    number: int  # as printed on the back of the tile, 1–48
    first: Cell
    second: Cell

    @property
    def kind(self) -> tuple[Cell, Cell]:
        """The two halves in a fixed order, so identical dominoes have equal kinds."""
        return _domino_kind(self.first, self.second)


def _domino_kind(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    return (a, b) if _half_order(a) <= _half_order(b) else (b, a)


_TERRAIN_ORDER = {terrain: i for i, terrain in enumerate(Terrain)}


def _half_order(cell: Cell) -> tuple[int, int]:
    return _TERRAIN_ORDER[cell.terrain], cell.crowns


@cache
def _kind_number(a: Cell, b: Cell) -> int | None:
    """The index of the domino kind with halves ``a`` and ``b`` in ``kinds_in_set()``, if real."""
    numbers = {kind: i for i, kind in enumerate(kinds_in_set())}
    return numbers.get(_domino_kind(a, b))


@cache
def dominoes() -> tuple[Domino, ...]:
    """The 48 dominoes of the base game, read once from the package data."""
    # A file beside this module (importlib.resources would add its imports to every CLI run).
    text = (Path(__file__).resolve().parent / "data" / "dominoes.csv").read_text(encoding="utf-8")
    return tuple(
        Domino(
            int(row["number"]),
            Cell(Terrain(row["terrain_a"]), int(row["crowns_a"])),
            Cell(Terrain(row["terrain_b"]), int(row["crowns_b"])),
        )
        for row in csv.DictReader(text.splitlines())
    )


@cache
def squares_in_set() -> Counter[Cell]:
    """How many domino halves of each kind (terrain and crowns) the set has."""
    return Counter(half for domino in dominoes() for half in (domino.first, domino.second))


@cache
def kinds_in_set() -> Counter[tuple[Cell, Cell]]:
    """How many dominoes of each kind (unordered pair of halves) the set has."""
    return Counter(domino.kind for domino in dominoes())


def _cell_list(places: Sequence[Message]) -> Joined | Message:
    shown = Joined(tuple(places[:_SHOWN_CELLS]))
    more = len(places) - _SHOWN_CELLS
    return msg("{cells} and {n} more", cells=shown, n=more) if more > 0 else shown


def _describe(cell: Cell) -> Message:
    terrain = terrain_name(cell.terrain)
    if cell.crowns == 0:
        return msg("{terrain} without crown", terrain=terrain)
    return nmsg(
        "{terrain} with {n} crown",
        "{terrain} with {n} crowns",
        cell.crowns,
        terrain=terrain,
        n=cell.crowns,
    )


def _land(board: Board) -> list[tuple[int, int, Cell]]:
    return [(r, c, cell) for r, c, cell in board.iter_cells() if cell.terrain.is_land]


def _count_warnings(
    land: Sequence[tuple[Message, Cell]], players: Sequence[str] = ()
) -> list[Message]:
    """Warnings for more cells of a terrain, or of a terrain with given crowns, than the set has.

    ``land`` holds (where the cell is, the cell); ``players`` are the kingdoms counted together
    (none: one kingdom).
    """
    warnings = []
    set_terrain = Counter()
    for half, n in squares_in_set().items():
        set_terrain[half.terrain] += n
    for terrain, n in Counter(cell.terrain for _, cell in land).items():
        if n > set_terrain[terrain]:
            places = [place for place, cell in land if cell.terrain is terrain]
            values = dict(
                n=n,
                terrain=terrain_name(terrain),
                most=set_terrain[terrain],
                cells=_cell_list(places),
            )
            if players:
                warnings.append(
                    msg(
                        "{players} together have {n} {terrain} cells but the set has only "
                        "{most} {terrain} squares: check the terrain of {cells}.",
                        players=list(players),
                        **values,
                    )
                )
            else:
                warnings.append(
                    msg(
                        "The kingdom has {n} {terrain} cells but the set has only {most} "
                        "{terrain} squares: check the terrain of {cells}.",
                        **values,
                    )
                )
    for kind, n in Counter(cell for _, cell in land).items():
        available = squares_in_set()[kind]
        if n > available:
            places = [place for place, cell in land if cell == kind]
            values = dict(n=n, kind=_describe(kind), most=available, cells=_cell_list(places))
            if players:
                warnings.append(
                    msg(
                        "{players} together have {n} cells of {kind} but the set has only "
                        "{most}: check the terrain and crowns of {cells}.",
                        players=list(players),
                        **values,
                    )
                )
            else:
                warnings.append(
                    msg(
                        "The kingdom has {n} cells of {kind} but the set has only {most}: "
                        "check the terrain and crowns of {cells}.",
                        **values,
                    )
                )
    return warnings


class Outcome(Enum):
    SPLITS = "splits"
    CANNOT_SPLIT = "cannot split"
    UNKNOWN = "search budget used up"


@dataclass(frozen=True)
class CoverResult:
    outcome: Outcome
    # When it splits: the dominoes found, as pairs of indices into the cells searched.
    pairs: tuple[tuple[int, int], ...] = ()
    # When it cannot, what the search most often failed on: one cell left without a partner,
    # or all cells of one kind (e.g. the M2 cells) that could not all find partners.
    hardest: tuple[int, ...] = ()
    unpairable: tuple[int, ...] = ()  # cells no neighbour forms a real domino with
    steps: int = 0  # states the search expanded (for the benchmark and the budget)


class _BudgetUsed(Exception):
    pass


def find_cover(
    cells: Sequence[Cell],
    neighbours: Sequence[Sequence[int]],
    black: Sequence[bool],
    budget: int = SEARCH_BUDGET,
) -> CoverResult:
    """Split ``cells`` (a graph given by ``neighbours``) into adjacent pairs of real dominoes.

    ``black`` is each cell's checkerboard colour. Each domino kind is used at most as often as
    the set has it.
    """
    n = len(cells)
    available = list(kinds_in_set().values())
    # For each cell, its neighbours that would form a real domino with it, and which kind.
    options = [
        [(j, k) for j in neighbours[i] if (k := _kind_number(cells[i], cells[j])) is not None]
        for i in range(n)
    ]
    # Cells of one kind (terrain and crowns) are interchangeable for the partner count below.
    halves = {cell: h for h, cell in enumerate(dict.fromkeys(cells))}
    half_of = [halves[cell] for cell in cells]
    same_half_kind = [_kind_number(cell, cell) for cell in halves]  # e.g. W0+W0; None if none
    other_half_options = [[(j, k) for j, k in options[i] if cells[j] != cells[i]] for i in range(n)]
    neighbour_mask = [sum(1 << j for j in neighbours[i]) for i in range(n)]
    black_mask = sum(1 << i for i in range(n) if black[i])
    everything = (1 << n) - 1
    failed: set[tuple[int, tuple[int, ...]]] = set()
    stuck = Counter()  # cell -> times the search found it without a partner
    short_of = Counter()  # kind of cell -> times its cells could not all find partners
    pairs: list[tuple[int, int]] = []
    steps = 0

    def tileable(free: int) -> bool:
        """Every connected group of free cells has as many black as white cells."""
        while free:
            group = frontier = free & -free
            while frontier:
                grown = 0
                while frontier:
                    low = frontier & -frontier
                    grown |= neighbour_mask[low.bit_length() - 1]
                    frontier ^= low
                frontier = grown & free & ~group
                group |= frontier
            if (group & black_mask).bit_count() * 2 != group.bit_count():
                return False
            free &= ~group
        return True

    def enough_partners(free: int) -> bool:
        """Each kind's free cells can still be paired: at most two per domino of that kind
        doubled (W0+W0 covers two W0 cells), every other one needs its own neighbour of a
        different kind that is free and would make an available domino with it."""
        count: dict[int, int] = {}
        partners: dict[int, int] = {}  # kind -> bit mask of usable partner cells
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            i = low.bit_length() - 1
            h = half_of[i]
            count[h] = count.get(h, 0) + 1
            mask = partners.get(h, 0)
            for j, k in other_half_options[i]:
                if free >> j & 1 and available[k]:
                    mask |= 1 << j
            partners[h] = mask
        for h, cells_left in count.items():
            k = same_half_kind[h]
            doubles = available[k] if k is not None else 0
            if cells_left - 2 * doubles > partners[h].bit_count():
                short_of[h] += 1
                return False
        return True

    def search(covered: int) -> bool:
        nonlocal steps
        if covered == everything:
            return True
        steps += 1
        if steps > budget:
            raise _BudgetUsed
        state = (covered, tuple(available))
        if state in failed:
            return False
        free = everything & ~covered
        if not enough_partners(free):
            failed.add(state)
            return False
        # The free cell with the fewest possible partners; none at all means a dead end.
        best, best_moves = -1, None
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            i = low.bit_length() - 1
            moves = [(j, k) for j, k in options[i] if free >> j & 1 and available[k]]
            if not moves:
                stuck[i] += 1
                failed.add(state)
                return False
            if best_moves is None or len(moves) < len(best_moves):
                best, best_moves = i, moves
                if len(moves) == 1:
                    break
        for j, k in best_moves:
            after = covered | 1 << best | 1 << j
            available[k] -= 1
            if tileable(everything & ~after) and search(after):
                pairs.append((best, j))
                return True
            available[k] += 1
        failed.add(state)
        return False

    try:
        found = tileable(everything) and search(0)
    except _BudgetUsed:
        return CoverResult(Outcome.UNKNOWN, steps=steps)
    if found:
        return CoverResult(Outcome.SPLITS, pairs=tuple(reversed(pairs)), steps=steps)
    cell, cell_failures = (stuck.most_common(1) or [(None, 0)])[0]
    kind, kind_failures = (short_of.most_common(1) or [(None, 0)])[0]
    if kind_failures > cell_failures:
        hardest = tuple(i for i in range(n) if half_of[i] == kind)
    elif cell is not None:
        hardest = (cell,)
    else:  # refused before any search step: the cell with the fewest possible partners
        hardest = (min(range(n), key=lambda i: len(options[i])),) if n else ()
    unpairable = tuple(i for i in range(n) if not options[i])
    return CoverResult(Outcome.CANNOT_SPLIT, hardest=hardest, unpairable=unpairable, steps=steps)


def _graph(
    positions: Sequence[tuple[int, int]],
) -> tuple[list[list[int]], list[bool]]:
    """Neighbour lists and checkerboard colours for cells at ``positions`` of one board."""
    index = {pos: i for i, pos in enumerate(positions)}
    neighbours = [
        [index[p] for p in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if p in index]
        for r, c in positions
    ]
    return neighbours, [(r + c) % 2 == 0 for r, c in positions]


def cover_kingdom(board: Board, budget: int = SEARCH_BUDGET) -> CoverResult:
    """Try to split the board's non-castle tiles into distinct real dominoes."""
    land = _land(board)
    neighbours, black = _graph([(r, c) for r, c, _ in land])
    return find_cover([cell for _, _, cell in land], neighbours, black, budget)


@lru_cache(maxsize=1024)  # the app rescores the same boards on every rerun
def check_kingdom(board: Board) -> tuple[Message, ...]:
    """Warnings (never errors) for a kingdom the real set cannot make; each names the cells."""
    land = _land(board)
    warnings = _count_warnings([(where(r, c), cell) for r, c, cell in land])
    if warnings:
        # Too many cells of a kind already rules out a split; more warnings would only repeat it.
        return tuple(warnings)
    if len(land) % 2:
        return (
            msg(
                "The kingdom has {n} tiles besides the castle, an odd number, but every domino "
                "covers two cells: look for a missing or extra tile, or a hole marked as a tile.",
                n=len(land),
            ),
        )
    result = cover_kingdom(board)
    if result.outcome is Outcome.UNKNOWN:
        return (
            msg(
                "Could not verify in time that the tiles split into distinct real dominoes; "
                "check the kingdom by eye."
            ),
        )  # the one warning that proves nothing (``contradictions``)
    if result.outcome is Outcome.CANNOT_SPLIT:
        tiles = dict(n=len(land), dominoes=len(land) // 2)
        if result.unpairable:
            cells = [
                msg("{cell} ({kind})", cell=where(r, c), kind=_describe(cell))
                for r, c, cell in (land[i] for i in result.unpairable)
            ]
            return (
                nmsg(
                    "The {n} tiles cannot be split into {dominoes} distinct real dominoes: no "
                    "neighbour of {cells} forms a real domino with it; check that cell and its "
                    "neighbours.",
                    "The {n} tiles cannot be split into {dominoes} distinct real dominoes: no "
                    "neighbour of {cells} forms a real domino with it; check those cells and "
                    "their neighbours.",
                    len(cells),
                    cells=cells,
                    **tiles,
                ),
            )
        if len(result.hardest) == 1:
            r, c, cell = land[result.hardest[0]]
            return (
                msg(
                    "The {n} tiles cannot be split into {dominoes} distinct real dominoes: a "
                    "cell is probably misread. Look first at {cell} ({kind}), the cell hardest "
                    "to pair, and its neighbours.",
                    cell=where(r, c),
                    kind=_describe(cell),
                    **tiles,
                ),
            )
        kind = land[result.hardest[0]][2]
        places = [where(r, c) for r, c, _ in (land[i] for i in result.hardest)]
        return (
            msg(
                "The {n} tiles cannot be split into {dominoes} distinct real dominoes: a cell "
                "is probably misread. Look first at the cells of {kind} ({cells}), which cannot "
                "all be paired, and their neighbours.",
                kind=_describe(kind),
                cells=_cell_list(places),
                **tiles,
            ),
        )
    return ()


def contradictions(board: Board) -> tuple[Message, ...]:
    """``check_kingdom``'s warnings when they prove the kingdom cannot be as given (its tiles are
    odd in number, or cannot be split into distinct real dominoes of the set), else ``()``.

    A search that ran out of steps proves nothing: its "could not verify" warning is not one.
    """
    warnings = check_kingdom(board)
    if len(warnings) == 1 and warnings[0].text.startswith("Could not verify in time"):
        return ()
    return warnings


def check_game(boards: Mapping[str, Board]) -> tuple[Message, ...]:
    """Warnings for kingdoms of one game that together need a domino more often than it exists.

    First a count check on the kingdoms together; then, for kingdoms that each split into real
    dominoes on their own, one search over all of them at once with the set shared between them.
    """
    names = list(boards)
    if len(names) < 2:
        return ()
    land = [
        (msg("{player}'s {cell}", player=name, cell=where(r, c)), cell)
        for name in names
        for r, c, cell in _land(boards[name])
    ]
    warnings = _count_warnings(land, names)
    if warnings:
        return tuple(warnings)
    # Kingdoms that do not split on their own already carry their own warning.
    covers = {name: cover_kingdom(boards[name]) for name in names}
    fine = [name for name in names if covers[name].outcome is Outcome.SPLITS]
    if len(fine) < 2:
        return ()
    cells: list[Cell] = []
    neighbours: list[list[int]] = []
    black: list[bool] = []
    for name in fine:  # the kingdoms side by side as one graph, sharing one set of dominoes
        board_land = _land(boards[name])
        board_neighbours, board_black = _graph([(r, c) for r, c, _ in board_land])
        offset = len(cells)
        cells += [cell for _, _, cell in board_land]
        neighbours += [[offset + j for j in js] for js in board_neighbours]
        black += board_black
    joint = find_cover(cells, neighbours, black)
    if joint.outcome is Outcome.UNKNOWN:
        return (
            msg(
                "Could not verify in time that {players} used distinct real dominoes.", players=fine
            ),
        )
    if joint.outcome is Outcome.SPLITS:
        return ()
    return tuple(_overused({name: covers[name] for name in fine}, boards)) or (
        msg(
            "{players} together cannot be built from one set of dominoes: some domino is needed "
            "twice; check their cells.",
            players=fine,
        ),
    )


def _overused(covers: Mapping[str, CoverResult], boards: Mapping[str, Board]) -> list[Message]:
    """Domino kinds that the kingdoms' own splits use more often than the set has them."""
    used: dict[tuple[Cell, Cell], list[Message]] = {}
    for name, cover in covers.items():
        land = _land(boards[name])
        for i, j in cover.pairs:
            (r1, c1, a), (r2, c2, b) = land[i], land[j]
            used.setdefault(_domino_kind(a, b), []).append(
                msg(
                    "{player} at {first} and {second}",
                    player=name,
                    first=where(r1, c1),
                    second=where(r2, c2),
                )
            )
    warnings = []
    for kind, places in used.items():
        if len(places) > kinds_in_set()[kind]:
            first, second = kind
            count = kinds_in_set()[kind]
            warnings.append(
                msg(
                    "The domino {first} + {second} is needed {n} times ({places}) but the set "
                    "has only {most}.",
                    first=_describe(first),
                    second=_describe(second),
                    n=len(places),
                    places=Joined(tuple(places)),
                    most=count,
                )
            )
    return warnings
