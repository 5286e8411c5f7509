"""The ``kingdomino`` command: its JSON contract, exit codes and one-line errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kingdomino.cli import main
from kingdomino.inputs import load_input
from scoring import check_game, parse_board
from vision import pipeline

REPO = Path(__file__).resolve().parents[2]

# Made of real dominoes (no warning). Base 13: wheat 3 cells × 1, forest 3 × 1, mine 1 × 3,
# mine 1 × 2, lake 1 × 1, grassland 1 × 1; both bonuses: 28. Largest region 3, crowns 9.
BOARD = """\
W0 W0 W1 F0 L0
F0 F0 F1 L0 L0
G0 G0 C  S0 S0
S0 W0 G1 W0 L0
M2 W0 M3 L1 W0
"""
# For ranking (tile-set warnings do not matter there): both total 35, largest region 5 ...
ANNA = """\
W1 W0 F1 F0 F0
W1 W0 F0 G0 L1
S2 G0 C  G0 L0
S0 M0 G0 G0 L0
W0 W0 M0 G0 L0
"""
# ... and 6 (wheat 6 cells × 2, lake 4 × 1, swamp 2 × 2).
BEN = """\
W1 W1 W0 F0 F0
W0 W0 W0 G0 L1
S2 G0 C  G0 L0
S0 M0 G0 G0 L0
F0 F0 M0 G0 L0
"""
CONTRACT_KEYS = {
    "file",
    "size",
    "grid",
    "regions",
    "base",
    "middle_kingdom",
    "harmony",
    "total",
    "largest_region",
    "crowns",
    "warnings",
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kingdomino", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "anna.txt"
    path.write_text(BOARD)
    return path


def test_score_json_contract(board_file):
    result = run("score", "--json", str(board_file))
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.splitlines()
    record = json.loads(line)
    assert set(record) >= CONTRACT_KEYS
    assert record["file"] == str(board_file)
    assert record["size"] == 5
    assert record["grid"] == parse_board(BOARD).rows_text()
    assert (record["base"], record["middle_kingdom"], record["harmony"]) == (13, 10, 5)
    assert (record["total"], record["largest_region"], record["crowns"]) == (28, 3, 9)
    assert record["warnings"] == []
    wheat = record["regions"][0]
    assert wheat == {
        "terrain": "wheat",
        "cells": [[0, 0], [0, 1], [0, 2]],
        "crowns": 1,
        "points": 3,
    }
    assert sum(len(r["cells"]) for r in record["regions"]) == 24


def test_score_json_one_line_per_input_and_stdin(board_file):
    result = run("score", "--json", str(board_file), "-", stdin=ANNA)
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert (first["file"], second["file"]) == (str(board_file), "<stdin>")
    assert (first["total"], second["total"]) == (28, 35)


def test_optional_rules_can_be_switched_off(board_file):
    result = run("score", "--json", "--no-middle-kingdom", "--no-harmony", str(board_file))
    record = json.loads(result.stdout)
    assert (record["middle_kingdom"], record["harmony"], record["total"]) == (0, 0, 13)


def test_score_readable_breakdown(board_file):
    result = run("score", str(board_file))
    assert result.returncode == 0
    out = result.stdout
    assert "mine       1 cell  × 3 crowns =   3" in out
    assert "wheat      3 cells × 1 crown  =   3" in out
    assert "Base: 13" in out
    assert "Middle Kingdom: +10. The castle (row 3, column 3) is the centre cell" in out
    assert "Harmony: +5." in out
    assert "Total: 28 (largest region 3 cells, 9 crowns)" in out


def test_bad_inputs_exit_2_with_one_line_each_and_good_ones_are_still_scored(tmp_path, board_file):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    huge = tmp_path / "huge.txt"
    huge.write_text("W0 " * 400_000)
    ragged = tmp_path / "ragged.txt"
    ragged.write_text(BOARD.replace("S0 W0 G1 W0 L0", "S0 W0 G1 W0"))
    unknown = tmp_path / "unknown.txt"
    unknown.write_text(BOARD.replace("S0 W0 G1", "S0 Q0 G1"))
    inputs = [tmp_path / "missing.txt", tmp_path, junk, huge, ragged, unknown, board_file]
    result = run("score", "--json", *map(str, inputs))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = result.stderr.splitlines()
    assert len(errors) == 6
    assert errors[0].endswith("missing.txt: no such file")
    assert "is a folder, not a file" in errors[1]
    assert "not a board text file" in errors[2]
    assert "too big for a board file" in errors[3]
    assert "ragged.txt: row 4: has 4 cells but the board has 5 rows" in errors[4]
    assert "unknown.txt: row 4, column 2: unknown token 'Q0'" in errors[5]
    (scored,) = result.stdout.splitlines()
    assert json.loads(scored)["file"] == str(board_file)


def test_usage_errors_are_one_line_too():
    result = run("score")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "kingdomino score --help" in result.stderr
    assert run("frobnicate").returncode == 2


def test_rank_explains_the_tie_break(tmp_path):
    # Two kingdoms real dominoes can build (ANNA and BEN each need the one M0 twice, so they
    # name no winner): 39 points each, largest regions 16 and 7.
    from tests.app_boards import FOREST_16, MINES_7

    anna, ben = tmp_path / "anna.txt", tmp_path / "ben.txt"
    anna.write_text(MINES_7)
    ben.write_text(FOREST_16)
    result = run("rank", f"Anna={anna}", f"Ben={ben}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("1. Ben ") and lines[1].startswith("2. Anna")
    assert "Ben and Anna both have 39; Ben's largest region, 16 cells, beats Anna's 7." in lines


def test_rank_json_and_shared_place(board_file):
    result = run("rank", "--json", f"Anna={board_file}", f"Ben={board_file}")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert [(s["place"], s["name"]) for s in record["standings"]] == [(1, "Anna"), (1, "Ben")]
    assert record["winners"] == ["Anna", "Ben"]
    assert record["explanations"][0].endswith("they share first place.")
    assert record["scores"]["Anna"]["total"] == 28
    # The same kingdom twice needs every domino twice: the game check names both players.
    assert any("Anna and Ben together have" in w for w in record["warnings"])


def test_rank_bad_input(tmp_path, board_file):
    result = run("rank", f"Anna={board_file}")
    assert result.returncode == 2
    assert "2 to 4 players, got 1" in result.stderr
    result = run(
        "rank", f"Anna={board_file}", "Ben", f"Cara={tmp_path / 'nope.txt'}", f"Dan={board_file}"
    )
    assert result.returncode == 2
    assert "Ben: give each player as NAME=FILE" in result.stderr
    assert "Cara: " in result.stderr and "no such file" in result.stderr
    assert result.stdout.startswith("1. Anna")  # the two good players are still ranked
    result = run("rank", f"Anna={board_file}", f"anna={board_file}")
    assert result.returncode == 2 and "names must differ" in result.stderr


def test_in_process_main(board_file, capsys):
    assert main(["score", "--json", str(board_file)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 28


def test_console_script(board_file):
    script = shutil.which("kingdomino")
    if script is None:
        pytest.skip("the project is not installed (pip install -e .)")
    result = subprocess.run(
        [script, "score", "--json", str(board_file)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and json.loads(result.stdout)["total"] == 28


def test_the_process_ends_with_all_its_output_written_and_mains_status(tmp_path, capsys):
    """``python -m kingdomino`` ends without Python's teardown (``kingdomino.cli.command``):
    every byte of its output is out first, more than a pipe holds, and its status is main's."""
    boards = []
    for n in range(150):
        path = tmp_path / f"player{n}.txt"
        path.write_text(BOARD)
        boards.append(str(path))
    args = ["score", "--json", *boards, str(tmp_path / "missing.txt")]
    result = run(*args)
    assert main(args) == 2
    expected = capsys.readouterr()
    assert len(result.stdout) > 65536  # a pipe's buffer
    assert result.returncode == 2
    assert (result.stdout, result.stderr) == (expected.out, expected.err)


