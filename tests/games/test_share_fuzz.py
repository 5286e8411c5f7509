"""Fuzzing share links: mutated payloads and mutated codes, seeded, must open as a game or raise
``ShareError``, never another exception."""

from __future__ import annotations

import base64
import json
import random

from games.model import Game, GameSetup
from games.share import ShareError, decode_game, encode_game
from scoring import parse_board
from tests.fuzz import cases, mutate

CASES = 12_000
BOARD = parse_board("G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0")
GAMES = [
    Game(GameSetup(("Anna", "Björn")), ((BOARD, BOARD),)),
    Game(GameSetup(("A", "B", "C"), dynasty=True), ((BOARD,) * 3,) * 2),
]


def _payload(game: Game) -> str:
    code = encode_game(game)
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)).decode("utf-8")


def _encode(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode().rstrip("=")


def _decode_all(codes) -> tuple[int, int]:
    opened = refused = 0
    for code in codes:
        try:
            game = decode_game(code)
        except ShareError as err:
            assert str(err)
            refused += 1
        else:
            assert isinstance(game, Game)
            opened += 1
    return opened, refused


def test_fuzzed_share_payloads_open_or_are_refused():
    seeds = [_payload(game) for game in GAMES]
    opened, refused = _decode_all(_encode(text) for text in cases(seeds, CASES, seed=21))
    assert opened + refused == CASES
    assert opened >= CASES // 10 and refused >= CASES // 2


def test_fuzzed_share_codes_open_or_are_refused():
    rng = random.Random(22)
    seeds = [encode_game(game) for game in GAMES]
    codes = [mutate(rng, rng.choice(seeds)) for _ in range(CASES)]
    opened, refused = _decode_all(codes)
    assert opened + refused == CASES
    assert refused >= CASES // 2


def test_payload_round_trip_of_the_seeds():
    # The fuzz seeds are real links: unmutated they open as the game they came from.
    for game in GAMES:
        assert decode_game(_encode(_payload(game))) == game
        assert json.loads(_payload(game))["v"] == 1
