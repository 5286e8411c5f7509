"""A game in a share link: boards and rules as compact plain text in one URL query parameter.

The code is URL-safe base64 of a small JSON object; each board is its board text with the spaces
dropped and rows joined by ``/`` (``G0L0F0F0F0/G0F0F0F1G0/...``). Decoding is strict and bounded
(never pickle, never eval): anything malformed raises ``ShareError`` with a message for the user.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from games.model import Game, GameError, game_from_dict, game_to_dict
from scoring.board import load_json
from scoring.words import Message, msg

# A finished game (4 players × 3 games) needs about 2,700 characters; the cap leaves room for
# other states kept in a link (a draft game) and refuses megabytes before decoding them.
MAX_CODE_LENGTH = 64 * 1024
# The format nests three levels (object, games, boards); the cap is checked before parsing, as
# Python's JSON parser recurses once per level.
MAX_NESTING = 8
FORMAT_VERSION = 1
_TOKEN = re.compile(r"[WFLGSM][0-9]|C|\.")
_ROW = re.compile(r"(?:[WFLGSM][0-9]|C|\.)+")


class ShareError(ValueError):
    """A share link that cannot be opened; the message says so in plain words."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(str(message))
        self.message = message  # for a translator (``translations.Translator.say``)


def encode_game(game: Game) -> str:
    data = game_to_dict(game)
    compact = {
        "v": FORMAT_VERSION,
        "p": data["players"],
        "n": data["size"],
        "mk": int(data["middle_kingdom"]),
        "h": int(data["harmony"]),
        "d": int(data["dynasty"]),
        "b": [[_compact_board(rows) for rows in boards] for boards in data["rounds"]],
    }
    text = json.dumps(compact, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_game(code: str) -> Game:
    damaged = msg("this share link is damaged or incomplete; ask for the link again")
    if not isinstance(code, str) or not code or len(code) > MAX_CODE_LENGTH:
        raise ShareError(damaged)
    try:
        raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        compact = load_json(raw.decode("utf-8"), MAX_NESTING)
    except (binascii.Error, ValueError):
        raise ShareError(damaged) from None
    if not isinstance(compact, dict) or compact.get("v") != FORMAT_VERSION:
        raise ShareError(damaged)
    try:
        rounds = [[_expand_board(board) for board in r] for r in compact["b"]]
        return game_from_dict(
            {
                "players": compact["p"],
                "size": compact["n"],
                "middle_kingdom": _flag(compact["mk"]),
                "harmony": _flag(compact["h"]),
                "dynasty": _flag(compact["d"]),
                "rounds": rounds,
            }
        )
    except (KeyError, TypeError, AttributeError):
        raise ShareError(damaged) from None
    except GameError as err:
        raise ShareError(
            msg(
                "this share link holds a game that cannot be shown: {problem}",
                problem=err.message,
            )
        ) from None


def _flag(value: object) -> bool:
    if value not in (0, 1) or isinstance(value, float):
        raise TypeError("flag")
    return bool(value)


def _compact_board(rows: list[str]) -> str:
    """Board-text rows ``["G0 L0 C", ...]`` to ``"G0L0C/..."`` (tokens need no separator)."""
    return "/".join(row.replace(" ", "") for row in rows)


def _expand_board(compact: str) -> list[str]:
    """``"G0L0C/..."`` back to board-text rows ``["G0 L0 C", ...]``."""
    rows = compact.split("/")
    if not all(_ROW.fullmatch(row) for row in rows):
        raise TypeError("board")
    return [" ".join(_TOKEN.findall(row)) for row in rows]
