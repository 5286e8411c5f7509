"""Who may change what at a table of phones, checked where the draft is written (the server).

The host (the page that started the game, known by a key only the server can make:
``DraftStore.host_key``) changes everything. A phone that joined (docs/multiplayer.md) holds one
seat, claimed here and kept in the draft, so that no other phone can take it; it changes its own
player's kingdom only. The players' names, the rules and the number of players are the host's,
with two exceptions a phone needs: adding itself as a new player (``sit`` with a name), and
putting back players the host took out with their kingdoms (``games.removals``). Starting a new
game is the host's too (``DraftStore.new_game`` checks the host's key); putting back the game it
cleared is any screen's (``DraftStore.put_back_game``, ``games.new_game``), and a phone's own
writes never reach the kept game. A taken seat is given free by the host (``Seats.release``).

A seat is held by a key the phone keeps (in its tab's address, so a reload keeps it); the draft
stores only the key's digest.
"""

from __future__ import annotations

import copy
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from games.draft_parts import GAME, kingdom_slot
from games.model import MAX_PLAYERS, GameError, GameSetup
from games.removals import REMOVED, Removal
from scoring.score import Rules
from scoring.words import Message, msg

SEATS = "seats"  # where a stored draft keeps them, beside its parts


class SeatError(ValueError):
    """A seat that cannot be taken; the message says why and what to do."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(str(message))
        self.message = message


def new_seat_key() -> str:
    """A phone's key to its seat: random, 96 bits."""
    return secrets.token_urlsafe(12)


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Seats:
    """Slot → the digest of the key of the phone sitting there."""

    holders: Mapping[int, str] = field(default_factory=dict)

    def taken(self, slot: int) -> bool:
        return slot in self.holders

    def holds(self, slot: int | None, key: object) -> bool:
        """Whether the phone with ``key`` sits at ``slot``."""
        return (
            slot is not None
            and isinstance(key, str)
            and bool(key)
            and self.holders.get(slot) == _digest(key)
        )

    def release(self, slot: int) -> Seats:
        return Seats({s: d for s, d in self.holders.items() if s != slot})

    def to_data(self) -> dict[str, str]:
        return {str(slot): digest for slot, digest in sorted(self.holders.items())}

    @classmethod
    def from_data(cls, data: object) -> Seats:
        if not isinstance(data, Mapping):
            return cls()
        holders = {}
        for slot, digest in data.items():
            if str(slot).isdigit() and isinstance(digest, str):
                holders[int(slot)] = digest
        return cls(holders)


def players(game: Mapping | None) -> tuple[str, ...]:
    """The players' names as a stored game part holds them."""
    widgets = (game or {}).get("widgets", {})
    count = widgets.get("setup_count") or 2
    return tuple(str(widgets.get(f"setup_name_{slot}", "")) for slot in range(int(count)))


def removal(game: Mapping | None) -> Removal | None:
    """The removal of players a stored game part holds, while they are still out."""
    found = Removal.from_data((game or {}).get("flags", {}).get(REMOVED))
    if found is None or not found.pending(len(players(game))):
        return None
    return found


@dataclass(frozen=True)
class Seating:
    """What ``sit`` decided: the phone's slot, the seats, and the game part when it changed."""

    slot: int
    seats: Seats
    game: dict | None = None


def sit(
    game: Mapping | None, seats: Seats, slot: int | None, key: str, name: str | None = None
) -> Seating:
    """The phone with ``key`` sits at ``slot``, or, given a ``name``, joins the game as a new
    player (at the next slot). A phone holds one seat: one it held before is given free."""
    names = players(game)
    changed = None
    if name is not None:
        name = name.strip()
        slot = len(names)
        if (game or {}).get("finished_rounds"):
            raise SeatError(msg("The Dynasty is under way: only its players can join."))
        if slot >= MAX_PLAYERS:
            raise SeatError(msg("The table is full (four players); ask the host to make room."))
        out = removal(game)
        if out is not None and slot in dict(out.players):
            raise SeatError(
                msg(
                    "{player} was taken out of the game with a kingdom entered; ask the host to "
                    "put {player} back or to add you.",
                    player=dict(out.players)[slot],
                )
            )
        try:  # the game's own checks: a name, distinct names, their length
            GameSetup(players=(*names, name), size=5, rules=Rules(), dynasty=False)
        except GameError as err:
            raise SeatError(err.message) from err
        changed = copy.deepcopy(dict(game or {"widgets": {}}))
        changed.setdefault("widgets", {})
        changed["widgets"]["setup_count"] = slot + 1
        changed["widgets"][f"setup_name_{slot}"] = name
    elif slot is None or not 0 <= slot < len(names):
        raise SeatError(msg("That player is no longer in the game; choose again."))
    if seats.taken(slot) and not seats.holds(slot, key):
        raise SeatError(
            msg(
                "{player}'s seat is taken by another phone. If that phone is gone, the host can "
                "give the seat free.",
                player=names[slot] if slot < len(names) else name,
            )
        )
    holders = {s: d for s, d in seats.holders.items() if d != _digest(key)}
    holders[slot] = _digest(key)
    return Seating(slot, Seats(holders), changed)


def guest_parts(
    changed: Mapping[str, Mapping],
    stored_game: Mapping | None,
    seats: Seats,
    seat: int | None,
    key: str | None,
) -> tuple[dict[str, dict], tuple[str, ...]]:
    """Of the parts a joined phone wants to write, those it may: its own seat's kingdom, and the
    game's part only to put back players the host took out (merged into the stored game part, so
    nothing else of the host's is changed). Returns them and the names of the refused ones."""
    allowed: dict[str, dict] = {}
    refused = []
    for name, part in changed.items():
        slot = kingdom_slot(name)
        if slot is not None and slot == seat and seats.holds(seat, key):
            allowed[name] = dict(part)
        elif name == GAME and (put_back := _put_back(stored_game, part)) is not None:
            allowed[name] = put_back
        else:
            refused.append(name)
    return allowed, tuple(refused)


def _put_back(stored: Mapping | None, wanted: Mapping) -> dict | None:
    """The stored game part with its removed players put back, when ``wanted`` asks for exactly
    that (their count back, the removal's flag gone); else None."""
    out = removal(stored)
    if out is None:
        return None
    count = wanted.get("widgets", {}).get("setup_count")
    if count != out.count or REMOVED in wanted.get("flags", {}):
        return None
    game = copy.deepcopy(dict(stored))
    game["widgets"]["setup_count"] = out.count
    game.get("flags", {}).pop(REMOVED, None)
    return game
