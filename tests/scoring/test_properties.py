"""Properties that hold for every board (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import CASTLE, EMPTY, LAND, Board, Cell, check_kingdom, format_board, parse_board
from scoring import score_board as _score_board
from scoring.benchmark import random_kingdom

LAND_CELLS = [Cell(t, n) for t in LAND for n in range(t.max_crowns + 1)]


def score_board(board):
    return _score_board(board, check_tiles=False)


@st.composite
def boards(draw) -> Board:
    size = draw(st.sampled_from([5, 7]))
    # Mostly land, some holes, and a few boards with one terrain dominating (big regions).
    weights = draw(st.sampled_from(["mixed", "holes", "one terrain"]))
    cells = []
    for _ in range(size * size):
        if weights == "holes" and draw(st.booleans()):
            cells.append(EMPTY)
        elif weights == "one terrain" and draw(st.integers(0, 3)):
            cells.append(Cell(LAND[0], draw(st.integers(0, 1))))
        else:
            cells.append(draw(st.sampled_from(LAND_CELLS)))
    cells[draw(st.integers(0, size * size - 1))] = CASTLE
    return Board(tuple(tuple(cells[r * size : r * size + size]) for r in range(size)))


def symmetries(board: Board) -> list[Board]:
    """The 8 rotations and reflections of the board."""
    grids = []
    grid = [list(row) for row in board.cells]
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate 90°
        grids += [grid, [row[::-1] for row in grid]]
    return [Board(tuple(tuple(row) for row in g)) for g in grids]


def summary(score):
    return (
        score.base,
        score.middle_kingdom.points,
        score.harmony.points,
        score.total,
        score.largest_region,
        score.crowns,
        sorted((r.terrain, r.size, r.crowns) for r in score.regions),
    )


@settings(max_examples=150, deadline=None)
@given(boards())
def test_score_is_the_same_under_the_8_symmetries(board):
    expected = summary(score_board(board))
    transformed = symmetries(board)
    assert len(transformed) == 8 and board in transformed
    for other in transformed:
        assert summary(score_board(other)) == expected


@settings(max_examples=150, deadline=None)
@given(boards())
def test_region_sizes_add_up_to_the_filled_non_castle_cells(board):
    filled = sum(1 for _, _, cell in board.iter_cells() if cell.terrain.is_land)
    regions = score_board(board).regions
    assert sum(r.size for r in regions) == filled
    cells = [cell for r in regions for cell in r.cells]
    assert len(cells) == len(set(cells))


@settings(max_examples=150, deadline=None)
@given(boards(), st.data())
def test_adding_a_crown_never_lowers_the_score(board, data):
    crownable = [
        (r, c) for r, c, cell in board.iter_cells() if cell.crowns < cell.terrain.max_crowns
    ]
    if not crownable:
        return
    r, c = data.draw(st.sampled_from(crownable))
    cell = board[(r, c)]
    richer = board.replace(r, c, Cell(cell.terrain, cell.crowns + 1))
    before, after = score_board(board), score_board(richer)
    assert after.total >= before.total
    assert after.base > before.base  # the region of (r, c) gains its size in points


@settings(max_examples=150, deadline=None)
@given(boards())
def test_format_and_parse_round_trip(board):
    text = format_board(board)
    assert parse_board(text) == board
    assert format_board(parse_board(text)) == text


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([5, 7]))
def test_a_kingdom_of_distinct_real_dominoes_never_gets_a_warning(seed, size):
    board = random_kingdom(size, random.Random(seed))
    assert check_kingdom(board) == ()
    for other in symmetries(board):
        assert check_kingdom(other) == ()
