"""``read_image``: files, bytes and arrays in; a Reading out; clear errors for non-images."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.board import parse_board
from vision.pipeline import ImageError, read_image


def test_reads_a_straightened_board_file(shared_dir):
    path = shared_dir / "datasets/aau-boards/images/1.jpg"
    expected = parse_board((shared_dir / "datasets/aau-boards/boards/1.txt").read_text())
    reading = read_image(path, size=5)
    assert reading.board == expected
    assert read_image(path.read_bytes()).board == expected  # bytes, size found
    data = reading.to_json()
    assert data["size"] == 5 and data["grid"] == expected.rows_text()
    assert len(data["cells"]) == 25


def test_corners_straighten_a_tilted_board(shared_dir):
    board = cv2.imread(str(shared_dir / "datasets/aau-boards/images/1.jpg"))
    expected = parse_board((shared_dir / "datasets/aau-boards/boards/1.txt").read_text())
    # Put the board into a larger grey scene with some perspective, then give its corners back.
    corners = np.float32([[120, 80], [640, 110], [610, 620], [90, 590]])
    source = np.float32([[0, 0], [500, 0], [500, 500], [0, 500]])
    homography = cv2.getPerspectiveTransform(source, corners)
    scene = cv2.warpPerspective(
        board, homography, (760, 720), borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 90, 90)
    )
    reading = read_image(scene, size=5, corners=corners.tolist())
    assert reading.board == expected


def test_unreadable_input_names_the_file(tmp_path):
    bogus = tmp_path / "notes.jpg"
    bogus.write_text("not an image")
    with pytest.raises(ImageError, match="notes.jpg"):
        read_image(bogus)
    with pytest.raises(ImageError, match="missing.png"):
        read_image(tmp_path / "missing.png")


def test_tiny_image_is_an_image_error():
    with pytest.raises(ImageError, match="too small"):
        read_image(np.zeros((30, 30, 3), np.uint8))
