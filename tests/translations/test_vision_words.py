"""The photo reader's sentences in each language: vision returns Messages (never English text
only), said from the same catalogs with each language's plural forms, by the app and the CLI."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from scoring.words import Message, from_data, to_data
from translations import translator
from vision.decode import Decoded, _with_holes_kept
from vision.find import NoBoardFound, find_board
from vision.labels import TERRAINS
from vision.load_image import ImageError, load_image

CASTLE, EMPTY, WHEAT = TERRAINS.index("castle"), TERRAINS.index("empty"), TERRAINS.index("wheat")


def _plain_table() -> np.ndarray:
    return np.full((600, 800, 3), (60, 110, 170), np.uint8)  # light brown wood, nothing on it


def test_no_kingdom_found_is_said_in_polish():
    with pytest.raises(NoBoardFound) as caught:
        find_board(_plain_table())
    message = caught.value.message
    assert isinstance(message, Message) and str(caught.value).startswith("no kingdom found")
    polish = translator("pl").say(message)
    assert polish.startswith("nie znaleziono królestwa: ")
    assert "kingdom" not in polish and "table" not in polish


def _holes_case(filled_cells: int) -> tuple[Decoded, Decoded, np.ndarray]:
    """A reading whose decoding wanted ``filled_cells`` sure holes as tiles: (decoded with the
    holes kept, decoded filling them, the holes it filled)."""
    terrain = np.full((5, 5), WHEAT)
    terrain[2, 2] = CASTLE
    crowns = np.zeros((5, 5), int)
    filled = np.zeros((5, 5), bool)
    filled.flat[:filled_cells] = True
    kept_terrain = terrain.copy()
    kept_terrain[filled] = EMPTY
    unchanged = np.zeros((5, 5), bool)
    kept = Decoded(
        kept_terrain,
        crowns,
        unchanged,
        Message("As read, the kingdom splits into distinct real dominoes; nothing changed."),
        "unchanged",
    )
    filling = Decoded(terrain, crowns, unchanged, kept.note, "unchanged")
    return kept, filling, filled


def _holes_note(filled_cells: int, language: str) -> str:
    return translator(language).say(_with_holes_kept(*_holes_case(filled_cells)).note)


def test_a_hole_flag_note_takes_polish_plural_forms():
    one, two, five = (_holes_note(n, "pl") for n in (1, 2, 5))
    assert "przez 1 kwadrat odczytany jako dziura" in one and "zostaje dziurą" in one
    assert "przez 2 kwadraty odczytane jako dziury" in two and "zostają dziurami" in two
    assert "przez 5 kwadratów odczytanych jako dziury" in five
    # It starts with the decoding's own note, in Polish too, and names the cells in Polish.
    assert one.startswith("Tak jak odczytano, królestwo dzieli się")
    assert "wiersz 1, kolumna 1 jako W0" in one
    assert all("hole" not in note and "row " not in note for note in (one, two, five))


def test_a_hole_flag_note_in_english_italian_and_vietnamese():
    assert "shows through 1 cell read as a hole" in _holes_note(1, "en")
    assert "kept as a hole; check it and row " in _holes_note(1, "en")  # and its domino partner
    assert _holes_note(2, "en").endswith("kept as holes; check them.")  # the pair is the domino
    assert "attraverso 2 caselle lette come buchi" in _holes_note(2, "it")
    assert "qua 2 ô được đọc là ô trống" in _holes_note(2, "vi")


def test_an_empty_upload_is_refused_in_the_players_language():
    with pytest.raises(ImageError) as caught:
        load_image(b"")
    assert str(caught.value) == "the uploaded file is empty (0 bytes): choose the photo again"
    assert translator("pl").say(caught.value.message) == (
        "przesłany plik jest pusty (0 bajtów): wybierz zdjęcie ponownie"
    )


def test_a_message_kept_in_a_draft_is_said_again_in_any_language():
    with pytest.raises(NoBoardFound) as caught:
        find_board(_plain_table())
    stored = json.loads(json.dumps(to_data(caught.value.message)))
    again = from_data(stored)
    assert again == caught.value.message  # the same English
    assert translator("vi").say(again) == translator("vi").say(caught.value.message)
    assert translator("vi").say(again).startswith("không tìm thấy vương quốc")
    # A note naming cells found with numpy (np.nonzero's integers) is JSON too.
    note = _with_holes_kept(*_holes_case(1)).note
    assert translator("pl").say(from_data(json.loads(json.dumps(to_data(note))))) == (
        translator("pl").say(note)
    )


def test_the_cli_says_vision_in_its_language_and_names_the_option(tmp_path, capsys):
    from kingdomino.cli import main

    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _plain_table())
    assert main(["--lang", "pl", "read", str(photo)]) == 2
    err = capsys.readouterr().err
    assert "nie można odczytać obrazu (nie znaleziono królestwa" in err
    assert "tutaj podaj rogi opcją --corners" in err
    assert main(["read", str(photo)]) == 2
    english = capsys.readouterr().err
    assert "cannot read the image (no kingdom found" in english
    assert " tap " not in english and "use --corners to give" in english
