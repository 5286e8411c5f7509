"""The real domino set: counts, exact cover of a kingdom, and one game's kingdoms together."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring import Cell, Terrain, check_game, check_kingdom, parse_board, score_board
from scoring.tileset import (
    Outcome,
    cover_kingdom,
    dominoes,
    find_cover,
    kinds_in_set,
    squares_in_set,
)

# A complete kingdom of real dominoes (numbers from dominoes.csv):
# row 1: [1] W0+W0, [19] W1+F0, and [7] L0+L0 down column 5;
# row 2: [3] F0+F0, [28] F1+L0;  row 3: [10] G0+G0, [12] S0+S0;
# [46] S0+M2 down column 1; row 4: [36] W0+G1, [14] W0+L0; row 5: [48] W0+M3, [30] L1+W0.
REAL = """
W0 W0 W1 F0 L0
F0 F0 F1 L0 L0
G0 G0 C  S0 S0
S0 W0 G1 W0 L0
M2 W0 M3 L1 W0
"""


def test_the_set_has_48_dominoes_with_the_documented_squares():
    assert len(dominoes()) == 48
    assert [d.number for d in dominoes()] == list(range(1, 49))
    per_terrain = Counter()
    for half, n in squares_in_set().items():
        per_terrain[half.terrain] += n
    assert per_terrain == {
        Terrain.WHEAT: 26,
        Terrain.FOREST: 22,
        Terrain.LAKE: 18,
        Terrain.GRASSLAND: 14,
        Terrain.SWAMP: 10,
        Terrain.MINE: 6,
    }
    assert squares_in_set()[Cell(Terrain.MINE, 3)] == 1
    assert squares_in_set()[Cell(Terrain.MINE, 2)] == 3
    # Identical dominoes share a kind: two W0+W0, four F0+F0, four F1+W0 ...
    assert kinds_in_set()[(Cell(Terrain.WHEAT, 0), Cell(Terrain.WHEAT, 0))] == 2
    assert kinds_in_set()[(Cell(Terrain.WHEAT, 0), Cell(Terrain.FOREST, 1))] == 4
    assert sum(kinds_in_set().values()) == 48


def test_a_kingdom_of_real_dominoes_has_no_warning():
    board = parse_board(REAL)
    assert check_kingdom(board) == ()
    result = cover_kingdom(board)
    assert result.outcome is Outcome.SPLITS
    assert len(result.pairs) == 12


def test_seven_mine_cells_are_more_than_the_set_has():
    board = parse_board(REAL.replace("W0 W0 W1 F0 L0", "M0 M1 M2 M2 L0").replace("G0 G0", "M2 G0"))
    warnings = check_kingdom(board)
    assert any("7 mine cells but the set has only 6 mine squares" in w for w in warnings)
    assert any("4 cells of mine with 2 crowns but the set has only 3" in w for w in warnings)
    assert any("row 1, column 1" in w and "row 3, column 1" in w for w in warnings)


def test_two_three_crown_mines_are_more_than_the_set_has():
    board = parse_board(REAL.replace("M2 W0 M3", "M3 W0 M3"))
    (warning,) = check_kingdom(board)
    assert "2 cells of mine with 3 crowns but the set has only 1" in warning
    assert "row 5, column 1" in warning and "row 5, column 3" in warning


def test_a_misread_cell_breaks_the_split_and_is_named():
    # Row 4, column 4: W0 read as S2. W0+S2 with the S0 above would need a swamp+swamp domino
    # with crowns, and S2 with L0 or G1 does not exist either.
    board = parse_board(REAL.replace("S0 W0 G1 W0 L0", "S0 W0 G1 S2 L0"))
    (warning,) = check_kingdom(board)
    assert warning.startswith("The 24 tiles cannot be split into 12 distinct real dominoes")
    assert "no neighbour of row 4, column 4 (swamp with 2 crowns) forms a real domino" in warning


def test_when_every_cell_has_some_partner_the_hardest_cell_is_named():
    # Row 2, column 5: L0 read as S0. Every cell still has some real partner, but no split works;
    # the search keeps failing on the L0 above the misread cell.
    board = parse_board(REAL.replace("F1 L0 L0", "F1 L0 S0"))
    (warning,) = check_kingdom(board)
    assert "a cell is probably misread" in warning
    assert "Look first at row 1, column 5 (lake without crown)" in warning


def test_a_misread_that_is_still_some_real_split_is_not_flagged():
    # W0 read as S2 in the corner: S2+W0 ([43]) exists, so the split just changes.
    assert check_kingdom(parse_board(REAL.replace("W0 W0 W1", "S2 W0 W1", 1))) == ()


def test_each_domino_kind_is_used_at_most_as_often_as_the_set_has_it():
    # Three separate W0+W0 dominoes: 6 wheat squares are within the counts, but the set has
    # only two W0+W0 dominoes.
    board = parse_board(
        """
        W0 W0 .  .  .
        .  .  .  .  .
        W0 W0 C  .  .
        .  .  .  .  .
        W0 W0 .  .  .
        """
    )
    (warning,) = check_kingdom(board)
    assert "cannot be split into 3 distinct real dominoes" in warning
    two = parse_board(board.to_text().replace("W0 W0 . . .\n", ". . . . .\n", 1))
    assert check_kingdom(two) == ()


def test_an_odd_number_of_tiles_cannot_be_dominoes():
    board = parse_board(REAL.replace("M2 W0 M3 L1 W0", "M2 W0 M3 L1 ."))
    (warning,) = check_kingdom(board)
    assert "23 tiles besides the castle, an odd number" in warning


def test_an_incomplete_kingdom_must_still_split():
    holes = REAL.replace("M2 W0 M3 L1 W0", "M2 .  .  L1 W0")  # [48] W0+M3 never placed
    assert check_kingdom(parse_board(holes)) == ()
    # Holes at row 1, column 4 and row 2, column 5 leave the L0 in the corner with no neighbour.
    broken = REAL.replace("W1 F0 L0", "W1 .  L0").replace("L0 L0\n", "L0 .\n", 1)
    (warning,) = check_kingdom(parse_board(broken))
    assert "22 tiles cannot be split" in warning
    assert "row 1, column 5 (lake without crown)" in warning


def test_score_board_carries_the_warnings_unless_skipped():
    board = parse_board(REAL.replace("M2 W0 M3", "M3 W0 M3"))
    assert score_board(board).warnings == check_kingdom(board)
    assert score_board(board, check_tiles=False).warnings == ()


def test_all_wheat_seven_by_seven_is_refused_by_the_count():
    # Its time is measured by `python -m scoring.benchmark` (adversarial boards), not here.
    board = parse_board("\n".join(["W0 " * 7] * 3 + ["W0 W0 W0 C W0 W0 W0"] + ["W0 " * 7] * 3))
    warnings = check_kingdom.__wrapped__(board)
    assert "48 wheat cells but the set has only 26" in warnings[0]


def test_search_gives_up_with_could_not_verify_when_out_of_budget():
    board = parse_board(REAL)
    land = [cell for _, _, cell in board.iter_cells() if cell.terrain.is_land]
    positions = [(r, c) for r, c, cell in board.iter_cells() if cell.terrain.is_land]
    index = {p: i for i, p in enumerate(positions)}
    neighbours = [
        [index[q] for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if q in index]
        for r, c in positions
    ]
    black = [(r + c) % 2 == 0 for r, c in positions]
    assert find_cover(land, neighbours, black, budget=3).outcome is Outcome.UNKNOWN
    assert find_cover(land, neighbours, black).outcome is Outcome.SPLITS


def test_the_mighty_duel_photos_use_each_domino_once(shared_dir):
    photos = shared_dir / "datasets" / "photos"
    game = {name: parse_board((photos / f"{name}.txt").read_text()) for name in ("game1", "game2")}
    for board in game.values():
        assert check_kingdom(board) == ()
    assert check_game(game) == ()


def test_two_kingdoms_needing_the_one_wheat_forest_domino_are_named():
    # Counts are fine (2 W0, 2 F0), but W0+F0 ([13]) exists once and each kingdom needs it.
    lone = parse_board(
        """
        W0 F0 .  .  .
        .  .  .  .  .
        .  .  C  .  .
        .  .  .  .  .
        .  .  .  .  .
        """
    )
    assert check_kingdom(lone) == ()
    (warning,) = check_game({"Anna": lone, "Ben": lone})
    assert warning == (
        "The domino wheat without crown + forest without crown is needed 2 times (Anna at "
        "row 1, column 1 and row 1, column 2; Ben at row 1, column 1 and row 1, column 2) but "
        "the set has only 1."
    )


def test_two_kingdoms_needing_more_squares_than_the_set_has_are_named():
    anna = parse_board(REAL)
    # Ben's kingdom is fine alone but also needs [48] W0+M3 (and [46] S0+M2).
    ben = parse_board(
        """
        W0 M3 F0 F0 F0
        S0 M2 L0 L0 F0
        G0 G0 C  W0 W0
        L0 L0 F0 F0 .
        .  .  .  .  .
        """
    )
    assert check_kingdom(ben) == ()
    warnings = check_game({"Anna": anna, "Ben": ben})
    text = " ".join(warnings)
    assert "Anna" in text and "Ben" in text
    assert "mine with 3 crowns" in text
    assert check_game({"Anna": anna}) == ()


def test_a_game_of_identical_cells_is_warned_by_counts():
    board = parse_board(REAL)
    warnings = check_game({"Anna": board, "Ben": board, "Cara": board})
    assert any("Anna, Ben and Cara together have" in w for w in warnings)
    assert any("Cara's row" in w for w in warnings)


@pytest.mark.parametrize("size", [5, 7])
def test_check_kingdom_is_cached_per_board(size):
    half = size // 2
    rows = [["W0"] * size for _ in range(size)]
    rows[half][half] = "C"
    board = parse_board("\n".join(" ".join(row) for row in rows))
    assert check_kingdom(board) is check_kingdom(board)
