"""Fuzzing the board parser: tens of thousands of mutated texts and JSON boards, seeded, must give
a board or the parser's own ``BoardError``, never another exception (RecursionError, ValueError
from int(), IndexError ...)."""

from __future__ import annotations

import json

from scoring import Board, BoardError, board_from_json, parse_board
from tests.fuzz import cases

CASES = 12_000
FIVE = "L1 L0 L0 L0 L0\nF0 S1 G0 F0 L1\nM2 S0 C  F0 L1\nM1 M0 G0 G2 L1\nW0 W1 W0 W0 W0\n"
SEVEN = "\n".join(
    ["G0 G0 G0 G0 G0 G0 G0"] * 3 + ["G0 G0 G0 C  G0 G0 G0"] + [". . . W1 W0 M3 S2"] * 3
)
TEXT_SEEDS = [FIVE, SEVEN, "# Anna\n" + FIVE.lower() + "  # end\n", FIVE.replace("\n", "\r\n")]
JSON_SEEDS = [
    json.dumps(FIVE.splitlines()),
    json.dumps([row.split() for row in SEVEN.splitlines()]),
    json.dumps({"file": "a.txt", "grid": FIVE.splitlines(), "total": 40}),
]


def _outcomes(parse, seeds: list[str], seed: int) -> tuple[int, int]:
    boards = errors = 0
    for text in cases(seeds, CASES, seed):
        try:
            result = parse(text)
        except BoardError as err:
            assert str(err), repr(text[:200])
            errors += 1
        else:
            assert isinstance(result, Board)
            boards += 1
    return boards, errors


def test_fuzzed_board_text_gives_a_board_or_a_board_error():
    boards, errors = _outcomes(parse_board, TEXT_SEEDS, seed=11)
    assert boards + errors == CASES
    assert boards >= CASES // 10 and errors >= CASES // 2  # the mutator really breaks things


def test_fuzzed_json_boards_give_a_board_or_a_board_error():
    boards, errors = _outcomes(board_from_json, JSON_SEEDS, seed=12)
    assert boards + errors == CASES
    assert boards >= CASES // 10 and errors >= CASES // 2
