"""Share links: a game survives the trip through a URL, and nothing else gets in."""

import base64
import json

import pytest

from games import share
from games.editing import blank_board
from games.model import Game, GameSetup
from games.share import (
    MAX_CODE_LENGTH,
    SharedGame,
    ShareError,
    decode_game,
    decode_shared,
    encode_game,
)
from scoring import parse_board
from scoring.score import Rules

BOARD = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")


def _code(payload: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")


def test_a_game_round_trips_and_the_code_is_url_safe():
    game = Game(GameSetup(("Anna", "Björn"), rules=Rules(middle_kingdom=False)), ((BOARD, BOARD),))
    code = encode_game(game)
    assert decode_game(code) == game
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_the_largest_game_fits_in_a_link():
    big = blank_board(5)
    setup = GameSetup(("A" * 30, "B" * 30, "C" * 30, "D" * 30), dynasty=True)
    game = Game(setup, ((big,) * 4,) * 3)
    assert len(encode_game(game)) < MAX_CODE_LENGTH


@pytest.mark.parametrize(
    "code",
    [
        "",
        "not base64 at all!",
        "A" * (MAX_CODE_LENGTH + 1),
        base64.urlsafe_b64encode(b"\x80\x81").decode(),
        _code([1, 2]),
        _code({"v": 2}),
        _code({"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0}),
        _code({"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": [["X1", "Y"]]}),
        _code({"v": 1, "p": ["A", "B"], "n": 5, "mk": "yes", "h": 1, "d": 0, "b": []}),
    ],
)
def test_damaged_links_are_refused_in_plain_words(code):
    with pytest.raises(ShareError, match="share link"):
        decode_game(code)


def test_a_link_with_an_impossible_board_says_what_is_wrong():
    rows = "G0G0G0G0G0/G0G0G0G0G0/G0G0G0G0G0/G0G0G0G0G0/G0G0G0G0G0"
    code = _code({"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": [[rows, rows]]})
    with pytest.raises(ShareError, match="no castle"):
        decode_game(code)


def test_the_cap_keeps_a_link_short_enough_for_any_server():
    # Streamlit's server answers a bare "Invalid HTTP request" past about 128,000 characters;
    # a proxy may refuse a request line over 8,192. The largest game fits with room to spare.
    assert 3 * 1024 < MAX_CODE_LENGTH <= 7 * 1024
    names = tuple(chr(0x1F600 + i) * 30 for i in range(4))  # four bytes each in UTF-8
    game = Game(GameSetup(names, dynasty=True), ((BOARD,) * 4,) * 3)
    every = {name: {(r, c) for r in range(5) for c in range(5)} for name in names}
    assert len(encode_game(game, every, every)) < MAX_CODE_LENGTH / 3


def test_a_link_made_while_cells_are_flagged_carries_them():
    game = Game(GameSetup(("Anna", "Ben", "Cleo")), ((BOARD, BOARD, BOARD),))
    code = encode_game(game, to_check={"Ben": {(0, 1), (3, 2)}}, holes={"Cleo": {(4, 4)}})
    assert decode_shared(code) == SharedGame(
        game, to_check={"Ben": {(0, 1), (3, 2)}}, holes={"Cleo": {(4, 4)}}
    )
    # Nothing flagged: the link is as before (old links open unchanged).
    assert encode_game(game, to_check={"Ben": set()}) == encode_game(game)
    assert decode_shared(encode_game(game)) == SharedGame(game)


@pytest.mark.parametrize("cells", [["05", "", ""], ["0", "", ""], ["", ""], "0101", [1, "", ""]])
def test_flagged_cells_outside_the_kingdom_are_refused(cells):
    rows = "G0L0F0F0F0/G0F0F0F1G0/G0S1CF0G0/G0S2L0G2G1/F0L1L0G1W0"
    boards = [[rows, rows, rows]]
    code = _code(
        {"v": 1, "p": ["A", "B", "C"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": boards, "f": cells}
    )
    with pytest.raises(ShareError, match="damaged or incomplete"):
        decode_shared(code)


def test_an_over_long_link_says_so_and_what_to_do():
    too_long = encode_game(Game(GameSetup(("Anna", "Ben")), ((BOARD, BOARD),)))
    too_long += "A" * (MAX_CODE_LENGTH + 1 - len(too_long))
    with pytest.raises(ShareError) as caught:
        decode_shared(too_long)
    assert str(caught.value.message) == (
        f"this share link is longer than any this app makes ({MAX_CODE_LENGTH + 1:,} characters; "
        f"a link carries at most {MAX_CODE_LENGTH:,}), so it was damaged on its way; ask for "
        "the link again"
    )


def test_a_game_too_big_for_a_link_is_refused_when_made(monkeypatch):
    monkeypatch.setattr(share, "MAX_CODE_LENGTH", 100)
    game = Game(GameSetup(("Anna", "Ben")), ((BOARD, BOARD),))
    with pytest.raises(ShareError, match="too big for a share link .* Download the results"):
        encode_game(game)


@pytest.mark.parametrize(
    "payload",
    [
        "[" * 1000,
        '{"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": '
        + "[" * 1400
        + "]" * 1400
        + "}",
        '{"v": 1, "n": 1' + "0" * 5000 + "}",
    ],
)
def test_deep_nesting_and_huge_numbers_are_refused_before_parsing(payload):
    code = base64.urlsafe_b64encode(payload.encode()).decode()
    with pytest.raises(ShareError, match="damaged or incomplete"):
        decode_game(code)


def test_a_fifty_megabyte_link_is_refused_without_decoding():
    with pytest.raises(ShareError, match="longer than any this app makes"):
        decode_game("W" * 50_000_000)


def test_non_ascii_crown_digits_in_a_link_are_refused():
    rows = "G0L0F0F0F0/G0F0F0F1G0/G0S1CF0G0/G0S2L0G2G1/F0L١L0G1W0"
    code = _code({"v": 1, "p": ["A", "B"], "n": 5, "mk": 1, "h": 1, "d": 0, "b": [[rows, rows]]})
    with pytest.raises(ShareError):
        decode_game(code)
