"""Regions, points, both optional bonuses and their reasons."""

from __future__ import annotations

import pytest

from scoring import Rules, Terrain, find_regions, parse_board, score_board

# A complete 5×5 kingdom, castle in the centre. Regions (by hand):
# wheat (0,0)(0,1)(1,0)(1,1): 4 cells × 2 crowns = 8; forest row 0 cols 2-4 + (1,2): 4 × 1 = 4;
# lake column 4 rows 1-4: 4 × 1 = 4; swamp (2,0)(3,0): 2 × 2 = 4; everything else 0 crowns.
FULL = """
W1 W0 F1 F0 F0
W1 W0 F0 G0 L1
S2 G0 C  G0 L0
S0 M0 G0 G0 L0
W0 W0 M0 G0 L0
"""


def test_region_points_are_cells_times_crowns():
    score = score_board(parse_board(FULL), check_tiles=False)
    by_terrain = {
        (r.terrain, r.cells[0]): (r.size, r.crowns, r.points) for r in score.regions if r.crowns
    }
    assert by_terrain == {
        (Terrain.WHEAT, (0, 0)): (4, 2, 8),
        (Terrain.FOREST, (0, 2)): (4, 1, 4),
        (Terrain.LAKE, (1, 4)): (4, 1, 4),
        (Terrain.SWAMP, (2, 0)): (2, 2, 4),
    }
    assert score.base == 20
    assert score.total == 20 + 10 + 5
    assert score.crowns == 6


def test_regions_are_four_connected_not_diagonal():
    # The two G0 cells of (1,3)/(2,3)/(3,3)... and the diagonal W1 cells must not join.
    board = parse_board(
        """
        W1 F0 W1 F0 W1
        F0 W1 F0 W1 F0
        W1 F0 C  F0 W1
        F0 W1 F0 W1 F0
        W1 F0 W1 F0 W1
        """
    )
    regions = find_regions(board)
    assert all(r.size == 1 for r in regions)
    assert len(regions) == 24
    assert score_board(board, check_tiles=False).base == 12  # 12 single W1 cells


def test_castle_and_holes_belong_to_no_region():
    board = parse_board(FULL.replace("W0 W0 M0 G0 L0", "W0 .  M0 G0 L0"))
    cells = {cell for region in find_regions(board) for cell in region.cells}
    assert (2, 2) not in cells  # castle
    assert (4, 1) not in cells  # hole
    assert len(cells) == 23


def test_regions_sorted_by_points_then_size():
    regions = find_regions(parse_board(FULL))
    keys = [(r.points, r.size) for r in regions]
    assert keys == sorted(keys, reverse=True)
    assert regions[0].terrain is Terrain.WHEAT  # 8 points
    # Among the 0-point regions the biggest (grassland, 5 cells) comes first.
    zero = [r for r in regions if r.points == 0]
    assert (zero[0].terrain, zero[0].size) == (Terrain.GRASSLAND, 5)


def test_points_by_terrain_lists_all_six_land_terrains():
    points = score_board(parse_board(FULL), check_tiles=False).points_by_terrain()
    assert points == {
        Terrain.WHEAT: 8,
        Terrain.FOREST: 4,
        Terrain.LAKE: 4,
        Terrain.GRASSLAND: 0,
        Terrain.SWAMP: 4,
        Terrain.MINE: 0,
    }


def test_no_crowns_at_all_scores_only_bonuses():
    board = parse_board(
        """
        W0 W0 F0 F0 L0
        G0 G0 S0 S0 L0
        M0 M0 C  W0 W0
        F0 F0 L0 L0 G0
        S0 S0 W0 W0 G0
        """
    )
    score = score_board(board, check_tiles=False)
    assert (score.base, score.crowns, score.total) == (0, 0, 15)
    # Twelve regions of two cells each; the largest region counts crowned or not.
    assert len(score.regions) == 12
    assert score.largest_region == 2


def test_one_huge_region():
    # 24 wheat cells around the castle: one region of 24 cells with 3 crowns = 72.
    rows = ["W0 W0 W0 W0 W0"] * 5
    rows[0] = "W1 W1 W1 W0 W0"
    rows[2] = "W0 W0 C W0 W0"
    score = score_board(parse_board("\n".join(rows)), check_tiles=False)
    assert len(score.regions) == 1
    assert (score.largest_region, score.crowns, score.base, score.total) == (24, 3, 72, 87)


