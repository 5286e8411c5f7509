"""The command line under hostile input: one line on stderr and exit 2, never a traceback, a
hang, a numpy warning or a made-up board; the other inputs of the call are still scored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from kingdomino.cli import main
from tests.hostile_corpus import run_cli

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_images" / "synthetic-scene-20.jpg"
# The README's example kingdom: 67 points.
BOARD = "L1 L0 L0 L0 L0\nF0 S1 G0 F0 L1\nM2 S0 C  F0 L1\nM1 M0 G0 G2 L1\nW0 W1 W0 W0 W0\n"
HANG_LIMIT_S = 60  # far beyond a real run: only a hang reaches it


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kingdomino", *args],
        input=stdin,
        capture_output=True,
        timeout=HANG_LIMIT_S,
        cwd=REPO,
    )


def _one_clean_line(stderr: str) -> None:
    assert "Traceback" not in stderr and "Warning" not in stderr, stderr
    assert all(line.startswith("kingdomino: ") for line in stderr.splitlines()), stderr


@pytest.fixture
def board(tmp_path) -> Path:
    path = tmp_path / "anna.txt"
    path.write_text(BOARD)
    return path


@pytest.mark.parametrize("name", ["pipe", "pipe.txt", "pipe.png"])
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, board, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    for command in ("score", "read"):
        done = _run(command, str(fifo), str(board))
        assert done.returncode == 2
        stderr = done.stderr.decode()
        _one_clean_line(stderr)
        assert f"{fifo}: not a regular file" in stderr
    assert b"Total: 67" in _run("score", str(fifo), str(board)).stdout  # the good one is scored


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[" * 100_000, "nested more than"),
        ("[1" + "0" * 5000 + "]", "a number is too long"),
        (BOARD.replace("L1", "L²", 1), "unknown token 'L²'"),
        (BOARD.replace("L1", "L١", 1), "unknown token 'L١'"),
    ],
    ids=["deep-json", "long-number", "superscript-digit", "arabic-indic-digit"],
)
def test_boards_that_crashed_the_parser_are_one_line_and_the_batch_goes_on(
    tmp_path, board, content, words
):
    bad = tmp_path / "bad.txt"
    bad.write_text(content, encoding="utf-8")
    done = _run("score", str(bad), str(board))
    assert done.returncode == 2
    _one_clean_line(done.stderr.decode())
    assert words in done.stderr.decode()
    assert b"Total: 67" in done.stdout
    done = _run("score", "-", stdin=content.encode())
    assert done.returncode == 2 and words in done.stderr.decode()


def test_rank_with_a_bad_file_names_it_and_ranks_the_rest(tmp_path, board):
    bad = tmp_path / "bad.json"
    bad.write_text("[" * 100_000)
    done = _run("rank", f"A={board}", f"B={bad}", f"C={board}")
    assert done.returncode == 2
    stderr = done.stderr.decode()
    _one_clean_line(stderr)
    assert f"B: {bad}: not a JSON board" in stderr
    assert b"1. A" in done.stdout and b"1. C" in done.stdout  # A and C share first place
    done = _run("rank", f"A={board}", f"B={bad}")
    assert done.returncode == 2
    _one_clean_line(done.stderr.decode())
    assert "cannot rank" in done.stderr.decode()


@pytest.mark.parametrize(
    ("corners", "words"),
    [
        ("nan,0,900,25,890,910,15,905", "finite numbers"),
        ("inf,0,900,25,890,910,15,905", "finite numbers"),
        ("-inf,0,900,25,890,910,15,905", "finite numbers"),
    ],
    ids=["nan", "inf", "minus-inf"],
)
def test_non_finite_corners_are_refused_by_the_option(corners, words):
    done = _run("score", str(SAMPLE), f"--corners={corners}")
    assert done.returncode == 2
    _one_clean_line(done.stderr.decode())
    assert words in done.stderr.decode()


@pytest.mark.parametrize(
    ("corners", "words"),
    [
        ("0,0,0,0,0,0,0,0", "too little for a kingdom"),
        ("10,10,11,10,11,11,10,11", "too little for a kingdom"),
        ("10,10,1e300,10,900,900,10,900", "outside the"),
        ("100,100,400,100,800,100,400,1000", "do not outline a four-sided shape"),
    ],
)
def test_degenerate_corners_are_refused_with_what_to_do(capsys, corners, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = main(["score", str(SAMPLE), "--corners", corners])
    assert status == 2
    stderr = capsys.readouterr().err
    _one_clean_line(stderr)
    assert words in stderr


def _image(tmp_path: Path, name: str, image: np.ndarray) -> Path:
    path = tmp_path / name
    assert cv2.imwrite(str(path), image)
    return path


def _no_kingdom_images(tmp_path: Path) -> list[Path]:
    rng = np.random.default_rng(7)
    wood = np.zeros((1200, 1600, 3), np.uint8)
    wood[:] = (60, 110, 170)  # BGR light brown
    grain = (np.sin(np.arange(1600) / 7.0) * 12).astype(np.int16)
    wood = np.clip(wood.astype(np.int16) + grain[None, :, None], 0, 255).astype(np.uint8)
    return [
        _image(tmp_path, "blank.png", np.full((1200, 1600, 3), 255, np.uint8)),
        _image(tmp_path, "one-colour.jpg", np.full((3000, 3000, 3), (40, 160, 90), np.uint8)),
        _image(tmp_path, "noise.png", rng.integers(0, 256, (900, 1200, 3), dtype=np.uint8)),
        _image(tmp_path, "wood.jpg", wood),
    ]


def test_images_without_a_kingdom_are_refused_never_scored(tmp_path, capsys):
    images = _no_kingdom_images(tmp_path)
    status = main(["score", "--json", *map(str, images)])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""  # no board, not even a castle-only one
    _one_clean_line(captured.err)
    for image in images:
        assert f"{image}: cannot read the image (no kingdom found" in captured.err


def test_corners_around_plain_table_are_refused_and_say_use_corners(tmp_path, capsys):
    wood = _no_kingdom_images(tmp_path)[3]
    status = main(["read", str(wood), "--corners", "300,200,1300,220,1280,1000,320,980"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    _one_clean_line(captured.err)
    assert "no kingdom found" in captured.err
    assert " tap " not in captured.err  # the app's word; here the option is named instead
    assert "--corners" in captured.err


def _big_photo(tmp_path: Path) -> Path:
    """The sample kingdom as a 4000×2250 phone-sized JPEG: over the 1 MB a board file may hold."""
    image = cv2.imread(str(SAMPLE))
    big = cv2.resize(image, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "phone.jpg"
    assert cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 97])
    assert path.stat().st_size > 1_000_000
    return path


def test_a_photo_over_a_megabyte_is_read_whole_from_standard_input(tmp_path):
    photo = _big_photo(tmp_path)
    from_file = _run("score", "--json", str(photo))
    from_stdin = _run("score", "--json", "-", stdin=photo.read_bytes())
    assert from_stdin.returncode == 0, from_stdin.stderr.decode()
    assert json.loads(from_stdin.stdout)["grid"] == json.loads(from_file.stdout)["grid"]


def test_a_photo_over_the_limit_on_standard_input_is_refused_by_its_size(tmp_path, monkeypatch):
    from vision import load_image

    monkeypatch.setattr(load_image, "MAX_FILE_BYTES", 1_500_000)
    photo = _big_photo(tmp_path)
    data = photo.read_bytes() + b"\0" * 600_000  # bytes after the JPEG's end: still a JPEG
    status, out, err, _ = run_cli(["score", "-"], stdin=data)
    assert status == 2 and out == ""
    _one_clean_line(err)
    assert "over the 1 MB limit" in err


def test_closed_standard_input_is_one_line_and_exit_2():
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" -m kingdomino score - <&-', sys.executable],
        capture_output=True,
        timeout=HANG_LIMIT_S,
        cwd=REPO,
    )
    assert done.returncode == 2 and done.stdout == b""
    stderr = done.stderr.decode()
    _one_clean_line(stderr)
    assert len(stderr.splitlines()) == 1 and "standard input is closed" in stderr


def test_a_corrupt_jpeg_is_one_line_saying_it_is_damaged(tmp_path):
    data = bytearray(SAMPLE.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4000] = bytes(4000)  # scan data lost; the end-of-image marker kept
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(bytes(data))
    done = _run("score", str(corrupt))
    assert done.returncode == 2
    stderr = done.stderr.decode()
    _one_clean_line(stderr)  # libjpeg's own "Corrupt JPEG data: ..." line does not leak
    assert len(stderr.splitlines()) == 1 and "is damaged" in stderr


def test_a_grayscale_photo_is_told_it_has_no_colour(tmp_path, capsys):
    grey = _image(tmp_path, "grey.jpg", cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2GRAY))
    for command in ("score", "read"):
        assert main([command, str(grey)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        _one_clean_line(captured.err)
        assert "no colour" in captured.err


def test_read_on_a_folder_says_it_is_a_folder(tmp_path, capsys):
    assert main(["read", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    _one_clean_line(err)
    assert f"{tmp_path}: is a folder" in err and "pipe" not in err


@pytest.mark.parametrize("content", ["null", "42"])
def test_json_without_a_board_says_so(content):
    done = _run("score", "-", stdin=content.encode())
    assert done.returncode == 2
    stderr = done.stderr.decode()
    _one_clean_line(stderr)
    assert "the JSON holds no board" in stderr and "row" not in stderr.split("(")[0]
