"""Who wins: ranking 2–4 kingdoms with the official tie-breaks, and Dynasty (three games).

A single game is ranked by total score; a tie goes to the larger largest region (crowned or
not), then to more crowns; players still level share the place. Dynasty sums each player's three
totals and breaks a tie the same way on sums: the summed largest regions of the games, then the
summed crowns, else a shared place. (The rulebook gives no Dynasty tie-break; summing keeps the
single-game order of criteria and uses every game.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from scoring.score import Score
from scoring.words import and_list

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DYNASTY_GAMES = 3
_ORDINALS = ("first", "second", "third", "fourth")


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


@dataclass(frozen=True)
class _Wording:
    """How the sentences name each criterion: one game, or the sums of a Dynasty."""

    total: Callable[[int], str]  # "54"
    largest: Callable[[int], str]  # "a largest region of 9 cells"
    largest_beats: Callable[[str, int, str, int], str]  # "Anna's largest region, 9 cells, ..."
    crowns: Callable[[int], str]  # "6 crowns"
    largest_order: str  # "on largest region", for three or more players
    crowns_order: str  # "on crowns"


_GAME = _Wording(
    total=lambda n: f"{n}",
    largest=lambda n: f"a largest region of {n} cells",
    largest_beats=lambda a, m, b, n: f"{a}'s largest region, {m} cells, beats {b}'s {n}",
    crowns=lambda n: f"{n} crown{'' if n == 1 else 's'}",
    largest_order="on largest region",
    crowns_order="on crowns",
)
_DYNASTY = _Wording(
    total=lambda n: f"{n} over the games",
    largest=lambda n: f"largest regions adding up to {n} cells",
    largest_beats=lambda a, m, b, n: (
        f"{a}'s largest regions add up to {m} cells, beating {b}'s {n}"
    ),
    crowns=lambda n: f"{n} crown{'' if n == 1 else 's'} in all",
    largest_order="on largest regions added up",
    crowns_order="on crowns over the games",
)


def validate_names(names: Sequence[str]) -> None:
    """Raise ``ValueError`` unless there are 2–4 players with distinct, non-empty names."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"every player needs a name, got {name!r}")
        # "Anna" and "anna " would read as the same player in a sentence.
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(
                f"two players are called {seen[key]!r} and {name!r}: names must differ"
            )
        seen[key] = name


def rank_players(scores: Mapping[str, Score]) -> Ranking:
    """Rank 2–4 named kingdoms of one game: total, largest region, crowns, else a shared place."""
    validate_names(list(scores))
    lines = [(name, s.total, s.largest_region, s.crowns) for name, s in scores.items()]
    return _rank(lines, _GAME)


@dataclass(frozen=True)
class DynastyResult:
    games_played: int  # 0..3
    game_rankings: tuple[Ranking, ...]  # one per game played
    overall: Ranking  # on summed totals (see rank_dynasty for the tie-break)


def rank_dynasty(games: Sequence[Mapping[str, Score]]) -> DynastyResult:
    """Rank a Dynasty (up to three games, same players each time) on summed totals.

    A tie in the summed totals goes to the larger sum of each game's largest region, then to
    more crowns over all games; players still level share the place. With games still to play
    the overall ranking is the standing so far; with none played it is empty.
    """
    if len(games) > DYNASTY_GAMES:
        raise ValueError(f"a Dynasty is {DYNASTY_GAMES} games, got {len(games)}")
    if not games:
        return DynastyResult(0, (), Ranking((), ()))
    names = list(games[0])
    validate_names(names)
    for number, game in enumerate(games[1:], start=2):
        if set(game) != set(names):
            raise ValueError(
                f"game {number} has players {', '.join(game)}; a Dynasty keeps the players of "
                f"game 1 ({', '.join(names)})"
            )
    game_rankings = tuple(rank_players(game) for game in games)
    lines = [
        (
            name,
            sum(game[name].total for game in games),
            sum(game[name].largest_region for game in games),
            sum(game[name].crowns for game in games),
        )
        for name in names
    ]
    return DynastyResult(len(games), game_rankings, _rank(lines, _DYNASTY))


