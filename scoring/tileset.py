"""The 48 real dominoes, and the checks that a kingdom (or a game) could be built from them."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.board import Board


def check_kingdom(board: Board) -> tuple[str, ...]:
    """Warnings (never errors) for a kingdom the real set cannot make; each names the cells."""
    return ()


def check_game(boards: Mapping[str, Board]) -> tuple[str, ...]:
    """Warnings for kingdoms of one game that together need a domino more often than it exists."""
    return ()
