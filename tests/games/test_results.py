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

# aau-boards 1: regions 36, castle centred +10, no holes +5: 51.
FULL = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")
# One wheat tile with a crown next to the castle: 1 point, Middle Kingdom 10, no Harmony.
SMALL = parse_board(". . . . .\n. . . . .\n. W1 C . .\n. . . . .\n. . . . .")


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
