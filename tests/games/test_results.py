"""A game's result: scored through ``scoring``, summarised in one line, exported as JSON."""

import json

from games.editing import blank_board
from games.model import Game, GameSetup
from games.results import result_to_dict, score_game, summary
from scoring import parse_board

# aau-boards 1: regions 36, castle centred +10, no holes +5: 51. A blank board scores 10.
FULL = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")


def test_single_game_is_scored_ranked_and_summarised():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, blank_board(5)),)))
    (game,) = result.rounds
    assert game.scores["Anna"].total == 51
    assert game.ranking.winners == ("Anna",)
    assert result.dynasty is None
    assert summary(result) == "Anna 51 · Ben 10 — Anna wins"


def test_dynasty_sums_the_games():
    setup = GameSetup(("Anna", "Ben"), dynasty=True)
    boards = ((FULL, blank_board(5)), (blank_board(5), FULL), (FULL, blank_board(5)))
    result = score_game(Game(setup, boards))
    assert result.dynasty is not None
    assert [s.total for s in result.dynasty.overall.standings] == [112, 71]
    assert summary(result).startswith("Dynasty: Anna 112 · Ben 71 — Anna wins")


def test_json_export_has_the_cli_fields_and_is_serialisable():
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((FULL, FULL),)))
    data = json.loads(json.dumps(result_to_dict(result)))
    kingdom = data["games"][0]["kingdoms"]["Anna"]
    assert kingdom["total"] == 51 and kingdom["base"] == 36 and kingdom["harmony"] == 5
    assert kingdom["grid"][2] == "G0 S1 C F0 G0"
    assert data["games"][0]["ranking"]["standings"][0]["place"] == 1
    assert data["games"][0]["ranking"]["explanations"]
