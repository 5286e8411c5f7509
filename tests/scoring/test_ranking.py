"""Ranking 2–4 players with every tie-break step, shared places, and Dynasty."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scoring import parse_board, rank_dynasty, rank_players, score_board


@dataclass(frozen=True)
class Line:
    """Stands in for a Score: ranking reads only these three numbers."""

    total: int
    largest_region: int = 5
    crowns: int = 3


def places(ranking):
    return [(s.place, s.name) for s in ranking.standings]


def test_highest_total_wins_and_no_tie_needs_no_sentence():
    ranking = rank_players({"Anna": Line(40), "Ben": Line(54), "Cara": Line(12)})
    assert places(ranking) == [(1, "Ben"), (2, "Anna"), (3, "Cara")]
    assert ranking.winners == ("Ben",)
    assert ranking.explanations == ()


def test_tie_on_total_goes_to_the_largest_region():
    ranking = rank_players({"Ben": Line(54, 7, 9), "Anna": Line(54, 9, 1)})
    assert places(ranking) == [(1, "Anna"), (2, "Ben")]
    assert ranking.explanations == (
        "Anna and Ben both have 54; Anna's largest region, 9 cells, beats Ben's 7.",
    )


def test_tie_on_total_and_largest_region_goes_to_crowns():
    ranking = rank_players({"Anna": Line(54, 9, 4), "Ben": Line(54, 9, 6)})
    assert places(ranking) == [(1, "Ben"), (2, "Anna")]
    assert ranking.explanations == (
        "Ben and Anna both have 54 and a largest region of 9 cells; Ben's 6 crowns beat Anna's 4.",
    )


def test_tie_on_everything_shares_the_place():
    ranking = rank_players({"Anna": Line(54, 9, 6), "Ben": Line(54, 9, 6), "Cara": Line(60)})
    assert places(ranking) == [(1, "Cara"), (2, "Anna"), (2, "Ben")]
    assert ranking.winners == ("Cara",)
    assert ranking.explanations == (
        "Anna and Ben both have 54, a largest region of 9 cells and 6 crowns: "
        "they share second place.",
    )


def test_shared_first_place_has_two_winners_and_the_next_place_is_skipped():
    ranking = rank_players({"Anna": Line(54), "Ben": Line(54), "Cara": Line(30)})
    assert places(ranking) == [(1, "Anna"), (1, "Ben"), (3, "Cara")]
    assert ranking.winners == ("Anna", "Ben")
    assert ranking.explanations[0].endswith("they share first place.")


def test_three_way_tie_settled_in_two_steps():
    ranking = rank_players(
        {"Anna": Line(54, 7, 3), "Ben": Line(54, 9, 1), "Cara": Line(54, 7, 5), "Dan": Line(10)}
    )
    assert places(ranking) == [(1, "Ben"), (2, "Cara"), (3, "Anna"), (4, "Dan")]
    assert ranking.explanations == (
        "Ben, Cara and Anna all have 54; on largest region the order is Ben (9 cells), "
        "then Cara and Anna (7 cells each).",
        "Cara and Anna also both have a largest region of 7 cells; Cara's 5 crowns beat Anna's 3.",
    )


def test_four_way_tie_on_largest_region_with_a_shared_place_among_crowns():
    ranking = rank_players(
        {
            "Anna": Line(50, 8, 6),
            "Ben": Line(50, 8, 2),
            "Cara": Line(50, 8, 6),
            "Dan": Line(50, 8, 4),
        }
    )
    assert places(ranking) == [(1, "Anna"), (1, "Cara"), (3, "Dan"), (4, "Ben")]
    (sentence,) = ranking.explanations
    assert sentence.startswith("Anna, Cara, Dan and Ben all have 50 and a largest region of 8")
    assert "Anna and Cara share first place" in sentence


def test_ranking_with_real_scores():
    low = score_board(
        parse_board("W1 W0 W0 W0 W0\n" * 2 + "W0 W0 C W0 W0\n" + "W0 W0 W0 W0 W0\n" * 2)
    )
    high = score_board(
        parse_board("W1 W1 W0 W0 W0\n" * 2 + "W0 W0 C W0 W0\n" + "W0 W0 W0 W0 W0\n" * 2)
    )
    ranking = rank_players({"Low": low, "High": high})
    assert places(ranking) == [(1, "High"), (2, "Low")]
    assert ranking.standings[0].total == high.total == 24 * 4 + 15


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Anna"], "2 to 4 players, got 1"),
        (["A", "B", "C", "D", "E"], "2 to 4 players, got 5"),
        (["Anna", "  "], "every player needs a name"),
        (["Anna", ""], "every player needs a name"),
        (["Anna", "anna "], "names must differ"),
    ],
)
def test_invalid_players_are_refused_with_a_clear_message(names, message):
    with pytest.raises(ValueError, match=message):
        rank_players({name: Line(10) for name in names})


def test_dynasty_sums_three_games():
    games = [
        {"Anna": Line(40), "Ben": Line(50)},
        {"Anna": Line(60), "Ben": Line(30)},
        {"Anna": Line(20), "Ben": Line(35)},
    ]
    result = rank_dynasty(games)
    assert result.games_played == 3
    assert [places(r)[0] for r in result.game_rankings] == [(1, "Ben"), (1, "Anna"), (1, "Ben")]
    assert places(result.overall) == [(1, "Anna"), (2, "Ben")]
    assert [s.total for s in result.overall.standings] == [120, 115]


def test_dynasty_tie_goes_to_summed_largest_regions():
    games = [
        {"Anna": Line(40, 9), "Ben": Line(50, 4)},
        {"Anna": Line(60, 9), "Ben": Line(50, 5)},
        {"Anna": Line(20, 2), "Ben": Line(20, 12)},
    ]
    # Both total 120; Ben's largest regions add up to 4 + 5 + 12 = 21, Anna's to 9 + 9 + 2 = 20.
    result = rank_dynasty(games)
    assert places(result.overall) == [(1, "Ben"), (2, "Anna")]
    assert result.overall.explanations == (
        "Ben and Anna both have 120 over the games; "
        "Ben's largest regions add up to 21 cells, beating Anna's 20.",
    )


def test_dynasty_tie_then_summed_crowns_then_shared():
    crowns = [{"Anna": Line(40, 5, 3), "Ben": Line(40, 5, 2)}] * 3
    result = rank_dynasty(crowns)
    assert places(result.overall) == [(1, "Anna"), (2, "Ben")]
    assert "Anna's 9 crowns in all beat Ben's 6" in result.overall.explanations[0]
    level = [{"Anna": Line(40), "Ben": Line(40)}] * 3
    result = rank_dynasty(level)
    assert places(result.overall) == [(1, "Anna"), (1, "Ben")]
    assert result.overall.explanations[0].endswith("they share first place.")


def test_dynasty_in_progress_and_invalid():
    assert rank_dynasty([]).games_played == 0
    partial = rank_dynasty([{"Anna": Line(10), "Ben": Line(20)}])
    assert partial.games_played == 1 and partial.overall.winners == ("Ben",)
    with pytest.raises(ValueError, match="a Dynasty is 3 games, got 4"):
        rank_dynasty([{"Anna": Line(1), "Ben": Line(2)}] * 4)
    with pytest.raises(ValueError, match="game 2 has players Anna, Cara"):
        rank_dynasty([{"Anna": Line(1), "Ben": Line(2)}, {"Anna": Line(1), "Cara": Line(2)}])


def test_dynasty_three_way_tie_uses_dynasty_wording():
    game = {"Anna": Line(40, 5, 1), "Ben": Line(40, 3, 2), "Cara": Line(40, 3, 1)}
    result = rank_dynasty([game] * 3)
    assert places(result.overall) == [(1, "Anna"), (2, "Ben"), (3, "Cara")]
    assert result.overall.explanations == (
        "Anna, Ben and Cara all have 120 over the games; on largest regions added up the order "
        "is Anna (15 cells), then Ben and Cara (9 cells each).",
        "Ben and Cara also both have largest regions adding up to 9 cells; "
        "Ben's 6 crowns in all beat Cara's 3.",
    )


def test_one_crown_is_singular():
    ranking = rank_players({"Anna": Line(20, 3, 0), "Ben": Line(20, 3, 1)})
    assert ranking.explanations == (
        "Ben and Anna both have 20 and a largest region of 3 cells; Ben's 1 crown beats Anna's 0.",
    )
