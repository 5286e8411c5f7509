"""The CLI in the players' languages: ``--lang`` and LANG/LANGUAGE change the printed text, never
the JSON (keys, values, board text) nor the exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Regions of 22 cells (wheat, 2 crowns), 1 cell (lake, 1 crown) and one hole: Polish plural forms.
ANNA = """
W1 W0 W0 W0 W0
W0 W0 W0 W0 W0
W0 W0 C  W0 W0
W0 W0 W0 W0 W0
W1 W0 W0 L1 .
"""
BEN = """
W1 W0 W0 W0 W0
W0 W0 W0 W0 W0
W0 W0 C  W0 W0
W0 W0 W0 W0 W0
W1 W0 W0 L1 S0
"""


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "kingdomino", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environ | (env or {}),
        timeout=60,
    )


@pytest.fixture
def boards(tmp_path: Path) -> tuple[Path, Path]:
    anna, ben = tmp_path / "anna.txt", tmp_path / "ben.txt"
    anna.write_text(ANNA)
    ben.write_text(BEN)
    return anna, ben


def test_score_in_polish_names_regions_with_their_plural_forms(boards):
    result = run("--lang", "pl", "score", str(boards[0]))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Obszary z koronami:" in text
    assert "pszenica  22 kwadraty × 2 korony =  44" in text
    assert "jezioro    1 kwadrat  × 1 korona =   1" in text
    assert "poza zamkiem nieparzystą liczbę terenów (23)" in text
    assert "Zamek centralny: +10. Zamek (wiersz 3, kolumna 3) stoi w samym środku" in text
    assert "Harmonia: +0. 1 kwadrat jest pusty (wiersz 5, kolumna 5)" in text
    assert "Razem: 55 (największy obszar: 22 kwadraty, 3 korony)" in text
    for english in ("Regions with crowns", "Middle Kingdom", "Harmony", "Total", "cells"):
        assert english not in text


def test_rank_in_vietnamese_and_italian_explains_the_tie(boards):
    anna, ben = boards
    args = ("rank", f"Anna={anna}", f"Ben={ben}", "--no-harmony")
    vietnamese = run("--lang", "vi", *args).stdout
    assert "vùng lớn nhất: 22 ô, 3 vương miện" in vietnamese
    assert (
        "Anna và Ben cùng có 55, vùng lớn nhất 22 ô và 3 vương miện: đồng hạng nhất." in vietnamese
    )
    italian = run(*args, env={"LANG": "it_IT.UTF-8"}).stdout
    assert "55 punti" in italian
    assert "si dividono il primo posto" in italian


def test_english_stays_the_default(boards):
    text = run("score", str(boards[0]), env={"LANG": "C.UTF-8"}).stdout
    assert "Regions with crowns:" in text
    assert "Middle Kingdom: +10." in text


@pytest.mark.parametrize("command", ["score", "rank"])
def test_json_is_the_same_in_every_language(boards, command):
    anna, ben = boards
    args = [str(anna)] if command == "score" else [f"Anna={anna}", f"Ben={ben}"]
    english = run(command, "--json", *args)
    assert english.returncode == 0, english.stderr
    for language in ("pl", "it", "vi"):
        translated = run("--lang", language, command, "--json", *args)
        assert translated.returncode == 0
        assert translated.stdout == english.stdout
        assert json.loads(translated.stdout.splitlines()[0]) == json.loads(
            english.stdout.splitlines()[0]
        )


def test_an_unknown_language_is_refused_with_the_choices():
    result = run("--lang", "de", "score", "-")
    assert result.returncode == 2
    assert "pl" in result.stderr and "vi" in result.stderr
