"""A game in a share link: boards and rules as compact plain text in one URL query parameter,
with the cells still to check, so that a provisional result opens provisional.

The code is URL-safe base64 of a small JSON object; each board is its board text with the spaces
dropped and rows joined by ``/`` (``G0L0F0F0F0/G0F0F0F1G0/...``); the current game's cells still
flagged (``f``) and read as holes but not checked (``o``) are, per player, a string of row and
column digits (``"0132"``: row 1, column 2 and row 4, column 3). Decoding is strict and bounded
(never pickle, never eval): anything malformed raises ``ShareError`` with a message for the user.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from games.model import Game, GameError, game_from_dict, game_to_dict
from scoring.board import load_json
from scoring.words import Message, msg

# The largest game (4 players × 3 games, names of 30 four-byte characters, every cell of the
# current game flagged and read as a hole) needs 2,200 characters. A link may carry at most this
# many: far below what a server takes in an address (Streamlit's answered "Invalid HTTP request"
# to a 132,000-character one; a proxy may stop at 8,192 for the whole request line), and a
# longer code is refused before it is decoded.
MAX_CODE_LENGTH = 7 * 1024
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


Cells = Mapping[str, Collection[tuple[int, int]]]


@dataclass(frozen=True)
class SharedGame:
    """What a share link carries: the game, and by player the current game's cells still flagged
    (``to_check``) and read as holes but not checked (``holes``), as the host's page had them."""

    game: Game
    to_check: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    holes: dict[str, set[tuple[int, int]]] = field(default_factory=dict)


def encode_game(game: Game, to_check: Cells | None = None, holes: Cells | None = None) -> str:
    """The link's code; ``ShareError`` (saying what to do instead) when it would be longer than a
    link may carry (``MAX_CODE_LENGTH``)."""
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
    for key, cells in (("f", to_check or {}), ("o", holes or {})):
        if any(cells.get(name) for name in game.setup.players):
            compact[key] = [_compact_cells(cells.get(name, ())) for name in game.setup.players]
    text = json.dumps(compact, separators=(",", ":"), ensure_ascii=False)
    code = base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    if len(code) > MAX_CODE_LENGTH:
        raise ShareError(
            msg(
                "This game is too big for a share link ({n} characters; a link carries at most "
                "{most}). Download the results (JSON) and send the file instead.",
                n=len(code),
                most=MAX_CODE_LENGTH,
            )
        )
    return code


def decode_game(code: str) -> Game:
    return decode_shared(code).game


def decode_shared(code: str) -> SharedGame:
    """The game a link carries and its cells still to check; ``ShareError`` for a link that is
    too long or damaged."""
    damaged = msg("this share link is damaged or incomplete; ask for the link again")
    if isinstance(code, str) and len(code) > MAX_CODE_LENGTH:
        raise ShareError(
            msg(
                "this share link is longer than any this app makes ({n} characters; a link "
                "carries at most {most}), so it was damaged on its way; ask for the link again",
                n=len(code),
                most=MAX_CODE_LENGTH,
            )
        )
    if not isinstance(code, str) or not code:
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
        game = game_from_dict(
            {
                "players": compact["p"],
                "size": compact["n"],
                "middle_kingdom": _flag(compact["mk"]),
                "harmony": _flag(compact["h"]),
                "dynasty": _flag(compact["d"]),
                "rounds": rounds,
            }
        )
        marks = {key: _expand_cells(compact.get(key), game) for key in ("f", "o")}
    except (KeyError, TypeError, AttributeError):
        raise ShareError(damaged) from None
    except GameError as err:
        raise ShareError(
            msg(
                "this share link holds a game that cannot be shown: {problem}",
                problem=err.message,
            )
        ) from None
    return SharedGame(game, to_check=marks["f"], holes=marks["o"])


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


def _compact_cells(cells: Collection[tuple[int, int]]) -> str:
    """Cells ``{(0, 1), (3, 2)}`` as ``"0132"``: a digit for the row, one for the column."""
    return "".join(f"{r}{c}" for r, c in sorted(cells))


def _expand_cells(value: object, game: Game) -> dict[str, set[tuple[int, int]]]:
    """A link's ``f`` or ``o`` (one string per player, or absent) back to player → cells."""
    if value is None:
        return {}
    players = game.setup.players
    if not isinstance(value, list) or len(value) != len(players):
        raise TypeError("cells")
    size = game.setup.size
    found = {}
    for name, text in zip(players, value, strict=True):
        if not isinstance(text, str) or len(text) % 2 or not text.isascii():
            raise TypeError("cells")
        digits = [int(d) if d.isdigit() and int(d) < size else -1 for d in text]
        if -1 in digits:
            raise TypeError("cells")
        if digits:
            found[name] = set(zip(digits[::2], digits[1::2], strict=True))
    return found
