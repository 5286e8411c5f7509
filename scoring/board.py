"""The kingdom as data: terrains, cells, the N×N board, and its text and JSON forms.

Board text (one row per line, one token per cell, separated by spaces):
``W F L G S M`` followed by a crown digit (``W0``, ``M3``), ``C`` for the castle and ``.`` for an
empty cell (a hole left by a discarded domino). Case, extra spacing, blank lines and ``#``
comments are tolerated; anything else is an error naming the row and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from scoring.words import Message, msg, nmsg, where

SIZES = (5, 7)
# A board is a few hundred characters; these bounds keep hostile input from costing time or
# memory (and Python's JSON parser from recursing) before it is refused.
MAX_TEXT_LENGTH = 1_000_000
MAX_JSON_DEPTH = 20
_DIGITS = "0123456789"  # str.isdigit() also accepts '²' and '١'; crowns are ASCII digits only


class Terrain(StrEnum):
    WHEAT = "wheat"
    FOREST = "forest"
    LAKE = "lake"
    GRASSLAND = "grassland"
    SWAMP = "swamp"
    MINE = "mine"
    CASTLE = "castle"
    EMPTY = "empty"

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    @property
    def is_land(self) -> bool:
        """True for the six terrains that form regions (not the castle, not a hole)."""
        return self not in (Terrain.CASTLE, Terrain.EMPTY)

    @property
    def max_crowns(self) -> int:
        """The most crowns any real domino half of this terrain carries."""
        return MAX_CROWNS[self]


LAND = tuple(t for t in Terrain if t.is_land)
_LETTERS = {
    Terrain.WHEAT: "W",
    Terrain.FOREST: "F",
    Terrain.LAKE: "L",
    Terrain.GRASSLAND: "G",
    Terrain.SWAMP: "S",
    Terrain.MINE: "M",
    Terrain.CASTLE: "C",
    Terrain.EMPTY: ".",
}
_BY_LETTER = {letter: terrain for terrain, letter in _LETTERS.items()}
# From the 48 real dominoes (scoring/data/dominoes.csv): no wheat, forest or lake half has two
# crowns, only mines have three.
MAX_CROWNS = {
    Terrain.WHEAT: 1,
    Terrain.FOREST: 1,
    Terrain.LAKE: 1,
    Terrain.GRASSLAND: 2,
    Terrain.SWAMP: 2,
    Terrain.MINE: 3,
    Terrain.CASTLE: 0,
    Terrain.EMPTY: 0,
}


# Terrain names as the messages use them (lower case), marked for the translation catalogs.
_TERRAIN_NAMES = {
    Terrain.WHEAT: msg("wheat"),
    Terrain.FOREST: msg("forest"),
    Terrain.LAKE: msg("lake"),
    Terrain.GRASSLAND: msg("grassland"),
    Terrain.SWAMP: msg("swamp"),
    Terrain.MINE: msg("mine"),
    Terrain.CASTLE: msg("castle"),
    Terrain.EMPTY: msg("hole"),
}


def terrain_name(terrain: Terrain) -> Message:
    """A terrain's name in messages: ``wheat``, ``castle``; an empty cell is a ``hole``."""
    return _TERRAIN_NAMES[terrain]


class BoardError(ValueError):
    """A board that cannot be a Kingdomino kingdom; the message says where and how to fix it."""

    def __init__(self, message: Message | str, row: int | None = None, col: int | None = None):
        if row is not None and col is not None:
            message = msg("{cell}: {problem}", cell=where(row, col), problem=message)
        elif row is not None:
            message = msg("row {row}: {problem}", row=row + 1, problem=message)
        super().__init__(str(message))
        self.message = message  # for a translator (``translations.Translator.say``)
        self.row = row
        self.col = col


