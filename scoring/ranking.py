"""Who wins: ranking 2–4 kingdoms with the official tie-breaks, and Dynasty (three games)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.score import Score


@dataclass(frozen=True)
class Standing:
    """One player's line in a ranking. Tied players that no tie-break separates share a place."""

    place: int  # 1 = winner; a shared place repeats (1, 1, 3)
    name: str
    total: int
    largest_region: int
    crowns: int


@dataclass(frozen=True)
class Ranking:
    standings: tuple[Standing, ...]  # best first
    explanations: tuple[str, ...]  # one sentence per tie settled or shared, in order

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.standings if s.place == 1)


def rank_players(scores: Mapping[str, Score]) -> Ranking:
    ...


@dataclass(frozen=True)
class DynastyResult:
    games_played: int  # 0..3
    game_rankings: tuple[Ranking, ...]  # one per game played
    overall: Ranking  # on summed totals (see rank_dynasty for the tie-break)


def rank_dynasty(games: Sequence[Mapping[str, Score]]) -> DynastyResult:
    ...
