"""A new game started at a table: the game it clears is kept in the draft, told on every screen,
and can be put back (docs/multiplayer.md).

"Start a new game" clears the finished Dynasty games and every kingdom. Other screens joined to
the game would lose those kingdoms without a word, so the cleared game (its game part and every
kingdom part, as the draft keeps them: boards, photo readings, photos) is kept in the draft's
``PREVIOUS`` part, and a ``GameSwap`` in the game's flags (``NEW_GAME``) tells every screen
that takes the game in, with "Put back the previous game".

Putting back swaps the kept game with the one on the table, so that nothing entered since is
dropped either: when the new game has anything entered (a tile, a photo, a finished Dynasty
game), it is kept in its turn and every screen is told, with the way back to it. A new game
that holds nothing is simply dropped. Starting a new game while nothing is entered keeps the
game kept before (a second press never loses the first game).

Pure functions on parts (``games.draft_parts``); ``games.drafts.DraftStore`` runs them in one
write transaction, and checks who may: starting a new game is the host's, putting back is any
screen's at the table (as players taken out are put back, ``games.removals``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from games.draft_parts import GAME, PREVIOUS, kingdom_slot
from games.editing import blank_board
from scoring import BoardError, parse_board

NEW_GAME = "game_swapped"  # the game's flag holding the last swap (``GameSwap.to_data``)
STARTED, PUT_BACK = "started", "put_back"  # a new game started; the previous one put back
EMPTY: dict = {"images": []}


@dataclass(frozen=True)
class GameSwap:
    """The game on the table was replaced, and the one it replaced is kept (``PREVIOUS``).

    ``kind``: ``STARTED`` (a new game) or ``PUT_BACK`` (the previous game put back over a new
    one with entries). ``by``: the writer (a browser session) that did it, so that its own
    screen says "here". ``version``: the draft's version it was written at: the parts written
    with it are not another phone's conflict. ``id``: new for each, so that a screen that
    dismissed one is told of the next."""

    id: str
    kind: str
    by: str
    version: int

    def to_data(self) -> dict:
        return {"id": self.id, "kind": self.kind, "by": self.by, "version": self.version}

    @classmethod
    def from_data(cls, data: object) -> GameSwap | None:
        """The swap kept in a game's flags; None for anything else (an old or damaged flag)."""
        if not isinstance(data, Mapping):
            return None
        try:
            kind = str(data["kind"])
            if kind not in (STARTED, PUT_BACK):
                return None
            return cls(str(data["id"]), kind, str(data["by"]), int(data["version"]))
        except (KeyError, TypeError, ValueError):
            return None


def swap_of(parts: Mapping[str, Mapping]) -> GameSwap | None:
    """The swap the stored parts tell of, while its game is kept."""
    if not kept(parts):
        return None
    return GameSwap.from_data((parts.get(GAME) or {}).get("flags", {}).get(NEW_GAME))


def kept(parts: Mapping[str, Mapping]) -> bool:
    """Whether the parts hold a game kept to put back."""
    return bool((parts.get(PREVIOUS) or {}).get("parts"))


def entered(parts: Mapping[str, Mapping]) -> bool:
    """Whether the game on the table holds anything entered: a finished Dynasty game, or a
    kingdom with a tile (at either size) or a photo."""
    if (parts.get(GAME) or {}).get("finished_rounds"):
        return True
    for name, part in parts.items():
        if kingdom_slot(name) is None:
            continue
        if part.get("photos") or any(not _blank(b) for b in part.get("boards", {}).values()):
            return True
    return False


def start(parts: Mapping[str, Mapping], swap_id: str, writer: str, version: int) -> dict[str, dict]:
    """The parts to write to start a new game (the same players and rules; no finished games,
    no kingdoms): the cleared game kept in ``PREVIOUS`` when it holds anything entered, else
    the game kept before stays (with its notice)."""
    game = _without_swap(parts.get(GAME) or {"widgets": {}})
    changed: dict[str, dict] = {}
    if entered(parts):
        changed[PREVIOUS] = _archive(parts)
        game["flags"] = {NEW_GAME: GameSwap(swap_id, STARTED, writer, version).to_data()}
    else:
        before = (parts.get(GAME) or {}).get("flags", {}).get(NEW_GAME)
        game["flags"] = {NEW_GAME: before} if before is not None and kept(parts) else {}
    game["finished_rounds"], game["finished_photos"], game["images"] = [], [], []
    changed[GAME] = game
    for name in parts:
        if kingdom_slot(name) is not None and parts[name] != EMPTY:
            changed[name] = dict(EMPTY)
    return changed


def put_back(
    parts: Mapping[str, Mapping], swap_id: str, writer: str, version: int, asked: str
) -> dict[str, dict] | None:
    """The parts to write to put back the kept game, when ``asked`` is the swap the parts tell
    of (a screen answers the notice it showed; None when that game is no longer the one kept).
    The game on the table is kept in its turn when it holds anything entered."""
    swap = swap_of(parts)
    if swap is None or swap.id != asked:
        return None
    previous = parts[PREVIOUS]["parts"]
    game = _without_swap(previous.get(GAME) or {"widgets": {}})
    changed: dict[str, dict] = {}
    if entered(parts):
        changed[PREVIOUS] = _archive(parts)
        game.setdefault("flags", {})[NEW_GAME] = GameSwap(
            swap_id, PUT_BACK, writer, version
        ).to_data()
    else:
        changed[PREVIOUS] = dict(EMPTY)
    changed[GAME] = game
    for name in sorted(set(parts) | set(previous)):
        if kingdom_slot(name) is None:
            continue
        restored = copy.deepcopy(dict(previous.get(name, EMPTY)))
        if restored != parts.get(name, EMPTY):
            changed[name] = restored
    return changed


def _archive(parts: Mapping[str, Mapping]) -> dict:
    """The game on the table as the kept part: its game and kingdoms, and the images they use
    (listed, so that the draft keeps them)."""
    held = {GAME: _without_swap(parts.get(GAME) or {"widgets": {}})}
    for name, part in parts.items():
        if kingdom_slot(name) is not None and part != EMPTY:
            held[name] = copy.deepcopy(dict(part))
    images = sorted({key for part in held.values() for key in part.get("images", ())})
    return {"parts": held, "images": images}


def _without_swap(game: Mapping) -> dict:
    game = copy.deepcopy(dict(game))
    if NEW_GAME in game.get("flags", {}):
        game["flags"] = {k: v for k, v in game["flags"].items() if k != NEW_GAME}
    return game


def _blank(text: object) -> bool:
    try:
        board = parse_board(str(text))
    except BoardError:
        return False
    return board == blank_board(board.size)
