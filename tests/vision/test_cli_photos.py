"""The CLI on raw photos: --corners and --size on `read` and `score` (vision part 2)."""

from __future__ import annotations

import json

import pytest

from kingdomino.cli import main

# game1's frame in the photo's own pixels (2250×4000), as a user would read them off it.
GAME1_CORNERS = "59,796,2176,876,2132,2918,82,2940"


def _labels(path) -> list[str]:
    return [" ".join(line.split()) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def game1(shared_dir):
    return shared_dir / "datasets" / "photos" / "game1.jpg"


def test_read_with_corners_in_photo_pixels(game1, capsys):
    assert main(["read", "--json", "--corners", GAME1_CORNERS, str(game1)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["size"] == 7 and result["grid"] == _labels(game1.with_suffix(".txt"))


def test_score_with_size_and_corners(game1, capsys):
    assert main(["score", "--json", "--size", "7", str(game1)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert main(["score", "--json", "--corners", GAME1_CORNERS, str(game1)]) == 0
    given = json.loads(capsys.readouterr().out)
    assert found["grid"] == given["grid"] == _labels(game1.with_suffix(".txt"))


def test_bad_corners_are_a_usage_error(game1, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["read", "--corners", "1,2,3", str(game1)])
    assert exit_info.value.code == 2
    assert "give 8 numbers" in capsys.readouterr().err


def test_photo_without_kingdom_is_one_line(tmp_path, capsys):
    import cv2
    import numpy as np

    table = tmp_path / "table.jpg"
    cv2.imwrite(str(table), np.full((600, 800, 3), (90, 120, 140), np.uint8))
    assert main(["score", str(table)]) == 2
    err = capsys.readouterr().err.strip()
    assert "no kingdom found" in err and "\n" not in err


REAL_PHOTOS = (
    "game1",
    "game2",
    "blarc1",
    "blarc2",
    "kd_czech_01",
    "kd_czech_02",
    "kd_czech_03",
    "kd_czech_04",
)


@pytest.mark.parametrize("variant", ["photos@1", "photos@0.5", "photos@0.35", "photos soft@0.5"])
@pytest.mark.parametrize("name", REAL_PHOTOS)
def test_every_shared_photo_is_read_exactly_at_every_size(
    shared_dir, tmp_path, capsys, name, variant
):
    # The real photos are the target (lab.real_gate reads them turned and tilted too): plain
    # tiles on cork or dark wood are tiles, not holes, and the castle stays on its tile.
    from lab.real_gate import Case, image_and_truth

    source, scale = variant.split("@")
    case_name = f"{name} soft" if source == "photos soft" else name
    data, truth = image_and_truth(Case(source, case_name, float(scale)))
    photo = tmp_path / f"{name}.jpg"
    photo.write_bytes(data)
    assert main(["score", "--json", str(photo)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["grid"] == [" ".join(row) for row in truth]
