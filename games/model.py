"""The game session: players, variant, rules, Dynasty, and the boards of each game played.

Everything here is immutable; the app keeps the boards being edited in its own session state and
builds a ``Game`` from them whenever it needs a result, a save or a share link.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring import Board, BoardError, parse_board
from scoring.ranking import MAX_PLAYERS, MIN_PLAYERS, validate_names
from scoring.score import Rules
from scoring.words import Message, msg

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Game", "GameError", "GameSetup"]

MAX_NAME_LENGTH = 30
DYNASTY_GAMES = 3


class GameError(ValueError):
    """A game that cannot be played or stored as given; the message says what to change."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(str(message))
        self.message = message  # for a translator (``translations.Translator.say``)


@dataclass(frozen=True)
class GameSetup:
    """Who plays and by which rules. Size 7 is the two-player Mighty Duel variant."""

    players: tuple[str, ...]
    size: int = 5
    rules: Rules = Rules()
    dynasty: bool = False

    def __post_init__(self) -> None:
        names = tuple(str(name).strip() for name in self.players)
        object.__setattr__(self, "players", names)
        try:
            validate_names(names)  # 2–4 players, each named, no two alike
        except ValueError as err:
            raise GameError(err.args[0]) from None
        if any(len(name) > MAX_NAME_LENGTH for name in names):
            raise GameError(msg("keep names to {n} characters", n=MAX_NAME_LENGTH))
        if self.size not in (5, 7):
            raise GameError(msg("a kingdom is 5×5 or 7×7, not {size}×{size}", size=self.size))
        if self.size == 7 and len(names) != 2:
            raise GameError(msg("Mighty Duel (7×7) is for exactly two players"))

    @property
    def games_to_play(self) -> int:
        return DYNASTY_GAMES if self.dynasty else 1

    @property
    def variant(self) -> Message:
        return msg("Mighty Duel (7×7)") if self.size == 7 else msg("Classic (5×5)")

    @property
    def rules_text(self) -> Message:
        """The variant and the optional rules in words, e.g. ``Classic (5×5), no bonuses``."""
        middle, harmony = self.rules.middle_kingdom, self.rules.harmony
        if middle and harmony:
            rules = msg("Middle Kingdom and Harmony bonuses")
        elif middle:
            rules = msg("Middle Kingdom bonus")
        elif harmony:
            rules = msg("Harmony bonus")
        else:
            rules = msg("no bonuses")
        if self.dynasty:
            return msg("{variant}, {rules}, Dynasty (3 games)", variant=self.variant, rules=rules)
        return msg("{variant}, {rules}", variant=self.variant, rules=rules)


@dataclass(frozen=True)
class Game:
    """A setup and the boards of each game played so far (one game, or up to three in Dynasty).

    ``rounds[i][j]`` is player ``setup.players[j]``'s kingdom in game ``i + 1``.
    """

    setup: GameSetup
    rounds: tuple[tuple[Board, ...], ...]

    def __post_init__(self) -> None:
        rounds = tuple(tuple(boards) for boards in self.rounds)
        object.__setattr__(self, "rounds", rounds)
        if not 1 <= len(rounds) <= self.setup.games_to_play:
            raise GameError(
                msg(
                    "this setup plays {games} game(s); got {n}",
                    games=self.setup.games_to_play,
                    n=len(rounds),
                )
            )
        for number, boards in enumerate(rounds, start=1):
            if len(boards) != len(self.setup.players):
                raise GameError(msg("game {number} needs one kingdom per player", number=number))
            for name, board in zip(self.setup.players, boards, strict=True):
                if board.size != self.setup.size:
                    raise GameError(
                        msg(
                            "{player}'s kingdom in game {number} is {size}×{size}, but this game "
                            "is played {game_size}×{game_size}",
                            player=name,
                            number=number,
                            size=board.size,
                            game_size=self.setup.size,
                        )
                    )

    def boards(self, round_index: int) -> dict[str, Board]:
        """Player name → kingdom for one game of the session."""
        return dict(zip(self.setup.players, self.rounds[round_index], strict=True))

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.setup.games_to_play


def game_to_dict(game: Game) -> dict:
    """A JSON-ready form: plain names, flags and board-text rows (used by history and export)."""
    return {
        "players": list(game.setup.players),
        "size": game.setup.size,
        "middle_kingdom": game.setup.rules.middle_kingdom,
        "harmony": game.setup.rules.harmony,
        "dynasty": game.setup.dynasty,
        "rounds": [[board.rows_text() for board in boards] for boards in game.rounds],
    }


def game_from_dict(data: Mapping) -> Game:
    """The inverse of ``game_to_dict``; any malformed part raises ``GameError`` saying which."""
    if not isinstance(data, Mapping):
        raise GameError(msg("a saved game is a JSON object"))
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise GameError(msg("the players must be a list of names"))
    flags = {}
    for key in ("middle_kingdom", "harmony", "dynasty"):
        value = data.get(key, key != "dynasty")
        if not isinstance(value, bool):
            raise GameError(msg("'{key}' must be true or false", key=key))
        flags[key] = value
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool):
        raise GameError(msg("the size must be 5 or 7"))
    setup = GameSetup(
        players=tuple(players),
        size=size,
        rules=Rules(middle_kingdom=flags["middle_kingdom"], harmony=flags["harmony"]),
        dynasty=flags["dynasty"],
    )
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise GameError(msg("the boards are missing"))
    parsed = []
    for number, boards in enumerate(rounds, start=1):
        if not isinstance(boards, list) or len(boards) != len(players):
            raise GameError(msg("game {number}: expected one board per player", number=number))
        row = []
        for name, rows in zip(players, boards, strict=True):
            if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
                raise GameError(
                    msg(
                        "game {number}, {player}: a board is a list of board-text rows",
                        number=number,
                        player=name,
                    )
                )
            try:
                row.append(parse_board("\n".join(rows)))
            except BoardError as err:
                raise GameError(
                    msg(
                        "game {number}, {player}'s kingdom: {problem}",
                        number=number,
                        player=name,
                        problem=err.message,
                    )
                ) from None
        parsed.append(tuple(row))
    return Game(setup=setup, rounds=tuple(parsed))