@dataclass(frozen=True)
class Cell:
    terrain: Terrain
    crowns: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.terrain, Terrain):
            object.__setattr__(self, "terrain", Terrain(self.terrain))
        if not 0 <= self.crowns <= self.terrain.max_crowns:
            raise BoardError(
                msg(
                    "{terrain} cannot carry {n} crowns (no real domino has more than {most})",
                    terrain=terrain_name(self.terrain),
                    n=self.crowns,
                    most=self.terrain.max_crowns,
                )
            )

    @property
    def token(self) -> str:
        """The cell in board text: ``W1``, ``C`` or ``.``."""
        if self.terrain.is_land:
            return f"{self.terrain.letter}{self.crowns}"
        return self.terrain.letter

    @classmethod
    def from_token(cls, token: str) -> Cell:
        """Parse one board-text token; raises ``BoardError`` (without position) if it is not one."""
        # ASCII only: upper() maps some other letters onto ours ('ſ' → 'S').
        text = token.strip().upper() if token.isascii() else token.strip()
        if text in ("C", "."):
            return cls(_BY_LETTER[text])
        unknown = msg(
            "unknown token '{token}': use W F L G S M with a crown digit (W0, M2), C for the "
            "castle or . for a hole",
            token=_shorten(token),
        )
        if len(text) != 2 or text[0] not in _BY_LETTER or text[1] not in _DIGITS:
            if len(text) == 1 and text in _BY_LETTER:
                raise BoardError(
                    msg(
                        "'{token}' needs a crown digit, e.g. '{example}'",
                        token=_shorten(token),
                        example=f"{text}0",
                    )
                )
            raise BoardError(unknown)
        terrain = _BY_LETTER[text[0]]
        if not terrain.is_land:
            raise BoardError(unknown)
        return cls(terrain, int(text[1]))


EMPTY = Cell(Terrain.EMPTY)
CASTLE = Cell(Terrain.CASTLE)


def _shorten(token: str, limit: int = 12) -> str:
    """A token as an error message quotes it: a pasted page of text is cut short."""
    return token if len(token) <= limit else token[:limit] + "…"


@dataclass(frozen=True)
class Board:
    """An N×N kingdom (N = 5 or 7) with exactly one castle; ``cells[row][col]``, row 0 on top."""

    cells: tuple[tuple[Cell, ...], ...]

    def __post_init__(self) -> None:
        cells = tuple(tuple(row) for row in self.cells)
        object.__setattr__(self, "cells", cells)
        size = len(cells)
        if size not in SIZES:
            raise BoardError(msg("a kingdom has 5 or 7 rows, this one has {n}", n=size))
        for r, row in enumerate(cells):
            if len(row) != size:
                raise BoardError(_row_length_problem(len(row), size), row=r)
        castles = [(r, c) for r, c, cell in self.iter_cells() if cell.terrain is Terrain.CASTLE]
        if not castles:
            raise BoardError(msg("no castle: mark the start tile with C"))
        if len(castles) > 1:
            (r0, c0), (r1, c1) = castles[:2]
            raise BoardError(
                msg(
                    "two castles, at {first} and {second}: a kingdom has exactly one",
                    first=where(r0, c0),
                    second=where(r1, c1),
                ),
                row=r1,
                col=c1,
            )

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def castle(self) -> tuple[int, int]:
        return next((r, c) for r, c, cell in self.iter_cells() if cell.terrain is Terrain.CASTLE)

    def __getitem__(self, pos: tuple[int, int]) -> Cell:
        r, c = pos
        return self.cells[r][c]

    def iter_cells(self) -> Iterator[tuple[int, int, Cell]]:
        for r, row in enumerate(self.cells):
            for c, cell in enumerate(row):
                yield r, c, cell

    def rows_text(self) -> list[str]:
        """The board as board-text rows, e.g. ``['W1 F0 C L0 .', ...]``."""
        return [" ".join(cell.token for cell in row) for row in self.cells]

    def to_text(self) -> str:
        return "\n".join(self.rows_text()) + "\n"

    def replace(self, row: int, col: int, cell: Cell) -> Board:
        """A copy with one cell changed (boards are immutable)."""
        cells = [list(r) for r in self.cells]
        cells[row][col] = cell
        return Board(tuple(tuple(r) for r in cells))


def parse_board(text: str) -> Board:
    """Parse board text, or a JSON board (a list of row strings, or ``{"grid": [...]}``)."""
    _check_length(text)
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        return board_from_json(stripped)
    if "\n" not in stripped:
        _refuse_json_scalar(stripped)
    rows: list[list[str]] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            rows.append(line.split())
    return _board_from_tokens(rows)


