"""The game-session model: setups that make sense, and a game that round-trips through a dict."""

import pytest

from games.editing import blank_board, move_castle, paint
from games.model import Game, GameError, GameSetup, game_from_dict, game_to_dict
from scoring import BoardError, Cell, Terrain, parse_board
from scoring.score import Rules

ANNA = parse_board("""
G0 L0 F0 F0 F0
G0 F0 F0 F1 G0
G0 S1 C  F0 G0
G0 S2 L0 G2 G1
F0 L1 L0 G1 W0
""")


def test_setup_trims_names_and_counts_games():
    setup = GameSetup(players=(" Anna ", "Ben"), dynasty=True)
    assert setup.players == ("Anna", "Ben")
    assert setup.games_to_play == 3


@pytest.mark.parametrize(
    ("players", "size", "message"),
    [
        (("Anna",), 5, "2 to 4 players"),
        (("A", "B", "C", "D", "E"), 5, "2 to 4 players"),
        (("Anna", ""), 5, "needs a name"),
        (("Anna", "anna"), 5, "names must differ"),
        (("A", "B", "C"), 7, "exactly two players"),
        (("A", "B"), 6, "5×5 or 7×7"),
    ],
)
def test_setup_refuses_what_cannot_be_played(players, size, message):
    with pytest.raises(GameError, match=message):
        GameSetup(players=players, size=size)


def test_game_checks_one_board_of_the_right_size_per_player():
    setup = GameSetup(players=("Anna", "Ben"))
    with pytest.raises(GameError, match="one kingdom per player"):
        Game(setup, ((ANNA,),))
    with pytest.raises(GameError, match="7×7"):
        Game(setup, ((ANNA, blank_board(7)),))
    with pytest.raises(GameError, match="plays 1 game"):
        Game(setup, ((ANNA, ANNA), (ANNA, ANNA)))


def test_game_round_trips_through_dict():
    setup = GameSetup(("Anna", "Ben"), rules=Rules(harmony=False), dynasty=True)
    game = Game(setup, ((ANNA, blank_board(5)), (blank_board(5), ANNA)))
    assert game_from_dict(game_to_dict(game)) == game
    assert game.boards(1) == {"Anna": blank_board(5), "Ben": ANNA}
    assert not game.finished


def test_game_from_dict_names_the_bad_board():
    data = game_to_dict(Game(GameSetup(("Anna", "Ben")), ((ANNA, ANNA),)))
    data["rounds"][0][1][2] = "G0 S1 X0 F0 G0"
    with pytest.raises(GameError, match="Ben's kingdom: row 3, column 3"):
        game_from_dict(data)


def test_blank_board_has_only_the_castle_in_the_middle():
    board = blank_board(7)
    assert board.castle == (3, 3)
    assert {cell.terrain for _, _, cell in board.iter_cells()} == {Terrain.CASTLE, Terrain.EMPTY}


def test_paint_sets_a_cell_and_refuses_crowns_the_terrain_cannot_carry():
    board = paint(blank_board(5), 0, 0, Terrain.MINE, 3)
    assert board[0, 0].token == "M3"
    # Never silently W1: the brush must not offer it, and painting it says why.
    with pytest.raises(BoardError, match="wheat carries at most 1 crown"):
        paint(board, 0, 0, Terrain.WHEAT, 3)


def test_moving_the_castle_gives_its_old_cell_the_brush():
    board = paint(blank_board(5), 0, 0, Terrain.FOREST, 1)
    moved = move_castle(board, 0, 1, Cell(Terrain.LAKE, 1))
    assert moved.castle == (0, 1)
    assert moved[2, 2].token == "L1"
    assert moved[0, 0].token == "F1"
    assert move_castle(board, 2, 2, Cell(Terrain.LAKE)) == board  # put back where it was
    with pytest.raises(BoardError):
        move_castle(board, 0, 1, Cell(Terrain.CASTLE))


def test_painting_the_castle_moves_it_and_painting_over_it_is_refused():
    board = paint(blank_board(5), 0, 4, Terrain.CASTLE)
    assert board.castle == (0, 4)
    assert board[2, 2].terrain is Terrain.EMPTY
    with pytest.raises(BoardError, match="move it"):
        paint(board, 0, 4, Terrain.LAKE)


@pytest.mark.parametrize(
    ("rules", "dynasty", "expected"),
    [
        (Rules(), False, "Classic (5×5), Middle Kingdom and Harmony bonuses"),
        (Rules(middle_kingdom=False, harmony=False), False, "Classic (5×5), no bonuses"),
        (Rules(harmony=False), True, "Classic (5×5), Middle Kingdom bonus, Dynasty (3 games)"),
    ],
)
def test_a_setup_says_which_rules_it_is_played_by(rules, dynasty, expected):
    assert GameSetup(("Anna", "Ben"), rules=rules, dynasty=dynasty).rules_text == expected
