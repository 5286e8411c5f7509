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
from scoring.words import Message, msg, nmsg

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DYNASTY_GAMES = 3


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
    explanations: tuple[Message, ...]  # one sentence per tie settled or shared, in order

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.standings if s.place == 1)


@dataclass(frozen=True)
class _Wording:
    """How the sentences name each criterion: one game, or the sums of a Dynasty."""

    total: Callable[[int], object]  # "54"
    largest: Callable[[int], Message]  # "a largest region of 9 cells"
    largest_beats: Callable[[str, int, str, int], Message]  # "Anna's largest region, 9 cells, ..."
    crowns_beat: Callable[[str, int, str, int], Message]  # "Anna's 6 crowns beat Ben's 4"
    crowns: Callable[[int], Message]  # "6 crowns"
    largest_order: Callable[[Message], Message]  # "on largest region the order is ..."
    crowns_order: Callable[[Message], Message]  # "on crowns the order is ..."


def _beats(singular: str, plural: str) -> Callable[[str, int, str, int], Message]:
    """A sentence where the winner's count beats the loser's (the plural follows the winner's).
    ``_beats`` marks its two texts for ``pybabel extract`` like ``nmsg`` (docs/i18n.md)."""
    return lambda winner, m, loser, n: nmsg(
        singular, plural, m, winner=winner, m=m, loser=loser, n=n
    )


_GAME = _Wording(
    total=lambda n: n,
    largest=lambda n: nmsg("a largest region of {n} cell", "a largest region of {n} cells", n, n=n),
    largest_beats=_beats(
        "{winner}'s largest region, {m} cell, beats {loser}'s {n}",
        "{winner}'s largest region, {m} cells, beats {loser}'s {n}",
    ),
    crowns_beat=_beats(
        "{winner}'s {m} crown beats {loser}'s {n}",
        "{winner}'s {m} crowns beat {loser}'s {n}",
    ),
    crowns=lambda n: nmsg("{n} crown", "{n} crowns", n, n=n),
    largest_order=lambda order: msg("on largest region the order is {order}", order=order),
    crowns_order=lambda order: msg("on crowns the order is {order}", order=order),
)
_DYNASTY = _Wording(
    total=lambda n: msg("{n} over the games", n=n),
    largest=lambda n: nmsg(
        "largest regions adding up to {n} cell", "largest regions adding up to {n} cells", n, n=n
    ),
    largest_beats=_beats(
        "{winner}'s largest regions add up to {m} cell, beating {loser}'s {n}",
        "{winner}'s largest regions add up to {m} cells, beating {loser}'s {n}",
    ),
    crowns_beat=_beats(
        "{winner}'s {m} crown in all beats {loser}'s {n}",
        "{winner}'s {m} crowns in all beat {loser}'s {n}",
    ),
    crowns=lambda n: nmsg("{n} crown in all", "{n} crowns in all", n, n=n),
    largest_order=lambda order: msg(
        "on largest regions added up the order is {order}", order=order
    ),
    crowns_order=lambda order: msg("on crowns over the games the order is {order}", order=order),
)


def validate_names(names: Sequence[str]) -> None:
    """Raise ``ValueError`` unless there are 2–4 players with distinct, non-empty names."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(
            msg(
                "a game has {least} to {most} players, got {n}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                n=len(names),
            )
        )
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(msg("every player needs a name, got {name}", name=repr(name)))
        # "Anna" and "anna " would read as the same player in a sentence.
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(
                msg(
                    "two players are called {first} and {second}: names must differ",
                    first=repr(seen[key]),
                    second=repr(name),
                )
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


def _names(group: Sequence[_Line]) -> list[str]:
    return [line[0] for line in group]


def _subject(group: Sequence[_Line], also: bool = False) -> Message:
    """``Anna and Ben both have``, ``Anna, Ben and Cara all have`` (``also``: a second sentence)."""
    players = _names(group)
    if also:
        if len(group) == 2:
            return msg("{players} also both have", players=players)
        return msg("{players} also all have", players=players)
    if len(group) == 2:
        return msg("{players} both have", players=players)
    return msg("{players} all have", players=players)


def _place(place: int) -> Message:
    return (
        msg("first place"),
        msg("second place"),
        msg("third place"),
        msg("fourth place"),
    )[place - 1]


def _in_order(steps: list[Message]) -> Message:
    """``A (9 cells), then B (7 cells), then C (5 cells)``."""
    order = steps[0]
    for step in steps[1:]:
        order = msg("{earlier}, then {later}", earlier=order, later=step)
    return order


def _explain_total_tie(
    group: list[_Line], standings: list[Standing], wording: _Wording
) -> list[Message]:
    """Sentences for players level on total: the largest region decides, then crowns."""
    subject = _subject(group)
    by_largest = _groups(group, key=2)
    if len(by_largest) == 1:
        facts = [wording.total(group[0][1]), wording.largest(group[0][2])]
        return [_explain_crowns(group, facts, subject, standings, wording)]
    if len(group) == 2:
        (winner, _, best, _), (loser, _, second, _) = group
        decision = wording.largest_beats(winner, best, loser, second)
    else:
        steps = [
            nmsg(
                "{players} ({n} cell each)",
                "{players} ({n} cells each)",
                run[0][2],
                players=_names(run),
                n=run[0][2],
            )
            if len(run) > 1
            else nmsg(
                "{players} ({n} cell)",
                "{players} ({n} cells)",
                run[0][2],
                players=_names(run),
                n=run[0][2],
            )
            for run in by_largest
        ]
        decision = wording.largest_order(_in_order(steps))
    sentences = [
        msg(
            "{subject} {facts}; {decision}.",
            subject=subject,
            facts=[wording.total(group[0][1])],
            decision=decision,
        )
    ]
    for run in by_largest:
        if len(run) > 1:
            facts = [wording.largest(run[0][2])]
            sentences.append(
                _explain_crowns(run, facts, _subject(run, also=True), standings, wording)
            )
    return sentences


def _explain_crowns(
    group: list[_Line],
    facts: list,
    subject: Message,
    standings: list[Standing],
    wording: _Wording,
) -> Message:
    """One sentence for players level on total and largest region: crowns decide, or they share."""
    by_crowns = _groups(group, key=3)
    if len(by_crowns) == 1:
        place = next(s.place for s in standings if s.name == group[0][0])
        facts = facts + [wording.crowns(group[0][3])]
        return msg(
            "{subject} {facts}: they share {place}.",
            subject=subject,
            facts=facts,
            place=_place(place),
        )
    if len(group) == 2:
        (winner, *_, most), (loser, *_, fewer) = group
        decision = wording.crowns_beat(winner, most, loser, fewer)
    else:
        steps = [
            msg("{players} ({n} each)", players=_names(run), n=run[0][3])
            if len(run) > 1
            else msg("{players} ({n})", players=_names(run), n=run[0][3])
            for run in by_crowns
        ]
        decision = wording.crowns_order(_in_order(steps))
        for run in by_crowns:
            if len(run) > 1:
                place = next(s.place for s in standings if s.name == run[0][0])
                decision = msg(
                    "{decision}; {players} share {place}",
                    decision=decision,
                    players=_names(run),
                    place=_place(place),
                )
    return msg("{subject} {facts}; {decision}.", subject=subject, facts=facts, decision=decision)