def test_seven_by_seven_mighty_duel():
    text = "\n".join(
        [
            "W1 W0 W0 F0 F0 F1 L0",
            "W0 W0 G0 G2 F0 F0 L1",
            "S0 S1 G0 G0 M0 F0 L0",
            "S0 S0 M2 C  M3 L0 L0",
            "W0 W0 M0 M0 M0 L0 L0",
            "F0 F1 W0 W1 G0 G0 W0",
            "F0 F0 W0 W0 G1 G0 W0",
        ]
    )
    score = score_board(parse_board(text), check_tiles=False)
    assert score.board.size == 7
    # wheat top-left 5 cells × 1; forest top 6 × 1; lake right 7 × 1; grassland top 4 × 2;
    # swamp 4 × 1; mine 6 × 5; forest bottom-left 4 × 1; wheat bottom 4 × 1; grassland 4 × 1.
    assert score.base == 5 + 6 + 7 + 8 + 4 + 30 + 4 + 4 + 4
    assert score.middle_kingdom.points == 10
    assert "7×7" in score.middle_kingdom.reason
    assert score.harmony.points == 5
    assert "49" in score.harmony.reason


def test_middle_kingdom_needs_the_centre_of_a_complete_kingdom():
    board = parse_board(
        """
        C  W0 W0 W0 W0
        W0 W0 W0 W0 W0
        W0 W0 W0 W0 W0
        W0 W0 W0 W0 W0
        W0 W0 W0 W0 W0
        """
    )
    score = score_board(board, check_tiles=False)
    assert score.middle_kingdom.points == 0
    assert "row 1, column 1" in score.middle_kingdom.reason
    assert "not at the centre" in score.middle_kingdom.reason
    assert score.harmony.points == 5  # a castle in the corner still fills its cell


def test_castle_off_centre_with_tiles_on_every_side_loses_middle_kingdom():
    board = parse_board(
        """
        W0 W0 W0 W0 W0
        W0 C  W0 W0 W0
        W0 W0 W0 W0 W0
        W0 W0 W0 W0 W0
        W0 W0 W0 W0 W0
        """
    )
    assert score_board(board, check_tiles=False).middle_kingdom.points == 0


def test_incomplete_kingdom_counts_as_centred_when_some_frame_centres_the_castle():
    # Tiles span rows 1-4 and columns 1-4 only; the 5×5 frame centred on the castle at
    # (row 2, column 2) would span rows 0-4, columns 0-4 shifted by one: it holds every tile.
    board = parse_board(
        """
        W0 W0 W0 W0 .
        W0 C  W0 W0 .
        W0 W0 W0 W0 .
        W0 W0 W0 W0 .
        .  .  .  .  .
        """
    )
    score = score_board(board, check_tiles=False)
    assert score.middle_kingdom.points == 10
    assert "incomplete" in score.middle_kingdom.reason
    assert score.harmony.points == 0


def test_incomplete_kingdom_too_wide_for_a_centred_frame():
    # Tiles reach 3 columns right of the castle: no 5×5 frame holding them centres it.
    board = parse_board(
        """
        .  .  .  .  .
        W0 C  W0 W0 W0
        W0 W0 W0 W0 W0
        .  .  .  .  .
        .  .  .  .  .
        """
    )
    score = score_board(board, check_tiles=False)
    assert score.middle_kingdom.points == 0
    assert "3 cells right of" in score.middle_kingdom.reason


def test_castle_in_a_corner_of_an_incomplete_kingdom_can_still_be_centred():
    board = parse_board(
        """
        C  W0 W0 .  .
        W0 W0 W0 .  .
        W0 W0 W0 .  .
        .  .  .  .  .
        .  .  .  .  .
        """
    )
    assert score_board(board, check_tiles=False).middle_kingdom.points == 10


def test_harmony_names_the_holes():
    board = parse_board(FULL.replace("W0 W0 M0 G0 L0", "W0 .  .  G0 L0"))
    harmony = score_board(board, check_tiles=False).harmony
    assert harmony.points == 0
    assert "2 cells are empty" in harmony.reason
    assert "row 5, column 2" in harmony.reason and "row 5, column 3" in harmony.reason


@pytest.mark.parametrize(
    ("rules", "middle", "harmony"),
    [
        (Rules(), 10, 5),
        (Rules(middle_kingdom=False), 0, 5),
        (Rules(harmony=False), 10, 0),
        (Rules(middle_kingdom=False, harmony=False), 0, 0),
    ],
)
def test_each_bonus_can_be_switched_off(rules, middle, harmony):
    score = score_board(parse_board(FULL), rules, check_tiles=False)
    assert (score.middle_kingdom.points, score.harmony.points) == (middle, harmony)
    assert score.total == 20 + middle + harmony
    if not rules.middle_kingdom:
        assert "switched off" in score.middle_kingdom.reason
    if not rules.harmony:
        assert "switched off" in score.harmony.reason
