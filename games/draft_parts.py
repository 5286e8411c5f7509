"""A draft split into the parts that different phones at one table write: the game (players,
rules, the Dynasty's finished games), each player's kingdom, and the view (what one screen has
open, its text boxes and brushes; never a conflict).

Each phone writes only the parts it changed, and each shared part carries the version the draft
had when it was written, who wrote it and the version the writer had seen (``PartVersion``).
So a phone learns which parts another one changed (``changes_since``), and whether the change it
had made itself was replaced (docs/multiplayer.md).

A snapshot is the JSON-ready dict ``ui.draft`` makes of a session: ``widgets``, ``flags``,
``boards``/``undo``/``readings`` keyed ``"<size>_<slot>"``, ``photos`` keyed by slot,
``finished_rounds``, ``finished_photos`` and ``images`` (the image keys it refers to).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from games.editing import blank_board
from scoring import BoardError, parse_board

GAME = "game"
VIEW = "view"
# The game a new game cleared, kept to put back (games.new_game): shared, never a screen's own.
PREVIOUS = "previous_game"
_KINGDOM = "kingdom_"
# Widgets that belong to one screen: whose kingdom is open, the photo source, the text box being
# typed in, the brush, and the language picked there (ui.language: each phone at a table speaks
# its own player's language, and a phone's pick does not change the host's).
_VIEW_WIDGETS = ("kingdom_shown", "source_", "text_", "brush_", "setup_language")
_KINGDOM_SECTIONS = ("boards", "undo", "readings", "photos")
_GAME_SECTIONS = ("flags", "finished_rounds", "finished_photos")


def kingdom_part(slot: int) -> str:
    return f"{_KINGDOM}{slot}"


def kingdom_slot(part: str) -> int | None:
    """The player slot a part is the kingdom of; None for the game and the view."""
    if part.startswith(_KINGDOM) and part[len(_KINGDOM) :].isdigit():
        return int(part[len(_KINGDOM) :])
    return None


def split_parts(snapshot: Mapping) -> dict[str, dict]:
    """The snapshot's parts, in JSON form (string keys, lists), the images each refers to listed
    in it. A kingdom with nothing in it (a blank board and no photo) has no part."""
    snap = json.loads(json.dumps(snapshot))
    game: dict = {"widgets": {}}
    view: dict = {"widgets": {}}
    for section in _GAME_SECTIONS:
        if section in snap:
            game[section] = snap[section]
    for key, value in snap.get("widgets", {}).items():
        (view if key.startswith(_VIEW_WIDGETS) else game)["widgets"][key] = value
    kingdoms: dict[str, dict] = {}
    for section in _KINGDOM_SECTIONS:
        for where, value in snap.get(section, {}).items():
            slot = where.rsplit("_", 1)[-1]
            if section == "boards" and _is_blank(value):
                continue  # an untouched kingdom: drawing it on a screen changes nothing
            kingdom = kingdoms.setdefault(f"{_KINGDOM}{slot}", {})
            kingdom.setdefault(section, {})[where] = value
    parts = {GAME: game, VIEW: view, **kingdoms}
    for part in parts.values():
        part["images"] = sorted(_images_of(part))
    return parts


def join_parts(parts: Mapping[str, Mapping]) -> dict:
    """One snapshot of ``parts`` (those given only: a missing game part leaves its sections out)."""
    snapshot: dict = {section: {} for section in ("widgets", "flags", *_KINGDOM_SECTIONS)}
    images: set[str] = set()
    for name, part in parts.items():
        if name == PREVIOUS:  # not on the table: only its images are the draft's to keep
            images.update(part.get("images", ()))
            continue
        for section, value in part.items():
            if section == "images":
                images.update(value)
            elif section in ("finished_rounds", "finished_photos"):
                snapshot[section] = value
            else:
                snapshot[section].update(value)
    snapshot["images"] = sorted(images)
    return snapshot


def _is_blank(text: object) -> bool:
    try:
        board = parse_board(str(text))
    except BoardError:
        return False
    return board == blank_board(board.size)


def _images_of(part: Mapping) -> set[str]:
    keys = set()
    for found in part.get("readings", {}).values():
        keys.update(found.get(what) for what in ("photo", "straightened", "overlay"))
    keys.update(found.get("image") for found in part.get("photos", {}).values())
    for by_player in part.get("finished_photos", ()):
        keys.update(by_player.values())
    return {key for key in keys if isinstance(key, str)}


@dataclass(frozen=True)
class PartVersion:
    """The draft's version when a part was last written, by which writer (a browser session),
    and the part's version that writer had seen before its change."""

    version: int
    writer: str
    base: int

    def to_dict(self) -> dict:
        return {"version": self.version, "writer": self.writer, "base": self.base}

    @classmethod
    def from_dict(cls, data: Mapping) -> PartVersion:
        return cls(int(data["version"]), str(data["writer"]), int(data["base"]))


@dataclass(frozen=True)
class Change:
    """A part another writer changed since this one last saw it."""

    part: str
    # This writer had written the part itself, and that version is no longer the stored one.
    replaced_own: bool
    # ... and the other writer changed it without having seen that version (it was lost there).
    unseen: bool


def changes_since(
    stored: Mapping[str, PartVersion],
    known: Mapping[str, int],
    own: Mapping[str, int],
    pending: set[str] | frozenset[str] = frozenset(),
) -> list[Change]:
    """The parts to take from the store: those whose stored version is not the ``known`` one
    (the version this writer last wrote or took). Parts with a ``pending`` change of this
    writer's are left out: that change is newer, and its save replaces the stored one (the last
    change wins). ``own`` holds the version of each part this writer wrote itself."""
    changes = []
    for part, entry in sorted(stored.items()):
        seen = known.get(part, 0)
        if entry.version == seen or part in pending:
            continue
        mine = own.get(part) == seen and seen > 0
        changes.append(Change(part, replaced_own=mine, unseen=mine and entry.base != seen))
    return changes
