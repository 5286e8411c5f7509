"""``-`` reads standard input wherever the command line takes a photo (``read -``, ``score -``
with ``--kingdoms all``, ``rank --photo -``), as the README says, and ``--lang`` is taken before
or after the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_images"
PHOTO = SAMPLES / "aau-board-1.jpg"  # one kingdom
BOARD = SAMPLES / "aau-board-1.txt"


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "kingdomino", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env=environ,
        timeout=120,
    )


@pytest.fixture(scope="module")
def table_photo() -> bytes:
    """Two sample scenes side by side: a table with two complete kingdoms, left to right
    totalling 46 (scene 19) and 104 (scene 20), as sample_images/README.md lists them."""
    left = cv2.imread(str(SAMPLES / "synthetic-scene-19.jpg"))
    right = cv2.imread(str(SAMPLES / "synthetic-scene-20.jpg"))
    height = max(left.shape[0], right.shape[0])
    left, right = (
        cv2.copyMakeBorder(image, 0, height - image.shape[0], 0, 0, cv2.BORDER_REPLICATE)
        for image in (left, right)
    )
    ok, jpeg = cv2.imencode(".jpg", np.hstack([left, right]))
    assert ok
    return jpeg.tobytes()


def test_read_dash_reads_the_photo_piped_in():
    piped = run("read", "--json", "-", stdin=PHOTO.read_bytes())
    assert piped.returncode == 0, piped.stderr.decode()
    by_name = run("read", "--json", str(PHOTO))
    reading = json.loads(piped.stdout)
    assert reading["file"] == "<stdin>"
    assert reading["grid"] == json.loads(by_name.stdout)["grid"]


def test_read_dash_says_what_to_do_when_no_image_is_piped():
    result = run("read", "-", stdin=BOARD.read_bytes())
    assert result.returncode == 2
    assert result.stderr.decode().strip() == (
        "kingdomino: <stdin>: not an image; pipe a photo into it (a JPEG, PNG, WebP or HEIC "
        "file), or give a file name"
    )


def test_score_dash_reads_every_kingdom_of_a_table_photo(table_photo):
    result = run("score", "--kingdoms", "all", "--json", "-", stdin=table_photo)
    assert result.returncode == 0, result.stderr.decode()
    kingdoms = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(k["file"], k["kingdom"], k["total"]) for k in kingdoms] == [
        ("<stdin>", 1, 46),
        ("<stdin>", 2, 104),
    ]


def test_score_dash_with_kingdoms_all_still_scores_a_board_piped_in():
    result = run("score", "--kingdoms", "all", "--json", "-", stdin=BOARD.read_bytes())
    assert result.returncode == 0, result.stderr.decode()
    assert json.loads(result.stdout)["file"] == "<stdin>"


def test_rank_photo_dash_gives_the_piped_photos_kingdoms_to_the_names(table_photo):
    result = run("rank", "--json", "--photo", "-", "Anna", "Ben", stdin=table_photo)
    assert result.returncode == 0, result.stderr.decode()
    ranking = json.loads(result.stdout)
    assert [(s["name"], s["file"], s["total"]) for s in ranking["standings"]] == [
        ("Ben", "<stdin>#kingdom2", 104),
        ("Anna", "<stdin>#kingdom1", 46),
    ]


@pytest.mark.parametrize(
    "args",
    [
        ("score", "--lang", "pl", str(BOARD)),
        ("score", str(BOARD), "--lang", "pl"),
        ("--lang", "pl", "score", str(BOARD)),
        ("--lang", "it", "score", "--lang", "pl", str(BOARD)),  # the later one wins
    ],
)
def test_lang_is_taken_before_or_after_the_command(args):
    result = run(*args)
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    assert "Razem: 51" in text and "Total" not in text and "Totale" not in text
