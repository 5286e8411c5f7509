"""Board text and JSON: what is accepted, what is refused, and the messages that say where."""

from __future__ import annotations

import json

import pytest

from scoring import (
    CASTLE,
    EMPTY,
    Board,
    BoardError,
    Cell,
    Terrain,
    board_from_json,
    format_board,
    parse_board,
)
from scoring.board import MAX_JSON_DEPTH, MAX_TEXT_LENGTH

ROWS = [
    "W1 F0 L0 G2 S0",
    "M3 W0 F1 L0 .",
    "G0 S2 C  M0 W0",
    "F0 L1 G1 S1 M2",
    ".  W0 F0 L0 G0",
]
TEXT = "\n".join(ROWS) + "\n"


def test_parse_reads_every_token():
    board = parse_board(TEXT)
    assert board.size == 5
    assert board[(0, 0)] == Cell(Terrain.WHEAT, 1)
    assert board[(0, 3)] == Cell(Terrain.GRASSLAND, 2)
    assert board[(1, 0)] == Cell(Terrain.MINE, 3)
    assert board[(1, 4)] == EMPTY
    assert board[(2, 2)] == CASTLE
    assert board.castle == (2, 2)


def test_format_round_trips():
    board = parse_board(TEXT)
    assert parse_board(format_board(board)) == board
    assert format_board(board).splitlines()[1] == "M3 W0 F1 L0 ."


def test_lenient_about_case_spacing_blank_lines_and_comments():
    messy = "# Anna's kingdom, photographed 2026-11-29\n\n" + "\n".join(
        f"   {row.lower()}    # row {i + 1}\n" for i, row in enumerate(ROWS)
    ).replace(" ", "  \t")
    assert parse_board(messy) == parse_board(TEXT)


def test_seven_by_seven():
    rows = ["W0 " * 7] * 3 + ["W0 W0 W0 C W0 W0 W0"] + ["F0 " * 7] * 3
    board = parse_board("\n".join(rows))
    assert board.size == 7 and board.castle == (3, 3)


@pytest.mark.parametrize(
    "data",
    [
        json.dumps(ROWS),
        json.dumps({"grid": ROWS, "player": "Anna"}),
        json.dumps([row.split() for row in ROWS]),
    ],
)
def test_json_boards(data):
    assert parse_board(data) == parse_board(TEXT)
    assert board_from_json(json.loads(data)) == parse_board(TEXT)


def test_cli_json_output_is_accepted_back():
    # The "grid" of `kingdomino score --json` is itself a JSON board.
    record = {"file": "a.txt", "size": 5, "grid": parse_board(TEXT).rows_text(), "total": 3}
    assert parse_board(json.dumps(record)) == parse_board(TEXT)


