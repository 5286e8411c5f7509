"""Sentences of the rules in each language: tie-breaks, region lines and bonus reasons, with
each language's plural forms (Polish: 1 korona, 2 korony, 5 koron; 22 kwadraty), and how a
language is chosen from a browser or the environment."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.results import cells_text
from scoring import parse_board, rank_dynasty, rank_players, score_board
from translations import language_from_environment, match_language, translator


@dataclass(frozen=True)
class Line:
    """Stands in for a Score: ranking reads only these three numbers."""

    total: int
    largest_region: int = 5
    crowns: int = 3


def said(language: str, messages) -> list[str]:
    return [translator(language).say(message) for message in messages]


def test_a_tie_settled_by_the_largest_region_in_each_language():
    explanations = rank_players({"Ben": Line(54, 7, 9), "Anna": Line(54, 22, 1)}).explanations
    assert said("en", explanations) == [
        "Anna and Ben both have 54; Anna's largest region, 22 cells, beats Ben's 7."
    ]
    assert said("pl", explanations) == [
        "Anna i Ben – remis: 54; decyduje największy obszar: Anna 22 kwadraty, Ben 7."
    ]
    assert said("it", explanations) == [
        "Anna e Ben hanno entrambi 54; l'area più grande di Anna, 22 caselle, batte le 7 di Ben."
    ]
    assert said("vi", explanations) == [
        "Anna và Ben cùng có 54; vùng lớn nhất của Anna, 22 ô, hơn 7 ô của Ben."
    ]


@pytest.mark.parametrize(
    ("crowns", "polish", "italian"),
    [
        (1, "Ben 1 korona, Anna 0", "la 1 corona di Ben batte le 0 di Anna"),
        (2, "Ben 2 korony, Anna 0", "le 2 corone di Ben battono le 0 di Anna"),
        (5, "Ben 5 koron, Anna 0", "le 5 corone di Ben battono le 0 di Anna"),
        (22, "Ben 22 korony, Anna 0", "le 22 corone di Ben battono le 0 di Anna"),
        (12, "Ben 12 koron, Anna 0", "le 12 corone di Ben battono le 0 di Anna"),
    ],
)
def test_a_tie_settled_by_crowns_uses_each_plural_form(crowns, polish, italian):
    (sentence,) = rank_players({"Anna": Line(20, 3, 0), "Ben": Line(20, 3, crowns)}).explanations
    assert translator("pl").say(sentence) == (
        f"Ben i Anna – remis: 20 i największy obszar z 3 kwadratów; decydują korony: {polish}."
    )
    assert translator("it").say(sentence) == (
        f"Ben e Anna hanno entrambi 20 e un'area più grande di 3 caselle; {italian}."
    )
    assert translator("vi").say(sentence) == (
        f"Ben và Anna cùng có 20 và vùng lớn nhất 3 ô; {crowns} vương miện của Ben hơn 0 của Anna."
    )


def test_a_shared_place_in_each_language():
    ranking = rank_players({"Anna": Line(54, 9, 1), "Ben": Line(54, 9, 1), "Cara": Line(60)})
    (sentence,) = ranking.explanations
    assert said("pl", [sentence]) == [
        "Anna i Ben – remis: 54, największy obszar z 9 kwadratów i 1 korona, "
        "więc dzielą drugie miejsce."
    ]
    assert said("it", [sentence]) == [
        "Anna e Ben hanno entrambi 54, un'area più grande di 9 caselle e 1 corona: "
        "si dividono il secondo posto."
    ]
    assert said("vi", [sentence]) == [
        "Anna và Ben cùng có 54, vùng lớn nhất 9 ô và 1 vương miện: đồng hạng nhì."
    ]


def test_three_players_ordered_by_crowns_with_a_shared_place():
    ranking = rank_players(
        {"Anna": Line(30, 5, 2), "Ben": Line(30, 5, 4), "Cara": Line(30, 5, 2), "Dan": Line(1)}
    )
    (sentence,) = ranking.explanations
    assert translator("pl").say(sentence) == (
        "Ben, Anna i Cara – remis: 30 i największy obszar z 5 kwadratów; kolejność według koron: "
        "Ben (4), potem Anna i Cara (po 2); Anna i Cara dzielą drugie miejsce."
    )


def test_a_dynasty_tie_in_polish():
    games = [{"Anna": Line(30, 9, 3), "Ben": Line(30, 8, 3)}] * 3
    (sentence,) = rank_dynasty(games).overall.explanations
    assert translator("pl").say(sentence) == (
        "Anna i Ben – remis: 90 łącznie; decyduje suma największych obszarów: "
        "Anna 27 kwadratów, Ben 24."
    )


KINGDOM = """
W1 W1 W0 W0 W0
W0 W0 W0 W0 W0
W0 W0 C  W0 W0
W0 W0 W0 W0 W0
W0 W0 L1 L0 .
"""


def test_bonus_reasons_and_cells_with_plural_forms():
    score = score_board(parse_board(KINGDOM))
    assert translator("pl").say(score.harmony.reason) == (
        "1 kwadrat jest pusty (wiersz 5, kolumna 5); Harmonia wymaga zajęcia wszystkich 25."
    )
    assert translator("vi").say(score.harmony.reason) == (
        "1 ô còn trống (hàng 5, cột 5); Hài hòa cần lấp đủ cả 25 ô."
    )
    assert translator("it").say(score.middle_kingdom.reason) == (
        "Il castello (riga 3, colonna 3) è la casella centrale del regno 5×5."
    )
    two = cells_text({(0, 0), (1, 1)})
    five = cells_text({(0, c) for c in range(5)})
    twenty_two = cells_text({(r, c) for r in range(5) for c in range(5)} - {(0, 0), (2, 2), (4, 4)})
    assert translator("pl").say(two) == "2 kwadraty (wiersz 1, kolumna 1 i wiersz 2, kolumna 2)"
    assert translator("pl").say(five).startswith("5 kwadratów (wiersz 1, kolumna 1, ")
    assert translator("pl").say(twenty_two).startswith("22 kwadraty (")
    assert translator("pl").say(twenty_two).endswith(" i jeszcze 17)")
    assert translator("it").say(two) == "2 caselle (riga 1, colonna 1 e riga 2, colonna 2)"


def test_numbers_in_sentences_follow_the_language():
    assert translator("en").number(12345) == "12,345"
    assert translator("pl").number(12345) == "12\xa0345"
    assert translator("it").number(12345) == "12.345"
    assert translator("vi").number(12345) == "12.345"


@pytest.mark.parametrize("value", [0, 7, -7, 999, 1000, -1234, 12345, 1_234_567, 10**12, 2.5])
def test_english_numbers_are_babels_without_importing_it(value):
    """English whole numbers are written without Babel (its import is a tenth of a CLI run);
    they must come out as Babel writes them."""
    from babel.numbers import format_decimal

    assert translator("en").number(value) == format_decimal(value, locale="en")


def test_english_needs_no_babel():
    """``kingdomino`` in English never imports Babel (a fresh process: this one has it)."""
    import subprocess
    import sys

    code = (
        "import sys, translations, kingdomino.cli; t = translations.translator('en');"
        " t.number(1234); t.gettext('{n} and', n=5);"
        " sys.exit(any(m.startswith('babel') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (("pl-PL",), "pl"),
        (("vi_VN.UTF-8",), "vi"),
        ((None, "it-IT,it;q=0.9,en;q=0.8"), "it"),
        ((None, "de-DE,en;q=0.5,pl;q=0.7"), "pl"),
        (("de-DE", "fr"), None),
        ((None, None), None),
    ],
)
def test_the_browser_language_is_matched(tags, expected):
    assert match_language(*tags) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "pl_PL.UTF-8", "LANGUAGE": "vi:en"}, "vi"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "pl_PL.UTF-8"}, "it"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_cli_language_follows_the_environment(environ, expected):
    assert language_from_environment(environ) == expected


def test_a_provisional_result_with_a_contradiction_and_holes_in_each_language():
    """Issue 55: the sentence beside the result says the holes and the kingdom that cannot be
    in the page's language, plural forms and the proving sentence included."""
    from games.model import Game, GameSetup
    from games.results import provisional_reason, score_game

    full = parse_board(
        "G0 L0 F0 F0 F0\nG0 F0 F0 F1 G0\nG0 S1 C F0 G0\nG0 S2 L0 G2 G1\nF0 L1 L0 G1 W0"
    )
    odd = parse_board(". . . . .\n. . . . .\n. W1 C . .\n. . . . .\n. . . . .")
    result = score_game(Game(GameSetup(("Anna", "Ben")), ((full, odd),)))
    reason = provisional_reason(result, holes={"Ben": {(0, 0), (0, 1)}})
    assert translator("pl").say(reason) == (
        "Wynik tymczasowy: 2 kwadraty (wiersz 1, kolumna 1 i wiersz 1, kolumna 2) w królestwie "
        "gracza Ben odczytane jako dziury, co odbiera Harmonię, do sprawdzenia; królestwo gracza "
        "Ben niemożliwe do ułożenia z prawdziwych kafelków domino. Popraw je powyżej: zwycięzca "
        "pojawi się, gdy wszystkie królestwa będą wprowadzone, sprawdzone i możliwe do ułożenia "
        "z prawdziwych kafelków domino. Królestwo gracza Ben: Królestwo ma poza zamkiem "
        "nieparzystą liczbę terenów (1), a każdy kafelek domino zajmuje dwa kwadraty: szukaj "
        "brakującego lub nadmiarowego terenu albo dziury oznaczonej jako teren."
    )
    one = provisional_reason(result, holes={"Ben": {(0, 0)}})
    assert "1 casella (riga 1, colonna 1) del regno di Ben letta come buco" in (
        translator("it").say(one)
    )
    vietnamese = translator("vi").say(one)
    assert vietnamese.startswith(
        "Kết quả tạm thời: 1 ô (hàng 1, cột 1) trong vương quốc của Ben được đọc là ô trống, "
        "làm mất Hài hòa, cần kiểm tra; vương quốc của Ben không thể xếp được bằng các quân "
        "domino thật."
    )
