"""``--kingdoms all`` on read and score, and ``rank --photo``: every kingdom in one photo."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from kingdomino.cli import main
from tests.vision.find.conftest import lay, table


@pytest.fixture(scope="module")
def two_kingdom_photo(shared_dir, tmp_path_factory):
    """Boards 1 (left) and 2 (right) on a carpet, a third one cut by the bottom edge; the file
    is twice the size of the pixels vision works on, so corners must be scaled back."""
    images = shared_dir / "datasets" / "aau-boards" / "images"
    photo = table(height=1100, width=1600)
    lay(photo, cv2.imread(str(images / "1.jpg")), 150, 150)
    lay(photo, cv2.imread(str(images / "2.jpg")), 900, 150)
    lay(photo, cv2.imread(str(images / "4.jpg")), 550, 850)  # 2.5 rows in the photo
    path = tmp_path_factory.mktemp("table") / "table.jpg"
    big = cv2.resize(photo, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    boards = [(shared_dir / f"datasets/aau-boards/boards/{n}.txt").read_text() for n in (1, 2)]
    return path, [b.split("\n")[:5] for b in boards]


def test_score_all_prints_one_line_per_kingdom(two_kingdom_photo, capsys):
    path, boards = two_kingdom_photo
    assert main(["score", "--json", "--kingdoms", "all", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["kingdom"] for line in lines] == [1, 2]
    assert [line["grid"] for line in lines] == boards
    for line, left in zip(lines, (300, 1800), strict=True):  # in the file's own pixels
        corners = np.array(line["corners"])
        assert corners.shape == (4, 2) and abs(corners[:, 0].min() - left) < 30
        assert isinstance(line["total"], int) and len(line["cells"]) == 25
        assert any("cut by the photo's edge" in w and "not scored" in w for w in line["warnings"])


def test_read_all_text_and_default_one(two_kingdom_photo, capsys):
    path, boards = two_kingdom_photo
    assert main(["read", "--kingdoms", "all", str(path)]) == 0
    out = capsys.readouterr().out
    assert "kingdom 1 (5×5)" in out and "kingdom 2 (5×5)" in out
    assert all(row in out for row in boards[0] + boards[1])
    assert "cut by the photo's edge" in out
    # The default reads one kingdom and names the others.
    assert main(["read", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "kingdom" not in data and any("two kingdoms" in w for w in data["warnings"])


def test_rank_photo_gives_kingdoms_left_to_right(two_kingdom_photo, capsys):
    path, boards = two_kingdom_photo
    assert main(["rank", "--json", "--photo", str(path), "Anna", "Ben"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"]["Anna"]["grid"] == boards[0]
    assert data["scores"]["Ben"]["grid"] == boards[1]
    assert data["scores"]["Ben"]["file"].endswith("#kingdom2")


def test_rank_photo_refuses_a_wrong_number_of_names(two_kingdom_photo, capsys):
    path, _ = two_kingdom_photo
    assert main(["rank", "--photo", str(path), "Anna", "Ben", "Cleo"]) == 2
    err = capsys.readouterr().err
    assert "2 complete kingdom(s) found" in err and "3 names" in err and err.count("\n") == 1
    assert main(["rank", "--photo", str(path), "Anna=a.txt", "Ben"]) == 2
    assert "only the players' names" in capsys.readouterr().err


def test_corners_with_all_and_blank_photo_exit_2(two_kingdom_photo, tmp_path, capsys):
    path, _ = two_kingdom_photo
    corners = "0,0,500,0,500,500,0,500"
    assert main(["score", "--kingdoms", "all", "--corners", corners, str(path)]) == 2
    assert "--corners" in capsys.readouterr().err
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((900, 1200, 3), 240, np.uint8))
    assert main(["score", "--kingdoms", "all", "--json", str(blank)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no kingdom found" in captured.err
