"""A game's result: scored through ``scoring``, summarised in one line, exported as JSON, and
provisional (no winner) while a kingdom is missing or a cell is flagged."""

import json

from games.editing import blank_board
from games.model import Game, GameSetup
from games.results import (
    is_entered,
    provisional_reason,
    result_to_dict,
    score_game,
    summary,
)
from scoring import parse_board
from scoring.score import Rules

# aau-boards 1: regions 36, castle centred +10, no holes +5: 51.
FULL = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")
# One domino (wheat with a crown, forest) beside the castle: 1 point, Middle Kingdom 10, no Harmony.
SMALL = parse_board(". . . . .\n. . . . .\n. W1 C . .\n. F0 . . .\n. . . . .")


def test_single_game_is_scored_ranked_and_summarised():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, SMALL),)))
    (game,) = result.rounds
    assert game.scores["Anna"].total == 51
    assert game.scores["Ben"].total == 11
    assert game.ranking.winners == ("Anna",)
    assert result.dynasty is None
    assert provisional_reason(result) is None
    assert summary(result) == "Anna 51 · Ben 11 — Anna wins"


def test_a_kingdom_not_entered_scores_nothing_and_takes_no_place():
    assert not is_entered(blank_board(5)) and is_entered(SMALL)
    setup = GameSetup(("Anna", "Ben", "Cleo"))
    result = score_game(Game(setup, ((FULL, blank_board(5), blank_board(5)),)))
    (game,) = result.rounds
    assert list(game.scores) == ["Anna"]  # no 10 points for a lone castle
    assert game.ranking is None  # one kingdom is not a ranking
    assert game.missing == ("Ben", "Cleo")
    reason = provisional_reason(result)
    assert reason == (
        "Provisional: Ben's kingdom not entered; Cleo's kingdom not entered. Enter them above: "
        "the winner shows once every kingdom is in."
    )


def test_flagged_cells_make_the_result_provisional_and_are_named():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, SMALL),)))
    reason = provisional_reason(result, {"Anna": {(0, 1), (3, 2)}, "Ben": set()})
    assert reason.startswith(
        "Provisional: 2 cells (row 1, column 2 and row 4, column 3) of Anna's kingdom to check."
    )
    advice = "Fix or confirm them above: the winner shows once every cell is checked."
    assert reason.endswith(advice)
    one = provisional_reason(result, {"Ben": {(2, 1)}})
    assert "1 cell (row 3, column 2) of Ben's kingdom" in one


def test_dynasty_sums_only_the_games_with_every_kingdom_in():
    setup = GameSetup(("Anna", "Ben"), dynasty=True)
    boards = ((FULL, SMALL), (SMALL, FULL), (FULL, SMALL))
    result = score_game(Game(setup, boards))
    assert result.dynasty is not None
    assert [s.total for s in result.dynasty.overall.standings] == [113, 73]
    assert summary(result).startswith("Dynasty: Anna 113 · Ben 73 — Anna wins")

    # Game 2 just started: the standings are those after game 1, not a tie at 0 or 10.
    started = score_game(Game(setup, ((FULL, SMALL), (blank_board(5), blank_board(5)))))
    assert started.dynasty.games_played == 1
    assert [s.total for s in started.dynasty.overall.standings] == [51, 11]
    assert started.rounds[-1].ranking is None


def test_json_export_has_the_cli_fields_and_is_serialisable():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, FULL),)))
    data = json.loads(json.dumps(result_to_dict(result)))
    kingdom = data["games"][0]["kingdoms"]["Anna"]
    assert kingdom["total"] == 51 and kingdom["base"] == 36 and kingdom["harmony"] == 5
    assert kingdom["grid"][2] == "G0 S1 C F0 G0"
    assert data["games"][0]["ranking"]["standings"][0]["place"] == 1
    assert data["games"][0]["ranking"]["explanations"]
    assert data["games"][0]["not_entered"] == []


# A kingdom that contradicts itself (issue 55, item 1) ------------------------------------------

# One tile beside the castle: an odd number of tiles, which no set of dominoes lays.
ODD = parse_board(". . . . .\n. . . . .\n. W1 C . .\n. . . . .\n. . . . .")
# FULL with its W0 corner read as a third one-crown lake: 24 tiles, but that corner pairs with
# no neighbour into a real domino.
UNSPLITTABLE = parse_board(
    "G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 L1"
)


def test_a_kingdom_with_an_odd_number_of_tiles_names_no_winner_and_says_why():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, ODD),)))
    assert result.rounds[0].contradicted == {"Ben": result.rounds[0].scores["Ben"].warnings}
    reason = provisional_reason(result)
    assert reason == (
        "Provisional: Ben's kingdom impossible with the real dominoes. Fix it above: the winner "
        "shows once the kingdom is possible with the real dominoes. Ben's kingdom: The kingdom "
        "has 1 tiles besides the castle, an odd number, but every domino covers two cells: look "
        "for a missing or extra tile, or a hole marked as a tile."
    )


def test_tiles_that_cannot_be_split_into_real_dominoes_name_the_cell_to_check():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((UNSPLITTABLE, FULL),)))
    reason = provisional_reason(result, {"Ben": {(0, 0)}})
    assert reason.startswith(
        "Provisional: 1 cell (row 1, column 1) of Ben's kingdom to check; Anna's kingdom "
        "impossible with the real dominoes. Fix them above: the winner shows once every kingdom "
        "is in, checked and possible with the real dominoes. Anna's kingdom: The 24 tiles cannot "
        "be split into 12 distinct real dominoes"
    )
    assert "row 5, column 5 (lake with 1 crown)" in reason
    # Checked and fixed: the result is final again.
    fixed = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, FULL),)))
    assert fixed.rounds[0].contradicted == {} and provisional_reason(fixed) is None


def test_a_search_out_of_time_proves_nothing_and_keeps_the_winner(monkeypatch):
    from scoring import tileset

    unknown = tileset.CoverResult(tileset.Outcome.UNKNOWN)
    monkeypatch.setattr(tileset, "cover_kingdom", lambda board: unknown)
    tileset.check_kingdom.cache_clear()
    try:
        result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, SMALL),)))
        assert "Could not verify in time" in result.rounds[0].scores["Anna"].warnings[0]
        assert result.rounds[0].contradicted == {}
        assert provisional_reason(result) is None
    finally:
        tileset.check_kingdom.cache_clear()


def test_cells_read_as_holes_keep_the_result_provisional_until_checked():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, SMALL),)))
    reason = provisional_reason(result, holes={"Ben": {(0, 0), (4, 4)}})
    assert reason == (
        "Provisional: 2 cells (row 1, column 1 and row 5, column 5) of Ben's kingdom read as "
        "holes, costing Harmony, to check. Fix or confirm them above: the winner shows once "
        "every cell is checked."
    )
    # A hole also flagged is named once, as flagged; checked holes (none left) end it.
    assert provisional_reason(result, {"Ben": {(0, 0)}}, {"Ben": {(0, 0)}}).count("(row 1") == 1
    assert provisional_reason(result, holes={"Ben": set()}) is None
    no_harmony = GameSetup(("Anna", "Ben"), rules=Rules(harmony=False))
    result = score_game(Game(no_harmony, ((FULL, SMALL),)))
    assert "1 cell (row 1, column 1) of Ben's kingdom read as a hole to check" in (
        provisional_reason(result, holes={"Ben": {(0, 0)}})
    )
