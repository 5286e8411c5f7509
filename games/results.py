"""A game's result: every kingdom scored, each game ranked, Dynasty standings, and its JSON form.

Only calls ``scoring``; the rules themselves live there.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.model import Game, game_to_dict
from scoring.ranking import DynastyResult, Ranking, rank_dynasty, rank_players
from scoring.score import Score, score_board
from scoring.tileset import check_game


@dataclass(frozen=True)
class RoundResult:
    """One game of the session: each player's score, the ranking, and cross-kingdom warnings."""

    scores: dict[str, Score]
    ranking: Ranking
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class GameResult:
    game: Game
    rounds: tuple[RoundResult, ...]
    dynasty: DynastyResult | None  # only for a Dynasty session


def score_game(game: Game) -> GameResult:
    rounds = []
    for index in range(len(game.rounds)):
        boards = game.boards(index)
        scores = {name: score_board(board, game.setup.rules) for name, board in boards.items()}
        rounds.append(RoundResult(scores, rank_players(scores), tuple(check_game(boards))))
    dynasty = rank_dynasty([r.scores for r in rounds]) if game.setup.dynasty else None
    return GameResult(game=game, rounds=tuple(rounds), dynasty=dynasty)


def ranking_to_dict(ranking: Ranking) -> dict:
    return {
        "standings": [
            {"place": s.place, "name": s.name, "total": s.total} for s in ranking.standings
        ],
        "explanations": list(ranking.explanations),
    }


def result_to_dict(result: GameResult) -> dict:
    """The whole result for the JSON download: the game as entered plus every computed figure."""
    data = game_to_dict(result.game)
    data["games"] = [
        {
            "kingdoms": {name: score.to_dict() for name, score in r.scores.items()},
            "ranking": ranking_to_dict(r.ranking),
            "warnings": list(r.warnings),
        }
        for r in result.rounds
    ]
    if result.dynasty is not None:
        data["dynasty"] = ranking_to_dict(result.dynasty.overall)
    return data


def summary(result: GameResult) -> str:
    """One line for the history list: ``Anna 54 · Ben 48 — Anna wins``."""
    final = result.dynasty.overall if result.dynasty is not None else result.rounds[-1].ranking
    scores = " · ".join(f"{s.name} {s.total}" for s in final.standings)
    winners = final.winners
    verdict = (
        f"{winners[0]} wins" if len(winners) == 1 else f"{' and '.join(winners)} share the win"
    )
    prefix = "Dynasty: " if result.dynasty is not None else ""
    return f"{prefix}{scores} — {verdict}"