def replace_token(row: int, col: int, token: str) -> str:
    rows = [row_text.split() for row_text in ROWS]
    rows[row][col] = token
    return "\n".join(" ".join(r) for r in rows)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (replace_token(1, 3, "X0"), "row 2, column 4: unknown token 'X0'"),
        (replace_token(0, 1, "F"), "row 1, column 2: 'F' needs a crown digit, e.g. 'F0'"),
        (replace_token(3, 4, "M22"), "row 4, column 5: unknown token 'M22'"),
        (replace_token(4, 0, "C1"), "row 5, column 1: unknown token 'C1'"),
        (replace_token(0, 0, "W2"), "row 1, column 1: wheat cannot carry 2 crowns"),
        (replace_token(0, 1, "F2"), "row 1, column 2: forest cannot carry 2 crowns"),
        (replace_token(0, 2, "L2"), "row 1, column 3: lake cannot carry 2 crowns"),
        (replace_token(0, 3, "G3"), "row 1, column 4: grassland cannot carry 3 crowns"),
        (replace_token(0, 4, "S3"), "row 1, column 5: swamp cannot carry 3 crowns"),
        (replace_token(1, 0, "M4"), "row 2, column 1: mine cannot carry 4 crowns"),
        (replace_token(0, 0, "C"), "two castles, at row 1, column 1 and row 3, column 3"),
        (replace_token(2, 2, "W0"), "no castle: mark the start tile with C"),
        (TEXT.replace("M3 W0 F1 L0 .", "M3 W0 F1 L0"), "row 2: has 4 cells but the board has 5"),
        ("\n".join(ROWS[:4]), "a kingdom has 5 or 7 rows (7 for Mighty Duel), this one has 4"),
        ("\n".join(ROWS + ROWS[:1]), "this one has 6"),
        ("# nothing\n\n", "the board is empty"),
        ("[1, 2]", "each row must be a string"),
        ('{"rows": []}', 'a JSON board needs a "grid"'),
        ("[not json", "not valid JSON"),
    ],
)
def test_errors_say_where_and_how_to_fix(text, message):
    with pytest.raises(BoardError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_board(text)


@pytest.mark.parametrize("text", ["null", "42", " 3.5\n", "true", '"W1 F0 C L0 ."'])
def test_json_that_is_not_a_list_or_object_holds_no_board(text):
    """Not 'a one-row board': the text is JSON, and there is no board in it."""
    with pytest.raises(BoardError, match="the JSON holds no board"):
        parse_board(text)


def test_error_carries_the_position():
    with pytest.raises(BoardError) as caught:
        parse_board(replace_token(1, 3, "X0"))
    assert (caught.value.row, caught.value.col) == (1, 3)


def test_boards_are_immutable_and_hashable():
    board = parse_board(TEXT)
    changed = board.replace(0, 0, Cell(Terrain.MINE, 0))
    assert board[(0, 0)] == Cell(Terrain.WHEAT, 1)
    assert changed[(0, 0)] == Cell(Terrain.MINE, 0)
    assert len({board, parse_board(TEXT), changed}) == 2


def test_board_checks_apply_to_boards_built_in_code():
    with pytest.raises(BoardError, match="5 or 7 rows"):
        Board(((CASTLE,),))
    with pytest.raises(BoardError, match="swamp cannot carry 3 crowns"):
        Cell(Terrain.SWAMP, 3)
    assert Cell("forest", 1).terrain is Terrain.FOREST


# ---- hostile input: always a BoardError, never Python's own exceptions -------------------------

FIVE = ["L0 L0 L0 L0 L0", "L0 L0 C L0 L0", "L0 L0 L0 L0 L0", "L0 L0 L0 L0 L0", "L0 L0 L0 L0 L0"]


@pytest.mark.parametrize("digit", ["²", "١", "٣", "０", "𝟙", "½"])
def test_only_ascii_crown_digits_are_accepted(digit):
    rows = [f"L{digit} L0 L0 L0 L0", *FIVE[1:]]
    with pytest.raises(BoardError, match=r"row 1, column 1: unknown token"):
        parse_board("\n".join(rows))
    with pytest.raises(BoardError, match=r"row 1, column 1: unknown token"):
        board_from_json(json.dumps(rows))


def test_letters_that_only_upper_case_into_ours_are_refused():
    # 'ſ'.upper() == 'S' and 'ı'.upper() == 'I': only ASCII letters are tokens.
    rows = ["ſ1 L0 L0 L0 L0", *FIVE[1:]]
    with pytest.raises(BoardError, match=r"row 1, column 1: unknown token 'ſ1'"):
        parse_board("\n".join(rows))


@pytest.mark.parametrize("depth", [21, 1_400, 100_000])
def test_deeply_nested_json_is_refused_before_parsing(depth):
    for text in ("[" * depth, "[" * depth + "]" * depth, '{"grid": ' + "[" * depth):
        with pytest.raises(BoardError, match=f"nested more than {MAX_JSON_DEPTH} levels"):
            parse_board(text)


def test_brackets_inside_json_strings_are_not_nesting():
    text = json.dumps(["[[[[{{{{" * 10 + " L0 L0 L0 L0", *FIVE[1:]])
    with pytest.raises(BoardError, match=r"row 1, column 1: unknown token '\[\[\[\[\{"):
        parse_board(text)


def test_a_number_too_long_for_python_is_a_board_error():
    with pytest.raises(BoardError, match="a number is too long"):
        parse_board("[1" + "0" * 5000 + "]")
    with pytest.raises(BoardError, match="each row must be a string"):
        parse_board("[1" + "0" * 4000 + "]")


def test_an_escaped_quote_flood_is_refused_quickly():
    # A naive "strip the strings" regex backtracks quadratically here.
    with pytest.raises(BoardError):
        parse_board('["' + '\\"' * 400_000)


def test_huge_text_is_refused_by_length():
    with pytest.raises(BoardError, match="far too long for a board"):
        parse_board("L0 " * (MAX_TEXT_LENGTH // 3 + 1))


def test_error_messages_quote_at_most_a_short_piece_of_a_token():
    rows = ["X" * 10_000 + " L0 L0 L0 L0", *FIVE[1:]]
    with pytest.raises(BoardError) as err:
        parse_board("\n".join(rows))
    assert len(str(err.value)) < 200
    assert "XXXXXXXXXXXX…" in str(err.value)