def test_images_go_to_vision(tmp_path, monkeypatch, capsys):
    photo = tmp_path / "kingdom.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")

    class FakeReading:
        board = parse_board(BOARD)
        warnings = ("crown count unsure at row 1, column 1",)

    monkeypatch.setattr(pipeline, "read_image", lambda source, **_: FakeReading())
    assert main(["score", "--json", str(photo)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["total"] == 28
    assert record["warnings"] == ["crown count unsure at row 1, column 1"]

    def broken(source, **_):
        raise RuntimeError("no model\nfile")

    monkeypatch.setattr(pipeline, "read_image", broken)
    assert main(["score", str(photo)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"kingdomino: {photo}: cannot read the image (no model file)"
    )


def _photo_path(source) -> str:
    """The file ``read_image`` was given: the CLI passes it already decoding in a thread
    (``vision.load_image.LoadingImage``, whose ``source`` is the path)."""
    return str(getattr(source, "source", source))


def test_image_bytes_are_recognised_without_an_image_extension(tmp_path, monkeypatch):
    png = tmp_path / "scan.dat"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    sources = []

    class FakeReading:
        board = parse_board(BOARD)

    def reader(source, **_):
        sources.append(source)
        return FakeReading()

    monkeypatch.setattr(pipeline, "read_image", reader)
    board, reading = load_input(str(png))
    assert [_photo_path(source) for source in sources] == [str(png)]
    assert board == FakeReading.board and isinstance(reading, FakeReading)


def test_load_input_returns_board_and_no_reading_for_board_files(board_file):
    board, reading = load_input(str(board_file))
    assert board == parse_board(BOARD)
    assert reading is None


def test_rank_decodes_the_photos_of_one_game_together(tmp_path, monkeypatch, capsys):
    """Two photos whose separate readings use one domino twice: rank reads them as one game."""
    import numpy as np

    from tests.vision.test_decode import game_sharing_a_domino
    from vision.cells import CellReadings
    from vision.pipeline import Reading

    first_probs, second_probs, first, _ = game_sharing_a_domino()
    blank = np.zeros((500, 500, 3), np.uint8)
    readings = {
        str(tmp_path / name): Reading(name, blank, CellReadings(*probs, 0.5))
        for name, probs in (("a.jpg", first_probs), ("b.jpg", second_probs))
    }
    for path in readings:
        Path(path).write_bytes(b"\xff\xd8\xff\xe0 a photo")
    monkeypatch.setattr(pipeline, "read_image", lambda source, **_: readings[_photo_path(source)])
    typed = tmp_path / "cleo.txt"
    typed.write_text(BOARD)
    args = ["rank", "--json", *(f"{n}={p}" for n, p in zip("AB", readings, strict=True))]
    assert main([*args, f"C={typed}"]) == 0
    result = json.loads(capsys.readouterr().out)
    boards = {name: parse_board("\n".join(s["grid"])) for name, s in result["scores"].items()}
    assert boards["A"] == first and boards["C"] == parse_board(BOARD)  # typed stays as typed
    assert check_game({"A": boards["A"], "B": boards["B"]}) == ()
    assert boards["B"] != readings[str(tmp_path / "b.jpg")].board  # not the separate reading
    assert "others of the game" in result["scores"]["B"]["decoding"]
    assert "decoding" not in result["scores"]["C"]
    # Decoding changed cells of B's kingdom: they are to be checked, and no winner is named.
    assert "of B's kingdom" in result["provisional"] and "of A's" not in result["provisional"]
    assert result["winners"] == []
    assert main(["rank", *args[2:], f"C={typed}"]) == 0  # as text: said first
    assert capsys.readouterr().out.startswith("Provisional, no winner named: check ")


def test_score_says_which_cells_of_a_photo_reading_to_check(tmp_path, monkeypatch, capsys):
    import numpy as np

    from tests.vision.test_decode import game_sharing_a_domino
    from vision.cells import CellReadings
    from vision.pipeline import Reading

    sure_probs, _, _, _ = game_sharing_a_domino()
    terrain, crowns = (probs.copy() for probs in sure_probs)
    terrain[1, 3] = 1 / terrain.shape[-1]  # no idea of that cell's terrain
    blank = np.zeros((500, 500, 3), np.uint8)
    readings = {
        "sure.jpg": Reading("sure.jpg", blank, CellReadings(*sure_probs, 0.5)),
        "unsure.jpg": Reading("unsure.jpg", blank, CellReadings(terrain, crowns, 0.5)),
    }
    for name in readings:
        (tmp_path / name).write_bytes(b"\xff\xd8\xff\xe0 a photo")
    monkeypatch.setattr(pipeline, "read_image", lambda s, **_: readings[Path(_photo_path(s)).name])
    assert main(["score", str(tmp_path / "unsure.jpg")]) == 0
    assert "Provisional: check 1 cell (row 2, column 4)" in capsys.readouterr().out
    assert main(["score", str(tmp_path / "sure.jpg")]) == 0
    assert "Provisional" not in capsys.readouterr().out


def test_rank_names_the_winner_when_no_photo_cell_is_left_to_check(tmp_path, monkeypatch, capsys):
    import numpy as np

    from tests.vision.test_decode import game_sharing_a_domino
    from vision.cells import CellReadings
    from vision.pipeline import Reading

    first_probs, _, _, _ = game_sharing_a_domino()  # sure of every cell
    photo = tmp_path / "a.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 a photo")
    reading = Reading("a.jpg", np.zeros((500, 500, 3), np.uint8), CellReadings(*first_probs, 0.5))
    monkeypatch.setattr(pipeline, "read_image", lambda source, **_: reading)
    typed = tmp_path / "cleo.txt"
    typed.write_text(BOARD)
    assert main(["rank", "--json", f"A={photo}", f"C={typed}"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["provisional"] is None and len(result["winners"]) >= 1


def test_rank_names_no_winner_beside_a_kingdom_that_contradicts_itself(tmp_path, board_file):
    # 19 tiles besides the castle: an odd number no set of dominoes lays (issue 55, 1).
    odd = tmp_path / "odd.txt"
    odd.write_text("W0 W0 F0 F0 .\nL0 L0 G0 G0 S0\nW0 W0 C F0 F0\nL0 L0 G0 G0 S0\nW0 W0 F0 F0 S0\n")
    result = run("rank", "--json", f"Anna={board_file}", f"Ben={odd}")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["winners"] == []
    assert "Ben's kingdom impossible with the real dominoes" in record["provisional"]
    text = run("rank", f"Anna={board_file}", f"Ben={odd}").stdout
    assert text.startswith("Provisional, no winner named") and "an odd number" in text
