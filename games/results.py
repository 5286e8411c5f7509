"""A game's result: every entered kingdom scored, each game ranked, Dynasty standings, whether the
result is still provisional (and why), and its JSON form.

Only calls ``scoring``; the rules themselves live there. A kingdom with no tile yet (only the
castle) is *not entered*: it scores nothing and takes no place, so a player who has not entered a
kingdom never gets the Middle Kingdom's 10 points for a lone castle.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from games.model import Game, game_to_dict
from scoring import Board, Terrain
from scoring.ranking import DynastyResult, Ranking, rank_dynasty, rank_players
from scoring.score import Score, score_board
from scoring.tileset import check_game, contradictions
from scoring.words import Joined, Message, joined, msg, nmsg, where


def is_entered(board: Board) -> bool:
    """Whether a kingdom holds at least one tile (a board with only its castle is not entered)."""
    return any(
        cell.terrain not in (Terrain.EMPTY, Terrain.CASTLE) for _, _, cell in board.iter_cells()
    )


@dataclass(frozen=True)
class RoundResult:
    """One game of the session: each entered kingdom's score, their ranking, the players whose
    kingdom is not entered yet, cross-kingdom warnings, and the kingdoms that contradict
    themselves."""

    scores: dict[str, Score]  # entered kingdoms only, in the players' order
    ranking: Ranking | None  # None until two kingdoms are entered
    warnings: tuple[Message, ...]
    missing: tuple[str, ...] = ()  # players without a kingdom yet
    # Player → the sentences proving their kingdom cannot be as entered (its tiles odd in number,
    # or not splitting into distinct real dominoes): its score is not one to name a winner on.
    contradicted: dict[str, tuple[Message, ...]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class GameResult:
    game: Game
    rounds: tuple[RoundResult, ...]
    dynasty: DynastyResult | None  # only for a Dynasty session: the games with every kingdom in


def score_round(boards: Mapping[str, Board], rules) -> RoundResult:
    entered = {name: board for name, board in boards.items() if is_entered(board)}
    scores = {name: score_board(board, rules) for name, board in entered.items()}
    ranking = rank_players(scores) if len(scores) >= 2 else None
    warnings = tuple(check_game(entered)) if entered else ()
    missing = tuple(name for name in boards if name not in entered)
    contradicted = {
        name: found for name, board in entered.items() if (found := contradictions(board))
    }
    return RoundResult(scores, ranking, warnings, missing, contradicted)


def score_game(game: Game) -> GameResult:
    rounds = tuple(
        score_round(game.boards(index), game.setup.rules) for index in range(len(game.rounds))
    )
    dynasty = None
    if game.setup.dynasty:
        # Only games with every kingdom in count: a missing kingdom would score 0 in the sum.
        dynasty = rank_dynasty([r.scores for r in rounds if r.complete])
    return GameResult(game=game, rounds=rounds, dynasty=dynasty)


NAMED_CELLS = 5  # a longer list is cut: "... and 16 more"


def cells_text(cells: Collection[tuple[int, int]]) -> Message:
    """``1 cell (row 2, column 3)``, ``2 cells (row 1, column 1 and row 4, column 2)``; beyond
    ``NAMED_CELLS`` the rest are counted: ``21 cells (row 1, column 1, ... and 16 more)``."""
    ordered = sorted(cells)
    named: list[Message] = [where(r, c) for r, c in ordered[:NAMED_CELLS]]
    if len(ordered) > NAMED_CELLS:
        more = len(ordered) - NAMED_CELLS
        named.append(nmsg("{n} more", "{n} more", more, n=more))
    return nmsg(
        "{n} cell ({cells})", "{n} cells ({cells})", len(ordered), n=len(ordered), cells=named
    )


def provisional_reason(
    result: GameResult,
    to_check: Mapping[str, Collection[tuple[int, int]]] | None = None,
    holes: Mapping[str, Collection[tuple[int, int]]] | None = None,
) -> Message | None:
    """Why the current game's result is not final yet, with what to do; None when every kingdom
    is in, no cell is left to check and no kingdom contradicts itself.

    ``to_check``: player name → cells of their kingdom the photo reader was unsure of.
    ``holes``: player name → cells the photo reader read as holes and the user has not checked
    yet (a hole costs Harmony, and a tile read as a hole changes the regions too).
    A kingdom that contradicts itself (``RoundResult.contradicted``) is named, and the sentence
    that proves it follows, naming its cells.
    """
    current = result.rounds[-1]
    to_check = to_check or {}
    flagged = [
        msg("{cells} of {player}'s kingdom to check", cells=cells_text(cells), player=name)
        for name, cells in to_check.items()
        if cells
    ]
    for name, cells in (holes or {}).items():
        unflagged = set(cells) - set(to_check.get(name, ()))
        if not unflagged:
            continue
        n = len(unflagged)
        if result.game.setup.rules.harmony:
            flagged.append(
                nmsg(
                    "{cells} of {player}'s kingdom read as a hole, costing Harmony, to check",
                    "{cells} of {player}'s kingdom read as holes, costing Harmony, to check",
                    n,
                    cells=cells_text(unflagged),
                    player=name,
                )
            )
        else:
            flagged.append(
                nmsg(
                    "{cells} of {player}'s kingdom read as a hole to check",
                    "{cells} of {player}'s kingdom read as holes to check",
                    n,
                    cells=cells_text(unflagged),
                    player=name,
                )
            )
    wrong = [
        msg("{player}'s kingdom impossible with the real dominoes", player=name)
        for name in current.contradicted
    ]
    missing = [msg("{player}'s kingdom not entered", player=name) for name in current.missing]
    if not flagged and not missing and not wrong:
        return None
    if wrong:
        if len(flagged) + len(missing) + len(wrong) > 1:
            advice = msg(
                "Fix them above: the winner shows once every kingdom is in, checked and "
                "possible with the real dominoes."
            )
        else:
            advice = msg(
                "Fix it above: the winner shows once the kingdom is possible with the real "
                "dominoes."
            )
    elif not flagged:
        if len(missing) > 1:
            advice = msg("Enter them above: the winner shows once every kingdom is in.")
        else:
            advice = msg("Enter it above: the winner shows once every kingdom is in.")
    elif not missing:
        advice = msg("Fix or confirm them above: the winner shows once every cell is checked.")
    else:
        advice = msg(
            "Enter and check them above: the winner shows once every kingdom is in and checked."
        )
    reason = msg(
        "Provisional: {problems}. {advice}",
        problems=Joined(tuple(flagged + wrong + missing)),
        advice=advice,
    )
    if not wrong:
        return reason
    why = [
        msg("{player}'s kingdom: {problem}", player=name, problem=problems[0])
        for name, problems in current.contradicted.items()
    ]
    return joined([reason, *why])


def ranking_to_dict(ranking: Ranking | None) -> dict:
    if ranking is None:
        return {"standings": [], "explanations": []}
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
            "not_entered": list(r.missing),
            "warnings": list(r.warnings),
        }
        for r in result.rounds
    ]
    if result.dynasty is not None:
        data["dynasty"] = ranking_to_dict(result.dynasty.overall)
    return data


def summary(result: GameResult) -> Message:
    """One line for the history list: ``Anna 54 · Ben 48 — Anna wins``."""
    final = result.dynasty.overall if result.dynasty is not None else result.rounds[-1].ranking
    if final is None or not final.standings:
        scores = result.rounds[-1].scores
        return msg(
            "{scores}",
            scores=Joined(tuple(f"{name} {score.total}" for name, score in scores.items()), " · "),
        )
    scores = Joined(tuple(f"{s.name} {s.total}" for s in final.standings), " · ")
    winners = final.winners
    if len(winners) == 1:
        verdict = msg("{player} wins", player=winners[0])
    else:
        verdict = msg("{players} share the win", players=list(winners))
    if result.dynasty is not None:
        return msg("Dynasty: {scores} — {verdict}", scores=scores, verdict=verdict)
    return msg("{scores} — {verdict}", scores=scores, verdict=verdict)
