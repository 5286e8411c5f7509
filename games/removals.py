"""Players taken out of a game with their kingdom entered: said on every screen, with a way back.

Setting "Players" lower drops the last players from the game. Their kingdoms stay in the draft
(``games.draft_parts`` keeps every slot's boards), so nothing is deleted; but a kingdom that was
entered and is no longer shown must be said, on every screen at the table, with "Put back".
A ``Removal`` is kept with the game's part of the draft (its flags), so every screen that takes
the game in learns of it (docs/multiplayer.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

REMOVED = "removed_players"  # the game's flag holding the removal (``Removal.to_data``)


@dataclass(frozen=True)
class Removal:
    """Players taken out of the game whose kingdoms had been entered.

    ``count``: the number of players before; putting it back restores that count (the names and
    kingdoms of the slots are still kept). ``players``: each removed player's slot and name.
    ``id``: new for each removal, so that a screen that dismissed one is told of the next."""

    id: str
    count: int
    players: tuple[tuple[int, str], ...]

    def pending(self, count: int) -> bool:
        """Whether these players are still out of a game of ``count`` players."""
        return count < self.count

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.players)

    def to_data(self) -> dict:
        return {
            "id": self.id,
            "count": self.count,
            "players": [[slot, name] for slot, name in self.players],
        }

    @classmethod
    def from_data(cls, data: object) -> Removal | None:
        """The removal kept in a draft; None for anything else (an old or damaged flag)."""
        if not isinstance(data, Mapping):
            return None
        try:
            players = tuple((int(slot), str(name)) for slot, name in data["players"])
            return cls(str(data["id"]), int(data["count"]), players)
        except (KeyError, TypeError, ValueError):
            return None


def after_count_change(
    before: int,
    after: int,
    names: Sequence[str],
    entered: Collection[int],
    pending: Removal | None,
    new_id: str,
) -> Removal | None:
    """The removal to tell the table once "Players" went from ``before`` to ``after``.

    ``names``: the players' names by slot (at least ``before`` of them); ``entered``: the slots
    whose kingdom holds something (a tile, a photo). A removal still pending is carried on (its
    players still out of the game, with any new ones); None when no entered kingdom is out."""
    if pending is not None and not pending.pending(after):
        pending = None
    out = {slot: name for slot, name in (pending.players if pending else ()) if slot >= after}
    for slot in range(after, before):
        if slot in entered:
            out.setdefault(slot, names[slot])
    if not out:
        return None
    count = max(before, pending.count if pending else 0, max(out) + 1)
    players = tuple(sorted(out.items()))
    if pending is not None and pending.players == players and pending.count == count:
        return pending  # nothing new to tell
    return Removal(new_id, count, players)