_Line = tuple[str, int, int, int]  # name, total, largest region, crowns


def _rank(lines: list[_Line], wording: _Wording) -> Ranking:
    # sorted() is stable: players level on every criterion keep the order they were given in.
    ordered = sorted(lines, key=lambda line: (-line[1], -line[2], -line[3]))
    standings = []
    for index, (name, total, largest, crowns) in enumerate(ordered):
        previous = standings[-1] if standings else None
        shares = previous and (previous.total, previous.largest_region, previous.crowns) == (
            total,
            largest,
            crowns,
        )
        place = previous.place if shares else index + 1
        standings.append(Standing(place, name, total, largest, crowns))
    explanations = []
    for group in _groups(ordered, key=1):
        if len(group) > 1:
            explanations.extend(_explain_total_tie(group, standings, wording))
    return Ranking(tuple(standings), tuple(explanations))


def _groups(lines: list[_Line], key: int) -> list[list[_Line]]:
    """Consecutive runs of ``lines`` (already sorted) equal on field ``key``."""
    runs: list[list[_Line]] = []
    for line in lines:
        if runs and runs[-1][0][key] == line[key]:
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _names(group: Sequence[_Line]) -> str:
    return and_list([line[0] for line in group])


def _both(group: Sequence[_Line]) -> str:
    return "both" if len(group) == 2 else "all"


def _explain_total_tie(
    group: list[_Line], standings: list[Standing], wording: _Wording
) -> list[str]:
    """Sentences for players level on total: the largest region decides, then crowns."""
    subject = f"{_names(group)} {_both(group)} have"
    by_largest = _groups(group, key=2)
    if len(by_largest) == 1:
        facts = [wording.total(group[0][1]), wording.largest(group[0][2])]
        return [_explain_crowns(group, facts, subject, standings, wording)]
    if len(group) == 2:
        (winner, _, best, _), (loser, _, second, _) = group
        decision = wording.largest_beats(winner, best, loser, second)
    else:
        steps = [
            f"{_names(run)} ({run[0][2]} cells{' each' if len(run) > 1 else ''})"
            for run in by_largest
        ]
        decision = f"{wording.largest_order} the order is " + ", then ".join(steps)
    sentences = [f"{subject} {wording.total(group[0][1])}; {decision}."]
    for run in by_largest:
        if len(run) > 1:
            subject = f"{_names(run)} also {_both(run)} have"
            facts = [wording.largest(run[0][2])]
            sentences.append(_explain_crowns(run, facts, subject, standings, wording))
    return sentences


def _explain_crowns(
    group: list[_Line], facts: list[str], subject: str, standings: list[Standing], wording: _Wording
) -> str:
    """One sentence for players level on total and largest region: crowns decide, or they share."""
    by_crowns = _groups(group, key=3)
    if len(by_crowns) == 1:
        place = next(s.place for s in standings if s.name == group[0][0])
        facts = facts + [wording.crowns(group[0][3])]
        return f"{subject} {and_list(facts)}: they share {_ORDINALS[place - 1]} place."
    if len(group) == 2:
        (winner, *_, most), (loser, *_, fewer) = group
        verb = "beats" if most == 1 else "beat"
        decision = f"{winner}'s {wording.crowns(most)} {verb} {loser}'s {fewer}"
    else:
        steps = [
            f"{_names(run)} ({run[0][3]}{' each' if len(run) > 1 else ''})" for run in by_crowns
        ]
        decision = f"{wording.crowns_order} the order is " + ", then ".join(steps)
        shared = [run for run in by_crowns if len(run) > 1]
        for run in shared:
            place = next(s.place for s in standings if s.name == run[0][0])
            decision += f"; {_names(run)} share {_ORDINALS[place - 1]} place"
    return f"{subject} {and_list(facts)}; {decision}."