def board_from_json(data: str | list | dict) -> Board:
    """A board from JSON: a list of row strings, a list of token lists, or ``{"grid": ...}``."""
    if isinstance(data, str):
        _check_length(data)
        try:
            data = load_json(data, MAX_JSON_DEPTH)
        except json.JSONDecodeError as err:
            raise BoardError(
                msg("not valid JSON ({error} at line {line})", error=err.msg, line=err.lineno)
            ) from None
        except ValueError as err:  # too deep, or a number too long for Python's int()
            reason = err.args[0] if err.args else str(err)  # load_json's Message
            raise BoardError(msg("not a JSON board ({error})", error=reason)) from None
    if isinstance(data, dict):
        if "grid" not in data:
            raise BoardError(
                msg('a JSON board needs a "grid": a list of row strings like "W1 F0 C L0 ."')
            )
        data = data["grid"]
    if not isinstance(data, list) or not data:
        raise BoardError(msg('a JSON board is a list of rows, e.g. ["W1 F0 C L0 .", ...]'))
    rows: list[list[str]] = []
    for r, row in enumerate(data):
        if isinstance(row, str):
            rows.append(row.split())
        elif isinstance(row, list) and all(isinstance(t, str) for t in row):
            rows.append(list(row))
        else:
            raise BoardError(
                msg("each row must be a string like 'W1 F0 C L0 .' or a list of tokens"), row=r
            )
    return _board_from_tokens(rows)


def _refuse_json_scalar(line: str) -> None:
    """``null``, ``42``, ``"..."``: JSON, but no board (not a one-row board of one token)."""
    try:
        value = json.loads(line)
    except ValueError:  # not JSON (a row of tokens), or a number too long: read as text
        return
    raise BoardError(
        msg(
            "the JSON holds no board (it is {value}); a JSON board is a list of rows, e.g. "
            '["W1 F0 C L0 .", ...]',
            value=json.dumps(value)[:40],
        )
    )


def _check_length(text: str) -> None:
    if len(text) > MAX_TEXT_LENGTH:
        raise BoardError(
            msg(
                "{n} characters is far too long for a board; give 5 or 7 rows of cells",
                n=len(text),
            )
        )


# A JSON string (unterminated ones run to the end: one pass, no backtracking) or a bracket.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def load_json(text: str, max_depth: int) -> object:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` before parsing (the parser
    recurses once per level) and numbers too long to convert; raises ``ValueError`` saying which.
    """
    depth = 0
    for token in _JSON_TOKEN.findall(text):
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                raise ValueError(_too_deep(max_depth))
        elif token in ("]", "}"):
            depth -= 1
    try:
        return json.loads(text)
    except RecursionError:  # unreachable after the check; kept as a last line of defence
        raise ValueError(_too_deep(max_depth)) from None
    except ValueError as err:
        if isinstance(err, json.JSONDecodeError):
            raise
        raise ValueError(msg("a number is too long")) from None


def _too_deep(max_depth: int) -> Message:
    return msg("nested more than {depth} levels deep", depth=max_depth)


def _board_from_tokens(rows: list[list[str]]) -> Board:
    if not rows:
        raise BoardError(msg("the board is empty: give 5 or 7 rows of 5 or 7 cells"))
    size = len(rows)
    if size not in SIZES:
        raise BoardError(
            msg("a kingdom has 5 or 7 rows (7 for Mighty Duel), this one has {n}", n=size)
        )
    cells = []
    for r, tokens in enumerate(rows):
        if len(tokens) != size:
            raise BoardError(_row_length_problem(len(tokens), size), row=r)
        row = []
        for c, token in enumerate(tokens):
            try:
                row.append(Cell.from_token(token))
            except BoardError as err:
                raise BoardError(err.message, row=r, col=c) from None
        cells.append(tuple(row))
    return Board(tuple(cells))


def _row_length_problem(n: int, size: int) -> Message:
    return nmsg(
        "has {n} cell but the board has {size} rows; every row needs {size}",
        "has {n} cells but the board has {size} rows; every row needs {size}",
        n,
        n=n,
        size=size,
    )


def format_board(board: Board) -> str:
    """Board text for ``board``; ``parse_board(format_board(b)) == b``."""
    return board.to_text()
